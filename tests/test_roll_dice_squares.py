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
from vision.roll_dice.squares import square_candidates, square_distances

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
