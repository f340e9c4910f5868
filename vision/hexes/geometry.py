"""Flat-top hexagon geometry in pixels: corners, axial rounding, a hex's pose, and the one warp that cuts
a hexagon crop (at enrollment and at run time alike)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

__all__ = ["CORNER_DEG", "EDGE_NORMAL_DEG", "HexCandidate", "NEIGHBOURS", "SQRT3", "axial_round", "hex_crop",
           "hex_pose", "hexagon"]


SQRT3 = math.sqrt(3.0)
#: corner angles (degrees from +x, y down) of a flat-top hexagon, clockwise from the top-left corner.
CORNER_DEG = (240.0, 300.0, 0.0, 60.0, 120.0, 180.0)
#: outward normals (degrees) of edges 0-5 (edge j runs from corner j to corner j + 1).
EDGE_NORMAL_DEG = (270.0, 330.0, 30.0, 90.0, 150.0, 210.0)
#: axial step across edge j.
NEIGHBOURS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


def hexagon(flat: float, centre: tuple[float, float] = (0.0, 0.0), angle_deg: float = 0.0) -> np.ndarray:
    """float[6, 2] corners of a flat-top hexagon (``flat`` = flat-to-flat width) turned ``angle_deg``
    clockwise on screen, clockwise from the top-left corner."""
    R = flat / SQRT3
    a = np.radians(np.array(CORNER_DEG) + angle_deg)
    return np.stack([R * np.cos(a), R * np.sin(a)], axis=1) + np.asarray(centre, np.float64)


def axial_round(q: float, r: float) -> tuple[int, int, float]:
    """Nearest axial cell of fractional (q, r) (cube rounding) and the distance to it in hex pitches."""
    x, z = q, r
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    # distance in pitches (centre-to-centre = 1): through the flat-top embedding
    ex, ey = 1.5 / SQRT3 * (q - rx), (r - rz) + (q - rx) / 2.0
    return int(rx), int(rz), float(math.hypot(ex, ey))


def hex_crop(image: np.ndarray, corners: np.ndarray, size: int = 96) -> np.ndarray:
    """Square crop ``uint8[size, size, 3]`` of the hexagon with pixel ``corners`` (float[6, 2], clockwise from
    the top-left corner of the edge that should be on top), flat top up; outside the hexagon is filled
    with the hexagon's median colour. The same warp serves enrollment and run time."""
    corners = np.asarray(corners, np.float64)
    span = float(np.linalg.norm(corners[0] - corners[3]))   # corner to corner
    if span > 1.5 * size:   # reduce the hex's neighbourhood first (area averaging: no aliasing)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
        roi = image[y0:y1, x0:x1]
        g = 1.5 * size / span
        if roi.size:
            small = cv2.resize(roi, (max(1, int(round(roi.shape[1] * g))), max(1, int(round(roi.shape[0] * g)))),
                               interpolation=cv2.INTER_AREA)
            gx, gy = small.shape[1] / roi.shape[1], small.shape[0] / roi.shape[0]
            image, corners = small, (corners - [x0, y0]) * [gx, gy]
    canon, inside, outside = _crop_frame(size)
    Hm, _ = cv2.findHomography(canon, np.asarray(corners, np.float64), 0)
    if Hm is None:
        Hm = cv2.getPerspectiveTransform(canon[[0, 1, 3, 4]].astype(np.float32),
                                         np.asarray(corners, np.float32)[[0, 1, 3, 4]])
    crop = cv2.warpPerspective(image, Hm, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    px = crop.reshape(size * size, -1)   # the pixels by their flat indices: the same as the masks, gathered faster
    med = _channel_medians(px[inside]) if inside.size else np.array([128, 128, 128])
    px[outside] = med.astype(np.uint8)
    return crop


@lru_cache(maxsize=8)
def _crop_frame(size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(canonical corners float[6, 2], inside int[n], outside int[size * size - n]) of a ``size`` px hexagon crop: the
    hexagon whose corners touch the crop's left and right, and the flat (row-major) indices of the pixels of it 2 px
    in from its rim and of the others, each ascending (read-only: shared by every crop of that size)."""
    c = (size - 1) / 2.0
    canon = hexagon(SQRT3 * c, (c, c))
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [np.round(hexagon(SQRT3 * c - 2.0, (c, c)) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    inside = np.flatnonzero(mask > 0)
    outside = np.flatnonzero(mask == 0)
    for a in (canon, inside, outside):
        a.setflags(write=False)
    return canon, inside, outside


_CHANNEL_OFFSETS = np.array([0, 256, 512])


def _channel_medians(px: np.ndarray) -> np.ndarray:
    """float64[3]: the median of each column of ``px`` uint8[N, 3] (N > 0), the numbers ``np.median(px, axis=0)``
    gives (the mean of the two middle values when N is even), from each channel's 256-bin histogram instead of a
    sort."""
    n = len(px)
    cum = np.bincount((px + _CHANNEL_OFFSETS).ravel(), minlength=768).reshape(3, 256).cumsum(axis=1)
    lo = (cum <= (n - 1) // 2).sum(axis=1)   # the value of rank (n - 1) // 2, per channel
    hi = (cum <= n // 2).sum(axis=1)         # and of rank n // 2
    return (lo + hi) / 2.0


@dataclass
class HexCandidate:
    """One detected hex in work-image pixels: corners in lattice order (map frame top-left first)."""

    corners: np.ndarray
    centre: np.ndarray
    angle: float
    occupancy: float
    crisp: int
    score: float


def hex_pose(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cx, cy, turn in degrees, flat width in px) of hexagon ``corners`` float[6, 2], each as a float[1] array
    (the pose arguments of :func:`vision.hexes.outline.edge_scores` with ``flat`` = 1)."""
    c = corners.mean(axis=0)
    e01 = corners[1] - corners[0]
    return (np.array([c[0]]), np.array([c[1]]), np.array([math.degrees(math.atan2(e01[1], e01[0]))]),
            np.array([float(np.linalg.norm(corners[0] - corners[4]))]))
