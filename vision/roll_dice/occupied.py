"""Where on a table the dice can be: :func:`occupied_window` is the one window of a frame that holds everything
that is not bare table, found on a coarse copy with the dice reader's own "not table" cue (:mod:`.foreground`), so
a read of the dice beside a map painted out (:class:`vision.hexes.OffMapDice`) need not run its whole-frame stages
(the CNN detector, the foreground, the edge map) over empty table.

The cue is the reader's: log-RGB chroma change, brightening, or darkening beyond a soft shadow, against a table
model (a large median of a tiny copy, here at a third of the reader's size and reach), on every ``step``-th pixel of
the frame (about ``table_long_side`` px on the longer side) blurred against the sensor's noise. A die of the
reader's default size is several coarse pixels across; what the cue finds is grown by ``margin`` x the largest die
side the reader tries before it bounds the window.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from .config import RollDiceConfig
from .foreground import foreground_score, table_model

__all__ = ["LEAST_SHOWN", "OCCUPIED_MARGIN", "OCCUPIED_MAX_FRACTION", "TABLE_MODEL_SHRINK", "occupied_window"]

#: The window reaches this many times the largest die side the reader tries (``default_side_frac`` x the largest of
#: ``size_hypotheses``, of the frame's longer side) beyond what the cue found: a die the coarse cue saw only in part,
#: and the table round each die the reader's stages look at.
OCCUPIED_MARGIN = 1.5
#: The cue's table model is the reader's (a median of a tiny copy) at this many times less size and reach.
TABLE_MODEL_SHRINK = 3
#: What the cue finds counts when it covers at least this fraction of the top face of a die of the smallest side the
#: reader tries (coarse pixels); less is the sensor's noise or what the paint left of a rim.
LEAST_SHOWN = 0.3
#: A window over this fraction of the frame's area is no window: the whole frame is read (it costs about the same).
OCCUPIED_MAX_FRACTION = 0.7


def occupied_window(frame: np.ndarray, config: RollDiceConfig, hidden: Sequence[np.ndarray] = (),
                    margin: float = OCCUPIED_MARGIN,
                    max_fraction: float = OCCUPIED_MAX_FRACTION) -> tuple[int, int, int, int] | None:
    """The ``(x, y, w, h)`` frame-px window (clipped to the frame) around everything in ``frame`` that the dice
    reader's foreground cue takes for something on the table, or None when the whole frame should be read.

    Args:
        frame: ``uint8[H, W, 3]`` BGR (a frame with a map painted out, :func:`vision.hexes.paint_out_map`).
        config: the dice reader's thresholds (``table_long_side``: the coarse copy's longer side, about; the cue's
            weights and ``fg_threshold``; ``default_side_frac`` and ``size_hypotheses``: the die sides it tries).
        hidden: polygons (each float[K, 2] frame px, K >= 3) of what is known to be no die (the calibration markers
            and their paper): the cue found there is left out.
        margin: the window reaches this many largest die sides beyond what the cue found.
        max_fraction: a window over this fraction of the frame's area gives None.

    Returns:
        The window, or None: nothing found (a die the coarse cue misses is read by the whole frame's read) or a
        window over ``max_fraction`` of the frame.

    Raises:
        ValueError: ``frame`` is not ``uint8[H, W, 3]``.
    """
    if not (isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3):
        raise ValueError(f"occupied_window reads a uint8[H, W, 3] frame, got {getattr(frame, 'shape', frame)!r}")
    h, w = frame.shape[:2]
    step = max(1, max(h, w) // max(1, int(config.table_long_side)))
    small = np.ascontiguousarray(frame[::step, ::step])
    if min(small.shape[:2]) < 3:
        return None
    small = cv2.GaussianBlur(small, (0, 0), 1.0)
    score = foreground_score(small, table_model(small, _coarse_table(config)), config)
    mask = (score > config.fg_threshold).astype(np.uint8)
    if hidden:   # each polygon and the coarse pixels its outline crosses
        polys = [np.round(np.asarray(p, np.float64).reshape(-1, 2) / step * 16).astype(np.int32) for p in hidden]
        off = np.zeros_like(mask)
        cv2.fillPoly(off, polys, 1, cv2.LINE_8, shift=4)
        mask[cv2.dilate(off, np.ones((3, 3), np.uint8)) > 0] = 0
    side = float(config.default_side_frac) * max(h, w) * max(float(s) for s in config.size_hypotheses)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    # a speck of a few coarse pixels is noise or a rim: a die of the smallest side tried shows over three times as
    # many, even against a map or the frame's edge
    least = max(3.0, LEAST_SHOWN * (float(config.default_side_frac) * max(h, w) * min(config.size_hypotheses)
                                    / step) ** 2)
    keep = [k for k in range(1, n) if stats[k, cv2.CC_STAT_AREA] >= least]
    if not keep:
        return None
    x0 = min(stats[k, cv2.CC_STAT_LEFT] for k in keep) * step
    y0 = min(stats[k, cv2.CC_STAT_TOP] for k in keep) * step
    x1 = max(stats[k, cv2.CC_STAT_LEFT] + stats[k, cv2.CC_STAT_WIDTH] for k in keep) * step
    y1 = max(stats[k, cv2.CC_STAT_TOP] + stats[k, cv2.CC_STAT_HEIGHT] for k in keep) * step
    pad = margin * side
    x0, y0 = max(0, int(np.floor(x0 - pad))), max(0, int(np.floor(y0 - pad)))
    x1, y1 = min(w, int(np.ceil(x1 + pad))), min(h, int(np.ceil(y1 + pad)))
    if (x1 - x0) * (y1 - y0) > max_fraction * w * h:
        return None
    return x0, y0, x1 - x0, y1 - y0


@functools.lru_cache(maxsize=8)
def _coarse_table(config: RollDiceConfig) -> RollDiceConfig:
    """``config`` with the table model at ``TABLE_MODEL_SHRINK`` times less size and reach (a 5 px median, not 15:
    several times cheaper), built once per config."""
    return replace(config, table_long_side=max(8, config.table_long_side // TABLE_MODEL_SHRINK),
                   table_median=max(3, (config.table_median // TABLE_MODEL_SHRINK) | 1))
