"""Is a candidate a raised body or a flat print? Used by the surface test of the Roll dice reader (stage
``surface``, :func:`vision.roll_dice.not_dice._not_printed`).

A die is a cube standing on the table: its top face's rounded edges (the bevel) turn away from the light, and
beyond them its side faces show at any tilt of the camera. Both are the die's own body, its colour shaded: the
same chroma as the top face, darker. A check of a gingham, a numbered box of a player board or a patch of a
playmat is flat with the table: at its edge the colour changes to another print (the cloth's other band, the
box's line), not to a shade of itself. :func:`raised_edges` measures that shading; a candidate whose table comes
back round it (:func:`vision.roll_dice.shape.surface_returns`) and shows no shaded edge is printed on the table.

Every measure is in log-RGB (:func:`vision.roll_dice.foreground.to_log`): a shade is a drop of the channels'
mean, a colour their differences, so it holds under any light level and colour.
"""

from __future__ import annotations

import functools

import numpy as np

from .config import RollDiceConfig
from .foreground import median_last
from .shape import SurroundingLogs, faces_to_measure, surrounding_logs

__all__ = ["raised_edges"]


@functools.lru_cache(maxsize=4)
def _edge_sectors(size: int, face: float, rings: tuple[tuple[float, float], ...],
                  sectors: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """Per ring ``(lo, hi)`` (Chebyshev distance from the middle, in half faces) of a ``size`` px patch whose middle
    ``face`` px are the top face: the flat pixel indices ``int[L]`` of each of its ``sectors`` sectors (empty ones
    left out)."""
    g = np.abs(np.arange(size, dtype=np.float32) - (size - 1) / 2.0) / (face / 2.0)
    r = np.maximum(g[:, None], g[None, :]).reshape(-1)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2.0
    sector = ((((np.arctan2(yy, xx) + np.pi) / (2 * np.pi)) * sectors).astype(np.int64) % sectors).reshape(-1)
    out = []
    for lo, hi in rings:
        band = (r >= lo) & (r <= hi)
        parts = tuple(a for a in (np.flatnonzero(band & (sector == k)) for k in range(sectors)) if len(a))
        for a in parts:
            a.setflags(write=False)
        out.append(parts)
    return tuple(out)


def _shaded_share(logp: np.ndarray, parts: tuple[np.ndarray, ...], body: np.ndarray, chroma_max: float,
                  shade_min: float) -> np.ndarray:
    """``float[M]``: share of the sectors ``parts`` of each patch ``logp`` (``float32[M, q*q, 3]`` log-RGB) whose
    median pixel has the chroma of ``body`` (``float[M, 3]``) within ``chroma_max`` and is darker by at least
    ``shade_min`` (log units of the channels' mean)."""
    if not parts:
        return np.zeros(len(logp))
    chans = np.ascontiguousarray(logp.transpose(0, 2, 1))                          # [M, 3, q*q]: a pixel set's row
    med = np.stack([median_last(chans[:, :, ix]) for ix in parts], 1)              # [M, S, 3]
    lum = med.mean(-1) - body.mean(-1)[:, None]
    chroma = (med - med.mean(-1, keepdims=True)) - (body - body.mean(-1, keepdims=True))[:, None, :]
    shaded = (np.sqrt((chroma ** 2).sum(-1)) < chroma_max) & (lum < -shade_min)
    return shaded.mean(1)


def raised_edges(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, config: RollDiceConfig,
                 todo: np.ndarray | None = None, logs: SurroundingLogs | None = None) -> np.ndarray:
    """How much each top face's edges show a raised body, ``float[N]`` 0..2 (-1 where not measured): the share of
    ``evidence_sectors`` sectors of the ring just inside its edges (``raised_bevel``: the bevel) plus the share of
    those of the ring just beyond them (``raised_sides``: the side faces) whose median pixel is the face's own body
    shaded: its chroma within ``raised_chroma`` of the body's, its brightness at least ``raised_shade`` below.

    Measured on an upright patch of ``raised_patch`` px spanning ``surface_span`` sides round each face (the
    middle ``raised_patch / surface_span`` px the face).

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        config: ``raised_bevel``, ``raised_sides``, ``raised_chroma``, ``raised_shade``, ``raised_patch``,
            ``surface_span``, ``evidence_sectors``.
        todo: ``bool[N]``, the faces to measure (others get -1); default all.
        logs: the frame's :class:`vision.roll_dice.shape.SurroundingLogs` of this read, to reuse (None: cut here).

    Returns ``float[N]``. Raises ``ValueError`` for ``logs`` of another frame; empty input gives an empty result.
    """
    rects, out, idx = faces_to_measure(rects, todo)
    if len(idx) == 0:
        return out
    q, span = int(config.raised_patch), float(config.surface_span)
    rings = (tuple(float(v) for v in config.raised_bevel), tuple(float(v) for v in config.raised_sides))
    bevel, sides = _edge_sectors(q, q / span, rings, int(config.evidence_sectors))
    logp = surrounding_logs(frame, rects, idx, q, span, config, logs).reshape(len(idx), q * q, 3)
    body = np.asarray(bodies, np.float32).reshape(-1, 3)[idx]
    c, s = float(config.raised_chroma), float(config.raised_shade)
    out[idx] = _shaded_share(logp, bevel, body, c, s) + _shaded_share(logp, sides, body, c, s)
    return out
