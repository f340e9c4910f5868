"""``bench/card_table_ab.py``'s comparison of two reads: the cards each names apart from the places each reads 'not in
the deck' (whose corners follow no card's turn)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from bench.card_table_ab import card_status, compare_reads, read_changes, split_reads


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


def _labels(*pieces: tuple[str, float, float]) -> list[tuple[str, np.ndarray]]:
    """Scene labels: a 40 x 60 px piece with its top-left at (x, y) for each (id, x, y)."""
    return [(pid, np.array([[x, y], [x + 40, y], [x + 40, y + 60], [x, y + 60]], float)) for pid, x, y in pieces]


def test_reads_within_tolerances_list_nothing():
    # corners 0.2 px off, confidence 0.008 lower, a place not in the deck read a quarter turn on (its corners follow
    # whichever card it looked like) 0.1 px off: the same reads
    lab = [_labels(("a", 100, 100), ("b", 300, 100))]
    old = [[_card("a", 100, 100, conf=0.95), _card(None, 300, 100, conf=0.7)]]
    new = [[_card("a", 100.2, 100, conf=0.942), _card(None, 300.1, 100, turns=1, conf=0.7)]]
    assert read_changes(old, new, lab) == (2, [])


def test_each_change_of_a_read_is_listed():
    lab = [_labels(("a", 100, 100), ("b", 300, 100), ("c", 500, 100), ("d", 700, 100))]
    old = [[_card("a", 100, 100), _card("b", 300, 100, conf=0.9), _card("x", 500, 100), _card("d", 700, 100)]]
    # a: corners 0.3 px off; b: confidence 0.02 lower; c: named wrong ("x") -> not in the deck; d: gone; a new card
    # read where no card was
    new = [[_card("a", 100.3, 100), _card("b", 300, 100, conf=0.88), _card(None, 500, 100), _card("e", 900, 100)]]
    total, lines = read_changes(old, new, lab)
    assert total == 4 and len(lines) == 5
    assert "corners 0.300 px apart" in lines[0]
    assert "0.9000) -> b (right, 0.8800)" in lines[1]
    assert "x (wrong, 0.9000) -> None (?" in lines[2]
    assert "d (right) has no new card" in lines[3]
    assert "e (wrong) only in the new read" in lines[4]


def test_card_status_against_the_labels():
    lab = _labels(("a", 100, 100))
    assert [card_status(lab, c) for c in (_card("a", 101, 100), _card("b", 101, 100), _card("a", 400, 100),
                                          _card(None, 100, 100))] == ["right", "wrong", "wrong", "?"]


def test_seeds_are_read_as_lists_and_ranges(capsys):
    from bench.card_table_ab import main

    with pytest.raises(SystemExit) as e:
        main(["--old", "/nonexistent", "--seeds", "109..100"])
    assert e.value.code == 2 and "runs backwards" in capsys.readouterr().err
