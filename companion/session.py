"""The session log: every event of every game session, kept in one SQLite file.

A session is one game at the table: its game name, its settings (players, options) and
an append-only list of :class:`rules.Event`. Nothing is ever updated or deleted in the
event table; undo is an ``"undo"`` event and the game's state is always *derived* by
replaying the log (:func:`rules.replay`). So a log that survived a power cut or a kill
replays to exactly the state the table had when the last event was recorded.

Durability: the database runs in WAL mode with ``synchronous=FULL`` and every
:meth:`Session.append` commits before it returns (see :func:`_configure`).

Typical use::

    with SessionStore(default_db_path()) as store:
        session = store.resume_latest("d6") or store.start("d6", {})
        session.append("dice_read", {"values": [3, 5], "image": None}, origin="camera")
        view = session.game.view(session.replay().state)
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import threading
import time
import uuid
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

import rules
from companion.database import (
    SCHEMA_VERSION,
    check_is_sqlite,
    connect,
    hold_box_lock,
    migrate,
    set_aside,
    storage_error,
    translate,
)
from companion.errors import (
    BadEntry,
    CorruptSession,
    NotASessionDatabase,
    SessionError,
    StorageError,
    UnknownSession,
)
from companion.i18n import Text, message_of, os_reason
from rules import UNDO, BadEvent, Event, Game, Replay, UnknownEvent

__all__ = ["SCHEMA_VERSION", "Session", "SessionInfo", "SessionStore", "migrate", "new_id"]

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class SessionInfo:
    """One line of :meth:`SessionStore.list_sessions`.

    Attributes:
        id: the session id.
        game: the game's name (``"d6"``).
        started_at: Unix seconds.
        ended_at: Unix seconds, or None while the session is open.
        events: number of events recorded (undo events included).
    """

    id: str
    game: str
    started_at: float
    ended_at: float | None
    events: int

    def to_json(self) -> dict[str, Any]:
        """``{"id", "game", "started_at", "ended_at", "events"}``."""
        return {
            "id": self.id,
            "game": self.game,
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "events": self.events,
        }


def _json_object(value: Any, what: str, error: type[Exception]) -> tuple[str, dict[str, Any]]:
    """``value`` as JSON text plus its normalized copy (what reading the text back gives).

    Raises:
        error: ``value`` is not a mapping or not JSON-compatible (NaN, numpy scalars, sets, ...).
    """
    if not isinstance(value, Mapping):
        raise error(f"{what} must be a JSON object (a dict), got {type(value).__name__}")
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise error(f"{what} is not JSON-compatible ({exc}); use plain dict/list/str/int/float/bool/None") from None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800") is no text SQLite can store
        raise error(f"{what} holds text that is not valid Unicode (a lone surrogate)") from None
    return text, json.loads(text)


def new_id(now: float) -> str:
    """``YYYYMMDD-HHMMSS-xxxxxx`` (UTC start time + 6 random hex digits): sortable and easy to type."""
    stamp = datetime.fromtimestamp(now, UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{uuid.uuid4().hex[:6]}"


class SessionStore:
    """The SQLite file holding every session's log.

    One connection per store, guarded by a lock and opened with ``check_same_thread=False``,
    so calls from any thread are serialized and safe. By design only the main loop writes
    (starts, appends, undoes, ends); the views and GPIO callbacks post actions to the
    :class:`companion.hub.StateHub` and never touch the store.

    Args:
        path: the database file; missing parent folders are created, a missing file is a new log.
        exclusive: hold an exclusive lock (``fcntl.flock`` on ``<path>.lock``) until :meth:`close`: one
            box per database, so two main jobs never interleave their events in one game (readers such
            as ``companion export`` do not take it).
        games: the games its sessions may be of, by name (default :data:`rules.GAMES`, the one list; a test
            passes its own to play a game that is not registered).

    Attributes:
        path: the database file.
        recovered_from: set by :meth:`open_or_recover` to where a damaged file was kept, else None.
        read_only: None, or the :class:`StorageError` that refused writing when the store was opened (an
            existing file on a read-only file, folder or file system): the store was opened read-only, what
            was recorded reads as usual, and every write raises that StorageError (kind ``"read-only"``).
        schema: the file's schema version (:data:`SCHEMA_VERSION`, or older for a read-only file).

    Raises:
        CorruptSession: the file is not a SQLite database, is damaged, or holds something else.
        SessionError: it cannot be opened (permissions, locked by another program, newer schema), or
            (``exclusive``) another companion holds it (the message gives its process id).
    """

    def __init__(self, path: Path | str, exclusive: bool = False, games: Mapping[str, Game] | None = None) -> None:
        self.path = Path(path)
        self.games: Mapping[str, Game] = rules.GAMES if games is None else games
        self.recovered_from: Path | None = None
        self._lock = threading.RLock()
        self._depth = 0  # transactions open (nested ones join the outermost)
        self._writing = False
        self._touched: set[Session] = set()  # sessions whose cache holds writes of the open transaction
        self._exclusive = exclusive
        self._box_lock, lock_error = hold_box_lock(self.path) if exclusive else (None, None)
        try:
            conn, self.schema, refused = connect(self.path)
        except BaseException:
            self._release_box_lock()
            raise
        self._conn: sqlite3.Connection | None = conn
        self.read_only: StorageError | None = None
        if refused is not None:
            self.read_only = StorageError(
                f"session database {self.path} is read-only ({refused.reason}): nothing new can be saved",
                "read-only", refused.reason)
        elif lock_error is not None:
            self.close()
            raise SessionError(Text("cannot lock session database {path} ({problem})", path=str(self.path),
                                    problem=os_reason(lock_error)))

    def retry_writing(self) -> bool:
        """A store opened read-only (:attr:`read_only`): try to open the file for writing again (the card was
        remounted, the file made writable); True when the store writes from now on (also when it already did)."""
        with self._lock:
            if self.read_only is None:
                return True
            if self._conn is None or self._depth:
                return False
            try:
                conn, schema, refused = connect(self.path)
            except SessionError:
                return False
            if refused is not None:
                conn.close()
                return False
            if self._exclusive and self._box_lock is None:
                try:
                    self._box_lock, lock_error = hold_box_lock(self.path)
                except SessionError:
                    lock_error = True
                if lock_error is not None:
                    conn.close()
                    return False
            self._conn.close()
            self._conn, self.schema, self.read_only = conn, schema, None
            log.info("session database %s is writable again", self.path)
            return True

    def _release_box_lock(self) -> None:
        if self._box_lock is not None:
            lock, self._box_lock = self._box_lock, None
            try:
                lock.close()  # closing the file releases the flock
            except OSError:  # the pid a full disk refused is flushed again: the file is closed all the same
                pass

    @classmethod
    def open_or_recover(cls, path: Path | str, exclusive: bool = False) -> SessionStore:
        """Open ``path``; if it is damaged, keep it renamed aside and start a new, empty log.

        Nothing is deleted: the bad file (with its -wal/-shm files) becomes
        ``<name>.corrupt-<UTC time>`` in the same folder, the event is logged at WARNING,
        and the returned store's :attr:`recovered_from` names the kept file so the
        touchscreen can tell the players.

        A file that is not a session database at all (not SQLite: its header is not ``SQLite
        format 3\\0``; or another program's SQLite database) is refused and left untouched.

        Raises:
            NotASessionDatabase: the file is not SQLite, or another program's database.
            SessionError: the file cannot be opened for another reason (not damage), or
                the new database cannot be created either.
        """
        path = Path(path)
        check_is_sqlite(path)
        try:
            return cls(path, exclusive)
        except NotASessionDatabase:
            raise
        except CorruptSession as exc:
            try:
                kept = set_aside(path)
            except OSError as move_error:
                raise SessionError(Text(
                    "session database {path} is damaged and could not be moved aside ({problem}); move it away by "
                    "hand or point TABLETOP_DATA_DIR elsewhere", path=str(path),
                    problem=os_reason(move_error))) from exc
            log.warning(
                "session database %s was unreadable (%s); kept it as %s and started a new log", path, exc.reason, kept
            )
            store = cls(path, exclusive)
            store.recovered_from = kept
            return store

    # -- lifecycle ---------------------------------------------------------------------

    def close(self) -> None:
        """Close the database (idempotent). Later calls on the store or its sessions raise SessionError."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._release_box_lock()

    @property
    def closed(self) -> bool:
        """True after :meth:`close`."""
        return self._conn is None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SessionStore({str(self.path)!r}{', closed' if self.closed else ''})"

    @contextmanager
    def transaction(self, write: bool, doing: str) -> Iterator[sqlite3.Connection]:
        """Hold the lock and run the block in one transaction (``BEGIN IMMEDIATE`` when writing).

        Commits when the block ends; rolls back on any exception, and then every session's cache of
        what the block appended is dropped (reloaded from the file). A transaction opened inside another
        of this store joins it: all of it is committed, or none (the main loop wraps each action in one, so
        Next's several events and the action's answer are written together).

        Raises:
            StorageError: the storage refused (full, read-only, I/O error, locked); nothing was written.
            CorruptSession: the file is damaged.
            SessionError: the store is closed, or another SQLite error (naming the file and ``doing``).
            RuntimeError: a write transaction opened inside a read transaction (a program error).
        """
        with self._lock:
            if self._conn is None:
                raise SessionError(f"session database {self.path} is closed; open a new SessionStore")
            conn = self._conn
            if self._depth:
                if write and not self._writing:
                    raise RuntimeError("a write transaction cannot join a read transaction")
                self._depth += 1
                try:
                    yield conn
                except sqlite3.Error as exc:  # said in our terms here; the outermost block rolls back
                    raise translate(exc, self.path, doing) from exc
                finally:
                    self._depth -= 1
                return
            if write and self.read_only is not None:
                raise storage_error(self.path, doing, "read-only", self.read_only.reason)
            try:
                conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                self._depth, self._writing = 1, write
                yield conn
                conn.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback(conn)
                error = translate(exc, self.path, doing)
                if isinstance(error, StorageError) and error.kind == "read-only":
                    self.read_only = error  # SQLite keeps the file read-only now: retry_writing reopens it
                raise error from exc
            except BaseException:
                self._rollback(conn)
                raise
            finally:
                self._depth, self._writing = 0, False
                self._touched.clear()

    _transaction = transaction

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction of this store is open (in any thread): a write made now would join it, and its
        failure would undo what it holds."""
        return self._depth > 0

    def _rollback(self, conn: sqlite3.Connection) -> None:
        for session in self._touched:  # their caches hold events that are not in the file
            session._events = session._replay = None
        self._touched.clear()
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:  # the original error is the one worth reporting
                log.exception("rollback failed")

    # -- sessions ----------------------------------------------------------------------

    def start(self, game: str, settings: Mapping[str, Any] | None = None, session_id: str | None = None) -> Session:
        """Start a new session of ``game`` and record it (committed before returning).

        Args:
            game: a name from :attr:`games` (:data:`rules.GAMES`: ``"d6"``).
            settings: JSON-compatible players and options, passed to the game's ``initial_state``.
            session_id: the id to give it (a game set up on the box takes its setup's id, so the phones
                paired during the setup stay paired); None: a new one (:func:`new_id`).

        Raises:
            rules.UnknownGame: ``game`` is not known (the message lists the known games).
            BadEntry: ``settings`` is not a JSON object.
            rules.BadEvent: the game rejects the settings.
        """
        game_obj = self.game(game)
        text, normalized = _json_object({} if settings is None else settings, "session settings", BadEntry)
        rules.replay(game_obj, normalized, [])  # let the game reject impossible settings now
        now = time.time()
        session_id = session_id or new_id(now)
        with self._transaction(write=True, doing="starting a session") as conn:
            conn.execute(
                "INSERT INTO sessions (id, game, settings, started_at, ended_at) VALUES (?, ?, ?, ?, NULL)",
                (session_id, game_obj.name, text, now),
            )
        log.info("session %s started (%s)", session_id, game_obj.name)
        return Session(self, session_id, game_obj, normalized, now, None)

    def get(self, session_id: str) -> Session:
        """The session with this id, ended or not.

        Raises:
            UnknownSession: no such session in this file (an id that is no UTF-8 text, a lone surrogate from a
                terminal that is not UTF-8 or a phone's JSON, names no stored session either).
            rules.UnknownGame: the session's game is no longer known to this program.
            SessionError: its settings as stored cannot be read (changed outside the box).
        """
        try:
            str(session_id).encode("utf-8")
            storable = True
        except UnicodeEncodeError:
            storable = False
        row = None
        if storable:
            with self._transaction(write=False, doing="reading a session") as conn:
                row = conn.execute(
                    "SELECT id, game, settings, started_at, ended_at FROM sessions WHERE id = ?", (session_id,)
                ).fetchone()
        if row is None:
            raise UnknownSession(Text("no session {session} in {path}; `companion sessions` lists the ids",
                                      session=repr(session_id), path=str(self.path)))
        return self._session(row)

    def resume_latest(self, game: str | None = None) -> Session | None:
        """The most recently started session that has not ended (of ``game`` when given), or None.

        Raises:
            rules.UnknownGame: that session's game is no longer known to this program.
        """
        sql = "SELECT id, game, settings, started_at, ended_at FROM sessions WHERE ended_at IS NULL"
        params: tuple[Any, ...] = ()
        if game is not None:
            sql += " AND game = ?"
            params = (game,)
        sql += " ORDER BY started_at DESC, rowid DESC LIMIT 1"
        with self._transaction(write=False, doing="finding the latest session") as conn:
            row = conn.execute(sql, params).fetchone()
        return None if row is None else self._session(row)

    def list_sessions(self) -> list[SessionInfo]:
        """Every session in the file, newest first, with its event count."""
        with self._transaction(write=False, doing="listing sessions") as conn:
            rows = conn.execute(
                "SELECT s.id, s.game, s.started_at, s.ended_at,"
                " (SELECT COUNT(*) FROM events e WHERE e.session_id = s.id)"
                " FROM sessions s ORDER BY s.started_at DESC, s.rowid DESC"
            ).fetchall()
        return [SessionInfo(id=r[0], game=r[1], started_at=r[2], ended_at=r[3], events=r[4]) for r in rows]

    def _session(self, row: tuple[Any, ...]) -> Session:
        """The :class:`Session` of a ``sessions`` row.

        Raises:
            rules.UnknownGame: its game is not known to this program.
            SessionError: its settings as stored are no JSON object this program reads (not JSON, not an object, a
                number of more than 4300 digits, nested deeper than the reader goes): the file was changed outside
                the box, which writes none of these.
        """
        session_id, game, settings, started_at, ended_at = row
        try:
            kept = json.loads(settings)
        except (TypeError, ValueError, RecursionError):
            kept = None
        if not isinstance(kept, dict):
            raise SessionError(Text("session {session} in {path}: its settings as stored are not a JSON object this "
                                    "program reads (changed outside the box?)", session=str(session_id),
                                    path=str(self.path)))
        return Session(self, session_id, self.game(game), kept, started_at, ended_at)

    def game(self, name: str) -> Game:
        """The game called ``name`` among :attr:`games`.

        Raises:
            rules.UnknownGame: naming it and listing the known games.
        """
        try:
            return self.games[name]
        except KeyError:
            raise rules.UnknownGame(f"unknown game {name!r}; known games: {', '.join(sorted(self.games))}") from None


class Session:
    """One game session: its log and the state derived from it. Get one from a :class:`SessionStore`.

    The session keeps the events it has read and their replay, keyed by the last seq in
    the file: :meth:`replay` and :meth:`events` cost one indexed query when nothing changed,
    and pick up events another connection appended.

    Attributes:
        id: the session id (``YYYYMMDD-HHMMSS-xxxxxx``).
        game: the :class:`rules.Game` being played.
        store: the store it lives in.
        started_at: Unix seconds.
    """

    def __init__(
        self,
        store: SessionStore,
        session_id: str,
        game: Game,
        settings: dict[str, Any],
        started_at: float,
        ended_at: float | None,
    ) -> None:
        self.store = store
        self.id = session_id
        self.game = game
        self.started_at = started_at
        self._settings = settings
        self._ended_at = ended_at
        self._events: list[Event] | None = None  # None: not loaded (or invalidated)
        self._replay: Replay | None = None

    def __repr__(self) -> str:
        return f"Session({self.id!r}, game={self.game.name!r})"

    @property
    def settings(self) -> dict[str, Any]:
        """A copy of the session's settings (JSON-compatible)."""
        return json.loads(json.dumps(self._settings))

    @property
    def ended_at(self) -> float | None:
        """Unix seconds when :meth:`end` was called (as last seen by this object), else None."""
        return self._ended_at

    @property
    def last_seq(self) -> int:
        """The seq of the newest event in the file (0 when there is none)."""
        with self.store._transaction(write=False, doing="reading events") as conn:
            self._sync(conn)
            return self._last_seq()

    # -- reading -----------------------------------------------------------------------

    def events(self) -> list[Event]:
        """Every event of the session, undo events included, in seq order (1, 2, 3, ...)."""
        with self.store._transaction(write=False, doing="reading events") as conn:
            self._sync(conn)
            assert self._events is not None
            return list(self._events)

    def replay(self) -> Replay:
        """The derived state: :func:`rules.replay` of the game over this session's log.

        Cached by the last seq in the file, so calling it every frame is cheap.

        Raises:
            SessionError: the stored log no longer replays with this program's rules.
        """
        with self.store._transaction(write=False, doing="reading events") as conn:
            self._sync(conn)
            assert self._replay is not None
            return self._replay

    # -- writing -----------------------------------------------------------------------

    def append(
        self,
        kind: str,
        payload: Mapping[str, Any] | None = None,
        *,
        player: str | None = None,
        origin: str = "cli",
        at: float | None = None,
    ) -> Event:
        """Record one event; it is committed (fsynced) before this returns.

        The event gets the next seq inside the write transaction, then the whole log plus
        this event is replayed through the game; only if that succeeds is it stored.

        Args:
            kind: one of ``game.event_kinds`` or ``"undo"`` (payload ``{"seq": n}``).
            payload: JSON-compatible dict; stored and returned in its JSON form (tuples
                become lists, keys become strings).
            player: the seat/name the event concerns, None for the whole table.
            origin: ``"camera"``, ``"touchscreen"``, ``"phone"``, ``"button"`` or ``"cli"``.
            at: Unix seconds; now when None.

        Returns:
            The stored :class:`rules.Event`.

        Raises:
            rules.UnknownEvent: the game has no such kind; nothing stored.
            rules.BadEvent: the game cannot apply the payload, the payload is not JSON, or
                an undo names no earlier event; nothing stored.
            SessionError: the session has ended, the store is closed, or the disk failed.
        """
        with self._write() as conn:
            return self._insert(conn, kind, payload, player=player, origin=origin, at=at)

    def replace(self, seq: int, kind: str, payload: Mapping[str, Any] | None = None, *, player: str | None = None,
                origin: str = "cli", at: float | None = None) -> Event:
        """Record a corrected report: ``undo {"seq": seq}`` and then the new event, in one transaction (both are
        committed or neither), so the replay, and every finding, follow the newest report.

        Returns:
            The new event (the undo is the seq before it).

        Raises:
            rules.BadEvent: ``seq`` is no earlier event, or the game cannot apply the new event once ``seq`` is
                withdrawn; nothing stored.
            rules.UnknownEvent, SessionError: as for :meth:`append`.
        """
        with self._write() as conn:
            self._insert(conn, UNDO, {"seq": seq}, player=player, origin=origin, at=at)
            return self._insert(conn, kind, payload, player=player, origin=origin, at=at)

    def undo(self, origin: str = "cli", *, player: str | None = None, at: float | None = None,
             passing: Collection[str] = ()) -> Event | None:
        """Withdraw the newest event still in force by appending ``undo {"seq": n}``.

        Undo events themselves are never the target, so repeated undos walk back through
        the game; :meth:`redo` (or ``append("undo", {"seq": <undo's seq>})``) restores.

        Args:
            passing: event kinds passed by (the camera's own records, ``spec.camera_records``): the newest event
                in force of another kind is withdrawn, however many of these came after it.

        Returns:
            The undo event, or None when no event is in force (none but of the kinds ``passing``).

        Raises:
            SessionError: as for :meth:`append`.
        """
        with self._write() as conn:
            assert self._replay is not None and self._events is not None
            kinds = {event.seq: event.kind for event in self._events}
            target = next((seq for seq in reversed(self._replay.applied) if kinds.get(seq) not in passing), None)
            if target is None:
                return None
            return self._insert(conn, UNDO, {"seq": target}, player=player, origin=origin, at=at)

    def redo(self, origin: str = "cli", *, player: str | None = None, at: float | None = None) -> Event | None:
        """Restore the event withdrawn by the newest undo still in force (an undo of that undo).

        Returns:
            The new undo event, or None when there is nothing to redo.

        Raises:
            SessionError: as for :meth:`append`.
        """
        with self._write() as conn:
            assert self._events is not None
            by_seq = {event.seq: event for event in self._events}
            withdrawn: set[int] = set()  # same walk as rules.effective_events, newest first
            for event in reversed(self._events):
                if event.kind != UNDO or event.seq in withdrawn:
                    continue
                target = by_seq[event.payload["seq"]]
                if target.kind != UNDO:  # the newest undo in force of a game event
                    return self._insert(conn, UNDO, {"seq": event.seq}, player=player, origin=origin, at=at)
                withdrawn.add(target.seq)
            return None

    def end(self) -> None:
        """Mark the session ended (idempotent); it stays readable, appending then raises SessionError."""
        with self.store._transaction(write=True, doing="ending the session") as conn:
            conn.execute("UPDATE sessions SET ended_at = ? WHERE id = ? AND ended_at IS NULL", (time.time(), self.id))
            self._ended_at = conn.execute("SELECT ended_at FROM sessions WHERE id = ?", (self.id,)).fetchone()[0]
        log.info("session %s ended", self.id)

    # -- internals ---------------------------------------------------------------------

    def _last_seq(self) -> int:
        return self._events[-1].seq if self._events else 0

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Write transaction with the cache in step with the file; drops the cache if the commit fails."""
        with self.store._lock:
            seq_before = None
            try:
                with self.store._transaction(write=True, doing="recording an event") as conn:
                    row = conn.execute("SELECT ended_at FROM sessions WHERE id = ?", (self.id,)).fetchone()
                    if row is None:
                        raise UnknownSession(f"session {self.id!r} is not in {self.store.path}")
                    if row[0] is not None:
                        self._ended_at = row[0]
                        raise SessionError(Text("session {session} has ended; start a new session to record more",
                                                session=self.id))
                    self._sync(conn)
                    seq_before = self._last_seq()
                    yield conn
            except BaseException:
                if seq_before is not None and self._last_seq() != seq_before:
                    self._events = self._replay = None  # not committed: reload from the file next time
                raise

    def _insert(
        self,
        conn: sqlite3.Connection,
        kind: str,
        payload: Mapping[str, Any] | None,
        *,
        player: str | None,
        origin: str,
        at: float | None,
    ) -> Event:
        """Validate the event by replaying the log with it, then INSERT it and extend the cache."""
        assert self._events is not None
        text, normalized = _json_object({} if payload is None else payload, f"payload of {kind!r} event", BadEvent)
        when = time.time() if at is None else at
        if not isinstance(when, (int, float)) or isinstance(when, bool) or not math.isfinite(when):
            raise BadEvent(f"event time 'at' must be finite Unix seconds, got {at!r}")
        if not isinstance(origin, str) or not origin:
            raise BadEvent(f"event origin must be a non-empty string, got {origin!r}")
        if player is not None and not isinstance(player, str):
            raise BadEvent(f"event player must be a string or None, got {player!r}")
        event = Event(
            seq=self._last_seq() + 1, kind=kind, payload=normalized, at=float(when), player=player, origin=origin
        )
        try:
            replayed = self._replay_with(event)
        except (BadEvent, UnknownEvent) as exc:
            refused = type(exc)(f"{exc} (not recorded in session {self.id})")
            refused.problem = getattr(exc, "problem", None) or str(exc)  # what a player is shown
            raise refused from exc
        conn.execute(
            "INSERT INTO events (session_id, seq, kind, payload, at, player, origin) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (self.id, event.seq, event.kind, text, event.at, event.player, event.origin),
        )
        self._events.append(event)
        self._replay = replayed
        self.store._touched.add(self)
        return event

    def _replay_with(self, event: Event) -> Replay:
        """The replay of the cached log plus ``event`` (the newest seq).

        A game event at the end of the log changes nothing that came before it, so its
        replay is the cached one with one more ``game.apply``: exactly what
        :func:`rules.replay` gives, without replaying the whole game on every camera read.
        An undo can change anything, so it replays the whole log.

        Raises:
            rules.BadEvent, rules.UnknownEvent: from the game or the undo resolution.
        """
        assert self._events is not None and self._replay is not None
        if event.kind == UNDO:
            return rules.replay(self.game, self._settings, [*self._events, event])
        if event.kind not in self.game.event_kinds:
            raise UnknownEvent(f"event {event.seq}: game {self.game.name!r} has no event kind {event.kind!r}")
        state, raised = self.game.apply(self._replay.state, event)
        previous = self._replay
        return Replay(
            state=state,
            findings=(*previous.findings, *raised),
            applied=(*previous.applied, event.seq),
            undone=previous.undone,
        )

    def _stored(self, seq: int, text: Any) -> dict[str, Any]:
        """Event ``seq``'s payload as stored (``text``), read back.

        Raises:
            SessionError: it is no JSON object this program reads (cut short, a number of more than 4300 digits,
                nested deeper than the reader goes, not an object): the file was changed outside the box, which
                writes none of these.
        """
        try:
            payload = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            payload = None
        if not isinstance(payload, dict):
            raise SessionError(Text("session {session} in {path}: event {seq} as stored is not a JSON object this "
                                    "program reads (changed outside the box?)", session=self.id,
                                    path=str(self.store.path), seq=seq))
        return payload

    def _sync(self, conn: sqlite3.Connection) -> None:
        """Bring the cached events and replay up to the file's last seq (inside a transaction)."""
        last = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE session_id = ?", (self.id,)).fetchone()[0]
        if self._events is not None and last == self._last_seq():
            return
        if self._events is None or last < self._last_seq():
            self._events = []
        rows = conn.execute(
            "SELECT seq, kind, payload, at, player, origin FROM events WHERE session_id = ? AND seq > ? ORDER BY seq",
            (self.id, self._last_seq()),
        ).fetchall()
        events = [Event(seq=r[0], kind=r[1], payload=self._stored(r[0], r[2]), at=r[3], player=r[4], origin=r[5])
                  for r in rows]
        if self.store.schema < 3:  # opened read-only before its migration could run: today's names in memory
            events = rules.upgrade_events(self.game.name, events)
        self._events.extend(events)
        try:
            self._replay = rules.replay(self.game, self._settings, self._events)
        except rules.RulesError as exc:
            self._events = self._replay = None
            raise SessionError(Text(
                "session {session} in {path} no longer replays with this program's {game} rules: {problem}",
                session=self.id, path=str(self.store.path), game=repr(self.game.name),
                problem=message_of(exc))) from exc


_check_is_sqlite = check_is_sqlite  # the name companion.cli imports
