"""The full-table scene generator's Eclipse table: combat dice drawn as Eclipse's (a blank 1, pips on 2-5, the
weapon's bursts on the 6), at the size the README's camera height gives a die, and read as the box reads them (the
Roll dice reader with a profile enrolled from photos of the dice, ``companion enroll eclipse-dice``)."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.synth_full import (
    COMBAT_BURSTS,
    COMBAT_DICE,
    _die_sprite,
    dice_tray,
    full_table,
    reroll,
    write_combat_enrollment,
)

SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2, 3) for k in range(1, 11)]


def ink_blobs(colour: str, value: int) -> int:
    """How many separate marks (pips, bursts) a combat die's top face carries."""
    sprite, _ = _die_sprite(colour, str(value), value)
    body = np.array(COMBAT_DICE[colour][0], np.float32)
    ink = (np.abs(sprite.astype(np.float32) - body).max(axis=2) > 60).astype(np.uint8)
    n, _ = cv2.connectedComponents(ink)
    return n - 1


@pytest.mark.parametrize("colour", list(COMBAT_DICE))
def test_a_combat_die_shows_a_blank_one_pips_and_its_colours_bursts_on_the_six(colour):
    # Eclipse, Combat: a 6 always hits and deals the weapon's damage (yellow ion 1, orange plasma 2, red antimatter
    # 4: one burst each); a 1 always misses and is blank; 2-5 are pips
    assert ink_blobs(colour, 1) == 0
    assert [ink_blobs(colour, v) for v in (2, 3, 4, 5)] == [2, 3, 4, 5]
    assert ink_blobs(colour, 6) == len(COMBAT_BURSTS[colour]) == {"yellow": 1, "orange": 2, "red": 4}[colour]


def test_a_tray_die_keeps_its_pips():
    # the d6 mode's pip dice are not combat dice: a red tray die's 1 and 6 are pips
    sprite, _ = _die_sprite("red", None, 6)
    ink = (sprite.astype(np.int16).min(axis=2) > 180).astype(np.uint8)
    assert cv2.connectedComponents(ink)[0] - 1 == 6


@pytest.mark.parametrize("size", [(1280, 720), (2304, 1296)])
def test_combat_dice_span_what_the_readme_asks_of_a_die(size):
    # README, "Camera height and angle": a die must span at least 3 % of the view's width
    for seed in (1, 2, 5):
        table = full_table("eclipse", SECTORS, seed, size)
        dice = [p for p in table.pieces if p.kind == "die"]
        assert len(dice) == 8
        for p in dice:
            side = float(np.linalg.norm(np.diff(table.polygon_px(p)[:2], axis=0)))
            assert 0.03 * size[0] <= side <= 0.045 * size[0], (seed, p.id, side)
            assert p.face == str(p.value) and p.colour in COMBAT_DICE


def test_a_rerolled_combat_die_changes_its_face_with_its_value():
    table = full_table("eclipse", SECTORS, 3, (1280, 720))
    for seed in range(6):
        _, old, new = reroll(table, table.pieces, seed)
        assert new.face == str(new.value) and new.id == f"{new.colour}/{new.value}" and new.colour == old.colour


def test_the_dice_tray_is_unchanged_pip_dice():
    tray = dice_tray(5, 4, (640, 360))
    assert all(p.face is None and p.value in range(1, 7) for p in tray.pieces)
    assert [p.id for p in tray.pieces] == [p.id for p in dice_tray(5, 4, (640, 360)).pieces]


def test_combat_enrollment_has_every_colour_and_face(tmp_path):
    out = write_combat_enrollment(tmp_path / "dice", seed=3, dice_per_photo=2, image_size=(640, 360))
    folders = sorted(p.name for p in out.iterdir())
    assert folders == sorted(f"{c}-{v}" for c in COMBAT_DICE for v in range(1, 7))
    photo = cv2.imread(str(out / "red-6" / "photo_0.png"))
    assert photo.shape == (360, 640, 3)


def test_the_map_painted_out_is_the_table_colour_and_the_rest_is_untouched():
    from vision.hexes import map_mask, paint_out_map
    from vision.hexes.geometry import hexagon

    frame = np.full((200, 300, 3), (40, 60, 120), np.uint8)
    cv2.rectangle(frame, (240, 20), (280, 60), (30, 200, 230), -1)            # a die beside the map
    tile = hexagon(80.0, (100.0, 100.0), 0.0)
    cv2.fillPoly(frame, [np.round(tile).astype(np.int32)], (200, 50, 150))   # a sector hex
    hexes = [SimpleNamespace(corners=tile)]
    m = map_mask(frame.shape, hexes)
    painted = paint_out_map(frame, hexes)
    assert (painted[m > 0] == (40, 60, 120)).all()
    assert (painted[m == 0] == frame[m == 0]).all()
    assert paint_out_map(frame, []) is frame


@pytest.mark.slow
def test_the_box_reads_the_combat_dice_beside_a_whole_eclipse_map(tmp_path):
    """The reader the box uses for Eclipse's combat dice, enrolled as ``companion enroll eclipse-dice`` does, finds
    and reads (colour and face) the dice beside a 24-hex map at 1280x720 once the map the hex reader found is painted
    out; the whole table shown to it, the map's artwork is taken for dice."""
    from vision.hexes import OffMapDice, build_hex_deck_from_images
    from vision.readers import HexesAdapter, RollDiceAdapter
    from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
    from vision.synth_table import hex_reference_images
    from vision.table import calibrate

    cfg = RollDiceConfig()
    pairs = [(c, str(v)) for c in COMBAT_DICE for v in range(1, 7)]
    folder = write_combat_enrollment(tmp_path / "dice", seed=7)
    dice = OffMapDice(RollDiceAdapter(RollDiceReader(build_profile(folder, allowed=pairs, config=cfg,
                                                                   dice_set="eclipse"), cfg)))
    deck = build_hex_deck_from_images(hex_reference_images(SECTORS, seed=7), name="eclipse", kind="scan")
    found = right = false = total = 0
    for seed in (2, 5):
        table = full_table("eclipse", SECTORS, seed, (1280, 720))
        frame = table.render(frame_seed=0)
        hexes = HexesAdapter(deck, calibrate(frame, table.layout)).read(frame).hexes
        assert len(hexes) == 24
        read = dice.read(frame, hexes)
        polys = [table.polygon_px(p).astype(np.float32).reshape(-1, 1, 2) for p in table.pieces if p.kind == "die"]
        for p, poly in zip((p for p in table.pieces if p.kind == "die"), polys, strict=True):
            total += 1
            on = [d for d in read.dice
                  if cv2.pointPolygonTest(poly, (d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2), False) >= 0]
            found += bool(on)
            right += bool(on) and (on[0].colour, on[0].face) == (p.colour, p.face)
        false += sum(all(cv2.pointPolygonTest(q, (d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2), False) < 0
                         for q in polys) for d in read.dice)
    assert total == 16 and found >= 15 and right >= 14 and false <= 2


def test_a_combat_die_rolled_in_a_sequence_shows_the_face_it_is_labelled_with():
    from vision.synth_motion import play_sequence

    table = full_table("eclipse", SECTORS, 3, (640, 360))
    seq = play_sequence(table, ["roll"], seed=4, fps=10.0, rest=(0.3, 0.3))
    dice = [p for p in seq.layouts[-1] if p.kind == "die"]
    assert dice and all(p.face == str(p.value) and p.id == f"{p.colour}/{p.value}" for p in dice)
