"""The shaded-side test of the Roll dice reader (:func:`vision.roll_dice.sides.shaded_sides`) on drawn tables: a
box over a die's side face turned from the lamp, lying from its top towards the camera's nadir and running less than a
whole die beyond the top's edge, is found whichever of the two matches better; a die lying in a shadow against the
first, a face lit almost as the top, one away from the nadir, near the nadir or of another chroma is not.

Every case is worked by hand: the die's top (40 px) at (500, 240), the nadir at the picture's middle (320, 240), so
the top's side faces hang to its left (``away`` = (1, 0), the direction from the top towards the box (-1, 0): cosine
1). The bodies are given as log-RGB: the box's is the drawn side colour's, the top's that plus a shade ``d`` on every
channel (the same chroma, ``d`` brighter)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.sides import shaded_sides

CFG = RollDiceConfig()
SIDE = 40
TABLE = (90, 120, 90)        # BGR, a green felt
TOP = (40, 40, 200)          # a red die's top, lit
DEEP = (15, 15, 90)          # the same red's side face turned from the lamp


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _frame(side_width: int = 16, colour=DEEP) -> np.ndarray:
    """The table, the top at columns 480-519, rows 220-259, and left of it a patch of ``colour`` ``side_width`` px wide
    (columns 480 - side_width .. 479), as tall as the top: uint8[480, 640, 3] BGR."""
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = TABLE
    frame[220:260, 480:520] = TOP
    frame[220:260, 480 - side_width:480] = colour
    return frame


def _shaded(frame, x_box=468.0, y_box=240.0, shade=0.3, away=(1.0, 0.0), reach=0.5, box_body=None, cfg=CFG):
    side_body = _log(DEEP) if box_body is None else box_body
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [x_box, y_box, SIDE, SIDE, 0.0]])
    bodies = np.array([_log(DEEP) + shade, side_body])
    return shaded_sides(frame, rects, bodies, np.array([away, away], np.float64), np.array([reach, reach]), cfg)


def test_a_deeply_shaded_foreshortened_face_towards_the_nadir_is_a_side_face():
    # The side face is 16 px (0.4 side) beyond the top's left edge; the reader's box for it is centred 32 px (0.8
    # side) from the top's. Shade 0.3 >= 0.25 (ramp 1), cosine 1 >= 0.5 (1), reach 0.5 >= 0.35 (1), chroma the
    # same; the side colour runs from the edge to column 464: the strip's samples every 40/16 = 2.5 px hit at
    # x = 477.5 .. 465 (steps 1-6), so it runs 7 x 2.5 / 40 = 0.44 side < 0.9 (1 - ramp = 1). The top itself lies
    # away from the nadir from the box (cosine -1): 0.
    assert _shaded(_frame()).tolist() == [0.0, 1.0]


def test_a_die_in_a_shadow_lying_against_the_top_is_not_a_side_face():
    # A whole die's top of the shaded colour, 40 px, columns 440-479: hits from x = 477.5 to 440 (steps 1-16), a run of
    # 17 x 2.5 / 40 = 1.06 sides >= 1.05: a whole side, 1 - ramp = 0.
    assert _shaded(_frame(side_width=40), x_box=460.0).tolist() == [0.0, 0.0]


def test_the_factors_on_their_ramps():
    frame = _frame()
    # shade 0.2: halfway up (0.15, 0.25)
    assert _shaded(frame, shade=0.2)[1] == pytest.approx(0.5)
    # shade 0.1: a face lit almost as the top (the side-face and hanging tests' business): 0
    assert _shaded(frame, shade=0.1)[1] == 0.0
    # cosine 0.4 between the way to the box and the way to the nadir: halfway up (0.3, 0.5)
    assert _shaded(frame, away=(0.4, float(np.sqrt(1 - 0.16))))[1] == pytest.approx(0.5)
    # reach 0.3 of a side: halfway up (0.25, 0.35); near the nadir (0.2) no side face shows
    assert _shaded(frame, reach=0.3)[1] == pytest.approx(0.5)
    assert _shaded(frame, reach=0.2)[1] == 0.0


def test_what_keeps_a_box_out_of_the_test():
    frame = _frame()
    # away from the nadir: the box right of the top (the top lies towards the nadir from it: the top is not lowered
    # either, its shade from the box is -0.3)
    right = frame.copy()
    right[220:260, 520:536] = DEEP
    assert _shaded(right, x_box=532.0).tolist() == [0.0, 0.0]
    # another chroma: a blue body beside the red top
    assert _shaded(frame, box_body=_log((90, 30, 15))).tolist() == [0.0, 0.0]
    # 56 px = 1.4 sides from the top: beyond side_reach's 1.35, not touching it
    assert _shaded(frame, x_box=444.0).tolist() == [0.0, 0.0]
    # darker by 1.5 log units, beyond deep_shade_most (1.0): black print beside white paper (a calibration marker),
    # not a side face still lit by the room
    assert _shaded(frame, shade=1.5).tolist() == [0.0, 0.0]
    # the test off
    assert _shaded(frame, cfg=replace(CFG, deep_shade_ramp=None)).tolist() == [0.0, 0.0]


def test_faces_left_out_take_no_part_and_no_face_gives_nothing():
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [468.0, 240.0, SIDE, SIDE, 0.0]])
    bodies = np.array([_log(DEEP) + 0.3, _log(DEEP)])
    away = np.array([[1.0, 0.0], [1.0, 0.0]])
    got = shaded_sides(_frame(), rects, bodies, away, np.array([0.5, 0.5]), CFG, todo=np.array([False, True]))
    assert got.tolist() == [0.0, 0.0]
    assert shaded_sides(_frame(), np.zeros((0, 5)), np.zeros((0, 3)), np.zeros((0, 2)), np.zeros(0), CFG).shape == (0,)
