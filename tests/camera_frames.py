"""Small frames for the camera source tests: ``solid`` images whose three channels show their order, and
``values`` to read a list of frames back by their first pixel."""

from __future__ import annotations

import numpy as np

from device import Frame

H, W = 24, 32


def solid(value: int, h: int = H, w: int = W) -> np.ndarray:
    """A uint8[h, w, 3] BGR image whose three channels are value, value+1, value+2 (order is visible)."""
    img = np.empty((h, w, 3), np.uint8)
    img[:, :, 0], img[:, :, 1], img[:, :, 2] = value, value + 1, value + 2
    return img


def values(frames: list[Frame]) -> list[int]:
    return [int(f.image[0, 0, 0]) for f in frames]
