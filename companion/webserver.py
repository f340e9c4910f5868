"""Serving the phone view: waitress (a production WSGI server) with bounds a box on a shared Wi-Fi needs.

Why waitress: one asyncore thread reads every connection and only a complete request reaches a worker
thread, so a half-open connection (a phone that never finishes its request, a port scanner, a
"slowloris" guest) costs a file descriptor, never a thread; the workers are a fixed pool, large enough
for the phones' Server-Sent Events streams (each holds a worker while it is open) plus their taps.
Output is flushed to the socket at once (waitress 3 sends as soon as it has bytes), so an SSE event
reaches the phones when it is published.

The bounds (all per box; see :class:`ServerLimits`):

- at most ``connections`` open connections in all and ``per_client`` from one address (more from one
  address are closed as soon as they are accepted, so one guest cannot fill the box); an event stream's connection
  is watched while it is served (:data:`WATCH_END`), so a phone that drops its streams frees them at once, and an
  address at its cap has the connections its phone reset or closed let go before a new one is refused;
- a connection with no complete request for ``idle_s`` seconds is closed; at the connection limit, the ones
  without an answered request for longest (at least :data:`STALLED_S`: a request trickling in byte by byte, an
  idle one) are closed to let new ones in, so slow clients from many addresses cannot keep the phones out;
- request headers at most ``header_bytes`` (431), bodies at most ``body_bytes`` (413), refused before
  the body is read. The connection of a refused request then lingers: the box stops writing after its answer
  and reads on, throwing away what arrives, until the phone closes (at most ``linger_bytes`` and
  ``linger_s``). Closed at once, it would drop the rest of a body still arriving, and the reset that sends
  makes the phone report a broken connection instead of the answer. Every answer the server itself makes
  (400, 413, 431, 500) is JSON ``{"error"}``,
  like the app's, said in the phone's language as the app's are (its ``lang`` cookie, else its
  ``Accept-Language``, else the box's). A 431 (headers or URL too long) is said in the language the header
  lines ask for, wherever they come (what is past the limit is read and dropped, up to :data:`ADDRESS_SKIP_BYTES`,
  keeping only those lines); when none says one, in every language of the box, the box's first
  (``"error"``: one line each; ``"errors"``: ``{language: message}``): the phone's is among them.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Any

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask
from waitress.utilities import RequestHeaderFieldsTooLarge

from companion import i18n

__all__ = ["ServerLimits", "PhoneServer", "serve", "BODY_LIMIT_BYTES", "LANG_COOKIE", "TOO_LARGE", "WATCH_END"]

log = logging.getLogger(__name__)

BODY_LIMIT_BYTES = 16 * 1024
"""Largest request body (bytes): actions and reports are small JSON objects; larger is 413."""
STALLED_S = 1.0
"""A connection holds its place at the connection limit this long (s) without an answered request before a new one
may take it (a phone's request arrives whole within milliseconds)."""

LANG_COOKIE = "lang"
"""The cookie the phone page's language picker sets (a language code; read on every request)."""

WATCH_END = "companion.watch_end"
"""The WSGI environ's key of a callable (no arguments) an answer that lasts until the phone goes (an event stream)
calls once it begins: while that answer is served its connection is watched, and a phone that closes or resets it is
let go at once (the connection closed and counted no more; ``environ["waitress.client_disconnected"]()`` then says
True, so the answer can end and free its worker). Absent outside this server (a test client)."""

TOO_LARGE = i18n.Text("the body is larger than {size} KiB; actions and reports are small JSON objects",
                      size=BODY_LIMIT_BYTES // 1024)
"""The 413 answer's ``error``, from waitress (a body announced larger) or from Flask (a body read larger)."""


def _language_of(headers: dict[str, str]) -> str:
    """The language a request asks for, from waitress's parsed headers (``{"ACCEPT_LANGUAGE": ...}``): the ``lang``
    cookie, else ``Accept-Language``, else the box's (:func:`companion.i18n.pick_language`)."""
    chosen = None
    try:
        morsel = SimpleCookie(headers.get("COOKIE", "")).get(LANG_COOKIE)
        chosen = morsel.value if morsel is not None else None
    except CookieError:
        pass
    return i18n.pick_language(chosen, headers.get("ACCEPT_LANGUAGE"), i18n.box_language())


def _headers_seen(block: bytes) -> dict[str, str]:
    """The complete header lines of a request's first ``block`` of bytes, as waitress names them
    (``{"ACCEPT_LANGUAGE": ..., "COOKIE": ...}``); the request line and a line cut short are left out."""
    lines = block.split(b"\r\n")[1:-1]  # after the request line; the last may be cut by the limit
    headers: dict[str, str] = {}
    for line in lines:
        name, colon, value = line.partition(b":")
        if colon and name.strip():
            headers[name.strip().decode("latin-1").upper().replace("-", "_")] = value.strip().decode("latin-1")
    return headers


ADDRESS_SKIP_BYTES = 128 * 1024
"""How much of a request over the header limit (an address too long, or header lines too many or too long) the box
reads past, to find the header lines that say the phone's language (its ``lang`` cookie, ``Accept-Language``) wherever
they come; beyond it the 431 is said in every language."""

_LANGUAGE_LINES = (b"cookie", b"accept-language")
"""The header lines (names, lower case) a 431 keeps from what it reads past: those that say the phone's language."""


class _Parser(HTTPRequestParser):
    """waitress's request parser keeping, of a request it refuses as too large (431: an address too long, header lines
    too many or too long), the header lines that say the phone's language, so the answer can be said in it
    (:attr:`seen`). What arrives past the limit is read and dropped, up to :data:`ADDRESS_SKIP_BYTES` or the end of the
    header block, and only those lines are kept (at most the header limit of them)."""

    seen = b""
    _skipped: int | None = None  # bytes read past the limit so far; None: within the limit (waitress's own way)
    _line = b""  # the header line being received while reading past (its first header-limit bytes)
    _line_cut = False  # that line was longer than the header limit: dropped
    _request_line = True  # the next complete line is the request line (dropped)
    _kept = b""  # the language lines found, each ending with CRLF

    def received(self, data: bytes) -> int:
        if self.completed or self.body_rcv is not None:
            return super().received(data)
        limit = self.adj.max_request_header_size
        taken = len(data)
        if self._skipped is None:
            block = self.header_plus + data
            end = block.find(b"\r\n\r\n")
            if len(block) < limit or 0 <= end < limit:  # waitress's own way, the header block within the limit
                return super().received(data)
            self._skipped, self.header_plus, data = 0, b"", block  # over the limit: read past it
        self._skipped += len(data)
        if self._read_lines(data, limit) or self._skipped >= ADDRESS_SKIP_BYTES:
            self.seen = b"GET /\r\n" + self._kept  # a request line, then the lines kept (:func:`_headers_seen`)
            self.parse_header(b"GET / HTTP/1.0\r\n")  # as waitress does for its own 431
            self.error = RequestHeaderFieldsTooLarge(f"exceeds max_header of {limit}")
            self.completed = True
        return taken

    def _read_lines(self, data: bytes, limit: int) -> bool:
        """Read past ``data`` line by line, keeping the lines that say the phone's language; True at the end of the
        header block (an empty line after the request line)."""
        pieces = (self._line + data).split(b"\r\n")
        for line in pieces[:-1]:
            cut, self._line_cut = self._line_cut, False
            if self._request_line:
                if line:  # blank lines before a request are skipped, as waitress does
                    self._request_line = False
                continue
            if not line:
                return True
            name = line.partition(b":")[0].strip().lower()
            if not cut and name in _LANGUAGE_LINES and len(self._kept) + len(line) + 2 <= limit:
                self._kept += line + b"\r\n"
        rest = pieces[-1]
        if len(rest) > limit:
            rest, self._line_cut = rest[:limit], True
        self._line = rest
        return False


def _said_everywhere(message: i18n.Text) -> tuple[str, dict[str, str]]:
    """``message`` in every language of the box, the box's first: one line each, and ``{language: message}``."""
    order = [i18n.box_language(), *(lang for lang in i18n.LANGUAGES if lang != i18n.box_language())]
    said = {lang: i18n.say(message, lang) for lang in order}
    return "\n".join(dict.fromkeys(said.values())), said


@dataclass(frozen=True)
class ServerLimits:
    """How much of the box the phone view may use.

    Attributes:
        threads: worker threads (each open SSE stream holds one while it lasts; the app keeps
            some free for taps, see ``companion.web.create_app``'s ``max_streams``).
        connections: open connections in all (beyond it the box stops accepting until some close).
        per_client: open connections from one IP address (a phone needs a handful: its event stream,
            the picture and its taps); more are closed at once.
        idle_s: seconds a connection may stay without a complete request (half-open, or idle between
            requests) before it is closed (checked every ``idle_s / 4`` s).
        header_bytes: largest request header block (431 above it).
        body_bytes: largest request body (413 above it).
        backlog: the listening socket's queue of connections not yet accepted.
        linger_bytes: after the server's own answer refusing a request (413, 431, 400), at most this many bytes
            still arriving on its connection are read and thrown away before it is closed.
        linger_s: and for at most this many seconds.
    """

    threads: int = 40
    connections: int = 256
    per_client: int = 32
    idle_s: int = 20
    header_bytes: int = 8 * 1024
    body_bytes: int = BODY_LIMIT_BYTES
    backlog: int = 1024
    linger_bytes: int = 8 * 1024 * 1024
    linger_s: float = 5.0


class _JsonErrorTask(ErrorTask):
    """waitress's own error answers (malformed request, headers or body too large) as JSON ``{"error"}``."""

    def execute(self) -> None:
        error = self.request.error
        if error.code == 413:
            message = TOO_LARGE
        elif error.code == 431:
            message = i18n.Text("the request's address and headers are larger than {size} KiB: close the page and open "
                                "it again", size=self.channel.adj.max_request_header_size // 1024)
        else:
            message = i18n.Text("the request is not well-formed HTTP ({problem})",
                                problem=f"{error.reason}: {error.body}")
        headers = getattr(self.request, "headers", None) or {}
        if error.code == 431:  # its headers were not parsed: those received before the limit, if they say
            headers = _headers_seen(getattr(self.request, "seen", b""))
        if error.code == 431 and not ({"COOKIE", "ACCEPT_LANGUAGE"} & set(headers)):
            said, each = _said_everywhere(message)  # no word of the phone's language: every language of the box
            answer: dict[str, Any] = {"error": said, "errors": each}
        else:
            answer = {"error": i18n.say(message, _language_of(headers))}
        body = json.dumps(answer).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.channel.linger = True  # the rest of a request still arriving is read and thrown away, not reset
        self.content_length = len(body)
        self.write(body)


class _Task(WSGITask):
    """waitress's WSGI task, giving the app :data:`WATCH_END` for the request it serves."""

    def get_environment(self) -> dict[str, Any]:
        environ = super().get_environment()
        request, channel = self.request, self.channel
        environ[WATCH_END] = lambda: channel.watch_end(request)
        return environ


class _Channel(HTTPChannel):
    """waitress's connection, lingering after the server's own refusal (:class:`_JsonErrorTask`): closed when its
    answer is sent, it would drop the rest of the request still arriving (a 3 MB body refused from its headers),
    and the reset that sends makes the phone report a broken connection instead of reading the answer. So the
    connection stops writing (FIN after the answer) and reads on, throwing away what arrives, until the phone
    closes, or ``linger_bytes`` or ``linger_s`` are spent (:class:`ServerLimits`); nothing of it is kept."""

    error_task_class = _JsonErrorTask
    task_class = _Task
    parser_class = _Parser
    linger = False  # set by the error task: the connection lingers instead of closing at once
    _draining: list[float] | None = None  # [deadline (monotonic s), bytes left] while lingering
    _watched: Any = None  # the request whose answer lasts until the phone goes (:meth:`watch_end`)

    waiting_since = 0.0  # time.time() when the request being received began (its first bytes)

    def received(self, data: bytes) -> bool:
        if data and self.request is None and not self.requests:
            self.waiting_since = time.time()
        return super().received(data)

    def stalled_for(self, now: float) -> float | None:
        """Seconds (``now`` from ``time.time()``) this connection has held its place without a request being
        answered: receiving one (since its first bytes, however slowly they trickle in), idle between requests or
        lingering after a refusal (since its last activity). None while a request is answered (an event stream, a
        tap) or when it is closing already."""
        if self.requests or self.will_close or self.socket is None:
            return None
        if self.request is not None and self._draining is None:
            return now - self.waiting_since
        return now - self.last_activity

    def watch_end(self, request: Any) -> None:
        """Watch this connection for its end while ``request`` is served (called by the app through
        :data:`WATCH_END`, in a worker thread): an answer that lasts until the phone goes (an event stream) writes
        nothing for up to a heartbeat, and waitress reads no connection whose request is being served, so a phone
        that closed or reset it would hold its connection, and its address's count, until the next write. Watched,
        the connection is read at once: its end closes it (:meth:`handle_read`)."""
        self._watched = request
        try:
            self.server.pull_trigger()  # the server thread polls the connection for reading from now
        except OSError:
            pass  # the server is stopping: nothing is polled any more

    def _watching(self) -> bool:
        """Whether the request being served is one watched for the connection's end (:meth:`watch_end`)."""
        watched = self._watched
        return watched is not None and bool(self.requests) and self.requests[0] is watched \
            and not (self.will_close or self.close_when_flushed)

    def peer_gone(self) -> bool:
        """Whether the phone has reset this connection, or closed it while nothing is being answered or a watched
        answer is (a look at the socket that takes nothing from it; called in the server thread). A phone that only
        closed its sending side after a request still gets that request's answer."""
        if self.socket is None:
            return False
        try:
            data = self.socket.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True  # reset: nothing more can reach the phone
        return not data and (self._watching() or (not self.requests and self.request is None))

    def handle_close(self) -> None:
        if self.linger and self._draining is None and self.socket is not None:
            try:
                self.socket.shutdown(socket.SHUT_WR)  # the answer is sent whole: the phone reads it, then EOF
            except OSError:
                pass  # the phone is gone already: close now
            else:
                self._draining = [time.monotonic() + self.server.linger_s, float(self.server.linger_bytes)]
                self.will_close = self.close_when_flushed = False
                self.last_activity = time.time()
                return
        super().handle_close()

    def readable(self) -> bool:
        return True if self._draining is not None or self._watching() else super().readable()

    def writable(self) -> bool:
        # lingering writes nothing; the server's idle sweep sets will_close, which closes it through handle_write
        return bool(self.will_close) if self._draining is not None else super().writable()

    def handle_read(self) -> None:
        if self._draining is None and self._watching():
            self._read_watched()
            return
        if self._draining is None:
            super().handle_read()
            return
        try:
            data = self.socket.recv(self.adj.recv_bytes)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        self._draining[1] -= len(data)
        self.last_activity = time.time()
        if not data or self._draining[1] <= 0 or time.monotonic() > self._draining[0]:
            self._draining[0] = 0.0
            super().handle_close()

    def _read_watched(self) -> None:
        """Read a watched connection (:meth:`watch_end`): its end (the phone closed or reset it) closes it, which
        the answer being served learns at its next look or write; anything the phone sends meanwhile is thrown away
        (an event stream's phone sends nothing, and no request after an endless answer could be answered)."""
        try:
            data = self.socket.recv(self.adj.recv_bytes)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if data:
            self.last_activity = time.time()
            return
        self._watched = None
        super().handle_close()

    def handle_write(self) -> None:
        if self._draining is not None:  # only the idle sweep's will_close gets here
            super().handle_close()
            return
        super().handle_write()

    def del_channel(self, map=None) -> None:  # wasyncore: the connection is closed and forgotten
        super().del_channel(map)
        self.server.connections_changed()


class _Server(TcpWSGIServer):
    """waitress's TCP server with a cap on open connections per client address."""

    channel_class = _Channel
    per_client = 32
    linger_bytes = ServerLimits.linger_bytes  # what a refused request's connection reads on (_Channel)
    linger_s = ServerLimits.linger_s
    made_room = 0  # connections closed to let new ones in (_make_room)
    refused = 0  # connections closed at once because their address had too many open (for tests and logs)
    stopping = False  # set by PhoneServer.shutdown once its workers are done, before the sockets close
    changed: threading.Condition  # notified whenever a connection is accepted, refused or closed

    def connections_changed(self) -> None:
        """Wake whoever waits in :meth:`PhoneServer.wait_connections` (called in the server's thread)."""
        with self.changed:
            self.changed.notify_all()

    def maintenance(self, now: float) -> None:
        """waitress's idle sweep (every ``cleanup_interval`` s), which also closes a refused request's connection
        lingering past ``linger_s`` (:class:`_Channel`) though the phone keeps it open and quiet."""
        super().maintenance(now)
        late = time.monotonic()
        for channel in list(self.active_channels.values()):
            draining = getattr(channel, "_draining", None)
            if draining is not None and late > draining[0]:
                channel.will_close = True

    def readable(self) -> bool:
        if self.accepting and len(self._map) >= self.adj.connection_limit:
            self._make_room(time.time())
        return super().readable()

    def _make_room(self, now: float) -> None:
        """At the connection limit, close the connections stalled longest (:meth:`_Channel.stalled_for`, at least
        :data:`STALLED_S`) to let new ones in: without it, clients trickling their requests from enough addresses
        (each within ``per_client``, each byte resetting the idle sweep) would keep every phone out as long as they
        trickled. A connection whose request is answered (an event stream) is never closed for room."""
        channels = [c for c in list(self.active_channels.values()) if isinstance(c, _Channel)]
        need = len(self._map) - self.adj.connection_limit + 1 - sum(1 for c in channels if c.will_close)
        if need <= 0:
            return
        stalled = sorted(((age, n) for n, c in enumerate(channels)
                          if (age := c.stalled_for(now)) is not None and age >= STALLED_S), reverse=True)
        for _, n in stalled[:need]:
            channels[n].will_close = True  # closed by its next write turn, as the idle sweep closes
            self.made_room += 1
            if self.made_room == 1 or self.made_room % 1000 == 0:
                log.warning("phone view: every connection is taken; closing those stalled longest to let new "
                            "ones in (%d so far)", self.made_room)

    def handle_accept(self) -> None:
        super().handle_accept()  # accept() below refuses, or a channel is made and counted
        self.connections_changed()

    def pull_trigger(self) -> None:
        """Wake the server thread (a worker's request ended); after the stop, a worker that outlived it
        finds the trigger closed, and there is nothing left to wake."""
        try:
            super().pull_trigger()
        except OSError:
            if not self.stopping:
                raise

    def accept(self):  # wasyncore.dispatcher.accept: (conn, addr) or None
        accepted = super().accept()
        if accepted is None:
            return None
        conn, addr = accepted
        peer = addr[0] if isinstance(addr, tuple) else addr
        open_from_peer = self._open_from(peer)
        if open_from_peer >= self.per_client:
            open_from_peer = self._open_from(peer, sweep=True)
        if open_from_peer >= self.per_client:
            self.refused += 1
            if self.refused == 1 or self.refused % 1000 == 0:
                log.warning("phone view: %s has %d connections open; closing new ones (%d so far)",
                            peer, open_from_peer, self.refused)
            try:
                conn.close()
            except OSError:
                pass
            return None
        return conn, addr


    def _open_from(self, peer: str, sweep: bool = False) -> int:
        """Connections open from the address ``peer``; with ``sweep``, those its phone has reset or closed
        (:meth:`_Channel.peer_gone`) are closed first, so a phone that dropped its connections and at once makes a
        new one (their ends not yet read in this turn of the server's loop) is not refused for them."""
        count = 0
        for channel in list(self.active_channels.values()):
            if not (isinstance(channel.addr, tuple) and channel.addr[0] == peer):
                continue
            if sweep and isinstance(channel, _Channel) and channel.peer_gone():
                channel.linger, channel._draining = False, None
                HTTPChannel.handle_close(channel)
                continue
            count += 1
        return count


class PhoneServer:
    """The phone view served by waitress in a daemon thread (see :func:`serve`).

    Attributes:
        host: the address it is bound to.
        port: the TCP port it listens on (the real one when 0 was asked for).
        url: ``http://host:port/``.
        limits: the :class:`ServerLimits` in force.
    """

    def __init__(self, server: _Server, on_shutdown: Callable[[], None] | None, limits: ServerLimits) -> None:
        self._server = server
        self._on_shutdown = on_shutdown
        self.limits = limits
        self.host = server.effective_host
        self.port = int(server.effective_port)
        shown = f"[{self.host}]" if ":" in self.host else self.host
        self.url = f"http://{shown}:{self.port}/"
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"phone-view:{self.port}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._server.run()
        finally:
            self._stopped.set()

    def wait_connections(self, predicate: Callable[[PhoneServer], bool], timeout: float) -> bool:
        """Wait until ``predicate(self)`` holds, re-checked each time a connection is accepted, refused or
        closed; at most ``timeout`` s. Returns whether it held (for tests and diagnostics)."""
        with self._server.changed:
            return self._server.changed.wait_for(lambda: predicate(self), timeout)

    @property
    def refused_connections(self) -> int:
        """Connections closed at once because their address already had ``per_client`` open."""
        return self._server.refused

    def open_connections(self) -> int:
        """Connections open now (accepted, not yet closed)."""
        return len(self._server.active_channels)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Stop accepting, end open event streams, close every socket; waits up to about ``timeout`` s.

        In that order: no new connections; idle connections closed; the worker threads finish what they
        serve (a stream ends within ``companion.web.STOP_CHECK_S``, an answer being written goes out)
        while the server's sockets are still open, since a request that ends wakes the server through its
        trigger (closing the trigger first made a request ending during the stop log "Bad file descriptor"
        with a traceback); then every socket."""
        deadline = time.monotonic() + timeout
        left = lambda: max(0.0, deadline - time.monotonic())  # noqa: E731
        server = self._server
        server.accepting = False  # the server thread stops polling the listening socket
        if self._on_shutdown is not None:
            self._on_shutdown()
        running = not self._stopped.is_set()
        if running:  # connections between requests (keep-alive) would only bring work no worker takes now
            self._in_server_thread(lambda: [channel.close() for channel in list(server.active_channels.values())
                                            if not channel.requests], wait_s=left())
        while server.task_dispatcher.queue and left():  # requests already read are served
            time.sleep(0.01)
        server.task_dispatcher.shutdown(cancel_pending=True, timeout=left())
        server.stopping = True
        if running:
            self._in_server_thread(lambda: wasyncore.close_all(server._map))
            self._thread.join(max(0.5, left()))

    def _in_server_thread(self, thunk: Callable[[], Any], wait_s: float = 0.0) -> None:
        """Run ``thunk`` in the server's own thread (waitress's trigger); waits up to ``wait_s`` s for it."""
        done = threading.Event()

        def run() -> None:
            try:
                thunk()
            finally:
                done.set()

        try:
            self._server.trigger.pull_trigger(run)
        except OSError:
            # the server thread was woken by another pull and ran the thunks, closing the trigger, before
            # this pull wrote to it: done already
            return
        done.wait(wait_s)

    def __enter__(self) -> PhoneServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


_NAME_REASONS = {
    socket.EAI_NONAME: i18n.N_("no such name or address"),
    socket.EAI_AGAIN: i18n.N_("the name cannot be looked up now (no network?)"),
}
"""Why a ``--host`` is no address (``socket.gaierror``'s code), in words said in the owner's language."""

_LISTEN_REASONS = {
    errno.EADDRINUSE: i18n.N_("another program already listens on this port"),
    errno.EADDRNOTAVAIL: i18n.N_("no network of this box has this address"),
    errno.EACCES: i18n.N_("a port below 1024 needs the system's permission"),
}
"""Why an address and port cannot be listened on (the ``errno``), in words said in the owner's language."""


def _not_listening(host: str, port: int, exc: OSError) -> OSError:
    """The one-line error "cannot listen on HOST port PORT (REASON)", said in a player's language."""
    words = _LISTEN_REASONS.get(exc.errno) if isinstance(exc.errno, int) else None
    reason = i18n.Text(words) if words else i18n.os_reason(exc)
    return OSError(i18n.Text("cannot listen on {host} port {port} ({problem})", host=host, port=port, problem=reason))


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (not yet listening), or OSError with one line naming the problem (its message
    a :class:`companion.i18n.Text`: said in the command's language)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        words = _NAME_REASONS.get(getattr(exc, "errno", None))
        reason = i18n.Text(words) if words else (getattr(exc, "strerror", None) or str(exc))
        raise OSError(i18n.Text("--host {host} is not a network address ({problem})", host=host,
                                problem=reason)) from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise _not_listening(host, port, exc) from None
    return sock


def serve(app: Any, host: str = "0.0.0.0", port: int = 8080, limits: ServerLimits | None = None) -> PhoneServer:
    """Serve the WSGI ``app`` with waitress in a daemon thread; returns at once.

    Args:
        app: from :func:`companion.web.create_app` (its ``extensions["companion"]["stop"]`` event, when
            present, is set on shutdown to end open event streams).
        host: address to bind; ``"0.0.0.0"`` for phones on the LAN, ``"127.0.0.1"`` in tests.
        port: TCP port; 0 picks a free one (read it from ``PhoneServer.port``).
        limits: the bounds (default :class:`ServerLimits`).

    Raises:
        OSError: ``host`` is not an address of this machine, or ``host:port`` is in use or cannot be
            bound; the message is one line naming it (checked here, before any thread starts).
    """
    limits = limits or ServerLimits()
    sock = _listening_socket(host, port)
    adj = Adjustments(
        sockets=[sock],
        threads=limits.threads,
        connection_limit=limits.connections,
        channel_timeout=limits.idle_s,
        cleanup_interval=max(1, limits.idle_s // 4),
        max_request_header_size=limits.header_bytes,
        max_request_body_size=limits.body_bytes,
        backlog=limits.backlog,
        asyncore_use_poll=True,  # select() cannot watch descriptors above 1024
        outbuf_high_watermark=256 * 1024,  # a phone that stops reading its stream holds at most this much
        expose_tracebacks=False,
        ident="tabletop-companion",
        log_socket_errors=False,  # a phone that walks away mid-answer is not an error
    )
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(limits.threads)
    sockinfo = (sock.family, sock.type, sock.proto, sock.getsockname())
    try:
        server = _Server(app, map={}, _sock=sock, dispatcher=dispatcher, adj=adj, sockinfo=sockinfo, bind_socket=False)
    except OSError as exc:
        sock.close()
        dispatcher.shutdown(timeout=1)
        raise _not_listening(host, port, exc) from None
    server.per_client = limits.per_client
    server.linger_bytes, server.linger_s = limits.linger_bytes, limits.linger_s
    server.changed = threading.Condition()
    stop = getattr(app, "extensions", {}).get("companion", {}).get("stop")
    return PhoneServer(server, stop.set if stop is not None else None, limits)
