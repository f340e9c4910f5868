"""Kinds of labelled d6 in the training photos, told apart by colour (dev tool, never imported by ``vision``).

A "smoky" die is a dark translucent body with red pips, the pips of the faces below smeared through the
body: the kind the classifier misses most on photos it has not seen (``vision/models/README.md``).
"""

from __future__ import annotations

import cv2
import numpy as np

#: OpenCV HSV (H 0..179, S and V 0..255) limits of the smoky rule.
RED_HUE_LOW, RED_HUE_HIGH = 8, 170  # red: H < 8 or H > 170
RED_MIN_S, RED_MIN_V = 120, 60
WHITE_MAX_S, WHITE_MIN_V = 70, 190
MIN_RED_SHARE = 0.03  # red pip pixels: more than this share of the inner half
MAX_WHITE_SHARE = 0.03  # white pixels (an opaque white die or white pips): fewer than this share
MAX_BODY_V = 110  # the rest (the body): median value under this
MAX_BODY_S = 110  # and median saturation under this


def is_smoky(image: np.ndarray, box: np.ndarray) -> bool:
    """Whether the die in ``box`` looks smoky: dark, unsaturated body with red pips and nothing white.

    ``image`` uint8[H, W, 3] BGR; ``box`` float[4] x0, y0, x1, y1 px (a labelled die box). Only the inner
    half of the box is looked at (centre ± a quarter of the width and height), so the table around the die
    does not count. There: red pixels (H < 8 or > 170, S > 120, V > 60) over 3 %, white pixels (S < 70,
    V > 190) under 3 %, and the other pixels with median V and median S both under 110.

    Raises ``ValueError`` when the image is not 3-channel uint8 or the inner half of the box holds no
    pixel of the image (a box outside the photo or thinner than 2 px).
    """
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"is_smoky needs a uint8 BGR image, got {image.dtype} of shape {image.shape}")
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
    H, W = image.shape[:2]
    r0, r1 = max(int(cy - h / 4), 0), min(int(cy + h / 4), H)
    c0, c1 = max(int(cx - w / 4), 0), min(int(cx + w / 4), W)
    if r1 <= r0 or c1 <= c0:
        raise ValueError(f"die box {x0:.1f}, {y0:.1f}, {x1:.1f}, {y1:.1f} has no inner pixel in a {W}x{H} image")
    hsv = cv2.cvtColor(np.ascontiguousarray(image[r0:r1, c0:c1]), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(int)
    hue, sat, val = hsv[:, 0], hsv[:, 1], hsv[:, 2]
    red = ((hue < RED_HUE_LOW) | (hue > RED_HUE_HIGH)) & (sat > RED_MIN_S) & (val > RED_MIN_V)
    white = (sat < WHITE_MAX_S) & (val > WHITE_MIN_V)
    body = hsv[~red] if (~red).sum() > 5 else hsv
    return bool(
        red.mean() > MIN_RED_SHARE
        and white.mean() < MAX_WHITE_SHARE
        and np.median(body[:, 2]) < MAX_BODY_V
        and np.median(body[:, 1]) < MAX_BODY_S
    )


def smoky_mask(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """``is_smoky`` for each of ``boxes`` float[N, 4] x0, y0, x1, y1 px -> bool[N]."""
    return np.array([is_smoky(image, b) for b in boxes], dtype=bool)
