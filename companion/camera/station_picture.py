"""The picture beside a "whose station is this?" question (Among the Stars): the part of the camera's still frame
around the station meant, its outline drawn and the rest of the table dimmed, so the players see which station the box
asks about (a station's words alone, "the Main Reactor with Customs (1 right of the Main Reactor)", fit several).

The picture is made from the frame the station was found on (a still table: no hand over it), once per question and
again only when the station's outline moves (a card built beside it), as a small JPEG: the touchscreen draws it beside
the question and the phones fetch it by the question's id (``GET /picture/station-<id>.jpg``,
:mod:`companion.webreads`), the question's ``picture`` naming its address with the picture's version, so a phone fetches
each picture once.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import cv2
import numpy as np

__all__ = ["JPEG_QUALITY", "MARGIN", "PICTURE_SIDE", "StationPictures", "picture_key", "station_crop",
           "station_jpeg"]

log = logging.getLogger(__name__)

PICTURE_SIDE = 320
"""The picture's longest side, px: whole on a 360 px phone, and on the touchscreen's panel."""
MARGIN = 0.5
"""Table shown around the station, in its cards' long sides: enough to see the neighbours it lies beside."""
JPEG_QUALITY = 80
"""The picture's JPEG quality (0-100): about 15-25 KB at :data:`PICTURE_SIDE`."""
MOVED_PX = 3.0
"""A station whose every card corner lies within this (frame px) of the last picture's keeps that picture (a reader's
corners move a pixel or two from one read to the next)."""
OUTLINE = (0, 215, 255)
"""The outline's colour, BGR (amber, seen on a dark or a light table), with a dark edge each side."""
DIM = 0.4
"""What the table outside the station keeps of its brightness (0..1)."""

Outline = Sequence[Sequence[Sequence[float]]]
"""A station's cards as read: each card four ``(x, y)`` corners, frame px (:attr:`Unclaimed.outline`)."""


def _quads(outline: Outline) -> np.ndarray:
    """``float64[N, 4, 2]`` of ``outline``.

    Raises:
        ValueError: no card, a card not of four (x, y) corners, or a corner not finite.
    """
    try:
        quads = np.asarray(outline, np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"a station's outline is cards of four (x, y) corners, px: {exc}") from exc
    if quads.ndim != 3 or quads.shape[0] == 0 or quads.shape[1:] != (4, 2):
        raise ValueError(f"a station's outline is cards of four (x, y) corners, px; got shape {quads.shape}")
    if not np.isfinite(quads).all():
        raise ValueError("a station's outline holds a corner that is not a finite number")
    return quads


def station_crop(image: np.ndarray, outline: Outline, side: int = PICTURE_SIDE) -> np.ndarray:
    """The station's picture: ``image`` cut to the station with :data:`MARGIN` of table around it, scaled so its
    longest side is ``side`` px (at most twice the frame's own pixels), the table outside the station dimmed to
    :data:`DIM`, the station's outline drawn round its cards and a thinner one round its reactor (the card the
    question names it by).

    Args:
        image: the still frame the station was found on, ``uint8[H, W, 3]`` BGR.
        outline: the station's cards, four corners each, frame px (:attr:`Unclaimed.outline`).
        side: the picture's longest side, px (>= 16).

    Returns:
        ``uint8[h, w, 3]`` BGR, ``max(h, w) <= side``.

    Raises:
        ValueError: ``image`` is not ``uint8[H, W, 3]``, ``side`` is below 16, ``outline`` is not cards of four
            finite corners, or the station lies wholly outside the frame.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3 \
            or min(image.shape[:2]) < 1:
        raise ValueError("a station's picture is cut from a uint8[H, W, 3] BGR frame, got "
                         f"{getattr(image, 'dtype', type(image).__name__)} {getattr(image, 'shape', '')}")
    if int(side) < 16:
        raise ValueError(f"a station's picture is at least 16 px, got {side!r}")
    quads = _quads(outline)
    height, width = image.shape[:2]
    long_side = float(np.median(np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2).max(axis=1)))
    margin = MARGIN * long_side
    low, high = quads.reshape(-1, 2).min(axis=0) - margin, quads.reshape(-1, 2).max(axis=0) + margin
    x0, y0 = max(0, int(np.floor(low[0]))), max(0, int(np.floor(low[1])))
    x1, y1 = min(width, int(np.ceil(high[0]))), min(height, int(np.ceil(high[1])))
    if x1 - x0 < 2 or y1 - y0 < 2:
        raise ValueError(f"the station lies outside the {width}x{height} px frame")
    scale = min(float(side) / max(x1 - x0, y1 - y0), 2.0)
    size = (max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale)))
    crop = cv2.resize(image[y0:y1, x0:x1], size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    points = np.round((quads - (x0, y0)) * scale).astype(np.int32)
    mask = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillPoly(mask, list(points), 255)
    gap = max(3, round(0.12 * long_side * scale)) | 1   # cards laid flush leave a seam or two: one outline round all
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (gap, gap)))
    out = crop.copy()
    outside = mask == 0
    out[outside] = (crop[outside].astype(np.float32) * DIM).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    thick = max(2, round(max(size) / 110))
    cv2.drawContours(out, contours, -1, (20, 20, 20), thick + 4, cv2.LINE_AA)
    cv2.drawContours(out, contours, -1, OUTLINE, thick, cv2.LINE_AA)
    cv2.polylines(out, [points[0]], True, OUTLINE, max(1, thick // 2), cv2.LINE_AA)   # its reactor, named first
    return out


def station_jpeg(image: np.ndarray, outline: Outline, side: int = PICTURE_SIDE) -> bytes:
    """:func:`station_crop` as JPEG bytes (:data:`JPEG_QUALITY`).

    Raises:
        ValueError: as :func:`station_crop`, or the picture cannot be encoded.
    """
    ok, buf = cv2.imencode(".jpg", station_crop(image, outline, side), [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    if not ok:
        raise ValueError("the station's picture could not be encoded as JPEG")
    return buf.tobytes()


def picture_key(qid: int) -> str:
    """The name a question's station picture goes by among the pictures published (``"station-7"``): the phones'
    ``GET /picture/station-7.jpg``."""
    return f"station-{int(qid)}"


class StationPictures:
    """The pictures of the stations asked about, by question id (module doc).

    Args:
        side: each picture's longest side, px.
    """

    def __init__(self, side: int = PICTURE_SIDE) -> None:
        self.side = side
        self._kept: dict[int, tuple[np.ndarray, bytes, str]] = {}   # id -> (outline, JPEG, version)

    def update(self, image: np.ndarray, asked: Mapping[int, Outline], keep: Any = ()) -> None:
        """Make the picture of each question in ``asked`` (its id -> its station's outline, frame px) from ``image``
        (``uint8[H, W, 3]`` BGR, the frame the stations were found on), keeping a picture whose station did not move
        (:data:`MOVED_PX`); the questions ``keep`` (ids: a station hidden on this read) keep the picture they have;
        the pictures of the other questions are forgotten. A picture that cannot be made (a station off the frame, a
        damaged outline) is logged and left out: the question is asked without one."""
        kept: dict[int, tuple[np.ndarray, bytes, str]] = {k: self._kept[k] for k in keep if k in self._kept}
        for qid, outline in asked.items():
            try:
                quads = _quads(outline)
                before = self._kept.get(qid)
                if before is not None and before[0].shape == quads.shape and \
                        float(np.abs(before[0] - quads).max()) <= MOVED_PX:
                    kept[qid] = before
                    continue
                jpeg = station_jpeg(image, quads, self.side)
            except (ValueError, cv2.error) as exc:
                log.warning("no picture for camera question %s: %s", qid, exc)
                continue
            kept[qid] = (quads, jpeg, hashlib.sha1(jpeg, usedforsecurity=False).hexdigest()[:12])
        self._kept = kept

    def url(self, qid: int) -> str | None:
        """Where a phone fetches question ``qid``'s picture (``/picture/station-7.jpg?v=<version>``: a new version
        is a new address, so a phone's cache never shows an old picture), or None: it has none."""
        kept = self._kept.get(qid)
        return None if kept is None else f"/picture/{picture_key(qid)}.jpg?v={kept[2]}"

    def pictures(self, ids: Any = None) -> dict[str, bytes]:
        """``{picture_key(id): JPEG bytes}`` of the questions ``ids`` (None: all kept)."""
        wanted = None if ids is None else set(ids)
        return {picture_key(qid): kept[1] for qid, kept in self._kept.items() if wanted is None or qid in wanted}
