"""vision.cards.read_cards_changes: a card that did not move is not identified again, nor is another place found on it.

Hand-built: a square tile 80 px a side at (600, 300) read confidently before, a die re-rolled beside it (a changed box
100 px square covering an eighth of the tile). The window's read is stood in for by a function that offers the places a
detector would find there, in its order (the first look's places, then the second look's), and records which of them
the read after the change would identify (``select``)."""

from __future__ import annotations

import numpy as np
import pytest

import vision.cards as cards
from vision.cards import SAME_PLACE, SEEN_AGAIN, read_cards_changes
from vision.incremental import windows
from vision.observations import CardObservation, CardsRead

SIDE = 80.0
TILE = np.array([[560.0, 260.0], [640.0, 260.0], [640.0, 340.0], [560.0, 340.0]])   # centre (600, 300)
FAR = TILE - (400.0, 100.0)                                                            # centre (200, 200)
CHANGE = [(630, 240, 100, 100)]   # a die re-rolled beside the tile: covers 10 x 80 px of it (1/8)


def observation(corners: np.ndarray, cid: str, confidence: float) -> CardObservation:
    c = corners.mean(axis=0)
    return CardObservation(cid, corners, (float(c[0]), float(c[1])), (0.0, 0.0), 0.0, 0, 0, None, None, confidence)


def offered(monkeypatch, places: list[np.ndarray], confidence: float = 0.999) -> tuple[list[bool], CardsRead]:
    """Which of ``places`` (float[4, 2] frame px, offered in this order by the window's read) the read after the change
    identifies, and its read; the tile was read before at ``confidence``."""
    frame = np.full((720, 1280, 3), 90, np.uint8)
    previous = (observation(TILE, "tile_31", confidence), observation(FAR, "tile_7", 0.999))
    (x, y, ww, hh), = windows(CHANGE, 1.2 * SIDE, frame.shape)
    chosen: list[bool] = []

    def window_read(sub, *args, select=None, **kwargs):
        assert sub.shape[:2] == (hh, ww)
        chosen.extend(select(p - (x, y)) for p in places)
        return CardsRead(ww, hh, ())

    monkeypatch.setattr(cards, "read_cards", window_read)
    return chosen, read_cards_changes(frame, previous, list(CHANGE))


def test_a_place_on_a_tile_found_again_at_its_place_is_not_identified(monkeypatch):
    """The place 26 px off the tile's centre (a second-look place beside the die) is the tile seen again: only the place
    in the change clear of the tile is identified; the tile keeps its observation as it was."""
    at_place = TILE + (2.0, -3.0)
    off = TILE - (0.0, 26.0)                      # 0.325 of a side off: not the same place, on the tile
    new = TILE + (110.0, 0.0)                     # in the change, clear of the tile
    assert 26.0 > SAME_PLACE * SIDE and 26.0 < SEEN_AGAIN * SIDE
    chosen, got = offered(monkeypatch, [at_place, off, new])
    assert chosen == [False, False, True]
    tile = next(o for o in got.cards if o.id == "tile_31")
    assert np.array_equal(tile.corners, TILE) and tile.confidence == 0.999


def test_a_place_on_a_tile_not_found_at_its_place_is_identified(monkeypatch):
    """A tile the window does not find at its place may have moved: a place on it is read (as before)."""
    chosen, got = offered(monkeypatch, [TILE - (0.0, 26.0)])
    assert chosen == [True]
    assert "tile_31" not in {o.id for o in got.cards}     # not found again, not kept: the read decides


def test_a_place_on_a_tile_read_unsurely_is_identified(monkeypatch):
    """A tile read unsurely before (below the second look's ``seen_conf``) is no proof of what lies there."""
    chosen, _ = offered(monkeypatch, [TILE + (2.0, -3.0), TILE - (0.0, 26.0)], confidence=0.6)
    assert chosen == [False, True]


@pytest.mark.parametrize("dy", [0.45 * SIDE, 0.6 * SIDE])
def test_only_a_place_centred_on_the_tile_is_the_tile_again(monkeypatch, dy):
    """The bar is half a side from the tile's centre, as for a second-look place on a card read confidently in a whole
    read: 36 px off is the tile again, 48 px off is a place of its own (half on the tile, half beside it)."""
    chosen, _ = offered(monkeypatch, [TILE + (1.0, 1.0), TILE - (0.0, dy)])
    assert chosen == [False, dy >= SEEN_AGAIN * SIDE]
