"""The white reference a calibrated table gives: the paper round its calibration markers.

The calibration sheet (and each separate corner marker) is an ArUco marker printed on white paper, with a blank
margin round it. In every frame, the paper just outside a marker shows the colour the camera gives white under
the table's light now: a warm lamp, a camera's white-balance drift. The Roll dice reader takes it to settle the
light's colour (:meth:`vision.roll_dice.RollDiceReader.read`, ``white=``).

A marker's margin is used only while it shows paper: the marker's own black border is darker than the margin (a
hand, a die or a card over it is not), the margin is even (no object's edge across it) and no channel is
clipped (clipped paper says nothing about the light's colour).
"""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np

__all__ = ["MARGIN_RING", "paper_white"]

MARGIN_RING = (1.08, 1.25)
"""The margin sampled round a marker: between these multiples of the marker's size, about its centre. A marker
needs a white quiet zone of at least one of its cells (a sixth of a 4x4 marker's side with its border), so this
ring is paper on any printing; it starts clear of the marker's blurred edge. Dark pixels in it (the sheet's
"id N" label, a shadow) are left out."""

_KEEP = 0.6          # the brightest share of a margin's pixels kept (labels and shadows are the rest)
_EVEN = 0.12         # the kept pixels' brightness spread (std / mean) above which the margin is not bare paper
_BORDER = 0.6        # the marker's black border must be at most this share of the margin's brightness
_CLIPPED = 250.0     # a channel's median at or above this is clipped
_DARK = 40.0         # a margin darker than this (mean of B, G, R) is not lit paper
_MIN_PIXELS = 40


def paper_white(frame: np.ndarray, markers_px: Mapping[int, np.ndarray],
                frame_size: tuple[int, int] | None = None) -> tuple[float, float, float] | None:
    """The BGR colour of the white paper round the calibration markers in ``frame``, or None when no marker shows
    bare, unclipped paper.

    Args:
        frame: uint8[H, W, 3] BGR.
        markers_px: marker id -> float[4, 2] pixel corners (the calibration's ``markers_px``).
        frame_size: (width, height) px of the frame the corners were found in; corners are scaled to ``frame``'s
            size when it differs (None: the same size).

    Returns:
        (B, G, R) in 0..255: per channel, the median over the markers that show paper of each margin's median.
    """
    h, w = frame.shape[:2]
    sx, sy = (1.0, 1.0) if frame_size is None else (w / float(frame_size[0]), h / float(frame_size[1]))
    seen = []
    for corners in markers_px.values():
        quad = np.asarray(corners, np.float64).reshape(4, 2) * (sx, sy)
        white = _margin_white(frame, quad)
        if white is not None:
            seen.append(white)
    if not seen:
        return None
    b, g, r = np.median(np.array(seen), axis=0)
    return float(b), float(g), float(r)


def _margin_white(frame: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """float[3] BGR of the bare paper round one marker (corners ``quad`` px), or None."""
    h, w = frame.shape[:2]
    centre = quad.mean(axis=0)
    outer = centre + (quad - centre) * MARGIN_RING[1]
    inner = centre + (quad - centre) * MARGIN_RING[0]
    x0, y0 = np.floor(outer.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    window = frame[y0:y1, x0:x1]
    offset = np.array([x0, y0], np.float64)
    ring = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(ring, np.round(outer - offset).astype(np.int32), 1)
    cv2.fillConvexPoly(ring, np.round(inner - offset).astype(np.int32), 0)
    marker = np.zeros_like(ring)
    cv2.fillConvexPoly(marker, np.round(quad - offset).astype(np.int32), 1)
    pixels = window[ring.astype(bool)].astype(np.float32)
    inside = window[marker.astype(bool)].astype(np.float32).mean(axis=1)
    if len(pixels) < _MIN_PIXELS or len(inside) < _MIN_PIXELS:
        return None
    light = pixels.mean(axis=1)
    kept = pixels[light >= np.quantile(light, 1.0 - _KEEP)]
    bright = kept.mean(axis=1)
    level = float(bright.mean())
    if level < _DARK or float(bright.std()) > _EVEN * level:
        return None
    if float(np.quantile(inside, 0.2)) > _BORDER * level:  # no black border: the marker is covered
        return None
    white = np.median(kept, axis=0)
    if (white >= _CLIPPED).any():
        return None
    return white
