"""Is a candidate a die? The evidence a top face gives by its shape, used by stage 4 of the Roll dice reader:

* a die's top face is one body colour all round its rim (a check of a tablecloth, a printed box or a
  patch of a painting is not: its "rim" crosses other colours);
* it stands out from what lies around it on most of its outline (its side faces, its shadow, the table);
* it carries a symbol: ink in the middle of the face, neither nothing (an empty check of a gingham, a
  blank patch of a playmat) nor everything (a textured patch);
* its side has the size a die has at that place of the picture: the table is a plane, so the side of a
  die's top face in pixels is close to an affine function of its position (:func:`expected_sides`).

Every measure is in log-RGB (:func:`vision.roll_dice.foreground.to_log`), so it holds under any light level.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .config import RollDiceConfig
from .foreground import channel_sum, to_log
from .memo import InkMemo

__all__ = ["die_likeness", "edge_angle", "expected_sides", "face_evidence", "face_evidences", "faces_to_measure",
           "middle_spread",
           "pattern_axes", "pattern_lattice", "pattern_repeats", "snap_top", "stroke_spread", "surface_returns",
           "surrounding_logs", "surrounding_patches", "SurroundingLogs", "top_fit"]


@functools.lru_cache(maxsize=8)
def _rings(size: int, face: float, sectors: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    g = np.abs(np.arange(size, dtype=np.float32) - (size - 1) / 2.0) / (face / 2.0)
    r = np.maximum(g[:, None], g[None, :])
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2.0
    sector = (((np.arctan2(yy, xx) + np.pi) / (2 * np.pi)) * sectors).astype(np.int64) % sectors
    rim = (r >= 0.72) & (r <= 0.92)
    band = (r >= 1.12) & (r <= 1.40)
    centre = r < 0.6
    out = (rim, band, centre, np.where(band, sector, -1))
    for a in out:
        a.setflags(write=False)
    return out


@functools.lru_cache(maxsize=8)
def _sector_table(size: int, face: float, sectors: int) -> tuple[np.ndarray, np.ndarray]:
    """(``int[G, L]`` flat pixel indices of each non-empty sector of the band, padded with ``size * size``
    (a sentinel column), ``int[G]`` their counts) for :func:`face_evidences`."""
    flat = _rings(size, face, sectors)[3].reshape(-1)
    groups = [g for g in (np.flatnonzero(flat == k) for k in range(sectors)) if len(g)]
    width = max((len(g) for g in groups), default=1)
    idx = np.full((len(groups), width), size * size, np.int64)
    for k, g in enumerate(groups):
        idx[k, :len(g)] = g
    lens = np.array([len(g) for g in groups], np.int64)
    idx.setflags(write=False)
    lens.setflags(write=False)
    return idx, lens


def face_evidences(patches: np.ndarray, bodies: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`face_evidence` of many top faces at once: ``float[N, 3]`` (rim, outline, ink) of ``uint8[N, q, q, 3]``
    BGR patches with body colours ``float[N, 3]`` log-RGB (the sector medians by one sort, not a loop)."""
    n, q = len(patches), patches.shape[1]
    if n == 0:
        return np.zeros((0, 3))
    rim, _, centre, _ = _rings(q, float(config.patch), int(config.evidence_sectors))
    diff = to_log(patches, config) - np.asarray(bodies, np.float32)[:, None, None, :]
    d = np.sqrt(channel_sum(diff ** 2))                                               # float32[N, q, q]
    rim_share = (d[:, rim] < config.evidence_body).mean(1)
    idx, lens = _sector_table(q, float(config.patch), int(config.evidence_sectors))
    outline = np.zeros(n)
    if len(lens):
        flat = np.concatenate([d.reshape(n, -1), np.full((n, 1), np.inf, np.float32)], axis=1)
        v = np.sort(flat[:, idx], axis=2)                                                # [N, G, L], padding last
        lo, hi = np.take(v, (lens - 1) // 2, axis=2), np.take(v, lens // 2, axis=2)
        g = np.arange(len(lens))
        med = (lo[:, g, g] + hi[:, g, g]) / np.float32(2)  # np.median's middle pair (one value when odd)
        outline = (med.astype(np.float64) > config.evidence_outline).mean(1)
    ink = (d[:, centre] > config.evidence_ink).mean(1)
    return np.stack([rim_share, outline, ink], 1).astype(np.float64)


def face_evidence(patch: np.ndarray, body: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``float[3]`` (rim, outline, ink) of one top face (:func:`face_evidences` of one).

    Args:
        patch: ``uint8[q, q, 3]`` BGR upright patch whose middle ``config.patch`` px are the top face
            (:func:`vision.roll_dice.tops.upright_patch` with margin ``config.evidence_margin``).
        body: the face's body colour, log-RGB ``float[3]``.
        config: ``evidence_body``, ``evidence_outline``, ``evidence_ink`` (log-RGB distances).

    Returns:
        rim: share of the rim's pixels within ``evidence_body`` of the body colour;
        outline: share of ``evidence_sectors`` sectors around the face whose median pixel is farther than
        ``evidence_outline`` from the body colour (the die stands out there);
        ink: share of the face's middle farther than ``evidence_ink`` from the body colour (the symbol).
    """
    return face_evidences(np.asarray(patch)[None], np.asarray(body)[None], config)[0]


def _ramp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.clip((x - lo) / max(hi - lo, 1e-9), 0.0, 1.0)


def die_likeness(evidence: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``float[N]`` 0..1 from :func:`face_evidence` rows ``float[N, 3]``: how much a face looks like a die's
    top (its rim one colour, standing out all round, a symbol in the middle that is not all of it)."""
    rim, outline, ink = np.asarray(evidence, np.float64).reshape(-1, 3).T
    return (_ramp(rim, *config.rim_ramp) * _ramp(outline, *config.outline_ramp)
            * _ramp(ink, *config.ink_ramp) * _ramp(1.0 - ink, *config.ink_ramp))


@functools.lru_cache(maxsize=8)
def _middle(size: int, face: float, reach: float) -> np.ndarray:
    g = np.abs(np.arange(size, dtype=np.float32) - (size - 1) / 2.0) / (face / 2.0)
    m = np.maximum(g[:, None], g[None, :]) < reach
    m.setflags(write=False)
    return m


#: The spreads of the middles and strokes of the top faces' ink (:func:`middle_spread`, :func:`stroke_spread`): the
#: die weights of one read measure the same faces about fifteen times (:mod:`vision.roll_dice.memo`).
_SPREADS = InkMemo()


def middle_spread(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``float[N]``: how much the middle of each top face varies, the root of the summed variances of the ink
    map's channels (signed brightness and chroma difference to the body, log units: :func:`ink_maps`) over the
    square of ``symbol_middle`` x the half face about its centre.

    Every face of a Roll die is printed: its symbol's strokes and the body between them make its middle vary (by
    about a log unit where they meet). A check of a gingham, a blot of a playmat's art or a patch of plain table
    of a die's size is one colour there, whatever colour that is (a check whose body is measured on its
    neighbours' colours is far from the body but still flat). ``ink``: ``float32[N, 2, q, q]`` with the face
    spanning the middle ``config.patch`` px. Measured once per read-only ink (the top faces' own, :data:`_SPREADS`).
    Raises nothing; empty input gives an empty result."""
    return _SPREADS.of(ink, ("middle", float(config.patch), float(config.symbol_middle)),
                       lambda x: _middle_spread(x, config))


def _middle_spread(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`middle_spread`, measured."""
    ink = np.asarray(ink, np.float32)
    if len(ink) == 0:
        return np.zeros(0)
    m = _middle(int(ink.shape[-1]), float(config.patch), float(config.symbol_middle))
    v = ink[:, :, m]                                                          # [N, 2, M]
    return np.sqrt(v.var(axis=2, dtype=np.float64).sum(1))


@functools.lru_cache(maxsize=4)
def _gauss_taps(sigma: float) -> np.ndarray:
    t = cv2.getGaussianKernel(2 * int(np.ceil(3.0 * sigma)) + 1, sigma, cv2.CV_32F).ravel()
    t.setflags(write=False)
    return t


def stroke_spread(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``float[N]``: how much the middle of each top face varies at the scale of a symbol's strokes: the root of
    the summed variances of the ink map's channels (log units, :func:`ink_maps`) less their Gaussian blur of
    ``stroke_sigma`` patch px, over the square of ``symbol_middle`` x the half face about its centre.

    A die's symbol is drawn in strokes a few patch px wide with sharp edges, so its middle keeps most of its
    spread when the smooth part is taken away (~0.15-0.6). A blot of a playmat's painted art, a gradient of its
    nebula or a shaded patch of table can vary as much as a symbol over a die's face (:func:`middle_spread`), but
    smoothly: less its blur, it is nearly flat (~0.02-0.08). ``ink``: ``float32[N, 2, q, q]`` with the face
    spanning the middle ``config.patch`` px. Measured once per read-only ink (the top faces' own, :data:`_SPREADS`).
    Raises nothing; empty input gives an empty result."""
    return _SPREADS.of(ink, ("stroke", float(config.patch), float(config.symbol_middle), float(config.stroke_sigma)),
                       lambda x: _stroke_spread(x, config))


def _stroke_spread(ink: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`stroke_spread`, measured."""
    ink = np.asarray(ink, np.float32)
    if len(ink) == 0:
        return np.zeros(0)
    m = _middle(int(ink.shape[-1]), float(config.patch), float(config.symbol_middle))
    rows = np.flatnonzero(m.any(1))
    if len(rows) == 0:
        return np.zeros(len(ink))
    taps = _gauss_taps(float(config.stroke_sigma))
    r = len(taps) // 2
    lo, hi = int(rows[0]), int(rows[-1]) + 1                                 # the middle: a square [lo, hi)
    if lo >= r and hi + r <= ink.shape[-1]:                                  # the blur's reach lies inside
        p = ink[:, :, lo - r:hi + r, lo - r:hi + r]
    else:
        p = np.pad(ink, [(0, 0), (0, 0), (r, r), (r, r)], mode="edge")[:, :, lo:hi + 2 * r, lo:hi + 2 * r]
    k = hi - lo
    across = sum(t * p[:, :, :, j:j + k] for j, t in enumerate(taps))       # [N, 2, k + 2r, k]: blurred along x
    blur = sum(t * across[:, :, j:j + k, :] for j, t in enumerate(taps))    # [N, 2, k, k]: and along y
    fine = p[:, :, r:r + k, r:r + k] - blur
    v = fine[:, :, m[lo:hi, lo:hi]]                                          # [N, 2, M]
    return np.sqrt(v.var(axis=2, dtype=np.float64).sum(1))


def expected_sides(centres: np.ndarray, sides: np.ndarray, weights: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """The side a die's top face should have at each of ``centres`` (``float[N, 2]`` px), ``float[N]`` px.

    The table is a plane, so the inverse depth -- and with it a die's side in pixels -- is nearly an
    affine function of the position in the picture: ``side = a + b x + c y``, fitted to the faces'
    ``sides`` weighted by ``weights`` (their die-likeness), robustly (reweighted by their residuals).
    With fewer than ``size_model_min`` weighted faces, the weighted median side everywhere. Raises
    nothing; empty input gives an empty result.
    """
    n = len(sides)
    if n == 0:
        return np.zeros(0)
    w = np.clip(np.asarray(weights, np.float64), 0.0, 1.0)
    s = np.asarray(sides, np.float64)
    if w.sum() <= 1e-9:
        w = np.ones(n)
    order = np.argsort(s)
    cum = np.cumsum(w[order])
    median = float(s[order][np.searchsorted(cum, cum[-1] / 2.0)])
    if w.sum() < config.size_model_min:
        return np.full(n, median)
    c = np.asarray(centres, np.float64)
    scale = max(float(np.ptp(c, 0).max()), 1.0)
    A = np.column_stack([np.ones(n), (c - c.mean(0)) / scale])
    fit_w = w * (np.abs(s / median - 1.0) < 0.5)  # far-off sizes are not dice of this table
    coef = np.array([median, 0.0, 0.0])
    for _ in range(4):
        if fit_w.sum() < config.size_model_min:
            return np.full(n, median)
        sw = np.sqrt(fit_w)
        coef, *_ = np.linalg.lstsq(A * sw[:, None], s * sw, rcond=None)
        resid = np.abs(s - A @ coef) / median
        fit_w = w * np.clip(1.0 - (resid / 0.25) ** 2, 0.0, 1.0)  # a biweight: outliers weigh nothing
    pred = A @ coef
    # a plane seen by a camera never makes a die more than a few times larger in one frame than another
    return np.clip(pred, 0.5 * median, 2.0 * median)


@functools.lru_cache(maxsize=8)
def _square_points(n: int) -> np.ndarray:
    """``float[4n, 2]`` points evenly round the unit square's outline (corners at +-1)."""
    t = (np.arange(n, dtype=np.float64) + 0.5) / n * 2.0 - 1.0
    one = np.ones(n)
    pts = np.concatenate([np.stack([t, -one], 1), np.stack([one, t], 1),
                          np.stack([-t, one], 1), np.stack([-one, -t], 1)])
    pts.setflags(write=False)
    return pts


@functools.lru_cache(maxsize=8)
def _snap_moves(shifts: tuple[float, ...], turns: tuple[float, ...], scales: tuple[float, ...]) -> np.ndarray:
    moves = np.array([(dx, dy, da, sc) for dx in shifts for dy in shifts for da in turns for sc in scales], np.float64)
    moves.setflags(write=False)
    return moves


@functools.lru_cache(maxsize=8)
def _snap_maps(shifts: tuple[float, ...], turns: tuple[float, ...], scales: tuple[float, ...], size: int,
               context: float, points: int, rings: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where each move's outlines fall on a :func:`snap_top` patch: ``(x, y)``, each ``float32[M, R * 4 points]``
    patch px (``cv2.remap``'s maps), the ``4 points`` points of ring ``rings[r]`` (x the square's half side) of
    move ``m`` (:func:`_snap_moves`' order) at columns ``r * 4 points ...``; and each move's costs ``float[2, M]`` (its
    fit is lowered by 0.05 per side it shifts and 0.2 per unit of log scale: the box is where the face was found).

    A move shifts the square by ``(dx, dy)`` x its side along its own axes, turns it by ``da`` degrees and scales
    it by ``sc``; the patch spans ``context`` x the side in ``size`` px, so in patch px every move's outline is the
    same whatever the side: worked out once per set of moves, not once per face."""
    moves = _snap_moves(shifts, turns, scales)
    unit = _square_points(int(points))
    f = size / context                                       # patch px per side
    a = np.deg2rad(moves[:, 2])
    ca, sa = np.cos(a)[:, None], np.sin(a)[:, None]
    xs, ys = [], []
    for r in rings:
        half = 0.5 * moves[:, 3:4] * r                         # x side
        u, v = unit[None, :, 0] * half, unit[None, :, 1] * half
        xs.append((u * ca - v * sa + moves[:, 0:1]) * f + (size - 1) / 2.0)
        ys.append((u * sa + v * ca + moves[:, 1:2]) * f + (size - 1) / 2.0)
    cost = np.stack([0.05 * np.hypot(moves[:, 0], moves[:, 1]), 0.2 * np.abs(np.log(moves[:, 3]))])
    out = (np.concatenate(xs, 1).astype(np.float32), np.concatenate(ys, 1).astype(np.float32), cost)
    for m in out:
        m.setflags(write=False)
    return out


_SIGNS = np.array([1.0, -1.0], np.float32)[:, None]  # the rim's distances as they are, the band's negated


@functools.lru_cache(maxsize=4)
def _log_levels(offset: float) -> np.ndarray:
    """``float32[256]``: :func:`to_log` of each 8-bit level (``log_offset`` ``offset``)."""
    levels = np.log(np.arange(256, dtype=np.float32) + np.float32(offset))
    levels.setflags(write=False)
    return levels


def _body_distance(patch: np.ndarray, body: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """``float32[h, w]``: each pixel's log-RGB distance to the ``body`` colour (``float[3]``), of a ``uint8[h, w, 3]``
    BGR ``patch``: ``sqrt(sum((to_log(patch) - body) ** 2))``, the same numbers, by a table of each channel's 256
    squared differences (``cv2.LUT``) instead of a log per pixel."""
    sq = (_log_levels(float(config.log_offset))[:, None] - np.asarray(body, np.float32)) ** 2     # float32[256, 3]
    return np.sqrt(channel_sum(cv2.LUT(patch, sq.reshape(256, 1, 3))))


def _snap_once(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, side: float,
               grid: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]],
               config: RollDiceConfig, context: float | None = None) -> tuple[np.ndarray, float]:
    """The best of the moves ``grid`` (shifts x side, turns deg, scales; :func:`_snap_moves`) of the square of
    ``side`` px centred on ``rect``'s centre at its angle: ``(rect float[5], fit 0..2)`` (:func:`snap_top`).
    Every move's rim and band are sampled in one ``cv2.remap`` of the face's log-RGB distance map, a patch of
    ``context`` (default ``snap_context``) x ``side``."""
    from .tops import upright_patch  # here to keep tops -> shape one way at import time

    cx, cy, _, _, ang = (float(v) for v in rect)
    k = int(config.snap_patch)
    context = float(config.snap_context if context is None else context)
    d = _body_distance(upright_patch(frame, cx, cy, context * side, ang, k, 0), body, config)
    moves = _snap_moves(*grid)
    mx, my, cost = _snap_maps(*grid, k, context, int(config.snap_points),
                              (float(config.snap_rim), float(config.snap_band)))
    both = cv2.remap(d, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)        # float32[M, 2 * 4 points]
    rings = both.reshape(len(moves), 2, -1)                                               # [M, rim | band, 4 points]
    # body on the rim (nearer than evidence_body), standing out in the band (farther than evidence_outline)
    shares = np.count_nonzero(rings * _SIGNS < np.array([config.evidence_body, -config.evidence_outline],
                                                         np.float32)[:, None], axis=2) / rings.shape[2]
    near = np.minimum(rings, np.float32(1.0)).mean(2)
    contrast = near[:, 1] - near[:, 0]  # peaks with the outline on the edge
    rim, out = shares[:, 0], shares[:, 1]
    fit = rim + out + 0.5 * contrast - cost[0] - cost[1]
    j = int(fit.argmax())
    dx, dy, da, sc = moves[j]
    t = np.deg2rad(ang)
    ox, oy = dx * side, dy * side
    nx = cx + ox * np.cos(t) - oy * np.sin(t)
    ny = cy + ox * np.sin(t) + oy * np.cos(t)
    return np.array([nx, ny, side * sc, side * sc, ang + da]), float(rim[j] + out[j])


def top_fit(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, config: RollDiceConfig) -> float:
    """The :func:`snap_top` score (0..2) of ``rect`` as it is (its own side, squared)."""
    side = float(np.sqrt(rect[2] * rect[3]))
    return _snap_once(frame, np.asarray(rect, np.float64), body, side, ((0.0,), (0.0,), (1.0,)), config)[1]


def snap_top(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, side: float,
             config: RollDiceConfig, shifts: tuple[float, ...] | None = None,
             context: float | None = None) -> tuple[np.ndarray, float]:
    """Move a top face's square onto the die: ``(rect float[5], fit 0..2)``.

    Around ``rect`` (cx, cy, w, h, angle deg; frame px), squares of about ``side`` px are tried over small
    shifts, turns and scales (``snap_shifts`` x side, ``snap_turns`` deg, ``snap_scales``), then again a
    third as far around the best; each is scored by the share of its rim (just inside its outline) within
    ``evidence_body`` of the ``body`` colour plus the share of a band just outside it farther than
    ``evidence_outline`` from it: a die's top face is one colour to its edges and stands out beyond them
    (its sides are shaded otherwise, the table differs). Returns the best square and its score.

    ``shifts`` (x side) and ``context`` (the patch's span, x side) replace ``snap_shifts`` and ``snap_context`` in
    the first, coarse search (a wider search for a square that lies farther off its top face); the second, a third
    as far round the best, spans ``snap_context``."""
    coarse = (tuple(config.snap_shifts if shifts is None else shifts), tuple(config.snap_turns),
              tuple(config.snap_scales))
    r, fit = _snap_once(frame, np.asarray(rect, np.float64), body, side, coarse, config, context)
    return _snap_once(frame, r, body, float(r[2]), _fine_grid(*coarse), config)


def edge_angle(frame: np.ndarray, rect: np.ndarray, body: np.ndarray, config: RollDiceConfig) -> tuple[float, float]:
    """The angle of a die's edges about ``rect``'s centre (cx, cy, w, h, angle deg; frame px), from the outline of
    where its ``body`` colour (log-RGB ``float[3]``) ends: ``(angle deg in [-45, 45), strength 0..1)``.

    A square's edges lie at one angle modulo 90 degrees, so each gradient of the face's log-RGB distance to its
    body colour (:func:`_body_distance`, capped at 1; a table's checks, all far from the die's colour, give none)
    votes with its squared magnitude for four times its direction; the angle is a quarter of the mean vote's
    direction, the strength its length over the summed weights (1: every edge at one angle). The patch spans
    ``recentre_angle_span`` x the rect's side in ``snap_patch`` px, upright, so the rect's own angle plays no part
    (a box whose angle is wrong does not pull the answer). Raises nothing; a flat patch gives strength 0."""
    from .tops import upright_patch  # here to keep tops -> shape one way at import time

    cx, cy, w, h, _ = (float(v) for v in rect)
    side = float(np.sqrt(max(w * h, 1.0)))
    k = int(config.snap_patch)
    d = np.minimum(_body_distance(upright_patch(frame, cx, cy, config.recentre_angle_span * side, 0.0, k, 0), body,
                                  config), np.float32(1.0))
    gx = cv2.Sobel(d, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(d, cv2.CV_32F, 0, 1, ksize=3)
    weight = gx * gx + gy * gy
    total = float(weight.sum())
    if total <= 1e-9:
        return 0.0, 0.0
    four = 4.0 * np.arctan2(gy, gx)
    c, s = float((weight * np.cos(four)).sum()), float((weight * np.sin(four)).sum())
    angle = float(np.degrees(np.arctan2(s, c)) / 4.0)
    return (angle + 45.0) % 90.0 - 45.0, float(np.hypot(c, s) / total)


@functools.lru_cache(maxsize=8)
def _fine_grid(shifts: tuple[float, ...], turns: tuple[float, ...],
               scales: tuple[float, ...]) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """The moves :func:`snap_top` tries round the best coarse one: a third of the shifts (the outermost left
    out), half the turns, the square roots of the scales."""
    return (tuple(v / 3.0 for v in shifts[1:-1]), tuple(v / 2.0 for v in turns),
            tuple(float(np.exp(np.log(v) / 2.0)) for v in scales))


def pattern_repeats(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig,
                    todo: np.ndarray | None = None) -> np.ndarray:
    """How much each top face is one tile of a repeating pattern, ``float[N]`` (the best NCC, -1..1).

    A die lies on the table; a check of a gingham, a square of a printed grid or a stripe of wood grain is
    the table. The grey window of ``repeat_window`` x the face's side round each face is matched
    (``cv2.matchTemplate``, normalised correlation) over the frame within ``repeat_reach`` sides of it,
    leaving out the shifts shorter than ``repeat_min_shift`` sides (the face matching itself): a face whose
    window recurs a period away on both sides (at a shift and at its opposite, :func:`_both_ways`) is the
    pattern; a die's window (the die, its sides, its shadow and what lies round it) recurs nowhere, or on
    one side only where a die alike lies beside it. Measured on a grey copy scaled so a face is
    ``repeat_side`` px. The first column of :func:`pattern_axes`.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        config: ``repeat_window``, ``repeat_reach``, ``repeat_min_shift``, ``repeat_side``, ``repeat_one_side``.
        todo: ``bool[N]``, the faces to measure (others get -1); default all.

    Returns ``float[N]``; -1 where not measured (a face whose window the frame cuts to less than the face).
    Raises nothing.
    """
    return pattern_axes(frame, rects, config, todo)[:, 0]


def pattern_axes(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig,
                 todo: np.ndarray | None = None, colour: bool = False) -> np.ndarray:
    """How much each top face is a tile of a repeating pattern along one axis and along two, ``float[N, 2]``
    (NCC, -1..1; -1 where not measured).

    Column 0 is :func:`pattern_repeats`: the best match of the face's window a period away on both sides
    (a shift and its opposite). Column 1: the best such match along a second axis, at a shift turned at least
    ``repeat_axes_angle`` degrees from the best one. A cloth's check or a printed grid's square recurs along
    two axes (a lattice); a die in a row of dice alike, or lying on a printed line, has its like along one
    axis only (the row, the line), so column 1 tells the table's lattice from a row of dice without
    looking at the dice's symbols.

    Args and errors: as :func:`pattern_repeats` (also ``repeat_axes_angle``); ``colour``: match the BGR window
    (a coloured die and the cloth's check of the same grey differ) instead of the grey one.
    """
    return _pattern_looks(frame, rects, config, todo, ((colour, True),))[0]


def pattern_lattice(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig,
                    todo: np.ndarray | None = None, colour: bool = False,
                    screen: float | None = None) -> np.ndarray:
    """``float[N, 2]``: column 0 of :func:`pattern_axes` on the grey window (the repeat along one axis) and column
    1 of :func:`pattern_axes` with ``colour`` (the repeat along a second axis), the same numbers, in one pass
    over the faces (the window's geometry and the shifts far enough are worked out once per face, and the grey
    look's second axis is not). Args and errors: as :func:`pattern_axes`.

    ``screen`` (NCC; only with ``colour``): the colour look is taken only at the faces whose grey second axis is at
    least ``screen`` or unknown (-1: a window flat in grey, or no shift turned far enough); the others' column 1
    is -1 (no lattice), as if their colour window recurred along no second axis (``repeat_axes_screen``)."""
    if colour and screen is not None:
        grey, second = _pattern_looks(frame, rects, config, todo, ((False, True), (True, True)), screen)
    else:
        grey, second = _pattern_looks(frame, rects, config, todo, ((False, colour is False), (colour, True)))
    return np.stack([grey[:, 0], second[:, 1]], 1)


def _pattern_looks(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig, todo: np.ndarray | None,
                   looks: tuple[tuple[bool, bool], ...], screen: float | None = None) -> list[np.ndarray]:
    """:func:`pattern_axes` of each look ``(colour, second_axis)``: ``float[N, 2]`` each, column 1 left -1 for a look
    without ``second_axis``. Each image (grey, BGR) is scaled once, when a face first needs it (the BGR one behind
    ``screen``, often never), and matched once, however many looks ask for it; each
    face's window, search region and shifts far enough are worked out once for every image. ``screen``: the BGR
    image is matched only at the faces whose grey second axis (a look of grey with ``second_axis`` comes first) is
    -1 or at least ``screen`` (:func:`pattern_lattice`); the others' BGR row stays -1."""
    n = len(rects)
    outs = [np.full((n, 2), -1.0) for _ in looks]
    if n == 0:
        return outs
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool)
    if not todo.any():
        return outs
    sides = np.sqrt(np.maximum(rects[:, 2] * rects[:, 3], 1.0))
    f = float(config.repeat_side) / float(np.median(sides[todo]))
    f = min(f, 1.0)
    kinds = list(dict.fromkeys(colour for colour, _ in looks))
    images: dict[bool, np.ndarray] = {}

    def image(colour: bool) -> np.ndarray:
        # each image (grey, BGR) scaled when a face first needs it: the BGR one, behind a ``screen``, often never
        if colour not in images:
            src = frame if colour else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            images[colour] = src if f == 1.0 else cv2.resize(src, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        return images[colour]

    # one look per image: the second axis of an image is worked out when any look of it asks for it
    second = {c: any(a for cc, a in looks if cc == c) for c in kinds}
    per_image = {c: np.full((n, 2), -1.0) for c in kinds}
    gh, gw = image(kinds[0]).shape[:2]
    window = config.repeat_window
    cos_max = float(np.cos(np.deg2rad(config.repeat_axes_angle)))
    for i in np.flatnonzero(todo):
        s = sides[i] * f
        half = int(round(0.5 * window * s))
        reach = int(round(config.repeat_reach * s))
        cx, cy = int(round(rects[i, 0] * f)), int(round(rects[i, 1] * f))
        # the window, cut to the frame: a face at the frame's edge is measured on the part of its
        # window the frame shows (at least the face itself), not left unmeasured
        tx0, ty0 = max(0, cx - half), max(0, cy - half)
        tx1, ty1 = min(gw, cx + half + 1), min(gh, cy + half + 1)
        if half < 3 or min(tx1 - tx0, ty1 - ty0) < max(3, int(round(min(s, 2 * half)))):
            continue
        x0, y0 = max(0, tx0 - reach), max(0, ty0 - reach)
        x1, y1 = min(gw, tx1 + reach), min(gh, ty1 + reach)
        ox, oy = x0 - tx0, y0 - ty0  # the shift of res[0, 0]
        # the map's shape and the shifts far enough from the face itself: the same for every image
        rh, rw = (y1 - y0) - (ty1 - ty0) + 1, (x1 - x0) - (tx1 - tx0) + 1
        dx = np.arange(rw) + ox
        dy = np.arange(rh) + oy
        far = dx[None, :] ** 2 + dy[:, None] ** 2 >= (config.repeat_min_shift * s) ** 2
        if not far.any():
            continue
        slack = max(1, int(round(0.15 * s)))
        for colour in kinds:
            if colour and screen is not None and -1.0 < per_image[False][i, 1] < screen:
                continue
            per_image[colour][i] = _look(image(colour), (tx0, ty0, tx1, ty1), (x0, y0, x1, y1), far, dx, dy, slack,
                                         second[colour], cos_max, config)
    for k, (colour, axis2) in enumerate(looks):
        outs[k][:, 0] = per_image[colour][:, 0]
        if axis2:
            outs[k][:, 1] = per_image[colour][:, 1]
    return outs


def _look(img: np.ndarray, window: tuple[int, int, int, int], region: tuple[int, int, int, int], far: np.ndarray,
          dx: np.ndarray, dy: np.ndarray, slack: int, second: bool, cos_max: float,
          config: RollDiceConfig) -> tuple[float, float]:
    """One face's row of :func:`pattern_axes` on one look ``img`` (grey or BGR, scaled): its ``window``
    ``(x0, y0, x1, y1)`` matched over ``region``, at the shifts ``dx`` x ``dy`` px (``far``: those long enough);
    (-1, -1) for a window without spread, column 1 left -1 unless ``second``."""
    tx0, ty0, tx1, ty1 = window
    x0, y0, x1, y1 = region
    tpl = img[ty0:ty1, tx0:tx1]
    if float(tpl.std()) < 1.0:
        return -1.0, -1.0
    # a NaN (none is expected: OpenCV's normalised match is within -1..1) reads -1; fmax is np.nan_to_num's
    # answer on -1..1 and NaN, at a fraction of its cost on a map this small
    res = cv2.matchTemplate(img[y0:y1, x0:x1], tpl, cv2.TM_CCOEFF_NORMED)
    np.fmax(res, np.float32(-1.0), out=res)
    both = _both_ways(res, x0 - tx0, y0 - ty0, slack, config.repeat_one_side)
    both[~far] = -1.0
    j = int(both.argmax())
    if not second:
        return float(both.flat[j]), -1.0
    # the second axis: shifts turned far enough from the best one (either way along it is the same axis)
    bx, by = float(dx[j % both.shape[1]]), float(dy[j // both.shape[1]])
    norm = np.hypot(dx[None, :], dy[:, None]) * max(float(np.hypot(bx, by)), 1e-9)
    other = np.abs(dx[None, :] * bx + dy[:, None] * by) <= cos_max * np.maximum(norm, 1e-9)
    other &= far
    return float(both.flat[j]), float(both[other].max()) if other.any() else -1.0


def _both_ways(res: np.ndarray, ox: int, oy: int, slack: int, one_side: float) -> np.ndarray:
    """``float[h, w]``: at each shift of a match map ``res`` (``res[0, 0]`` is shift ``(ox, oy)`` px), the worse
    of the match there and the best within ``slack`` px of the opposite shift (a pattern seen in perspective
    or through a lens has a period that changes a little across the frame); where the opposite lies outside
    the map (cut by the frame's edge), the match itself lowered by ``one_side`` (one side only is weaker
    evidence: a die next to another die on a plain table matches it well). A tile of a pattern has its like
    on both sides of it; a die with a twin beside it (two dice alike, side by side) has it on one side only.

    The opposite of shift ``(ox + j, oy + i)`` is map entry ``(-i - 2 oy, -j - 2 ox)``: the rows and columns
    whose opposite is on the map are one block, read from the dilated map turned half a turn."""
    h, w = res.shape
    near = cv2.dilate(res, np.ones((2 * slack + 1, 2 * slack + 1), np.uint8))
    out = res - one_side
    i0, i1 = max(0, -2 * oy - h + 1), min(h, -2 * oy + 1)  # rows i with 0 <= -i - 2 oy < h
    j0, j1 = max(0, -2 * ox - w + 1), min(w, -2 * ox + 1)
    if i0 < i1 and j0 < j1:
        # rows -i0 - 2 oy down to -(i1 - 1) - 2 oy, columns likewise
        opp = near[-i0 - 2 * oy:(-i1 - 2 * oy) if -i1 - 2 * oy >= 0 else None:-1,
                   -j0 - 2 * ox:(-j1 - 2 * ox) if -j1 - 2 * ox >= 0 else None:-1]
        out[i0:i1, j0:j1] = np.minimum(res[i0:i1, j0:j1], opp)
    return out


@functools.lru_cache(maxsize=4)
def _surface_sectors(size: int, face: float, ring: tuple[float, float], sectors: int) -> tuple[np.ndarray, ...]:
    """Flat pixel indices of each sector of the ring ``ring`` (Chebyshev distance from the middle, in half faces)
    of a ``size`` px patch whose middle ``face`` px are the top face: one ``int[L]`` array per non-empty sector."""
    g = np.abs(np.arange(size, dtype=np.float32) - (size - 1) / 2.0) / (face / 2.0)
    r = np.maximum(g[:, None], g[None, :]).reshape(-1)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) - (size - 1) / 2.0
    sector = ((((np.arctan2(yy, xx) + np.pi) / (2 * np.pi)) * sectors).astype(np.int64) % sectors).reshape(-1)
    band = (r >= ring[0]) & (r <= ring[1])
    out = tuple(np.flatnonzero(band & (sector == k)) for k in range(sectors))
    out = tuple(a for a in out if len(a))
    for a in out:
        a.setflags(write=False)
    return out


def surface_returns(frame: np.ndarray, rects: np.ndarray, bodies: np.ndarray, config: RollDiceConfig,
                    todo: np.ndarray | None = None, logs: SurroundingLogs | None = None) -> np.ndarray:
    """How much of the ring round each top face, just beyond its edges, is the face's own body colour again,
    ``float[N]`` 0..1 (-1 where not measured): the share of ``evidence_sectors`` sectors of the ring ``surface_ring``
    (Chebyshev distance from the face's middle, in half faces) in which at least ``surface_quantile`` percent of the
    pixels are within ``evidence_body`` of the body colour.

    A die stands on the table: beyond its top face's edges lie its side faces (shaded), its shadow and the table,
    which is the die's colour only where a like die or a table of its colour touches it. A square printed on a
    board or a playmat (a numbered box of a player board's track, a ring, a framed icon) is the surface it is
    printed on, seen inside a printed line: that surface comes back just beyond the line, all round, between the
    board's other printed lines. Measured on an upright patch spanning ``surface_span`` sides (``surface_patch``
    px) round each face.

    Args:
        frame: ``uint8[H, W, 3]`` BGR.
        rects: ``float[N, 5]`` top faces (cx, cy, w, h, angle deg; frame px).
        bodies: ``float[N, 3]`` their body colours, log-RGB (:func:`vision.roll_dice.tops.body_colour`).
        config: ``surface_ring``, ``surface_quantile``, ``surface_span``, ``surface_patch``, ``evidence_sectors``,
            ``evidence_body``.
        todo: ``bool[N]``, the faces to measure (others get -1); default all.
        logs: the frame's :class:`SurroundingLogs` of this read, to reuse (None: cut here).

    Returns ``float[N]``. Raises ``ValueError`` for ``logs`` of another frame; empty input gives an empty result.
    """
    rects, out, idx = faces_to_measure(rects, todo)
    if len(idx) == 0:
        return out
    q, span = int(config.surface_patch), float(config.surface_span)
    sectors = _surface_sectors(q, q / span, tuple(float(v) for v in config.surface_ring), int(config.evidence_sectors))
    if not sectors:
        return out
    diff = surrounding_logs(frame, rects, idx, q, span, config, logs) - np.asarray(bodies, np.float32)[idx][:, None,
                                                                                                       None, :]
    d = np.sqrt(channel_sum(diff ** 2)).reshape(len(idx), -1)                           # float32[M, q*q]
    share = float(config.surface_quantile) / 100.0
    near = d < config.evidence_body
    same = np.stack([near[:, s].mean(1) >= share for s in sectors], 1)
    out[idx] = same.mean(1)
    return out


def faces_to_measure(rects: np.ndarray, todo: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The faces a per-face measure looks at: ``rects`` as ``float64[N, 5]`` (cx, cy, w, h, angle deg; frame px),
    the result ``float[N]`` filled with -1 (not measured), and the indices ``int[M]`` of the faces ``todo``
    (``bool[N]``; default all) marks. Raises nothing."""
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    n = len(rects)
    todo = np.ones(n, bool) if todo is None else np.asarray(todo, bool)
    return rects, np.full(n, -1.0), np.flatnonzero(todo)


def surrounding_patches(frame: np.ndarray, rects: np.ndarray, idx: np.ndarray, size: int,
                        span: float) -> np.ndarray:
    """Each face ``rects[idx]`` (cx, cy, w, h, angle deg; frame px) and its surroundings as an upright
    ``uint8[len(idx), size, size, 3]`` BGR patch spanning ``span`` of its sides (its mean side, px), turned by its
    angle; the crop round a face larger than the patch is first averaged down (``INTER_AREA``) to the patch's scale.
    ``frame``: ``uint8[H, W, 3]`` BGR. Shared by the printed-square and raised-edge tests. Raises nothing; a face
    at the frame's border gets the border repeated."""
    from .tops import upright_patch  # here to keep tops -> shape one way at import time

    q = int(size)
    h, w = frame.shape[:2]
    patches = np.empty((len(idx), q, q, 3), np.uint8)
    for k, i in enumerate(idx):
        cx, cy = float(rects[i, 0]), float(rects[i, 1])
        span_px = span * float(np.sqrt(max(rects[i, 2] * rects[i, 3], 1.0)))
        reach = 0.75 * span_px                                  # past the half diagonal of the turned patch
        x0, y0 = int(max(0, np.floor(cx - reach))), int(max(0, np.floor(cy - reach)))
        x1, y1 = int(min(w, np.ceil(cx + reach) + 1)), int(min(h, np.ceil(cy + reach) + 1))
        crop = frame[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]
        f = min(1.0, q / span_px)                               # the crop scaled to the patch's scale, averaged
        if f < 1.0:
            crop = cv2.resize(crop, (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f))),
                              interpolation=cv2.INTER_AREA)
        fx, fy = crop.shape[1] / max(x1 - x0, 1), crop.shape[0] / max(y1 - y0, 1)
        patches[k] = upright_patch(crop, (cx - x0) * fx, (cy - y0) * fy, span_px * 0.5 * (fx + fy), rects[i, 4], q, 0)
    return patches


class SurroundingLogs:
    """The log-RGB surroundings (:func:`to_log` of :func:`surrounding_patches`) of the top faces of one frame, each
    face's cut once per patch size and span: the measures of one read that look at the same faces on patches alike
    (the raised-edge test of the stage ``surface`` and the square-outline test of the stage ``outline`` both cut
    ``raised_patch`` px patches spanning ``surface_span`` sides) share them instead of cutting them twice. Made per
    read (``frame``: ``uint8[H, W, 3]`` BGR, ``config``: its ``log_offset``); a face is known by its rect's values,
    so a face moved is cut again."""

    def __init__(self, frame: np.ndarray, config: RollDiceConfig) -> None:
        self.frame = frame
        self.config = config
        self._kept: dict[tuple[int, float, bytes], np.ndarray] = {}

    def of(self, rects: np.ndarray, idx: np.ndarray, size: int, span: float) -> np.ndarray:
        """``float32[len(idx), size, size, 3]``: :func:`surrounding_logs` of the faces ``rects[idx]`` (``float64[N,
        5]``), those not cut yet cut now (together) and kept."""
        rects = np.asarray(rects, np.float64)
        keys = [(int(size), float(span), rects[i].tobytes()) for i in idx]
        new = [k for k, key in enumerate(keys) if key not in self._kept]
        if new:
            cut = to_log(surrounding_patches(self.frame, rects, np.asarray(idx)[new], size, span), self.config)
            cut.setflags(write=False)                               # kept: no measure may change it
            for k, patch in zip(new, cut, strict=True):
                self._kept[keys[k]] = patch
            if len(new) == len(keys):
                return cut
        return np.stack([self._kept[key] for key in keys]) if keys else np.zeros((0, size, size, 3), np.float32)


def surrounding_logs(frame: np.ndarray, rects: np.ndarray, idx: np.ndarray, size: int, span: float,
                     config: RollDiceConfig, logs: SurroundingLogs | None = None) -> np.ndarray:
    """``float32[len(idx), size, size, 3]``: the faces ``rects[idx]`` (``float64[N, 5]``: cx, cy, w, h, angle deg;
    frame px) and their surroundings in log-RGB (:func:`to_log` of :func:`surrounding_patches` of ``frame``), from
    ``logs`` when given (:class:`SurroundingLogs` of this frame: each face cut once per read). Raises
    ``ValueError`` for ``logs`` of another frame."""
    if logs is None:
        return to_log(surrounding_patches(frame, rects, idx, size, span), config)
    if logs.frame is not frame:
        raise ValueError("the surroundings kept are of another frame than the one measured")
    return logs.of(rects, idx, size, span)
