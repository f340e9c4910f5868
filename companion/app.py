"""The main job: camera frames -> dice read when the scene is still -> session log -> views.

One loop owns the game state (:class:`MainLoop`). The touchscreen, the phone view and
the GPIO button only post actions to the :class:`~companion.hub.StateHub`; the loop
takes them between frames and carries each out through its :class:`companion.desk.Desk`
(checked, allowed, written once, published, then answered). Observations become rule inputs
here (``vision`` and ``rules`` never meet anywhere else): a :class:`vision.DiceRead` becomes a
``dice_read`` event whose payload keeps everything the camera saw.

Nothing a view, a frame or the disk does stops the loop: an unexpected exception in an action
or a frame's processing is logged with its traceback and shown as the status message; a write
the storage refuses is said on both views (``view["storage"]``, :mod:`companion.storage`).
"""

from __future__ import annotations

import json
import logging
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Protocol, Sequence

import cv2
import numpy as np

from companion.actions import SEAT_ACTIONS, SETUP_ACTIONS, Action
from companion.desk import Changes, Desk
from companion.errors import StorageError, shown
from companion.flow import FAULT, STORAGE, GameFlow, Outcome, handle_action
from companion.hub import Snapshot, StateHub
from companion.pairing import PairingBook
from companion.screen import ScreenSnapshot
from companion.session import Session
from companion.storage import StorageHealth
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


def _camera_gave_up(exc: BaseException) -> bool:
    """Whether ``exc`` is the camera source's own "cannot go on" (a ``device.DeviceError``, e.g. a replay with
    no picture that can be decoded): it ends :meth:`MainLoop.run`; every other exception is contained."""
    from device import DeviceError

    return isinstance(exc, DeviceError)


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

    It is the desk's :class:`companion.desk.Table`: it keeps the game's :class:`companion.pairing.PairingBook`
    (published with :meth:`companion.hub.StateHub.set_pairing` at start and after every action) and the
    :class:`companion.storage.StorageHealth` of its session database.

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
        watchdog: called at the top of every ``step()``, on this loop's thread: a loop that stops
            turning (e.g. stuck in a blocking call) stops calling it. ``cli`` passes
            :meth:`companion.notify.ServiceNotifier.loop_turned`, which feeds systemd's watchdog.
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
        watchdog: Callable[[], None] | None = None,
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
        self.watchdog = watchdog
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
        self._faults = 0  # unexpected exceptions in a row (a loop pass that keeps failing slows down)
        self.storage = StorageHealth(self.store, clock=clock)
        self.storage.start()
        if self.storage.ok and self.store is not None:
            self.storage.probe()  # a full or failing card is said at start, not on the first tap
        self.pairing = PairingBook(self.store, self.game_id)
        if self.pairing.problem is not None:
            self.storage.failed(self.pairing.problem)
        self.hub.set_pairing(self.pairing.pairing())
        self.desk = Desk(self, self.storage)
        if not self.storage.ok or self.storage.low:
            self.message = self.storage.message

    # -- the loop -----------------------------------------------------------------------------
    def run(self, max_frames: int | None = None) -> LoopStats:
        """Run until a ``quit`` action, the end of a replay with ``stop_at_end``, or ``max_frames`` frames.

        A lost, stalled, covered or frozen camera is shown on both views and the game goes on (a
        lost one is reopened every ``reconnect_s`` seconds); everything recorded stays in the session log.
        An unexpected exception in one pass (an action, a frame's processing, a view) is logged with its
        traceback and shown as the status message; the loop turns on (only Ctrl-C, :meth:`stop` /
        SIGTERM, ``quit`` or the end of a replay stop it).
        """
        self._safely("publishing the view", self.publish)
        try:
            while not self._stop:
                if max_frames is not None and self.stats.frames >= max_frames:
                    break
                try:
                    self.step()
                except Exception as exc:  # a pass that failed: said, and the next pass goes on
                    if _camera_gave_up(exc):
                        raise
                    self._fault("one pass of the main loop", exc)
            if self.camera_flow is not None and self.camera_flow.pending:
                # a read in flight when the replay ends or the loop stops is still applied
                self._safely("the last camera read",
                             lambda: self._camera_read_done(self.camera_flow.collect(wait=True) or [], None))
        finally:
            self._watch.close()
        return self.stats

    def stop(self) -> None:
        """Ask the loop to stop after the current step (safe from a signal handler)."""
        self._stop = True

    def step(self) -> None:
        """One pass: take actions, read one frame, read the dice if the scene just became still, publish."""
        if self.watchdog is not None:
            self.watchdog()
        if self.pump_screen is not None:
            self._safely("the touchscreen", self.pump_screen)
        changed = self.take_actions()
        if self._safely("checking the storage", self._storage_tick):
            changed = True
        if self._stop:
            return
        frame = self._next_frame()
        if frame is None:
            if changed:
                self._safely("publishing the view", self.publish)
            return
        self.stats.frames += 1
        self.last_frame = frame
        if self._safely("reading the picture", self._process, frame, changed) is not None:
            self._faults = 0

    def _process(self, frame: Frame, changed: bool) -> bool:
        """A new frame: stillness, the camera flow's reads or the d6 read, the live picture; publish."""
        self.stillness.update(frame.image, frame.timestamp)
        if self.camera_flow is not None and self._camera_step(frame):
            return True
        if self.reader is not None and (self.stillness.became_still or self._read_requested):
            self._read_requested = False
            self.record_read(frame)
            return True
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
        return True

    def _storage_tick(self) -> bool:
        """The storage probe and free-space check; a secret made while writing failed is written once it works."""
        changed = self.storage.tick()
        if self.storage.ok and self.pairing.unsaved and self.pairing.save():
            self.hub.set_pairing(self.pairing.pairing())
        if changed and self.storage.ok:
            self.message = self.storage.message or "storage works again: everything from now on is saved"
        return changed

    def _safely(self, doing: str, work: Callable[..., Any], *args: Any) -> Any:
        """``work(*args)``; an unexpected exception is logged with its traceback and shown (:meth:`_fault`),
        and None is returned. ``device.DeviceError`` passes (the camera source's own handling)."""
        try:
            return work(*args)
        except Exception as exc:
            if _camera_gave_up(exc):
                raise
            self._fault(doing, exc)
            return None

    def _fault(self, doing: str, exc: BaseException) -> None:
        """An unexpected exception: logged with its traceback, shown as the status message, nothing recorded
        from it; the loop goes on (a pass that keeps failing is slowed down, not stopped)."""
        self._faults += 1
        log.error("%s failed", doing, exc_info=exc)
        self.message = f"{doing} failed ({type(exc).__name__}): nothing was recorded from it; the box goes on"
        try:
            self.hub.publish(self.view())
        except Exception:
            log.exception("publishing the fault failed too")
        if self._faults > 3:
            self.sleep(min(1.0, 0.05 * self._faults))

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
        except StorageError as exc:  # the read is dropped; both views say why until writing works again
            self.message = f"read not saved: {self.storage.failed(exc)}"
            log.error("dice read not saved: %s", exc)
            self.publish()
            return 0
        self.storage.succeeded()
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
        unsaved, self.camera_flow.unsaved = self.camera_flow.unsaved, None
        if unsaved is not None:  # what it would have recorded is dropped; the banner says why
            self.message = f"{self.message}; not saved: {self.storage.failed(unsaved)}"
        elif recorded:
            self.storage.succeeded()
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
    def take_actions(self) -> bool:
        """Carry out every queued action (:meth:`dispatch`), publish once, then answer each: a state read
        right after an answer shows what it did. Returns whether something changed that is not yet
        published (always False: what was taken is published here)."""
        answered: list[tuple[dict[str, Any], Outcome]] = []
        try:
            for action in self.hub.take_actions():
                if not self.hub.begin(action):
                    continue  # its requester gave up waiting (answered "not recorded"): drop it
                try:
                    outcome = self.dispatch(action)
                except Exception as exc:  # every action taken is answered, whatever happens
                    self._fault(f"{action.get('action')} ({action.get('origin')})", exc)
                    outcome = Outcome.refused(FAULT, f"the box could not do {action.get('action')}: unexpected "
                                                     f"{type(exc).__name__}; nothing was recorded")
                answered.append((action, outcome))
            if answered:
                self._safely("publishing the view", self.publish)
        finally:
            for action, outcome in answered:
                reply = action.get("reply")
                if reply is not None and not reply.done():
                    reply.set_result(outcome.to_json())
        return False

    def dispatch(self, action: dict[str, Any]) -> Outcome:
        """Carry out one action (a dict as :meth:`companion.hub.StateHub.post_action` queues it) through the
        :class:`companion.desk.Desk`: checked, allowed, applied once, written; never raises ``Exception``.
        Sets the status message; does not publish (:meth:`take_actions` does, before answering)."""
        self.stats.actions += 1
        name, origin = action.get("action"), action.get("origin", "cli")
        outcome = self.desk.handle(action)
        self.message = outcome.error or outcome.message or self.message
        if outcome.status == STORAGE:
            self.message = self.storage.message or self.message
        said = outcome.detail or self.message
        if outcome.error is None:
            log.info("%s (%s): %s", name, origin, said)
        else:
            log.warning("%s (%s) refused (%d): %s", name, origin, outcome.status, said)
        self.hub.set_pairing(self.pairing.pairing())
        return outcome

    # -- the desk's view of the table (companion.desk.Table) -----------------------------------------
    @property
    def store(self) -> Any:
        """The session database (the setup's before its game starts)."""
        return self.session.store if self.session is not None else getattr(self.setup, "store", None)

    @property
    def game_id(self) -> str:
        """The session's id (the setup's while a game is set up: the session takes it)."""
        return self.session.id if self.session is not None else self.setup.id

    def version(self) -> int:
        """The log's last seq (the setup's while a game is set up)."""
        return self.session.last_seq if self.session is not None else self.setup.version

    def changes_since(self, version: int) -> Changes:
        """What was recorded after ``version``: events, their players, whether the round or stage moved."""
        if self.session is None:
            return Changes(self.setup.version - version, frozenset(), False)
        after = [e for e in self.session.events() if e.seq > version]
        players = frozenset(e.player for e in after if e.player)
        progressed = self.flow is not None and bool(after) and self.flow.stage_at(version) != self.flow.stage_at(None)
        return Changes(len(after), players, progressed)

    def seat_of(self, action: Mapping[str, Any]) -> str | None:
        """The player whose seat ``action`` acts for: a report's (or claim's) player, a camera question's
        player, the player a setup action changes; None for table-wide actions."""
        name, player = action.get("action"), action.get("player")
        if name in SEAT_ACTIONS or name in (Action.SETUP_REMOVE, Action.SETUP_RENAME, Action.SETUP_SEAT,
                                            Action.SETUP_PLAYER):
            names = self.setup.names if self.flow is None and self.setup is not None else self._names()
            return player if isinstance(player, str) and player in names else None
        if name in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS) and self.camera_flow is not None:
            return self.camera_flow.player_of(action.get("id"))
        return None

    def claims(self) -> Mapping[str, str]:
        """Claimed seats: player -> client id."""
        return self.pairing.claims

    def private_report(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` reports on a private form (hidden information: only the seat's own phone sends it)."""
        return (self.flow is not None and action.get("action") == Action.REPORT
                and self.flow.private_form(action.get("form")))

    def in_flow(self) -> bool:
        """Whether a game flow (or its setup) runs, not the d6 reader."""
        return self.flow is not None or self.setup is not None

    def memo(self) -> tuple[Any, ...]:
        """The in-memory state an action may change before its write commits (put back by :meth:`restore`)."""
        return ((self.session, self.flow, self.setup, self.camera_flow), self.pairing.memo(),
                None if self.setup is None else self.setup.memo(),
                None if self.camera_flow is None else self.camera_flow.memo())

    def restore(self, memo: tuple[Any, ...]) -> None:
        """Put back :meth:`memo` after an action's writes were rolled back (a Start not written: the setup again)."""
        (self.session, self.flow, self.setup, self.camera_flow), pairing, setup, camera = memo
        self.pairing.restore(pairing)
        if setup is not None:
            self.setup.restore(setup)
            self.setup.flow = None
        if camera is not None:
            self.camera_flow.restore(camera)

    def _names(self) -> list[str]:
        if self.flow is not None:
            return self.flow.names
        if self.setup is not None:
            return self.setup.names
        return []

    def apply(self, action: Mapping[str, Any]) -> Outcome:
        """Carry out one action in the current mode (setup, game flow, d6); inside the desk's transaction."""
        name, origin = action.get("action"), str(action.get("origin") or "cli")
        if name in (Action.CLAIM_SEAT, Action.RELEASE_SEAT, Action.REVOKE_PHONES):
            return self._pairing_action(name, action)
        if name == Action.QUIT:
            self._stop = True
            return Outcome([], "stopping")
        if name == Action.READ_NOW:
            self._read_requested = True
            if self.camera_flow is not None:
                self.camera_flow.count_again()  # "Count dice" after the game: count over again when done
            return Outcome([], "reading now")
        if self.flow is None and self.setup is not None:
            return self._setup_action(action)
        outcome = handle_action(self.flow, action) if self.flow is not None else None
        if outcome is None and self.camera_flow is not None:
            outcome = self.camera_flow.handle(action)
        if outcome is not None:
            return outcome
        if name in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS):
            return Outcome([], "", "no camera questions: the camera reads cards with --deck in a game flow")
        if name in (Action.NEXT_PHASE, Action.REPORT, Action.UNDO_REPORT):
            from companion.flows import run_hint

            return Outcome([], "", f"{name} needs a game flow ({run_hint()})")
        if name == Action.UNDO:
            return self._undo(origin)
        return Outcome([], "", f"unknown action {shown(name)}")

    def _undo(self, origin: str) -> Outcome:
        """The table's Undo: withdraw the newest event in force."""
        if self.session is None:
            return Outcome([], "nothing to undo")
        undone = self.session.undo(origin=origin)
        if undone is None:
            return Outcome([], "nothing to undo")
        return Outcome([undone], f"undid event {undone.payload['seq']}",
                       detail=f"event {undone.seq} withdraws event {undone.payload['seq']}")

    def _pairing_action(self, name: str, action: Mapping[str, Any]) -> Outcome:
        names = self._names()
        if name == Action.CLAIM_SEAT:
            message = self.pairing.claim(action.get("player"), action.get("client"), names)
        elif name == Action.RELEASE_SEAT:
            message = self.pairing.release(action.get("player"), names)
        else:
            message = self.pairing.revoke()
        return Outcome([], message, changed=True)

    def _setup_action(self, action: Mapping[str, Any]) -> Outcome:
        """A setup action (Next = Start); a rename or removal carries the seat's claim along."""
        if action["action"] == Action.NEXT_PHASE:
            action = {**action, "action": Action.SETUP_START}
        if action["action"] not in SETUP_ACTIONS:
            return Outcome([], "", "set up the game first: add players, then Start")
        frame = self.last_frame
        before = list(self.setup.names)
        outcome = self.setup.handle(action, None if frame is None else (frame.width, frame.height))
        if outcome.error is None and action["action"] == Action.SETUP_RENAME:
            old = action.get("player")
            new = next((n for o, n in zip(before, self.setup.names) if o == old), None)
            if new is not None and new != old:
                self.pairing.renamed(old, new)
        elif outcome.error is None and action["action"] == Action.SETUP_REMOVE:
            self.pairing.removed(action.get("player"))
        if self.setup.flow is not None:
            self._game_started()
        return outcome

    def _game_started(self) -> None:
        """The setup's Start recorded the session: the game's flow (and camera part) take over."""
        self.flow = self.setup.flow
        self.session = self.flow.session
        self.setup = None
        if self.make_camera is not None:
            try:
                self.camera_flow = self.make_camera(self.flow)
            except Exception:  # the game goes on from the phones
                log.exception("the camera part of %s could not start", self.flow.spec.title)
                self.message = "the game started, but the camera cannot read it (the box's log says why)"

    # -- views --------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The published view dict (shape in ``docs/contracts.md``)."""
        frame = self.last_frame
        if self.session is None:  # setting up a game: no session yet
            return {
                "session": {"id": None, "game": self.setup.spec.name, "started_at": None, "source": self.source.name,
                            "events": self.setup.version},
                "status": {"camera": self.camera, "reader": self.reader_state, "message": self.message},
                "game": self._with_claims(self.setup.view()),
                "dice": [],
                "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
                "findings": [],
                "phone_url": self.phone_url,
                "storage": self.storage.view(),
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
            "storage": self.storage.view(),
        }
        if self.flow is not None:
            view["game"] = game_view = self._with_claims(game_view)
        if self.camera_flow is not None:
            view["camera"] = self.camera_flow.view()
            shown = view["camera"].get("misplays") or []
            if shown and self.flow is not None:  # a misplay on the camera panel is not listed again below it
                findings_json = [f for f in findings_json if not _shown_as_misplay(f, shown)]
                view["findings"] = findings_json
                view["game"] = {**game_view, "findings": findings_json}
        return view

    def _with_claims(self, game: dict[str, Any]) -> dict[str, Any]:
        """The game view with ``"claimed": bool`` on each player (never the phone's id or the secret)."""
        claims = self.pairing.claims
        players = [{**p, "claimed": p.get("name") in claims} for p in game.get("players") or []]
        return {**game, "players": players}

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
