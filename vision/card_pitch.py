"""A card's size in pixels from the frame's own outlines, for a table read without a calibration.

Without a calibration the card reader learns the card's size from blobs that look like one card on their own
(:func:`vision.card_detect.card_size_estimate`). On a table where every card touches another (an Among the Stars
station, a tableau laid edge to edge) there is none, or the only blobs shaped like a card are whole blocks of
cards (two by three cards have nearly a card's aspect and fill their outline), and a size taken from them splits
every station on the wrong grid: the cards are cut across and read as other cards.

The edges between touching cards are long straight lines a card's side apart. :func:`card_pitch` turns each blob
upright (its dominant gradient direction), sums its vertical and horizontal edge ridges along each axis, and
finds the spacing at which those profiles repeat (their autocorrelation, summed over the blobs by area): for the
deck's aspect, the card's short side is the spacing ``s`` where the profiles repeat at ``s`` along one axis and
``s * aspect`` along the other, each side then measured at its own axis's peak near it (a camera's slant makes the
long side more or less than ``s * aspect``). The spacing counts a card's whole border even where that border, printed
near the cloth's colour, drops out of the foreground: the art of touching cards repeats at it too. Art inside a
card makes short edges that do not line up from card to card.

A playmat printed with a grid, or a checked cloth, repeats too, at its own spacing. :meth:`EdgePitch.cells` tells
them apart: each card is a picture of its own, so the cells of a lattice of cards differ from one another, while a
print's cells are one plain cell repeated (or two or three, every second cell alike); the spacing alone sets no card
size where its cells are alike (:func:`choose_card_size`).

Units: pixels of the image the blobs are in (the detector's work image).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from .card_split import _upright_edges, dominant_angle

__all__ = ["EdgePitch", "card_pitch", "choose_card_size", "edge_pitch"]


def _repeats(profile: np.ndarray, max_lag: int) -> np.ndarray:
    """float64[max_lag + 1]: autocorrelation of ``profile`` (float[N], edge strength summed along one axis) at lags
    0..max_lag, of its peaks above a 9-px running mean (the slow rise and fall of a blob's edges left out),
    divided by its value at lag 0 (0 where undefined, and beyond the profile's length)."""
    p = profile.astype(np.float64)
    if p.size > 9:
        p = np.maximum(p - cv2.blur(p.reshape(1, -1), (9, 1)).ravel(), 0.0)
    full = np.correlate(p, p, mode="full")[p.size - 1:]          # lags 0 .. N-1
    out = np.zeros(max_lag + 1)
    k = min(max_lag + 1, full.size)
    out[:k] = full[:k]
    return out / out[0] if out[0] > 0 else out


@dataclass(frozen=True)
class _Upright:
    """One blob turned upright on its own canvas (:func:`_blob_profiles`): its area (px^2), vertical edge ridges
    summed down each canvas column (float[W']) and horizontal ones along each row (float[H']), and how to see its
    colours there (the box (x0, y0, x1, y1) px of the work image it was cut from, the turn R float[2, 3] onto the
    canvas, the canvas mask uint8[H', W'])."""

    area: float
    px: np.ndarray
    py: np.ndarray
    box: tuple[int, int, int, int]
    turn: np.ndarray
    mask: np.ndarray


def _blob_profiles(img: np.ndarray, blobs: Sequence[Any], max_blobs: int) -> list[_Upright]:
    """:class:`_Upright` of each of the ``max_blobs`` largest ``blobs`` of ``img`` (uint8[H, W, 3] BGR), turned by
    its dominant gradient direction, the blob's own outline included."""
    H, W = img.shape[:2]
    out = []
    for b in sorted(blobs, key=lambda b: -b.area)[:max_blobs]:
        x, y, bw, bh = cv2.boundingRect(b.contour)
        x0, y0, x1, y1 = max(0, x - 6), max(0, y - 6), min(W, x + bw + 6), min(H, y + bh + 6)
        roi = cv2.cvtColor(img[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        m = np.zeros_like(roi)
        cv2.drawContours(m, [b.contour - np.array([x0, y0])], -1, 255, cv2.FILLED)
        m = cv2.dilate(m, np.ones((5, 5), np.uint8))   # the blob's own outline inside the mask
        theta = dominant_angle(roi, m)
        R, m8, gx, gy = _upright_edges(roi, m, theta if theta <= 45.0 else theta - 90.0)
        inside = m8 > 0
        out.append(_Upright(float(b.area), (gx * inside).sum(axis=0), (gy * inside).sum(axis=1), (x0, y0, x1, y1),
                            R, m8))
    return out


def _pitch_of(profiles: list[_Upright], aspect: float, min_side: float,
              max_lag: int) -> tuple[float, float, bool] | None:
    """(short side px, long side px, whether the cards lie with the short side across the columns: portrait) of the
    blobs' ``profiles`` (:func:`_blob_profiles`), or None: the spacing :func:`card_pitch` chooses on both axes at
    once, then each side at its own axis's peak near it (:func:`peak_near`)."""
    acc_x, acc_y = np.zeros(max_lag + 1), np.zeros(max_lag + 1)
    for u in profiles:
        acc_x += u.area * _repeats(u.px, max_lag)
        acc_y += u.area * _repeats(u.py, max_lag)

    def at(acc: np.ndarray, lag: float) -> float:
        i = int(round(lag))
        return float(acc[max(0, i - 2):i + 3].max()) if i + 2 <= max_lag else 0.0

    best: tuple[float, float, bool] | None = None
    long_ = max(aspect, 1.0 / aspect)
    for s in np.arange(max(8.0, float(min_side)), max_lag / long_, 0.5):
        portrait, landscape = at(acc_x, s) + at(acc_y, s * long_), at(acc_x, s * long_) + at(acc_y, s)
        score = max(portrait, landscape)
        if score > 0 and (best is None or score > best[0]):
            best = (score, float(s), portrait >= landscape)
    if best is None:
        return None
    _, s, portrait = best
    across, along = (acc_x, acc_y) if portrait else (acc_y, acc_x)
    return peak_near(across, s), peak_near(along, s * long_), portrait


#: How far (a share of the spacing, at least :data:`PEAK_MIN_REACH` px) :func:`peak_near` looks for the repetition's
#: own peak around the spacing the search for both axes together chose: a camera's slant shortens a card's side
#: along its tilt by a few per cent, and the search scores each spacing by the best lag within 2 px.
PEAK_REACH = 0.08
PEAK_MIN_REACH = 3


def peak_near(acc: np.ndarray, lag: float, reach: float = PEAK_REACH) -> float:
    """The lag in px (to a tenth of a pixel or so) of the highest peak of ``acc`` (float[L], a repetition by lag,
    :func:`_repeats`) within ``reach`` of ``lag`` (at least :data:`PEAK_MIN_REACH` px): its highest value there,
    moved by the parabola through it and its two neighbours; ``lag`` itself when that window holds no lag of ``acc``
    or its highest value lies at the window's end (no peak inside it)."""
    d = max(float(PEAK_MIN_REACH), reach * lag)
    lo, hi = max(1, int(np.ceil(lag - d))), min(acc.size - 2, int(np.floor(lag + d)))
    if hi <= lo:
        return float(lag)
    k = lo + int(np.argmax(acc[lo:hi + 1]))
    if k in (lo, hi):
        return float(lag)
    a, b, c = float(acc[k - 1]), float(acc[k]), float(acc[k + 1])
    bend = a - 2.0 * b + c
    return float(k) if bend >= 0 else float(k) + 0.5 * (a - c) / bend


def card_pitch(img: np.ndarray, blobs: Sequence[Any], aspect: float, min_side: float,
               max_blobs: int = 12) -> float | None:
    """The card's short side in px (the spacing of touching cards' edges, gap included), or None.

    Args:
        img: uint8[H, W, 3] BGR (the detector's work image).
        blobs: :class:`vision.card_detect.Blob` of ``img`` (foreground components, holes filled); the
            ``max_blobs`` largest are used.
        aspect: the deck's long/short side ratio (1 for square tiles).
        min_side: the smallest short side in px to consider (a card smaller than the detector's minimum area).

    Returns:
        The short side in px: the spacing ``s`` (0.5 px steps) maximising the blobs' area-weighted edge repetition
        at ``s`` along one axis plus at ``s * aspect`` along the other (portrait or landscape cards), then moved to
        the repetition's own peak near it along its axis (:func:`peak_near`, a fraction of a pixel); None when no
        blob or no spacing above ``min_side`` fits in the frame.
    """
    found = edge_pitch(img, blobs, aspect, min_side, max_blobs)
    return None if found is None else found.short


def _lines(profile: np.ndarray, lag: float, bins: int = 16) -> tuple[float, float] | None:
    """(spacing px, phase px) of the lattice of lines ``profile`` (float[N], edge strength per canvas column or row)
    repeats at near ``lag`` px: of the spacings within ``max(3 px, 5 %)`` of ``lag`` (0.25 px steps), the one where
    the profile folded onto one spacing (its mean in each of ``bins`` phases) is least even (its median over its mean
    lowest: the lines line up), and the middle of that fold's strongest phase; None when the profile is shorter than
    two spacings."""
    if profile.size < 2 * lag + 3 or lag < 4:
        return None
    d = max(3.0, 0.05 * lag)
    spacings = np.arange(lag - d, lag + d + 1e-9, 0.25)
    pos = np.arange(profile.size, dtype=np.float64)
    phase = np.minimum((np.mod(pos[None, :], spacings[:, None]) / spacings[:, None] * bins).astype(np.intp), bins - 1)
    idx = (phase + bins * np.arange(spacings.size)[:, None]).ravel()
    n = spacings.size * bins
    sums = np.bincount(idx, np.broadcast_to(profile, phase.shape).ravel(), n)
    per = (sums / np.maximum(np.bincount(idx, None, n), 1)).reshape(spacings.size, bins)
    mean = per.mean(axis=1)
    if not (mean > 0).any():
        return None
    even = np.where(mean > 0, np.median(per, axis=1) / np.maximum(mean, 1e-12), np.inf)
    k = int(np.argmin(even))
    return float(spacings[k]), (float(np.argmax(per[k])) + 0.5) * float(spacings[k]) / bins


def _cell_colours(canvas: np.ndarray, mask: np.ndarray, xs: tuple[float, float], ys: tuple[float, float],
                  inset: float = 0.2) -> np.ndarray:
    """float64[rows, cols, 3]: the mean BGR of the middle of each cell of the lattice (x spacing, phase) ``xs`` and
    (y spacing, phase) ``ys`` over ``canvas`` (uint8[H', W', 3]), ``inset`` of a cell's sides in from its lines; NaN
    for a cell whose middle is not all inside ``mask`` (uint8[H', W'])."""
    h, w = mask.shape

    def starts(spacing: float, phase: float, size: int) -> list[float]:
        first = phase - spacing * np.floor(phase / spacing)
        return [float(v) for v in np.arange(first, size - spacing + 1e-9, spacing)]

    cols, rows = starts(xs[0], xs[1], w), starts(ys[0], ys[1], h)
    xa = np.round(np.asarray(cols) + inset * xs[0]).astype(np.intp)
    xb = np.round(np.asarray(cols) + (1 - inset) * xs[0]).astype(np.intp)
    ya = np.round(np.asarray(rows) + inset * ys[0]).astype(np.intp)
    yb = np.round(np.asarray(rows) + (1 - inset) * ys[0]).astype(np.intp)
    colour, inside = cv2.integral(canvas, sdepth=cv2.CV_64F), cv2.integral((mask > 0).astype(np.uint8))

    def box(table: np.ndarray) -> np.ndarray:   # the sum over each cell's middle: [rows, cols, ...]
        return (table[yb][:, xb] - table[ya][:, xb] - table[yb][:, xa] + table[ya][:, xa]).astype(np.float64)

    area = np.outer(yb - ya, xb - xa).astype(np.float64)
    full = (area > 0) & (box(inside) == area)
    out = np.full((len(rows), len(cols), 3), np.nan)
    out[full] = box(colour)[full] / area[full][:, None]
    return out


def _differ(colours: np.ndarray) -> list[float]:
    """For each of the lattice's two axes and steps 1 and 2 cells along it, the median distance (BGR grey levels)
    between the mean colours ``colours`` (float[rows, cols, 3], NaN outside) of the cells that far apart; the
    steps with no pair of cells left out."""
    out = []
    for step in (1, 2):
        for a, b in ((colours[:, :-step], colours[:, step:]), (colours[:-step], colours[step:])):
            d = np.linalg.norm(a - b, axis=-1) if a.size else np.zeros(0)
            d = d[np.isfinite(d)]
            if d.size:
                out.append(float(np.median(d)))
    return out


@dataclass(frozen=True)
class EdgePitch:
    """The spacing of the cards' edges found in a frame's blobs (:func:`edge_pitch`).

    Attributes:
        short: the card's short side in px (gap included), at its axis's own peak of repetition (:func:`peak_near`).
        long: the card's long side in px (gap included), likewise: a camera's slant makes it more or less than
            ``short`` times the deck's aspect.
        portrait: whether the short side lies along the blobs' upright columns (else along their rows).
        aspect: the deck's long/short side ratio it was found for.
        img: the work image (uint8[H, W, 3] BGR) and profiles: the blobs upright, it was found in.
    """

    short: float
    long: float
    portrait: bool
    aspect: float
    img: np.ndarray = field(repr=False)
    profiles: list[_Upright] = field(repr=False)

    def cells(self) -> float | None:
        """How much the cells this spacing implies differ from one another, in BGR grey levels, or None when no
        blob holds two cells side by side.

        Each card is a picture of its own; a playmat's printed grid repeats one plain cell, a checked cloth two or
        three. For each blob, the lattice's lines are found near the spacing along each axis (:func:`_lines`: the
        spacing and phase where its edges fold onto one cell most unevenly), each cell whose middle (a fifth of its
        sides in from its lines) lies in the blob gets that middle's mean colour, and the median distance between
        cells one apart and two apart along each axis is taken (:func:`_differ`); the blob's figure is the least
        of these (a pattern that repeats every second cell differs one apart, never two apart), and the blobs'
        figures are weighted by area."""
        long_ = max(self.aspect, 1.0 / self.aspect)
        lx, ly = (self.short, self.short * long_) if self.portrait else (self.short * long_, self.short)
        total = weight = 0.0
        for u in self.profiles:
            xs, ys = _lines(u.px, lx), _lines(u.py, ly)
            if xs is None and ys is None:
                continue
            h, w = u.mask.shape
            x0, y0, x1, y1 = u.box
            canvas = cv2.warpAffine(self.img[y0:y1, x0:x1], u.turn, (w, h), flags=cv2.INTER_LINEAR)
            # along an axis too short for two cells, the blob is one cell across (its own box)
            colours = _cell_colours(canvas, u.mask, xs or (float(w), 0.0), ys or (float(h), 0.0))
            differ = _differ(colours)
            if differ:
                total += u.area * min(differ)
                weight += u.area
        return total / weight if weight > 0 else None


def edge_pitch(img: np.ndarray, blobs: Sequence[Any], aspect: float, min_side: float,
               max_blobs: int = 12) -> EdgePitch | None:
    """:func:`card_pitch` with what it was found from (:class:`EdgePitch`, whose ``cells()`` tells whether its cells
    hold cards), or None. Same args as :func:`card_pitch`."""
    if not blobs or aspect <= 0:
        return None
    H, W = img.shape[:2]
    max_lag = int(0.5 * min(H, W))
    profiles = _blob_profiles(img, blobs, max_blobs)
    found = _pitch_of(profiles, aspect, min_side, max_lag)
    return None if found is None else EdgePitch(found[0], found[1], found[2], aspect, img, profiles)


#: The largest gap between touching cards as a share of the card's short side (the gaps the split's lattices try,
#: :func:`vision.card_split._lattices`): the edges' spacing is the card and that gap; a blob shaped like one card
#: smaller than the spacing by more than it has lost the card's border from the foreground.
PITCH_GAP = 0.06


def choose_card_size(single_sizes: Sequence[tuple[float, float]], single_areas: Sequence[float],
                     pitch: float | None, aspect: float, band: tuple[float, float] = (0.5, 1.7),
                     cells_hold_cards: bool | Callable[[], bool] = True,
                     pitch_long: float | None = None,
                     lattice: bool | Callable[[], bool] | None = None) -> tuple[float, float] | None:
    """(short, long) card size in px from the blobs shaped like one card, checked against the edges' pitch.

    Args:
        single_sizes: (short, long) px of each blob shaped like one card; single_areas: their areas in px^2.
        pitch: :func:`card_pitch` (short side in px, gap included), or None.
        aspect: the deck's long/short side ratio.
        band: a blob shaped like one card is taken as one card when its area is within this range of times the
            pitch's card area (``pitch^2 * aspect``): a block of two or more touching cards is beyond it.
        cells_hold_cards: whether the cells the pitch implies hold cards (:meth:`EdgePitch.cells`), or a function
            telling it (asked only when no blob agrees, or when the blobs that agree are smaller than the pitch);
            when not (a playmat's printed grid, a checked cloth), the pitch counts only where a blob shaped like one
            card agrees with it.
        pitch_long: the long side in px the edges' spacing measured on its own axis (:attr:`EdgePitch.long`), or
            None: ``pitch * aspect``.
        lattice: whether blocks of touching cards show a lattice at the pitch (a function telling it, asked only when
            the blobs are larger than the pitch), or None: ``cells_hold_cards``. A pitch with no lattice measured may
            be a repeat inside the cards' art, which never makes the cards smaller than their blobs.

    Returns:
        The median size of the blobs within ``band`` when any, unless their median short side is smaller than the
        pitch by more than :data:`PITCH_GAP` of it and the pitch's cells hold cards: a card's border printed in a
        colour near the table's drops out of the foreground, so the blob is the card's art alone, while the
        spacing of the edges of touching cards (their art's too) is the whole card's; then the pitch's card
        (``pitch``, ``pitch_long``). Where the median is larger than the pitch by more than :data:`PITCH_GAP` of it
        and ``lattice`` holds, the blobs larger than that are something else lying card-shaped (a board
        piece, two cards' art together): no card is larger than the spacing of the touching cards it lies among, so
        the median of the blobs that fit the pitch, else the pitch's card. With no blob within ``band``, the
        pitch's card when its cells hold cards; None otherwise.
    """
    if pitch is None:
        return None
    long_side = float(pitch_long) if pitch_long is not None else float(pitch * max(aspect, 1.0 / aspect))
    area = pitch * pitch * max(aspect, 1.0 / aspect)
    kept = [sz for sz, a in zip(single_sizes, single_areas, strict=True) if band[0] * area <= a <= band[1] * area]

    def holds_cards() -> bool:
        return bool(cells_hold_cards() if callable(cells_hold_cards) else cells_hold_cards)

    def measured_lattice() -> bool:
        if lattice is None:
            return holds_cards()
        return bool(lattice() if callable(lattice) else lattice)

    if kept:
        arr = np.asarray(kept, np.float64)
        short, long_ = float(np.median(arr[:, 0])), float(np.median(arr[:, 1]))
        if short * (1.0 + PITCH_GAP) < pitch and holds_cards():   # the border lost from the blobs
            return float(pitch), long_side
        if short > pitch * (1.0 + PITCH_GAP) and measured_lattice():   # no card is larger than touching cards' spacing
            fit = arr[arr[:, 0] <= pitch * (1.0 + PITCH_GAP)]
            if len(fit) == 0:
                return float(pitch), long_side
            return float(np.median(fit[:, 0])), float(np.median(fit[:, 1]))
        return short, long_
    if not holds_cards():
        return None
    return float(pitch), long_side
