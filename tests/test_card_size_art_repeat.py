"""Tables read with no calibration (issue 16): the card's size is never taken from a repeat inside the cards' art,
nor from a card-shaped piece larger than the spacing of the touching cards (vision.card_detect, vision.card_pitch).

Two ways a camera with no calibration cut every card wrong, each worked here by hand on the cards' blobs:
- Roll for the Galaxy tiles lying apart (rulebook "Setup": each player's tableau of tiles laid out in front of them),
  whose printed art repeats inside the tile: a spacing of about 50 px found on tiles of 86 px made every tile
  four small cards, each named wrong.
- Among the Stars stations of touching cards (rulebook 5.1 "Grid and adjacency") beside a card-shaped piece larger
  than a card: the median of it and a card alone sized every card too large.
Sizes and areas below (px, px^2) are worked by hand from the cards' sizes, never read back from the code."""

from __future__ import annotations

import numpy as np
import pytest

from vision.card_detect import art_repeat
from vision.card_pitch import PITCH_GAP, EdgePitch, choose_card_size


def test_half_tile_spacing_is_art_not_cards():
    # 18 tiles of 86 x 86 px lying apart (area 7,396 px^2 each) and a die of 39 x 39 px (1,521 px^2). A spacing of
    # 43 px makes a card of 43 * 43 = 1,849 px^2; 1.7 times that is 3,143: all 18 tiles are larger, more than
    # half of the 19 blobs shaped like one card. No blob holds two cells of it (no profiles: cells() is None).
    areas = [7396.0] * 18 + [1521.0]
    half = EdgePitch(43.0, 43.0, True, 1.0, np.zeros((2, 2, 3), np.uint8), [])
    assert half.cells() is None
    assert art_repeat(half, areas, 1.0)
    # the tiles' own spacing, 86 px: a card of 7,396 px^2, no tile larger than 1.7 times it
    assert not art_repeat(EdgePitch(86.0, 86.0, True, 1.0, np.zeros((2, 2, 3), np.uint8), []), areas, 1.0)
    # nine tiles larger of 19: not most of them
    assert not art_repeat(half, [7396.0] * 9 + [1521.0] * 10, 1.0)


def test_piece_larger_than_the_spacing_is_no_card():
    # Among the Stars cards of 42 x 58.8 px touching in stations (the spacing 42 px, aspect 1.4: a card of
    # 42 * 42 * 1.4 = 2,469.6 px^2; the band 0.5-1.7 keeps 1,234.8-4,198.3 px^2). A card alone of 40.5 x 54 px
    # (2,187 px^2) and a piece of 50 x 78 px (3,900 px^2) both lie in the band; their median short side, 45.25 px,
    # is more than 42 * 1.06 = 44.52: the piece is no card, the card alone is.
    sizes, areas = [(40.5, 54.0), (50.0, 78.0)], [2187.0, 3900.0]
    assert choose_card_size(sizes, areas, 42.0, 1.4, pitch_long=58.8) == (40.5, 54.0)
    # the piece alone: the spacing's card
    assert choose_card_size(sizes[1:], areas[1:], 42.0, 1.4, pitch_long=58.8) == (42.0, 58.8)
    # where the spacing's cells are no cards (a printed grid), the blobs keep their size as before
    assert choose_card_size(sizes[1:], areas[1:], 42.0, 1.4, cells_hold_cards=False, pitch_long=58.8) == (50.0, 78.0)
    # tiles lying apart of 80 x 81 px (6,480 px^2) and a spacing of 68 px found inside their art, with no blocks of
    # touching cards to show a lattice (lattice False): the tiles keep their size, though the cells are not ruled
    # out as cards (the card's area 68 * 68 = 4,624 px^2, band 2,312-7,860.8 px^2 keeps the tiles; 80 > 72.08)
    tiles = [(80.0, 81.0)] * 5
    assert choose_card_size(tiles, [6480.0] * 5, 68.0, 1.0, lattice=False) == (80.0, 81.0)
    assert choose_card_size(tiles, [6480.0] * 5, 68.0, 1.0, lattice=lambda: True) == (68.0, 68.0)
    # a card within a gap of the spacing (43 <= 44.52 px) is that card
    assert choose_card_size([(43.0, 60.0)], [2580.0], 42.0, 1.4, pitch_long=58.8) == (43.0, 60.0)
    assert 42.0 * (1.0 + PITCH_GAP) == pytest.approx(44.52)
