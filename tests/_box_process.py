"""A whole box (``companion demo ...``) in a child process, driven over HTTP on loopback, for the tests that
kill it or starve its storage. Waits on conditions with timeouts, never for fixed times.

It talks to the box as a script on a phone would: when the box prints its join link (``phone view at
http://ADDRESS:PORT/join/SECRET``) it opens it first and keeps the cookie; each POST carries the version
of the latest state and a fresh idempotency key; a 429 (rate limit) is retried after its Retry-After."""

from __future__ import annotations

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
from pathlib import Path
from typing import Any, Callable, Sequence

JOIN_LINE = re.compile(r"phone view at (http://\S+/join/\S+)")

START_S = 90.0  # a cold start imports OpenCV and pygame: slow on a shared 2-core machine


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class BoxProcess:
    """``companion <args>`` with the phone view on 127.0.0.1:``port``.

    Args:
        args: the command line after ``companion`` (``--host``/``--port`` are added).
        data: the data directory (``TABLETOP_DATA_DIR``).
        preamble: Python run in the child before ``companion.cli.main`` (e.g. a resource limit).
    """

    def __init__(self, args: Sequence[str], data: Path, preamble: str = "", port: int | None = None) -> None:
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
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.joined = False

    @staticmethod
    def _drain(stream: Any, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def _join(self) -> None:
        """Open the join link the box printed, once (a box without pairing prints none: nothing to do)."""
        if self.joined:
            return
        link = next((m.group(1) for line in self.out if (m := JOIN_LINE.search(line))), None)
        if link is not None:
            with self.opener.open(link, timeout=30):
                pass
            self.joined = True

    def wait_until(self, ready: Callable[[dict[str, Any]], bool], timeout: float = START_S) -> dict[str, Any]:
        """The first state (``GET /api/state``) for which ``ready`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                self.process.wait()
                raise AssertionError(f"the box exited ({self.process.returncode}): {''.join(self.err)[-3000:]}")
            try:
                state = self.get("/api/state")
                if ready(state):
                    self._join()
                    return state
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the box did not get ready in time")
            time.sleep(0.05)

    def get(self, path: str) -> dict[str, Any]:
        with self.opener.open(self.base + path, timeout=30) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``(status, JSON body)`` of a tap made against the latest state; raises OSError when the box is
        gone mid-request."""
        self._join()
        body = {"version": (self.get("/api/state").get("session") or {}).get("events") or 0,
                "key": secrets.token_hex(8), **body}
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        deadline = time.monotonic() + 60
        while True:
            try:
                with self.opener.open(request, timeout=30) as response:
                    return response.status, json.loads(response.read())
            except urllib.error.HTTPError as exc:
                if exc.code == 429 and time.monotonic() < deadline:  # the box's rate limit: it says when
                    time.sleep(float(exc.headers.get("Retry-After") or 1))
                    continue
                return exc.code, json.loads(exc.read() or b"{}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs."""
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
