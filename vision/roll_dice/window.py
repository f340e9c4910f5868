"""A window of a frame read as the whole frame is read: the window grown to the whole frame's resampling grid, and the
reader's sizes that depend on the frame's size kept at the whole frame's (for :meth:`RollDiceReader.read_window` and
a whole read's ``window``)."""

from __future__ import annotations

import math
from dataclasses import replace

from .config import RollDiceConfig

__all__ = ["aligned_window", "window_config"]


def aligned_window(box: tuple[int, int, int, int], shape: tuple[int, int],
                   config: RollDiceConfig) -> tuple[int, int, int, int]:
    """``box`` (x0, y0, x1, y1 frame px, in a frame of ``shape`` (H, W)) grown outwards to the pixel grid on which
    the whole frame's work image, table model and CNN input repeat (for each, the frame's longer side over its
    greatest common divisor with that stage's longer side: 40 px at 1280x720, 72 px at 2304x1296), so that the
    window is resampled as the whole frame is there; unchanged where that grid is coarser than an eighth of the
    frame's longer side. Raises nothing."""
    c = config
    long = max(shape)
    step = 1
    for side in (c.work_long_side, c.table_long_side, c.cnn_input_long_side):
        period = long // math.gcd(long, int(side)) if int(side) < long else 1
        step = step * period // math.gcd(step, period)
    if step <= 1 or step > long / 8:
        return box
    x0, y0, x1, y1 = box
    h, w = shape
    return (x0 // step * step, y0 // step * step, min(w, -(-x1 // step) * step), min(h, -(-y1 // step) * step))


def window_config(config: RollDiceConfig, f: float) -> RollDiceConfig:
    """``config`` for a window ``f`` (0 < f <= 1) times the frame's longer side: the sizes that depend on the frame's
    size (work image, table model, CNN input, the default die side) are those of the whole frame. Raises nothing."""
    c = config
    return replace(c, work_long_side=max(16, round(c.work_long_side * f)),
                   table_long_side=max(8, round(c.table_long_side * f)),
                   cnn_input_long_side=max(32, round(c.cnn_input_long_side * f)),
                   default_side_frac=c.default_side_frac / f)
