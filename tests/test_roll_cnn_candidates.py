"""The d6 CNN's boxes as a second source of Roll die candidates
(:func:`vision.roll_dice.candidates.add_cnn_candidates`),
worked by hand on a 1280x720 frame: a box on a square candidate is that die, boxes inside a long candidate (two
touching dice) replace it, a box beside one already added is the same die, a box of no die's size is dropped."""

from __future__ import annotations

import numpy as np
import pytest

from vision import d6
from vision.roll_dice import RollDiceConfig
from vision.roll_dice.candidates import add_cnn_candidates
from vision.roll_dice.observations import Candidates

CFG = RollDiceConfig()  # cnn_merge_dist 0.6, cnn_replace_aspect 1.3, cnn_side_range (0.5, 3.0), cnn_full_score 0.5
FRAME = np.zeros((720, 1280, 3), np.uint8)
NET = object()  # only its presence matters when the boxes are given


def classical() -> Candidates:
    rects = np.array([[100.0, 100.0, 40.0, 40.0, 0.0],    # a square die
                      [300.0, 100.0, 40.0, 40.0, 0.0],    # another
                      [600.0, 300.0, 80.0, 40.0, 0.0]])   # two touching dice read as one long candidate
    return Candidates(rects, np.array([0.9, 0.8, 0.7]), 0.5)


def boxes(*rows: tuple[float, float, float, float, float]) -> d6.Candidates:
    a = np.array(rows, np.float32).reshape(-1, 5)
    return d6.Candidates(a[:, :4].copy(), a[:, 4].copy())


def test_boxes_added_replaced_and_skipped_as_worked_by_hand():
    # the frame's die side is the median candidate side: 40, 40 and sqrt(80 x 40) = 56.6 -> 40; sizes 20..120 px pass
    found = boxes((90, 80, 40, 40, 0.9),      # centre (110, 100): 10 px from the square die, under 0.6 x 40: that die
                  (560, 280, 40, 40, 0.9),    # centre (580, 300): inside the long candidate, added at score 1
                  (600, 280, 40, 40, 0.4),    # centre (620, 300): inside it too, 40 px from the first: added at 0.8
                  (570, 285, 40, 40, 0.8),    # centre (590, 305): 11.2 px from (580, 300): the same die, skipped
                  (895, 495, 10, 10, 0.9),    # side 10 < 20: a pip or a printed box, no die
                  (825, 425, 150, 150, 0.9),  # side 150 > 120: no die
                  (980, 580, 40, 40, 0.3))    # a die the classical stage missed: added at 0.3 / 0.5 = 0.6
    got = add_cnn_candidates(FRAME, classical(), NET, CFG, found)
    expected = np.array([[100, 100, 40, 40, 0], [300, 100, 40, 40, 0],      # the long candidate is replaced
                         [580, 300, 40, 40, 0], [620, 300, 40, 40, 0], [1000, 600, 40, 40, 0]], np.float64)
    assert np.allclose(got.rects, expected)
    assert got.scores == pytest.approx([0.9, 0.8, 1.0, 0.8, 0.6], abs=1e-6)
    assert got.work_scale == 0.5


def test_no_box_or_no_net_leaves_the_candidates():
    cands = classical()
    assert add_cnn_candidates(FRAME, cands, None, CFG, boxes()) is cands
    same = add_cnn_candidates(FRAME, cands, NET, CFG, boxes())
    assert np.array_equal(same.rects, cands.rects) and np.array_equal(same.scores, cands.scores)


def test_boxes_with_no_classical_candidate_use_the_default_side():
    # no candidate: the die side is 0.042 x 1280 = 53.8 px, so 26.9..161.3 px pass
    none = Candidates(np.zeros((0, 5)), np.zeros(0), 0.5)
    found = boxes((100, 100, 30, 30, 0.5), (400, 400, 25, 25, 0.5), (410, 100, 50, 50, 0.25))
    got = add_cnn_candidates(FRAME, none, NET, CFG, found)
    assert np.allclose(got.rects, [[115, 115, 30, 30, 0], [435, 125, 50, 50, 0]])
    assert got.scores == pytest.approx([1.0, 0.5])
