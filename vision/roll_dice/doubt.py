"""How much a read's being a die of its own rests on one side: a box that may be a neighbour's side face is never
reported as sure (stage ``doubt`` of the Roll dice reader, :meth:`vision.roll_dice.reader.RollDiceReader.read`).

A camera over a table sees, beside each die's top face, the side faces that turn towards it; they hang from the top
towards the camera's nadir (:mod:`vision.roll_dice.nadir`), carry a symbol of their own, and far from the nadir can
look nearly as square as a top. The side-face tests that lower a face's die score (:func:`vision.roll_dice.sides.
side_faces`, :func:`vision.roll_dice.sides.hanging_sides`) act only where the top matches or is surer than the side:
when glare or a worn print spoils the top, the side's clear symbol wins and was reported at up to 0.997. Which of
the two is the die cannot always be told, but it is never certain: a read that lies from another read of its colour
towards the nadir, darker, touching it and running less than a die's side beyond it is capped below the confidence
at which the flow stops asking. Only confidences change: the dice found, their colours and faces stay as read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .assemble import die_weights
from .config import RollDiceConfig
from .nadir import side_reach_of_tops
from .observations import RollDieObservation, TopFaces
from .sides import _ramp, _run_beyond

__all__ = ["capped_by_side_doubt", "side_doubt"]


def side_doubt(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, away: np.ndarray, reach: np.ndarray,
               config: RollDiceConfig, todo: np.ndarray | None = None) -> np.ndarray:
    """How surely each face may be another face's side face, whichever of the two matches or scores better,
    ``float[N]`` 0..1 (0 where not measured): the largest, over the other faces ``j`` measured, of the product of

    * its centre ``side_reach`` (lo, hi) x ``j``'s side from ``j``'s (1 inside, 0 outside): touching ``j``;
    * the cosine between the direction from ``j`` to it and from ``j`` towards the nadir (``-away[j]``) on
      ``hang_cos_ramp``, and ``j``'s side faces' reach (``reach[j]``, sides) on ``hang_reach_ramp``: side faces hang
      towards the nadir, and show only away from it;
    * its body colour's chroma within ``side_chroma_pair`` of ``j``'s (log units) and darker than ``j``'s by
      ``side_shade_ramp`` (log units of the channels' mean: turned from the light);
    * foreshortened: 1 - ``side_full_ramp`` of how far its body colour runs beyond ``j``'s edge towards it
      (:func:`vision.roll_dice.sides._run_beyond`, sides): a second die lying against ``j`` runs a full side.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        away: ``float[N, 2]`` unit vectors from the nadir towards each face (:func:`vision.roll_dice.nadir.
            towards_top`; zero at the nadir).
        reach: ``float[N]`` how far each face's side faces reach towards the nadir, sides.
        config: ``side_reach``, ``hang_cos_ramp``, ``hang_reach_ramp``, ``side_chroma_pair``, ``side_shade_ramp``,
            ``side_full_ramp`` (None: the run is not measured, every touching face counts as foreshortened),
            ``side_strip``, ``side_colour``, ``side_gap``.
        todo: ``bool[N]``, the faces taking part (as side faces and as tops); default all.

    Returns ``float[N]``. Raises nothing; empty input gives an empty result.
    """
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    n = len(rects)
    out = np.zeros(n)
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool).reshape(-1)
    if todo.sum() < 2:
        return out
    bodies = np.asarray(bodies, np.float64).reshape(-1, 3)
    bright = bodies.mean(1)
    chroma = bodies - bright[:, None]
    away = np.asarray(away, np.float64).reshape(-1, 2)
    reach = np.asarray(reach, np.float64).reshape(-1)
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    v = rects[:, None, :2] - rects[None, :, :2]                                          # [i, j]: j to i, px
    d = np.hypot(v[..., 0], v[..., 1])
    cos = -(v[..., 0] * away[None, :, 0] + v[..., 1] * away[None, :, 1]) / np.maximum(d, 1e-9)
    lo, hi = config.side_reach
    doubt = (_ramp(bright[None, :] - bright[:, None], config.side_shade_ramp) * _ramp(cos, config.hang_cos_ramp)
             * _ramp(reach, config.hang_reach_ramp)[None, :])
    doubt *= (d >= lo * side[None, :]) & (d <= hi * side[None, :]) & todo[:, None] & todo[None, :]
    doubt *= np.linalg.norm(chroma[:, None, :] - chroma[None, :, :], axis=-1) < config.side_chroma_pair
    np.fill_diagonal(doubt, 0.0)
    for i, j in zip(*np.nonzero(doubt > 0.0), strict=True):
        if doubt[i, j] <= out[i]:
            continue
        full = 0.0
        if config.side_full_ramp is not None:
            run = _run_beyond(frame, rects[j], v[i, j] / d[i, j], bodies[i].astype(np.float32), config)
            full = float(_ramp(run, config.side_full_ramp))
        out[i] = max(out[i], float(doubt[i, j]) * (1.0 - full))
    return out


def capped_by_side_doubt(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray,
                         kept: Sequence[tuple[int, RollDieObservation]], dice: Sequence[RollDieObservation],
                         config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` (in the order of ``kept``, ``[(top face index, read)]`` of
    :func:`vision.roll_dice.assemble.assemble_indexed`) with each one's confidence capped at
    ``1 - doubt x (1 - side_doubt_cap)``, ``doubt`` its :func:`side_doubt` among the faces a read would report
    (:func:`vision.roll_dice.assemble.die_weights` at least ``min_confidence``), the nadir and the side faces' reach
    from the faces' size model (:func:`vision.roll_dice.shape.expected_sides`, :func:`vision.roll_dice.nadir.
    nadir_point`). ``side_doubt_cap`` None: ``dice`` as they are. ``ncc``: ``float[N, K]``. Raises nothing."""
    dice = tuple(dice)
    if config.side_doubt_cap is None or len(dice) < 2 or len(tops.rects) < 2:
        return dice
    todo = die_weights(tops, ncc, config) >= config.min_confidence
    idx = np.array([i for i, _ in kept], np.int64)
    if todo.sum() < 2:
        return dice
    away, reach = side_reach_of_tops(tops, frame.shape[:2], config)
    doubt = side_doubt(frame, tops.rects, tops.body, away, reach, config, todo)
    cap = 1.0 - doubt[idx] * (1.0 - float(config.side_doubt_cap))
    return tuple(obs if obs.confidence <= c else replace(obs, confidence=float(c))
                 for obs, c in zip(dice, cap, strict=True))
