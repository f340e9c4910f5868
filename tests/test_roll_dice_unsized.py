"""The reads of a frame where no die size is vouched for (vision/roll_dice/reader.py, stage ``unsized``): hand-made
faces whose answer is known from how they are made."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.observations import TopFaces
from vision.roll_dice.reader import _not_vouched

CFG = RollDiceConfig()


def _faces(n: int) -> TopFaces:
    """``n`` top faces of 30 px in a row, each with die score 1."""
    rects = np.array([[40.0 * (k + 1), 40.0, 30.0, 30.0, 0.0] for k in range(n)]).reshape(-1, 5)
    return TopFaces(rects, np.ones(n), None, np.zeros((n, 3)), None)


def test_where_no_die_size_is_vouched_for_only_a_plain_symbol_makes_a_die():
    """Below the size search's least evidence (no face of the frame plainly a die), a face keeps its die score only
    as far as its own symbol is plain: none below the ramp, some within it, all above it; at or above the least
    evidence (a size the dice vouched for), the faces are as they were."""
    lo, hi = CFG.unsized_match_ramp
    ncc = np.array([[lo - 0.1, lo - 0.2], [0.5 * (lo + hi), 0.0], [0.0, hi + 0.05]])
    tops = _faces(3)
    low = _not_vouched(tops, ncc, 0.5 * CFG.size_min_evidence, CFG).scores
    assert low[0] == 0.0 and 0.0 < low[1] < 1.0 and low[2] == 1.0
    assert np.array_equal(_not_vouched(tops, ncc, CFG.size_min_evidence, CFG).scores, tops.scores)


def test_the_unsized_test_can_be_turned_off_and_takes_no_face():
    tops = _faces(2)
    ncc = np.zeros((2, 4))
    off = replace(CFG, unsized_match_ramp=None)
    assert np.array_equal(_not_vouched(tops, ncc, 0.0, off).scores, tops.scores)
    assert len(_not_vouched(_faces(0), np.zeros((0, 4)), 0.0, CFG).rects) == 0
