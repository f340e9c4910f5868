"""Camera faults at a real table (device.health through the main loop): each one leaves the box up,
records nothing from the bad frames, says so on the views' status block, and recovers."""

from __future__ import annotations

import errno
import logging
import shutil
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import CameraNotFound, FakeCamera, Fault, ReplaySource
from device.health import CameraHealthConfig, CameraStatus, CameraWatch, picture_fault, same_picture
from tests.test_app import make_loop as app_loop
from tests.test_app import scene, scenes
from vision.motion import StillnessDetector

FAST = CameraHealthConfig(read_timeout_s=0.2, poll_s=0.01, close_timeout_s=0.5)


def make_loop(store, camera, **kw):
    """The d6 loop of tests/test_app.py (a scripted reader: scene k reads as a die showing k), with fast timeouts."""
    return app_loop(store, camera, camera_health=kw.pop("camera_health", FAST), **kw)


def watch_status(hub: StateHub) -> list[tuple[str, str]]:
    """Every (camera, message) the loop publishes, in order (what both views are shown)."""
    seen: list[tuple[str, str]] = []
    publish = hub.publish

    def spy(view, jpeg=None):
        status = view["status"]
        if not seen or seen[-1] != (status["camera"], status["message"]):
            seen.append((status["camera"], status["message"]))
        return publish(view, jpeg)

    hub.publish = spy
    return seen


def read_values(session) -> list[list[int | None]]:
    return [e.payload["values"] for e in session.events() if e.kind == "dice_read"]


def read_frames(session) -> list[int]:
    return [e.payload["frame"] for e in session.events() if e.kind == "dice_read"]


def cameras(seen: list[tuple[str, str]]) -> list[str]:
    out: list[str] = []
    for camera, _ in seen:
        if not out or out[-1] != camera:
            out.append(camera)
    return out


def step_until(loop: MainLoop, predicate, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < deadline, f"timed out; camera {loop.camera!r}: {loop.message}"
        loop.step()


def live_scenes(*values: int, hold: int = 12) -> list[np.ndarray]:
    """Scenes as a live sensor gives them: one pixel far from the die changes every frame."""
    frames = scenes(*values, hold=hold)
    for i, frame in enumerate(frames):
        frame[-1, -1, :] = i % 250
    return frames


# -- pictures ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("fault", "status", "words"), [
    (Fault.black(12, count=12), "black", "sees only black: lens covered or light off?"),
    (Fault.saturated(12, count=12), "saturated", "sees only white: a lamp shining into the lens?"),
])
def test_black_or_white_frames_are_never_read_and_the_views_say_so(store, fault, status, words):
    # Scene 2 is read; then the lens is covered (or blown out) for 1.2 s while the dice stay; then scene 5.
    # Without the check the covered frames would settle and be read as a roll of no readable die.
    camera = FakeCamera(scenes(2, 2, 5), faults=[fault])
    loop, session, hub = make_loop(store, camera)
    seen = watch_status(hub)
    stats = loop.run()  # the box stays up: the replay ends normally
    assert read_values(session) == [[2], [5]]
    assert not [f for f in read_frames(session) if 12 <= f < 24]
    assert cameras(seen) == ["ok", status, "ok", "ended"]
    [message] = [m for c, m in seen if c == status]
    assert message == f"camera {words}"
    assert ("ok", "camera: the picture is back") in seen
    assert stats.frames == 36 - 12 - (FAST.recover_frames - 1)  # the covered frames, and the first good ones after


def test_a_frozen_live_camera_is_noticed_and_no_read_comes_from_its_repeated_picture(store):
    # Scene 5 appears at frame 12 and the driver then re-sends that picture 20 times (frames 13-32):
    # those repeats would look like a still table and be read; they are never handed out.
    camera = FakeCamera(live_scenes(2, 5, 3, 3), faults=[Fault.freeze(12, count=20)], live=True)
    loop, session, hub = make_loop(store, camera)
    seen = watch_status(hub)
    loop.run()
    assert read_values(session) == [[2], [3]]
    assert not [f for f in read_frames(session) if 13 <= f <= 32]
    assert cameras(seen) == ["ok", "frozen", "ok", "ended"]
    [message] = [m for c, m in seen if c == "frozen"]
    assert "same picture over and over" in message
    assert camera.calls.count(("freeze", 20)) == 1


def test_a_replay_may_repeat_its_picture(store):
    camera = FakeCamera(scenes(4), live=False)  # twelve identical frames, on purpose
    loop, session, hub = make_loop(store, camera)
    seen = watch_status(hub)
    loop.run()
    assert read_values(session) == [[4]] and cameras(seen) == ["ok", "ended"]


# -- reads that block or fail --------------------------------------------------------------------------


def test_a_read_that_blocks_is_reported_stalled_and_the_loop_goes_on_taking_actions(store):
    camera = FakeCamera(scenes(6, 2), faults=[Fault.stall(14)])
    loop, session, hub = make_loop(store, camera)
    seen = watch_status(hub)
    try:
        step_until(loop, lambda: loop.camera == "stalled")
        assert loop.message.startswith("test camera: no picture for 0.")  # read_timeout_s is 0.2 here
        assert loop.message.endswith(" s: check its cable; the game goes on")
        hub.post_action("undo", origin="touchscreen")  # taken while the camera's read is stuck
        step_until(loop, lambda: len(session.events()) == 2)
        assert [e.kind for e in session.events()] == ["dice_read", "undo"]
        assert camera.calls[-1] == ("stall", 14)
    finally:
        camera.unstall()
    loop.run()
    assert cameras(seen) == ["ok", "stalled", "ok", "ended"]
    assert ("ok", "test camera: working again") in seen
    assert read_values(session) == [[6], [2]]


@pytest.mark.parametrize("error", [None, OSError(errno.EIO, "Input/output error"), ValueError("driver bug")])
def test_an_exception_that_is_not_a_device_error_is_a_camera_fault_not_the_end(store, caplog, error):
    camera = FakeCamera(scenes(6, 2), faults=[Fault.error(14, count=3, exception=error)])  # None: a cv2.error
    loop, session, hub = make_loop(store, camera, reconnect_s=0.0)
    seen = watch_status(hub)
    with caplog.at_level(logging.ERROR, logger="device.health"):
        stats = loop.run()
    assert read_values(session) == [[6], [2]]
    assert stats.camera_losses == 1
    assert cameras(seen) == ["ok", "lost", "ok", "ended"]
    lost = [m for c, m in seen if c == "lost"]
    assert lost and all(m.startswith("test camera: failed (") and "trying again" in m and "\n" not in m for m in lost)
    if isinstance(error, OSError):  # the system's reason in the box's words, as every other refusal of the system
        assert "(an input/output error (a failing SD card, disk or USB stick?))" in lost[0]
    else:
        assert type(error or cv2.error("")).__name__ in lost[0]
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1  # logged with its traceback once per fault, not once per retry
    assert camera.calls.count(("open",)) == 4  # reopened after each failure


def test_a_camera_gone_and_back_is_reopened_and_read_again(store):
    camera = FakeCamera(scenes(6, 2), faults=[Fault.gone(14, count=2)])
    loop, session, hub = make_loop(store, camera, reconnect_s=0.0)
    seen = watch_status(hub)
    stats = loop.run()
    assert read_values(session) == [[6], [2]]
    assert stats.camera_losses == 1 and camera.open_attempts == 4
    assert cameras(seen) == ["ok", "lost", "ok", "ended"]
    lost = [m for c, m in seen if c == "lost"]
    assert "gone" in lost[0] and "plug it back in" in lost[-1]


# -- a replay folder that goes away -------------------------------------------------------------------


def write_folder(folder: Path, values: list[int]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, value in enumerate(values):
        assert cv2.imwrite(str(folder / f"{i:02d}.png"), np.full((60, 80, 3), value, np.uint8))


@pytest.mark.parametrize("how", ["deleted", "corrupted"])
def test_a_game_that_does_not_need_the_camera_survives_its_replay_folder_going_away(tmp_path, how):
    store = SessionStore(tmp_path / "box.sqlite3")
    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    folder = tmp_path / "photos"
    write_folder(folder, [90, 150])
    hub = StateHub()
    loop = MainLoop(source=ReplaySource(folder, loop=True, hold_frames=3, skip_bad=True), reader=None, session=session,
                    hub=hub,
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None,
                    reconnect_s=0.0, camera_health=FAST)
    seen = watch_status(hub)
    step_until(loop, lambda: loop.stats.frames >= 4)
    if how == "deleted":
        shutil.move(folder, tmp_path / "elsewhere")
    else:
        for photo in folder.iterdir():
            photo.write_bytes(b"not a photo any more")
    step_until(loop, lambda: loop.camera == "lost")
    assert ("gone" if how == "deleted" else "none of the 2 images") in loop.message
    hub.post_action("report", origin="phone", player="Ann", form="credits", values={"credits": 3})
    step_until(loop, lambda: session.last_seq == 1)  # the game goes on without its camera
    for _ in range(20):
        loop.step()
    assert not loop._stop and loop.camera == "lost"
    frames = loop.stats.frames
    if how == "deleted":
        shutil.move(tmp_path / "elsewhere", folder)
    else:
        write_folder(folder, [90, 150])
    step_until(loop, lambda: loop.camera == "ok" and loop.stats.frames > frames)
    assert cameras(seen)[-2:] == ["lost", "ok"] and seen[-1][1] == "photo replay: working again"
    assert [e.kind for e in session.events()] == ["credits_changed"]
    loop._watch.close()
    store.close()


# -- the watch itself ---------------------------------------------------------------------------------


def test_picture_checks_tell_black_white_and_a_table():
    table = scene(3)
    assert picture_fault(table) is None
    assert picture_fault(np.zeros_like(table)) is CameraStatus.BLACK
    assert picture_fault(np.full_like(table, 255)) is CameraStatus.SATURATED
    dim = np.full_like(table, 12)
    dim[40:80, 60:100] = (30, 60, 200)  # a red die on a dark table is no covered lens
    assert picture_fault(dim) is None
    glare = table.copy()
    glare[10:40, 10:40] = 255  # a glare patch is no blown-out frame
    assert picture_fault(glare) is None
    noisy = table.copy()
    noisy[-1, -1, 0] += 1
    assert same_picture(table, table.copy()) and not same_picture(table, noisy)
    assert not same_picture(table, table[:60])
    with pytest.raises(ValueError, match="black_fraction"):
        CameraHealthConfig(black_fraction=0)
    with pytest.raises(ValueError, match="read_timeout_s"):
        CameraHealthConfig(read_timeout_s=float("nan"))


class _ClosedCamera(FakeCamera):
    """A fake camera that tells when it has been closed (``closed``, an event to wait on)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.closed = threading.Event()

    def close(self) -> None:
        super().close()
        self.closed.set()


def test_a_watch_never_waits_longer_than_asked_and_closes_past_a_stuck_read():
    camera = _ClosedCamera(scenes(1, hold=3), faults=[Fault.stall(1)])
    watch = CameraWatch(camera, FAST)
    assert watch.poll(wait_s=5).index == 0
    started = time.monotonic()
    assert watch.poll(wait_s=0.05) is None and watch.busy
    assert time.monotonic() - started < 2  # bounded by wait_s, whatever the camera does
    watch.close()  # the read is stuck: close() gives up after close_timeout_s
    assert not camera.calls.count(("close",))
    camera.unstall()
    assert camera.closed.wait(10)  # the stuck read came back; the close queued behind it ran
    assert ("close",) in camera.calls
    assert watch.poll(wait_s=5).index == 2  # a later poll opens it again


def test_a_failed_open_is_lost_with_its_message_and_retried_after_reconnect_s():
    now = [0.0]
    camera = FakeCamera(scenes(1, hold=2), faults=[Fault.busy(0)])
    watch = CameraWatch(camera, FAST, reconnect_s=2.0, clock=lambda: now[0])
    assert watch.poll(wait_s=5) is None and watch.status is CameraStatus.LOST
    assert "in use by another program" in watch.message and watch.take_change() and not watch.take_change()
    assert watch.poll(wait_s=5) is None and camera.open_attempts == 1  # not yet due
    now[0] = 2.0
    assert watch.poll(wait_s=5).index == 0 and watch.status is CameraStatus.OK
    assert watch.message == "test camera: working again" and watch.losses == 1
    watch.close()


def test_threads_are_not_left_behind(store):
    for n in range(3):
        loop, session, hub = make_loop(store, FakeCamera(scenes(2), name=f"fake{n}"))
        loop.run()
    for thread in [t for t in threading.enumerate() if t.name in ("camera-fake0", "camera-fake1", "camera-fake2")]:
        thread.join(timeout=10)
        assert not thread.is_alive(), thread.name


def test_a_camera_not_found_at_start_is_lost_not_raised(store):
    class Nowhere(FakeCamera):
        def open(self):
            raise CameraNotFound("no camera at nowhere: check the cable")

    loop, session, hub = make_loop(store, Nowhere([scene(1)], name="nowhere"), reconnect_s=0.0)
    step_until(loop, lambda: loop.camera == "lost")
    assert loop.message == "no camera at nowhere: check the cable"
    hub.post_action("quit", origin="touchscreen")
    loop.run()  # ends on the quit action, not with an exception
