"""Notifications to the service manager (systemd's sd_notify protocol), through the ``sdnotify`` library.

Under ``systemd/companion.service`` (``Type=notify``, ``WatchdogSec=``, ``NotifyAccess=main``) the box
tells systemd that it is up (``READY=1``), what it is doing (``STATUS=``, shown by ``systemctl status
companion``), that it is still turning (``WATCHDOG=1``) and that it is stopping (``STOPPING=1``).
systemd restarts the service when the watchdog pings stop: a main loop hung in a blocking call stops
feeding it, so a frozen box comes back by itself. Outside systemd (no ``$NOTIFY_SOCKET``: a terminal,
the tests, ``./setup.sh run``) every call does nothing.

The protocol (``man sd_notify``): newline-separated ``KEY=value`` assignments in one datagram to the
unix socket named by ``$NOTIFY_SOCKET``; ``$WATCHDOG_USEC`` (µs) is the watchdog interval and
``$WATCHDOG_PID``, when set, the process it is meant for.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Mapping

import sdnotify

__all__ = ["ServiceNotifier", "running_status", "watchdog_interval_s", "PINGS_PER_INTERVAL"]

log = logging.getLogger(__name__)

# Pings per watchdog interval: at most one WATCHDOG=1 every interval/4 (systemd's own advice is to
# ping at least every half interval; a quarter leaves room for a slow turn without flooding it).
PINGS_PER_INTERVAL = 4
SEND_TIMEOUT_S = 1.0  # a notification must never hold the main loop: one that cannot go is dropped


def watchdog_interval_s(environ: Mapping[str, str] | None = None, pid: int | None = None) -> float | None:
    """The watchdog interval (s) systemd expects pings at, or None when no watchdog is meant for us.

    Read as ``sd_watchdog_enabled()`` does: ``$WATCHDOG_USEC`` a positive whole number of µs, and
    ``$WATCHDOG_PID`` (when set) this process's id. A malformed value counts as no watchdog.

    Args:
        environ: the environment (default ``os.environ``).
        pid: this process's id (default ``os.getpid()``).
    """
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    if not (usec.isascii() and usec.isdigit()) or int(usec) <= 0:
        return None
    owner = env.get("WATCHDOG_PID")
    if owner is not None and owner != str(os.getpid() if pid is None else pid):
        return None
    return int(usec) / 1_000_000


class ServiceNotifier:
    """Tells systemd how the box is; a no-op where no service manager listens.

    Make one per process at start-up (it reads ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC`` then), call
    :meth:`status` as start-up goes on, pass :meth:`loop_turned` to ``MainLoop(watchdog=...)`` and call
    :meth:`stopping` on the way out. Every method swallows a failed send after logging it once: losing
    a notification must never stop the box.

    Args:
        clock: monotonic seconds, for the ping rate limit (tests pass a fake).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # sdnotify reads $NOTIFY_SOCKET itself (a path, or "@name" for an abstract socket)
        self.socket_path = os.environ.get("NOTIFY_SOCKET") or None
        self.watchdog_s = watchdog_interval_s() if self.socket_path else None
        self.ping_every_s = self.watchdog_s / PINGS_PER_INTERVAL if self.watchdog_s else None
        self.ready = False
        self._pinged_at = float("-inf")
        self._failed = False
        self._notifier: sdnotify.SystemdNotifier | None = None
        if self.socket_path is not None:
            try:
                self._notifier = _connect(self.socket_path)
            except OSError as exc:
                self._failed = True
                log.warning("cannot reach the service manager at NOTIFY_SOCKET=%s (%s); going on without "
                            "systemd notifications", self.socket_path, exc)

    @property
    def enabled(self) -> bool:
        """Whether a service manager listens (``$NOTIFY_SOCKET`` set and connected)."""
        return self._notifier is not None

    def status(self, text: str) -> None:
        """``STATUS=text``: one line that ``systemctl status companion`` shows (newlines become spaces)."""
        self._send(f"STATUS={_one_line(text)}")

    def loop_turned(self) -> None:
        """The main loop made one turn (``MainLoop`` calls it at the top of every ``step()``).

        The first turn says ``READY=1``: the box is up (the camera open, the phone view listening, the
        loop turning), so ``systemctl start`` returns and the watchdog starts. Every later turn feeds
        the watchdog (``WATCHDOG=1``), at most once per ``ping_every_s``: a loop that stops turning
        stops the pings, and systemd restarts the service ``WatchdogSec=`` after the last one.
        """
        if self._notifier is None:
            return
        if not self.ready:
            self.ready = True
            self._pinged_at = self.clock()  # READY=1 starts the watchdog's clock as a ping would
            self._send("READY=1")
            return
        if self.ping_every_s is None:
            return
        now = self.clock()
        if now - self._pinged_at >= self.ping_every_s:
            self._pinged_at = now
            self._send("WATCHDOG=1")

    def stopping(self, text: str = "stopping") -> None:
        """``STOPPING=1`` with a status line: the box is shutting down (systemd stops watching it)."""
        self._send(f"STOPPING=1\nSTATUS={_one_line(text)}")

    def _send(self, message: str) -> None:
        if self._notifier is None:
            return
        try:
            # sdnotify encodes as Latin-1; systemd reads UTF-8: hand it the UTF-8 bytes as Latin-1 text
            self._notifier.notify(message.encode("utf-8").decode("latin-1"))
        except OSError as exc:
            if not self._failed:  # once: a service manager that went away must not fill the journal
                self._failed = True
                log.warning("cannot notify the service manager (%s); later failures are not logged", exc)


def _connect(path: str) -> sdnotify.SystemdNotifier:
    """An ``sdnotify`` notifier on ``path`` whose sends time out instead of blocking the loop.

    Raises:
        OSError: the socket cannot be reached.
    """
    notifier = sdnotify.SystemdNotifier(debug=True)  # debug: raise, so failures are seen and logged once
    notifier.socket.settimeout(SEND_TIMEOUT_S)
    return notifier


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def running_status(camera: str, phone_url: str) -> str:
    """The status line of a running box: ``"running: camera NAME, phone view at URL"``.

    Any ``/join/SECRET`` part of ``phone_url`` is left out: ``systemctl status`` shows the line to every
    local user, and the join secret belongs on the touchscreen's QR code only.
    """
    phone = f"phone view at {phone_url.split('/join/', 1)[0]}" if phone_url else "no phone view"
    return f"running: camera {camera}, {phone}"
