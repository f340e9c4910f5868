"""Stages 2-3 of the hex reader: the foreground (the cards' table-colour model, small holes filled), then per
connected blob the hex lattice: its angle (structure-tensor orientations mod 60 degrees), its offset (a
hex-outline response folded modulo the lattice), and every lattice cell whose hexagon is foreground with
enough crisp sides. :func:`find_hexes` runs them, then the outline stages (:mod:`.outline`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..card_detect import foreground_mask
from ..raster import rotation_canvas, shift
from ..timing import timed_stage
from .config import HexesConfig
from .geometry import EDGE_NORMAL_DEG, SQRT3, HexCandidate, hexagon
from .outline import grow_hexes, outline_maps, refine_hexes, weakest_first

__all__ = ["BlobLattice", "UprightBlob", "blob_angles", "blob_hexes", "blob_lattice", "centre_response",
           "edge_maps", "fill_small_holes", "find_hexes", "lattice_angle", "lattice_angles", "lattice_scale",
           "lattice_sharpness", "side_maps", "upright_blob", "width_is_off"]


def _line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """Normalised anti-aliased line of ``length`` px along ``angle_deg`` (from +x, y down)."""
    n = int(math.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2.0
    d = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))]) * length / 2.0
    p0, p1 = np.array([c, c]) - d, np.array([c, c]) + d
    cv2.line(k, tuple(np.round(p0 * 16).astype(int)), tuple(np.round(p1 * 16).astype(int)), 1.0, 1, cv2.LINE_AA,
             shift=4)
    k /= max(float(k.sum()), 1e-6)
    # cropped to the rows and columns the line touches, symmetric about the centre (the anchor): the same filter,
    # fewer products
    rr, cc = np.nonzero(k)
    dr = int(np.abs(rr - (n - 1) // 2).max()) if rr.size else 0
    dc = int(np.abs(cc - (n - 1) // 2).max()) if cc.size else 0
    m = (n - 1) // 2
    return np.ascontiguousarray(k[m - dr:m + dr + 1, m - dc:m + dc + 1])


def edge_maps(gray: np.ndarray) -> list[np.ndarray]:
    """For each edge direction j of 0-2, float32 map: the gradient across an upright flat-top hexagon's edge j less
    half the gradient along it (an edge's own structure, before it is averaged along a side of some length)."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 4.0
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 4.0
    out = []
    for j in range(3):
        nd = math.radians(EDGE_NORMAL_DEG[j])
        nx, ny = math.cos(nd), math.sin(nd)
        out.append(np.maximum(np.abs(gx * nx + gy * ny) - 0.5 * np.abs(gx * -ny + gy * nx), 0.0))
    return out


def side_maps(gray: np.ndarray, flat: float, config: HexesConfig,
              edges: list[np.ndarray] | None = None) -> list[np.ndarray]:
    """For each edge j, float32 map: the outline strength of edge j of an upright flat-top hexagon of flat
    width ``flat`` centred at each pixel (oriented gradient across that edge, averaged along it). ``edges``:
    :func:`edge_maps` of ``gray`` when already computed (they do not depend on ``flat``)."""
    em = edges if edges is not None else edge_maps(gray)
    side = flat / SQRT3
    out: list[np.ndarray] = [None] * 6  # type: ignore[list-item]
    for j in range(3):  # edges j and j + 3 are parallel: one oriented map serves both
        e = cv2.filter2D(em[j], -1, _line_kernel(config.line_frac * side, EDGE_NORMAL_DEG[j] + 90.0),
                         borderType=cv2.BORDER_CONSTANT)
        for jj in (j, j + 3):
            ndd = math.radians(EDGE_NORMAL_DEG[jj])
            dx, dy = int(round(flat / 2.0 * math.cos(ndd))), int(round(flat / 2.0 * math.sin(ndd)))
            out[jj] = shift(e, dx, dy)
    return out


def centre_response(sides: list[np.ndarray]) -> np.ndarray:
    """Hex-outline response at each pixel: the six side strengths sorted, the weaker ones counting more
    (:func:`vision.hexes.outline.weakest_first`)."""
    return weakest_first(sides)


def lattice_angle(gray: np.ndarray, mask: np.ndarray) -> float:
    """Lattice angle in degrees, [-30, 30): how far the hexes' edges are turned clockwise (screen, y down)
    from a flat-top hexagon's: the first of :func:`lattice_angles`."""
    return lattice_angles(gray, mask, 1)[0][0]


def lattice_angles(gray: np.ndarray, mask: np.ndarray, n: int = 2, apart: float = 6.0) -> list[tuple[float, float]]:
    """The ``n`` likeliest lattice angles (degrees, [-30, 30)) of the hexes in ``mask`` (uint8[H, W]) of ``gray``
    (uint8 or float32 [H, W]), each with its weight (the histogram's peak height), highest first, at least
    ``apart`` degrees apart (mod 60); ``[(0.0, 0.0)]`` when nothing is oriented.

    From the structure tensor (gradients averaged over a few pixels): its dominant orientation mod 60,
    weighted by its anisotropy times coherence, so long straight outlines count and isotropic texture
    (stars, print) hardly does. Straight table texture joined to the map (wood grain, a cloth's weave) makes a
    peak of its own: the next peak is the other candidate."""
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    j11 = cv2.GaussianBlur(gx * gx, (0, 0), 2.0)
    j22 = cv2.GaussianBlur(gy * gy, (0, 0), 2.0)
    j12 = cv2.GaussianBlur(gx * gy, (0, 0), 2.0)
    an = np.sqrt((j11 - j22) ** 2 + 4.0 * j12 * j12)
    wt = an * an / (j11 + j22 + 1e-3)          # anisotropy x coherence
    sel = (mask > 0) & (wt > 0)
    if not sel.any():
        return [(0.0, 0.0)]
    ang = (0.5 * np.degrees(np.arctan2(2.0 * j12[sel], (j11 - j22)[sel])) - 30.0) % 60.0   # normals (30, 90, 150) -> 0
    hist, _ = np.histogram(ang, bins=120, range=(0, 60), weights=wt[sel])
    k = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    ext = np.concatenate([hist[-6:], hist, hist[:6]])
    sm = np.convolve(ext, k, mode="same")[6:-6]
    peaks = [i for i in range(120) if sm[i] > 0 and sm[i] >= sm[(i - 1) % 120] and sm[i] > sm[(i + 1) % 120]]
    out: list[tuple[float, float]] = []
    for i in sorted(peaks, key=lambda i: -sm[i]):
        a, b, c = sm[(i - 1) % 120], sm[i], sm[(i + 1) % 120]
        den = a - 2 * b + c
        off = 0.5 * (a - c) / den if abs(den) > 1e-9 else 0.0
        theta = float(((i + 0.5 + off) * 0.5 + 30.0) % 60.0 - 30.0)
        if all(abs((theta - t + 30.0) % 60.0 - 30.0) >= apart for t, _ in out):
            out.append((theta, float(b)))
        if len(out) == n:
            break
    return out or [(0.0, 0.0)]


def fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """``mask`` with holes smaller than ``max_area`` pixels filled (gaps in a map are larger)."""
    cnts, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hier is None:
        return out
    for c, h in zip(cnts, hier[0], strict=True):
        if h[3] >= 0 and cv2.contourArea(c) < max_area:
            cv2.drawContours(out, [c], -1, 255, cv2.FILLED)
    return out


def _occupancy(mask: np.ndarray, flat: float) -> np.ndarray:
    """float32[H, W]: the fraction of an upright hexagon of flat width ``flat`` px centred at each pixel that is
    foreground in ``mask`` (float32[H, W], 0 or 1)."""
    n = int(math.ceil(2 * flat / SQRT3)) | 1
    kern = np.zeros((n, n), np.float32)
    cv2.fillPoly(kern, [np.round(hexagon(flat, ((n - 1) / 2, (n - 1) / 2)) * 16).astype(np.int32)], 1.0, cv2.LINE_8,
                 shift=4)
    kern /= kern.sum()
    return cv2.filter2D(mask, -1, kern, borderType=cv2.BORDER_CONSTANT)


def _fold(wts: np.ndarray, xs: np.ndarray, ys: np.ndarray, flat: float, nb: int = 24) -> tuple[np.ndarray, float,
                                                                                                float]:
    """The outline response ``wts`` (float[P]) at pixels (``xs``, ``ys``) of an upright frame folded modulo the
    lattice of flat-top hexes ``flat`` px across: (fold float32[nb, nb] smoothed, lattice offset u0, v0 in cells)."""
    R = flat / SQRT3
    Binv = np.linalg.inv(np.array([[1.5 * R, 0.0], [flat / 2.0, flat]]))
    uv = Binv @ np.stack([xs, ys]).astype(np.float64)
    iu = np.floor((uv[0] % 1.0) * nb).astype(int) % nb
    iv = np.floor((uv[1] % 1.0) * nb).astype(int) % nb
    fold = np.bincount(iu * nb + iv, weights=wts, minlength=nb * nb).reshape(nb, nb)
    fold = np.pad(fold, 3, mode="wrap")
    fold = cv2.GaussianBlur(fold.astype(np.float32), (0, 0), 1.0)[3:-3, 3:-3]
    bu, bv = np.unravel_index(int(np.argmax(fold)), fold.shape)
    return fold, (bu + 0.5) / nb, (bv + 0.5) / nb


@dataclass
class UprightBlob:
    """One connected foreground blob's region of the work image turned so its lattice is upright.

    Attributes:
        gray: float32 or uint8[h, w] grey levels of the turned region; mask: float32[h, w] (0 or 1) the blob there.
        turn: affine float[2, 3] from the region (offset ``origin`` in the work image) to the turned one.
        origin: (x0, y0) work px of the region's top-left corner; theta: the lattice angle (degrees,
            :func:`lattice_angle`).
        edges: :func:`edge_maps` of ``gray`` once computed (the same at every lattice width).
        occupancies, responses: per lattice width, :meth:`occupancy` and :meth:`outline_response` once computed.
    """

    gray: np.ndarray
    mask: np.ndarray
    turn: np.ndarray
    origin: tuple[int, int]
    theta: float
    edges: list[np.ndarray] | None = None
    occupancies: dict[float, np.ndarray] = field(default_factory=dict)
    responses: dict[tuple[float, float], tuple[list[np.ndarray], np.ndarray]] = field(default_factory=dict)

    def edge_maps(self) -> list[np.ndarray]:
        """:func:`edge_maps` of ``gray``, computed once."""
        if self.edges is None:
            self.edges = edge_maps(self.gray)
        return self.edges

    def outline_response(self, flat: float, config: HexesConfig) -> tuple[list[np.ndarray], np.ndarray]:
        """(:func:`side_maps`, :func:`centre_response`) of ``gray`` for hexes ``flat`` px across, computed once per
        width (the width search and the lattice at the width it takes share them)."""
        key = (flat, config.line_frac)
        if key not in self.responses:
            sides = side_maps(self.gray, flat, config, self.edge_maps())
            self.responses[key] = (sides, centre_response(sides))
        return self.responses[key]

    def occupancy(self, flat: float) -> np.ndarray:
        """float32[h, w]: the fraction of an upright hexagon ``flat`` px across centred at each pixel that is the
        blob (:func:`_occupancy` of ``mask``), computed once per width."""
        if flat not in self.occupancies:
            self.occupancies[flat] = _occupancy(self.mask, flat)
        return self.occupancies[flat]



def _blob_region(gray: np.ndarray, comp: np.ndarray, flat: float) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the region round one blob (``comp`` uint8 mask) with a margin of 0.6 ``flat``."""
    H, W = gray.shape
    x, y, bw, bh = cv2.boundingRect(comp)
    pad = int(0.6 * flat) + 4
    return max(0, x - pad), max(0, y - pad), min(W, x + bw + pad), min(H, y + bh + pad)


def blob_angles(gray: np.ndarray, comp: np.ndarray, flat: float, n: int = 2) -> list[tuple[float, float]]:
    """:func:`lattice_angles` of one blob (``comp`` uint8 mask, same size as ``gray``) in its region."""
    x0, y0, x1, y1 = _blob_region(gray, comp, flat)
    return lattice_angles(gray[y0:y1, x0:x1], cv2.dilate(comp[y0:y1, x0:x1], np.ones((5, 5), np.uint8)), n)


def upright_blob(gray: np.ndarray, comp: np.ndarray, flat: float, theta: float | None = None) -> UprightBlob:
    """The region round one blob (``comp`` uint8 mask, same size as ``gray``) with a margin of 0.6 ``flat``, turned
    counter-clockwise by ``theta`` (degrees; None: its lattice angle) so its hexes are upright flat-top hexagons."""
    x0, y0, x1, y1 = _blob_region(gray, comp, flat)
    g = gray[y0:y1, x0:x1]
    m = comp[y0:y1, x0:x1]
    if theta is None:
        theta = lattice_angle(g, cv2.dilate(m, np.ones((5, 5), np.uint8)))
    h, w = g.shape
    Rm, nw, nh = rotation_canvas(w, h, theta)
    gr = cv2.warpAffine(g, Rm, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mr = (cv2.warpAffine(m, Rm, (nw, nh), flags=cv2.INTER_NEAREST) > 0).astype(np.float32)
    return UprightBlob(gr, mr, Rm, (x0, y0), theta)


def lattice_sharpness(blob: UprightBlob, flat: float, config: HexesConfig, inside: tuple[np.ndarray, np.ndarray]
                      ) -> float:
    """How sharply the blob's hex-outline response at the pixels ``inside`` (ys, xs: where a hexagon is mostly
    foreground) folds onto one lattice of hexes ``flat`` px across: the fold's peak over its mean (1: no lattice).
    A lattice of the wrong pitch drifts off the tiles across the map and smears the fold."""
    ys, xs = inside
    if len(xs) == 0:
        return 1.0
    fold, _, _ = _fold(blob.outline_response(flat, config)[1][ys, xs], xs, ys, flat)
    return _fold_sharpness(fold)


@dataclass(frozen=True)
class BlobLattice:
    """One blob's lattice of hexes ``flat`` px across (:func:`blob_lattice`).

    Attributes:
        hexes: the lattice cells that are hexes.
        sharpness: how sharply the outline response folds onto the lattice (:func:`lattice_sharpness`; 1: no
            lattice).
        pitch: the refitted lattice's own pitch relative to ``flat`` (the square root of its basis's determinant
            over the ideal one's), or None when it was not refitted (fewer than 3 hexes): above 1 the hexes lie
            further apart than ``flat`` says.
        area: the blob's area in its upright frame, px.
    """

    hexes: list[HexCandidate]
    sharpness: float
    pitch: float | None
    area: float


def blob_hexes(img: np.ndarray, gray: np.ndarray, comp: np.ndarray, flat: float,
               config: HexesConfig, blob: UprightBlob | None = None) -> list[HexCandidate]:
    """Hexes in one connected foreground blob (``comp`` uint8 mask, same size as ``img``; ``blob`` its
    :func:`upright_blob` when already made): lattice offset, then every lattice cell that is a hex
    (:func:`blob_lattice`'s ``hexes``)."""
    return blob_lattice(img, gray, comp, flat, config, blob).hexes


def _fold_sharpness(fold: np.ndarray) -> float:
    return float(fold.max()) / max(float(fold.mean()), 1e-9)


def _lattice_cells(cells: np.ndarray, A: np.ndarray, resp: np.ndarray, padded: tuple[np.ndarray, int], occ: np.ndarray,
                   sides: list[np.ndarray], win: int, nudge_gain: bool,
                   config: HexesConfig) -> list[tuple[int, int, float, float, float, int, float]]:
    """The lattice cells (``cells`` float[N, 2] of axial (q, r)) that are hexes, all cells at once: each cell's centre
    ``[q, r, 1] @ A`` (upright px, rounded) when inside the image and mostly foreground (``occ``), nudged to the
    strongest outline response ``resp`` within ``win`` px (the first in row order; with ``nudge_gain`` only when
    ``config.refine_gain`` x stronger than at the centre), kept when crisp and foreground enough there. ``padded``:
    (``resp`` with a border of p >= ``win`` px of -inf, p). Returns (q, r, x px, y px, occupancy, crisp sides,
    response) per hex, in the order of ``cells``."""
    nh, nw = resp.shape
    q, r = cells[:, 0], cells[:, 1]
    cx = np.rint(q * A[0, 0] + r * A[1, 0] + A[2, 0]).astype(np.intp)   # [q, r, 1] @ A as numpy rounds a vector's
    cy = np.rint(q * A[0, 1] + r * A[1, 1] + A[2, 1]).astype(np.intp)
    inside = np.flatnonzero((cx >= 0) & (cx < nw) & (cy >= 0) & (cy < nh))
    inside = inside[~(occ[cy[inside], cx[inside]] < config.min_occupancy_crisp - 0.1)]
    cx, cy = cx[inside], cy[inside]
    k = 2 * win + 1
    pad, p = padded
    wins = np.lib.stride_tricks.sliding_window_view(pad, (k, k))[cy + p - win, cx + p - win].reshape(len(cx), k * k)
    at = np.argmax(wins, axis=1) if len(cx) else np.zeros(0, np.intp)
    cx2, cy2 = cx - win + at % k, cy - win + at // k
    if nudge_gain:   # the fitted lattice is as good: a hex's own nudge needs a clearly better outline
        stay = wins[np.arange(len(at)), at].astype(np.float64) < config.refine_gain * resp[cy, cx].astype(np.float64)
        cx2, cy2 = np.where(stay, cx, cx2), np.where(stay, cy, cy2)
    o = occ[cy2, cx2].astype(np.float64)
    crisp = np.zeros(len(cx2), int)
    for sd in sides:
        crisp += sd[cy2, cx2].astype(np.float64) >= config.min_edge
    keep = ~((crisp < config.min_crisp_sides) | (o < config.min_occupancy_crisp)
             | ((o < config.min_occupancy) & (crisp < config.crisp_for_low_occupancy)))
    sc = resp[cy2, cx2].astype(np.float64)
    return [(int(q[inside[j]]), int(r[inside[j]]), float(cx2[j]), float(cy2[j]), float(o[j]), int(crisp[j]),
             float(sc[j])) for j in np.flatnonzero(keep)]


def blob_lattice(img: np.ndarray, gray: np.ndarray, comp: np.ndarray, flat: float,
                 config: HexesConfig, blob: UprightBlob | None = None) -> BlobLattice:
    """The lattice of hexes ``flat`` px across in one connected foreground blob (``comp`` uint8 mask, same size as
    ``img``; ``blob`` its :func:`upright_blob` when already made): its offset (the outline response folded modulo
    the lattice), every lattice cell that is a hex, and the lattice refitted to their nudged centres (affine, least
    squares), with what the fit says of ``flat`` (:class:`BlobLattice`)."""
    ub = blob if blob is not None else upright_blob(gray, comp, flat)
    gr, mr, Rm, (x0, y0), theta = ub.gray, ub.mask, ub.turn, ub.origin, ub.theta
    nh, nw = gr.shape
    area = float(mr.sum())
    sides, resp = ub.outline_response(flat, config)
    # occupancy: the fraction of an upright hexagon at each pixel that is foreground
    occ = ub.occupancy(flat)
    ys, xs = np.nonzero(occ > 0.4)
    if len(xs) == 0:
        return BlobLattice([], 1.0, None, area)
    fold, u0, v0 = _fold(resp[ys, xs], xs, ys, flat)
    refit = False
    R = flat / SQRT3
    B = np.array([[1.5 * R, 0.0], [flat / 2.0, flat]])   # columns: a, b
    Binv = np.linalg.inv(B)
    # every lattice cell inside the ROI, then the lattice refitted (affine, least squares) to the hexes'
    # refined centres -- twice: a small error of the first angle or pitch grows across a map
    A = np.vstack([B.T, (B @ np.array([u0, v0]))[None, :]])        # [q, r, 1] @ A -> upright (x, y)
    corners_xy = np.array([[0, 0], [nw, 0], [0, nh], [nw, nh]], np.float64).T
    uvc = Binv @ corners_xy
    qs = range(int(math.floor(uvc[0].min())) - 2, int(math.ceil(uvc[0].max())) + 3)
    rs = range(int(math.floor(uvc[1].min())) - 2, int(math.ceil(uvc[1].max())) + 3)
    win = max(1, int(round(config.refine_frac * flat)))
    found: list[tuple[int, int, float, float, float, int, float]] = []
    cells = np.array([(qi, ri) for qi in qs for ri in rs], np.float64).reshape(-1, 2)   # q outer, r inner
    pw = win   # the widest window's reach (the later ones are narrower)
    padded = np.full((nh + 2 * pw, nw + 2 * pw), -np.inf, resp.dtype)   # windows cut by the image's edge: -inf
    padded[pw:pw + nh, pw:pw + nw] = resp
    for it in range(3):
        found = _lattice_cells(cells, A, resp, (padded, pw), occ, sides, win, it > 0, config)
        if it == 2 or len(found) < 3:
            break
        X = np.array([[f[0], f[1], 1.0] for f in found])
        Y = np.array([[f[2], f[3]] for f in found])
        if np.linalg.matrix_rank(X) < 3:
            break
        w_ = np.ones(len(found))
        for _ in range(2):   # drop outliers (a hex nudged onto a neighbour's outline)
            A_new = np.linalg.lstsq(X * w_[:, None], Y * w_[:, None], rcond=None)[0]
            res = np.linalg.norm(X @ A_new - Y, axis=1)
            w_ = (res < max(2.0, 0.08 * flat)).astype(np.float64)
            if w_.sum() < 3:
                break
        else:
            A = A_new
            refit = True
        win = max(1, int(round(0.5 * config.refine_frac * flat)))
    # the lattice's own turn from the fitted basis: the hexagons' angle in the upright frame
    Mrot = A[:2].T @ Binv
    phi = math.degrees(math.atan2(Mrot[1, 0] - Mrot[0, 1], Mrot[0, 0] + Mrot[1, 1]))
    out: list[HexCandidate] = []
    Rinv = cv2.invertAffineTransform(Rm)
    for _qi, _ri, cx2, cy2, o, crisp, sc in found:
        cr = hexagon(flat, (cx2, cy2), phi)
        back = (Rinv[:, :2] @ cr.T).T + Rinv[:, 2] + np.array([x0, y0])
        cb = (Rinv[:, :2] @ np.array([cx2, cy2], np.float64)) + Rinv[:, 2] + np.array([x0, y0])
        out.append(HexCandidate(back, cb, theta - phi, o, crisp, sc))
    pitch = math.sqrt(abs(float(np.linalg.det(Mrot)))) if refit else None
    return BlobLattice(out, _fold_sharpness(fold), pitch, area)


def lattice_scale(blobs: list[UprightBlob], flat: float, scales: tuple[float, ...], config: HexesConfig,
                  known: dict[float, list[float]] | None = None) -> float:
    """The flat width (px) among ``flat`` x ``scales`` whose lattices fold the blobs' outline responses most sharply
    (:func:`lattice_sharpness`, each blob weighed by its area): one width for the whole image (one table, one
    lens), so a small blob of table print cannot pick its own. ``known``: per scale, the blobs' sharpness already
    measured (:attr:`BlobLattice.sharpness` of the lattice at that width), not measured again."""
    tot = np.zeros(len(scales))
    for b, ub in enumerate(blobs):
        area = float(ub.mask.sum())
        inside = np.nonzero(ub.occupancy(flat) > 0.4)   # the same pixels folded at every width
        for k, s in enumerate(scales):
            got = (known or {}).get(float(s))
            tot[k] += area * (got[b] if got is not None else lattice_sharpness(ub, flat * float(s), config, inside))
    return flat * float(scales[int(np.argmax(tot))])


def width_is_off(fits: list[BlobLattice], flat: float, config: HexesConfig) -> bool:
    """Whether the lattices fitted at the expected width ``flat`` (px) leave that width in doubt, so other widths
    must be searched (:func:`lattice_scale`). Over the blobs whose lattice was refitted (at least 3 hexes): it is
    in doubt when they hold no hex; when their refitted pitch (mean over their hexes) differs from 1 by more than
    ``config.lattice_pitch_tolerance`` (a width a few percent off: each hex is nudged a little towards its
    outline and the refit follows); when their hexes cover less than ``config.lattice_min_cover`` of their
    foreground (a width so far off that the lattice drifts off the tiles a cell or two from where it folds: the
    cells there are lost, and the few hexes left cannot show the pitch); or when their outline response folds
    onto the lattice less sharply than ``config.lattice_min_sharpness`` (:func:`lattice_sharpness`, mean
    weighed by area: a fold too weak to tell the width, whichever the nudges say)."""
    fitted = [f for f in fits if f.pitch is not None]
    n = sum(len(f.hexes) for f in fitted)
    area = sum(f.area for f in fitted)
    if n == 0 or area <= 0:
        return True
    pitch = sum(f.pitch * len(f.hexes) for f in fitted) / n   # type: ignore[operator]
    cover = n * SQRT3 / 2.0 * flat * flat / area
    sharpness = sum(f.sharpness * f.area for f in fitted) / area
    return (abs(pitch - 1.0) > config.lattice_pitch_tolerance or cover < config.lattice_min_cover
            or sharpness < config.lattice_min_sharpness)


def find_hexes(img: np.ndarray, flat: float, config: HexesConfig, timings: dict[str, float] | None = None,
               refine: bool = True, scale_free: bool = False, scales: tuple[float, ...] = (1.0,),
               not_hexes: list[np.ndarray] | None = None) -> list[HexCandidate]:
    """Every hex lying flat in the work image ``img`` (uint8[H, W, 3] BGR) where a hex is ``flat`` px across
    its flats; with ``refine`` each outline is then fitted to the image (:func:`refine_hexes`, its size too
    with ``scale_free``). ``scales``: with more than one, the expected ``flat`` is a prior: the width of ``flat`` x
    ``scales`` that folds best (:func:`lattice_scale`) replaces it when its lattice cells show more outline in all;
    the other widths are searched only when the lattice at ``flat`` says it is off (:func:`width_is_off`). Each blob's
    lattice is fitted at its likeliest angle and, when its weight is at least ``config.second_angle`` of the
    first's, at the next likeliest (:func:`blob_angles`): the one whose cells show more outline in all is kept.
    ``not_hexes``: polygons (float[N, 2] work px each) known to hold no hex, such as the calibration markers with
    their white paper: painted out of the foreground, so their strong square edges neither join a blob nor turn its
    lattice (:func:`lattice_angle` reads a square's edges as a lattice turned 30 degrees)."""
    t = timings if timings is not None else {}
    mask = timed_stage(t, "foreground", foreground_mask, img, config.fg)
    if not_hexes:
        cv2.fillPoly(mask, [np.round(np.asarray(q) * 16).astype(np.int32) for q in not_hexes], 0, cv2.LINE_8, shift=4)
    hex_area = SQRT3 / 2.0 * flat * flat
    k = max(3, int(round(config.close_frac * flat)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = fill_small_holes(mask, config.min_hole_frac * hex_area)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    with_time: dict[str, float] = {}
    comps = [(lab == i).astype(np.uint8) * 255 for i in range(1, n)
             if stats[i, cv2.CC_STAT_AREA] >= config.min_occupancy * hex_area]
    blobs: list[UprightBlob] = []
    fits: list[BlobLattice] = []
    for comp in comps:
        # the blob's likeliest lattice angle, or the next one when straight table texture joined to the blob
        # (wood grain) makes the likeliest: the angle whose lattice cells show more outline in all
        angles = blob_angles(gray, comp, flat)
        best: tuple[UprightBlob, BlobLattice] | None = None
        for a, wgt in angles:
            if wgt < config.second_angle * angles[0][1]:
                continue
            ub = upright_blob(gray, comp, flat, a)
            fit = timed_stage(with_time, "lattice", blob_lattice, img, gray, comp, flat, config, ub)
            if best is None or sum(h.score for h in fit.hexes) > sum(h.score for h in best[1].hexes):
                best = (ub, fit)
        blobs.append(best[0])
        fits.append(best[1])

    def cells(f: float) -> list[BlobLattice]:
        return [timed_stage(with_time, "lattice", blob_lattice, img, gray, comp, f, config, ub)
                for comp, ub in zip(comps, blobs, strict=True)]

    out = [h for f in fits for h in f.hexes]
    if len(scales) > 1 and blobs and width_is_off(fits, flat, config):
        # the width whose lattice folds the outlines most sharply replaces the expected one only when its cells
        # also show more outline in all (their summed outline responses): two kinds of evidence agree (table print
        # folds sharply at some width too)
        f2 = timed_stage(with_time, "lattice", lattice_scale, blobs, flat, scales, config,
                         {1.0: [f.sharpness for f in fits]})
        if f2 != flat:
            out2 = [h for f in cells(f2) for h in f.hexes]
            if sum(h.score for h in out2) > sum(h.score for h in out):
                out, flat = out2, f2
    t["lattice"] = t.get("lattice", 0.0) + with_time.get("lattice", 0.0)
    if refine and out:
        maps = timed_stage(t, "outline_maps", outline_maps, img)
        out = timed_stage(t, "refine", refine_hexes, img, out, flat, config, scale_free, maps)
        out = timed_stage(t, "grow", grow_hexes, img, mask, out, flat, config, scale_free, maps)
    return out
