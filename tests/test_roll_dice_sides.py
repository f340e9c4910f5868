"""The side-face test of the Roll dice reader (:mod:`vision.roll_dice.sides`) on drawn tables: a die's side face seen
beside its top, away from the image's middle, is found; a second die lying against the first, or a neighbour on the
middle's side, is not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.sides import side_faces

CFG = RollDiceConfig()
SIDE = 40
TABLE = (90, 120, 90)        # BGR, a green felt
TOP = (40, 40, 200)          # a red die's top, lit
SHADED = (25, 25, 140)       # the same red, a side face turned from the light


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _table() -> np.ndarray:
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = TABLE
    return frame


def _square(frame: np.ndarray, cx: int, cy: int, w: int, h: int, colour) -> None:
    frame[cy - h // 2:cy + h // 2, cx - w // 2:cx + w // 2] = colour


def _top_and(cx: int, w: int, colour) -> np.ndarray:
    """The table with a die's top (``TOP``, ``SIDE`` px square) at (500, 240), right of the image's middle (320, 240),
    and beside it a ``w`` x ``SIDE`` px patch of ``colour`` centred at (``cx``, 240): uint8[480, 640, 3] BGR."""
    frame = _table()
    _square(frame, 500, 240, SIDE, SIDE, TOP)
    _square(frame, cx, 240, w, SIDE, colour)
    return frame


def _rect(cx: float, cy: float) -> list[float]:
    return [cx, cy, SIDE, SIDE, 0.0]


def test_foreshortened_face_beyond_a_top_away_from_the_middle_is_a_side_face():
    # The die's top at (500, 240), right of the middle (320, 240); its side face 16 px wide (0.4 side) beyond its
    # right edge; the reader's candidate for it is a die-sized square centred 0.8 side from the top's centre.
    frame = _top_and(528, 16, SHADED)
    got = side_faces(frame, np.array([_rect(500, 240), _rect(532, 240)]), np.array([_log(TOP), _log(SHADED)]), CFG)
    assert got[1] == 1.0
    assert got[0] == 0.0


def test_a_second_die_lying_against_the_first_is_not_a_side_face():
    # Two full red tops side by side, 1.05 sides apart, away from the middle: the second's colour runs a whole side.
    frame = _top_and(542, SIDE, SHADED)
    got = side_faces(frame, np.array([_rect(500, 240), _rect(542, 240)]), np.array([_log(TOP), _log(SHADED)]), CFG)
    assert got.tolist() == [0.0, 0.0]


def test_the_side_towards_the_middle_counts_only_when_the_direction_is_asked_for():
    # The same foreshortened face, but between the top and the image's middle: a camera above the middle sees no
    # side there; a tilted camera (its nadir off the frame) may, so by default any direction counts.
    frame = _top_and(472, 16, SHADED)
    rects = np.array([_rect(500, 240), _rect(468, 240)])
    bodies = np.array([_log(TOP), _log(SHADED)])
    assert side_faces(frame, rects, bodies, CFG).tolist() == [0.0, 1.0]
    towards_middle = replace(CFG, side_cos_ramp=(0.3, 0.7))
    assert side_faces(frame, rects, bodies, towards_middle).tolist() == [0.0, 0.0]


def test_another_colour_a_face_lit_as_the_top_or_a_better_symbol_is_not_a_side_face():
    rects = np.array([_rect(500, 240), _rect(532, 240)])
    # Beyond the top, but blue: another body, not this die's side.
    blue = (150, 60, 30)
    frame = _top_and(528, 16, blue)
    assert side_faces(frame, rects, np.array([_log(TOP), _log(blue)]), CFG).tolist() == [0.0, 0.0]
    # The same red, lit as the top: a second top partly hidden, not a face turned from the light.
    frame = _top_and(528, 16, TOP)
    assert side_faces(frame, rects, np.array([_log(TOP), _log(TOP)]), CFG).tolist() == [0.0, 0.0]
    # A shaded face whose symbol matches better than the neighbour's: the neighbour is not the better top.
    frame = _top_and(528, 16, SHADED)
    got = side_faces(frame, rects, np.array([_log(TOP), _log(SHADED)]), CFG, match=np.array([0.5, 0.8]))
    assert got.tolist() == [0.0, 0.0]


def test_faces_left_out_take_no_part():
    frame = _top_and(528, 16, SHADED)
    rects = np.array([_rect(500, 240), _rect(532, 240)])
    got = side_faces(frame, rects, np.array([_log(TOP), _log(SHADED)]), CFG, todo=np.array([False, True]))
    assert got.tolist() == [0.0, 0.0]
    assert side_faces(frame, np.zeros((0, 5)), np.zeros((0, 3)), CFG).shape == (0,)
