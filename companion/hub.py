"""The meeting point between the main loop and the views (touchscreen, phone, GPIO).

One loop owns the game state (:mod:`companion.app`). Everything else only *posts*
actions here and *reads* published snapshots:

- the main loop calls :meth:`StateHub.publish` with the current view (a JSON-compatible
  dict) and, when it has one, the latest annotated frame as JPEG bytes;
- the phone view's Server-Sent Events stream waits with :meth:`StateHub.wait_for_change`;
- touch handlers, HTTP handlers and GPIO callbacks call :meth:`StateHub.post_action`
  and return at once; the main loop drains :meth:`StateHub.take_actions`.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from companion.actions import Action
from companion.phone_policy import PhonePresence

__all__ = ["Snapshot", "StateHub", "ACTIONS", "Pairing", "ANSWER_KEYS"]

ACTIONS = frozenset(Action)
"""Every action a view may post (:class:`companion.actions.Action`: its payload keys and where a phone sends it).
Besides its payload keys every action may carry ``version``, ``key`` and ``client`` (see :mod:`companion.desk`);
``reply`` (a :class:`concurrent.futures.Future`) gets the loop's answer."""


ANSWER_KEYS = ("recorded", "message", "error", "status", "version")
"""Keys of the main loop's answer to a requested action (:meth:`StateHub.request`):
``recorded`` (seqs of the events written, durable when answered), ``message`` (for the views),
``error`` (None, or what was refused and why; nothing was recorded), ``status`` (the HTTP status
the phone view answers with: 200 written, 400 bad input, 403 not this phone's seat / not paired,
409 made against an old state version, 500 an unexpected fault in the box, 503 storage failing),
``version`` (the event log's last seq after the action: what the phone sends as ``version`` next)."""


@dataclass(frozen=True)
class Pairing:
    """Who may change the game: the current game's join secret and its seat claims (owned by the loop).

    Attributes:
        game: the session (or setup) the secret belongs to.
        secret: the join secret the QR code's link carries (``/join/<secret>``); a phone holding a
            session cookie made from it may act; any other phone is read-only.
        claims: player name -> the client id of the phone that claimed that seat.
        owners: the client ids of the phones the touchscreen allowed to change the box's settings (its owner
            page), for as long as the box runs.
    """

    game: str
    secret: str
    claims: Mapping[str, str] = field(default_factory=dict)
    owners: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Snapshot:
    """What the views show: ``version`` (increases on every publish), ``view`` (JSON dict), ``jpeg`` (bytes or None),
    ``pictures`` (small JPEGs the view names, by name: ``{"station-7": bytes}``, a camera question's station)."""

    version: int
    view: dict[str, Any]
    jpeg: bytes | None
    pictures: Mapping[str, bytes] = field(default_factory=dict)


class StateHub:
    """Thread-safe latest snapshot plus an action queue. Create one per running box.

    Args:
        accepts: the actions views may post here (default :data:`ACTIONS`, all of them; the guided
            enrollment's hub takes only :data:`companion.actions.ENROLL_ACTIONS`).
        presence: when each joined phone was last heard from (the phone view writes, the loop reads); None: a new
            :class:`companion.phone_policy.PhonePresence` on the monotonic clock.

    Attributes:
        presence: that :class:`~companion.phone_policy.PhonePresence`.
    """

    what = "action"
    """How :meth:`post_action`'s refusal names what it takes."""

    def __init__(self, accepts: Collection[Action] = ACTIONS, presence: PhonePresence | None = None) -> None:
        self.accepts = frozenset(accepts)
        self.presence = presence if presence is not None else PhonePresence()
        self._cond = threading.Condition()
        self._snapshot = Snapshot(version=0, view={}, jpeg=None)
        self._actions: queue.Queue[dict[str, Any]] = queue.Queue()
        self._pairing: Pairing | None = None
        self._owner_view: dict[str, Any] = {}
        self._pictures: dict[str, bytes] = {}
        self._recall: Callable[[str], Mapping[str, Any] | None] | None = None

    def set_recall(self, recall: Callable[[str, str | None, str | None], Mapping[str, Any] | None] | None) -> None:
        """Set how :meth:`recall` finds a key's first answer, ``recall(key, client, request)`` (the loop's answers
        book, :meth:`companion.desk.Desk.first_answer`; None: never)."""
        with self._cond:
            self._recall = recall

    def recall(self, key: Any, client: str | None = None, request: str | None = None) -> dict[str, Any] | None:
        """The first answer already given to an action carrying idempotency ``key`` from the phone ``client`` (its
        client id; keys :data:`ANSWER_KEYS`), or None: never answered by that phone, no answers book, or it cannot
        be read now (the action then goes its usual way and the loop says why). A view looks here before any check
        of its own, so a retried tap always gets its first answer (:mod:`companion.desk`, step 2); another phone's
        tap with the same key is not a retry. ``request``: the fingerprint of the request sent now
        (:func:`companion.desk.request_fingerprint`); a key kept for another request is answered 409, nothing
        recorded."""
        with self._cond:
            recall = self._recall
        if recall is None or not isinstance(key, str):
            return None
        try:
            first = recall(key, client, request)
        except Exception:  # a storage fault: the loop reports it when the action goes on
            return None
        return None if first is None else dict(first)

    def set_owner_view(self, view: Mapping[str, Any]) -> None:
        """Publish what only owner phones read (the health checks, the box's settings): main loop only."""
        with self._cond:
            self._owner_view = dict(view)

    def owner_view(self) -> dict[str, Any]:
        """What :meth:`set_owner_view` published last ({} before)."""
        with self._cond:
            return dict(self._owner_view)

    def set_pairing(self, pairing: Pairing | None) -> None:
        """Publish the current game's join secret and seat claims (main loop only)."""
        with self._cond:
            self._pairing = pairing

    def pairing(self) -> Pairing | None:
        """The current :class:`Pairing`, or None before a game (or setup) has one. Never shown to phones."""
        with self._cond:
            return self._pairing

    def set_pictures(self, pictures: Mapping[str, bytes]) -> None:
        """Set the small pictures the next :meth:`publish` carries (``{"station-7": JPEG bytes}``: what the view
        names; main loop only)."""
        with self._cond:
            self._pictures = dict(pictures)

    def publish(self, view: dict[str, Any], jpeg: bytes | None = None) -> Snapshot:
        """Replace the snapshot (keeping the old JPEG when ``jpeg`` is None; with the pictures :meth:`set_pictures`
        set last) and wake every waiter."""
        with self._cond:
            self._snapshot = Snapshot(
                version=self._snapshot.version + 1,
                view=view,
                jpeg=jpeg if jpeg is not None else self._snapshot.jpeg,
                pictures=self._pictures,
            )
            self._cond.notify_all()
            return self._snapshot

    def snapshot(self) -> Snapshot:
        """The latest snapshot (version 0 and an empty view before the first publish)."""
        with self._cond:
            return self._snapshot

    def wait_for_change(self, version: int, timeout: float) -> Snapshot:
        """Block until the snapshot's version differs from ``version`` or ``timeout`` (s) passes; return the latest."""
        with self._cond:
            self._cond.wait_for(lambda: self._snapshot.version != version, timeout=timeout)
            return self._snapshot

    def post_action(self, name: str, /, origin: str, **payload: Any) -> None:
        """Queue an action for the main loop; returns at once.

        Args:
            name: one of :attr:`accepts` (positional only, so a payload may carry a ``name`` key,
                e.g. ``setup_rename``'s new name).
            origin: ``"touchscreen"``, ``"phone"``, ``"button"``, ``"cli"``, ``"terminal"`` or ``"signal"``.
            payload: the action's payload keys (:attr:`companion.actions.Action.payload`) and the common ones
                (:data:`companion.actions.COMMON_KEYS`); other keys are not read.

        Raises:
            ValueError: ``name`` is not an action taken here.
        """
        if name not in self.accepts:
            raise ValueError(f"unknown {self.what} {name!r}; known {self.what}s: {', '.join(sorted(self.accepts))}")
        self._actions.put({"action": Action(name), "origin": origin, **payload})

    def request(self, name: str, /, origin: str, timeout: float, **payload: Any) -> dict[str, Any] | None:
        """Post an action and wait up to ``timeout`` s for the main loop's answer.

        ``name`` is positional only: the payload may have a ``name`` key (``setup_rename``).

        Exactly once: when the loop has not started the action by ``timeout`` it is cancelled here and
        the loop drops it (:meth:`begin`), so None always means "not done, nothing recorded"; once the
        loop has started it, this waits for its answer (the loop answers within one step).

        Returns:
            The loop's answer (keys :data:`ANSWER_KEYS`), or None when the action was cancelled unanswered.

        Raises:
            ValueError: ``name`` is not a known action.
        """
        reply: Future[dict[str, Any]] = Future()
        self.post_action(name, origin, reply=reply, **payload)
        try:
            return reply.result(timeout=timeout)
        except FutureTimeout:
            if reply.cancel():
                return None
            return reply.result()  # the loop took it just now: its answer follows

    @staticmethod
    def begin(action: dict[str, Any]) -> bool:
        """Called by the loop before it carries out ``action``: False when its requester gave up
        (the request was cancelled: drop the action, record nothing), True otherwise."""
        reply = action.get("reply")
        return reply is None or reply.set_running_or_notify_cancel()

    def take_actions(self) -> list[dict[str, Any]]:
        """Every queued action, oldest first (non-blocking)."""
        taken: list[dict[str, Any]] = []
        while True:
            try:
                taken.append(self._actions.get_nowait())
            except queue.Empty:
                return taken
