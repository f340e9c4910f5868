"""Is a candidate the table's own texture? Used by the Roll dice reader (stage ``texture``,
:func:`vision.roll_dice.not_dice._not_texture`).

A patterned table repeats itself: a gingham's white check has its like one check period away, a printed playmat's
square of art or a board's numbered box has its twin along its row. A die does not: its top face, with its symbol at
its own turn, its shade and its edges, recurs nowhere on the table (a die alike beside it is another die, not the
table). :func:`table_repeats` looks, round each face, for copies of the face's own upright box in colour on the table
within ``texture_reach`` sides, leaving out the shifts that land on another die the read reports, and takes its
``texture_copies``-th best copy: the cloth's check has its like on every side, so one lying against a die (whose
window on that side holds the die) still has copies on its other sides; a die with one twin beside it that the read
missed (two dice alike, side by side) has one copy only. The pattern test of the size search
(:func:`vision.roll_dice.shape.pattern_axes`) asks more, a window a third larger than the face recurring both ways
along one axis and along a second one, which a check beside a die never shows. Colour, not grey: a coloured die and
the cloth's check of its grey differ.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..raster import Halvings
from .config import RollDiceConfig
from .tops import rect_box

__all__ = ["table_repeats"]


def table_repeats(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig, todo: np.ndarray | None = None,
                  dice: np.ndarray | None = None) -> np.ndarray:
    """How plainly each top face recurs on the table round it, ``float[N]`` (the best normalised correlation,
    -1..1; -1 where not measured).

    Each face's upright bounding box (:func:`vision.roll_dice.tops.rect_box`), in BGR, scaled so its side is
    ``texture_side`` px, is matched (``cv2.matchTemplate``, ``TM_CCOEFF_NORMED``) over the frame within
    ``texture_reach`` of its sides, at the shifts of at least ``texture_min_shift`` sides (not the face itself) that
    do not land within ``texture_apart`` sides of another face of ``dice``; the figure is its ``texture_copies``-th best
    copy, the copies at least ``texture_min_shift`` sides apart (a lattice has many; a die's twin is one).
    The region round a face is scaled by cutting it from the frame's exact halvings, made once a call
    (:meth:`vision.raster.Halvings.cut`: a level's 2x2-averaged blocks, then one bilinear resize by the factor left,
    in (1/2, 1]), not by an area resize from the frame at a new non-integer factor per face.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        config: ``texture_side``, ``texture_reach``, ``texture_min_shift``, ``texture_apart``, ``texture_copies``.
        todo: ``bool[N]``, the faces to measure; default all.
        dice: ``bool[N]``, the faces that are dice of the read (their places are no table); default ``todo``.

    Returns ``float[N]``: -1 for a face not measured, one the frame cuts (its box not wholly inside the frame), one
    flat in colour (no texture to recur) or one with fewer copies. Raises nothing.
    """
    n = len(rects)
    out = np.full(n, -1.0)
    if n == 0:
        return out
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool)
    dice = todo if dice is None else np.asarray(dice, bool)
    boxes = np.zeros((n, 4), np.float64)
    for j in np.flatnonzero(todo | dice):                # only the faces measured or left out have a place
        boxes[j] = rect_box(rects[j])
    centres = boxes[:, :2] + boxes[:, 2:] / 2.0
    sides = np.sqrt(np.maximum(boxes[:, 2] * boxes[:, 3], 1.0))
    fh, fw = frame.shape[:2]
    px = float(config.texture_side)
    min_shift = config.texture_min_shift * px
    apart = config.texture_apart * px
    halves = Halvings(frame)                             # each level made when a face's cut first needs it
    for i in np.flatnonzero(todo):
        s = sides[i]
        f = px / s
        reach = int((config.texture_reach + 1.0) * s) + 4
        cx, cy = centres[i]
        x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
        x1, y1 = int(min(fw, cx + reach)), int(min(fh, cy + reach))
        if f < 1.0 and x1 > x0 and y1 > y0:            # a level's 2x2-averaged blocks, then one bilinear resize
            region, fx, fy, ox, oy = halves.cut(x0, y0, x1, y1, f)
            mx, my = (cx - ox) * fx, (cy - oy) * fy      # the face's middle in the scaled region
        else:
            region = cv2.resize(frame[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            mx, my = (cx - x0) * f, (cy - y0) * f          # the face's middle in the scaled region
        half = int(round(0.5 * px))
        tx0, ty0 = int(round(mx)) - half, int(round(my)) - half
        tx1, ty1 = tx0 + 2 * half + 1, ty0 + 2 * half + 1
        if tx0 < 0 or ty0 < 0 or tx1 > region.shape[1] or ty1 > region.shape[0]:
            continue
        window = region[ty0:ty1, tx0:tx1]
        if float(window.std()) < 1.0:
            continue
        res = cv2.matchTemplate(region, window, cv2.TM_CCOEFF_NORMED)
        dx = np.arange(res.shape[1], dtype=np.int64) - tx0   # each column's and row's shift from the face, scaled px
        dy = np.arange(res.shape[0], dtype=np.int64) - ty0
        reach_px = float(np.hypot(max(abs(dx[0]), abs(dx[-1])), max(abs(dy[0]), abs(dy[-1]))))   # the farthest shift
        ok = np.ones(res.shape, bool)
        _clear_disc(ok, dx, dy, 0.0, 0.0, min_shift)   # not the face itself
        others = dice.copy()
        others[i] = False
        off = (centres[others] - centres[i]) * f        # the other dice, scaled px from the face
        for ox, oy in off[np.hypot(off[:, 0], off[:, 1]) < reach_px + apart]:   # those within reach
            _clear_disc(ok, dx, dy, ox, oy, apart)
        out[i] = _nth_copy(np.where(ok, np.fmax(res, -1.0), -1.0), dx, dy, min_shift, int(config.texture_copies))
    return out


def _clear_disc(mask: np.ndarray, dx: np.ndarray, dy: np.ndarray, ox: float, oy: float, radius: float) -> None:
    """Set ``False`` in ``mask`` (``bool[h, w]``, its columns at shifts ``dx`` ``int[w]``, its rows at ``dy``
    ``int[h]``, px) every shift less than ``radius`` px from (``ox``, ``oy``); only the rows and columns within
    ``radius`` + 1 of it are measured (the others lie farther). In place; raises nothing."""
    cols = np.flatnonzero(np.abs(dx - ox) < radius + 1.0)
    rows = np.flatnonzero(np.abs(dy - oy) < radius + 1.0)
    if len(cols) == 0 or len(rows) == 0:
        return
    c0, c1, r0, r1 = cols[0], cols[-1] + 1, rows[0], rows[-1] + 1
    mask[r0:r1, c0:c1] &= np.hypot(dx[None, c0:c1] - ox, dy[r0:r1, None] - oy) >= radius


def _nth_copy(res: np.ndarray, dx: np.ndarray, dy: np.ndarray, apart: float, n: int) -> float:
    """The match of the ``n``-th best copy on a match map ``res`` (``float[h, w]``, -1 where no copy may lie; its
    columns at shifts ``dx`` ``int[w]``, its rows at ``dy`` ``int[h]``, px), each copy taken at the best shift at
    least ``apart`` px from every copy taken before (a copy is one place, however many shifts about it match); -1
    when there are fewer than ``n``."""
    res = res.copy()
    got = -1.0
    n = max(1, n)
    for k in range(n):
        j = int(res.argmax())
        got = float(res.flat[j])
        if got <= -1.0:
            return -1.0
        if k + 1 < n:                                   # the last copy leaves nothing to clear
            r, c = divmod(j, res.shape[1])
            mask = np.ones(res.shape, bool)
            _clear_disc(mask, dx, dy, float(dx[c]), float(dy[r]), apart)
            res[~mask] = -1.0
    return got
