"""Whether a change could be a hex laid: pixel evidence, cheap enough to spare the map's window read after a roll.

A combat die rolled beside the map changes a box that may have room for a hex laid against the map's rim
(:func:`vision.hexes.reader.room_for_a_hex`); then only pixels can tell a die from a hex. The window read that would
follow (:func:`vision.hexes.reader.read_hexes_changes`) fits a lattice only to a blob of its foreground (the table's
colours left out, the hexes already read and the calibration markers painted out, closed, small holes filled) of at
least ``min_occupancy`` (0.78) of a hex's area (:func:`vision.hexes.lattice.find_hexes`): without one it finds no
hex. :func:`blob_areas` makes the same foreground on a coarse copy of the window (a hex about
:data:`COARSE_FLAT_PX` px across, a tenth of the pixels or less) and :func:`hex_sized_blob` asks for a blob meeting
the change of at least :data:`BLOB_AREA` of a hex, well under the window read's own bound: every hex the window read
finds passes, a die with its shadow (at most about half a hex in the synthetic tables, whose dice are half a hex
across; a sixth on the real game's) does not, and a heap of dice touching reads the window, as before.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from ..foreground import foreground_mask
from ..table import MARKER_SHEET_MARGIN, TableCalibration
from .config import HexesConfig
from .geometry import SQRT3
from .lattice import fill_small_holes

__all__ = ["BLOB_AREA", "COARSE_FLAT_PX", "blob_areas", "hex_sized_blob", "marker_sheets"]

#: A hex's flat width in the coarse copy is at least this (px; the window is reduced by a whole factor).
COARSE_FLAT_PX = 16.0
#: A blob could be a hex laid when it covers at least this fraction of a hex's area (SQRT3 / 2 x flat^2).
BLOB_AREA = 0.6


def blob_areas(window: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], known: Sequence[np.ndarray], flat: float,
               config: HexesConfig, markers: Sequence[np.ndarray] = ()) -> list[float]:
    """The area of each foreground blob of ``window`` (uint8[H, W, 3] BGR) that meets one of ``boxes`` (``(x, y, w,
    h)`` window px), as a fraction of a hex's area, hexes ``flat`` px across their flats.

    The window is reduced by the whole factor that brings a hex to at least :data:`COARSE_FLAT_PX` px across (its
    last rows and columns short of a whole step left out; an area mean); its foreground is
    :func:`vision.foreground.foreground_mask` with ``config.fg``, with ``known`` (outlines float[K, 2] window px of
    hexes already read) and ``markers`` (quads float[4, 2] window px, the calibration markers with their paper)
    painted out, closed by a disc ``config.close_frac`` of a hex across and holes under ``config.min_hole_frac`` of a
    hex filled, as :func:`vision.hexes.lattice.find_hexes` makes it. Raises nothing (boxes off the window: [])."""
    n = max(1, int(float(flat) // COARSE_FLAT_PX))
    h, w = window.shape[:2]
    hs, ws = h // n, w // n
    if hs < 2 or ws < 2:
        return []
    small = cv2.resize(window[:hs * n, :ws * n], (ws, hs), interpolation=cv2.INTER_AREA) if n > 1 else window
    mask = foreground_mask(small, config.fg)
    polys = [np.asarray(q, np.float64).reshape(-1, 2) for q in (*known, *markers)]
    if polys:
        cv2.fillPoly(mask, [np.round(q * (16.0 / n)).astype(np.int32) for q in polys], 0, cv2.LINE_8, shift=4)
    f = float(flat) / n
    k = max(3, int(round(config.close_frac * f)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    hex_area = SQRT3 / 2.0 * f * f
    mask = fill_small_holes(mask, config.min_hole_frac * hex_area)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    meets: set[int] = set()
    for bx, by, bw, bh in boxes:
        x0, y0 = max(0, int(bx) // n), max(0, int(by) // n)
        x1, y1 = min(ws, -(-int(bx + bw) // n)), min(hs, -(-int(by + bh) // n))
        if x1 > x0 and y1 > y0:
            meets.update(int(i) for i in np.unique(lab[y0:y1, x0:x1]) if i > 0)
    return [float(stats[i, cv2.CC_STAT_AREA]) / hex_area for i in sorted(meets)]


def hex_sized_blob(window: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], known: Sequence[np.ndarray],
                   flat: float, config: HexesConfig, markers: Sequence[np.ndarray] = ()) -> bool:
    """Whether a foreground blob of ``window`` meeting one of ``boxes`` could be a hex laid there: :func:`blob_areas`
    holds one of at least :data:`BLOB_AREA` of a hex. Arguments as :func:`blob_areas`. Raises nothing."""
    return any(a >= BLOB_AREA for a in blob_areas(window, boxes, known, flat, config, markers))


def marker_sheets(calibration: TableCalibration | None, offset: tuple[int, int]) -> list[np.ndarray]:
    """The calibration markers with their paper (each grown about its centre by ``MARKER_SHEET_MARGIN`` of its side)
    as float[4, 2] px of a window whose top-left is ``offset`` (x, y frame px); none without a calibration."""
    if calibration is None:
        return []
    out = []
    for q in calibration.markers_px.values():
        q = np.asarray(q, np.float64).reshape(4, 2)
        c = q.mean(axis=0)
        out.append(c + (q - c) * (1.0 + 2.0 * MARKER_SHEET_MARGIN) - np.asarray(offset, np.float64))
    return out
