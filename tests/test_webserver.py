"""The phone view's server (waitress) on loopback: bounded threads and connections, size limits as JSON,
events flushed at once, a clean shutdown. Every loop is bounded; waits are on conditions with timeouts."""

from __future__ import annotations

import contextlib
import json
import logging
import resource
import socket
import threading
import time
import urllib.request

import pytest

from companion.webserver import ServerLimits, serve

pytestmark = pytest.mark.timeout(120)


def _app(environ, start_response):
    """A tiny WSGI app: ``/`` answers ``ok``; the server's own limits are what is tested here."""
    body = b'{"ok": true}'
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


@pytest.fixture(autouse=True)
def enough_descriptors():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, 8192)
    if wanted < 4000:
        pytest.skip(f"needs about 4000 open files (RLIMIT_NOFILE hard limit is {hard})")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _half_open(port: int, n: int, source: str) -> list[socket.socket]:
    """``n`` connections from ``source`` that each send an unfinished request (no blank line) and wait."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.settimeout(5)
        s.bind((source, 0))
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:  # the box closed it at once (too many from this address): that is the point
            pass
        socks.append(s)
    return socks


def _get(port: int, source: str, timeout: float = 5.0) -> tuple[int, bytes]:
    """One complete ``GET /`` from ``source``: (status, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body



def _said(caplog) -> list[str]:
    """The warnings and tracebacks logged, but waitress's "Task queue depth is N" (logger ``waitress.queue``): a
    request waited for a free worker on a busy machine, which is load, not what these tests look for."""
    return [r.getMessage() for r in caplog.records
            if (r.levelno >= logging.WARNING or r.exc_info) and r.name != "waitress.queue"]

def test_1500_half_open_connections_hold_no_threads_and_the_box_still_answers():
    # before: werkzeug's threaded server started a thread per connection (1,500 connections, 1,505 threads)
    server = serve(_app, host="127.0.0.1", port=0)
    socks: list[socket.socket] = []
    try:
        threads_before = threading.active_count()
        socks = _half_open(server.port, 1500, "127.0.0.1")
        # the box accepted every one (none is left waiting) and kept at most per_client of them open
        assert server.wait_connections(lambda s: s.refused_connections >= 1500 - s.limits.per_client, 30)
        assert server.open_connections() <= server.limits.per_client
        assert threading.active_count() <= threads_before + 2  # a fixed pool: no thread per connection
        status, body = _get(server.port, "127.0.0.2")  # another phone is answered at once
        assert (status, json.loads(body)) == (200, {"ok": True})
    finally:
        for s in socks:
            s.close()
        server.shutdown()


def test_the_whole_connection_limit_full_of_half_open_ones_frees_itself():
    limits = ServerLimits(threads=4, connections=40, per_client=16, idle_s=1)
    server = serve(_app, host="127.0.0.1", port=0, limits=limits)
    socks: list[socket.socket] = []
    try:
        threads_before = threading.active_count()
        for k in range(4):  # 4 addresses x 15: more than the box keeps open at once
            socks += _half_open(server.port, 15, f"127.0.0.{10 + k}")
        assert server.wait_connections(lambda s: s.open_connections() >= limits.connections - 2, 10)
        assert server.open_connections() <= limits.connections
        assert threading.active_count() <= threads_before + 2
        started = time.monotonic()
        status, _ = _get(server.port, "127.0.0.30", timeout=15)  # waits until idle ones are dropped
        assert status == 200
        assert time.monotonic() - started < 12  # idle_s plus the sweeps, not minutes
    finally:
        for s in socks:
            s.close()
        server.shutdown()


def test_a_connection_limit_held_by_requests_trickling_in_still_lets_a_phone_in():
    """Slow clients from many addresses fill every connection and each keep their request alive with a header line
    every 0.3 s (so the idle sweep never drops them): a phone arriving then is answered within seconds, the
    connection stalled the longest giving way to it, instead of waiting for as long as the trickle goes on."""
    limits = ServerLimits(threads=4, connections=40, per_client=16, idle_s=2)
    server = serve(_app, host="127.0.0.1", port=0, limits=limits)
    socks: list[socket.socket] = []
    stop = threading.Event()

    def trickle() -> None:
        for _ in range(100):  # at most 30 s
            if stop.wait(0.3):
                return
            for s in socks:
                with contextlib.suppress(OSError):
                    s.sendall(b"X-Slow: 1\r\n")

    try:
        for k in range(4):  # 4 addresses x 15: more than the box keeps open at once
            socks += _half_open(server.port, 15, f"127.0.0.{10 + k}")
        assert server.wait_connections(lambda s: s.open_connections() >= limits.connections - 2, 10)
        dripping = threading.Thread(target=trickle, daemon=True)
        dripping.start()
        stop.wait(2.5)  # past idle_s: only the trickle keeps them open
        started = time.monotonic()
        status, body = _get(server.port, "127.0.0.30", timeout=8)
        assert (status, json.loads(body)) == (200, {"ok": True})
        assert time.monotonic() - started < 5
        assert server.open_connections() <= limits.connections
    finally:
        stop.set()
        for s in socks:
            s.close()
        server.shutdown()


def _exchange(server, request: bytes) -> tuple[bytes, bytes, bytes]:
    """Send ``request`` raw to ``server`` on a new loopback connection; its answer as :func:`_read_answer` reads it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(request)
        return _read_answer(s)


def test_header_and_body_limits_are_json_answers_without_reading_the_body():
    server = serve(_app, host="127.0.0.1", port=0)
    try:
        head, _, body = _exchange(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n")
        assert head.split()[1] == b"431"
        assert b"application/json" in head and "headers are larger than 8 KiB" in json.loads(body)["error"]

        head, _, body = _exchange(server, b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                  b"Content-Length: 1000000000\r\n\r\n{")  # a gigabyte announced: refused unread
        assert head.split()[1] == b"413"
        assert "larger than 16 KiB" in json.loads(body)["error"]  # the app's own 413 message

        head, _, body = _exchange(server, b"GARBAGE\r\n\r\n")
        assert head.split()[1] == b"400" and json.loads(body)["error"]
    finally:
        server.shutdown()


# hand-written: the 431 answer's opening words in each language of the box
OPENINGS = {"en": "the request's address and headers are larger than 8 KiB",
            "el": "η διεύθυνση και οι κεφαλίδες του αιτήματος είναι μεγαλύτερες από 8 KiB",
            "pl": "adres i nagłówki żądania są większe niż 8 KiB",
            "hu": "a kérés címe és fejlécei nagyobbak 8 KiB-nál"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_431_is_said_in_the_language_the_headers_before_the_limit_ask_for(lang):
    """A phone whose cookie or Accept-Language came before the header that is too long is answered in its language
    (the 431 was English, its headers unread)."""
    server = serve(_app, host="127.0.0.1", port=0)
    try:
        for header in (f"Cookie: lang={lang}".encode(), f"Accept-Language: {lang};q=0.9, en;q=0.5".encode()):
            head, _, body = _exchange(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + b"\r\nX-Big: "
                                      + b"a" * 20_000 + b"\r\n\r\n")
            assert head.split()[1] == b"431"
            assert json.loads(body)["error"].startswith(OPENINGS[lang]), body
    finally:
        server.shutdown()


@pytest.mark.parametrize(("header", "lang"), [(b"Cookie: lang=el", "el"), (b"Accept-Language: pl-PL,pl;q=0.9", "pl"),
                                              (b"Cookie: theme=dark; lang=hu", "hu")])
def test_a_431_of_an_address_too_long_is_said_in_the_phones_language(header, lang):
    """A URL too long fills the 8 KiB before any header; the answer was in all four languages, English first. The box
    reads past the address to the header lines after it and answers in the phone's language, as every refusal."""
    server = serve(_app, host="127.0.0.1", port=0)
    try:
        head, _, body = _exchange(server, b"GET /" + b"a" * 20_000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header
                                  + b"\r\n\r\n")
        assert head.split()[1] == b"431"
        answer = json.loads(body)
        assert answer == {"error": answer["error"]} and answer["error"].startswith(OPENINGS[lang]), answer
        assert "\n" not in answer["error"]
    finally:
        server.shutdown()


@pytest.mark.parametrize("address", [20_000, 200_000])
def test_a_431_of_an_address_too_long_without_a_language_is_said_in_every_language(address):
    """No word of the phone's language after the address (or an address longer than the box reads past): the
    answer is in the four languages of the box, one line each, the box's first, and by language under "errors"."""
    server = serve(_app, host="127.0.0.1", port=0)
    try:
        tail = b"Cookie: lang=el\r\n" if address > 100_000 else b""  # past what the box reads: not seen
        head, _, body = _exchange(server, b"GET /" + b"a" * address + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + tail
                                  + b"\r\n")
        assert head.split()[1] == b"431"
        answer = json.loads(body)
        lines = answer["error"].splitlines()
        assert len(lines) == 4 and lines[0].startswith(OPENINGS["en"])  # the box's language (English here) first
        for lang, opening in OPENINGS.items():
            assert answer["errors"][lang].startswith(opening)
            assert any(line.startswith(opening) for line in lines)
    finally:
        server.shutdown()


def _read_answer(s: socket.socket) -> tuple[bytes, bytes, bytes]:
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := s.recv(65536):
            data += chunk
    return data.partition(b"\r\n\r\n")


def test_an_event_reaches_the_phone_as_soon_as_it_is_published(hub, make_view):
    from companion.web import create_app

    hub.publish(make_view([1]))
    server = serve(create_app(hub, heartbeat_s=60), host="127.0.0.1", port=0)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            seen = b""
            while b'"total":1' not in seen:
                seen += s.recv(65536)
            hub.publish(make_view([6, 6]))
            s.settimeout(3)  # far below the 60 s heartbeat: only an at-once flush gets it here
            while b'"total":12' not in seen:
                seen += s.recv(65536)
    finally:
        server.shutdown()


def test_shutdown_ends_open_event_streams_and_closes_the_port_without_a_traceback(hub, make_view, caplog):
    from companion.web import create_app

    hub.publish(make_view([2]))
    server = serve(create_app(hub, heartbeat_s=60), host="127.0.0.1", port=0)
    streams = [urllib.request.urlopen(server.url + "api/events", timeout=5) for _ in range(3)]  # three phones
    for stream in streams:
        assert stream.readline().startswith(b"retry:")
    started = time.monotonic()
    with caplog.at_level(logging.WARNING):
        server.shutdown()
    assert time.monotonic() - started < 5
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url, timeout=2)
    for stream in streams:
        stream.close()
    # the streams' worker threads finished before the server's sockets closed (not "Bad file descriptor")
    assert _said(caplog) == []


def test_a_request_being_served_when_the_box_stops_gets_its_answer(caplog):
    # e.g. a tap the loop is answering at SIGTERM: its worker finishes before the sockets close (closing
    # them first cut the answer off, and a request ending during the stop logged "Bad file descriptor")
    started = threading.Event()
    stopping = threading.Event()  # set by the server as its stop begins, as it sets the app's "stop"

    class Slow:
        """A request that is answered only once the box has begun to stop."""

        extensions = {"companion": {"stop": stopping}}

        def __call__(self, environ, start_response):
            started.set()
            assert stopping.wait(5)
            start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", "12")])
            return [b'{"ok": true}']

    server = serve(Slow(), host="127.0.0.1", port=0)
    answers: list = []
    client = threading.Thread(target=lambda: answers.append(urllib.request.urlopen(server.url, timeout=5).read()))
    client.start()
    assert started.wait(5)
    with caplog.at_level(logging.WARNING):
        server.shutdown()
    client.join(5)
    assert answers == [b'{"ok": true}']
    assert _said(caplog) == []
    with pytest.raises(OSError):
        urllib.request.urlopen(server.url, timeout=2)


def test_stopping_while_phones_tap_and_stream_logs_nothing_and_never_raises(hub, make_view, caplog):
    # The box stopped (SIGTERM) while phones fetch the state and hold event streams: no "Bad file
    # descriptor" traceback from a request ending as the sockets close, no request left unserved.
    from companion.web import create_app

    hub.publish(make_view([2]))
    for _ in range(12):
        server = serve(create_app(hub), host="127.0.0.1", port=0)
        urllib.request.urlopen(server.url + "api/state", timeout=5).read()  # its workers are up: it answers
        stop = threading.Event()
        answered = threading.Semaphore(0)  # one release per phone, at its first answer

        def tapping(stop=stop, server=server, answered=answered) -> None:
            first = True
            while not stop.is_set():
                with contextlib.suppress(OSError):
                    urllib.request.urlopen(server.url + "api/state", timeout=2).read()
                    if first:
                        answered.release()
                        first = False

        def streaming(server=server, answered=answered) -> None:
            with contextlib.suppress(OSError):
                with urllib.request.urlopen(server.url + "api/events", timeout=5) as stream:
                    answered.release()  # the stream is open: the box is serving it
                    while stream.readline():
                        pass

        phones = [threading.Thread(target=work) for work in (tapping,) * 4 + (streaming,) * 3]
        for phone in phones:
            phone.start()
        assert all(answered.acquire(timeout=5) for _ in phones), "every phone is being served before the stop"
        with caplog.at_level(logging.WARNING):
            server.shutdown()
        stop.set()
        for phone in phones:
            phone.join(5)
    assert _said(caplog) == []


def test_a_taken_port_and_a_bad_host_are_one_line():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        taken_words = r"\(another program already listens on this port\)"
        with pytest.raises(OSError, match=rf"^cannot listen on 127\.0\.0\.1 port {port} {taken_words}$"):
            serve(_app, host="127.0.0.1", port=port)
    with pytest.raises(OSError, match="^--host 999.1.1.1 is not a network address"):
        serve(_app, host="999.1.1.1", port=0)


@pytest.mark.parametrize("host", [b"localhost:99999", b"[::1", b"\xff\xfe", b"a" * 300, b"localhost:-1", b""])
def test_hostile_host_headers_are_refused_not_crashes(hub, make_view, host):
    from companion.web import create_app

    hub.publish(make_view([1]))
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
            head, _, body = _read_answer(s)
        assert head.split()[1] in (b"400", b"403"), head
        assert json.loads(body)["error"]
    finally:
        server.shutdown()


def _post_whole(port: int, size: int, timeout: float = 10.0) -> tuple[bytes, bytes, bytes]:
    """POST a body of ``size`` bytes announced with its Content-Length, sent whole before the answer is read, as a
    phone's browser (and Python's http.client) does: a send the server breaks off (a reset, a broken pipe) is what
    such a client reports instead of the answer, so it gives ``(b"", b"", b"")``; else the answer as
    :func:`_read_answer` reads it."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        try:
            s.sendall(b"POST /api/report HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: %d\r\n\r\n" % size)
            s.sendall(b"x" * size)
        except (ConnectionResetError, BrokenPipeError):
            return b"", b"", b""
        return _read_answer(s)


def test_a_body_too_large_sent_whole_is_always_answered_413_not_reset():
    """A 3 MB body to a phone's POST route got a connection reset about 1 time in 4 instead of its 413: the server
    refuses the body from its headers and closed the connection with the body still arriving, and the reset that
    closing sends drops the answer at the phone. The server now stops writing after its answer and reads on,
    throwing the body away as it comes, until the phone has sent it and closes: every try reads the 413."""
    server = serve(_app, host="127.0.0.1", port=0)
    try:
        statuses = []
        for _ in range(24):
            head, _, body = _post_whole(server.port, 3 * 1024 * 1024)
            statuses.append(head.split()[1] if head else b"reset")
            if head:
                assert "larger than 16 KiB" in json.loads(body)["error"]
        assert statuses == [b"413"] * 24, statuses
        # each closed once the phone had read its answer and closed it
        assert server.wait_connections(lambda s: s.open_connections() == 0, timeout=10)
    finally:
        server.shutdown()


def test_a_refused_connection_lingers_only_within_its_bounds():
    """The lingering read is bounded: a phone that sends on past ``linger_bytes`` is cut off (its send breaks), and
    one that keeps its connection open and quiet after the answer is closed by the server's next sweep once
    ``linger_s`` has passed (the sweep runs every ``idle_s / 4`` s: 10 s here, long before the 40 s idle limit);
    nothing of the body is kept meanwhile."""
    server = serve(_app, host="127.0.0.1", port=0,
                   limits=ServerLimits(idle_s=40, linger_bytes=1024 * 1024, linger_s=0.5))
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
            s.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n")
            with pytest.raises((ConnectionResetError, BrokenPipeError)):
                for _ in range(1000):  # 64 MB, far past the 1 MiB the server reads on
                    s.sendall(b"x" * 65536)
        assert server.wait_connections(lambda srv: srv.open_connections() == 0, timeout=10)
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as quiet:
            quiet.sendall(b"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n{")
            head, _, _ = _read_answer(quiet)  # the answer, then the server's end of writing
            assert head.split()[1] == b"413"
            assert server.wait_connections(lambda srv: srv.open_connections() == 0, timeout=25)  # not idle's 40 s
    finally:
        server.shutdown()
