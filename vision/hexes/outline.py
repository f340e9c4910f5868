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

__all__ = ["edge_scores", "grow_hexes", "outline_maps", "outline_score", "refine_hexes"]


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
    out = np.zeros(im.shape[:2] + (8,), np.float32)
    for ch in chans:
        g = cv2.GaussianBlur(ch, (0, 0), sig) * wc
        gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 8.0
        gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 8.0
        gxx = cv2.Sobel(g, cv2.CV_32F, 2, 0, ksize=3) / 4.0
        gyy = cv2.Sobel(g, cv2.CV_32F, 0, 2, ksize=3) / 4.0
        gxy = cv2.Sobel(g, cv2.CV_32F, 1, 1, ksize=3) / 4.0
        out += cv2.merge([gx * gx, gx * gy, gy * gy, gxx * gxx, gxx * gxy, 4.0 * gxy * gxy + 2.0 * gxx * gyy,
                          gxy * gyy, gyy * gyy])
    return out, sig


#: weights of the six edge scores sorted ascending (the weaker edges count more): the outline score is at most 4.75.
_EDGE_SORT_WEIGHTS = np.array([1.0, 1.0, 1.0, 0.75, 0.5, 0.5], np.float32)


def edge_scores(maps: tuple[np.ndarray, float], flat: float, config: HexesConfig, cx: np.ndarray, cy: np.ndarray,
                ang: np.ndarray, sc: np.ndarray) -> np.ndarray:
    """float[P, 6]: for P poses of a flat-top hexagon (centres ``cx``, ``cy`` in work px, turns ``ang`` in
    degrees clockwise, sizes ``sc`` times ``flat`` px; arrays [P]), how much of the local structure under
    each edge runs along it, 0-1, averaged over ``config.refine_points`` samples away from the edge's middle.

    Per sample: across = sqrt(sum_c (n . grad)^2 + (1.5 sigma)^2 sum_c (n^T Hessian n)^2) (a step, or a seam
    or printed rim: a line), along = sqrt(sum_c (t . grad)^2) (texture crossing the edge), and the score
    across / (sqrt(across^2 + along^2) + ``refine_noise``): contrast-free, so a faint seam between two dark
    sectors counts as much as a bright print. ``maps``: :func:`outline_maps` of the work image."""
    m, sig = maps
    npe = config.refine_points
    pts, nrm = _outline_points(npe)
    c2 = (1.5 * sig) ** 2
    a = np.radians(ang)[:, None]
    ca, sa = np.cos(a), np.sin(a)
    F = (flat * sc)[:, None]
    px = cx[:, None] + F * (pts[None, :, 0] * ca - pts[None, :, 1] * sa)
    py = cy[:, None] + F * (pts[None, :, 0] * sa + pts[None, :, 1] * ca)
    nx = nrm[None, :, 0] * ca - nrm[None, :, 1] * sa
    ny = nrm[None, :, 0] * sa + nrm[None, :, 1] * ca
    v = cv2.remap(m, px.astype(np.float32), py.astype(np.float32), cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    xx, xy, yy = nx * nx, nx * ny, ny * ny
    d1sq = v[..., 0] * xx + 2.0 * v[..., 1] * xy + v[..., 2] * yy
    d2sq = (v[..., 3] * xx * xx + 4.0 * v[..., 4] * xx * xy + v[..., 5] * xx * yy + 4.0 * v[..., 6] * xy * yy
            + v[..., 7] * yy * yy)
    alsq = v[..., 0] * yy - 2.0 * v[..., 1] * xy + v[..., 2] * xx
    across = np.sqrt(np.maximum(d1sq + c2 * d2sq, 0.0))
    along = np.sqrt(np.maximum(alsq, 0.0))
    e = across / (np.sqrt(across * across + along * along) + config.refine_noise)
    return e.reshape(len(cx), 6, npe).mean(axis=2)


def outline_score(e: np.ndarray) -> np.ndarray:
    """float[P]: the outline score (0-4.75) of edge scores float[P, 6] (:func:`edge_scores`): sorted ascending
    and weighted 1, 1, 1, 0.75, 0.5, 0.5, so an outline needs most of its six edges."""
    return (np.sort(e, axis=1) * _EDGE_SORT_WEIGHTS).sum(axis=1)


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

    Returns the candidates with new corners and centres (same order) and ``score`` = the outline score
    (0-4.75); a hex whose outline is nowhere better keeps its pose. ``maps``: :func:`outline_maps` of
    ``gray`` when already computed."""
    if not cands:
        return cands
    maps = maps if maps is not None else outline_maps(gray)

    def scores(cx, cy, ang, sc):   # arrays [P] -> float[P]
        return outline_score(edge_scores(maps, flat, config, cx, cy, ang, sc))

    def grid(c0, steps_xy, steps_a, steps_s):
        dx, dy, da, ds = np.meshgrid(steps_xy, steps_xy, steps_a, steps_s, indexing="ij")
        return c0[0] + dx.ravel(), c0[1] + dy.ravel(), c0[2] + da.ravel(), c0[3] * (1.0 + ds.ravel())

    win = config.refine_window * flat
    n1 = max(2, int(math.ceil(win)))
    out = []
    for h in cands:
        c = h.corners.mean(axis=0)
        e01 = h.corners[1] - h.corners[0]
        ang = math.degrees(math.atan2(e01[1], e01[0]))
        scale = float(np.linalg.norm(h.corners[0] - h.corners[4])) / flat
        p0 = np.array([c[0], c[1], ang, scale])
        base = float(scores(*[np.array([v]) for v in p0])[0])
        prior = config.refine_prior / (win * win)
        s_steps = np.linspace(-config.refine_scale, config.refine_scale, 5) if scale_free else np.array([0.0])
        cand = grid(p0, np.linspace(-win, win, 2 * n1 + 1), np.array([-1.2, 0.0, 1.2]), s_steps)
        sc_ = scores(*cand) - prior * ((cand[0] - p0[0]) ** 2 + (cand[1] - p0[1]) ** 2)
        k = int(np.argmax(sc_))
        p1 = np.array([v[k] for v in cand])
        s_fine = np.array([-0.01, 0.0, 0.01]) if scale_free else np.array([0.0])
        cand = grid(p1, np.linspace(-0.75, 0.75, 7), np.array([-0.6, -0.3, 0.0, 0.3, 0.6]), s_fine)
        sc2 = scores(*cand) - prior * ((cand[0] - p0[0]) ** 2 + (cand[1] - p0[1]) ** 2)
        k = int(np.argmax(sc2))
        if float(sc2[k]) <= base:
            out.append(replace(h, score=base))
            continue
        cx, cy, a, sc = (float(v[k]) for v in cand)
        # keep the corner order: corner 0 stays the one nearest the old corner 0
        cr = hexagon(flat * sc, (cx, cy), a)
        out.append(replace(h, corners=cr, centre=np.array([cx, cy]),
                           score=float(scores(*[np.array([v]) for v in (cx, cy, a, sc)])[0])))
    return out


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


def _weakest_side(cand: HexCandidate, maps: tuple | None, config: HexesConfig) -> float:
    """The outline score of ``cand``'s weakest side (:func:`edge_scores`)."""
    return float(edge_scores(maps, 1.0, config, *hex_pose(cand.corners))[0].min())


def grow_hexes(gray: np.ndarray, mask: np.ndarray, cands: list[HexCandidate], flat: float, config: HexesConfig,
               scale_free: bool = False, maps: tuple | None = None) -> list[HexCandidate]:
    """``cands`` plus hexes found next to them on the lattice by their outline alone: a tile whose artwork
    looks like the table (a dark sector on a dark cloth) is only partly foreground, but its six edges
    still line up with its neighbours'. Each free neighbour cell of a hex is fitted
    (:func:`refine_hexes`) and kept when its outline score is at least ``grow_min_score`` and at least
    ``grow_min_occupancy`` of it is foreground (an empty gap in the map is all table) and each of its six
    sides shows an outline (``grow_min_edge``: a gap outlined by hexes on some sides, under glare, has
    foreground too); repeated while hexes are added (at most ``grow_rounds`` times). ``gray``: the work
    image as in :func:`refine_hexes`."""
    if not cands:
        return cands
    out = list(cands)
    H, W = mask.shape
    pitch = _lattice_pitch(out, flat)
    tried: set[tuple[int, int]] = set()
    frontier = list(out)

    def fg_count(centre: np.ndarray, fl: float, ang: float) -> tuple[int, int]:   # foreground px, px of a hexagon
        poly = hexagon(fl, centre, ang)
        x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
        x1, y1 = np.maximum(np.minimum(np.ceil(poly.max(axis=0)).astype(int) + 1, [W, H]), [x0 + 1, y0 + 1])
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(m, [np.round((poly - [x0, y0]) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
        inside = m > 0
        return int(np.count_nonzero(mask[y0:y1, x0:x1][inside])), max(1, int(np.count_nonzero(inside)))

    for _ in range(config.grow_rounds):
        new: list[HexCandidate] = []
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
                allc = np.array([o.centre for o in out + new])
                if np.min(np.linalg.norm(allc - c, axis=1)) < 0.5 * flat:
                    continue
                cr = hexagon(size, c, ang)
                if cr[:, 0].min() < 0 or cr[:, 1].min() < 0 or cr[:, 0].max() >= W or cr[:, 1].max() >= H:
                    continue
                # the two fits below move a cell by at most refine_window of a flat + 4 px (quick window, fine
                # steps, turn) and scale it by refine_scale + 1 %: when the hexagon grown by that much holds too
                # little foreground for grow_min_occupancy of the fitted cell, no fit is needed
                ds = (config.refine_scale + 0.01) if scale_free else 0.0
                reach = fg_count(c, 0.85 * size * (1 + ds) + 2.0 * (config.refine_window * flat + 4.0), ang)[0]
                if reach < config.grow_min_occupancy * (SQRT3 / 2.0) * (0.85 * size * (1 - ds)) ** 2:
                    continue
                quick = refine_hexes(gray, [HexCandidate(cr, c, 0.0, 0.0, 0, 0.0)], flat,
                                     replace(config, refine_window=2.0 / flat), False, maps)[0]
                if quick.score < config.grow_min_score - 0.8:   # nothing like an outline near: skip the full fit
                    continue
                cand = refine_hexes(gray, [quick], flat, config, scale_free, maps)[0]
                if cand.score < config.grow_min_score:
                    continue
                fg, area = fg_count(cand.centre, 0.85 * size, ang)
                occ = fg / area
                # too little foreground, or a side without an outline (a gap between hexes)
                if occ < config.grow_min_occupancy or _weakest_side(cand, maps, config) < config.grow_min_edge:
                    continue
                if np.min(np.linalg.norm(np.array([o.centre for o in out + new]) - cand.centre, axis=1)) < 0.5 * flat:
                    continue
                new.append(replace(cand, occupancy=occ, crisp=6))
        if not new:
            break
        out.extend(new)
        frontier = new
    return out
