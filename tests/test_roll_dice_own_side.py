"""The own-colour side-face test of the Roll dice reader (:func:`vision.roll_dice.own_side.drop_own_sides`) on drawn
tables: a box read on a die's side face, lit like its top and of its colour, running past the die onto the table, is
dropped beside the surer read of that die's top; two real dice of one colour pressed together, dice of two colours,
and a surer read beside a less sure one are kept.

Every case is worked by hand: a white die's top is a 40 px square at columns 480-519, rows 220-259 on a green felt;
its side face, lit like the top, runs 16 px below it (rows 260-275: foreshortened to 0.4 of a side). A read of that
side face is a whole die's side across (40 px), centred 32 px below the top's middle (rows 252-291): its band turned
away from the top (0.1-0.3 of a side in from its lower edge: rows 280-287 of the frame) lies wholly on the felt."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.observations import RollDieObservation, TopFaces
from vision.roll_dice.own_side import drop_own_sides, far_band_body

CFG = RollDiceConfig()
SIDE = 40
FELT = (90, 120, 90)          # BGR, a green felt
WHITE = (225, 225, 225)       # a white die's top and its side face, lit alike
RED = (40, 40, 200)           # a red die
INK = (30, 30, 30)            # a symbol printed in the middle


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _tops(rects, bodies) -> TopFaces:
    n = len(rects)
    return TopFaces(np.asarray(rects, np.float64), np.ones(n), np.zeros((n, 2, 4, 4), np.float32),
                    np.asarray(bodies, np.float64))


def _die(rect, colour, confidence, face="explore") -> RollDieObservation:
    cx, cy, w, h = rect[:4]
    return RollDieObservation(colour, face, (int(cx - w / 2), int(cy - h / 2), int(w), int(h)), confidence)


def _frame(below: int = 16, below_colour=WHITE) -> np.ndarray:
    """The felt, the white top at columns 480-519, rows 220-259 with a symbol in its middle, and below it ``below``
    rows of ``below_colour`` as wide as the top: uint8[480, 640, 3] BGR."""
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = FELT
    frame[220:260, 480:520] = WHITE
    frame[234:246, 494:506] = INK
    frame[260:260 + below, 480:520] = below_colour
    return frame


TOP = [500.0, 240.0, SIDE, SIDE, 0.0]
SIDE_BOX = [500.0, 272.0, SIDE, SIDE, 0.0]


def _read(frame, rects, colours, confidences):
    bodies = [_log(WHITE if c == "white" else RED) for c in colours]
    dice = [_die(r, c, p) for r, c, p in zip(rects, colours, confidences, strict=True)]
    kept = list(enumerate(dice))
    return drop_own_sides(frame, _tops(rects, bodies), kept, dice, CFG)


def test_the_far_band_of_a_side_face_box_lies_on_the_table():
    # The side-face box spans rows 252-291; its band 0.1-0.3 of a side in from the edge turned from the top (its
    # lower edge; patch rows 22-28 of 32, 1.25 frame px each) samples rows 280-287: all felt, none white. Seen from
    # the top, its band turned from the side box samples rows 224-231: its own white (the symbol, rows 234-245, lies
    # inside it), all body.
    frame = _frame()
    assert far_band_body(frame, np.array(SIDE_BOX), _log(WHITE), np.array(TOP[:2]), CFG) == 0.0
    assert far_band_body(frame, np.array(TOP), _log(WHITE), np.array(SIDE_BOX[:2]), CFG) == 1.0


def test_the_far_band_turns_with_the_face():
    # The same side-face box turned a quarter (90 degrees): the band turned from the top is still its lower band.
    frame = _frame()
    turned = np.array([500.0, 272.0, SIDE, SIDE, 90.0])
    assert far_band_body(frame, turned, _log(WHITE), np.array(TOP[:2]), CFG) == 0.0


def test_a_side_face_read_beside_its_surer_top_is_dropped():
    # Overlap: the side box's rows 252-291 on the top's 220-259: 8 of 40 rows, 0.2 of its box >= 0.15.
    kept, dice = _read(_frame(), [TOP, SIDE_BOX], ["white", "white"], [0.9, 0.4])
    assert [d.box for d in dice] == [(480, 220, 40, 40)]
    assert [i for i, _ in kept] == [0]


def test_two_real_dice_of_one_colour_pressed_together_are_both_kept():
    # A second whole white die below the first (rows 252-291 white, a symbol in its middle): its band turned from
    # the first is white, share 1.
    frame = _frame(below=32)
    frame[266:278, 494:506] = INK
    kept, dice = _read(frame, [TOP, SIDE_BOX], ["white", "white"], [0.9, 0.4])
    assert len(dice) == 2 and len(kept) == 2


def test_a_box_beside_a_die_of_another_colour_is_not_judged():
    _, dice = _read(_frame(), [TOP, SIDE_BOX], ["white", "red"], [0.9, 0.4])
    assert len(dice) == 2


def test_the_surer_read_is_never_dropped_by_a_less_sure_one():
    # The top read less sure than the side face: the side face is not judged against it, and the top's own far band
    # (rows 224-231) is white.
    _, dice = _read(_frame(), [TOP, SIDE_BOX], ["white", "white"], [0.4, 0.9])
    assert len(dice) == 2


def test_reads_apart_are_not_judged():
    # The same side-face box moved 60 px right: no overlap with the top.
    far = [560.0, 272.0, SIDE, SIDE, 0.0]
    _, dice = _read(_frame(), [TOP, far], ["white", "white"], [0.9, 0.4])
    assert len(dice) == 2


def test_off_and_mismatched_input():
    frame = _frame()
    dice = [_die(TOP, "white", 0.9), _die(SIDE_BOX, "white", 0.4)]
    tops = _tops([TOP, SIDE_BOX], [_log(WHITE), _log(WHITE)])
    kept, out = drop_own_sides(frame, tops, list(enumerate(dice)), dice, replace(CFG, own_side_far_body=None))
    assert len(out) == 2 and len(kept) == 2
    with pytest.raises(ValueError):
        drop_own_sides(frame, tops, [(0, dice[0])], dice, CFG)
