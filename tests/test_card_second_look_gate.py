"""The card detector's second look runs only where what the first look leaves could hold a card (issue 15): the dice
scattered among the tiles, read surely, less surely or not at all, add up to a tile's area of foreground but lie in
no one tile's place, so they cost no second look; a tile's worth of pieces in one place, beside the dice or alone,
is still looked at."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_detect import CardsConfig, find_card_quads
from vision.card_leftover import die_top_shaped, place_share

TILE = (60.0, 60.0)        # (short, long) px of a tile in the test images
FELT = (40, 110, 40)
DICE = [(300 + 40 * i, 80 + 40 * j, 26, 26) for i in range(4) for j in range(3)]   # 12 dice tops, (x, y, w, h) px


def _box(b: tuple[int, int, int, int]) -> np.ndarray:
    x, y, w, h = b
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


def _table() -> np.ndarray:
    """Green felt with one light tile the first look finds and 12 red dice tops (a Roll table's dice area)."""
    img = np.full((400, 600, 3), FELT, np.uint8)
    img[60:120, 60:120] = (230, 230, 230)
    for x, y, w, h in DICE:
        img[y:y + h, x:x + w] = (30, 30, 200)
    return img


def _tile_pieces(img: np.ndarray, x: int, y: int) -> None:
    """A tile at (x, y) (top-left, px) in the felt's own colour: only pieces of its art show (a ring, a band, a disc,
    a box), as on a patterned cloth."""
    cv2.circle(img, (x + 30, y + 28), 14, (230, 230, 230), 4)
    cv2.rectangle(img, (x + 6, y + 46), (x + 54, y + 53), (40, 40, 200), -1)
    cv2.circle(img, (x + 11, y + 11), 6, (200, 60, 60), -1)
    cv2.rectangle(img, (x + 42, y + 4), (x + 55, y + 16), (0, 200, 230), -1)


def _second_look(img: np.ndarray, told: list, dice: list, config: CardsConfig | None = None) -> tuple[int, bool, dict]:
    """(tiles of the first look, whether the second look finds a place, the detector's stages) of ``img`` read
    first look alone, the second asked later told of ``told`` (no card) with every die read in ``dice``."""
    t: dict[str, float] = {}
    defer: list = []
    quads, _ = find_card_quads(img, config or CardsConfig(), 1.0, t, TILE, [], defer=defer)
    due = defer[0]([_box(b) for b in told], [_box(b) for b in dice])
    return len(quads), due, t


def test_dice_leftovers_alone_trigger_no_second_look():
    img = _table()
    # every die read surely, half of them surely (the rest less surely), none read at all (missed): the dice' tops
    # are 2.3 tiles' area of foreground the first look leaves, but no tile's worth lies in one place
    for told, dice in ((DICE, DICE), (DICE[::2], DICE), ([], DICE[::2]), ([], [])):
        n, due, t = _second_look(img, told, dice)
        assert n == 1 and not due
        assert "loose_dense" not in t and "neighbours" not in t, (len(told), len(dice))
        assert ("loose_gate" in t) == (len(told) < len(DICE)), "asked where more than 0.1 tile is left"
    # counted over the whole frame, as before, those dice were enough for the second look to run (and find nothing)
    n, due, t = _second_look(img, DICE[::2], DICE, CardsConfig(loose_min_place=0.0))
    assert not due and "loose_dense" in t


def test_a_tiles_worth_of_pieces_in_one_place_is_still_looked_at():
    for where in ((150, 250), (232, 118)):          # alone on the felt; beside the dice, touching none
        img = _table()
        _tile_pieces(img, *where)
        n, _, t = _second_look(img, DICE, DICE)
        assert n == 1 and "loose_dense" in t and "neighbours" in t, where


def test_the_share_in_one_place_counts_no_die_top_and_no_scattered_piece():
    rest = np.zeros((300, 400), np.uint8)
    for x, y in ((20, 20), (200, 40), (320, 200)):              # three die tops, far apart
        rest[y:y + 26, x:x + 26] = 255
    assert place_share(rest, TILE, CardsConfig().die_side, CardsConfig().die_fill) == 0.0
    rest[150:190, 40:90] = 255                                  # 40 x 50 px in one place: more than half a tile
    share = place_share(rest, TILE, CardsConfig().die_side, CardsConfig().die_fill)
    assert abs(share - 2000 / 3600) < 0.05
    for x in range(150, 390, 40):                               # thin scraps 40 px apart: each alone in a tile's place
        rest[250:254, x:x + 30] = 255
    assert abs(place_share(rest, TILE, CardsConfig().die_side, CardsConfig().die_fill) - share) < 0.05


def test_a_die_top_is_a_filled_square_of_a_dies_side():
    side = (12.0, 36.0)
    assert die_top_shaped(600.0, (25.0, 25.0), side, 0.8)
    assert not die_top_shaped(400.0, (25.0, 25.0), side, 0.8), "a ring, not filled"
    assert not die_top_shaped(900.0, (20.0, 46.0), side, 0.8), "a band"
    assert not die_top_shaped(2400.0, (50.0, 50.0), side, 0.8), "larger than a die"
