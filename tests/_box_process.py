"""A whole box (``companion demo ...``) in a child process, driven over HTTP on loopback, for the tests that
kill it or starve its storage. Waits on conditions with timeouts, never for fixed times."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Sequence

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

    def wait_until(self, ready: Callable[[dict[str, Any]], bool], timeout: float = START_S) -> dict[str, Any]:
        """The first state (``GET /api/state``) for which ``ready`` holds."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                out, err = self.process.communicate()
                raise AssertionError(f"the box exited ({self.process.returncode}): {err[-3000:]}")
            try:
                state = self.get("/api/state")
                if ready(state):
                    return state
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the box did not get ready in time")
            time.sleep(0.05)

    def get(self, path: str) -> dict[str, Any]:
        with urllib.request.urlopen(self.base + path, timeout=30) as response:
            return json.loads(response.read())

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``(status, JSON body)``; raises OSError when the box is gone mid-request."""
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"{}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs."""
        self.process.send_signal(signal.SIGKILL)
        self.process.communicate(timeout=60)

    def stop(self) -> tuple[int, str]:
        """SIGTERM; returns (exit code, stderr)."""
        if self.process.poll() is None:
            self.process.terminate()
        _, err = self.process.communicate(timeout=60)
        return self.process.returncode, err
