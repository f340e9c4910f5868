"""Dice beside the map: Eclipse's combat dice are rolled off the sector hexes, and a dice reader shown the whole
table takes the map's artwork for dice (a plain patch of a coloured sector looks like a combat die's blank 1) and,
its size and colour estimates spoilt by them, loses the real dice. :func:`paint_out_map` hides the hexes a hex read
found under the table's own colour; :class:`OffMapDice` reads the dice of a frame so painted.

On the full-table scenes (:func:`vision.synth_full.full_table`: 8 combat dice beside 24 hexes, 1280x720, the
Roll dice reader with an Eclipse profile) the whole frame loses most dice on some tables and reports dozens on the
map; painted out, nearly every die is found and read (``bench/full_table.py --games eclipse``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from ..incremental import read_changes
from ..timing import timed_stage
from .layout import HexObservation

__all__ = ["OffMapDice", "map_mask", "paint_out_map"]

#: Each hex's outline is grown by this fraction of its size before painting (its die-cut rim, its shadow).
MAP_MARGIN = 0.06


def _map_polygons(hexes: Sequence[HexObservation], margin: float, scale: float = 1.0) -> list[np.ndarray]:
    """int32 polygons (1/16 px fixed point) of the hexes grown by ``margin`` about their centres, times ``scale``."""
    out = []
    for h in hexes:
        q = np.asarray(h.corners, np.float64)
        c = q.mean(axis=0)
        out.append(np.round((c + (q - c) * (1.0 + margin)) * scale * 16).astype(np.int32))
    return out


def map_mask(shape: tuple[int, ...], hexes: Sequence[HexObservation], margin: float = MAP_MARGIN) -> np.ndarray:
    """uint8[H, W] (255 on the map): every hex of ``hexes`` (corners float[6, 2] frame px) grown by ``margin`` of its
    size about its centre, in a frame of ``shape`` (H, W, ...)."""
    m = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(m, _map_polygons(hexes, margin), 255, cv2.LINE_8, shift=4)
    return m


def paint_out_map(frame: np.ndarray, hexes: Sequence[HexObservation], margin: float = MAP_MARGIN) -> np.ndarray:
    """A copy of ``frame`` (uint8[H, W, 3] BGR) with the map (:func:`map_mask`) painted the table's colour: the
    median of a ring of the table around it, from about a hundredth of the frame's size out to five times that,
    sampled every 4th pixel (``frame`` itself when ``hexes`` is empty or no table shows around them)."""
    if not hexes:
        return frame
    h, w = frame.shape[:2]
    small = np.zeros(((h + 3) // 4, (w + 3) // 4), np.uint8)   # the shape of frame[::4, ::4]
    cv2.fillPoly(small, _map_polygons(hexes, margin, 0.25), 255, cv2.LINE_8, shift=4)
    k = max(1, int(0.0025 * max(h, w)))
    near = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * k + 1, 2 * k + 1)))
    far = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (10 * k + 1, 10 * k + 1)))
    ring = (far > 0) & (near == 0)
    if not ring.any():
        return frame
    colour = np.median(frame[::4, ::4][ring], axis=0)
    out = frame.copy()
    cv2.fillPoly(out, _map_polygons(hexes, margin), tuple(float(v) for v in colour), cv2.LINE_8, shift=4)
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
        Raises :class:`vision.BadFrame` for a bad frame."""
        painted, ms = self._paint(frame, hexes)
        s = self.dice.read(painted)
        return replace(s, timings_ms={"paint_map": ms, **s.timings_ms})

    def read_changes(self, frame: np.ndarray, previous: Any, boxes: list, hexes: Sequence[HexObservation] = ()) -> Any:
        """:func:`vision.incremental.read_changes` of the dice reader (``boxes``: (x, y, w, h) frame px that changed
        since ``previous``, None: unknown) on ``frame`` with ``hexes`` painted out. Raises :class:`vision.BadFrame`
        for a bad frame."""
        painted, ms = self._paint(frame, hexes)
        s = read_changes(self.dice, painted, previous, boxes)
        return replace(s, timings_ms={"paint_map": ms, **s.timings_ms})

    @staticmethod
    def _paint(frame: np.ndarray, hexes: Sequence[HexObservation]) -> tuple[np.ndarray, float]:
        # timed by the readers' stage clock (vision.timing), as every other stage of the read
        t: dict[str, float] = {}
        painted = timed_stage(t, "paint_map", lambda: paint_out_map(frame, hexes)
                              if isinstance(frame, np.ndarray) and frame.ndim == 3 else frame)
        return painted, t["paint_map"]
