"""The Roll dice reader's faces of the die sizes not chosen (stage ``other_sizes``): where the size chosen leaves a die
without a top face, the face another tried size cut there is added, if it is plainly one of the owner's dice.

A camera tilted across the table shows near dice larger than far ones, and a cloth's checks or a mat's print cut some
dice apart at one size and run them into the table at another. The size search (:meth:`RollDiceReader._search
<vision.roll_dice.RollDiceReader>`) chooses the size whose faces look most like the owner's dice; every other tried size
has found its own top faces too, and some of them lie where the chosen size has none. A face of a size not chosen has
no vouching of the size search: it counts only with a plain symbol of the owner's dice (a cloth's check cut out at
another size matches a symbol at NCC 0.4-0.5), a die's top (:func:`vision.roll_dice.shape.die_likeness`: one colour to
its rim, standing out all round) and no overlap with a face of the chosen size (two dice's top faces never overlap: a
face that does is that die, or its neighbour, cut at the wrong size)."""

from __future__ import annotations

import numpy as np

from .assemble import _ramp, die_weights, top_overlap
from .config import RollDiceConfig
from .observations import TopFaces
from .shape import die_likeness

__all__ = ["clear_of", "faces_apart", "joined", "other_size_faces", "other_size_guard"]


def faces_apart(rects: np.ndarray, others: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[N]``: which of ``rects`` (``float[N, 5]`` frame px) lie farther than ``duplicate_dist`` x the smaller
    side from every one of ``others`` (``float[M, 5]``): a die of its own, not one of them seen again."""
    if len(rects) == 0 or len(others) == 0:
        return np.ones(len(rects), bool)
    side = np.sqrt(np.abs(rects[:, 2] * rects[:, 3]))[:, None]
    other = np.sqrt(np.abs(others[:, 2] * others[:, 3]))[None, :]
    dist = np.hypot(rects[:, None, 0] - others[None, :, 0], rects[:, None, 1] - others[None, :, 1])
    return (dist > cfg.duplicate_dist * np.minimum(side, other)).all(1)


def clear_of(rects: np.ndarray, others: np.ndarray, share: float) -> np.ndarray:
    """``bool[N]``: which of ``rects`` (``float[N, 5]`` frame px: cx, cy, w, h, angle deg) no top face of ``others``
    (``float[M, 5]``) overlaps by more than ``share`` (0..1) of the smaller of the two
    (:func:`vision.roll_dice.assemble.top_overlap`)."""
    out = np.ones(len(rects), bool)
    if len(rects) == 0 or len(others) == 0:
        return out
    reach = 0.7072 * (np.maximum(rects[:, 2], rects[:, 3])[:, None] + np.maximum(others[:, 2], others[:, 3])[None, :])
    meet = np.hypot(rects[:, None, 0] - others[None, :, 0], rects[:, None, 1] - others[None, :, 1]) < reach
    for i, j in zip(*np.nonzero(meet), strict=True):   # farther apart than their half diagonals: no overlap
        if out[i] and top_overlap(rects[i], others[j]) > share:
            out[i] = False
    return out


def joined(parts: list[TopFaces]) -> TopFaces:
    """The top faces of ``parts`` one after the other (their evidence None where any part has none)."""
    ev = None if any(p.evidence is None for p in parts) else np.concatenate([p.evidence for p in parts])
    return TopFaces(np.concatenate([p.rects for p in parts]),
                    np.concatenate([np.asarray(p.scores, np.float64) for p in parts]),
                    np.concatenate([p.ink for p in parts]), np.concatenate([p.body for p in parts]), ev)


def other_size_guard(faces: TopFaces, chosen: TopFaces, cfg: RollDiceConfig) -> np.ndarray:
    """``float[N]`` 0..1: the factor of the die score of each of ``faces`` (found at a size not chosen) but its symbol:
    its die-likeness on ``other_size_shape_ramp`` (1 without evidence), 0 where a face of ``chosen`` (the size
    chosen) overlaps it by more than ``other_size_overlap``, or where it lies within ``duplicate_dist`` x the smaller
    side of one (:func:`faces_apart`). Known before any face is matched, so a face it zeroes costs no match."""
    n = len(faces.rects)
    shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(n)
    free = faces_apart(faces.rects, chosen.rects, cfg) & clear_of(faces.rects, chosen.rects, cfg.other_size_overlap)
    return _ramp(shape, cfg.other_size_shape_ramp) * free


def other_size_faces(chosen: TopFaces, ncc: np.ndarray, others: list[tuple[TopFaces, np.ndarray]],
                     cfg: RollDiceConfig) -> tuple[TopFaces, np.ndarray]:
    """(top faces, NCC ``float[N + A, K]``): the faces ``chosen`` (``N`` faces at the size chosen, their NCC ``ncc``
    ``float[N, K]``) and after them the ``A`` faces of ``others`` added.

    ``others``: per size not chosen, its top faces and their NCC ``float[M, K]`` (matched and tested for the table's
    pattern as the chosen faces were). Each face's die score is scaled by :func:`other_size_guard` and by its best
    NCC on ``other_size_match_ramp``; those whose die weight (:func:`vision.roll_dice.assemble.die_weights`) then
    reaches ``min_confidence`` are added, of several at one place (within ``duplicate_dist`` x the smaller side) the
    one of the highest die weight. ``other_size_match_ramp`` None: none added. Raises nothing."""
    if cfg.other_size_match_ramp is None:
        return chosen, ncc
    adds: list[tuple[TopFaces, np.ndarray]] = []
    for faces, got in others:
        if len(faces.rects) == 0:
            continue
        best = got.max(1) if got.size else np.zeros(len(faces.rects))
        keep = other_size_guard(faces, chosen, cfg) * _ramp(best, cfg.other_size_match_ramp)
        faces = faces.lowered(keep)
        strong = np.flatnonzero(die_weights(faces, got, cfg) >= cfg.min_confidence)
        if len(strong):
            adds.append((faces.take(strong), got[strong].reshape(len(strong), -1)))
    if not adds:
        return chosen, ncc
    more = joined([a for a, _ in adds])
    ncc_more = np.concatenate([b for _, b in adds])
    kept: list[int] = []
    for i in np.argsort(-die_weights(more, ncc_more, cfg), kind="stable").tolist():   # the surest first
        if faces_apart(more.rects[i:i + 1], more.rects[kept], cfg)[0]:
            kept.append(i)
    kept.sort()
    more = more.take(np.asarray(kept, np.int64))
    return joined([chosen, more]), np.concatenate([ncc.reshape(len(chosen.rects), ncc_more.shape[1]), ncc_more[kept]])
