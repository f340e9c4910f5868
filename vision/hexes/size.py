"""Stage 1 of the hex reader: the work image (the table top-down with a calibration, else the frame) scaled
so a hex is ``work_flat_px`` across, and the hex size estimated from the image when nothing gives it."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from ..card_detect import foreground_mask
from ..table import TableCalibration
from .config import HexesConfig
from .geometry import SQRT3, hex_pose
from .lattice import find_hexes, lattice_angle
from .outline import edge_scores, outline_maps, outline_score, refine_hexes

__all__ = ["boundary_side_px", "estimate_flat_px", "work_image"]


def boundary_side_px(mask: np.ndarray, theta: float) -> float | None:
    """Typical side length (px) of the hexagons whose union is the foreground ``mask`` (uint8[H, W]), from
    its outlines: the boundary of hexes edge to edge on a hex lattice never runs straight across two sides
    (neighbours are offset by half a flat), so its straight runs along the lattice's three edge directions
    (``theta``: :func:`lattice_angle`) are each one side long. Returns the mode of the run lengths (weighted
    by length, log-spaced bins; corners rounded by the mask make it a little short), or None with fewer than
    six runs."""
    cnts, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    lens: list[float] = []
    for cn in cnts:
        p = cn[:, 0, :].astype(np.float64)
        if len(p) < 30:
            continue
        d = np.roll(p, -3, axis=0) - np.roll(p, 3, axis=0)
        ang = (np.degrees(np.arctan2(d[:, 1], d[:, 0])) - theta) % 180.0   # a flat-top hex's sides: 0, 60, 120
        cls = np.full(len(p), -1)
        for j, a0 in enumerate((0.0, 60.0, 120.0)):
            cls[np.abs((ang - a0 + 90.0) % 180.0 - 90.0) < 12.0] = j
        if np.all(cls == cls[0]):
            continue
        start = int(np.argmax(cls != np.roll(cls, 1)))
        cl, pp = np.roll(cls, -start), np.roll(p, -start, axis=0)
        cut = np.flatnonzero(np.diff(cl) != 0) + 1
        for i0, i1 in zip(np.r_[0, cut], np.r_[cut, len(cl)] - 1, strict=True):
            if cl[i0] >= 0 and i1 > i0:
                lens.append(float(np.linalg.norm(pp[i1] - pp[i0])))
    ln = np.array([v for v in lens if v > 6.0])
    if len(ln) < 6:
        return None
    lo, hi = math.log(6.0), math.log(max(12.0, float(ln.max())) * 1.05)
    hist, edges = np.histogram(np.log(ln), bins=60, range=(lo, hi), weights=ln)
    sm = np.convolve(hist, [0.25, 0.5, 1.0, 0.5, 0.25], mode="same")
    i = int(np.argmax(sm))
    return float(math.exp(0.5 * (edges[i] + edges[i + 1])))


def _lattice_fit(img: np.ndarray, F: float, config: HexesConfig, fg_area: float, fit: bool = False,
                 target: float = 32.0) -> tuple[float, float | None]:
    """How well a lattice of hexes ``F`` px across explains ``img`` (uint8[H, W, 3]), reduced so a hex is
    ``target`` px: (score, fitted width px of ``img`` or None). The lattice cells (:func:`find_hexes` without
    refinement) give the score: their mean outline score (0-4.75, :func:`edge_scores`) times the fraction of
    the foreground (``fg_area`` px of ``img``) they cover (at most 1). The fitted width (only with ``fit``):
    the median size of the 12 most foreground cells' outlines fitted within +-10 % (:func:`refine_hexes`)."""
    H, W = img.shape[:2]
    k = target / F
    im = cv2.resize(img, (max(1, int(round(W * k))), max(1, int(round(H * k)))),
                    interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    found = find_hexes(im, target, config, refine=False)
    if not found:
        return 0.0, None
    maps = outline_maps(im)
    poses = [hex_pose(h.corners) for h in found]
    e = edge_scores(maps, 1.0, config, *(np.concatenate([p[i] for p in poses]) for i in range(4)))
    cover = min(1.0, len(found) * SQRT3 / 2.0 * F * F / max(fg_area, 1.0))
    if not fit:
        return float(np.mean(outline_score(e))) * cover, None
    best = sorted(found, key=lambda h: -h.occupancy)[:12]
    fit = refine_hexes(im, best, target, replace(config, refine_scale=0.1), scale_free=True, maps=maps)
    size = float(np.median([float(hex_pose(h.corners)[3][0]) for h in fit])) / k
    return float(np.mean(outline_score(e))) * cover, size


def estimate_flat_px(img: np.ndarray, config: HexesConfig) -> float | None:
    """Flat-to-flat width of a hex in pixels of ``img`` (uint8[H, W, 3] BGR; no calibration), or None when
    nothing is found.

    A first guess F0 = sqrt(3) x the side length of the foreground's outline (:func:`boundary_side_px`),
    then the width in F0 x [0.87, 1.40] (7 % steps) whose hex lattice explains the image best
    (:func:`_lattice_fit`: the cells' six sides on outlines, the foreground covered), made exact by fitting
    those cells' outlines (their median size); the read then fits each hex's size within a few percent
    (:func:`refine_hexes`). Without outline runs: the period of the edge projections (below)."""
    mask = foreground_mask(img, config.fg)
    H, W = mask.shape
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 0.002 * H * W]
    if not big:
        return None
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sel = np.isin(lab, big).astype(np.uint8) * 255
    theta = lattice_angle(gray, cv2.dilate(sel, np.ones((5, 5), np.uint8)))
    side = boundary_side_px(sel, theta)
    if side is not None:
        fg_area = float(sum(stats[i, cv2.CC_STAT_AREA] for i in big))
        F0 = SQRT3 * side
        Fs = [F for F in F0 * 1.07 ** np.arange(-2, 6) if 8.0 <= F <= 0.8 * min(H, W)]
        sc = [_lattice_fit(img, F, config, fg_area)[0] for F in Fs]
        if sc and max(sc) > 0:
            return _lattice_fit(img, Fs[int(np.argmax(sc))], config, fg_area, fit=True)[1]
    return _estimate_flat_px_periodic(img, config, mask, lab, stats, big, gray, sel, theta)


def _estimate_flat_px_periodic(img, config, mask, lab, stats, big, gray, sel, theta) -> float | None:
    """The fallback of :func:`estimate_flat_px`: edges of a map of touching flat-top hexes lie on lines every
    half flat width along each of the three edge normals; a lone hex's every flat width. The period P of the
    edge projections (autocorrelation) gives the width P or 2P: the one whose lattice fit finds hexes with
    more crisp sides covering more of the foreground."""
    H, W = mask.shape
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    ys, xs = np.nonzero(cv2.dilate(sel, np.ones((5, 5), np.uint8)))
    acs = []
    L = int(math.hypot(H, W)) + 2
    for nd in (90.0, 30.0, 150.0):
        a = math.radians(nd + theta)
        nx, ny = math.cos(a), math.sin(a)
        e = np.abs(gx[ys, xs] * nx + gy[ys, xs] * ny) - 0.5 * np.abs(-gx[ys, xs] * ny + gy[ys, xs] * nx)
        proj = (xs * nx + ys * ny)
        prof = np.bincount((proj - proj.min()).astype(int), weights=np.maximum(e, 0), minlength=L)[:L]
        prof = prof - cv2.GaussianBlur(prof.reshape(1, -1).astype(np.float32), (0, 0), 8.0).ravel()
        f = np.fft.rfft(prof, 2 * L)
        ac = np.fft.irfft(f * np.conj(f))[:L]
        acs.append(ac / max(ac[0], 1e-9))
    ac = np.mean(acs, axis=0)
    lo = 12
    hi = min(L - 2, int(0.6 * max(H, W)))
    if hi <= lo + 2:
        return None
    seg = ac[lo:hi]
    peaks = [i for i in range(1, len(seg) - 1) if seg[i] >= seg[i - 1] and seg[i] >= seg[i + 1] and seg[i] > 0.05]
    if not peaks:
        return None
    P = float(lo + max(peaks[:3], key=lambda i: seg[i]))
    fg_area = float(sum(stats[i, cv2.CC_STAT_AREA] for i in big))
    best, best_score = None, -1.0
    for F in (P, 2.0 * P):   # which one: the lattice whose hexes show more crisp sides and cover the blobs
        if F > 0.8 * min(H, W) or F < 8:
            continue
        k = min(1.0, config.work_flat_px / F)
        im = cv2.resize(img, (max(1, int(W * k)), max(1, int(H * k))), interpolation=cv2.INTER_AREA) if k < 1 else img
        found = find_hexes(im, F * k, config, refine=False)
        if not found:
            continue
        cover = min(1.0, len(found) * SQRT3 / 2.0 * F * F / fg_area)
        score = float(np.mean([h.crisp for h in found])) / 6.0 * cover
        if score > best_score:
            best, best_score = F, score
    return best


def work_image(frame: np.ndarray, calibration: TableCalibration | None, hex_mm: float | None,
               config: HexesConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """(work image, M frame px -> work px (3x3), hex flat width in work px).

    With a calibration the work image is the table seen top-down (its extent: the frame's footprint,
    clipped to 2 m around the markers); without, the frame itself. Either way it is scaled so that a hex
    is about ``work_flat_px`` across (the frame is first reduced with area averaging, no aliasing)."""
    h, w = frame.shape[:2]
    F = config.work_flat_px
    if calibration is not None:
        hm = hex_mm or config.fallback_hex_mm
        s = F / hm
        mm_px = calibration.mm_per_px()
        g = min(1.0, 2.0 * s * mm_px)   # pre-reduce the frame to about twice the work resolution
        small = cv2.resize(frame, (max(1, int(round(w * g))), max(1, int(round(h * g)))),
                           interpolation=cv2.INTER_AREA) if g < 1.0 else frame
        lo, hi = calibration.footprint_mm(w, h)
        size = (hi - lo) * s
        M = calibration.top_down(lo, s)
        Mg = M @ np.diag([1.0 / g, 1.0 / g, 1.0])
        img = cv2.warpPerspective(small, Mg, (int(size[0]) + 1, int(size[1]) + 1), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        return img, M, s * hm
    if config.hex_px is not None:
        flat_frame = float(config.hex_px)
    else:
        g = min(1.0, config.estimate_long_side / float(max(h, w)))
        small = cv2.resize(frame, (int(round(w * g)), int(round(h * g))),
                           interpolation=cv2.INTER_AREA) if g < 1 else frame
        est = estimate_flat_px(small, config)
        flat_frame = (est / g) if est is not None else 0.12 * min(h, w)
    k = min(4.0, F / max(flat_frame, 1.0))
    img = cv2.resize(frame, (max(1, int(round(w * k))), max(1, int(round(h * k)))),
                     interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return img, np.diag([k, k, 1.0]), F
