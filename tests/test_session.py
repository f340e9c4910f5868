"""The session log: round trip, seqs, undo/redo as events, rejected events, WAL and schema,
resume, corrupt files, reopening, and a SIGKILL in the middle of appending."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import rules
from companion.errors import BadEntry, CompanionError, CorruptSession, SessionError, UnknownSession
from companion.paths import DATA_DIR_ENV, data_dir, default_db_path
from companion.session import SCHEMA_VERSION, SessionStore

WORKER = Path(__file__).with_name("_session_worker.py")
REPO = Path(__file__).resolve().parents[1]


def _load_worker():
    spec = importlib.util.spec_from_file_location("_session_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


worker = _load_worker()


def read(values, image=None):
    return {"values": values, "image": image}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "box" / "data" / "sessions.sqlite3"  # parent folders do not exist yet


@pytest.fixture
def db_store(db: Path):
    """A SessionStore at ``db`` (its folders made on open), unlike conftest's ``store``: tests open that file raw
    too."""
    with SessionStore(db) as s:
        yield s


def raw(db: Path) -> sqlite3.Connection:
    """An independent connection, to check what is really in the file."""
    return sqlite3.connect(str(db))


# -- round trip ---------------------------------------------------------------------------


def test_append_and_replay_round_trip(db_store, db):
    session = db_store.start("d6", {"players": ["Ann", "Bo"]})
    assert db.exists()
    assert session.game is rules.get_game("d6")
    assert session.settings == {"players": ["Ann", "Bo"]}

    e1 = session.append("dice_read", read([3, 5, 6]), origin="camera", at=100.0)
    e2 = session.append("dice_read", read((2, None)), origin="camera", at=101.0)  # tuple: stored as a list
    e3 = session.append("dice_corrected", {"values": [2, 4]}, player="Bo", origin="touchscreen", at=102.0)

    assert [e.seq for e in (e1, e2, e3)] == [1, 2, 3]
    assert e2.payload == {"values": [2, None], "image": None}
    assert e3 == rules.Event(3, "dice_corrected", {"values": [2, 4]}, at=102.0, player="Bo", origin="touchscreen")
    assert session.events() == [e1, e2, e3]

    replayed = session.replay()
    assert replayed == rules.replay(session.game, {"players": ["Ann", "Bo"]}, [e1, e2, e3])
    view = session.game.view(replayed.state)
    assert view["latest"]["values"] == [2, 4] and view["latest"]["total"] == 6
    assert view["rolls"] == 2
    assert [f.seq for f in replayed.findings] == [2]  # the unreadable die
    assert session.last_seq == 3

    rows = raw(db).execute("SELECT seq, kind, payload, at, player, origin FROM events ORDER BY seq").fetchall()
    assert rows[2] == (3, "dice_corrected", '{"values":[2,4]}', 102.0, "Bo", "touchscreen")


def test_seq_strictly_increasing_without_gaps_after_rejections(db_store):
    session = db_store.start("d6", {})
    seqs = []
    for i in range(12):
        if i % 3 == 2:
            with pytest.raises(rules.BadEvent):
                session.append("dice_read", read([9]))
        seqs.append(session.append("dice_read", read([1 + i % 6])).seq)
    assert seqs == list(range(1, 13))
    assert [e.seq for e in session.events()] == seqs


def test_sessions_have_separate_seqs(db_store):
    a, b = db_store.start("d6", {}), db_store.start("d6", {})
    assert a.id != b.id
    a.append("dice_read", read([1]))
    a.append("dice_read", read([2]))
    assert b.append("dice_read", read([3])).seq == 1
    assert [e.payload["values"] for e in a.events()] == [[1], [2]]
    assert [e.payload["values"] for e in b.events()] == [[3]]


# -- undo / redo ----------------------------------------------------------------------------


def test_undo_and_redo_are_events(db_store):
    session = db_store.start("d6", {})
    assert session.undo() is None  # nothing to undo yet
    for values in ([1], [2], [3]):
        session.append("dice_read", read(values))

    u1 = session.undo(origin="phone")
    assert (u1.seq, u1.kind, u1.payload, u1.origin) == (4, rules.UNDO, {"seq": 3}, "phone")
    assert session.replay().state.latest.values == (2,)
    u2 = session.undo(origin="button")
    assert u2.payload == {"seq": 2}  # never the undo event itself
    assert session.replay().applied == (1,)
    assert session.replay().undone == (2, 3)

    r1 = session.redo()
    assert (r1.kind, r1.payload) == (rules.UNDO, {"seq": u2.seq})  # undoing the undo restores seq 2
    assert session.replay().applied == (1, 2)
    session.append(rules.UNDO, {"seq": u1.seq}, origin="cli")  # a redo by hand: restores seq 3
    assert session.replay().state.latest.values == (3,)
    assert session.redo() is None

    for _ in range(3):
        assert session.undo() is not None
    assert session.undo() is None
    assert session.replay().applied == ()

    log = session.events()
    assert [e.seq for e in log] == list(range(1, 11))  # 3 reads + 7 undo events; nothing deleted
    assert [e.payload["values"] for e in log if e.kind == "dice_read"] == [[1], [2], [3]]
    assert session.replay() == rules.replay(session.game, {}, log)


def test_undo_naming_no_earlier_event_is_not_stored(db_store):
    session = db_store.start("d6", {})
    session.append("dice_read", read([4]))
    for payload in ({"seq": 2}, {"seq": 99}, {"seq": "1"}, {}):
        with pytest.raises(rules.BadEvent, match="not recorded"):
            session.append(rules.UNDO, payload)
    assert session.last_seq == 1


# -- rejected events -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, payload, error, words",
    [
        ("dice_read", {"values": [1, 7]}, rules.BadEvent, "7 is not a d6 value"),
        ("dice_read", {"values": 3}, rules.BadEvent, "must be a list"),
        ("dice_corrected", {"values": [None]}, rules.BadEvent, "not a d6 value"),
        ("meeple_moved", {}, rules.UnknownEvent, "meeple_moved"),
        ("dice_read", {"values": [1], "image": float("nan")}, rules.BadEvent, "not JSON-compatible"),
        ("dice_read", {"values": {1, 2}}, rules.BadEvent, "not JSON-compatible"),
        ("dice_read", [1, 2], rules.BadEvent, "must be a JSON object"),
    ],
)
def test_bad_event_is_not_stored(db_store, db, kind, payload, error, words):
    session = db_store.start("d6", {})
    session.append("dice_read", read([6]))
    before = session.replay()
    with pytest.raises(error, match=words) as info:
        session.append(kind, payload)
    assert session.id in str(info.value) or "JSON" in str(info.value)
    assert session.last_seq == 1
    assert session.replay() == before
    assert raw(db).execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    assert session.append("dice_read", read([5])).seq == 2


def test_numpy_values_are_rejected_not_silently_converted(db_store):
    np = pytest.importorskip("numpy")
    session = db_store.start("d6", {})
    with pytest.raises(rules.BadEvent, match="not JSON-compatible"):
        session.append("dice_read", read([np.int64(3)]))
    assert session.last_seq == 0


def test_bad_time_origin_or_player_is_not_stored(db_store):
    session = db_store.start("d6", {})
    for kwargs in ({"at": float("inf")}, {"at": "now"}, {"origin": ""}, {"player": 3}):
        with pytest.raises(rules.BadEvent):
            session.append("dice_read", read([1]), **kwargs)
    assert session.events() == []


def test_start_checks_game_and_settings(db_store):
    with pytest.raises(rules.UnknownGame, match="d6"):
        db_store.start("chess", {})
    with pytest.raises(BadEntry, match="JSON"):
        db_store.start("d6", {"players": {"Ann", "Bo"}})
    assert isinstance(BadEntry("x"), ValueError) and isinstance(BadEntry("x"), CompanionError)
    assert db_store.list_sessions() == []


# -- file format -----------------------------------------------------------------------------


def test_wal_mode_and_schema_version(db_store, db):
    db_store.start("d6", {}).append("dice_read", read([2]))
    conn = raw(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 1
    columns = {name: [r[1] for r in conn.execute(f"PRAGMA table_info({name})")] for name in ("sessions", "events")}
    assert columns == {
        "sessions": ["id", "game", "settings", "started_at", "ended_at"],
        "events": ["session_id", "seq", "kind", "payload", "at", "player", "origin"],
    }
    pk = [r[1] for r in sorted(conn.execute("PRAGMA table_info(events)"), key=lambda r: r[5]) if r[5]]
    assert pk == ["session_id", "seq"]


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

# -- resume / get / list ------------------------------------------------------------------


def test_resume_latest(db_store):
    assert db_store.resume_latest() is None
    first = db_store.start("d6", {"n": 1})
    second = db_store.start("d6", {"n": 2})
    assert db_store.resume_latest().id == second.id
    assert db_store.resume_latest("d6").id == second.id
    assert db_store.resume_latest("roll") is None

    second.end()
    assert second.ended_at is not None
    second.end()  # idempotent
    resumed = db_store.resume_latest()
    assert resumed.id == first.id and resumed.settings == {"n": 1}
    with pytest.raises(SessionError, match="ended"):
        second.append("dice_read", read([1]))
    with pytest.raises(SessionError, match="ended"):
        db_store.get(second.id).undo()

    first.end()
    assert db_store.resume_latest() is None
    infos = db_store.list_sessions()
    assert [i.id for i in infos] == [second.id, first.id]
    assert all(i.ended_at is not None and i.events == 0 and i.game == "d6" for i in infos)
    assert infos[0].to_json()["id"] == second.id


def test_get_and_list(db_store):
    session = db_store.start("d6", {})
    session.append("dice_read", read([1, 2]))
    again = db_store.get(session.id)
    assert again.id == session.id and again.started_at == session.started_at
    assert again.events() == session.events()
    assert [(i.id, i.events, i.ended_at) for i in db_store.list_sessions()] == [(session.id, 1, None)]
    with pytest.raises(UnknownSession, match="nope") as info:
        db_store.get("nope")
    assert isinstance(info.value, LookupError) and isinstance(info.value, SessionError)


def test_an_id_that_is_no_text_is_an_unknown_session_not_a_crash(db_store):
    """A session id typed on a terminal that is not UTF-8 (`--session $'x\\xff'` arrives as 'x\\udcff') or sent by
    a phone as a lone surrogate cannot be stored: it is an unknown session, named, like any other wrong id."""
    db_store.start("d6", {})
    for wrong in ("x\udcff", "\ud800"):
        with pytest.raises(UnknownSession, match="companion sessions"):
            db_store.get(wrong)


def test_reopening_after_close_gives_the_same_state(db):
    with SessionStore(db) as s:
        session = s.start("d6", {"players": ["Ann"]})
        for values in ([1, 1], [6, None], [4]):
            session.append("dice_read", read(values), origin="camera")
        session.undo(origin="touchscreen")
        session.append("dice_corrected", {"values": [6, 5]}, player="Ann")
        events, replayed, started = session.events(), session.replay(), session.started_at
    with pytest.raises(SessionError, match="closed"):
        session.append("dice_read", read([1]))

    with SessionStore(db) as s:
        again = s.resume_latest("d6")
        assert again.id == session.id and again.started_at == started
        assert again.settings == {"players": ["Ann"]}
        assert again.events() == events
        assert again.replay() == replayed
        assert again.append("dice_read", read([2])).seq == len(events) + 1


def test_cache_sees_events_appended_through_another_connection(db):
    with SessionStore(db) as a, SessionStore(db) as b:
        mine = a.start("d6", {})
        mine.append("dice_read", read([1]))
        assert mine.replay().applied == (1,)
        b.get(mine.id).append("dice_read", read([2]))
        assert mine.replay().applied == (1, 2)
        assert mine.append("dice_read", read([3])).seq == 3  # next seq read inside the transaction


def test_concurrent_appends_are_serialized(db_store):
    session = db_store.start("d6", {})
    errors: list[BaseException] = []

    def append_ten(face: int) -> None:
        try:
            for _ in range(10):
                session.append("dice_read", read([face]))
        except Exception as exc:  # noqa: BLE001 - reported by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=append_ten, args=(face,)) for face in (1, 2, 3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    log = session.events()
    assert [e.seq for e in log] == list(range(1, 41))
    assert sorted(e.payload["values"][0] for e in log) == [1] * 10 + [2] * 10 + [3] * 10 + [4] * 10
    assert session.replay() == rules.replay(session.game, {}, log)


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


# -- a kill in the middle of appending -------------------------------------------------------


class Worker:
    """``tests/_session_worker.py`` in a subprocess; its stdout lines arrive in a queue."""

    def __init__(self, db: Path, session_id: str, stderr: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
        self._stderr = stderr.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(db), session_id],
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.stderr_path = stderr

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)  # EOF

    def next_seq(self, timeout: float = 60.0) -> int | None:
        """The next printed seq; None at EOF. Fails the test when nothing comes within ``timeout`` s."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"worker printed nothing for {timeout} s; stderr: {self.stderr_path.read_text()}")
        return None if line is None else int(line)

    def kill_and_collect(self) -> list[int]:
        """SIGKILL the worker, wait for it, and return the seqs it printed before dying."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=60)
        rest = []
        while (seq := self.next_seq()) is not None:
            rest.append(seq)
        self._reader.join(timeout=60)
        self._stderr.close()
        return rest

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=60)
        if not self._stderr.closed:
            self._stderr.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX SIGKILL")
def test_sigkill_while_appending_loses_nothing_committed(tmp_path, db):
    settings = {"players": ["Ann", "Bo"]}
    with SessionStore(db) as s:
        session_id = s.start("d6", settings).id

    printed: list[int] = []
    for round_ in range(3):  # kill, restart (the worker resumes the session), kill again
        w = Worker(db, session_id, tmp_path / f"worker{round_}.err")
        try:
            for _ in range(25):
                seq = w.next_seq()
                assert seq is not None, f"worker exited early: {w.stderr_path.read_text()}"
                printed.append(seq)
            printed.extend(w.kill_and_collect())
        finally:
            w.stop()
        assert w.proc.returncode == -signal.SIGKILL

        # Each round resumes where the file ends, so at most one event per kill goes unprinted
        # (committed, killed before the print).
        assert printed == sorted(set(printed)) and len(printed) >= 25 * (round_ + 1)

        with SessionStore(db) as s:
            session = s.get(session_id)
            stored = [e.seq for e in session.events()]
        assert stored == list(range(1, len(stored) + 1)), "seqs contiguous from 1"
        assert set(printed) <= set(stored), "every seq the worker saw committed is in the file"
        assert len(stored) - len(set(printed)) <= round_ + 1

    with SessionStore(db) as s:
        session = s.resume_latest("d6")
        assert session is not None and session.id == session_id
        events = session.events()
        expected = []
        for seq in range(1, len(events) + 1):
            kind, payload, origin = worker.planned(seq)
            expected.append(rules.Event(seq, kind, payload, at=worker.AT0 + seq, player=None, origin=origin))
        # The file holds exactly the planned events (the printed ones plus at most one per kill
        # that committed before its print), and the state is the replay of exactly those.
        assert events == expected
        assert session.replay() == rules.replay(rules.get_game("d6"), settings, expected)

        # The resumed session takes more events, undo and redo included.
        n = len(events)
        assert session.append("dice_read", read([6, 6]), origin="camera").seq == n + 1
        undo = session.undo(origin="button")
        assert undo is not None and undo.payload == {"seq": n + 1}
        assert session.redo().seq == n + 3
        assert session.replay().state.latest.values == (6, 6)
        final = session.replay()

    with SessionStore(db) as s:
        assert s.get(session_id).replay() == final
    assert raw(db).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


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


def test_payload_json_is_compact_and_valid(db_store, db):
    db_store.start("d6", {"players": ["Zoë"]}).append("dice_read", read([1], image="ü.jpg"))
    settings, payload = raw(db).execute("SELECT settings, payload FROM sessions, events").fetchone()
    assert json.loads(settings) == {"players": ["Zoë"]}
    assert json.loads(payload) == {"values": [1], "image": "ü.jpg"}


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
