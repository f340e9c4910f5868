"""Centring a card's outline on its content: the shift at which the deck's reference of the card it reads matches it.

A quad a few pixels off its card (a lattice cell of touching cards, a place chosen on a coarse grid) crops part of a
neighbour or of the table; the structure maps' correlation with the card's references at every shift within the
deck's ``struct_shift`` (:func:`vision.card_features.shifted_ncc`) says where the card's content sits in the crop.
:func:`matched_shift` turns that shift into crop pixels, :func:`shift_quad` moves the quad by it, and
:func:`centred_many` moves the weak cards of a frame step by step and keeps a move when the deck reads the moved crop
closer (used by :mod:`vision.card_match`'s second look).

Units: crop pixels for shifts; quads are float[4, 2] frame pixels, clockwise from the card's top-left.
"""

from __future__ import annotations

import cv2
import numpy as np

from .card_features import crop_features_many, shifted_ncc, turn_crop
from .deck import DeckProfile
from .quads import rectify

__all__ = ["centred", "centred_many", "matched_shift", "matched_shifts", "shift_quad"]


def matched_shift(deck: DeckProfile, crop: np.ndarray, card_id: str, turn: int) -> np.ndarray:
    """float[2] (dx, dy) in pixels of ``crop``: where the card's content sits against its quad, from the
    structure-map shift (within the deck's ``struct_shift``) at which ``card_id``'s best reference
    correlates best with the crop turned ``turn`` quarter turns (move the quad by it to centre the card)."""
    return matched_shifts(deck, [crop], [card_id], [turn])[0]


def matched_shifts(deck: DeckProfile, crops: list[np.ndarray], card_ids: list[str],
                   turns: list[int]) -> list[np.ndarray]:
    """:func:`matched_shift` of each crop (uint8[h, w, 3]) with its card and turn: float[2] (dx, dy) crop pixels
    each, the crops' features computed together (:func:`vision.card_features.crop_features_many`: the same
    numbers).

    A crop at a half turn t + 2 is read on its maps at turn t turned a half turn, as the deck reads it
    (:meth:`vision.deck.DeckProfile.turn_features_many`): the features the deck computed when it scored the crop
    (its crop at turn t, :func:`vision.card_features.reusing_features`), not a feature pass of their own."""
    cfg = deck.config
    s = cfg.struct_shift
    base = [t % 4 if t % 4 < 2 else t % 4 - 2 for t in turns]        # the turn whose maps are computed
    turned = [turn_crop(c, b) for c, b in zip(crops, base, strict=True)]
    w = np.asarray(cfg.channel_weights, np.float32)
    out = []
    for tc, card_id, turn, b, (big, _, _) in zip(turned, card_ids, turns, base,
                                                 crop_features_many(turned, cfg, "card"), strict=True):
        if b != turn % 4:   # a half turn: the maps turned a half turn (the doubled-angle channels are unchanged)
            big = big[:, ::-1, ::-1]
        refs = [i for i, r in enumerate(deck.ref_ids) if r == card_id]
        if not refs or s <= 0:
            out.append(np.zeros(2))
            continue
        ncc = shifted_ncc(big, s, deck.struct[refs], w / w.sum())                   # [S, R]
        si = int(np.unravel_index(int(np.argmax(ncc)), ncc.shape)[0])
        dy, dx = divmod(si, 2 * s + 1)
        h, w_ = tc.shape[:2]
        m = int(round(cfg.margin_frac * min(h, w_)))
        sw, sh = cfg.struct_size
        vx = (dx - s) * (w_ - 2 * m) / float(sw + 2 * s)
        vy = (dy - s) * (h - 2 * m) / float(sh + 2 * s)
        # back to the crop as given (turned = crop turned ``turn`` quarter turns clockwise)
        out.append(np.array([(vx, vy), (vy, -vx), (-vx, -vy), (-vy, vx)][turn % 4], np.float64))
    return out


def shift_quad(quad: np.ndarray, v: np.ndarray, cw: int, ch: int) -> np.ndarray:
    """``quad`` moved so that its crop (``cw`` x ``ch``) moves by ``v`` crop pixels."""
    dst = np.array([[0, 0], [cw - 1, 0], [cw - 1, ch - 1], [0, ch - 1]], np.float64)
    M = cv2.getPerspectiveTransform(dst.astype(np.float32), np.asarray(quad, np.float32))
    return cv2.perspectiveTransform((dst + v).reshape(-1, 1, 2), M).reshape(4, 2)


def centred(deck: DeckProfile, frame: np.ndarray, quad: np.ndarray, crop: np.ndarray, score: tuple, gain: float,
            mirrored: bool, crop_wh: tuple[int, int]) -> tuple[tuple, np.ndarray, np.ndarray] | None:
    """(score, quad, crop) of ``quad`` (float[4, 2] frame px) moved by :func:`matched_shift` of the card its crop
    (``crop``, as read; ``score`` its :meth:`vision.deck.DeckProfile.score`) reads, when that moves it by a crop
    pixel or more and the moved crop reads the same card closer by at least ``gain``; else None."""
    return centred_many(deck, frame, [quad], [crop], [score], gain, mirrored, crop_wh)[0]


def centred_many(deck: DeckProfile, frame: np.ndarray, quads: list[np.ndarray], crops: list[np.ndarray],
                 scores: list[tuple], gain: float, mirrored: bool, crop_wh: tuple[int, int],
                 steps: int = 1) -> list[tuple[tuple, np.ndarray, np.ndarray] | None]:
    """:func:`centred` of each card, the moved crops scored together (:meth:`vision.deck.DeckProfile.score_many`).
    ``steps``: each quad is moved up to this many times, each time by :func:`matched_shift` of its last crop (a
    shift reaches ``struct_shift`` cells of the maps: a card further off is centred step by step) while that moves
    it by a crop pixel or more (0: never moved: None each); only the last crop is scored."""
    cw, ch = crop_wh
    at = [(i, q, c, None) for i, (q, c) in enumerate(zip(quads, crops, strict=True))]   # (card, quad, crop, moved)
    going = list(range(len(at)))
    for _ in range(steps):   # every card still moving, moved once more: their shifts found together
        if not going:
            break
        looks = [cv2.flip(at[i][2], 1) if mirrored else at[i][2] for i in going]
        vs = matched_shifts(deck, looks, [scores[i][0] for i in going], [scores[i][3] for i in going])
        still = []
        for i, v in zip(going, vs, strict=True):
            if mirrored:
                v = v * np.array([-1.0, 1.0])
            if np.abs(v).max() < 1.0:
                continue
            nq = shift_quad(at[i][1], v, cw, ch)
            at[i] = (i, nq, rectify(frame, nq, cw, ch), True)
            still.append(i)
        going = still
    moved = [(i, q, c) for i, q, c, m in at if m]
    out: list[tuple[tuple, np.ndarray, np.ndarray] | None] = [None] * len(quads)
    if not moved:
        return out
    got = deck.score_many([cv2.flip(nc, 1) if mirrored else nc for _, _, nc in moved])
    for (i, nq, nc), s in zip(moved, got, strict=True):
        if s[0] == scores[i][0] and s[1] <= scores[i][1] - gain:
            out[i] = (s, nq, nc)
    return out
