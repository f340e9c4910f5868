"""``bench/card_table_ab.py``'s comparison of two reads: the cards each names apart from the places each reads 'not in
the deck' (whose corners follow no card's turn)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from bench.card_table_ab import compare_reads, split_reads


def _card(card_id, x: float, y: float, turns: int = 0, conf: float = 0.9, rot: float = 0.0) -> SimpleNamespace:
    """A card read: a 40 x 60 px outline with its top-left at (x, y), its corners rolled ``turns`` quarter turns."""
    corners = np.roll(np.array([[x, y], [x + 40, y], [x + 40, y + 60], [x, y + 60]], float), turns, axis=0)
    return SimpleNamespace(id=card_id, corners=corners, confidence=conf, rotation_deg=rot + 90.0 * turns)


def test_named_cards_and_places_not_in_the_deck_are_compared_apart():
    # frame 1: card "a" the same but 1.5 px right; a place not in the deck read with its corners a quarter turn on
    # (another best guess) and 3 px lower. Frame 2: card "b" read as "c"
    old = [[_card("a", 100, 100), _card(None, 300, 100)], [_card("b", 50, 50)]]
    new = [[_card("a", 101.5, 100), _card(None, 300, 103, turns=1)], [_card("c", 50, 50)]]
    whole = compare_reads(old, new)
    assert whole["unpaired"] == 1 and whole["ids"] == 1           # the place's corners are a side apart: unpaired
    named, unknown = split_reads(old, new)
    assert (named["cards"], named["unpaired"], named["ids"], named["turns"]) == (2, 0, 1, 0)
    assert named["corner_px"] == pytest.approx(1.5)
    # the place: its rolled corners leave it unpaired, its centre 3 px from the old one's
    assert (unknown["cards"], unknown["unpaired"]) == (1, 1)
    assert unknown["centre_px"] == pytest.approx(3.0)


def test_a_card_named_by_one_read_only_is_unpaired_among_the_named():
    old = [[_card("a", 100, 100)]]
    new = [[_card(None, 100, 100)]]
    named, unknown = split_reads(old, new)
    assert (named["cards"], named["unpaired"]) == (1, 1)
    assert (unknown["cards"], unknown["unpaired"], unknown["centre_px"]) == (0, 1, 0.0)
