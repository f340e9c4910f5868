"""One die per place in the Roll dice reader (vision/roll_dice/assemble.py, ``assemble_indexed``): of two reads of one
place that are each plainly a die, the one whose colour and face are surer is kept, whichever was cut first.

A die pressed against its neighbour, or seen at a slant, is often cut twice: once on its top face, once with the box
slid a third of a side onto its side face. Both boxes hold enough of the die's colour and symbol to be plainly a die
(die weight 1), so before this rule the first one cut was kept: the slid box read the die with a worse symbol match and
counted as a false die beside a missed one. Every case is worked by hand on a drawn red die (top face 28 px at
(60, 60), a settle cross printed dark); the template NCCs are given by hand, as the face match would give them.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.profiles import DiceProfile
from vision.roll_dice import RollDiceConfig, TopFaces
from vision.roll_dice.assemble import assemble_indexed, decide_each, die_weights
from vision.roll_dice.faces import template_of
from vision.roll_dice.tops import ink_maps, upright_patch

CFG = RollDiceConfig()
SIDE = 28
CENTRE = (60.0, 60.0)
RED, INK, TABLE = (40, 40, 170), (25, 25, 25), (70, 90, 70)
PAIRS = (("red", "settle"), ("red", "wild"))
TOP = [60.0, 60.0, SIDE, SIDE, 0.0]          # the box on the die's top face
SLID = [60.0, 69.0, SIDE, SIDE, 0.0]         # the same die's box slid 9 px (a third of a side) onto its side face


def _die(symbol: str) -> np.ndarray:
    """``uint8[120, 120, 3]``: the table with the red die's top face, its symbol drawn dark in the middle."""
    img = np.zeros((120, 120, 3), np.uint8)
    img[:] = TABLE
    img[46:74, 46:74] = RED
    if symbol == "cross":
        cv2.rectangle(img, (52, 58), (67, 61), INK, -1)
        cv2.rectangle(img, (58, 52), (61, 67), INK, -1)
    else:
        cv2.circle(img, (60, 60), 7, INK, 3)
    return img


def _inks(img: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    patch = upright_patch(img, CENTRE[0], CENTRE[1], float(SIDE), 0.0, CFG.patch, CFG.patch_margin)
    inks, bodies = ink_maps(np.repeat(patch[None], n, 0), CFG)
    return inks, bodies


@pytest.fixture(scope="module")
def profile() -> DiceProfile:
    inks, bodies = ink_maps(np.stack([upright_patch(_die(s), CENTRE[0], CENTRE[1], float(SIDE), 0.0, CFG.patch,
                                                    CFG.patch_margin) for s in ("cross", "ring")]), CFG)
    tpl = np.stack([template_of(ink, CFG) for ink in inks])
    return DiceProfile(colours=("red",), faces=("settle", "wild"), allowed=PAIRS, colour_means=bodies[:1],
                       template_pairs=PAIRS, templates=tpl, template_side=CFG.template)


def _tops(rects) -> TopFaces:
    """The faces at ``rects``, each carrying the drawn die's ink (the symbol's strokes in its middle: a die's face)."""
    inks, bodies = _inks(_die("cross"), len(rects))
    return TopFaces(np.asarray(rects, np.float64), np.ones(len(rects)), inks, bodies)


def _kept(profile, rects, ncc):
    tops = _tops(rects)
    ncc = np.asarray(ncc, np.float32)
    return tops, ncc, assemble_indexed(tops, np.ones((len(rects), 1)), ncc, profile, CFG)


def test_both_boxes_are_plainly_a_die(profile):
    # The top's box matches the cross at NCC 0.90, the slid box at 0.65 (its cross cut by its edge): both at or above
    # the top of match_ramp (0.6), with strokes in the middle, so each has die weight 1 and, of colour red for sure,
    # is a die at 1 x 1.
    tops, ncc, _ = _kept(profile, [TOP, SLID], [[0.90, 0.20], [0.65, 0.20]])
    assert die_weights(tops, ncc, CFG) == pytest.approx([1.0, 1.0])
    each = decide_each(tops, np.ones((2, 1)), ncc, profile, CFG)
    # Both read settle. Confidence: the joint chance of red settle (about 1: settle 0.90 / 0.04 = 22.5 against wild 5
    # and unreadable 8.75 in the softmax) x the die 1 x the symbol's own certainty on face_sure_ramp (0.5, 0.75):
    # 1 at 0.90, (0.65 - 0.5) / 0.25 = 0.6 at 0.65.
    assert [(obs.colour, obs.face) for _, _, obs in each] == [("red", "settle"), ("red", "settle")]
    assert each[0][2].confidence == pytest.approx(1.0, abs=1e-3)
    assert each[1][2].confidence == pytest.approx(0.6, abs=1e-3)


@pytest.mark.parametrize("order", ["top first", "slid first"])
def test_the_surer_of_two_reads_of_one_place_is_kept(profile, order):
    # Centres 9 px apart, under overlap_dist 0.7 x 28 = 19.6 px: one place, one die. The top's read (0.90, confidence
    # 1.0) is kept whichever box was cut first; main kept the slid box (confidence 0.6) when it came first.
    rects, ncc = [TOP, SLID], [[0.90, 0.20], [0.65, 0.20]]
    if order == "slid first":
        rects, ncc = rects[::-1], ncc[::-1]
    _, _, kept = _kept(profile, rects, ncc)
    assert len(kept) == 1
    i, obs = kept[0]
    assert rects[i] == TOP
    assert (obs.colour, obs.face) == ("red", "settle")
    assert obs.box == (46, 46, 28, 28)


def test_a_read_face_still_goes_before_an_unreadable_one(profile):
    # The top's box under a glare matches both symbols at 0.30 only: under symbol_min (0.4), a die by its shape alone
    # (no evidence: die-like), die weight shape_only 0.5; softmax 0.30 / 0.04 = 7.5 for settle and wild against the
    # unreadable entry's 8.75: settle 0.18, under face_threshold 0.4, so no face is read, and its confidence is its
    # colour x weight, 0.5 (confident_cap 0.5). The slid box reads settle at 0.6 with die weight 1: the read face is
    # kept (the more likely a die, and read), whichever was cut first.
    for rects, ncc, slid in (([TOP, SLID], [[0.30, 0.30], [0.65, 0.20]], 1),
                             ([SLID, TOP], [[0.65, 0.20], [0.30, 0.30]], 0)):
        tops, ncc_a, kept = _kept(profile, rects, ncc)
        each = {i: obs for _, i, obs in decide_each(tops, np.ones((2, 1)), ncc_a, profile, CFG)}
        assert each[1 - slid].face is None
        assert each[1 - slid].confidence == pytest.approx(0.5)
        assert each[slid].face == "settle"
        assert [i for i, _ in kept] == [slid]


def test_two_dice_side_by_side_are_both_kept(profile):
    # Two red dice pressed side by side: centres a side (28 px) apart, their boxes touching, not overlapping.
    tops, ncc, kept = _kept(profile, [TOP, [88.0, 60.0, SIDE, SIDE, 0.0]], [[0.90, 0.20], [0.65, 0.20]])
    assert sorted(i for i, _ in kept) == [0, 1]
