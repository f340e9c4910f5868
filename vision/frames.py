"""The one check every vision stage makes on its input frame."""

from __future__ import annotations

import numpy as np

from .errors import BadFrame

__all__ = ["validate_frame"]


def validate_frame(frame: object, min_side: int = 1) -> np.ndarray:
    """Check that ``frame`` is a non-empty ``uint8[H, W, 3]`` BGR image and return it C-contiguous.

    Args:
        frame: the candidate frame.
        min_side: smallest height and width accepted, pixels (a stage that needs context asks for more).

    Raises:
        BadFrame: frame is None, not a numpy array, not uint8, not 3-D with 3 channels, or smaller
            than ``min_side``; the message names what is wrong.
    """
    if frame is None:
        raise BadFrame("frame is None (camera gave no image?)")
    if not isinstance(frame, np.ndarray):
        raise BadFrame(f"frame must be a numpy array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise BadFrame(f"frame dtype must be uint8, got {frame.dtype}")
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise BadFrame(f"frame must have shape [H, W, 3] (BGR), got shape {tuple(frame.shape)}")
    if frame.shape[0] < max(1, min_side) or frame.shape[1] < max(1, min_side):
        what = "empty" if 0 in frame.shape[:2] else f"too small (under {min_side} px)"
        raise BadFrame(f"frame is {what}, shape {tuple(frame.shape)}")
    return np.ascontiguousarray(frame)
