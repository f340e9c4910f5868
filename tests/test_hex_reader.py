"""Eclipse sector hexes (issue 5): a synthetic map read back (every hex found, axial coordinates and
rotation right), a hex not in the deck, an empty table, bad frames, the JSON shape, and enrollment through
the ``DIR/<sector-id>/`` folder layout."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.deck import DeckProfile
from vision.deck_enroll import build_deck_from_images
from vision.errors import BadFrame
from vision.hexes import (
    HexesRead,
    NotAHexDeck,
    axial_round,
    build_hex_deck,
    build_hex_deck_from_images,
    read_hexes,
)
from vision.synth_table import hex_reference_images, make_hex_scene, make_scene, reference_images
from vision.table import calibrate

# Eclipse numbering: 001 the Galactic Center, 1xx ring I, 2xx ring II, 3xx ring III
SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2, 3) for k in range(1, 13)]
NOT_ENROLLED = ["299", "399"]


@pytest.fixture(scope="module")
def hex_deck(tmp_path_factory) -> DeckProfile:
    # through the folder layout DIR/<sector-id>/*.png, like `companion enroll cards`
    root = tmp_path_factory.mktemp("eclipse_deck")
    for hid, ims in hex_reference_images(SECTORS).items():
        (root / hid).mkdir()
        for k, im in enumerate(ims):
            cv2.imwrite(str(root / hid / f"{k}.png"), im)
    return build_hex_deck(root, kind="scan")


def matched(labels, hexes):
    """label index -> the observation whose pixel centre lies inside the label's hexagon (nearest)."""
    out = {}
    for k, lab in enumerate(labels):
        poly = lab.corners_px.astype(np.float32).reshape(-1, 1, 2)
        inside = [h for h in hexes if cv2.pointPolygonTest(poly, tuple(map(float, h.center_px)), False) >= 0]
        if inside:
            out[k] = min(inside, key=lambda h: np.linalg.norm(np.array(h.center_px) - lab.corners_px.mean(axis=0)))
    return out


def test_axial_round_is_cube_rounding():
    assert axial_round(0.1, -0.1)[:2] == (0, 0)
    assert axial_round(1.0, -1.0)[:2] == (1, -1)
    assert axial_round(0.9, 0.2)[:2] == (1, 0)
    assert axial_round(0.5, 0.0)[2] > 0.3   # halfway between two cells: far from both


# Accuracy over fixed seed ranges (never chosen by looking at results), against the targets:
# 99.5 % of hexes found, 99 % identified, hex coordinates all right, no wrong id with confidence >= 0.9.
CLEAN_SEEDS = range(4000, 4004)
EFFECT_SEEDS = range(4100, 4110)


def read_maps(deck, seeds, effects: bool) -> dict:
    """Totals over synthetic maps read with calibration: labels, found, identified, rotation and axial right,
    wrong ids with confidence >= 0.9, extra detections, and corner errors (px) of found hexes."""
    tot = {"labels": 0, "found": 0, "identified": 0, "rotation": 0, "axial": 0, "wrong_confident": 0, "extra": 0,
           "corner_err": []}
    for seed in seeds:
        sc = make_hex_scene(SECTORS, seed=seed, effects=effects)
        r = read_hexes(sc.image, deck, calibration=calibrate(sc.image, sc.layout))
        m = matched(sc.hexes, r.hexes)
        tot["labels"] += len(sc.hexes)
        tot["found"] += len(m)
        tot["extra"] += len(r.hexes) - len({id(h) for h in m.values()})
        for k, h in m.items():
            lab = sc.hexes[k]
            tot["identified"] += h.id == lab.id
            tot["rotation"] += h.rotation == lab.rotation
            tot["axial"] += h.axial == tuple(lab.axial)
            tot["wrong_confident"] += h.id not in (None, lab.id) and h.confidence >= 0.9
            if h.id == lab.id:
                tot["corner_err"].append(float(np.abs(h.corners - lab.corners_px).max()))
    return tot


@pytest.fixture(scope="module")
def clean_maps(hex_deck) -> dict:
    return read_maps(hex_deck, CLEAN_SEEDS, effects=False)


@pytest.fixture(scope="module")
def effect_maps(hex_deck) -> dict:
    # perspective, light gradient, colour cast, shadows, glare, a hand, noise and blur, cloth and wood
    return read_maps(hex_deck, EFFECT_SEEDS, effects=True)


@pytest.mark.slow
@pytest.mark.parametrize("which", ["clean_maps", "effect_maps"])
def test_maps_found_identified_and_placed(which, request):
    t = request.getfixturevalue(which)
    n = t["labels"]
    assert n >= 20 * 4
    assert t["found"] >= 0.995 * n, t
    assert t["identified"] >= 0.99 * n, t
    assert t["rotation"] >= 0.99 * n, t
    assert t["axial"] >= 0.995 * n, t
    assert t["wrong_confident"] == 0 and t["extra"] == 0, t


def test_clean_maps_are_all_right_and_outlines_tight(clean_maps):
    t = clean_maps
    assert t["found"] == t["identified"] == t["rotation"] == t["axial"] == t["labels"], t
    # corners start at the tile's printed top-left, within a few pixels of the generator's (a hex is ~75 px)
    assert float(np.percentile(t["corner_err"], 95)) < 3.0 and max(t["corner_err"]) < 6.0


def test_dark_hex_on_a_dark_table_is_found(hex_deck):
    # a sector painted in the table's own colour (its print and outline still show) inside a map
    sc = make_hex_scene(SECTORS, seed=4200, n_hexes=19, effects=False)
    cal = calibrate(sc.image, sc.layout)
    img = sc.image.copy()
    k = next(i for i, lab in enumerate(sc.hexes) if lab.axial not in ((0, 0),))
    lab = sc.hexes[k]
    table = np.median(img[5:40, 200:-200].reshape(-1, 3), axis=0)
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(hexagon_shrunk(lab.corners_px, 0.8)).astype(np.int32)], 255)
    dark = (img.astype(np.float32) * 0.15 + table * 0.85).astype(np.uint8)   # artwork faded into the table colour
    img[m > 0] = dark[m > 0]
    r = read_hexes(img, hex_deck, calibration=cal)
    mm = matched(sc.hexes, r.hexes)
    assert k in mm and len(mm) == len(sc.hexes) and len(r.hexes) == len(sc.hexes)


def hexagon_shrunk(corners: np.ndarray, f: float) -> np.ndarray:
    c = corners.mean(axis=0)
    return c + (corners - c) * f


def test_axial_from_the_most_center_like_hex_when_the_center_is_unsure(hex_deck):
    # the Galactic Center half covered: it may be unidentified, yet axial coordinates count from it
    sc = make_hex_scene(SECTORS, seed=4300, n_hexes=20, effects=False)
    img = sc.image.copy()
    gc = next(lab for lab in sc.hexes if lab.id == "001")
    m = np.zeros(img.shape[:2], np.uint8)
    c = gc.corners_px.mean(axis=0)
    cv2.circle(m, (int(c[0]), int(c[1] + 8)), int(0.3 * np.ptp(gc.corners_px[:, 0])), 255, -1)
    img[m > 0] = (60, 110, 170)   # a skin-coloured blot
    r = read_hexes(img, hex_deck, calibration=calibrate(sc.image, sc.layout))
    mm = matched(sc.hexes, r.hexes)
    assert sum(h.axial == tuple(sc.hexes[k].axial) for k, h in mm.items()) >= len(sc.hexes) - 1


def test_hex_not_in_the_deck_has_null_id(hex_deck):
    sc = make_hex_scene(NOT_ENROLLED + SECTORS[:13], seed=5, n_hexes=12, effects=False)
    unknown = [k for k, lab in enumerate(sc.hexes) if lab.id in NOT_ENROLLED]
    assert unknown, "the seed must place a sector that is not in the deck"
    r = read_hexes(sc.image, hex_deck, calibration=calibrate(sc.image, sc.layout))
    m = matched(sc.hexes, r.hexes)
    for k in unknown:
        assert m[k].id is None and m[k].rotation is None
    known = [k for k in range(len(sc.hexes)) if k not in unknown]
    assert sum(m[k].id == sc.hexes[k].id for k in known) >= len(known) - 1


def test_empty_table_gives_no_hexes(hex_deck):
    sc = make_hex_scene(SECTORS, seed=6, n_hexes=20, effects=False)
    cal = calibrate(sc.image, sc.layout)
    empty = sc.image.copy()
    # paint the table over the map: a blurred copy of a table strip, stretched
    strip = sc.image[:, :40]
    empty[:, 150:-150] = cv2.resize(cv2.GaussianBlur(strip, (0, 0), 3), (empty.shape[1] - 300, empty.shape[0]))
    r = read_hexes(empty, hex_deck, calibration=cal)
    assert isinstance(r, HexesRead) and r.hexes == ()
    assert read_hexes(np.full((480, 640, 3), 90, np.uint8), hex_deck).hexes == ()


@pytest.mark.parametrize("bad", [None, np.zeros((10, 10), np.uint8), np.zeros((0, 5, 3), np.uint8),
                                 np.zeros((100, 100, 3), np.float32), "frame.png"])
def test_bad_frames(bad, hex_deck):
    with pytest.raises(BadFrame):
        read_hexes(bad, hex_deck)


def test_json_shape_and_card_deck_refused(hex_deck):
    sc = make_hex_scene(SECTORS, seed=8, n_hexes=20, effects=False)
    r = read_hexes(sc.image, hex_deck, calibration=calibrate(sc.image, sc.layout))
    doc = json.loads(json.dumps(r.to_json("map.png")))
    assert list(doc) == ["image", "hexes"] and doc["image"] == "map.png" and 18 <= len(doc["hexes"]) <= 20
    for h in doc["hexes"]:
        assert list(h) == ["id", "corners", "center_mm", "rotation", "rotation_deg", "axial", "zone", "confidence"]
        assert len(h["corners"]) == 6 and all(len(p) == 2 for p in h["corners"])
        assert h["rotation"] in range(6) and 0.0 <= h["rotation_deg"] < 360.0
        assert 0.0 <= h["confidence"] <= 1.0
    cards = build_deck_from_images(reference_images(["a", "b"], (63.0, 88.0)), kind="scan")
    with pytest.raises(NotAHexDeck):
        read_hexes(sc.image, cards)


def test_hex_deck_save_load_round_trip(hex_deck, tmp_path):
    again = DeckProfile.load(hex_deck.save(tmp_path / "eclipse.npz"))
    assert again.shape == "hex" and again.ref_ids == hex_deck.ref_ids and again.config == hex_deck.config
    sc = make_hex_scene(SECTORS, seed=9, n_hexes=20, effects=False)
    cal = calibrate(sc.image, sc.layout)
    a = read_hexes(sc.image, hex_deck, calibration=cal)
    b = read_hexes(sc.image, again, calibration=cal)
    assert [h.to_json() for h in a.hexes] == [h.to_json() for h in b.hexes]


def upright_photo(hid: str, seed: int) -> np.ndarray:
    """A photo of sector ``hid`` alone on the table, printed top edge up: the generator's one-hex scene (whose
    hex lies turned by its label's rotation, 60 degrees clockwise per step) turned back about the hex."""
    one = make_hex_scene([hid], seed=seed, n_hexes=1, effects=False, anchor=hid, max_angle=0.0)
    lab = one.hexes[0]
    c = lab.corners_px.mean(axis=0)
    Rm = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), 60.0 * lab.rotation, 1.0)   # counter-clockwise
    h, w = one.image.shape[:2]
    return cv2.warpAffine(one.image, Rm, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def test_enrollment_from_photos_without_calibration():
    # each sector photographed on the table (printed top edge up); read a map without calibration
    photos = {hid: [upright_photo(hid, seed=1)] for hid in SECTORS[:8]}
    deck = build_hex_deck_from_images(photos, kind="photo")
    assert deck.shape == "hex" and sorted(deck.card_ids) == sorted(SECTORS[:8])
    sc = make_hex_scene(SECTORS[:8], seed=12, n_hexes=8, effects=False)
    r = read_hexes(sc.image, deck)   # no calibration: the hex size is estimated from the image
    m = matched(sc.hexes, r.hexes)
    assert len(m) == 8 and len(r.hexes) == 8
    # the estimated size: within 3 % of the generator's hexes (flat width = corner 0 to corner 4)
    label_flat = float(np.median([np.linalg.norm(lab.corners_px[0] - lab.corners_px[4]) for lab in sc.hexes]))
    assert abs(r.flat_px / label_flat - 1.0) < 0.03, (r.flat_px, label_flat)
    assert sum(m[k].id == lab.id and m[k].rotation == lab.rotation for k, lab in enumerate(sc.hexes)) >= 7
    assert sum(m[k].axial == tuple(lab.axial) for k, lab in enumerate(sc.hexes)) >= 7


def test_existing_card_scenes_unchanged():
    # the Eclipse generator is a sibling: card scenes of a seed stay the same
    a = make_scene("race", [f"r{k}" for k in range(10)], seed=3, n_cards=5)
    assert a.hexes == [] and a.game == "race"
