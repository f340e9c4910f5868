"""With no calibration a table's corner markers are no cards: a marker on its white paper is square and flat like a
Roll for the Galaxy tile, so the card reader finds its outline; cv2.aruco (as the calibration finds them) tells it is
a marker of the table (ids below ``sticker_ids_from``) and the place is left out. A card carrying an ArUco sticker
(ids from ``sticker_ids_from`` up) stays a card. Hand-built frames: tiles drawn as squares with art on a dark cloth."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_detect import CardsConfig
from vision.cards import read_cards, table_markers
from vision.mat import render_marker

SIDE = 90   # a tile's and a marker sheet's side, px


def _tile(img: np.ndarray, x0: int, y0: int, seed: int) -> None:
    """A square tile with a light body, a picture box and a disc, top-left at (x0, y0) px."""
    rng = np.random.default_rng(seed)
    cv2.rectangle(img, (x0, y0), (x0 + SIDE - 1, y0 + SIDE - 1), tuple(int(v) for v in rng.integers(150, 220, 3)), -1)
    cv2.rectangle(img, (x0 + 10, y0 + 10), (x0 + SIDE - 11, y0 + 60), tuple(int(v) for v in rng.integers(40, 140, 3)),
                  -1)
    cv2.circle(img, (x0 + 45, y0 + 72), 9, tuple(int(v) for v in rng.integers(0, 255, 3)), -1)


def _marker(img: np.ndarray, x0: int, y0: int, marker_id: int) -> None:
    """An ArUco marker (the table's dictionary) of side 60 px on white paper 90 px square, top-left at (x0, y0)."""
    cv2.rectangle(img, (x0, y0), (x0 + SIDE - 1, y0 + SIDE - 1), (255, 255, 255), -1)
    m = render_marker(marker_id, 60)
    img[y0 + 15:y0 + 75, x0 + 15:x0 + 75] = cv2.cvtColor(m, cv2.COLOR_GRAY2BGR)


def _frame() -> np.ndarray:
    img = np.full((360, 640, 3), (60, 45, 35), np.uint8)   # a dark blue-grey cloth
    _tile(img, 80, 60, 1)
    _tile(img, 260, 60, 2)
    _marker(img, 460, 60, 1)     # a corner marker of the table (id 1 < sticker_ids_from)
    _marker(img, 260, 220, 2)
    return cv2.GaussianBlur(img, (3, 3), 0)


def _centres(read) -> list[tuple[float, float]]:
    return sorted((round(o.center_px[0]), round(o.center_px[1])) for o in read.cards)


def test_an_uncalibrated_table_leaves_its_corner_markers_out_of_the_cards():
    config = CardsConfig(aspect=1.0)
    read = read_cards(_frame(), None, None, config=config)
    centres = _centres(read)
    # the two tiles (centres 80 + 44.5, 260 + 44.5 across, 60 + 44.5 down), not the two markers
    assert len(centres) == 2
    for want in ((124.5, 104.5), (304.5, 104.5)):
        assert min(np.hypot(x - want[0], y - want[1]) for x, y in centres) < 6.0
    assert "table_markers" in read.timings_ms


def test_table_markers_tells_a_marker_from_a_tile_and_from_a_card_sticker():
    frame = np.full((200, 420, 3), (60, 45, 35), np.uint8)
    _tile(frame, 20, 50, 3)
    _marker(frame, 160, 50, 0)
    _marker(frame, 300, 50, 9)   # id 9: a sticker on a card, not a table marker
    quads = [np.array([[x, 50], [x + SIDE - 1, 50], [x + SIDE - 1, 50 + SIDE - 1], [x, 50 + SIDE - 1]], np.float64)
             for x in (20, 160, 300)]
    from vision.table import TableConfig
    assert table_markers(frame, quads, CardsConfig(), TableConfig()) == [False, True, False]
    assert table_markers(frame, [], CardsConfig(), TableConfig()) == []
