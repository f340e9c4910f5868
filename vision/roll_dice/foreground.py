"""Stage 2 of the Roll dice reader: log-RGB, a table model (a large median of a tiny copy) and the per-pixel
"not table" mask (chroma change, brightening, or darkening beyond a soft shadow)."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .config import RollDiceConfig

__all__ = ["LOG_RGB_BASIS", "channel_mean", "channel_min", "channel_sum", "foreground",
           "foreground_score", "median_last", "table_model", "to_log", "work_image"]


#: Orthonormal basis of log-RGB: two chroma axes and the brightness axis.
LOG_RGB_BASIS = np.array([[1, -1, 0] / np.sqrt(2), [1, 1, -2] / np.sqrt(6), [1, 1, 1] / np.sqrt(3)])


def to_log(img: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``uint8[..., 3]`` BGR -> float32 log(BGR + ``log_offset``).

    An 8-bit image is looked up in a table of the 256 levels' logs (``cv2.LUT``, several times faster than a log per
    pixel; the table is numpy's float32 log of the same sums, so the same numbers); any other input is computed."""
    img = np.asarray(img)
    if img.dtype != np.uint8 or img.ndim < 2 or img.shape[-1] != 3 or img.size == 0:
        return np.log(img.astype(np.float32) + np.float32(config.log_offset))
    flat = np.ascontiguousarray(img).reshape(-1, 1, 3)
    return cv2.LUT(flat, _log_table(float(config.log_offset))).reshape(img.shape)


@functools.lru_cache(maxsize=4)
def _log_table(offset: float) -> np.ndarray:
    """``float32[256, 1, 3]``: :func:`to_log` of each 8-bit level, the same for the three channels (``cv2.LUT``'s
    table of a 3-channel image)."""
    levels = np.log(np.arange(256, dtype=np.float32) + np.float32(offset))
    table = np.ascontiguousarray(np.repeat(levels[:, None, None], 3, axis=2))
    table.setflags(write=False)
    return table


def channel_sum(x: np.ndarray) -> np.ndarray:
    """``x.sum(-1)`` over a last axis of 2 or 3 channels (``float[..., 2|3]``), the same numbers: numpy adds a short
    last axis in order, ``(x0 + x1) + x2``, and so do these whole-array adds, without numpy's reduction per element
    (several times faster on patches and frames). Raises ``ValueError`` for another number of channels."""
    if x.shape[-1] == 2:
        return x[..., 0] + x[..., 1]
    if x.shape[-1] == 3:
        s = x[..., 0] + x[..., 1]
        s += x[..., 2]
        return s
    raise ValueError(f"channel_sum adds 2 or 3 channels, got {x.shape[-1]}")


def channel_min(x: np.ndarray) -> np.ndarray:
    """``x.min(-1)`` over a short last axis of channels (``[..., C]``), the same values: whole-array minimums channel
    by channel, without numpy's reduction per element (tens of times faster on patches)."""
    out = x[..., 0]
    for c in range(1, x.shape[-1]):
        out = np.minimum(out, x[..., c])
    return out


def channel_mean(x: np.ndarray) -> np.ndarray:
    """``x.mean(-1)`` over a last axis of 2 or 3 channels, the same numbers: :func:`channel_sum` divided as numpy's
    mean divides (by the count as an ``intp``, in place, cast back to ``x``'s float type)."""
    s = channel_sum(x)
    return np.true_divide(s, np.intp(x.shape[-1]), out=s, casting="unsafe")


def median_last(x: np.ndarray) -> np.ndarray:
    """``np.median(x, axis=-1)`` of a float array ``x`` (``float[..., L]``, L >= 1), the same numbers to the bit in
    ``x``'s dtype. The middle value or pair of each row comes from one ``np.partition`` (the order statistics numpy's
    median takes), then it is averaged as numpy's mean averages it: summed from +0 (so -0 reads +0), the pair's sum
    halved. Several times faster on many short rows: numpy's median also partitions at the last place to look for
    NaN and averages through its general mean. An ``x`` holding NaN is left to ``np.median`` (NaN for its rows).
    Raises ``ValueError`` for a non-float array or an empty last axis."""
    x = np.asarray(x)
    if x.dtype.kind != "f" or x.ndim == 0 or x.shape[-1] == 0:
        raise ValueError(f"median_last takes a float array with a non-empty last axis, got {x.dtype} {x.shape}")
    if np.isnan(x).any():
        return np.median(x, axis=-1)
    n, zero = x.shape[-1], x.dtype.type(0)
    h = n // 2
    if n % 2:
        return np.partition(x, h, axis=-1)[..., h] + zero
    part = np.partition(x, (h - 1, h), axis=-1)
    return (part[..., h - 1] + zero + part[..., h]) / x.dtype.type(2)


def work_image(frame: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, float]:
    """Frame resized so its longer side is ``work_long_side``; returns (image, frame-to-work scale)."""
    h, w = frame.shape[:2]
    s = min(1.0, config.work_long_side / float(max(h, w)))
    if s == 1.0:
        return frame, 1.0
    return cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA), s


def table_model(work: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Estimate of the bare table under the dice, ``uint8`` like ``work``: a large median of a tiny copy."""
    h, w = work.shape[:2]
    s = config.table_long_side / float(max(h, w))
    tiny = cv2.resize(work, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    k = config.table_median | 1
    k = max(3, min(k, (min(tiny.shape[:2]) - 1) | 1))
    bg = cv2.medianBlur(tiny, k)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def foreground_score(work: np.ndarray, table: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Per-pixel "not table" score ``float32[h, w]``: the strongest of chroma change, brightening,
    and darkening beyond what a soft shadow does (log-RGB, so independent of light level).

    ``work`` and ``table``: ``uint8[h, w, 3]`` BGR. The numbers are those of the per-pixel formula on the
    interleaved log-RGB difference (``d = log(work) - log(table)``, ``k`` its channel mean, chroma
    ``sqrt(sum((d - k)^2))``), worked out channel plane by channel plane in place: each plane is contiguous and no
    ``[h, w, 3]`` float temporary is made (about half the CPU time at 640x360)."""
    if work.ndim != 3 or work.shape[-1] != 3 or work.dtype != np.uint8 or table.dtype != np.uint8:
        return _foreground_score_any(work, table, config)
    lut = _log_table(float(config.log_offset))[:, :, :1]
    d = [cv2.LUT(p, lut) for p in cv2.split(work)]               # float32 planes, to_log's numbers
    for p, t in zip(d, cv2.split(table), strict=True):
        np.subtract(p, cv2.LUT(t, lut), out=p)
    k = d[0] + d[1]                                               # channel_mean, as it adds and divides
    k += d[2]
    np.true_divide(k, np.intp(3), out=k, casting="unsafe")
    for p in d:
        np.subtract(p, k, out=p)
        np.multiply(p, p, out=p)
    c = d[0] + d[1]
    c += d[2]
    np.sqrt(c, out=c)
    np.multiply(c, config.chroma_weight, out=c)
    score = np.maximum(c, k * config.bright_weight, out=c)
    dark = np.negative(k, out=d[0])
    np.subtract(dark, config.shadow_log, out=dark)
    np.multiply(dark, config.dark_weight, out=dark)
    return np.maximum(score, dark, out=score)


def _foreground_score_any(work: np.ndarray, table: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`foreground_score` of images that are not 8-bit BGR (the formula on the interleaved channels)."""
    d = to_log(work, config) - to_log(table, config)
    k = channel_mean(d)
    c = np.sqrt(channel_sum((d - k[:, :, None]) ** 2))
    score = np.maximum(c * config.chroma_weight, k * config.bright_weight)
    return np.maximum(score, (-k - config.shadow_log) * config.dark_weight)


def foreground(frame: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """(work image ``uint8[h, w, 3]`` BGR, blurred; foreground mask ``uint8[h, w]``, 255 where
    :func:`foreground_score` is above ``fg_threshold``, else 0; frame-to-work scale) of a ``uint8[H, W, 3]`` BGR
    ``frame`` (:func:`work_image`: its longer side ``work_long_side`` px, or as it is when smaller)."""
    work, scale = work_image(frame, config)
    if config.work_blur > 0:
        work = cv2.GaussianBlur(work, (0, 0), config.work_blur)
    table = table_model(work, config)
    score = foreground_score(work, table, config)
    mask = cv2.compare(score, float(config.fg_threshold), cv2.CMP_GT)   # 255 where above, as float32 compares
    return work, mask, scale
