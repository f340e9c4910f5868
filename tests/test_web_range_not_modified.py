"""A phone holding a page file that asks for a part of it (``Range``) with ``If-Modified-Since`` or
``If-None-Match`` naming the file as it is gets 304 Not Modified (RFC 9110 section 13.2.2: steps 3 and 4, the
conditions, come before step 5, the range); it got 206 and the part again (werkzeug's ``make_conditional`` answers
the range first). A file changed since, or an ``If-Range`` alone, still gets its part (206)."""

from __future__ import annotations

import pytest

from companion.web import create_app

FILE = "/static/box.js"
LONG_AGO = "Mon, 01 Jan 1990 00:00:00 GMT"


@pytest.fixture
def phone(hub):
    app = create_app(hub)
    app.testing = True
    return app.test_client()


@pytest.fixture
def held(phone):
    """The file's whole answer as the phone first got it."""
    whole = phone.get(FILE)
    assert whole.status_code == 200 and whole.headers["ETag"] and whole.headers["Last-Modified"]
    return whole


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("condition", ["If-Modified-Since", "If-None-Match", "both"])
@pytest.mark.parametrize("accept", ["identity", "gzip, br"])
def test_a_range_of_a_file_the_phone_holds_is_304(phone, held, method, condition, accept):
    sent = {"Range": "bytes=0-9", "Accept-Encoding": accept}
    if condition in ("If-Modified-Since", "both"):
        sent["If-Modified-Since"] = held.headers["Last-Modified"]
    if condition in ("If-None-Match", "both"):
        sent["If-None-Match"] = held.headers["ETag"]
    answer = phone.open(FILE, method=method, headers=sent)
    assert answer.status_code == 304
    assert answer.data == b"" and "Content-Range" not in answer.headers
    assert answer.headers["ETag"] == held.headers["ETag"]
    assert answer.headers["Cache-Control"] == held.headers["Cache-Control"]


def test_a_range_of_a_file_changed_since_is_its_part(phone, held):
    answer = phone.get(FILE, headers={"Range": "bytes=0-9", "If-Modified-Since": LONG_AGO})
    assert answer.status_code == 206
    assert answer.data == held.data[:10]
    assert answer.headers["Content-Range"] == f"bytes 0-9/{len(held.data)}"


def test_another_tag_is_not_the_file_held_and_gets_its_part(phone, held):
    # If-None-Match is sent: If-Modified-Since is not looked at (RFC 9110 section 13.1.3), however recent
    answer = phone.get(FILE, headers={"Range": "bytes=5-9", "If-None-Match": '"another"',
                                      "If-Modified-Since": held.headers["Last-Modified"]})
    assert answer.status_code == 206 and answer.data == held.data[5:10]


def test_if_range_naming_the_file_gets_the_part_and_an_old_one_the_whole_file(phone, held):
    part = phone.get(FILE, headers={"Range": "bytes=0-9", "If-Range": held.headers["ETag"]})
    whole = phone.get(FILE, headers={"Range": "bytes=0-9", "If-Range": '"older"'})
    assert part.status_code == 206 and part.data == held.data[:10]
    assert whole.status_code == 200 and whole.data == held.data


def test_a_condition_on_a_post_is_no_304(phone):
    answer = phone.post("/api/action", json={}, headers={"If-None-Match": "*", "Range": "bytes=0-9"})
    assert answer.status_code == 403  # not joined: the usual answer, the conditions not looked at
