"""A request whose headers pass 8 KiB (431) is answered in the phone's language wherever its ``lang`` cookie or
``Accept-Language`` comes, also after the header that is too long (as a browser or ``curl -H`` sends them), read in
pieces across the limit; with no such line, or one past what the box reads, in every language of the box."""

from __future__ import annotations

import json
import socket

import pytest

from companion.webserver import ADDRESS_SKIP_BYTES, serve
from tests.test_webserver import OPENINGS, _app, _read_answer


@pytest.fixture
def server():
    running = serve(_app, host="127.0.0.1", port=0)
    yield running
    running.shutdown()


def _send(server, pieces: list[bytes]) -> tuple[int, dict]:
    """Send ``pieces`` one after another on a new connection; the answer's status and JSON body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        for piece in pieces:
            s.sendall(piece)
        head, _, body = _read_answer(s)
    return int(head.split()[1]), json.loads(body)


@pytest.mark.parametrize(("line", "lang"), [(b"Accept-Language: pl", "pl"), (b"accept-language: el-GR,el;q=0.9", "el"),
                                            (b"Cookie: theme=dark; lang=hu", "hu")])
def test_the_language_line_after_the_header_too_long_is_read(server, line, lang):
    status, answer = _send(server, [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 9000 + b"\r\n" + line
                                    + b"\r\n\r\n"])
    assert status == 431
    assert answer == {"error": answer["error"]} and answer["error"].startswith(OPENINGS[lang]), answer


def test_the_language_line_is_found_when_it_arrives_in_pieces_across_the_limit(server):
    pads = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"b" * 900) for i in range(12))
    request = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + pads + b"Accept-Language: pl\r\n\r\n"
    pieces = [request[i:i + 1000] for i in range(0, len(request), 1000)]
    pieces[-1:] = [pieces[-1][:-12], pieces[-1][-12:]]  # the language line cut in two
    status, answer = _send(server, pieces)
    assert status == 431 and answer["error"].startswith(OPENINGS["pl"]), answer


def test_a_language_line_too_long_itself_or_past_what_the_box_reads_is_every_language(server):
    for request in (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: pl," + b"x" * 20_000 + b"\r\n\r\n",
                    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * (ADDRESS_SKIP_BYTES + 1000)
                    + b"\r\nAccept-Language: pl\r\n\r\n"):
        status, answer = _send(server, [request])
        assert status == 431
        assert answer["error"].splitlines()[0].startswith(OPENINGS["en"])
        assert {lang: said[:10] for lang, said in answer["errors"].items()} == {
            lang: opening[:10] for lang, opening in OPENINGS.items()}


def test_the_box_answers_the_next_phone_after_a_431(server):
    status, _ = _send(server, [b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * 9000 + b"\r\n\r\n"])
    assert status == 431
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head, _, _ = _read_answer(s)
    assert head.split()[1] == b"200"
