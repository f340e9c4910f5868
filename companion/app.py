"""The main job: camera frames -> dice read when the scene is still -> session log -> views.

One loop owns the game state (:class:`MainLoop`). The touchscreen, the phone view and
the GPIO button only post actions to the :class:`~companion.hub.StateHub`; the loop
takes them between frames. Observations become rule inputs here (``vision`` and
``rules`` never meet anywhere else): a :class:`vision.DiceRead` becomes a
``dice_read`` event whose payload keeps everything the camera saw.
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

import cv2
import numpy as np

from companion.flow import GameFlow, Outcome, handle_action
from companion.hub import Snapshot, StateHub
from companion.screen import ScreenSnapshot
from companion.session import Session
from device import CameraSource, Frame
from device.health import CameraHealthConfig, CameraStatus, CameraWatch
from rules import RulesError
from rules.d6 import DICE_READ
from vision import DiceRead, DieObservation, annotate
from vision.motion import MotionState, StillnessDetector

__all__ = ["MainLoop", "LoopStats", "dice_read_payload", "reading_order", "CAMERA_OK", "CAMERA_LOST", "CAMERA_ENDED",
           "CAMERA_STALLED", "CAMERA_BLACK", "CAMERA_SATURATED", "CAMERA_FROZEN"]

log = logging.getLogger(__name__)

# the view's status.camera values (device.health.CameraStatus; docs/contracts.md)
CAMERA_OK, CAMERA_LOST, CAMERA_ENDED = CameraStatus.OK.value, CameraStatus.LOST.value, CameraStatus.ENDED.value
CAMERA_STALLED, CAMERA_BLACK = CameraStatus.STALLED.value, CameraStatus.BLACK.value
CAMERA_SATURATED, CAMERA_FROZEN = CameraStatus.SATURATED.value, CameraStatus.FROZEN.value
READER_WATCHING, READER_STILL, READER_READ = "watching", "still", "read"
JPEG_QUALITY = 80  # phone view frame, 0-100


def _shown_as_misplay(finding: dict[str, Any], misplays: Sequence[dict[str, Any]]) -> bool:
    """Whether a rules finding says what a camera misplay already shows: about the same player (its
    ``where`` names them), naming the card."""
    what, where = str(finding.get("what") or ""), str(finding.get("where") or "")
    return any(m.get("player") and str(m["player"]) in where and m.get("card") and str(m["card"]) in what
               for m in misplays)


class DiceReader(Protocol):
    """What the loop needs of a reader (``vision.D6Reader``)."""

    def read(self, frame: np.ndarray) -> DiceRead: ...


class Screen(Protocol):
    """What the loop needs of the touchscreen (``companion.screen.TouchScreen``)."""

    def render(self, snapshot: Any) -> Any: ...


@dataclass
class LoopStats:
    """Counters of one run: frames seen, reads recorded, actions handled, camera losses, read latency (ms)."""

    frames: int = 0
    reads: int = 0
    actions: int = 0
    camera_losses: int = 0
    read_ms: list[float] = field(default_factory=list)


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


class MainLoop:
    """The box's one loop: it alone reads the camera, appends events and publishes views.

    Args:
        source: an opened or unopened camera source (``device.open_source``).
        reader: the dice reader (``vision.D6Reader``).
        session: the session the reads are recorded in (``companion.session.Session``).
        hub: where views are published and actions are taken from.
        stillness: tells when the scene has settled (``vision.motion.StillnessDetector``).
        screen: the touchscreen, or None to run headless.
        pump_screen: called once per loop to turn touchscreen input into hub actions.
        phone_url: shown on both views (QR code on the touchscreen).
        stop_at_end: stop when a replay ends (``companion demo --once``) instead of idling.
        reconnect_s: seconds between attempts to reopen a lost camera.
        camera_health: the camera's read timeout and picture checks (``device.health``): reads run on
            the camera watch's thread, so a stuck read never stops the loop; a black, white or
            frozen frame is never read and the views say what is wrong.
        live_publish_s: seconds between live-frame updates of the phone view while dice move.
        live_render_s: seconds between live-frame redraws of the touchscreen.
        on_read: called after each recorded read with (event seq, read), e.g. to flash the LED.
        flow: the at-table flow of a Roll, Race or Among the Stars session (``companion.flow``);
            then ``reader`` may be None (no dice are read: the camera picture is shown live) and
            the view's ``"game"`` is the flow's view.
        on_announce: called with ``"last_round"`` when an end condition is first met and with
            ``"game_over"`` when the game ends (e.g. to sound the buzzer); loop thread.
        camera_flow: the camera part of the flow (:class:`companion.camera_flow.CameraFlow`): when the
            scene becomes still (or a view posts ``read_now``) it reads the cards/dice and asks the
            players one-tap questions (``camera_confirm`` / ``camera_dismiss``); the view gets
            ``"camera"``. None: the flow is played from the phones only.
        setup: the setup step (:class:`companion.setup_flow.TableSetup`) of a game that has no
            session yet: ``session`` and ``flow`` are None until its Start (``setup_start``, or Next)
            records the session; the view's ``"game"`` is the setup view meanwhile.
        make_camera: called with the new flow when the setup starts the game; returns its camera
            part (or None).
        on_change: called after a publish whose game view, camera block or event count differ from
            the previous publish (a flow action, a report, an answered question, a setup step; not
            the live picture), once the touchscreen is drawn: e.g. to save ``--screenshot``.
        read_executor: where the OpenCV part of ``camera_flow``'s reads runs (e.g. a one-thread
            ``ThreadPoolExecutor``) so the touchscreen and phones stay live during a read (a card read
            takes about 1 s on a 1280x720 frame here, several on a Pi); None: reads run on this loop's
            thread (replays at full speed, tests). A read in flight when the loop stops is applied.
    """

    def __init__(
        self,
        *,
        source: CameraSource,
        reader: DiceReader | None,
        session: Session | None,
        hub: StateHub,
        stillness: StillnessDetector,
        screen: Screen | None = None,
        pump_screen: Callable[[], None] | None = None,
        phone_url: str = "",
        stop_at_end: bool = False,
        reconnect_s: float = 2.0,
        live_publish_s: float = 1.0,
        live_render_s: float = 0.1,
        on_read: Callable[[int, DiceRead], None] | None = None,
        flow: GameFlow | None = None,
        on_announce: Callable[[str], None] | None = None,
        camera_flow: Any = None,
        setup: Any = None,
        make_camera: Callable[[GameFlow], Any] | None = None,
        on_change: Callable[[], None] | None = None,
        read_executor: Executor | None = None,
        camera_health: CameraHealthConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.source = source
        self.reader = reader
        self.session = session
        self.hub = hub
        self.stillness = stillness
        self.screen = screen
        self.pump_screen = pump_screen
        self.phone_url = phone_url
        self.stop_at_end = stop_at_end
        self.reconnect_s = reconnect_s
        self.live_publish_s = live_publish_s
        self.live_render_s = live_render_s
        self.on_read = on_read
        self.flow = flow
        self.on_announce = on_announce
        self.camera_flow = camera_flow
        self.setup = setup
        self.make_camera = make_camera
        self.on_change = on_change
        self.read_executor = read_executor
        self._read_started = 0.0
        self._changed_key: str | None = None
        self._announced: set[str] = set()
        if flow is None and reader is None and setup is None:
            raise ValueError("MainLoop needs a dice reader unless it runs a game flow")
        if session is None and setup is None:
            raise ValueError("MainLoop needs a session unless it starts with a game's setup")
        self.clock = clock
        self.sleep = sleep
        self.stats = LoopStats()
        self.camera = CAMERA_OK
        self.reader_state = READER_WATCHING
        self.message = f"watching {source.name}"
        self.last_dice: list[dict[str, Any]] = []
        self.last_frame: Frame | None = None
        self.display: np.ndarray | None = None
        self._read_requested = False
        self._stop = False
        self._watch = CameraWatch(source, camera_health, reconnect_s=reconnect_s, clock=clock)
        self._published_at = float("-inf")
        self._rendered_at = float("-inf")

    # -- the loop -----------------------------------------------------------------------------
    def run(self, max_frames: int | None = None) -> LoopStats:
        """Run until a ``quit`` action, the end of a replay with ``stop_at_end``, or ``max_frames`` frames.

        A lost, stalled, covered or frozen camera is shown on both views and the game goes on (a
        lost one is reopened every ``reconnect_s`` seconds); everything recorded stays in the session log.
        """
        self.publish()
        try:
            while not self._stop:
                if max_frames is not None and self.stats.frames >= max_frames:
                    break
                self.step()
            if self.camera_flow is not None and self.camera_flow.pending:
                # a read in flight when the replay ends or the loop stops is still applied
                self._camera_read_done(self.camera_flow.collect(wait=True) or [], None)
        finally:
            self._watch.close()
        return self.stats

    def stop(self) -> None:
        """Ask the loop to stop after the current step (safe from a signal handler)."""
        self._stop = True

    def step(self) -> None:
        """One pass: take actions, read one frame, read the dice if the scene just became still, publish."""
        if self.pump_screen is not None:
            self.pump_screen()
        changed = self._take_actions()
        if self._stop:
            return
        frame = self._next_frame()
        if frame is None:
            if changed:
                self.publish()
            return
        self.stats.frames += 1
        self.last_frame = frame
        self.stillness.update(frame.image, frame.timestamp)
        if self.camera_flow is not None and self._camera_step(frame):
            return
        if self.reader is not None and (self.stillness.became_still or self._read_requested):
            self._read_requested = False
            self.record_read(frame)
            return
        moving = self.stillness.state is MotionState.MOVING
        if moving and self.reader_state != READER_WATCHING:
            self.reader_state = READER_WATCHING
            changed = True
        if self.reader_state == READER_WATCHING:
            self.display = frame.image  # live picture until the next read is annotated
        now = self.clock()
        if changed or now - self._published_at >= self.live_publish_s:
            self.publish()
        elif self.screen is not None and now - self._rendered_at >= self.live_render_s:
            self._render(self.hub.snapshot())

    # -- reading ------------------------------------------------------------------------------
    def record_read(self, frame: Frame) -> int:
        """Read the dice in ``frame``, append a ``dice_read`` event and publish.

        Returns the event's seq, or 0 when the rules refused the read (shown as the status message).
        """
        started = time.perf_counter()
        assert self.reader is not None
        read = self.reader.read(frame.image)
        self.stats.read_ms.append((time.perf_counter() - started) * 1000.0)
        payload = dice_read_payload(read, frame, self._photo())
        try:
            event = self.session.append(DICE_READ, payload, origin="camera", at=time.time())
        except RulesError as exc:  # a reader bug must not stop the table; nothing recorded is lost
            self.message = f"read not recorded: {exc}"
            log.error(self.message)
            self.publish()
            return 0
        self.stats.reads += 1
        self.last_dice = [d.to_json() for d in read.dice]
        self.reader_state = READER_READ
        values = payload["values"]  # reading order, as recorded
        self.message = f"read {len(values)} dice: " + " ".join("?" if v is None else str(v) for v in values)
        log.info("event %d: %s", event.seq, self.message)
        self.display = annotate(frame.image, read)
        self.publish()
        if self.on_read is not None:
            self.on_read(event.seq, read)
        return event.seq

    def _camera_step(self, frame: Frame) -> bool:
        """Schedule and take the flow's camera reads; True when a read was applied (and published).

        With ``read_executor`` the OpenCV part of a read runs on that worker while this loop keeps
        taking taps and phone actions and showing the live picture; the read is applied on a later
        step, once it is done.
        """
        cam = self.camera_flow
        now = self.clock()
        if self.stillness.became_still or self._read_requested:
            self._read_requested = False
            cam.schedule(now)
        elif self.stillness.state is MotionState.MOVING:
            cam.cancel()
        if cam.pending:
            recorded = cam.collect()
            if recorded is None:
                return False  # still reading: the live picture goes on
            self._camera_read_done(recorded, None)
            return True
        if not cam.due(now):
            return False
        if self.read_executor is not None:
            self._read_started = time.perf_counter()
            cam.begin(frame, now, self._photo(), self.read_executor)
            if not cam.pending:  # the plan failed at once (reported in its message)
                self._camera_read_done([], frame)
                return True
            return False
        self._read_started = time.perf_counter()
        self._camera_read_done(cam.read(frame, now, self._photo()), frame)
        return True

    def _camera_read_done(self, recorded: list, frame: Frame | None) -> None:
        self.stats.read_ms.append((time.perf_counter() - self._read_started) * 1000.0)
        self.stats.reads += 1
        self.message = self.camera_flow.message
        if recorded:
            log.info("camera recorded %s", ", ".join(f"#{e.seq} {e.kind}" for e in recorded))
        if frame is not None:
            self.display = frame.image
        self.publish()

    def _photo(self) -> str | None:
        """The replayed photo behind the last frame (``ReplaySource.current_file``), if any."""
        current = getattr(self.source, "current_file", None)
        return None if current is None else str(current)

    # -- camera -------------------------------------------------------------------------------
    def _next_frame(self) -> Frame | None:
        """The next good camera frame, or None (none yet, or the camera has a fault: both views say which).

        The read runs on the camera watch's thread (``device.health.CameraWatch``): a read that blocks,
        an exception of any kind from the source, a black, white or frozen frame never stop this loop
        and nothing is read from them; the watch recovers when the source returns.
        """
        if self.camera == CAMERA_ENDED:
            if self.stop_at_end:
                self._stop = True
            else:
                self.sleep(0.05)
            return None
        frame = self._watch.poll()
        if self._watch.take_change():
            if self._watch.status is CameraStatus.LOST and self.camera != CAMERA_LOST:
                self.stats.camera_losses += 1
            self.camera, self.message = self._watch.status.value, self._watch.message
            self.publish()
        if frame is None and not self._watch.busy and self.camera == CAMERA_LOST:
            self.sleep(min(0.05, self.reconnect_s))  # waiting to try the camera again
        return frame

    # -- actions ------------------------------------------------------------------------------
    def _take_actions(self) -> bool:
        changed = False
        for action in self.hub.take_actions():
            if not self.hub.begin(action):
                continue  # its requester gave up waiting (answered "not recorded"): drop it
            self.stats.actions += 1
            name, origin = action["action"], action.get("origin", "cli")
            if self.flow is None and self.setup is not None and name != "quit":
                self._setup_action(action)
                changed = True
                continue
            outcome = handle_action(self.flow, action) if self.flow is not None else None
            if outcome is None and self.camera_flow is not None:
                outcome = self.camera_flow.handle(action)
            if outcome is None and name in ("camera_confirm", "camera_dismiss"):
                outcome = Outcome([], "", "no camera questions: the camera reads cards with --deck in a game flow")
            if outcome is None and name in ("next_phase", "report", "undo_report"):
                outcome = Outcome([], "", f"{name} needs a game flow (companion run --game roll|race|among)")
            if outcome is not None:
                self.message = outcome.error or outcome.message
                (log.info if outcome.error is None else log.warning)("%s (%s): %s", name, origin, self.message)
                reply = action.get("reply")
                if reply is not None and not reply.done():
                    reply.set_result(outcome.to_json())
                changed = True
                continue
            if name == "quit":
                self._stop = True
            elif name == "read_now":
                self._read_requested = True
                if self.camera_flow is not None:
                    self.camera_flow.count_again()  # "Count dice" after the game: count over again when done
            elif name == "undo":
                if origin == "phone" and self.flow is not None:
                    # a game flow: a phone withdraws only its own seat's report (undo_report)
                    self.message = "a phone undoes only its own report (Undo my last report); the table's Undo is on the touchscreen"
                    log.warning("undo (%s) refused: %s", origin, self.message)
                elif self.session is None:
                    self.message = "nothing to undo"
                    log.info("undo (%s): %s", origin, self.message)
                else:
                    undone = self.session.undo(origin=origin)
                    self.message = "nothing to undo" if undone is None else f"undid event {undone.payload['seq']}"
                    log.info("undo (%s): %s", origin, self.message if undone is None
                             else f"event {undone.seq} withdraws event {undone.payload['seq']}")
                changed = True
        return changed

    def _setup_action(self, action: dict[str, Any]) -> None:
        """A setup action (Next = Start); on Start the game's session and flow take over."""
        from companion.setup_flow import SETUP_ACTIONS

        if action["action"] == "next_phase":
            action = {**action, "action": "setup_start"}
        if action["action"] in SETUP_ACTIONS:
            frame = self.last_frame
            outcome = self.setup.handle(action, None if frame is None else (frame.width, frame.height))
        else:
            outcome = Outcome([], "", "set up the game first: add players, then Start")
        self.message = outcome.error or outcome.message
        (log.info if outcome.error is None else log.warning)("%s (%s): %s", action["action"], action.get("origin"), self.message)
        reply = action.get("reply")
        if reply is not None and not reply.done():
            reply.set_result(outcome.to_json())
        if self.setup.flow is not None:
            self.flow = self.setup.flow
            self.session = self.flow.session
            self.setup = None
            if self.make_camera is not None:
                self.camera_flow = self.make_camera(self.flow)

    # -- views --------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The published view dict (shape in ``docs/contracts.md``)."""
        frame = self.last_frame
        if self.session is None:  # setting up a game: no session yet
            return {
                "session": {"id": None, "game": self.setup.spec.name, "started_at": None, "source": self.source.name,
                            "events": 0},
                "status": {"camera": self.camera, "reader": self.reader_state, "message": self.message},
                "game": self.setup.view(),
                "dice": [],
                "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
                "findings": [],
                "phone_url": self.phone_url,
            }
        replayed = self.session.replay()
        if self.flow is not None:
            game_view = self.flow.view()
            findings_json = game_view["findings"]  # newest first, with what to do
        else:
            game_view = self.session.game.view(replayed.state)
            latest = game_view.get("latest")
            if isinstance(latest, dict) and "seq" in latest:  # a roll's findings concern that roll only
                findings = [f for f in replayed.findings if f.seq == latest["seq"]]
            else:
                findings = list(replayed.findings[-5:])
            findings_json = [f.to_json() for f in findings]
        view = {
            "session": {
                "id": self.session.id,
                "game": self.session.game.name,
                "started_at": getattr(self.session, "started_at", None),
                "source": self.source.name,
                "events": self.session.last_seq,
            },
            "status": {"camera": self.camera, "reader": self.reader_state, "message": self.message},
            "game": game_view,
            "dice": self.last_dice,
            "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
            "findings": findings_json,
            "phone_url": self.phone_url,
        }
        if self.camera_flow is not None:
            view["camera"] = self.camera_flow.view()
            shown = view["camera"].get("misplays") or []
            if shown and self.flow is not None:  # a misplay on the camera panel is not listed again below it
                findings_json = [f for f in findings_json if not _shown_as_misplay(f, shown)]
                view["findings"] = findings_json
                view["game"] = {**game_view, "findings": findings_json}
        return view

    def publish(self) -> None:
        """Publish the current view and picture (JPEG for the phone) and redraw the touchscreen.

        The picture is the annotated frame of the latest read while the dice lie still, the
        live frame while they move.
        """
        jpeg = None
        if self.display is not None:
            ok, buf = cv2.imencode(".jpg", self.display, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            jpeg = buf.tobytes() if ok else None
        snapshot = self.hub.publish(self.view(), jpeg)
        self._published_at = self.clock()
        self._render(snapshot)
        self._announce(snapshot.view.get("game") or {})
        if self.on_change is not None:
            v = snapshot.view
            key = json.dumps([v.get("game"), v.get("camera"), (v.get("session") or {}).get("events")],
                             sort_keys=True, default=str)
            if key != self._changed_key:
                self._changed_key = key
                self.on_change()

    def _announce(self, game: dict[str, Any]) -> None:
        """Call ``on_announce`` once per game for the last round and once for the game's end."""
        if self.flow is None:
            return
        for key, flag in (("last_round", game.get("last_round")), ("game_over", game.get("over"))):
            if flag and key not in self._announced:
                self._announced.add(key)
                log.info("announce: %s", key)
                if self.on_announce is not None:
                    self.on_announce(key)

    def _render(self, snapshot: Snapshot) -> None:
        if self.screen is None:
            return
        self.screen.render(ScreenSnapshot(view=snapshot.view, frame=self.display, version=snapshot.version))
        self._rendered_at = self.clock()
