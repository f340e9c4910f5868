"""A card's straight edges (:mod:`vision.card_edges`): the edge fit of a frame's cards, their outlines scored
together, decides each card as it would alone."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_card_ident import _two_card_deck
from vision.card_edges import edge_fitted
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
