"""Eclipse sector hexes lying flat on the table: detection (touching ones included), axial map coordinates,
rotation and identity by enrolled references.

Conventions (see also docs/glossary.md, "hex"):

* Sector hexes are **flat-topped** (the Eclipse data's printed orientation: a flat top edge = 12 o'clock).
* *map frame*: the hex lattice's own axes. Its "up" is the lattice direction (one of six, 60 degrees apart)
  closest to the table's up (the image's up without a calibration); a map turned exactly 30 degrees on
  the table is ambiguous.
* *corners*: float[6, 2] pixel corners of a hex, clockwise on screen, starting at the top-left corner of
  the tile's **printed** top edge (lattice order when the rotation is unknown).
* *edge j* of the map frame: the edge at clock ``2j`` (j = 0: 12 o'clock, 1: 2 o'clock, ... 5: 10 o'clock).
* *rotation* (0-5): the tile's printed top edge lies at map edge ``rotation`` (turned ``60 * rotation``
  degrees clockwise); a wormhole printed at clock ``h`` is at clock ``(h + 2 * rotation) mod 12`` on the
  map. *rotation_deg*: clockwise angle of the tile's printed up direction from the table's up, [0, 360).
* *axial* ``[q, r]`` (Red Blob Games' flat-top axial coordinates in the map frame, y down), counted from
  the Galactic Center (the anchor, id ``"001"`` by default): the neighbour across edge j is
  ``(q, r) + [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)][j]``; the ring is
  ``(|q| + |r| + |q + r|) / 2``.

Stages (pure functions of ``(config, data)``, timed by :func:`vision.timing.timed_stage`):

1. ``work_image``: the table seen top-down (with a calibration) or the frame, resized so a hex is
   ``work_flat_px`` across its flats (the hex size comes from the calibration and ``hex_mm``, or is estimated
   from the image without one: :func:`estimate_flat_px`, the foreground outline's side length, then the hex
   lattice that explains the image best, then its cells' fitted outlines);
2. ``foreground``: the cards' table-colour model (:func:`vision.card_detect.foreground_mask`), small holes filled;
3. ``lattice``: per connected blob, the lattice angle (structure-tensor orientations mod 60 degrees), then
   the lattice offset (a hex-outline response folded modulo the lattice); every lattice cell whose hexagon
   is foreground with enough crisp sides is a hex, nudged to the strongest outline nearby;
4. ``refine``: each hex's outline fitted to the image at sub-pixel steps (:func:`refine_hexes`: how much
   of the structure under its six edges runs along them, away from the edges' middles where wormholes are;
   colour edges count as much as grey ones, :func:`outline_maps`);
5. ``grow``: lattice neighbours of found hexes that are only partly foreground (dark sectors on a dark
   cloth) are hexes when their fitted outline is strong on all six sides (:func:`grow_hexes`);
6. ``identify``: each hex rectified once into a hexagon-masked square crop; its structure maps turned by
   the six 60-degree steps (:func:`turned_maps`) are compared coarsely with every reference of the hex deck
   (:func:`build_hex_deck`), then at small shifts for a shortlist (:func:`score_hex`); the best
   (sector, turn) gives id and rotation. With no hex identified as the anchor, the hex clearly most like
   it anchors the axial coordinates;
7. ``layout``: centres in table mm, axial coordinates from the anchor, zones.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .card_detect import CardsConfig, foreground_mask
from .card_features import IdConfig, feature_maps, inner_maps, mask_face, normalise_maps
from .deck import DeckError, DeckProfile, deck_from_crops, read_enrollment_folder
from .errors import VisionError
from .frames import validate_frame
from .raster import shift
from .table import MIN_SIDE_PX, MarkerCheck, TableCalibration, TableConfig, Zones, apply_homography, check_markers, zones_of
from .timing import timed_stage

__all__ = [
    "HexObservation",
    "HexesConfig",
    "HexesRead",
    "axial_round",
    "build_hex_deck",
    "build_hex_deck_from_images",
    "find_hexes",
    "hex_crop",
    "hex_enrollment_crop",
    "read_hexes",
]

SQRT3 = math.sqrt(3.0)
#: corner angles (degrees from +x, y down) of a flat-top hexagon, clockwise from the top-left corner.
CORNER_DEG = (240.0, 300.0, 0.0, 60.0, 120.0, 180.0)
#: outward normals (degrees) of edges 0-5 (edge j runs from corner j to corner j + 1).
EDGE_NORMAL_DEG = (270.0, 330.0, 30.0, 90.0, 150.0, 210.0)
#: axial step across edge j.
NEIGHBOURS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


class NotAHexDeck(VisionError, ValueError):
    """The deck given to :func:`read_hexes` was enrolled as cards, not with :func:`build_hex_deck`."""


@dataclass(frozen=True)
class HexesConfig:
    """Every threshold of the hex reader.

    Attributes:
        hex_mm: flat-to-flat width of a sector hex on the table, mm (None: the deck's, else
            ``fallback_hex_mm`` with a calibration, else estimated from the image).
        work_flat_px: detection runs on an image where a hex is this many pixels across its flats.
        estimate_long_side: without calibration and size, the hex size is estimated on the frame resized
            to this long side.
        hex_px: flat-to-flat width of a hex in frame pixels when known (skips the estimate without
            calibration).
        min_hole_frac: holes of the foreground smaller than this fraction of a hex are filled (planets
            that look like the table); larger holes (gaps in the map) are kept.
        close_frac: the foreground is closed with a disc this fraction of a hex's flat width (bites of
            artwork that looks like the table at a tile's edge).
        min_occupancy_crisp: a cell whose hexagon is less foreground than ``min_occupancy`` (a dark tile on
            a dark table) is still a hex down to this occupancy when ...
        crisp_for_low_occupancy: ... at least this many of its sides show an outline.
        min_occupancy: a lattice cell is a hex when at least this fraction of its hexagon is foreground ...
        min_crisp_sides: ... and at least this many of its six sides show an outline ...
        min_edge: ... of at least this mean oriented gradient (grey levels per pixel, work image).
        refine_frac: each hex may move by up to this fraction of its flat width to the strongest outline ...
        refine_gain: ... once the lattice is fitted, only when that outline is this much stronger than at
            the lattice position.
        refine_window: after the lattice, each hex's outline is fitted to the image (:func:`refine_hexes`)
            within this fraction of its flat width ...
        refine_scale: ... and, without a calibration, its size within this relative change ...
        refine_points: ... sampling this many points along each edge (away from the edge's middle) ...
        refine_noise: ... where the edge score is gradient across / (gradient + this, grey levels per px) ...
        refine_prior: ... less this times (shift / window) squared (the lattice's position is the prior).
        grow_min_score: a lattice neighbour of a found hex that is only partly foreground is a hex when
            its fitted outline scores at least this (of 4.75: every edge's structure runs along it) ...
        grow_min_occupancy: ... and at least this fraction of it is foreground (:func:`grow_hexes`) ...
        grow_rounds: ... searched from the hexes found in the previous round, this many times at most;
        grow_min_edge: ... and each of its six sides scores at least this (0-1, :func:`edge_scores`): a gap
            between hexes, outlined by its neighbours on some sides, has a side without an outline.
        line_frac: length of the edge filter along a side, fraction of the side.
        crop_size: side of the square hexagon crop in pixels (the hexagon's corners touch its left/right).
        axial_tolerance: an axial position further than this (in hex pitches) from a lattice cell is null.
        anchor_id: the id of the hex at axial (0, 0) (the Galactic Center is "001" in the Eclipse data).
        id_config: identification thresholds of hex decks (None: :func:`default_id_config`).
        shortlist: sectors compared at every shift and turn after the coarse pass (:func:`score_hex`) ...
        fine_shift: ... at shifts of up to this many structure-map pixels (None: the deck's).
        colour_weight: weight of the hue histogram for hexes (None: the deck's ``colour_weight``).
        anchor_margin: with no hex identified as the anchor, the hex most like it is taken as the anchor
            when its distance is this much below every other hex's (axial coordinates then count from it).
        fg: the foreground model's thresholds (shared with the card reader).
        fallback_hex_mm: hex size (mm) assumed when neither ``hex_mm`` nor the deck gives one.
    """

    hex_mm: float | None = None
    work_flat_px: float = 56.0
    estimate_long_side: int = 960
    hex_px: float | None = None
    min_hole_frac: float = 0.5
    close_frac: float = 0.12
    min_occupancy_crisp: float = 0.45
    crisp_for_low_occupancy: int = 4
    min_occupancy: float = 0.78
    min_crisp_sides: int = 2
    min_edge: float = 6.0
    refine_frac: float = 0.06
    refine_gain: float = 1.15
    refine_window: float = 0.12
    refine_scale: float = 0.05
    refine_points: int = 10
    refine_noise: float = 2.0
    grow_min_score: float = 3.2
    grow_min_occupancy: float = 0.12
    grow_rounds: int = 3
    grow_min_edge: float = 0.5
    refine_prior: float = 0.5
    line_frac: float = 0.7
    crop_size: int = 96
    axial_tolerance: float = 0.3
    anchor_id: str | None = "001"
    id_config: IdConfig | None = None
    shortlist: int = 4
    colour_weight: float | None = None
    fine_shift: int | None = 2
    anchor_margin: float = 0.1
    fg: CardsConfig = field(default_factory=CardsConfig)
    fallback_hex_mm: float = 110.0


def default_id_config() -> IdConfig:
    """Identification thresholds for hex decks: square structure maps (the crop is a masked hexagon), and
    white balance against the brightest print (the 99.5th percentile: stars, numbers), not a paper colour --
    a sector has no paper, and balancing against its own dark background turns noise into colour.
    (Decks saved with the earlier ``paper_percentile`` keep theirs: references and queries stay alike.)"""
    return IdConfig(struct_size=(48, 48), struct_shift=4, paper_percentile=99.5)


# ----------------------------------------------------------------------------------------------- geometry


def hexagon(flat: float, centre: tuple[float, float] = (0.0, 0.0), angle_deg: float = 0.0) -> np.ndarray:
    """float[6, 2] corners of a flat-top hexagon (``flat`` = flat-to-flat width) turned ``angle_deg``
    clockwise on screen, clockwise from the top-left corner."""
    R = flat / SQRT3
    a = np.radians(np.array(CORNER_DEG) + angle_deg)
    return np.stack([R * np.cos(a), R * np.sin(a)], axis=1) + np.asarray(centre, np.float64)


def axial_round(q: float, r: float) -> tuple[int, int, float]:
    """Nearest axial cell of fractional (q, r) (cube rounding) and the distance to it in hex pitches."""
    x, z = q, r
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    # distance in pitches (centre-to-centre = 1): through the flat-top embedding
    ex, ey = 1.5 / SQRT3 * (q - rx), (r - rz) + (q - rx) / 2.0
    return int(rx), int(rz), float(math.hypot(ex, ey))


def hex_crop(image: np.ndarray, corners: np.ndarray, size: int = 96) -> np.ndarray:
    """Square crop ``uint8[size, size, 3]`` of the hexagon with pixel ``corners`` (float[6, 2], clockwise from
    the top-left corner of the edge that should be on top), flat top up; outside the hexagon is filled
    with the hexagon's median colour. The same warp serves enrollment and run time."""
    corners = np.asarray(corners, np.float64)
    span = float(np.linalg.norm(corners[0] - corners[3]))   # corner to corner
    if span > 1.5 * size:   # reduce the hex's neighbourhood first (area averaging: no aliasing)
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 3
        roi = image[y0:y1, x0:x1]
        g = 1.5 * size / span
        if roi.size:
            small = cv2.resize(roi, (max(1, int(round(roi.shape[1] * g))), max(1, int(round(roi.shape[0] * g)))),
                               interpolation=cv2.INTER_AREA)
            gx, gy = small.shape[1] / roi.shape[1], small.shape[0] / roi.shape[0]
            image, corners = small, (corners - [x0, y0]) * [gx, gy]
    c = (size - 1) / 2.0
    canon = hexagon(SQRT3 * c, (c, c))
    Hm, _ = cv2.findHomography(canon, np.asarray(corners, np.float64), 0)
    if Hm is None:
        Hm = cv2.getPerspectiveTransform(canon[[0, 1, 3, 4]].astype(np.float32), np.asarray(corners, np.float32)[[0, 1, 3, 4]])
    crop = cv2.warpPerspective(image, Hm, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                               borderMode=cv2.BORDER_REPLICATE)
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [np.round(hexagon(SQRT3 * c - 2.0, (c, c)) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
    inside = mask > 0
    med = np.median(crop[inside], axis=0) if inside.any() else np.array([128, 128, 128])
    crop[~inside] = med.astype(np.uint8)
    return crop


# ----------------------------------------------------------------------------------------------- detection


def _line_kernel(length: float, angle_deg: float) -> np.ndarray:
    """Normalised anti-aliased line of ``length`` px along ``angle_deg`` (from +x, y down)."""
    n = int(math.ceil(length)) | 1
    k = np.zeros((n, n), np.float32)
    c = (n - 1) / 2.0
    d = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))]) * length / 2.0
    p0, p1 = np.array([c, c]) - d, np.array([c, c]) + d
    cv2.line(k, tuple(np.round(p0 * 16).astype(int)), tuple(np.round(p1 * 16).astype(int)), 1.0, 1, cv2.LINE_AA, shift=4)
    return k / max(float(k.sum()), 1e-6)


def side_maps(gray: np.ndarray, flat: float, config: HexesConfig) -> list[np.ndarray]:
    """For each edge j, float32 map: the outline strength of edge j of an upright flat-top hexagon of flat
    width ``flat`` centred at each pixel (oriented gradient across that edge, averaged along it)."""
    g = cv2.GaussianBlur(gray.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3) / 4.0
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3) / 4.0
    side = flat / SQRT3
    out: list[np.ndarray] = [None] * 6  # type: ignore[list-item]
    for j in range(3):  # edges j and j + 3 are parallel: one oriented map serves both
        nd = math.radians(EDGE_NORMAL_DEG[j])
        nx, ny = math.cos(nd), math.sin(nd)
        across = np.abs(gx * nx + gy * ny)
        along = np.abs(gx * -ny + gy * nx)
        e = np.maximum(across - 0.5 * along, 0.0)
        e = cv2.filter2D(e, -1, _line_kernel(config.line_frac * side, EDGE_NORMAL_DEG[j] + 90.0),
                         borderType=cv2.BORDER_CONSTANT)
        for jj in (j, j + 3):
            ndd = math.radians(EDGE_NORMAL_DEG[jj])
            dx, dy = int(round(flat / 2.0 * math.cos(ndd))), int(round(flat / 2.0 * math.sin(ndd)))
            out[jj] = shift(e, dx, dy)
    return out


def centre_response(sides: list[np.ndarray]) -> np.ndarray:
    """Hex-outline response at each pixel: the six side strengths sorted, the weaker ones counting more."""
    s = np.sort(np.stack(sides), axis=0)
    w = np.array([1.0, 1.0, 1.0, 0.75, 0.5, 0.5], np.float32)[:, None, None]
    return (s * w).sum(axis=0)


def lattice_angle(gray: np.ndarray, mask: np.ndarray) -> float:
    """Lattice angle in degrees, [-30, 30): how far the hexes' edges are turned clockwise (screen, y down)
    from a flat-top hexagon's.

    From the structure tensor (gradients averaged over a few pixels): its dominant orientation mod 60,
    weighted by its anisotropy times coherence, so long straight outlines count and isotropic texture
    (stars, print, wood grain's pixel-grid aliasing) hardly does."""
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
        return 0.0
    ang = (0.5 * np.degrees(np.arctan2(2.0 * j12[sel], (j11 - j22)[sel])) - 30.0) % 60.0   # normals (30, 90, 150) -> 0
    hist, _ = np.histogram(ang, bins=120, range=(0, 60), weights=wt[sel])
    k = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    ext = np.concatenate([hist[-6:], hist, hist[:6]])
    sm = np.convolve(ext, k, mode="same")[6:-6]
    i = int(np.argmax(sm))
    a, b, c = sm[(i - 1) % 120], sm[i], sm[(i + 1) % 120]
    den = a - 2 * b + c
    off = 0.5 * (a - c) / den if abs(den) > 1e-9 else 0.0
    theta = (i + 0.5 + off) * 0.5
    return float((theta + 30.0) % 60.0 - 30.0)


@dataclass
class HexCandidate:
    """One detected hex in work-image pixels: corners in lattice order (map frame top-left first)."""

    corners: np.ndarray
    centre: np.ndarray
    angle: float
    occupancy: float
    crisp: int
    score: float


def fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """``mask`` with holes smaller than ``max_area`` pixels filled (gaps in a map are larger)."""
    cnts, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hier is None:
        return out
    for c, h in zip(cnts, hier[0]):
        if h[3] >= 0 and cv2.contourArea(c) < max_area:
            cv2.drawContours(out, [c], -1, 255, cv2.FILLED)
    return out


def blob_hexes(img: np.ndarray, gray: np.ndarray, comp: np.ndarray, flat: float, config: HexesConfig) -> list[HexCandidate]:
    """Hexes in one connected foreground blob (``comp`` uint8 mask, same size as ``img``): lattice angle,
    lattice offset, then every lattice cell that is a hex."""
    H, W = gray.shape
    x, y, bw, bh = cv2.boundingRect(comp)
    pad = int(0.6 * flat) + 4
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(W, x + bw + pad), min(H, y + bh + pad)
    g = gray[y0:y1, x0:x1]
    m = comp[y0:y1, x0:x1]
    theta = lattice_angle(g, cv2.dilate(m, np.ones((5, 5), np.uint8)))
    h, w = g.shape
    # turn the ROI so the lattice is upright (counter-clockwise by theta on screen)
    Rm = cv2.getRotationMatrix2D((w / 2, h / 2), theta, 1.0)
    cos, sin = abs(Rm[0, 0]), abs(Rm[0, 1])
    nw, nh = int(w * cos + h * sin) + 2, int(w * sin + h * cos) + 2
    Rm[0, 2] += nw / 2 - w / 2
    Rm[1, 2] += nh / 2 - h / 2
    gr = cv2.warpAffine(g, Rm, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    mr = (cv2.warpAffine(m, Rm, (nw, nh), flags=cv2.INTER_NEAREST) > 0).astype(np.float32)
    sides = side_maps(gr, flat, config)
    resp = centre_response(sides)
    # occupancy: the fraction of an upright hexagon at each pixel that is foreground
    n = int(math.ceil(2 * flat / SQRT3)) | 1
    kern = np.zeros((n, n), np.float32)
    cv2.fillPoly(kern, [np.round(hexagon(flat, ((n - 1) / 2, (n - 1) / 2)) * 16).astype(np.int32)], 1.0, cv2.LINE_8, shift=4)
    kern /= kern.sum()
    occ = cv2.filter2D(mr, -1, kern, borderType=cv2.BORDER_CONSTANT)
    # lattice basis (upright frame): q -> (1.5 R, F / 2), r -> (0, F)
    R = flat / SQRT3
    B = np.array([[1.5 * R, 0.0], [flat / 2.0, flat]])   # columns: a, b
    Binv = np.linalg.inv(B)
    ys, xs = np.nonzero(occ > 0.4)
    if len(xs) == 0:
        return []
    wts = resp[ys, xs]
    uv = Binv @ np.stack([xs, ys]).astype(np.float64)
    nb = 24
    iu = np.floor((uv[0] % 1.0) * nb).astype(int) % nb
    iv = np.floor((uv[1] % 1.0) * nb).astype(int) % nb
    fold = np.bincount(iu * nb + iv, weights=wts, minlength=nb * nb).reshape(nb, nb)
    fold = np.pad(fold, 3, mode="wrap")
    fold = cv2.GaussianBlur(fold.astype(np.float32), (0, 0), 1.0)[3:-3, 3:-3]
    bu, bv = np.unravel_index(int(np.argmax(fold)), fold.shape)
    u0, v0 = (bu + 0.5) / nb, (bv + 0.5) / nb
    # every lattice cell inside the ROI, then the lattice refitted (affine, least squares) to the hexes'
    # refined centres -- twice: a small error of the first angle or pitch grows across a map
    A = np.vstack([B.T, (B @ np.array([u0, v0]))[None, :]])        # [q, r, 1] @ A -> upright (x, y)
    corners_xy = np.array([[0, 0], [nw, 0], [0, nh], [nw, nh]], np.float64).T
    uvc = Binv @ corners_xy
    qs = range(int(math.floor(uvc[0].min())) - 2, int(math.ceil(uvc[0].max())) + 3)
    rs = range(int(math.floor(uvc[1].min())) - 2, int(math.ceil(uvc[1].max())) + 3)
    win = max(1, int(round(config.refine_frac * flat)))
    found: list[tuple[int, int, float, float, float, int, float]] = []
    for it in range(3):
        found = []
        for qi in qs:
            for ri in rs:
                c = np.array([qi, ri, 1.0]) @ A
                cx, cy = int(round(c[0])), int(round(c[1]))
                if not (0 <= cx < nw and 0 <= cy < nh) or occ[cy, cx] < config.min_occupancy_crisp - 0.1:
                    continue
                a0, a1, b0, b1 = max(0, cx - win), min(nw, cx + win + 1), max(0, cy - win), min(nh, cy + win + 1)
                wr = resp[b0:b1, a0:a1]
                dy, dx = np.unravel_index(int(np.argmax(wr)), wr.shape)
                cx2, cy2 = a0 + dx, b0 + dy
                if it > 0 and float(wr[dy, dx]) < config.refine_gain * float(resp[cy, cx]):
                    cx2, cy2 = cx, cy   # the fitted lattice is as good: a hex's own nudge needs a clearly better outline
                o = float(occ[cy2, cx2])
                crisp = sum(float(sd[cy2, cx2]) >= config.min_edge for sd in sides)
                if crisp < config.min_crisp_sides or o < config.min_occupancy_crisp:
                    continue
                if o < config.min_occupancy and crisp < config.crisp_for_low_occupancy:
                    continue
                found.append((qi, ri, float(cx2), float(cy2), o, crisp, float(resp[cy2, cx2])))
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
        win = max(1, int(round(0.5 * config.refine_frac * flat)))
    # the lattice's own turn from the fitted basis: the hexagons' angle in the upright frame
    Mrot = A[:2].T @ Binv
    phi = math.degrees(math.atan2(Mrot[1, 0] - Mrot[0, 1], Mrot[0, 0] + Mrot[1, 1]))
    out: list[HexCandidate] = []
    Rinv = cv2.invertAffineTransform(Rm)
    for qi, ri, cx2, cy2, o, crisp, sc in found:
        cr = hexagon(flat, (cx2, cy2), phi)
        back = (Rinv[:, :2] @ cr.T).T + Rinv[:, 2] + np.array([x0, y0])
        cb = (Rinv[:, :2] @ np.array([cx2, cy2], np.float64)) + Rinv[:, 2] + np.array([x0, y0])
        out.append(HexCandidate(back, cb, theta - phi, o, crisp, sc))
    return out


def _pose(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(cx, cy, turn in degrees, flat width in px) of hexagon ``corners`` float[6, 2], each as a float[1] array
    (the pose arguments of :func:`edge_scores` with ``flat`` = 1)."""
    c = corners.mean(axis=0)
    e01 = corners[1] - corners[0]
    return (np.array([c[0]]), np.array([c[1]]), np.array([math.degrees(math.atan2(e01[1], e01[0]))]),
            np.array([float(np.linalg.norm(corners[0] - corners[4]))]))


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
    d2sq = v[..., 3] * xx * xx + 4.0 * v[..., 4] * xx * xy + v[..., 5] * xx * yy + 4.0 * v[..., 6] * xy * yy + v[..., 7] * yy * yy
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
        out.append(replace(h, corners=cr, centre=np.array([cx, cy]), score=float(scores(*[np.array([v]) for v in (cx, cy, a, sc)])[0])))
    return out


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
    cen = np.array([h.centre for h in out])
    if len(cen) > 1:
        d = np.linalg.norm(cen[:, None] - cen[None], axis=2)
        np.fill_diagonal(d, np.inf)
        nn = d.min(axis=1)
        close = nn[nn < 1.2 * flat]
        pitch = float(np.median(close)) if close.size else flat
    else:
        pitch = flat
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
                if occ < config.grow_min_occupancy:
                    continue
                e6 = edge_scores(maps, 1.0, config, *_pose(cand.corners))[0]
                if float(e6.min()) < config.grow_min_edge:   # a side without an outline: a gap between hexes
                    continue
                if np.min(np.linalg.norm(np.array([o.centre for o in out + new]) - cand.centre, axis=1)) < 0.5 * flat:
                    continue
                new.append(replace(cand, occupancy=occ, crisp=6))
        if not new:
            break
        out.extend(new)
        frontier = new
    return out


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
        for i0, i1 in zip(np.r_[0, cut], np.r_[cut, len(cl)] - 1):
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
    poses = [_pose(h.corners) for h in found]
    e = edge_scores(maps, 1.0, config, *(np.concatenate([p[i] for p in poses]) for i in range(4)))
    cover = min(1.0, len(found) * SQRT3 / 2.0 * F * F / max(fg_area, 1.0))
    if not fit:
        return float(np.mean(outline_score(e))) * cover, None
    best = sorted(found, key=lambda h: -h.occupancy)[:12]
    fit = refine_hexes(im, best, target, replace(config, refine_scale=0.1), scale_free=True, maps=maps)
    size = float(np.median([float(_pose(h.corners)[3][0]) for h in fit])) / k
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


def find_hexes(img: np.ndarray, flat: float, config: HexesConfig, timings: dict[str, float] | None = None,
               refine: bool = True, scale_free: bool = False) -> list[HexCandidate]:
    """Every hex lying flat in the work image ``img`` (uint8[H, W, 3] BGR) where a hex is ``flat`` px across
    its flats; with ``refine`` each outline is then fitted to the image (:func:`refine_hexes`, its size too
    with ``scale_free``)."""
    t = timings if timings is not None else {}
    mask = timed_stage(t, "foreground", foreground_mask, img, config.fg)
    hex_area = SQRT3 / 2.0 * flat * flat
    k = max(3, int(round(config.close_frac * flat)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    mask = fill_small_holes(mask, config.min_hole_frac * hex_area)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out: list[HexCandidate] = []
    with_time = {}
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < config.min_occupancy * hex_area:
            continue
        comp = (lab == i).astype(np.uint8) * 255
        out.extend(timed_stage(with_time, "lattice", blob_hexes, img, gray, comp, flat, config))
    t["lattice"] = t.get("lattice", 0.0) + with_time.get("lattice", 0.0)
    if refine and out:
        maps = outline_maps(img)
        out = timed_stage(t, "refine", refine_hexes, img, out, flat, config, scale_free, maps)
        out = timed_stage(t, "grow", grow_hexes, img, mask, out, flat, config, scale_free, maps)
    return out


# ----------------------------------------------------------------------------------------------- results


@dataclass(frozen=True)
class HexObservation:
    """One sector hex on the table.

    Attributes:
        id: sector id from the deck, or None ('not in the deck', unreadable, or no deck).
        corners: float[6, 2] pixel corners, clockwise from the top-left corner of the tile's printed top
            edge (lattice order, map top-left first, when the rotation is unknown).
        center_px: pixel centre.
        center_mm: table-mm centre (with calibration), else pixels / (px per mm of ``hex_mm``) with the image
            origin (``mm_estimated`` True).
        rotation: 0-5 (see the module docstring), None when the id is unknown.
        rotation_deg: clockwise angle of the tile's printed up (of the map's up when the rotation is
            unknown) from the table's up, degrees in [0, 360).
        axial: (q, r) from the anchor hex, or None (no anchor seen, or off the lattice).
        zone: player zone name or None.
        confidence: 0..1 that ``id`` is right (for id None: that the hex is not in the deck; 0 without deck).
    """

    id: str | None
    corners: np.ndarray
    center_px: tuple[float, float]
    center_mm: tuple[float, float]
    rotation: int | None
    rotation_deg: float
    axial: tuple[int, int] | None
    zone: str | None
    confidence: float
    mm_estimated: bool = False
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "center_mm": [round(float(self.center_mm[0]), 1), round(float(self.center_mm[1]), 1)],
            "rotation": None if self.rotation is None else int(self.rotation),
            "rotation_deg": round(float(self.rotation_deg), 1),
            "axial": None if self.axial is None else [int(self.axial[0]), int(self.axial[1])],
            "zone": self.zone,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class HexesRead:
    """Everything read about sector hexes in one frame.

    Attributes:
        width, height: frame size (px).
        hexes: observations sorted by axial (r, q) when known, then by pixel position.
        flat_px: median flat-to-flat width of a hex in frame pixels.
        markers: MarkerCheck against the calibration, or None without calibration.
        timings_ms: per-stage wall times.
    """

    width: int
    height: int
    hexes: tuple[HexObservation, ...]
    flat_px: float | None = None
    markers: MarkerCheck | None = None
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)

    def to_json(self, image: str | None = None) -> dict:
        """``{"image": image, "hexes": [...]}``; the CLI merges ``"hexes"`` into the cards JSON."""
        return {"image": image, "hexes": [h.to_json() for h in self.hexes]}


# ----------------------------------------------------------------------------------------------- the read


def _hex_mm(deck: DeckProfile | None, config: HexesConfig) -> float | None:
    if config.hex_mm is not None:
        return float(config.hex_mm)
    if deck is not None and getattr(deck, "shape", "card") == "hex" and deck.card_mm:
        return float(deck.card_mm[0])
    return None


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
        small = cv2.resize(frame, (max(1, int(round(w * g))), max(1, int(round(h * g)))), interpolation=cv2.INTER_AREA) if g < 1.0 else frame
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
        small = cv2.resize(frame, (int(round(w * g)), int(round(h * g))), interpolation=cv2.INTER_AREA) if g < 1 else frame
        est = estimate_flat_px(small, config)
        flat_frame = (est / g) if est is not None else 0.12 * min(h, w)
    k = min(4.0, F / max(flat_frame, 1.0))
    img = cv2.resize(frame, (max(1, int(round(w * k))), max(1, int(round(h * k)))),
                     interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    return img, np.diag([k, k, 1.0]), F


def turned_maps(crop: np.ndarray, cfg: IdConfig) -> tuple[np.ndarray, np.ndarray]:
    """(maps float32[6, C, H+2s, W+2s], colour histogram float32[bins]) of one upright hexagon crop
    (:func:`hex_crop`) turned by each of the six 60-degree steps: ``maps[k]`` are the masked structure maps
    (:func:`vision.card_features.card_features`) of the crop whose top is the hexagon's edge k (what
    ``hex_crop(image, np.roll(corners, -k, axis=0))`` gives), computed once and turned (the orientation
    channels' doubled angles turned with them) instead of warping and featuring six crops."""
    big, hist = feature_maps(crop, cfg, "hex")
    C, h, w = big.shape
    ctr = ((w - 1) / 2.0, (h - 1) / 2.0)
    out = np.empty((6, C, h, w), np.float32)
    out[0] = big
    for k in range(1, 6):
        Rm = cv2.getRotationMatrix2D(ctr, 60.0 * k, 1.0)          # counter-clockwise on screen: edge k to the top
        t = np.stack([cv2.warpAffine(big[c], Rm, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
                      for c in range(C)])
        if C >= 4:   # channels 2, 3: (cos 2t, sin 2t) of the gradient angle t, which turns by -60k degrees
            a = math.radians(-120.0 * k)
            c2, s2 = t[2].copy(), t[3].copy()
            t[2] = c2 * math.cos(a) - s2 * math.sin(a)
            t[3] = c2 * math.sin(a) + s2 * math.cos(a)
        out[k] = t
    return mask_face(out, cfg, "hex", crop.shape[:2]), hist


@dataclass(frozen=True)
class HexScore:
    """The deck's answer for one hex before the frame-level 'not in the deck' decision.

    Attributes:
        best: best sector id; d1: its distance; d2: the best other sector's; turn: its rotation (0-5).
        anchor_d: distance of the anchor sector (at its best turn) and anchor_turn that turn (None: no
            anchor id or not in the deck).
    """

    best: str
    d1: float
    d2: float
    turn: int
    anchor_d: float | None = None
    anchor_turn: int | None = None


def score_hex(deck: DeckProfile, crop: np.ndarray, anchor_id: str | None = None, shortlist: int = 4,
              turn_margin: float = 0.12, colour_weight: float | None = None, fine_shift: int | None = None) -> HexScore:
    """Score one upright hexagon crop (uint8[S, S, 3], :func:`hex_crop`) against a hex deck.

    Coarse: every reference at each of the six turns, centred (one matrix product). Fine (shifts of up to
    ``struct_shift`` map pixels and occlusion trimming, as :meth:`vision.deck.DeckProfile.distances`): only
    the ``shortlist`` best sectors, at their best turn (and their second-best turn when within
    ``turn_margin``), and the anchor sector. Per sector and turn the deck's blend of its best and mean
    reference; other sectors keep their coarse distance (an upper bound of the fine one).
    ``colour_weight`` (None: the deck's) weighs the hue histogram; ``fine_shift`` (None: the deck's
    ``struct_shift``) bounds the shifts tried, in map pixels."""
    cfg = deck.config
    if colour_weight is not None:
        cfg = replace(cfg, colour_weight=colour_weight)
    uniq, inv = _sector_index(deck)
    counts = np.bincount(inv, minlength=len(uniq)).astype(np.float32)
    w = np.asarray(cfg.channel_weights, np.float32)
    w = w / w.sum()
    flat = deck._flat_struct()
    s = cfg.struct_shift
    maps, hist = turned_maps(crop, cfg)
    hel = np.sqrt(np.maximum(0.0, 1.0 - np.sqrt(hist[None, :] * deck.colour).sum(axis=1)))        # [N]
    # coarse: half-resolution maps (a quarter of the products), centred
    inner = inner_maps(maps, s)
    q = (normalise_maps(_half(inner)) * w[None, :, None]).reshape(6, -1)                              # [6, C*K/4]
    D = (1.0 - _coarse_refs(deck) @ q.T) + cfg.colour_weight * hel[:, None]                      # [N, 6]

    def blend(Dm: np.ndarray) -> np.ndarray:   # [N, 6] -> [sectors, 6]
        mn = np.full((len(uniq), 6), np.inf, np.float32)
        np.minimum.at(mn, inv, Dm)
        sm = np.zeros((len(uniq), 6), np.float32)
        np.add.at(sm, inv, Dm)
        return (1 - cfg.ref_mean_weight) * mn + cfg.ref_mean_weight * sm / counts[:, None]

    per = blend(D)
    order = np.argsort(per.min(axis=1))
    pick = {int(c) for c in order[:shortlist]}
    a_idx = None
    if anchor_id is not None:
        hit = np.nonzero(uniq == anchor_id)[0]
        if hit.size:
            a_idx = int(hit[0])
            pick.add(a_idx)
    pairs: dict[int, set[int]] = {}
    for c in pick:
        srt = np.argsort(per[c])
        pairs.setdefault(int(srt[0]), set()).add(c)
        if per[c, srt[1]] - per[c, srt[0]] < turn_margin:
            pairs.setdefault(int(srt[1]), set()).add(c)
    Df = D.copy()
    fine = np.zeros_like(D, bool)
    for t, cs in pairs.items():
        refs = np.nonzero(np.isin(inv, list(cs)))[0]
        qs = _shifted_within(maps[t], s, s if fine_shift is None else min(s, fine_shift))   # [S, C, K]
        qw = (qs * w[None, :, None]).reshape(qs.shape[0], -1)
        ncc = qw @ flat[refs].T                                                            # [S, M]
        best = ncc.max(axis=0)
        if cfg.occlusion_drop > 0 and cfg.occlusion_weight > 0:
            trim = deck._trimmed_ncc(qs[ncc.argmax(axis=0)], w, refs)
            best = (1 - cfg.occlusion_weight) * best + cfg.occlusion_weight * np.maximum(best, trim)
        Df[refs, t] = (1.0 - best) + cfg.colour_weight * hel[refs]
        fine[refs, t] = True
    per = blend(Df)
    bc, bt = np.unravel_index(int(np.argmin(per)), per.shape)
    d1 = float(per[bc, bt])
    other = np.delete(per.min(axis=1), bc)
    d2 = float(other.min()) if other.size else max(1.0, 2 * d1)
    ad = at = None
    if a_idx is not None:
        at = int(np.argmin(per[a_idx]))
        ad = float(per[a_idx, at])
    return HexScore(str(uniq[bc]), d1, d2, int(bt), ad, at)


def _half(maps: np.ndarray) -> np.ndarray:
    """float32[..., H/2, W/2]: 2 x 2 block means of maps float32[..., H, W] (odd edges dropped)."""
    h, w = maps.shape[-2] // 2 * 2, maps.shape[-1] // 2 * 2
    m = maps[..., :h, :w]
    return 0.25 * (m[..., 0::2, 0::2] + m[..., 1::2, 0::2] + m[..., 0::2, 1::2] + m[..., 1::2, 1::2])


def _coarse_refs(deck: DeckProfile) -> np.ndarray:
    """float32[N, C*K/4]: the deck's references at half resolution, normalised per channel (cached on the
    deck)."""
    cache = getattr(deck, "_coarse_cache", None)
    if cache is None or cache.shape[0] != len(deck.ref_ids):
        sw, sh = deck.config.struct_size
        st = deck.struct.reshape(len(deck.ref_ids), deck.struct.shape[1], sh, sw)
        cache = np.ascontiguousarray(normalise_maps(_half(st)).reshape(len(deck.ref_ids), -1), np.float32)
        deck._coarse_cache = cache
    return cache


def _shifted_within(big: np.ndarray, s: int, r: int) -> np.ndarray:
    """float32[S, C, K]: the normalised inner maps (``big`` has an ``s``-pixel border) at every shift within
    +-``r`` (r <= s)."""
    C, h, w = big.shape
    H, W = h - 2 * s, w - 2 * s
    outs = [big[:, dy:dy + H, dx:dx + W] for dy in range(s - r, s + r + 1) for dx in range(s - r, s + r + 1)]
    return normalise_maps(np.stack(outs))


def _sector_index(deck: DeckProfile) -> tuple[np.ndarray, np.ndarray]:
    """(sector ids sorted, index of each reference's sector) of a deck (cached on the deck)."""
    key = getattr(deck, "_sector_cache", None)
    if key is None or len(key[1]) != len(deck.ref_ids):
        uniq, inv = np.unique(np.array(deck.ref_ids), return_inverse=True)
        key = (uniq, inv.ravel())
        deck._sector_cache = key
    return key


def decide_hexes(deck: DeckProfile, scores: list[HexScore]) -> list[tuple[str | None, float, int | None, str | None]]:
    """(id or None, confidence, rotation or None, best guess) per hex: 'not in the deck' as
    :meth:`vision.deck.DeckProfile.identify` judges it (against the frame's other hexes)."""
    found = deck.decide_frame([(sc.best, sc.d1, sc.d2, sc.turn) for sc in scores])
    return [(r.card_id, r.confidence, sc.turn if r.card_id is not None else None, r.best_guess)
            for r, sc in zip(found, scores)]


def read_hexes(frame: np.ndarray, deck: DeckProfile | None = None, calibration: TableCalibration | None = None,
               zones: Zones | None = None, config: HexesConfig | None = None, table_config: TableConfig | None = None,
               check_moved: bool = True, keep_crops: bool = False) -> HexesRead:
    """Find, identify and place on the axial map every sector hex lying flat in ``frame``.

    Args:
        frame: uint8[H, W, 3] BGR.
        deck: a hex deck from :func:`build_hex_deck` (None: hexes are found and laid out, ids, rotations
            and axial coordinates are null).
        calibration: table calibration (None: positions in pixels, mm estimated from ``hex_mm``; the
            hex size is estimated from the image unless ``config.hex_px`` is given).
        zones: player zones in mm (or px without calibration); None -> every zone is null.
        config: thresholds (:class:`HexesConfig`); ``anchor_id`` names the hex at axial (0, 0).
        check_moved: with a calibration, compare this frame's markers with it (result in ``.markers``).
        keep_crops: keep each hex's rectified crop (printed top up when known) in ``.crop``.

    Raises:
        BadFrame: the frame is not a non-empty uint8 BGR image.
        NotAHexDeck: ``deck`` was enrolled as cards (use :func:`build_hex_deck`).
    """
    c = config or HexesConfig()
    tc = table_config or TableConfig()
    t: dict[str, float] = {}
    frame = validate_frame(frame, MIN_SIDE_PX)
    if deck is not None and getattr(deck, "shape", "card") != "hex":
        raise NotAHexDeck(f"deck {deck.name!r} holds cards, not sector hexes: enroll it with vision.hexes.build_hex_deck")
    hex_mm = _hex_mm(deck, c)
    img, M, flat = timed_stage(t, "work_image", work_image, frame, calibration, hex_mm, c)
    cands = find_hexes(img, flat, c, t, scale_free=calibration is None and c.hex_px is None)
    Minv = np.linalg.inv(M)
    corners = [apply_homography(Minv, h.corners) for h in cands]
    if calibration is not None:
        keep = [k for k, q in enumerate(corners) if not calibration.covers_marker(q)]
        cands, corners = [cands[k] for k in keep], [corners[k] for k in keep]
    markers = timed_stage(t, "markers", check_markers, frame, calibration, tc) if (calibration is not None and check_moved) else None
    n = len(cands)
    flats = [float(np.linalg.norm(q[0] - q[4])) for q in corners]   # corner 0 -> 4 spans the flats
    flat_px = float(np.median(flats)) if flats else None
    ids: list[str | None] = [None] * n
    confs = [0.0] * n
    rots: list[int | None] = [None] * n
    guesses: list[str | None] = [None] * n
    crops: list[np.ndarray | None] = [None] * n
    anchor_hint: tuple[int, int] | None = None
    if n and (deck is not None or keep_crops):
        # crops from a copy of the frame reduced so a hex is ~1.5 crop widths across (no aliasing)
        g = min(1.0, 1.5 * c.crop_size / max(flat_px or 1.0, 1.0))
        src = frame if g >= 1.0 else cv2.resize(frame, (max(1, int(round(frame.shape[1] * g))), max(1, int(round(frame.shape[0] * g)))),
                                                interpolation=cv2.INTER_AREA)
        up = timed_stage(t, "rectify", lambda: [hex_crop(src, q * g, c.crop_size) for q in corners])
        if deck is not None:
            sc = timed_stage(t, "identify", lambda: [score_hex(deck, cr, c.anchor_id, c.shortlist, colour_weight=c.colour_weight,
                                                               fine_shift=c.fine_shift) for cr in up])
            res = decide_hexes(deck, sc)
            for k, (hid, conf, rot, guess) in enumerate(res):
                ids[k], confs[k], rots[k], guesses[k] = hid, conf, rot, guess
            anchor_hint = _anchor_hint(sc, ids, deck.config, c)
        crops = [up[k] if not rots[k] else hex_crop(src, np.roll(corners[k], -rots[k], axis=0) * g, c.crop_size)
                 for k in range(n)] if keep_crops else [None] * n
    obs = timed_stage(t, "layout", _layout, cands, corners, ids, confs, rots, crops if keep_crops else None,
                      calibration, zones, hex_mm, flat_px, c, guesses, anchor_hint=anchor_hint)
    return HexesRead(frame.shape[1], frame.shape[0], tuple(obs), flat_px, markers, t)


def _anchor_hint(scores: list[HexScore], ids: list[str | None], cfg: IdConfig, c: HexesConfig) -> tuple[int, int] | None:
    """(hex index, turn) of the hex most like the anchor when no hex was identified as it: the one whose
    anchor distance is lowest, below ``unknown_distance_max`` and ``anchor_margin`` below every other
    hex's (a map has one Galactic Center); None otherwise."""
    if c.anchor_id is None or c.anchor_id in ids:
        return None
    ad = [(sc.anchor_d, k) for k, sc in enumerate(scores) if sc.anchor_d is not None]
    if not ad:
        return None
    ad.sort()
    d, k = ad[0]
    if d > cfg.unknown_distance_max or (len(ad) > 1 and ad[1][0] - d < c.anchor_margin):
        return None
    return k, int(scores[k].anchor_turn)


def _layout(cands, corners, ids, confs, rots, crops, calibration, zones, hex_mm, flat_px, c: HexesConfig,
            guesses=None, guess_rots=None, anchor_hint=None) -> list[HexObservation]:
    n = len(cands)
    if n == 0:
        return []
    guesses = guesses or [None] * n
    guess_rots = guess_rots or [None] * n
    estimated = calibration is None
    if calibration is not None:
        cf = [calibration.to_mm(q) for q in corners]
    else:
        mm_per_px = (hex_mm or c.fallback_hex_mm) / max(flat_px or 1.0, 1e-6)
        cf = [q * mm_per_px for q in corners]
    centres = np.array([q.mean(axis=0) for q in cf])
    # the map frame: lattice 'up' (upright edge 0 normal) of each hex in the table frame
    ups = np.array([(q[0] + q[1]) / 2 - q.mean(axis=0) for q in cf])
    pitches = np.array([float(np.linalg.norm(q[0] - q[4])) for q in cf])
    anchor = None
    if c.anchor_id is not None:
        cand = [k for k in range(n) if ids[k] == c.anchor_id]
        if cand:
            anchor = max(cand, key=lambda k: confs[k])
        else:   # the anchor seen but not sure enough (glare, a hand): the hex whose best guess it is
            cand = [k for k in range(n) if guesses[k] == c.anchor_id]
            if len(cand) == 1:
                anchor = cand[0]
            elif anchor_hint is not None:   # the hex most like the anchor, clearly
                anchor = anchor_hint[0]
    axial: list[tuple[int, int] | None] = [None] * n
    if anchor is not None:
        up = ups[anchor] / max(np.linalg.norm(ups[anchor]), 1e-9)
        down = -up
        right = np.array([down[1], -down[0]])   # the map's right (y down)
        Fp = float(np.median(pitches))
        for k in range(n):
            d = centres[k] - centres[anchor]
            x, y = float(d @ right), float(d @ down)
            q = x / (1.5 * Fp / SQRT3)
            r = y / Fp - q / 2.0
            qi, ri, err = axial_round(q, r)
            axial[k] = (qi, ri) if err <= c.axial_tolerance else None
    zone_of = zones_of(zones, centres, corners, estimated)
    obs = []
    for k in range(n):
        rot = rots[k]
        q_px = np.roll(corners[k], -(rot or 0), axis=0)
        q_tf = np.roll(cf[k], -(rot or 0), axis=0)
        u = (q_tf[0] + q_tf[1]) / 2 - q_tf.mean(axis=0)
        deg = math.degrees(math.atan2(u[0], -u[1])) % 360.0
        cpx = corners[k].mean(axis=0)
        obs.append(HexObservation(ids[k], q_px, (float(cpx[0]), float(cpx[1])), (float(centres[k][0]), float(centres[k][1])),
                                  rot, deg, axial[k], zone_of[k], confs[k], estimated,
                                  crops[k] if crops is not None else None))
    obs.sort(key=lambda o: ((0, o.axial[1], o.axial[0]) if o.axial is not None else (1, 0, 0), o.center_px[1], o.center_px[0]))
    return obs


# ----------------------------------------------------------------------------------------------- enrollment


def lone_hex(image: np.ndarray, config: HexesConfig | None = None, min_frac: float = 0.01) -> np.ndarray | None:
    """Corners float[6, 2] (px of ``image``, uint8[H, W, 3] BGR; clockwise from the top-left corner of the
    edge nearest the image's top) of the largest foreground blob that is one hexagon, or None when there is
    none. A blob is one hexagon when its convex hull simplifies (Douglas-Peucker, 2 % of its perimeter) to six
    corners, it fills at least 90 % of that hull and covers at least ``min_frac`` of the image. The regular
    hexagon of the hull's area (flat width sqrt(2 area / sqrt(3))), centroid and mean side direction (mod 60
    degrees) is then fitted to the image's outlines (:func:`refine_hexes`, size within +-``refine_scale``) at
    the work scale (``work_flat_px``)."""
    c = config or HexesConfig()
    h, w = image.shape[:2]
    g = min(1.0, c.estimate_long_side / float(max(h, w)))
    small = cv2.resize(image, (max(1, int(round(w * g))), max(1, int(round(h * g)))), interpolation=cv2.INTER_AREA) if g < 1 else image
    mask = fill_small_holes(foreground_mask(small, c.fg), 0.05 * small.shape[0] * small.shape[1])
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best = None
    for cn in cnts:
        area = cv2.contourArea(cn)
        if area < min_frac * mask.size:
            continue
        hull = cv2.convexHull(cn)
        ha = cv2.contourArea(hull)
        poly = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
        if len(poly) == 6 and area >= 0.9 * ha and (best is None or ha > best[0]):
            best = (ha, poly, hull)
    if best is None:
        return None
    ha, poly, hull = best
    m = cv2.moments(hull)
    centre = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]]) / g
    d = np.roll(poly, -1, axis=0) - poly
    a6 = np.radians(6.0 * np.degrees(np.arctan2(d[:, 1], d[:, 0])))   # side directions mod 60, as angles x 6
    L = np.linalg.norm(d, axis=1)
    ang = math.degrees(math.atan2(float((L * np.sin(a6)).sum()), float((L * np.cos(a6)).sum()))) / 6.0
    F = math.sqrt(2.0 * ha / SQRT3) / g
    k = c.work_flat_px / F
    work = cv2.resize(image, (max(1, int(round(w * k))), max(1, int(round(h * k)))),
                      interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    cand = HexCandidate(hexagon(c.work_flat_px, centre * k, ang), centre * k, 0.0, 1.0, 6, 0.0)
    fit = refine_hexes(work, [cand], c.work_flat_px, c, scale_free=True)[0]
    return fit.corners / k


def hex_enrollment_crop(image: np.ndarray, config: HexesConfig | None = None, kind: str = "auto") -> np.ndarray:
    """The hexagon crop of the one sector hex in an enrollment photo or scan.

    ``kind="scan"``: the image is the hexagon's bounding box, flat top edge up, printed top edge on top
    (outside the hexagon may be anything). ``kind="photo"``: the hex lies on a table, printed top edge
    roughly towards the image's top (within 30 degrees); it is the largest hexagon-shaped foreground blob,
    its outline fitted (:func:`lone_hex`: a photo shows one hex, so no lattice of touching hexes is needed
    to tell its size), else the largest hex the run-time detector finds.
    ``kind="auto"``: a photo when one hex covering 5-60 % of the image is found, else a scan.

    Raises:
        DeckError: ``kind="photo"`` and no hex was found.
    """
    c = config or HexesConfig()
    h, w = image.shape[:2]
    if kind != "scan":
        try:
            one = lone_hex(validate_frame(image, MIN_SIDE_PX), c)
        except VisionError:
            one = None
        if one is not None:
            frac = cv2.contourArea(one.astype(np.float32)) / float(h * w)
            if kind == "photo" or 0.05 <= frac <= 0.60:
                return hex_crop(image, one, c.crop_size)
        try:
            r = read_hexes(image, config=replace(c, anchor_id=None), check_moved=False)
        except VisionError:
            r = None
        best = max(r.hexes, key=lambda o: cv2.contourArea(o.corners.astype(np.float32))) if (r and r.hexes) else None
        if best is not None:
            frac = cv2.contourArea(best.corners.astype(np.float32)) / float(h * w)
            if kind == "photo" or 0.05 <= frac <= 0.60:
                return hex_crop(image, best.corners, c.crop_size)
        if kind == "photo":
            raise DeckError("no sector hex found in the enrollment photo")
    # scan: the flat-top hexagon inscribed in the image
    x1, y1 = w - 1.0, h - 1.0
    q = np.array([[0.25 * x1, 0], [0.75 * x1, 0], [x1, y1 / 2], [0.75 * x1, y1], [0.25 * x1, y1], [0, y1 / 2]], np.float64)
    return hex_crop(image, q, c.crop_size)


def build_hex_deck_from_images(images: dict[str, list[np.ndarray]], name: str = "hexes", hex_mm: float | None = None,
                               config: HexesConfig | None = None, id_config: IdConfig | None = None,
                               sources: list[str] | None = None, kind: str = "auto") -> DeckProfile:
    """Enroll ``sector id -> [BGR images]`` (photos or scans of one hex each; ``kind`` as in
    :func:`hex_enrollment_crop`) into a hex deck (``DeckProfile.shape == "hex"``, ``card_mm`` = (flat-to-flat,
    corner-to-corner) in mm).

    Raises:
        DeckError: no images, or a photo without a hex (``kind="photo"``).
    """
    c = config or HexesConfig()
    if not images:
        raise DeckError("no hex images to enroll")
    crops = {hid: [hex_enrollment_crop(im, c, kind) for im in ims] for hid, ims in images.items()}
    F = float(hex_mm or c.hex_mm or c.fallback_hex_mm)
    return deck_from_crops(crops, name, 1.0, (F, 2 * F / SQRT3), id_config or c.id_config or default_id_config(),
                           sources, shape="hex")


def build_hex_deck(folder: str | Path, name: str | None = None, hex_mm: float | None = None,
                   config: HexesConfig | None = None, kind: str = "auto") -> DeckProfile:
    """Enroll a hex deck from ``folder/<sector-id>/*.{jpg,png,...}`` (the layout of ``companion enroll
    cards``), one or more photos or scans per sector.

    Raises:
        DeckError: the folder is missing, has no sector subfolders, or an image cannot be read.
    """
    folder = Path(folder)
    images, sources = read_enrollment_folder(folder, "sector")
    return build_hex_deck_from_images(images, name or folder.name, hex_mm, config, sources=sources, kind=kind)
