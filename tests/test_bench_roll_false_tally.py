"""bench/roll_false_tally.py's naming of a false die: what it sits on (:func:`sits_on`) and how it got through the
lowering stages (:func:`got_through`), on hand-worked boxes and traces.

Every false die here is the 40 px square at columns 100-140, rows 100-140 (middle (120, 120), side 40 px); as a top
face it is the rect (120, 120, 40, 40, 0), whose axis-aligned box is that square. A tenth of its area (160 px2) inside a
labelled die's box makes it a die's neighbour."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_false_tally import got_through, sits_on  # noqa: E402 - after the path
from bench.roll_missed_dice import Trace  # noqa: E402

BOX = (100, 100, 40, 40)
FACE = [120.0, 120.0, 40.0, 40.0, 0.0]
OTHER = [300.0, 120.0, 40.0, 40.0, 0.0]     # another face, box (280, 100, 40, 40)


def _trace(weights) -> Trace:
    rects = np.array([FACE, OTHER], np.float64)
    return Trace(sizes={0.84: rects}, chosen=0.84, rects=rects,
                 weights=[(stage, np.asarray(w, np.float64)) for stage, w in weights])


def test_a_box_a_tenth_or_more_inside_a_labelled_die_is_its_neighbour_whatever_it_lies_on():
    # a die's box at columns 130-170: columns 130-140 of the 40 x 40 box, 400 of 1600 px2 (a quarter)
    assert sits_on(BOX, [(130, 100, 40, 40)], "board") == "a die's neighbour"
    # columns 136-140, rows 100-140: 160 px2, a tenth exactly
    assert sits_on(BOX, [(500, 500, 40, 40), (136, 90, 40, 60)], "gingham") == "a die's neighbour"


def test_a_box_under_a_tenth_inside_every_die_is_named_by_what_it_lies_on():
    touching = [(137, 100, 40, 40)]               # columns 137-140: 120 of 1600 px2, under a tenth
    assert sits_on(BOX, touching, "board") == "board print"
    assert sits_on(BOX, touching, "gingham") == "pattern"
    assert sits_on(BOX, touching, "playmat") == "playmat art"
    assert sits_on(BOX, touching, "wood") == "wood grain"
    assert sits_on(BOX, touching, "felt") == "felt"
    assert sits_on(BOX, touching, "marble") == "marble"           # a table the bench does not know: as given
    assert sits_on(BOX, [], "playmat") == "playmat art"           # no labelled die at all
    assert sits_on(BOX, [(140, 100, 40, 40)], "felt") == "felt"   # sharing an edge only


def test_the_share_is_of_the_false_boxs_own_area():
    # a 20 x 20 box (400 px2) with 8 x 5 = 40 px2 inside a large die's box: a tenth of the small box
    assert sits_on((100, 100, 20, 20), [(112, 115, 80, 80)], "felt") == "a die's neighbour"
    assert sits_on((100, 100, 20, 20), [(113, 115, 80, 80)], "felt") == "felt"                # 7 x 5 = 35 px2


def test_the_stage_that_lowered_a_false_die_most_is_named():
    # surface halves it (0.8 -> 0.4), texture takes a quarter off (0.4 -> 0.3): surface lowered it most
    trace = _trace([("faces", [0.8, 1.0]), ("surface", [0.4, 1.0]), ("outline", [0.4, 0.2]), ("texture", [0.3, 0.2])])
    assert got_through(BOX, trace) == ("lowered surface", "0.80 -> 0.40")


def test_a_later_stage_that_lowers_more_is_named_and_a_tie_keeps_the_first():
    trace = _trace([("faces", [0.9, 1.0]), ("surface", [0.6, 1.0]), ("sides", [0.2, 1.0])])   # x0.67, then x0.33
    assert got_through(BOX, trace) == ("lowered sides", "0.60 -> 0.20")
    trace = _trace([("faces", [0.8, 1.0]), ("surface", [0.4, 1.0]), ("texture", [0.2, 1.0])])  # x0.5 twice
    assert got_through(BOX, trace) == ("lowered surface", "0.80 -> 0.40")


def test_a_false_die_no_stage_lowered_is_unseen():
    # the other face's weight falls, this one's never does
    trace = _trace([("faces", [0.55, 1.0]), ("surface", [0.55, 0.1]), ("texture", [0.55, 0.1])])
    assert got_through(BOX, trace) == ("unseen", "die weight 0.55")


def test_a_box_no_face_of_the_trace_has_is_added():
    trace = _trace([("faces", [0.8, 1.0])])
    assert got_through((10, 10, 40, 40), trace) == ("added", "")
    assert got_through(BOX, _trace([])) == ("added", "")
