"""A pair of overlapping Roll faces with a face on a calibration marker's sheet is neither cut again nor matched for a
split (vision/roll_dice/splits.py, ``away``; :meth:`RollDiceReader._other_sizes`, ``sheet``). No die is reported on
the sheet (:class:`vision.roll_dice.kept.Aside`), so two of its black squares overlapping each other are no two
touching dice (Roll for the Galaxy, "Roll" p.4: each die is read on its own, two dice's tops never overlap): the
refusal is decided before any face is cut or matched. Hand-worked on the drawn dice of
tests/test_roll_dice_split_alone.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_roll_dice_split_alone import BLUE, CFG, OFF, PAIR, WHITE, drawn, faces, ncc, same, stage
from vision.roll_dice.kept import Aside
from vision.roll_dice.splits import overlapped, smaller_cuts, split_live


def sheet_from(x: float) -> Aside:
    """A calibration marker's sheet covering every box whose left edge lies at ``x`` px or right of it."""
    return Aside(lambda boxes: [b[0] >= x for b in boxes], (0, 0), {})


def test_a_pair_with_a_face_set_aside_is_no_pair():
    """The two 56 px faces 40 px apart overlap by 16 x 56 px, 0.29 of each (over 0.05), their centres 40 px apart
    (over 0.6 x 56 = 33.6 px): a pair. With the right face set aside, none; set aside flags for 3 faces of 2: an
    error naming the count."""
    pair = faces(PAIR)
    both = np.array([[False, True], [True, False]])
    assert np.array_equal(overlapped(pair, np.ones(2), CFG), both)
    assert np.array_equal(overlapped(pair, np.ones(2), CFG, np.array([False, False])), both)
    assert not overlapped(pair, np.ones(2), CFG, np.array([False, True])).any()
    rects, of = smaller_cuts(pair, np.ones(2), 0.8, CFG, np.array([True, False]))
    assert rects.shape == (0, 5) and len(of) == 0
    with pytest.raises(ValueError, match="3 set-aside flags for 2 faces"):
        overlapped(pair, np.ones(2), CFG, np.array([False, True, False]))


def test_a_pair_reaching_onto_the_sheet_is_not_cut_or_matched():
    """The white and blue dice of 40 px, cut as two 56 px faces (best NCC 0.7): without a sheet the cuts match 0.9 and
    split the pair (one call to the matcher, two faces at x 300 and 340). With a sheet from x 310 px (the right face's
    box starts at 340 - 28 = 312 px, the left one's at 272 px), the pair is refused before any cut: the matcher is
    never called and the stage reads as with the split off, the two 56 px faces kept."""
    frame = drawn([WHITE, BLUE])
    reader, calls = stage(0.9)
    split = reader._other_sizes(frame, CFG, 0.84, 1.0, faces(PAIR), ncc([0.7, 0.7]), {0.84: faces(PAIR)}, {})
    assert len(calls) == 1 and sorted(round(r[0]) for r in split[0].rects.tolist()) == [300, 340]
    on, on_calls = stage(0.9)
    off, _ = stage(0.9)
    got = on._other_sizes(frame, CFG, 0.84, 1.0, faces(PAIR), ncc([0.7, 0.7]), {0.84: faces(PAIR)}, {},
                          sheet=sheet_from(310.0))
    assert on_calls == []
    assert same(got, off._other_sizes(frame, OFF, 0.84, 1.0, faces(PAIR), ncc([0.7, 0.7]), {0.84: faces(PAIR)}, {}))
    assert np.array_equal(got[0].rects, np.asarray(PAIR))


def test_a_cut_under_one_face_of_a_pair_alone_is_not_matched():
    """Candidates that could take a pair's place are matched only where each face of the pair has one under it. The
    pair's faces at x 300 and 340 (56 px): a 40 px candidate at (300, 200) lies wholly under the left face (1600 px^2
    of its 1600, over 0.6; its side 40 under 0.9 x 56 = 50.4), none under the right one: the left one is of no use
    (a split needs a face under each of the two). Add a 40 px candidate at (340, 200), under the right face: both are
    live. A candidate at (500, 200) lies under neither and is never live."""
    pair = faces(PAIR)
    left, right, far = [[300.0, 200.0, 40.0, 40.0, 0.0]], [[340.0, 200.0, 40.0, 40.0, 0.0]], [[500.0, 200, 40, 40, 0]]
    alone = split_live([np.asarray(left), np.asarray(far)], pair, np.ones(2), CFG)
    assert [a.tolist() for a in alone] == [[False], [False]]
    both = split_live([np.asarray(left + far), np.asarray(right)], pair, np.ones(2), CFG)
    assert [a.tolist() for a in both] == [[True, False], [True]]
    assert [a.tolist() for a in split_live([np.asarray(left), np.asarray(right)], pair, np.ones(2), CFG,
                                           np.array([False, True]))] == [[False], [False]]
