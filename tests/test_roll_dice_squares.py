"""Die candidates from square outlines in the colour edges (vision/roll_dice/squares.py): a die whose body is of the
table's colour has no foreground, but its top face's outline is in the edges, with gaps into the table.

Hand-worked with the shipped settings (``square_shrink`` 2, ``square_cap`` 3, ``square_fit`` 0.5, ``square_angles``
6, ``square_span`` 0.8): on a 640 x 360 work map at frame-to-work scale 0.5, a die of side 30 work px is looked for on
a 320 x 180 copy, as a square of side 15 whose sides' middle 12 px are measured; a one-pixel outline drawn at the
right place is at distance 0, an outline 4 work px (2 shrunk px) off on every side at distance 2."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.squares import square_candidates, square_distances, square_looks

CFG = RollDiceConfig()
SIDE = 30.0
SCALE = 0.5


def outline(side: float, angle: float = 0.0, centre: tuple[float, float] = (300.0, 150.0),
            gaps: float = 0.0) -> np.ndarray:
    """A 640 x 360 edge map with the one-pixel outline of a square (work px), each side's middle ``gaps`` share
    left out (a die's outline open into the table there)."""
    edges = np.zeros((360, 640), np.uint8)
    corners = cv2.boxPoints((centre, (side, side), angle))
    for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
        cut = (1.0 - gaps) / 2.0
        for p, q in ((a, a + (b - a) * cut), (b + (a - b) * cut, b)):
            cv2.line(edges, tuple(int(round(v)) for v in p), tuple(int(round(v)) for v in q), 255, 1)
    return edges


def test_a_closed_square_outline_at_the_die_side_is_one_candidate_at_its_centre():
    """The square of side 30 centred at (300, 150) work px is found once, centred within 2 frame px of (600, 300),
    of side 30 / 0.5 = 60 frame px, at distance 0 (die score 1)."""
    got = square_candidates(outline(SIDE), SCALE, SIDE, CFG)
    assert len(got.rects) == 1
    cx, cy, w, h, _ = got.rects[0]
    assert abs(cx - 600) <= 2 and abs(cy - 300) <= 2
    assert (w, h) == (60.0, 60.0)
    assert got.scores[0] == 1.0


def test_a_square_open_on_every_side_is_still_found():
    """With the middle third of each side missing, the measured middle 12 shrunk px of a side lose 5 to the gap, at
    a distance of up to 2.5 each: the mean stays under ``square_fit`` 0.5 x 2 (score at least 0.5)."""
    got = square_candidates(outline(SIDE, gaps=1 / 3), SCALE, SIDE, CFG)
    assert len(got.rects) == 1
    assert abs(got.rects[0, 0] - 600) <= 2 and abs(got.rects[0, 1] - 300) <= 2


@pytest.mark.parametrize("angle", [0.0, 15.0, 30.0, 45.0, 60.0, 75.0])
def test_a_turned_square_is_found_at_its_turn(angle):
    """At each of the six turns tried the square is found, the candidate turned as it is (a square repeats every
    90 degrees)."""
    got = square_candidates(outline(SIDE, angle), SCALE, SIDE, CFG)
    assert len(got.rects) == 1
    turn = (got.rects[0, 4] - angle) % 90.0
    assert min(turn, 90.0 - turn) < 1e-6


def test_a_square_of_half_the_die_side_is_not_a_candidate():
    """A square of side 15 (a symbol's frame, a pip): the die's square's sides lie 7.5 work px (3.75 shrunk px) from
    it, beyond the cap of 3: distance 3, far above ``square_fit``."""
    assert len(square_candidates(outline(SIDE / 2), SCALE, SIDE, CFG).rects) == 0


def test_an_empty_table_and_a_face_already_found_give_none():
    """No edges: no candidate. A face already found at the square's place (its centre within ``duplicate_dist`` 0.6
    x the side): no candidate."""
    assert len(square_candidates(np.zeros((360, 640), np.uint8), SCALE, SIDE, CFG).rects) == 0
    found = np.array([[605.0, 296.0, 60.0, 60.0, 0.0]])
    assert len(square_candidates(outline(SIDE), SCALE, SIDE, CFG, found).rects) == 0


def test_at_most_square_max_candidates_the_best_first():
    """Three squares, one open on every side: with ``square_max`` 2 the two closed ones are kept; with 0, none."""
    edges = outline(SIDE, centre=(100.0, 100.0)) | outline(SIDE, centre=(300.0, 100.0), gaps=0.5) \
        | outline(SIDE, centre=(500.0, 100.0))
    got = square_candidates(edges, SCALE, SIDE, replace(CFG, square_max=2))
    assert sorted(np.round(got.rects[:, 0] / 2).tolist()) == [100.0, 500.0]
    assert len(square_candidates(edges, SCALE, SIDE, replace(CFG, square_max=0)).rects) == 0


def test_bad_input_is_refused_by_the_distances_and_gives_no_candidate():
    """A side that is not a positive number, or an edge map that is not 2-D, is refused naming it; the candidate
    source gives none for either."""
    with pytest.raises(ValueError, match="positive number"):
        square_distances(outline(SIDE), float("nan"), CFG)
    with pytest.raises(ValueError, match="2-D edge map"):
        square_distances(np.zeros((4, 4, 3), np.uint8), SIDE, CFG)
    assert len(square_candidates(outline(SIDE), SCALE, float("nan"), CFG).rects) == 0
    assert len(square_candidates(np.zeros((0, 0), np.uint8), SCALE, SIDE, CFG).rects) == 0


# How much a square looks like a die's top (``square_looks``), hand-worked on a 640 x 360 frame (work scale 0.5) with a
# square of side 60 frame px at (300, 180): the middle half side is the central 30 x 30 px, the band round it 33-51 px
# across, the side strips 3.75-11.25 px inside and outside each side over its middle 30 px. Ramps: outline (0.2, 0.5),
# ink (10, 50) CIELAB, sides (5, 30) CIELAB.
WHITE, RED, INK = (235, 235, 235), (40, 40, 200), (20, 20, 20)
TOP = np.array([[300.0, 180.0, 60.0, 60.0, 0.0]])


def top_frame(body=RED, ink=INK, middle: int = 20, table=WHITE, angle: float = 0.0) -> np.ndarray:
    """A table with one die top of side 60 (``body``) at (300, 180) turned ``angle`` degrees, a square symbol of
    ``middle`` px (``ink``) in its middle."""
    frame = np.full((360, 640, 3), table, np.uint8)
    for side, colour in ((60, body), (middle, ink)):
        corners = cv2.boxPoints(((300.0, 180.0), (side, side), angle))
        cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), colour)
    return frame


def lab_l(grey: int) -> float:
    """CIELAB L (0..100) of a neutral grey as OpenCV's 8-bit conversion gives it (a and b are 0 for a grey)."""
    return float(cv2.cvtColor(np.full((1, 1, 3), grey, np.uint8), cv2.COLOR_BGR2Lab)[0, 0, 0]) * 100.0 / 255.0


ALL_EDGES = np.full((180, 320), 255, np.uint8)


def test_a_die_top_with_its_symbol_on_a_plain_table_looks_like_one():
    """Edges all round (share 1), a black symbol on a red body (CIELAB distance about 83) and red against a white
    table on all four sides (about 88): every ramp at 1, also turned 30 degrees."""
    assert square_looks(top_frame(), ALL_EDGES, SCALE, TOP, CFG)[0] == pytest.approx(1.0)
    turned = TOP.copy()
    turned[0, 4] = 30.0
    assert square_looks(top_frame(angle=30.0), ALL_EDGES, SCALE, turned, CFG)[0] == pytest.approx(1.0)


def test_a_flat_check_and_a_top_without_edges_do_not():
    """A check of a cloth is flat inside (ink 0: looks 0); a top whose outline has no edge pixel (share 0) looks 0."""
    assert square_looks(top_frame(ink=RED), ALL_EDGES, SCALE, TOP, CFG)[0] == 0.0
    assert square_looks(top_frame(), np.zeros((180, 320), np.uint8), SCALE, TOP, CFG)[0] == 0.0


def test_ink_is_the_symbol_s_step_from_the_body_on_its_ramp():
    """A grey body (128) round a grey symbol filling the whole middle half side (96): the ink is the step in L
    between them, about 12.9 (L 53.7 and 40.8), on the ramp (10, 50): (12.9 - 10) / 40, about 0.07; with a symbol of
    32 (L 12.2), about 41.6: (41.6 - 10) / 40, about 0.79. The table (white) steps far from the body on every side."""
    for symbol in (96, 32):
        ink = lab_l(128) - lab_l(symbol)
        got = square_looks(top_frame(body=(128,) * 3, ink=(symbol,) * 3, middle=30), ALL_EDGES, SCALE, TOP, CFG)[0]
        assert got == pytest.approx((ink - 10.0) / 40.0, abs=0.02)


def test_a_stripe_running_on_across_two_sides_is_not_a_die_but_one_side_lost_to_a_neighbour_is():
    """A plank's stripe of the top's colour running on past its left and right sides: the top steps to the table on
    two sides only, the second smallest step is 0 and so is the look. A die pressed against a like die on its right
    loses one side: three steps remain, the second smallest far above 30, and it looks like a die."""
    frame = top_frame()
    frame[150:210, :] = RED
    frame[170:190, 290:310] = INK
    assert square_looks(frame, ALL_EDGES, SCALE, TOP, CFG)[0] == 0.0
    frame = top_frame()
    frame[150:210, 330:400] = RED
    assert square_looks(frame, ALL_EDGES, SCALE, TOP, CFG)[0] == pytest.approx(1.0)


def test_the_squares_that_look_like_a_die_are_tested_before_better_fits():
    """Two closed outlines: a flat check at (100, 100) and a die top (its symbol in the middle) at (300, 100) work
    px, both at distance 0. With the frame and ``square_max`` 1 the die's is kept; a flat check alone, below
    ``square_look_min``, gives none; without the frame the first by distance (the check, found first) is kept."""
    edges = outline(SIDE, centre=(100.0, 100.0)) | outline(SIDE, centre=(300.0, 100.0))
    frame = np.full((720, 1280, 3), WHITE, np.uint8)
    for cx in (200, 600):
        frame[170:230, cx - 30:cx + 30] = RED
    frame[190:210, 590:610] = INK
    one = replace(CFG, square_max=1)
    got = square_candidates(edges, SCALE, SIDE, one, frame=frame)
    assert len(got.rects) == 1 and abs(got.rects[0, 0] - 600) <= 2
    alone = outline(SIDE, centre=(100.0, 100.0))
    assert len(square_candidates(alone, SCALE, SIDE, one, frame=frame).rects) == 0
    assert len(square_candidates(alone, SCALE, SIDE, one).rects) == 1


def test_bad_input_is_refused_by_the_looks():
    """A frame that is not BGR, or rects not of shape [N, 5], is refused naming it; no rect gives no look."""
    with pytest.raises(ValueError, match="BGR frame"):
        square_looks(np.zeros((360, 640), np.uint8), ALL_EDGES, SCALE, TOP, CFG)
    with pytest.raises(ValueError, match=r"shape \[N, 5\]"):
        square_looks(top_frame(), ALL_EDGES, SCALE, TOP[:, :4], CFG)
    assert square_looks(top_frame(), ALL_EDGES, SCALE, np.zeros((0, 5)), CFG).shape == (0,)
