"""The session log's files: older versions migrated, newer or foreign files refused untouched, folders given
as the database, damaged files found and kept aside, and the data folder (its setting, its default, and
why it cannot be made)."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

import rules
from companion.errors import CorruptSession, SessionError
from companion.paths import DATA_DIR_ENV, data_dir, default_db_path
from companion.session import SCHEMA_VERSION, SessionStore
from tests.session_raw import raw, read

# -- older, newer and foreign files --------------------------------------------------------------


def test_version_zero_file_is_migrated(tmp_path):
    path = tmp_path / "old.sqlite3"
    sqlite3.connect(str(path)).close()  # an empty SQLite file, user_version 0
    with SessionStore(path) as s:
        s.start("d6", {})
    assert raw(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


V1_SCHEMA = (  # the schema version 1 files were written with (tabletop-companion before issue 12)
    "CREATE TABLE sessions (id TEXT PRIMARY KEY, game TEXT NOT NULL, settings TEXT NOT NULL, started_at REAL NOT NULL,"
    " ended_at REAL)",
    "CREATE INDEX sessions_by_start ON sessions (started_at)",
    "CREATE TABLE events (session_id TEXT NOT NULL REFERENCES sessions (id), seq INTEGER NOT NULL CHECK (seq >= 1),"
    " kind TEXT NOT NULL, payload TEXT NOT NULL, at REAL NOT NULL, player TEXT, origin TEXT NOT NULL,"
    " PRIMARY KEY (session_id, seq)) WITHOUT ROWID",
    "PRAGMA user_version = 1",
)


def test_a_version_1_log_is_migrated_and_replays_to_the_same_state(tmp_path):
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players

    path = tmp_path / "v1.sqlite3"
    conn = raw(path)
    conn.execute("PRAGMA journal_mode=WAL")
    for statement in V1_SCHEMA:
        conn.execute(statement)
    settings = FLOWS["race"].settings(parse_players("Ann,Bob"), {})
    events = [("start_world", {"player": "Ann", "card": "Old Earth"}, "Ann"),
              ("start_world", {"player": "Bob", "card": "Epsilon Eridani"}, "Bob"),
              ("hand_counted", {"player": "Ann", "cards": 5}, "Ann"), ("undo", {"seq": 3}, "Ann"),
              ("hand_counted", {"player": "Ann", "cards": 4}, "Ann")]
    conn.execute("INSERT INTO sessions VALUES ('20250101-120000-abcdef', 'race', ?, 1.0, NULL)",
                 (json.dumps(settings),))
    for seq, (kind, payload, player) in enumerate(events, 1):
        conn.execute("INSERT INTO events VALUES ('20250101-120000-abcdef', ?, ?, ?, ?, ?, 'phone')",
                     (seq, kind, json.dumps(payload), 1.0 + seq, player))
    conn.commit()
    conn.close()
    expected = rules.replay(rules.get_game("race"), settings,
                            [rules.Event(seq, kind, payload, 1.0 + seq, player, "phone")
                             for seq, (kind, payload, player) in enumerate(events, 1)])
    with SessionStore(path) as s:
        session = s.resume_latest("race")
        assert session.id == "20250101-120000-abcdef"
        assert session.replay().state == expected.state and session.replay().undone == (3,)
        view = GameFlow(session, FLOWS["race"]).view()
        assert [p["name"] for p in view["players"]] == ["Ann", "Bob"]
        session.append("hand_counted", {"player": "Bob", "cards": 2}, player="Bob")
    conn = raw(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"answers", "pairings", "claims", "setups", "setup_events", "probe", "box_state"} <= tables
    assert [r[0] for r in conn.execute("SELECT seq FROM events ORDER BY seq")] == [1, 2, 3, 4, 5, 6]


def _v1_file(path, game, settings, events):
    conn = raw(path)
    for statement in V1_SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO sessions VALUES ('20250101-120000-abcdef', ?, ?, 1.0, NULL)",
                 (game, json.dumps(settings)))
    for seq, (kind, payload, player) in enumerate(events, 1):
        conn.execute("INSERT INTO events VALUES ('20250101-120000-abcdef', ?, ?, ?, ?, ?, 'phone')",
                     (seq, kind, json.dumps(payload), 1.0 + seq, player))
    conn.commit()
    conn.close()


def test_events_stored_under_an_older_name_are_renamed_by_the_migration(tmp_path):
    # Race for the Galaxy: VP chips taken in Consume were `vp_chips {vp}` and the end of a round
    # `round_end` before one term per idea (rules.upgrade_event); the migration stores today's names
    # and the log replays to the state the same table had.
    settings = {"players": ["Ann", "Bob"]}
    old = [("start_world", {"player": "Ann", "card": "Old Earth"}, "Ann"),
           ("start_world", {"player": "Bob", "card": "Epsilon Eridani"}, "Bob"),
           ("vp_chips", {"player": "Ann", "vp": 3}, "Ann"), ("round_end", {}, None)]
    new = [(k, p, who) for k, p, who in old[:2]] + [("vp_changed", {"player": "Ann", "delta": 3}, "Ann"),
                                                    ("round_ended", {}, None)]
    path = tmp_path / "v1-race.sqlite3"
    _v1_file(path, "race", settings, old)
    expected = rules.replay(rules.get_game("race"), settings,
                            [rules.Event(seq, kind, payload, 1.0 + seq, player, "phone")
                             for seq, (kind, payload, player) in enumerate(new, 1)])
    with SessionStore(path) as s:
        session = s.resume_latest("race")
        assert session.replay().state == expected.state
        assert [e.kind for e in session.events()] == ["start_world", "start_world", "vp_changed", "round_ended"]
    conn = raw(path)
    stored = conn.execute("SELECT kind, payload FROM events ORDER BY seq").fetchall()
    assert [(k, json.loads(p)) for k, p in stored][2:] == [("vp_changed", {"player": "Ann", "delta": 3}),
                                                           ("round_ended", {})]


def test_a_read_only_older_file_replays_in_today_s_names_without_being_changed(tmp_path):
    settings = {"players": ["Ann", "Bob"], "tracking": "tableau"}
    old = [("phase_selected", {"phase": "ship"}, "Ann"), ("vp_taken", {"vp": 2, "reason": "consume"}, "Ann")]
    from tests.test_storage import read_only

    path = tmp_path / "v1-roll.sqlite3"
    _v1_file(path, "roll", settings, old)
    with read_only(path):
        with SessionStore(path) as s:
            session = s.resume_latest("roll")
            # Roll for the Galaxy p.7 Ship: the chips come from the pool (2 players: 24 VP, p.2 Setup)
            assert (session.replay().state.vp_pool, session.replay().state.player("Ann").vp_chips) == (22, 2)
    stored = raw(path).execute("SELECT kind FROM events ORDER BY seq").fetchall()
    assert [k for (k,) in stored] == ["phase_selected", "vp_taken"]  # a read-only file is never written


def test_newer_schema_is_refused_untouched(tmp_path):
    path = tmp_path / "future.sqlite3"
    conn = raw(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SessionError, match="newer") as info:
        SessionStore(path)
    assert not isinstance(info.value, CorruptSession)
    assert raw(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1


def test_someone_elses_sqlite_file_is_not_taken_over(tmp_path):
    path = tmp_path / "photos.db"
    conn = raw(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptSession, match="photos"):
        SessionStore(path)



def test_a_folder_given_as_the_database_is_named_as_a_folder(tmp_path):
    with pytest.raises(SessionError, match=r"is a folder: give a file in it, e\.g\. .*sessions\.sqlite3"):
        SessionStore(tmp_path)  # the example is the box's own name for it (companion.paths.default_db_path)
    assert list(tmp_path.iterdir()) == []  # nothing made in it


# -- damaged files ---------------------------------------------------------------------------


def test_garbage_file_raises_corrupt_session_naming_it(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    garbage = bytes(range(256)) * 64
    path.write_bytes(garbage)
    with pytest.raises(CorruptSession) as info:
        SessionStore(path)
    assert str(path) in str(info.value)
    assert "corrupt-<time>" in str(info.value)  # what run/demo do with it (no Python names in messages)
    assert info.value.path == path
    assert isinstance(info.value, SessionError) and isinstance(info.value, RuntimeError)
    assert path.read_bytes() == garbage  # left as it was


def test_open_or_recover_keeps_the_bad_file_aside(tmp_path, caplog):
    path = tmp_path / "sessions.sqlite3"
    # a damaged SQLite file (the header survived, the rest did not); a file that is not SQLite at
    # all is refused untouched instead (tests/test_box_cli.py)
    garbage = b"SQLite format 3\x00" + b"this is not a database, it is a shopping list\n" * 200
    path.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="companion.session"):
        store = SessionStore.open_or_recover(path)
    with store:
        kept = store.recovered_from
        assert kept is not None and kept.parent == tmp_path
        assert kept.name.startswith("sessions.sqlite3.corrupt-")
        assert kept.read_bytes() == garbage
        assert store.list_sessions() == []
        store.start("d6", {}).append("dice_read", read([3]))
    assert str(path) in caplog.text and str(kept) in caplog.text
    with SessionStore(path) as again:
        assert again.recovered_from is None
        assert len(again.list_sessions()) == 1
    assert SessionStore.open_or_recover(path).recovered_from is None  # healthy file: opened as is


def test_damaged_pages_are_found_on_open(tmp_path):
    path = tmp_path / "sessions.sqlite3"
    with SessionStore(path) as s:
        session = s.start("d6", {})
        for i in range(300):
            session.append("dice_read", read([1 + i % 6] * 5, image=f"frame_{i:05d}.jpg"))
    data = bytearray(path.read_bytes())
    assert len(data) > 4 * 4096
    page = 4096 * 2
    data[page : page + 4096] = b"\xa5" * 4096  # scribble over one whole b-tree page
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptSession) as info:
        SessionStore(path)
    assert str(path) in str(info.value)
    with SessionStore.open_or_recover(path) as store:
        assert store.recovered_from is not None and store.recovered_from.exists()
        assert store.list_sessions() == []


def test_unopenable_path_is_a_session_error_not_corruption(tmp_path):
    folder = tmp_path / "is_a_folder"
    folder.mkdir()
    with pytest.raises(SessionError) as info:
        SessionStore(folder)
    assert not isinstance(info.value, CorruptSession)
    assert str(folder) in str(info.value)


# -- paths ---------------------------------------------------------------------------------------


def test_data_dir_honours_the_environment(tmp_path, monkeypatch):
    target = tmp_path / "elsewhere" / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(target))
    assert data_dir() == target and target.is_dir()
    assert default_db_path() == target / "sessions.sqlite3"


def test_data_dir_defaults_to_platformdirs(tmp_path, monkeypatch):
    import platformdirs

    monkeypatch.delenv(DATA_DIR_ENV, raising=False)
    fake = tmp_path / "xdg" / "tabletop-companion"
    monkeypatch.setattr(
        platformdirs, "user_data_dir", lambda appname: str(fake) if appname == "tabletop-companion" else ""
    )
    assert data_dir() == fake and fake.is_dir()


def test_a_data_dir_that_cannot_be_made_is_named_with_the_setting_to_change(tmp_path, monkeypatch, capsys):
    # a file where the folder should be (root may write anywhere, so a file is the block that holds for every user)
    blocker = tmp_path / "photo.png"
    blocker.write_bytes(b"not a folder")
    monkeypatch.setenv(DATA_DIR_ENV, str(blocker))
    with pytest.raises(OSError) as caught:
        data_dir()
    assert caught.value.filename == str(blocker)
    # the path is a file: said as that, the path named once
    said = f"the data folder {blocker} is a file, not a folder: give ${DATA_DIR_ENV} or box.data_dir a folder"
    assert caught.value.strerror.startswith(said)
    from companion.cli import main

    # no data folder: no session database to list (exit 3, as the README's exit codes say), in one line
    assert main(["sessions"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and err[0].count(str(blocker)) == 1
    # the box the same: one line on stderr (no warning before it about the settings screen's choices), exit 3
    from companion.commands.box import demo_photos

    assert main(["run", "--source", str(demo_photos()), "--no-web", "--no-screen", "--no-gpio", "--max-frames",
                 "1"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0], err
    # the demo plays on in a temporary folder, saying so on one line (companion.demo_folder)
    assert main(["demo", "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 0
    err = [line for line in capsys.readouterr().err.strip().splitlines() if "INFO" not in line]
    assert len(err) == 1 and said in err[0] and "this demo keeps its games in" in err[0], err
    # a file on the way to the folder: the system's reason, and the folder named after it
    monkeypatch.setenv(DATA_DIR_ENV, str(blocker / "data"))
    assert main(["sessions"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot make the data folder" in err[0] and err[0].endswith(str(blocker / "data"))


@pytest.mark.parametrize(("lang", "words"), [("el", "υπάρχει ένα αρχείο εκεί που θα έπρεπε να είναι φάκελος"),
                                             ("pl", "w miejscu folderu jest plik"),
                                             ("hu", "egy fájl van ott, ahol mappának kellene lennie")])
def test_why_the_data_folder_cannot_be_made_is_said_in_the_language(tmp_path, monkeypatch, capsys, lang, words):
    # the system's own reason ("Not a directory") is English: a Greek, Polish or Hungarian owner reads their own words
    blocker = tmp_path / "photo.png"
    blocker.write_bytes(b"not a folder")
    monkeypatch.setenv(DATA_DIR_ENV, str(blocker / "data"))  # a file on the way to it (the file itself: its own line)
    from companion.cli import main

    assert main(["--language", lang, "sessions"]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and "Not a directory" not in err[0] and str(blocker) in err[0]


def test_the_common_system_refusals_have_words_of_their_own():
    import errno

    from companion.i18n import os_reason, say

    assert say(os_reason(OSError(errno.EROFS, "Read-only file system")), "pl") == "system plików jest tylko do odczytu"
    assert say(os_reason(OSError(errno.ENOSPC, "No space left on device")), "hu") == "a lemez megtelt"
    assert say(os_reason(OSError(errno.EACCES, "Permission denied")), "en") == "no permission to write or read there"
    assert os_reason(OSError(errno.ECONNRESET, "Connection reset by peer")) == "Connection reset by peer"  # kept


@pytest.mark.parametrize("exclusive", [True, False])
def test_a_store_at_a_folder_is_refused_before_any_lock_file_is_made(tmp_path, exclusive):
    folder = tmp_path / "box"
    folder.mkdir()
    with pytest.raises(SessionError, match="is a folder: give a file in it"):
        SessionStore(folder, exclusive=exclusive)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["box"]
