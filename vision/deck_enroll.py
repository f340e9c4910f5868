"""Enrolling a deck: a :class:`vision.deck.DeckProfile` built from ``DIR/<card-id>/`` photos or scans (each card
found and rectified as the run-time reader does, or the whole image taken as the card), or from crops already
rectified (the hexes' sectors).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .card_art import ART_WIDTH
from .card_detect import CardsConfig, crop_size, find_quads, foreground_mask, resize_for_work
from .card_features import IdConfig, card_features, ink_amplitude, inner_maps, normalise_maps
from .deck import DeckProfile
from .deck_file import DeckError
from .errors import N_, VisionError
from .quads import quad_size, rectify
from .table import TableConfig, detect_markers

__all__ = ["build_deck", "build_deck_from_images", "deck_from_crops", "enrollment_crop", "read_enrollment_folder"]

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


def enrollment_crop(image: np.ndarray, aspect: float | None, cards_config: CardsConfig | None = None,
                    kind: str = "auto", width: int | None = None) -> tuple[np.ndarray, float]:
    """The rectified portrait crop of the one card in an enrollment photo or scan, and its aspect.

    ``kind="photo"``: a card lying on a table; it is found and warped with the run-time warp.
    ``kind="scan"``: a scan or tight crop; the whole image is the card.
    ``kind="auto"``: a photo when the largest card found covers 15-80 % of the image, has a card's
    aspect (at most ``max_card_aspect``, and the deck's when known) and what lies outside it looks like
    table (under 10 % foreground), else a scan (a card's own inner frame in a scan
    would otherwise pass for the card).
    ``width``: the crop's width, px (default the card reader's ``crop_width``; height = width x aspect).
    """
    cc = cards_config or CardsConfig()
    h, w = image.shape[:2]
    quad = None
    quads: list[np.ndarray] = []
    if kind != "scan":
        try:
            quads = find_quads(image, cc, aspect)
        except VisionError:
            quads = []
    if quads:
        q = max(quads, key=lambda q: cv2.contourArea(q.astype(np.float32)))
        frac = cv2.contourArea(q.astype(np.float32)) / float(h * w)
        qs_, ql_ = quad_size(q)
        card_like = (ql_ / max(qs_, 1e-6)) <= cc.max_card_aspect and (
            aspect is None or abs((ql_ / max(qs_, 1e-6)) / aspect - 1.0) <= cc.aspect_tol)
        if kind == "photo" or (card_like and 0.15 <= frac <= 0.80 and _outside_is_table(image, q, cc)):
            quad = q
    if quad is None:
        quad = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float64)
        if w > h:  # landscape scan: its top-left is the bottom-left after a clockwise quarter turn
            quad = np.array([[0, h - 1], [0, 0], [w - 1, 0], [w - 1, h - 1]], np.float64)
    s, long = quad_size(quad)
    asp = long / max(s, 1e-6)
    cw, ch = crop_size(cc if width is None else replace(cc, crop_width=int(width)), aspect or asp)
    return rectify(image, quad, cw, ch), asp


def _outside_is_table(image: np.ndarray, quad: np.ndarray, cc: CardsConfig) -> bool:
    img, s = resize_for_work(image, cc)
    fg = foreground_mask(img, cc)
    inside = np.zeros(fg.shape, np.uint8)
    cv2.fillPoly(inside, [(quad * s).astype(np.int32)], 255)
    inside = cv2.dilate(inside, np.ones((9, 9), np.uint8))
    out = inside == 0
    return bool(out.any()) and float(np.count_nonzero(fg[out])) / float(np.count_nonzero(out)) < 0.10


def build_deck_from_images(images: dict[str, list[np.ndarray]], name: str = "deck",
                           card_mm: tuple[float, float] | None = None,
                           aspect: float | None = None, config: IdConfig | None = None,
                           cards_config: CardsConfig | None = None, table_config: TableConfig | None = None,
                           sources: list[str] | None = None, kind: str = "auto") -> DeckProfile:
    """Enroll ``card id -> [BGR images]`` (photos or scans, one card each; ``kind`` as in :func:`enrollment_crop`)."""
    cfg = config or IdConfig()
    cc = cards_config or CardsConfig()
    tc = table_config or TableConfig()
    if not images:
        raise DeckError("no card images to enroll")
    # first pass: the deck's aspect (median of the references) unless given
    if aspect is None:
        asps = [enrollment_crop(im, None, cc, kind)[1] for ims in images.values() for im in ims]
        aspect = float(np.median(asps))
    ref_ids, structs, colours, amps, markers = [], [], [], [], {}
    art: dict[str, np.ndarray] = {}
    s = cfg.struct_shift
    for cid, ims in images.items():
        if ims:
            art[cid] = enrollment_crop(ims[0], aspect, cc, kind, width=ART_WIDTH)[0]
        for im in ims:
            crop, _ = enrollment_crop(im, aspect, cc, kind)
            big, hist = card_features(crop, cfg)
            ref_ids.append(cid)
            structs.append(normalise_maps(inner_maps(big, s)))
            colours.append(hist)
            amps.append(ink_amplitude(crop, cfg))
            for mid in detect_markers(im, tc):
                if mid >= cc.sticker_ids_from:
                    markers[mid] = cid
    if card_mm is None:
        card_mm = (63.0, 63.0 * aspect) if aspect >= 1.15 else (63.0, 63.0)
    return DeckProfile(name, float(aspect), tuple(card_mm), ref_ids, np.stack(structs), np.stack(colours), markers, cfg,
                       sources or [], "card", np.stack(amps), art)


def deck_from_crops(crops: dict[str, list[np.ndarray]], name: str, aspect: float, card_mm: tuple[float, float],
                    config: IdConfig | None = None, sources: list[str] | None = None,
                    shape: str = "card") -> DeckProfile:
    """A profile from already rectified crops (``card id -> [uint8[H, W, 3] BGR crops]``), the same features
    as :func:`build_deck_from_images` (used by :mod:`vision.hexes`, whose crops are hexagons).

    Raises:
        DeckError: no crops.
    """
    cfg = config or IdConfig()
    s = cfg.struct_shift
    ref_ids, structs, colours, amps = [], [], [], []
    for cid, cs in crops.items():
        for crop in cs:
            big, hist = card_features(crop, cfg, shape)
            ref_ids.append(cid)
            structs.append(normalise_maps(inner_maps(big, s)))
            colours.append(hist)
            if shape == "card":
                amps.append(ink_amplitude(crop, cfg))
    if not ref_ids:
        raise DeckError("no crops to enroll")
    return DeckProfile(name, float(aspect), tuple(card_mm), ref_ids, np.stack(structs), np.stack(colours), {}, cfg,
                       sources or [], shape, np.stack(amps) if amps else None)


def read_enrollment_folder(folder: Path, what: str,
                           skipped: list[Path] | None = None) -> tuple[dict[str, list[np.ndarray]], list[str]]:
    """The images of ``folder/<id>/*.{jpg,png,...}``: (id -> BGR images, ``"<id>/<file>"`` per image, in order).

    ``what`` names the ids in messages (``"card"``, ``"sector"``). With ``skipped`` (a list), an image that cannot
    be decoded is appended to it and left out instead of raising (the caller names it).

    Raises:
        DeckError: the folder is missing, has no subfolders holding images, or an image cannot be read (without
            ``skipped``).
    """
    kind = "hex" if what == "sector" else what
    if not folder.is_dir():
        raise DeckError(f"{folder}: not a folder (expected DIR/<{what}-id>/ subfolders with {kind} images)")
    images: dict[str, list[np.ndarray]] = {}
    sources: list[str] = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        for f in sorted(p for p in sub.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES):
            im = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if im is None:
                if skipped is None:
                    raise DeckError(f"{f}: cannot read image")
                skipped.append(f)
                continue
            images.setdefault(sub.name, []).append(im)
            sources.append(f"{sub.name}/{f.name}")
    if not images:
        raise DeckError.said(N_("{folder}: no <{what}-id>/ subfolders holding images"), folder=str(folder), what=what)
    return images, sources


def build_deck(folder: str | Path, name: str | None = None, card_mm: tuple[float, float] | None = None,
               config: IdConfig | None = None, cards_config: CardsConfig | None = None,
               kind: str = "auto", skipped: list[Path] | None = None) -> DeckProfile:
    """Enroll a deck from ``folder/<card-id>/*.{jpg,png,...}`` (one or more photos or scans per card); with
    ``skipped`` (a list) an image that cannot be decoded is put in it and left out (:func:`read_enrollment_folder`).

    Raises:
        DeckError: the folder is missing, has no card subfolders, or an image cannot be read (without ``skipped``).
    """
    folder = Path(folder)
    images, sources = read_enrollment_folder(folder, "card", skipped)
    return build_deck_from_images(images, name or folder.name, card_mm, None, config, cards_config, sources=sources,
                                  kind=kind)
