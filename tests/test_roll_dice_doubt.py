"""A read that may be a neighbouring read's side face is never sure (:mod:`vision.roll_dice.doubt`), on hand-worked
layouts: a die's top at (500, 240), 40 px a side, the camera's nadir at the picture's middle (320, 240), so its side
faces hang to the left and reach 180 / (0.8 x 640) = 0.35 side; a second box 1.0 side to its left, darker, of its
colour, whose colour runs 14 px (0.35-0.44 side) beyond the top's edge, is that top's side face whichever of the two
matched its symbol better (a glare spot on the top lets the side's symbol win)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.doubt import capped_by_side_doubt, side_doubt
from vision.roll_dice.foreground import to_log
from vision.roll_dice.observations import RollDieObservation, TopFaces

CFG = RollDiceConfig()
SIDE = 40.0
FELT = (40, 110, 40)
TOP = (200, 60, 150)         # a purple die's top, lit (BGR)
SHADED = (130, 40, 100)      # the same purple turned from the lamp: 0.39-0.43 log darker in every channel
RED = (40, 40, 200)


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _frame(side_from: int, colour=SHADED) -> np.ndarray:
    """Felt with the top painted over x 481..519 and the box's colour from x ``side_from`` to 480, y 220..259."""
    img = np.full((480, 640, 3), FELT, np.uint8)
    img[220:260, 481:520] = TOP
    img[220:260, side_from:481] = colour
    return img


def _doubt(x_box: float = 460.0, body=SHADED, side_from: int = 466, reach: float = 0.35, todo=None,
           cfg: RollDiceConfig = CFG) -> np.ndarray:
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [x_box, 240.0, SIDE, SIDE, 0.0]])
    bodies = np.array([_log(TOP), _log(body)])
    away = np.array([[1.0, 0.0], [1.0, 0.0]])
    return side_doubt(_frame(side_from, body), rects, bodies, away, np.full(2, reach), cfg, todo)


def test_a_darker_foreshortened_box_towards_the_nadir_may_be_the_tops_side_face():
    # 40 px (1.0 side, within side_reach 0.55-1.35) towards the nadir (cosine 1), the side faces reach 0.35 side
    # (on hang_reach_ramp 0.25-0.35: 1), 0.39-0.43 log darker (side_shade_ramp 0.05-0.15: 1), the same chroma; its
    # colour is hit from the edge (x 480) every 2.5 px down to x 467.5, not at 465: a run of 7 x 2.5 / 40 = 0.44 side,
    # below side_full_ramp's 0.6: foreshortened. Every factor is 1; the top itself is not a side of the box.
    assert _doubt().tolist() == [0.0, 1.0]


def test_a_full_die_lit_alike_on_the_far_side_or_of_another_colour_is_no_doubt():
    assert _doubt(side_from=441).tolist() == [0.0, 0.0]     # its colour runs a full side: a second die against it
    assert _doubt(body=TOP).tolist() == [0.0, 0.0]          # lit as the top: a second top of the same colour
    assert _doubt(body=RED).tolist() == [0.0, 0.0]          # another colour: another die
    assert _doubt(x_box=540.0).tolist() == [0.0, 0.0]       # away from the nadir: no side face hangs there
    assert _doubt(x_box=430.0).tolist() == [0.0, 0.0]       # 1.75 sides away: not touching
    assert _doubt(reach=0.1).tolist() == [0.0, 0.0]         # near the nadir no side face shows
    assert _doubt(todo=np.array([True, False])).tolist() == [0.0, 0.0]


def test_each_factor_on_its_ramp():
    # The side faces reach 0.3 side: halfway on hang_reach_ramp (0.25, 0.35).
    assert _doubt(reach=0.3)[1] == pytest.approx(0.5)
    # Without the run measured every touching face counts as foreshortened, a full die too.
    assert _doubt(side_from=441, cfg=replace(CFG, side_full_ramp=None))[1] == pytest.approx(1.0)


def _reads(side_from: int, cap=0.5):
    rects = np.array([[500.0, 240.0, SIDE, SIDE, 0.0], [460.0, 240.0, SIDE, SIDE, 0.0]])
    tops = TopFaces(rects, np.ones(2), None, np.array([_log(TOP), _log(SHADED)]))
    ncc = np.array([[0.74, 0.1], [0.1, 0.82]])               # the glared top matches worse than the side face
    top = RollDieObservation("purple", "explore", (480, 220, 40, 40), 0.54)
    box = RollDieObservation("purple", "ship", (440, 220, 40, 40), 0.997)
    kept = [(1, box), (0, top)]
    return capped_by_side_doubt(_frame(side_from), tops, ncc, kept, [box, top], replace(CFG, side_doubt_cap=cap))


def test_the_side_face_read_is_capped_and_nothing_else_changes():
    # Two faces: the nadir is the picture's middle (320, 240), the top 180 px from it reaches 180 / 512 = 0.35 side.
    box, top = _reads(466)
    assert (box.colour, box.face, box.box) == ("purple", "ship", (440, 220, 40, 40))
    assert box.confidence == pytest.approx(0.5)                 # doubt 1: 1 - 1 x (1 - 0.5)
    assert top.confidence == pytest.approx(0.54)                # the top is under the cap
    assert _reads(466, cap=0.8)[0].confidence == pytest.approx(0.8)
    assert _reads(441)[0].confidence == pytest.approx(0.997)    # a full die against it keeps its confidence
    assert _reads(466, cap=None)[0].confidence == pytest.approx(0.997)
