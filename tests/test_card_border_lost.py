"""Tables read with no calibration (issue 16): a card whose border is printed in the colour of the cloth loses that
border from the foreground, so a blob shaped like one card is its art alone; the card's size then comes from the
spacing of the touching cards' edges, whole border included (vision.card_pitch, vision.card_detect).

The scenes are drawn by hand: cards of a known size in px (a border of ``BORDER`` px round a light panel with
hard-edged art), laid in blocks of touching cards as Among the Stars stations lie (rulebook 5.1 "Grid and
adjacency": locations placed edge to edge), and one card alone whose border is the cloth's own colour."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.card_detect import (
    CardsConfig,
    blobs_of,
    border_lost,
    card_size_estimate,
    card_size_from_edges,
    fill_holes,
    find_card_quads,
    foreground_mask,
    resize_for_work,
)
from vision.card_pitch import PITCH_GAP, choose_card_size, peak_near
from vision.quads import quad_size

ASPECT = 88.0 / 63.0
CLOTH = (70, 80, 95)
BORDER = 4


def _card(img: np.ndarray, x0: int, y0: int, cw: int, ch: int, border: tuple[int, int, int],
          panel: tuple[int, int, int], rng: np.random.Generator) -> None:
    """Draw one portrait card ``cw`` x ``ch`` px with its top-left at (x0, y0): a ``BORDER`` px frame of ``border``
    (BGR), a panel of ``panel`` inside and three hard-edged shapes on it."""
    cv2.rectangle(img, (x0, y0), (x0 + cw - 1, y0 + ch - 1), border, -1)
    cv2.rectangle(img, (x0 + BORDER, y0 + BORDER), (x0 + cw - 1 - BORDER, y0 + ch - 1 - BORDER), panel, -1)
    for _ in range(3):
        cx = x0 + int(rng.integers(BORDER + 6, cw - BORDER - 6))
        cy = y0 + int(rng.integers(BORDER + 8, ch - BORDER - 8))
        cv2.circle(img, (cx, cy), int(rng.integers(3, max(4, cw // 6))),
                   tuple(int(v) for v in rng.integers(120, 255, 3)), -1)


def _table(short: int, seed: int, alone: int = 1) -> tuple[np.ndarray, tuple[int, int], list[tuple[float, float]]]:
    """(uint8[720, 1280, 3] BGR frame, (short, long) card size px, every card's centre px): three blocks of
    touching portrait cards (5 x 2, 2 x 4, 3 x 1; light borders round darker panels, none shaped like one card) and
    ``alone`` cards alone, one above the other, whose border is the cloth's colour, on a plain cloth with sensor
    noise."""
    rng = np.random.default_rng(seed)
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = CLOTH
    cw, ch = short, int(round(short * ASPECT))
    centres = []
    x = 120
    for cols, rows in ((5, 2), (2, 4), (3, 1)):
        for r in range(rows):
            for c in range(cols):
                _card(img, x + c * cw, 180 + r * ch, cw, ch, tuple(int(v) for v in rng.integers(190, 240, 3)),
                      tuple(int(v) for v in rng.integers(20, 140, 3)), rng)
                centres.append((x + c * cw + cw / 2, 180 + r * ch + ch / 2))
        x += cols * cw + 90
    for k in range(alone):   # alone: each one's blob is its light panel only
        _card(img, x, 180 + k * (ch + 40), cw, ch, CLOTH, (215, 225, 235), rng)
        centres.append((x + cw / 2, 180 + k * (ch + 40) + ch / 2))
    img = np.clip(img.astype(np.int16) + rng.integers(-3, 4, img.shape), 0, 255).astype(np.uint8)
    return img, (cw, ch), centres


@pytest.mark.parametrize("short,seed,alone", [(46, 1, 1), (52, 2, 1), (60, 3, 1), (46, 6, 2), (56, 7, 3)])
def test_card_size_is_the_whole_card_not_its_art(short, seed, alone):
    # one card alone, or two or three that agree on the size of their art
    frame, (cw, ch), _ = _table(short, seed, alone)
    c = CardsConfig()
    img, s = resize_for_work(frame, c)
    blobs = blobs_of(fill_holes(foreground_mask(img, c)), c)
    # the foreground alone sees the card alone as its panel: 2 x BORDER px short of the card on each axis
    art = card_size_estimate(blobs, ASPECT, c)
    assert art is not None and art[0] <= (cw - 1.5 * BORDER) * s
    size = card_size_from_edges(img, blobs, ASPECT, c)
    assert size is not None
    assert abs(size[0] - cw * s) <= 0.05 * cw * s
    assert abs(size[1] - ch * s) <= 0.05 * ch * s


@pytest.mark.parametrize("short,seed,alone", [(46, 4, 1), (54, 5, 2)])
def test_every_card_is_cut_at_its_own_size(short, seed, alone):
    frame, (cw, ch), centres = _table(short, seed, alone)
    quads = find_card_quads(frame, CardsConfig(), ASPECT)[0]
    for x, y in centres:
        near = [q for q in quads if np.hypot(*(q.mean(axis=0) - (x, y))) <= 0.25 * cw]
        assert near, f"no card found at ({x:.0f}, {y:.0f})"
    in_blocks = [q for q in quads if q.mean(axis=0)[0] < centres[-1][0] - cw]   # the cards alone are their art
    sizes = np.array([quad_size(q) for q in in_blocks])
    # the blocks' cards are cut at the card's size (within the 6 % of a gap the split allows, and 2 px)
    assert np.all(np.abs(sizes[:, 0] - cw) <= 0.06 * cw + 2)
    assert np.all(np.abs(sizes[:, 1] - ch) <= 0.06 * ch + 2)


def test_a_blob_smaller_than_the_spacing_by_more_than_a_gap_has_lost_its_border():
    # a lone card's panel 36 x 50 px (area 1800) against the edges' spacing 44 px, long side measured 61.5 px:
    # 36 x 1.06 = 38.2 < 44, so the card is the spacing's, its long side the measured one
    assert choose_card_size([(36.0, 50.0)], [1800.0], 44.0, ASPECT, pitch_long=61.5) == (44.0, 61.5)
    # not measured on its own axis: the deck's aspect, 44 x 88 / 63
    short, long_ = choose_card_size([(36.0, 50.0)], [1800.0], 44.0, ASPECT)
    assert short == 44.0 and long_ == pytest.approx(61.4603, abs=1e-3)
    # within a gap of the spacing (40 x 1.06 = 42.4 >= 41): the blob is the card
    assert choose_card_size([(40.0, 56.0)], [2200.0], 41.0, ASPECT, pitch_long=58.0) == (40.0, 56.0)
    # a printed grid's spacing (its cells all alike) never enlarges a card
    assert choose_card_size([(36.0, 50.0)], [1800.0], 44.0, ASPECT, cells_hold_cards=False) == (36.0, 50.0)
    assert PITCH_GAP == 0.06


def test_nearby_cards_areas_are_grown_by_the_border_lost():
    class B:   # a blob's area is all border_lost reads
        def __init__(self, area):
            self.area = area

    # median 1900 px^2; 1900 x 1.06^2 = 2134.8 < 2500: the card is 2500 / 1900 = 1.3158 times its blobs
    assert border_lost([B(1800.0), B(2000.0), B(1900.0)], 2500.0) == pytest.approx(2500.0 / 1900.0)
    # 2134.8 >= 2100: within a gap, nothing lost
    assert border_lost([B(1800.0), B(2000.0), B(1900.0)], 2100.0) == 1.0
    assert border_lost([], 2500.0) == 1.0


def test_peak_of_repetition_to_a_fraction_of_a_pixel():
    acc = np.zeros(40)
    acc[19:22] = (0.5, 1.0, 0.5)      # symmetric about 20
    assert peak_near(acc, 21.0) == pytest.approx(20.0)
    acc[19:22] = (0.5, 1.0, 0.75)     # vertex at 20 + 0.5 (0.5 - 0.75) / (0.5 - 2 + 0.75) = 20 + 1 / 6
    assert peak_near(acc, 19.0) == pytest.approx(20.0 + 1.0 / 6.0)
    # rising to the window's end (reach max(3, 8 % of 30) px: 27-33): no peak inside it, the lag kept
    ramp = np.arange(40, dtype=np.float64)
    assert peak_near(ramp, 30.0) == 30.0
    assert math.isclose(peak_near(np.zeros(5), 30.0), 30.0)
