"""Dice beside the map: Eclipse's combat dice are rolled off the sector hexes, and a dice reader shown the whole
table takes the map's artwork for dice (a plain patch of a coloured sector looks like a combat die's blank 1) and,
its size and colour estimates spoilt by them, loses the real dice. :func:`paint_out_map` hides the hexes a hex read
found under the table's own colour; :class:`OffMapDice` reads the dice of a frame so painted.

On the full-table scenes (:func:`vision.synth_full.full_table`: 8 combat dice beside 24 hexes, 1280x720, the
Roll dice reader with an Eclipse profile) the whole frame loses most dice on some tables and reports dozens on the
map; painted out, nearly every die is found and read (``bench/full_table.py --games eclipse``).

A dice reader that can say where on the table something lies (:meth:`vision.readers.RollDiceAdapter.occupied`) reads
only the window beside the map that holds it, at the whole frame's scale: the CNN detector and the reader's other
whole-frame stages then cover the dice and the table round them, not the empty table and the painted map (the dice
found and read are compared with a read of the whole painted frame by ``bench/offmap_dice_ab.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from ..incremental import changes_only, read_changes
from ..timing import timed_stage
from .geometry import _channel_medians
from .layout import HexObservation

__all__ = ["OffMapDice", "map_mask", "paint_out_map"]

#: Each hex's outline is grown by this fraction of its size before painting (its die-cut rim, its shadow).
MAP_MARGIN = 0.06
#: Where the dice reader looks for what lies beside the map (:meth:`OffMapDice.read`), each hex's outline is grown by
#: this fraction of its size: the seams and rims the paint leaves between and round the hexes are no die. A die lying
#: against a hex shows most of itself beyond it (a combat die is about half a hex across).
WINDOW_MAP_MARGIN = 0.15


def _map_polygons(hexes: Sequence[HexObservation], margin: float, scale: float = 1.0,
                  grown: Sequence[np.ndarray] | None = None) -> list[np.ndarray]:
    """int32 polygons (1/16 px fixed point) of the hexes grown by ``margin`` about their centres, times ``scale``
    (``grown``: :func:`_grown_hexes` of them already worked out)."""
    if not hexes:
        return []
    return list(np.round(np.stack(_grown_hexes(hexes, margin) if grown is None else grown) * scale * 16)
                .astype(np.int32))


def _grown_hexes(hexes: Sequence[HexObservation], margin: float) -> list[np.ndarray]:
    """float64[6, 2] frame-px outlines of the hexes grown by ``margin`` of their size about their centres (all hexes
    in one array's steps: the same numbers as hex by hex)."""
    if not hexes:
        return []
    q = np.stack([np.asarray(h.corners, np.float64) for h in hexes])
    c = q.mean(axis=1, keepdims=True)
    return list(c + (q - c) * (1.0 + margin))


def map_mask(shape: tuple[int, ...], hexes: Sequence[HexObservation], margin: float = MAP_MARGIN) -> np.ndarray:
    """uint8[H, W] (255 on the map): every hex of ``hexes`` (corners float[6, 2] frame px) grown by ``margin`` of its
    size about its centre, in a frame of ``shape`` (H, W, ...)."""
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, _map_polygons(hexes, margin), 255, cv2.LINE_8, shift=4)
    return m


def paint_out_map(frame: np.ndarray, hexes: Sequence[HexObservation], margin: float = MAP_MARGIN,
                  within: Sequence[tuple[int, int, int, int]] | None = None) -> np.ndarray:
    """A copy of ``frame`` (uint8[H, W, 3] BGR) with the map (:func:`map_mask`) painted the table's colour: the
    median of a ring of the table around it, from about a hundredth of the frame's size out to five times that,
    sampled every 4th pixel (``frame`` itself when ``hexes`` is empty or no table shows around them).

    ``within``: ``(x, y, w, h)`` frame-px windows, the only part of the copy that will be looked at: only the hexes
    whose grown outline's bounding box meets one are painted (in the same colour, the ring still round the whole
    map: inside the windows the copy is the same to the last bit), and ``frame`` itself is given back when none does.
    None: the whole map."""
    if not hexes:
        return frame
    grown = _grown_hexes(hexes, margin)   # worked out once for the windows, the ring and the paint
    if within is not None:
        boxes = [b for b in within if b[2] > 0 and b[3] > 0]
        meets = [any(q[:, 0].min() - 1 < x + bw and x - 1 < q[:, 0].max() and q[:, 1].min() - 1 < y + bh
                     and y - 1 < q[:, 1].max() for x, y, bw, bh in boxes) for q in grown]
        if not any(meets):
            return frame
    h, w = frame.shape[:2]
    small = np.zeros(((h + 3) // 4, (w + 3) // 4), np.uint8)   # the shape of frame[::4, ::4]
    cv2.fillPoly(small, _map_polygons(hexes, margin, 0.25, grown), 255, cv2.LINE_8, shift=4)
    k = max(1, int(0.0025 * max(h, w)))
    near = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * k + 1, 2 * k + 1)))
    far = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (10 * k + 1, 10 * k + 1)))
    ring = (far > 0) & (near == 0)
    if not ring.any():
        return frame
    # the ring's pixels gathered from the frame: np.median's numbers, from histograms (the ring's flat indices
    # split into rows and columns: a fifth of the cost of np.nonzero on a 2-D mask)
    ys, xs = np.divmod(np.flatnonzero(ring), ring.shape[1])
    colour = _channel_medians(np.take(frame.reshape(-1, 3), (ys * 4) * w + xs * 4, axis=0))
    out = frame.copy()
    polys = _map_polygons(hexes, margin, grown=grown)
    if within is not None:
        polys = [p for p, m in zip(polys, meets, strict=True) if m]
    cv2.fillPoly(out, polys, tuple(float(v) for v in colour), cv2.LINE_8, shift=4)
    return out


@dataclass(frozen=True, eq=False)
class OffMapDice:
    """A dice reader (a :class:`vision.Reader` such as :class:`vision.readers.RollDiceAdapter`) that reads only the
    table around the map: each read takes the sector hexes of the same frame (a hex read's
    :attr:`vision.Sighting.hexes`) and reads the frame with them painted out (:func:`paint_out_map`, timed as
    ``paint_map``). Eclipse, Combat: the combat dice are rolled beside the map.

    Attributes:
        dice: the dice reader.
    """

    dice: Any

    @property
    def name(self) -> str:
        """The dice reader's name."""
        return self.dice.name

    def read(self, frame: np.ndarray, hexes: Sequence[HexObservation] = ()) -> Any:
        """The dice reader's :class:`vision.Sighting` of ``frame`` (uint8[H, W, 3] BGR) with ``hexes`` painted out.

        With a map painted out and a dice reader that can say where on the table something lies (``occupied(frame)``
        -> an ``(x, y, w, h)`` frame-px window or None, and ``read(frame, window=...)``: :class:`vision.readers.
        RollDiceAdapter`), only that window is read (timed as ``window``), at the whole frame's scale: the detector
        and the reader's whole-frame stages see the dice beside the map, not the table round them. No map, no such
        reader, or no window (nothing found, or most of the frame): the whole frame is read. Raises
        :class:`vision.BadFrame` for a bad frame."""
        painted, ms = self._paint(frame, hexes)
        occupied = getattr(self.dice, "occupied", None)
        if hexes and occupied is not None and painted is not frame:
            t: dict[str, float] = {}
            window = timed_stage(t, "window", occupied, painted, _grown_hexes(hexes, WINDOW_MAP_MARGIN))
            s = self.dice.read(painted, window=window)
            return replace(s, timings_ms={"paint_map": ms, **t, **s.timings_ms})
        s = self.dice.read(painted)
        return replace(s, timings_ms={"paint_map": ms, **s.timings_ms})

    def read_changes(self, frame: np.ndarray, previous: Any, boxes: list, hexes: Sequence[HexObservation] = ()) -> Any:
        """:func:`vision.incremental.read_changes` of the dice reader (``boxes``: (x, y, w, h) frame px that changed
        since ``previous``, None: unknown) on ``frame`` with ``hexes`` painted out. Raises :class:`vision.BadFrame`
        for a bad frame.

        Where that is a full read (no previous sighting of a frame this size, changes unknown, or windows round them
        over most of the frame: :func:`vision.incremental.changes_only`), it is :meth:`read`'s, in the window beside
        the map. A dice reader that names the windows it reads (``change_windows(frame_shape, previous, boxes)``,
        :meth:`vision.readers.RollDiceAdapter.change_windows`) is given a frame with only the hexes in reach of them
        painted (none: the frame itself), the same to the last bit there (:func:`paint_out_map`'s ``within``)."""
        if isinstance(frame, np.ndarray) and frame.ndim == 3 and (
                previous is None or boxes is None
                or (tuple(previous.frame_size) == (int(frame.shape[1]), int(frame.shape[0]))
                    and not changes_only(frame.shape, previous, boxes))):
            return self.read(frame, hexes)
        reach = getattr(self.dice, "change_windows", None)
        within = None if reach is None or not isinstance(frame, np.ndarray) else reach(frame.shape, previous, boxes)
        painted, ms = self._paint(frame, hexes, within)
        s = read_changes(self.dice, painted, previous, boxes)
        return replace(s, timings_ms={"paint_map": ms, **s.timings_ms})

    @staticmethod
    def _paint(frame: np.ndarray, hexes: Sequence[HexObservation],
               within: Sequence[tuple[int, int, int, int]] | None = None) -> tuple[np.ndarray, float]:
        # timed by the readers' stage clock (vision.timing), as every other stage of the read
        t: dict[str, float] = {}
        painted = timed_stage(t, "paint_map", lambda: paint_out_map(frame, hexes, within=within)
                              if isinstance(frame, np.ndarray) and frame.ndim == 3 else frame)
        return painted, t["paint_map"]
