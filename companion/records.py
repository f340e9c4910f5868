"""What the box keeps in the session database besides the games' event logs: the first answer to each
idempotency key, each game's join secret and seat claims, the setup step's events, the storage probe, where the
box was, what the camera saw at a game's last read, the question a game's Next asked, and the camera's
questions waiting for a tap.

Every function takes the :class:`companion.session.SessionStore` and runs in one of its transactions, so
inside the main loop's transaction around an action (``store.transaction(write=True, ...)``) the key's
answer, the claim and the events are written together or not at all. A store opened read-only from a file
of an older schema has none of these tables: the readers then find nothing, the writers raise
:class:`companion.errors.StorageError`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.database import storage_error
from companion.kept_words import from_kept, to_kept
from rules import Event

log = logging.getLogger(__name__)

__all__ = ["SetupRecord", "answer", "claims", "drop_claims", "load_pairing", "make_secret", "probe", "save_answer",
           "save_claim", "save_pairing", "drop_claim", "open_setup", "setup_events", "append_setup_event", "end_setup",
           "start_setup", "load_place", "save_place", "load_seen", "save_seen", "load_asked", "save_asked",
           "load_questions", "save_questions",
           "load_table_question", "save_table_question"]


def _has_tables(store: Any, since: int = 2) -> bool:
    """Whether the file has the tables schema ``since`` added (2: answers, pairing, setups, probe; 4: box_state)."""
    return store.schema >= since


def _writable(store: Any, doing: str, since: int = 2) -> None:
    if not _has_tables(store, since):
        reason = store.read_only.reason if store.read_only is not None else f"schema {store.schema}"
        raise storage_error(store.path, doing, "read-only", reason)


# -- exactly-once answers ---------------------------------------------------------------------------------


ANSWER_WORDS = ("message", "error")
"""The fields of a kept answer that are words, kept as :mod:`companion.kept_words` so a retry is said in the
retrying phone's language, as the first answer was."""


def fingerprint(request: Mapping[str, Any]) -> str:
    """The fingerprint of a request kept with its answer: the SHA-256 (64 hex digits) of its canonical JSON (keys
    sorted, no spaces, UTF-8; a value JSON has no word for is written as its ``str``), so the same request sent
    again has the same fingerprint and any other request, almost surely, another.

    Raises:
        TypeError, ValueError, RecursionError: ``request`` cannot be written as JSON (keys of mixed types, an
            integer past Python's 4300 digits, nesting past the recursion limit)."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def answer(store: Any, key: str) -> dict[str, Any] | None:
    """The first answer given to the action carrying idempotency ``key``, or None (never answered so). Its
    ``message`` and ``error`` are the words as they were said (a :class:`rules.text.Text` the phone view says in
    the phone's language); an answer kept before, or damaged, has them as its plain English. Its ``fingerprint``
    is the :func:`fingerprint` of the request it answered (absent from an answer kept by an older box)."""
    if not _has_tables(store):
        return None
    with store.transaction(write=False, doing="reading an answer") as conn:
        row = conn.execute("SELECT answer FROM answers WHERE key = ?", (key,)).fetchone()
    if row is None:
        return None
    first = json.loads(row[0])
    for name in ANSWER_WORDS:
        try:
            first[name] = from_kept(first.get(name))
        except ValueError as exc:  # a damaged row: its words are lost, the answer is not
            log.warning("the kept answer %s has damaged %s (%s)", key, name, exc)
            first[name] = None
    return first


def save_answer(store: Any, key: str, game: str | None, given: Mapping[str, Any],
                request: str | None = None) -> None:
    """Keep ``given`` as the answer to ``key`` (in the caller's transaction: with the action's writes); its words
    (:data:`ANSWER_WORDS`) with their template and parameters, to be said again in any language; ``request``: the
    :func:`fingerprint` of the request answered, kept as the answer's ``fingerprint`` (None: none kept)."""
    _writable(store, "keeping an answer")
    kept = {**given, **{name: to_kept(given.get(name)) for name in ANSWER_WORDS}}
    if request is not None:
        kept["fingerprint"] = request
    with store.transaction(write=True, doing="keeping an answer") as conn:
        conn.execute("INSERT OR REPLACE INTO answers (key, game, answer, at) VALUES (?, ?, ?, ?)",
                     (key, game, json.dumps(kept, separators=(",", ":")), time.time()))


# -- pairing: join secret and seat claims ---------------------------------------------------------------------


def make_secret() -> str:
    """A new join secret (``secrets.token_urlsafe(16)``: 22 URL-safe characters)."""
    return secrets.token_urlsafe(16)


def load_pairing(store: Any, game: str) -> tuple[str, dict[str, str]] | None:
    """``(secret, {player: client id})`` kept for ``game``, or None when it has no secret yet."""
    if not _has_tables(store):
        return None
    with store.transaction(write=False, doing="reading the pairing") as conn:
        row = conn.execute("SELECT secret FROM pairings WHERE game = ?", (game,)).fetchone()
        if row is None:
            return None
        found = conn.execute("SELECT player, client FROM claims WHERE game = ? ORDER BY at", (game,)).fetchall()
    return row[0], {player: client for player, client in found}


def claims(store: Any, game: str) -> dict[str, str]:
    """``{player: client id}`` of ``game``'s claimed seats."""
    found = load_pairing(store, game)
    return {} if found is None else found[1]


def save_pairing(store: Any, game: str, secret: str) -> None:
    """Keep ``secret`` as ``game``'s join secret (replacing the old one)."""
    _writable(store, "keeping the join secret")
    with store.transaction(write=True, doing="keeping the join secret") as conn:
        conn.execute("INSERT OR REPLACE INTO pairings (game, secret, made_at) VALUES (?, ?, ?)",
                     (game, secret, time.time()))


def save_claim(store: Any, game: str, player: str, client: str) -> None:
    """``client``'s phone holds ``player``'s seat."""
    _writable(store, "keeping a seat claim")
    with store.transaction(write=True, doing="keeping a seat claim") as conn:
        conn.execute("INSERT OR REPLACE INTO claims (game, player, client, at) VALUES (?, ?, ?, ?)",
                     (game, player, client, time.time()))


def drop_claim(store: Any, game: str, player: str) -> None:
    """``player``'s seat is free again."""
    _writable(store, "freeing a seat")
    with store.transaction(write=True, doing="freeing a seat") as conn:
        conn.execute("DELETE FROM claims WHERE game = ? AND player = ?", (game, player))


def drop_claims(store: Any, game: str) -> None:
    """Every seat of ``game`` is free again."""
    _writable(store, "freeing the seats")
    with store.transaction(write=True, doing="freeing the seats") as conn:
        conn.execute("DELETE FROM claims WHERE game = ?", (game,))


# -- the setup step --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SetupRecord:
    """An open setup step in the database: its id (the session it starts takes it), game, options, start."""

    id: str
    game: str
    options: dict[str, Any]
    started_at: float


def open_setup(store: Any, game: str, options: Mapping[str, Any]) -> SetupRecord | None:
    """The newest setup of ``game`` not yet started whose options are ``options``, or None."""
    if not _has_tables(store):
        return None
    wanted = json.loads(json.dumps(dict(options)))
    with store.transaction(write=False, doing="finding an open setup") as conn:
        rows = conn.execute("SELECT id, options, started_at FROM setups WHERE game = ? AND ended_at IS NULL "
                            "ORDER BY started_at DESC, rowid DESC", (game,)).fetchall()
    for setup_id, text, started_at in rows:
        if json.loads(text) == wanted:
            return SetupRecord(setup_id, game, wanted, started_at)
    return None


def start_setup(store: Any, record: SetupRecord) -> None:
    """Write the setup's row (with its first event, in the caller's transaction)."""
    _writable(store, "recording the setup")
    with store.transaction(write=True, doing="recording the setup") as conn:
        conn.execute("INSERT OR IGNORE INTO setups (id, game, options, started_at, ended_at) VALUES (?, ?, ?, ?, NULL)",
                     (record.id, record.game, json.dumps(record.options, separators=(",", ":")), record.started_at))


def setup_events(store: Any, setup_id: str) -> list[Event]:
    """The setup's events in seq order."""
    if not _has_tables(store):
        return []
    with store.transaction(write=False, doing="reading the setup") as conn:
        rows = conn.execute("SELECT seq, kind, payload, at, origin FROM setup_events WHERE setup_id = ? ORDER BY seq",
                            (setup_id,)).fetchall()
    return [Event(seq=r[0], kind=r[1], payload=json.loads(r[2]), at=r[3], player=None, origin=r[4]) for r in rows]


def append_setup_event(store: Any, setup_id: str, seq: int, kind: str, payload: Mapping[str, Any],
                       origin: str) -> Event:
    """Record one setup event (committed with the caller's transaction)."""
    _writable(store, "recording the setup")
    text = json.dumps(dict(payload), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    event = Event(seq=seq, kind=kind, payload=json.loads(text), at=time.time(), player=None, origin=origin)
    with store.transaction(write=True, doing="recording the setup") as conn:
        conn.execute("INSERT INTO setup_events (setup_id, seq, kind, payload, at, origin) VALUES (?, ?, ?, ?, ?, ?)",
                     (setup_id, seq, kind, text, event.at, origin))
    return event


def end_setup(store: Any, setup_id: str) -> None:
    """The setup was started: it is no longer open (in the transaction that starts its session)."""
    _writable(store, "recording the start")
    with store.transaction(write=True, doing="recording the start") as conn:
        conn.execute("UPDATE setups SET ended_at = ? WHERE id = ?", (time.time(), setup_id))


# -- the storage probe -----------------------------------------------------------------------------------------


def probe(store: Any) -> None:
    """One tiny durable write (a row rewritten, committed with fsync): does writing work now?

    Raises:
        StorageError: it does not (full, read-only, I/O error).
    """
    _writable(store, "checking the storage")
    with store.transaction(write=True, doing="checking the storage") as conn:
        conn.execute("INSERT OR REPLACE INTO probe (id, at) VALUES (1, ?)", (time.time(),))


# -- where the box was (schema 4) ------------------------------------------------------------------------------


MAX_STATE_CHARS = 4_000_000
"""The longest ``box_state`` value read back (characters); a longer row is damaged (the box keeps far less)."""


def _load_state(store: Any, key: str, doing: str) -> dict[str, Any] | None:
    """The JSON object kept under ``key`` in ``box_state``, or None (never kept, a file older than schema 4, or a
    damaged value: not a JSON object, not text, longer than :data:`MAX_STATE_CHARS` or nested deeper than Python
    can read; logged, it never stops the box)."""
    if not _has_tables(store, 4):
        return None
    with store.transaction(write=False, doing=doing) as conn:
        row = conn.execute("SELECT CASE WHEN length(value) <= ? THEN value END, length(value) FROM box_state "
                           "WHERE key = ?", (MAX_STATE_CHARS, key)).fetchone()
    if row is None:
        return None
    if row[0] is None:
        log.warning("%s: the kept row %r is damaged (%s characters, at most %d): dropped", doing, key, row[1],
                    MAX_STATE_CHARS)
        return None
    try:
        value = json.loads(row[0])
    except (ValueError, TypeError, RecursionError) as exc:  # not JSON text, not text, or nested past Python's stack
        log.warning("%s: the kept row %r is damaged (%s): dropped", doing, key, type(exc).__name__)
        return None
    return value if isinstance(value, dict) else None


def _save_state(store: Any, key: str, value: Mapping[str, Any], doing: str) -> None:
    """Keep the JSON object ``value`` under ``key`` in ``box_state``, replacing the one before (in the caller's
    transaction when there is one). Raises :class:`companion.errors.StorageError` when the storage refuses."""
    _writable(store, doing, since=4)
    with store.transaction(write=True, doing=doing) as conn:
        conn.execute("INSERT OR REPLACE INTO box_state (key, value, at) VALUES (?, ?, ?)",
                     (key, json.dumps(dict(value), separators=(",", ":")), time.time()))


def load_place(store: Any) -> dict[str, Any] | None:
    """Where the box was when it stopped: ``{"mode": ModeName value, "session"?: id, "setup"?: id, "game"?: name}``,
    or None (never recorded, or a file older than schema 4)."""
    return _load_state(store, "place", "reading where the box was")


def save_place(store: Any, place: Mapping[str, Any]) -> None:
    """Keep where the box is now (in the caller's transaction: with the action that moved it)."""
    _save_state(store, "place", place, "keeping where the box is")


# -- what the camera saw at the last read (schema 4's box_state) -------------------------------------------------


def load_seen(store: Any, game: str) -> dict[str, Any] | None:
    """What the camera saw of game ``game``'s table at its last read (:func:`save_seen`), or None (never kept, a
    file older than schema 4, or a value that is not a JSON object)."""
    return _load_state(store, f"seen:{game}", "reading what the camera saw")


def save_seen(store: Any, game: str, seen: Mapping[str, Any]) -> None:
    """Keep what the camera saw of game ``game``'s table at its last read (a JSON object: the reads' own judgement
    of it, :mod:`companion.modes.dice`), one per game, replacing the one before, so a restart counts changes from
    it. Raises :class:`companion.errors.StorageError` when the storage refuses."""
    _save_state(store, f"seen:{game}", seen, "keeping what the camera saw")


# -- the question a game's Next asked (schema 4's box_state) ----------------------------------------------------


def load_asked(store: Any, session_id: str) -> tuple[int, str] | None:
    """The question the Next of session ``session_id`` asked and the table has not answered yet (:func:`save_asked`):
    ``(the newest event's seq when it was asked, its words)``, or None (none asked, a file older than schema 4, or a
    kept value of another shape: a damaged row asks again, it never stops the box)."""
    kept = _load_state(store, f"asked:{session_id}", "reading the question Next asked")
    if kept is None:
        return None
    seq, words = kept.get("seq"), kept.get("words")
    if type(seq) is not int or not isinstance(words, str) or not words:
        return None
    return seq, words


def save_asked(store: Any, session_id: str, asked: tuple[int, str] | None) -> None:
    """Keep the question the Next of session ``session_id`` asked (``(seq, words)`` as :func:`load_asked` gives it;
    None: none stands), replacing the one before, so a restart between the two presses resumes it. Raises
    :class:`companion.errors.StorageError` when the storage refuses."""
    value = {} if asked is None else {"seq": int(asked[0]), "words": str(asked[1])}
    _save_state(store, f"asked:{session_id}", value, "keeping the question Next asked")


# -- the camera's questions waiting for a tap (schema 4's box_state) ---------------------------------------------


def load_questions(store: Any, session_id: str) -> dict[str, Any] | None:
    """The camera's questions session ``session_id`` kept (:func:`save_questions`): ``{"questions": [kept, ...],
    "next_id": int}`` as kept (each question checked by :meth:`companion.camera.questions.Question.from_kept`), or
    None (none kept, a file older than schema 4, or not a JSON object)."""
    return _load_state(store, f"questions:{session_id}", "reading the camera's questions")


def save_questions(store: Any, session_id: str, questions: list[Any], next_id: int) -> None:
    """Keep the camera's questions waiting in session ``session_id`` (each as ``Question.to_kept`` gives it) and the
    next question's id, replacing the ones before, so a restart asks the same questions (in the caller's
    transaction when there is one: with the answer that dropped one). Raises
    :class:`companion.errors.StorageError` when the storage refuses."""
    _save_state(store, f"questions:{session_id}", {"questions": list(questions), "next_id": int(next_id)},
                "keeping the camera's questions")


def load_table_question(store: Any) -> dict[str, Any] | None:
    """The question the touchscreen put to the table about a phone's refused action and the table had not answered
    when the box stopped (:func:`save_table_question`): ``{"client", "asked", "question", "game"}`` as kept (checked
    by :meth:`companion.switchboard.Switchboard.resume_asking`), ``{}`` when none stood, or None (none kept, a file
    older than schema 4, or not a JSON object)."""
    return _load_state(store, "table_question", "reading the table's question")


def save_table_question(store: Any, kept: Mapping[str, Any]) -> None:
    """Keep the question the touchscreen puts to the table (``{}``: none stands), replacing the one before, so a
    restart while a phone waits for the answer asks it again. Raises :class:`companion.errors.StorageError` when the
    storage refuses."""
    _save_state(store, "table_question", kept, "keeping the table's question")
