"""The d6 mode: a still table that changed is read and recorded as a ``dice_read`` event (``companion run`` without
``--game``), once per roll (:mod:`companion.reading`): only the changed part of the tray is read again, a die whose
value the settled frames disagree on is unreadable, a read equal to the previous record is "same as before", and a
hand or anything that is not a die over the tray waits until it is gone."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from companion.action_words import action_word
from companion.actions import Action, Posted
from companion.errors import StorageError
from companion.flow_actions import Outcome
from companion.i18n import Text, message_of, plural
from companion.modes.base import ModeName, SessionMode
from companion.reading import (
    ReadRules,
    dice_read_of,
    resume_seen,
    same_dice,
    seen_of,
    sighting_reader,
    steady_dice,
    sure_dice,
    unexplained_changes,
)
from companion.records import load_seen, save_seen
from companion.timestamps import shown, usable
from device import Frame
from rules import RulesError
from rules.d6 import DICE_READ
from vision import DiceRead, DieObservation, annotate
from vision.incremental import read_changes
from vision.motion import MotionState

if TYPE_CHECKING:
    from companion.app import MainLoop

__all__ = ["DiceMode", "DiceReader", "dice_read_payload", "reading_order"]

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]


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


def dice_read_payload(read: DiceRead, frame: Frame, image: str | None = None,
                      image_sha256: str | None = None) -> dict[str, Any]:
    """The ``dice_read`` event payload for a read: what the rules need plus what the camera saw.

    ``{"values": [1-6 | None, ...], "dice": [DieObservation.to_json(), ...], "image": the photo's
    path for a replay (``image``) or else ``frame.source``, "frame": frame.index, "width": W, "height": H}``, and
    ``"image_sha256"``: the replayed photo's bytes' SHA-256 (hex) when given (:func:`photo_digest`).
    Dice are in reading order (top to bottom, left to right) so the values list matches what players see.
    """
    dice = reading_order(read.dice)
    payload = {
        "values": [d.value for d in dice],
        "dice": [d.to_json() for d in dice],
        "image": image or frame.source,
        "frame": frame.index,
        "width": read.width,
        "height": read.height,
    }
    if image_sha256:
        payload["image_sha256"] = image_sha256
    return payload


def photo_digest(photo: str) -> str | None:
    """The SHA-256 (hex) of a replayed photo's bytes: its identity, the same in a fresh clone or another folder
    (a path and a modification time are not); None when it cannot be read (gone since it was shown)."""
    digest = hashlib.sha256()
    try:
        with open(photo, "rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


class DiceMode(SessionMode):
    """Read the d6 dice whenever the table becomes still after a change (or a view asks), record each new roll, Undo.

    Args:
        loop: the loop.
        reader: the dice reader (``vision.D6Reader``: only the changed part of the tray is read again; any other
            object whose ``read(frame)`` gives a :class:`vision.DiceRead`: every read a full one).
        session: the d6 session the reads are recorded in.
        rules: when two reads are the same roll, a value is sure, a change is not a die.
    """

    name = ModeName.DICE
    unneeded_checks = frozenset({"calibration"})  # dice are read wherever they lie: no table calibration needed

    def __init__(self, loop: MainLoop, reader: DiceReader, session: Any, rules: ReadRules | None = None) -> None:
        super().__init__(loop, session)
        self.reader = reader
        self.rules = rules or ReadRules()
        self.sight = sighting_reader(reader)
        self.previous: Any = None
        """The :class:`vision.Sighting` of the last read (the frame the stillness detector counts changes from)."""
        self._settled: Frame | None = None  # the frame before, while the table is quiet (a second look at values)
        self._looks: list[_Look] = []  # the reads of the first two quiet frames after a change, made while it settles
        self._looking = threading.Lock()  # guards _looks: the second look is added on the worker when the first ends
        self._worker: ThreadPoolExecutor | None = None  # runs every read of this mode, one at a time
        self._said: dict[tuple[str, int], None] = {}  # (why a read was not recorded, last event): logged once each
        self._said_timeless: set[int] = set()  # rolls of a replayed photo with no valid time, logged once each

    def enter(self) -> None:
        """Resume from the session's last read when the box kept it (:func:`companion.reading.resume_seen`): after a
        restart the same table is not read (nor recorded) again, a changed one is read where it changed."""
        try:
            seen = load_seen(self.session.store, self.session.id)
        except StorageError as exc:  # nothing to resume from: the next still table is read whole
            log.warning("what the camera saw at the last read is not known: %s", exc)
            return
        reads = [e.seq for e in self.session.events() if e.kind == DICE_READ]
        newest = reads[-1] if reads else 0
        resumed = resume_seen(seen, self.loop.stillness, newest, getattr(self.sight, "name", "d6"))
        if resumed is None and isinstance(seen, dict) and seen.get("events") == self.session.last_seq:
            log.warning("what the camera saw at the last read does not decode: the next still table is read whole")
        if resumed is not None:
            self.previous = resumed
            self.loop.last_dice = [d.to_json() for d in resumed.dice]
            log.info("resumed from the read after event %s: %d dice", seen.get("events"), len(resumed.dice))

    def _keep_seen(self) -> None:
        """Keep what the camera saw at this read for a restart (a storage that refuses only loses that)."""
        seen = seen_of(self.loop.stillness, self.previous, self.session.last_seq)
        if seen is None:
            return
        try:
            save_seen(self.session.store, self.session.id, seen)
        except StorageError as exc:
            log.warning("what the camera saw was not kept: %s", exc)

    def handle(self, act: Posted) -> Outcome | None:
        """Read now, Undo; the game flow's actions and camera answers are said to need a game flow."""
        what = act.action
        if what is Action.READ_NOW:
            self.loop.read_requested = True
            return Outcome([], Text("reading now"))
        if what is Action.UNDO:
            return undo(self.session, act.origin)
        if what in (Action.CAMERA_CONFIRM, Action.CAMERA_DISMISS):
            return Outcome([], "", Text("the camera asks no questions here: it reads the dice and records each roll by "
                                        "itself"), detail=NO_CAMERA_QUESTIONS)
        if what in (Action.NEXT_PHASE, Action.REPORT, Action.UNDO_REPORT):
            from companion.flows import run_hint

            return Outcome([], "", Text("{action} needs a game flow ({hint})", action=action_word(what),
                                        hint=run_hint(self.loop.command)))
        return None

    def on_frame(self, frame: Frame, asked: bool) -> bool:
        """Read the dice when the table became still or a view asked. While the table settles after a change (or
        before the first read), its first quiet frame is read already, on the mode's worker, where it changed, and the
        dice found new there are looked at again on a later quiet frame: the stillness detector turns STILL only when
        nothing moved since the first, so when it does, those two reads are the read of the still table and the second
        look at its values, ready or nearly (no read of the still frame on the way to the phones)."""
        if asked:
            self.record_read(frame, by_player=self.loop.read_by_player)
            self._settled = frame
            self._drop_looks()
            return True
        stillness = self.loop.stillness
        if stillness.state is MotionState.MOVING:
            self._settled = None
            self._drop_looks()
            return False
        self._settled = frame
        if stillness.state is not MotionState.SETTLING or stillness.reaching:
            return False
        with self._looking:
            first = self._looks[0] if self._looks else None
        if first is None:
            boxes = stillness.change_boxes()
            if boxes != []:  # a change since the last read (None: no read yet, the whole table)
                previous = self._previous_for(frame)
                boxes = _with_unreadable(boxes, previous)
                first = _Look(frame, boxes, previous, self._run(read_changes, self.sight, frame.image, previous, boxes))
                with self._looking:
                    self._looks = [first]
                # the second look starts as soon as the first ends, on the newest quiet frame by then
                first.future.add_done_callback(lambda _f, first=first: self._look_again(first, self._settled))
        elif first.future.done():
            self._look_again(first, frame)
        return False

    def _look_again(self, first: _Look, frame: Frame | None) -> None:
        """Start the second look, on ``frame`` (a quiet frame after ``first``'s), at the dice the first look (finished)
        found new: windows around them read again from its sighting. Nothing when it is made already, the table moved
        since (``first`` is no longer the look under way), the first failed or found no new die. Called on the loop's
        thread or the worker's."""
        if self._worker is None or frame is None or frame is first.frame \
                or frame.image.shape != first.frame.image.shape:
            return
        with self._looking:
            if len(self._looks) != 1 or self._looks[0] is not first:
                return
            try:
                sighting = first.future.result()
            except Exception:  # the first look failed (or was cancelled): the still frame is read
                return
            kept = {id(d) for d in (first.previous.dice if first.previous is not None else ())}
            boxes = [tuple(int(v) for v in d.box) for d in sighting.dice if id(d) not in kept]
            if not boxes:
                return
            try:
                future = self._run(read_changes, self.sight, frame.image, sighting, boxes)
            except RuntimeError:  # the worker was shut down (the loop stops)
                return
            self._looks.append(_Look(frame, boxes, sighting, future))

    def _previous_for(self, frame: Frame) -> Any:
        """The last read's sighting when it was of a frame of ``frame``'s size, else None (everything is read)."""
        previous = self.previous
        if previous is not None and tuple(previous.frame_size) != (frame.width, frame.height):
            return None
        return previous

    def _drop_looks(self) -> None:
        """Forget the looks at the quiet frames (the table moved, or it was read): those not started are cancelled."""
        with self._looking:
            looks, self._looks = self._looks, []
        for look in looks:
            look.future.cancel()

    def _settled_looks(self, frame: Frame, boxes: list[tuple[int, int, int, int]] | None,
                       previous: Any) -> tuple[Any, Any] | None:
        """(the read, the second look or None) of the table that became still in ``frame``, from the looks while it
        settled: when the first was read from ``previous`` where ``boxes`` (the changes at the still frame) lie, to
        within two of the stillness detector's pixels; the second look is made on ``frame`` when it was not yet made.
        None (read ``frame``): no such look, it failed, or the change grew since."""
        with self._looking:
            first = self._looks[0] if self._looks else None
        if first is None or first.previous is not previous or first.frame.image.shape != frame.image.shape:
            return None
        if first.boxes is not None:
            if boxes is None:
                return None
            slack = 2.0 * frame.width / max(1, self.loop.stillness.config.work_width)
            if not all(any(_within(b, f, slack) for f in first.boxes) for b in boxes):
                return None
        try:
            sighting = first.future.result()
            self._look_again(first, frame)  # when not made yet: on the still frame
            with self._looking:
                second = self._looks[1] if len(self._looks) > 1 and self._looks[0] is first else None
            return sighting, None if second is None else second.future.result()
        except Exception:  # a look failed: the still frame is read instead
            log.warning("a look at the settling dice failed", exc_info=True)
            return None

    def _run(self, work: Callable[..., Any], *args: Any) -> Future:
        """``work(*args)`` on the mode's worker: the read of the still frame beside the early look still running on
        ONNX Runtime; one at a time on OpenCV's DNN module (not thread-safe) or an unknown reader."""
        if self._worker is None:  # two at once where the runtime allows it (ONNX Runtime sessions are thread-safe)
            both = getattr(getattr(self.sight, "reader", None), "runtime", None) == "onnxruntime"
            self._worker = ThreadPoolExecutor(max_workers=2 if both else 1, thread_name_prefix="dice-read")
        return self._worker.submit(work, *args)

    def finish(self) -> None:
        """The loop stops: the mode's worker ends (a read under way finishes first)."""
        if self._worker is not None:
            self._worker.shutdown(wait=True, cancel_futures=True)
            self._worker = None

    def record_read(self, frame: Frame, by_player: bool = False) -> int:
        """Read the dice in ``frame`` and append a ``dice_read`` event when they are a new roll; publish.

        The stillness detector's change boxes since the last read choose what is read again, also for a read a player
        asked for (later changes count from it): where the table did not change, the dice stay as read, so a tap on
        dice that did not move is "same as before" whatever the reader's noise (it reads everything when there was no
        read before; after an Undo the dice are compared with the roll now in force). The dice read again are read
        on an earlier quiet frame too (the one read while the table settled, else the frame before): a value the two
        frames disagree on is unreadable; a value below :attr:`companion.reading.ReadRules.value_confidence` is
        unreadable. Not recorded, said on both views: the same
        dice at the same places as the last roll in force ("same as before"), a photo of a replay already recorded,
        a change no die explains (only for a read the table's stillness asked for).

        Returns:
            The event's seq, or 0 when nothing was recorded (the status message says why).
        """
        loop = self.loop
        started = time.perf_counter()
        boxes = loop.stillness.change_boxes()
        previous = self._previous_for(frame)
        read_boxes = _with_unreadable(boxes, previous)
        looked = None if by_player else self._settled_looks(frame, boxes, previous)
        if looked is not None:
            sighting, again = looked
        else:
            sighting, again = self._run(read_changes, self.sight, frame.image, previous, read_boxes).result(), None
        kept = {id(d) for d in (previous.dice if previous is not None else ())}
        fresh = [d for d in sighting.dice if id(d) not in kept]
        dice = tuple(sighting.dice)
        with self._looking:
            first = self._looks[0] if self._looks else None
        if fresh and again is None and looked is None and first is not None and first.previous is previous \
                and first.frame.image.shape == frame.image.shape:
            try:
                again = first.future.result()
            except Exception:  # the look failed: the frame before is looked at instead
                log.warning("a look at the settling dice failed", exc_info=True)
        earlier = self._settled
        if fresh and again is None and earlier is not None and earlier is not frame \
                and earlier.image.shape == frame.image.shape:
            again = self._run(read_changes, self.sight, earlier.image, previous, read_boxes).result()
        if again is not None:
            dice = steady_dice(dice, again.dice, fresh, self.rules)
        dice = tuple(sorted(sure_dice(dice, self.rules), key=lambda d: -d.confidence))
        self.previous = dataclasses.replace(sighting, dice=dice)
        if by_player:
            loop.stillness.mark_read()
        loop.stats.read_ms.append((time.perf_counter() - started) * 1000.0)
        read = dice_read_of(sighting, dice)
        loop.last_dice = [d.to_json() for d in dice]
        loop.reader_state = "read"
        photo = loop.photo()
        digest = photo_digest(photo) if photo is not None else None
        payload = dice_read_payload(read, frame, photo, digest)
        values = " ".join("?" if v is None else str(v) for v in payload["values"])
        before = previous.dice if previous is not None else ()
        objects = [] if by_player else unexplained_changes(boxes, dice, before, (frame.width, frame.height), self.rules)
        last = self._last_read()
        if objects:
            loop.message = Text("something that is not a die is in the tray: the dice are read once it is gone")
        elif photo is not None and self._recorded(photo, digest):
            loop.message = Text("{photo}: already recorded in this session", photo=os.path.basename(photo))
        elif last is not None and (last.get("width"), last.get("height")) == (read.width, read.height) \
                and same_dice(read.dice, last.get("dice") or [], self.rules, boxes):
            loop.message = Text("same as before: {values}", values=values)
            self._keep_seen()
        else:
            seq = self._record(payload, read, frame)
            if seq:
                self._keep_seen()
            return seq
        self._log_not_recorded(str(loop.message))
        loop.display = annotate(frame.image, read)
        loop.publish()
        return 0

    SAID_AT_MOST = 256
    """How many reads not recorded :meth:`_log_not_recorded` remembers having logged (the oldest is forgotten)."""

    def _log_not_recorded(self, why: str) -> None:
        """Log ``not recorded: WHY`` once per distinct read: the same reason (the same photo already recorded, the same
        dice "same as before") while the session's events stay as they were is logged at INFO the first time and
        at DEBUG after (a looping demo said each photo every 4 s); a new event (a roll, an Undo) makes it new."""
        try:
            key = (why, self.session.last_seq)
        except StorageError:  # the file cannot be read now: said, as before
            log.info("not recorded: %s", why)
            return
        if key in self._said:
            log.debug("not recorded: %s", why)
            return
        self._said[key] = None
        while len(self._said) > self.SAID_AT_MOST:
            del self._said[next(iter(self._said))]
        log.info("not recorded: %s", why)

    def _record(self, payload: dict[str, Any], read: DiceRead, frame: Frame) -> int:
        loop = self.loop
        try:
            event = self.session.append(DICE_READ, payload, origin="camera", at=time.time())
        except RulesError as exc:  # a reader bug must not stop the table; nothing recorded is lost
            loop.message = Text("read not recorded: {problem}", problem=message_of(exc))
            log.error(loop.message)
            loop.display = annotate(frame.image, read)
            loop.publish()
            return 0
        except StorageError as exc:  # the read is dropped; both views say why until writing works again
            loop.message = Text("read not saved: {problem}", problem=loop.storage.failed(exc))
            log.error("dice read not saved: %s", exc)
            loop.display = annotate(frame.image, read)
            loop.publish()
            return 0
        loop.storage.succeeded()
        loop.stats.recorded(self.session, 1, camera=True)
        values = payload["values"]  # reading order, as recorded
        loop.message = plural("read {n} die: {values}", "read {n} dice: {values}", len(values),
                              values=" ".join("?" if v is None else str(v) for v in values))
        log.info("event %d: %s", event.seq, loop.message)
        loop.publish(picture=False)  # the roll reaches the phones at once; its picture follows
        loop.display = annotate(frame.image, read)
        loop.publish()
        if loop.on_read is not None:
            loop.on_read(event.seq, read)
        return event.seq

    def _in_force(self) -> list[Any]:
        """The session's ``dice_read`` events not undone, oldest first."""
        undone = set(self.session.replay().undone)
        return [e for e in self.session.events() if e.kind == DICE_READ and e.seq not in undone]

    def _last_read(self) -> dict[str, Any] | None:
        """The payload of the newest roll in force (also after a restart: the session's), or None."""
        reads = self._in_force()
        return dict(reads[-1].payload) if reads else None

    def _recorded(self, photo: str, digest: str | None = None) -> bool:
        """Whether the replayed ``photo`` (a path; ``digest``: its bytes' SHA-256) is already a roll of this session:
        a ``dice_read`` in force of the same bytes (``image_sha256``), whatever the photo's folder or modification
        time (a fresh clone, the demo run from another checkout, a restart); a roll recorded before photos carried
        their digest counts when its ``image`` is that path, recorded after the file was last changed. A replay
        that loops (the demo) or starts again on the same session then records each photo once; a photo replaced by
        other bytes, or a roll taken back with Undo, is recorded again. Such an older roll whose time is no time (a
        text, bytes, Infinity: a database changed by hand or damaged) counts by its path alone, logged once: the
        roll stays as recorded and the photo is not recorded a second time. Raises nothing."""
        try:
            changed = os.stat(photo).st_mtime
        except OSError:  # gone since it was read (a folder taken away): nothing to compare with, record it
            return False
        for event in self._in_force():
            kept = event.payload.get("image_sha256")
            if kept and digest:
                if kept == digest:
                    return True
            elif event.payload.get("image") == photo:
                at = usable(event.at)
                if at is None:
                    self._timeless(event)
                    return True
                if at >= changed:
                    return True
        return False

    def _timeless(self, event: Any) -> None:
        """Log once per event that a roll of a replayed photo has no usable time and counts by its photo's path."""
        if event.seq in self._said_timeless:
            return
        self._said_timeless.add(event.seq)
        log.warning("event %s (a roll of %s) has no valid time (%s): taken as that photo's roll by its path alone",
                    event.seq, os.path.basename(str(event.payload.get("image"))), shown(event.at))

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


@dataclasses.dataclass(frozen=True, eq=False)
class _Look:
    """A read of a quiet frame while the table settles: the frame, the change boxes it was read at (frame px; None:
    the whole frame), the sighting it was read from, and the read under way."""

    frame: Frame
    boxes: list[tuple[int, int, int, int]] | None
    previous: Any
    future: Future


def _with_unreadable(boxes: list[Box] | None, previous: Any) -> list[Box] | None:
    """The boxes to read again (frame px): the changes (``boxes``; None: everything) and, when anything is read
    again, the dice ``previous`` could not read (a value has another chance on each new frame; a die kept as
    unreadable would stay so until its place changed)."""
    if not boxes or previous is None:
        return boxes
    unread = [tuple(int(v) for v in d.box) for d in previous.dice if getattr(d, "value", 0) is None]
    return list(boxes) + [b for b in unread if b not in boxes]


def _within(box: tuple[int, int, int, int], outer: tuple[int, int, int, int], slack: float) -> bool:
    """Whether ``box`` lies inside ``outer`` grown by ``slack`` px on every side (boxes ``(x, y, w, h)`` px)."""
    x, y, w, h = box
    ox, oy, ow, oh = outer
    return ox - slack <= x and oy - slack <= y and x + w <= ox + ow + slack and y + h <= oy + oh + slack


NO_CAMERA_QUESTIONS = ("a camera answer, but no camera questions: the camera asks them in a game started with an "
                       "enrolled deck or dice profile (--deck, --dice-profile)")
"""What the box's log says (for the owner) when a phone answers a camera question and the camera asks none; the
players read a sentence without the command line."""


def undo(session: Any, origin: str, describe: Callable[[Any], str] | None = None,
         passing: Collection[str] = ()) -> Outcome:
    """The table's Undo: withdraw the newest event in force, passing by the kinds ``passing`` (a game's camera
    records, ``spec.camera_records``: a camera answer stays one tap away however many reads came after it); the
    message names it in the players' words (``describe(event)``: the game flow's; the d6 reads by default), never by
    its number."""
    undone = session.undo(origin=origin, passing=passing)
    if undone is None:
        return Outcome([], Text("nothing to undo"))
    withdrawn = next((e for e in session.events() if e.seq == undone.payload["seq"]), None)
    said = (describe or describe_read)(withdrawn) if withdrawn is not None else ""
    return Outcome([undone], Text("undone: {what}", what=said) if said else Text("undone"),
                   detail=f"event {undone.seq} withdraws event {undone.payload['seq']}")


def describe_read(event: Any) -> str:
    """A d6 event in the players' words: "the roll 6 6 4 ?" (a read) or "the corrected roll 3 5"."""
    values = " ".join("?" if v is None else str(v) for v in (event.payload.get("values") or []))
    if event.kind == DICE_READ:
        return Text("the roll {values}", values=values) if values else Text("an empty read")
    return Text("the corrected roll {values}", values=values)
