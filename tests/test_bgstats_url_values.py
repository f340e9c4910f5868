"""The BG Stats link (``bgstats_url``) carries its play as the phones' JSON is written (``json_text``): valid JSON
whatever the play holds. Before, plain ``json.dumps`` wrote NaN and Infinity (which BG Stats' JSON refuses),
raised on a set, bytes or a number too long to write (the finished game's phone view then failed), and a name
holding a lone surrogate failed the URL encoding."""

from __future__ import annotations

import json
import logging
import urllib.parse

import pytest

from companion.flow_export import BGSTATS_URL, bgstats_url


def strict(text: str):
    """JSON as a strict parser reads it: NaN and Infinity refused."""
    def refuse(name):
        raise ValueError(f"not JSON: {name}")
    return json.loads(text, parse_constant=refuse)


def carried(url: str) -> str:
    assert url.startswith(BGSTATS_URL)
    return urllib.parse.unquote(url[len(BGSTATS_URL):])


def play(**player) -> dict:
    return {"sourceName": "tabletop-companion", "game": {"name": "Among the Stars", "bggId": 121408},
            "playDate": "2026-12-07 20:15:00",
            "players": [{"name": "Νίκος", "score": 61, "winner": False}, {"name": "Kasia", "score": 64, **player}]}


def test_an_ordinary_play_is_the_same_link_as_before():
    """A play of plain values: the same characters as plain json.dumps wrote (compact, letters as they are)."""
    p = play(winner=True)
    url = bgstats_url(p)
    assert carried(url) == json.dumps(p, separators=(",", ":"), ensure_ascii=False)
    assert strict(carried(url)) == p
    assert "%CE%9D%CE%AF%CE%BA%CE%BF%CF%82" in url            # Νίκος in UTF-8, URL-encoded
    assert " " not in url and '"' not in url and "{" not in url


ODD = {  # a value from a database changed by hand -> what the link carries, and whether its place is logged
    "nan": (float("nan"), None, True),
    "inf": (float("inf"), None, True),
    "-inf": (-float("inf"), None, True),
    "5001 digits": (10 ** 5000, None, True),
    "set": ({3, 1, 2}, [1, 2, 3], True),
    "bytes": (b"Kasia \xc5\x81", "Kasia Ł", True),
    "whole-number key": ({1: "one"}, {"1": "one"}, False),   # JSON writes a number key as its text by itself
}


@pytest.mark.parametrize("name", list(ODD))
def test_an_odd_value_goes_out_as_the_nearest_valid_json_and_where_is_logged(name, caplog):
    odd, sent, logged = ODD[name]
    key = "note_" + "".join(c if c.isalnum() else "_" for c in name)  # a place of its own: each is logged once
    with caplog.at_level(logging.WARNING, logger="companion.webstream"):
        got = strict(carried(bgstats_url(play(**{key: odd}, winner=True))))
    assert got["players"][1][key] == sent
    assert got["players"][1]["score"] == 64 and got["players"][0] == {"name": "Νίκος", "score": 61, "winner": False}
    assert any(f"$.players[1].{key}" in r.getMessage() for r in caplog.records) is logged


def test_a_name_with_a_lone_surrogate_gives_an_escaped_link_instead_of_an_error():
    """Before: UnicodeEncodeError from the URL encoding (UTF-8 cannot carry U+D800)."""
    url = bgstats_url(play(name="Ádám\ud800", winner=True))
    text = carried(url)
    assert text.isascii() and "\\u00c1d\\u00e1m\\ud800" in text
    assert strict(text)["players"][1]["name"] == "Ádám\ud800"
    assert strict(text)["players"][0]["name"] == "Νίκος"


def test_a_play_nested_past_any_play_is_cut_and_still_valid():
    """5,000 levels (past Python's recursion limit, where json.dumps raised RecursionError): cut to null below
    the depth the phones' JSON keeps, the rest of the play as it was."""
    deep: dict = {"score": 1}
    for _ in range(5000):
        deep = {"inner": deep}
    got = strict(carried(bgstats_url(play(extra=deep, winner=True))))
    depth, node = 0, got["players"][1]["extra"]
    while isinstance(node, dict):
        node, depth = node["inner"], depth + 1
    assert node is None and depth < 5000
    assert got["players"][1]["score"] == 64
