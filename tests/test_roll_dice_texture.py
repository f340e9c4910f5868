"""The table's-texture test of the Roll dice reader (vision/roll_dice/texture.py): a face whose box recurs on the table
round it, not on another die, is the table's own pattern (a gingham's check beside a die); a die's top recurs nowhere.
Hand-drawn scenes: a checked cloth of white, half-blue and blue squares, and dice drawn on it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.observations import TopFaces
from vision.roll_dice.reader import _not_texture
from vision.roll_dice.texture import table_repeats

CFG = RollDiceConfig()
CHECK = 40                                                  # a check's side, px (the cloth's period is 2 checks)
WHITE, HALF, BLUE = (215, 220, 222), (170, 120, 100), (140, 40, 20)   # BGR


def gingham(size: int = 480, seed: int = 0) -> np.ndarray:
    """A checked cloth: white where neither band runs, half blue where one does, blue where both cross; a little
    sensor-like noise."""
    yy, xx = np.mgrid[0:size, 0:size]
    bands = ((xx // CHECK) % 2) + ((yy // CHECK) % 2)
    img = np.array([WHITE, HALF, BLUE], np.float32)[bands]
    img += np.random.default_rng(seed).normal(0, 2.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def die(img: np.ndarray, cx: int, cy: int, side: int = CHECK, body=(60, 60, 200)) -> None:
    """A red die at (cx, cy) (in place): its shaded side faces below and right, its top with a white ring and bar."""
    h = side // 2
    shade = tuple(int(v * 0.6) for v in body)
    cv2.rectangle(img, (cx - h + 5, cy - h + 5), (cx + h + 6, cy + h + 6), shade, -1)
    cv2.rectangle(img, (cx - h, cy - h), (cx + h, cy + h), body, -1)
    cv2.circle(img, (cx - 4, cy - 3), 8, (235, 235, 235), 3, cv2.LINE_AA)
    cv2.line(img, (cx + 2, cy + 9), (cx + 12, cy + 2), (235, 235, 235), 3, cv2.LINE_AA)


def rects(*centres: tuple[float, float], side: float = CHECK) -> np.ndarray:
    return np.array([[x, y, side, side, 0.0] for x, y in centres], np.float64)


# the middle of a white check (checks of even row and column are white) and of a half-blue one
WHITE_CHECK, HALF_CHECK = (4 * CHECK + CHECK / 2, 4 * CHECK + CHECK / 2), (5 * CHECK + CHECK / 2, 4 * CHECK + CHECK / 2)


def test_a_check_of_the_cloth_recurs_and_a_die_on_it_does_not():
    img = gingham()
    die(img, 260, 300)
    got = table_repeats(img, rects(WHITE_CHECK, HALF_CHECK, (260, 300)), CFG)
    assert got[0] > 0.9 and got[1] > 0.9          # each check has its like a period away
    assert got[2] < 0.6                           # the die's top, its symbol and shade, recurs nowhere


def test_a_check_lying_against_a_die_still_recurs_on_its_other_sides():
    """The check left of a die (its shade falls the other way): the window a third larger round the check would hold
    the die, and the cloth's like of it both ways along that row is the die; the cloth goes on beyond its other
    sides."""
    img = gingham()
    die(img, int(WHITE_CHECK[0]) + CHECK, int(WHITE_CHECK[1]))
    got = table_repeats(img, rects(WHITE_CHECK, (WHITE_CHECK[0] + CHECK, WHITE_CHECK[1])), CFG)
    assert got[0] > CFG.texture_ramp[0]           # lowered as the table's texture
    assert got[1] < 0.6


def test_a_die_alike_beside_it_is_not_the_table():
    """Two dice alike two checks apart on a plain table: each matches the other perfectly, but the other is a die of
    the read, so neither recurs on the table; where the read missed the other die, that twin is one copy, and a
    table's texture has two at least (the first copy alone would call the die the table)."""
    img = np.full((480, 480, 3), (120, 140, 150), np.uint8)
    img = np.clip(img + np.random.default_rng(1).normal(0, 2.0, img.shape), 0, 255).astype(np.uint8)
    die(img, 200, 240)
    die(img, 280, 240)
    both = rects((200, 240), (280, 240))
    assert (table_repeats(img, both, CFG) < 0.5).all()
    missed = np.array([True, False])
    assert table_repeats(img, both, CFG, dice=missed)[0] < 0.5
    assert table_repeats(img, both, RollDiceConfig(texture_copies=1), dice=missed)[0] > 0.9


def test_only_the_faces_asked_for_are_measured_and_a_flat_or_cut_face_is_not():
    img = gingham()
    flat = np.full((480, 480, 3), 128, np.uint8)
    got = table_repeats(img, rects(WHITE_CHECK, HALF_CHECK), CFG, todo=np.array([False, True]))
    assert got[0] == -1.0 and got[1] > 0.9
    assert table_repeats(flat, rects((240, 240)), CFG)[0] == -1.0          # no texture to recur
    assert table_repeats(img, rects((5, 240)), CFG)[0] == -1.0             # its box cut by the frame
    assert table_repeats(img, np.zeros((0, 5)), CFG).shape == (0,)


def _faces(r: np.ndarray) -> TopFaces:
    """Top faces at ``r`` with die score 1 (no ink or shape evidence: their die weight is their score)."""
    return TopFaces(r, np.ones(len(r)), None, np.zeros((len(r), 3)), None)


def test_the_reader_drops_a_check_and_keeps_the_die_and_a_plain_symbol():
    """The reader's hook: a check matching a symbol at NCC 0.6 (as a check beside a die does) falls below the reader's
    confidence; the die beside it is kept whole; a near-perfect symbol match is kept wherever it lies."""
    img = gingham()
    die(img, 260, 300)
    r = rects(WHITE_CHECK, (260, 300))
    got = _not_texture(img, _faces(r), np.array([[0.6], [0.6]]), CFG)
    assert got.scores[0] < CFG.min_confidence
    assert got.scores[1] == 1.0
    plain = _not_texture(img, _faces(r), np.array([[0.97], [0.6]]), CFG)
    assert plain.scores[0] == 1.0
    off = _not_texture(img, _faces(r), np.array([[0.6], [0.6]]), RollDiceConfig(texture_ramp=None))
    assert (off.scores == 1.0).all()
