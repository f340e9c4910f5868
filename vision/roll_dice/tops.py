"""Stages 4-5 of the Roll dice reader: each candidate's top face (its body colour and rotated rectangle), the
canonical upright patch (the same cut serves enrollment) turned into an ink map, then one face per place."""

from __future__ import annotations

import functools

import cv2
import numpy as np

from .candidates import disc_kernel
from .config import RollDiceConfig
from .foreground import LOG_RGB_BASIS, channel_sum, to_log
from .observations import Candidates, TopFaces
from .shape import die_likeness, expected_sides, face_evidences, snap_top, top_fit

__all__ = ["INK_CHANNELS", "body_colour", "body_colours", "drop_duplicates", "extract_tops", "ink_map", "ink_maps",
           "rect_box", "refine_top", "refine_tops", "rim_weights", "upright_patch"]


#: Channels of an ink map (signed brightness, chroma distance).
INK_CHANNELS = 2


def upright_patch(frame: np.ndarray, cx: float, cy: float, side: float, angle: float, size: int,
                  margin: int) -> np.ndarray:
    """A ``uint8[size+2m, size+2m, 3]`` patch where a square of ``side`` frame px centred on (cx, cy),
    turned by ``angle`` degrees, spans the central ``size`` px (upright). Used for enrollment and reading.

    Cut from a frame reduced more than twice, the frame is first blurred (a kernel of about the reduction) in a
    window of 1.5 ``side`` each way round the patch; only the part of it the patch samples (at any turn, with the
    bilinear sample's pixel and the kernel's reach) is blurred, which gives the same pixels."""
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
        reach = out / (2.0 * s) * np.sqrt(2.0) + k // 2 + 3    # frame px from the centre the blurred pixels reach
        if reach < side * 1.5:
            xa, ya = max(int(cx - reach), x0), max(int(cy - reach), y0)
            xb, yb = min(int(cx + reach) + 1, x1), min(int(cy + reach) + 1, y1)
            src = np.empty((y1 - y0, x1 - x0) + frame.shape[2:], frame.dtype)   # read only where blurred
            src[ya - y0:yb - y0, xa - x0:xb - x0] = cv2.GaussianBlur(frame[ya:yb, xa:xb], (k, k), 0)
        else:
            src = cv2.GaussianBlur(frame[y0:y1, x0:x1], (k, k), 0)
        m[0, 2] += m[0, 0] * x0 + m[0, 1] * y0
        m[1, 2] += m[1, 0] * x0 + m[1, 1] * y0
    return cv2.warpAffine(src, m, (out, out), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def body_colour(logp: np.ndarray, bin_size: float = 0.08, weights: np.ndarray | None = None) -> np.ndarray:
    """Robust body colour (log-RGB) of a die patch ``float32[h, w, 3]``: the densest colour (mode of a
    coarse 3-D histogram smoothed over neighbouring bins, each pixel counted with its ``weights``
    ``float[h, w]`` >= 0, default 1), then the mean of the pixels near it.

    The smoothing lets a body spread over a few bins by its shading (the bevel, a light gradient) win
    over a flat, saturated symbol; weighting the face's rim (:func:`rim_weights`) makes the body win
    whatever the print: a light symbol on a coloured die may cover as much of the face as the body, but
    the rim of a face is body. :func:`body_colours` of one patch."""
    return body_colours(np.asarray(logp)[None], bin_size, weights)[0]


def body_colours(logp: np.ndarray, bin_size: float = 0.08, weights: np.ndarray | None = None) -> np.ndarray:
    """:func:`body_colour` of many patches ``float32[N, h, w, 3]`` with the same ``weights`` ``float[h, w]``
    (>= 0; default 1): ``float32[N, 3]`` (``logp``'s dtype), the same numbers patch by patch.

    Each patch's histogram spans the bins of its own weighted pixels (a pixel of weight 0 adds nothing
    to it) with one empty bin each side; it is smoothed by h[i-1] + h[i] + h[i+1] along each axis (a
    3 x 3 x 3 box sum) and its first highest bin in C order is the mode. Where every sum of the weights is
    exact (:func:`sums_exact`: no weights, or the rim weights) only the occupied bins are spread to their
    neighbours (:func:`_box_sum_sparse`), else ``cv2.boxFilter`` runs over the last two axes, then over the
    first (:func:`_box_sum`): the same numbers either way where the sums are exact. The means over the pixels
    near the mode and near the centre are float32 sums pixel by pixel in order, as ``mean(0)`` of one patch's
    pixels gives them, over all patches at once."""
    logp = np.asarray(logp)
    n = len(logp)
    if n == 0:
        return np.zeros((0, 3), logp.dtype)
    px = np.ascontiguousarray(logp.reshape(n, -1, 3).transpose(2, 1, 0))             # [3, P, N]
    q = np.divide(px, bin_size)
    q = np.floor(q, out=q).astype(np.int32)
    w = None if weights is None else np.asarray(weights).reshape(-1)
    sel = None if w is None else np.flatnonzero(w != 0)
    top = np.empty((3, n), np.int32)                       # [3, N]: each patch's mode bin
    found = np.zeros(n, bool)
    if sel is None or len(sel):
        qs = q if sel is None else q[:, sel]               # [3, S, N]
        lo = qs.min(1) - 1
        dims = qs.max(1) - lo + 2
        key = ((qs[0] - lo[0]) * dims[1] + (qs[1] - lo[1])) * dims[2] + (qs[2] - lo[2])  # [S, N]
        key = np.ascontiguousarray(key.T)                  # [N, S]: each patch's bins in one run
        ws = None if w is None else w[sel]
        exact = sums_exact(ws)
        for i, (d0, d1, d2) in enumerate(dims.T.tolist()):
            h = np.bincount(key[i], ws, minlength=d0 * d1 * d2).astype(np.float64, copy=False)
            # the bins at each end of every axis are empty, so nothing wraps
            h = _box_sum_sparse(h, key[i], d1, d2) if exact else _box_sum(h, d0, d1, d2)
            k = int(h.argmax())
            if h.flat[k] > 0:
                top[:, i] = (lo[0, i] + k // (d1 * d2), lo[1, i] + k // d2 % d1, lo[2, i] + k % d2)
                found[i] = True
    for i in np.flatnonzero(~found).tolist():             # no weight: the first bin, where no pixel is
        top[:, i] = q[:, :, i].min(1) - 1
    near = np.abs(q[0] - top[0]) <= 1
    near &= np.abs(q[1] - top[1]) <= 1
    near &= np.abs(q[2] - top[2]) <= 1                     # [P, N]
    near[:, ~near.any(0)] = True
    centre = _masked_means(px, near)                       # [3, N]
    e = px - centre[:, None, :]
    e *= e
    d = np.sqrt(e[0] + e[1] + e[2])
    return _masked_means(px, d < 2.0 * bin_size).T


def _box_sum(h: np.ndarray, d0: int, d1: int, d2: int) -> np.ndarray:
    """The histogram ``h`` (``float64[d0 * d1 * d2]``, C order) smoothed by the 3 x 3 x 3 box sum (each bin plus its
    26 neighbours, 0 beyond the ends) with ``cv2.boxFilter``: along the last two axes, then the first;
    ``float64[d0, d1 * d2]``."""
    h = cv2.boxFilter(h.reshape(d0 * d1, d2), -1, (3, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)
    return cv2.boxFilter(h.reshape(d0, d1 * d2), -1, (1, 3), normalize=False, borderType=cv2.BORDER_CONSTANT)


#: Offsets (axis 0, 1, 2) of a histogram bin's 27 neighbours, itself included.
_NEIGHBOURS = np.array([(a, b, c) for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)], np.int64)


def _box_sum_sparse(h: np.ndarray, key: np.ndarray, d1: int, d2: int) -> np.ndarray:
    """:func:`_box_sum` of a histogram ``h`` (``float64[B]``, C order over ``(B / (d1 d2), d1, d2)`` bins) whose
    occupied bins are those of ``key`` (``int[S]``, the pixels' bins), each away from the ends of every axis (so no
    neighbour wraps): each occupied bin added to its 27 neighbours in one ``np.bincount``, instead of filtering every
    empty bin of the volume (most of it: a patch's pixels lie on a thin surface of colour space). ``float64[B]``.
    The numbers are the box filter's to the bit where every sum of the weights is exact (:func:`sums_exact`): then
    no order of the additions rounds."""
    mark = np.zeros(len(h), bool)
    mark[key] = True
    occ = np.flatnonzero(mark)                                # the occupied bins, in order (np.unique's, unsorted)
    near = occ[:, None] + _NEIGHBOURS @ np.array([d1 * d2, d2, 1], np.int64)
    return np.bincount(near.reshape(-1), np.repeat(h[occ], len(_NEIGHBOURS)), minlength=len(h))


def sums_exact(weights: np.ndarray | None) -> bool:
    """Whether every sum of some of ``weights`` (``float[S]`` or ``int[S]``; None: each pixel counts 1) is exact in
    float64, whatever the order of the additions and subtractions: whole numbers, or floats that float32 holds
    exactly (each a whole multiple of ``2**(e - 24)``, ``e`` the binary exponent of the smallest one not 0) whose
    absolute sum stays under ``2**52`` such steps. Rim weights (:func:`rim_weights`: float32, 0 or at least 0.3,
    summing to a few thousand) are so. Raises nothing: NaN, an infinity, or float64 weights float32 does not hold,
    give False."""
    if weights is None:
        return True
    w = np.asarray(weights)
    if w.dtype.kind in "biu":
        return float(np.abs(w.astype(np.float64)).sum()) < 2.0 ** 52
    if w.dtype.kind != "f":
        return False
    with np.errstate(over="ignore", invalid="ignore"):
        w32 = w.astype(np.float32)
    if not np.isfinite(w32).all() or not np.array_equal(w32, w):
        return False
    nz = np.abs(w32[w32 != 0]).astype(np.float64)
    if len(nz) == 0:
        return True
    _, e = np.frexp(nz.min())                                  # the smallest is m 2**e, 0.5 <= m < 1
    return bool(float(nz.sum()) < np.ldexp(1.0, 52 + int(e) - 24))


def _masked_means(px: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``[3, N]`` means of ``px`` ``[3, P, N]`` over the pixels of ``mask`` ``bool[P, N]``, as numpy's ``mean(0)``
    of each patch's ``[M, 3]`` pixels gives them: summed pixel by pixel in ``px``'s dtype, divided in float64."""
    if px.shape[2] == 1:  # one patch: numpy would sum a lone column pairwise, so as mean(0) of its pixels
        return px[:, :, 0].T[mask[:, 0]].mean(0)[:, None]
    s = np.where(mask, px, px.dtype.type(0)).sum(1)
    return (s.astype(np.float64) / mask.sum(0)).astype(px.dtype)


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


#: Side (px) of the patch a candidate is cut upright at to find its top face (:func:`refine_tops`).
REFINE_SIZE = 48


def refine_top(frame: np.ndarray, rect: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Top face of one candidate: (rect float[5] in frame px, body log-RGB float[3]) (:func:`refine_tops`)."""
    rects, bodies = refine_tops(frame, np.asarray(rect, np.float64)[None], config)
    return rects[0], bodies[0]


def refine_tops(frame: np.ndarray, rects: np.ndarray, config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray]:
    """Top faces of candidates ``float[N, 5]`` (cx, cy, w, h, angle deg; frame px): (rects ``float[N, 5]`` frame
    px, bodies log-RGB ``float[N, 3]``).

    Each candidate is cut upright at 1.3x its side, its body colour found (all candidates' at once,
    :func:`body_colours`), the pixels within ``top_colour_dist`` of it (holes filled) taken as the top face,
    and its rotated rect returned (the candidate's own rect when no good face is found)."""
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    n, size = len(rects), REFINE_SIZE
    if n == 0:
        return np.zeros((0, 5)), np.zeros((0, 3))
    patches = np.stack([upright_patch(frame, cx, cy, max(w, h) * 1.3, ang, size, 0) for cx, cy, w, h, ang in rects])
    logp = to_log(patches, config)
    bodies = body_colours(logp, weights=rim_weights(size, size / 1.3))
    dist = np.sqrt(channel_sum((logp - bodies[:, None, None, :]) ** 2))  # float32[N, size, size], as one patch's
    out = np.array([_refined(dist[i], rects[i], config) for i in range(n)], np.float64).reshape(n, 5)
    return out, bodies.astype(np.float64)


def _refined(dist: np.ndarray, rect: np.ndarray, config: RollDiceConfig) -> np.ndarray:
    """:func:`refine_tops` of one candidate, from the log-RGB distance of its upright patch to its body colour."""
    cx, cy, w, h, ang = rect
    side = max(w, h)
    size = REFINE_SIZE
    c0 = size // 2
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
        return np.asarray(rect, np.float64)
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
        return np.asarray(rect, np.float64)
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
        return np.asarray(rect, np.float64)
    return np.array([fx, fy, pw, ph, ang + pang], np.float64)


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
        body = body_colours(logp, weights=weights)
    else:
        body = np.asarray(bodies, np.float64).reshape(n, 3)
    diff = logp - body[:, None, None, :]
    bright = (diff @ LOG_RGB_BASIS[2]).astype(np.float32)
    chroma = np.sqrt(channel_sum((diff @ LOG_RGB_BASIS[:2].T) ** 2)).astype(np.float32)
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
    if config.refine_by_colour:
        rects[:], bodies[:] = refine_tops(frame, candidates.rects, config)
    else:
        rects[:] = np.asarray(candidates.rects, np.float64).reshape(n, 5)
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
    inks.setflags(write=False)   # the faces' ink no stage changes: its per-face measures are kept (memo.py)
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
