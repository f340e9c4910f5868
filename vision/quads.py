"""Quadrilaterals of cards and square tiles in frame pixels: corner order, size, the outline fitted to a
contour, and the one perspective warp that cuts a card's top-down crop (at enrollment and at run time alike).

Glossary: *quad* = float[4, 2] pixel corners of a card, clockwise from the card's top-left as it reads
(:func:`order_quad`).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["fit_quad", "order_quad", "order_quads", "quad_size", "rectify"]

_NEXT = np.array([1, 2, 3, 0])       # np.roll(q, -1, axis=0) of 4 corners, as an index
_OPPOSITE = np.array([2, 3, 0, 1])   # np.roll(q, -2, axis=0)


def order_quad(q: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (image y down) starting at the top-left of a portrait card:
    the first edge is a short edge, chosen as the one higher in the image."""
    q = np.asarray(q, np.float64).reshape(4, 2)
    c = q.mean(axis=0)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]  # clockwise on screen (y down)
    e = q - q[_NEXT]
    sides = np.sqrt(np.add.reduce(e * e, axis=1))  # side k: q[k] -> q[k+1] (np.linalg.norm's arithmetic, per row)
    # pick the start so that side 0 is short (sides 0 and 2 short)
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = q[_NEXT]
    # of the two short sides (0 and 2) the top one has the smaller mean y
    if (q[2, 1] + q[3, 1]) < (q[0, 1] + q[1, 1]):
        q = q[_OPPOSITE]
    return q


def order_quads(quads: np.ndarray) -> np.ndarray:
    """float64[N, 4, 2]: :func:`order_quad` of each of ``quads`` (N float[4, 2] px), all at once: the same corners in
    the same order (each quad's centre, corner angles, sides and choices worked out along its own corners alone)."""
    q = np.array([np.asarray(p, np.float64).reshape(4, 2) for p in quads]).reshape(-1, 4, 2)
    c = q.mean(axis=1)
    ang = np.arctan2(q[:, :, 1] - c[:, None, 1], q[:, :, 0] - c[:, None, 0])
    q = np.take_along_axis(q, np.argsort(ang, axis=1)[:, :, None], axis=1)   # clockwise on screen (y down)
    e = q - q[:, _NEXT]
    sides = np.sqrt(np.add.reduce(e * e, axis=2))
    q = np.where((sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3])[:, None, None], q[:, _NEXT], q)
    return np.where(((q[:, 2, 1] + q[:, 3, 1]) < (q[:, 0, 1] + q[:, 1, 1]))[:, None, None], q[:, _OPPOSITE], q)


def quad_size(q: np.ndarray) -> tuple[float, float]:
    """(short side, long side) of an ordered quad: mean of opposite sides."""
    s = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float((s[0] + s[2]) / 2), float((s[1] + s[3]) / 2)


def fit_quad(contour: np.ndarray) -> np.ndarray:
    """Four corners of a (rounded-corner, possibly perspective) rectangle outline.

    approxPolyDP of the convex hull when it gives 4 points, else the minimum-area rectangle.
    """
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    for eps in (0.02, 0.03, 0.045, 0.06):
        ap = cv2.approxPolyDP(hull, eps * peri, True)
        if len(ap) == 4:
            q = ap.reshape(4, 2).astype(np.float64)
            rect = cv2.minAreaRect(contour)
            if cv2.contourArea(q.astype(np.float32)) > 0.85 * rect[1][0] * rect[1][1]:
                return q
            break
        if len(ap) < 4:
            break
    return cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float64)


def rectify(frame: np.ndarray, quad: np.ndarray, width: int, height: int) -> np.ndarray:
    """Top-down crop ``uint8[height, width, 3]`` of the card whose ordered corners are ``quad`` (pixels).

    The single warp used both at enrollment and at run time.
    """
    dst = np.array([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(frame, M, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
