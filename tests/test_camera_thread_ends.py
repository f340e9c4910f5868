"""A closed camera watch ends the thread that reads the camera (joined in its close); a main loop stepped by its
caller is closed with :meth:`companion.app.MainLoop.close`. Each loop a test stepped left its reading thread alive
to the end of the run (about 200 by the end of a whole run)."""

from __future__ import annotations

import threading

import numpy as np

from device import FakeCamera
from device.health import CameraWatch
from tests.test_desk import box, race


def _reading_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("camera-")]


def test_a_closed_watch_has_no_thread_left():
    before = set(_reading_threads())
    watch = CameraWatch(FakeCamera([np.full((48, 64, 3), 90, np.uint8)] * 3))
    frame = watch.poll(wait_s=5.0)
    assert frame is not None
    started = [t for t in _reading_threads() if t not in before]
    assert len(started) == 1 and started[0].is_alive()
    watch.close()
    assert not started[0].is_alive()
    assert watch.poll(wait_s=5.0) is not None  # a later poll opens the camera again, on a new thread
    watch.close()
    assert set(_reading_threads()) <= before


def test_a_loop_stepped_by_hand_is_closed_with_its_thread(store):
    before = set(_reading_threads())
    loop = box(race(store))
    loop.step()
    assert len(set(_reading_threads()) - before) == 1
    loop.close()
    assert set(_reading_threads()) <= before
