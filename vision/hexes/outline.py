"""Stages 4-5 of the hex reader: each hex's outline fitted to the image at sub-pixel steps
(:func:`refine_hexes`), and lattice neighbours that are only partly foreground found by their outline
alone (:func:`grow_hexes`)."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

import cv2
import numpy as np

from .config import HexesConfig
from .geometry import EDGE_NORMAL_DEG, SQRT3, HexCandidate, hex_pose, hexagon

__all__ = ["edge_coherence", "edge_scores", "grow_hexes", "outline_maps", "outline_score", "refine_hexes",
           "weakest_first"]


@lru_cache(maxsize=8)
def _outline_points(n_per_edge: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample points along the six edges of the unit flat-top hexagon (flat width 1, centred at 0):
    (points float[6 * n, 2], outward normals float[6 * n, 2]). The points avoid the middle of each edge,
    where Eclipse sectors print their wormholes (half circles across the edge)."""
    cu = hexagon(1.0)
    half = (n_per_edge + 1) // 2
    u = (np.arange(half) + 0.5) / half * 0.26 + 0.05
    t = np.concatenate([u, 1.0 - u])[:n_per_edge]
    pts, nrm = [], []
    for j in range(6):
        p0, p1 = cu[j], cu[(j + 1) % 6]
        pts.append(p0 + (p1 - p0) * t[:, None])
        a = math.radians(EDGE_NORMAL_DEG[j])
        nrm.append(np.repeat([[math.cos(a), math.sin(a)]], n_per_edge, axis=0))
    return np.concatenate(pts), np.concatenate(nrm)


def outline_maps(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The derivative products :func:`refine_hexes` samples, summed over the colour channels (a colour
    structure tensor, Di Zenzo 1986, "A note on the gradient of a multi-image", CVGIP 33): an outline between
    two tiles, or a tile and the table, of the same grey but another hue (a dark purple sector on a dark red
    cloth) counts as much as a grey step.

    Args:
        image: uint8 or float32 [H, W] grey levels or [H, W, C] colour (BGR) of the work image; each of the C
            channels is weighed by 1 / sqrt(C), so a neutral grey step of d levels counts as d.

    Returns:
        (float32[H, W, 8] maps, the smoothing sigma in px): with g_c the channel c smoothed by a Gaussian of
        ``sigma`` and its derivatives in grey levels per px (per px^2), the maps are sum_c of gx^2, gx gy,
        gy^2, gxx^2, gxx gxy, 4 gxy^2 + 2 gxx gyy, gxy gyy, gyy^2 -- enough to give, for any unit normal n,
        sum_c (n . grad g_c)^2, sum_c (t . grad g_c)^2 (t the tangent) and sum_c (n^T Hessian_c n)^2.
    """
    sig = 1.0
    im = np.asarray(image, np.float32)
    chans = [im] if im.ndim == 2 else [im[..., k] for k in range(im.shape[2])]
    wc = 1.0 / math.sqrt(len(chans))
    hw = im.shape[:2]
    # the eight sums, each its own plane (interleaved once at the end); every product is made in place in buffers
    # kept for the whole image (the same numbers, without a fresh image-sized array per product)
    planes: list[np.ndarray] = []
    prod, part = np.empty(hw, np.float32), np.empty(hw, np.float32)
    for ch in chans:
        g = cv2.GaussianBlur(ch, (0, 0), sig)
        g *= wc
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
        gx /= 8.0
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
        gy /= 8.0
        gxx = cv2.Sobel(g, cv2.CV_32F, 2, 0, ksize=3)
        gxx /= 4.0
        gyy = cv2.Sobel(g, cv2.CV_32F, 0, 2, ksize=3)
        gyy /= 4.0
        gxy = cv2.Sobel(g, cv2.CV_32F, 1, 1, ksize=3)
        gxy /= 4.0
        first = not planes
        if first:
            planes = [np.empty(hw, np.float32) for _ in range(8)]
        factors = ((gx, gx), (gx, gy), (gy, gy), (gxx, gxx), (gxx, gxy), None, (gxy, gyy), (gyy, gyy))
        for acc, ab in zip(planes, factors, strict=True):
            dst = acc if first else prod
            if ab is None:   # 4 gxy^2 + 2 gxx gyy, multiplied in that order
                np.multiply(gxy, 4.0, out=dst)
                dst *= gxy
                np.multiply(gxx, 2.0, out=part)
                part *= gyy
                dst += part
            else:
                np.multiply(ab[0], ab[1], out=dst)
            if not first:
                acc += prod
    return cv2.merge(planes), sig


#: poses sampled by one ``cv2.remap`` at most (its maps are images: fewer than 32767 rows).
_REMAP_ROWS = 16384

#: weights of the six edge scores sorted ascending (the weaker edges count more): the outline score is at most 4.75.
_EDGE_SORT_WEIGHTS = np.array([1.0, 1.0, 1.0, 0.75, 0.5, 0.5], np.float32)


#: places of :func:`refine_hexes`'s first coarse pass (every other step) next to which its second pass looks.
_COARSE_PLACES = 3

#: steps either way of its window (about a pixel each) from which :func:`refine_hexes` searches it in two passes.
_TWO_PASS_STEPS = 4


#: poses of one turn from which :func:`edge_scores` weighs their samples in one matrix product per edge.
_SHARED_TURN_POSES = 4


def edge_scores(maps: tuple[np.ndarray, float], flat: float, config: HexesConfig, cx: np.ndarray, cy: np.ndarray,
                ang: np.ndarray, sc: np.ndarray) -> np.ndarray:
    """float[P, 6]: for P poses of a flat-top hexagon (centres ``cx``, ``cy`` in work px, turns ``ang`` in
    degrees clockwise, sizes ``sc`` times ``flat`` px; arrays [P]), how much of the local structure under
    each edge runs along it, 0-1, averaged over ``config.refine_points`` samples away from the edge's middle.

    Per sample: across = sqrt(sum_c (n . grad)^2 + (1.5 sigma)^2 sum_c (n^T Hessian n)^2) (a step, or a seam
    or printed rim: a line), along = sqrt(sum_c (t . grad)^2) (texture crossing the edge), and the score
    across / (sqrt(across^2 + along^2) + ``refine_noise``): contrast-free, so a faint seam between two dark
    sectors counts as much as a bright print. ``maps``: :func:`outline_maps` of the work image.

    The poses of one turn share their edges' normals: a search grid tries a few turns at many places, and the
    samples under one edge of all the poses of a turn are weighed in one matrix product (the same numbers as one
    product per pose and edge, at a fraction of the calls)."""
    m, sig = maps
    npe = config.refine_points
    pts, nrm = _outline_points(npe)
    c2 = np.float32((1.5 * sig) ** 2)
    a = np.radians(np.asarray(ang, np.float64))
    P = len(a)
    if P == 0:
        return np.zeros((0, 6), np.float32)
    # the poses ordered by turn (each turn's poses one run), their results put back in the callers' order at the end;
    # sampled edge by edge: [edge, pose, sample]
    order = np.argsort(a, kind="stable")
    a = a[order]
    new_turn = np.concatenate([[True], a[1:] != a[:-1]])
    turn_of = np.cumsum(new_turn) - 1                                         # [P] each pose's turn, 0..T-1
    starts = np.append(np.flatnonzero(new_turn), P)
    turns = a[starts[:-1]]
    F = flat * np.asarray(sc, np.float64)[order]
    # sample positions in float32 (remap resolves 1/32 px); each pose's values repeated for its samples
    # (each product and sum made in place, broadcast over [edge, pose, sample]: the same numbers as repeating the
    # poses' values for every sample and the samples for every pose)
    ux = (F * np.cos(a)).astype(np.float32).reshape(1, P, 1)
    uy = (F * np.sin(a)).astype(np.float32).reshape(1, P, 1)
    ox = np.asarray(cx, np.float32)[order].reshape(1, P, 1)
    oy = np.asarray(cy, np.float32)[order].reshape(1, P, 1)
    tx = pts[:, 0].astype(np.float32).reshape(6, 1, npe)                    # edge j's samples, the same for each pose
    ty = pts[:, 1].astype(np.float32).reshape(6, 1, npe)
    px, py, part = (np.empty((6, P, npe), np.float32) for _ in range(3))
    np.multiply(ux, tx, out=px)           # ox + ux tx - uy ty
    px += ox
    px -= np.multiply(uy, ty, out=part)
    np.multiply(uy, tx, out=py)           # oy + uy tx + ux ty
    py += oy
    py += np.multiply(ux, ty, out=part)
    px, py = px.reshape(-1, 6 * npe), py.reshape(-1, 6 * npe)   # any shape: each sample is its own
    parts = [cv2.remap(m, px[k:k + _REMAP_ROWS], py[k:k + _REMAP_ROWS], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT) for k in range(0, len(px), _REMAP_ROWS)]
    v = (parts[0] if len(parts) == 1 else np.concatenate(parts)).reshape(6, P * npe, 8)
    # an edge's normal is the same at all its samples: per turn and edge, the map channels' weights of
    # (n . grad)^2 + (1.5 sigma)^2 (n^T H n)^2 (column 0) and of (t . grad)^2 (column 1)
    n0 = nrm[::npe]                                                           # [6, 2]
    ct, st = np.cos(turns)[:, None], np.sin(turns)[:, None]
    nx = (n0[None, :, 0] * ct - n0[None, :, 1] * st).astype(np.float32)      # [T, 6]
    ny = (n0[None, :, 0] * st + n0[None, :, 1] * ct).astype(np.float32)
    xx, xy, yy = nx * nx, nx * ny, ny * ny
    K = np.zeros(nx.shape + (8, 2), np.float32)
    K[..., 0, 0], K[..., 1, 0], K[..., 2, 0] = xx, 2.0 * xy, yy
    K[..., 3, 0], K[..., 4, 0], K[..., 5, 0] = c2 * xx * xx, c2 * 4.0 * xx * xy, c2 * xx * yy
    K[..., 6, 0], K[..., 7, 0] = c2 * 4.0 * xy * yy, c2 * yy * yy
    K[..., 0, 1], K[..., 1, 1], K[..., 2, 1] = yy, -2.0 * xy, xx
    r = np.empty((6, P * npe, 2), np.float32)                                 # across^2, along^2
    few: list[np.ndarray] = []   # poses whose turn few others share: one product per pose and edge
    for t in range(len(turns)):
        p0, p1 = int(starts[t]), int(starts[t + 1])
        if p1 - p0 < _SHARED_TURN_POSES or npe < 2:   # (a product of one row is BLAS's matrix-vector routine's)
            few.append(np.arange(p0, p1))
            continue
        for j in range(6):
            np.matmul(v[j, p0 * npe:p1 * npe], K[t, j], out=r[j, p0 * npe:p1 * npe])
    if few:
        idx = np.concatenate(few)
        vs = v.reshape(6, P, npe, 8)[:, idx].transpose(1, 0, 2, 3)             # [n, 6, npe, 8]
        r.reshape(6, P, npe, 2)[:, idx] = np.matmul(vs, K[turn_of[idx]]).transpose(1, 0, 2, 3)
    np.maximum(r, 0.0, out=r)
    across, along = r[..., 0], r[..., 1]
    den = np.add(across, along)                   # in place from here: the same numbers, fewer temporaries
    np.sqrt(den, out=den)
    den += np.float32(config.refine_noise)
    e = np.sqrt(across)
    e /= den
    out = np.empty((P, 6), np.float32)
    out[order] = e.reshape(6, P, npe).mean(axis=2).T   # each edge's samples a contiguous run, as numpy sums them
    return out


def edge_coherence(blurred: np.ndarray, corners: list[np.ndarray], config: HexesConfig) -> np.ndarray:
    """float[P, 6]: for P hexagons (``corners`` float[6, 2] work px each), how alike the image's profile across each
    edge is all along it, 0-1: a tile's edge (a step from the tile to the table or the next tile, a printed rim or
    a seam) crosses every sample the same way; the checks of a gingham cloth, wood grain or noise cross some samples
    bright-to-dark and others dark-to-bright, or not at all.

    At ``config.refine_points`` samples along each edge (away from its middle, as :func:`edge_scores`), per colour
    channel the signed derivatives across the edge from ``blurred`` at steps of 1 px along the outward normal: the
    first (over 1 and 2 px) and 1.5 x the second. With f the stacked derivatives of a sample (float[3 C]), the
    coherence is |mean f|^2 / (mean |f|^2 + ``refine_noise``^2) over the edge's samples: 1 when every sample
    shows the same profile, about 1 / samples for profiles that change at random.

    Args:
        blurred: uint8 or float32 [H, W, C] (or [H, W]) work image smoothed by a Gaussian of 1 px (grey levels;
            uint8 samples are rounded to a level, well below ``refine_noise``).
        corners: P hexagons, clockwise from any corner (edge j runs from corner j to corner j + 1).
    """
    if not corners:
        return np.zeros((0, 6), np.float32)
    npe = config.refine_points
    pts, nrm = _outline_points(npe)
    poses = [hex_pose(np.asarray(q, np.float64)) for q in corners]
    cx, cy, ang, fl = (np.concatenate([p[i] for p in poses]) for i in range(4))
    a = np.radians(ang)[:, None]
    ca, sa = np.cos(a), np.sin(a)
    px = cx[:, None] + fl[:, None] * (ca * pts[None, :, 0] - sa * pts[None, :, 1])     # [P, 6 npe]
    py = cy[:, None] + fl[:, None] * (sa * pts[None, :, 0] + ca * pts[None, :, 1])
    nx, ny = ca * nrm[None, :, 0] - sa * nrm[None, :, 1], sa * nrm[None, :, 0] + ca * nrm[None, :, 1]
    steps = np.arange(-2, 3, dtype=np.float64)
    mx = (px[..., None] + nx[..., None] * steps).reshape(len(corners), -1).astype(np.float32)
    my = (py[..., None] + ny[..., None] * steps).reshape(len(corners), -1).astype(np.float32)
    v = cv2.remap(blurred, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    v = v.reshape(len(corners), 6, npe, len(steps), -1)                                  # [P, 6, npe, 5, C]
    f = np.concatenate([(v[..., 3, :] - v[..., 1, :]) / 2.0, (v[..., 4, :] - v[..., 0, :]) / 4.0,
                        1.5 * (v[..., 3, :] + v[..., 1, :] - 2.0 * v[..., 2, :])], axis=-1)   # [P, 6, npe, 3 C]
    coherent = np.square(f.mean(axis=2)).sum(axis=-1)
    total = np.square(f).sum(axis=-1).mean(axis=2)
    return (coherent / (total + config.refine_noise ** 2)).astype(np.float32)


#: an optimal sorting network of six elements (12 compare-exchanges)
_SORT6 = ((0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5), (1, 2), (3, 4))


def weakest_first(sides: list[np.ndarray]) -> np.ndarray:
    """The six side strengths ``sides`` (six float32 arrays of one shape) sorted ascending element by element and
    weighted 1, 1, 1, 0.75, 0.5, 0.5 (the weaker sides count more), summed in that order: float32 of that shape, the
    numbers ``np.sort`` along a stacked axis would give, at a fraction of its cost."""
    xs = list(sides)
    for i, j in _SORT6:
        lo = np.minimum(xs[i], xs[j])
        xs[j] = np.maximum(xs[i], xs[j])
        xs[i] = lo
    out = xs[0] * _EDGE_SORT_WEIGHTS[0]
    for k in range(1, 6):
        out += xs[k] * _EDGE_SORT_WEIGHTS[k]
    return out


def outline_score(e: np.ndarray) -> np.ndarray:
    """float[P]: the outline score (0-4.75) of edge scores float[P, 6] (:func:`edge_scores`): sorted ascending
    and weighted 1, 1, 1, 0.75, 0.5, 0.5, so an outline needs most of its six edges (:func:`weakest_first`)."""
    return weakest_first([e[:, k] for k in range(6)])


def refine_hexes(gray: np.ndarray, cands: list[HexCandidate], flat: float, config: HexesConfig,
                 scale_free: bool = False, maps: tuple | None = None) -> list[HexCandidate]:
    """Each hex's outline fitted to the image: centre, turn (and size with ``scale_free``) moved to the pose
    whose six edges show the strongest gradient across them (bilinear samples, sub-pixel steps).

    Args:
        gray: the work image (uint8 or float32 [H, W] grey levels, or [H, W, 3] BGR: colour outlines count,
            :func:`outline_maps`).
        cands: hexes from the lattice (corners float[6, 2] in work pixels).
        flat: expected flat width in work pixels.
        scale_free: also search the size within +-``refine_scale`` (no calibration: the size is estimated).

    The search, for all candidates at once (one :func:`edge_scores` per pass; each candidate's fit is its own):
    within ``refine_window`` x ``flat`` of the pose found, less ``refine_prior`` x (shift / window)^2, a coarse
    grid (steps of about a pixel, turns of 1.2 degrees, sizes; tried at every other step first, then next to that
    pass's best places), then a fine grid (0.25 px, 0.3 degrees) round its best.

    Returns the candidates with new corners and centres (same order) and ``score`` = the outline score
    (0-4.75); a hex whose outline is nowhere better keeps its pose. ``maps``: :func:`outline_maps` of
    ``gray`` when already computed."""
    if not cands:
        return cands
    maps = maps if maps is not None else outline_maps(gray)
    win = config.refine_window * flat
    n1 = max(2, int(math.ceil(win)))
    prior = config.refine_prior / (win * win)
    p0 = np.array([_pose(h, flat) for h in cands])                                         # [N, 4]

    def scores(poses: tuple) -> np.ndarray:   # 4 arrays [N, G] -> outline scores float[N, G]
        n, g = poses[0].shape
        return outline_score(edge_scores(maps, flat, config, *(v.ravel() for v in poses))).reshape(n, g)

    def best(poses: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(raw scores [N, G], index [N] of the best pose less the prior, that pose [N, 4])."""
        raw = scores(poses)
        k = np.argmax(raw - prior * ((poses[0] - p0[:, :1]) ** 2 + (poses[1] - p0[:, 1:2]) ** 2), axis=1)
        return raw, k, np.stack([v[np.arange(len(k)), k] for v in poses], axis=1)

    # coarse, in two passes (one in a small window): the grid of 2 n1 + 1 steps of win / n1 (about a pixel) in x
    # and y across the window (the pose as found at its centre), turns and sizes, first at every other step (those
    # of the centre's parity), then at the steps next to each of that pass's ``_COARSE_PLACES`` best places (a
    # narrow outline's peak can lie between the first pass's steps and below another place's), every turn and size
    # again: the best pose of the whole grid whenever it lies next to one of those places
    turns = np.array([-1.2, 0.0, 1.2])
    sizes = np.linspace(-config.refine_scale, config.refine_scale, 5) if scale_free else np.array([0.0])
    two = n1 >= _TWO_PASS_STEPS   # a small window: one pass costs no more
    steps = np.linspace(-win, win, 2 * n1 + 1)[n1 % 2::2] if two else np.linspace(-win, win, 2 * n1 + 1)
    first = _grid(p0, steps, steps, turns, sizes)
    raw, _, p1 = best(first)
    base = raw[:, _at_centre(first, p0)]                                                    # each pose as found
    if two:
        # per place (x, y) of the first grid its best pose less the prior; the best places, each its own
        pen1 = raw - prior * ((first[0] - p0[:, :1]) ** 2 + (first[1] - p0[:, 1:2]) ** 2)
        per_place = pen1.reshape(len(p0), len(steps) ** 2, -1).max(axis=2)                  # [N, places]
        places = min(_COARSE_PLACES, per_place.shape[1])
        top = np.argsort(-per_place, axis=1, kind="stable")[:, :places]                    # [N, places]
        near = np.array([-win / n1, 0.0, win / n1])
        grids = []
        for k in range(places):
            at = np.empty_like(p0)
            at[:, 0], at[:, 1] = p0[:, 0] + steps[top[:, k] // len(steps)], p0[:, 1] + steps[top[:, k] % len(steps)]
            at[:, 2:] = p0[:, 2:]   # the turns and sizes round the pose as found, as the first pass tried them
            grids.append(_grid(at, near, near, turns, sizes))
        _, _, p1 = best(tuple(np.concatenate([g[v] for g in grids], axis=1) for v in range(4)))
    fine = _grid(p1, np.linspace(-0.75, 0.75, 7), np.linspace(-0.75, 0.75, 7), np.array([-0.6, -0.3, 0.0, 0.3, 0.6]),
                 np.array([-0.01, 0.0, 0.01]) if scale_free else np.array([0.0]))
    raw2, k, p2 = best(fine)
    got = raw2[np.arange(len(k)), k]
    pen = got - prior * ((p2[:, 0] - p0[:, 0]) ** 2 + (p2[:, 1] - p0[:, 1]) ** 2)
    out = []
    for i, h in enumerate(cands):
        if float(pen[i]) <= float(base[i]):     # nowhere better than the pose as found
            out.append(replace(h, score=float(base[i])))
            continue
        cx, cy, a, sc = (float(v) for v in p2[i])
        out.append(replace(h, corners=hexagon(flat * sc, (cx, cy), a), centre=np.array([cx, cy]), score=float(got[i])))
    return out


def _pose(h: HexCandidate, flat: float) -> tuple[float, float, float, float]:
    """(centre x, centre y px, turn of the edge from corner 0 to corner 1 in degrees, flat width / ``flat``)."""
    c = h.corners.mean(axis=0)
    e01 = h.corners[1] - h.corners[0]
    return float(c[0]), float(c[1]), math.degrees(math.atan2(e01[1], e01[0])), float(
        np.linalg.norm(h.corners[0] - h.corners[4])) / flat


def _grid(p: np.ndarray, dx: np.ndarray, dy: np.ndarray, da: np.ndarray, ds: np.ndarray) -> tuple[np.ndarray, ...]:
    """Poses round each of ``p`` (float[N, 4]: x, y px, turn degrees, size): 4 arrays [N, G], every combination of
    the steps ``dx``, ``dy`` (px), ``da`` (degrees) and ``ds`` (relative size), in that nesting order."""
    gx, gy, ga, gs = (v.ravel() for v in np.meshgrid(dx, dy, da, ds, indexing="ij"))
    return p[:, :1] + gx, p[:, 1:2] + gy, p[:, 2:3] + ga, p[:, 3:4] * (1.0 + gs)


def _at_centre(poses: tuple[np.ndarray, ...], p0: np.ndarray) -> int:
    """The index of the grid's step (0, 0, 0, 0): the pose ``p0`` itself."""
    d = np.abs(poses[0][0] - p0[0, 0]) + np.abs(poses[1][0] - p0[0, 1]) + np.abs(poses[2][0] - p0[0, 2])
    return int(np.argmin(d + np.abs(poses[3][0] - p0[0, 3])))


def _lattice_pitch(hexes: list[HexCandidate], flat: float) -> float:
    """The median distance (px) from a hex to its nearest neighbour among ``hexes``, counting only neighbours
    closer than 1.2 flats (touching tiles); ``flat`` when no two hexes touch."""
    cen = np.array([h.centre for h in hexes])
    if len(cen) < 2:
        return flat
    d = np.linalg.norm(cen[:, None] - cen[None], axis=2)
    np.fill_diagonal(d, np.inf)
    nn = d.min(axis=1)
    close = nn[nn < 1.2 * flat]
    return float(np.median(close)) if close.size else flat


def _weakest_sides(cands: list[HexCandidate], maps: tuple, config: HexesConfig) -> np.ndarray:
    """float[N]: the outline score of each of ``cands``' weakest side (:func:`edge_scores`)."""
    if not cands:
        return np.zeros(0)
    poses = [hex_pose(h.corners) for h in cands]
    return edge_scores(maps, 1.0, config, *(np.concatenate([p[i] for p in poses]) for i in range(4))).min(axis=1)


def grow_hexes(gray: np.ndarray, mask: np.ndarray, cands: list[HexCandidate], flat: float, config: HexesConfig,
               scale_free: bool = False, maps: tuple | None = None) -> list[HexCandidate]:
    """``cands`` plus hexes found next to them on the lattice by their outline alone: a tile whose artwork
    looks like the table (a dark sector on a dark cloth) is only partly foreground, but its six edges
    still line up with its neighbours'. Each free neighbour cell of a hex is fitted (:func:`refine_hexes`) and
    kept when

    * its outline score is at least ``grow_min_score`` (``grow_coherent_score`` when its coherence is at least
      ``grow_strong_coherence``: star print or wood grain across a faint outline);
    * each of its six sides shows an outline (``grow_min_edge``: a gap outlined by hexes on some sides, under
      glare, has foreground too);
    * its edges' profiles are alike along them (:func:`edge_coherence`, weakest first as :func:`outline_score`, at
      least ``grow_min_coherence``, and every side but one at least ``grow_second_edge``: the checks of a gingham
      cloth line up with a hexagon's sides here and there, never all along them);
    * at least ``grow_min_occupancy`` of it is foreground (an empty gap in the map is all table) -- or, with
      ``grow_bare``, it lies on the map's edge (a side touching no hex found) and its coherence is at least
      ``grow_strong_coherence`` with each side touching no hex at least ``grow_bare_edge`` (a tile the
      table-colour model takes for table, on a cloth of its colours: its outline against the table is the
      evidence; a gap's open side is table on both sides, and a gap enclosed by hexes still needs foreground).

    Repeated while hexes are added (at most ``grow_rounds`` times). ``gray``: the work image as in
    :func:`refine_hexes`."""
    if not cands:
        return cands
    out = list(cands)
    pitch = _lattice_pitch(out, flat)
    tried: set[tuple[int, int]] = set()
    frontier = list(out)
    ds = (config.refine_scale + 0.01) if scale_free else 0.0
    quick_config = replace(config, refine_window=2.0 / flat)
    bare = config.grow_bare
    blurred: np.ndarray | None = None
    for _ in range(config.grow_rounds):
        # the fits of all free cells at once (each fit is the cell's own), then each cell judged in order against
        # the hexes found before it
        cells = _free_cells(mask, frontier, out, tried, pitch, flat, config, ds, bare)
        quick = refine_hexes(gray, [HexCandidate(cr, c, 0.0, 0.0, 0, 0.0) for c, _, _, cr in cells], flat,
                             quick_config, False, maps)
        near = [k for k, q in enumerate(quick) if q.score >= config.grow_min_score - 0.8]   # else no outline near
        if near and blurred is None:   # uint8 (its own type): a fraction of a float32 blur's time
            blurred = cv2.GaussianBlur(gray, (0, 0), 1.0)
        if near:   # nor where the edges' profiles change along them (a cloth's checks): not worth the full fit
            rough = outline_score(edge_coherence(blurred, [quick[k].corners for k in near], config))
            near = [k for k, v in zip(near, rough, strict=True) if v >= config.grow_min_coherence - 0.8]
        fitted = dict(zip(near, refine_hexes(gray, [quick[k] for k in near], flat, config, scale_free, maps),
                          strict=True))
        low = min(config.grow_min_score, config.grow_coherent_score)
        good = [k for k in near if fitted[k].score >= low]
        good = [k for k, w in zip(good, _weakest_sides([fitted[k] for k in good], maps, config), strict=True)
                if w >= config.grow_min_edge]   # else a side without an outline (a gap between hexes)
        per_edge = edge_coherence(blurred, [fitted[k].corners for k in good], config) if good else np.zeros((0, 6))
        coherence = dict(zip(good, outline_score(per_edge), strict=True))
        edges = dict(zip(good, per_edge, strict=True))
        new: list[HexCandidate] = []
        pending: list[tuple[int, HexCandidate]] = []
        for k, (c, ang, size, _) in enumerate(cells):
            if (k not in coherence or float(coherence[k]) < config.grow_min_coherence
                    or float(np.sort(edges[k])[1]) < config.grow_second_edge):
                continue
            if fitted[k].score < config.grow_min_score and float(coherence[k]) < config.grow_strong_coherence:
                continue   # a fainter outline (print, stars or grain across the edges) needs edges alike all along
            cand = fitted[k]
            placed = np.array([o.centre for o in out + new])
            if min(np.min(np.linalg.norm(placed - c, axis=1)), np.min(np.linalg.norm(placed - cand.centre, axis=1))
                   ) < 0.5 * flat:
                continue
            fg, area = _fg_count(mask, cand.centre, 0.85 * size, ang)
            occ = fg / area
            if occ >= config.grow_min_occupancy:
                new.append(replace(cand, occupancy=occ, crisp=6))
            elif bare and float(coherence[k]) >= config.grow_strong_coherence:
                pending.append((k, replace(cand, occupancy=occ, crisp=6)))
        # too little foreground: a gap in the map, unless a tile on the map's edge outlined all round -- judged once
        # the round's other hexes are placed, the cell with the most free sides first (a tile on the map's edge
        # before a gap beside it: once the tile is placed, the gap is seen to be enclosed)
        while pending:
            placed = np.array([o.centre for o in out + new])
            judged = [(_bare_edge(cand, edges[k], placed, pitch, flat), i) for i, (k, cand) in enumerate(pending)
                      if np.min(np.linalg.norm(placed - cand.centre, axis=1)) >= 0.5 * flat]
            ok = [(n, i) for (n, e), i in judged if e >= config.grow_bare_edge]
            if not ok:
                break
            new.append(pending.pop(max(ok)[1])[1])
        if not new:
            break
        out.extend(new)
        frontier = new
    return out


def _bare_edge(cand: HexCandidate, coherence: np.ndarray, placed: np.ndarray, pitch: float,
               flat: float) -> tuple[int, float]:
    """(how many of ``cand``'s sides touch no hex, the least edge coherence of those sides): ``coherence`` float[6]
    (:func:`edge_coherence`), ``placed`` float[N, 2] hex centres px (a side touches one when a centre lies within
    half a flat of the neighbour cell ``pitch`` px across it). The coherence is -1 when fewer than two sides are
    free (a gap in the map is mostly enclosed by hexes; a tile on the map's edge mostly is not)."""
    e01 = cand.corners[1] - cand.corners[0]
    ang = math.degrees(math.atan2(e01[1], e01[0]))
    free = []
    for j in range(6):
        a = math.radians(EDGE_NORMAL_DEG[j] + ang)
        across = cand.centre + pitch * np.array([math.cos(a), math.sin(a)])
        if np.min(np.linalg.norm(placed - across, axis=1)) >= 0.5 * flat:
            free.append(float(coherence[j]))
    return len(free), (min(free) if len(free) >= 2 else -1.0)


def _fg_count(mask: np.ndarray, centre: np.ndarray, fl: float, ang: float) -> tuple[int, int]:
    """(foreground px of ``mask`` uint8[H, W] inside the hexagon of flat width ``fl`` px at ``centre`` turned ``ang``
    degrees, px of that hexagon inside the image)."""
    H, W = mask.shape
    poly = hexagon(fl, centre, ang)
    x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
    x1, y1 = np.maximum(np.minimum(np.ceil(poly.max(axis=0)).astype(int) + 1, [W, H]), [x0 + 1, y0 + 1])
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(m, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    inside = m > 0
    return int(np.count_nonzero(mask[y0:y1, x0:x1][inside])), max(1, int(np.count_nonzero(inside)))


def _free_cells(mask: np.ndarray, frontier: list[HexCandidate], out: list[HexCandidate], tried: set[tuple[int, int]],
                pitch: float, flat: float, config: HexesConfig, ds: float, bare: bool = False
                ) -> list[tuple[np.ndarray, float, float, np.ndarray]]:
    """(centre px, turn degrees, flat width px, corners float[6, 2]) of the lattice neighbours of ``frontier`` not
    in ``tried`` (each added to it), off the hexes of ``out``, inside ``mask``'s image and near enough foreground
    for a fit to reach ``grow_min_occupancy`` (``ds``: the fits' size change; with ``bare`` that holds only for a
    cell every side of which touches a hex of ``out``: a cell on the map's edge needs no foreground), in order."""
    H, W = mask.shape
    cells = []
    for h in frontier:
        e01 = h.corners[1] - h.corners[0]
        ang = math.degrees(math.atan2(e01[1], e01[0]))
        size = float(np.linalg.norm(h.corners[0] - h.corners[4]))
        for j in range(6):
            a = math.radians(EDGE_NORMAL_DEG[j] + ang)
            c = h.centre + pitch * size / flat * np.array([math.cos(a), math.sin(a)])
            key = (int(round(c[0] / (0.25 * flat))), int(round(c[1] / (0.25 * flat))))
            if key in tried:
                continue
            tried.add(key)
            if np.min(np.linalg.norm(np.array([o.centre for o in out]) - c, axis=1)) < 0.5 * flat:
                continue
            cr = hexagon(size, c, ang)
            if cr[:, 0].min() < 0 or cr[:, 1].min() < 0 or cr[:, 0].max() >= W or cr[:, 1].max() >= H:
                continue
            # the two fits below move a cell by at most refine_window of a flat + 4 px (quick window, fine
            # steps, turn) and scale it by refine_scale + 1 %: when the hexagon grown by that much holds too
            # little foreground for grow_min_occupancy of the fitted cell, no fit is needed
            reach = _fg_count(mask, c, 0.85 * size * (1 + ds) + 2.0 * (config.refine_window * flat + 4.0), ang)[0]
            if reach < config.grow_min_occupancy * (SQRT3 / 2.0) * (0.85 * size * (1 - ds)) ** 2 and not (
                    bare and int(np.sum(np.linalg.norm(np.array([o.centre for o in out]) - c, axis=1)
                                        < 1.25 * pitch * size / flat)) < 6):
                continue
            cells.append((c, ang, size, cr))
    return cells
