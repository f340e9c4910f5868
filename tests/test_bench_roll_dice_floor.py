"""bench/roll_dice_floor.py's oracle (:func:`off_dice`): a box is kept (not explained) when its centre lies on a
labelled die's top face or within ``reach`` px of it, explained (dropped as a tile's print is) when farther.

The die is the 40 px square at columns 100-140, rows 100-140 (centre 120, 120); the boxes are ``(x, y, w, h)`` frame px,
20 px squares, so a box's centre is its corner + 10 px."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_dice_floor import off_dice  # noqa: E402 - after the path

DIE = np.array([[100.0, 100.0], [140.0, 100.0], [140.0, 140.0], [100.0, 140.0]])


def test_a_box_on_the_die_or_within_reach_is_kept_and_one_farther_is_explained():
    explained = off_dice([DIE], reach=8.0)
    boxes = [
        (110.0, 110.0, 20.0, 20.0),   # centre (120, 120): the die's middle
        (135.0, 110.0, 20.0, 20.0),   # centre (145, 120): 5 px right of the die's right side (x 140), within 8
        (140.0, 110.0, 20.0, 20.0),   # centre (150, 120): 10 px right of it, beyond 8
        (300.0, 300.0, 20.0, 20.0),   # centre (310, 310): far off
    ]
    assert explained(boxes) == [False, False, True, True]


def test_a_box_is_kept_near_any_die_and_with_no_reach_only_on_one():
    other = DIE + 200.0                                           # a second die, columns and rows 300-340
    explained = off_dice([DIE, other], reach=0.0)
    # centres (320, 320) on the second die, (145, 120) 5 px off the first with no reach allowed
    assert explained([(310.0, 310.0, 20.0, 20.0), (135.0, 110.0, 20.0, 20.0)]) == [False, True]
    assert off_dice([], reach=8.0)([(110.0, 110.0, 20.0, 20.0)]) == [True]     # no die: everything is explained
    assert explained([]) == []


@pytest.mark.parametrize("reach", [-1.0, float("nan"), float("inf")])
def test_a_reach_that_is_no_distance_is_refused(reach):
    with pytest.raises(ValueError, match="reach"):
        off_dice([DIE], reach)
