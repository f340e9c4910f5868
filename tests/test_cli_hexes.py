"""``companion enroll cards DECK DIR --hexes`` and ``companion read IMAGE --cards HEXDECK`` (issue 5, hex tiles):
the per-image JSON of the card reader with the sector hexes under ``"hexes"``; a deck of the wrong kind is
refused in one line."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.synth_table import GAME_SHAPES, hex_reference_images, make_hex_scene, reference_images

# Eclipse numbering: 001 the Galactic Center, 1xx ring I, 2xx ring II
SECTORS = ["001"] + [f"{ring}{k:02d}" for ring in (1, 2) for k in range(1, 13)]
HEX_KEYS = {"id", "corners", "center_mm", "rotation", "rotation_deg", "axial", "zone", "confidence"}


def write_folders(root, images):
    for hid, ims in images.items():
        (root / hid).mkdir(parents=True)
        for k, im in enumerate(ims):
            cv2.imwrite(str(root / hid / f"{k}.png"), im)
    return root


@pytest.fixture(scope="module")
def hex_deck(tmp_path_factory):
    root = write_folders(tmp_path_factory.mktemp("eclipse") / "sectors", hex_reference_images(SECTORS))
    deck = root.parent / "eclipse.npz"
    assert main(["enroll", "cards", str(deck), str(root), "--hexes"]) == 0
    return deck


@pytest.fixture(scope="module")
def card_deck(tmp_path_factory):
    ids = ["old_earth", "spice_world"]
    root = write_folders(tmp_path_factory.mktemp("roll") / "tiles", reference_images(ids, GAME_SHAPES["roll"]))
    deck = root.parent / "roll.npz"
    assert main(["enroll", "cards", str(deck), str(root)]) == 0
    return deck


@pytest.fixture(scope="module")
def hex_map(tmp_path_factory):
    """A synthetic Eclipse map photo, and the table calibration of its four corner markers (what
    `companion calibrate --corners WxH` saves)."""
    from companion.calibration import save_calibration
    from vision.table import calibrate

    scene = make_hex_scene(SECTORS, seed=1, n_hexes=12, effects=False)
    folder = tmp_path_factory.mktemp("maps")
    path = folder / "map.png"
    cv2.imwrite(str(path), scene.image)
    cal = save_calibration(calibrate(scene.image, scene.layout), folder / "calibration.json", source=str(path))
    return path, scene, cal


def test_enroll_hexes_says_what_it_saved(tmp_path, capsys):
    root = write_folders(tmp_path / "sectors", hex_reference_images(["001", "101"]))
    assert main(["enroll", "cards", str(tmp_path / "e.npz"), str(root), "--hexes"]) == 0
    out = capsys.readouterr().out
    assert "(2 sector hexes)" in out and "--cards" in out


@pytest.mark.slow
def test_read_with_a_hex_deck_prints_the_hexes_in_the_cards_json(hex_deck, hex_map, capsys):
    path, scene, cal = hex_map
    capsys.readouterr()
    assert main(["read", str(path), "--cards", str(hex_deck), "--json", "--calibration", str(cal)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert list(record) == ["image", "cards", "hexes"]
    assert record["image"] == str(path) and record["cards"] == []
    assert len(record["hexes"]) == len(scene.hexes) == 12
    for h in record["hexes"]:
        assert set(h) == HEX_KEYS and len(h["corners"]) == 6
    # the map's places from the Galactic Center are the generator's (ids depend on the reader's
    # enrollment, the vision room's work: the CLI prints exactly what vision.hexes.read_hexes reads)
    assert sorted(h["axial"] for h in record["hexes"]) == sorted(list(lab.axial) for lab in scene.hexes)
    from companion.calibration import load_calibration
    from vision.deck import DeckProfile
    from vision.hexes import read_hexes

    direct = read_hexes(cv2.imread(str(path)), DeckProfile.load(hex_deck), calibration=load_calibration(cal))
    assert record["hexes"] == json.loads(json.dumps(direct.to_json(str(path))["hexes"]))


def test_read_with_a_hex_deck_lists_the_hexes_for_people(hex_deck, hex_map, capsys):
    path, scene, cal = hex_map
    capsys.readouterr()
    assert main(["read", str(path), "--cards", str(hex_deck), "--calibration", str(cal)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{path}: 12 hexes: ")
    assert " at [0, 0]" in line and " at [1, -1]" in line


def test_mirror_does_not_apply_to_hexes(hex_deck, hex_map, capsys):
    path, _, _ = hex_map
    assert main(["read", str(path), "--cards", str(hex_deck), "--mirror", "auto"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--mirror" in err[0] and "hexes" in err[0]


def test_a_hex_deck_where_a_card_deck_is_needed_is_refused_in_one_line(hex_deck, capsys, tmp_path):
    # `run --game roll --deck` lays out Roll tiles: a hex deck is "no deck to read with" (exit 3)
    code = main(["demo", "--game", "roll", "--players", "Ann,Bob", "--deck", str(hex_deck), "--no-web", "--no-screen",
                 "--no-gpio", "--db", str(tmp_path / "db.sqlite3"), "--once", "--fast", "--max-frames", "1"])
    assert code == 3
    err = [line for line in capsys.readouterr().err.splitlines() if "companion" in line and "deck" in line]
    assert len(err) == 1
    assert "holds Eclipse sector hexes, not cards or square tiles" in err[0]
    assert "companion enroll cards DECK DIR" in err[0]


def test_a_card_deck_where_a_hex_deck_is_needed_is_refused(card_deck):
    from companion.commands import InputError
    from companion.commands.files import load_deck

    with pytest.raises(InputError, match="holds cards or square tiles, not Eclipse sector hexes: .*--hexes") as info:
        load_deck(str(card_deck), want="hex")
    assert info.value.code == 3
    assert load_deck(str(card_deck), want="card").shape == "card"


@pytest.mark.slow
def test_read_with_a_card_deck_keeps_its_json_shape(card_deck, hex_map, capsys):
    path, _, _ = hex_map
    capsys.readouterr()
    assert main(["read", str(path), "--cards", str(card_deck), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert list(record) == ["image", "cards"]  # no "hexes" key for a card deck


def test_calibration_goes_with_cards_only_and_a_bad_file_is_named(hex_deck, hex_map, tmp_path, capsys):
    path, _, _ = hex_map
    assert main(["read", str(path), "--dice", "d6", "--calibration", str(tmp_path / "c.json")]) == 2
    assert "--calibration" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["read", str(path), "--cards", str(hex_deck), "--calibration", str(bad)]) == 1
    assert str(bad) in capsys.readouterr().err


def test_a_hex_read_below_the_cameras_bar_is_printed_as_a_question_mark():
    """`companion read` prints a card below the camera's 0.6 bar as "?"; hexes were printed at any confidence. Now a
    hex read at 0.59 (or with no id) is "?", at 0.6 and above its id, with where it lies and its turn as before; the
    reader's records themselves (what --json prints) are not changed."""
    from companion.commands.read import CARD_SURE, hexes_said

    records = [{"id": "104", "axial": [1, -1], "rotation": 2, "confidence": 0.59},
               {"id": "001", "axial": [0, 0], "rotation": 0, "confidence": 0.6},
               {"id": None, "axial": None, "rotation": None, "confidence": 0.0},
               {"id": "231", "axial": [2, -2], "rotation": None, "confidence": 0.93}]
    kept = json.loads(json.dumps(records))
    assert CARD_SURE == 0.6
    assert hexes_said(records) == ["? at [1, -1] turned 2", "001 at [0, 0]", "?", "231 at [2, -2]"]
    assert records == kept


def test_read_help_says_an_unsure_hex_is_a_question_mark(capsys):
    with pytest.raises(SystemExit):
        main(["read", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "a card or hex read unsure" in said and "--json keeps every read's id and confidence" in said


def test_a_sector_read_twice_is_printed_once_the_less_sure_read_a_question_mark():
    """Every Eclipse sector hex is in the box once (each tile has its own number): two hexes read as 104 at 0.9 and
    0.7 are one misread, so the surer keeps 104 and the other is "?", as a card beyond the box's copies is; the
    records (what --json prints) keep both ids."""
    from companion.commands.read import hexes_said

    records = [{"id": "104", "axial": [1, -1], "rotation": 0, "confidence": 0.7},
               {"id": "104", "axial": [-1, 1], "rotation": 3, "confidence": 0.9},
               {"id": "001", "axial": [0, 0], "rotation": 0, "confidence": 0.8}]
    assert hexes_said(records) == ["? at [1, -1]", "104 at [-1, 1] turned 3", "001 at [0, 0]"]
    assert [r["id"] for r in records] == ["104", "104", "001"]


def test_read_help_says_a_sector_beyond_the_box_is_a_question_mark(capsys):
    with pytest.raises(SystemExit):
        main(["read", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "a card or sector beyond the copies the box holds (each sector once)" in said


def test_of_several_images_the_one_too_small_to_read_is_named_and_the_others_are_read(hex_deck, tmp_path, capsys):
    blank, dot = tmp_path / "blank.png", tmp_path / "dot.png"
    cv2.imwrite(str(blank), np.zeros((120, 160, 3), np.uint8))
    cv2.imwrite(str(dot), np.full((1, 1, 3), 128, np.uint8))
    assert main(["read", str(blank), str(dot), str(blank), "--cards", str(hex_deck)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{blank}: 0 hexes: none"] * 2
    assert err.splitlines() == [f"companion read: {dot}: frame is too small (under 16 px), shape (1, 1, 3)"]
