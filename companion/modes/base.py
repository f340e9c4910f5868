"""What every mode of the main loop is: enter, handle an action, take a frame, view, next mode (pibooth's states).

The loop (:class:`companion.app.MainLoop`) owns the camera, the hub, the storage health and the phone
pairing; its current :class:`Mode` says what an action, a still table and the view mean now. After each
action and each read the loop asks the mode for the :meth:`Mode.next` one (a setup whose Start was recorded
plays its game; a game that ended shows its scores; Undo reopens it) and enters it.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from companion.actions import Posted
from companion.desk import Changes
from companion.flow_actions import Outcome
from companion.i18n import Text
from device import Frame

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["BOX_GAME", "BoxMode", "Mode", "ModeName", "SessionMode"]

BOX_GAME = "box"
"""The pairing's game while the box starts on no game (the chooser): the join secret phones scan at boot."""


class ModeName(enum.Enum):
    """The loop's modes."""

    DICE = "dice"
    """The d6 reader: every still table is a ``dice_read`` event."""
    SETUP = "setup"
    """A game being set up (players, colours, seats) before its session exists."""
    PLAY = "play"
    """A game at the table: the phones' reports, Next, the camera's questions."""
    SCORES = "scores"
    """A game that has ended: its scores (the camera may still count dice; Undo reopens the last round)."""
    ENROLL = "enroll"
    """The guided dice enrollment: a photo of every colour/face pair."""
    CHOOSE = "choose"
    """The game chooser: the dice, each game, the games left open (the service starts here)."""
    HISTORY = "history"
    """The games played before: open one (its scores), export it, resume one that has not ended."""
    CALIBRATION = "calibration"
    """The table check between the players' setup and the first round: the camera sees the table, the calibration
    sheet's markers are where they were, each player's zone; one tap to play."""
    SETTINGS = "settings"
    """The touchscreen's settings: language, brightness, sound."""


class Mode:
    """One mode of the loop. Subclasses set :attr:`name` and override what they do differently.

    Args:
        loop: the loop it runs in (its camera, hub, storage, message, stats and picture).
    """

    name: ClassVar[ModeName]
    unneeded_checks: ClassVar[frozenset[str]] = frozenset()
    """The health checks (:attr:`companion.doctor.Check.key`) whose warnings say nothing about this mode: left out of
    the status line while it runs (the owner page still lists every check)."""

    def __init__(self, loop: MainLoop) -> None:
        self.loop = loop

    # -- the loop -------------------------------------------------------------------------------------
    def enter(self) -> None:
        """Called once when the loop moves into this mode (after the one before it)."""

    def handle(self, act: Posted) -> Outcome | None:
        """Carry out an action of this mode (inside the desk's transaction); None: not an action of this mode.
        Raises :class:`companion.errors.BadEntry` for bad input (nothing is recorded)."""
        return None

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """A good camera frame; ``asked``: the table just became still or a view asked to read now.
        Returns True when it read the table and published the views (the loop then shows nothing more of
        this frame)."""
        return False

    def picture(self, frame: Frame) -> np.ndarray:
        """The picture the views show while the table moves (``uint8[H, W, 3]`` BGR): the live frame."""
        return frame.image

    def pictures(self) -> dict[str, bytes]:
        """Small pictures published with the view, by name (``{"station-7": JPEG bytes}``: a camera question's
        station); the phones fetch one as ``GET /picture/<name>.jpg``. None by default."""
        return {}

    def view(self) -> dict[str, Any]:
        """The published view (shapes in ``docs/contracts.md``)."""
        raise NotImplementedError

    def next(self) -> Mode | None:
        """The mode the loop moves to now, or None to stay in this one."""
        return None

    def on_camera(self, status: str, message: str) -> None:
        """The camera's status changed (``device.health.CameraStatus`` value and its message)."""

    def finish(self) -> None:
        """The loop stops: finish what is under way (a camera read in flight is applied)."""

    @property
    def done(self) -> bool:
        """True when the loop has nothing more to do in this mode (the enrollment ended): it stops."""
        return False

    def place(self) -> dict[str, Any]:
        """Where the box is in this mode, kept so a restart comes back to it (:mod:`companion.library`)."""
        return {"mode": self.name.value}

    def change_key(self, view: dict[str, Any]) -> Any:
        """What ``on_change`` compares between publishes (a change of it saves ``--screenshot``)."""
        return [view.get("game"), view.get("camera"), (view.get("session") or {}).get("events")]

    # -- what the desk needs (companion.desk.Table) ------------------------------------------------------
    @property
    def store(self) -> Any:
        """The session database, or None."""
        return None

    @property
    def game_id(self) -> str:
        """The session (or setup) that answers and seat claims belong to."""
        raise NotImplementedError

    @property
    def names(self) -> list[str]:
        """The players, in seat order ([] without players)."""
        return []

    def version(self) -> int:
        """The state version the views show (the log's last seq)."""
        raise NotImplementedError

    def changes_since(self, version: int) -> Changes:
        """What was recorded after ``version``."""
        return Changes(self.version() - version, frozenset(), False)

    def seat_of(self, act: Posted) -> str | None:
        """The seat an action of this mode acts for beyond a named player's (a camera question's), or None."""
        return None

    def private_report(self, act: Posted) -> bool:
        """Whether ``act`` reports on a private form."""
        return False

    @property
    def in_flow(self) -> bool:
        """Whether a game flow (or its setup) runs: a phone then undoes only its own report."""
        return False

    def memo(self) -> Any:
        """What :meth:`restore` puts back when an action's writes are rolled back."""
        return None

    def restore(self, memo: Any) -> None:
        """Put back :meth:`memo`."""


class SessionMode(Mode):
    """A mode that records into a session (the d6 dice, a game): its database, id and version are the session's.

    Args:
        loop: the loop.
        session: the :class:`companion.session_log.Session`.
    """

    def __init__(self, loop: MainLoop, session: Any) -> None:
        super().__init__(loop)
        self.session = session

    @property
    def store(self) -> Any:
        return self.session.store

    @property
    def game_id(self) -> str:
        return self.session.id

    def version(self) -> int:
        return self.session.last_seq

    def place(self) -> dict[str, Any]:
        return {"mode": self.name.value, "session": self.session.id, "game": self.session.game.name}


class BoxMode(Mode):
    """A mode of the box itself, on no game (the chooser, the history, the settings): the library's database, the
    pairing of the game before (phones stay joined), nothing to version.

    Args:
        loop: the loop (its :attr:`companion.app.MainLoop.library`).
    """

    @property
    def store(self) -> Any:
        return self.loop.library.store

    @property
    def game_id(self) -> str:
        """The game of the pairing before (phones stay joined); :data:`BOX_GAME` when the box starts here."""
        pairing = self.loop.pairing
        return BOX_GAME if pairing is None else pairing.game

    def version(self) -> int:
        return 0

    def view(self) -> dict[str, Any]:
        """The common envelope (no session, no game) with this mode's own block under its name."""
        loop, frame = self.loop, self.loop.last_frame
        return {
            "session": {"id": None, "game": None, "started_at": None, "source": Text(loop.source.label), "events": 0},
            "status": loop.status(),
            "game": None,
            "dice": [],
            "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
            "findings": [],
            "phone_url": loop.phone_url,
            "storage": loop.storage.view(),
            self.name.value: self.block(),
        }

    def block(self) -> dict[str, Any]:
        """This mode's part of the view (``view["choose"]``, ``view["history"]``, ``view["settings"]``)."""
        raise NotImplementedError

    def change_key(self, view: dict[str, Any]) -> Any:
        return [view.get(self.name.value), view.get("mode")]
