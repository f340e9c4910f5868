"""The printed-box test of the Roll dice reader (vision/roll_dice/boxed.py and the reader's stage ``boxed``): a read die
whose colour leaves near its edge and comes back just beyond, on three sides or more, is a box printed on a board.

Hand-worked with the shipped settings on drawn frames: a face 40 px across centred at (100, 100) of a 200 x 200 frame
(its square x and y 80..119). The patch spans 2.5 sides (100 frame px in 50 patch px), so a half face is 10 patch px
(20 frame px) and each band 0.1 half face is one patch px (2 frame px). The face's own colour at a side is the mean
over 0.6-0.9 half faces (12-18 px from the middle); a line must start within 0.9-1.5 half faces (18-30 px) more than
0.3 off it (log-RGB distance), and the colour come back within 0.15 of it in the next 6 bands (12 px)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.boxed import colour_excess, drop_boxed, framed_sides
from vision.roll_dice.colours import lit_distances
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.observations import RollDieObservation, TopFaces

CFG = RollDiceConfig()
BOARD = (70, 50, 50)        # BGR: a dark board; the line (210, 190, 210) is ln(211 / 71) ~ 1.1 off it per channel
LINE = (210, 190, 210)
FACE = np.array([[100.0, 100.0, 40.0, 40.0, 0.0]])


def _box(sides: str = "lrtb", centre: tuple[int, int] = (100, 100), size: tuple[int, int] = (200, 200)) -> np.ndarray:
    """A board with a box printed round the 40 px square about ``centre``: a line 4 px wide just beyond each of its
    ``sides`` (l, r, t, b: 20-23 px from the middle), a digit-like ring 8 px across in the middle, the board again
    beyond the line (from 24 px)."""
    img = np.zeros((*size, 3), np.uint8)
    img[:] = BOARD
    cx, cy = centre
    if "l" in sides:
        img[cy - 24:cy + 24, cx - 24:cx - 20] = LINE
    if "r" in sides:
        img[cy - 24:cy + 24, cx + 20:cx + 24] = LINE
    if "t" in sides:
        img[cy - 24:cy - 20, cx - 24:cx + 24] = LINE
    if "b" in sides:
        img[cy + 20:cy + 24, cx - 24:cx + 24] = LINE
    img[cy - 4:cy + 4, cx - 4:cx + 4] = LINE
    img[cy - 2:cy + 2, cx - 2:cx + 2] = BOARD
    return img


def _die() -> np.ndarray:
    """A white die's top (225) 40 px across on green felt (40, 90, 40), its side face (160: the body shaded, ln(226 /
    161) ~ 0.34 per channel off the top) hanging 12 px below it; beyond, the felt all round."""
    img = np.zeros((200, 200, 3), np.uint8)
    img[:] = (40, 90, 40)
    img[80:120, 80:120] = 225
    img[120:132, 80:120] = 160
    img[96:104, 96:104] = 30                      # the symbol's middle stroke
    return img


def test_a_box_printed_all_round_is_framed_on_four_sides():
    """Each side: inside 12-18 px the board (the digit lies within 4 px), the line from 20 px (1.0 half face, more than
    0.3 off), the board again from 24 px (1.2 half faces, within 0.15): framed."""
    assert framed_sides(_box(), FACE, CFG).tolist() == [4]


def test_a_track_box_open_on_a_side_or_two():
    """A track's end box printed on three sides is framed on three; a box with lines on two sides only, on two."""
    assert framed_sides(_box("ltb"), FACE, CFG).tolist() == [3]
    assert framed_sides(_box("lt"), FACE, CFG).tolist() == [2]


def test_a_die_on_felt_is_framed_nowhere():
    """Beyond the white top: its side face (0.34 x sqrt 3 ~ 0.58 off, more than 0.3) and then the felt below, the felt
    on the other three sides; neither comes back to the top's white: framed on no side."""
    assert framed_sides(_die(), FACE, CFG).tolist() == [0]


def _reads(n: int) -> list[RollDieObservation]:
    return [RollDieObservation("white", "explore", (80, 80, 40, 40), 0.6) for _ in range(n)]


def _tops(rects: np.ndarray) -> TopFaces:
    n = len(rects)
    return TopFaces(rects, np.ones(n), np.zeros((n, 2, 4, 4), np.float32), np.zeros((n, 3)))


def test_the_reader_drops_a_printed_box_and_keeps_the_die():
    """A frame with the box of the second test printed on three sides (left, top, bottom) on the left (centre 100,
    100) and the die of the third on the right (centre 300, 100), both read at best NCC 0.6 (at most 0.8, the bottom of
    flat_match_ramp): the box goes, the die and its kept face stay in step. With the box's best NCC 0.81 (a good
    symbol match) it stays; with the test off, both stay."""
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:, :200] = _box("ltb")
    frame[:, 200:] = _die()
    rects = np.array([[100.0, 100.0, 40.0, 40.0, 0.0], [300.0, 100.0, 40.0, 40.0, 0.0]])
    dice = _reads(2)
    kept = [(0, dice[0]), (1, dice[1])]
    ncc = np.full((2, 3), 0.6)
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG) == ([kept[1]], (dice[1],))
    ncc[0, 2] = 0.81
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG) == (kept, tuple(dice))
    ncc[0, 2] = 0.6
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, replace(CFG, boxed_sides=None)) == (kept, tuple(dice))


def test_a_box_near_the_frame_border_is_not_judged():
    """The box centred at x 40: its square's left side at 20 px from the border, under boxed_edge 0.6 x 40 = 24 px
    (its outer bands would reach past the border, where the border is repeated): kept. Centred at x 44 (left side
    at 24 px): judged and dropped."""
    dice = _reads(1)
    ncc = np.full((1, 3), 0.6)
    for x, dropped in ((40, False), (44, True)):
        frame = _box(centre=(x, 100))
        rects = np.array([[float(x), 100.0, 40.0, 40.0, 0.0]])
        kept, out = drop_boxed(frame, _tops(rects), ncc, [(0, dice[0])], dice, CFG)
        assert (out == ()) is dropped


def test_no_reads_and_mismatched_inputs():
    frame = _box()
    assert drop_boxed(frame, _tops(FACE), np.zeros((1, 3)), [], [], CFG) == ([], ())
    with pytest.raises(ValueError, match="one each"):
        drop_boxed(frame, _tops(FACE), np.zeros((1, 3)), [], _reads(1), CFG)
    assert framed_sides(frame, np.zeros((0, 5)), CFG).shape == (0,)
    for bad in (replace(CFG, boxed_along=1.0), replace(CFG, boxed_line=(1.5, 0.9)),
                replace(CFG, boxed_inner=(0.6, 0.6)), replace(CFG, boxed_line=(0.6, 1.5))):
        with pytest.raises(ValueError, match="no bands inside the edge"):
            framed_sides(frame, FACE, bad)


def test_colour_excess_over_the_frames_dice_of_that_colour():
    """Three white reads at squared distances 1.0, 1.5 and 9.0 from the white prototype (the last weighing 0.3, under
    the peers' 0.5) and a red one at 4.0: each white less the median of the other whites weighing 0.5 or more (1.0 -
    1.5, 1.5 - 1.0, 9.0 - median(1.0, 1.5) = 7.75); the red, with no other red, its distance itself."""
    out = colour_excess([1.0, 1.5, 9.0, 4.0], ["white", "white", "white", "red"], [1.0, 1.0, 0.3, 1.0], 0.5)
    assert out.tolist() == pytest.approx([-0.5, 0.5, 7.75, 4.0])
    assert colour_excess([], [], [], 0.5).shape == (0,)
    with pytest.raises(ValueError, match="one each"):
        colour_excess([1.0, 2.0], ["white"], [1.0, 1.0], 0.5)


def test_lit_distances_see_the_prototypes_through_the_light():
    """Under a light that adds 0.2 to every log channel (saturation scale 1), a body 0.2 above a prototype is at
    distance 0 from it, and a body 0.2 + 0.35 (one brightness_sigma brighter) at 3 x 1 ** 2 = 3 (the brightness term
    of :func:`colour_distances`)."""
    protos = np.array([[0.0, 0.0, 0.0], [0.5, -0.5, 0.0]])
    light = np.array([0.2, 0.2, 0.2, 1.0])
    body = np.array([[3.2, 3.2, 3.2], [3.55, 3.55, 3.55]])
    d = lit_distances(body, protos + 3.0, light, CFG)
    assert d[:, 0].tolist() == pytest.approx([0.0, 3.0])
    assert d[0, 1] > 0.0
    assert lit_distances(np.zeros((0, 3)), protos, light, CFG).shape == (0, 2)


def test_a_box_framed_on_two_sides_goes_only_when_unlike_its_colours_dice():
    """The box with lines on two sides (left and top) on the left of the frame, read as a white die, the die of the
    third test on the right read as a red one, both at best NCC 0.6. Framed on two sides, under boxed_sides 3: without
    colour distances the box stays. With the box 6.0 from the white prototype and no other white read (its excess is
    6.0, at least boxed_unlike 2.0) it goes; at 1.5 (a white die's colour beside a band of the cloth) it stays. The die,
    framed nowhere, stays at any distance (30, a red under a warm lamp)."""
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:, :200] = _box("lt")
    frame[:, 200:] = _die()
    rects = np.array([[100.0, 100.0, 40.0, 40.0, 0.0], [300.0, 100.0, 40.0, 40.0, 0.0]])
    dice = [RollDieObservation("white", "explore", (80, 80, 40, 40), 0.6),
            RollDieObservation("red", "settle", (280, 80, 40, 40), 0.6)]
    kept = [(0, dice[0]), (1, dice[1])]
    ncc = np.full((2, 3), 0.6)
    colours = ("white", "red")
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG) == (kept, tuple(dice))
    far = np.array([[6.0, 9.0], [40.0, 30.0]])
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG, far, colours) == ([kept[1]], (dice[1],))
    near = np.array([[1.5, 9.0], [40.0, 30.0]])
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG, near, colours) == (kept, tuple(dice))
    off = replace(CFG, boxed_half_sides=None)
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, off, far, colours) == (kept, tuple(dice))
    with pytest.raises(ValueError, match="not among"):
        drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG, far, ("white", "blue"))


def test_a_box_closed_all_round_goes_unless_its_symbol_matches_near_perfectly():
    """The box printed on all four sides (framed on 4, boxed_closed) beside the die on felt (framed on none): with the
    box's best NCC 0.84 (a digit matching a symbol well, above the bottom 0.8 of flat_match_ramp that spares a box
    framed on three sides) it goes; at 0.96 (above the ramp's top 0.95: a near-perfect symbol) it stays, as it does
    at 0.84 with boxed_closed None. The die, at NCC 0.84, with a printed line 4 px wide running the frame's height
    just beyond its left side (276-279 px: the felt, not the die's white, beyond it), is framed on no side and stays
    every time."""
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:, :200] = _box()
    frame[:, 200:] = _die()
    frame[:, 276:280] = LINE
    assert framed_sides(frame, np.array([[300.0, 100.0, 40.0, 40.0, 0.0]]), CFG).tolist() == [0]
    rects = np.array([[100.0, 100.0, 40.0, 40.0, 0.0], [300.0, 100.0, 40.0, 40.0, 0.0]])
    dice = _reads(2)
    kept = [(0, dice[0]), (1, dice[1])]
    ncc = np.full((2, 3), 0.84)
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG) == ([kept[1]], (dice[1],))
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, replace(CFG, boxed_closed=None)) == (kept, tuple(dice))
    ncc[0, 2] = 0.96
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, CFG) == (kept, tuple(dice))


def test_a_good_match_is_looked_at_for_a_closed_line_only_where_the_table_came_back_round_it():
    """The closed box and the die of the test above, both at best NCC 0.84, with the share of the ring round each in
    which the table came back (``returns``, as the printed-square test measured it) given: the box at 0.25 (at the bar
    ``boxed_closed_returns`` 0.25) is looked at and goes; at 0.24, under the bar, it is not looked at and stays
    (a die on the table has its sides and shadow there, not the table); not measured (-1), it is looked at and goes.
    A read with no good symbol match (NCC 0.6) is looked at whatever its ring: the box framed on four sides goes at
    0.0. Ring shares not one per top face are refused."""
    frame = np.zeros((200, 400, 3), np.uint8)
    frame[:, :200] = _box()
    frame[:, 200:] = _die()
    rects = np.array([[100.0, 100.0, 40.0, 40.0, 0.0], [300.0, 100.0, 40.0, 40.0, 0.0]])
    dice = _reads(2)
    kept = [(0, dice[0]), (1, dice[1])]
    ncc = np.full((2, 3), 0.84)
    cfg = replace(CFG, boxed_closed_returns=0.25)
    dropped = ([kept[1]], (dice[1],))
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, cfg, returns=np.array([0.25, 0.0])) == dropped
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, cfg, returns=np.array([0.24, 0.0])) == (kept, tuple(dice))
    assert drop_boxed(frame, _tops(rects), ncc, kept, dice, cfg, returns=np.array([-1.0, 0.0])) == dropped
    assert drop_boxed(frame, _tops(rects), np.full((2, 3), 0.6), kept, dice, cfg,
                      returns=np.array([0.0, 0.0])) == dropped
    with pytest.raises(ValueError, match="ring shares"):
        drop_boxed(frame, _tops(rects), ncc, kept, dice, cfg, returns=np.zeros(3))
