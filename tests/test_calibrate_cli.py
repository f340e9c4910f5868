"""``companion calibrate``: the table calibration (and lens) from the markers in view, saved as JSON;
``run``/``demo`` load it (``--calibration FILE``). Exit codes as the README defines them."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.calibration import BadCalibrationFile, load_calibration
from companion.cli import main
from vision.synth_table import make_scene


@pytest.fixture(scope="module")
def scene():
    return make_scene("among", ["main_reactor", "customs"], seed=0, n_cards=2, effects=False)


@pytest.fixture
def photo(tmp_path, scene):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.image)
    return path


def corners_arg(scene) -> str:
    return f"{scene.layout.width_mm:.3f}x{scene.layout.height_mm:.3f}:40"


def test_calibrate_from_corner_markers_saves_json_in_the_data_dir(tmp_path, monkeypatch, scene, photo, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene)]) == 0
    out = capsys.readouterr().out
    saved = tmp_path / "data" / "calibration.json"
    assert f"saved {saved}: 4 markers" in out
    doc = json.loads(saved.read_text())
    assert (doc["format"], doc["version"], doc["table"]["lens"]) == ("tabletop-companion/calibration", 1, None)
    assert doc["table"]["frame_size"] == [1280, 720]
    cal = load_calibration(saved)
    # every card's centre (exact scene labels) maps back to its table mm within 1 mm
    for card in scene.cards:
        mm = cal.to_mm(card.corners_px.mean(axis=0, keepdims=True))[0]
        assert np.linalg.norm(mm - np.array(card.center_mm)) < 1.0


def test_no_markers_in_view_is_a_one_line_error_exit_1(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((240, 320, 3), 120, np.uint8))
    assert main(["calibrate", "--source", str(blank), "--out", str(tmp_path / "c.json")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion calibrate: saw no calibration marker but need at least 2 of #0, #1, #2, #3")
    assert "\n" not in err and not (tmp_path / "c.json").exists()


def test_no_frame_source_is_exit_3(tmp_path, capsys):
    assert main(["calibrate", "--source", str(tmp_path / "missing.png"), "--out", str(tmp_path / "c.json")]) == 3
    assert capsys.readouterr().err.startswith("companion calibrate: no frame from ")


def test_bad_corners_option_is_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "--corners", "wide"])
    assert exc.value.code == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_lens_from_the_sheet_at_several_tilts(tmp_path, capsys):
    from tests.test_lens import POSES, _view

    rng = np.random.default_rng(5)
    paths = []
    for k, (R, t) in enumerate(POSES):
        path = tmp_path / f"tilt{k}.png"
        cv2.imwrite(str(path), _view(R, t, rng))
        paths.append(str(path))
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--source", paths[0], "--lens", *paths, "--out", str(out)]) == 0
    assert f"lens from {len(POSES)} views" in capsys.readouterr().out
    cal = load_calibration(out)
    assert cal.lens is not None and cal.lens.views == len(POSES) and cal.lens.rms_px < 1.0
    # two views cannot fit a lens: one line, exit 1, nothing written
    assert main(["calibrate", "--source", paths[0], "--lens", *paths[:2], "--out", str(tmp_path / "c2.json")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion calibrate: lens: usable views of the sheet: 2;"), err
    assert not (tmp_path / "c2.json").exists()


@pytest.mark.parametrize("lang, words", [("el", "χρήσιμες όψεις του φύλλου: 2 (τα καρέ [2] έδειξαν πολύ λίγους "
                                                "δείκτες)· χρειάζονται 3"),
                                         ("pl", "użyteczne widoki arkusza: 2 (klatki [2] pokazały za mało znaczników); "
                                                "potrzeba 3"),
                                         ("hu", "a lap használható nézetei: 2 (a [2] képkockákon túl kevés jelölő "
                                                "látszott); 3 kell")])
def test_a_lens_that_cannot_be_fitted_is_said_in_the_commands_language(tmp_path, capsys, lang, words):
    """Two tilts of the sheet and a photo without it cannot fit a lens (three tilts at least): the refusal was
    English under --language; it names the frame without markers and how many views are needed."""
    from tests.test_lens import POSES, _view

    rng = np.random.default_rng(5)
    paths = []
    for k, (R, t) in enumerate(POSES[:2]):
        path = tmp_path / f"tilt{k}.png"
        cv2.imwrite(str(path), _view(R, t, rng))
        paths.append(str(path))
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full(cv2.imread(paths[0]).shape, 128, np.uint8))  # the same size, no sheet
    out = tmp_path / "cal.json"
    assert main(["--language", lang, "calibrate", "--source", paths[0], "--lens", *paths, str(blank),
                 "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert words in err and "usable view" not in err and not out.exists(), err


def test_load_refuses_other_files(tmp_path):
    other = tmp_path / "x.json"
    other.write_text('{"format": "something else"}')
    with pytest.raises(BadCalibrationFile, match="not a calibration written by"):
        load_calibration(other)
    with pytest.raises(BadCalibrationFile, match="no calibration at"):
        load_calibration(tmp_path / "none.json")
    other.write_text("{not json")
    with pytest.raises(BadCalibrationFile, match="is not valid JSON"):
        load_calibration(other)
    # a photo given as the calibration (the sheet's picture instead of the file made from it): named as not a
    # calibration, not by the UTF-8 codec's byte offset
    other.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    with pytest.raises(BadCalibrationFile, match="not a calibration written by .*a picture or another file") as exc:
        load_calibration(other)
    assert "codec" not in str(exc.value)


def test_run_with_a_missing_calibration_file_is_exit_3_before_a_session(tmp_path, photo, capsys):
    # README: 3 = nothing to read with (a missing input file); checked before a session is recorded
    code = main(["demo", str(photo.parent), "--game", "among", "--players", "Ann,Bob", "--calibration",
                 str(tmp_path / "none.json"), "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen",
                 "--no-gpio", "--once", "--fast", "--max-frames", "2"])
    assert code == 3
    assert "no calibration at" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


def test_deck_without_a_flow_game_is_exit_2(tmp_path, capsys):
    code = main(["demo", "--deck", "mine", "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio"])
    assert code == 2
    assert "--deck goes with a game: give --game roll|race|among|eclipse" in capsys.readouterr().err


def test_calibrate_never_overwrites_another_file_but_replaces_its_own(tmp_path, scene, photo, capsys):
    from companion.session import SessionStore

    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as s:
        s.start("d6", {})
    before = db.read_bytes()
    assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene), "--out", str(db)]) == 1
    assert "not written by this command" in capsys.readouterr().err
    assert db.read_bytes() == before
    out = tmp_path / "cal.json"
    for _ in range(2):  # its own calibration is replaced (calibrating again)
        assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene), "--out", str(out)]) == 0
    assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene), "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.tmp"))
    if Path("/proc/self").is_dir():  # Linux's /proc takes no new file, whoever runs this
        proc = "/proc/cal.json"
        assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene), "--out", proc]) == 1
        err = capsys.readouterr().err
        assert "cannot write /proc/cal.json: " in err and ".tmp" not in err  # the file asked for, not ours


@pytest.mark.parametrize("text, words", [
    ("[" * 100_000, "nested too deeply"),
    ('{"format": "tabletop-companion/calibration", "version": 1' + "0" * 5000 + "}", "cannot be read"),
])
def test_a_hostile_calibration_file_is_one_line(tmp_path, text, words):
    bad = tmp_path / "cal.json"
    bad.write_text(text)
    with pytest.raises(BadCalibrationFile, match=words):
        load_calibration(bad)


def test_calibrate_makes_the_folders_of_out_or_says_before_the_camera_it_cannot(tmp_path, scene, photo, capsys):
    out = tmp_path / "new" / "sub" / "calibration.json"
    assert main(["calibrate", "--source", str(photo), "--corners", corners_arg(scene), "--out", str(out)]) == 0
    assert json.loads(out.read_text())["format"] == "tabletop-companion/calibration"
    (tmp_path / "a-file").write_text("not a folder")
    blocked = tmp_path / "a-file" / "sub" / "calibration.json"
    # said before the frame source is opened: a missing source would be exit 3 "no frame from ..."
    assert main(["calibrate", "--source", str(tmp_path / "missing.png"), "--out", str(blocked)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"companion calibrate: cannot write {blocked}: a file is where a folder should be"
    # in the command's language, the reason too (it was the C library's English "Not a directory")
    from companion import i18n

    assert main(["--language", "el", "calibrate", "--source", str(tmp_path / "missing.png"), "--out",
                 str(blocked)]) == 1
    err = capsys.readouterr().err.strip()
    reason = i18n.say(i18n.Text("a file is where a folder should be"), "el")
    assert reason != "a file is where a folder should be" and str(blocked) in err and err.endswith(reason)
    assert "Not a directory" not in err


@pytest.mark.parametrize(("lang", "words"), [
    ("el", "δεν είναι έγκυρο JSON (αναμενόταν ',' στη γραμμή 1, στήλη 14)· τρέξτε ξανά το `companion calibrate`"),
    ("pl", "nie jest poprawnym JSON-em (oczekiwano ',' w wierszu 1, kolumnie 14); uruchom ponownie"),
    ("hu", "nem érvényes JSON (itt egy ',' jelnek kellene állnia, 1. sor, 14. oszlop); futtasd újra"),
])
def test_a_calibration_cut_short_is_said_in_the_language_without_the_parsers_english(tmp_path, lang, words):
    from companion import i18n

    bad = tmp_path / "cal.json"
    bad.write_text('{"format": 1 "table": {}}')
    with pytest.raises(BadCalibrationFile) as info:
        load_calibration(bad)
    said = i18n.say(info.value, lang)
    assert words in said and "Expecting" not in said and "char" not in said


# -- four corner markers photographed as the full tables lay them (the generator's own layout) -----------------------


@pytest.fixture(scope="module")
def full_roll():
    from bench.table_reader import game_ids
    from vision.synth_full import full_table

    return full_table("roll", game_ids()["roll"], 1, image_size=(960, 540))


def test_a_full_table_photo_calibrates_through_the_command_with_its_corner_layout(tmp_path, full_roll, capsys):
    """The frame of a whole Roll table with its four 40 mm corner markers, calibrated through ``companion calibrate``
    with the area the markers' outer corners span: saved, and every die's centre maps back to its table mm."""
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), full_roll.render(frame_seed=0))
    area = f"{full_roll.layout.width_mm:.2f}x{full_roll.layout.height_mm:.2f}:40"
    out = tmp_path / "cal.json"
    assert main(["calibrate", "--source", str(photo), "--corners", area, "--out", str(out)]) == 0
    assert "4 markers" in capsys.readouterr().out
    cal = load_calibration(out)
    for piece in (p for p in full_roll.pieces if p.kind == "die"):
        centre_px = full_roll.polygon_px(piece).mean(axis=0, keepdims=True)
        assert np.linalg.norm(cal.to_mm(centre_px)[0] - np.asarray(piece.centre_mm)) < 1.5


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "they fit four separate markers at the corners of a play area of about"),
    ("el", "ταιριάζουν με τέσσερις χωριστούς δείκτες στις γωνίες μιας περιοχής παιχνιδιού περίπου"),
    ("pl", "pasują do czterech osobnych znaczników w narożnikach obszaru gry o wymiarach około"),
    ("hu", "négy különálló jelölőnek felelnek meg")])
def test_corner_markers_taken_for_the_a4_sheet_are_measured_and_the_option_named(tmp_path, full_roll, capsys, lang,
                                                                               words):
    """Without ``--corners`` the box looks for the A4 sheet (markers 12 mm in from its edges): four markers at a table's
    corners do not fit it (the play-through's "reprojection error 79 px"). The refusal says so in one line, and how
    large a play area with 40 mm markers (the sheet's own) the photo shows (within 2 % of the 643 x 362 mm laid out),
    with the option that describes it; that option then calibrates."""
    import re

    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), full_roll.render(frame_seed=0))
    out = tmp_path / "cal.json"
    assert main(["--language", lang, "calibrate", "--source", str(photo), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err and not out.exists(), err
    w, h, side = (float(v) for v in re.search(r"--corners (\d+)x(\d+):(\d+)", err).groups())
    assert side == 40
    assert abs(w / full_roll.layout.width_mm - 1) < 0.02 and abs(h / full_roll.layout.height_mm - 1) < 0.02
    assert main(["calibrate", "--source", str(photo), "--corners", f"{w:g}x{h:g}:40", "--out", str(out)]) == 0


def test_the_corner_area_of_four_markers_seen_square_on():
    """Hand-worked: a 600 x 400 mm area with 40 mm corner markers seen square on at 1.5 px per mm, shifted by (30, 20)
    px: the markers' corners are 1.5 x their mm + (30, 20); the area fitted is 600 x 400 mm, and with 50 mm markers
    (another side) 750 x 500 mm, the photo fixing the area in marker sides only (15 x 10)."""
    from vision.table import corner_area, corner_layout

    seen = {i: q * 1.5 + np.array([30.0, 20.0]) for i, q in corner_layout(600.0, 400.0, 40.0).corners_mm.items()}
    w, h, side, err = corner_area(seen, 40.0)
    assert (round(w, 1), round(h, 1), side) == (600.0, 400.0, 40.0) and err < 0.01
    w, h, _, _ = corner_area(seen, 50.0)
    assert (round(w, 1), round(h, 1)) == (750.0, 500.0)
    assert corner_area({k: v for k, v in seen.items() if k != 2}, 40.0) is None   # a marker out of view
