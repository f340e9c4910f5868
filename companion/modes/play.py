"""The play and scores modes: a game at the table (:mod:`companion.flow`) and its camera part (:mod:`companion.camera`).

The phones report, Next moves the round on, Undo withdraws the newest event; when the table becomes still the
camera part reads it (on a worker thread when the loop has one) and asks its one-tap questions. Once the game has
ended the loop shows its scores (:class:`ScoresMode`: the camera may still count dice, Undo reopens the last
round and the game is played again).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from companion.action_words import action_word
from companion.actions import Action, Posted
from companion.desk import Changes
from companion.flow import ALL_FINDINGS, NEWEST_FINDINGS, GameFlow
from companion.flow_actions import Outcome, handle_action
from companion.i18n import Text
from companion.modes.base import Mode, ModeName, SessionMode
from companion.modes.dice import NO_CAMERA_QUESTIONS, undo
from device import Frame
from vision.motion import MotionState

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["PlayMode", "ScoresMode"]

log = logging.getLogger(__name__)

AGAIN_AFTER = frozenset({Action.UNDO, Action.UNDO_REPORT, Action.CAMERA_CONFIRM})
"""Actions after which a game whose stations are found on the table takes the camera's last read again at once."""


def _place(item: Mapping[str, Any]) -> tuple[Any, Any, tuple[int, ...] | None]:
    """(player, card, cell) of a finding or a camera misplay (both the engine's findings:
    :mod:`companion.camera.preview`)."""
    cell = item.get("cell")
    return item.get("player"), item.get("card"), None if cell is None else tuple(cell)


class PlayMode(SessionMode):
    """A game at the table.

    Args:
        loop: the loop.
        flow: the game's :class:`companion.flow.GameFlow`.
        camera: its camera part (:class:`companion.camera.CameraFlow`), or None: played from the phones.
        make_camera: called with ``flow`` on :meth:`enter` when there is no ``camera`` yet (a game that a setup
            started); a camera part that cannot start leaves the game to the phones, said on both views.
    """

    name = ModeName.PLAY

    def __init__(self, loop: MainLoop, flow: GameFlow, camera: Any = None,
                 make_camera: Callable[[GameFlow], Any] | None = None) -> None:
        super().__init__(loop, flow.session)
        self.flow = flow
        self.camera = camera
        self.make_camera = make_camera
        self._read_started = 0.0

    @property
    def camera(self) -> Any:
        """The game's camera part, or None: played from the phones."""
        return self._camera

    @camera.setter
    def camera(self, camera: Any) -> None:
        """Set the camera part; the flow learns whether it counts the dice at the end (a count pass: the dice
        reader is there), so the table's note says where the dice are counted."""
        self._camera = camera
        self.flow.camera_counts = getattr(camera, "counter", None) is not None

    @property
    def names(self) -> list[str]:
        return self.flow.names

    def changes_since(self, version: int) -> Changes:
        after = [e for e in self.flow.session.events() if e.seq > version]
        players = frozenset(e.player for e in after if e.player)
        progressed = bool(after) and self.flow.stage_at(version) != self.flow.stage_at(None)
        return Changes(len(after), players, progressed)

    def pictures(self) -> dict[str, bytes]:
        """The camera questions' pictures (:meth:`companion.camera.CameraFlow.pictures`), {} without a camera."""
        return {} if self.camera is None else dict(getattr(self.camera, "pictures", dict)())

    def seat_of(self, act: Posted) -> str | None:
        """A camera question's player (for "whose station is this?", the player the answer picks)."""
        if act.action in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS) and self.camera is not None:
            return self.camera.player_of(act.payload.id, getattr(act.payload, "choice", None))
        return None

    def private_report(self, act: Posted) -> bool:
        return act.action is Action.REPORT and self.flow.private_form(act.payload.form)

    @property
    def in_flow(self) -> bool:
        return True

    def memo(self) -> Any:
        return None if self.camera is None else self.camera.memo()

    def restore(self, memo: Any) -> None:
        if memo is not None:
            self.camera.restore(memo)

    # -- the loop -------------------------------------------------------------------------------------
    def enter(self) -> None:
        """Start the camera part of a game a setup started (``make_camera``)."""
        if self.camera is not None or self.make_camera is None:
            return
        try:
            self.camera = self.make_camera(self.flow)
        except Exception:  # the game goes on from the phones
            log.exception("the camera part of %s could not start", self.flow.spec.title)
            self.loop.message = Text("the game started, but the camera cannot read it (the box's log says why)")

    def handle(self, act: Posted) -> Outcome | None:
        """Next, reports, withdrawn reports (the flow), the camera's answers, the table's Undo, read now."""
        if act.action is Action.READ_NOW:
            self.loop.read_requested = True
            if self.camera is not None:
                self.camera.count_again()  # "Count dice" after the game: count over again when done
            return Outcome([], Text("reading now"))
        outcome = handle_action(self.flow, act)
        if outcome is None and self.camera is not None:
            outcome = self.camera.handle(act)
        if outcome is None and act.action in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS):
            return Outcome([], "", Text("in this game the camera asks no questions: report on your phone under "
                                        "{report}", report=action_word(Action.REPORT)), detail=NO_CAMERA_QUESTIONS)
        if outcome is None and act.action is Action.UNDO:
            outcome = undo(self.flow.session, act.origin, self.flow.describe, self.flow.spec.camera_records)
        if outcome is not None and outcome.events and act.action in AGAIN_AFTER \
                and self.camera is not None and getattr(self.camera, "finds_stations", False):
            # an answer to "whose station is this?" may be what was given or undone: what the camera saw last is taken
            # again at once under the answers in force (nothing is read anew), so the other stations follow it and a
            # question asked because of an answer undone goes
            self.camera.schedule(self.loop.clock(), [])
        return outcome

    def next(self) -> Mode | None:
        """The scores once the game is over."""
        return ScoresMode(self.loop, self.flow, self.camera) if self.flow.over() else None

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """Schedule and take the camera part's reads; True when a read was applied (and published).

        With the loop's ``read_executor`` the OpenCV part of a read runs on that worker while the loop keeps
        taking taps and phone actions and showing the live picture; the read is applied on a later frame,
        once it is done.
        """
        cam, loop = self.camera, self.loop
        if cam is None:
            return False
        now = loop.clock()
        if asked:
            # what changed since the read before is read again; a read a player asked for reads it all, and the
            # stillness detector counts later changes from it
            boxes = None if loop.read_by_player else loop.stillness.change_boxes()
            if loop.read_by_player:
                loop.stillness.mark_read()
            cam.schedule(now, boxes, asked=loop.read_by_player)
        elif loop.stillness.state is MotionState.MOVING:
            cam.cancel()
        elif loop.stillness.state is MotionState.STILL:
            cam.catch_up(now)  # the game came to want the dice of a table read before it did
        if cam.pending:
            recorded = cam.collect()
            if recorded is None:
                return False  # still reading: the live picture goes on
            self._read_done(recorded, None)
            return True
        if not cam.due(now):
            return False
        self._read_started = time.perf_counter()
        if loop.read_executor is not None:
            cam.begin(frame, now, loop.photo(), loop.read_executor)
            if not cam.pending:  # the plan failed at once (reported in its message)
                self._read_done([], frame)
                return True
            return False
        self._read_done(cam.read(frame, now, loop.photo()), frame)
        return True

    def _read_done(self, recorded: list, frame: Frame | None) -> None:
        loop = self.loop
        loop.stats.read_ms.append((time.perf_counter() - self._read_started) * 1000.0)
        loop.message = self.camera.message
        unsaved, self.camera.unsaved = self.camera.unsaved, None
        if unsaved is not None:  # what it would have recorded is dropped; the banner says why
            loop.message = Text(
                "{message}; not saved: {problem}", message=loop.message, problem=loop.storage.failed(unsaved)
            )
        elif recorded:
            loop.storage.succeeded()
            loop.stats.recorded(self.session, len(recorded), camera=True)  # a read itself is one of read_ms
        if recorded:
            log.info("camera recorded %s", ", ".join(f"#{e.seq} {e.kind}" for e in recorded))
        if frame is not None:
            loop.display = frame.image
        loop.publish()

    def finish(self) -> None:
        """A read in flight when the replay ends or the loop stops is still applied."""
        if self.camera is not None and self.camera.pending:
            self._read_done(self.camera.collect(wait=True) or [], None)

    def view(self) -> dict[str, Any]:
        """The flow's view (seats claimed), the camera block; a misplay on the camera panel is not listed again
        below it."""
        loop = self.loop
        game_view = loop.with_claims(self.flow.view())
        findings = game_view["findings"]  # newest first, with what to do
        view = loop.envelope(self.flow.session, game_view, findings, dice=loop.last_dice)
        if self.camera is not None:
            view["camera"] = self.camera.view()
            shown = {_place(m) for m in view["camera"].get("misplays") or []}
            if shown:  # the engine's finding about a card the camera panel shows (same player, card, cell)
                every = [f for f in game_view.get(ALL_FINDINGS, findings)
                         if f.get("cell") is None or _place(f) not in shown]
                findings = every[:NEWEST_FINDINGS]
                view["findings"] = findings
                view["game"] = {**game_view, "findings": findings, ALL_FINDINGS: every, "findings_total": len(every)}
        return view


class ScoresMode(PlayMode):
    """A game that has ended: the same table, its result shown (the touchscreen's scores screen once no camera
    question waits); Undo back into the last round plays the game again."""

    name = ModeName.SCORES

    def next(self) -> Mode | None:
        """The game again once an Undo reopened it."""
        return None if self.flow.over() else PlayMode(self.loop, self.flow, self.camera)

    def enter(self) -> None:
        """The status line says the game is over, however it ended (a Next, a camera read, a restart on a finished
        game), not the last round's note nor the last read's; a storage problem being said is left in place."""
        log.info("%s is over: %s", self.flow.spec.title, ", ".join(self.flow.result()["winners"]) or "no winner")
        storage = getattr(self.loop, "storage", None)
        if storage is None or not storage.message:
            self.loop.message = Text("{title}: game over", title=self.flow.spec.title)
