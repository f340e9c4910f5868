"""``companion enroll roll-dice DIR`` and ``companion read IMAGE --dice roll --profile P --json``."""

from __future__ import annotations

import hashlib
import json

import cv2
import numpy as np
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


@pytest.mark.slow
def test_enroll_then_read_json(enrolled, tmp_path, capsys):
    root, faces = enrolled
    profile = tmp_path / "mine.json"
    assert main(["enroll", "roll-dice", str(root / "enroll"), "--out", str(profile)]) == 0
    assert profile.exists()
    # the profile is played with `run --game roll`: `read` on a whole table would count the tiles' symbols as dice
    said = capsys.readouterr().out
    assert f"use it with: companion run --game roll --dice-profile {profile}" in said and "companion read" not in said
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
    err = capsys.readouterr().err.strip().splitlines()
    # one line: no warning first that "the profile will not know" 30 pairs of a profile that is not built
    assert len(err) == 1 and "empty" in err[0] and "warning" not in err[0]


def _enroll_dir(tmp_path, *names):
    root = tmp_path / "enroll"
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "01.png").write_bytes(b"not really a png")
    return root


@pytest.mark.parametrize("names, problem", [
    (("white-explore", "pink-zap"),
     "folder pink-zap/ in {root}: unknown colour 'pink'; the dice are white, red, purple, blue, brown, green, yellow"),
    (("white-zap",),
     "folder white-zap/ in {root}: unknown face 'zap'; the faces are explore, develop, settle, produce, ship, wild"),
    (("white-wild",),
     "folder white-wild/ in {root}: white dice have no wild face (white: explore, develop, settle, produce, ship)"),
    (("yellow-explore",),
     "folder yellow-explore/ in {root}: yellow dice have no explore face (yellow: develop, settle, produce, wild)"),
    (("notes",), "folder notes/ in {root}: name it <colour>-<face>, e.g. white-explore"),
])
def test_enroll_refuses_folders_the_dice_do_not_have(tmp_path, capsys, names, problem):
    root = _enroll_dir(tmp_path, *names)
    code = main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion enroll: {problem.format(root=root)}"]
    assert not (tmp_path / "p.json").exists()


def test_enroll_names_every_bad_folder_in_one_run(tmp_path, capsys):
    root = _enroll_dir(tmp_path, "white-explore", "pink-zap", "white-wild", "notes")
    assert main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(":")[1].strip() for line in err] == ["folder notes/ in " + str(root),
                                                            "folder pink-zap/ in " + str(root),
                                                             "folder white-wild/ in " + str(root)]
    assert all(line.startswith("companion enroll: ") for line in err)


def test_enroll_warns_about_missing_pairs_and_still_builds(tmp_path, capsys):
    root = _enroll_dir(tmp_path, "White-Explore")  # any case, as the builder reads it
    main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")])
    err = capsys.readouterr().err.splitlines()
    # 30 pairs on the dice (white 5, red 4, purple 4, blue 4, brown 5, green 4, yellow 4) less white-explore
    assert err[0] == ("companion enroll: warning: no photos of 29 pairs (white-develop, white-settle, white-produce, "
                      "white-ship, red-explore, red-develop, red-settle, red-wild, purple-explore, purple-develop "
                      "(+19 more)): the profile will not know them")
    # then the (fake) photo named and left out, and the builder's answer: nothing left to build from
    assert len(err) == 3 and "skipped" in err[1] and "no readable photo" in err[2]


def test_a_dice_profile_that_is_a_picture_is_one_line(tmp_path, capsys):
    bad = tmp_path / "rand.jpg"
    bad.write_bytes(bytes(range(256)) * 8)
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    code = main(["read", str(img), "--dice", "roll", "--profile", str(bad)])
    assert code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a UTF-8 JSON file" in err[0]


def test_a_dice_profile_with_the_format_but_not_the_fields_is_one_line(tmp_path, capsys):
    # a hand-edited or half-written profile: the format and version are right, the rest is missing or wrong
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    arrays = tmp_path / "other.npz"
    np.savez(arrays, x=np.zeros(2))
    digest = hashlib.sha256(arrays.read_bytes()).hexdigest()
    header = {"format": "tabletop-companion/roll-dice-profile", "version": 1}
    cases = (({}, '"arrays"'),
             ({"arrays": 5}, '"arrays"'),
             ({"arrays": arrays.name, "arrays_sha256": digest}, "are damaged or another program's file"))
    for n, (fields, why) in enumerate(cases):
        profile = tmp_path / f"p{n}.json"
        profile.write_text(json.dumps({**header, **fields}))
        assert main(["read", str(img), "--dice", "roll", "--profile", str(profile)]) == 2  # no profile at all
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and why in err[0] and str(profile) in err[0]


def test_an_enrollment_folder_that_is_missing_or_a_photo_is_named_in_one_line(tmp_path, capsys):
    photo = tmp_path / "white-explore.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 120, np.uint8))
    for what, example in (("roll-dice", "white-explore/"), ("eclipse-dice", "yellow-1/")):
        for folder in (tmp_path / "no-such-folder", photo):
            assert main(["enroll", what, str(folder), "--out", str(tmp_path / "p.json")]) == 1
            err = capsys.readouterr().err.strip().splitlines()
            assert err == [f"companion enroll: {folder}: not a folder (expected DIR/<colour>-<face>/ subfolders of "
                           f"photos, e.g. {example})"]
    assert not (tmp_path / "p.json").exists()


def test_a_profile_named_by_its_arrays_file_or_a_deck_given_as_profile_names_the_file_there(tmp_path, capsys,
                                                                                            monkeypatch):
    """`--profile mine.npz` (the arrays file enroll writes beside mine.json) means the profile mine.json, not
    '<data>/profiles/mine.npz.json'; a .npz with no profile beside it is named as what it is."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    image = tmp_path / "x.png"
    cv2.imwrite(str(image), render_scene(1).image)
    saved = tmp_path / "data" / "profiles" / "mine.json"
    saved.parent.mkdir(parents=True)
    saved.write_text(json.dumps({"format": "tabletop-companion/roll-dice-profile", "version": 1}))
    assert main(["read", str(image), "--dice", "roll", "--profile", "mine.npz"]) == 2  # its fields missing
    err = capsys.readouterr().err.strip()
    assert "npz.json" not in err and str(saved) in err and "\n" not in err  # the saved profile was read
    deck = tmp_path / "deck.npz"
    deck.write_bytes(b"PK\x03\x04 a deck")
    assert main(["read", str(image), "--dice", "roll", "--profile", str(deck)]) == 3
    err = capsys.readouterr().err.strip()
    assert f"no dice profile at {tmp_path / 'deck.json'}: {deck} is a card deck or a profile's arrays" in err


def test_a_corrupt_photo_in_a_dice_folder_is_named_and_skipped(tmp_path, capsys):
    root = tmp_path / "dice"
    write_enrollment(root, {"white": ["explore", "develop"]}, seed=7, symbol_set="A")
    good = sorted((root / "white-explore").iterdir())[0]
    cut = root / "white-explore" / "zz-cut.png"
    cut.write_bytes(good.read_bytes()[:200])
    alone = root / "white-develop"
    for photo in list(alone.iterdir()):
        photo.unlink()
    (alone / "only.png").write_bytes(good.read_bytes()[:200])  # a pair whose only photo is unreadable
    out = tmp_path / "p.json"
    assert main(["enroll", "roll-dice", str(root), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"companion enroll: skipped {cut}: not a readable image" in err
    assert f"companion enroll: skipped {alone / 'only.png'}: not a readable image" in err
    assert json.loads(out.read_text())["dice_seen"].keys() == {"white-explore"}


@pytest.mark.parametrize("name", ["../mine", "mine.json", "sub/mine", " "])
def test_enroll_name_that_is_a_path_is_refused_before_anything_is_read(tmp_path, capsys, monkeypatch, name):
    """--name '../mine' or 'mine.json' wrote the profile beside the current folder, not in the data directory as
    the help says: refused, pointing at --out."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["enroll", "eclipse-dice", str(tmp_path / "photos"), "--name", name]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"companion enroll eclipse-dice: --name {name!r} is a profile name, saved in "
                   f"{tmp_path / 'data' / 'profiles'}: give a path with --out FILE.json")
    assert list(tmp_path.rglob("*.json")) == [] and not (tmp_path.parent / "mine.json").exists()


# a profile or deck that is no profile at all is said in the player's language, the parser's English left out
# (hand-written expectations of what a Greek, Polish and Hungarian reader sees)
@pytest.mark.parametrize(("lang", "cut_profile", "cut_deck"), [
    ("el", "δεν είναι έγκυρο JSON (χαλάει στη γραμμή 1, στήλη 14)", "κομμένο ή κατεστραμμένο: αντιγράψτε το ξανά"),
    ("pl", "nie jest poprawnym JSON-em (psuje się w wierszu 1, kolumnie 14)", "ucięty lub uszkodzony: skopiuj go"),
    ("hu", "nem érvényes JSON (az 1. sor 14. oszlopánál romlik el)", "csonka vagy sérült: másold át újra"),
])
def test_a_profile_or_deck_cut_short_is_said_in_the_language(tmp_path, capsys, lang, cut_profile, cut_deck):
    img = tmp_path / "blank.png"
    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    profile = tmp_path / "cut.json"
    profile.write_text('{"format": 1 ')
    assert main(["--language", lang, "read", str(img), "--dice", "roll", "--profile", str(profile)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and cut_profile in err[0] and "Expecting" not in err[0] and "not valid" not in err[0]
    whole = tmp_path / "whole.npz"
    np.savez_compressed(whole, meta=np.frombuffer(b'{"version": 1}', np.uint8), struct=np.zeros((4, 8), np.float32))
    deck = tmp_path / "cut.npz"
    deck.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert main(["--language", lang, "read", str(img), "--cards", str(deck)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and cut_deck in err[0] and "enroll cards" in err[0] and "saved by" not in err[0]
