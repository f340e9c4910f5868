"""Incremental reads: after one change, read again only where the table changed.

The stillness detector knows what changed since the last read (:meth:`vision.motion.StillnessDetector.
change_boxes`, :func:`vision.motion.change_boxes`). :func:`read_changes` gives a reader the previous
:class:`vision.Sighting` and those boxes: every die, card, tile and hex whose place did not change keeps its
observation as it was (identity, position, confidence); only windows around the changed boxes are read
again, at the scale a full read would use, and the new observations inside the changes join the kept ones
(cards and hexes are laid out again as a whole: rows, columns, cells and axial coordinates depend on all).

A reader takes part by answering :class:`IncrementalReader` (``read_changes(frame, previous, boxes)``); the
adapters of :mod:`vision.readers` all do. Any other reader, no previous sighting, no boxes (None: the
detector has nothing to compare with) or a change over ``max_area_fraction`` of the frame gets a full read.

    boxes = stillness.change_boxes()            # on the update that became_still
    sighting = read_changes(reader, frame, last_sighting, boxes)

Helpers shared by the readers' own ``read_changes``: :func:`grow`, :func:`windows`, :func:`clip_box`,
:func:`touches`, :func:`covered`, :func:`inside_any`, :func:`joins`, :func:`window_reads`,
:func:`recheck_markers`. Boxes are ``(x, y, w, h)`` in frame pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

import cv2
import numpy as np

from .observations import Reader, Sighting
from .table import MarkerCheck, TableCalibration, TableConfig, check_markers
from .timing import timed_stage

__all__ = ["Box", "ChangeConfig", "IncrementalReader", "changes_only", "clip_box", "covered", "grow", "inside_any",
           "joins", "piece_sized", "read_changes", "recheck_markers", "touches", "window_reads", "windows"]

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class ChangeConfig:
    """When a change is read in windows.

    Attributes:
        max_area_fraction: when the windows around the changes cover more than this fraction of the frame,
            one full read costs less than the windows (and sees the table as a whole).
    """

    max_area_fraction: float = 0.4


@runtime_checkable
class IncrementalReader(Reader, Protocol):
    """A :class:`vision.Reader` that can read only the changed part of a frame."""

    def read_changes(self, frame: np.ndarray, previous: Sighting, boxes: Sequence[Box]) -> Sighting:
        """The sighting of ``frame``: ``previous``'s observations outside ``boxes`` kept, the inside read again.

        ``boxes`` is not empty; the reader chooses its windows (:func:`windows`) by the size of what it reads.
        """
        ...


def grow(box: Box, pad: float, frame_shape: tuple[int, ...]) -> Box:
    """``box`` grown by ``pad`` px on every side, clipped to the frame (``frame_shape`` = (H, W, ...))."""
    h, w = frame_shape[:2]
    x, y, bw, bh = box
    x0, y0 = max(0, int(np.floor(x - pad))), max(0, int(np.floor(y - pad)))
    x1, y1 = min(w, int(np.ceil(x + bw + pad))), min(h, int(np.ceil(y + bh + pad)))
    return x0, y0, max(0, x1 - x0), max(0, y1 - y0)


def windows(boxes: Sequence[Box], pad: float, frame_shape: tuple[int, ...]) -> list[Box]:
    """The windows to read: each box grown by ``pad`` (clipped to the frame), overlapping ones merged into
    their bounding box until none overlap."""
    out = [grow(b, pad, frame_shape) for b in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                if _overlap(out[i], out[j]):
                    a, b = out[i], out[j]
                    x0, y0 = min(a[0], b[0]), min(a[1], b[1])
                    x1, y1 = max(a[0] + a[2], b[0] + b[2]), max(a[1] + a[3], b[1] + b[3])
                    out[i] = (x0, y0, x1 - x0, y1 - y0)
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def touches(shape: np.ndarray | Box, boxes: Sequence[Box]) -> bool:
    """Whether an observation (a ``float[K, 2]`` polygon in frame px, or an ``(x, y, w, h)`` box) overlaps
    any of ``boxes`` (by bounding boxes: an observation next to a change counts as changed)."""
    if isinstance(shape, tuple):
        b = shape
    else:
        p = np.asarray(shape, np.float64).reshape(-1, 2)
        lo, hi = p.min(axis=0), p.max(axis=0)
        b = (float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1]))
    return any(_overlap(b, c) for c in boxes)


def covered(corners: np.ndarray, boxes: Sequence[Box]) -> float:
    """The fraction of a piece's area that ``boxes`` (``(x, y, w, h)`` frame px) cover: ``corners`` float[K, 2] frame
    px, the outline of a card (K = 4) or a hex (K = 6) in any order (its convex hull is taken). Overlaps of the boxes
    are each counted; at most 1; 1 for a degenerate outline (no area)."""
    poly = cv2.convexHull(np.asarray(corners, np.float32).reshape(-1, 1, 2))
    area = float(cv2.contourArea(poly))
    if area <= 0:
        return 1.0
    inter = 0.0
    for x, y, w, h in boxes:
        box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32).reshape(-1, 1, 2)
        inter += float(cv2.intersectConvexConvex(poly, box)[0])
    return min(1.0, inter / area)


def piece_sized(boxes: Sequence[Box], least_width: float) -> list[Box]:
    """The changed boxes (``(x, y, w, h)`` frame px) at least ``least_width`` px wide both ways: what a piece whose
    narrowest width is ``least_width`` (a card's short side, a hex's flat width) changes when it comes, goes or
    moves, since its bounding box at any turn is at least that wide every way. A Roll die rolled or laid on a
    tile changes a box narrower one way at least (a die turned 45 degrees, with its shadow and the stillness
    detector's margins, is about 0.9 of a tile's side), even when it rolled a few sides along; an Eclipse combat
    die rolled a few sides along can change a box wider than a hex both ways, and the hexes it touches are read
    again."""
    return [b for b in boxes if min(b[2], b[3]) >= least_width]


def inside_any(point: Sequence[float], boxes: Sequence[Box]) -> bool:
    """Whether ``point`` (x, y px) lies in one of ``boxes``."""
    x, y = float(point[0]), float(point[1])
    return any(bx <= x <= bx + bw and by <= y <= by + bh for bx, by, bw, bh in boxes)


def joins(poly: np.ndarray, window: Box, frame_shape: tuple[int, ...], near: Sequence[Box],
          taken: Sequence[np.ndarray]) -> np.ndarray | None:
    """An observation found in a window, in frame px (``float[K, 2]``), when it joins the read: its centre
    lies in one of ``near`` (the changed boxes, grown), the window's edge does not cut it (unless that edge
    is the frame's), and its centre is on none of the ``taken`` polygons (frame px); else None.

    ``poly``: its ``float[K, 2]`` corners in window px; ``window``: ``(x, y, w, h)`` in the frame."""
    x, y, ww, hh = window
    h, w = frame_shape[:2]
    p = np.asarray(poly, np.float64)
    if ((x > 0 and p[:, 0].min() < 2) or (y > 0 and p[:, 1].min() < 2)
            or (x + ww < w and p[:, 0].max() > ww - 3) or (y + hh < h and p[:, 1].max() > hh - 3)):
        return None
    q = p + np.array([x, y], np.float64)
    c = q.mean(axis=0)
    if not inside_any(c, near):
        return None
    pt = (float(c[0]), float(c[1]))
    if any(cv2.pointPolygonTest(np.asarray(t, np.float32).reshape(-1, 1, 2), pt, False) >= 0 for t in taken):
        return None
    return q


def clip_box(box: Box, frame_shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)`` of ``box`` clipped to the frame (``frame_shape`` = (H, W, ...)), or None when
    nothing of it is left."""
    h, w = frame_shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, int(box[0] + box[2])), min(h, int(box[1] + box[3]))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def window_reads(frame_shape: tuple[int, ...], changed: Sequence[Box], pad: float, near: Sequence[Box],
                 taken: list[np.ndarray], read) -> tuple[list[tuple[object, np.ndarray]], dict[str, float]]:
    """Read each window around ``changed`` (grown by ``pad`` px, :func:`windows`) with ``read(x, y, w, h,
    keep)`` -> (observations with ``.corners`` in window px, their stage timings ms), where ``keep(corners)``
    tells the reader which of what it finds will be used (so it identifies no neighbour cut by the window's
    edge); returns the observations that :func:`joins` the read (``near``: the boxes their centre must lie
    in; ``taken``: frame-px polygons already read, each joining one added), each with its frame-px corners,
    and the timings summed."""
    out: list[tuple[object, np.ndarray]] = []
    t: dict[str, float] = {}
    for win in windows(changed, pad, frame_shape):
        found, timings = read(*win, lambda poly, win=win: joins(poly, win, frame_shape, near, taken) is not None)
        for k, v in timings.items():
            t[k] = t.get(k, 0.0) + v
        for o in found:
            q = joins(o.corners, win, frame_shape, near, taken)
            if q is not None:
                taken.append(q)
                out.append((o, q))
    return out, t


def recheck_markers(frame: np.ndarray, calibration: TableCalibration | None, changed: Sequence[Box],
                    markers: MarkerCheck | None, config: TableConfig, check_moved: bool,
                    timings: dict[str, float]) -> MarkerCheck | None:
    """The marker check after a change: the last one (``markers``) unless a change touches a marker seen at
    calibration or there was none (then :func:`vision.table.check_markers`, timed as ``"markers"``); None
    without a calibration or with ``check_moved`` off."""
    if calibration is None or not check_moved:
        return None
    if markers is None or any(touches(m, changed) for m in calibration.markers_px.values()):
        return timed_stage(timings, "markers", check_markers, frame, calibration, config)
    return markers


def read_changes(reader: Reader, frame: np.ndarray, previous: Sighting | None, boxes: Sequence[Box] | None,
                 config: ChangeConfig | None = None) -> Sighting:
    """The sighting of ``frame`` after a change: only the changed part read again where that pays.

    Args:
        reader: any :class:`vision.Reader`; an :class:`IncrementalReader` reads the changes only.
        frame: ``uint8[H, W, 3]`` BGR, the settled frame after the change.
        previous: the reader's sighting of the frame the changes are counted from (the last read), or None.
        boxes: ``(x, y, w, h)`` frame-px boxes of what changed since then; ``[]``: nothing changed (the
            previous sighting is returned with no stage timed); None: unknown (a full read).
        config: when a full read is cheaper.

    Returns:
        The :class:`vision.Sighting`; its ``timings_ms`` are the windows' stages (``"unchanged"`` 0 ms when
        nothing changed).

    Raises:
        vision.BadFrame: ``frame`` is not a ``uint8[H, W, 3]`` array (raised by the reader).
        ValueError: ``previous`` was seen on a frame of another size.
    """
    if previous is None or boxes is None or not isinstance(reader, IncrementalReader):
        return reader.read(frame)
    if tuple(previous.frame_size) != (int(frame.shape[1]), int(frame.shape[0])):
        raise ValueError(f"the previous sighting is of a {previous.width}x{previous.height} frame, this frame is "
                         f"{frame.shape[1]}x{frame.shape[0]}")
    if not boxes:
        return replace(previous, timings_ms={"unchanged": 0.0})
    if not changes_only(frame.shape, previous, boxes, config):
        return reader.read(frame)
    return reader.read_changes(frame, previous, list(boxes))


def changes_only(frame_shape: tuple[int, ...], previous: Sighting | None, boxes: Sequence[Box] | None,
                 config: ChangeConfig | None = None) -> bool:
    """Whether :func:`read_changes` of an :class:`IncrementalReader` reads no more than the changes of a frame of
    ``frame_shape`` (``(H, W, ...)``): there is a ``previous`` sighting of a frame that size and ``boxes`` (``(x, y,
    w, h)`` frame px; ``[]``: nothing changed) whose windows cover at most ``max_area_fraction`` of the frame."""
    cfg = config or ChangeConfig()
    if previous is None or boxes is None or tuple(previous.frame_size) != (int(frame_shape[1]), int(frame_shape[0])):
        return False
    area = sum(b[2] * b[3] for b in windows(boxes, 0.0, frame_shape))
    return area <= cfg.max_area_fraction * frame_shape[0] * frame_shape[1]
