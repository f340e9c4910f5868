"""Is a read box the printed side face of the die beside it? Used by the Roll dice reader (stage ``side_print``,
after the hanging-side test).

Every face of a Roll die carries a symbol, its side faces too. A camera tilted over the table sees, below each die's
top, the side faces turned towards it: each is the strip between a top edge facing the camera's nadir and that edge
moved along the die's vertical edges (towards the nadir, :mod:`vision.roll_dice.nadir`), so its symbol is squashed
along that direction to the strip's reach, a fraction of a side. A box the reader cuts over such a side face reads
that symbol squashed into a square, and matches it less well than the side face matches it once stretched back.

Two real dice lying touching look otherwise alike (overlap, shade, colour: :mod:`vision.roll_dice.sides`), but
beyond the first die's edge there the second die's top starts: stretched from a strip a fraction of a side deep,
it is a piece of a symbol drawn out, which matches no symbol better than the second die's own square does.

So for a box ``i`` lying from a surer die ``j`` of its colour towards the nadir, the strip below ``j``'s nearest
edge facing the nadir is cut at a few reaches (``side_print_reaches``), each stretched back to a square patch, and
matched against the templates; the best of them is compared with the better of the box's own match and the strip
cut a whole side deep (unsquashed: what a second die's top there would match).
"""

from __future__ import annotations

import cv2
import numpy as np

from .assemble import _ramp, die_weights
from .config import RollDiceConfig
from .faces import match_faces_polarised
from .nadir import side_reach_of_tops
from .observations import TopFaces
from .sides import face_arrays, towards_nadir
from .tops import ink_maps

__all__ = ["not_side_print", "side_face_patch", "side_prints"]


def side_face_patch(frame: np.ndarray, rect: np.ndarray, down: np.ndarray, near: np.ndarray,
                    config: RollDiceConfig) -> np.ndarray | None:
    """The side face of the die whose top is ``rect`` (cx, cy, w, h, angle deg; frame px) below its top edge nearest
    ``near`` (``float[2]`` frame px) among the edges facing along ``down``, stretched to an upright square patch
    (``uint8[P+2m, P+2m, 3]``, the face spanning the central ``config.patch`` px, ``config.patch_margin`` px round
    it, as :func:`vision.roll_dice.tops.upright_patch` cuts a top).

    ``down``: ``float[2]`` frame px, the image of the die's vertical edge from its top down to the table (towards
    the camera's nadir, as long as the side face reaches: ``reach`` x side). The patch maps the edge's ends to the
    patch's top corners and the edge moved by ``down`` to its bottom ones, keeping the picture's handedness (a
    symbol is not mirrored). None when no edge faces along ``down`` (the camera straight over the die)."""
    pts = cv2.boxPoints(((float(rect[0]), float(rect[1])), (float(rect[2]), float(rect[3])), float(rect[4])))
    pts = pts.astype(np.float64)
    centre = np.asarray(rect[:2], np.float64)
    down = np.asarray(down, np.float64)
    best, far = None, np.inf
    for k in range(4):
        a, b = pts[k], pts[(k + 1) % 4]
        mid = (a + b) / 2.0
        if (mid - centre) @ down <= 0.0:                       # this edge's side face turns from the camera
            continue
        d = float(np.hypot(*(mid + down / 2.0 - np.asarray(near, np.float64))))
        if d < far:
            best, far = (a, b), d
    if best is None:
        return None
    a, b = best
    e = b - a
    if e[0] * down[1] - e[1] * down[0] < 0.0:                 # left to right along the edge, down the face
        a, b = b, a
    p, m = int(config.patch), int(config.patch_margin)
    src = np.float32([a, b, a + down])
    dst = np.float32([[m, m], [m + p, m], [m, m + p]])
    q = p + 2 * m
    return cv2.warpAffine(frame, cv2.getAffineTransform(src, dst), (q, q), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def side_prints(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, surety: np.ndarray, best: np.ndarray,
                away: np.ndarray, reach: np.ndarray, match, config: RollDiceConfig,
                todo: np.ndarray | None = None) -> np.ndarray:
    """How surely each face is the printed side face of a surer die beside it, ``float[N]`` 0..1 (0 where not
    measured): the largest, over the faces ``j`` measured with ``surety[j] >= surety[i]`` and ``best[j] > best[i]``
    (the better top), ``i`` within ``side_print_apart`` of ``j``'s side from it, towards the nadir from ``j``
    (cosine of the two directions at least ``side_print_cos``), where ``j``'s side faces show (``reach[j]`` at least
    ``side_print_min_reach``) and of ``j``'s chroma (within ``side_chroma_pair``), of ``side_print_ramp`` of

        (best match of ``j``'s side face below its edge nearest ``i``, cut ``r`` sides deep for each ``r`` of
        ``side_print_reaches`` and stretched square) - max(``best[i]``, that side cut a whole side deep)

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB.
        surety: ``float[N]`` how surely each is a die (:func:`vision.roll_dice.assemble.die_weights`).
        best: ``float[N]`` each face's best template NCC.
        away: ``float[N, 2]`` unit vectors from the nadir towards each face; ``reach``: ``float[N]`` how far each
            face's side faces reach, sides (:func:`vision.roll_dice.nadir.towards_top`).
        match: a function of ink patches ``float32[M, 2, q, q]`` giving each one's best NCC over the templates
            ``float[M]``.
        config: ``side_print_*``, ``side_chroma_pair``, ``patch``, ``patch_margin``.
        todo: ``bool[N]``, the faces taking part (as side boxes and as dice); default all.

    Returns ``float[N]``. Raises nothing; empty input gives an empty result.
    """
    rects, bodies, surety, away, reach, todo = face_arrays(rects, bodies, surety, away, reach, todo)
    n = len(rects)
    out = np.zeros(n)
    if config.side_print_ramp is None or todo.sum() < 2:
        return out
    chroma = bodies - bodies.mean(1, keepdims=True)
    best = np.asarray(best, np.float64).reshape(-1)
    side = np.sqrt(rects[:, 2] * rects[:, 3])
    deep = (*config.side_print_reaches, 1.0)
    # every gate for all pairs of the faces taking part at once ([a, b]: the box idx[a], the die idx[b]); the side
    # faces cut only for the pairs left
    idx = np.flatnonzero(todo)
    r = rects[idx]
    d, cos = towards_nadir(r, away[idx])                                                # die to box
    pair = ((surety[idx][None, :] >= surety[idx][:, None]) & (best[idx][None, :] > best[idx][:, None])
            & (reach[idx][None, :] >= config.side_print_min_reach) & (d >= 1e-9)
            & (d <= config.side_print_apart * side[idx][None, :]) & (cos >= config.side_print_cos)
            & (np.linalg.norm(chroma[idx][:, None] - chroma[idx][None, :], axis=-1) < config.side_chroma_pair))
    pairs, patches = [], []
    for a, b in zip(*np.nonzero(pair), strict=True):
        i, j = idx[a], idx[b]
        cut = [side_face_patch(frame, rects[j], -away[j] * x * side[j], rects[i, :2], config) for x in deep]
        if any(c is None for c in cut):
            continue
        pairs.append(i)
        patches.extend(cut)
    if not pairs:
        return out
    inks, _ = ink_maps(np.stack(patches), config)
    got = np.asarray(match(inks), np.float64).reshape(len(pairs), len(deep))
    for i, row in zip(pairs, got, strict=True):
        gain = float(row[:-1].max()) - max(float(best[i]), float(row[-1]))
        out[i] = max(out[i], float(_ramp(gain, config.side_print_ramp)))
    return out


def not_side_print(frame: np.ndarray, tops: TopFaces, ncc: np.ndarray, templates: np.ndarray,
                   template_pol: np.ndarray, config: RollDiceConfig) -> TopFaces:
    """The top faces with the die score of each that is a surer die's printed side face (:func:`side_prints`)
    scaled by 1 - that; only the faces a read would report take part (die weight at least ``min_confidence``); the
    nadir and reach from the faces' size model (:func:`vision.roll_dice.nadir.side_reach_of_tops`); the side faces
    matched as the tops are (:func:`vision.roll_dice.faces.match_faces_polarised` with ``templates`` turned,
    ``template_pol`` each one's print polarity). ``config.side_print_ramp`` None: no test."""
    if config.side_print_ramp is None or len(tops.rects) < 2 or ncc.size == 0:
        return tops
    weights = die_weights(tops, ncc, config)
    todo = weights >= config.min_confidence
    if todo.sum() < 2:
        return tops
    away, reach = side_reach_of_tops(tops, frame.shape[:2], config)

    def match(inks: np.ndarray) -> np.ndarray:
        return match_faces_polarised(inks, templates, template_pol, config).max(1)

    side = side_prints(frame, tops.rects, tops.body, weights, ncc.max(1), away, reach, match, config, todo)
    return tops.lowered(1.0 - side)
