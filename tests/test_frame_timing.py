"""The benches' one baseline (bench.frame_timing.FrameTimer): the decode and the read are timed by one clock, wall time
by default or the CPU time a bench asks for (bench/full_table.py --cpu)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.frame_timing import FrameTimer  # noqa: E402 - after the cv2 skip


class StepClock:
    """A clock that moves one second each time it is read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_decode_and_the_read_are_timed_by_the_clock_given():
    clock = StepClock()
    frame = np.full((48, 64, 3), 128, np.uint8)

    def read(f):
        clock.now += 0.5   # the read takes half a second of this clock
        return f.shape

    with FrameTimer(decode_reps=3, clock=clock) as timer:
        assert timer.time(frame, read) == (48, 64, 3)
        # each decode is read between two ticks: 1 s; the read: 1 s of ticks and its own 0.5 s
        assert timer.base_ms == [1000.0]
        assert timer.read_ms == [1500.0]
        assert timer.ratio == 1.5


def test_wall_time_is_the_default():
    with FrameTimer() as timer:
        assert timer.clock is time.perf_counter
