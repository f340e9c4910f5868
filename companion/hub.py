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
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

__all__ = ["Snapshot", "StateHub", "ACTIONS"]

ACTIONS = frozenset({"read_now", "undo", "quit", "next_phase", "report", "undo_report", "camera_confirm",
                     "camera_dismiss", "setup_player", "setup_remove", "setup_rename", "setup_seat", "setup_even", "setup_start"})
"""Action names views may post: ``read_now`` (read the dice now), ``undo`` (withdraw the
latest event), ``quit`` (stop the main loop); in a game flow (``companion.flow``) also
``next_phase`` (the Next button), ``report`` (``player``, ``form``, ``values``: a player's
report) and ``undo_report`` (``player``: withdraw that player's newest report); with the camera
(``companion.camera_flow``) ``camera_confirm`` (``id``, optional ``choice``: record what the camera
saw) and ``camera_dismiss`` (``id``: drop the question); while a game is set up
(``companion.setup_flow``) ``setup_player`` (``player``, ``colour``), ``setup_remove`` (``player``), ``setup_rename`` (``player``, ``name``),
``setup_seat`` (``player``, ``point``), ``setup_even`` and ``setup_start``. Payload keys
depend on the action; ``reply`` (a :class:`concurrent.futures.Future`) gets the loop's answer."""


@dataclass(frozen=True)
class Snapshot:
    """What the views show: ``version`` (increases on every publish), ``view`` (JSON dict), ``jpeg`` (bytes or None)."""

    version: int
    view: dict[str, Any]
    jpeg: bytes | None


class StateHub:
    """Thread-safe latest snapshot plus an action queue. Create one per running box."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._snapshot = Snapshot(version=0, view={}, jpeg=None)
        self._actions: queue.Queue[dict[str, Any]] = queue.Queue()

    def publish(self, view: dict[str, Any], jpeg: bytes | None = None) -> Snapshot:
        """Replace the snapshot (keeping the old JPEG when ``jpeg`` is None) and wake every waiter."""
        with self._cond:
            self._snapshot = Snapshot(
                version=self._snapshot.version + 1,
                view=view,
                jpeg=jpeg if jpeg is not None else self._snapshot.jpeg,
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
            name: one of :data:`ACTIONS` (positional only, so a payload may carry a ``name`` key,
                e.g. ``setup_rename``'s new name).
            origin: ``"touchscreen"``, ``"phone"``, ``"button"`` or ``"cli"``.

        Raises:
            ValueError: ``name`` is not a known action.
        """
        if name not in ACTIONS:
            raise ValueError(f"unknown action {name!r}; known actions: {', '.join(sorted(ACTIONS))}")
        self._actions.put({"action": name, "origin": origin, **payload})

    def request(self, name: str, /, origin: str, timeout: float, **payload: Any) -> dict[str, Any] | None:
        """Post an action and wait up to ``timeout`` s for the main loop's answer.

        ``name`` is positional only: the payload may have a ``name`` key (``setup_rename``).

        Returns:
            The loop's answer (``companion.flow.Outcome.to_json()``: ``{"recorded", "message",
            "error"}``), or None when the loop did not answer in time (the action stays queued).

        Raises:
            ValueError: ``name`` is not a known action.
        """
        reply: Future[dict[str, Any]] = Future()
        self.post_action(name, origin, reply=reply, **payload)
        try:
            return reply.result(timeout=timeout)
        except FutureTimeout:
            return None

    def take_actions(self) -> list[dict[str, Any]]:
        """Every queued action, oldest first (non-blocking)."""
        taken: list[dict[str, Any]] = []
        while True:
            try:
                taken.append(self._actions.get_nowait())
            except queue.Empty:
                return taken
