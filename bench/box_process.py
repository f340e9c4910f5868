"""A whole box (``companion demo ...``) in a child process, and phones that drive it over HTTP on loopback:
shared by the tests that kill the box or starve its storage and by the benches that kill it at random
(``bench/kill_trials.py``) or load it with phones (``bench/phone_load.py``). Waits on conditions with
timeouts, never for fixed times.

A :class:`Phone` talks to the box as the phone page (``companion/static/box.js``) or a script does: it opens
the join link the box prints (``phone view at http://ADDRESS:PORT/join/SECRET``) once and keeps the cookie,
also across restarts of the box (the cookie stays valid: the box keeps its signing key and the join secret);
each POST carries the version of the latest state and a fresh idempotency key, or the ones given (a retry
of a tap whose answer was lost sends the same); a 429 (rate limit) is retried after its Retry-After."""

from __future__ import annotations

import functools
import http.client
import http.cookiejar
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["BoxProcess", "Phone", "JOIN_LINE", "START_S", "form_values", "free_port", "join_link"]

JOIN_LINE = re.compile(r"phone view at (http://\S+/join/\S+)")
"""The line ``companion run|demo`` prints at start: the QR code's link."""

START_S = 90.0
"""Seconds a box may take to start: a cold start imports OpenCV and pygame, slow on a shared 2-core machine."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def join_link(lines: Sequence[str]) -> str | None:
    """The join link in a box's standard output lines, or None (not printed yet, or no pairing)."""
    return next((m.group(1) for line in lines if (m := JOIN_LINE.search(line))), None)


def form_values(form: dict[str, Any], choose: Callable[[Sequence[Any]], Any], number: Callable[[int, int], int],
                leave_out: Callable[[], bool]) -> dict[str, Any]:
    """The values the phone page sends for ``form`` (one of the view's ``game.forms``): one of a choice field's
    ``choices``, a whole number in an int field's ``min``..``max`` (``min`` + 10 when it has no maximum), a cell
    ``[i, j]`` of 0-4; an optional field is left out when ``leave_out()`` says so.

    Args:
        choose: picks one item of a list (e.g. ``random.Random.choice``).
        number: a whole number from ``low`` to ``high``, both included (e.g. ``random.Random.randint``).
        leave_out: whether to leave out the next optional field.
    """
    values: dict[str, Any] = {}
    for field in form.get("fields") or []:
        if field.get("optional") and leave_out():
            continue
        if field["kind"] == "choice":
            values[field["name"]] = choose(field["choices"])
        elif field["kind"] == "int":
            low = field["min"] if field.get("min") is not None else 0
            values[field["name"]] = number(low, field["max"] if field.get("max") is not None else low + 10)
        else:
            values[field["name"]] = [number(0, 4), number(0, 4)]
    return values


class _FromAddress(urllib.request.HTTPHandler):
    """Connects from ``source`` (an address of this machine, e.g. ``127.0.0.7``) instead of the default."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.source = source

    def http_open(self, req: urllib.request.Request) -> Any:
        return self.do_open(functools.partial(http.client.HTTPConnection, source_address=(self.source, 0)), req)


class Phone:
    """One phone (its own cookie jar) on the box at ``base`` (``http://127.0.0.1:PORT``).

    Args:
        base: the box's phone view, without a trailing slash.
        timeout_s: seconds one HTTP request may take.
        source: the address it connects from (default: the system's choice). On loopback every address of
            127.0.0.0/8 is this machine: phones from 127.0.0.2, 127.0.0.3, ... are separate clients to the
            box, as phones on a Wi-Fi are (its per-address connection cap counts each alone).

    Attributes:
        opener: the :mod:`urllib.request` opener with its cookies (for requests of another shape, e.g. an
            event stream read line by line).
    """

    def __init__(self, base: str, timeout_s: float = 30.0, source: str | None = None) -> None:
        self.base = base
        self.timeout_s = timeout_s
        self.cookies = http.cookiejar.CookieJar()
        handlers: list[Any] = [urllib.request.HTTPCookieProcessor(self.cookies)]
        if source is not None:
            handlers.append(_FromAddress(source))
        self.opener = urllib.request.build_opener(*handlers)
        self.joined = False

    def join(self, link: str) -> None:
        """Open the QR code's link (the box answers 303 and sets the session cookie).

        Raises:
            OSError: the box is not reachable or refused the link.
        """
        with self.opener.open(link, timeout=self.timeout_s):
            pass
        self.joined = True

    def get(self, path: str) -> dict[str, Any]:
        """The JSON body of ``GET path``. Raises OSError (urllib.error.HTTPError for a 4xx/5xx)."""
        with self.opener.open(self.base + path, timeout=self.timeout_s) as response:
            return json.loads(response.read())

    def version(self) -> int:
        """The event log's last seq on the box now (``session.events`` of ``/api/state``)."""
        return int((self.get("/api/state").get("session") or {}).get("events") or 0)

    def post(self, path: str, body: dict[str, Any], *, version: int | None = None, key: str | None = None,
             patience_s: float = 60.0) -> tuple[int, dict[str, Any]]:
        """``(status, JSON body)`` of a tap: ``body`` plus ``version`` (default: the latest state's) and ``key``
        (default: a fresh one). A 429 is retried after its Retry-After for up to ``patience_s`` seconds.

        Raises:
            OSError: the box is gone or went away mid-request (the tap may or may not be recorded: retry it
                with the same key and version).
        """
        full = {"version": self.version() if version is None else version, "key": key or secrets.token_hex(8), **body}
        request = urllib.request.Request(self.base + path, data=json.dumps(full).encode(),
                                         headers={"Content-Type": "application/json"})
        deadline = time.monotonic() + patience_s
        while True:
            try:
                with self.opener.open(request, timeout=self.timeout_s) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as exc:
                if exc.code == 429 and time.monotonic() < deadline:  # the box's rate limit: it says when
                    time.sleep(float(exc.headers.get("Retry-After") or 1))
                    continue
                return exc.code, json.loads(exc.read() or b"{}")


class BoxProcess:
    """``companion <args>`` with the phone view on 127.0.0.1:``port``, and a default :class:`Phone`.

    Args:
        args: the command line after ``companion`` (``--host``/``--port`` are added).
        data: the data directory (``TABLETOP_DATA_DIR``).
        preamble: Python run in the child before ``companion.cli.main`` (e.g. a resource limit).
        port: the port (default: a free one); a restarted box takes the same one.
        phone: the default phone (default: a new one); a phone passed on keeps its cookie across boxes.
    """

    def __init__(self, args: Sequence[str], data: Path, preamble: str = "", port: int | None = None,
                 phone: Phone | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        code = f"{preamble}\nimport sys\nfrom companion.cli import main\nsys.exit(main(sys.argv[1:]))"
        self.process = subprocess.Popen(
            [sys.executable, "-c", code, *args, "--host", "127.0.0.1", "--port", str(self.port)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "TABLETOP_DATA_DIR": str(data), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._drain, args=(stream, lines), daemon=True)
                         for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self._readers:
            reader.start()
        self.phone = phone or Phone(self.base)

    @staticmethod
    def _drain(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    @property
    def pid(self) -> int:
        return self.process.pid

    def join_link(self) -> str | None:
        """The join link the box printed, or None (not yet, or a box without pairing)."""
        return join_link(self.out)

    def join(self, phone: Phone | None = None) -> None:
        """``phone`` (default: this box's) opens the printed join link, unless its cookie still joins it (a
        cookie holds across restarts while the game's join secret stays) or the box prints none."""
        phone = phone or self.phone
        # the box prints its phone view line just after its server starts answering: a state can come before it
        deadline = time.monotonic() + START_S
        while (not any(line.startswith("phone view at ") for line in self.out) and self.process.poll() is None
               and time.monotonic() < deadline):
            time.sleep(0.02)
        link = self.join_link()
        if link is None or (phone.joined and phone.get("/api/me").get("joined")):
            return
        phone.join(link)

    def wait_until(self, ready: Callable[[dict[str, Any]], bool], timeout: float = START_S) -> dict[str, Any]:
        """The first state (``GET /api/state``) for which ``ready`` holds; the default phone has joined then.

        Raises:
            AssertionError: the box exited (with its standard error) or ``timeout`` seconds passed.
        """
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                self.process.wait()
                raise AssertionError(f"the box exited ({self.process.returncode}): {''.join(self.err)[-3000:]}")
            try:
                state = self.phone.get("/api/state")
                if ready(state):
                    self.join()
                    return state
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the box did not get ready in time")
            time.sleep(0.05)

    def get(self, path: str) -> dict[str, Any]:
        """``GET path`` by the default phone."""
        return self.phone.get(path)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """A tap by the default phone (joined first), against the latest state (:meth:`Phone.post`)."""
        self.join()
        return self.phone.post(path, body)

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self._end()

    def stop(self) -> tuple[int, str]:
        """SIGTERM; returns (exit code, stderr)."""
        if self.process.poll() is None:
            self.process.terminate()
        self._end()
        return self.process.returncode, "".join(self.err)

    def _end(self) -> None:
        self.process.wait(timeout=60)
        for reader in self._readers:
            reader.join(10)
