"""Is a read die a box lying partly on another die's top? The Roll dice reader's look at reads beside a surer read of
another colour (stage ``on_other``, :meth:`vision.roll_dice.reader.RollDiceReader.read`, after a die's own side faces
are dropped).

Every die's top face lies in one plane, a die's side above the table, and two dice's tops never overlap there, so
they never overlap in the picture either: a box read on a real die's top holds only that top (and, where the box is a
little off, a sliver of whatever lies beside it). A box found half on a die and half on the cloth or the board beside
it is read as a die of the cloth's colour, or of the board's print, while a good part of it is the top of the die of
another colour it lies on, reaching in from the box's edge.

So a read is dropped when, for a read of another colour at least as sure whose middle lies within ``on_other_reach``
sides of its own, at least ``on_other_share`` of its top face's square is that read's body colour (within
``on_other_distance`` in log-RGB, :func:`vision.roll_dice.foreground.to_log`) and not its own, counting only the
pixels joined to the square's border (:func:`foreign_share`): a symbol printed on the read's own top in an ink of the
other die's colour lies in its middle, inside a margin of its own body, and is not counted.

Measured on the captured reads of the second scene generator's seeds 1000-1059 (1,106 reported dice, 39 false,
before this stage): the real dice reach at most 0.15 of their square in a surer neighbour's colour (boxes a fifth of a
side off towards a neighbour in steep views); the false boxes half on a die of another colour 0.17-0.27; at a fifth
(``on_other_share`` 0.2) 3 false dice are dropped and no real die. The colour distance is the own-colour side-face
test's (:mod:`vision.roll_dice.own_side`). Reads of the same colour are that test's; a read surer than every
neighbour of another colour is never judged.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from .config import RollDiceConfig
from .foreground import to_log
from .observations import RollDieObservation, TopFaces
from .tops import upright_patch

__all__ = ["drop_on_other_dice", "foreign_share", "square_logs"]


def square_logs(frame: np.ndarray, rect: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``float64[q, q, 3]`` log-RGB (:func:`vision.roll_dice.foreground.to_log`) of a top face's square: an upright
    patch of side sqrt(w h) frame px about its middle, ``q`` = ``cfg.on_other_patch`` px across; ``rect``: ``float[5]``
    (cx, cy, w, h, angle deg; frame px) on ``frame`` ``uint8[H, W, 3]`` BGR (its border repeated beyond it)."""
    q = int(cfg.on_other_patch)
    side = float(np.sqrt(max(float(rect[2]) * float(rect[3]), 1.0)))
    return to_log(upright_patch(frame, float(rect[0]), float(rect[1]), side, float(rect[4]), q, 0),
                  cfg).astype(np.float64)


def foreign_share(logs: np.ndarray, body: np.ndarray, other: np.ndarray, cfg: RollDiceConfig) -> float:
    """Share 0..1 of a top face's square that is another read's body colour and not its own, joined to the square's
    border (8-connected).

    Args:
        logs: ``float[q, q, 3]`` the square in log-RGB (:func:`square_logs`).
        body: ``float[3]`` its body colour, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        other: ``float[3]`` the other read's body colour, log-RGB.
        cfg: ``on_other_distance`` (log-RGB): the colour's reach.

    Returns a float; 0 for an empty square. Raises ``ValueError`` for ``logs`` that is not a square of 3 channels.
    """
    logs = np.asarray(logs, np.float64)
    if logs.ndim != 3 or logs.shape[0] != logs.shape[1] or logs.shape[2] != 3:
        raise ValueError(f"foreign_share: a square of log-RGB pixels [q, q, 3], got {logs.shape}")
    if logs.size == 0:
        return 0.0
    own = np.sqrt(((logs - np.asarray(body, np.float64)) ** 2).sum(-1)) < cfg.on_other_distance
    theirs = np.sqrt(((logs - np.asarray(other, np.float64)) ** 2).sum(-1)) < cfg.on_other_distance
    mask = (theirs & ~own).astype(np.uint8)
    if not mask.any():
        return 0.0
    _, labels = cv2.connectedComponents(mask, connectivity=8)
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    edge = edge[edge > 0]
    return float(np.isin(labels, edge).mean()) if len(edge) else 0.0


def drop_on_other_dice(frame: np.ndarray, tops: TopFaces, kept: Sequence[tuple[int, RollDieObservation]],
                       dice: Sequence[RollDieObservation], cfg: RollDiceConfig
                       ) -> tuple[list[tuple[int, RollDieObservation]], tuple[RollDieObservation, ...]]:
    """``(kept, dice)`` less the reads lying partly on a surer die of another colour: a read with a read of another
    colour at least as sure (equal confidence: the one read first counts as surer) whose top face's middle lies within
    ``cfg.on_other_reach`` x its side of its own, and of whose square at least ``cfg.on_other_share`` is that read's
    body colour joined to the border (:func:`foreign_share`). ``kept`` is ``[(top face index into tops, read)]`` in
    the order of ``dice``; both are kept in step. ``cfg.on_other_share`` None or fewer than two reads: both as they
    are. Raises ``ValueError`` when ``kept`` and ``dice`` differ in length or a face index is not one of ``tops``'."""
    kept, dice = list(kept), tuple(dice)
    if len(kept) != len(dice):
        raise ValueError(f"drop_on_other_dice: {len(kept)} kept faces and {len(dice)} reads: one each")
    if cfg.on_other_share is None or len(dice) < 2:
        return kept, dice
    idx = np.array([i for i, _ in kept], np.int64)
    if ((idx < 0) | (idx >= len(tops.rects))).any():
        raise ValueError(f"drop_on_other_dice: face indices {idx.tolist()} for {len(tops.rects)} top faces")
    rects = np.asarray(tops.rects, np.float64)[idx].reshape(-1, 5)
    bodies = np.asarray(tops.body, np.float64)[idx].reshape(-1, 3)
    sides = np.sqrt(np.abs(rects[:, 2] * rects[:, 3]))
    apart = np.hypot(*(rects[None, :, :2] - rects[:, None, :2]).transpose(2, 0, 1))   # [j, k] frame px
    near = apart <= cfg.on_other_reach * sides[:, None]
    drop = np.zeros(len(dice), bool)
    for j, d in enumerate(dice):
        logs = None
        for k in np.flatnonzero(near[j]):
            e = dice[k]
            if k == j or e.colour == d.colour or d.colour is None or e.colour is None:
                continue
            if e.confidence < d.confidence or (e.confidence == d.confidence and k > j):
                continue
            if logs is None:
                logs = square_logs(frame, rects[j], cfg)
            if foreign_share(logs, bodies[j], bodies[k], cfg) >= cfg.on_other_share:
                drop[j] = True
                break
    if not drop.any():
        return kept, dice
    return ([kv for kv, x in zip(kept, drop, strict=True) if not x],
            tuple(d for d, x in zip(dice, drop, strict=True) if not x))
