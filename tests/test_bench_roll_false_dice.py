"""bench/roll_false_dice.py's finding of the top face a reported die was read from (:func:`face_of`), on hand-worked
traces.

The faces are 40 px squares: FACE the rect (120, 120, 40, 40, 0), whose axis-aligned box is (100, 100, 40, 40), and
OTHER the rect (300, 120, 40, 40, 0), box (280, 100, 40, 40)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_false_dice import face_of  # noqa: E402 - after the path
from bench.roll_missed_dice import Trace  # noqa: E402

FACE = [120.0, 120.0, 40.0, 40.0, 0.0]
OTHER = [300.0, 120.0, 40.0, 40.0, 0.0]


def _trace(kept=()) -> Trace:
    return Trace(rects=np.array([FACE, OTHER], np.float64), kept=list(kept))


def test_a_die_reported_with_its_faces_box_is_that_face():
    assert face_of((100, 100, 40, 40), _trace()) == 0
    assert face_of((280, 100, 40, 40), _trace([("assemble", {0, 1})])) == 1


def test_a_recentred_die_is_the_kept_face_nearest_its_middle():
    # box (106, 97, 40, 40): middle (126, 117), 6.7 px from FACE's middle and 174 px from OTHER's
    assert face_of((106, 97, 40, 40), _trace([("assemble", {0, 1}), ("on_other", {0, 1})])) == 0
    # the last dropping stage kept OTHER alone: the die came from it, however near FACE it now lies
    assert face_of((106, 97, 40, 40), _trace([("assemble", {0, 1}), ("on_other", {1})])) == 1


def test_a_trace_without_faces_gives_no_face():
    assert face_of((100, 100, 40, 40), Trace()) is None
