"""A card's straight edges (:mod:`vision.card_edges`): the edge fit of a frame's cards, their outlines scored
together, decides each card as it would alone."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.test_card_ident import _two_card_deck
from vision.card_edges import _grey_gradients, edge_fitted, gradients
from vision.card_match import RefineConfig
from vision.quads import rectify


def _two_cards_on_a_dark_table() -> tuple:
    """Cards "a" and "b" of the two-card deck (96 x 150 px) upright on a dark 520 x 300 table, at x 40..135 and
    x 300..395, y 70..219. Returns (deck, frame uint8[300, 520, 3] BGR, {card: its corners float[4, 2] px})."""
    deck, arts = _two_card_deck()
    frame = np.full((300, 520, 3), 30, np.uint8)
    frame[70:220, 40:136] = arts["a"]
    frame[70:220, 300:396] = arts["b"]
    at = {"a": np.array([[40, 70], [135, 70], [135, 219], [40, 219]], float),
          "b": np.array([[300, 70], [395, 70], [395, 219], [300, 219]], float)}
    return deck, frame, at


def _read(deck, frame, quad) -> tuple:
    crop = rectify(frame, quad, 96, 150)
    return deck.score(crop), quad, crop


def test_the_edge_fits_of_a_frames_cards_together_are_each_cards_own_fit():
    # "a" read 3 px right and 2 px low of its card: its sides move onto the card's edges and it reads closer;
    # "b" read where it lies: nothing closer. Together or one by one: the same outlines and decisions, the
    # distances to float rounding
    deck, frame, at = _two_cards_on_a_dark_table()
    reads = [_read(deck, frame, at["a"] + np.array([3.0, 2.0])), _read(deck, frame, at["b"])]
    cfg = RefineConfig()
    both = edge_fitted(deck, frame, reads, False, cfg, (96, 150))
    alone = [edge_fitted(deck, frame, [r], False, cfg, (96, 150))[0] for r in reads]
    assert both[0] is not reads[0] and both[0][0][0] == "a" and both[0][0][1] < reads[0][0][1]
    assert np.abs(both[0][1] - at["a"]).max() < 1.5
    for got, one in zip(both, alone, strict=True):
        assert got[0][0] == one[0][0] and got[0][3] == one[0][3]
        assert got[0][1] == pytest.approx(one[0][1], abs=1e-5)
        np.testing.assert_array_equal(got[1], one[1])
    # no fit asked for: every read as given
    assert edge_fitted(deck, frame, reads, False, RefineConfig(fit_frac=0.0), (96, 150)) == reads


class _Counted:
    """A deck that counts the crops it scores."""

    def __init__(self, deck) -> None:
        self.deck, self.scored = deck, 0

    def score_many(self, crops):
        self.scored += len(crops)
        return self.deck.score_many(crops)


def test_a_card_whose_edge_lies_beyond_the_fits_reach_keeps_its_read_unscored():
    # "b" read 8 px right of its card: the fit reaches 5 % of its 96 px short side (4.8 px), so its left and right
    # sides' strongest edges within reach lie at the end of the search (the card's own edges are 8 px off): no
    # edge of the card within reach, its read kept as given and no outline scored; "a" read 3 px right and 2 px low
    # of its card is fitted, scored alone, and reads closer
    deck, frame, at = _two_cards_on_a_dark_table()
    counted = _Counted(deck)
    reads = [_read(deck, frame, at["a"] + np.array([3.0, 2.0])), _read(deck, frame, at["b"] + np.array([8.0, 0.0]))]
    got = edge_fitted(counted, frame, reads, False, RefineConfig(), (96, 150))
    assert got[1] is reads[1] and counted.scored == 1
    assert got[0] is not reads[0] and got[0][0][0] == "a" and got[0][0][1] < reads[0][0][1]
    assert np.abs(got[0][1] - at["a"]).max() < 1.5
    counted.scored = 0
    assert edge_fitted(counted, frame, reads[1:], False, RefineConfig(), (96, 150)) == reads[1:]
    assert counted.scored == 0


@pytest.mark.parametrize("shift", [(0.0, 0.0), (-30.0, -60.0), (410.0, 70.0)])
def test_the_fits_grey_region_is_the_whole_frame_turned_grey_there(shift):
    # the edge fit turns only the region around the card grey: the gradients and their place are those of the whole
    # frame turned grey, to the last bit, the card inside the frame or partly off it (left and top, right)
    _, frame, at = _two_cards_on_a_dark_table()
    frame = frame.copy()
    frame[::7] = np.random.default_rng(3).integers(0, 256, frame[::7].shape, np.uint8)   # texture everywhere
    q = at["a"] + np.array(shift)
    near = dataclasses.replace(RefineConfig(), search_frac=0.05)
    mine = _grey_gradients(frame, q, near)
    whole = gradients(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), q, near)
    assert mine[2:] == whole[2:]
    np.testing.assert_array_equal(mine[0], whole[0])
    np.testing.assert_array_equal(mine[1], whole[1])
