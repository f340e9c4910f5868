"""Does a candidate show a die's square outline? Used by the Roll dice reader (stage ``outline``,
:func:`vision.roll_dice.not_dice._not_flat_art`).

A die's top face is a square of one body colour, and the die stands on the table: along each of the square's four
sides the picture changes across a straight line (to its bevel and side faces in shade, to its shadow, to the table
or to the die beside it), whatever the table is. A patch of a playmat's painting that happens to carry a blot like a
die's symbol (an icon, a planet's ring, a dash of a printed text) has no such square round it: the painting goes on
beyond where a die's edge would be, or changes across curved or crossing lines that are not the four sides of a
square of a die's size. :func:`square_outline` measures, on each side of the face, how plainly one straight edge runs
along it, in log-RGB (:func:`vision.roll_dice.foreground.to_log`): a step of the channels is a ratio of light, so it
holds under any light level and colour.

The edge along a side: on each line parallel to it within ``square_band`` half faces of the middle (a face found a
little too small or large, or shifted, still has its die's edge there), the median over the side's length of the
colour step across that line; the edge is the largest of these above the smallest (an edge stands above the lines
beside it; a soft gradient of the painting steps alike on every line). It counts either by its size alone or against
the patch's own noise (the step along the line, which a straight edge does not raise, at least
``square_noise_floor``): a white die on a pale table steps little but on a quiet picture, a die under a noisy camera
steps much. The face is looked at turned by ``square_turns`` degrees too (a face found turned from its die).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .assemble import _ramp
from .config import RollDiceConfig
from .foreground import channel_sum, median_last
from .shape import SurroundingLogs, faces_to_measure, surrounding_logs

__all__ = ["square_outline"]



@functools.lru_cache(maxsize=4)
def _side_points(size: int, face: float, band: tuple[float, float], along: float,
                 turns: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) patch coordinates ``float32[T * 4 * R * L]`` each, of the points sampled round a face of ``face`` px in
    the middle of a ``size`` px patch: for each turn (degrees) and each of the four sides, a grid of ``R`` lines
    parallel to the side (from ``band[1]`` to ``band[0]`` half faces from the middle, one pixel apart, with one more
    line each way for the step across them) by ``L`` points along it (``along`` half faces each way of the side's
    middle, one more point each way for the step along); unturned, the top side's points are the patch's pixels."""
    c = (size - 1) / 2.0
    h = face / 2.0
    # the top side on the patch's own pixels (unturned: no interpolation), from outside in
    ys = np.arange(int(np.ceil(c - band[1] * h)) - 1, int(np.floor(c - band[0] * h)) + 2, dtype=np.float64)
    xs = np.arange(int(round(c - along * h)) - 1, int(round(c + along * h)) + 2, dtype=np.float64)
    u, v = np.meshgrid(xs - c, ys - c)                          # u along the side, v < 0 beyond the middle
    rows, cols = ys, xs
    pts = []
    for t in turns:
        for k in range(4):
            a = np.deg2rad(float(t) + 90.0 * k)
            ca, sa = np.cos(a), np.sin(a)
            pts.append(np.stack([c + ca * u - sa * v, c + sa * u + ca * v], -1))
    p = np.asarray(pts, np.float32).reshape(len(turns), 4, len(rows), len(cols), 2)
    x, y = np.ascontiguousarray(p[..., 0]), np.ascontiguousarray(p[..., 1])
    x.setflags(write=False)
    y.setflags(write=False)
    return x, y


def square_outline(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig,
                   todo: np.ndarray | None = None, logs: SurroundingLogs | None = None) -> np.ndarray:
    """How plainly each top face shows a die's square outline, ``float[N]`` 0..1 (-1 where not measured): at the best
    of the turns ``square_turns``, the third strongest of its four sides' edges (three sides at least: a die pressed
    against a like die may lose one), each side's edge the larger of the ramp ``square_step_ramp`` of its step (log
    units, the largest step across a line along the side less the smallest) and the ramp ``square_contrast_ramp`` of
    that step over the patch's noise there (at least ``square_noise_floor``).

    Measured on an upright patch of ``raised_patch`` px spanning ``surface_span`` sides round each face
    (:func:`vision.roll_dice.shape.surrounding_patches`), on the lines ``square_band`` (half faces from the middle)
    over ``square_along`` half faces each way of each side's middle.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        config: ``square_band``, ``square_along``, ``square_turns``, ``square_step_ramp``,
            ``square_contrast_ramp``, ``square_noise_floor``, ``raised_patch``, ``surface_span``, ``log_offset``.
        todo: ``bool[N]``, the faces to measure (others get -1); default all.
        logs: the frame's :class:`vision.roll_dice.shape.SurroundingLogs` of this read, to reuse (None: cut here).

    Returns ``float[N]``. Raises ``ValueError`` for ``logs`` of another frame; empty input gives an empty result.
    """
    rects, out, idx = faces_to_measure(rects, todo)
    if len(idx) == 0:
        return out
    q, span = int(config.raised_patch), float(config.surface_span)
    turns = tuple(float(t) for t in config.square_turns) or (0.0,)
    px, py = _side_points(q, q / span, tuple(float(v) for v in config.square_band), float(config.square_along),
                          turns)
    logp = surrounding_logs(frame, rects, idx, q, span, config, logs)                 # [M, q, q, 3]
    m = len(idx)
    # the patches side by side in one picture, sampled at every face's points in one call
    strip = np.ascontiguousarray(logp.transpose(1, 0, 2, 3).reshape(q, m * q, 3))
    shape = px.shape
    mx = (px.reshape(1, -1) + (np.arange(m, dtype=np.float32) * q)[:, None]).astype(np.float32)
    my = np.broadcast_to(py.reshape(1, -1), mx.shape).astype(np.float32)
    s = cv2.remap(strip, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(m, *shape, 3)
    # s: [M, T, 4, R, L, 3]; rows run from outside in, one pixel apart
    across = np.sqrt(channel_sum((s[:, :, :, :-2, 1:-1] - s[:, :, :, 2:, 1:-1]) ** 2))   # [M, T, 4, R-2, L-2]
    profile = median_last(across)                                                      # [M, T, 4, R-2]
    step = profile.max(-1) - profile.min(-1)                  # an edge stands above the lines beside it; a slope not
    along = np.sqrt(channel_sum((s[:, :, :, 1:-1, 2:] - s[:, :, :, 1:-1, :-2]) ** 2))
    noise = median_last(along.reshape(m, len(turns), 4, -1))
    contrast = step / np.maximum(noise, float(config.square_noise_floor))
    side = np.maximum(_ramp(step, config.square_step_ramp), _ramp(contrast, config.square_contrast_ramp))
    third = np.sort(side, axis=-1)[..., 1]                                             # [M, T]: 3 sides at least
    out[idx] = third.max(-1)
    return out
