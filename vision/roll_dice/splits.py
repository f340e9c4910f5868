"""The Roll dice reader's split of two overlapping faces (stage ``other_sizes``, before the faces of other sizes are
added): two touching dice cut too large are read again as two dice.

Roll for the Galaxy, "Roll" (p.4): every die rolled is read on its own, and two dice's tops never overlap. Where the die
size chosen for the frame is too large for the table, two touching dice each get a face running onto the other, and a
read would keep one of them (:func:`vision.roll_dice.assemble._one_per_place`): a die is lost. Two reported faces that
overlap each other (:func:`overlapped`) are each cut again smaller, on their far sides (:func:`smaller_cuts`); faces of
the other sizes tried and these cuts, one under each of the two, apart and clear of each other but about a side apart
(as touching dice lie, :func:`side_apart`), each of a die's shape and matching its symbol better than the face it lies
under, take the places of both (:func:`overlap_splits`, :func:`split_overlapped`).

The faces gathered for a split serve the split alone: the faces of the other sizes are weighed to be added or to take a
chosen face's place (:func:`vision.roll_dice.sizes.other_size_faces_weighed`) as before, so a frame where no pair is
split reads exactly as without the split."""

from __future__ import annotations

import cv2
import numpy as np

from .assemble import _ramp, die_weights, top_overlap
from .config import RollDiceConfig
from .observations import TopFaces
from .shape import die_likeness
from .sizes import clear_of, faces_apart, joined, meets

__all__ = ["overlap_split_could", "overlap_splits", "overlapped", "side_apart", "smaller_cuts", "split_live",
           "split_overlapped"]


def overlapped(chosen: TopFaces, chosen_weights: np.ndarray, cfg: RollDiceConfig,
               away: np.ndarray | None = None) -> np.ndarray:
    """``bool[N, N]`` (symmetric): which pairs of ``chosen`` faces (frame px; die weights ``chosen_weights``
    ``float[N]``) a read would both report (die weight at least ``min_confidence``) while each overlaps the other by
    more than ``other_size_split_overlap`` of the smaller (:func:`vision.roll_dice.assemble.top_overlap`), their
    centres farther apart than ``duplicate_dist`` x the smaller side (closer, they are one die seen twice). Two dice's
    top faces never overlap (Roll for the Galaxy, "Roll", p.4: each die is read on its own): such a pair is two
    touching dice cut too large, or one die and the print beside it. ``other_size_split_overlap`` None: none.
    ``away``: ``bool[N]`` or None, the faces lying where no die is reported (a calibration marker's sheet,
    :class:`vision.roll_dice.kept.Aside`): a pair with such a face is none, decided before any face is cut or matched
    (a marker's black squares overlap each other on every full table). Raises ValueError where ``away`` is not one
    flag a face."""
    n = len(chosen.rects)
    out = np.zeros((n, n), bool)
    if cfg.other_size_split_overlap is None or n < 2:
        return out
    alive = np.asarray(chosen_weights, np.float64) >= cfg.min_confidence
    r = np.asarray(chosen.rects, np.float64)
    side = np.sqrt(np.abs(r[:, 2] * r[:, 3]))
    dist = np.hypot(r[:, None, 0] - r[None, :, 0], r[:, None, 1] - r[None, :, 1])
    reach = 0.7072 * (np.maximum(r[:, 2], r[:, 3])[:, None] + np.maximum(r[:, 2], r[:, 3])[None, :])
    near = (dist > cfg.duplicate_dist * np.minimum(side[:, None], side[None, :])) & (dist < reach)
    if away is not None:
        away = np.asarray(away, bool).reshape(-1)
        if len(away) != n:
            raise ValueError(f"overlapped: {len(away)} set-aside flags for {n} faces")
        alive &= ~away
    near &= alive[:, None] & alive[None, :]
    for a, b in zip(*np.nonzero(np.triu(near, 1)), strict=True):   # farther than the half diagonals: no overlap
        if top_overlap(r[a], r[b]) > cfg.other_size_split_overlap:
            out[a, b] = out[b, a] = True
    return out


def smaller_cuts(chosen: TopFaces, chosen_weights: np.ndarray, ratio: float,
                 cfg: RollDiceConfig, away: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(``float[M, 5]`` frame px, ``int[M]``): where to cut again, and which face of ``chosen`` each cut is of, at
    ``ratio`` (0..1) x its side, each face of ``chosen`` in an :func:`overlapped` pair (die weights ``chosen_weights``
    ``float[N]``), square, its centre moved away from the faces it overlaps by half the side it loses (a face cut too
    large over two touching dice runs onto its neighbour: the die lies on its far side). Empty where no pair overlaps.
    ``away``: as :func:`overlapped`'s. Raises ValueError as :func:`overlapped`."""
    pairs = overlapped(chosen, chosen_weights, cfg, away)
    out = []
    which = np.flatnonzero(pairs.any(1))
    for i in which.tolist():
        r = chosen.rects[i]
        side = float(np.sqrt(abs(r[2] * r[3])))
        away = r[:2] - chosen.rects[pairs[i], :2].mean(0)
        norm = float(np.hypot(*away))
        shift = away / norm * 0.5 * side * (1.0 - ratio) if norm > 1e-9 else np.zeros(2)
        out.append([r[0] + shift[0], r[1] + shift[1], side * ratio, side * ratio, r[4]])
    return np.asarray(out, np.float64).reshape(-1, 5), which


def _under(rects: np.ndarray, big: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[A, B]``: which of ``rects`` (``float[A, 5]`` frame px) are smaller than each of ``big`` (``float[B, 5]``),
    their side (the root of the area) under ``other_size_split_side`` x its, and lie under it by at least
    ``other_size_split_inside`` of their own area."""
    out = np.zeros((len(rects), len(big)), bool)
    area = np.abs(rects[:, 2] * rects[:, 3])
    for j, b in enumerate(big):
        for i in np.flatnonzero(area < cfg.other_size_split_side ** 2 * abs(b[2] * b[3])).tolist():
            x = [float(v) for v in rects[i]]
            ra = ((x[0], x[1]), (x[2], x[3]), x[4])
            rb = ((float(b[0]), float(b[1])), (float(b[2]), float(b[3])), float(b[4]))
            kind, pts = cv2.rotatedRectangleIntersection(ra, rb)
            if kind == cv2.INTERSECT_NONE or pts is None or len(pts) < 3:
                continue
            inter = float(cv2.contourArea(cv2.convexHull(pts.astype(np.float32))))
            out[i, j] = inter >= cfg.other_size_split_inside * float(area[i])
    return out


def overlap_split_could(faces: TopFaces, chosen: TopFaces, chosen_weights: np.ndarray,
                        cfg: RollDiceConfig, away: np.ndarray | None = None) -> np.ndarray:
    """``bool[A]``: which of ``faces`` (``A`` faces of a size not chosen, frame px) could take a place of an
    :func:`overlapped` pair of ``chosen`` (die weights ``chosen_weights`` ``float[N]``) with the best symbol match,
    before any is matched: lying under a face of such a pair (:func:`_under`), of a die's shape (die-likeness at least
    ``other_size_swap_shape``), its die score at NCC 1 scaled by its die-likeness on ``other_size_shape_ramp``
    reaching ``other_size_swap_least`` and ``min_confidence`` (as :func:`overlap_splits` weighs it). None where no
    pair overlaps, or where ``other_size_swap_margin`` is None (no die size vouched for). ``away``: as
    :func:`overlapped`'s. Raises ValueError as :func:`overlapped`."""
    a = len(faces.rects)
    if cfg.other_size_swap_margin is None or a == 0:
        return np.zeros(a, bool)
    pair = overlapped(chosen, chosen_weights, cfg, away).any(1)
    if not pair.any():
        return np.zeros(a, bool)
    shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(a)
    w = _ramp(shape, cfg.other_size_shape_ramp) * die_weights(faces, np.ones((a, 1)), cfg)
    able = (shape >= cfg.other_size_swap_shape) & (w >= max(cfg.min_confidence, cfg.other_size_swap_least))
    return able & _under(faces.rects, chosen.rects[pair], cfg).any(1)


def side_apart(a: np.ndarray, b: np.ndarray, cfg: RollDiceConfig) -> bool:
    """Whether two faces ``a`` and ``b`` (``float[5]`` each, frame px: cx, cy, w, h, angle deg) lie as two touching
    dice do, about a side apart: the smaller's side (the root of its area) at least their centres' distance less
    ``other_size_split_gap`` x that side. Two dice touching edge to edge lie one side apart; a face cut smaller than
    the die it lies on (a piece of one die beside its neighbour) lies farther than its own side from the other.
    Raises nothing."""
    side = float(min(np.sqrt(abs(a[2] * a[3])), np.sqrt(abs(b[2] * b[3]))))
    return side * (1.0 + cfg.other_size_split_gap) >= float(np.hypot(a[0] - b[0], a[1] - b[1]))


def overlap_splits(chosen: TopFaces, chosen_weights: np.ndarray, chosen_ncc: np.ndarray, faces: TopFaces,
                   weights: np.ndarray, ncc: np.ndarray, cfg: RollDiceConfig,
                   away: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(``bool[A]``, ``bool[N]``): which of ``faces`` (``A`` faces of sizes not chosen, frame px, die weights
    ``weights`` ``float[A]``, NCC ``ncc`` ``float[A, K]``) take the places of an :func:`overlapped` pair of
    ``chosen`` (``N`` faces, die weights ``chosen_weights``, NCC ``chosen_ncc`` ``float[N, K]``), and which chosen
    faces they take the places of.

    Roll for the Galaxy, "Roll" (p.4): each die rolled is read on its own, and two dice's tops never overlap, so of two
    reported faces overlapping each other a read would keep one (:func:`vision.roll_dice.assemble._one_per_place`) and
    lose a die where the die size chosen cut two touching dice too large. For each such pair, the faces of other sizes
    under one of its two (:func:`_under`), meeting no other face a read would report (:func:`meets`), of a die's shape
    (die-likeness at least ``other_size_swap_shape``), weighing at least ``other_size_swap_least`` (and
    ``min_confidence``) and matching their best symbol better than the chosen face they lie under (by more than
    ``other_size_split_match`` NCC: a cut that does not find the symbol better is no die of its own), are taken the
    surest first (die weight x best NCC) while each is apart from (:func:`faces_apart`) and clear of
    (:func:`clear_of`, ``other_size_overlap``) those taken and, with the one taken, :func:`side_apart`; where one lies
    under each face of the pair, those taken replace both. A face of a pair already replaced is not taken again.
    Raises nothing."""
    a, n = len(faces.rects), len(chosen.rects)
    take, split = np.zeros(a, bool), np.zeros(n, bool)
    cw = np.asarray(chosen_weights, np.float64)
    pairs = overlapped(chosen, cw, cfg, away)
    if a == 0 or not pairs.any():
        return take, split
    w = np.asarray(weights, np.float64)
    shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(a)
    alive = cw >= cfg.min_confidence
    meet = meets(faces.rects, chosen.rects, cfg) & alive[None, :]
    best = ncc.reshape(a, -1).max(1) if ncc.size else np.zeros(a)
    chosen_best = chosen_ncc.reshape(n, -1).max(1) if chosen_ncc.size else np.zeros(n)
    least = max(cfg.min_confidence, cfg.other_size_swap_least)
    able = (shape >= cfg.other_size_swap_shape) & (w >= least)
    under = _under(faces.rects, chosen.rects, cfg)
    for p, q in zip(*np.nonzero(np.triu(pairs)), strict=True):
        if split[p] or split[q]:
            continue
        pq = np.zeros(n, bool)
        pq[[p, q]] = True
        own = np.where(under[:, p] & ~under[:, q], p, np.where(under[:, q] & ~under[:, p], q, -1))
        # each under one face of the pair only, matching at least as well as that face, meeting no other face
        fits = able & (own >= 0) & ~take & ~(meet & ~pq[None, :]).any(1)
        fits &= best > np.where(own == p, chosen_best[p], chosen_best[q]) + cfg.other_size_split_match
        kept: list[int] = []
        for i in np.flatnonzero(fits)[np.argsort(-(w * best)[fits], kind="stable")].tolist():
            if any(own[j] == own[i] for j in kept):
                continue
            r = faces.rects[i:i + 1]
            if (faces_apart(r, faces.rects[kept], cfg)[0] and clear_of(r, faces.rects[kept], cfg.other_size_overlap)[0]
                    and all(side_apart(faces.rects[i], faces.rects[j], cfg) for j in kept)):
                kept.append(i)
        if len(kept) == 2:
            take[kept] = True
            split[[p, q]] = True
    return take, split


def split_overlapped(chosen: TopFaces, ncc: np.ndarray, pool: list[tuple[TopFaces, np.ndarray]],
                     cfg: RollDiceConfig, away: np.ndarray | None = None) -> tuple[TopFaces, np.ndarray, np.ndarray]:
    """(top faces, NCC ``float[N', K]``, ``bool[len(pool)]``): ``chosen`` (``N`` faces at the size chosen, frame px,
    their NCC ``ncc`` ``float[N, K]``) with each :func:`overlapped` pair that :func:`overlap_splits` splits left out,
    and the faces of ``pool`` that take its places after them; and which entries of ``pool`` gave a face.

    ``pool``: top faces and their NCC ``float[M, K]`` (matched and tested for the table's pattern as the chosen faces
    were): the faces of the other sizes tried and the pair's faces cut again smaller (:func:`smaller_cuts`). Each face
    is weighed as the chosen faces are, its score scaled by its die-likeness on ``other_size_shape_ramp`` only;
    those of a die's shape (``other_size_swap_shape``) and weighing ``min_confidence`` are the candidates. A chosen face
    a face taken meets (:func:`meets`) is left out too. Where no pair is split, ``chosen`` and ``ncc`` are returned as
    they are. ``other_size_swap_margin`` None (no die size vouched for) or ``other_size_split_overlap`` None: none is
    split. ``away``: as :func:`overlapped`'s (no pair with a face set aside is split). Raises ValueError as
    :func:`overlapped`."""
    none = np.zeros(len(pool), bool)
    n = len(chosen.rects)
    if cfg.other_size_swap_margin is None or cfg.other_size_split_overlap is None or n < 2 or not pool:
        return chosen, ncc, none
    chosen_ncc = ncc.reshape(n, -1)
    chosen_w = die_weights(chosen, chosen_ncc, cfg)
    if not overlapped(chosen, chosen_w, cfg, away).any():
        return chosen, ncc, none
    parts, part_ncc, source = [], [], []
    for j, (faces, got) in enumerate(pool):
        m = len(faces.rects)
        if m == 0:
            continue
        shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(m)
        met = faces.lowered(_ramp(shape, cfg.other_size_shape_ramp))   # weighed as the chosen faces are
        got = got.reshape(m, -1)
        could = np.flatnonzero((shape >= cfg.other_size_swap_shape)
                               & (die_weights(met, got, cfg) >= cfg.min_confidence))
        if len(could):
            parts.append(met.take(could))
            part_ncc.append(got[could])
            source.append(np.full(len(could), j))
    if not parts:
        return chosen, ncc, none
    cand, cand_ncc, src = joined(parts), np.concatenate(part_ncc), np.concatenate(source)
    take, split = overlap_splits(chosen, chosen_w, chosen_ncc, cand, die_weights(cand, cand_ncc, cfg), cand_ncc, cfg,
                                 away)
    if not take.any():
        return chosen, ncc, none
    taken = np.flatnonzero(take)
    stay = np.flatnonzero(~split & ~meets(cand.rects[taken], chosen.rects, cfg).any(0))
    gave = none.copy()
    gave[src[taken]] = True
    return (joined([chosen.take(stay), cand.take(taken)]),
            np.concatenate([chosen_ncc[stay], cand_ncc[taken]]), gave)


def split_live(rects: list[np.ndarray], chosen: TopFaces, chosen_weights: np.ndarray, cfg: RollDiceConfig,
               away: np.ndarray | None = None) -> list[np.ndarray]:
    """Per entry of ``rects`` (``float[A_j, 5]`` frame px each: the faces of a size not chosen, or cuts, that
    :func:`overlap_split_could` passed), ``bool[A_j]``: which lie under a face of an :func:`overlapped` pair of
    ``chosen`` (die weights ``chosen_weights`` ``float[N]``; ``away`` as :func:`overlapped`'s) whose two faces each
    have one of all ``rects`` under them (:func:`_under`). :func:`overlap_splits` replaces a pair only with one face
    under each of its two, so the others can split no pair: they need no symbol match, decided before any is matched
    (on a full table a face of a die beside a tile's print overlaps the print's face, and only the die's side has a
    cut that could be a die). Raises ValueError as :func:`overlapped`."""
    pairs = overlapped(chosen, chosen_weights, cfg, away)
    if not pairs.any() or not rects:
        return [np.zeros(len(r), bool) for r in rects]
    under = [_under(np.asarray(r, np.float64).reshape(-1, 5), chosen.rects, cfg) for r in rects]
    covered = np.logical_or.reduce([u.any(0) for u in under])          # bool[N]: a candidate lies under it
    live = (pairs & covered[None, :]).any(1) & covered                    # in a pair whose both faces are covered
    return [u[:, live].any(1) for u in under]
