"""The session log: round trip, seqs, undo/redo as events, rejected events, WAL and schema,
resume, reopening, appends from two connections, and a SIGKILL in the middle of appending."""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import rules
from companion.errors import BadEntry, CompanionError, SessionError, UnknownSession
from companion.session import SCHEMA_VERSION, SessionStore
from tests.session_raw import raw, read

WORKER = Path(__file__).with_name("_session_worker.py")
REPO = Path(__file__).resolve().parents[1]


def _load_worker():
    spec = importlib.util.spec_from_file_location("_session_worker", WORKER)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


worker = _load_worker()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "box" / "data" / "sessions.sqlite3"  # parent folders do not exist yet


@pytest.fixture
def db_store(db: Path):
    """A SessionStore at ``db`` (its folders made on open), unlike conftest's ``store``: tests open that file raw
    too."""
    with SessionStore(db) as s:
        yield s


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


def test_payload_json_is_compact_and_valid(db_store, db):
    db_store.start("d6", {"players": ["Zoë"]}).append("dice_read", read([1], image="ü.jpg"))
    settings, payload = raw(db).execute("SELECT settings, payload FROM sessions, events").fetchone()
    assert json.loads(settings) == {"players": ["Zoë"]}
    assert json.loads(payload) == {"values": [1], "image": "ü.jpg"}
