"""Compressed answers (:mod:`companion.webcompress`): the whole list of notes, about 2 MB of JSON at 3,000 notes, goes
compressed to a phone that accepts zstd, Brotli or gzip, compressed once per state, language and encoding; a phone
that accepts none gets it as before; the live view's event stream is never compressed, so each state reaches the
phone as soon as it is published."""

from __future__ import annotations

import gzip
import http.client
import json
import time
from pathlib import Path

import brotli
import pytest
from backports import zstd
from flask_compress import flask_compress

from companion.hub import StateHub
from companion.i18n import Text
from companion.web import create_app, serve

#: Roll for the Galaxy p.1 Components: each tile exists once (hand-made notes; the wording is the engine's own).
NOTE = "the tile {tile} is not in the bag (another player has it)"

DECODE = {"gzip": gzip.decompress, "br": brotli.decompress, "zstd": zstd.decompress}


def _publish(hub: StateHub, n: int) -> None:
    notes = [{"what": Text(NOTE, tile=f"Gem World {k}"), "where": "Ann", "rule": "Roll for the Galaxy, p.1",
              "severity": "error", "todo": ""} for k in range(n, 0, -1)]  # newest first
    hub.publish({"mode": "play", "game": {"flow": "roll", "findings": notes[:6], "findings_total": n,
                                          "all_findings": notes}})


@pytest.fixture
def phone():
    hub = StateHub()
    _publish(hub, 3000)
    return hub, create_app(hub).test_client()


@pytest.mark.parametrize("accepts, encoding", [
    ("gzip, deflate, br, zstd", "zstd"),  # Chromium 123 and later
    ("gzip, deflate, br", "br"),
    ("gzip", "gzip"),
    ("br;q=0.5, gzip;q=1.0", "gzip"),  # the phone's own preference first
])
def test_the_whole_list_goes_compressed_in_what_the_phone_accepts(phone, accepts, encoding):
    hub, client = phone
    plain = client.get("/api/findings", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    whole = plain.data
    assert len(whole) > 300_000  # 3,000 notes
    answer = client.get("/api/findings", headers={"Accept-Encoding": accepts})
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in answer.headers["Vary"] and answer.headers["Cache-Control"] == "no-store"
    assert int(answer.headers["Content-Length"]) == len(answer.data) < len(whole) / 10
    assert DECODE[encoding](answer.data) == whole
    assert len(json.loads(whole)["findings"]) == 3000


def test_one_state_is_compressed_once_per_language_and_encoding(phone, monkeypatch):
    hub, client = phone
    made: list[str] = []
    compress = flask_compress._compress_data

    def counted(app, data, algorithm):
        made.append(algorithm)
        return compress(app, data, algorithm)

    monkeypatch.setattr(flask_compress, "_compress_data", counted)
    gz = {"Accept-Encoding": "gzip", "Accept-Language": "pl"}
    first = [client.get("/api/findings", headers=gz).data for _ in range(4)]
    assert len(set(first)) == 1 and made == ["gzip"]
    client.get("/api/findings", headers={**gz, "Accept-Encoding": "br"})
    client.get("/api/findings", headers={**gz, "Accept-Language": "el"})
    assert made == ["gzip", "br", "gzip"]
    _publish(hub, 3001)  # a new note: the new state is compressed anew, and holds it
    newer = client.get("/api/findings", headers=gz)
    assert made[-1] == "gzip" and len(made) == 4
    assert len(json.loads(gzip.decompress(newer.data))["findings"]) == 3001


def test_small_answers_errors_and_the_picture_go_as_they_are(phone):
    hub, client = phone
    accepts = {"Accept-Encoding": "gzip, br, zstd"}
    assert "Content-Encoding" not in client.get("/api/me", headers=accepts).headers  # a few bytes
    assert "Content-Encoding" not in client.get("/nothing-here", headers=accepts).headers  # a 404
    state = client.get("/api/state", headers=accepts)  # compressed or not by its size, read whole either way
    coded = state.headers.get("Content-Encoding")
    assert json.loads(DECODE[coded](state.data) if coded else state.data)["game"]["findings_total"] == 3000


def test_the_event_stream_is_not_compressed_and_each_state_arrives_at_once():
    """Through the box's own server (waitress), as a phone that accepts every encoding: the stream is plain
    ``text/event-stream`` and a state published reaches the phone within a fraction of a second."""
    hub = StateHub()
    _publish(hub, 10)
    server = serve(create_app(hub, heartbeat_s=30), host="127.0.0.1", port=0)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/events", headers={"Accept-Encoding": "gzip, deflate, br, zstd",
                                                    "Host": f"127.0.0.1:{server.port}"})
        response = conn.getresponse()
        assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
        assert response.getheader("Content-Encoding") is None

        def until(text: str) -> float:
            seen, start = b"", time.monotonic()
            while text.encode() not in seen:
                seen += response.fp.read1(65536)
            return time.monotonic() - start

        until('"findings_total":10')
        start = time.monotonic()
        _publish(hub, 11)
        until('"findings_total":11')
        assert time.monotonic() - start < 1.0  # not held back by a compressor waiting for more bytes
        conn.close()
    finally:
        server.shutdown()


@pytest.mark.parametrize("accepts, encoding", [
    ("gzip;q=0", None),  # RFC 9110 12.5.3: a weight of 0 is "not acceptable"
    ("zstd;q=0", None),
    ("GZIP;Q=0", None),
    ("gzip; q=0", None),
    ("br;q=0, gzip;q=0", None),
    ("*", "zstd"),  # anything: the box's first choice
    ("*;q=0", None),
    ("identity;q=0", None),  # nothing else offered: the answer goes as it is, readable by anyone
    ("identity;q=0, *;q=0", None),
    ("gzip;q=0, *", "zstd"),
    ("zstd;q=0, *;q=0.5", "br"),  # zstd refused, the wildcard gives br and gzip 0.5: the box prefers br
    ("zstd;q=0, br;q=0, *", "gzip"),
    ("x-unknown, y-other;q=0.9", None),
    ("gzip;q=abc, br", "br"),  # a malformed weight drops its entry
    ("gzip;q=2, br;q=0.1", "br"),
    ("br, zstd;q=0.5;q=0.5;q=0.5", "br"),
    ("gzip;q=0.5, gzip;q=0", "gzip"),  # named twice: its highest weight
    ("gzip;level=1;q=0, br;q=0.2", "br"),
    (", ".join(f"x-c{i};q=0.{i % 10}" for i in range(400)) + ", gzip;q=0.001", "gzip"),
    ("", None),
])
def test_a_coding_the_phone_refuses_is_never_sent(phone, accepts, encoding):
    """Hand-read from RFC 9110 12.5.3 (Accept-Encoding): each answer is in the coding the header prefers among zstd,
    Brotli and gzip, and never in one it weighs 0; with none acceptable it goes as it is."""
    _hub, client = phone
    whole = client.get("/api/findings", headers={"Accept-Encoding": "identity"}).data
    answer = client.get("/api/findings", headers={"Accept-Encoding": accepts})
    assert answer.status_code == 200
    assert answer.headers.get("Content-Encoding") == encoding
    assert (DECODE[encoding](answer.data) if encoding else answer.data) == whole


@pytest.mark.parametrize("accepts, encoding", [("gzip", "gzip"), ("gzip;q=0", None), ("*;q=0", None), ("*", "gzip"),
                                               ("gzip;q=0, *", "zstd"), ("br", "br"), ("br;q=0, gzip;q=0", None)])
def test_the_words_script_is_gzipped_only_for_a_phone_that_accepts_gzip(phone, accepts, encoding):
    """The words script is kept gzipped (its route sends that when gzip is accepted at all); a phone refusing gzip
    gets it plain or in what it does accept."""
    _hub, client = phone
    answer = client.get("/words/pl.js", headers={"Accept-Encoding": accepts})
    assert answer.status_code == 200
    assert answer.headers.get("Content-Encoding") == encoding
    body = DECODE[encoding](answer.data) if encoding else answer.data
    assert body.startswith(b"window.BOX_WORDS = ")


@pytest.mark.parametrize("method", ["HEAD", "GET"])
def test_a_head_or_a_range_gets_the_whole_answers_headers(phone, method):
    """A HEAD says the compressed answer's length without sending it; a Range asks nothing of the box, which sends no
    Accept-Ranges: the whole answer comes back (RFC 9110 14.2: a server may ignore Range)."""
    _hub, client = phone
    headers = {"Accept-Encoding": "br", "Range": "bytes=0-10"}
    full = client.get("/api/findings", headers={"Accept-Encoding": "br"})
    answer = client.open("/api/findings", method=method, headers=headers)
    assert answer.status_code == 200 and answer.headers["Content-Encoding"] == "br"
    assert answer.headers["Content-Length"] == full.headers["Content-Length"]
    assert answer.data == (b"" if method == "HEAD" else full.data)


@pytest.mark.parametrize("accepts", ["*", "gzip;q=0", "br, zstd"])
def test_heads_of_the_live_view_leave_its_slots_free(accepts):
    """A HEAD of ``/api/events`` (a link preview, a checker) took one of the phone's 4 stream slots and never gave it
    back (the stream never ran, so its ``finally`` never did): after 4 of them the phone's live view was refused
    (503, "close other tabs") until the box restarted. Now each HEAD is answered and its slot given back; the live
    view then streams, uncompressed, whatever the phone accepts."""
    hub = StateHub()
    _publish(hub, 3)
    server = serve(create_app(hub, heartbeat_s=30), host="127.0.0.1", port=0)
    try:
        host = {"Host": f"127.0.0.1:{server.port}", "Accept-Encoding": accepts}
        for _ in range(10):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            conn.request("HEAD", "/api/events", headers=host)
            head = conn.getresponse()
            assert head.status == 200 and head.getheader("Content-Encoding") is None
            conn.close()
        # the server gives each slot back once it has closed that answer: the live view is let in within 5 s
        deadline = time.monotonic() + 5.0
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            conn.request("GET", "/api/events", headers=host)
            live = conn.getresponse()
            if live.status != 503 or time.monotonic() > deadline:
                break
            conn.close()
        assert live.status == 200 and live.getheader("Content-Encoding") is None
        seen = b""
        while b"Gem World 3" not in seen:
            seen += live.fp.read1(65536)
        conn.close()
    finally:
        server.shutdown()


@pytest.mark.parametrize("lang, words", [
    ("en", "the part of /static/manifest.webmanifest asked for (bytes=abc) is not there: ask for the whole file"),
    ("pl", "żądanej części /static/manifest.webmanifest (bytes=abc) nie ma: poproś o cały plik"),
    ("el", "το τμήμα που ζητήθηκε (bytes=abc) από το αρχείο /static/manifest.webmanifest δεν υπάρχει"),
    ("hu", "a(z) /static/manifest.webmanifest kért része (bytes=abc) nem létezik"),
])
def test_a_range_the_box_cannot_give_is_refused_in_the_phones_language(phone, lang, words):
    """A static file's Range that is not there (or not one range) is a 416 in the phone's words, with the file's
    length in ``Content-Range`` (RFC 9110 15.5.17); a range that is there comes back as it asked."""
    _hub, client = phone
    part = client.get("/static/manifest.webmanifest", headers={"Range": "bytes=0-9"})
    assert part.status_code == 206 and len(part.data) == 10
    length = int(part.headers["Content-Range"].rsplit("/", 1)[1])
    refused = client.get("/static/manifest.webmanifest", headers={"Range": "bytes=abc", "Accept-Language": lang})
    assert refused.status_code == 416 and refused.headers["Content-Range"] == f"bytes */{length}"
    assert words in refused.get_json()["error"]
    part.close()
    refused.close()


STATIC = Path(__file__).resolve().parents[1] / "companion" / "static"


@pytest.mark.parametrize("accepts, encoding", [
    ("gzip, deflate, br, zstd", "br"),  # Chromium: every one alike, the smallest for these files
    ("gzip, zstd", "zstd"),
    ("gzip", "gzip"),
    ("gzip;q=0.5, zstd;q=1", "zstd"),
    ("gzip;q=0, br;q=0, zstd;q=0", None),
    ("identity", None),
])
def test_the_pages_files_go_compressed_and_are_checked_again_by_their_tag(phone, accepts, encoding):
    """``/static/flow.js`` (31 KB) went as a file whatever the phone accepted. Now it goes in the encoding the phone
    rates highest (Brotli of the three alike: 8.5 KB), the same bytes once decoded; its caching is kept: no-cache, a
    Last-Modified, an ETag naming the encoding, and a phone asking again with that tag (or the date) gets a 304 with
    no body. A phone that accepts none gets the file as before, with the file's own tag."""
    _hub, client = phone
    whole = (STATIC / "flow.js").read_bytes()
    answer = client.get("/static/flow.js", headers={"Accept-Encoding": accepts})
    assert answer.status_code == 200 and answer.headers.get("Content-Encoding") == encoding
    assert (DECODE[encoding](answer.data) if encoding else answer.data) == whole
    assert answer.headers["Cache-Control"] == "no-cache" and "Last-Modified" in answer.headers
    assert "Accept-Encoding" in answer.headers["Vary"]
    etag = answer.headers["ETag"]
    assert etag.endswith(f':{encoding}"') if encoding else ":" not in etag
    again = client.get("/static/flow.js", headers={"Accept-Encoding": accepts, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    dated = client.get("/static/flow.js", headers={"Accept-Encoding": accepts,
                                                   "If-Modified-Since": answer.headers["Last-Modified"]})
    assert dated.status_code == 304 and dated.data == b""
    other = client.get("/static/flow.js", headers={"Accept-Encoding": accepts, "If-None-Match": '"another"'})
    assert other.status_code == 200 and other.data == answer.data
    if encoding:
        assert len(answer.data) < len(whole) / 3


def test_a_pages_file_is_compressed_once_per_version_and_encoding(phone, monkeypatch):
    """Each file's compressed form is kept: ten phones asking for flow.css in Brotli cost one compression; gzip is
    another; the icons (PNG), a small file, a Range, a missing file and a path outside the folder go as before."""
    from companion import webcompress

    calls = []
    real = webcompress._packed
    monkeypatch.setattr(webcompress, "_packed", lambda data, coding: calls.append(coding) or real(data, coding))
    hub = StateHub()
    client = create_app(hub).test_client()
    for _ in range(10):
        assert client.get("/static/flow.css", headers={"Accept-Encoding": "br"}).headers["Content-Encoding"] == "br"
    client.get("/static/flow.css", headers={"Accept-Encoding": "gzip"})
    assert calls == ["br", "gzip"]
    accepts = {"Accept-Encoding": "gzip, br, zstd"}
    icon = client.get("/static/icons/icon-192.png", headers=accepts)
    assert icon.status_code == 200 and "Content-Encoding" not in icon.headers
    assert icon.data == (STATIC / "icons" / "icon-192.png").read_bytes()
    small = client.get("/static/manifest.webmanifest", headers=accepts)  # 751 bytes: under MIN_BYTES
    assert small.status_code == 200 and "Content-Encoding" not in small.headers
    part = client.get("/static/flow.css", headers={"Range": "bytes=0-9", **accepts})
    assert part.status_code == 206 and part.data == (STATIC / "flow.css").read_bytes()[:10]
    assert "Content-Encoding" not in part.headers
    assert client.get("/static/nothing.js", headers=accepts).status_code == 404
    assert client.get("/static/../web.py", headers=accepts).status_code == 404
    for answer in (icon, small, part):
        answer.close()
    assert calls == ["br", "gzip"]


def test_phones_asking_at_once_cost_one_compression_per_file_and_encoding(monkeypatch):
    """Sixteen phones opening the page at once (a table's phones after the box restarts) asked for flow.js together:
    each compressed it anew until the first had kept it (28 compressions for 12 were counted with 24 requests of 4
    files). Now the first compresses it and the others wait for its bytes: one Brotli compression, sixteen answers
    with the same bytes."""
    import threading

    from companion import webcompress

    calls = []
    real = webcompress._packed
    arrived = []
    all_in = threading.Condition()

    def slow(data, coding):  # as Brotli 11 of 31 KB on the box's Pi: still compressing when the others ask
        calls.append(coding)
        with all_in:
            all_in.wait_for(lambda: len(arrived) == 16, timeout=5)
        return real(data, coding)

    monkeypatch.setattr(webcompress, "_packed", slow)
    app = create_app(StateHub())
    start = threading.Barrier(16)
    got = []

    def phone_asks():
        client = app.test_client()
        start.wait()
        with all_in:
            arrived.append(1)
            all_in.notify_all()
        answer = client.get("/static/flow.js", headers={"Accept-Encoding": "br"})
        got.append((answer.status_code, answer.headers.get("Content-Encoding"), answer.data))

    threads = [threading.Thread(target=phone_asks) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert calls == ["br"]
    assert len(got) == 16 and {(status, coding) for status, coding, _ in got} == {(200, "br")}
    assert {data for _, _, data in got} == {brotli.compress((STATIC / "flow.js").read_bytes(), quality=11)}


@pytest.mark.parametrize("accepts", ["br", "gzip, deflate, br, zstd"])
def test_a_phone_asking_again_by_date_alone_is_told_so_with_the_compressed_answers_tag(phone, accepts):
    """A phone (or a cache on the way) holding flow.js compressed and asking again with its date alone was answered
    304 by the file's own check, with the uncompressed file's ETag, no "Vary: Accept-Encoding" and "Accept-Ranges"
    (RFC 9110 15.4.5: a 304 carries the ETag and Vary a 200 would). Now the date is checked against the answer the
    phone would get: the same 304, naming that answer's ETag and Vary."""
    _hub, client = phone
    answer = client.get("/static/flow.js", headers={"Accept-Encoding": accepts})
    dated = client.get("/static/flow.js", headers={"Accept-Encoding": accepts,
                                                   "If-Modified-Since": answer.headers["Last-Modified"]})
    assert dated.status_code == 304 and dated.data == b""
    assert dated.headers["ETag"] == answer.headers["ETag"] and dated.headers["ETag"].endswith(':br"')
    assert "Accept-Encoding" in dated.headers["Vary"] and "Accept-Ranges" not in dated.headers
    earlier = client.get("/static/flow.js", headers={"Accept-Encoding": accepts,
                                                     "If-Modified-Since": "Mon, 01 Jan 2001 00:00:00 GMT"})
    assert earlier.status_code == 200 and earlier.headers["Content-Encoding"] == "br"
    kept = client.get("/static/flow.js", headers={"If-Modified-Since": answer.headers["Last-Modified"]})
    assert kept.status_code == 304 and kept.data == b"" and ":" not in kept.headers["ETag"]  # takes no encoding
    small = client.get("/static/manifest.webmanifest", headers={"Accept-Encoding": accepts})
    again = client.get("/static/manifest.webmanifest", headers={"Accept-Encoding": accepts,
                                                                 "If-None-Match": small.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""  # a file sent as it is is still checked
    assert client.get("/static/manifest.webmanifest", headers={
        "Accept-Encoding": accepts, "If-Modified-Since": small.headers["Last-Modified"]}).status_code == 304
