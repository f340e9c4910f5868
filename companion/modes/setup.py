"""The setup mode: a game's players, colours and seats before its session exists (:mod:`companion.setup_flow`).

Next means Start. Once Start has recorded the session the loop plays the game (:class:`companion.modes.play.PlayMode`,
with its camera part when the box reads the table); the phones paired during the setup stay paired (the session
takes the setup's id).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.actions import SETUP_ACTIONS, Action, Posted
from companion.flow import GameFlow
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import Mode, ModeName

if TYPE_CHECKING:
    from companion.app import MainLoop
    from companion.setup_flow import TableSetup

__all__ = ["SetupMode"]

log = logging.getLogger(__name__)


class SetupMode(Mode):
    """Set up a game: add, rename, remove players, tap their seats or split the table evenly, then Start.

    Args:
        loop: the loop.
        setup: the game's :class:`companion.setup_flow.TableSetup`.
        make_camera: called with the game's flow once it starts; returns its camera part, or None.
    """

    name = ModeName.SETUP

    def __init__(self, loop: MainLoop, setup: TableSetup, make_camera: Callable[[GameFlow], Any] | None = None) -> None:
        super().__init__(loop)
        self.setup = setup
        self.make_camera = make_camera

    @property
    def store(self) -> Any:
        return self.setup.store

    @property
    def game_id(self) -> str:
        return self.setup.id

    @property
    def names(self) -> list[str]:
        return list(self.setup.names)

    def version(self) -> int:
        return self.setup.version

    @property
    def in_flow(self) -> bool:
        return True

    def memo(self) -> Any:
        return self.setup.memo()

    def restore(self, memo: Any) -> None:
        self.setup.restore(memo)
        self.setup.flow = None  # a Start not written: the setup again

    def place(self) -> dict[str, Any]:
        return {"mode": self.name.value, "game": self.setup.spec.name, "setup": self.setup.id}

    def enter(self) -> None:
        log.info("setting up %s: %s", self.setup.spec.title, ", ".join(self.setup.names) or "no players yet")

    def handle(self, act: Posted) -> Outcome | None:
        """A setup action (Next = Start); a rename or removal carries the seat's claim along; "read now" is
        taken (nothing to read yet); Quit and the box's own actions that do not apply here (a past game's open) are
        the loop's to answer; anything else waits for the game."""
        if act.action is Action.QUIT:
            return None
        if act.action is Action.READ_NOW:
            self.loop.read_requested = True
            return Outcome([], Text("reading now"))
        if act.action is Action.NEXT_PHASE:
            act = dataclasses.replace(act, action=Action.SETUP_START, payload=Action.SETUP_START.payload())
        if act.action.phone == "box":  # the history's open, the table check's OK: not this setup's to wait for
            return None  # the loop names the action refused and where the box is
        if act.action not in SETUP_ACTIONS:
            return Outcome([], "", Text("set up the game first: add players, then Start"))
        frame = self.loop.last_frame
        before = list(self.setup.names)
        outcome = self.setup.handle(act, None if frame is None else (frame.width, frame.height))
        if outcome.error is None and act.action is Action.SETUP_RENAME:
            old = act.payload.player
            new = next((n for o, n in zip(before, self.setup.names, strict=True) if o == old), None)
            if new is not None and new != old:
                self.loop.pairing.renamed(old, new)
        elif outcome.error is None and act.action is Action.SETUP_REMOVE:
            self.loop.pairing.removed(act.payload.player)
        return outcome

    def next(self) -> Mode | None:
        """The table check once Start has recorded the session (:class:`companion.modes.check.CheckMode`: straight
        on to the game when the box does not read this game's table)."""
        flow = self.setup.flow
        if flow is None:
            return None
        from companion.modes.check import CheckMode

        return CheckMode(self.loop, flow, make_camera=self.make_camera)

    def view(self) -> dict[str, Any]:
        """The setup view (no session yet: its id, game and events are the setup's)."""
        loop, frame = self.loop, self.loop.last_frame
        return {
            "session": {"id": None, "game": self.setup.spec.name, "started_at": None, "source": Text(loop.source.label),
                        "events": self.setup.version},
            "status": loop.status(),
            "game": loop.with_claims(self.setup.view()),
            "dice": [],
            "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
            "findings": [],
            "phone_url": loop.phone_url,
            "storage": loop.storage.view(),
        }
