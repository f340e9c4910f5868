"""companion.notify: READY=1 / STATUS= / WATCHDOG=1 / STOPPING=1 to a real unix datagram socket standing in
for systemd's $NOTIFY_SOCKET, the watchdog fed only while the main loop turns, and a no-op without systemd."""

from __future__ import annotations

import os
import socket
import sys
import threading

import numpy as np
import pytest

from companion.app import MainLoop
from companion.hub import StateHub
from companion.notify import PINGS_PER_INTERVAL, ServiceNotifier, running_status, watchdog_interval_s
from companion.session import SessionStore
from device import FakeCamera
from vision import DiceRead
from vision.motion import StillnessDetector

pytestmark = pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="the sd_notify protocol uses unix sockets")


class ServiceManager:
    """The listening end of $NOTIFY_SOCKET, as systemd holds it: one datagram per notification."""

    def __init__(self, path: str) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(path)
        self.sock.settimeout(30)

    def receive(self) -> str:
        return self.sock.recv(4096).decode("utf-8")

    def pending(self) -> list[str]:
        """Every datagram already queued, without waiting."""
        self.sock.setblocking(False)
        try:
            out = []
            while True:
                try:
                    out.append(self.sock.recv(4096).decode("utf-8"))
                except BlockingIOError:
                    return out
        finally:
            self.sock.settimeout(30)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def manager(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    sm = ServiceManager(str(path))
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")  # WatchdogSec=20
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    yield sm
    sm.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_watchdog_interval_is_read_like_sd_watchdog_enabled() -> None:
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_interval_s({"WATCHDOG_USEC": "250000", "WATCHDOG_PID": "42"}, pid=42) == 0.25
    assert watchdog_interval_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "41"}, pid=42) is None  # another process's
    for bad in ("", "0", "-5", "1e6", "³", "30s"):
        assert watchdog_interval_s({"WATCHDOG_USEC": bad}) is None, bad
    assert watchdog_interval_s({}) is None


def test_without_notify_socket_every_call_is_a_no_op(monkeypatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.setenv("WATCHDOG_USEC", "20000000")
    notifier = ServiceNotifier()
    assert not notifier.enabled and notifier.watchdog_s is None
    notifier.status("starting")
    for _ in range(3):
        notifier.loop_turned()
    notifier.stopping()
    assert not notifier.ready  # nothing was said to anyone


def test_ready_once_then_pings_at_most_every_quarter_interval(manager) -> None:
    clock = Clock()
    notifier = ServiceNotifier(clock=clock)
    assert notifier.enabled and notifier.watchdog_s == 20.0 and notifier.ping_every_s == 20.0 / PINGS_PER_INTERVAL
    notifier.status("starting: opening the camera (auto)")
    assert manager.receive() == "STATUS=starting: opening the camera (auto)"
    notifier.loop_turned()
    assert manager.receive() == "READY=1"
    # a loop turning every 10 ms for 12 s: 12 s / 5 s per ping = 2 pings, at 5 s and 10 s after READY
    for _ in range(1200):
        clock.now += 0.01
        notifier.loop_turned()
    assert manager.pending() == ["WATCHDOG=1", "WATCHDOG=1"]
    notifier.stopping("stopping: closing the session")
    assert manager.receive() == "STOPPING=1\nSTATUS=stopping: closing the session"


def test_no_pings_when_no_watchdog_is_configured(manager, monkeypatch) -> None:
    monkeypatch.delenv("WATCHDOG_USEC")
    clock = Clock()
    notifier = ServiceNotifier(clock=clock)
    notifier.loop_turned()
    assert manager.receive() == "READY=1"
    for _ in range(100):
        clock.now += 1.0
        notifier.loop_turned()
    assert manager.pending() == []


def test_status_is_one_utf8_line(manager) -> None:
    notifier = ServiceNotifier()
    notifier.status("Άννα's seat\nSTOPPING=1")  # a newline would start a second assignment
    assert manager.receive() == "STATUS=Άννα's seat STOPPING=1"


def test_abstract_socket_names_are_understood(monkeypatch) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("abstract unix socket names are Linux only")
    name = f"tabletop-companion-test-{os.getpid()}"
    sm = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sm.bind("\0" + name)
    sm.settimeout(30)
    try:
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        ServiceNotifier().loop_turned()
        assert sm.recv(4096) == b"READY=1"
    finally:
        sm.close()


def test_a_service_manager_that_went_away_never_stops_the_box(manager, tmp_path, monkeypatch, caplog) -> None:
    notifier = ServiceNotifier()
    manager.close()  # systemd went away (or restarted): sends are refused
    for _ in range(3):
        notifier.status("still here")  # the socket is gone: logged once, never raised
    assert sum("cannot notify the service manager" in r.message for r in caplog.records) == 1
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "missing"))
    absent = ServiceNotifier()  # nothing listens at start: a warning, then no-ops
    assert not absent.enabled
    absent.loop_turned()
    assert any("cannot reach the service manager" in r.message for r in caplog.records)


def test_running_status_leaves_the_join_secret_out() -> None:
    assert running_status("picamera2:0", "http://192.168.1.20:8080/join/s3cr3t") == \
        "running: camera picamera2:0, phone view at http://192.168.1.20:8080"
    assert running_status("fake", "http://box.local:8080/") == "running: camera fake, phone view at http://box.local:8080/"
    assert running_status("fake", "") == "running: camera fake, no phone view"


class HangingPump:
    """A touchscreen pump (``MainLoop(pump_screen=...)``, called on the loop's thread every turn) whose
    ``hang_at``-th call blocks until :attr:`release` is set, like a display driver call that never returns."""

    def __init__(self, hang_at: int) -> None:
        self.hang_at = hang_at
        self.calls = 0
        self.hanging = threading.Event()
        self.release = threading.Event()

    def __call__(self) -> None:
        self.calls += 1
        if self.calls == self.hang_at:
            self.hanging.set()
            assert self.release.wait(60), "the test never released the pump"


class NoDice:
    def read(self, frame: np.ndarray) -> DiceRead:
        return DiceRead(width=frame.shape[1], height=frame.shape[0], dice=(), timings_ms={})


def test_the_watchdog_is_fed_by_the_loop_only_while_it_turns(tmp_path) -> None:
    """A main loop stuck in a blocking call stops the pings (systemd then restarts the service); once
    the call returns the loop turns and pings again. The pings come from the loop's own thread."""
    turns: list[str] = []
    turned = threading.Condition()

    def watchdog() -> None:
        with turned:
            turns.append(threading.current_thread().name)
            turned.notify_all()

    pump = HangingPump(hang_at=6)
    camera = FakeCamera([np.full((60, 80, 3), 90, np.uint8)], loop=True)
    with SessionStore(tmp_path / "s.sqlite3") as store:
        loop = MainLoop(source=camera, reader=NoDice(), session=store.start("d6", {}), hub=StateHub(),
                        stillness=StillnessDetector(), pump_screen=pump, sleep=lambda s: None, watchdog=watchdog)
        worker = threading.Thread(target=loop.run, kwargs={"max_frames": 20}, name="main-loop")
        worker.start()
        try:
            assert pump.hanging.wait(60)
            with turned:
                stuck_at = len(turns)
            # one call at the top of each turn: turns 1-5 went round, turn 6 is stuck in its pump
            assert stuck_at == 6 and worker.is_alive()
        finally:
            pump.release.set()
        with turned:
            assert turned.wait_for(lambda: len(turns) > stuck_at, timeout=60)  # turning again: pinging again
        worker.join(60)
    assert not worker.is_alive()
    assert set(turns) == {"main-loop"} and len(turns) == pump.calls >= 20


def test_companion_demo_tells_systemd_it_is_up_alive_and_stopping(tmp_path) -> None:
    """`companion demo` as the unit runs it (Type=notify): status lines while starting, READY=1 once the
    phone view listens and the loop turns, watchdog pings from the loop, STOPPING=1 on the way out."""
    import shutil
    import subprocess

    from companion.commands.box import demo_photos

    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copy(sorted(demo_photos().glob("*.jpg"))[0], photos)
    path = tmp_path / "notify"
    sm = ServiceManager(str(path))
    said: list[str] = []

    def listen() -> None:  # as systemd does: read each notification as it comes
        while not said or not said[-1].startswith("STOPPING=1"):
            said.append(sm.receive())

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "NOTIFY_SOCKET": str(path),
           "WATCHDOG_USEC": "400000"}  # WatchdogSec=0.4 s: a ping at most every 0.1 s, so a short replay pings
    env.pop("WATCHDOG_PID", None)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "companion.cli", "demo", str(photos), "--once", "--hold", "2", "--no-gpio",
             "--no-screen", "--host", "127.0.0.1", "--port", "0", "--db", str(tmp_path / "s.sqlite3")],
            capture_output=True, text=True, timeout=240, env=env)
        assert result.returncode == 0, result.stderr
        listener.join(30)
    finally:
        sm.close()
    assert said[0] == f"STATUS=starting: opening the camera ({photos})"
    assert said[1].startswith(f"STATUS=running: camera replay:{photos}, phone view at http://127.0.0.1:")
    assert said[2] == "READY=1"
    assert said[-1] == "STOPPING=1\nSTATUS=stopping"
    pings = said[3:-1]
    assert pings and set(pings) == {"WATCHDOG=1"}
