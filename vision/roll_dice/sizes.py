"""The Roll dice reader's faces of the die sizes not chosen (stage ``other_sizes``): where the size chosen leaves a die
without a top face, the face another tried size cut there is added, if it is plainly one of the owner's dice.

A camera tilted across the table shows near dice larger than far ones, and a cloth's checks or a mat's print cut some
dice apart at one size and run them into the table at another. The size search (:meth:`RollDiceReader._search
<vision.roll_dice.RollDiceReader>`) chooses the size whose faces look most like the owner's dice; every other tried size
has found its own top faces too, and some of them lie where the chosen size has none. A face of a size not chosen has
no vouching of the size search: it counts only with a plain symbol of the owner's dice (a cloth's check cut out at
another size matches a symbol at NCC 0.4-0.5), a die's top (:func:`vision.roll_dice.shape.die_likeness`: one colour to
its rim, standing out all round) and no overlap with a face of the chosen size (two dice's top faces never overlap: a
face that does is that die, or its neighbour, cut at the wrong size).

On a tilted table the one size chosen is wrong at one end: there its faces cut a die into a piece or run it into the
table and score low, while another size's face of the same die scores high. Such a face takes the place of the chosen
faces it meets (:func:`other_size_swaps`) when it is plainly surer than each of them and its side fits the table's
plane (:func:`vision.roll_dice.shape.expected_sides`) better than those of theirs a read would report; only a face
plainly of a die's shape and sure enough by itself: otherwise a panel of a tile's art, a printed board's box or a
cloth's check cut at another size takes the place of a piece of print (their symbols match as well as a white die's).
Where any face is added or swapped in, the sizes whose faces were weighed to be added or to swap are all the read
needs of the others (:func:`other_size_faces_weighed`); where none is, it needs none: a reader of one fixed camera
looks at those again, not at every size."""

from __future__ import annotations

import numpy as np

from .assemble import _ramp, die_weights, top_overlap
from .config import RollDiceConfig
from .observations import TopFaces
from .shape import die_likeness, expected_sides

__all__ = ["clear_of", "faces_apart", "joined", "meets", "off_plane", "other_size_could", "other_size_faces",
           "other_size_faces_weighed", "other_size_guard", "other_size_swaps"]


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


def meets(rects: np.ndarray, others: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[N, M]``: where ``others[j]`` (``float[M, 5]`` frame px) lies within ``duplicate_dist`` x the smaller
    side of ``rects[i]`` (``float[N, 5]``) or overlaps it by more than ``other_size_overlap`` of the smaller
    (:func:`faces_apart`, :func:`clear_of` pair by pair)."""
    n, m = len(rects), len(others)
    if n == 0 or m == 0:
        return np.zeros((n, m), bool)
    side = np.sqrt(np.abs(rects[:, 2] * rects[:, 3]))[:, None]
    other = np.sqrt(np.abs(others[:, 2] * others[:, 3]))[None, :]
    dist = np.hypot(rects[:, None, 0] - others[None, :, 0], rects[:, None, 1] - others[None, :, 1])
    out = dist <= cfg.duplicate_dist * np.minimum(side, other)
    reach = 0.7072 * (np.maximum(rects[:, 2], rects[:, 3])[:, None] + np.maximum(others[:, 2], others[:, 3])[None, :])
    for i, j in zip(*np.nonzero((dist < reach) & ~out), strict=True):
        if top_overlap(rects[i], others[j]) > cfg.other_size_overlap:
            out[i, j] = True
    return out


def _surest_met(meet: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``float[N]``: the highest of ``weights`` (``float[M]``) over the faces each row of ``meet`` (``bool[N, M]``)
    meets, -inf where it meets none."""
    if meet.shape[1] == 0:
        return np.full(meet.shape[0], -np.inf)
    return np.where(meet, np.asarray(weights, np.float64)[None, :], -np.inf).max(1)


def other_size_could(faces: TopFaces, chosen: TopFaces, chosen_weights: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[N]``: which of ``faces`` (found at a size not chosen) could be added or take a chosen face's place with
    the best symbol match, before any is matched: :func:`other_size_guard` x its die score at NCC 1 reaches
    ``min_confidence``, or, where it meets faces of ``chosen`` (their die weights ``chosen_weights`` ``float[M]``),
    its die-likeness reaches ``other_size_swap_shape`` and its die-likeness factor x that score reaches
    ``min_confidence``, ``other_size_swap_least`` and each of theirs + ``other_size_swap_margin``."""
    n = len(faces.rects)
    upper = die_weights(faces, np.ones((n, 1)), cfg)
    sure = None if cfg.other_size_swap_margin is None else chosen_weights   # a die size vouched for: see the guard
    could = other_size_guard(faces, chosen, cfg, sure) * upper >= cfg.min_confidence
    if cfg.other_size_swap_margin is None or n == 0:
        return could
    shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(n)
    w = _ramp(shape, cfg.other_size_shape_ramp) * upper
    top = _surest_met(meets(faces.rects, chosen.rects, cfg), chosen_weights)
    return could | ((shape >= cfg.other_size_swap_shape) & (w >= max(cfg.min_confidence, cfg.other_size_swap_least))
                    & (w >= top + cfg.other_size_swap_margin))


def other_size_swaps(chosen: TopFaces, chosen_weights: np.ndarray, faces: TopFaces, weights: np.ndarray,
                     also: TopFaces, also_weights: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``bool[A]``: which of ``faces`` (``A`` faces of sizes not chosen, die weights ``weights``) take the place of the
    faces of ``chosen`` (die weights ``chosen_weights``) they meet (:func:`meets`): each weighs at least
    ``other_size_swap_least`` (and ``min_confidence``) and is surer than every one of them by
    ``other_size_swap_margin``, and its side (px, the root of its area) lies within ``other_size_swap_fit``
    (a share) of the side the table's plane gives a die at its place and nearer to it than each of theirs that a
    read would report (die weight at least ``min_confidence``; a box no read reports is no die whose side could
    be the better one, as in :func:`other_size_guard`). The plane
    (:func:`vision.roll_dice.shape.expected_sides`) is fitted on ``chosen``, ``also`` (the faces of other sizes
    added where the size chosen has none, die weights ``also_weights``) and ``faces``, each weighted by its die
    weight: the surest dice of every size say how large a die is where. ``other_size_swap_margin`` None: none."""
    a = len(faces.rects)
    if cfg.other_size_swap_margin is None or a == 0:
        return np.zeros(a, bool)
    meet = meets(faces.rects, chosen.rects, cfg)
    top = _surest_met(meet, chosen_weights)
    least = max(cfg.min_confidence, cfg.other_size_swap_least)
    sure = meet.any(1) & (weights >= least) & (weights >= top + cfg.other_size_swap_margin)
    if not sure.any():
        return sure
    rects = np.concatenate([chosen.rects, also.rects, faces.rects])
    off = off_plane(rects, np.concatenate([np.asarray(chosen_weights, np.float64), np.asarray(also_weights, np.float64),
                                           np.asarray(weights, np.float64)]), cfg)
    n = len(chosen.rects)
    mine = off[len(rects) - a:]
    alive = np.asarray(chosen_weights, np.float64) >= cfg.min_confidence   # faces a read would report
    theirs = np.where(meet & alive[None, :], off[:n][None, :], np.inf).min(1) if n else np.full(a, np.inf)
    return sure & (mine <= cfg.other_size_swap_fit) & (mine < theirs)


def off_plane(rects: np.ndarray, weights: np.ndarray, cfg: RollDiceConfig) -> np.ndarray:
    """``float[N]``: how far each of ``rects`` (``float[N, 5]`` frame px) is in side (the root of its area) from the
    side the table's plane gives a die at its place, as a share of that side (0: on the plane). The plane
    (:func:`vision.roll_dice.shape.expected_sides`) is fitted on the rects weighted by ``weights`` (``float[N]``, their
    die weights): a rect of weight 0 is measured against it without moving it."""
    sides = np.sqrt(np.abs(rects[:, 2] * rects[:, 3]))
    return np.abs(sides / np.maximum(expected_sides(rects[:, :2], sides, weights, cfg), 1e-9) - 1.0)


def joined(parts: list[TopFaces]) -> TopFaces:
    """The top faces of ``parts`` one after the other (their evidence None where any part has none)."""
    ev = None if any(p.evidence is None for p in parts) else np.concatenate([p.evidence for p in parts])
    return TopFaces(np.concatenate([p.rects for p in parts]),
                    np.concatenate([np.asarray(p.scores, np.float64) for p in parts]),
                    np.concatenate([p.ink for p in parts]), np.concatenate([p.body for p in parts]), ev)


def other_size_guard(faces: TopFaces, chosen: TopFaces, cfg: RollDiceConfig,
                     chosen_weights: np.ndarray | None = None) -> np.ndarray:
    """``float[N]`` 0..1: the factor of the die score of each of ``faces`` (found at a size not chosen) but its symbol:
    its die-likeness on ``other_size_shape_ramp`` (1 without evidence), 0 where a face of ``chosen`` (the size
    chosen) overlaps it by more than ``other_size_overlap``, or where it lies within ``duplicate_dist`` x the smaller
    side of one (:func:`faces_apart`). With ``chosen_weights`` (``float[M]``, the chosen faces' die weights), for a
    face whose side lies within ``other_size_swap_fit`` (a share) of the side the plane of the chosen faces (weighted
    by those weights, :func:`off_plane`) gives a die at its place, only the chosen faces a read would report (at
    least ``min_confidence``) count: a face no read reports (a box cut across a tilted die's top and side, matching
    no symbol) is no die that face could be seen again of. A face off the plane is another size's cut of something
    else (a box that size's own size model widened round a die and the print beside it): every chosen face keeps it
    out, as without weights. The callers give them only where a face can take a chosen face's place
    (``other_size_swap_margin`` set: the size search vouched for a die size; on an empty printed table every face is
    weak and none says where a die is). Known before any face is matched, so a face it zeroes costs no match."""
    n = len(faces.rects)
    shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(n)
    free = faces_apart(faces.rects, chosen.rects, cfg) & clear_of(faces.rects, chosen.rects, cfg.other_size_overlap)
    if chosen_weights is not None and n and len(chosen.rects):
        w = np.asarray(chosen_weights, np.float64)
        sure = w >= cfg.min_confidence
        fits = off_plane(np.concatenate([chosen.rects, faces.rects]), np.r_[w, np.zeros(n)],
                         cfg)[len(w):] <= cfg.other_size_swap_fit
        if not sure.all() and fits.any():
            rects = chosen.rects[sure]
            free = np.where(fits, faces_apart(faces.rects, rects, cfg)
                            & clear_of(faces.rects, rects, cfg.other_size_overlap), free)
    return _ramp(shape, cfg.other_size_shape_ramp) * free


def other_size_faces(chosen: TopFaces, ncc: np.ndarray, others: list[tuple[TopFaces, np.ndarray]],
                     cfg: RollDiceConfig) -> tuple[TopFaces, np.ndarray]:
    """(top faces, NCC ``float[N' + A, K]``): :func:`other_size_faces_weighed` without which sizes it needs."""
    got, got_ncc, _ = other_size_faces_weighed(chosen, ncc, others, cfg)
    return got, got_ncc


def other_size_faces_weighed(chosen: TopFaces, ncc: np.ndarray, others: list[tuple[TopFaces, np.ndarray]],
                             cfg: RollDiceConfig) -> tuple[TopFaces, np.ndarray, np.ndarray]:
    """(top faces, NCC ``float[N' + A, K]``, ``bool[len(others)]``): the faces ``chosen`` (``N`` faces at the size
    chosen, their NCC ``ncc`` ``float[N, K]``) but those another size's face takes the place of, and after them the
    ``A`` faces of ``others`` added; and which sizes of ``others`` the outcome needs: none where no face is added or
    takes a chosen face's place (the outcome is ``chosen`` as it is), else those that had a face weighed to be added
    or to take a chosen face's place (the others are no part of the outcome: without them it is the same).

    ``others``: per size not chosen, its top faces and their NCC ``float[M, K]`` (matched and tested for the table's
    pattern as the chosen faces were). Each face's die score is scaled by :func:`other_size_guard` and by its best
    NCC on ``other_size_match_ramp``; those whose die weight (:func:`vision.roll_dice.assemble.die_weights`) then
    reaches ``min_confidence`` are added. A face meeting chosen faces, of die-likeness at least
    ``other_size_swap_shape``, its score scaled by its die-likeness on ``other_size_shape_ramp`` only (its die
    weight then measured as theirs is: something die-like lies there at both sizes), is added in their place where
    :func:`other_size_swaps` says.
    Of several at one place (within ``duplicate_dist`` x the smaller side) the one of the highest die weight is
    kept; the chosen faces a kept replacing face meets are left out. ``other_size_match_ramp`` None: none added.
    Raises nothing."""
    weighed = np.zeros(len(others), bool)
    if cfg.other_size_match_ramp is None:
        return chosen, ncc, weighed
    chosen_w = die_weights(chosen, ncc.reshape(len(chosen.rects), -1), cfg) if len(chosen.rects) else np.zeros(0)
    adds: list[tuple[TopFaces, np.ndarray]] = []
    swaps: list[tuple[TopFaces, np.ndarray]] = []
    for j, (faces, got) in enumerate(others):
        if len(faces.rects) == 0:
            continue
        best = got.max(1) if got.size else np.zeros(len(faces.rects))
        match = _ramp(best, cfg.other_size_match_ramp)
        free = faces.lowered(other_size_guard(faces, chosen, cfg,
                                              None if cfg.other_size_swap_margin is None else chosen_w) * match)
        strong = np.flatnonzero(die_weights(free, got, cfg) >= cfg.min_confidence)
        if len(strong):
            adds.append((free.take(strong), got[strong].reshape(len(strong), -1)))
            weighed[j] = True
        if cfg.other_size_swap_margin is not None:
            shape = die_likeness(faces.evidence, cfg) if faces.evidence is not None else np.ones(len(faces.rects))
            met = faces.lowered(_ramp(shape, cfg.other_size_shape_ramp))   # weighed as the chosen faces are
            could = np.flatnonzero(meets(faces.rects, chosen.rects, cfg).any(1) & (shape >= cfg.other_size_swap_shape)
                                   & (die_weights(met, got, cfg) >= cfg.min_confidence))
            if len(could):
                swaps.append((met.take(could), got[could].reshape(len(could), -1)))
                weighed[j] = True
    n_add = sum(len(f.rects) for f, _ in adds)
    if swaps:
        also = joined([f for f, _ in adds]) if adds else chosen.take(np.zeros(0, np.int64))
        also_w = die_weights(also, np.concatenate([g for _, g in adds]), cfg) if adds else np.zeros(0)
        cand = joined([f for f, _ in swaps])
        cand_ncc = np.concatenate([g for _, g in swaps])
        take = np.flatnonzero(other_size_swaps(chosen, chosen_w, cand, die_weights(cand, cand_ncc, cfg), also,
                                               also_w, cfg))
        if len(take):
            adds.append((cand.take(take), cand_ncc[take]))
    if not adds:   # nothing of the other sizes in the outcome: none needed
        return chosen, ncc, np.zeros(len(others), bool)
    more = joined([a for a, _ in adds])
    ncc_more = np.concatenate([b for _, b in adds])
    kept: list[int] = []
    for i in np.argsort(-die_weights(more, ncc_more, cfg), kind="stable").tolist():   # the surest first
        if faces_apart(more.rects[i:i + 1], more.rects[kept], cfg)[0]:
            kept.append(i)
    kept.sort()
    stay = np.ones(len(chosen.rects), bool)
    replacing = [i for i in kept if i >= n_add]
    if replacing:
        stay &= ~meets(more.rects[replacing], chosen.rects, cfg).any(0)
    more = more.take(np.asarray(kept, np.int64))
    left = np.flatnonzero(stay)
    k = ncc_more.shape[1]
    return (joined([chosen.take(left), more]),
            np.concatenate([ncc.reshape(len(chosen.rects), k)[left], ncc_more[kept]]), weighed)
