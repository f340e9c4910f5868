"""The session log: every event of every game session, kept in one SQLite file.

A session is one game at the table: its game name, its settings (players, options) and
an append-only list of :class:`rules.Event`. Nothing is ever updated or deleted in the
event table; undo is an ``"undo"`` event and the game's state is always *derived* by
replaying the log (:func:`rules.replay`). So a log that survived a power cut or a kill
replays to exactly the state the table had when the last event was recorded.

This module holds the file (:class:`SessionStore`: opening, recovering, transactions, starting and finding
sessions); one session's log and the state replayed from it are :class:`companion.session_log.Session`.

Durability: the database runs in WAL mode with ``synchronous=FULL`` and every
:meth:`companion.session_log.Session.append` commits before it returns (see
:func:`companion.database._configure`).

Typical use::

    with SessionStore(default_db_path()) as store:
        session = store.resume_latest("d6") or store.start("d6", {})
        session.append("dice_read", {"values": [3, 5], "image": None}, origin="camera")
        view = session.game.view(session.replay().state)
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
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
from companion.i18n import Text, os_reason
from companion.session_log import Session, json_object
from rules import Game

__all__ = ["SCHEMA_VERSION", "SessionInfo", "SessionStore", "migrate", "new_id"]

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
        text, normalized = json_object({} if settings is None else settings, "session settings", BadEntry)
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

    def discard_unplayed(self, session_id: str) -> bool:
        """Remove the session ``session_id`` when nothing was ever recorded in it (no event, no phone's answer, no
        phone paired to it): a start that failed after making it (the phone view's port in use) leaves no empty game
        for the next start to resume or list. Returns whether it was removed; a session with anything recorded is
        kept whole (nothing recorded is ever lost).

        Raises:
            SessionError: the file cannot be written (as every write of the store).
        """
        with self._transaction(write=True, doing="removing a session nothing was recorded in") as conn:
            removed = conn.execute(
                "DELETE FROM sessions WHERE id = ? AND NOT EXISTS (SELECT 1 FROM events WHERE session_id = ?)"
                " AND NOT EXISTS (SELECT 1 FROM answers WHERE game = ?)"
                " AND NOT EXISTS (SELECT 1 FROM pairings WHERE game = ?)",
                (session_id, session_id, session_id, session_id),
            ).rowcount
        if removed:
            log.info("session %s removed: nothing was recorded in it", session_id)
        return bool(removed)

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
