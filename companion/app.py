"""The main job: camera frames -> the table read when the scene is still -> session log -> views.

One loop owns the game state (:class:`MainLoop`). The touchscreen, the phone view and
the GPIO button only post actions (:class:`companion.actions.Action`) to the :class:`~companion.hub.StateHub`;
the loop takes them between frames and carries each out through its :class:`companion.desk.Desk`
(checked, allowed, written once, published, then answered). What an action, a still table and the view mean
depends on the loop's mode (:mod:`companion.modes`: d6 dice, setup, play, scores, enrollment), named by
:class:`companion.modes.ModeName`; after each action and each read the mode says which comes next.
Observations become rule inputs in the modes (``vision`` and ``rules`` never meet anywhere else).

Nothing a view, a frame or the disk does stops the loop: an unexpected exception in an action
or a frame's processing is logged with its traceback and shown as the status message; a write
the storage refuses is said on both views (``view["storage"]``, :mod:`companion.storage`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from companion.action_scope import (
    NAMES_A_PLAYER,
    NOTHING_DONE_TO_THE_PHONE,
    REFUSED_TO_THE_PHONE,
    TO_THE_PHONE,
)
from companion.action_words import action_word
from companion.actions import Action
from companion.desk import Desk
from companion.flow import GameFlow
from companion.flow_actions import FAULT, STORAGE, Outcome
from companion.hub import Snapshot, StateHub
from companion.i18n import N_, Text, _, say, text_of
from companion.loop_faults import FaultContainment, let_through
from companion.loop_table import DeskTable
from companion.modes import ChooseMode, DiceMode, EnrollMode, Mode, ModeName, PlayMode, SessionMode, SetupMode
from companion.modes.dice import DiceReader, dice_read_payload, reading_order
from companion.pairing import SEAT_FREE, PairingBook
from companion.player_names import named_player
from companion.screen import ScreenSnapshot
from companion.session_log import Session
from companion.storage import StorageHealth
from companion.switchboard import Switchboard
from device import CameraSource, Frame
from device.health import CameraHealthConfig, CameraStatus, CameraWatch
from vision import DiceRead
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


class Screen(Protocol):
    """What the loop needs of the touchscreen (``companion.screen.TouchScreen``)."""

    def render(self, snapshot: Any) -> Any: ...


@dataclass
class LoopStats:
    """Counters of one run: frames seen, events recorded (read by the camera, tapped in), actions handled, camera
    losses, read latency (ms, one a read of the table).

    Attributes:
        reads: events the camera's reads recorded (a d6 roll; a game's camera events, such as Among the Stars'
            ``station_read``); a read that recorded nothing (the same dice again) is not one.
        reported: events of the game's record that actions recorded: a phone's report or its withdrawal, Next, a
            camera question confirmed, the table's Undo (from a phone, the touchscreen, the button); a setup's
            events (players, colours, seats) are not in the record and not counted.
        recorded_in: the events of ``reads`` and ``reported`` by the session they were recorded in (its id), in the
            order the run first recorded in each: a run that moved from the d6 dice to a game recorded in both.
    """

    frames: int = 0
    reads: int = 0
    reported: int = 0
    actions: int = 0
    camera_losses: int = 0
    read_ms: list[float] = field(default_factory=list)
    recorded_in: dict[str, int] = field(default_factory=dict)

    def recorded(self, session: Any, n: int, *, camera: bool) -> None:
        """Count ``n`` events recorded in ``session`` (a :class:`companion.session_log.Session`, or None: counted
        in ``reads``/``reported`` alone): by the camera's reads (``camera``) or by actions."""
        if camera:
            self.reads += n
        else:
            self.reported += n
        sid = getattr(session, "id", None)
        if n and isinstance(sid, str):
            self.recorded_in[sid] = self.recorded_in.get(sid, 0) + n


class MainLoop(FaultContainment, DeskTable):
    """The box's one loop: it alone reads the camera, appends events and publishes views.

    It runs one :class:`companion.modes.Mode` at a time (:attr:`mode`): the d6 reader, a game's setup, the game,
    its scores, or the guided enrollment; the mode says what actions, still frames and the view mean and which
    mode comes next. It is the desk's :class:`companion.desk.Table`: it keeps the game's
    :class:`companion.pairing.PairingBook` (published with :meth:`companion.hub.StateHub.set_pairing` at start
    and after every action) and the :class:`companion.storage.StorageHealth` of its session database.

    The first mode comes from the arguments: ``enrollment`` (the enrollment), else ``setup`` (the setup), else
    ``flow`` (the game, or its scores when it is over), else the d6 dice (``reader`` and ``session``).

    Args:
        source: an opened or unopened camera source (``device.open_source``).
        reader: the dice reader (``vision.D6Reader``) of the d6 mode.
        session: the d6 session the reads are recorded in (``companion.session_log.Session``); a flow's is its own.
        hub: where views are published and actions are taken from.
        stillness: tells when the scene has settled (``vision.motion.StillnessDetector``).
        screen: the touchscreen, or None to run headless.
        no_screen: the box has no touchscreen at all (``--no-screen``: played from phones alone): what the
            touchscreen confirms (freeing a seat, the table's Undo, allowing an owner phone) a joined phone confirms
            instead (the join secret, from the QR code or the printed link, is the proof of being at the table;
            :mod:`companion.desk`), and no message points at a screen.
        pump_screen: called once per loop to turn touchscreen input into hub actions.
        phone_url: shown on both views (QR code on the touchscreen).
        stop_at_end: stop when a replay ends (``companion demo --once``) instead of idling.
        command: the command the box runs as, ``"run"`` or ``"demo"``: the hints that say how to start a game name it
            (``companion demo --game ...`` in the demo) and the view's ``"box"`` carries it.
        reconnect_s: seconds between attempts to reopen a lost camera.
        camera_health: the camera's read timeout and picture checks (``device.health``): reads run on
            the camera watch's thread, so a stuck read never stops the loop; a black, white or
            frozen frame is never read and the views say what is wrong.
        live_publish_s: seconds between live-frame updates of the phone view while dice move.
        live_render_s: seconds between live-frame redraws of the touchscreen.
        on_read: called after each recorded d6 read with (event seq, read), e.g. to flash the LED.
        flow: the at-table flow of a game's session (``companion.flow``): the play mode; ``reader`` may then be
            None (the camera picture is shown live) and the view's ``"game"`` is the flow's view.
        on_announce: called with ``"last_round"`` when an end condition is first met and with
            ``"game_over"`` when the game ends (e.g. to sound the buzzer); loop thread.
        camera_flow: the camera part of the flow (:class:`companion.camera.CameraFlow`): when the
            scene becomes still (or a view posts ``read_now``) it reads the table and asks the
            players one-tap questions (``camera_confirm`` / ``camera_dismiss``); the view gets
            ``"camera"``. None: the flow is played from the phones only.
        setup: the setup step (:class:`companion.setup_flow.TableSetup`) of a game that has no
            session yet: the setup mode until its Start (``setup_start``, or Next) records the session;
            the view's ``"game"`` is the setup view meanwhile.
        make_camera: called with the new flow when the setup starts the game; returns its camera
            part (or None).
        enrollment: the guided dice enrollment (:class:`companion.enroll_guided.GuidedEnrollment`): the
            enrollment mode; the loop stops when the walk ends.
        on_change: called after a publish whose game view, camera block or event count differ from
            the previous publish (a flow action, a report, an answered question, a setup step, the
            enrollment's next step; not the live picture), or whose question to the table differs (a phone asks
            for a seat another phone holds or for the owner page, the table answered it: :func:`asking_key`),
            once the touchscreen is drawn: e.g. to save ``--screenshot``.
        read_executor: where the OpenCV part of ``camera_flow``'s reads runs (e.g. a one-thread
            ``ThreadPoolExecutor``) so the touchscreen and phones stay live during a read (a card read
            takes about 1 s on a 1280x720 frame here, several on a Pi); None: reads run on this loop's
            thread (replays at full speed, tests). A read in flight when the loop stops is applied.
        watchdog: called at the top of every ``step()``, on this loop's thread: a loop that stops
            turning (e.g. stuck in a blocking call) stops calling it. ``cli`` passes
            :meth:`companion.notify.ServiceNotifier.loop_turned`, which feeds systemd's watchdog.
        library: the box's games (:class:`companion.library.Library`): the chooser, the history, and where the box
            was. With it the loop can move between games (Games, History, Back: :mod:`companion.switchboard`) and,
            with no other mode given, starts where the box was (else on the chooser). None: one game only.
        box_settings: the settings screen's :class:`companion.box_settings.BoxSettings`, or None.
        health: the box's health watch (:class:`companion.doctor.HealthWatch`): its worst level on the status line,
            its checks on the owner page; None: not watched.
        refresh_url: returns the phone view's URL now (the box's LAN address may appear after the start: "no
            network" until then); called every ``url_every_s`` seconds. None: ``phone_url`` stays.

    Raises:
        ValueError: no mode can start from the arguments (no dice reader or session without a flow, a setup
            or an enrollment).
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
        no_screen: bool = False,
        pump_screen: Callable[[], None] | None = None,
        phone_url: str = "",
        stop_at_end: bool = False,
        command: str = "run",
        reconnect_s: float = 2.0,
        live_publish_s: float = 1.0,
        live_render_s: float = 0.1,
        on_read: Callable[[int, DiceRead], None] | None = None,
        flow: GameFlow | None = None,
        on_announce: Callable[[str], None] | None = None,
        camera_flow: Any = None,
        setup: Any = None,
        make_camera: Callable[[GameFlow], Any] | None = None,
        enrollment: Any = None,
        on_change: Callable[[], None] | None = None,
        read_executor: Executor | None = None,
        watchdog: Callable[[], None] | None = None,
        library: Any = None,
        box_settings: Any = None,
        health: Any = None,
        refresh_url: Callable[[], str] | None = None,
        url_every_s: float = 5.0,
        camera_health: CameraHealthConfig | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.source = source
        self.reader = reader
        self.hub = hub
        self.stillness = stillness
        self.screen = screen
        self.no_screen = no_screen
        self.pump_screen = pump_screen
        self.phone_url = phone_url
        self.stop_at_end = stop_at_end
        self.command = command
        self.reconnect_s = reconnect_s
        self.live_publish_s = live_publish_s
        self.live_render_s = live_render_s
        self.on_read = on_read
        self.on_announce = on_announce
        self.on_change = on_change
        self.read_executor = read_executor
        self.watchdog = watchdog
        self.clock = clock
        self.sleep = sleep
        self._changed_key: str | None = None
        self._announced: set[str] = set()
        self.stats = LoopStats()
        self.camera = CAMERA_OK
        self.camera_message: str = ""
        """What the camera's watch last said of it ("USB camera: no picture for 3 s ..."), kept apart from
        :attr:`message`, which the next action's answer replaces; "" until the camera's state first changes."""
        self.reader_state = READER_WATCHING
        self.message = Text("watching {source}", source=Text(source.label))
        self.last_dice: list[dict[str, Any]] = []
        self.last_frame: Frame | None = None
        self.display: np.ndarray | None = None
        self.read_requested = False
        """A view asked to read the table now (``read_now``): the next frame is read as a still one."""
        self.read_by_player = False
        """The frame the mode is given now is read because a view asked (``read_now``), not because the table
        became still: the mode reads it (a game's camera whole, the d6 dice where the table changed since their last
        read) and the stillness detector counts later changes from it."""
        self._light_held = False  # the camera's exposure and white balance are held (the table is still)
        self._stop = False
        self._watch = CameraWatch(source, camera_health, reconnect_s=reconnect_s, clock=clock)
        self._published_at = float("-inf")
        self._rendered_at = float("-inf")
        self._faults = 0  # unexpected exceptions in a row (a loop pass that keeps failing slows down)
        self.library = library
        self.box_settings = box_settings
        self.health = health
        self.refresh_url = refresh_url
        self.url_every_s = url_every_s
        self._url_at = float("-inf")
        self._health_seen: Any = None
        self.pairing: PairingBook | None = None
        self.switchboard = Switchboard(self)
        """The box's own actions: moving between modes and games, settings, owner phones."""
        self.mode: Mode = self._first_mode(reader, session, flow, camera_flow, setup, make_camera, enrollment)
        """The mode the loop runs now (:attr:`companion.modes.Mode.name` names it)."""
        self.storage = StorageHealth(self.store, clock=clock)
        self.storage.start()
        if self.storage.ok and self.store is not None:
            self.storage.probe()  # a full or failing card is said at start, not on the first tap
        self.pairing = PairingBook(self.store, self.game_id)
        if self.pairing.problem is not None:
            self.storage.failed(self.pairing.problem)
        self.hub.set_pairing(self.pairing.pairing())
        self.desk = Desk(self, self.storage)
        self.hub.set_recall(self.desk.first_answer)  # a retried tap gets its first answer before any view's check
        if not self.storage.ok or self.storage.low:
            self.message = self.storage.message
        self.mode.enter()
        self.advance()
        self.switchboard.resume_asking()  # a phone's question the table had not answered when the box stopped
        self._keep_place()
        self.publish_owner_view()

    def _first_mode(self, reader: DiceReader | None, session: Session | None, flow: GameFlow | None, camera_flow: Any,
                    setup: Any, make_camera: Callable[[GameFlow], Any] | None, enrollment: Any) -> Mode:
        if enrollment is not None:
            return EnrollMode(self, enrollment)
        if setup is not None:
            return SetupMode(self, setup, make_camera)
        if flow is not None:
            return PlayMode(self, flow, camera_flow)
        if reader is None and session is None and self.library is not None:
            return self.library.resumed(self) or ChooseMode(self)  # where the box was, else the chooser
        if reader is None:
            raise ValueError("MainLoop needs a dice reader unless it runs a game flow")
        if session is None:
            raise ValueError("MainLoop needs a session unless it starts with a game's setup")
        return DiceMode(self, reader, session)

    def advance(self) -> None:
        """Move into the mode the current one names next, as long as one is named; keep where the box is."""
        for _turn in range(4):  # a mode names the next at once at most a few times (setup -> check -> play -> scores)
            following = self.mode.next()
            if following is None:
                break
            log.info("mode: %s -> %s", self.mode.name.value, following.name.value)
            self.mode = following
            following.enter()
        if self.pairing is not None:
            self._keep_place()

    def _keep_place(self) -> None:
        """Keep where the box is for its next start; a storage that refuses is said by the storage health."""
        from companion.errors import StorageError

        try:
            self.switchboard.keep_place()
        except StorageError as exc:  # the game goes on; a restart then starts on the chooser
            log.warning("where the box is was not kept: %s", exc)

    # -- what the other parts read of the current mode -------------------------------------------------------
    @property
    def mode_name(self) -> ModeName:
        """The current mode's name."""
        return self.mode.name

    @property
    def session(self) -> Session | None:
        """The session being recorded (the d6 session, the game's), or None while a game is set up."""
        return self.mode.session if isinstance(self.mode, SessionMode) else None

    @property
    def flow(self) -> GameFlow | None:
        """The game's flow while it is played (or scored), else None."""
        return self.mode.flow if isinstance(self.mode, PlayMode) else None

    @property
    def camera_flow(self) -> Any:
        """The game's camera part while it is played, or None."""
        return self.mode.camera if isinstance(self.mode, PlayMode) else None

    @camera_flow.setter
    def camera_flow(self, camera: Any) -> None:
        if not isinstance(self.mode, PlayMode):
            raise ValueError(f"no game is played in the {self.mode.name.value} mode: it has no camera part")
        self.mode.camera = camera

    @property
    def setup(self) -> Any:
        """The setup step while a game is set up, else None."""
        return self.mode.setup if isinstance(self.mode, SetupMode) else None

    # -- the loop -----------------------------------------------------------------------------
    def run(self, max_frames: int | None = None) -> LoopStats:
        """Run until a ``quit`` action, the end of a replay with ``stop_at_end``, the end of the mode's work
        (the enrollment's walk) or ``max_frames`` frames.

        A lost, stalled, covered or frozen camera is shown on both views and the game goes on (a
        lost one is reopened every ``reconnect_s`` seconds); everything recorded stays in the session log.
        An unexpected exception in one pass (an action, a frame's processing, a view) is logged with its
        traceback and shown as the status message; the loop turns on (only Ctrl-C, :meth:`stop` /
        SIGTERM, ``quit`` or the end of a replay stop it). A Ctrl-C that surfaces as another exception (its
        ``KeyboardInterrupt`` the context) stops it too.
        """
        self._safely(N_("publishing the view"), self.publish)
        try:
            while not self._stop and not self.mode.done:
                if max_frames is not None and self.stats.frames >= max_frames:
                    break
                try:
                    self.step()
                except Exception as exc:  # a pass that failed: said, and the next pass goes on
                    let_through(exc)
                    self._fault(N_("one pass of the main loop"), exc)
            self._safely(N_("the last camera read"), self.mode.finish)
        finally:
            self.close()
        return self.stats

    def close(self) -> None:
        """Close the camera and end the thread that reads it (:meth:`device.health.CameraWatch.close`): :meth:`run`
        does when it ends; a caller that steps the loop itself (:meth:`step`) does when done with it. A later step
        opens the camera again."""
        self._watch.close()

    def stop(self) -> None:
        """Ask the loop to stop after the current step (safe from a signal handler)."""
        self._stop = True

    def step(self) -> None:
        """One pass: take actions, read one frame, let the mode take it (a still table is read), publish."""
        if self.watchdog is not None:
            self.watchdog()
        if self.pump_screen is not None:
            self._safely(N_("the touchscreen"), self.pump_screen)
        changed = self.take_actions()
        if self._safely(N_("checking the storage"), self._storage_tick):
            changed = True
        if self._stop or self.mode.done:
            return
        frame = self._next_frame()
        if frame is None:
            if changed:
                self._safely(N_("publishing the view"), self.publish)
            return
        self.stats.frames += 1
        self.last_frame = frame
        if self._safely(N_("reading the picture"), self._process, frame, changed) is not None:
            self._faults = 0

    def _process(self, frame: Frame, changed: bool) -> bool:
        """A new frame: stillness, the mode's read of a still table, the live picture; publish."""
        self.stillness.update(frame.image, frame.timestamp)
        self._hold_light(self.stillness.state)
        self.read_by_player = self.read_requested
        asked, self.read_requested = self.stillness.became_still or self.read_requested, False
        if self.mode.on_frame(frame, asked):
            self.advance()
            return True
        moving = self.stillness.state is MotionState.MOVING
        if moving and self.reader_state != READER_WATCHING:
            self.reader_state = READER_WATCHING
            changed = True
        if self.reader_state == READER_WATCHING:
            self.display = self.mode.picture(frame)  # live picture until the next read is annotated
        now = self.clock()
        if changed or now - self._published_at >= self.live_publish_s:
            self.publish()
        elif self.screen is not None and now - self._rendered_at >= self.live_render_s:
            self._render(self.hub.snapshot())
        return True

    def _hold_light(self, state: MotionState) -> None:
        """Hold the camera's exposure and white balance while the table is still, let them go when it moves
        (``CameraSource.hold_light``, on the camera's thread): a still table's light never changes on its own."""
        hold = state is MotionState.STILL
        if hold is not self._light_held and state is not MotionState.SETTLING:
            self._light_held = hold
            self._watch.control(self.source.hold_light, hold)

    def _storage_tick(self) -> bool:
        """The storage probe and free-space check (a secret made while writing failed is written once it works);
        the phone view's address (a network that came up after the start); the health checks' results."""
        changed = self._look_around()
        failing = not self.storage.ok
        stored = self.storage.tick()
        if self.storage.ok and self.pairing.unsaved and self.pairing.save():
            self.hub.set_pairing(self.pairing.pairing())
        if failing and self.storage.ok:  # the probe wrote: said once, in place of the banner
            self.message = self.storage.message or Text("storage works again: everything from now on is saved")
        elif stored and self.storage.ok and self.storage.message:  # free space ran low (or the like): said
            self.message = self.storage.message
        return stored or changed

    def _look_around(self) -> bool:
        """The phone view's URL every ``url_every_s`` (no network at start: "no network" until an address comes),
        and whether the health checks changed; True when the views must be published."""
        changed = False
        now = self.clock()
        if self.refresh_url is not None and now - self._url_at >= self.url_every_s:
            self._url_at = now
            url = self.refresh_url()
            if url and url != self.phone_url:
                log.info("phone view now at %s", url)
                self.phone_url = url
                changed = True
        if self.health is not None:
            seen = self.health.version
            if seen != self._health_seen:
                self._health_seen = seen
                self.publish_owner_view()
                changed = True
        return changed

    def photo(self) -> str | None:
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
            self.camera, self.message = self._watch.status.value, text_of(*self._watch.said)
            self.camera_message = self.message
            self.mode.on_camera(self.camera, self.message)
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
                    outcome = Outcome.refused(
                        FAULT,
                        Text(
                            "the box could not do {action}: unexpected {error}; nothing was recorded",
                            action=action_word(action.get('action')),
                            error=type(exc).__name__,
                        ),
                    )
                answered.append((action, outcome))
            if answered:
                self._safely(N_("publishing the view"), self.publish)
        finally:
            for action, outcome in answered:
                reply = action.get("reply")
                if reply is not None and not reply.done():
                    reply.set_result(outcome.to_json())
        return False

    def dispatch(self, action: Mapping[str, Any]) -> Outcome:
        """Carry out one action (a dict as :meth:`companion.hub.StateHub.post_action` queues it:
        ``{"action": name, "origin", **payload}``) through the :class:`companion.desk.Desk` in the current
        mode: checked, allowed, applied once, written; never raises ``Exception``. Sets the status message (not for
        what is meant for the posting phone only: :data:`TO_THE_PHONE`, :data:`REFUSED_TO_THE_PHONE`,
        :data:`NOTHING_DONE_TO_THE_PHONE`);
        does not publish (:meth:`take_actions` does, before answering). A player named in any case (a phone's
        ``"ann"``) is passed on as the table spells them (:data:`NAMES_A_PLAYER`)."""
        self.stats.actions += 1
        name, origin = action.get("action"), action.get("origin", "cli")
        if isinstance(name, str) and name in NAMES_A_PLAYER and "player" in action:  # the desk checks seats by it
            action = {**action, "player": named_player(action["player"], self.mode.names)}
        in_record = isinstance(self.mode, SessionMode)  # a setup's events are not the game's record
        outcome = self.desk.handle(action)
        if in_record and outcome.error is None:
            self.stats.recorded(self.session, len(outcome.events), camera=False)
        to_the_phone = (name in TO_THE_PHONE or outcome.status in REFUSED_TO_THE_PHONE
                        or (name in NOTHING_DONE_TO_THE_PHONE and not outcome.wrote))
        if origin != "phone" or not to_the_phone:
            self.message = outcome.error or outcome.message or self.message
        elif name == Action.CLAIM_SEAT and outcome.error is None and _offers_seat(self.message, action.get("player")):
            self.message = Text("{player}'s seat is taken by a phone", player=action.get("player"))
        if outcome.status == STORAGE:
            self.message = self.storage.message or self.message
        said = outcome.detail or outcome.error or outcome.message or self.message
        if outcome.error is None:
            log.info("%s (%s): %s", name, origin, said)
        else:
            log.warning("%s", _("{action} ({origin}) refused ({status}): {problem}").format(  # the owner reads it
                action=name, origin=origin, status=outcome.status, problem=say(said)))
        self.hub.set_pairing(self.pairing.pairing())
        return outcome

    # -- views --------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The published view dict (shape in ``docs/contracts.md``): the current mode's, with ``"mode"`` (its
        name) and ``"box"``: ``{"games": bool (the chooser is here), "settings": bool (the settings screen is here),
        "back": bool (Back returns somewhere), "asking": null | {"phone", "question"?} (a phone waits for the
        touchscreen's answer: the owner page, or what it was refused), "health": null | {"level", "key", "message",
        "problems"}, "screen": bool (False: the box has no touchscreen, ``--no-screen``: a joined phone undoes for the
        table), "command": "run" | "demo" (the command the box runs as)}``."""
        view = self.mode.view()
        view["mode"] = self.mode.name.value
        view["box"] = {"games": self.library is not None, "settings": self.box_settings is not None,
                       "back": bool(self.switchboard.trail), "asking": self.switchboard.asking_view(),
                       "health": self._health_summary(), "screen": not self.no_screen,
                       "command": self.command}
        return view

    def behind(self) -> str | None:
        """The title of the game behind the chooser, the history or the settings (:meth:`Switchboard.behind`)."""
        return self.switchboard.behind()

    def _health_summary(self) -> dict[str, Any] | None:
        """The worst of the health checks for the status line: ``{"level", "message", "problems"}`` or None."""
        if self.health is None:
            return None
        return self.health.summary(skip=self.mode.unneeded_checks)

    def publish_owner_view(self) -> None:
        """Publish what owner phones read: the health checks and the settings (:meth:`StateHub.set_owner_view`)."""
        self.hub.set_owner_view({
            "health": None if self.health is None else self.health.checks(),
            "settings": None if self.box_settings is None else self.box_settings.view(),
        })

    def status(self) -> dict[str, Any]:
        """The view's status block: ``{"camera", "reader", "message"}``."""
        return {"camera": self.camera, "reader": self.reader_state, "message": self.message}

    def envelope(self, session: Any, game: dict[str, Any], findings: list[dict[str, Any]],
                 dice: list[dict[str, Any]]) -> dict[str, Any]:
        """The view of a mode that records a session: ``{"session", "status", "game", "dice", "frame",
        "findings", "phone_url", "storage"}``."""
        frame = self.last_frame
        return {
            "session": {
                "id": session.id,
                "game": session.game.name,
                "started_at": getattr(session, "started_at", None),
                "source": Text(self.source.label),  # its kind: players never see its folder
                "events": session.last_seq,
            },
            "status": self.status(),
            "game": game,
            "dice": dice,
            "frame": None if frame is None else {"width": frame.width, "height": frame.height, "index": frame.index},
            "findings": findings,
            "phone_url": self.phone_url,
            "storage": self.storage.view(),
        }

    def with_claims(self, game: dict[str, Any]) -> dict[str, Any]:
        """The game view with ``"claimed": bool`` on each player (never the phone's id or the secret)."""
        claims = self.pairing.claims
        players = [{**p, "claimed": p.get("name") in claims} for p in game.get("players") or []]
        return {**game, "players": players}

    def publish(self, picture: bool = True) -> None:
        """Publish the current view and picture (JPEG for the phone) and redraw the touchscreen.

        The picture is the annotated frame of the latest read while the dice lie still, the
        live frame while they move. ``picture`` False: the view only, at once (the picture the phones have stays, the
        touchscreen is redrawn by the publish that follows): a new roll reaches the phones before its picture is
        drawn and encoded.
        """
        jpeg = None
        if picture and self.display is not None:
            ok, buf = cv2.imencode(".jpg", self.display, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            jpeg = buf.tobytes() if ok else None
        self.hub.set_pictures(getattr(self.mode, "pictures", dict)())   # what the view's questions name
        snapshot = self.hub.publish(self.view(), jpeg)
        self._published_at = self.clock()
        if not picture:
            return
        self._render(snapshot)
        self._announce(snapshot.view.get("game") or {})
        if self.on_change is not None:
            key = json.dumps([self.mode.change_key(snapshot.view), asking_key(snapshot.view)], sort_keys=True,
                             default=str)
            if key != self._changed_key:
                self._changed_key = key
                self.on_change()

    def _announce(self, game: dict[str, Any]) -> None:
        """Call ``on_announce`` once per game for the last round and once for the game's end."""
        if not isinstance(self.mode, PlayMode):
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
        self.screen.render(ScreenSnapshot(view=snapshot.view, frame=self.display, version=snapshot.version,
                                          pictures=snapshot.pictures))
        self._rendered_at = self.clock()


def asking_key(view: dict[str, Any]) -> Any:
    """What tells one question the touchscreen puts to the table from another, for ``on_change``
    (``view["box"]["asking"]``): the phone that asks and what it asks, by the message's words and the seat it names;
    None when nothing is asked. The seconds said in a seat question ("heard from 12 s ago") are left out: the question
    is said again at every publish while it is asked, and it is the same question."""
    asking = (view.get("box") or {}).get("asking")
    if not asking:
        return None
    question = asking.get("question")
    return [str(asking.get("phone")), getattr(question, "template", question),
            str((getattr(question, "params", None) or {}).get("player"))]


def _offers_seat(message: Any, player: Any) -> bool:
    """Whether the status line ``message`` still offers ``player``'s seat as free (:data:`SEAT_FREE`): a phone that
    has just taken it makes that line untrue for everyone."""
    return getattr(message, "template", None) == SEAT_FREE and getattr(message, "params", {}).get("player") == player
