"""Eclipse's combat dice are read in the window of the table that holds them, not over the whole frame (issue 15):
the map the hex read found is left out (:class:`vision.hexes.OffMapDice`), the dice reader's coarse "not table" cue
bounds what lies beside it (:func:`vision.roll_dice.occupied.occupied_window`), and only that window is read, at the
whole frame's scale (:meth:`vision.roll_dice.RollDiceReader.read`'s ``window``). With no map, a map over the whole
frame, or nothing found, the whole frame is read as before."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.occupied import occupied_window

SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2, 3) for k in range(1, 11)]


def _felt(h: int = 360, w: int = 640) -> np.ndarray:
    """Green felt with a little sensor noise (seeded)."""
    rng = np.random.default_rng(3)
    img = np.full((h, w, 3), (40, 110, 40), np.float32) + rng.normal(0, 3, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _square(img: np.ndarray, x: int, y: int, side: int, colour=(40, 200, 230)) -> None:
    img[y:y + side, x:x + side] = colour


# ------------------------------------------------------------------------------------------ the window alone


def test_the_window_holds_each_die_and_the_table_round_it():
    cfg = RollDiceConfig()
    img = _felt()
    _square(img, 450, 60, 24)          # a die of about the reader's default side (4.2 % of 640 px: 27 px)
    _square(img, 520, 200, 24, (40, 60, 200))
    win = occupied_window(img, cfg)
    assert win is not None
    x, y, w, h = win
    # both dice inside, with 1.5 x the largest die side tried (1.32 x 27 px) of table round them, clipped at the frame
    pad = 1.5 * cfg.default_side_frac * 640 * max(cfg.size_hypotheses)
    assert x <= 450 - pad + 8 and y <= max(0.0, 60 - pad + 8) and x + w >= min(640, 544 + pad - 8)
    assert y + h >= 224 + pad - 8
    assert w * h < 0.5 * 640 * 360


def test_what_is_hidden_is_left_out_of_the_window():
    cfg = RollDiceConfig()
    img = _felt()
    _square(img, 450, 60, 24)
    _square(img, 80, 250, 60, (200, 200, 200))      # a marker's paper, say
    paper = np.array([[70, 240], [150, 240], [150, 320], [70, 320]], np.float64)
    win = occupied_window(img, cfg, [paper])
    assert win is not None and win[0] > 150, "the hidden paper does not stretch the window to the left"
    assert occupied_window(img, cfg) is None, "both together span most of the frame: the whole frame is read"


def test_an_empty_table_gives_no_window():
    assert occupied_window(_felt(), RollDiceConfig()) is None


def test_the_window_refuses_what_is_no_frame():
    with pytest.raises(ValueError, match="uint8"):
        occupied_window(np.zeros((50, 50), np.uint8), RollDiceConfig())


# ------------------------------------------------------------------------------------------ reads of an Eclipse table


@pytest.fixture(scope="module")
def combat(tmp_path_factory):
    """Eclipse's combat dice reader, enrolled as ``companion enroll eclipse-dice`` does, and the hex deck."""
    from vision.hexes import build_hex_deck_from_images
    from vision.roll_dice import RollDiceReader, build_profile
    from vision.synth_full import COMBAT_DICE, write_combat_enrollment
    from vision.synth_table import hex_reference_images

    cfg = RollDiceConfig()
    folder = write_combat_enrollment(tmp_path_factory.mktemp("combat"), seed=7)
    pairs = [(c, str(v)) for c in COMBAT_DICE for v in range(1, 7)]
    reader = RollDiceReader(build_profile(folder, allowed=pairs, config=cfg, dice_set="eclipse"), cfg)
    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    return reader, deck


def _two_dice(seed: int = 2):
    """An Eclipse table at 1280x720 with two of its combat dice laid again: one 0.5-1 mm off the right side of the
    map's rightmost hex (against its rim), one two and a half hexes farther right; (table, pieces, [near, far])."""
    from vision.synth_full import full_table

    table = full_table("eclipse", SECTORS, seed, (1280, 720))
    hexes = [p for p in table.pieces if p.kind == "hex"]
    dice = [p for p in table.pieces if p.kind == "die"][:2]
    outlines = [p.corners_mm().astype(np.float32) for p in hexes]
    rim = max(hexes, key=lambda p: p.centre_mm[0])
    flat, side = rim.size_mm[0], dice[0].size_mm[0]
    x = rim.centre_mm[0] + flat / 2.0 + side / 2.0 - 8.0
    near = replace(dice[0], centre_mm=(x, rim.centre_mm[1]), angle_deg=0.0)
    while any(cv2.intersectConvexConvex(near.corners_mm().astype(np.float32), o)[0] > 0 for o in outlines):
        x += 0.25
        near = replace(near, centre_mm=(x, rim.centre_mm[1]))
    near = replace(near, centre_mm=(x + 0.5, rim.centre_mm[1]))
    far = replace(dice[1], centre_mm=(x + 2.5 * flat, rim.centre_mm[1] + 0.5 * flat), angle_deg=20.0)
    return table, hexes, [near, far]


def _found(table, piece, dice) -> list:
    poly = table.polygon_px(piece).astype(np.float32).reshape(-1, 1, 2)
    return [d for d in dice if cv2.pointPolygonTest(poly, (d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2),
                                                    False) >= 0]


@pytest.mark.slow
def test_a_die_against_the_map_and_one_far_off_it_are_both_read_in_the_window(combat):
    from vision.hexes import OffMapDice, paint_out_map
    from vision.hexes.offmap import WINDOW_MAP_MARGIN, _grown_hexes
    from vision.readers import HexesAdapter, RollDiceAdapter
    from vision.table import calibrate

    reader, deck = combat
    table, hexes, dice = _two_dice()
    frame = table.render([*hexes, *dice], frame_seed=0)
    cal = calibrate(frame, table.layout)
    seen = HexesAdapter(deck, cal).read(frame).hexes
    assert len(seen) == 24
    adapter = RollDiceAdapter(reader, calibration=cal)
    win = adapter.occupied(paint_out_map(frame, seen), _grown_hexes(seen, WINDOW_MAP_MARGIN))
    assert win is not None, "the two dice lie in a window of the table"
    x, y, w, h = win
    assert w * h < 0.35 * 1280 * 720
    for p in dice:
        q = table.polygon_px(p)
        assert q[:, 0].min() >= x and q[:, 0].max() <= x + w and q[:, 1].min() >= y and q[:, 1].max() <= y + h
    read = OffMapDice(adapter).read(frame, seen)
    assert "window" in read.timings_ms
    for p in dice:
        on = _found(table, p, read.dice)
        assert len(on) == 1 and (on[0].colour, on[0].face) == (p.colour, p.face), (p.id, on)
    assert len(read.dice) == 2
    # the window is read at the whole frame's scale, on its resampling grid: what the whole painted frame reads
    whole = adapter.read(paint_out_map(frame, seen))
    assert [(d.colour, d.face, d.box) for d in read.dice] == [(d.colour, d.face, d.box) for d in whole.dice]
    assert np.allclose([d.confidence for d in read.dice], [d.confidence for d in whole.dice], atol=1e-3)


@pytest.mark.slow
def test_with_no_map_or_a_map_over_the_whole_frame_the_whole_frame_is_read(combat):
    from vision.hexes import OffMapDice
    from vision.readers import RollDiceAdapter
    from vision.table import calibrate

    reader, _ = combat
    table, _, dice = _two_dice()
    frame = table.render(dice, frame_seed=0)           # the dice alone on the table
    adapter = RollDiceAdapter(reader, calibration=calibrate(frame, table.layout))
    whole = adapter.read(frame)
    everything = SimpleNamespace(corners=np.array([[-2000, 360], [-1000, -2000], [2300, -2000], [3300, 360],
                                                   [2300, 2700], [-1000, 2700]], np.float64))
    for hexes in ((), (everything,)):
        read = OffMapDice(adapter).read(frame, hexes)
        assert "window" not in read.timings_ms
        assert [(d.colour, d.face, d.box) for d in read.dice] == [(d.colour, d.face, d.box) for d in whole.dice]
        for p in dice:
            on = _found(table, p, read.dice)
            assert len(on) == 1 and (on[0].colour, on[0].face) == (p.colour, p.face)


@pytest.mark.slow
def test_a_window_over_the_whole_frame_reads_what_the_whole_frame_reads(combat):
    reader, _ = combat
    table, hexes, dice = _two_dice()
    frame = table.render([*hexes, *dice], frame_seed=1)
    whole = reader.read(frame)
    framed = reader.read(frame, window=(-10, -10, 2000, 1000))
    assert [(d.colour, d.face, d.confidence, d.box) for d in framed.dice] == \
        [(d.colour, d.face, d.confidence, d.box) for d in whole.dice]
    assert reader.read(frame, window=(1300, 0, 50, 50)).dice == ()


def _hex(cx: float, cy: float, r: float) -> SimpleNamespace:
    a = np.deg2rad(np.arange(6) * 60.0)
    return SimpleNamespace(corners=np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1))


def test_a_map_painted_for_some_windows_is_the_whole_paint_inside_them():
    from vision.hexes import paint_out_map

    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (360, 640, 3), np.uint8)
    hexes = [_hex(150 + 52 * k, 120 + 30 * (k % 2), 30) for k in range(5)] + [_hex(200, 260, 30)]
    whole = paint_out_map(frame, hexes)
    for windows in ([(100, 60, 90, 80)], [(420, 40, 60, 60), (170, 230, 70, 70)], [(0, 0, 640, 360)]):
        part = paint_out_map(frame, hexes, within=windows)
        for x, y, w, h in windows:
            assert np.array_equal(part[y:y + h, x:x + w], whole[y:y + h, x:x + w])
    far = [(560, 280, 60, 60)]
    assert paint_out_map(frame, hexes, within=far) is frame, "no hex in reach: nothing painted, nothing copied"
    assert paint_out_map(frame, hexes, within=[]) is frame


@pytest.mark.slow
def test_a_reroll_beside_the_map_reads_what_a_read_of_the_whole_paint_reads(combat):
    from vision.hexes import OffMapDice, paint_out_map
    from vision.incremental import read_changes
    from vision.motion import change_boxes
    from vision.readers import HexesAdapter, RollDiceAdapter
    from vision.synth_full import full_table, reroll
    from vision.table import calibrate

    reader, deck = combat
    for seed in (2, 4):
        table = full_table("eclipse", SECTORS, seed, (1280, 720))
        frame = table.render(frame_seed=0)
        cal = calibrate(frame, table.layout)
        adapter = RollDiceAdapter(reader, calibration=cal)
        hexes = HexesAdapter(deck, cal).read(frame).hexes
        before = OffMapDice(adapter).read(frame, hexes)
        pieces, _, _ = reroll(table, table.pieces, seed)
        frame2 = table.render(pieces, frame_seed=1)
        boxes = change_boxes(frame, frame2)
        got = OffMapDice(adapter).read_changes(frame2, before, boxes, hexes)
        want = read_changes(adapter, paint_out_map(frame2, hexes), before, boxes)
        assert [(d.colour, d.face, d.confidence, d.box) for d in got.dice] == \
            [(d.colour, d.face, d.confidence, d.box) for d in want.dice]


def test_the_map_is_painted_the_median_of_the_table_ring_round_it():
    """The paint's colour is each channel's ``np.median`` over the ring round the map (the map's mask on every 4th
    pixel, grown by a hundredth of the frame's size and by five times that, the pixels in the larger and not in the
    smaller), whatever the frame's size; inside the map every pixel is that colour."""
    import cv2

    from vision.hexes import paint_out_map
    from vision.hexes.offmap import _map_polygons, map_mask

    for h, w, seed in ((360, 640, 1), (361, 643, 2), (720, 1280, 3)):
        rng = np.random.default_rng(seed)
        frame = rng.integers(0, 256, (h, w, 3), np.uint8)
        hexes = [_hex(w * 0.25 + 52 * k, h * 0.35 + 30 * (k % 2), 30) for k in range(5)]
        small = np.zeros(frame[::4, ::4].shape[:2], np.uint8)
        cv2.fillPoly(small, _map_polygons(hexes, 0.06, 0.25), 255, cv2.LINE_8, shift=4)
        k = max(1, int(0.0025 * max(h, w)))
        near = cv2.dilate(small, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
        far = cv2.dilate(small, np.ones((10 * k + 1, 10 * k + 1), np.uint8))
        want = np.median(frame[::4, ::4][(far > 0) & (near == 0)].astype(np.float64), axis=0)
        painted = paint_out_map(frame, hexes)
        inside = map_mask(frame.shape, hexes) > 0
        assert inside.any()
        # fillPoly rounds the colour to uint8 as cv2.saturate_cast does (half to even)
        assert np.array_equal(painted[inside], np.broadcast_to(np.round(want).astype(np.uint8), painted[inside].shape))
        assert np.array_equal(painted[~inside], frame[~inside])
