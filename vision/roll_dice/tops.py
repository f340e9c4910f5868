"""Stages 4-5 of the Roll dice reader: each candidate's top face (its body colour and rotated rectangle), the
canonical upright patch (the same cut serves enrollment) turned into an ink map, then one face per place."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .candidates import disc_kernel
from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS, to_log
from .observations import Candidates, TopFaces
from .shape import die_likeness, expected_sides, face_evidences, snap_top, top_fit

__all__ = ["INK_CHANNELS", "body_colour", "drop_duplicates", "extract_tops", "ink_map", "ink_maps",
           "rect_box",
           "refine_top", "rim_weights", "upright_patch"]


#: Channels of an ink map (signed brightness, chroma distance).
INK_CHANNELS = 2


def upright_patch(frame: np.ndarray, cx: float, cy: float, side: float, angle: float, size: int,
                  margin: int) -> np.ndarray:
    """A ``uint8[size+2m, size+2m, 3]`` patch where a square of ``side`` frame px centred on (cx, cy),
    turned by ``angle`` degrees, spans the central ``size`` px (upright). Used for enrollment and reading."""
    s = size / max(float(side), 1.0)
    out = size + 2 * margin
    m = cv2.getRotationMatrix2D((float(cx), float(cy)), float(angle), s)
    m[0, 2] += out / 2.0 - cx
    m[1, 2] += out / 2.0 - cy
    src = frame
    if s < 0.5:
        k = int(1.0 / s) | 1
        x0, y0 = int(max(cx - side * 1.5, 0)), int(max(cy - side * 1.5, 0))
        x1, y1 = int(min(cx + side * 1.5, frame.shape[1])), int(min(cy + side * 1.5, frame.shape[0]))
        src = frame[y0:y1, x0:x1]
        src = cv2.GaussianBlur(src, (k, k), 0)
        m[0, 2] += m[0, 0] * x0 + m[0, 1] * y0
        m[1, 2] += m[1, 0] * x0 + m[1, 1] * y0
    return cv2.warpAffine(src, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def body_colour(logp: np.ndarray, bin_size: float = 0.08, weights: np.ndarray | None = None) -> np.ndarray:
    """Robust body colour (log-RGB) of a die patch ``float32[h, w, 3]``: the densest colour (mode of a
    coarse 3-D histogram smoothed over neighbouring bins, each pixel counted with its ``weights``
    ``float[h, w]``, default 1), then the mean of the pixels near it.

    The smoothing lets a body spread over a few bins by its shading (the bevel, a light gradient) win
    over a flat, saturated symbol; weighting the face's rim (:func:`rim_weights`) makes the body win
    whatever the print: a light symbol on a coloured die may cover as much of the face as the body, but
    the rim of a face is body."""
    px = logp.reshape(-1, 3)
    q = np.floor(px / bin_size).astype(np.int64)
    q -= q.min(0) - 1  # one empty bin each side: the smoothing below never wraps around
    dims = q.max(0) + 2
    key = (q[:, 0] * dims[1] + q[:, 1]) * dims[2] + q[:, 2]
    w = None if weights is None else weights.reshape(-1)
    hist = np.bincount(key, w, minlength=int(np.prod(dims))).reshape(tuple(dims))
    for ax in range(3):  # h[i] + h[i-1] + h[i+1]: the bins at each end are empty, so nothing wraps
        lo, hi = [slice(None)] * 3, [slice(None)] * 3
        lo[ax], hi[ax] = slice(1, None), slice(None, -1)
        out = hist.copy()
        out[tuple(lo)] += hist[tuple(hi)]
        out[tuple(hi)] += hist[tuple(lo)]
        hist = out
    top = np.array(np.unravel_index(int(hist.argmax()), hist.shape))
    near = (np.abs(q - top) <= 1).all(1)
    centre = px[near].mean(0) if near.any() else px.mean(0)
    d = np.sqrt(((px - centre) ** 2).sum(1))
    return px[d < 2.0 * bin_size].mean(0)


@functools.lru_cache(maxsize=16)
def rim_weights(size: int, face: float, inner: float = 0.55, outer: float = 0.85, edge: float = 0.97,
                floor: float = 0.3) -> np.ndarray:
    """``float32[size, size]`` weights over a square patch whose middle ``face`` pixels are a die's top face,
    by the Chebyshev distance ``r`` from the middle in half faces: ``floor`` up to ``inner`` (where the
    symbol is), rising to 1 at ``outer`` (the face's rim, inside its rounded edge), 0 from ``edge`` on."""
    g = np.abs(np.arange(size, dtype=np.float32) - (size - 1) / 2.0) / (face / 2.0)
    r = np.maximum(g[:, None], g[None, :])
    w = np.clip((r - inner) / (outer - inner), floor, 1.0).astype(np.float32)
    w[r >= edge] = 0.0
    w.setflags(write=False)
    return w


def refine_top(frame: np.ndarray, rect: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Top face of one candidate: (rect float[5] in frame px, body log-RGB float[3]).

    The candidate is cut upright at 2x context, the body colour found, pixels within
    ``top_colour_dist`` of it (holes filled) taken as the top face, and its rotated rect returned.
    """
    cx, cy, w, h, ang = rect
    side = max(w, h)
    size = 48
    patch = upright_patch(frame, cx, cy, side * 1.3, ang, size, 0)
    logp = to_log(patch, config)
    c0 = size // 2
    body = body_colour(logp, weights=rim_weights(size, size / 1.3))
    dist = np.sqrt(((logp - body) ** 2).sum(2))
    m = (dist < config.top_colour_dist).astype(np.uint8) * 255
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, disc_kernel(3))
    # stay within the candidate (grown a little): a touching die of the same colour is not this face
    f0 = size / (side * 1.3)
    own = cv2.boxPoints(((c0, c0), (w * f0 * config.refine_grow, h * f0 * config.refine_grow), 0.0))
    region = np.zeros_like(m)
    cv2.fillConvexPoly(region, np.round(own).astype(np.int32), 255)
    m &= region
    contours, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return np.asarray(rect, np.float64), body
    # the component nearest the centre with a good area
    best, best_key = None, None
    for c in contours:
        a = cv2.contourArea(c)
        if a < (size / 1.3) ** 2 * 0.15:
            continue
        mo = cv2.moments(c)
        if mo["m00"] <= 0:
            continue
        d = np.hypot(mo["m10"] / mo["m00"] - c0, mo["m01"] / mo["m00"] - c0)
        key = d - 0.02 * a
        if best_key is None or key < best_key:
            best, best_key = c, key
    if best is None:
        return np.asarray(rect, np.float64), body
    hull = cv2.convexHull(best)
    (px, py), (pw, ph), pang = cv2.minAreaRect(hull)
    f = side * 1.3 / size  # patch px -> frame px
    # patch coordinates -> frame coordinates (undo the rotation by ``ang`` about the centre)
    t = np.deg2rad(ang)
    dx, dy = (px - c0) * f, (py - c0) * f
    fx = cx + dx * np.cos(t) - dy * np.sin(t)
    fy = cy + dx * np.sin(t) + dy * np.cos(t)
    pw, ph = pw * f, ph * f
    if min(pw, ph) < 0.5 * side or max(pw, ph) > 1.3 * side or max(pw, ph) > config.max_aspect_top * min(pw, ph):
        return np.asarray(rect, np.float64), body
    return np.array([fx, fy, pw, ph, ang + pang], np.float64), body


def ink_map(patch: np.ndarray, config: RollDiceConfig, margin: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(ink ``float32[2, h, w]``, body log-RGB) of an upright top-face patch whose face spans the
    central ``config.patch`` px (``margin`` px each side, default ``config.patch_margin``).

    Channel 0: signed brightness difference to the face's body colour (a dark symbol is negative,
    a light one or a glare spot positive, so glare does not look like a dark symbol); channel 1:
    chroma distance to the body colour. Both in log-RGB, so the same under any light level."""
    logp = to_log(patch, config)
    m = config.patch_margin if margin is None else int(margin)
    p = config.patch
    body = body_colour(logp, weights=rim_weights(p + 2 * m, float(p)))
    diff = logp - body
    bright = (diff @ LOG_RGB_BASIS[2]).astype(np.float32)
    chroma = np.sqrt(((diff @ LOG_RGB_BASIS[:2].T) ** 2).sum(2)).astype(np.float32)
    ink = np.stack([bright, chroma])
    if config.ink_blur > 0:
        ink = np.stack([cv2.GaussianBlur(c, (0, 0), config.ink_blur) for c in ink])
    return ink, body


def ink_maps(patches: np.ndarray, config: RollDiceConfig, margin: int | None = None,
             bodies: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ink_map` of many patches at once (the same numbers): (inks ``float32[N, 2, h, w]``, bodies log-RGB
    ``float[N, 3]``) of ``uint8[N, h, w, 3]`` upright top-face patches. ``bodies`` ``float[N, 3]``: the body
    colours already known (e.g. the same faces cut at another scale), not measured again."""
    n = len(patches)
    m = config.patch_margin if margin is None else int(margin)
    if n == 0:
        h, w = patches.shape[1:3]
        return np.zeros((0, INK_CHANNELS, h, w), np.float32), np.zeros((0, 3))
    logp = to_log(patches, config)
    p = config.patch
    weights = rim_weights(p + 2 * m, float(p))
    if bodies is None:
        body = np.stack([body_colour(one, weights=weights) for one in logp])
    else:
        body = np.asarray(bodies, np.float64).reshape(n, 3)
    diff = logp - body[:, None, None, :]
    bright = (diff @ LOG_RGB_BASIS[2]).astype(np.float32)
    chroma = np.sqrt(((diff @ LOG_RGB_BASIS[:2].T) ** 2).sum(3)).astype(np.float32)
    ink = np.stack([bright, chroma], 1)
    if config.ink_blur > 0:
        ink = np.stack([[cv2.GaussianBlur(c, (0, 0), config.ink_blur) for c in one] for one in ink])
    return ink, body


def extract_tops(frame: np.ndarray, candidates: Candidates, config: RollDiceConfig) -> TopFaces:
    """Refine each candidate to its top face, weigh the evidence that it is a die, give the faces of odd
    size the size a die has at their place, and cut their canonical ink patches.

    Each face's shape evidence (:func:`vision.roll_dice.shape.face_evidence`: one body colour round the
    rim, standing out all round, a symbol in the middle) is kept in ``TopFaces.evidence``; the size
    model (:func:`vision.roll_dice.shape.expected_sides`) is fitted to the faces weighted by their score
    x die-likeness, so an empty check of a tablecloth or a printed square weighs nothing in it. With
    ``snap`` every face is then snapped onto its die at the expected side
    (:func:`vision.roll_dice.shape.snap_top`) when that fits its edges better by ``snap_gain``; else a
    face whose side is off the model by more than ``side_tolerance`` (or that is not square) takes the
    expected side, square."""
    n = len(candidates.rects)
    q = config.patch + 2 * config.patch_margin
    rects = np.zeros((n, 5), np.float64)
    inks = np.zeros((n, INK_CHANNELS, q, q), np.float32)
    bodies = np.zeros((n, 3), np.float64)
    evidence = np.zeros((n, 3), np.float64)
    for i, r in enumerate(candidates.rects):
        if config.refine_by_colour:
            rects[i], bodies[i] = refine_top(frame, r, config)
        else:
            rects[i] = np.asarray(r, np.float64)
    scores = candidates.scores.astype(np.float64).copy()

    def weigh(idx: list[int]) -> None:
        if not idx:
            return
        patches = np.stack([upright_patch(frame, rects[i, 0], rects[i, 1], float(np.sqrt(rects[i, 2] * rects[i, 3])),
                                          rects[i, 4], config.patch, config.evidence_margin) for i in idx])
        m = config.evidence_margin - config.patch_margin
        inks[idx], bodies[idx] = ink_maps(patches[:, m:m + q, m:m + q], config)
        evidence[idx] = face_evidences(patches, bodies[idx], config)

    weigh(list(range(n)))
    if n:
        sides = np.sqrt(rects[:, 2] * rects[:, 3])
        expected = expected_sides(rects[:, :2], sides, scores * die_likeness(evidence, config), config)
        odd = (np.abs(sides / expected - 1.0) > config.side_tolerance) | (
            np.maximum(rects[:, 2], rects[:, 3]) > config.max_aspect_top * np.minimum(rects[:, 2], rects[:, 3]))
        again = []  # each face's re-weighing reads only its own rect: done together at the end
        for i in range(n):
            if config.snap:
                snapped, fit = snap_top(frame, rects[i], bodies[i], float(expected[i]), config)
                if fit > top_fit(frame, rects[i], bodies[i], config) + config.snap_gain:
                    rects[i] = snapped
                    again.append(i)
                    continue
            if odd[i]:
                rects[i, 2] = rects[i, 3] = expected[i]
                again.append(i)
        weigh(again)
    return TopFaces(rects, scores, inks, bodies, evidence)


def drop_duplicates(tops: TopFaces, config: RollDiceConfig) -> TopFaces:
    """Keep one of any two top faces whose centres are closer than ``duplicate_dist`` x their side
    (two fragments of one die refined to the same face), the higher-scored (then larger) one."""
    n = len(tops.rects)
    if n < 2:
        return tops
    side = np.sqrt(tops.rects[:, 2] * tops.rects[:, 3])
    order = np.lexsort((-side, -tops.scores))
    xy = tops.rects[:, :2]
    dist = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])  # [N, N] px
    apart = dist > config.duplicate_dist * np.minimum(side[:, None], side[None, :])
    keep: list[int] = []
    for i in order:
        if apart[i, keep].all():
            keep.append(int(i))
    # a side face: next to a die of the same chroma, clearly darker, and not square
    bright = tops.body @ LOG_RGB_BASIS[2]
    chroma = tops.body @ LOG_RGB_BASIS[:2].T
    k = np.asarray(keep, np.int64)
    r = tops.rects[k]
    sq = (np.maximum(r[:, 2], r[:, 3]) / np.maximum(np.minimum(r[:, 2], r[:, 3]), 1e-6))[:, None]   # [i, 1]
    si, sj = side[k][:, None], side[k][None, :]
    near = dist[np.ix_(k, k)] < 1.0 * np.maximum(si, sj)
    same = np.hypot(chroma[k][:, None, 0] - chroma[k][None, :, 0], chroma[k][:, None, 1] - chroma[k][None, :, 1])
    face = (near & (bright[k][None, :] - bright[k][:, None] > config.side_darker) & (si < sj * 1.05)
            & (same < config.side_chroma) & ((sq > 1.25) | (si < 0.8 * sj)))
    np.fill_diagonal(face, False)
    sides = set(k[face.any(1)].tolist())
    keep = [i for i in keep if i not in sides]
    keep.sort()
    k = np.asarray(keep, np.int64)
    return tops.take(k)


def rect_box(rect: np.ndarray) -> tuple[int, int, int, int]:
    """Axis-aligned ``(x, y, w, h)`` of a rotated rect (cx, cy, w, h, angle)."""
    pts = cv2.boxPoints(((float(rect[0]), float(rect[1])), (float(rect[2]), float(rect[3])), float(rect[4])))
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0)
    return int(round(x0)), int(round(y0)), max(1, int(round(x1 - x0))), max(1, int(round(y1 - y0)))
