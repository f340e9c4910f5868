"""``companion demo`` / ``companion run`` and their record (companion/commands/box.py, box_game.py): --db at a file
that is not a session database refused untouched, the box's own record that is none moved away, a damaged record set
aside, resuming the open game, one box per database and its lock file, --db in a folder that is not there.
Expectations are worked by hand."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import paths
from companion.cli import main
from companion.session import SessionStore

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
