"""Event streams a phone drops free their connection, their stream slot and their worker at once: before, a stream
whose phone reset it held its connection until its next write (a new state or the heartbeat, seconds later), so from
one address that had filled its 32 connections with streams and dropped them, an immediate ``/api/state`` was closed
unanswered (ECONNRESET) for about 5 s. On 127.0.0.1; every loop is bounded, every wait has a timeout."""

from __future__ import annotations

import contextlib
import socket
import struct
import time

import pytest

from companion.web import create_app
from companion.webauth import RateLimits
from companion.webserver import ServerLimits, serve

pytestmark = pytest.mark.timeout(120)

PER_ADDRESS = 32
LIMITS = ServerLimits(threads=PER_ADDRESS + 12, per_client=PER_ADDRESS)
OPEN = RateLimits(act="1000 per second", read="1000 per second", events="1000 per second", join="1000 per second")


@pytest.fixture
def app(hub, make_view):
    """The phone view with a heartbeat far longer than the test (60 s) and room for 32 streams from one address (as
    many as its connections); nothing is published during the test."""
    hub.publish(make_view([1]))
    return create_app(hub, heartbeat_s=60, rate_limits=OPEN, max_streams=PER_ADDRESS, streams_per_client=PER_ADDRESS)


@pytest.fixture
def box(app):
    """``app`` served on 127.0.0.1."""
    server = serve(app, host="127.0.0.1", port=0, limits=LIMITS)
    yield server
    server.shutdown()


def _streams(port: int, n: int) -> list[socket.socket]:
    """``n`` event streams, each read up to its first state (AssertionError or OSError when one is not given, every
    one of them closed then)."""
    socks: list[socket.socket] = []
    try:
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            socks.append(s)
            s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        for s in socks:
            seen = b""
            while b"event: state" not in seen:
                chunk = s.recv(65536)
                assert chunk, seen
                seen += chunk
                assert len(seen) < 12 or seen.startswith(b"HTTP/1.1 200 "), seen[:80]  # a 503: no stream
    except BaseException:
        _reset(socks)
        raise
    return socks


def _reset(socks: list[socket.socket]) -> None:
    """Close each with a reset (RST), as a phone whose page is killed does."""
    for s in socks:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()


def _state(port: int) -> int:
    """One ``GET /api/state``: its status (an OSError when the connection is closed unanswered)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    if not data:
        raise ConnectionResetError("closed unanswered")
    return int(data.split()[1])


def _state_within(box, seconds: float) -> tuple[int | None, float, list[str]]:
    """Ask for the state until it is answered or ``seconds`` pass, each try once the address has a connection free
    (waited on the server's own count): (status or None, seconds taken, failures)."""
    start = time.monotonic()
    failures: list[str] = []
    while (left := seconds - (time.monotonic() - start)) > 0:
        if not box.wait_connections(lambda s: s.open_connections() < PER_ADDRESS, left):
            failures.append("every connection of the address still held")
            break
        try:
            return _state(box.port), time.monotonic() - start, failures
        except OSError as exc:
            failures.append(type(exc).__name__)
    return None, time.monotonic() - start, failures


def test_the_state_is_answered_within_a_second_after_32_streams_of_one_address_are_reset(box):
    socks = _streams(box.port, PER_ADDRESS)
    assert box.open_connections() == PER_ADDRESS  # the address's every connection is a stream
    _reset(socks)
    status, took, failures = _state_within(box, 1.0)
    assert status == 200, f"no answer in {took:.2f} s: {failures[:5]} ({len(failures)} tries)"


def test_reset_streams_give_back_their_slots_and_workers_at_once(app, box):
    _reset(_streams(box.port, PER_ADDRESS))
    assert box.wait_connections(lambda s: s.open_connections() == 0, 2.0)
    # every slot of the 32 and every worker is free again within a second (each stream looks every 0.5 s; before:
    # none until the heartbeat, 60 s here), and 32 new streams open, none refused
    assert app.extensions["companion"]["streams"].wait_open(0, 1.5), "the dropped streams' slots were still held"
    _reset(_streams(box.port, PER_ADDRESS))


def test_a_stream_closed_without_a_reset_is_freed_too(box):
    socks = _streams(box.port, PER_ADDRESS)
    for s in socks:
        s.close()  # FIN: the page closed
    status, took, failures = _state_within(box, 1.0)
    assert status == 200, f"no answer in {took:.2f} s: {failures[:5]}"
    assert box.wait_connections(lambda s: s.open_connections() == 0, 2.0)


def test_a_phone_that_half_closes_after_its_request_still_gets_the_answer(box):
    # a client that says "nothing more from me" (shutdown of its sending side) right after its request is still
    # answered: only a stream's connection is watched for its end while it is served
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", box.port), timeout=5) as s:
            s.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            s.shutdown(socket.SHUT_WR)
            data = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := s.recv(65536):
                    data += chunk
        assert data.startswith(b"HTTP/1.1 200 ") and b'"version"' in data


def test_a_live_stream_goes_on_while_others_of_its_address_are_dropped(box, hub, make_view):
    (kept,) = _streams(box.port, 1)
    _reset(_streams(box.port, PER_ADDRESS - 1))
    assert box.wait_connections(lambda s: s.open_connections() == 1, 2.0)
    hub.publish(make_view([6, 6]))
    kept.settimeout(3)
    seen = b""
    while b'"total":12' not in seen:
        chunk = kept.recv(65536)
        assert chunk, seen
        seen += chunk
    kept.close()  # the live stream, closed by its phone in turn, gives back its connection too
    assert box.wait_connections(lambda s: s.open_connections() == 0, 2.0)
