"""Stage 6 of the hex reader: each hexagon crop's structure maps turned by the six 60-degree steps, compared
with every reference of a hex deck (coarse, then at small shifts for a shortlist), the frame's decision
('not in the deck' against the other hexes), and the hex most like the anchor when none was identified."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..card_features import IdConfig, crop_features_many, inner_maps, mask_face, normalise_maps, shifted_maps
from ..deck import DeckProfile
from .config import HexesConfig

__all__ = ["HexScore", "decide_hexes", "likely_anchor", "score_hex", "score_hexes", "turned_maps", "turned_maps_many"]


def turned_maps(crop: np.ndarray, cfg: IdConfig) -> tuple[np.ndarray, np.ndarray]:
    """(maps float32[6, C, H+2s, W+2s], colour histogram float32[bins]) of one upright hexagon crop
    (:func:`hex_crop`) turned by each of the six 60-degree steps: ``maps[k]`` are the masked structure maps
    (:func:`vision.card_features.card_features`) of the crop whose top is the hexagon's edge k (what
    ``hex_crop(image, np.roll(corners, -k, axis=0))`` gives), computed once and turned (the orientation
    channels' doubled angles turned with them) instead of warping and featuring six crops."""
    maps, hists = turned_maps_many([crop], cfg)
    return maps[0], hists[0]


def turned_maps_many(crops: list[np.ndarray], cfg: IdConfig) -> tuple[np.ndarray, list[np.ndarray]]:
    """:func:`turned_maps` of each of n hexagon crops (uint8[S, S, 3] each, one size), the same numbers to the last
    bit: (maps float32[n, 6, C, H+2s, W+2s], the n colour histograms). The crops' features are computed together
    (:func:`vision.card_features.crop_features_many`), each crop's maps turned by its own warps, and the orientation
    channels turned and the face masked for every crop and turn at once."""
    feats = crop_features_many(crops, cfg, "hex")
    n = len(crops)
    C, h, w = feats[0][0].shape
    ctr = ((w - 1) / 2.0, (h - 1) / 2.0)
    out = np.empty((n, 6, C, h, w), np.float32)
    turns = [cv2.getRotationMatrix2D(ctr, 60.0 * k, 1.0) for k in range(6)]   # counter-clockwise: edge k to the top
    for i, (big, _, _) in enumerate(feats):
        out[i, 0] = big
        planes = np.ascontiguousarray(big.transpose(1, 2, 0))          # [h, w, C]: one warp turns every channel
        for k in range(1, 6):
            if C <= 4:
                out[i, k] = cv2.warpAffine(planes, turns[k], (w, h), flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE).reshape(h, w, C).transpose(2, 0, 1)
            else:
                for c in range(C):
                    out[i, k, c] = cv2.warpAffine(big[c], turns[k], (w, h), flags=cv2.INTER_LINEAR,
                                                  borderMode=cv2.BORDER_REPLICATE)
    if C >= 4:   # channels 2, 3: (cos 2t, sin 2t) of the gradient angle t, which turns by -60k degrees
        ang = [math.radians(-120.0 * k) for k in range(1, 6)]
        cos_k = np.array([math.cos(v) for v in ang], np.float32).reshape(1, 5, 1, 1)
        sin_k = np.array([math.sin(v) for v in ang], np.float32).reshape(1, 5, 1, 1)
        c2, s2 = out[:, 1:, 2].copy(), out[:, 1:, 3].copy()
        out[:, 1:, 2] = c2 * cos_k - s2 * sin_k
        out[:, 1:, 3] = c2 * sin_k + s2 * cos_k
    return mask_face(out, cfg, "hex", crops[0].shape[:2]), [f[1] for f in feats]


@dataclass(frozen=True)
class HexScore:
    """The deck's answer for one hex before the frame-level 'not in the deck' decision.

    Attributes:
        best: best sector id; d1: its distance; d2: the best other sector's; turn: its rotation (0-5).
        anchor_d: distance of the anchor sector (at its best turn) and anchor_turn that turn (None: no
            anchor id or not in the deck).
    """

    best: str
    d1: float
    d2: float
    turn: int
    anchor_d: float | None = None
    anchor_turn: int | None = None


def score_hex(deck: DeckProfile, crop: np.ndarray, anchor_id: str | None = None, shortlist: int = 4,
              turn_margin: float = 0.12, colour_weight: float | None = None, fine_shift: int | None = None) -> HexScore:
    """Score one upright hexagon crop (uint8[S, S, 3], :func:`hex_crop`) against a hex deck: :func:`score_hexes` of
    that one crop."""
    return score_hexes(deck, [crop], anchor_id, shortlist, turn_margin, colour_weight, fine_shift)[0]


def score_hexes(deck: DeckProfile, crops: list[np.ndarray], anchor_id: str | None = None, shortlist: int = 4,
                turn_margin: float = 0.12, colour_weight: float | None = None,
                fine_shift: int | None = None) -> list[HexScore]:
    """Score each of a frame's upright hexagon crops (uint8[S, S, 3] each, one size, :func:`hex_crop`) against a
    hex deck: one :class:`HexScore` per crop, in order, each its own (the crops are only computed together).
    Raises ValueError when the crops are not all of one size.

    Coarse: every reference at each of the six turns, centred (one matrix product per crop). Fine (shifts of up to
    ``struct_shift`` map pixels and occlusion trimming, as :meth:`vision.deck.DeckProfile.distances`): only
    the ``shortlist`` best sectors, at their best turn (and their second-best turn when within
    ``turn_margin``), and the anchor sector. Per sector and turn the deck's blend of its best and mean
    reference; other sectors keep their coarse distance (an upper bound of the fine one).
    ``colour_weight`` (None: the deck's) weighs the hue histogram; ``fine_shift`` (None: the deck's
    ``struct_shift``) bounds the shifts tried, in map pixels."""
    if not crops:
        return []
    if len({np.shape(cr) for cr in crops}) > 1:
        raise ValueError(f"hexagon crops of one size are scored together, got {sorted({np.shape(c) for c in crops})}")
    cfg = deck.config
    if colour_weight is not None:
        cfg = replace(cfg, colour_weight=colour_weight)
    uniq, inv = _sector_index(deck)
    n = len(crops)
    w = np.asarray(cfg.channel_weights, np.float32)
    w = w / w.sum()
    flat = deck._flat_struct()
    s = cfg.struct_shift
    maps, hists = turned_maps_many(crops, cfg)                                              # [n, 6, C, h, w]
    hel = [np.sqrt(np.maximum(0.0, 1.0 - np.sqrt(hist[None, :] * deck.colour).sum(axis=1))) for hist in hists]  # [N]
    # coarse: half-resolution maps (a quarter of the products), centred
    q = (normalise_maps(_half(inner_maps(maps, s))) * w[None, :, None]).reshape(n, 6, -1)             # [n, 6, C*K/4]
    refs_c = _coarse_refs(deck)
    D = [(1.0 - refs_c @ q[i].T) + cfg.colour_weight * hel[i][:, None] for i in range(n)]       # [N, 6] each
    per = _blend(deck, np.concatenate(D, axis=1), cfg.ref_mean_weight).reshape(len(uniq), n, 6)
    a_idx = None
    if anchor_id is not None:
        hit = np.nonzero(uniq == anchor_id)[0]
        if hit.size:
            a_idx = int(hit[0])
    # per crop, the turns to look at finely and the sectors at each
    jobs: list[tuple[int, int, np.ndarray]] = []
    for i in range(n):
        pc = per[:, i]
        order = np.argsort(pc.min(axis=1))
        pick = {int(c) for c in order[:shortlist]}
        if a_idx is not None:
            pick.add(a_idx)
        pairs: dict[int, set[int]] = {}
        for c in pick:
            srt = np.argsort(pc[c])
            pairs.setdefault(int(srt[0]), set()).add(c)
            if pc[c, srt[1]] - pc[c, srt[0]] < turn_margin:
                pairs.setdefault(int(srt[1]), set()).add(c)
        for t, cs in pairs.items():
            chosen = np.zeros(len(uniq), bool)
            chosen[list(cs)] = True
            jobs.append((i, t, np.nonzero(chosen[inv])[0]))
    r = s if fine_shift is None else fine_shift
    Df = [d.copy() for d in D]
    for (i, t, refs), qs in zip(jobs, _shifted_many(maps, [(i, t) for i, t, _ in jobs], s, r), strict=True):
        ncc = _weighted_ncc(qs, w, flat[refs])                                             # [S, M]
        best = ncc.max(axis=0)
        if cfg.occlusion_drop > 0 and cfg.occlusion_weight > 0:
            trim = deck._trimmed_ncc(qs[ncc.argmax(axis=0)], w, refs)
            best = (1 - cfg.occlusion_weight) * best + cfg.occlusion_weight * np.maximum(best, trim)
        Df[i][refs, t] = (1.0 - best) + cfg.colour_weight * hel[i][refs]
    per = _blend(deck, np.concatenate(Df, axis=1), cfg.ref_mean_weight).reshape(len(uniq), n, 6)
    out = []
    for i in range(n):
        pc = per[:, i]
        bc, bt = np.unravel_index(int(np.argmin(pc)), pc.shape)
        d1 = float(pc[bc, bt])
        other = np.delete(pc.min(axis=1), bc)
        d2 = float(other.min()) if other.size else max(1.0, 2 * d1)
        ad = at = None
        if a_idx is not None:
            at = int(np.argmin(pc[a_idx]))
            ad = float(pc[a_idx, at])
        out.append(HexScore(str(uniq[bc]), d1, d2, int(bt), ad, at))
    return out


#: turned crops whose shifted maps :func:`_shifted_many` makes at once (about 1 MB each).
_SHIFT_BATCH = 16


def _shifted_many(maps: np.ndarray, which: list[tuple[int, int]], s: int, r: int):
    """:func:`vision.card_features.shifted_maps` of ``maps[i, t]`` (``maps`` float32[n, 6, C, h, w]) for each (i, t)
    of ``which``, in order (float32[S, C, K] each), made ``_SHIFT_BATCH`` at a time."""
    for k in range(0, len(which), _SHIFT_BATCH):
        part = which[k:k + _SHIFT_BATCH]
        yield from shifted_maps(maps[[i for i, _ in part], [t for _, t in part]], s, r)


def _weighted_ncc(qs: np.ndarray, w: np.ndarray, refs: np.ndarray) -> np.ndarray:
    """float32[S, M]: the correlation of each of S shifted query maps ``qs`` float32[S, C, K] (normalised per channel)
    with each of M references ``refs`` float32[M, C*K], the channels weighted by ``w`` float32[C]. Channels of one
    weight (the default) have it taken out of the product as a common factor: for a power of two (four channels) the
    same numbers as weighing every channel first, without a weighted copy of the maps."""
    if np.all(w == w[0]):
        ncc = qs.reshape(qs.shape[0], -1) @ refs.T
        ncc *= np.float32(w[0])
        return ncc
    return (qs * w[None, :, None]).reshape(qs.shape[0], -1) @ refs.T


def _blend(deck: DeckProfile, Dm: np.ndarray, mean_weight: float) -> np.ndarray:
    """float32[sectors, X]: per sector (sorted ids, :func:`_sector_index`) and column of the distances ``Dm``
    float32[N_refs, X], ``(1 - mean_weight)`` x its references' least distance + ``mean_weight`` x their mean (the
    sum taken reference by reference in the deck's order, as ``np.add.at`` takes it)."""
    members, counts = _sector_members(deck)
    mn = np.full((len(counts), Dm.shape[1]), np.inf, np.float32)
    sm = np.zeros((len(counts), Dm.shape[1]), np.float32)
    for k in range(members.shape[1]):   # the k-th reference of every sector that has k + 1 of them
        has = counts > k
        rows = Dm[members[has, k]]
        mn[has] = np.minimum(mn[has], rows)
        sm[has] += rows
    return (1 - mean_weight) * mn + mean_weight * sm / counts[:, None].astype(np.float32)


def _half(maps: np.ndarray) -> np.ndarray:
    """float32[..., H/2, W/2]: 2 x 2 block means of maps float32[..., H, W] (odd edges dropped)."""
    h, w = maps.shape[-2] // 2 * 2, maps.shape[-1] // 2 * 2
    m = maps[..., :h, :w]
    return 0.25 * (m[..., 0::2, 0::2] + m[..., 1::2, 0::2] + m[..., 0::2, 1::2] + m[..., 1::2, 1::2])


def _coarse_refs(deck: DeckProfile) -> np.ndarray:
    """float32[N, C*K/4]: the deck's references at half resolution, normalised per channel (cached on the
    deck)."""
    cache = getattr(deck, "_coarse_cache", None)
    if cache is None or cache.shape[0] != len(deck.ref_ids):
        sw, sh = deck.config.struct_size
        st = deck.struct.reshape(len(deck.ref_ids), deck.struct.shape[1], sh, sw)
        cache = np.ascontiguousarray(normalise_maps(_half(st)).reshape(len(deck.ref_ids), -1), np.float32)
        deck._coarse_cache = cache
    return cache


def _sector_index(deck: DeckProfile) -> tuple[np.ndarray, np.ndarray]:
    """(sector ids sorted, index of each reference's sector) of a deck (cached on the deck)."""
    key = getattr(deck, "_sector_cache", None)
    if key is None or len(key[1]) != len(deck.ref_ids):
        uniq, inv = np.unique(np.array(deck.ref_ids), return_inverse=True)
        key = (uniq, inv.ravel())
        deck._sector_cache = key
    return key


def _sector_members(deck: DeckProfile) -> tuple[np.ndarray, np.ndarray]:
    """(int[sectors, most references of a sector]: each sector's references in the deck's order, -1 beyond its own;
    int[sectors]: how many it has), cached on the deck."""
    uniq, inv = _sector_index(deck)
    key = getattr(deck, "_members_cache", None)
    if key is None or key[2] is not inv:
        counts = np.bincount(inv, minlength=len(uniq))
        members = np.full((len(uniq), int(counts.max()) if len(counts) else 0), -1, np.intp)
        order = np.argsort(inv, kind="stable")
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        for c in range(len(uniq)):
            members[c, :counts[c]] = order[starts[c]:starts[c] + counts[c]]
        key = (members, counts, inv)
        deck._members_cache = key
    return key[0], key[1]


def decide_hexes(deck: DeckProfile, scores: list[HexScore],
                 min_confidence: float = 0.0) -> list[tuple[str | None, float, int | None, str | None]]:
    """(id or None, confidence 0-1, rotation or None, best guess) per hex: 'not in the deck' as
    :meth:`vision.deck.DeckProfile.identify` judges it (against the frame's other hexes), and an id whose
    confidence is below ``min_confidence`` is unreadable (id and rotation None, the guess kept): a sector
    hardly closer than the next best is a guess, not a read."""
    found = deck.decide_frame([(sc.best, sc.d1, sc.d2, sc.turn) for sc in scores])
    out = []
    for r, sc in zip(found, scores, strict=True):
        hid = r.card_id if r.card_id is not None and r.confidence >= min_confidence else None
        out.append((hid, r.confidence, sc.turn if hid is not None else None, r.best_guess))
    return out


def likely_anchor(scores: list[HexScore], ids: list[str | None], cfg: IdConfig,
                  c: HexesConfig) -> tuple[int, int] | None:
    """(hex index, turn) of the hex most like the anchor when no hex was identified as it: the one whose
    anchor distance is lowest, below ``unknown_distance_max`` and ``anchor_margin`` below every other
    hex's (a map has one Galactic Center); None otherwise."""
    if c.anchor_id is None or c.anchor_id in ids:
        return None
    ad = [(sc.anchor_d, k) for k, sc in enumerate(scores) if sc.anchor_d is not None]
    if not ad:
        return None
    ad.sort()
    d, k = ad[0]
    if d > cfg.unknown_distance_max or (len(ad) > 1 and ad[1][0] - d < c.anchor_margin):
        return None
    return k, int(scores[k].anchor_turn)
