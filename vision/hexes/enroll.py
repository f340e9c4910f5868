"""Enrolling a hex deck: one hexagon crop per photo or scan of a sector hex, then the deck's references
(:func:`vision.deck_enroll.deck_from_crops` with ``shape="hex"``)."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..card_detect import foreground_mask
from ..card_features import IdConfig
from ..deck import DeckProfile
from ..deck_enroll import deck_from_crops, read_enrollment_folder
from ..deck_file import DeckError
from ..errors import VisionError
from ..frames import validate_frame
from ..table import MIN_SIDE_PX
from .config import HexesConfig, default_id_config
from .geometry import SQRT3, HexCandidate, hex_crop, hexagon
from .lattice import fill_small_holes
from .outline import refine_hexes
from .reader import read_hexes

__all__ = ["build_hex_deck", "build_hex_deck_from_images", "hex_enrollment_crop", "lone_hex", "seen_whole"]


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
    small = cv2.resize(image, (max(1, int(round(w * g))), max(1, int(round(h * g)))),
                       interpolation=cv2.INTER_AREA) if g < 1 else image
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


def seen_whole(corners: np.ndarray, width: int, height: int, margin_frac: float = 0.01) -> bool:
    """True when every corner (float[6, 2] px) lies inside a ``width`` x ``height`` image by at least
    ``margin_frac`` of its shorter side (at least 2 px): the hex was photographed with table around it, not
    scanned to its bounding box (whose hexagon touches the image's sides) nor cut by the picture's edge."""
    m = max(2.0, margin_frac * min(width, height))
    q = np.asarray(corners, np.float64)
    return bool((q[:, 0] >= m).all() and (q[:, 0] <= width - 1 - m).all()
                and (q[:, 1] >= m).all() and (q[:, 1] <= height - 1 - m).all())


def hex_enrollment_crop(image: np.ndarray, config: HexesConfig | None = None, kind: str = "auto") -> np.ndarray:
    """The hexagon crop of the one sector hex in an enrollment photo or scan.

    ``kind="scan"``: the image is the hexagon's bounding box, flat top edge up, printed top edge on top
    (outside the hexagon may be anything). ``kind="photo"``: the hex lies on a table, printed top edge
    roughly towards the image's top (within 30 degrees); it is the largest hexagon-shaped foreground blob,
    its outline fitted (:func:`lone_hex`: a photo shows one hex, so no lattice of touching hexes is needed
    to tell its size), else the largest hex the run-time detector finds.
    ``kind="auto"``: a photo when one hex covering at least 5 % of the image is found whole, its outline
    clear of the image's border (:func:`seen_whole`: a tightly framed phone photo may show a hex over 60 % of
    the picture), else a scan (the hexagon inscribed in the image touches all four sides).

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
            if kind == "photo" or (frac >= 0.05 and seen_whole(one, w, h)):
                return hex_crop(image, one, c.crop_size)
        try:
            r = read_hexes(image, config=replace(c, anchor_id=None), check_moved=False)
        except VisionError:
            r = None
        best = max(r.hexes, key=lambda o: cv2.contourArea(o.corners.astype(np.float32))) if (r and r.hexes) else None
        if best is not None:
            frac = cv2.contourArea(best.corners.astype(np.float32)) / float(h * w)
            if kind == "photo" or (frac >= 0.05 and seen_whole(best.corners, w, h)):
                return hex_crop(image, best.corners, c.crop_size)
        if kind == "photo":
            raise DeckError("no sector hex found in the enrollment photo")
    # scan: the flat-top hexagon inscribed in the image
    x1, y1 = w - 1.0, h - 1.0
    q = np.array([[0.25 * x1, 0], [0.75 * x1, 0], [x1, y1 / 2], [0.75 * x1, y1], [0.25 * x1, y1], [0, y1 / 2]],
                 np.float64)
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
                   config: HexesConfig | None = None, kind: str = "auto",
                   skipped: list[Path] | None = None) -> DeckProfile:
    """Enroll a hex deck from ``folder/<sector-id>/*.{jpg,png,...}`` (the layout of ``companion enroll
    cards``), one or more photos or scans per sector; with ``skipped`` (a list) an image that cannot be decoded is
    put in it and left out.

    Raises:
        DeckError: the folder is missing, has no sector subfolders, or an image cannot be read (without
            ``skipped``).
    """
    folder = Path(folder)
    images, sources = read_enrollment_folder(folder, "sector", skipped)
    return build_hex_deck_from_images(images, name or folder.name, hex_mm, config, sources=sources, kind=kind)
