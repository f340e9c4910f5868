"""``companion export`` and ``companion sessions`` (companion/commands/export.py): which database they read,
what they list, files they never overwrite, standard output, and one-line errors. Expectations are worked by hand."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from companion.session import SessionStore


def _race(store, players="Ann,Bob"):
    session = store.start("race", FLOWS["race"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["race"])


def _finished_race(db):
    """A 2-player Race game in ``db`` (not finished) and its session id."""
    with SessionStore(db) as s:
        flow = _race(s)
        flow.report("Ann", "hand", {"cards": 5})
        return flow.session.id


def test_unfinished_game_exported_to_bgstats_has_no_winner(store):
    flow = _race(store)
    play = flow.bgstats_play()
    assert not flow.over()
    assert [p["winner"] for p in play["players"]] == [False, False]


def test_export_without_db_names_both_databases(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    code = main(["export", "--json", str(tmp_path / "g.json")])
    assert code == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert str(tmp_path / "sessions.sqlite3") in err and str(tmp_path / "demo.sqlite3") in err and "--demo" in err
    assert "()" not in err


def test_export_demo_reads_the_demo_database(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    sid = _finished_race(tmp_path / "demo.sqlite3")
    out = tmp_path / "g.json"
    assert main(["export", "--demo", "--unfinished", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["session"] == sid
    assert main(["export", "--demo", "--db", str(tmp_path / "demo.sqlite3"), "--json", str(out)]) == 2


def test_export_never_overwrites_the_database_or_another_file(tmp_path, capsys):
    db = tmp_path / "box.sqlite3"
    _finished_race(db)
    before = db.read_bytes()
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(db)]) == 1
    assert "not written by this command" in capsys.readouterr().err
    assert db.read_bytes() == before
    same = tmp_path / "g.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(same), "--bgstats", str(same)]) == 2
    assert "name the same file" in capsys.readouterr().err
    for _ in range(2):  # its own earlier export is replaced
        assert main(["export", "--db", str(db), "--unfinished", "--json", str(same),
                     "--bgstats", str(tmp_path / "b.json")]) == 0


def test_export_onto_a_device_or_a_pipe_is_refused_without_reading_it(tmp_path, capsys):
    """`--json /dev/full` read the device for ever to see whether it was an earlier export (the command never
    ended); a named pipe blocked the same way. Neither is read nor written: one line, exit 1, at once. (The pipe
    stands for both here: a device read for ever would fill the memory of a machine that has the bug again.)"""
    import os
    import threading

    db = tmp_path / "box.sqlite3"
    _finished_race(db)
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)
    codes = []
    worker = threading.Thread(target=lambda: codes.append(
        main(["export", "--db", str(db), "--unfinished", "--json", str(pipe)])), daemon=True)
    worker.start()
    worker.join(30)  # a bound for a hang, not a wait for time to pass: it ends at once
    assert codes == [1]
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not written by this command" in err[0] and str(pipe) in err[0]


def test_export_to_standard_output(tmp_path, capsys):
    db = tmp_path / "box.sqlite3"
    sid = _finished_race(db)
    assert main(["export", "--db", str(db), "--unfinished", "--json", "-", "--bgstats", str(tmp_path / "b.json")]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["session"] == sid  # stdout holds only the game, for a pipe
    assert f"wrote {tmp_path / 'b.json'}" in err and "bgstats://" in err
    assert not (tmp_path / "-").exists()


def test_sessions_lists_ids_game_players_started_finished(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    sid = _finished_race(tmp_path / "demo.sqlite3")
    assert main(["sessions", "--demo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"1 session in {tmp_path / 'demo.sqlite3'}, newest first:"
    # one event: said in the singular
    assert out[1].startswith(f"{sid}  race   Ann, Bob  started ") and out[1].endswith("  not finished  1 event")
    assert main(["sessions", "--db", str(tmp_path / "demo.sqlite3"), "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert (row["id"], row["game"], row["players"], row["finished"]) == (sid, "race", ["Ann", "Bob"], False)
    # an unknown --session points here, not at a Python function
    code = main(["export", "--demo", "--session", "nope", "--json", str(tmp_path / "g.json")])
    assert code == 3
    err = capsys.readouterr().err
    assert "`companion sessions --demo`" in err and "list_sessions" not in err


def test_sessions_without_a_database_says_where_it_looked(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["sessions"]) == 3
    assert "demo.sqlite3" in capsys.readouterr().err


def test_unexpected_file_errors_and_ctrl_c_are_one_line(tmp_path, capsys, monkeypatch):
    long_name = "x" * 300
    assert main(["sessions", "--db", str(tmp_path / f"{long_name}.db")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    # the reason in the box's words (the system's own English is not said inside a translated line)
    assert len(err) == 1 and err[0].startswith("companion: the name is too long: ") and long_name in err[0]
    import companion.commands.enroll as enroll

    def interrupted(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(enroll, "cmd_enroll_cards", interrupted)
    assert main(["enroll", "cards", "deck", str(tmp_path)]) == 130
    assert capsys.readouterr().err.strip() == "companion: interrupted; what the command had not saved yet is not saved"


def test_an_empty_file_given_as_db_is_no_database_and_stays_empty(tmp_path, capsys):
    # SQLite takes a 0-byte file for a new database: listing or exporting must not write a schema into it
    empty = tmp_path / "photo.jpg"
    empty.write_bytes(b"")
    assert main(["sessions", "--db", str(empty)]) == 3
    # named as what it is: "no session database at" a file the owner can see there would puzzle
    said = f"{empty} is an empty file, not a session database: no game was recorded in it"
    assert capsys.readouterr().err.strip() == f"companion sessions: {said}"
    assert main(["export", "--db", str(empty), "--json", str(tmp_path / "game.json")]) == 3
    assert capsys.readouterr().err.strip() == f"companion export: {said}"
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["photo.jpg"]


def test_a_file_that_is_no_game_record_is_worded_for_who_named_it(tmp_path, monkeypatch, capsys):
    """--db at a photo: check what --db names; the demo's or the box's own record (no --db) that is no game record:
    move it away (the command to), never 'give --db'. The file stays as it was."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    data = b"\xff\xd8\xff\xe0 a photo" * 40
    for name in ("photo.jpg", "demo.sqlite3", "sessions.sqlite3"):
        (tmp_path / name).write_bytes(data)
    given = (f"{tmp_path / 'photo.jpg'} is not a game record (not a SQLite database); it was left untouched: check "
             "that --db names the file you meant (a name that does not exist yet starts a new record)")

    def own(whose, name):
        path = tmp_path / name
        return (f"{path} is where {whose} keeps its games, but it is not a game record (not a SQLite database); it was "
                f"left untouched: move it away (mv {path} {path}.bad) and {whose} starts a new record there")

    for command in (["sessions"], ["export", "--json", str(tmp_path / "game.json")]):
        for where, said in ((["--db", str(tmp_path / "photo.jpg")], given),
                            (["--demo"], own("the demo", "demo.sqlite3")), ([], own("the box", "sessions.sqlite3"))):
            assert main([*command, *where]) == 3
            assert capsys.readouterr().err.strip() == f"companion {command[0]}: {said}", where
    assert all((tmp_path / name).read_bytes() == data for name in ("photo.jpg", "demo.sqlite3", "sessions.sqlite3"))
    assert not (tmp_path / "game.json").exists()


def test_a_folder_given_as_db_is_named_as_a_folder(tmp_path, capsys):
    # `--db` naming the data folder instead of the database file in it: the folder is there, so "no session
    # database at" it would send the owner looking for something that exists
    for command in (["sessions"], ["export", "--json", str(tmp_path / "game.json")]):
        assert main([*command, "--db", str(tmp_path)]) == 3
        err = capsys.readouterr().err.strip()
        assert err == f"companion {command[0]}: {tmp_path} is a folder: give --db the session database file in it"
    assert list(tmp_path.iterdir()) == []


def test_export_that_cannot_write_its_file_names_it_with_the_systems_reason(tmp_path, capsys):
    # as calibrate and print-mat say it: the file asked for and the reason, not Python's "[Errno 2] ...: '...'"
    db = tmp_path / "box.sqlite3"
    _finished_race(db)
    out = tmp_path / "no-such-folder" / "play.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(tmp_path / "g.json"),
                 "--bgstats", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"companion export: cannot write {out}: no such file or folder"
    # in the command's language: the system's reason too (it was the C library's English "No such file or directory")
    from companion import i18n

    assert main(["--language", "pl", "export", "--db", str(db), "--unfinished", "--bgstats", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    reason = i18n.say(i18n.Text("no such file or folder"), "pl")
    assert reason != "no such file or folder" and str(out) in err and err.endswith(reason) and "No such" not in err


def test_an_unfinished_game_names_its_round_in_the_commands_language(tmp_path, capsys):
    """`companion --language hu export` of a game not ended said '... nem ért véget (Round 1)': the round, a Text
    of the rules, was put into the Hungarian sentence as its English str."""
    from companion import i18n

    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as s:
        label = _race(s).table().round_label
    assert main(["--language", "hu", "export", "--db", str(db), "--json", str(tmp_path / "g.json")]) == 1
    err = capsys.readouterr().err.strip()
    said = i18n.say(label, "hu")
    assert said != str(label) and f"({said})" in err and f"({label})" not in err


def _ended_race(store, players="Ann,Bob"):
    """A 2-player Race game played to its end: the first player takes the whole 24-chip VP pool (12 per player,
    Race for the Galaxy, Setup) in Consume, so the game ends with that round and the first player wins."""
    flow = _race(store, players)
    first, second = flow.names
    flow.report(first, "start", {"card": "Old Earth"})
    flow.report(second, "start", {"card": "Epsilon Eridani"})
    flow.report(first, "select", {"action": "Consume: x2 VP"})
    flow.report(second, "select", {"action": "Produce"})
    flow.report(first, "vp", {"vp": 24})
    for _ in range(5):
        if flow.over():
            break
        flow.next_phase()
    assert flow.over()
    return flow.session.id


def test_export_without_a_session_takes_the_newest_finished_game_when_the_newest_has_not_ended(tmp_path, capsys):
    """README's walkthrough: games played in order, the last one (Eclipse, step 4) left open; step 5's
    `companion export --demo --json game.json` writes the newest game that has ended and says which it took."""
    db = tmp_path / "demo.sqlite3"
    with SessionStore(db) as s:
        older = _ended_race(s, "Cy,Di")
        finished = _ended_race(s)
        open_game = _race(s, "Ed,Fay").session.id
    out = tmp_path / "game.json"
    assert main(["export", "--db", str(db), "--json", str(out), "--bgstats", str(tmp_path / "play.json")]) == 0
    said = capsys.readouterr().out
    assert f"session {open_game}" in said and f"session {finished}" in said and older not in said
    game = json.loads(out.read_text(encoding="utf-8"))
    assert game["session"] == finished and game["finished"] is True and game["winners"] == ["Ann"]
    # --unfinished still takes the newest game; --session the one named; with the JSON on stdout the note goes to
    # standard error
    assert main(["export", "--db", str(db), "--unfinished", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["session"] == open_game
    assert main(["export", "--db", str(db), "--session", open_game, "--json", str(tmp_path / "o.json")]) == 1
    assert "has not ended" in capsys.readouterr().err
    assert main(["export", "--db", str(db), "--json", "-"]) == 0
    piped = capsys.readouterr()
    assert json.loads(piped.out)["session"] == finished and f"session {finished}" in piped.err


def test_export_refuses_the_newest_game_when_no_game_has_ended(tmp_path, capsys):
    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as s:
        sid = _race(s).session.id
    assert main(["export", "--db", str(db), "--json", str(tmp_path / "g.json")]) == 1
    err = capsys.readouterr().err
    assert f"session {sid} has not ended" in err and "--unfinished" in err
    assert not (tmp_path / "g.json").exists()


def test_sessions_and_export_find_the_games_in_the_configured_data_folder(tmp_path, monkeypatch, capsys):
    """``box.data_dir`` of the configuration file is where `companion run|demo` record the games: `companion
    sessions` and `companion export` look there too, not in the user's default data folder."""
    folder = tmp_path / "games"
    folder.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(f'[box]\ndata_dir = "{folder}"\n', encoding="utf-8")
    monkeypatch.delenv("TABLETOP_DATA_DIR", raising=False)
    monkeypatch.setenv("TABLETOP_CONFIG", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "elsewhere"))  # the default folder: empty
    sid = _finished_race(folder / "demo.sqlite3")
    assert main(["sessions", "--demo"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"1 session in {folder / 'demo.sqlite3'}, newest first:"
    out = tmp_path / "g.json"
    assert main(["export", "--demo", "--session", sid, "--unfinished", "--json", str(out)]) == 0
    assert sid in out.read_text(encoding="utf-8")
    import os

    assert "TABLETOP_DATA_DIR" not in os.environ  # the command's folder does not outlive the command


def test_a_configuration_that_moves_the_data_folder_wrongly_is_named_by_sessions(tmp_path, monkeypatch, caplog):
    """A broken configuration file (not TOML, or a box.data_dir that is no folder name) leaves `companion sessions`
    on the default data folder: the command says why, in the players' language, instead of only "no database"."""
    config = tmp_path / "config.toml"
    monkeypatch.delenv("TABLETOP_DATA_DIR", raising=False)
    monkeypatch.setenv("TABLETOP_CONFIG", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "default"))
    config.write_text('[box\ndata_dir = "/media/usb/games"\n', encoding="utf-8")  # the section's ] forgotten
    caplog.clear()
    assert main(["sessions"]) == 3
    err = caplog.text
    assert f"{config}:1" in err and "companion config check" in err
    config.write_text('[box]\nlanguage = "pl"\ndata_dir = 5\n', encoding="utf-8")
    caplog.clear()
    assert main(["sessions"]) == 3
    err = caplog.text
    assert f"{config}:3: box.data_dir" in err and "konfiguracja" in err
    config.write_text('[box]\nlanguage = "pl"\n[web]\nport = "eighty"\n', encoding="utf-8")  # not this command's
    caplog.clear()
    assert main(["sessions"]) == 3
    assert "web.port" not in caplog.text


def test_export_of_a_session_id_that_is_no_text_says_no_such_session(tmp_path, monkeypatch, capsys):
    """`companion export --session $'x\\xff'` (a byte that is not UTF-8) ended in a traceback."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    _finished_race(tmp_path / "demo.sqlite3")
    assert main(["export", "--demo", "--session", "x\udcff", "--json", str(tmp_path / "g.json")]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "`companion sessions --demo`" in err[0]
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("lang, words", [
    ("en", "lists its ids"),
    ("el", "δείχνει τα αναγνωριστικά"),
    ("pl", "wypisuje identyfikatory"),
    ("hu", "kiírja az azonosítókat"),
])
def test_an_unknown_session_points_at_the_listing_of_the_same_database(tmp_path, monkeypatch, capsys, lang, words):
    """`export --demo --session ID` with a mistyped ID said "`companion sessions` lists the ids", and that command
    lists the box's games, not the demo's: the hint names the database the export read."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    _finished_race(tmp_path / "demo.sqlite3")
    other = tmp_path / "my games.sqlite3"
    _finished_race(other)
    _finished_race(tmp_path / "sessions.sqlite3")
    for where, hint in ((["--demo"], "`companion sessions --demo`"),
                        (["--db", str(other)], f"`companion sessions --db '{other}'`"),
                        ([], "`companion sessions`")):
        code = main(["--language", lang, "export", *where, "--session", "nope", "--json", str(tmp_path / "g.json")])
        assert code == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and hint in err[0] and words in err[0] and "'nope'" in err[0], err
    assert not (tmp_path / "g.json").exists()


def _damaged_pages(db):
    """``db`` (a session database with 30 games) with every page but the first overwritten: SQLite's header is
    still there, so the file opens; its check then lists one broken cell a line, dozens of lines."""
    import sqlite3

    with SessionStore(db) as store:
        for _ in range(30):
            _race(store).report("Ann", "hand", {"cards": 5})
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    assert len(data) > 3 * 4096
    data[2 * 4096 + 8:3 * 4096] = bytes((k * 7) & 0xFF for k in range(4096 - 8))  # the sessions' rows
    db.write_bytes(bytes(data))
    return bytes(data)


@pytest.mark.parametrize("lang, words", [("en", "is damaged or not a session log"), ("el", "είναι κατεστραμμένη"),
                                         ("pl", "jest uszkodzona"), ("hu", "sérült")])
def test_a_damaged_database_is_one_line_naming_it_in_the_commands_language(tmp_path, capsys, lang, words):
    """A database with broken pages was said over 31 lines (one per broken cell SQLite listed)."""
    db = tmp_path / "box.sqlite3"
    data = _damaged_pages(db)
    for command in (["sessions"], ["export", "--unfinished", "--json", str(tmp_path / "g.json")]):
        assert main(["--language", lang, *command, "--db", str(db)]) == 3
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith(f"companion {command[0]}: "), err
        assert str(db) in err and words in err and "Traceback" not in err, err
    assert db.read_bytes() == data and not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("lang, reason", [("el", "(δεν είναι βάση δεδομένων SQLite)"), ("pl", "(to nie baza SQLite)"),
                                          ("hu", "(nem SQLite-adatbázis)")])
def test_why_a_file_is_no_database_is_said_in_the_commands_language_too(tmp_path, capsys, lang, reason):
    """The reason in brackets is the box's own words, translated with the rest of the line (SQLite's own words about
    a damaged file stay as SQLite says them)."""
    photo = tmp_path / "holiday.db"
    photo.write_bytes(b"\xff\xd8\xff\xe0 not a database" * 20)
    assert main(["--language", lang, "sessions", "--db", str(photo)]) == 3
    err = capsys.readouterr().err
    assert reason in err and "not a SQLite database" not in err, err


def test_export_with_no_game_to_export_is_exit_3_naming_the_database_or_the_session(tmp_path, capsys):
    """The README's exit codes: 3 when there is no game to export (here a database of d6 rolls only, and a session
    id it does not hold), each said in one line naming the database or the id; 1 stays for a file not written."""
    db = tmp_path / "dice.sqlite3"
    with SessionStore(db) as store:
        store.start("d6", {})
    assert main(["export", "--db", str(db), "--json", str(tmp_path / "g.json")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"session in {db}" in err and "Eclipse" in err, err
    assert main(["export", "--db", str(db), "--session", "nope", "--json", str(tmp_path / "g.json")]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'nope'" in err and str(db) in err, err
    assert not (tmp_path / "g.json").exists()


def test_a_game_whose_kept_players_no_longer_pass_is_said_in_one_line_not_a_traceback(tmp_path, capsys):
    """A game recorded with a name today's box refuses (41 characters: kept by another version, or edited by hand in
    the file) cannot be exported: one line naming the session and the name's problem, exit 1, no file written."""
    db = tmp_path / "box.sqlite3"
    long_name = "A" * 41
    with SessionStore(db) as s:
        sid = s.start("race", {"players": [long_name, "Bob"]}).id
    out = tmp_path / "g.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert sid in err and "40" in err and "41" in err
    assert not out.exists()
    # a newer game, not ended: the look for the newest finished game passes over the unreadable one
    with SessionStore(db) as s:
        newer = _race(s).session.id
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--json", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and newer in err and "--unfinished" in err and sid not in err


def _strict(text: str):
    """``text`` read as JSON other tools read it: NaN, Infinity and -Infinity are not JSON."""
    def refuse(word):
        raise ValueError(f"{word} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_a_number_json_has_not_in_a_database_changed_by_hand_exports_as_null(tmp_path, capsys):
    """A database edited or damaged on the disk: Ann's hand count carries a note NaN and the event's time is
    Infinity (SQLite keeps an infinite REAL; Python's reader takes NaN). The export, to a file and to standard output,
    is still JSON that other tools read: both are null there; the hand count (5) is kept as it is."""
    import sqlite3

    db = tmp_path / "box.sqlite3"
    _finished_race(db)
    with sqlite3.connect(db) as conn:
        conn.execute("""UPDATE events SET payload = '{"player":"Ann","cards":5,"note":NaN}', at = 9e999""")
    out = tmp_path / "g.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(out)]) == 0
    game = _strict(out.read_text(encoding="utf-8"))
    assert game["events"][0]["payload"] == {"player": "Ann", "cards": 5, "note": None}
    assert game["events"][0]["at"] is None and game["ended_at"] is None
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--unfinished", "--json", "-"]) == 0
    assert _strict(capsys.readouterr().out)["events"][0]["payload"]["note"] is None


def test_the_phones_downloads_of_a_database_changed_by_hand_are_json(tmp_path):
    """The history's downloads of a finished game (Ann takes all 24 VP chips in Consume x2: Race for the Galaxy,
    Setup, 12 per player) from a database whose last event's time was changed to Infinity and whose start world
    payload holds a NaN: the record is JSON that other tools read (both null), and the BG Stats play leaves out the
    length it cannot know instead of the phone getting an error."""
    import sqlite3

    from companion.hub import StateHub
    from companion.library import export_documents
    from tests.phones import joined_phone
    from tests.race_games import finished_race

    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as store:
        flow = finished_race(store)
        sid, last = flow.session.id, flow.session.last_seq
    with sqlite3.connect(db) as conn:
        conn.execute("""UPDATE events SET payload = '{"player":"Ann","card":"Old Earth","note":NaN}' WHERE seq = 1""")
        conn.execute("UPDATE events SET at = 9e999 WHERE seq = ?", (last,))
    with SessionStore(db) as store:
        phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
        record = phone.get(f"/export/{sid}.json")
        assert record.status_code == 200
        game = _strict(record.get_data(as_text=True))
        assert game["events"][0]["payload"]["note"] is None and game["ended_at"] is None
        assert game["winners"] == ["Ann"]
        play = phone.get(f"/export/{sid}.bgstats.json")
        assert play.status_code == 200, play.get_data(as_text=True)
        bgstats = _strict(play.get_data(as_text=True))
        # Ann: 24 chips + Old Earth 2 VP; Bob: Epsilon Eridani 1 VP (cards.json)
        assert "durationMin" not in bgstats and [p["score"] for p in bgstats["players"]] == [26, 1]
