"""The session database as a file: schema and migrations, opening (read-write, or read-only when the
storage refuses writes), the one-box lock, damaged files kept aside, and SQLite errors in our terms.

:mod:`companion.session` builds the event log on this; nothing else opens the file.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion.errors import CorruptSession, NotASessionDatabase, SessionError, StorageError
from companion.i18n import Text, _, os_reason, say

__all__ = ["SCHEMA_VERSION", "SQLITE_HEADER", "check_folder_there", "check_is_file_path", "check_is_sqlite", "connect",
           "hold_box_lock", "migrate", "set_aside", "translate"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 4
"""Schema version written to ``PRAGMA user_version``; :func:`migrate` brings older files up to it."""

# (version, statements) in order; a migration runs when the file's user_version is lower.
# JSON columns are declared TEXT on purpose: a declared type "JSON" gets NUMERIC affinity
# in SQLite, which would turn a JSON text such as "5" into the integer 5.
_MIGRATIONS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (
        1,
        (
            """CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                game TEXT NOT NULL,
                settings TEXT NOT NULL,          -- JSON object
                started_at REAL NOT NULL,        -- Unix seconds
                ended_at REAL                    -- Unix seconds; NULL while the session is open
            )""",
            "CREATE INDEX sessions_by_start ON sessions (started_at)",
            """CREATE TABLE events (
                session_id TEXT NOT NULL REFERENCES sessions (id),
                seq INTEGER NOT NULL CHECK (seq >= 1),
                kind TEXT NOT NULL,
                payload TEXT NOT NULL,           -- JSON object
                at REAL NOT NULL,                -- Unix seconds
                player TEXT,
                origin TEXT NOT NULL,
                PRIMARY KEY (session_id, seq)
            ) WITHOUT ROWID""",
        ),
    ),
    (
        2,  # exactly-once answers, phone pairing, the setup step as events, the storage probe
        (
            """CREATE TABLE answers (
                key TEXT PRIMARY KEY,            -- the idempotency key a phone sent with the action
                game TEXT,                       -- the session (or setup) it was made in
                answer TEXT NOT NULL,            -- JSON: the loop's answer (companion.hub.ANSWER_KEYS)
                at REAL NOT NULL                 -- Unix seconds
            ) WITHOUT ROWID""",
            """CREATE TABLE pairings (
                game TEXT PRIMARY KEY,           -- session id (a game set up on the box keeps its setup's id)
                secret TEXT NOT NULL,            -- the join secret the QR code carries
                made_at REAL NOT NULL
            ) WITHOUT ROWID""",
            """CREATE TABLE claims (
                game TEXT NOT NULL,
                player TEXT NOT NULL,            -- the seat (player name)
                client TEXT NOT NULL,            -- the phone's client id (from its signed cookie)
                at REAL NOT NULL,
                PRIMARY KEY (game, player)
            ) WITHOUT ROWID""",
            """CREATE TABLE setups (
                id TEXT PRIMARY KEY,             -- the session started from it takes this id
                game TEXT NOT NULL,
                options TEXT NOT NULL,           -- JSON object: the game options of the command line
                started_at REAL NOT NULL,
                ended_at REAL                    -- set when Start records the session
            )""",
            """CREATE TABLE setup_events (
                setup_id TEXT NOT NULL REFERENCES setups (id),
                seq INTEGER NOT NULL CHECK (seq >= 1),
                kind TEXT NOT NULL,
                payload TEXT NOT NULL,           -- JSON object
                at REAL NOT NULL,
                origin TEXT NOT NULL,
                PRIMARY KEY (setup_id, seq)
            ) WITHOUT ROWID""",
            "CREATE TABLE probe (id INTEGER PRIMARY KEY CHECK (id = 1), at REAL NOT NULL)",
        ),
    ),
    (
        3,  # one term per idea across the games: events stored under an older name get today's (rules.upgrade_event)
        (),
    ),
    (
        4,  # the whole evening on the box: where the box was (its mode and game), so a restart comes back to it
        (
            """CREATE TABLE box_state (
                key TEXT PRIMARY KEY,            -- "place": the mode the box shows and the game it is on
                value TEXT NOT NULL,             -- JSON object
                at REAL NOT NULL                 -- Unix seconds
            ) WITHOUT ROWID""",
        ),
    ),
)
OUR_TABLES = frozenset({"sessions", "events", "answers", "pairings", "claims", "setups", "setup_events", "probe",
                        "box_state"})

# Primary SQLite result codes (https://sqlite.org/rescode.html).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_NOMEM, _SQLITE_READONLY = 3, 5, 6, 7, 8
_SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL, _SQLITE_CANTOPEN, _SQLITE_NOLFS, _SQLITE_NOTADB = 10, 11, 13, 14, 22, 26
_STORAGE_KINDS = {_SQLITE_FULL: "full", _SQLITE_NOLFS: "full", _SQLITE_READONLY: "read-only", _SQLITE_PERM: "read-only",
                  _SQLITE_CANTOPEN: "read-only", _SQLITE_BUSY: "busy", _SQLITE_LOCKED: "busy",
                  _SQLITE_IOERR: "failing", _SQLITE_NOMEM: "failing"}

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite 3 database file."""


def _rename_stored_events(conn: sqlite3.Connection) -> int:
    """Schema 3: rewrite every stored event whose kind or payload keys a game has renamed since
    (``rules.upgrade_event``: Roll ``vp_taken`` -> ``vp_changed``, Race ``round_end`` -> ``round_ended``,
    ...), inside the migration's transaction. Seqs, times, players and origins are kept, so the log
    replays to the same state. Returns how many events were rewritten."""
    from rules import upgrade_event

    rows = conn.execute(
        "SELECT e.session_id, e.seq, s.game, e.kind, e.payload FROM events e JOIN sessions s ON s.id = e.session_id"
    ).fetchall()
    changed = 0
    for session_id, seq, game, kind, text in rows:
        payload = json.loads(text)
        new_kind, new_payload = upgrade_event(game, kind, payload)
        if new_kind != kind or new_payload != payload:
            conn.execute(
                "UPDATE events SET kind = ?, payload = ? WHERE session_id = ? AND seq = ?",
                (new_kind, json.dumps(new_payload, allow_nan=False, ensure_ascii=False, separators=(",", ":")),
                 session_id, seq),
            )
            changed += 1
    if changed:
        log.info("session database: %d events renamed to today's names", changed)
    return changed


def migrate(conn: sqlite3.Connection, path: Path | str = "<database>") -> int:
    """Bring the schema of ``conn`` up to :data:`SCHEMA_VERSION` in one transaction.

    Migrations add tables, and rename stored events the games have renamed since (schema 3): a log
    written by an earlier version opens and replays to the same state.

    Args:
        conn: a connection opened with ``isolation_level=None`` and no open transaction.
        path: the file, for error messages.

    Returns:
        The schema version the file had before (0 for a new file).

    Raises:
        SessionError: the file was written by a newer version of the program.
        CorruptSession: a SQLite database that holds other tables and no session log.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = _schema_of(conn, path)
        for version, statements in _MIGRATIONS:
            if version > found:
                for statement in statements:
                    conn.execute(statement)
                if version == 3 and found >= 1:
                    _rename_stored_events(conn)
                conn.execute(f"PRAGMA user_version = {int(version)}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if found == 0:  # a first start: nothing was there to bring up to date ("schema 0 -> 4" read as a change)
        log.info("session database %s: created (schema %d)", path, SCHEMA_VERSION)
    elif found < SCHEMA_VERSION:
        log.info("session database %s: brought up to date from an earlier version of the program (schema %d -> %d); "
                 "its games are kept", path, found, SCHEMA_VERSION)
    return found


def _schema_of(conn: sqlite3.Connection, path: Path | str) -> int:
    """The file's schema version. Raises SessionError (newer than ours), NotASessionDatabase (another program's)."""
    found = conn.execute("PRAGMA user_version").fetchone()[0]
    if found > SCHEMA_VERSION:
        raise SessionError(Text(
            "session database {path} has schema version {found}, newer than this program's {ours}; update "
            "tabletop-companion or use another file", path=str(path), found=found, ours=SCHEMA_VERSION))
    if found == 0:
        tables = {row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        if tables - OUR_TABLES:
            raise NotASessionDatabase(path, _other_programs(tables))
    return found


def _other_programs(tables: set[str]) -> Text:
    """Why a SQLite file is another program's: the tables it holds instead of ours."""
    return Text("a SQLite database of something else (tables: {tables})", tables=", ".join(sorted(tables)))


def translate(exc: sqlite3.Error, path: Path, doing: str) -> SessionError:
    """The companion error for a sqlite3 error: CorruptSession for a damaged file, StorageError when the
    storage refused (full, read-only, I/O error, locked), else SessionError."""
    code = getattr(exc, "sqlite_errorcode", None)  # set by Python >= 3.11; may be an extended code
    primary = None if code is None else code & 0xFF
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptSession(path, str(exc))
    if primary in _STORAGE_KINDS:
        return storage_error(path, doing, _STORAGE_KINDS[primary], str(exc))
    if isinstance(exc, sqlite3.OperationalError) and "disk" in str(exc).lower():
        return storage_error(path, doing, "failing", str(exc))
    return SessionError(f"session database {path}: {doing} failed: {exc}")


_STORAGE_SAID = {
    "full": Text("session database {path}: the storage is full ({doing}: {reason}): make room on the card or disk, "
                 "or give another file with --db"),
    "read-only": Text("session database {path} cannot be written ({doing}: {reason}): make the file and its folder "
                      "writable for the user who runs the box, or give another file with --db"),
    "busy": Text("session database {path} is held by another program ({doing}: {reason}): stop that program (another "
                 "companion on the same file?) and start again"),
    "failing": Text("session database {path}: the storage reports an error ({doing}: {reason}): check the card or "
                    "disk (`companion doctor`), or give another file with --db"),
}
"""What the owner reads when the storage under the database refuses, by :attr:`StorageError.kind`: what is wrong
and what to do (the log line of a failed write, and ``companion run|demo``'s line when the database cannot be
opened)."""


def storage_error(path: Path | str, doing: str, kind: str, reason: str) -> StorageError:
    """The :class:`StorageError` for the storage under the session database at ``path`` refusing ``doing`` (the
    store's name for the operation: ``"opening"``, ``"report"``, ...).

    Args:
        path: the database file.
        doing: what was being done (kept in the message as the store names it).
        kind: ``"full"``, ``"read-only"``, ``"busy"`` or ``"failing"`` (anything else is said as ``"failing"``).
        reason: what SQLite or the operating system said.

    Returns:
        the error; its message is a :class:`~companion.i18n.Text` (said in the reader's language) naming the file,
        what is wrong and what to do.
    """
    said = _STORAGE_SAID.get(kind, _STORAGE_SAID["failing"])
    return StorageError(Text(said.template, path=str(path), doing=doing, reason=reason), kind, reason)


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    """WAL journal, durable commits, foreign keys; fail when WAL cannot be switched on."""
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise SessionError(Text(
            "session database {path}: SQLite refused WAL mode (got {mode}); put the data directory on a local "
            "file system (set TABLETOP_DATA_DIR)", path=str(path), mode=repr(mode)))
    # FULL, not NORMAL. In WAL mode NORMAL syncs only at checkpoints: a commit survives a
    # killed process (it is in the OS page cache) but a power cut can roll back the last
    # commits. FULL fsyncs the WAL on every commit, so once append() returns the event is
    # on the storage and a power cut loses nothing recorded. The cost is one fsync per
    # event, a few ms on an SD card, at the pace of a table (a few events a minute).
    # synchronous is per connection, so the rarely written sessions table gets it too.
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")


def _check_pages(conn: sqlite3.Connection, path: Path) -> None:
    # quick_check reads every page once (O(file size), well under a second for years of
    # play) and finds damage now rather than in the middle of a game.
    problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
    if problems != ["ok"]:
        raise CorruptSession(path, "\n".join(problems))  # one line of the first problems (CorruptSession)


def _open(target: str, path: Path, uri: bool = False) -> sqlite3.Connection:
    try:
        # isolation_level=None: no implicit transactions; every write is an explicit
        # BEGIN IMMEDIATE ... COMMIT so we know exactly when an event is on disk.
        return sqlite3.connect(target, timeout=5.0, isolation_level=None, check_same_thread=False, uri=uri)
    except sqlite3.Error as exc:
        raise translate(exc, path, "opening") from exc


def check_is_file_path(path: Path) -> None:
    """Refuse a session database path that names a folder, a device or a pipe (nothing is made or changed).

    A missing path is fine (a new log is made there), and so is an existing regular file.

    Raises:
        SessionError: ``path`` is a folder (the message suggests a file in it), or a device or a pipe.
    """
    if path.is_dir():
        raise SessionError(Text("session database {path} is a folder: give a file in it, e.g. {example}",
                                path=str(path), example=str(path / "sessions.sqlite3")))
    if path.exists() and not path.is_file():  # /dev/null, a pipe: SQLite would say only "disk I/O error"
        raise SessionError(Text("session database {path} is a device or a pipe, not a file: give a file name, e.g. "
                                "{example}", path=str(path), example=str(Path.home() / "sessions.sqlite3")))


def check_folder_there(path: Path, own: Path | None = None) -> None:
    """Refuse a session database path given by the owner (``--db``) whose folder is not there, so that a typo in it
    ("/home/pi/gmaes/s.sqlite3") is said instead of made into a tree of folders (nothing is made or changed).

    Args:
        path: the database file as given (``~`` expanded here).
        own: the box's own data folder, made when missing like any of its own files (a database given in it).

    Raises:
        SessionError: the folder is missing: the outermost missing folder is named (where the typo is), with the path.
    """
    folder = Path(path).expanduser().parent
    if folder.is_dir() or (own is not None and folder.absolute() == Path(own).expanduser().absolute()):
        return
    missing = folder
    while not missing.parent.exists() and missing.parent != missing:
        missing = missing.parent
    raise SessionError(Text("session database {path}: the folder {folder} does not exist: check the path, or make "
                            "the folder first", path=str(path), folder=str(missing)))


def _connect_rw(path: Path) -> sqlite3.Connection:
    """Open, configure, check and migrate the database at ``path`` for writing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SessionError(Text("cannot create the folder for session database {path}: {problem}", path=str(path),
                                problem=os_reason(exc))) from exc
    check_is_file_path(path)
    conn = _open(str(path), path)
    try:
        _configure(conn, path)
        _check_pages(conn, path)
        migrate(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise translate(exc, path, "opening") from exc
    except BaseException:
        conn.close()
        raise
    return conn


def _connect_ro(path: Path) -> tuple[sqlite3.Connection, int]:
    """Open ``path`` read-only (``mode=ro``; ``immutable=1`` when not even SQLite's shared-memory file can be
    made beside it, e.g. a read-only folder); returns the connection and the file's schema version."""
    uri = path.resolve().as_uri()
    last: SessionError | None = None
    for query in ("?mode=ro", "?mode=ro&immutable=1"):
        conn = None
        try:
            conn = _open(uri + query, path, uri=True)
            _check_pages(conn, path)
            return conn, _schema_of(conn, path)
        except sqlite3.Error as exc:
            last = translate(exc, path, "opening read-only")
        except SessionError as exc:
            if not isinstance(exc, StorageError):
                if conn is not None:
                    conn.close()
                raise
            last = exc
        if conn is not None:
            conn.close()
    assert last is not None
    raise last


def connect(path: Path) -> tuple[sqlite3.Connection, int, StorageError | None]:
    """Open the session database at ``path``: read-write (WAL, migrated) when the storage allows it, else,
    for an existing file whose storage refuses writes (read-only file, folder or file system, an I/O error),
    read-only so what was recorded can still be shown (an empty file holds nothing to show: a database first made on
    a full disk is left empty, and is refused as the storage refused it).

    Returns:
        ``(connection, schema version, None)``, or ``(connection, the file's schema version, the
        StorageError that refused writing)`` for a read-only opening.

    Raises:
        CorruptSession: damaged, or another program's database (NotASessionDatabase).
        SessionError: it cannot be opened at all (StorageError: the storage refused, also reading).
    """
    try:
        return _connect_rw(path), SCHEMA_VERSION, None
    except StorageError as exc:
        if exc.kind == "busy" or not path.is_file() or path.stat().st_size == 0:
            raise  # nothing recorded to show: a new file the full disk left empty holds no sessions to read
        refused = exc
    conn, schema = _connect_ro(path)
    log.warning("%s", _("session database {path} opened read-only: {problem}").format(
        path=path, problem=say(refused.reason)))
    return conn, schema, refused


def check_is_sqlite(path: Path) -> None:
    """Raise NotASessionDatabase when ``path`` is a file that is not SQLite at all (nothing is changed).

    A missing or empty file is fine (a new log is made there); so is a file whose header is all zero
    bytes, which is what a power cut leaves of a database (recovered as damaged).
    """
    try:
        if not path.is_file():
            return
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError:
        return  # opening it will say what is wrong
    if head and head != SQLITE_HEADER and head != b"\x00" * len(head):
        raise NotASessionDatabase(path, Text("not a SQLite database"))
    if head != SQLITE_HEADER:
        return
    # another program's SQLite database: found read-only, before anything (WAL mode) changes the file
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
        finally:
            conn.close()
    except sqlite3.Error:
        return  # damaged: opening it says so, and open_or_recover keeps it aside
    if version == 0 and tables - OUR_TABLES:
        raise NotASessionDatabase(path, _other_programs(tables))


def set_aside(path: Path) -> Path:
    """Rename ``path`` (and its -wal/-shm/-journal files) to ``<name>.corrupt-<UTC time>``; return the new path."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
        n += 1
    path.rename(target)
    # Side files move along under SQLite's own naming, so opening the kept copy later
    # (for forensics) sees its WAL, and the new database never picks up a stale one.
    for suffix in ("-wal", "-shm", "-journal"):
        side = Path(f"{path}{suffix}")
        if side.exists():
            side.rename(Path(f"{target}{suffix}"))
    return target


def hold_box_lock(db: Path) -> tuple[Any, OSError | None]:
    """Take the exclusive lock of ``db`` (``fcntl.flock`` on ``<db>.lock``, which holds the owner's pid).

    Returns:
        ``(the open lock file, None)`` (closing it releases the lock; the OS releases it if the process
        dies); or ``(None, the OSError)`` when the lock file can be neither written nor made (a read-only
        folder or file system: then nothing can be written either, and the caller decides). An existing
        lock file that is only readable is locked through a read-only handle.

    Raises:
        SessionError: ``db`` is a folder, a device or a pipe (:func:`check_is_file_path`: checked first, so
            no ``<db>.lock`` is left beside a path that is refused); another process holds it (named by its pid).
    """
    import fcntl

    check_is_file_path(db)

    lock_path = db.with_name(db.name + ".lock")
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock_path, "a+", encoding="utf-8")
        writable = True
    except OSError as exc:
        try:
            handle, writable = open(lock_path, encoding="utf-8"), False
        except OSError:
            return None, exc
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        owner = handle.read().strip() or "?"
        handle.close()
        raise SessionError(Text("session database {path} is in use by another companion (pid {pid}): stop it first, "
                                "or give this one another --db", path=str(db), pid=owner)) from None
    if writable:
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(f"{os.getpid()}\n")
            handle.flush()
        except OSError as exc:  # a full disk: the lock holds all the same
            log.warning("cannot write the pid into %s: %s", lock_path, exc)
    return handle, None
