"""Cards and tiles (issue 5): detection of touching cards, layout rows/cols and anchor cells, enrollment
round trip, unknown cards, ArUco stickers, the JSON shape, and the real SET board photos."""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.cards import CardsConfig, read_cards
from vision.deck import DeckProfile
from vision.deck_enroll import build_deck, build_deck_from_images
from vision.deck_file import DECK_VERSION, DeckError
from vision.mat import render_marker
from vision.observations import CardsRead
from vision.synth_table import GAME_SHAPES, make_scene, reference_images
from vision.table import Zones, calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[1].parent / "shared"))
SET_DIR = SHARED / "datasets" / "set_cards_tableau"

AMONG_IDS = ["main_reactor"] + [f"location_{k:02d}" for k in range(14)]
RACE_IDS = [f"race_{k:02d}" for k in range(20)]


@pytest.fixture(scope="module")
def among_deck() -> DeckProfile:
    return build_deck_from_images(reference_images(AMONG_IDS, GAME_SHAPES["among"]), "among",
                                  card_mm=GAME_SHAPES["among"], kind="scan")


@pytest.fixture(scope="module")
def race_deck(tmp_path_factory) -> DeckProfile:
    # through the folder layout DIR/<card-id>/*.png, like `companion enroll cards`
    root = tmp_path_factory.mktemp("race_deck")
    for cid, ims in reference_images(RACE_IDS[:-2], GAME_SHAPES["race"]).items():
        (root / cid).mkdir()
        for k, im in enumerate(ims):
            cv2.imwrite(str(root / cid / f"{k}.png"), im)
    return build_deck(root, card_mm=GAME_SHAPES["race"], kind="scan")


def matched(labels, cards):
    """label index -> observation whose pixel centre lies inside the label's quad (nearest)."""
    out = {}
    for k, lab in enumerate(labels):
        poly = lab.corners_px.astype(np.float32).reshape(-1, 1, 2)
        inside = [c for c in cards if cv2.pointPolygonTest(poly, tuple(map(float, c.center_px)), False) >= 0]
        if inside:
            out[k] = min(inside, key=lambda c: np.linalg.norm(np.array(c.center_px) - lab.corners_px.mean(axis=0)))
    return out


def test_station_of_touching_cards_grid_cells(among_deck):
    sc = make_scene("among", AMONG_IDS, seed=11, n_cards=16)
    cal = calibrate(sc.image, sc.layout)
    r = read_cards(sc.image, among_deck, calibration=cal, config=CardsConfig(anchor_id="main_reactor"))
    m = matched(sc.cards, r.cards)
    assert len(r.cards) == len(sc.cards) == len(m)
    for k, lab in enumerate(sc.cards):
        assert m[k].id == lab.id
        assert tuple(m[k].cell) == lab.cell, (lab.id, lab.cell, m[k].cell)
    # positions in table mm agree with the generator within a few mm
    for k, lab in enumerate(sc.cards):
        assert np.linalg.norm(np.array(m[k].center_mm) - np.array(lab.center_mm)) < 6.0


def test_tableau_rows_and_columns_and_zones(race_deck):
    sc = make_scene("race", RACE_IDS[:-2], seed=3, n_cards=9, effects=False)
    cal = calibrate(sc.image, sc.layout)
    zones = Zones.even(["south", "north"], sc.layout.width_mm, sc.layout.height_mm)
    r = read_cards(sc.image, race_deck, calibration=cal, zones=zones, config=CardsConfig(anchor_id=None))
    m = matched(sc.cards, r.cards)
    assert len(m) == len(sc.cards) == len(r.cards)
    for k, lab in enumerate(sc.cards):
        assert (m[k].row, m[k].col) == (lab.row, lab.col)
        assert m[k].id == lab.id and m[k].confidence > 0.5
        assert m[k].cell is None
        assert m[k].zone == ("north" if lab.center_mm[1] < sc.layout.height_mm / 2 else "south")
        assert abs(m[k].rotation_deg) < 8.0


def test_json_shape(race_deck):
    sc = make_scene("race", RACE_IDS[:-2], seed=5, n_cards=4, effects=False)
    r = read_cards(sc.image, race_deck, calibration=calibrate(sc.image, sc.layout))
    assert isinstance(r, CardsRead)
    doc = json.loads(json.dumps(r.to_json("table.png")))
    assert list(doc) == ["image", "cards"] and doc["image"] == "table.png"
    assert len(doc["cards"]) == 4
    for c in doc["cards"]:
        assert list(c) == ["id", "corners", "center_mm", "rotation_deg", "row", "col", "cell", "zone", "confidence"]
        assert len(c["corners"]) == 4 and all(len(p) == 2 for p in c["corners"])
        assert 0.0 <= c["confidence"] <= 1.0


def test_enrollment_round_trip_and_versioning(race_deck, tmp_path):
    path = race_deck.save(tmp_path / "race.deck.npz")
    again = DeckProfile.load(path)
    assert again.ref_ids == race_deck.ref_ids and again.aspect == pytest.approx(race_deck.aspect)
    assert again.config == race_deck.config
    crop = reference_images(["race_03"], GAME_SHAPES["race"], seed=99)["race_03"][1]
    crop = cv2.resize(crop, (96, int(96 * race_deck.aspect)))
    a, b = race_deck.identify_one(crop), again.identify_one(crop)
    assert a.card_id == b.card_id == "race_03" and a.confidence == pytest.approx(b.confidence)
    # a profile from a newer program is refused with a reason
    z = dict(np.load(path))
    meta = json.loads(bytes(z["meta"]).decode())
    meta["version"] = DECK_VERSION + 1
    z["meta"] = np.frombuffer(json.dumps(meta).encode(), np.uint8)
    newer = tmp_path / "newer.npz"
    with open(newer, "wb") as f:
        np.savez(f, **z)
    with pytest.raises(DeckError, match="newer"):
        DeckProfile.load(newer)
    with pytest.raises(DeckError, match="not a folder"):
        build_deck(tmp_path / "missing")


def test_unknown_card_has_null_id(race_deck):
    # RACE_IDS[-2:] were never enrolled
    sc = make_scene("race", RACE_IDS, seed=21, n_cards=6, effects=False)
    r = read_cards(sc.image, race_deck, calibration=calibrate(sc.image, sc.layout))
    m = matched(sc.cards, r.cards)
    unknown = [k for k, lab in enumerate(sc.cards) if lab.id in RACE_IDS[-2:]]
    assert unknown, "the seed must place a card that is not in the deck"
    for k in unknown:
        assert m[k].id is None
    for k, lab in enumerate(sc.cards):
        if k not in unknown:
            assert m[k].id == lab.id


def test_aruco_sticker_identifies_a_card(race_deck):
    sc = make_scene("race", RACE_IDS[:-2], seed=8, n_cards=3, effects=False)
    img = sc.image.copy()
    lab = sc.cards[1]
    c = lab.corners_px.mean(axis=0).astype(int)
    side = int(0.45 * np.linalg.norm(lab.corners_px[1] - lab.corners_px[0]))
    mk = cv2.cvtColor(render_marker(17, side), cv2.COLOR_GRAY2BGR)
    pad = max(3, side // 6)
    mk = cv2.copyMakeBorder(mk, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    y0, x0 = c[1] - mk.shape[0] // 2, c[0] - mk.shape[1] // 2
    img[y0:y0 + mk.shape[0], x0:x0 + mk.shape[1]] = mk
    deck = dataclasses.replace(race_deck, markers={17: "sticker_card"})
    r = read_cards(img, deck, calibration=calibrate(img, sc.layout))
    m = matched(sc.cards, r.cards)
    assert m[1].id == "sticker_card" and m[1].confidence >= 0.95


def set_label_to_id(line: str) -> str:
    n, colour, shading, shape = line.split()[:4]
    shading = {"hatched": "striped", "open": "empty", "filled": "solid"}.get(shading, shading)
    return f"{n}-{colour}-{shading}-{shape.rstrip('s')}{'s' if int(n) > 1 else ''}"


@pytest.fixture(scope="module")
def set_deck():
    if not SET_DIR.is_dir():
        pytest.skip(f"SET photos not found at {SET_DIR} (set TABLETOP_SHARED)")
    deck = build_deck(SET_DIR / "card_crops_labelled_sample")
    assert len(deck.card_ids) == 81  # the 81 SET cards, enrolled from the labelled crops
    return deck


@pytest.mark.shared
@pytest.mark.parametrize("board, at_least", [
    # a plain webcam board (row-major labels)
    ("webcam_20170604_134234", 10),
    # the right-hand column lies in a bluish light and the cards are seen at an angle (their first quads
    # are the rectangles around parallelograms): the second look and the light flattening read all but one
    ("webcam_20170529_203823", 11),
])
@pytest.mark.slow
def test_real_set_board(set_deck, board, at_least):
    """Read a real webcam board: 12 cards in row-major order, at least ``at_least`` identified, and no
    card identified wrongly with confidence >= 0.9 (issue 5 targets)."""
    path = SET_DIR / "boards" / f"{board}.png"
    labels = [set_label_to_id(line) for line in path.with_suffix(".txt").read_text().splitlines() if line.strip()]
    r = read_cards(cv2.imread(str(path)), set_deck, config=CardsConfig(mirror="auto"))
    assert len(r.cards) == len(labels) == 12
    assert [(c.row, c.col) for c in r.cards] == [divmod(k, 4) for k in range(12)]
    right = sum(c.id == lab for c, lab in zip(r.cards, labels, strict=True))
    assert right >= at_least, Counter((c.id, lab) for c, lab in zip(r.cards, labels, strict=True) if c.id != lab)
    assert not [c for c, lab in zip(r.cards, labels, strict=True) if c.id not in (None, lab) and c.confidence >= 0.9]


def test_each_zone_has_its_own_station_grid(among_deck):
    # Two players' stations side by side (two synthetic stations joined into one frame, no calibration,
    # zones in pixels): each card's cell is counted from the Main Reactor in its own zone, not from
    # whichever Main Reactor the frame happens to identify best.
    left = make_scene("among", AMONG_IDS, seed=11, n_cards=8)
    right = make_scene("among", AMONG_IDS, seed=12, n_cards=8)
    frame = np.hstack([left.image, right.image])
    w, h = left.image.shape[1], left.image.shape[0]
    zones = Zones({"Ann": np.array([[0, 0], [w, 0], [w, h], [0, h]], float),
                   "Bo": np.array([[w, 0], [2 * w, 0], [2 * w, h], [w, h]], float)}, units="px")
    r = read_cards(frame, among_deck, zones=zones, config=CardsConfig(anchor_id="main_reactor"))
    for scene, zone, dx in ((left, "Ann", 0), (right, "Bo", w)):
        # the frame has no calibration, so the printed markers are found too (as cards not in the deck)
        mine = [c for c in r.cards if c.zone == zone and c.id is not None]
        assert len(mine) == len(scene.cards)
        for lab in scene.cards:
            centre = lab.corners_px.mean(axis=0) + (dx, 0)
            c = min(mine, key=lambda c: np.linalg.norm(np.array(c.center_px) - centre))
            assert c.id == lab.id
            assert tuple(c.cell) == lab.cell, (zone, lab.id, lab.cell, c.cell)


def test_mirror_decided_once_and_a_wrong_setting_said(set_deck):
    # The webcam boards are mirror images (a selfie webcam): decided once from one board, read with that
    # setting the cards are identified with one scoring per card; read with the wrong setting, the read says
    # so instead of failing silently.
    from vision.cards import MIRROR_NOTE, decide_mirror

    board = cv2.imread(str(SET_DIR / "boards" / "webcam_20170604_134234.png"))
    check = decide_mirror(board, set_deck)
    assert check.mirrored is True and check.cards >= 3 and check.flipped < check.plain
    right = read_cards(board, set_deck, config=CardsConfig(mirror="on"))
    assert MIRROR_NOTE not in right.notes and sum(c.id is not None for c in right.cards) >= 10
    wrong = read_cards(board, set_deck, config=CardsConfig(mirror="off"))
    assert MIRROR_NOTE in wrong.notes


def test_a_good_read_asks_nothing_about_the_mirror(race_deck, monkeypatch):
    # Cards that read well are scored once: the other way is never tried.
    import vision.cards

    def never(*args, **kwargs):
        raise AssertionError("the mirror was checked on a good read")

    monkeypatch.setattr(vision.cards, "check_mirror", never)
    sc = make_scene("race", RACE_IDS[:-2], seed=5, n_cards=8)
    r = read_cards(sc.image, race_deck)
    assert r.notes == () and sum(c.id is not None for c in r.cards) >= 6
