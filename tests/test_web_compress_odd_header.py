"""An ``Accept-Encoding`` entry werkzeug's parser fails on (``gzip;*68=3``: an option name it cannot write back,
``IndexError``) is dropped, not the page: every page answered 500 to such a header before."""

from __future__ import annotations

import pytest

from companion.hub import StateHub
from companion.web import create_app
from companion.webcompress import accepted_encodings


@pytest.mark.parametrize("header, accepted", [
    ("gzip;*68=3", {}),                                   # the one entry unreadable: accepts none
    ("br, gzip;*68=3", {"br": 1.0}),                      # the readable entry kept
    ("gzip;*=1, zstd;q=0.5", {"zstd": 0.5}),
])
def test_an_entry_the_parser_fails_on_is_dropped(header, accepted):
    assert accepted_encodings(header) == accepted


@pytest.mark.parametrize("path", ["/", "/api/state", "/static/flow.js"])
def test_pages_answer_a_header_the_parser_fails_on(path):
    client = create_app(StateHub()).test_client()
    answer = client.get(path, headers={"Accept-Encoding": "gzip;*68=3"})
    assert answer.status_code in (200, 403), answer.status_code
    assert "Content-Encoding" not in answer.headers
    kept = client.get(path, headers={"Accept-Encoding": "br, gzip;*68=3"})
    assert kept.status_code == answer.status_code
    if path == "/static/flow.js":
        assert kept.headers.get("Content-Encoding") == "br"
