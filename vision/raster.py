"""Small helpers on 2-D image arrays that several readers' stages share (numpy + OpenCV only)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["rotation_canvas", "shift"]


def shift(a: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``out[y, x] = a[y + dy, x + dx]`` with zeros outside, for a 2-D array ``a`` (any dtype).

    ``dx``, ``dy`` are whole pixels of either sign; a shift of the array's width or height or more
    gives all zeros.
    """
    out = np.zeros_like(a)
    h, w = a.shape
    if abs(dx) >= w or abs(dy) >= h:
        return out
    ys, yd = (slice(dy, h), slice(0, h - dy)) if dy >= 0 else (slice(0, h + dy), slice(-dy, h))
    xs, xd = (slice(dx, w), slice(0, w - dx)) if dx >= 0 else (slice(0, w + dx), slice(-dx, w))
    out[yd, xd] = a[ys, xs]
    return out


def rotation_canvas(width: int, height: int, angle_deg: float) -> tuple[np.ndarray, int, int]:
    """(M float[2, 3], new width, new height): the affine map that turns a ``width`` x ``height`` image by
    ``angle_deg`` (counter-clockwise on screen, about its centre) onto a canvas large enough to hold all of
    it, with the turned image centred (for ``cv2.warpAffine(img, M, (new width, new height))``)."""
    M = cv2.getRotationMatrix2D((width / 2, height / 2), angle_deg, 1.0)
    cos, sin = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(width * cos + height * sin) + 2, int(width * sin + height * cos) + 2
    M[0, 2] += nw / 2 - width / 2
    M[1, 2] += nh / 2 - height / 2
    return M, nw, nh
