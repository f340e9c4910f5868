"""The test of a box lying partly on another die's top (:func:`vision.roll_dice.on_other.drop_on_other_dice`) on drawn
tables: a box found half on a red die and half on the felt beside it, read as a die of the felt's colour, is dropped
beside the surer read of the red die; a real die pressed against the red die, its box a little off towards it, a die
whose symbol is printed in the red die's colour, a box of the red die's own colour, and a surer read beside a less
sure one are kept.

Every case is worked by hand on a green felt (BGR 90, 120, 90). The red die's top is a 40 px square at columns
480-519, rows 220-259, its white symbol at rows 226-237, columns 494-505 (above every box below). A box of a whole
die's side (40 px) centred at (500, 260) spans rows 240-279: its upper half, rows 240-259, is the red top, its lower
half the felt, so half its square (0.5) is the red die's colour, joined to its upper border."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.observations import RollDieObservation, TopFaces
from vision.roll_dice.on_other import drop_on_other_dice, foreign_share, square_logs

CFG = RollDiceConfig()
SIDE = 40
FELT = (90, 120, 90)          # BGR, a green felt
RED = (40, 40, 200)           # the red die's top
BLUE = (200, 120, 40)         # a blue die's top
WHITE = (225, 225, 225)       # a symbol printed in white

RED_TOP = [500.0, 240.0, SIDE, SIDE, 0.0]
HALF_BOX = [500.0, 260.0, SIDE, SIDE, 0.0]     # rows 240-279: half on the red top, half on the felt


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _tops(rects, bodies) -> TopFaces:
    n = len(rects)
    return TopFaces(np.asarray(rects, np.float64), np.ones(n), np.zeros((n, 2, 4, 4), np.float32),
                    np.asarray(bodies, np.float64))


def _die(rect, colour, confidence, face="explore") -> RollDieObservation:
    cx, cy, w, h = rect[:4]
    return RollDieObservation(colour, face, (int(cx - w / 2), int(cy - h / 2), int(w), int(h)), confidence)


def _frame() -> np.ndarray:
    """The felt with the red die's top and its white symbol: uint8[480, 640, 3] BGR."""
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = FELT
    frame[220:260, 480:520] = RED
    frame[226:238, 494:506] = WHITE
    return frame


def _read(frame, rects, colours, bodies, confidences, cfg=CFG):
    dice = [_die(r, c, p) for r, c, p in zip(rects, colours, confidences, strict=True)]
    kept = list(enumerate(dice))
    return drop_on_other_dice(frame, _tops(rects, [_log(b) for b in bodies]), kept, dice, cfg)


def test_half_the_square_of_a_box_half_on_the_red_die_is_red():
    # Rows 240-259 of the box's 240-279 are red: 20 of 40 rows, joined to its upper border. The patch is 32 px for
    # 40 frame px: 16 of its 32 rows, give or take the one row sampled across the red top's edge.
    share = foreign_share(square_logs(_frame(), np.array(HALF_BOX), CFG), _log(FELT), _log(RED), CFG)
    assert 15 / 32 <= share <= 0.5


def test_a_box_half_on_a_surer_die_of_another_colour_is_dropped():
    # The half box read as a green die (the felt's colour) at 0.3 beside the red die read at 0.9: 0.5 >= 0.2.
    kept, dice = _read(_frame(), [RED_TOP, HALF_BOX], ["red", "green"], [RED, FELT], [0.9, 0.3])
    assert [d.colour for d in dice] == ["red"]
    assert [i for i, _ in kept] == [0]


def test_a_box_turned_a_quarter_is_dropped_the_same():
    turned = [500.0, 260.0, SIDE, SIDE, 90.0]
    _, dice = _read(_frame(), [RED_TOP, turned], ["red", "green"], [RED, FELT], [0.9, 0.3])
    assert [d.colour for d in dice] == ["red"]


def test_a_real_die_pressed_against_the_red_die_is_kept():
    # A blue die's top at rows 260-299 (touching the red top below it), its white symbol at rows 274-285; its box
    # read 4 px off towards the red die (rows 256-295) holds red rows 256-259: 4 of 40 rows, 0.1 < 0.2.
    frame = _frame()
    frame[260:300, 480:520] = BLUE
    frame[274:286, 494:506] = WHITE
    box = [500.0, 276.0, SIDE, SIDE, 0.0]
    share = foreign_share(square_logs(frame, np.array(box), CFG), _log(BLUE), _log(RED), CFG)
    assert 2 / 32 <= share <= 4 / 32
    _, dice = _read(frame, [RED_TOP, box], ["red", "blue"], [RED, BLUE], [0.9, 0.3])
    assert len(dice) == 2


def test_a_symbol_in_the_other_dies_colour_is_not_counted():
    # A blue die whose symbol is printed in red (rows 274-285, columns 494-505) touching the red die: its box on its
    # own top (rows 260-299) holds 144 red symbol pixels, 0.09 of its square, none joined to its border: share 0.
    frame = _frame()
    frame[260:300, 480:520] = BLUE
    frame[274:286, 494:506] = RED
    box = [500.0, 280.0, SIDE, SIDE, 0.0]
    assert foreign_share(square_logs(frame, np.array(box), CFG), _log(BLUE), _log(RED), CFG) == 0.0
    _, dice = _read(frame, [RED_TOP, box], ["red", "blue"], [RED, BLUE], [0.9, 0.3])
    assert len(dice) == 2


def test_a_box_of_the_red_dies_own_colour_is_not_judged():
    # The half box read red (the own-colour side-face test's case): not judged here.
    _, dice = _read(_frame(), [RED_TOP, HALF_BOX], ["red", "red"], [RED, RED], [0.9, 0.3])
    assert len(dice) == 2


def test_the_surer_read_is_never_dropped_by_a_less_sure_one():
    # The half box read surer (0.9) than the red die (0.3): it is not judged against the red die, and the red die's
    # square (rows 220-259) holds no felt: both kept.
    _, dice = _read(_frame(), [RED_TOP, HALF_BOX], ["red", "green"], [RED, FELT], [0.3, 0.9])
    assert len(dice) == 2


def test_equal_confidence_the_read_first_counts_as_surer():
    _, dice = _read(_frame(), [RED_TOP, HALF_BOX], ["red", "green"], [RED, FELT], [0.5, 0.5])
    assert [d.colour for d in dice] == ["red"]


def test_reads_apart_are_not_judged():
    # The half box's middle 60 px below the red top's (1.5 sides > 1.3): not judged, though its square is moved
    # onto the felt anyway.
    far = [500.0, 300.0, SIDE, SIDE, 0.0]
    _, dice = _read(_frame(), [RED_TOP, far], ["red", "green"], [RED, FELT], [0.9, 0.3])
    assert len(dice) == 2


def test_off_and_mismatched_input():
    frame = _frame()
    off = replace(CFG, on_other_share=None)
    _, dice = _read(frame, [RED_TOP, HALF_BOX], ["red", "green"], [RED, FELT], [0.9, 0.3], off)
    assert len(dice) == 2
    one = [_die(RED_TOP, "red", 0.9)]
    assert drop_on_other_dice(frame, _tops([RED_TOP], [_log(RED)]), [(0, one[0])], one, CFG)[1] == tuple(one)
    with pytest.raises(ValueError, match="one each"):
        drop_on_other_dice(frame, _tops([RED_TOP], [_log(RED)]), [], one, CFG)
    two = [_die(RED_TOP, "red", 0.9), _die(HALF_BOX, "green", 0.3)]
    with pytest.raises(ValueError, match="face indices"):
        drop_on_other_dice(frame, _tops([RED_TOP], [_log(RED)]), [(0, two[0]), (5, two[1])], two, CFG)
    with pytest.raises(ValueError, match="square"):
        foreign_share(np.zeros((4, 5, 3)), _log(RED), _log(FELT), CFG)
