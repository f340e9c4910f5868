"""A 404 (and 405, 416) says the path back to the phone with its control and format characters escaped (a NUL, a
right-to-left override that would turn the message around on the phone) and cut to a bounded length."""

from __future__ import annotations

import unicodedata

import pytest

from companion.webcontext import said_back


@pytest.mark.parametrize(("url", "shown"), [("/%00", "/\\x00"), ("/%E2%80%AE", "/\\u202e"),
                                            ("/a%E2%80%8Bb", "/a\\u200bb"), ("/x%0A%0Dy", "/x\\n\\ry"),
                                            ("/%E2%80%A8", "/\\u2028")])
def test_odd_characters_of_a_path_are_escaped_in_the_404(client, url, shown):
    answer = client.get(url)
    assert answer.status_code == 404
    error = answer.get_json()["error"]
    assert error == f"no such page on the box: {shown}"
    assert not any(unicodedata.category(c) in ("Cc", "Cf") for c in error)


def test_letters_of_any_language_are_said_back_as_they_are(client):
    answer = client.get("/%CE%B6%CE%AC%CF%81%CE%B9-%C5%82%C3%B3d%C5%BA", headers={"Accept-Language": "pl"})
    assert answer.status_code == 404
    assert answer.get_json()["error"].endswith(": /ζάρι-łódź")


def test_a_long_path_is_cut_and_never_in_the_middle_of_an_escape(client):
    answer = client.get("/" + "a" * 55 + "%E2%80%AE" * 10)
    error = answer.get_json()["error"]
    assert error.endswith("/" + "a" * 55 + "…")  # "\u202e" (6 characters) would pass 60: left out whole
    assert len(client.get("/" + "b" * 5000).get_json()["error"]) < 120


def test_the_405_says_the_path_back_escaped_too(client):
    answer = client.post("/words/%E2%80%AE.js")  # a page that is read (GET), its name with an override
    assert answer.status_code == 405
    assert answer.get_json()["error"].endswith(" /words/\\u202e.js is used")
    assert "\u202e" not in answer.get_json()["error"]


def test_said_back_escapes_only_what_a_reader_cannot_see():
    assert said_back("Ann\u202eB\x00\udcce é") == "Ann\\u202eB\\x00\\udcce é"
    assert said_back("x" * 70) == "x" * 60 + "…"
    assert said_back("x" * 60) == "x" * 60
