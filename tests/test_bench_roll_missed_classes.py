"""bench/roll_missed_dice.py's classes of a missed die (``--classes``): where it lies (:func:`situation`), the gap
between two top faces (:func:`quad_gap`), the tally tables (:func:`class_table`) and the crops (:func:`save_crop`), on
hand-built labels.

Every case's missed die is label 0, the axis-aligned 40 px top face at columns 100-140, rows 100-140 (centre 120, 120,
side 40 px) in a 640 x 480 frame. A neighbour "touches" when its top face lies within 0.15 x 40 = 6 px; a board's
edge counts within 0.6 x 40 = 24 px of the centre; the frame's edge within one side (40 px) of the centre."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

cv2 = pytest.importorskip("cv2")

from bench.roll_missed_dice import class_table, quad_gap, quad_side, save_crop, situation  # noqa: E402 - after the path
from vision.synth import DieLabel  # noqa: E402 - after the path

FRAME = (640, 480)


def _die(x: float, y: float, side: float = 40.0) -> DieLabel:
    quad = ((x, y), (x + side, y), (x + side, y + side), (x, y + side))
    return DieLabel("blue", "explore", (int(x), int(y), int(side), int(side)), (x + side / 2, y + side / 2), quad)


MISSED = _die(100, 100)


def test_side_and_gap_of_top_faces():
    assert quad_side(MISSED.quad) == pytest.approx(40.0)
    assert quad_gap(MISSED.quad, _die(144, 100).quad) == pytest.approx(4.0)      # 4 px of table between them
    assert quad_gap(MISSED.quad, _die(130, 130).quad) == 0.0                     # overlapping
    # a diamond whose left corner is 3 px right of the square's right side: the gap is 3 px
    diamond = ((143, 120), (163, 100), (183, 120), (163, 140))
    assert quad_gap(MISSED.quad, diamond) == pytest.approx(3.0)


def test_two_dice_read_as_one_are_merged():
    # one reported box over both dice (columns 100-184), matched to the neighbour (label 1)
    labels = [MISSED, _die(144, 100)]
    assert situation(0, labels, [(100, 100, 84, 40)], {1: 0}, {}, FRAME) == "merged"
    # the same box matched to no one (the die is missed for another reason) is not a merge: they touch
    assert situation(0, labels, [(100, 100, 84, 40)], {}, {}, FRAME) == "touching"


def test_touching_is_within_a_sixth_of_a_side():
    assert situation(0, [MISSED, _die(144, 100)], [], {}, {}, FRAME) == "touching"   # 4 px = 0.10 side
    assert situation(0, [MISSED, _die(150, 100)], [], {}, {}, FRAME) == "open"       # 10 px = 0.25 side


def test_a_board_edge_across_the_die():
    # a board whose left edge runs at column 140: 20 px (0.5 side) from the centre, inside or outside alike
    board = [[140, 0], [600, 0], [600, 400], [140, 400]]
    assert situation(0, [MISSED], [], {}, {"boards": [board]}, FRAME) == "board edge"
    # the die well inside a board (its edges 100 px or more away) lies in the open
    wide = [[20, 20], [600, 20], [600, 400], [20, 400]]
    assert situation(0, [MISSED], [], {}, {"boards": [wide]}, FRAME) == "open"
    # the left edge at column 150: 30 px (0.75 side) away
    assert situation(0, [MISSED], [], {}, {"boards": [[[150, 0], [600, 0], [600, 400], [150, 400]]]}, FRAME) == "open"


def test_the_frame_edge():
    near_left = _die(10, 200)      # centre 30 px from the left border
    assert situation(0, [near_left], [], {}, {}, FRAME) == "frame edge"
    near_bottom = _die(300, 410)   # centre (320, 430): 50 px above the bottom, more than a side
    assert situation(0, [near_bottom], [], {}, {}, FRAME) == "open"


def test_the_tally_table_counts_by_row_and_column():
    rows = [("no face", "touching")] * 3 + [("no face", "open")] + [("weak symbol", "open")] * 2
    lines = class_table(rows, "stage x where")
    head = lines[0].split()
    assert head[-3:] == ["open", "touching", "total"] or head[-3:] == ["touching", "open", "total"]
    cols = head[3:-1]
    table = {ln.rsplit(None, len(cols) + 1)[0].strip(): [int(v) for v in ln.split()[-(len(cols) + 1):]]
             for ln in lines[1:]}
    want = {"no face": Counter(touching=3, open=1), "weak symbol": Counter(open=2)}
    for name, counts in want.items():
        assert table[name] == [counts[c] for c in cols] + [sum(counts.values())]
    assert table["total"] == [Counter(touching=3, open=3)[c] for c in cols] + [6]
    assert list(table)[:2] == ["no face", "weak symbol"]      # largest row first


def test_a_crop_is_two_sides_each_way_shown_twice(tmp_path):
    img = np.zeros((480, 640, 3), np.uint8)
    path = save_crop(tmp_path / "crops", "1000-00-blue", img, MISSED, [(96, 96, 48, 48)])
    crop = cv2.imread(str(path))
    # columns 40-200, rows 40-200 (161 px) at 2x
    assert crop.shape == (322, 322, 3)
    assert tuple(crop[120, 120]) == (0, 255, 0)          # the top face's corner (100, 100) -> (120, 120)
    assert tuple(crop[112, 150]) == (0, 0, 255)          # the reported box's top (row 96) -> 112
