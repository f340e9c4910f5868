"""One game session: its append-only event log and the state replayed from it.

A :class:`Session` lives in a :class:`companion.session.SessionStore` (the SQLite file that holds every
session). It keeps the events it has read and their replay, and records each new event (an undo is an
``"undo"`` event; nothing is ever updated or deleted) only once the whole log plus that event replays through
the game's rules (:func:`rules.replay`).
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import time
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import rules
from companion.errors import SessionError, UnknownSession
from companion.i18n import Text, message_of
from rules import UNDO, BadEvent, Event, Game, Replay, UnknownEvent

if TYPE_CHECKING:
    from companion.session import SessionStore

__all__ = ["Session", "json_object"]

log = logging.getLogger("companion.session")  # the store's logger: one name for the session log


def json_object(value: Any, what: str, error: type[Exception]) -> tuple[str, dict[str, Any]]:
    """``value`` as JSON text plus its normalized copy (what reading the text back gives): how a session's settings
    and each event's payload are stored.

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
        text, normalized = json_object({} if payload is None else payload, f"payload of {kind!r} event", BadEvent)
        when = time.time() if at is None else at
        if not isinstance(when, (int, float)) or isinstance(when, bool) or not math.isfinite(when):
            raise BadEvent(Text("the event's time must be a finite number of seconds since 1970 (Unix time), got "
                                "{value}", value=repr(at)))
        if not isinstance(origin, str) or not origin:
            raise BadEvent(Text("the event's origin (where the report came from) must be text, not empty, got {value}",
                                value=repr(origin)))
        if player is not None and not isinstance(player, str):
            raise BadEvent(Text("the event's player must be a player's name (text) or none, got {value}",
                                value=repr(player)))
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
