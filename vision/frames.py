"""The one check every vision stage makes on its input frame."""

from __future__ import annotations

import cv2
import numpy as np

from .errors import BadFrame

__all__ = ["every_nth_pixel", "validate_frame"]


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


def every_nth_pixel(image: np.ndarray, step: int) -> np.ndarray:
    """A C-contiguous copy of ``image[::step, ::step]``: the same bytes, made the cheapest way that gives them.

    ``image``: ``uint8[H, W]`` or ``uint8[H, W, C]`` (any other array: copied as numpy copies it). When ``step``
    divides both H and W, OpenCV's nearest-neighbour resize to ``(W // step, H // step)`` picks exactly the pixels
    ``[::step, ::step]`` picks (its source column ``floor(x * W / (W // step))`` is ``x * step``) at about half
    the cost of gathering them with numpy (0.07 against 0.17 ms at 1280x720 with ``step`` 4); otherwise each
    pixel's channels are gathered as one item (half the time of a channel-by-channel copy).

    Returns:
        ``[ceil(H / step), ceil(W / step)(, C)]`` of ``image``'s dtype, C-contiguous.

    Raises:
        ValueError: ``step`` is below 1.
    """
    step = int(step)
    if step < 1:
        raise ValueError(f"every_nth_pixel takes a step of at least 1, got {step}")
    if step == 1:
        return np.ascontiguousarray(image)
    h, w = image.shape[:2]
    # each row's pixels side by side in memory (an OpenCV row), whatever the step between rows
    standard = (image.ndim == 2 and image.strides[1] == image.itemsize) or (
        image.ndim == 3 and image.strides[2] == image.itemsize and image.strides[1] == image.shape[2] * image.itemsize)
    if (standard and image.dtype == np.uint8 and h % step == 0 and w % step == 0
            and (image.ndim == 2 or image.shape[2] in (3, 4))):
        return cv2.resize(image, (w // step, h // step), interpolation=cv2.INTER_NEAREST)
    if image.ndim == 3 and standard:
        pixels = image.view(np.dtype((np.void, image.shape[2] * image.itemsize)))[..., 0]
        return np.ascontiguousarray(pixels[::step, ::step]).view(image.dtype).reshape(
            -1, (w + step - 1) // step, image.shape[2])
    return np.ascontiguousarray(image[::step, ::step])
