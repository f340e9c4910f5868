"""Stage 6 of the hex reader: each hexagon crop's structure maps turned by the six 60-degree steps, compared
with every reference of a hex deck (coarse, then at small shifts for a shortlist), the frame's decision
('not in the deck' against the other hexes), and the hex most like the anchor when none was identified."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..card_features import IdConfig, feature_maps, inner_maps, mask_face, normalise_maps, shifted_maps
from ..deck import DeckProfile
from .config import HexesConfig

__all__ = ["HexScore", "decide_hexes", "likely_anchor", "score_hex", "turned_maps"]


def turned_maps(crop: np.ndarray, cfg: IdConfig) -> tuple[np.ndarray, np.ndarray]:
    """(maps float32[6, C, H+2s, W+2s], colour histogram float32[bins]) of one upright hexagon crop
    (:func:`hex_crop`) turned by each of the six 60-degree steps: ``maps[k]`` are the masked structure maps
    (:func:`vision.card_features.card_features`) of the crop whose top is the hexagon's edge k (what
    ``hex_crop(image, np.roll(corners, -k, axis=0))`` gives), computed once and turned (the orientation
    channels' doubled angles turned with them) instead of warping and featuring six crops."""
    big, hist = feature_maps(crop, cfg, "hex")
    C, h, w = big.shape
    ctr = ((w - 1) / 2.0, (h - 1) / 2.0)
    out = np.empty((6, C, h, w), np.float32)
    out[0] = big
    planes = np.ascontiguousarray(big.transpose(1, 2, 0))          # [h, w, C]: one warp turns every channel
    for k in range(1, 6):
        Rm = cv2.getRotationMatrix2D(ctr, 60.0 * k, 1.0)          # counter-clockwise on screen: edge k to the top
        if C <= 4:
            t = cv2.warpAffine(planes, Rm, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE).reshape(h, w, C).transpose(2, 0, 1).copy()
        else:
            t = np.stack([cv2.warpAffine(big[c], Rm, (w, h), flags=cv2.INTER_LINEAR,
                                         borderMode=cv2.BORDER_REPLICATE) for c in range(C)])
        if C >= 4:   # channels 2, 3: (cos 2t, sin 2t) of the gradient angle t, which turns by -60k degrees
            a = math.radians(-120.0 * k)
            c2, s2 = t[2].copy(), t[3].copy()
            t[2] = c2 * math.cos(a) - s2 * math.sin(a)
            t[3] = c2 * math.sin(a) + s2 * math.cos(a)
        out[k] = t
    return mask_face(out, cfg, "hex", crop.shape[:2]), hist


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
    """Score one upright hexagon crop (uint8[S, S, 3], :func:`hex_crop`) against a hex deck.

    Coarse: every reference at each of the six turns, centred (one matrix product). Fine (shifts of up to
    ``struct_shift`` map pixels and occlusion trimming, as :meth:`vision.deck.DeckProfile.distances`): only
    the ``shortlist`` best sectors, at their best turn (and their second-best turn when within
    ``turn_margin``), and the anchor sector. Per sector and turn the deck's blend of its best and mean
    reference; other sectors keep their coarse distance (an upper bound of the fine one).
    ``colour_weight`` (None: the deck's) weighs the hue histogram; ``fine_shift`` (None: the deck's
    ``struct_shift``) bounds the shifts tried, in map pixels."""
    cfg = deck.config
    if colour_weight is not None:
        cfg = replace(cfg, colour_weight=colour_weight)
    uniq, inv = _sector_index(deck)
    counts = np.bincount(inv, minlength=len(uniq)).astype(np.float32)
    w = np.asarray(cfg.channel_weights, np.float32)
    w = w / w.sum()
    flat = deck._flat_struct()
    s = cfg.struct_shift
    maps, hist = turned_maps(crop, cfg)
    hel = np.sqrt(np.maximum(0.0, 1.0 - np.sqrt(hist[None, :] * deck.colour).sum(axis=1)))        # [N]
    # coarse: half-resolution maps (a quarter of the products), centred
    inner = inner_maps(maps, s)
    q = (normalise_maps(_half(inner)) * w[None, :, None]).reshape(6, -1)                              # [6, C*K/4]
    D = (1.0 - _coarse_refs(deck) @ q.T) + cfg.colour_weight * hel[:, None]                      # [N, 6]

    def blend(Dm: np.ndarray) -> np.ndarray:   # [N, 6] -> [sectors, 6]
        mn = np.full((len(uniq), 6), np.inf, np.float32)
        np.minimum.at(mn, inv, Dm)
        sm = np.zeros((len(uniq), 6), np.float32)
        np.add.at(sm, inv, Dm)
        return (1 - cfg.ref_mean_weight) * mn + cfg.ref_mean_weight * sm / counts[:, None]

    per = blend(D)
    order = np.argsort(per.min(axis=1))
    pick = {int(c) for c in order[:shortlist]}
    a_idx = None
    if anchor_id is not None:
        hit = np.nonzero(uniq == anchor_id)[0]
        if hit.size:
            a_idx = int(hit[0])
            pick.add(a_idx)
    pairs: dict[int, set[int]] = {}
    for c in pick:
        srt = np.argsort(per[c])
        pairs.setdefault(int(srt[0]), set()).add(c)
        if per[c, srt[1]] - per[c, srt[0]] < turn_margin:
            pairs.setdefault(int(srt[1]), set()).add(c)
    Df = D.copy()
    fine = np.zeros_like(D, bool)
    for t, cs in pairs.items():
        chosen = np.zeros(len(uniq), bool)
        chosen[list(cs)] = True
        refs = np.nonzero(chosen[inv])[0]
        qs = shifted_maps(maps[t], s, s if fine_shift is None else fine_shift)   # [S, C, K]
        qw = (qs * w[None, :, None]).reshape(qs.shape[0], -1)
        ncc = qw @ flat[refs].T                                                            # [S, M]
        best = ncc.max(axis=0)
        if cfg.occlusion_drop > 0 and cfg.occlusion_weight > 0:
            trim = deck._trimmed_ncc(qs[ncc.argmax(axis=0)], w, refs)
            best = (1 - cfg.occlusion_weight) * best + cfg.occlusion_weight * np.maximum(best, trim)
        Df[refs, t] = (1.0 - best) + cfg.colour_weight * hel[refs]
        fine[refs, t] = True
    per = blend(Df)
    bc, bt = np.unravel_index(int(np.argmin(per)), per.shape)
    d1 = float(per[bc, bt])
    other = np.delete(per.min(axis=1), bc)
    d2 = float(other.min()) if other.size else max(1.0, 2 * d1)
    ad = at = None
    if a_idx is not None:
        at = int(np.argmin(per[a_idx]))
        ad = float(per[a_idx, at])
    return HexScore(str(uniq[bc]), d1, d2, int(bt), ad, at)


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
