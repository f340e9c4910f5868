"""How surely a Roll die's read colour is its body's (stage ``body_doubt`` of the Roll dice reader,
:meth:`vision.roll_dice.reader.RollDiceReader.read`).

The colour of a die is its body, not its ink nor what it lies on. The body is measured on the read box's rim
(:func:`vision.roll_dice.tops.body_colour`); when the box is larger than the die or slid off it, that rim is the
table, a player board's print or a neighbour, and the read colour is that surface's (a red die on a brown playmat read
brown, its colour posterior 0.99). The body is therefore measured again on smaller squares inside the read box (where
a die's own face is, whatever its box's margin), and a read is never surer than the chance those bodies give its
colour. Only confidences change: the dice found, their colours and faces stay as read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from .config import RollDiceConfig
from .foreground import to_log
from .observations import RollDieObservation, TopFaces
from .sheen import sheen_posteriors
from .tops import body_colours, rim_weights, upright_patch

__all__ = ["BODY_DOUBT_SIZE", "capped_by_body_doubt", "inner_bodies"]

#: Side (px) of the upright patch each inner square is cut at to measure its body.
BODY_DOUBT_SIZE = 32


def inner_bodies(frame: np.ndarray, rect: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """Body colours ``float[M, 3]`` (log-RGB, :func:`vision.roll_dice.tops.body_colours` with the rim weighed) of the
    squares inside one read box ``rect`` (``float[5]``: cx, cy, w, h, angle deg; frame px) at ``body_doubt_scale``
    of its side: one at its middle and one shifted by ``body_doubt_shift`` x its side towards each of its four sides
    (M = 5). ``frame``: ``uint8[H, W, 3]`` BGR. Raises nothing for a box partly outside the frame (the border is
    black, as :func:`vision.roll_dice.tops.upright_patch` cuts it)."""
    cx, cy, w, h, ang = (float(v) for v in rect)
    side = float(np.sqrt(max(w * h, 1.0)))
    a = np.deg2rad(ang)
    ux, uy = np.cos(a), np.sin(a)       # the box's own axes in the frame
    vx, vy = -np.sin(a), np.cos(a)
    inner = side * config.body_doubt_scale
    step = side * config.body_doubt_shift
    offsets = ((0.0, 0.0), (step, 0.0), (-step, 0.0), (0.0, step), (0.0, -step))
    size = BODY_DOUBT_SIZE
    patches = np.stack([upright_patch(frame, cx + dx * ux + dy * vx, cy + dx * uy + dy * vy, inner, ang, size, 0)
                        for dx, dy in offsets])
    return body_colours(to_log(patches, config), weights=rim_weights(size, float(size))).astype(np.float64)


def capped_by_body_doubt(frame: np.ndarray, tops: TopFaces, kept: Sequence[tuple[int, RollDieObservation]],
                         dice: Sequence[RollDieObservation], protos: np.ndarray, colours: Sequence[str],
                         light: np.ndarray, config: RollDiceConfig) -> tuple[RollDieObservation, ...]:
    """The reads ``dice`` (in the order of ``kept``, ``[(top face index, read)]``) with each one's confidence at most
    the median, over the squares inside its box (:func:`inner_bodies`), of the chance those squares' bodies give its
    read colour among the enrolled ones (:func:`vision.roll_dice.sheen.sheen_posteriors`: the plain colour metric
    that also forgives a lamp's sheen, under the frame's ``light`` ``float[4]``). A box whose rim lies on the table, a
    board's print or a neighbour reads that surface's colour, while a die's face fills the squares inside it: the read
    is then no surer than they make its colour, so the table is asked. The median lets one square on the symbol or a
    glare spot not doubt a plain die. ``tops``: the top faces ``kept`` indexes (their rects, frame px); ``protos``
    ``float[C, 3]`` log-RGB in the order of ``colours``. ``body_doubt_scale`` None: ``dice`` as they are. Raises
    ``ValueError`` for a read of a colour not in ``colours``."""
    dice = tuple(dice)
    if config.body_doubt_scale is None or not dice:
        return dice
    names = list(colours)
    out = []
    for (i, _), obs in zip(kept, dice, strict=True):
        c = names.index(obs.colour)
        if obs.confidence <= 0.0:
            out.append(obs)
            continue
        p = sheen_posteriors(inner_bodies(frame, tops.rects[i], config), protos, light, config)[:, c]
        cap = float(np.median(p))
        out.append(obs if obs.confidence <= cap else replace(obs, confidence=cap))
    return tuple(out)
