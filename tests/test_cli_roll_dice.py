"""``companion enroll roll-dice DIR`` and ``companion read IMAGE --dice roll --profile P --json``."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main
from companion.commands.files import roll_dice_pairs
from vision.synth import SceneConfig, render_scene, write_enrollment


@pytest.fixture(scope="module")
def enrolled(tmp_path_factory):
    root = tmp_path_factory.mktemp("roll")
    faces = {}
    for colour, face in roll_dice_pairs():
        faces.setdefault(colour, []).append(face)
    write_enrollment(root / "enroll", faces, seed=7, symbol_set="A")
    return root, faces


def test_game_pairs_come_from_the_rules_data():
    pairs = set(roll_dice_pairs())
    # Roll for the Galaxy, dice: white has no Wild face, yellow no Explore; yellow has Wild.
    assert ("white", "wild") not in pairs and ("yellow", "explore") not in pairs
    assert ("yellow", "wild") in pairs and ("white", "explore") in pairs
    assert {c for c, _ in pairs} == {"white", "red", "purple", "blue", "brown", "green", "yellow"}


def test_enroll_then_read_json(enrolled, tmp_path, capsys):
    root, faces = enrolled
    profile = tmp_path / "mine.json"
    assert main(["enroll", "roll-dice", str(root / "enroll"), "--out", str(profile)]) == 0
    assert profile.exists()
    scene = render_scene(12345, SceneConfig(symbol_set="A"), faces_by_colour=faces)
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), scene.image)
    capsys.readouterr()
    assert main(["read", str(image), "--dice", "roll", "--profile", str(profile), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["image"] == str(image) and record["width"] == scene.image.shape[1]
    truth = scene.labels_json()
    assert len(record["dice"]) >= 0.9 * len(truth["dice"])
    for die in record["dice"]:
        assert die["kind"] == "roll" and die["value"] is None
        assert set(die) >= {"kind", "colour", "face", "value", "box", "confidence"}
        if die["face"] is not None and die["confidence"] >= 0.9:
            assert (die["colour"], die["face"]) in set(roll_dice_pairs())


def test_roll_needs_a_profile_and_a_missing_profile_is_named(tmp_path, capsys):
    image = tmp_path / "x.png"
    cv2.imwrite(str(image), render_scene(1).image)
    assert main(["read", str(image), "--dice", "roll"]) == 2
    assert "--profile" in capsys.readouterr().err
    assert main(["read", str(image), "--dice", "roll", "--profile", str(tmp_path / "nope.json")]) == 3
    assert "nope.json" in capsys.readouterr().err


def test_enroll_from_a_folder_without_pairs_says_so(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["enroll", "roll-dice", str(tmp_path / "empty"), "--out", str(tmp_path / "p.json")]) == 1
    assert "empty" in capsys.readouterr().err
