"""Dice seen in a card's printed art: a die candidate lying on an identified card or tile is compared with the
same window of that card's enrolled art, warped to where the card lies in the frame.

Dice lie on tiles in Roll for the Galaxy (goods on worlds, workers on a tile being built), so a die on a tile is
never dropped for where it lies. But a symbol or a square printed on a tile can look like a die's face to the
dice reader. Once the card reader has identified the tile (its id and its corners in the frame, as it reads),
the deck's art of that card (:attr:`vision.deck.DeckProfile.art`) predicts what the frame shows there when no
die covers it: the art warped to the card's quad by the homography of its corners. A candidate whose window
the printed art explains (a high zero-mean normalised cross-correlation, per colour channel, so a light's gain,
offset and colour cast do not matter) is the art, not a die; a real die covers the art, so its window does not
correlate with it and it is kept.

Only what the card reader identified is judged: a die on an unknown card, off every card, or mostly over a
card's edge is kept as the dice reader reported it.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from .observations import Sighting

__all__ = ["ART_WIDTH", "ArtConfig", "art_score", "boxes_explained_by_art", "change_explained_by_art",
           "explained_by_art", "without_art"]

#: Width (px) of a card's art kept in a deck profile (height = width x the card's aspect): about the size a
#: card spans in a 2304x1296 frame of a whole table, so the art is not coarser than the frame there.
ART_WIDTH = 160


#: Fewest window pixels on the card a correlation is computed over.
MIN_PIXELS = 16


@dataclass(frozen=True)
class ArtConfig:
    """Thresholds of the art check.

    Attributes:
        inner: the window is the central this fraction of a candidate's box on each axis (the box of a turned
            die's top face holds what lies round its corners; its centre is all die).
        explained: a candidate whose window correlates with the card's art at least this much (zero-mean
            normalised cross-correlation, -1..1, channel mean weighted by the art's contrast) is the art.
        shift_frac: the art is matched at shifts up to this fraction of the window's side (a card's corners
            are found to a pixel or two; the art is sharp).
        min_on_card: a window with less than this share of its pixels on the card is not judged (kept); the part
            on the card is what is compared (a die's centre is all die: where the art shows there, no die lies).
        min_contrast: a window of the art whose every channel's standard deviation is under this (grey
            levels, 0-255) is plain: it explains no structure, so the candidate is kept.
        blur_sigma: both windows are blurred by this Gaussian (px) first (sensor noise, the art's resampling).
        change_room: a changed box (:func:`change_explained_by_art`) is judged only when no disc of this fraction of
            a die's side in radius fits in it off the identified cards: the rest is the change detector's margin, too
            narrow to hold a die (a die there lies on a card by a third of its side or more, and shows on it).
        change_window: a pixel on a card is judged by its neighbourhood, a square of this fraction of a die's side
            (a light's gain, offset and colour cast do not matter there, nor a print a little off the art's tones).
        change_ncc: where the art has structure there, it explains the frame when their zero-mean normalised
            cross-correlation (-1..1, per channel, weighted by the art's contrast) is at least this.
        change_plain: where the art is plain there (``min_contrast``), it explains the frame when no channel of the
            frame's varies more than this (standard deviation, grey levels 0-255): a die's edge or symbol does.
        change_blob: a connected spot of unexplained pixels of at least this fraction of a die's side squared is
            something on the card that is not its print (a die, a hand's leftover): the change is not explained.
    """

    inner: float = 0.6
    explained: float = 0.6
    shift_frac: float = 0.08
    min_on_card: float = 0.35
    min_contrast: float = 6.0
    blur_sigma: float = 1.0
    change_room: float = 0.3
    change_window: float = 0.4
    change_ncc: float = 0.5
    change_plain: float = 12.0
    change_blob: float = 0.1


def _homography(art_hw: tuple[int, int], corners: np.ndarray) -> np.ndarray:
    """float[3, 3] art px -> frame px: the art's corners (as :func:`vision.quads.rectify` places them) onto
    ``corners`` (float[4, 2] frame px, clockwise from the card's top-left as it reads)."""
    h, w = art_hw
    src = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    return cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32))


def art_score(frame: np.ndarray, box: tuple[int, int, int, int], corners: np.ndarray, art: np.ndarray,
              config: ArtConfig | None = None) -> float | None:
    """How well a card's art explains one window of the frame.

    Args:
        frame: uint8[H, W, 3] BGR.
        box: ``(x, y, w, h)`` frame px, a die candidate's top face; its central ``config.inner`` is compared.
        corners: float[4, 2] frame px, the card's corners clockwise from its top-left as it reads.
        art: uint8[h, w, 3] BGR, the card's art upright (the deck's reference, :attr:`DeckProfile.art`).
        config: thresholds (:class:`ArtConfig`).

    Returns:
        The zero-mean normalised cross-correlation (-1..1) of the window with the warped art at the best
        small shift, per channel, averaged with the art's contrast in each channel as weights; 0.0 when the
        art is plain there (it explains no structure); None when the window is too little on the card
        (``min_on_card``, :data:`MIN_PIXELS`), empty, or ``corners`` outline no card (not 4 finite points
        round an area).
    """
    cfg = config or ArtConfig()
    outline = _outline(corners)
    if outline is None:
        return None                                              # no card outline to warp the art to
    return _score(frame, box, outline, _homography(art.shape[:2], outline), art, cfg)


def _outline(corners: Any) -> np.ndarray | None:
    """``corners`` as float[4, 2] when they are 4 finite points round an area (px^2 >= 1), else None."""
    q = np.asarray(corners, np.float64)
    if q.shape != (4, 2) or not np.isfinite(q).all() or abs(cv2.contourArea(q.astype(np.float32))) < 1:
        return None
    return q


def _score(frame: np.ndarray, box: tuple[int, int, int, int], corners: np.ndarray, H: np.ndarray, art: np.ndarray,
           cfg: ArtConfig) -> float | None:
    """:func:`art_score` with the card's outline checked and its homography ``H`` (art px -> frame px) given."""
    H_img, W_img = frame.shape[:2]
    bx, by, bw, bh = (float(v) for v in box)
    w, h = int(round(bw * cfg.inner)), int(round(bh * cfg.inner))
    x, y = int(round(bx + (bw - w) / 2)), int(round(by + (bh - h) / 2))
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W_img), min(y + h, H_img)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    s = max(1, int(round(cfg.shift_frac * max(x1 - x0, y1 - y0))))
    gx0, gy0, gx1, gy1 = x0 - s, y0 - s, x1 + s, y1 + s        # the art is warped over the window grown by s
    on = np.zeros((y1 - y0, x1 - x0), np.uint8)                  # the window's pixels on the card
    cv2.fillConvexPoly(on, np.round(corners - (x0, y0)).astype(np.int32), 1)
    on = cv2.erode(on, np.ones((3, 3), np.uint8))                # the card's edge blends with the table
    count = cv2.countNonZero(on)
    if count < cfg.min_on_card * on.size or count < MIN_PIXELS:
        return None                                              # judged before the art is warped for it
    whole = count == on.size
    M = H - np.outer((gx0, gy0, 0.0), H[2])                     # H, then the window's origin moved to (0, 0)
    ref = cv2.warpPerspective(art, M, (gx1 - gx0, gy1 - gy0), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    win = frame[y0:y1, x0:x1].astype(np.float32)
    if cfg.blur_sigma > 0:
        win = cv2.GaussianBlur(win, (0, 0), cfg.blur_sigma)
        ref = cv2.GaussianBlur(ref, (0, 0), cfg.blur_sigma)
    # the best shift on the grey level, then each channel there (a window all on the card needs no mask)
    grey_ref, grey_win = cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY), cv2.cvtColor(win, cv2.COLOR_BGR2GRAY)
    scores = (cv2.matchTemplate(grey_ref, grey_win, cv2.TM_CCOEFF_NORMED) if whole
              else cv2.matchTemplate(grey_ref, grey_win, cv2.TM_CCOEFF_NORMED, mask=on.astype(np.float32)))
    scores[~np.isfinite(scores)] = -1.0
    dx, dy = cv2.minMaxLoc(scores)[3]
    r = np.ascontiguousarray(ref[dy:dy + (y1 - y0), dx:dx + (x1 - x0)])
    mask = None if whole else on
    # per channel (float64 sums): the means, standard deviations and the mean product over the window's pixels
    r_mean, r_sd = (v.reshape(-1)[:3] for v in cv2.meanStdDev(r, mask=mask))
    f_mean, f_sd = (v.reshape(-1)[:3] for v in cv2.meanStdDev(win, mask=mask))
    if float(r_sd.max()) < cfg.min_contrast:
        return 0.0
    rf = np.asarray(cv2.mean(cv2.multiply(r, win), mask=mask)[:3])
    ncc = (rf - r_mean * f_mean) / np.maximum(r_sd * f_sd, 1e-6)
    return float((ncc * r_sd).sum() / r_sd.sum())


def _cards_under(centres: np.ndarray, quads: Sequence[tuple[Any, np.ndarray, np.ndarray]]) -> list[Any | None]:
    """Per centre of ``centres`` (float[N, 2] frame px), the first card of ``quads`` (:func:`_quads_with_art`) whose
    quad holds it, or None: the quads' bounding boxes screen all the centres at once, the quads whose box holds a
    centre are tested in order."""
    pts = np.asarray(centres, np.float32).reshape(-1, 2)          # as pointPolygonTest takes the points
    if not quads or not len(pts):
        return [None] * len(pts)
    box = np.stack([b for _, _, b in quads])                     # float32[Q, 4]
    near = ((box[None, :, 0] <= pts[:, None, 0]) & (pts[:, None, 0] <= box[None, :, 2])
            & (box[None, :, 1] <= pts[:, None, 1]) & (pts[:, None, 1] <= box[None, :, 3]))   # bool[N, Q]
    out: list[Any | None] = [None] * len(pts)
    for i, j in zip(*np.nonzero(near), strict=True):
        if out[i] is None and cv2.pointPolygonTest(quads[j][1], (float(pts[i, 0]), float(pts[i, 1])), False) >= 0:
            out[i] = quads[j][0]
    return out


def _quads_with_art(cards: Sequence[Any], art: Mapping[str, np.ndarray]) -> list[tuple[Any, np.ndarray, np.ndarray]]:
    """Per identified card with art, in order: (the card, its corners as float32[4, 1, 2] frame px, their bounding
    box float32[4] (x0, y0, x1, y1)): what :func:`_cards_under` tests, made once for many boxes (a point off the box
    is off the quad)."""
    out = []
    for c in cards:
        if c.id is not None and c.id in art:
            quad = np.asarray(c.corners, np.float32).reshape(-1, 1, 2)
            out.append((c, quad, np.concatenate([quad.min(axis=(0, 1)), quad.max(axis=(0, 1))])))
    return out


def explained_by_art(frame: np.ndarray, dice: Sequence[Any], cards: Sequence[Any], art: Mapping[str, np.ndarray],
                     config: ArtConfig | None = None) -> list[bool]:
    """Per die, whether the printed art of the identified card under its centre explains its window.

    Args:
        frame: uint8[H, W, 3] BGR, the frame both the dice and the cards were read on.
        dice: observations with ``box`` ``(x, y, w, h)`` frame px (:class:`vision.roll_dice.RollDieObservation`,
            :class:`vision.DieObservation`).
        cards: :class:`vision.observations.CardObservation` (``id``, ``corners`` float[4, 2] frame px).
        art: card id -> uint8[h, w, 3] BGR upright art (:attr:`vision.deck.DeckProfile.art`).
        config: thresholds (:class:`ArtConfig`).

    Returns:
        One bool per die, in order: True when :func:`art_score` reaches ``config.explained``.
    """
    return boxes_explained_by_art(frame, [d.box for d in dice], cards, art, config)


def boxes_explained_by_art(frame: np.ndarray, boxes: Sequence[tuple[float, float, float, float]],
                           cards: Sequence[Any], art: Mapping[str, np.ndarray],
                           config: ArtConfig | None = None) -> list[bool]:
    """:func:`explained_by_art` of bare boxes: per ``(x, y, w, h)`` frame-px box (a die's, or a top face's before
    the face match), whether the printed art of the identified card under its centre explains it."""
    cfg = config or ArtConfig()
    out = []
    homographies: dict[int, np.ndarray | None] = {}              # per card, once
    quads = _quads_with_art(cards, art) if art else []
    centres = [(float(x + w / 2), float(y + h / 2)) for x, y, w, h in boxes]
    for box, card in zip(boxes, _cards_under(np.asarray(centres, np.float64).reshape(-1, 2), quads), strict=True):
        score = None
        if card is not None:
            if id(card) not in homographies:
                outline = _outline(card.corners)
                homographies[id(card)] = None if outline is None else _homography(art[card.id].shape[:2], outline)
            H = homographies[id(card)]
            if H is not None:
                score = _score(frame, box, np.asarray(card.corners, np.float64), H, art[card.id], cfg)
        out.append(score is not None and score >= cfg.explained)
    return out


def change_explained_by_art(frame: np.ndarray, box: tuple[int, int, int, int], cards: Sequence[Any],
                            art: Mapping[str, np.ndarray], side: float, config: ArtConfig | None = None) -> bool:
    """Whether a changed box holds nothing but the print of identified cards: a tile laid (or taken from where it
    hid another's print) with no die on it or beside it, so a dice read of the box would find no die.

    The art of each identified card over the box (``cards``, ``art``) is warped to where the card lies; the box is
    explained when (1) no disc of radius ``change_room`` x ``side`` fits in the box off such cards (the rest is the
    change detector's margin, too narrow to hold a die) and (2) on the cards, no connected spot of at least
    ``change_blob`` x ``side`` ** 2 pixels is left that the art does not explain around it (``change_window``,
    ``change_ncc``, ``change_plain``: the correlation the art check uses, :func:`art_score`, over every
    neighbourhood, so the light does not matter).

    Args:
        frame: uint8[H, W, 3] BGR, the frame the cards were read on.
        box: ``(x, y, w, h)`` frame px, one changed box (:func:`vision.motion.change_boxes`).
        cards: observations with ``id`` and ``corners`` (float[4, 2] frame px, clockwise from the card's top-left as it
            reads): the cards the card reads found on ``frame``.
        art: card id -> uint8[h, w, 3] BGR upright art (:attr:`vision.deck.DeckProfile.art`).
        side: a die's side, frame px (> 0).
        config: thresholds (:class:`ArtConfig`).

    Returns:
        True when the cards' print explains the whole box; False otherwise (no identified card with art over it, a
        box off the frame or too far from every card, a spot the print does not explain).

    Raises:
        ValueError: ``side`` is not a finite number > 0.
    """
    if not (np.isfinite(side) and side > 0):
        raise ValueError(f"a die's side is a finite number of px > 0, got {side!r}")
    cfg = config or ArtConfig()
    H_img, W_img = frame.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(W_img, int(box[0] + box[2])), min(H_img, int(box[1] + box[3]))
    if x1 - x0 < 4 or y1 - y0 < 4 or not art:
        return False
    w, h = x1 - x0, y1 - y0
    pred = np.zeros((h, w, 3), np.uint8)
    on = np.zeros((h, w), np.uint8)
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    for c in cards:
        outline = None if c.id is None or c.id not in art else _outline(c.corners)
        if outline is None or outline[:, 0].max() < x0 or outline[:, 0].min() > x1 or outline[:, 1].max() < y0 \
                or outline[:, 1].min() > y1:
            continue
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(outline - (x0, y0)).astype(np.int32), 1)
        if not mask.any():
            continue
        warped = cv2.warpPerspective(art[c.id], T @ _homography(art[c.id].shape[:2], outline), (w, h),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        np.copyto(pred, warped, where=mask[:, :, None] > 0)
        on |= mask
    if not on.any():
        return False
    off = np.zeros((h + 2, w + 2), np.uint8)                     # the box's outside is no room: nothing changed there
    off[1:-1, 1:-1] = on == 0
    if float(cv2.distanceTransform(off, cv2.DIST_L2, 3).max()) > cfg.change_room * side:
        return False                                             # room for a die off every card
    inner = cv2.erode(on, np.ones((5, 5), np.uint8)) > 0         # the cards' edges blend with the table
    if int(inner.sum()) < MIN_PIXELS:
        return False
    bad = (_unexplained(frame[y0:y1, x0:x1], pred, inner.astype(np.uint8), side, cfg)).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(bad, connectivity=8)
    return not (n > 1 and int(stats[1:, cv2.CC_STAT_AREA].max()) >= cfg.change_blob * side * side)


def _unexplained(seen: np.ndarray, art: np.ndarray, on: np.ndarray, side: float, cfg: ArtConfig) -> np.ndarray:
    """bool[h, w]: the pixels of ``on`` (uint8[h, w], 1 on an identified card) whose neighbourhood (a square of
    ``change_window`` x ``side`` px) the warped ``art`` (uint8[h, w, 3] BGR, the cards' art where ``on``) does not
    explain in the frame (``seen``, uint8[h, w, 3] BGR): where the art has structure (a channel's standard deviation
    there at least ``min_contrast``), its zero-mean normalised cross-correlation with the frame (per channel, weighted
    by the art's contrast as :func:`art_score` weighs it) is below ``change_ncc``; where the art is plain, the frame is
    not (a channel's standard deviation at least ``change_plain``). Off the cards the frame stands for the art (the
    change detector's margin is judged by its room alone)."""
    f = seen.astype(np.float32)
    r = np.where(on[:, :, None] > 0, art, seen).astype(np.float32)
    if cfg.blur_sigma > 0:
        f = cv2.GaussianBlur(f, (0, 0), cfg.blur_sigma)
        r = cv2.GaussianBlur(r, (0, 0), cfg.blur_sigma)
    k = max(3, int(round(cfg.change_window * side)) | 1)

    def mean(x: np.ndarray) -> np.ndarray:
        return cv2.boxFilter(x, -1, (k, k), borderType=cv2.BORDER_REFLECT)

    mf, mr = mean(f), mean(r)
    sf = np.sqrt(np.maximum(mean(f * f) - mf * mf, 0.0))
    sr = np.sqrt(np.maximum(mean(r * r) - mr * mr, 0.0))
    ncc = (mean(f * r) - mf * mr) / np.maximum(sf * sr, 1e-3)
    ncc *= sr
    score = (ncc[..., 0] + ncc[..., 1] + ncc[..., 2]) / np.maximum(sr[..., 0] + sr[..., 1] + sr[..., 2], 1e-3)
    plain = np.maximum(np.maximum(sr[..., 0], sr[..., 1]), sr[..., 2]) < cfg.min_contrast
    busy = np.maximum(np.maximum(sf[..., 0], sf[..., 1]), sf[..., 2]) >= cfg.change_plain
    return (on > 0) & np.where(plain, busy, score < cfg.change_ncc)


def without_art(frame: np.ndarray, dice: Sighting, cards: Sequence[Any], art: Mapping[str, np.ndarray] | None,
                config: ArtConfig | None = None, checked: Sequence[Any] = ()) -> Sighting:
    """``dice`` (a dice reader's :class:`Sighting`) without the dice that are the printed art of an identified
    card under them (:func:`explained_by_art`); the check's wall time is added as the stage ``art`` (ms).

    The step after a dice read and a card read of the same frame (the two may run side by side): ``cards``
    are the cards every card read of that frame found. Without art (None or empty: a deck profile saved
    before decks kept their art), or without cards, ``dice`` is returned as it is. ``checked``: dice of ``dice`` (the
    same objects) whose check stands (a read of the changes keeps them as they were, on the cards they lay on): kept
    without a look.
    """
    if not art or not cards or not dice.dice:
        return dice
    t0 = time.perf_counter()
    done = {id(d) for d in checked}
    todo = [d for d in dice.dice if id(d) not in done]
    art_of = dict(zip(map(id, todo), explained_by_art(frame, todo, cards, art, config), strict=True))
    kept = tuple(d for d in dice.dice if not art_of.get(id(d), False))
    return replace(dice, dice=kept, timings_ms={**dice.timings_ms, "art": (time.perf_counter() - t0) * 1000.0})
