"""Small helpers on 2-D image arrays that several readers' stages share (numpy + OpenCV only)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["disc_morphology", "rotation_canvas", "shift"]


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


def disc_morphology(mask: np.ndarray, op: int, k: int) -> np.ndarray:
    """``cv2.morphologyEx(mask, op, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))`` for ``op``
    ``cv2.MORPH_CLOSE`` or ``cv2.MORPH_OPEN`` (default borders), the same pixels, faster for a large disc: the
    disc is its rows, each a run of columns about its centre, so a dilation (erosion) is the maximum (minimum) over
    the disc's rows of the image dilated (eroded) along the row by that run, shifted by the row's offset (a few
    cheap one-row filters instead of one pass over every pixel of the disc per pixel).

    ``mask``: uint8[H, W]; ``k``: odd disc size in px.

    Raises:
        ValueError: ``op`` is neither close nor open, or ``k`` is not odd and positive.
    """
    if op not in (cv2.MORPH_CLOSE, cv2.MORPH_OPEN) or k < 1 or k % 2 == 0:
        raise ValueError(f"disc_morphology: close or open with an odd disc size, not op {op}, k {k}")
    runs = _disc_runs(k)
    first, second = (True, False) if op == cv2.MORPH_CLOSE else (False, True)
    return _disc_filter(_disc_filter(mask, runs, first), runs, second)


_DISC_RUNS: dict[int, tuple[tuple[int, int], ...]] = {}


def _disc_runs(k: int) -> tuple[tuple[int, int], ...]:
    """((row offset from the centre, half the run's length), ...) of OpenCV's elliptic k x k structuring element
    (each row one run of columns centred on the middle column; cached)."""
    runs = _DISC_RUNS.get(k)
    if runs is None:
        el = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        c = k // 2
        out = []
        for i, row in enumerate(el):
            cols = np.flatnonzero(row)
            if len(cols) == 0:
                continue
            half = c - int(cols[0])
            if int(cols[-1]) != c + half or len(cols) != 2 * half + 1:
                raise ValueError(f"disc_morphology: the {k} x {k} ellipse's row {i} is no run about its centre")
            out.append((i - c, half))
        runs = _DISC_RUNS[k] = tuple(out)
    return runs


def _disc_filter(mask: np.ndarray, runs: tuple[tuple[int, int], ...], dilate: bool) -> np.ndarray:
    """The dilation (``dilate``) or erosion of ``mask`` by the disc of ``runs`` (outside the image: no effect): the
    disc is the union of the rectangles of each run's half length and the rows it reaches (a run is no shorter
    than the runs farther from the centre), so the result is the maximum (minimum) of the image filtered by each
    rectangle, each one cheap row and column pass."""
    filt, pick = (cv2.dilate, np.maximum) if dilate else (cv2.erode, np.minimum)
    reach: dict[int, int] = {}
    for dy, half in runs:
        reach[half] = max(reach.get(half, 0), abs(dy))
    out = None
    for half, rows in reach.items():
        a = filt(mask, np.ones((2 * rows + 1, 2 * half + 1), np.uint8)) if half or rows else mask.copy()
        out = a if out is None else pick(out, a, out=out)
    return mask.copy() if out is None else out
