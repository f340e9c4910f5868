"""Which faces of a Roll dice read are worth cutting and matching, by what the caller knows of the table: where it
wants dice and the print an identified tile explains (:class:`Kept`), and the print where it reports no die, that still
counts in the die-size search and the light (a calibration marker with its paper: :class:`Aside`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..timing import timed_stage
from .tops import rect_box

Boxes = Callable[[list[tuple[int, int, int, int]]], Sequence[bool]]

WANTED_REACH = 0.25
"""A window's candidate is cut into a top face where its caller wants a face at its centre or this fraction of its side
from it along either axis (:meth:`Kept.candidates`): a top face's centre, refined from its candidate's, moves less."""


@dataclass(frozen=True)
class Kept:
    """Which faces of a read (a window at ``offset``, frame px; a whole frame at (0, 0)) are worth a face match:
    those centred where ``wanted(x, y)`` (frame px; None: anywhere) and not ``explained`` (``explained(boxes)``: per
    ``(x, y, w, h)`` frame-px box, whether something the caller knows explains it, the printed art of an identified
    tile under it; None: none is). The art is asked of the candidates first (:meth:`candidates`, timed as
    ``art_candidates``): a candidate the art explains gets no top face, so a tile's printed squares cost no top-face
    cut, size fit or ink map; then of the top faces cut from the others (:meth:`tops`, timed as ``art_tops``): a
    candidate refined onto the art is dropped there. ``wanted`` is asked of the candidates (with some reach,
    :meth:`candidates`: a die of the last read beside a change gets no top face) and of the top faces."""

    wanted: Callable[[float, float], bool] | None
    explained: Boxes | None
    offset: tuple[int, int]
    timings: dict[str, float]

    def piles(self, rects: np.ndarray) -> np.ndarray:
        """``bool[P]``: the piles (cores of two dice areas or more, their rects ``float[P, 5]`` window px) the art
        does not explain, split into candidates (:func:`vision.roll_dice.candidates.find_candidates`; a tile's print
        cut into large flat cores costs no k-means); timed within the stage ``candidates``."""
        return self._unexplained(rects, np.ones(len(rects), bool), None)

    def candidates(self, rects: np.ndarray) -> np.ndarray:
        """``bool[N]``: the candidates (rects ``float[N, 5]`` window px) that could be wanted, and that the art does
        not explain. A candidate could be wanted where ``wanted`` holds at its centre or a quarter of its side from it
        along either axis (:data:`WANTED_REACH`: its top face's centre, refined, moves less than that); the others (a
        die of the last read beside a change, that did not move) cost no top face."""
        keep = np.ones(len(rects), bool)
        if self.wanted is not None and len(rects):
            x0, y0 = self.offset
            reach = np.sqrt(np.abs(rects[:, 2] * rects[:, 3])) * WANTED_REACH
            keep = np.array([any(self.wanted(float(cx) + x0 + dx * r, float(cy) + y0 + dy * r)
                                 for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)))
                             for (cx, cy), r in zip(rects[:, :2], reach, strict=True)], bool).reshape(-1)
        return self._unexplained(rects, keep, "art_candidates")

    def tops(self, rects: np.ndarray) -> np.ndarray:
        """``bool[N]``: the top faces (rects ``float[N, 5]`` window px) centred where wanted and not explained."""
        x0, y0 = self.offset
        keep = np.ones(len(rects), bool)
        if self.wanted is not None:
            keep = np.array([bool(self.wanted(float(cx) + x0, float(cy) + y0)) for cx, cy in rects[:, :2]],
                            bool).reshape(-1)
        return self._unexplained(rects, keep, "art_tops")

    def _unexplained(self, rects: np.ndarray, keep: np.ndarray, name: str | None) -> np.ndarray:
        """``keep`` (``bool[N]``) less the rects of it ``explained`` explains (their frame-px bounding boxes), the
        check timed as ``name`` (None: not timed apart)."""
        idx = np.flatnonzero(keep)
        if self.explained is not None and len(idx):
            x0, y0 = self.offset

            def check() -> None:
                boxes = [(b[0] + x0, b[1] + y0, b[2], b[3]) for b in (rect_box(rects[i]) for i in idx)]
                keep[idx[np.asarray(self.explained(boxes), bool).reshape(-1)]] = False

            if name is None:
                check()
            else:
                timed_stage(self.timings, name, check)
        return keep


@dataclass(frozen=True)
class Aside:
    """The faces a full read sets aside once its die size is chosen (a window at ``offset``, frame px; a whole frame at
    (0, 0)): ``aside(boxes)``, per ``(x, y, w, h)`` frame-px box (a candidate's or top face's rotated rect's bounding
    box), whether it lies on print where the caller reports no die (a calibration marker with its paper,
    :meth:`vision.readers.RollDiceAdapter.read`). Such faces still vote in the die-size search, and the faces found at
    the size chosen stay in the read (they weigh in the light estimate and beside their neighbours as before); only the
    faces the recut would add there after the choice (:meth:`vision.roll_dice.RollDiceReader._recut`: a marker's
    squares cut again at the colour edges, which it would match at three scales and drop at the end) are neither cut
    nor matched; and in a read at a die size known (not searched), no face it sets aside is looked at again around its
    place when it matches poorly (the face match's second look, :meth:`vision.roll_dice.RollDiceReader._match`: a
    marker's black squares match a symbol poorly, and a second look costs each about 2 ms CPU; a search looks at
    them again, as they vote in it). Timed as the stage ``aside``."""

    aside: Boxes
    offset: tuple[int, int]
    timings: dict[str, float]

    def kept(self, rects: np.ndarray) -> np.ndarray:
        """``bool[N]``: the rects (``float[N, 5]`` window px) not set aside. Raises whatever ``aside`` raises."""
        keep = np.ones(len(rects), bool)
        if len(rects):
            x0, y0 = self.offset

            def check() -> None:
                boxes = [(b[0] + x0, b[1] + y0, b[2], b[3]) for b in (rect_box(r) for r in rects)]
                keep[np.asarray(self.aside(boxes), bool).reshape(-1)] = False

            timed_stage(self.timings, "aside", check)
        return keep
