"""The blank-face test of the Roll dice reader (vision/roll_dice/blank.py and the reader's stage ``blank``): a read die
whose middle is as flat as paper beside the printed faces of its colour is an empty check or box, not a die.

Hand-worked with the shipped settings: a die is wholly blank where its stroke spread is at most ``blank_share`` 0.3 of
the largest of the other dice of its colour at die weight 0.5 or more (two of them at least), its best NCC at most
0.8 (the bottom of ``flat_match_ramp``) and its own die weight below ``blank_sure`` 0.7; it is then dropped. A face
whose square reaches within ``blank_edge`` 0.5 of its side (half a die) of the frame's border may be cut off: it is
neither judged nor a bar. The faces below weigh 0.6 (a bar, and judged) unless said."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.roll_dice.blank import blank_faces, cut_off, not_blank
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.observations import RollDieObservation, TopFaces
from vision.roll_dice.shape import stroke_spread

CFG = RollDiceConfig()
WHITE3 = ("white", "white", "white")
NONE3 = np.zeros(3, bool)
W3 = np.full(3, 0.6)
W4 = np.full(4, 0.6)


def test_an_empty_check_beside_two_printed_white_dice_is_blank():
    """Dice at stroke spread 0.9 and 0.8, the check at 0.18: 0.18 / 0.9 = 0.2, at most 0.3: blank. Each die's bar is
    the larger of the other two (0.8 / 0.9 = 0.89 and 0.9 / 0.8 = 1.13): printed."""
    out = blank_faces(np.array([0.9, 0.8, 0.18]), WHITE3, W3, np.full(3, 0.6), NONE3, CFG)
    assert out.tolist() == [False, False, True]


def test_only_a_wholly_blank_face_goes_at_any_weight_below_blank_sure():
    """Beside dice at 0.9 and 0.8 (bar 0.9): 0.4 / 0.9 = 0.444, printed; 0.27 / 0.9 = 0.3 exactly, blank; 0.28 / 0.9
    = 0.311, just above 0.3, printed (no ramp: a face part-way is left to the other tests). The blank face goes at
    die weight 0.69 as at 0.05."""
    def third(spread: float, weight: float = 0.6) -> bool:
        w = np.array([1.0, 1.0, weight])
        return bool(blank_faces(np.array([0.9, 0.8, spread]), WHITE3, w, np.full(3, 0.6), NONE3, CFG)[2])

    assert not third(0.4)
    assert third(0.27)
    assert not third(0.28)
    assert third(0.18, weight=0.05)
    assert third(0.18, weight=0.69)


def test_a_face_sure_to_be_a_die_by_shape_and_symbol_is_not_judged():
    """A real die with a lamp spot on its symbol: its middle at 0.18 beside dice at 0.9 and 0.8 is 0.2 of the bar, as
    flat as a check's, but its die weight 0.7 (``blank_sure``) or 1 already makes it a die: kept; at 0.69, judged and
    blank; with ``blank_sure`` None a face of weight 1 is judged too. A sure face still sets the bar for the others."""
    spread = np.array([0.9, 0.8, 0.18])
    for weight, blank in ((0.7, False), (1.0, False), (0.69, True)):
        w = np.array([1.0, 1.0, weight])
        assert blank_faces(spread, WHITE3, w, np.full(3, 0.6), NONE3, CFG)[2] == blank
    assert blank_faces(spread, WHITE3, np.ones(3), np.full(3, 0.6), NONE3, replace(CFG, blank_sure=None))[2]
    assert blank_faces(np.array([0.9, 0.8, 0.18]), WHITE3, np.array([1.0, 1.0, 0.5]), np.full(3, 0.6), NONE3,
                       CFG).tolist() == [False, False, True]


def test_the_bar_comes_only_from_dice_of_the_same_colour_at_a_die_weight():
    """The check read white beside red dice has no bar (its colour has no other dice); beside white dice of weight
    0.4 (below blank_ref_weight 0.5) neither; beside only one white die (blank_refs 2) neither."""
    spread = np.array([0.9, 0.8, 0.18])
    assert not blank_faces(spread, ("red", "red", "white"), W3, np.full(3, 0.6), NONE3, CFG)[2]
    assert not blank_faces(spread, WHITE3, np.array([0.4, 0.4, 0.6]), np.full(3, 0.6), NONE3, CFG)[2]
    assert not blank_faces(spread[1:], WHITE3[1:], W3[1:], np.full(2, 0.6), NONE3[1:], CFG)[1]


def test_checks_read_in_a_colour_do_not_lower_the_bar_for_each_other():
    """Three checks at 0.18, 0.2, 0.16 and one die at 0.9: each check's bar is the die's 0.9 (the largest), so each
    is blank (0.2, 0.22, 0.18, at most 0.3); the die's bar is 0.2: 4.5, printed."""
    out = blank_faces(np.array([0.18, 0.2, 0.16, 0.9]), ("white",) * 4, W4, np.full(4, 0.6),
                      np.zeros(4, bool), CFG)
    assert out.tolist() == [True, True, True, False]


def test_a_good_symbol_match_overrides_a_flat_middle():
    """Best NCC 0.8 (the bottom of flat_match_ramp): still blank; 0.81, above it: kept."""
    spread = np.array([0.9, 0.8, 0.18])
    assert blank_faces(spread, WHITE3, W3, np.array([0.6, 0.6, 0.8]), NONE3, CFG)[2]
    assert not blank_faces(spread, WHITE3, W3, np.array([0.6, 0.6, 0.81]), NONE3, CFG)[2]


def test_a_face_cut_off_by_the_frame_is_neither_judged_nor_a_bar():
    """The check (0.18) at the frame's edge is not judged. White dice at 0.9 (cut off), 0.5, 0.45 and 0.14: the
    cut-off die is not judged, and the bar of the face at 0.14 is 0.5: 0.28, blank. Had the cut-off die been a bar,
    the face at 0.25 below would be blank (0.25 / 0.9 = 0.278); beside 0.5 and 0.45 it is 0.5, printed."""
    spread = np.array([0.9, 0.8, 0.18])
    assert not blank_faces(spread, WHITE3, W3, np.full(3, 0.6), np.array([False, False, True]), CFG)[2]
    cut = np.array([True, False, False, False])
    four = np.array([0.9, 0.5, 0.45, 0.14])
    assert blank_faces(four, ("white",) * 4, W4, np.full(4, 0.6), cut, CFG).tolist() == [False, False,
                                                                                                  False, True]
    four[3] = 0.25
    assert not blank_faces(four, ("white",) * 4, W4, np.full(4, 0.6), cut, CFG)[3]
    assert blank_faces(four, ("white",) * 4, W4, np.full(4, 0.6), np.zeros(4, bool), CFG)[3]


def test_where_the_frame_cuts_a_face_off():
    """A 40 px square in a 640 x 480 frame: margin 0.5 x 40 = 20 px, half a die. Centred at x 40 its left side is at
    20: whole; at x 39, at 19: cut off. Turned 45 degrees its half extent is 20 x sqrt 2 = 28.28: centred at x 49 it
    reaches 20.72, whole; at x 48, 19.72, cut off. The right border is x 639: a square centred at 599 reaches 619 =
    639 - 20, whole; at 600, cut off. Likewise at the bottom (y 479): centred at 439 whole, at 440 cut off. A white
    die's square 63.2 px across turned 63.43 degrees (half extent 31.6 x (cos + sin) = 42.4 px) centred at x 49.4
    comes 7 px from the border: cut off (margin 31.6 px); with a margin of a tenth of a die (6.3 px) it was judged."""
    rects = np.array([[40, 100, 40, 40, 0], [39, 100, 40, 40, 0], [49, 100, 40, 40, 45], [48, 100, 40, 40, 45],
                      [599, 100, 40, 40, 0], [600, 100, 40, 40, 0], [300, 439, 40, 40, 0], [300, 440, 40, 40, 0]],
                     np.float64)
    assert cut_off(rects, 640, 480, CFG).tolist() == [False, True, False, True, False, True, False, True]
    die = np.array([[49.4, 290.7, 63.2, 63.2, -63.43]], np.float64)
    assert cut_off(die, 1280, 720, CFG).tolist() == [True]
    assert cut_off(die, 1280, 720, replace(CFG, blank_edge=0.1)).tolist() == [False]
    with pytest.raises(ValueError, match="no pixels"):
        cut_off(rects, 0, 480, CFG)


def test_no_test_when_switched_off_and_a_clear_error_for_mismatched_inputs():
    spread = np.array([0.9, 0.8, 0.18])
    off = replace(CFG, blank_share=None)
    assert blank_faces(spread, WHITE3, W3, np.full(3, 0.6), NONE3, off).tolist() == [False, False, False]
    assert blank_faces(np.zeros(0), (), np.zeros(0), np.zeros(0), np.zeros(0, bool), CFG).shape == (0,)
    with pytest.raises(ValueError, match="one each per die"):
        blank_faces(spread, WHITE3[:2], np.ones(3), np.full(3, 0.6), NONE3, CFG)
    with pytest.raises(ValueError, match="one each per die"):
        blank_faces(spread, WHITE3, W3, np.full(3, 0.6), NONE3[:2], CFG)


def _ink(amplitude: float) -> np.ndarray:
    """An ink map ``float32[2, q, q]`` (q = patch + 2 margins) with vertical strokes 2 px wide of +-``amplitude``
    (log units of brightness) across its middle: a symbol's strokes, or at a small amplitude a cloth's weave."""
    q = CFG.patch + 2 * CFG.patch_margin
    ink = np.zeros((2, q, q), np.float32)
    ink[0] = np.where((np.arange(q) // 2) % 2 == 0, amplitude, -amplitude)[None, :]
    return ink


def test_the_reader_drops_a_blank_check_and_keeps_every_die():
    """Four faces read white, each a die by its weight (best NCC 0.7: match_ramp full, every stroke spread above
    stroke_ramp's 0.12; score 1, the last 0.5: die weight 0.5, below blank_sure 0.7), in a 640 x 480 frame. The
    stroke spread is linear in the strokes' amplitude, so with amplitudes 1, 0.9, 0.45 and 0.2 the spreads stand 1 :
    0.9 : 0.45 : 0.2 to the first die's: the check (0.2, at most 0.3) goes, the weakly printed die (0.45) stays;
    read red, the check has no white bar and stays too; moved to the frame's left edge (centre x 18, its side at
    -2), it may be cut off and stays; at score 1 (die weight 1, at least blank_sure) it stays."""
    unit = float(stroke_spread(_ink(1.0)[None], CFG)[0])
    amps = np.array([1.0, 0.9, 0.45, 0.2]) * (0.8 / unit)          # spreads 0.8, 0.72, 0.36, 0.16
    n = len(amps)
    rects = np.array([[100.0 * (i + 1), 100.0, 40.0, 40.0, 0.0] for i in range(n)])
    tops = TopFaces(rects, np.array([1.0, 1.0, 1.0, 0.5]), np.stack([_ink(a) for a in amps]), np.zeros((n, 3)))
    ncc = np.full((n, 3), 0.7)
    dice = [RollDieObservation("white", "explore", (80 + 100 * i, 80, 40, 40), 0.6) for i in range(n)]
    kept = list(enumerate(dice))
    size = (480, 640)
    assert not_blank(size, tops, ncc, kept, dice, CFG) == tuple(dice[:3])
    red = dice[:3] + [replace(dice[3], colour="red")]
    assert not_blank(size, tops, ncc, list(enumerate(red)), red, CFG) == tuple(red)
    assert not_blank(size, tops, ncc, kept, dice, replace(CFG, blank_share=None)) == tuple(dice)
    edge = rects.copy()
    edge[3, 0] = 18.0
    at_edge = TopFaces(edge, tops.scores, tops.ink, tops.body)
    assert not_blank(size, at_edge, ncc, kept, dice, CFG) == tuple(dice)
    sure = TopFaces(rects, np.ones(n), tops.ink, tops.body)
    assert not_blank(size, sure, ncc, kept, dice, CFG) == tuple(dice)
