"""``companion demo`` / ``companion run`` (companion/commands/box.py): what the box refuses before anything is
recorded (--db at a file that is not a session database, --screenshot, --hold, --max-frames, players, races,
calibration, the phone view's address), resuming the open game, one box per database, and --screenshot after
every flow change. Expectations are worked by hand."""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

from companion import paths
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


# -- --db at a file that is not a session database ------------------------------------------------
def test_db_pointing_at_a_photo_is_refused_untouched(tmp_path, capsys):
    victim = tmp_path / "victim.jpg"
    data = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8
    victim.write_bytes(data)
    code = main(["demo", "--db", str(victim), *BOX, "--max-frames", "2"])
    assert code == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion demo: {victim} is not a game record (not a SQLite database); it was left untouched: "
                   "check that --db names the file you meant (a name that does not exist yet starts a new record)"]
    assert victim.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["victim.jpg"]  # nothing renamed, nothing made


def test_db_pointing_at_another_programs_sqlite_is_refused_untouched(tmp_path, capsys):
    import sqlite3

    other = tmp_path / "photos.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE albums (id INTEGER)")
    data = other.read_bytes()
    code = main(["demo", "--db", str(other), *BOX, "--max-frames", "2"])
    assert code == 3
    err = capsys.readouterr().err
    assert f"{other} is not a game record (a SQLite database of something else (tables: albums))" in err
    assert "check that --db names the file you meant" in err
    assert other.read_bytes() == data and sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]


@pytest.mark.parametrize("command, whose", [("demo", "demo.sqlite3"), ("run", "sessions.sqlite3")])
def test_the_box_s_own_record_that_is_no_game_record_is_to_be_moved_away_not_given_to_db(tmp_path, monkeypatch, capsys,
                                                                                         command, whose):
    """A garbage file where the demo (or the box) keeps its games: nobody gave --db, so 'give --db a session database'
    sent the player looking for an option they never used. Now the line names the file, says it is not a game
    record, and how to move it away so the next start makes a new record."""
    import shlex

    from companion.commands.box import demo_photos

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "my data"))  # a space: the mv command is quoted for it
    record = tmp_path / "my data" / whose
    record.parent.mkdir()
    data = bytes(range(256)) * 12
    record.write_bytes(data)
    source = [] if command == "demo" else ["--source", str(sorted(demo_photos().glob("*.jpg"))[0])]
    assert main([command, *source, *BOX[:3], "--max-frames", "2"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    who = "the demo" if command == "demo" else "the box"
    move = f"mv {shlex.quote(str(record))} {shlex.quote(str(record) + '.bad')}"
    assert err == [f"companion {command}: {record} is where {who} keeps its games, but it is not a game record (not a "
                   f"SQLite database); it was left untouched: move it away ({move}) and {who} starts a new record "
                   "there"], err
    assert record.read_bytes() == data and sorted(p.name for p in record.parent.iterdir()) == [whose]


def test_damaged_session_database_is_still_kept_aside_and_replaced(tmp_path):
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 4000)
    code = main(["demo", "--db", str(db), *BOX, "--max-frames", "2"])
    assert code == 0
    kept = [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1 and kept[0].startswith("demo.sqlite3.corrupt-")


@pytest.mark.parametrize("lang, words", [("en", "the game record was damaged: it is kept as"),
                                         ("el", "είχε καταστραφεί: φυλάχτηκε ως"), ("pl", "uszkodzony"),
                                         ("hu", "sérült volt")])
def test_a_damaged_session_database_set_aside_is_said_on_one_line_in_the_commands_language(tmp_path, capsys, lang,
                                                                                            words):
    """The file set aside was told only by an English log line: the command says it too, naming the kept file."""
    db = tmp_path / "box.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 4000)
    assert main(["--language", lang, "demo", "--db", str(db), *BOX, "--max-frames", "1"]) == 0
    kept = next(p for p in tmp_path.iterdir() if ".corrupt-" in p.name)
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("companion demo: ")]
    assert len(said) == 1 and words in said[0] and str(kept) in said[0], said


def test_the_same_command_again_resumes_the_open_game(tmp_path):
    db = str(tmp_path / "k.sqlite3")
    run = ["demo", "--game", "race", "--db", db, *BOX, "--max-frames", "2"]
    assert main([*run, "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        [first] = s.list_sessions()
    assert main([*run, "--players", "Ann,Bob"]) == 0  # a restart with the same command: same game
    with SessionStore(db) as s:
        assert [x.id for x in s.list_sessions()] == [first.id]
    assert main([*run, "--players", "Ann,Cy"]) == 0  # other players: another game, the first one kept
    assert main([*run, "--players", "Ann,Bob"]) == 0  # Ann and Bob's open game is found again, though older
    with SessionStore(db) as s:
        assert len(s.list_sessions()) == 2
    assert main([*run, "--players", "Ann,Bob", "--new-session"]) == 0
    with SessionStore(db) as s:
        assert len(s.list_sessions()) == 3


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


def test_the_last_line_counts_the_reads_and_the_rolls_recorded_apart(tmp_path, caplog):
    """A demo photo is read on every pass but recorded once: a second pass said 'stopped: N frames, 0 reads (median
    15 ms)' though it had read the photos (the median of reads it said it had not made). Now both are counted."""
    import shutil
    from pathlib import Path

    import companion

    folder = tmp_path / "photos"
    folder.mkdir()
    for photo in sorted((Path(companion.__file__).parent / "demo" / "photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder / photo.name)
    run = ["demo", str(folder), "--db", str(tmp_path / "r.sqlite3"), *BOX, "--hold", "10"]
    stopped = []
    for _ in range(2):  # the second run reads the photos again (the first at least: the box resumed on the second)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="companion"):
            assert main(run) == 0
        stopped += [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped: ")]
    reads = [int(m.split(", ")[1].split()[0]) for m in stopped]
    recorded = [int(m.split(", ")[2].split()[0]) for m in stopped]
    assert reads[0] == 2 and reads[1] >= 1 and recorded == [2, 0], stopped


def test_the_last_line_counts_what_the_phones_reported_with_the_camera_s_rolls(tmp_path, caplog, monkeypatch):
    """The stop line counted only the camera's rolls: a game whose phones reported their start worlds said '0
    recorded'. Now every event a tap added to the record (a report, its withdrawal) is counted with the camera's; a
    refused tap records nothing and counts nothing. The line keeps its parts apart by ', ' as before."""
    real_run = MainLoop.run

    def run(self, max_frames=None):  # the phones' taps, queued as the phone view queues them
        for player, world in (("Ann", "Old Earth"), ("bob", "Epsilon Eridani"), ("Zed", "Old Earth")):
            self.hub.post_action("report", origin="phone", player=player, form="start", values={"card": world})
        self.hub.post_action("undo_report", origin="phone", player="Ann")
        return real_run(self, max_frames)

    monkeypatch.setattr(MainLoop, "run", run)
    db = tmp_path / "r.sqlite3"
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--game", "race", "--players", "Ann,Bob", "--db", str(db), *BOX, "--max-frames", "3"]) == 0
    [stopped] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped: ")]
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        events = store.get(session.id).events()
    assert [e.kind for e in events] == ["start_world", "start_world", "undo"]  # Zed is no player: refused
    parts = stopped.split(", ")
    assert parts[:2] == ["stopped: 3 frames", "0 reads (median 0 ms)"], stopped  # no deck: the camera reads nothing
    assert parts[2:] == ["3 recorded (0 read by the camera and 3 tapped in)", f"session {session.id}"], stopped


def test_the_stop_line_adds_the_camera_s_events_and_the_taps():
    from companion.app import LoopStats
    from companion.commands.box import stop_line

    stats = LoopStats(frames=320, reads=8, reported=3, read_ms=[90.0, 108.0, 130.0])
    assert stop_line(stats, "20261204-214402-d225cb") == (
        "stopped: 320 frames, 3 reads (median 108 ms), 11 recorded (8 read by the camera and 3 tapped in), session "
        "20261204-214402-d225cb")
    assert stop_line(LoopStats(), None) == ("stopped: 0 frames, 0 reads (median 0 ms), 0 recorded (0 read by the "
                                            "camera and 0 tapped in), session none (not set up)")


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


def test_the_box_gives_the_callers_sigterm_handler_back(tmp_path):
    """run/demo stop on SIGTERM (systemctl stop) through their own handler while the loop runs; once the box has
    stopped, the process that ran it (a script, a test runner) has its own handler again, not one that stops a loop
    that is gone."""
    import signal

    def own(signum, frame):  # the caller's own handler (only which handler is in place is checked)
        return None

    before = signal.signal(signal.SIGTERM, own)
    try:
        assert main(["demo", "--db", str(tmp_path / "t.sqlite3"), *BOX, "--max-frames", "2"]) == 0
        assert signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_second_box_on_the_same_database_is_refused(tmp_path, capsys):
    db = tmp_path / "cc.sqlite3"
    with SessionStore(db, exclusive=True):
        code = main(["demo", "--db", str(db), *BOX, "--max-frames", "2"])
        assert code == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is in use by another companion (pid " in err[0] and "--db" in err[0]
    assert main(["demo", "--db", str(db), *BOX, "--max-frames", "2"]) == 0  # released on close


DEMO_PHOTOS = Path(__file__).parents[1] / "companion" / "demo" / "photos"


@pytest.mark.parametrize("command", [["demo", "--once", "--fast"], ["run", "--source", f"replay:{DEMO_PHOTOS}"]])
def test_a_db_that_is_a_folder_is_refused_without_leaving_a_lock_file_beside_it(tmp_path, capsys, command):
    """The lock was taken before the path was checked, so a refused folder left ``<folder>.lock`` behind."""
    folder = tmp_path / "games"
    folder.mkdir()
    code = main([*command, "--db", str(folder), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0 and len(err) == 1 and f"{folder} is a folder: give a file in it" in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]  # no games.lock
    assert list(folder.iterdir()) == []


def test_a_good_database_keeps_its_lock_file_and_a_second_box_is_still_refused(tmp_path, capsys):
    db = tmp_path / "good.sqlite3"
    assert main(["demo", "--db", str(db), *BOX, "--max-frames", "1"]) == 0
    lock = tmp_path / "good.sqlite3.lock"
    assert lock.is_file()  # left as before: it holds the last owner's pid, and the OS lock is what counts
    with SessionStore(db, exclusive=True):
        assert lock.read_text().strip() == str(os.getpid())
        assert main(["demo", "--db", str(db), *BOX, "--max-frames", "1"]) == 3
        assert f"(pid {os.getpid()})" in capsys.readouterr().err


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


# -- players, options and races: one rule for the CLI and the phone --------------------------------
@pytest.mark.parametrize("players, problem", [
    ("Ann:mauve,Bob", "colour, and 'mauve' is not one of red, blue, green, yellow, purple; a name may not hold ':'"),
    ("Ann,Bob:red,Cy:red", "red is taken"),
    ("Ann,ann", "'ann' (as 'Ann') is already playing"),
    ("Ann,,Bob", "a player name is empty"),
])
def test_cli_players_follow_the_phone_rule(tmp_path, capsys, players, problem):
    code = main(["demo", "--game", "race", "--players", players, "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0], err
    # refused before any database is opened: no empty file is left behind
    assert not (tmp_path / "d.sqlite3").exists()


def test_game_options_reach_the_setup_step(tmp_path, monkeypatch):
    # without --players the setup step starts the game; --aggressive must not be lost on the way
    import companion.setup_flow as setup_flow

    seen = {}
    real = setup_flow.TableSetup.__init__

    def spy(self, store, spec, options=None, *a, **kw):
        seen.update(options or {})
        real(self, store, spec, options, *a, **kw)

    monkeypatch.setattr(setup_flow.TableSetup, "__init__", spy)
    code = main(["demo", "--game", "among", "--aggressive", "--races", "Sheptas,", "--db",
                 str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 0
    assert seen == {"aggressive": True, "races": ["Sheptas", ""]}


def test_too_few_players_are_refused_before_a_database_file_is_made(tmp_path, capsys):
    # Among the Stars is for 2-4 players (rulebook, Components): the rules engine says so at once
    code = main(["demo", "--game", "among", "--players", "Ann", "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    assert "2-4 players" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


@pytest.mark.parametrize("players, lang, problem", [
    # one entry alone was counted first ("is for 2-4 players, got 1"), hiding what is wrong with it
    ("Ann:pink", "en", "'Ann:pink': after ':' comes the player's colour, and 'pink' is not one of"),
    ("Ann\nBob", "en", "'Ann\\nBob': a name may not hold control or invisible formatting characters"),
    ("A" * 41, "en", "a name is at most 40 characters; this one has 41"),
    ("Ann:pink", "pl", "'Ann:pink': po ':' podaje się kolor gracza, a 'pink' nie jest jednym z"),
    # a stray comma is the empty name it makes, whichever end it is at ("Ann,,Bob" and "Ann,Bob," already were)
    ("Ann,", "en", "a player name is empty"),
    (" ,Bob", "en", "a player name is empty"),
])
def test_one_bad_player_entry_is_named_not_counted(tmp_path, capsys, players, lang, problem):
    code = main(["--language", lang, "demo", "--game", "race", "--players", players,
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0] and "players, got" not in err[0], err
    assert not (tmp_path / "d.sqlite3").exists()


def test_two_players_cannot_play_the_same_race(tmp_path, capsys):
    # Among the Stars: 8 race tiles, one per race (rulebook, Components; Setup 7)
    from rules import BadEvent
    from rules.among_the_stars import final_scores as among_scores
    from rules.scoring import ScoreInputError
    from tests.test_among_scoring import rulebook_example

    code = main(["demo", "--game", "among", "--players", "Ann,Bob", "--races", "Sheptas,sheptas",
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    assert "two players play the race Sheptas" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
    data = rulebook_example()
    data["players"][0]["race"] = data["players"][1]["race"] = "Sheptas"
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.race.*another player plays Sheptas"):
        among_scores(data)
    with SessionStore(tmp_path / "e.sqlite3") as s, pytest.raises(BadEvent, match="two players play the race Sheptas"):
        s.start("among", {"players": [{"name": "Ann", "race": "sheptas"}, {"name": "Bob", "race": "sheptas"}]})


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


@pytest.mark.parametrize("game, lang, said", [
    # Race for the Galaxy and Among the Stars: 2-4 players; Roll for the Galaxy: 2-5 (the rulebooks' boxes)
    ("race", "en", "Race for the Galaxy is for 2-4 players, got 6"),
    ("among", "pl", "Among the Stars jest dla 2-4 graczy, podano 6"),
    ("roll", "hu", "Roll for the Galaxy 2-5 játékosra való, kapott: 6"),
    ("roll", "el", "το Roll for the Galaxy είναι για 2-5 παίκτες, όχι 6"),
])
def test_too_many_players_are_said_to_be_too_many_not_short_of_colours(tmp_path, capsys, game, lang, said):
    """Six players on the command line (five seat colours) were told 'no colour left: there are 5': the game's
    player count is checked first, in the words five players for Race already got (exit 2)."""
    code = main(["--language", lang, "demo", "--game", game, "--players", "A,B,C,D,E,F",
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(said), err
    assert not (tmp_path / "d.sqlite3").exists()


def test_game_choose_shows_the_chooser_with_the_unfinished_game_on_it(tmp_path):
    """README: `companion demo --game choose` is the chooser on the demo replay. After an Eclipse game left open
    (README walkthrough, step 4), `--game choose` reopened that game; it now starts on the chooser, the open game
    listed there to go back to. Without --game the box still comes back to where it was."""
    from companion.library import Library
    from companion.modes import ModeName
    from companion.records import load_place

    db = str(tmp_path / "demo.sqlite3")
    eclipse = ["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "eclipse", "--players", "Ann,Bob",
               "--species", "Terran Directorate,Orion Hegemony"]
    assert main(eclipse) == 0
    with SessionStore(db) as s:
        [game] = s.list_sessions()
        assert load_place(s)["mode"] in (ModeName.SETUP.value, ModeName.PLAY.value)  # the box was in that game
    assert main(["--language", "pl", "demo", "--db", db, *BOX, "--max-frames", "2", "--game", "choose"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == {"mode": ModeName.CHOOSE.value}
        loop = MainLoop(source=FakeCamera([np.zeros((240, 320, 3), np.uint8)] * 3), reader=None, session=None,
                        hub=StateHub(), stillness=StillnessDetector(), sleep=lambda s: None, library=Library(s))
        assert loop.mode_name is ModeName.CHOOSE
        assert [g["session"] for g in loop.view()["choose"]["open"]] == [game.id]  # to go back to from the chooser
        assert [x.id for x in s.list_sessions()] == [game.id]  # nothing new started, the game kept


def test_default_game_choose_in_the_configuration_starts_on_the_chooser(tmp_path, monkeypatch):
    """`default_game = "choose"` written in the configuration resumed the game the box was on, as if nothing was
    written: what an owner writes is asked for, as `--game choose` is. Left unset, the box comes back to its game."""
    from companion.config import default_file_text, load
    from companion.modes import ModeName
    from companion.records import load_place

    db = str(tmp_path / "box.sqlite3")
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "race", "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        assert load_place(s)["mode"] in (ModeName.SETUP.value, ModeName.PLAY.value)
    unset = tmp_path / "unset.toml"
    unset.write_text(default_file_text())  # the file an install writes: default_game left to its default
    assert load(unset, env={}).origin("box.default_game") == "default"
    written = tmp_path / "choose.toml"
    written.write_text('version = 1\n[web]\nannounce = false\n[box]\ndefault_game = "choose"\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(written))
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == {"mode": ModeName.CHOOSE.value}
        assert len(s.list_sessions()) == 1  # the game kept, to go back to from the chooser


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_ctrl_c_stops_the_box_after_its_pass_and_keeps_what_it_recorded(tmp_path):
    """Ctrl-C that landed in the middle of a pass (a lock being taken back) was taken for one failed pass: a
    traceback, and the box went on reading. Ctrl-C now asks the loop to stop after its pass, as SIGTERM does: one
    "stopped:" line, exit 0, no traceback, the rolls recorded kept."""
    import queue
    import subprocess
    import threading
    import time

    db = tmp_path / "c.sqlite3"
    env = dict(os.environ, TABLETOP_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]),
                                                        os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
                             "demo", "--db", str(db), "--no-web", "--no-screen", "--no-gpio", "--fast"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    said: list[str] = []
    try:
        deadline = time.monotonic() + 180
        while not any("event 1: " in line for line in said):  # the first roll is in the record
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None and time.monotonic() < deadline, "".join(said)
            said.append(line)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 0, "".join(said)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
    while (line := lines.get(timeout=60)) is not None:
        said.append(line)
    text = "".join(said)
    assert "Traceback" not in text and "failed" not in text and "not saved" not in text, text
    stopped = [line for line in said if "stopped: " in line]
    assert len(stopped) == 1, text
    recorded = int(stopped[0].split(" recorded")[0].rsplit(" ", 1)[1])
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        assert session.events >= recorded >= 1  # every roll the box said it recorded is in the record


def test_a_double_ctrl_c_is_one_ask_and_an_insisting_one_stops_at_once(caplog):
    """The box's Ctrl-C while the loop turns (``_stop_on_interrupt``): the first asks the loop to stop after its
    pass; a second within 2 s (a double press) asks the same, so the record is closed whole; one later, with the
    loop still turning (a pass that does not end), raises KeyboardInterrupt."""
    from companion.commands.box import _stop_on_interrupt

    class Loop:
        asks = 0

        def stop(self) -> None:
            self.asks += 1

    now = [100.0]
    loop = Loop()
    handler = _stop_on_interrupt(loop, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="companion"):
        handler(signal.SIGINT, None)
    # the line says when another press stops at once: after the 2 s, not within them (a double press is one ask)
    assert "stopping: Ctrl-C (press it again after 2 s to stop at once)" in caplog.messages
    now[0] += 0.2
    handler(signal.SIGINT, None)
    assert loop.asks == 2
    now[0] += 2.0
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, None)


@pytest.mark.parametrize("command", [["demo", "--once", "--fast"], ["run", "--source", f"replay:{DEMO_PHOTOS}"]])
def test_a_db_in_a_folder_that_is_not_there_is_refused_naming_it_and_nothing_is_made(tmp_path, capsys, command):
    """A typo in --db's folder used to be made into a tree of folders with a new, empty record in it."""
    db = tmp_path / "gmaes" / "2026" / "s.sqlite3"
    code = main([*command, "--db", str(db), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 3 and len(err) == 1, err
    assert f"session database {db}: the folder {tmp_path / 'gmaes'} does not exist" in err[0], err
    assert list(tmp_path.iterdir()) == []  # no folder, no lock file


def test_a_db_in_the_box_own_data_folder_is_made_with_it(tmp_path, monkeypatch):
    own = tmp_path / "data"
    monkeypatch.setenv(paths.DATA_DIR_ENV, str(own))
    assert main(["demo", "--db", str(own / "mine.sqlite3"), *BOX, "--max-frames", "1"]) == 0
    assert (own / "mine.sqlite3").is_file()


def test_a_db_folder_not_there_is_said_in_the_command_language(tmp_path, capsys):
    db = tmp_path / "gmaes" / "s.sqlite3"
    assert main(["--language", "pl", "demo", "--db", str(db), *BOX, "--max-frames", "1"]) == 3
    err = capsys.readouterr().err
    assert f"baza sesji {db}: folder {tmp_path / 'gmaes'} nie istnieje" in err, err
    assert not (tmp_path / "gmaes").exists()


def test_the_demo_started_again_without_game_says_which_game_is_kept_and_how_to_go_back(tmp_path, caplog):
    """`companion demo` after `demo --game roll --players ...` read the dice with no word of the game the table was
    playing: it still reads the dice (README: the default of a replay), and says the game is kept and the command
    that goes back to it, which then does."""
    db = str(tmp_path / "demo.sqlite3")
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "roll", "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        (game,) = [x.id for x in s.list_sessions()]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert ("demo reads the dice of the replay (without --game it always does); the Roll for the Galaxy game the box "
            "was on is kept: `companion demo --game roll` goes back to it") in said, said
    with SessionStore(db) as s:
        assert [x.game for x in s.list_sessions()] == ["d6", "roll"]  # the dice, the game kept open
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "roll"]) == 0
    assert any(r.getMessage() == f"roll session {game} (0 events) in {db}" for r in caplog.records), caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):  # back on the dice: nothing more to say
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "d6"]) == 0
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    assert not [r for r in caplog.records if "is kept" in r.getMessage()]
