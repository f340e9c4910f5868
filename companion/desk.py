"""Every action a view posts, carried out on the main loop: checked, allowed, applied once, answered.

Whatever the source (a phone, the touchscreen, the GPIO button, the camera's questions), one action goes
through :meth:`Desk.handle`, in this order:

1. its common fields are checked (``key``, ``version``, ``client``): a bad one is 400 naming the field;
2. a ``key`` already answered gets that first answer again (kept in the session database, so also after
   a restart), and nothing is done twice; a key is the sending phone's own (:func:`answer_key`: kept with its
   ``client``), so another phone that happens to send the same key is worked out as a new action, never handed
   the first phone's answer; the answer is kept with the request's fingerprint (:func:`request_fingerprint`), and a
   key sent again with another request is refused 409 with nothing recorded, never handed the first answer (an
   answer kept by an older box, without a fingerprint, is given again as before); an action that writes nothing
   to the session database keeps no answer (a setting, an export: a retry does the same again, and a full
   database does not refuse what is done outside it);
3. authority: a phone reports for, withdraws, or answers camera questions about only the seat it claimed
   (an unclaimed seat is open to every joined phone: a player without a phone; a private report, hidden
   information such as an end-of-game position, only from the phone that claimed the seat); a phone takes over or
   frees a seat another phone holds only once that phone is away, and moves the box off a game being played only
   as :mod:`companion.phone_policy` says (the holder gives a seat up, the touchscreen frees it or leaves the game);
   ``revoke_phones`` and ``quit`` are the touchscreen's; the touchscreen and the button may do anything
   (403 otherwise). A box without a touchscreen (``--no-screen``, :meth:`Table.screenless`) lets a joined phone
   confirm what the touchscreen would (the join secret from the QR code or the printed link is the proof of being
   at the table): it undoes for the table and answers an owner request; a new join code and stopping the box stay
   the box's own;
4. the version rule (when a ``version`` is given): a seat's action (``report``, ``undo_report``,
   ``claim_seat``) is refused 409 when an event recorded after ``version`` was made by that player or moved
   the round or stage; any other action that changes the game when any event was recorded after it;
5. the action is applied in one write transaction with its answer (when it carries a ``key``): all of it is
   written (fsync'd) or none of it. Bad input is 400 and a refusal 403/409 with nothing written; a
   storage failure is 503 (the :class:`~companion.storage.StorageHealth` banner says why); anything
   unexpected is logged with its traceback and answered 500: the box goes on.

The statuses are :data:`companion.flow_actions.OK` ... :data:`companion.flow_actions.STORAGE`; the answer's keys are
:data:`companion.hub.ANSWER_KEYS`.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion import records
from companion.action_words import action_word
from companion.actions import NAVIGATION, OWNER_ONLY, SEAT_ACTIONS, TOUCHSCREEN_ONLY, UNRECORDED, Action
from companion.errors import BadEntry, SessionError, StorageError, shown
from companion.flow_actions import BAD_INPUT, FAULT, NOT_ALLOWED, OK, STALE, STORAGE, Outcome
from companion.i18n import Text, message_of, plural
from companion.phone_policy import (
    SeatHold,
    leaving_question,
    leaving_refused,
    not_asked,
    seat_hold,
    seat_question,
    seat_refused,
)

__all__ = ["AT_THE_TABLE", "Changes", "Desk", "KEY_PATTERN", "MAX_CLIENT", "Table", "answer_key", "request_fingerprint"]

log = logging.getLogger(__name__)

KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""An idempotency key: 1-64 characters of ``[A-Za-z0-9_-]`` (the phone page makes a random one per tap)."""
MAX_CLIENT = 128
"""Characters of a client id at most (the web's cookie makes them)."""


def answer_key(key: str, client: Any = None) -> str:
    """The name an answer to idempotency ``key`` is kept under: scoped by the phone that sent it (``client``, its
    client id: ``"<client>/<key>"``; ``/`` is never in a key, so no two phones' names meet), the key alone for an
    action without a client (the touchscreen, the button, the terminal)."""
    return f"{client}/{key}" if isinstance(client, str) and client else key


NOT_THE_REQUEST = frozenset({"reply", "key", "client", "fingerprint"})
"""An action's keys that are not part of the request its fingerprint is taken of: the Future answered, the key and
the phone it is kept under, a fingerprint the view took already."""


def request_fingerprint(action: Mapping[str, Any]) -> str | None:
    """The fingerprint (:func:`companion.records.fingerprint`, 64 hex digits) of the request ``action`` carries out:
    the one the phone view took of the tap's route and body (its ``fingerprint``: the view sees the body as the
    phone sent it), else the action's own keys but :data:`NOT_THE_REQUEST` (the touchscreen, the button, the
    terminal); None when the action cannot be written as JSON (an integer of thousands of digits, nesting past
    Python's depth: no such action is recorded, and its key keeps no fingerprint)."""
    given = action.get("fingerprint")
    if isinstance(given, str) and given:
        return given
    try:
        return records.fingerprint({str(k): v for k, v in action.items() if k not in NOT_THE_REQUEST})
    except (TypeError, ValueError, RecursionError):
        return None


REUSED_KEY = Text("this tap's key was already used for another report; nothing recorded")
"""The answer to a key sent again with another request (409)."""


def _reused(first: Mapping[str, Any], request: str | None) -> bool:
    """Whether the kept answer ``first`` answered another request than the one fingerprinted ``request`` (an answer
    kept without a fingerprint, by an older box, answers any)."""
    kept = first.get("fingerprint")
    return request is not None and isinstance(kept, str) and kept != request


AT_THE_TABLE = frozenset({"touchscreen", "button", "cli", "terminal", "signal"})
"""Origins that are physically at the box (its touchscreen, its button, its terminal, the service's signals):
they may do anything."""


@dataclass(frozen=True)
class Changes:
    """What was recorded after a version: how many events, by which players, and whether the round or
    stage moved."""

    count: int
    players: frozenset[str]
    progressed: bool


class Table(Protocol):
    """What the desk needs of the main loop (:class:`companion.app.MainLoop`)."""

    @property
    def store(self) -> Any:
        """The :class:`companion.session.SessionStore`, or None."""
        ...

    @property
    def game_id(self) -> str | None:
        """The session (or setup) answers and claims belong to."""
        ...

    def version(self) -> int:
        """The log's last seq (the setup's while a game is set up)."""
        ...

    def changes_since(self, version: int) -> Changes:
        """What was recorded after ``version`` (< :meth:`version`)."""
        ...

    def seat_of(self, action: Mapping[str, Any]) -> str | None:
        """The player whose seat ``action`` acts for (a report's player, a camera question's player), or None."""
        ...

    def claims(self) -> Mapping[str, str]:
        """Claimed seats: player -> client id."""
        ...

    def owners(self) -> frozenset[str]:
        """Client ids of the owner phones (allowed on the touchscreen to change the box's settings)."""
        ...

    def private_report(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` is a report on a private form (:attr:`companion.flow_spec.Form.private`)."""
        ...

    def in_flow(self) -> bool:
        """Whether a game flow (or its setup) runs, not the d6 reader."""
        ...

    def screenless(self) -> bool:
        """Whether the box runs without a touchscreen (``--no-screen``): a joined phone confirms in its place."""
        ...

    def leaving(self, action: Mapping[str, Any]) -> tuple[Any, bool] | None:
        """The game being played that ``action`` would move the box off: ``(its title, whether it is behind the
        chooser)``, or None (:meth:`companion.switchboard.Switchboard.leaving`)."""
        ...

    def quiet_for(self, client: str) -> float:
        """Seconds since the phone ``client`` was last heard from (:class:`companion.phone_policy.PhonePresence`)."""
        ...

    def heard_since_start(self, client: str) -> bool:
        """Whether the phone ``client`` made a request since the box started
        (:meth:`companion.phone_policy.PhonePresence.heard_since_start`)."""
        ...

    def keep_asking(self) -> None:
        """Keep the question the touchscreen puts to the table (or that none stands) with the game, so a restart
        while a phone waits asks it again (:meth:`companion.switchboard.Switchboard.keep_asking`)."""
        ...

    def ask_table(self, action: Mapping[str, Any], question: str) -> float:
        """Have the touchscreen ask the table ``question`` about a phone's refused ``action`` (Allow carries it out)
        and return 0, or the seconds until it will ask (the table just refused that phone; ``math.inf``: another
        phone's question is on the touchscreen: :meth:`companion.switchboard.Switchboard.ask_table`)."""
        ...

    def memo(self) -> Any:
        """What :meth:`restore` puts back when an action's writes are rolled back (in-memory state)."""
        ...

    def restore(self, memo: Any) -> None:
        """Put back the in-memory state from before a rolled-back action."""
        ...

    def apply(self, action: Mapping[str, Any]) -> Outcome:
        """Carry out the action (inside the desk's transaction). Raises BadEntry for bad input."""
        ...


def _keep(outcome: Outcome, name: str, store: Any) -> None:
    """Write what a refused action keeps (:attr:`companion.flow_actions.Outcome.kept`: the question a Next asked) in a
    transaction of its own, the refusal's being rolled back; a storage that refuses only loses it (logged)."""
    if outcome.kept is None or store is None or store.read_only is not None:
        return
    try:
        with store.transaction(write=True, doing=name):
            outcome.kept()
    except SessionError as exc:
        log.warning("%s: what the refusal keeps was not written (%s)", name, exc)


class _Refused(Exception):
    """Rolls back the transaction of an action that was refused after it began."""

    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.error)
        self.outcome = outcome


class Desk:
    """Carries out actions for one :class:`Table` (see the module doc).

    Args:
        table: the main loop.
        health: the box's :class:`companion.storage.StorageHealth` (told of every write's result).
    """

    def __init__(self, table: Table, health: Any) -> None:
        self.table = table
        self.health = health

    def first_answer(self, key: str, client: str | None = None, request: str | None = None) -> dict[str, Any] | None:
        """The first answer given to an action carrying ``key`` from the phone ``client`` (None: no phone; keys
        :data:`companion.hub.ANSWER_KEYS`), or None. Read from any thread (the store's connection is locked): the
        views look here before their own checks. ``request``: the fingerprint of the request now sent with ``key``
        (:func:`request_fingerprint`); when the kept answer answered another request, the answer is a 409 refusal
        (:data:`REUSED_KEY`: nothing recorded) instead of the first answer.

        Raises:
            StorageError: the session database cannot be read.
        """
        store = self.table.store
        if store is None or not isinstance(key, str) or not KEY_PATTERN.fullmatch(key):
            return None
        first = records.answer(store, answer_key(key, client))
        if first is None:
            return None
        if _reused(first, request):
            return Outcome.refused(STALE, REUSED_KEY).to_json()
        return _replayed(first).to_json()

    def handle(self, action: Mapping[str, Any]) -> Outcome:
        """Carry out ``action`` and return its answer (``version`` set). Never raises ``Exception``."""
        name = str(action.get("action"))
        origin = str(action.get("origin") or "cli")
        try:
            outcome = self._handle(name, origin, action)
        except Exception as exc:  # a bug in one action must not stop the box: logged, answered, the box goes on
            log.exception("%s (%s) failed", name, origin)
            outcome = Outcome.refused(
                FAULT,
                Text(
                    "the box could not do {name}: unexpected {error}; nothing was recorded (the box's log has the "
                    "details)",
                    name=name,
                    error=type(exc).__name__,
                ),
            )
        if outcome.version is None:
            try:
                outcome.version = self.table.version()
            except Exception:  # the answer goes out all the same
                log.exception("reading the version failed")
        return outcome

    def _handle(self, name: str, origin: str, action: Mapping[str, Any]) -> Outcome:
        problem = _common_problem(action)
        if problem:
            return Outcome.refused(BAD_INPUT, problem)
        key = action.get("key")
        key = answer_key(key, action.get("client")) if key is not None else None
        request = request_fingerprint(action) if key is not None else None
        store = self.table.store
        if key is not None and store is not None:
            try:
                first = records.answer(store, key)
            except StorageError as exc:
                return Outcome.refused(STORAGE, self.health.failed(exc))
            if first is not None and _reused(first, request):
                log.info("%s (%s): key %s answered another request before; refused", name, origin, key)
                return Outcome.refused(STALE, REUSED_KEY)
            if first is not None:
                log.info("%s (%s): key %s answered before; the first answer again", name, origin, key)
                return _replayed(first)
        why = self._not_allowed(name, origin, action)
        if why:
            refused = Outcome.refused(NOT_ALLOWED, why)
            refused.kept = self.table.keep_asking  # the question the refusal put to the table, kept for a restart
            _keep(refused, name, store)
            return refused
        stale = self._stale(name, action)
        if stale:
            return Outcome.refused(STALE, stale)
        return self._apply(name, action, key, store, request)

    def _apply(self, name: str, action: Mapping[str, Any], key: str | None, store: Any,
               request: str | None = None) -> Outcome:
        memo = self.table.memo()
        atomic = store is not None and store.read_only is None and name not in (Action.READ_NOW, Action.QUIT)
        try:
            with store.transaction(write=True, doing=name) if atomic else contextlib.nullcontext():
                outcome = self.table.apply(action)
                if outcome.status != OK:
                    raise _Refused(outcome)  # nothing it may have begun to write is kept
                outcome.version = self.table.version()
                if key is not None and outcome.wrote and store is not None:
                    records.save_answer(store, key, self.table.game_id, outcome.to_json(), request)
        except _Refused as refused:  # refused by the action itself: what it shows (an error on a question) stays
            _keep(refused.outcome, name, store)
            return refused.outcome
        except BadEntry as exc:
            self.table.restore(memo)
            return Outcome.refused(BAD_INPUT, message_of(exc))  # a Text: said in each phone's language
        except StorageError as exc:
            self.table.restore(memo)
            return Outcome.refused(STORAGE, self.health.failed(exc))
        except SessionError as exc:  # the session ended, the log no longer replays, a SQLite error: nothing recorded
            self.table.restore(memo)
            log.exception("%s: the session log refused it", name)
            return Outcome.refused(FAULT, Text("{problem}; nothing was recorded", problem=shown(str(exc), 200)[1:-1]))
        except BaseException:
            self.table.restore(memo)
            raise
        if outcome.wrote:
            self.health.succeeded()
        return outcome

    # -- authority ----------------------------------------------------------------------------------
    def _not_allowed(self, name: str, origin: str, action: Mapping[str, Any]) -> str:
        """Why a phone may not do this ("" when it may)."""
        if origin in AT_THE_TABLE or origin == "camera":
            return ""
        screenless = _screenless(self.table)
        if screenless:
            why = _without_screen(name, action)
            if why is not None:
                return why
        if name == Action.RELEASE_SEAT:
            return self._freeing(action, screenless)
        if name in NAVIGATION and (why := self._leaving(action, screenless)):
            return why
        if name in TOUCHSCREEN_ONLY:
            return {Action.QUIT: Text("only the box itself can be stopped (its touchscreen, or the service)"),
                    Action.REVOKE_PHONES: Text("only the touchscreen can make a new join code"),
                    Action.SETTINGS: Text("the settings screen is the touchscreen's; a phone changes settings on the "
                                       "owner page once the touchscreen allowed it"),
                    Action.OWNER_ALLOW: Text("only the touchscreen allows a phone to change the box's settings"),
                    Action.OWNER_REFUSE: Text("only the touchscreen answers a phone's request")}[name]
        if name in OWNER_ONLY and action.get("client") not in self.table.owners():
            if screenless:
                return Text("only an owner phone changes the box's settings: open the owner page and ask (a joined "
                            "phone is allowed at once: this box has no touchscreen)")
            return Text("only an owner phone changes the box's settings: open the owner page and ask, then allow it "
                        "on the touchscreen")
        if name == Action.UNDO and self.table.in_flow() and not screenless:
            return Text("a phone undoes only its own report (Undo my last report); the table's Undo is on the "
                        "touchscreen")
        return self._for_a_seat(name, action, screenless)

    def _for_a_seat(self, name: str, action: Mapping[str, Any], screenless: bool) -> str:
        """Why a phone may not act for the seat ``action`` names ("" when it may, or it names none): another phone
        holds it, or it is a private report and no phone holds it."""
        player = self.table.seat_of(action)
        if player is None:
            return ""
        holder = self.table.claims().get(player)
        if holder is not None and holder != action.get("client"):
            if name == Action.CLAIM_SEAT:  # taken over only from a phone that is away (PairingBook.claim)
                return self._taking(action, self._hold(player, holder, screenless))
            if screenless:
                return Text("{player}'s seat is claimed by another phone; tap {player}'s seat on this phone to take it "
                            "over once that phone gave it up (\"Give up my seat\") or has been away two minutes",
                            player=player)
            return Text("{player}'s seat is claimed by another phone; the touchscreen can reassign it", player=player)
        if holder is None and self.table.private_report(action):
            return Text("this report is hidden information: {player} enters it on their own phone, once that phone "
                        "has taken {player}'s seat", player=player)
        return ""

    def _taking(self, action: Mapping[str, Any], hold: SeatHold) -> str:
        """Why a phone may not take over the seat another phone holds ("" when it may); with a touchscreen, a refused
        phone's claim is put to the table (:func:`companion.phone_policy.seat_question`: Allow gives it the seat)."""
        why = seat_refused(hold)
        if why is not None and not hold.screenless and (wait := self.table.ask_table(action, seat_question(hold))):
            return not_asked(wait)
        return why or ""

    def _leaving(self, action: Mapping[str, Any], screenless: bool) -> str:
        """Why a phone may not move the box off the game being played ("" when it may, or the move leaves none):
        :func:`companion.phone_policy.leaving_refused`."""
        left = self.table.leaving(action)
        if left is None:
            return ""
        claims = self.table.claims()
        why = leaving_refused(left[0], screenless=screenless, holds_seat=action.get("client") in claims.values(),
                              seats_held=bool(claims), behind=left[1])
        if why is not None and not screenless and (
                wait := self.table.ask_table(action, leaving_question(left[0], _doing(action)))):
            return not_asked(wait)
        return why or ""

    def _freeing(self, action: Mapping[str, Any], screenless: bool) -> str:
        """Why a phone may not free the seat ``action`` names ("" when it may): its own seat always, another phone's
        once that phone is away (:func:`companion.phone_policy.seat_refused`); a phone that has not joined never."""
        client = action.get("client")
        if not isinstance(client, str):
            if screenless:
                return Text("scan the QR code on the box (or open its printed link) first: only a joined phone may do "
                            "this")
            return Text("only the touchscreen can free a seat for another phone")
        player = action.get("player")
        holder = self.table.claims().get(player) if isinstance(player, str) else None
        if holder is None or holder == client:
            return ""  # its own seat, or no phone's (the pairing says so, or that there is no such player)
        return seat_refused(self._hold(player, holder, screenless), freeing=True) or ""

    def _hold(self, player: str, holder: str, screenless: bool) -> SeatHold:
        """The seat of ``player`` the phone ``holder`` holds (:func:`companion.phone_policy.seat_hold`)."""
        return seat_hold(self.table, player, holder, screenless)

    # -- versions -----------------------------------------------------------------------------------
    def _stale(self, name: str, action: Mapping[str, Any]) -> str:
        """Why the action was made against an old state ("" when it was not, or carries no version)."""
        version = action.get("version")
        if version is None or name in UNRECORDED:
            return ""
        current = self.table.version()
        if version == current:
            return ""
        if version > current:
            return Text("this was made against state {version}, but the box is at state {current} (another game?): "
                        "nothing was recorded; look at the screen and tap again", version=version, current=current)
        if name in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS) and self.table.seat_of(action) is None:
            return ""  # its question is no longer waiting: the camera says so (already answered, and how)
        changes = self.table.changes_since(version)
        player = action.get("player") if name in SEAT_ACTIONS else None
        if player is not None and not isinstance(player, str):
            return ""  # the action itself says what is wrong with it
        if player is not None:
            if changes.progressed:
                return Text("the round moved on since this was tapped: nothing was recorded; look and tap again")
            if player in changes.players:
                return Text("{player}'s entries changed since this was tapped (another tap?): nothing was recorded; "
                            "look and tap again", player=player)
            return ""
        if changes.count:
            n = changes.count
            return plural("{n} event was recorded since this was tapped: nothing was recorded; look at the screen and "
                          "tap again", "{n} events were recorded since this was tapped: nothing was recorded; look at "
                          "the screen and tap again", n)
        return ""


def _doing(action: Mapping[str, Any]) -> Any:
    """A move in the players' words for the table's question (:func:`companion.phone_policy.leaving_question`): the
    button's label, and the game it chooses when it names one ("Choose a game: Among the Stars"), so the table knows
    what Allow starts."""
    from companion.flows import FLOWS
    from companion.library import DICE, DICE_TITLE

    doing = action_word(action.get("action"))
    game = action.get("game") if action.get("action") == Action.CHOOSE_GAME else None
    spec = FLOWS.get(game) if isinstance(game, str) else None
    title = DICE_TITLE if game == DICE else None if spec is None else spec.title
    return doing if title is None else Text("{doing}: {game}", doing=doing, game=title)


def _screenless(table: Any) -> bool:
    """Whether ``table`` runs without a touchscreen (a table that does not say has one)."""
    said = getattr(table, "screenless", None)
    return bool(said()) if callable(said) else False


def _without_screen(name: str, action: Mapping[str, Any]) -> str | None:
    """On a box without a touchscreen: "" when a joined phone may do ``name`` in the touchscreen's place, why it may
    not, or None when the usual rules decide."""
    if name in (Action.OWNER_ALLOW, Action.OWNER_REFUSE, Action.UNDO):
        if not isinstance(action.get("client"), str):
            return Text("scan the QR code on the box (or open its printed link) first: only a joined phone may do this")
        return ""
    if name == Action.QUIT:
        return Text("only the box itself can be stopped (the service, or its button)")
    if name == Action.REVOKE_PHONES:
        return Text("this box has no touchscreen to show a new join code: it keeps its link")
    if name == Action.SETTINGS:
        return Text("this box has no settings screen: a phone changes settings on the owner page")
    return None


def _common_problem(action: Mapping[str, Any]) -> str:
    """What is wrong with the fields every action may carry ("" when nothing), said in the phone's language."""
    key = action.get("key")
    if key is not None and (not isinstance(key, str) or not KEY_PATTERN.fullmatch(key)):
        return Text("'key' must be 1-64 characters of A-Z, a-z, 0-9, _ and -, got {got}", got=shown(key))
    version = action.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int) or version < 0):
        return Text("'version' must be the state version the phone showed (a whole number >= 0), got {got}",
                    got=shown(version))
    client = action.get("client")
    if client is not None and (not isinstance(client, str) or not client or len(client) > MAX_CLIENT):
        return Text("'client' must be the phone's client id (1-{most} characters), got {got}", most=MAX_CLIENT,
                    got=shown(client))
    return ""


def _replayed(first: Mapping[str, Any]) -> Outcome:
    """The stored first answer as an :class:`Outcome` (its seqs kept as they were)."""
    out = Outcome([], first.get("message") or "", first.get("error"), int(first.get("status") or OK),
                  first.get("version"))
    out.recorded = [int(s) for s in first.get("recorded") or []]
    return out
