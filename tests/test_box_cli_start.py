"""What ``companion demo`` / ``companion run`` refuse or say at start (companion/commands/box.py, box_camera.py,
box_views.py): a video that cannot be opened, a damaged settings file, the camera hint, the table calibration and
the phone view's address. Expectations are worked by hand."""

from __future__ import annotations

import logging

import pytest

from companion import paths
from companion.cli import main

BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


def test_a_video_that_cannot_be_opened_is_refused_at_start(tmp_path, capsys):
    """`demo VIDEO` / `run --source VIDEO` with an empty or damaged video: one line and exit 3 (no camera to read
    from), as an empty folder is; the box used to start and wait for its frames for ever, recording nothing."""
    video = tmp_path / "table.mp4"
    db = tmp_path / "v.sqlite3"
    # hand-written: a damaged video is to be converted; an empty one (a copy that failed) to be copied again
    for content, lang, words in ((b"RIFF\x00\x00\x00\x00AVI garbage", "en", "cannot open the video"),
                                 (b"", "en", "is empty (0 bytes): copy it again"),
                                 (b"", "el", "είναι κενό (0 byte): αντιγράψτε το ξανά"),
                                 (b"", "pl", "jest pusty (0 bajtów): skopiuj go ponownie"),
                                 (b"", "hu", "üres (0 bájt): másold át újra")):
        video.write_bytes(content)
        assert main(["--language", lang, "demo", str(video), "--db", str(db), *BOX, "--max-frames", "3"]) == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0] and str(video) in err[0], err
        assert "OpenCV" not in err[0] or content
        assert not db.exists()


def test_a_damaged_settings_file_is_said_once(tmp_path, monkeypatch, caplog):
    """The settings screen's choices (the demo's own file) cut short: the box goes on with the defaults and says so in
    one warning; it said it twice (once as a bare line before the log was set up, read for the language)."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    paths.demo_settings_path().write_text('{"language": "el", "bright', encoding="utf-8")  # the demo's own
    with caplog.at_level(logging.INFO):
        assert main(["demo", "--db", str(tmp_path / "s.sqlite3"), *BOX, "--max-frames", "1"]) == 0
    said = [r for r in caplog.records if "box settings" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.WARNING], [r.getMessage() for r in said]


def test_a_settings_file_nested_too_deeply_does_not_stop_the_box(tmp_path, monkeypatch, caplog):
    """The settings file (the demo's own) holding lists inside lists deeper than Python's parser goes: the box started
    with a RecursionError traceback; now it goes on with the defaults and says so once, as for any damaged file."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    paths.demo_settings_path().write_text("[" * 100_000, encoding="utf-8")  # the demo's own
    with caplog.at_level(logging.INFO):
        assert main(["demo", "--db", str(tmp_path / "s.sqlite3"), *BOX, "--max-frames", "1"]) == 0
    said = [r for r in caplog.records if "box settings" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.WARNING], [r.getMessage() for r in said]


# -- camera, calibration and the phone view's address ---------------------------------------------
def test_demo_hint_is_said_once():
    from device import one_demo_hint as _one_demo_hint

    message = ("no camera found (auto): opencv:0: no camera at /dev/video0 (opencv:0): try opencv:1, "
               "or run `companion demo` to replay photos. Connect a camera, or run `companion demo` to replay photos")
    assert _one_demo_hint(message) == ("no camera found (auto): opencv:0: no camera at /dev/video0 (opencv:0): "
                                       "try opencv:1. Connect a camera, or run `companion demo` to replay photos")
    assert _one_demo_hint("no camera, or run `companion demo` to replay photos").count("companion demo") == 1


def test_missing_calibration_is_exit_3_and_records_nothing(tmp_path, capsys):
    code = main(["demo", "--game", "race", "--players", "Ann,Bob", "--calibration", str(tmp_path / "none.json"),
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion demo: no calibration at {tmp_path / 'none.json'}: make one with `companion calibrate`"]
    assert not (tmp_path / "d.sqlite3").exists()


def test_malformed_calibration_is_exit_1_and_records_nothing(tmp_path, capsys):
    bad = tmp_path / "cal.json"
    bad.write_text("{not json")
    code = main(["demo", "--game", "race", "--players", "Ann,Bob", "--calibration", str(bad),
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 1
    assert "is not valid JSON (a key in double quotes was expected at line 1 column 2)" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


def test_calibration_with_d6_is_refused(tmp_path, capsys):
    cal = tmp_path / "cal.json"
    cal.write_text("{}")
    code = main(["demo", "--calibration", str(cal), "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    assert "--calibration goes with a game: give --game roll|race|among|eclipse (without --game, demo starts d6)" \
        in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


def test_phone_view_address_problems_are_one_line_naming_them(tmp_path, capsys):
    import socket

    box = ["--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2", "--db", str(tmp_path / "d.sqlite3")]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["demo", "--host", "127.0.0.1", "--port", str(port), *box]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion demo: cannot start the phone view: cannot listen on 127.0.0.1 port {port} "
                   "(another program already listens on this port); try another --host or --port, or --no-web"]
    # an address no network could have is a bad command line (exit 2), said before the camera opens
    with pytest.raises(SystemExit) as info:
        main(["demo", "--host", "999.1.1.1", *box])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "'999.1.1.1' is not a network address" in err[-1] and "--host" in err[-1]
    with pytest.raises(SystemExit) as info:
        main(["--language", "pl", "demo", "--host", "not a host", *box])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert "'not a host'" in err[-1] and "is not a network address" not in err[-1]


@pytest.mark.parametrize("lang, usage, error", [("en", "usage: ", "error: "), ("el", "χρήση: ", "σφάλμα: "),
                                                 ("pl", "użycie: ", "błąd: "), ("hu", "használat: ", "hiba: ")])
@pytest.mark.parametrize("command, bad", [("demo", ["--host", "not a host"]), ("run", ["--host", "999.1.1.1"]),
                                          ("demo", ["--port", "http"]), ("demo", ["--hold", "0.5"]),
                                          ("run", ["--port", "99999"])])
def test_a_bad_value_is_one_usage_line_and_one_error_line(capsys, lang, usage, error, command, bad):
    """`companion demo --host 'not a host'` printed the 15 lines of demo's usage (every option) above the error, which
    scrolled away on the Pi's screen; a bad command line is now the usage on one line (the options are --help's)
    and the error on the next, both in the command's language (the error names the option and the value)."""
    with pytest.raises(SystemExit) as info:
        main(["--language", lang, command, *bad])
    assert info.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{usage}companion {command} [") and lines[0].endswith("]"), lines
    folder = {"en": "folder", "el": "φάκελος", "pl": "katalog", "hu": "mappa"}[lang]  # in the usage line's language
    assert lines[0].endswith(f" [{folder}]") is (command == "demo")  # the positionals still shown
    assert lines[1].startswith(f"companion {command}: {error}") and bad[0] in lines[1]
    if bad[0] == "--host":
        assert repr(bad[1]) in lines[1]


def test_a_short_usage_stays_argparses_own(capsys):
    """A command whose usage fits on one line keeps argparse's, every option shown."""
    with pytest.raises(SystemExit):
        main(["sessions", "--db"])
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "usage: companion sessions [-h] [--db DB] [--demo] [--json]"
    assert lines[1] == "companion sessions: error: argument --db: expected one argument"
