"""A window read after a change takes the cards already read out of its foreground (issue 15): a tableau the window
cuts is no blob of many cards to split on the card grid, the kept cards are neither split nor identified again,
and the window reads what it read before (on a Race table: tests/test_incremental.py)."""

from __future__ import annotations

import numpy as np

import vision.card_detect as card_detect
from vision.card_detect import CardsConfig, find_card_quads, without_read

CARD = (60.0, 84.0)   # (short, long) px of a card in the test images


def _row(gap: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """Green felt with a row of three light cards ``gap`` px apart, and their quads (float[4, 2] px)."""
    img = np.full((300, 400, 3), (40, 110, 40), np.uint8)
    quads = []
    for k in range(3):
        x = 60 + k * (60 + gap)
        img[100:184, x:x + 60] = (225, 225, 225)
        quads.append(np.array([[x, 100], [x + 59, 100], [x + 59, 183], [x, 183]], np.float64))
    return img, quads


def test_without_read_clears_a_read_card_and_its_rim_but_not_its_neighbour():
    mask = np.zeros((200, 300), np.uint8)
    mask[50:134, 40:100] = 255      # a card read
    mask[49:135, 39:101] = 255      # its edge a pixel beyond its quad (a quad is found a pixel inside)
    mask[50:134, 103:163] = 255     # a card 3 px beside it (cards are laid about 4 % of their short side apart)
    quad = np.array([[40, 50], [99, 50], [99, 133], [40, 133]], np.float64)
    out = without_read(mask, [quad], CARD, CardsConfig().read_rim)
    assert not out[:, :102].any(), "the card read and its rim are gone"
    assert np.array_equal(out[:, 103:], mask[:, 103:]), "the card beside it keeps every pixel"
    assert np.count_nonzero(mask[:, :102]) == 86 * 62, "the mask given is not changed"


def test_a_card_read_is_not_split_from_its_row(monkeypatch):
    """Three cards a few px apart are one blob of the foreground; with two of them read, the third is a blob of
    its own: nothing is split on the card grid and only it is found, where it lies."""
    img, quads = _row(2)
    splits: list[int] = []
    split = card_detect.split_blob
    monkeypatch.setattr(card_detect, "split_blob", lambda *a, **k: splits.append(1) or split(*a, **k))
    found, _ = find_card_quads(img, CardsConfig(), 84 / 60, None, CARD)
    assert len(found) == 3 and splits, "the row is one blob, split in three"
    splits.clear()
    found, loose = find_card_quads(img, CardsConfig(), 84 / 60, {}, CARD, quads[:2], quads[:2])
    assert not splits and loose == [False] and len(found) == 1
    assert np.abs(found[0].mean(axis=0) - quads[2].mean(axis=0)).max() < 2.0


def test_without_a_known_card_size_the_cards_read_are_left_in():
    img, quads = _row(2)
    t: dict[str, float] = {}
    find_card_quads(img, CardsConfig(), 84 / 60, t, None, None, quads[:2])
    assert "without_read" not in t
