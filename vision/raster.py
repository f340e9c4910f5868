"""Small helpers on 2-D image arrays that several readers' stages share (numpy + OpenCV only)."""

from __future__ import annotations

import numpy as np

__all__ = ["shift"]


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

