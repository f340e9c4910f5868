"""The d6 mode: every still table is read and recorded as a ``dice_read`` event (``companion run`` without ``--game``)."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence

import numpy as np

from companion.actions import Action, Posted
from companion.errors import StorageError
from companion.flow import Outcome
from companion.i18n import _
from companion.modes.base import ModeName, SessionMode
from device import Frame
from rules import RulesError
from rules.d6 import DICE_READ
from vision import DiceRead, DieObservation, annotate

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["DiceMode", "DiceReader", "dice_read_payload", "reading_order"]

log = logging.getLogger(__name__)


class DiceReader(Protocol):
    """What the d6 mode needs of a reader (``vision.D6Reader``)."""

    def read(self, frame: np.ndarray) -> DiceRead: ...


def reading_order(dice: Sequence[DieObservation]) -> list[DieObservation]:
    """Dice in the order players read them: rows top to bottom, each row left to right.

    A die joins the current row when its centre is within half a die height (px) of the
    row's first die, so dice lying roughly side by side read left to right.
    """
    rows: list[list[DieObservation]] = []
    for die in sorted(dice, key=lambda d: d.box[1] + d.box[3] / 2):
        centre = die.box[1] + die.box[3] / 2
        if rows:
            first = rows[-1][0]
            if abs(centre - (first.box[1] + first.box[3] / 2)) <= max(first.box[3], die.box[3]) / 2:
                rows[-1].append(die)
                continue
        rows.append([die])
    return [die for row in rows for die in sorted(row, key=lambda d: d.box[0])]


def dice_read_payload(read: DiceRead, frame: Frame, image: str | None = None) -> dict[str, Any]:
    """The ``dice_read`` event payload for a read: what the rules need plus what the camera saw.

    ``{"values": [1-6 | None, ...], "dice": [DieObservation.to_json(), ...], "image": the photo's
    path for a replay (``image``) or else ``frame.source``, "frame": frame.index, "width": W, "height": H}``. Dice are in reading order (top to bottom,
    left to right) so the values list matches what players see.
    """
    dice = reading_order(read.dice)
    return {
        "values": [d.value for d in dice],
        "dice": [d.to_json() for d in dice],
        "image": image or frame.source,
        "frame": frame.index,
        "width": read.width,
        "height": read.height,
    }


class DiceMode(SessionMode):
    """Read the d6 dice whenever the table becomes still (or a view asks), record each read, Undo.

    Args:
        loop: the loop.
        reader: the dice reader (``vision.D6Reader``).
        session: the d6 session the reads are recorded in.
    """

    name = ModeName.DICE

    def __init__(self, loop: MainLoop, reader: DiceReader, session: Any) -> None:
        super().__init__(loop, session)
        self.reader = reader

    def handle(self, act: Posted) -> Outcome | None:
        """Read now, Undo; the game flow's actions and camera answers are said to need a game flow."""
        what = act.action
        if what is Action.READ_NOW:
            self.loop.read_requested = True
            return Outcome([], "reading now")
        if what is Action.UNDO:
            return undo(self.session, act.origin)
        if what in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS):
            return Outcome([], "", "no camera questions: the camera reads cards with --deck in a game flow")
        if what in (Action.NEXT_PHASE, Action.REPORT, Action.UNDO_REPORT):
            from companion.flows import run_hint

            return Outcome([], "", f"{what.value} needs a game flow ({run_hint()})")
        return None

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """Read the dice when the table became still or a view asked."""
        if not asked:
            return False
        self.record_read(frame)
        return True

    def record_read(self, frame: Frame) -> int:
        """Read the dice in ``frame``, append a ``dice_read`` event and publish.

        Returns the event's seq, or 0 when the rules refused the read (shown as the status message).
        """
        loop = self.loop
        started = time.perf_counter()
        read = self.reader.read(frame.image)
        loop.stats.read_ms.append((time.perf_counter() - started) * 1000.0)
        payload = dice_read_payload(read, frame, loop.photo())
        try:
            event = self.session.append(DICE_READ, payload, origin="camera", at=time.time())
        except RulesError as exc:  # a reader bug must not stop the table; nothing recorded is lost
            loop.message = f"read not recorded: {exc}"
            log.error(loop.message)
            loop.publish()
            return 0
        except StorageError as exc:  # the read is dropped; both views say why until writing works again
            loop.message = f"read not saved: {loop.storage.failed(exc)}"
            log.error("dice read not saved: %s", exc)
            loop.publish()
            return 0
        loop.storage.succeeded()
        loop.stats.reads += 1
        loop.last_dice = [d.to_json() for d in read.dice]
        loop.reader_state = "read"
        values = payload["values"]  # reading order, as recorded
        loop.message = f"read {len(values)} dice: " + " ".join("?" if v is None else str(v) for v in values)
        log.info("event %d: %s", event.seq, loop.message)
        loop.display = annotate(frame.image, read)
        loop.publish()
        if loop.on_read is not None:
            loop.on_read(event.seq, read)
        return event.seq

    def view(self) -> dict[str, Any]:
        """The d6 game's view; the findings of the latest roll (else the newest five)."""
        replayed = self.session.replay()
        game_view = self.session.game.view(replayed.state)
        latest = game_view.get("latest")
        if isinstance(latest, dict) and "seq" in latest:  # a roll's findings concern that roll only
            findings = [f for f in replayed.findings if f.seq == latest["seq"]]
        else:
            findings = list(replayed.findings[-5:])
        return self.loop.envelope(self.session, game_view, [f.to_json() for f in findings], dice=self.loop.last_dice)


def undo(session: Any, origin: str, describe: Callable[[Any], str] | None = None) -> Outcome:
    """The table's Undo: withdraw the newest event in force; the message names it in the players' words
    (``describe(event)``: the game flow's; the d6 reads by default), never by its number."""
    undone = session.undo(origin=origin)
    if undone is None:
        return Outcome([], _("nothing to undo"))
    withdrawn = next((e for e in session.events() if e.seq == undone.payload["seq"]), None)
    said = (describe or describe_read)(withdrawn) if withdrawn is not None else ""
    return Outcome([undone], _("undone: {what}").format(what=said) if said else _("undone"),
                   detail=f"event {undone.seq} withdraws event {undone.payload['seq']}")


def describe_read(event: Any) -> str:
    """A d6 event in the players' words: "the roll 6 6 4 ?" (a read) or "the corrected roll 3 5"."""
    values = " ".join("?" if v is None else str(v) for v in (event.payload.get("values") or []))
    if event.kind == DICE_READ:
        return _("the roll {values}").format(values=values) if values else _("an empty read")
    return _("the corrected roll {values}").format(values=values)
