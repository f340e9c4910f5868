"""A card's straight edges: how strongly the image changes across each side of its quad, and the quad fitted to them.

:func:`edge_profiles` samples the grey-level derivative across each side of a quad, moved along its outward normal
and turned a few degrees, and takes the median along the side: a card's own straight edge is a peak whatever the
art beside it. :func:`edge_profiles_many` does that for many quads in one remap; :func:`quads_from_sides` meets
sides moved and turned so into quads; :func:`edge_fitted` moves each side of a card's outline to its strongest edge
nearby and keeps that outline when the deck reads it as the same card, closer (used by :mod:`vision.card_match`'s
second look).

Units: pixels of the image the quads are given in; quads are float[4, 2], clockwise from the card's top-left
(:func:`vision.quads.order_quad`); angles in degrees. ``cfg`` is a :class:`vision.card_match.RefineConfig`
(``search_frac``, ``step_frac``, ``side_trim``, ``samples``, ``angles_deg``, ``fit_frac``).
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .deck import DeckProfile
from .quads import rectify

if TYPE_CHECKING:
    from .card_match import RefineConfig

__all__ = ["edge_fitted", "edge_profiles", "edge_profiles_many", "gradients", "quads_from_sides", "side_frame",
           "side_frames"]


def side_frame(q: np.ndarray, k: int,
                centre: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """(midpoint, unit direction from corner k to k + 1, unit outward normal, length) of side k (``centre``: the
    quad's mean corner when the caller has it)."""
    a, b = q[k], q[(k + 1) % 4]
    v = b - a
    L = math.sqrt(v.dot(v))          # np.linalg.norm of one vector: the square root of its dot product
    d = v / max(L, 1e-9)
    n = np.array([d[1], -d[0]])
    m = (a + b) / 2
    if (m - (q.mean(axis=0) if centre is None else centre)).dot(n) < 0:
        n = -n
    return m, d, n, L


def side_frames(q: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]:
    """:func:`side_frame` of each of the 4 sides of the ordered quad ``q``."""
    c = q.mean(axis=0)
    return [side_frame(q, k, c) for k in range(4)]


def gradients(gray: np.ndarray, quad: np.ndarray, cfg: RefineConfig) -> tuple[np.ndarray, np.ndarray, int, int]:
    """(d/dx, d/dy float32 of the lightly blurred ``gray`` around ``quad`` with room for the search, x0, y0
    of that region in ``gray``)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short = float(min(sides))
    pad = int(np.ceil(cfg.search_frac * short + 0.1 * max(sides) + 4))
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    H, W = gray.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    roi = gray[y0:y1, x0:x1].astype(np.float32)
    roi = cv2.GaussianBlur(roi, (0, 0), max(0.7, 0.004 * short))
    gx = cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return gx, gy, int(x0), int(y0)


def edge_profiles(gray: np.ndarray | None, quad: np.ndarray, cfg: RefineConfig | None = None,
                  grads: tuple[np.ndarray, np.ndarray, int, int] | None = None,
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge strength across each side of ``quad``, for the side moved along its normal and slightly turned.

    Args:
        gray: float32[H, W] grey image (any scale of grey levels); None when ``grads`` is given.
        quad: float[4, 2] ordered pixel corners; side k runs from corner k to corner k + 1.
        grads: the gradients around the quad from an earlier call (``gradients``), else computed here.

    Returns:
        (offsets float[O] in pixels along each side's outward normal, angles float[A] in degrees,
        strength float[4, A, O]: the median over points of the side of the absolute grey-level derivative
        across the side's line turned by the angle about its midpoint and moved by the offset).
    """
    if cfg is None:
        from .card_match import RefineConfig  # the second look's settings (that module imports this one)
        cfg = RefineConfig()
    q = np.asarray(quad, np.float64).reshape(4, 2)
    return edge_profiles_many([q], grads if grads is not None else gradients(gray, q, cfg), cfg)[0]


def edge_profiles_many(quads: list[np.ndarray], grads: tuple[np.ndarray, np.ndarray, int, int],
                       cfg: RefineConfig) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """:func:`edge_profiles` of each quad (float[4, 2] px) in the region of ``grads`` (``gradients``): the same
    numbers, the points of every quad with as many offsets sampled in one remap and one median."""
    geo = [_profile_points(np.asarray(q, np.float64).reshape(4, 2), cfg) for q in quads]
    gx, gy, x0, y0 = grads
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray] | None] = [None] * len(quads)
    groups: dict[int, list[int]] = {}
    for k, (offs, _, _, _) in enumerate(geo):
        groups.setdefault(len(offs), []).append(k)
    for n_offs, idx in groups.items():
        P = np.concatenate([geo[k][3] for k in idx])                                   # [4 q, A, S, O, 2]
        mx = (P[..., 0] - x0).astype(np.float32).reshape(-1, n_offs)  # every quad, side and angle: one remap
        my = (P[..., 1] - y0).astype(np.float32).reshape(-1, n_offs)
        sx = cv2.remap(gx, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        sy = cv2.remap(gy, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        shape = P.shape[:-1]
        na = np.concatenate([geo[k][2] for k in idx])                                  # [4 q, A, 2]
        across = np.abs(sx.reshape(shape) * na[:, :, None, None, 0] + sy.reshape(shape) * na[:, :, None, None, 1])
        med = _median_axis2(across)                                                    # [4 q, A, O]
        for j, k in enumerate(idx):
            out[k] = (geo[k][0], geo[k][1], med[4 * j:4 * j + 4])
    return out


def _median_axis2(a: np.ndarray) -> np.ndarray:
    """float32: ``np.median(a, axis=2).astype(np.float32)`` of ``a`` float[., ., S, ...] (finite values), the same
    numbers: the middle one, or the mean of the middle two, of each run sorted (a sort of a few dozen values is
    several times cheaper than the median's partial sort along a middle axis)."""
    n = a.shape[2]
    s = np.sort(a, axis=2)
    if n % 2:
        return s[:, :, n // 2].astype(np.float32)
    return ((s[:, :, n // 2 - 1] + s[:, :, n // 2]) / 2).astype(np.float32)


def _profile_points(q: np.ndarray, cfg: RefineConfig) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(offsets float[O] px, angles float[A] deg, each side's turned outward normal float[4, A, 2], the points
    sampled float[4, A, S, O, 2] px) of :func:`edge_profiles` for the ordered quad ``q`` float[4, 2]."""
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    short = float(min(sides))
    r = cfg.search_frac * short
    step = max(0.5, cfg.step_frac * short)
    offs = np.arange(-r, r + 1e-9, step)
    angles = np.asarray(cfg.angles_deg, np.float64)
    t = cfg.side_trim + (1 - 2 * cfg.side_trim) * (np.arange(cfg.samples) + 0.5) / cfg.samples - 0.5
    rad = np.radians(angles)
    ca, sa = np.cos(rad)[None, :, None], np.sin(rad)[None, :, None]                     # [1, A, 1]
    frames = side_frames(q)
    m = np.array([f[0] for f in frames])[:, None, :]                                    # [4, 1, 2]
    d = np.array([f[1] for f in frames])[:, None, :]
    n = np.array([f[2] for f in frames])[:, None, :]
    L = np.array([f[3] for f in frames])[:, None, None]
    da = np.concatenate([ca * d[..., :1] - sa * d[..., 1:], sa * d[..., :1] + ca * d[..., 1:]], axis=2)   # [4, A, 2]
    na = np.concatenate([ca * n[..., :1] - sa * n[..., 1:], sa * n[..., :1] + ca * n[..., 1:]], axis=2)
    pts = m[:, :, None, :] + (L[..., None] * t[None, None, :, None]) * da[:, :, None, :]  # [4, A, S, 2]
    P = pts[:, :, :, None, :] + offs[None, None, None, :, None] * na[:, :, None, None, :]  # [4, A, S, O, 2]
    return offs, angles, na, P


def quads_from_sides(frames: list[list[tuple]], offsets: np.ndarray,
                      angles_deg: np.ndarray) -> list[np.ndarray | None]:
    """Per quad i, the quad whose side k is side k of the quad of ``frames[i]`` (its 4 :func:`side_frame`) turned by
    ``angles_deg[i, k]`` about its midpoint and moved ``offsets[i, k]`` px outwards; corner k = where sides k - 1 and
    k meet (None when two sides are parallel). Every side and corner of every quad at once, each the arithmetic of
    one side turned and one pair of lines met (np.linalg's 2 x 2 determinant and solve, per matrix)."""
    n = len(frames)
    if n == 0:
        return []
    rad = {float(a): np.radians(a) for a in np.unique(angles_deg)}
    trig = {a: (np.cos(r), np.sin(r)) for a, r in rad.items()}              # each angle's as one scalar call
    ca = np.array([[trig[float(a)][0] for a in row] for row in angles_deg], np.float64)    # [n, 4]
    sa = np.array([[trig[float(a)][1] for a in row] for row in angles_deg], np.float64)
    m = np.array([[f[0] for f in fr] for fr in frames], np.float64)                        # [n, 4, 2]
    d = np.array([[f[1] for f in fr] for fr in frames], np.float64)
    nn = np.array([[f[2] for f in fr] for fr in frames], np.float64)
    da = np.stack([ca * d[..., 0] - sa * d[..., 1], sa * d[..., 0] + ca * d[..., 1]], axis=-1)
    na = np.stack([ca * nn[..., 0] - sa * nn[..., 1], sa * nn[..., 0] + ca * nn[..., 1]], axis=-1)
    p = m + np.asarray(offsets, np.float64)[..., None] * na                               # a point of each side
    p1, d1 = np.roll(p, 1, axis=1), np.roll(da, 1, axis=1)                                 # side k - 1
    A = np.stack([np.stack([d1[..., 0], -da[..., 0]], axis=-1), np.stack([d1[..., 1], -da[..., 1]], axis=-1)],
                 axis=-2)                                                                  # [n, 4, 2, 2]
    ok = np.abs(np.linalg.det(A)) >= 1e-9
    corners = np.full((n, 4, 2), np.nan)
    if ok.any():
        sol = np.linalg.solve(A[ok], (p - p1)[ok][..., None])[..., 0]
        corners[ok] = p1[ok] + sol[:, :1] * d1[ok]
    return [corners[i].copy() if ok[i].all() else None for i in range(n)]


def _grey_gradients(frame: np.ndarray, quad: np.ndarray, cfg: RefineConfig) -> tuple[np.ndarray, np.ndarray, int, int]:
    """:func:`gradients` of ``frame`` (uint8[H, W, 3] BGR) in grey around ``quad`` (float[4, 2] px), only that region
    turned grey (the same numbers as the whole frame turned grey: the region and its blur are the same)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    pad = int(np.ceil(cfg.search_frac * float(min(sides)) + 0.1 * max(sides) + 4))
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    H, W = frame.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
    if x1 <= x0 or y1 <= y0:   # the quad wholly off the frame: the region is empty either way
        return gradients(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), q, cfg)
    gx, gy, rx, ry = gradients(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY), q - (x0, y0), cfg)
    return gx, gy, int(x0) + rx, int(y0) + ry


def edge_fitted(deck: DeckProfile, frame: np.ndarray, reads: list[tuple], mirrored: bool, cfg: RefineConfig,
                crop_wh: tuple[int, int]) -> list[tuple]:
    """Each card's ``read`` (its :meth:`vision.deck.DeckProfile.score`, quad float[4, 2] px of ``frame`` uint8[H, W, 3]
    BGR and crop ``crop_wh`` px, as read: not flipped) with each side moved to its strongest edge of ``frame`` in grey
    within ``fit_frac`` of the card's short side and turned by up to a degree (:func:`edge_profiles`): (score, quad,
    crop) of that outline when the deck reads it as the same card, closer; else the read as given (every one when
    ``fit_frac`` is 0). A card-sized place centred by its content is within a pixel or so of the card; its own
    straight edges say where within it. A card any of whose sides has its strongest edge at either end of the search
    keeps its read, its outline not scored: that edge was not found within reach (the profile still rising beyond
    it: the card's art or a neighbour, not its own edge). On layouts 100-109 of ``bench/card_table_ab.py`` (Race for the
    Galaxy and Roll for the Galaxy, calibrated) 58 of 71 fits were such, every one read farther than the place
    (refused), and 5 of the other 13 were kept.

    The outlines of all the cards are scored together (:meth:`vision.deck.DeckProfile.score_many`, flipped first when
    ``mirrored``): each card's outline and decision are its own, the distances those of one crop scored alone to
    float rounding (about 1e-6)."""
    out = list(reads)
    if cfg.fit_frac <= 0 or not reads:
        return out
    near = dataclasses.replace(cfg, search_frac=cfg.fit_frac, angles_deg=(-1.0, 0.0, 1.0))
    fits: list[tuple[int, np.ndarray, np.ndarray]] = []
    for j, read in enumerate(reads):
        q = np.asarray(read[1], np.float64)
        offs, angles, P = edge_profiles(None, q, near, _grey_gradients(frame, q, near))
        S, best_a = P.max(axis=1), P.argmax(axis=1)
        pk = S.argmax(axis=1)
        if ((pk == 0) | (pk == len(offs) - 1)).any():
            continue   # a side's strongest edge at the end of the search: no edge of the card within reach
        nq = quads_from_sides([side_frames(q)], offs[pk][None], angles[best_a[np.arange(4), pk]][None])[0]
        if nq is not None and np.isfinite(nq).all():
            fits.append((j, nq, rectify(frame, nq, *crop_wh)))
    if not fits:
        return out
    got = deck.score_many([cv2.flip(c, 1) if mirrored else c for _, _, c in fits])
    for (j, nq, crop), s in zip(fits, got, strict=True):
        if s[0] == reads[j][0][0] and s[1] < reads[j][0][1]:
            out[j] = (s, nq, crop)
    return out
