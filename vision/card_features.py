"""What a deck compares: the features of one rectified card (or hex) crop, and their thresholds.

* *structure*: the white-balanced lightness map of the card face (``struct_size``), blurred, with the ink
  chroma and the doubled-angle gradient orientation field (outlines, hatching) -- compared by normalised
  cross-correlation over small shifts: layout, counts, shapes, shading and artwork;
* *colour*: a hue histogram of the inked (saturated) pixels after white balance against the card's own
  paper, compared by the Hellinger distance -- what the lightness map cannot see (red vs green vs purple);
* *ink amplitude* (cards): the mean ink darkness and chroma of the card's centre, compared as a log ratio --
  the contrast the correlation normalises away (a solid shape against a hatched one of the same outline).

For cards the crop's core is first reduced to the structure maps' size (with a ``struct_shift`` border; every
feature is computed there, deck format 2) and divided by a planar light field fitted to its paper (a light
falling off across the card, a coloured lamp on one side) before the white balance. Hex crops (``shape="hex"``)
count only the hexagon inside the square crop (:func:`shape_mask`).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["IdConfig", "card_features", "crop_features", "crop_features_many", "feature_maps", "flatten_light",
           "ink_amplitude", "inner_maps", "mask_face", "normalise_maps", "reusing_features", "shape_mask",
           "shifted_maps", "shifted_ncc", "turn_crop", "white_balance"]


@dataclass(frozen=True)
class IdConfig:
    """Thresholds of the identification step.

    Attributes:
        struct_size: (width, height) of the lightness map compared by NCC.
        struct_shift: shifts up to this many pixels are tried when correlating.
        blur_sigma: Gaussian blur of the lightness map (pixels of the map).
        margin_frac: this fraction of the crop is trimmed on every side before features (edge bleed).
        paper_percentile: per-channel percentile taken as the paper's colour for white balance.
        ink_chroma: Lab chroma above which a white-balanced pixel counts as ink.
        hue_bins: bins of the ink hue histogram.
        hue_smooth: circular Gaussian smoothing of that histogram (sigma in bins).
        colour_weight: weight of the colour distance against (1 - ncc).
        shortlist: references compared at every shift (the closest at the centred shift; the rest keep
            their centred distance) ...
        fine_within: ... of them only those whose centred distance is within this of the closest pair's (0: all).
            A pair further off than the best shift can bring it back (at most 0.23 on the full tables of
            ``bench/card_ident.py``; median 0.05) decides nothing: it neither becomes the best card nor, past a
            margin this wide, changes the confidence (above 0.9). On those tables 0.4 leaves out 61 % (Race)
            to 79 % (Roll tiles) of the shortlist, and about half the CPU time of the fine search.
        parity_alone: square tiles: a tile read at one parity of turns (t, t + 2) whose best card is within this
            distance, at the centred shift or at the best shift, is not read at the other (a quarter turn: 0.88 or
            more on the Roll tiles of ``bench/card_ident.py``, 0.84 or more at the best shift on the Roll tables of
            ``bench/card_table_ab.py``; :meth:`vision.deck.DeckProfile.distances_many`; 0: every turn always).
        occlusion_drop: the structure correlation is also computed without the this many worst of the
            map's 2 x 3 blocks (a hand or a glare over part of the card) ...
        occlusion_weight: ... and blended in with this weight (0 = off).
        ref_mean_weight: a card's distance = (1 - w) * its best reference's + w * the mean of its references'.
        unknown_distance: a best distance above this may mean 'not in the deck' (id None) ...
        unknown_relative: ... when it also exceeds the median of the frame's other cards by this ...
        unknown_distance_max: ... and always above this.
        conf_margin_scale: confidence = 1 - exp(-margin / this) (margin = second-best - best distance) ...
        conf_dist_soft: ... times a soft factor falling from 1 to 0 as the best distance goes from
            ``conf_dist_soft * unknown_distance`` to ``unknown_distance``.
        flatten_light: cards only: before white balance, divide the crop by a per-channel plane fitted to its
            brightest (paper) parts in ``light_cells`` (columns, rows) cells -- a light fall-off or a coloured
            light from one side of the card (hex decks never flatten).
        light_cells: see flatten_light.
        amp_weight: cards only: weight of the ink amplitude term, the mean absolute log ratio of the crop's
            mean ink darkness and chroma to the reference's (:func:`ink_amplitude`; what the contrast-free
            correlation cannot see: a solid shape against a hatched one of the same outline) ...
        amp_floor: ... each amplitude floored at this (white-balanced units) before the ratio ...
        amp_margin_frac: ... and measured without this fraction of the crop on every side (rounded
            corners and the table or a neighbour at the edge stay out).
    """

    struct_size: tuple[int, int] = (48, 72)
    struct_shift: int = 3
    blur_sigma: float = 1.5
    margin_frac: float = 0.04
    paper_percentile: float = 85.0
    ink_chroma: float = 14.0
    hue_bins: int = 24
    hue_smooth: float = 2.0
    channel_weights: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)
    colour_weight: float = 0.5
    shortlist: int = 16
    fine_within: float = 0.4
    parity_alone: float = 0.5
    occlusion_drop: int = 2
    occlusion_weight: float = 0.5
    ref_mean_weight: float = 0.5
    unknown_distance: float = 0.35
    unknown_relative: float = 0.30
    unknown_distance_max: float = 1.0
    conf_margin_scale: float = 0.08
    conf_dist_soft: float = 0.6
    flatten_light: bool = True
    light_cells: tuple[int, int] = (4, 6)
    amp_weight: float = 0.1
    amp_floor: float = 0.01
    amp_margin_frac: float = 0.1


# ----------------------------------------------------------------------------------------------- features


def white_balance(crop: np.ndarray, cfg: IdConfig) -> np.ndarray:
    """float32 BGR crop divided by the paper colour (its ``paper_percentile`` per channel), 1.0 = paper."""
    f = crop.astype(np.float32)
    return f / np.maximum(channel_percentile(crop, cfg.paper_percentile), 8.0)


def channel_percentile(img: np.ndarray, q: float) -> np.ndarray:
    """float32[3]: the ``q``-th percentile of each channel of an ``[H, W, 3]`` image, interpolated linearly
    between the two nearest ranks (what ``np.percentile`` gives, from one partial sort)."""
    return _channel_percentiles(img.reshape(1, -1, 3), q)[0]


def _channel_percentiles(px: np.ndarray, q: float) -> np.ndarray:
    """float32[n, 3]: :func:`channel_percentile` of each of n images' pixels ``px`` [n, P, 3]."""
    x = px.transpose(0, 2, 1).copy()   # its own copy: selected in place
    n = x.shape[2]
    k = q / 100.0 * (n - 1)
    lo = int(math.floor(k))
    hi = min(lo + 1, n - 1)
    # both ranks from one selection given both (on a card's 3 x 4212 light-flattened values: 67 us, against 72 for
    # the upper rank alone, before the largest value below it is looked for)
    x.partition([lo, hi] if hi > lo else hi, axis=2)   # np.partition's selection, on the copy above
    b = x[:, :, hi].astype(np.float64)
    a = x[:, :, lo].astype(np.float64) if hi > lo else b
    return (a + (b - a) * (k - lo)).astype(np.float32)


def flatten_light(crop: np.ndarray, cells: tuple[int, int] = (4, 6), percentile: float = 85.0) -> np.ndarray:
    """float32 BGR ``crop`` divided by a smooth light field with mean 1: per channel, a plane fitted (least
    squares, in log) to the ``percentile`` of each of ``cells`` (columns, rows) cells, refitted without the
    cells darker than the plane by more than twice the residual spread (artwork, not paper).

    Only the fall-off across the card is removed; the overall level and colour stay for :func:`white_balance`.
    """
    f = crop.astype(np.float32)
    field = _light_field(f, cells, percentile)
    return f if field is None else f * field


def _light_field(f: np.ndarray, cells: tuple[int, int], percentile: float) -> np.ndarray | None:
    """float32[h, w, 3] the inverse light field :func:`flatten_light` multiplies the float32 crop ``f`` by
    (None: too few cells, nothing to flatten)."""
    factors = _light_factors(f[None], cells, percentile)
    if factors is None:
        return None
    inv_y, inv_x = factors[0][0], factors[1][0]
    h, w = f.shape[:2]
    # inv_y[:, None, :] * inv_x[None, :, :], as rows of w * 3 values (numpy's loop over 3 channels is slow)
    return (np.tile(inv_y, (1, w)) * inv_x.reshape(1, -1)).reshape(h, w, 3)


def _light_factors(f: np.ndarray, cells: tuple[int, int],
                   percentile: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The separable inverse light fields of n float32 crops ``f`` [n, h, w, 3]: (float32[n, h, 3] along the rows,
    float32[n, w, 3] along the columns; the field is their product), or None (too few cells, nothing to flatten).
    Each crop's cells' percentiles come from one partial sort for all crops, and every crop's plane is fitted at
    the same time (each its own fit: the same numbers as a crop fitted alone)."""
    n, h, w = f.shape[:3]
    nx, ny = max(1, int(cells[0])), max(1, int(cells[1]))
    if nx * ny < 4 or h < 2 * ny or w < 2 * nx:
        return None
    c = 8  # each cell sampled at c x c pixels (area-averaged), one percentile call for all cells
    small = np.stack([cv2.resize(x, (nx * c, ny * c), interpolation=cv2.INTER_AREA) for x in f]) if n > 1 else \
        cv2.resize(f[0], (nx * c, ny * c), interpolation=cv2.INTER_AREA)[None]
    # each cell's pixels of a channel one contiguous run (a copy of the small crops), sorted in place: the kth value
    # is the selection's, and numpy sorts short runs along the last axis faster than it selects along another
    cellpix = small.reshape(n, ny, c, nx, c, 3).transpose(0, 1, 3, 5, 2, 4).reshape(n, ny, nx, 3, c * c)
    kth = int(round(percentile / 100.0 * (c * c - 1)))
    cellpix.sort(axis=4)
    vals = cellpix[..., kth].astype(np.float64)                                   # [n, ny, nx, 3]
    A, outer = _plane_design(nx, ny)
    yy, xx = _unit_coords(h), _unit_coords(w)
    logv = np.log(np.maximum(vals.reshape(n, -1, 3), 4.0))                       # [n, cells, 3]
    # a few crops: each fitted on its own in scalar steps; many: every crop's fit at once (the same numbers; numpy's
    # steps over arrays of a few crops cost more than the arithmetic)
    coef = (_plane_fit(logv[0], A, outer)[None] if n == 1 else np.stack([_plane_fit(x, A, outer) for x in logv])
            if n < 4 else _plane_fits(logv, A, outer))
    # separable: exp(-bx) * exp(-cy)
    inv_x = np.exp(-xx[None] * coef[:, 1][:, None, :].astype(np.float32)).astype(np.float32)   # [n, w, 3]
    inv_y = np.exp(-yy[None] * coef[:, 2][:, None, :].astype(np.float32)).astype(np.float32)   # [n, h, 3]
    return inv_y, inv_x


def _plane_fit(logv: np.ndarray, A: np.ndarray, outer: np.ndarray) -> np.ndarray:
    """float64[3 params, 3 channels]: the planes (1, x, y) of one crop's cells' log paper levels ``logv`` float64[cells,
    3] (``A``, ``outer``: :func:`_plane_design`), the cells kept decided on the channels' mean (the fit is linear: the
    mean channel's plane is the mean of the channels' planes): refitted without the cells darker than the plane by more
    than twice the residual spread, at most 3 fits, until the cells kept no longer change (or would be fewer than 4);
    then the three channels fitted once on them.

    The first fit keeps every cell: its normal equations' matrix and inverse are the design's own (:func:`_every_cell`,
    the numbers :func:`_solve3` gives), and its residuals are all the cells'."""
    lm = logv.sum(axis=1) / logv.shape[1]   # the mean of the channels (np.mean's numbers, without its wrapper)
    al = A * lm[:, None]
    keep, inv_all = _every_cell(A, outer)
    fitted = keep
    mask = None   # the cells kept as booleans (None: every cell)
    for _ in range(3):
        fitted = keep
        # least squares by the normal equations (3 parameters, well conditioned: cell centres on a grid)
        x = inv_all @ (keep @ al) if mask is None else _solve3((keep @ outer).reshape(3, 3), keep @ al)
        res = lm - A @ x
        rk = res if mask is None else res[mask]
        spread = max(math.sqrt(max(float(np.dot(rk, rk)) / len(rk) - (float(np.add.reduce(rk)) / len(rk)) ** 2, 0.0)),
                     0.02)
        kept = res > -2.0 * spread
        # boolean arrays of one shape: equal exactly when their bytes are (np.array_equal's checks cost more here)
        if np.count_nonzero(kept) < 4 or (kept.all() if mask is None else kept.tobytes() == mask.tobytes()):
            break
        keep, mask = kept.astype(np.float64), kept
    kA = A * fitted[:, None]
    return _solve3(kA.T @ A, kA.T @ logv)


_EVERY_CELL: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def _every_cell(A: np.ndarray, outer: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(float64[cells] ones: every cell kept, float64[3, 3] the inverse of the normal equations' matrix of every cell,
    the numbers :func:`_solve3` uses) of the design ``A``, ``outer`` (:func:`_plane_design`); cached for that design
    (read-only)."""
    got = _EVERY_CELL.get(id(outer))
    if got is None or got[0] is not outer:
        ones = np.ones(len(A))
        got = (outer, ones, _inverse3((ones @ outer).reshape(3, 3)))
        for a in got[1:]:
            a.setflags(write=False)
        _EVERY_CELL[id(outer)] = got
    return got[1], got[2]


def _plane_fits(logv: np.ndarray, A: np.ndarray, outer: np.ndarray) -> np.ndarray:
    """float64[n, 3 params, 3 channels]: :func:`_plane_fit` of each of n crops' ``logv`` float64[n, cells, 3], every
    crop's fit at once (a crop whose cells kept no longer change keeps its last fit): the same numbers."""
    n = len(logv)
    lm = logv.mean(axis=2)                                                       # [n, cells]
    al = A[None] * lm[:, :, None]                                                # [n, cells, 3]
    keep = np.ones(lm.shape)
    fitted = keep
    going = np.ones(n, bool)
    for _ in range(3):
        fitted = np.where(going[:, None], keep, fitted)
        coef = _solve3_many((keep @ outer).reshape(n, 3, 3), (keep[:, None, :] @ al).transpose(0, 2, 1))
        res = lm - (A @ coef)[:, :, 0]                                           # [n, cells]
        cnt = keep.sum(axis=1)
        rk = res * keep
        mean = rk.sum(axis=1) / cnt
        spread = np.maximum(np.sqrt(np.maximum((rk * res).sum(axis=1) / cnt - mean * mean, 0.0)), 0.02)
        new_keep = (res > -2.0 * spread[:, None]).astype(np.float64)
        going &= (new_keep.sum(axis=1) >= 4) & (new_keep != keep).any(axis=1)
        if not going.any():
            break
        keep = np.where(going[:, None], new_keep, keep)
    kA = A[None] * fitted[:, :, None]                                            # [n, cells, 3]
    return _solve3_many(kA.transpose(0, 2, 1) @ A, kA.transpose(0, 2, 1) @ logv)


_COORD_CACHE: dict[int, np.ndarray] = {}


def _unit_coords(n: int) -> np.ndarray:
    """float32[n, 1]: the centres of n pixels along a side, from -0.5 to 0.5 of the side (cached)."""
    c = _COORD_CACHE.get(n)
    if c is None:
        c = _COORD_CACHE[n] = ((np.arange(n, dtype=np.float32) + 0.5) / n - 0.5)[:, None]
    return c


def _solve3(G: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x with ``G @ x = b`` for a symmetric positive definite float64[3, 3] ``G`` (normal equations) and b
    float64[3] or [3, k], by the adjugate (``np.linalg.solve``'s call costs more than the arithmetic here)."""
    return _inverse3(G) @ b


def _inverse3(G: np.ndarray) -> np.ndarray:
    """float64[3, 3]: the inverse of a symmetric positive definite float64[3, 3] ``G``, by the adjugate."""
    (a, b_, c), (_, e, f), (_, _, i) = G.tolist()
    A_, B_, C_ = e * i - f * f, c * f - b_ * i, b_ * f - c * e
    det = a * A_ + b_ * B_ + c * C_
    D_, E_, F_ = a * i - c * c, b_ * c - a * f, a * e - b_ * b_
    # each entry divided by det as numpy divides them (one flat array: cheaper to build than nested lists)
    return np.array((A_ / det, B_ / det, C_ / det, B_ / det, D_ / det, E_ / det, C_ / det, E_ / det,
                     F_ / det)).reshape(3, 3)


def _solve3_many(G: np.ndarray, b: np.ndarray) -> np.ndarray:
    """x[n, 3, k] with ``G[i] @ x[i] = b[i]`` for n symmetric positive definite float64[3, 3] matrices ``G``
    [n, 3, 3] and b float64[n, 3, k], by the adjugate (:func:`_solve3` of each: the same numbers)."""
    n = len(G)
    a, b_, c, _, e, f, _, _, i = G.reshape(n, 9).T
    A_, B_, C_ = e * i - f * f, c * f - b_ * i, b_ * f - c * e
    det = a * A_ + b_ * B_ + c * C_
    inv = np.empty((9, n))
    inv[0], inv[1], inv[2], inv[3], inv[4] = A_, B_, C_, B_, a * i - c * c
    inv[5], inv[6], inv[7], inv[8] = b_ * c - a * f, C_, b_ * c - a * f, a * e - b_ * b_
    inv /= det
    return inv.T.reshape(n, 3, 3) @ b


_DESIGN_CACHE: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def _plane_design(nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    """(A float64[ny * nx, 3]: (1, x, y) of each cell's centre, float64[ny * nx, 9]: each row's outer product
    with itself, flattened (a weighted sum of them is the normal equations' matrix)), cached."""
    d = _DESIGN_CACHE.get((nx, ny))
    if d is None:
        cy = (np.arange(ny) + 0.5) / ny - 0.5
        cx = (np.arange(nx) + 0.5) / nx - 0.5
        gy, gx = np.meshgrid(cy, cx, indexing="ij")
        A = np.stack([np.ones(gx.size), gx.ravel(), gy.ravel()], axis=1)
        d = _DESIGN_CACHE[(nx, ny)] = (A, (A[:, :, None] * A[:, None, :]).reshape(-1, 9))
    return d


def _balanced_core(core: np.ndarray, cfg: IdConfig, shape: str) -> np.ndarray:
    """The white-balanced crop core, float32 BGR clipped to [0, 1.2] (flattened first for cards when
    ``cfg.flatten_light``)."""
    if shape == "card" and cfg.flatten_light:
        core = flatten_light(core, cfg.light_cells, cfg.paper_percentile)
    return np.clip(white_balance(core, cfg), 0.0, 1.2)


def ink_amplitude(crop: np.ndarray, cfg: IdConfig | None = None) -> np.ndarray:
    """float32[2]: (mean ink darkness, mean ink chroma / 100) of a rectified card crop after the same
    trimming, light flattening and white balance as :func:`card_features` (0 for blank paper; darkness in
    white-balanced lightness units 0..1)."""
    return crop_features(crop, cfg or IdConfig(), "card")[2]


def _amplitudes(L: np.ndarray, chroma: np.ndarray, extra: int) -> list[np.ndarray]:
    """Per crop, float32[2] (mean darkness, mean chroma / 100) of n crops' white-balanced Lab planes ``L``, ``chroma``
    float32[n, h, w] (uint8 scale) without ``extra`` pixels on every side; each crop's means are summed in the order
    they are for that crop alone (the same numbers)."""
    if extra > 0:
        L, chroma = L[:, extra:-extra, extra:-extra], chroma[:, extra:-extra, extra:-extra]
    dark = np.maximum(0.0, 1.0 - L * (1.2 / 255.0))
    cnt = L.shape[1] * L.shape[2]   # np.mean's numbers: each float32 sum divided by the count
    means = zip((dark.sum(axis=(1, 2)) / cnt).tolist(), (chroma.sum(axis=(1, 2)) / cnt).tolist(), strict=True)
    return [np.array([float(d), float(c) / 100.0], np.float32) for d, c in means]


def shape_mask(shape: str, width: int, height: int, shrink: float = 0.9) -> np.ndarray | None:
    """float32[height, width] 1 inside the face of a ``shape`` crop, 0 outside; None for cards (the whole
    crop is the face). ``"hex"``: the flat-top hexagon whose corners touch the crop's left and right
    sides (:func:`vision.hexes.hex_crop`), shrunk by ``shrink`` about its centre (the die-cut rim and
    the seams between neighbours stay out)."""
    if shape != "hex":
        return None
    cx, cy = (width - 1) / 2.0, (height - 1) / 2.0
    R = shrink * (width - 1) / 2.0
    a = np.radians([240.0, 300.0, 0.0, 60.0, 120.0, 180.0])
    pts = np.stack([cx + R * np.cos(a), cy + R * np.sin(a)], axis=1)
    m = np.zeros((height, width), np.uint8)
    cv2.fillPoly(m, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    return (m > 0).astype(np.float32)


def card_features(crop: np.ndarray, cfg: IdConfig | None = None, shape: str = "card") -> tuple[np.ndarray, np.ndarray]:
    """(structure maps float32[C, H+2s, W+2s], colour histogram float32[bins]) of one rectified portrait crop.

    ``shape="hex"``: only the hexagon of a hex crop counts (:func:`shape_mask`): each map is centred on
    its mean inside the hexagon and zeroed outside, and the colour histogram counts inside pixels only.

    Channels: ink darkness (1 - L of the white-balanced crop), ink chroma, and the doubled-angle gradient
    orientation field (cos 2t, sin 2t weighted by magnitude: outlines and hatching). The maps carry a
    ``struct_shift`` border so a query can be compared with references at small shifts.
    """
    cfg = cfg or IdConfig()
    big, hist = feature_maps(crop, cfg, shape)
    return mask_face(big, cfg, shape, crop.shape[:2]), hist


def feature_maps(crop: np.ndarray, cfg: IdConfig, shape: str = "card") -> tuple[np.ndarray, np.ndarray]:
    """The unmasked structure maps float32[C, H+2s, W+2s] of :func:`card_features` (for ``shape="hex"``
    the caller may turn them before :func:`mask_face`) and the colour histogram (inside the face only)."""
    big, hist, _ = crop_features(crop, cfg, shape)
    return big, hist


_REUSE = threading.local()


@contextmanager
def reusing_features() -> Iterator[None]:
    """Within the block, :func:`crop_features` of a crop this thread has seen in it already (the same pixels, shape
    of crop, config and ``shape``) returns the arrays it returned then, made read-only, instead of computing them
    again: the same numbers. One card read rectifies and scores the same place more than once (a loose place
    screened, then identified; a second look's place ranked coarsely, then scored in full; the outline centred at
    the turn it matched). Nested blocks share the outermost block's store, dropped when that block ends (a frame's
    features: a few MB)."""
    outer = getattr(_REUSE, "store", None)
    if outer is None:
        _REUSE.store = {}
    try:
        yield
    finally:
        if outer is None:
            _REUSE.store = None


def crop_features(crop: np.ndarray, cfg: IdConfig,
                  shape: str = "card") -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """:func:`feature_maps` and, for cards, :func:`ink_amplitude` (None for other shapes) in one pass.

    ``crop``: uint8[h, w, 3] BGR. Returns (maps float32[4, H + 2s, W + 2s] with (W, H) = ``struct_size`` and s =
    ``struct_shift``, hue histogram float32[hue_bins] summing to 1, amplitude float32[2] or None). A card's core
    (the crop without ``margin_frac``) is reduced to the maps' size first (``INTER_AREA``), so its light field,
    white balance, gradients, histogram and amplitude are computed on W + 2s x H + 2s pixels (deck format 2);
    a hex crop's features are computed at the crop's size and the maps reduced afterwards.

    The white-balanced Lab crop is 8-bit, so chroma and the ink hue's histogram bins and weights are read from
    tables over its (a, b) pairs (:func:`_ab_tables`: the same values, computed once).

    Within :func:`reusing_features` a crop seen there already gets the arrays computed then (read-only).
    :func:`crop_features_many` gives the same numbers for many crops at once.
    """
    return crop_features_many([crop], cfg, shape)[0]


def crop_features_many(crops: list[np.ndarray], cfg: IdConfig,
                       shape: str = "card") -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """:func:`crop_features` of each crop (uint8[h, w, 3] BGR, any sizes), the same numbers to the last bit: the
    crops of one size are computed together, every per-pixel step (white balance, Lab, gradients, ink hue
    histogram) once over all of them, the steps that see a crop's neighbourhood (resizing, light field, Sobel,
    blur) crop by crop. Within :func:`reusing_features` only the crops not seen there yet are computed."""
    store = getattr(_REUSE, "store", None)
    keys: list[tuple] = []
    if store is not None:
        crops = [np.ascontiguousarray(c) for c in crops]
        keys = [(cfg, shape, c.shape, c.dtype.str, c.tobytes()) for c in crops]
    out: list[tuple | None] = [store.get(k) if store is not None else None for k in keys] or [None] * len(crops)
    groups: dict[tuple[int, ...], list[int]] = {}
    first: dict[tuple, int] = {}        # with a store: a crop twice in the list is computed once
    for i, c in enumerate(crops):
        if out[i] is None and (store is None or first.setdefault(keys[i], i) == i):
            groups.setdefault(c.shape, []).append(i)
    for idx in groups.values():
        for i, got in zip(idx, _features_one_size([crops[i] for i in idx], cfg, shape), strict=True):
            out[i] = got
            if store is not None:
                for a in got:
                    if a is not None:
                        a.setflags(write=False)
                store[keys[i]] = got
    if store is not None:
        out = [store[k] for k in keys]
    return out


def _features_one_size(crops: list[np.ndarray], cfg: IdConfig,
                       shape: str) -> list[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """:func:`crop_features_many` of crops of one size (no store)."""
    h, w = crops[0].shape[:2]
    m = int(round(cfg.margin_frac * min(h, w)))
    cores = [c[m:h - m, m:w - m] for c in crops] if m > 0 else list(crops)
    face = shape_mask(shape, w, h)
    if face is not None and m > 0:
        face = face[m:h - m, m:w - m]
    sw, sh = cfg.struct_size
    s = cfg.struct_shift
    size = (sw + 2 * s, sh + 2 * s)
    amp_extra = int(round(cfg.amp_margin_frac * min(h, w))) - m
    if shape == "card":  # deck format 2: every feature computed at the maps' size, not the crop's
        amp_extra = int(round(amp_extra * size[0] / max(cores[0].shape[1], 1)))
        cores = [cv2.resize(c, size, interpolation=cv2.INTER_AREA) for c in cores]
    n = len(cores)
    hh, ww = cores[0].shape[:2]
    rows = [slice(i * hh, (i + 1) * hh) for i in range(n)]   # each crop's rows in the stacked planes
    wb8 = _balanced_8bit_many(cores, cfg, shape)
    lab = cv2.cvtColor(wb8, cv2.COLOR_BGR2LAB)                                      # [n * hh, ww, 3]
    L8 = lab[:, :, 0]
    L = L8.astype(np.float32)
    # each pixel's (a, b) bytes read as one big-endian 16-bit number: a << 8 | b, without splitting the channels
    ab = np.ndarray(L8.shape, ">u2", lab, 1, (lab.strides[0], 3)).astype(np.uint16)
    nb = cfg.hue_bins
    chroma_t, lo_t, hi_t, _, _ = _ab_tables(nb)
    chroma = chroma_t.take(ab)
    gx = _stacked([cv2.Sobel(L[r], cv2.CV_32F, 1, 0, ksize=3) for r in rows])
    gy = _stacked([cv2.Sobel(L[r], cv2.CV_32F, 0, 1, ksize=3) for r in rows])
    gxx, gyy = gx * gx, gy * gy
    mag = gxx + gyy
    mag += 1e-6
    np.sqrt(mag, out=mag)
    c2 = gxx - gyy
    c2 /= mag
    s2 = 2 * gx
    s2 *= gy
    s2 /= mag
    planes = cv2.merge([(255 - L8).astype(np.float32), chroma, c2, s2])
    bigs = []
    for r in rows:   # one by one: a blur of every crop at once (each with its own border) costs more in memory
        small = planes[r]
        if small.shape[:2] != (size[1], size[0]):
            small = cv2.resize(small, size, interpolation=cv2.INTER_AREA)
        if cfg.blur_sigma > 0:
            small = cv2.GaussianBlur(small, (0, 0), cfg.blur_sigma)
        bigs.append(np.ascontiguousarray(small.transpose(2, 0, 1), np.float32))
    wlo_t, whi_t = _ink_tables(nb)
    ink = (chroma > cfg.ink_chroma).reshape(n, hh, ww)   # the ink table's test on the chroma read from its table
    if face is not None:
        ink &= face > 0
    ink = ink.reshape(n, -1)
    # every crop's ink pixels in one histogram of n x nb bins: each bin sums its own crop's pixels in their order
    ii = ab.reshape(n, -1)[ink]
    lo, hi = lo_t.take(ii), hi_t.take(ii)
    if n > 1:
        which = np.repeat(np.arange(0, n * nb, nb), np.count_nonzero(ink, axis=1))
        lo, hi = lo + which, hi + which
    hist = (np.bincount(lo, wlo_t.take(ii), minlength=n * nb)
            + np.bincount(hi, whi_t.take(ii), minlength=n * nb)).reshape(n, nb)
    if cfg.hue_smooth > 0:  # circular Gaussian smoothing: a small hue shift (lighting) stays close
        idx, ker = _hue_smoothing(nb, cfg.hue_smooth)
        hist = (hist[:, idx] * ker[None, None, :]).sum(axis=2)
    total = hist.sum(axis=1)
    if n == 1:   # a crop alone: its one total as a number (the same division)
        t0 = float(total[0])
        hists = (hist / t0).astype(np.float32) if t0 > 0 else np.full((1, nb), 1.0 / nb, np.float32)
    else:
        hists = np.where(total[:, None] > 0, hist / np.where(total > 0, total, 1.0)[:, None],
                         1.0 / nb).astype(np.float32)
    amps = _amplitudes(L.reshape(n, hh, ww), chroma.reshape(n, hh, ww), amp_extra) if shape == "card" else [None] * n
    return list(zip(bigs, hists, amps, strict=True))


def _stacked(planes: list[np.ndarray]) -> np.ndarray:
    """The planes one above the other (one plane: itself)."""
    return planes[0] if len(planes) == 1 else np.concatenate(planes)


_SMOOTH_CACHE: dict[tuple[int, float], tuple[np.ndarray, np.ndarray]] = {}


def _hue_smoothing(nb: int, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """(int[nb, 2r + 1] the bins each smoothed bin reads, circularly; float64[2r + 1] their Gaussian weights),
    r = 3 x ceil(``sigma``) bins; cached."""
    got = _SMOOTH_CACHE.get((nb, sigma))
    if got is None:
        r = 3 * int(math.ceil(sigma))
        k = np.arange(-r, r + 1)
        got = _SMOOTH_CACHE[(nb, sigma)] = ((np.arange(nb)[:, None] - k[None, :]) % nb,
                                            np.exp(-0.5 * (k / sigma) ** 2))
    return got


def _balanced_8bit_many(cores: list[np.ndarray], cfg: IdConfig, shape: str) -> np.ndarray:
    """uint8[n * h, w, 3]: :func:`_balanced_core` of each of n cores of one size (uint8[h, w, 3]) scaled so 1.2 is
    255 (truncated), stacked."""
    f = (np.stack(cores) if len(cores) > 1 else cores[0][None]).astype(np.float32)   # [n, h, w, 3]
    n, h = f.shape[:2]
    flat = shape == "card" and cfg.flatten_light
    factors = _light_factors(f, cfg.light_cells, cfg.paper_percentile) if flat else None
    rows = f.reshape(n, h, -1)   # each crop's rows of w x 3 values (numpy's loop over 3 channels is slow)
    if factors is not None:   # every crop's field (as :func:`_light_field` builds it) at once
        inv_y, inv_x = factors
        np.multiply(rows, inv_y[:, :, None, :].repeat(f.shape[2], axis=2).reshape(n, h, -1) * inv_x.reshape(n, 1, -1),
                    out=rows)
    paper = np.maximum(_channel_percentiles(f.reshape(n, -1, 3), cfg.paper_percentile), 8.0)      # [n, 3]
    # the paper's colour repeated along a row: the same division of every value, in runs of w x 3
    np.divide(rows, paper[:, None, :].repeat(f.shape[2], axis=1).reshape(n, 1, -1), out=rows)
    np.clip(f, 0.0, 1.2, out=f)
    f *= 255.0 / 1.2
    return f.reshape(n * h, *f.shape[2:]).astype(np.uint8)   # at most 1.2 * (255 / 1.2) = 255.00002: truncated


_AB_CACHE: dict[int, tuple[np.ndarray, ...]] = {}


def _ab_tables(nb: int) -> tuple[np.ndarray, ...]:
    """Tables over the 65536 8-bit Lab (a, b) pairs (index ``a << 8 | b``): chroma float32, and the ink hue
    histogram's lower bin, upper bin (uint8 when ``nb`` <= 256) and the shares of the chroma they get (float32:
    1 - fraction, fraction; a pixel's weights are its chroma in float64 times them), as :func:`crop_features`
    computed them per pixel: hue = (atan2(b, a) + pi) / 2 pi x ``nb``. Compact (1 MB with uint8 bins): they are
    read at every pixel of every crop."""
    t = _AB_CACHE.get(nb)
    if t is None:
        v = np.arange(256, dtype=np.float32) - 128.0
        a = np.repeat(v, 256)
        b = np.tile(v, 256)
        chroma = np.sqrt(a * a + b * b)
        hue = (np.arctan2(b, a) + math.pi) / (2 * math.pi) * nb
        lo = np.floor(hue).astype(int) % nb
        frac = hue - np.floor(hue)
        bins = np.uint8 if nb <= 256 else np.intp
        t = _AB_CACHE[nb] = (chroma, lo.astype(bins), ((lo + 1) % nb).astype(bins), 1 - frac, frac)
    return t


_INK_CACHE: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _ink_tables(nb: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables over the (a, b) pairs of :func:`_ab_tables` for the ink hue histogram: (float64: the weight of the lower
    bin, float64: of the upper bin), each weight the pair's chroma times its share, in float64 as
    :func:`crop_features` multiplied them per pixel (the same numbers); cached. (Which pixels are ink is their chroma
    against ``ink_chroma``, read from the chroma table.)"""
    t = _INK_CACHE.get(nb)
    if t is None:
        chroma, _, _, below, above = _ab_tables(nb)
        c64 = chroma.astype(np.float64)
        t = _INK_CACHE[nb] = (c64 * below.astype(np.float64), c64 * above.astype(np.float64))
    return t


def mask_face(big: np.ndarray, cfg: IdConfig, shape: str = "card", crop_hw: tuple[int, int] = (96, 96)) -> np.ndarray:
    """Maps float32[..., C, H, W] of :func:`feature_maps` restricted to the face of a ``shape`` crop of
    ``crop_hw`` (height, width) pixels (hexes: centred on their mean inside the hexagon, zero outside;
    cards: unchanged)."""
    if shape != "hex":
        return big
    fm = _face_map(shape, big.shape[-1], big.shape[-2], crop_hw, cfg.margin_frac)
    out = big * fm
    mean = out.sum(axis=(-2, -1)) / max(float(fm.sum()), 1.0)
    if out.dtype != np.float32:
        return ((big - mean[..., None, None]) * fm).astype(np.float32)
    np.subtract(big, mean[..., None, None], out=out)   # float32 maps: the same numbers, made in place
    out *= fm
    return out


_FACE_CACHE: dict[tuple, np.ndarray] = {}


def _face_map(shape: str, w: int, h: int, crop_hw: tuple[int, int], margin_frac: float) -> np.ndarray:
    """float32[h, w] face mask of a ``shape`` crop of ``crop_hw`` pixels at the size of its structure maps
    (the margin-trimmed face reduced to the maps' size; cached)."""
    key = (shape, w, h, int(crop_hw[0]), int(crop_hw[1]), float(margin_frac))
    fm = _FACE_CACHE.get(key)
    if fm is None:
        ch, cw = int(crop_hw[0]), int(crop_hw[1])
        face = shape_mask(shape, cw, ch)
        m = int(round(margin_frac * min(ch, cw)))
        if m > 0:
            face = face[m:ch - m, m:cw - m]
        fm = (cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA) > 0.999).astype(np.float32)
        _FACE_CACHE[key] = fm
    return fm


def normalise_maps(maps: np.ndarray) -> np.ndarray:
    """Zero-mean unit-norm per channel over the last two axes, flattened: float32[..., C, H*W]."""
    v = maps.reshape(*maps.shape[:-2], -1).astype(np.float32)
    # np.mean's and np.linalg.norm's numbers, without their Python wrappers (a card's maps are normalised at each
    # read): the float32 sums divided by the count, the root of the summed squares
    v = v - v.sum(axis=-1, keepdims=True) / v.shape[-1]
    return v / np.maximum(np.sqrt(np.add.reduce(v * v, axis=-1, keepdims=True)), 1e-6)


def inner_maps(big: np.ndarray, s: int) -> np.ndarray:
    return big[..., s:big.shape[-2] - s, s:big.shape[-1] - s] if s > 0 else big


def shifted_maps(big: np.ndarray, s: int, r: int | None = None) -> np.ndarray:
    """float32[..., S, C, H*W]: the query's inner maps at every shift within +-``r`` (default ``s``; ``big``
    float32[..., C, H + 2s, W + 2s] has an ``s``-pixel border; leading axes: many queries at once, each its own),
    each normalised per channel as :func:`normalise_maps` does, S = (2r + 1)^2 in row-major order of (dy, dx).

    The windows' means and norms come from summed-area tables of the maps (float64), so each window is
    copied, centred and scaled once instead of normalised from scratch."""
    r = s if r is None else min(int(r), s)
    lead = big.shape[:-3]
    C, h, w = big.shape[-3:]
    M = int(np.prod(lead, dtype=np.int64))
    H, W = h - 2 * s, w - 2 * s
    n = 2 * r + 1
    sub = np.asarray(big.reshape(M, C, h, w)[:, :, s - r:h - s + r, s - r:w - s + r], np.float32)
    f = sub.astype(np.float64).reshape(M * C, H + n - 1, W + n - 1)
    sums, sqs = _window_sums(f, H, W), _window_sums(f * f, H, W)                     # [M * C, n, n]
    mean = sums / (H * W)
    norm = np.sqrt(np.maximum(sqs - sums * mean, 0.0))
    # each window copied as one contiguous run: for a column shift dx the maps' columns dx..dx+W are copied
    # once, and the window of a row shift dy is then the run starting dy rows down
    mean32 = mean.astype(np.float32).reshape(M, C, n, n)
    out = np.empty((M, n, n, C, H * W), np.float32)                               # [query, dy, dx, C, K]
    for dx in range(n):
        cols = np.ascontiguousarray(sub[:, :, :, dx:dx + W])                        # [M, C, H + n - 1, W]
        it = cols.itemsize
        runs = np.lib.stride_tricks.as_strided(cols, (M, n, C, H * W), (cols.strides[0], W * it, cols.strides[1], it),
                                               writeable=False)
        np.subtract(runs, mean32[:, :, :, dx].transpose(0, 2, 1)[..., None], out=out[:, :, dx])   # copied and centred
    out = out.reshape(M, n * n, C, H * W)
    out *= (1.0 / np.maximum(norm, 1e-6)).reshape(M, C, n, n).transpose(0, 2, 3, 1).reshape(M, n * n, C, 1).astype(
        np.float32)
    return out.reshape(*lead, n * n, C, H * W)


def shifted_ncc(big: np.ndarray, s: int, refs: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """float64[S, R]: the weighted correlation of the query's inner maps at every shift within +-``s`` (``big``
    float32[C, H + 2s, W + 2s], S = (2s + 1)^2 in row-major order of (dy, dx)) with each reference of ``refs``
    float32[R, C, H*W] (normalised per channel, :func:`normalise_maps`), the channels weighted by ``weights``
    float[C]: ``(shifted_maps(big, s) * weights[:, None]).reshape(S, -1) @ refs.reshape(R, -1).T`` but for the
    rounding of the sums (float32 products).

    No window is copied: for each row shift the maps' H whole rows are one run, and each reference is placed at each
    column shift in a zero template as wide as the maps, so each channel's dot products at every shift are one matrix
    product of the 2s + 1 runs with the R (2s + 1) templates; each window's mean and norm come from summed-area tables
    (:func:`shifted_maps`' own)."""
    C, h, w = big.shape
    H, W = h - 2 * s, w - 2 * s
    n = 2 * s + 1
    R = len(refs)
    f = np.ascontiguousarray(big, np.float32)
    isum, isq = cv2.integral2(cv2.merge(list(f)), sdepth=cv2.CV_64F, sqdepth=cv2.CV_64F)   # [h + 1, w + 1, C] each
    sums, sqs = ((t[H:, W:] - t[:n, W:] - t[H:, :n] + t[:n, :n]).reshape(n, n, C).transpose(2, 0, 1)
                 for t in (isum, isq))                                             # [C, n, n] each
    mean = sums / (H * W)
    inv = 1.0 / np.maximum(np.sqrt(np.maximum(sqs - sums * mean, 0.0)), 1e-6)
    r = np.ascontiguousarray(refs, np.float32).reshape(R, C, H, W)
    it = f.itemsize
    runs = np.ascontiguousarray(np.lib.stride_tricks.as_strided(f, (C, n, H * w), (h * w * it, w * it, it),
                                                                writeable=False))  # [C, dy, H rows of the maps]
    tpl = np.zeros((C, R, n, H, w), np.float32)                                   # [C, R, dx, H, w]
    for dx in range(n):
        tpl[:, :, dx, :, dx:dx + W] = r.transpose(1, 0, 2, 3)
    dot = np.matmul(runs, tpl.reshape(C, R * n, H * w).transpose(0, 2, 1))       # [C, dy, R * dx]
    dot = dot.reshape(C, n, R, n).transpose(0, 2, 1, 3).astype(np.float64)       # [C, R, dy, dx]
    rs = r.sum(axis=(2, 3), dtype=np.float64).T                                   # [C, R]
    wt = np.asarray(weights, np.float64).reshape(C, 1, 1, 1)
    out = (wt * (dot - mean[:, None] * rs[:, :, None, None]) * inv[:, None]).sum(axis=0)   # [R, dy, dx]
    return out.reshape(R, n * n).T


def _window_sums(a: np.ndarray, H: int, W: int) -> np.ndarray:
    """[C, n, n] sums of every H x W window of ``a`` float64[C, H + n - 1, W + n - 1] (a summed-area table)."""
    C, h, w = a.shape
    ii = np.zeros((C, h + 1, w + 1), np.float64)
    np.cumsum(np.cumsum(a, axis=1), axis=2, out=ii[:, 1:, 1:])
    return ii[:, H:, W:] - ii[:, :h + 1 - H, W:] - ii[:, H:, :w + 1 - W] + ii[:, :h + 1 - H, :w + 1 - W]


def turn_crop(crop: np.ndarray, turns: int) -> np.ndarray:
    """Rotate a crop by ``turns`` quarter turns clockwise."""
    turns %= 4
    if turns == 0:
        return crop
    return cv2.rotate(crop, [None, cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE][turns])
