"""Small helpers on 2-D image arrays that several readers' stages share (numpy + OpenCV only)."""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["Halvings", "disc_morphology", "rotation_canvas", "shift"]


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


class Halvings:
    """The exact halvings of one image (``uint8[H, W]`` or ``uint8[H, W, C]``), each made when first asked for and
    kept: level 0 is the image, level k + 1 is level k with each 2x2 block averaged (OpenCV's integer area path,
    rounded; an odd last row or column is left out), so a pixel of level k covers 2^k x 2^k image px. One is made
    per read by the Roll dice texture test (:func:`vision.roll_dice.texture.table_repeats`) and shared by its per-die
    cuts (:meth:`cut`): one halving of the frame (about 0.3 ms at 1280x720 BGR) in place of an area resize at a
    non-integer factor per die (about 0.4 ms a face's region at 1280x720). Raises ``ValueError`` for an empty
    image."""

    def __init__(self, image: np.ndarray) -> None:
        if image.size == 0 or min(image.shape[:2]) < 1:
            raise ValueError(f"Halvings needs a non-empty image, got shape {image.shape}")
        self._levels = [image]

    @property
    def image(self) -> np.ndarray:
        """Level 0: the image itself."""
        return self._levels[0]

    def level(self, k: int) -> np.ndarray:
        """The image halved ``k`` times (``k`` >= 0), made now if not yet; ``uint8[H >> k, W >> k(, C)]`` (each side
        halved and rounded down ``k`` times). Raises ``ValueError`` for a negative ``k`` or one that would leave a
        side under 1 px."""
        if k < 0 or min(self.image.shape[:2]) >> k < 1:
            raise ValueError(f"no level {k} of a {self.image.shape[1]}x{self.image.shape[0]} px image")
        while len(self._levels) <= k:
            top = self._levels[-1]
            h, w = top.shape[0] // 2, top.shape[1] // 2
            self._levels.append(cv2.resize(top[:2 * h, :2 * w], (w, h), interpolation=cv2.INTER_AREA))
        return self._levels[k]

    def level_for(self, factor: float) -> int:
        """The number of halvings ``k`` a cut at ``factor`` (0 < factor <= 1) starts from: the most with ``factor``
        x 2^k still at most 1 (what is left, in (1/2, 1], is for a bilinear sample), and none past the level where
        a side is 2 px. Raises ``ValueError`` for a factor outside (0, 1]."""
        if not (0.0 < factor <= 1.0):
            raise ValueError(f"a cut's factor must be in (0, 1], got {factor!r}")
        k, side = 0, min(self.image.shape[:2])
        while factor * 2.0 ** (k + 1) <= 1.0 and side >> (k + 1) >= 2:
            k += 1
        return k

    def cut(self, x0: int, y0: int, x1: int, y1: int, factor: float) -> tuple[np.ndarray, float, float, float, float]:
        """The image's box ``[x0, x1) x [y0, y1)`` (image px, clipped to the image) scaled by about ``factor``
        (0 < factor <= 1): the box on level :meth:`level_for` (``factor``), then, when the factor left is under 1,
        one bilinear resize by it. Returns ``(cut, fx, fy, ox, oy)``: ``cut`` ``uint8[h, w(, C)]``, about the box's
        sides x ``factor``; the image point (x, y) (px, pixel centres at integers) lies at ((x - ox) * fx,
        (y - oy) * fy) in ``cut`` (``fx``, ``fy``: the cut's px per image px, ``factor`` up to the rounding of its
        size). Raises ``ValueError`` for a factor outside (0, 1] or a box with nothing of the image in it."""
        k = self.level_for(factor)
        img = self.level(k)
        step = 1 << k
        h, w = img.shape[:2]
        a0, b0 = max(0, int(x0) // step), max(0, int(y0) // step)
        a1, b1 = min(w, -(-int(x1) // step)), min(h, -(-int(y1) // step))
        if a1 <= a0 or b1 <= b0:
            raise ValueError(f"the box ({x0}, {y0})-({x1}, {y1}) holds nothing of the {self.image.shape[1]}x"
                             f"{self.image.shape[0]} px image")
        out = img[b0:b1, a0:a1]
        left = factor * step
        size = (max(1, round(out.shape[1] * left)), max(1, round(out.shape[0] * left)))
        if size != out.shape[1::-1]:
            out = cv2.resize(out, size, interpolation=cv2.INTER_LINEAR)
        # a level-k pixel i is centred on image px (i + 0.5) * step - 0.5; a resize keeps pixel edges in place
        fx, fy = size[0] / ((a1 - a0) * step), size[1] / ((b1 - b0) * step)
        return out, fx, fy, a0 * step - 0.5 + 0.5 / fx, b0 * step - 0.5 + 0.5 / fy


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
