"""What a newcomer typed on the command line and read back: a clear line naming the problem, in the command's
language, and the exit code the command line documents (0 ok, 1 input that could not be read, 2 bad command line,
3 no camera, session database or data folder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.commands.box import demo_photos
from tests.test_export_cli import _finished_race

PHOTO = sorted(demo_photos().glob("*.jpg"))[0]

# hand-written: the play area's sizes said wrong, and the markers too large for it, in each language
NOT_ABOVE_ZERO = {"en": "must be numbers of mm above 0", "el": "πάνω από 0", "pl": "większymi od 0",
                  "hu": "0-nál nagyobb"}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_negative_play_area_is_said_as_a_size_not_as_a_missing_argument(capsys, lang):
    """`calibrate --corners -5x3` got argparse's "expected one argument": a value starting with '-' and a digit was
    taken for an option."""
    with pytest.raises(SystemExit) as stopped:
        main(["--language", lang, "calibrate", "--corners", "-5x3"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "'-5x3'" in err and NOT_ABOVE_ZERO[lang] in err and "--corners" in err, err


@pytest.mark.parametrize("given, words", [
    ("5x3", "the markers' side (50 mm) must be above 0 and less than half the play area's shorter side (1.5 mm)"),
    ("900x600:0", "the markers' side (0 mm) must be above 0"),
    ("900x600:-40", "the markers' side (-40 mm) must be above 0"),
    ("infx600", "inf is too large to be a number of mm (it reads as infinite)"),
    ("nanx600", "must be numbers of mm above 0"),
    ("1e999x362:40", "1e999 is too large to be a number of mm (it reads as infinite)"),
    ("643x1E999:40", "1e999 is too large to be a number of mm"),
    ("643x362:1e999", "1e999 is too large to be a number of mm"),
    ("643x362:", "the markers' side is missing after ':': give it in mm, e.g. 643x362:40, or leave out ':' for "
                 "markers of 50 mm"),
    ("643x362: ", "the markers' side is missing after ':'"),
])
def test_each_wrong_play_area_names_what_is_wrong(capsys, given, words):
    with pytest.raises(SystemExit) as stopped:
        main(["calibrate", "--corners", given])
    assert stopped.value.code == 2
    assert words in capsys.readouterr().err


def test_a_play_area_with_its_side_left_out_takes_markers_of_50_mm():
    """``--corners WxH`` with no ':' is markers of 50 mm (the help's "each M mm (default 50)"); with ':' the side is
    given, never guessed."""
    from companion.cli_types import corners_arg

    assert corners_arg("643x362") == (643.0, 362.0, 50.0)
    assert corners_arg("643x362:40") == (643.0, 362.0, 40.0)


# hand-written: the side left empty after ':', and a size too large to be a number, in each language
SIDE_MISSING = {"en": "the markers' side is missing after ':'", "el": "λείπει η πλευρά των δεικτών μετά το ':'",
                "pl": "po ':' brakuje boku znaczników", "hu": "a ':' után hiányzik a jelölők oldala"}
TOO_LARGE = {"en": "1e999 is too large to be a number of mm", "el": "το 1e999 είναι πολύ μεγάλο για αριθμός mm",
             "pl": "1e999 to za dużo jak na liczbę mm", "hu": "1e999: ez túl nagy szám ahhoz, hogy mm legyen"}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_missing_side_and_an_infinite_size_are_named_in_each_language(capsys, lang):
    for given, said in (("643x362:", SIDE_MISSING), ("1e999x362:40", TOO_LARGE)):
        with pytest.raises(SystemExit) as stopped:
            main(["--language", lang, "calibrate", "--corners", given])
        assert stopped.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert f"'{given}'" in err and said[lang] in err and "--corners" in err, err


def test_an_option_value_like_a_negative_number_still_reaches_its_check(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["demo", "--hold", "-5"])
    assert stopped.value.code == 2 and "-5 s: give a positive number of seconds" in capsys.readouterr().err


# hand-written: a data folder nothing can be made in (Linux's /proc), in each language
NO_NEW_FOLDERS = {"en": "takes no new folders", "el": "δεν δημιουργούνται νέοι φάκελοι",
                  "pl": "nie da się tworzyć nowych folderów", "hu": "nem hozható létre új mappa"}


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc, where nothing can be made")
@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_config_check_names_a_data_folder_the_box_cannot_make(tmp_path, capsys, lang):
    """`config check` said ok for `data_dir = "/proc/nope"`, then `demo` exited 3 on it."""
    path = tmp_path / "config.toml"
    path.write_text('version = 1\n\n[box]\ndata_dir = "/proc/nope/box"\n')
    assert main(["--language", lang, "config", "check", str(path)]) == 1
    out = capsys.readouterr().out.strip()
    assert out.startswith(f"{path}:4: box.data_dir: ") and NO_NEW_FOLDERS[lang] in out and "\n" not in out, out
    assert not Path("/proc/nope").exists()


def test_config_check_names_a_data_folder_under_a_file_and_passes_one_it_can_make(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("a file, not a folder")
    path = tmp_path / "config.toml"
    path.write_text(f'[box]\ndata_dir = "{tmp_path / "notes.txt" / "data"}"\n')
    assert main(["config", "check", str(path)]) == 1
    assert "box.data_dir: cannot make the data folder (a file is where a folder should be)" in capsys.readouterr().out
    path.write_text(f'[box]\ndata_dir = "{tmp_path / "new" / "data"}"\n')
    assert main(["config", "check", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: ok")
    assert not (tmp_path / "new").exists()  # checked, not made: the box makes it when it starts


def test_a_folder_where_a_file_is_wanted_is_a_bad_command_line_everywhere(tmp_path, capsys, monkeypatch):
    """`calibrate --out /tmp` and `export --json /tmp` exited 1 while `read --cards /tmp` and `--config /tmp` exited
    2: a folder named where the command wants a file is a bad command line (2), said before anything is opened."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "adir.png"
    folder.mkdir()
    db = tmp_path / "demo.sqlite3"
    _finished_race(db)
    commands = [
        ["calibrate", "--source", str(PHOTO), "--out", str(folder)],
        ["export", "--db", str(db), "--unfinished", "--json", str(folder)],
        ["export", "--db", str(db), "--unfinished", "--bgstats", str(folder)],
        ["print-mat", str(folder)],
        ["config", "init", str(folder)],
        ["enroll", "roll-dice", str(tmp_path), "--out", str(folder)],
        ["read", str(PHOTO), "--cards", str(folder)],
        ["demo", "--config", str(folder), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"],
    ]
    for command in commands:
        assert main(command) == 2, command
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and f"{folder}" in err and "is a folder" in err, (command, err)
    assert sorted(p.name for p in folder.iterdir()) == []  # nothing written into it


def test_a_folder_given_as_the_file_a_command_reads_is_input_that_could_not_be_read(tmp_path, capsys):
    for command in (["read", str(tmp_path)], ["score", "race", str(tmp_path)], ["config", "check", str(tmp_path)]):
        assert main(command) == 1, command
        said = capsys.readouterr()
        assert str(tmp_path) in said.out + said.err and "folder" in said.out + said.err, (command, said)


@pytest.mark.parametrize("given", ["643_0x362", "643x362:4_0", "１２x34", "643x٣٦٢"])
def test_a_size_python_would_read_but_a_player_would_not_is_refused(capsys, given):
    """``643_0x362`` (a slip between 643 and 0) was taken as a play area 6430 mm wide, and full-width or Arabic-Indic
    digits as numbers: only the digits 0-9, a point and an exponent make a number of mm."""
    with pytest.raises(SystemExit) as stopped:
        main(["calibrate", "--corners", given])
    assert stopped.value.code == 2
    assert "give the play area as WIDTHxHEIGHT in mm, e.g. 900x600 or 900x600:40" in capsys.readouterr().err


def test_the_hint_never_suggests_corners_the_option_refuses():
    """Markers said 1e-9 mm: the photo fits an area of 1.6e-8 x 9.1e-9 mm, which rounds to 0x0; the hint named
    ``--corners 0x0:9.99995e-10``, which ``--corners`` refuses. A suggestion the option would refuse is left out;
    the fit's problem is still said."""
    from companion.cli_types import corners_arg
    from companion.commands.calibrate import _corner_hint
    from vision.table import CalibrationFailed

    failed = CalibrationFailed("the markers do not fit the layout")
    failed.area = (1.6246872126503476e-08, 9.088567584909169e-09, 9.999947122996672e-10, 0.2)
    assert _corner_hint(failed) == "the markers do not fit the layout"
    failed.area = (650.1, 363.6, 40.0, 0.2)  # a real fit: suggested, and the option takes it
    said = _corner_hint(failed)
    assert said.endswith("e.g. --corners 650x364:40")
    assert corners_arg("650x364:40") == (650.0, 364.0, 40.0)
