"""A card's size in pixels from the frame's own outlines, for a table read without a calibration.

Without a calibration the card reader learns the card's size from blobs that look like one card on their own
(:func:`vision.card_detect.card_size_estimate`). On a table where every card touches another (an Among the Stars
station, a tableau laid edge to edge) there is none, or the only blobs shaped like a card are whole blocks of
cards (two by three cards have nearly a card's aspect and fill their outline), and a size taken from them splits
every station on the wrong grid: the cards are cut across and read as other cards.

The edges between touching cards are long straight lines a card's side apart. :func:`card_pitch` turns each blob
upright (its dominant gradient direction), sums its vertical and horizontal edge ridges along each axis, and
finds the spacing at which those profiles repeat (their autocorrelation, summed over the blobs by area): for the
deck's aspect, the card's short side is the spacing ``s`` where the profiles repeat at ``s`` along one axis and
``s * aspect`` along the other. Art inside a card makes short edges that do not line up from card to card.

Units: pixels of the image the blobs are in (the detector's work image).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from .card_split import _upright_edges, dominant_angle

__all__ = ["card_pitch", "choose_card_size"]


def _repeats(profile: np.ndarray, max_lag: int) -> np.ndarray:
    """float64[max_lag + 1]: autocorrelation of ``profile`` (float[N], edge strength summed along one axis) at lags
    0..max_lag, of its peaks above a 9-px running mean (the slow rise and fall of a blob's edges left out),
    divided by its value at lag 0 (0 where undefined, and beyond the profile's length)."""
    p = profile.astype(np.float64)
    if p.size > 9:
        p = np.maximum(p - cv2.blur(p.reshape(1, -1), (9, 1)).ravel(), 0.0)
    full = np.correlate(p, p, mode="full")[p.size - 1:]          # lags 0 .. N-1
    out = np.zeros(max_lag + 1)
    k = min(max_lag + 1, full.size)
    out[:k] = full[:k]
    return out / out[0] if out[0] > 0 else out


def card_pitch(img: np.ndarray, blobs: Sequence[Any], aspect: float, min_side: float,
               max_blobs: int = 12) -> float | None:
    """The card's short side in px (the spacing of touching cards' edges, gap included), or None.

    Args:
        img: uint8[H, W, 3] BGR (the detector's work image).
        blobs: :class:`vision.card_detect.Blob` of ``img`` (foreground components, holes filled); the
            ``max_blobs`` largest are used.
        aspect: the deck's long/short side ratio (1 for square tiles).
        min_side: the smallest short side in px to consider (a card smaller than the detector's minimum area).

    Returns:
        The short side ``s`` in px (0.5 px steps) maximising the blobs' area-weighted edge repetition at ``s``
        along one axis plus at ``s * aspect`` along the other (portrait or landscape cards), or None when no blob
        or no spacing above ``min_side`` fits in the frame.
    """
    if not blobs or aspect <= 0:
        return None
    H, W = img.shape[:2]
    max_lag = int(0.5 * min(H, W))
    acc_x, acc_y = np.zeros(max_lag + 1), np.zeros(max_lag + 1)
    for b in sorted(blobs, key=lambda b: -b.area)[:max_blobs]:
        x, y, bw, bh = cv2.boundingRect(b.contour)
        x0, y0, x1, y1 = max(0, x - 6), max(0, y - 6), min(W, x + bw + 6), min(H, y + bh + 6)
        roi = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        m = np.zeros_like(roi)
        cv2.drawContours(m, [b.contour - np.array([x0, y0])], -1, 255, cv2.FILLED)
        m = cv2.dilate(m, np.ones((5, 5), np.uint8))   # the blob's own outline inside the mask
        theta = dominant_angle(roi, m)
        _, m8, gx, gy = _upright_edges(roi, m, theta if theta <= 45.0 else theta - 90.0)
        inside = m8 > 0
        acc_x += b.area * _repeats((gx * inside).sum(axis=0), max_lag)
        acc_y += b.area * _repeats((gy * inside).sum(axis=1), max_lag)

    def at(acc: np.ndarray, lag: float) -> float:
        i = int(round(lag))
        return float(acc[max(0, i - 2):i + 3].max()) if i + 2 <= max_lag else 0.0

    best: tuple[float, float] | None = None
    long_ = max(aspect, 1.0 / aspect)
    for s in np.arange(max(8.0, float(min_side)), max_lag / long_, 0.5):
        score = max(at(acc_x, s) + at(acc_y, s * long_), at(acc_x, s * long_) + at(acc_y, s))
        if score > 0 and (best is None or score > best[0]):
            best = (score, float(s))
    return None if best is None else best[1]


def choose_card_size(single_sizes: Sequence[tuple[float, float]], single_areas: Sequence[float],
                     pitch: float | None, aspect: float, band: tuple[float, float] = (0.5, 1.7)
                     ) -> tuple[float, float] | None:
    """(short, long) card size in px from the blobs shaped like one card, checked against the edges' pitch.

    Args:
        single_sizes: (short, long) px of each blob shaped like one card; single_areas: their areas in px^2.
        pitch: :func:`card_pitch` (short side in px, gap included), or None.
        aspect: the deck's long/short side ratio.
        band: a blob shaped like one card is taken as one card when its area is within this range of times the
            pitch's card area (``pitch^2 * aspect``): a block of two or more touching cards is beyond it.

    Returns:
        The median size of the blobs within ``band`` when any; else the pitch's card (``pitch``,
        ``pitch * aspect``); None when there is neither.
    """
    if pitch is None:
        return None
    area = pitch * pitch * max(aspect, 1.0 / aspect)
    kept = [sz for sz, a in zip(single_sizes, single_areas, strict=True) if band[0] * area <= a <= band[1] * area]
    if kept:
        arr = np.asarray(kept, np.float64)
        return float(np.median(arr[:, 0])), float(np.median(arr[:, 1]))
    return float(pitch), float(pitch * max(aspect, 1.0 / aspect))
