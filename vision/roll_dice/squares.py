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
square (a square repeats every quarter turn), with box filters along the sides of the turned map; only the best
``square_max`` places farther than ``duplicate_dist`` x the side from every face already found become candidates.
"""

from __future__ import annotations

import cv2
import numpy as np

from .config import RollDiceConfig
from .observations import Candidates

__all__ = ["square_candidates", "square_distances"]


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


def square_candidates(edges: np.ndarray, scale: float, side: float, config: RollDiceConfig,
                      away: np.ndarray | None = None) -> Candidates:
    """Die candidates (rotated rects in frame px) where a square of ``side`` work px lies on the colour ``edges``
    (:func:`square_distances` at most ``square_fit`` at a local least within ``square_nms`` x the side): the best
    ``square_max`` of them (the smallest distances first) farther than ``duplicate_dist`` x the side from the centre
    of each of ``away`` (``float[M, 5]`` frame px rects: the faces already found), each one's die score
    ``1`` up to half ``square_fit`` falling to 0.5 at ``square_fit``.

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
    order = [i for i in np.argsort(dist, kind="stable").tolist() if keep[i]]
    chosen: list[int] = []
    for i in order:                                   # one candidate per place: a plateau's neighbours are one
        if all(np.hypot(x[i] - x[j], y[i] - y[j]) > config.duplicate_dist * s for j in chosen):
            chosen.append(i)
        if len(chosen) >= config.square_max:
            break
    if not chosen:
        return none
    idx = np.array(chosen)
    # the square turned by ``angle`` on the turned map is a rect of that angle (cv2.boxPoints' degrees)
    rects = np.stack([x[idx], y[idx], np.full(len(idx), s), np.full(len(idx), s), turn[ys[idx], xs[idx]]], axis=1)
    scores = np.clip(1.5 - dist[idx] / fit, 0.0, 1.0) if fit > 0 else np.ones(len(idx))
    return Candidates(rects.astype(np.float64), scores.astype(np.float64), scale)
