"""``companion demo`` / ``companion run`` with --screenshot, --hold and --max-frames (companion/commands/box.py):
no tracebacks, a screenshot that is a PNG and never written over another file, refused in the box's language, one
log line when it fails mid-run, and saved after every flow change. Expectations are worked by hand."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from companion.app import MainLoop
from companion.cli import main
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from vision.motion import StillnessDetector

BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


# -- no tracebacks from --screenshot, --hold, --max-frames ----------------------------------------
def test_screenshot_in_an_unwritable_folder_is_refused_at_start(tmp_path, capsys):
    code = main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, "--windowed", "--screenshot", "/proc/x.png"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--screenshot /proc/x.png" in err[0] and "cannot write in /proc" in err[0]
    assert not (tmp_path / "d.sqlite3").exists()  # refused before a session was made


SCREEN = ["--no-web", "--no-gpio", "--once", "--fast", "--windowed"]  # a touchscreen (drawn off-screen) to save
SQLITE = b"SQLite format 3\x00" + bytes(range(256)) * 16  # what a game record starts with


@pytest.mark.parametrize("name, there", [("shot.txt", None), ("shot", None), ("d.sqlite3", None),
                                         ("shot.png", SQLITE), ("photo.PNG", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")],
                         ids=["txt", "no-suffix", "the-db", "a-record-named-png", "a-jpeg-named-png"])
def test_screenshot_is_a_png_and_never_written_over_another_file(tmp_path, capsys, name, there):
    # the saver picks the format from the name (shot.txt came out a Targa picture) and writes at every read: a
    # game record or a photo given by mistake was written over with a picture of the touchscreen
    shot = tmp_path / name
    if there is not None:
        shot.write_bytes(there)
    code = main(["demo", "--db", str(tmp_path / "d.sqlite3"), *SCREEN, "--max-frames", "2", "--screenshot", str(shot)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"companion demo: --screenshot {shot}: ")
    if there is None:
        assert "give a file name ending in .png" in err[0]
        assert list(tmp_path.iterdir()) == []  # refused before a session or a picture was made
    else:
        assert "a file that is not a PNG picture is already there" in err[0] and "not written over" in err[0]
        assert shot.read_bytes() == there and sorted(tmp_path.iterdir()) == [shot]


def test_screenshot_without_a_touchscreen_is_refused_not_silently_never_saved(tmp_path, capsys):
    shot = tmp_path / "shot.png"
    code = main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2", "--screenshot", str(shot)])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "leave out --no-screen" in err[0] and list(tmp_path.iterdir()) == []


# hand-written: the refusal of a file that is not a PNG, in each language
NOT_A_PNG = {"el": "δεν είναι εικόνα PNG", "pl": "nie jest obrazem PNG", "hu": "nem PNG-kép"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_screenshot_over_a_game_record_is_refused_in_the_boxs_language(tmp_path, capsys, lang):
    shot = tmp_path / "game.png"
    shot.write_bytes(SQLITE)
    code = main(["--language", lang, "demo", "--db", str(tmp_path / "d.sqlite3"), *SCREEN, "--screenshot", str(shot)])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert NOT_A_PNG[lang] in err and "not a PNG" not in err and shot.read_bytes() == SQLITE


def test_an_earlier_screenshot_is_written_over(tmp_path):
    import cv2

    from companion.commands.box import demo_photos

    photos = tmp_path / "photos"
    photos.mkdir()
    first = sorted(p for p in demo_photos().iterdir() if p.suffix.lower() == ".jpg")[0]
    (photos / first.name).write_bytes(first.read_bytes())
    shot = tmp_path / "shot.png"
    cv2.imwrite(str(shot), np.zeros((4, 4, 3), np.uint8))  # a PNG from an earlier run
    code = main(["demo", str(photos), "--db", str(tmp_path / "d.sqlite3"), *SCREEN, "--hold", "1.0",
                 "--screenshot", str(shot)])
    assert code == 0
    assert cv2.imread(str(shot)).shape[:2] == (480, 800)  # the touchscreen, 800 x 480


def test_screenshot_that_fails_mid_run_is_one_log_line_and_the_box_goes_on(tmp_path, monkeypatch, caplog):
    import pygame

    from companion.commands.box import demo_photos
    from companion.screen import TouchScreen

    photos = tmp_path / "photos"
    photos.mkdir()
    for photo in sorted(p for p in demo_photos().iterdir() if p.suffix.lower() in (".jpg", ".png"))[:2]:
        (photos / photo.name).write_bytes(photo.read_bytes())

    def fail(self, path):
        raise pygame.error(f"Couldn't open {path}")

    monkeypatch.setattr(TouchScreen, "save_png", fail)
    with caplog.at_level(logging.INFO, logger="companion"):
        code = main(["demo", str(photos), "--db", str(tmp_path / "d.sqlite3"), "--no-web",
                     "--no-gpio", "--once", "--fast",
                     "--windowed", "--hold", "1.0", "--screenshot", str(tmp_path / "shot.png")])
    assert code == 0
    failed = [r for r in caplog.records if "cannot save --screenshot" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR
    with SessionStore(tmp_path / "d.sqlite3") as s:
        (info,) = s.list_sessions()
        assert len([e for e in s.get(info.id).events() if e.kind == "dice_read"]) == 2  # both photos still read


def test_screenshot_hook_runs_after_each_flow_change_not_after_live_frames(tmp_path):
    store = SessionStore(tmp_path / "box.sqlite3")
    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    changes = []
    hub = StateHub()
    ticks = iter(range(10_000))
    loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 6), reader=None, session=session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None,
                    clock=lambda: float(next(ticks)), on_change=lambda: changes.append(session.last_seq))
    loop.publish()
    loop.publish()  # nothing changed: no second save
    assert changes == [0]
    hub.post_action("report", origin="phone", player="Ann", form="credits", values={"credits": 3})
    loop.step()
    assert changes == [0, 1]
    store.close()


@pytest.mark.parametrize("args, problem", [
    (["--hold", "1e308"], "at most 3600 seconds"),
    (["--hold", "3601"], "at most 3600 seconds"),
    (["--hold", "0.2"], "give at least 1 s"),
    (["--hold", "nan"], "positive number of seconds"),
    (["--hold", "inf"], "positive number of seconds"),
    (["--max-frames", "-1"], "give at least 1 frame"),
    (["--max-frames", "0"], "give at least 1 frame"),
])
def test_bad_hold_and_max_frames_are_usage_errors(tmp_path, capsys, args, problem):
    with pytest.raises(SystemExit) as info:
        main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, *args])
    assert info.value.code == 2
    assert problem in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
