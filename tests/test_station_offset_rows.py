"""A station of touching cards whose rows do not line up (a row pushed a third of a card along, as a hand leaves it or
a camera's slant makes it): with no calibration each row and column of the lattice is fitted to its own cards
(vision.card_split.row_and_column_shifts), so every card is cut on itself. Hand-built scenes: cards drawn as
rectangles with art on a dark cloth; every expected place worked out from the drawing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_detect import CardsConfig, blobs_of, fill_holes
from vision.card_split import row_and_column_shifts, split_blob

CARD_W, CARD_H, GAP = 42, 60, 2


def _card(img: np.ndarray, x0: int, y0: int, rng: np.random.Generator) -> tuple[float, float]:
    """Draw one card (a light body, a coloured picture box, a disc and a strip of text-like marks) with its
    top-left at (x0, y0) px; returns its centre px."""
    body = tuple(int(v) for v in rng.integers(170, 235, 3))
    cv2.rectangle(img, (x0, y0), (x0 + CARD_W - 1, y0 + CARD_H - 1), body, -1)
    art = tuple(int(v) for v in rng.integers(60, 200, 3))
    cv2.rectangle(img, (x0 + 5, y0 + 12), (x0 + CARD_W - 6, y0 + 42), art, -1)
    cv2.circle(img, (x0 + int(rng.integers(12, 30)), y0 + int(rng.integers(20, 36))), 7,
               tuple(int(v) for v in rng.integers(0, 255, 3)), -1)
    for k in range(4):
        cv2.rectangle(img, (x0 + 6 + 8 * k, y0 + 49), (x0 + 11 + 8 * k, y0 + 52), (40, 40, 40), -1)
    return x0 + (CARD_W - 1) / 2, y0 + (CARD_H - 1) / 2


def _station(rows: list[tuple[int, int]], angle: float, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """(BGR image, card centres px) of a station: ``rows`` = (first card's x offset px, cards) per row, rows one
    card height plus the gap apart, the whole turned ``angle`` degrees about the image's centre."""
    h, w = 420, 460
    img = np.full((h, w, 3), (40, 30, 70), np.uint8)   # a dark red cloth
    rng = np.random.default_rng(seed)
    centres = []
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    for r, (dx, n) in enumerate(rows):
        for c in range(n):
            cx, cy = _card(img, 120 + dx + c * (CARD_W + GAP), 100 + r * (CARD_H + GAP), rng)
            centres.append(M @ np.array([cx, cy, 1.0]))
    return cv2.warpAffine(img, M, (w, h), borderValue=(40, 30, 70)), centres


def _blob(img: np.ndarray):
    # the cards apart from the cloth, the 2 px gaps between them closed (the foreground mask's blur does it on a
    # camera's frame)
    mask = (img.max(axis=2) > 110).astype(np.uint8) * 255
    mask = fill_holes(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)))
    blobs = blobs_of(mask, CardsConfig())
    assert len(blobs) == 1   # the cards touch: one blob
    return blobs[0]


def _misses(quads: list[np.ndarray], centres: list[np.ndarray]) -> list[float]:
    """Per card, the distance px from its centre to the nearest cut cell's centre."""
    found = np.array([q.mean(axis=0) for q in quads]).reshape(-1, 2)
    return [float(np.linalg.norm(found - c, axis=1).min()) for c in centres]


# a top row of two cards a third of a card (14 px) right of the four below; a middle row pushed a third left
OFFSET_STATIONS = [
    [(14, 2), (0, 4), (0, 3)],
    [(0, 4), (-14, 3), (0, 4)],
]


@pytest.mark.parametrize("rows", OFFSET_STATIONS)
@pytest.mark.parametrize("angle", [0.0, 5.0, 9.0])
@pytest.mark.parametrize("seed", [3, 8])
def test_a_row_off_the_grid_is_cut_on_its_own_cards(rows, angle, seed):
    img, centres = _station(rows, angle, seed)
    quads = split_blob(img, _blob(img), (float(CARD_W), float(CARD_H)), CardsConfig(), own_lines=True)
    assert len(quads) == len(centres)
    # every card has a cell whose centre lies within 0.15 of the card's short side of its own (6 px: the cell's
    # crop is the card's; a third of a card off, 14 px, it would be half another's)
    assert max(_misses(quads, centres)) <= 0.15 * CARD_W


def test_one_lattice_for_the_whole_station_cuts_the_offset_row_across_its_cards():
    # the case the rows' own fit is for: the blob's single lattice sits on the four-card rows, a third of a card
    # off the top row's two cards
    img, centres = _station(OFFSET_STATIONS[0], 0.0, seed=3)
    quads = split_blob(img, _blob(img), (float(CARD_W), float(CARD_H)), CardsConfig())
    assert max(_misses(quads, centres)) > 0.25 * CARD_W


def test_row_and_column_shifts_move_a_row_onto_its_cards():
    # hand-worked canvas: cells 40 x 50 px (a cell centred at x covers x - 20 .. x + 19). Row 0's two cards cover
    # x 53..92 and 95..134 (cell centres 73, 115: a third of a card right of the row below), row 1's three cards
    # x 40..79, 82..121, 124..163 (centres 60, 102, 144); the lattice has columns at 60, 102, 144 and rows at 30, 82.
    # Row 0 must move +13 px, row 1 not at all; no column moves.
    h, w = 140, 190
    mask = np.zeros((h, w), np.uint8)
    for x in (53, 95):
        mask[5:55, x:x + 40] = 255
    for x in (40, 82, 124):
        mask[57:107, x:x + 40] = 255
    cell = (40.0, 50.0)
    occ = cv2.boxFilter((mask > 0).astype(np.float32), -1, (40, 50), normalize=True, borderType=cv2.BORDER_CONSTANT)
    cx, cy = row_and_column_shifts(occ, mask, np.array([60, 102, 144]), np.array([30, 82]), cell, 0.6)
    assert cx.reshape(2, 3)[0, :2].tolist() == [73, 115]
    assert cx.reshape(2, 3)[1].tolist() == [60, 102, 144]
    assert cy.reshape(2, 3).tolist() == [[30, 30, 30], [82, 82, 82]]


def test_row_and_column_shifts_move_a_column_onto_its_cards():
    # the same turned a quarter: column 0's two cards cover y 53..92 and 95..134 (centres 73, 115), column 1's three
    # y 40..163 (centres 60, 102, 144); the lattice's rows at 60, 102, 144 and columns at 30, 82: column 0 moves
    # +13 px down, column 1 stays
    h, w = 190, 140
    mask = np.zeros((h, w), np.uint8)
    for y in (53, 95):
        mask[y:y + 40, 5:55] = 255
    for y in (40, 82, 124):
        mask[y:y + 40, 57:107] = 255
    cell = (50.0, 40.0)
    occ = cv2.boxFilter((mask > 0).astype(np.float32), -1, (50, 40), normalize=True, borderType=cv2.BORDER_CONSTANT)
    cx, cy = row_and_column_shifts(occ, mask, np.array([30, 82]), np.array([60, 102, 144]), cell, 0.6)
    assert cy.reshape(3, 2)[:2, 0].tolist() == [73, 115]
    assert cy.reshape(3, 2)[:, 1].tolist() == [60, 102, 144]
    assert cx.reshape(3, 2).tolist() == [[30, 82]] * 3
