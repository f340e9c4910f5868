"""Tables read with no calibration (issue 16): a card whose border is printed in the cloth's colour and whose art is
dark where it meets the border leaves only pieces in the foreground; the first look drops them. The detector's second
look, which a calibrated table always had, now runs at the card size the frame's cards give
(``CardsConfig.loose_measured``): it offers a place beside the cards found (Among the Stars rulebook 5.1 "Grid and
adjacency": locations are placed edge to edge, so the next card of a station lies one card further along), kept only
when a deck knows the card there. A place cut short at such a card's art is also offered snapped to the card's whole
outline (``snap_loose``).

The scenes are drawn by hand: portrait cards 46 x 64 px (63 x 88 mm), a light border of ``BORDER`` px round a
darker panel with hard-edged shapes, in touching rows on a plain grey cloth with sensor noise."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.card_detect import CardsConfig, find_card_quads, snap_loose
from vision.quads import quad_size

ASPECT = 88.0 / 63.0
CLOTH = (70, 80, 95)
BORDER = 4
CW, CH = 46, 64


def _card(img: np.ndarray, x0: int, y0: int, border: tuple[int, int, int], panel: tuple[int, int, int],
          rng: np.random.Generator) -> None:
    """One portrait card ``CW`` x ``CH`` px with its top-left at (x0, y0): a ``BORDER`` px frame of ``border`` (BGR),
    a panel of ``panel`` and three hard-edged circles on it."""
    cv2.rectangle(img, (x0, y0), (x0 + CW - 1, y0 + CH - 1), border, -1)
    cv2.rectangle(img, (x0 + BORDER, y0 + BORDER), (x0 + CW - 1 - BORDER, y0 + CH - 1 - BORDER), panel, -1)
    for _ in range(3):
        cx = x0 + int(rng.integers(BORDER + 8, CW - BORDER - 8))
        cy = y0 + int(rng.integers(BORDER + 8, CH - BORDER - 8))
        cv2.circle(img, (cx, cy), int(rng.integers(3, 7)), tuple(int(v) for v in rng.integers(120, 255, 3)), -1)


def _dark_card(img: np.ndarray, x0: int, y0: int) -> None:
    """A card whose border is the cloth's colour and whose panel is dark like the cloth but for a light band across
    its lower 22 px (its cost row): the band alone stands out, 38 x 22 px, no card's shape."""
    cv2.rectangle(img, (x0, y0), (x0 + CW - 1, y0 + CH - 1), CLOTH, -1)
    cv2.rectangle(img, (x0 + BORDER, y0 + BORDER), (x0 + CW - 1 - BORDER, y0 + CH - 1 - BORDER), (62, 72, 88), -1)
    cv2.rectangle(img, (x0 + BORDER, y0 + CH - BORDER - 22), (x0 + CW - 1 - BORDER, y0 + CH - 1 - BORDER),
                  (215, 225, 235), -1)


def _table(seed: int, dark: bool = True) -> tuple[np.ndarray, list[tuple[float, float]], tuple[float, float]]:
    """(uint8[720, 1280, 3] BGR frame, the centres px of the cards with a light border, the dark card's centre):
    three rows of five touching cards at (200, 200), a row of four at (700, 300) whose fifth place (the row's
    end, touching the fourth) holds the dark card when ``dark``, and three cards alone."""
    rng = np.random.default_rng(seed)
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = CLOTH
    centres = []

    def light(x: int, y: int) -> None:
        _card(img, x, y, tuple(int(v) for v in rng.integers(190, 240, 3)),
              tuple(int(v) for v in rng.integers(20, 140, 3)), rng)
        centres.append((x + CW / 2, y + CH / 2))

    for r in range(3):
        for c in range(5):
            light(200 + c * CW, 200 + r * CH)
    for c in range(4):
        light(700 + c * CW, 300)
    for k in range(3):
        light(400 + k * 120, 520)
    if dark:
        _dark_card(img, 700 + 4 * CW, 300)
    img = np.clip(img.astype(np.int16) + rng.integers(-3, 4, img.shape), 0, 255).astype(np.uint8)
    return img, centres, (700 + 4 * CW + CW / 2, 300 + CH / 2)


def _near(quads: list[np.ndarray], at: tuple[float, float], reach: float) -> list[np.ndarray]:
    return [q for q in quads if float(np.hypot(*(q.mean(axis=0) - at))) <= reach]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_dark_card_is_a_place_of_the_second_look(seed):
    frame, centres, dark = _table(seed)
    quads, loose = find_card_quads(frame, CardsConfig(), ASPECT)
    first = [q for q, lo in zip(quads, loose, strict=True) if not lo]
    places = [q for q, lo in zip(quads, loose, strict=True) if lo]
    # every card with a light border is found at its place (the rows' split may leave one to the second look)
    for x, y in centres:
        assert _near(quads, (x, y), 0.25 * CW), f"no card found at ({x:.0f}, {y:.0f})"
    # the dark card's band is no card to the first look (38 x 22 px: not a card's shape)
    assert not _near(first, dark, 0.5 * CW)
    # the second look offers its place: the row's next card, one card and a gap (4 % of 46 px, 1.84 px) along
    # from the fourth card's centre (838, 332): (838 + 46 + 1.84, 332) = (885.8, 332), 1.2 px from the card's
    # centre (884.6, 332), or the outline snapped about it; within a quarter of a short side either way
    there = _near(places, dark, 0.25 * CW)
    assert there
    side = np.array([quad_size(q) for q in there])
    assert np.all(np.abs(side[:, 0] - CW) <= 0.1 * CW)


def test_without_the_measured_size_no_second_look_runs():
    frame, _centres, dark = _table(1)
    quads, loose = find_card_quads(frame, replace(CardsConfig(), loose_measured=False), ASPECT)
    assert not any(loose)
    assert not _near(quads, dark, 0.5 * CW)


def test_a_table_whose_cards_are_all_found_offers_no_place():
    # the table of seed 1 without the dark card, where the first look splits every row: what it leaves is sensor
    # noise, under the gate's tenth of a card's area (294 px^2), so the second look does not run
    frame, centres, _dark = _table(1, dark=False)
    quads, loose = find_card_quads(frame, CardsConfig(), ASPECT)
    assert not any(loose)
    assert len(quads) == len(centres)


def test_a_place_cut_short_is_also_offered_at_the_whole_card():
    # one card 46 x 64 px with a strong outline at (100, 80)-(146, 144) on the cloth; a place of the second look
    # cut at its art: its lower 50 px, (100, 94)-(146, 144), centre (123, 119), 7 px below the card's (123, 112).
    # The snap (a tenth of 46 px is 4.6 px) moves its corners 14 px (the top two): another place, kept beside it
    img = np.zeros((240, 320, 3), np.uint8)
    img[:] = CLOTH
    cv2.rectangle(img, (100, 80), (145, 143), (225, 230, 235), -1)
    short = np.array([[100, 94], [146, 94], [146, 144], [100, 144]], np.float64)
    quads, loose = snap_loose(img, [short], [True], (46.0, 64.0), CardsConfig())
    assert loose == [True, True]
    assert np.allclose(quads[0], short)
    whole = quads[1]
    assert np.hypot(*(whole.mean(axis=0) - (123.0, 112.0))) <= 2.0
    assert quad_size(whole) == pytest.approx((46.0, 64.0), abs=0.5)
    # a place already on the whole card (each corner within 4.6 px of the snapped outline) is not offered twice
    near = np.array([[101, 81], [147, 81], [147, 145], [101, 145]], np.float64)
    quads, loose = snap_loose(img, [near], [True], (46.0, 64.0), CardsConfig())
    assert loose == [True]
