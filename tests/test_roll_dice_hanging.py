"""The hanging-side test of the Roll dice reader (:func:`vision.roll_dice.sides.hanging_sides`), on hand-worked
layouts: a box half on a die's top and half on the side face that hangs from it towards the camera's nadir is that
die's side face; a second die of the same colour lit as the first, a box on the far side from the nadir, one not
overlapping, another colour, a die near the nadir (no side face shows) or a surer box is not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.nadir import towards_top
from vision.roll_dice.sides import hanging_sides

CFG = RollDiceConfig()
SIDE = 40.0
TOP = (40, 40, 200)          # a red die's top, lit (BGR)
SHADED = (25, 25, 140)       # the same red turned from the lamp: 0.36-0.47 log darker in every channel
BLUE = (150, 60, 30)


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _hang(x_box: float, body=SHADED, reach: float = 0.5, surety=(0.9, 0.4), cfg: RollDiceConfig = CFG,
          todo=None) -> np.ndarray:
    """``hanging_sides`` of a die's box at (500, 240) and a second box at (``x_box``, 240), both ``SIDE`` px squares,
    the camera's nadir to the left (each face's unit vector from the nadir (1, 0)), the side faces reaching ``reach``
    sides."""
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [x_box, 240.0, SIDE, SIDE, 0.0]])
    bodies = np.array([_log(TOP), _log(body)])
    away = np.array([[1.0, 0.0], [1.0, 0.0]])
    return hanging_sides(rects, bodies, np.array(surety), away, np.full(2, reach), cfg, todo)


def test_a_shaded_box_overlapping_a_surer_die_towards_the_nadir_is_its_side_face():
    # 28 px (0.7 side) towards the nadir: the boxes overlap by 12 of 40 px (0.3 of the smaller), the direction's
    # cosine is 1, the side faces reach 0.5 side and the box is 0.36-0.47 log darker: every factor is 1.
    assert _hang(472.0).tolist() == [0.0, 1.0]


def test_each_factor_on_its_ramp():
    # 36 px apart: the boxes overlap by 4 of 40 px = 0.1, on the ramp (0.05, 0.12): (0.1 - 0.05) / 0.07 = 5/7.
    assert _hang(464.0)[1] == pytest.approx(5.0 / 7.0)
    # The side faces reach 0.3 side: on the ramp (0.25, 0.35) halfway.
    assert _hang(472.0, reach=0.3)[1] == pytest.approx(0.5)


def test_a_box_lit_as_the_die_on_the_far_side_apart_or_near_the_nadir_is_not_a_side_face():
    assert _hang(472.0, body=TOP).tolist() == [0.0, 0.0]       # lit alike: a second die of the same colour
    assert _hang(528.0).tolist() == [0.0, 0.0]                 # away from the nadir: no side face hangs there
    assert _hang(455.0).tolist() == [0.0, 0.0]                 # 45 px apart: the boxes do not overlap
    assert _hang(472.0, body=BLUE).tolist() == [0.0, 0.0]      # another colour: another die
    assert _hang(472.0, reach=0.1).tolist() == [0.0, 0.0]      # near the nadir the side faces do not show


def test_only_a_surer_die_has_side_boxes_and_faces_left_out_take_no_part():
    assert _hang(472.0, surety=(0.4, 0.9)).tolist() == [0.0, 0.0]
    assert _hang(472.0, surety=(0.5, 0.5)).tolist() == [0.0, 0.0]
    assert _hang(472.0, todo=np.array([False, True])).tolist() == [0.0, 0.0]
    assert _hang(472.0, cfg=replace(CFG, hang_overlap_ramp=None)).tolist() == [0.0, 0.0]
    assert hanging_sides(np.zeros((0, 5)), np.zeros((0, 3)), np.zeros(0), np.zeros((0, 2)), np.zeros(0),
                         CFG).shape == (0,)


def test_with_the_nadir_from_the_camera_geometry():
    # A camera tilted so the nadir lies at (320, 240): a die at (500, 240) has its side faces towards the left, and
    # 180 px from the nadir with f = 0.8 x 640 px and no tilt they reach 180 / 512 = 0.35 side.
    away, reach = towards_top(np.array([[500.0, 240.0], [472.0, 240.0]]), np.array([320.0, 240.0]), 0.0, 0.8, 640.0)
    assert away[0] == pytest.approx([1.0, 0.0])
    assert reach[0] == pytest.approx(180.0 / 512.0)
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [472.0, 240.0, SIDE, SIDE, 0.0]])
    got = hanging_sides(rects, np.array([_log(TOP), _log(SHADED)]), np.array([0.9, 0.4]), away, reach, CFG)
    assert got[0] == 0.0
    assert got[1] == pytest.approx(1.0)
