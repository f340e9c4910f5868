"""Stage 6b of the Roll dice reader: die candidates from the square outlines the colour edges draw at the die size
chosen, wherever the foreground lies.

The foreground (:mod:`vision.roll_dice.foreground`) takes a die for table where its body is of the table's colour (a
brown die on wood, a red die on a dark board) or where the table model fails (a printed mat, a cloth it cannot
model): no face core lies on such a die at any size, and the recut has nothing to cut
(:func:`vision.roll_dice.candidates.recut_candidates`). The die's top face still has its outline in the colour edges
(:func:`vision.roll_dice.candidates.edge_map`), but with gaps into the table, so no region of the edges closes round
it. A square of the die's side laid on the edges still finds it: the mean distance from the square's four sides to
the nearest edge (a chamfer distance, capped) stays small across a gap of a few pixels.

Costs are bounded: the distance is measured on a half-size copy of the edges, at ``square_angles`` turns of the
square (a square repeats every quarter turn), with box filters along the sides of the turned map; of the best
``square_pool`` places farther than ``duplicate_dist`` x the side from every face already found, the ``square_max``
that look most like a die's top (:func:`square_looks`) become candidates.

On a gingham, wood or a printed board hundreds of places fit a square as well as a die does; what tells a die's top
from them is measured on a small upright patch of each (:func:`square_looks`): its outline is drawn in the edges all
round, its symbol's ink stands out of its body colour in its middle (a check of a cloth or a stripe of a plank between
two grain lines is flat there), and its colour steps to the table's across at least three of its sides (the grain's
stripes run on across two sides of a square laid on them; a die pressed against another may lose one side).
"""

from __future__ import annotations

import cv2
import numpy as np

from .assemble import _ramp
from .config import RollDiceConfig
from .observations import Candidates

__all__ = ["square_candidates", "square_distances", "square_looks"]

#: side (px) of the upright patch a place is looked at in, and of the square in its middle
_PATCH, _SIDE = 32, 16
_CHEB = np.maximum(*np.abs(np.mgrid[0:_PATCH, 0:_PATCH] + 0.5 - _PATCH / 2.0)) / (_SIDE / 2.0)   # 1 on the outline
_RING = np.nonzero((_CHEB >= 0.55) & (_CHEB < 0.85))


def square_distances(edges: np.ndarray, side: float,
                     config: RollDiceConfig) -> tuple[np.ndarray, np.ndarray, int, float]:
    """(``float32[h', w']``: at each place of a copy of ``edges`` shrunk ``square_shrink`` times, the least mean
    distance (shrunk px, capped at ``square_cap``) from the four sides of a square of ``side`` work px centred there
    to the nearest edge pixel, over ``square_angles`` turns of the square in 0..90 degrees; ``float32[h', w']``: the
    turn (degrees, as :func:`cv2.boxPoints` turns a rect) of that square; the shrink factor; how far (shrunk px,
    along both of the turned square's axes) the square's centre lies from the place: 0 or 0.5, a square of an odd
    number of pixels has no middle pixel).

    Each side is measured over its middle ``square_span`` (a die's corners are rounded). ``edges``: ``uint8[h, w]``
    0/255 work px; ``side`` > 0. A place whose square reaches past the frame counts the outside as ``square_cap``
    away. Raises ``ValueError`` for an empty map or a side that is not a positive finite number."""
    if edges.size == 0 or edges.ndim != 2:
        raise ValueError(f"square_distances needs a 2-D edge map, got shape {edges.shape}")
    if not (np.isfinite(side) and side > 0):
        raise ValueError(f"a die side is a positive number of pixels, got {side!r}")
    k = max(1, int(config.square_shrink))
    h0, w0 = edges.shape
    e = edges
    if k > 1:
        e = cv2.resize(edges, (max(1, w0 // k), max(1, h0 // k)), interpolation=cv2.INTER_AREA)
        e = np.where(e > 0, 0, 255).astype(np.uint8)      # any edge pixel in the block marks it: zero distance
    else:
        e = cv2.bitwise_not(edges)
    cap = float(config.square_cap)
    dist = cv2.distanceTransform(e, cv2.DIST_L2, 3)
    np.minimum(dist, cap, out=dist)
    h, w = dist.shape
    s = side / k
    span = max(3, int(round(s * config.square_span)) | 1)
    lo = max(1, int(np.floor(s / 2.0)))                   # the sides lo above and hi below (left, right) of a place:
    hi = max(1, int(round(s)) - lo)                       # a square of side lo + hi, centred (hi - lo) / 2 px on
    o = lo + hi
    big = int(np.ceil(np.hypot(h, w))) + 2 * o + 2          # the turned map holds the whole frame and its margin
    best = np.full((h, w), np.inf, np.float32)
    turn = np.zeros((h, w), np.float32)
    mean = np.full((big, big), cap, np.float32)             # cap outside the part of the turned map measured
    # The turned map is ``cap`` beyond the turned frame's bounding box (and a pixel of interpolation), so the sides'
    # means are worked out only inside that box grown by the square's reach (``o``) and a side's half span; the box
    # filters' sums are exact there (float32 distances summed in doubles), so the numbers are the same to the bit as
    # over the whole turned map.
    reach = o + span // 2 + 2
    n = max(1, int(config.square_angles))
    for a in range(n):
        angle = 90.0 * a / n
        m = cv2.getRotationMatrix2D((w / 2.0, h / 2.0), angle, 1.0)
        m[:, 2] += ((big - w) / 2.0, (big - h) / 2.0)
        turned = cv2.warpAffine(dist, m, (big, big), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=cap)
        corners = m[:, :2] @ np.array([[0.0, w, 0.0, w], [0.0, 0.0, h, h]]) + m[:, 2:]
        x0, y0 = (max(0, int(np.floor(v)) - reach) for v in corners.min(1))
        x1, y1 = (min(big, int(np.ceil(v)) + 1 + reach) for v in corners.max(1))
        part = turned[y0:y1, x0:x1]
        ph, pw = part.shape
        across = cv2.blur(part, (span, 1), borderType=cv2.BORDER_REPLICATE)   # a side along x, centred
        down = cv2.blur(part, (1, span), borderType=cv2.BORDER_REPLICATE)     # a side along y, centred
        ys, xs = slice(o, ph - o), slice(o, pw - o)
        out = mean[y0 + o:y1 - o, x0 + o:x1 - o]
        cv2.add(across[o - lo:ph - o - lo, xs], across[o + hi:ph - o + hi, xs], dst=out)   # the sides above, below
        cv2.add(out, down[ys, o - lo:pw - o - lo], dst=out)                               # left
        cv2.add(out, down[ys, o + hi:pw - o + hi], dst=out)                               # right
        cv2.multiply(out, 0.25, dst=out)
        back = cv2.warpAffine(mean, cv2.invertAffineTransform(m), (w, h), flags=cv2.INTER_NEAREST,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=cap)
        better = back < best
        np.copyto(best, back, where=better)
        turn[better] = angle
    return best, turn, k, (hi - lo) / 2.0


def square_looks(frame: np.ndarray, edges: np.ndarray, scale: float, rects: np.ndarray,
                 config: RollDiceConfig) -> np.ndarray:
    """How much each square looks like a die's top, ``float[N]`` 0..1: the product of the ramps of its outline
    (``square_outline_ramp`` of the share of edge pixels within 1/8 half side of its outline), of its ink
    (``square_ink_ramp`` of the 90th percentile, over its middle half side, of the CIELAB distance to the median
    colour of the band 0.55-0.85 half sides from its centre: a die's body round its symbol) and of its sides
    (``square_sides_ramp`` of the second smallest of the four CIELAB distances between the mean colours of the strips
    1/8-3/8 half sides inside and outside each side, over each side's middle half).

    Each square is turned upright and scaled to a side of 16 px in a 32 px patch (frame and edges alike), so the
    cost is a small fixed amount a square. ``frame``: ``uint8[H, W, 3]`` BGR; ``edges``: ``uint8[h, w]`` 0/255 work px
    (``scale`` frame-to-work); ``rects``: ``float[N, 5]`` (cx, cy, w, h, angle deg; frame px, w the side). A square
    reaching past the frame sees the border's pixels repeated. CIELAB: L 0..100, a and b 0 for a grey.
    Raises ``ValueError`` for a frame that is not BGR or rects not of shape ``[N, 5]``."""
    if frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"square_looks needs a BGR frame, got shape {frame.shape}")
    rects = np.asarray(rects, np.float64)
    if rects.ndim != 2 or rects.shape[1] != 5:
        raise ValueError(f"square_looks needs rects of shape [N, 5], got {rects.shape}")
    n = len(rects)
    if n == 0:
        return np.zeros(0)
    colour = np.empty((n, _PATCH, _PATCH, 3), np.uint8)
    edge = np.empty((n, _PATCH, _PATCH), np.uint8)
    # cv2.getRotationMatrix2D about each centre, scaled to the patch's square, the centre moved to the patch's
    cx, cy = rects[:, 0], rects[:, 1]
    k = _SIDE / np.maximum(rects[:, 2], 1.0)
    t = np.radians(rects[:, 4])
    al, be = k * np.cos(t), k * np.sin(t)
    m = np.stack([np.stack([al, be, _PATCH / 2.0 - al * cx - be * cy], 1),
                  np.stack([-be, al, _PATCH / 2.0 + be * cx - al * cy], 1)], 1)
    w = m.copy()
    w[:, :, :2] /= scale                                  # work px in, the same patch out
    size = (_PATCH, _PATCH)
    for i in range(n):
        cv2.warpAffine(frame, m[i], size, dst=colour[i], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        cv2.warpAffine(edges, w[i], size, dst=edge[i], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab8 = cv2.cvtColor(colour.reshape(n * _PATCH, _PATCH, 3), cv2.COLOR_BGR2Lab).reshape(colour.shape)

    def lab(part: np.ndarray) -> np.ndarray:
        """CIELAB of a part of the patches: OpenCV's 8-bit has L x 255/100, a and b + 128."""
        return part.astype(np.float32) * np.float32((100.0 / 255.0, 1.0, 1.0)) - np.float32((0.0, 128.0, 128.0))

    e = edge.astype(np.float32)
    c, h = _PATCH // 2, _SIDE // 2
    # the outline's band (7/8-9/8 half sides from the centre, Chebyshev): the square of 9/8 less that of 7/8
    far, near = h * 9 // 8, h * 7 // 8
    outline = (e[:, c - far:c + far, c - far:c + far].sum((1, 2)) - e[:, c - near:c + near, c - near:c + near].sum(
        (1, 2))) / (255.0 * ((2 * far) ** 2 - (2 * near) ** 2))
    q = h // 2                                            # the middle: within half a half side of the centre
    middle = lab(lab8[:, c - q:c + q, c - q:c + q]).reshape(n, -1, 3)
    body = np.median(lab(lab8[:, _RING[0], _RING[1]]), axis=1)  # the band round the middle, 0.55-0.85 half sides
    ink = np.percentile(np.linalg.norm(middle - body[:, None, :], axis=2), 90, axis=1)
    a, b = c - h // 2, c + h // 2                          # each side's middle half; strips 1/8-3/8 half sides off it
    d0, d1 = max(1, h // 8), max(2, h * 3 // 8)
    steps = []
    for rows_in, rows_out in ((slice(c - h + d0, c - h + d1), slice(c - h - d1, c - h - d0)),
                              (slice(c + h - d1, c + h - d0), slice(c + h + d0, c + h + d1))):
        steps.append(lab(lab8[:, rows_in, a:b]).mean((1, 2)) - lab(lab8[:, rows_out, a:b]).mean((1, 2)))  # top, bottom
        steps.append(lab(lab8[:, a:b, rows_in]).mean((1, 2)) - lab(lab8[:, a:b, rows_out]).mean((1, 2)))  # left, right
    sides = np.sort(np.linalg.norm(np.stack(steps, 1), axis=2), axis=1)[:, 1]
    return (_ramp(outline, config.square_outline_ramp) * _ramp(ink, config.square_ink_ramp)
            * _ramp(sides, config.square_sides_ramp))


def square_candidates(edges: np.ndarray, scale: float, side: float, config: RollDiceConfig,
                      away: np.ndarray | None = None, frame: np.ndarray | None = None) -> Candidates:
    """Die candidates (rotated rects in frame px) where a square of ``side`` work px lies on the colour ``edges``
    (:func:`square_distances` at most ``square_fit`` at a local least within ``square_nms`` x the side) farther than
    ``duplicate_dist`` x the side from the centre of each of ``away`` (``float[M, 5]`` frame px rects: the faces
    already found): with ``frame`` (``uint8[H, W, 3]`` BGR), of the best ``square_pool`` of them (the smallest
    distances first) the ``square_max`` that look most like a die's top (:func:`square_looks`, at least
    ``square_look_min``; the smaller distance first among equals); without it, the best ``square_max`` by distance.
    Each one's die score is ``1`` up to half ``square_fit`` falling to 0.5 at ``square_fit``.

    A cloth's check, a board's printed box or a tile's frame draws a square too: these candidates are for the caller
    to test as the recut's are (only a plain symbol of the owner's dice makes one a die). ``edges``: ``uint8[h, w]``
    0/255 work px (``scale`` frame-to-work); ``square_max`` 0 or a side that is not a positive finite number: none.
    Raises nothing."""
    none = Candidates(np.zeros((0, 5)), np.zeros(0), scale)
    if config.square_max <= 0 or edges.size == 0 or edges.ndim != 2 or not (np.isfinite(side) and side > 2):
        return none
    best, turn, k, half = square_distances(edges, side, config)
    fit = float(config.square_fit)
    win = max(3, int(round(side / k * config.square_nms)) | 1)
    least = (best <= fit) & (best <= cv2.erode(best, np.ones((win, win), np.uint8)))
    if not least.any():
        return none
    n, _, stats, centres = cv2.connectedComponentsWithStats(least.astype(np.uint8), connectivity=8)
    ys = np.clip(np.round(centres[1:, 1]).astype(int), 0, best.shape[0] - 1)
    xs = np.clip(np.round(centres[1:, 0]).astype(int), 0, best.shape[1] - 1)
    dist = best[ys, xs]
    theta = np.radians(turn[ys, xs])
    dx = half * (np.cos(theta) - np.sin(theta))           # the square's centre off its place, turned back
    dy = half * (np.sin(theta) + np.cos(theta))
    x = ((centres[1:, 0] + dx) * k + (k - 1) / 2.0) / scale   # a shrunk pixel's centre in work px, then frame px
    y = ((centres[1:, 1] + dy) * k + (k - 1) / 2.0) / scale
    s = side / scale
    keep = np.ones(len(x), bool)
    if away is not None and len(away):
        other = np.sqrt(np.abs(away[:, 2] * away[:, 3]))[None, :]
        d = np.hypot(x[:, None] - away[None, :, 0], y[:, None] - away[None, :, 1])
        keep = (d > config.duplicate_dist * np.minimum(s, other)).all(1)
    order = np.argsort(dist, kind="stable")
    order = order[keep[order]]
    pool = config.square_max if frame is None else max(config.square_max, int(config.square_pool))
    ox, oy = x[order], y[order]
    apart = np.ones(len(order), bool)                 # one candidate per place: a plateau's neighbours are one
    chosen: list[int] = []
    for j in range(len(order)):
        if not apart[j]:
            continue
        chosen.append(int(order[j]))
        if len(chosen) >= pool:
            break
        apart[j + 1:] &= np.hypot(ox[j + 1:] - ox[j], oy[j + 1:] - oy[j]) > config.duplicate_dist * s
    if not chosen:
        return none
    idx = np.array(chosen)
    # the square turned by ``angle`` on the turned map is a rect of that angle (cv2.boxPoints' degrees)
    rects = np.stack([x[idx], y[idx], np.full(len(idx), s), np.full(len(idx), s), turn[ys[idx], xs[idx]]], axis=1)
    if frame is not None:
        looks = square_looks(frame, edges, scale, rects, config)
        best_first = np.argsort(-looks, kind="stable")   # ``idx`` is by distance: the smaller first among equals
        best_first = best_first[looks[best_first] >= config.square_look_min][:config.square_max]
        if len(best_first) == 0:
            return none
        idx, rects = idx[best_first], rects[best_first]
    scores = np.clip(1.5 - dist[idx] / fit, 0.0, 1.0) if fit > 0 else np.ones(len(idx))
    return Candidates(rects.astype(np.float64), scores.astype(np.float64), scale)
