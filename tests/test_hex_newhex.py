"""The coarse look for a hex laid where a die was rolled (:mod:`vision.hexes.newhex`), on hand-drawn windows."""

from __future__ import annotations

import cv2
import numpy as np

from vision.hexes.config import HexesConfig
from vision.hexes.geometry import hexagon
from vision.hexes.newhex import BLOB_AREA, blob_areas, hex_sized_blob

FLAT = 80.0   # px across a hex's flats: the window is reduced 5 times, a hex 16 px across


def _table(h: int = 320, w: int = 320) -> np.ndarray:
    """A plain table (BGR 60, 90, 140 with a little noise) ``h`` x ``w`` px."""
    rng = np.random.default_rng(5)
    return np.clip(np.array([60, 90, 140], np.float64) + rng.normal(0, 3, (h, w, 3)), 0, 255).astype(np.uint8)


def _hex(img: np.ndarray, centre: tuple[float, float], colour=(200, 60, 40)) -> np.ndarray:
    q = hexagon(FLAT, centre)
    cv2.fillPoly(img, [np.round(q * 16).astype(np.int32)], colour, cv2.LINE_8, shift=4)
    return q


def test_a_hex_is_a_hex_sized_blob_and_a_die_beside_it_is_not():
    """A hexagon 80 px across its flats covers sqrt(3) / 2 x 80^2 = 5543 px: its blob is about one hex's area (within
    the coarse copy's steps: 0.8-1.25); a die 40 px square (half a hex across, as the synthetic tables' dice) covers
    1600 px, 0.29 of a hex: under BLOB_AREA, so a box round it alone needs no window read, and the box round both
    does."""
    cfg = HexesConfig()
    img = _table()
    _hex(img, (110.0, 160.0))
    cv2.rectangle(img, (220, 140), (259, 179), (250, 250, 250), -1)
    hexbox, diebox = (60, 110, 100, 100), (215, 135, 50, 50)
    (a,) = blob_areas(img, [hexbox], [], FLAT, cfg)
    assert 0.8 <= a <= 1.25
    (d,) = blob_areas(img, [diebox], [], FLAT, cfg)
    assert 0.15 <= d <= 0.45 < BLOB_AREA
    assert hex_sized_blob(img, [hexbox], [], FLAT, cfg)
    assert not hex_sized_blob(img, [diebox], [], FLAT, cfg)
    assert hex_sized_blob(img, [hexbox, diebox], [], FLAT, cfg)


def test_a_hex_already_read_is_painted_out_and_a_die_against_it_stays_die_sized():
    """The hexes read before are no new hex: painted out, the die lying against one is a die-sized blob alone; a box
    off the window meets no blob."""
    cfg = HexesConfig()
    img = _table()
    q = _hex(img, (110.0, 160.0))
    cv2.rectangle(img, (150, 140), (189, 179), (250, 250, 250), -1)   # against the hex's right corner
    box = (140, 130, 60, 60)
    assert hex_sized_blob(img, [box], [], FLAT, cfg)   # joined to the hex, not told apart
    areas = blob_areas(img, [box], [q], FLAT, cfg)
    assert areas and max(areas) < BLOB_AREA
    assert not hex_sized_blob(img, [box], [q], FLAT, cfg)
    assert blob_areas(img, [(400, 400, 50, 50)], [], FLAT, cfg) == []
