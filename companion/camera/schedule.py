"""When the camera reads and where: the reads of a still table scheduled while it stays still
(:meth:`CameraSchedule.schedule`, :meth:`CameraSchedule.due`), a read on this thread (:meth:`CameraSchedule.read`) or
on a worker (:meth:`CameraSchedule.begin` / :meth:`CameraSchedule.collect`), a read abandoned when stuck, failed, or
planned again when the game moved on while it ran. A part of :class:`companion.camera.CameraFlow`, which makes the
plan, sees and applies it (:meth:`~companion.camera.CameraFlow.plan`, ``see``,
:meth:`~companion.camera.CameraFlow.apply`)."""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from companion.camera.passes import Sight
from companion.i18n import Text, message_of
from rules import Event

__all__ = ["CameraSchedule"]

log = logging.getLogger("companion.camera.flow")


class CameraSchedule:
    """The camera's reads in time (mixed into :class:`companion.camera.CameraFlow`, which sets the state below in its
    ``__init__`` and makes, sees and applies a read's plan)."""

    flow: Any
    passes: tuple[Any, ...]
    counter: Any
    count_place: str | None
    count_seen: dict[str, list[dict[str, Any]]]
    confirm_reads: int
    read_timeout_s: float
    message: Any
    _clock: Callable[[], float]
    _pending: Future | None
    _began_at: float
    _stuck: Future | None
    _left: int
    _next_at: float
    _dice_done: bool
    _looked_seq: int
    _epoch: int
    _boxes: Any
    _asked: bool
    _first: bool
    _seen: dict[str, Any]

    # -- scheduling --------------------------------------------------------------------------
    def schedule(self, now: float, boxes: Any = None, asked: bool = False) -> None:
        """The table became still (or a view asked to read now): take ``confirm_reads`` reads from ``now``.

        Args:
            now: the loop's clock (s).
            boxes: frame-px boxes of what changed since the read before (the stillness detector's
                ``change_boxes()``; ``[]`` nothing), or None: read everything.
            asked: a player asked (Read now): a read that finds nothing new says "same as before".
        """
        if self.enabled:
            self._left, self._next_at = self.confirm_reads, now
            self._dice_done = False
            self._epoch += 1
            self._boxes, self._asked, self._first = boxes, asked, True

    def catch_up(self, now: float) -> None:
        """The table stays still and the game has come to want a dice pass this still table was read without (Roll:
        the set-up finished on the phones with the dice already on the phase strips; the count once the game is
        over): read it now as it stands (:meth:`schedule` with nothing changed: the cards read are kept, the dice read).
        Looked at only when the game's log has grown since the last look, so not every frame; nothing before the
        first still table, while reads are under way, or once this still table's dice pass has run.

        ``now``: the loop's clock (s)."""
        if not self.enabled or self._epoch == 0 or self._left > 0 or self._pending is not None or self._dice_done:
            return
        seq = self.flow.session.last_seq
        if seq == self._looked_seq:
            return
        self._looked_seq = seq
        ev = self.flow.engine_view()
        if any(self._wanted(p, ev) for p in self.passes):
            self.schedule(now, [])

    def count_again(self) -> None:
        """A view asked to read now (the "Count dice" button): when the count is done, start it over."""
        if self.counter is not None and self.count_place is None:
            self.count_place, self.count_seen = self.counter.places[0], {}

    def cancel(self) -> None:
        """The table moves: drop the reads still to take."""
        self._left = 0

    def due(self, now: float) -> bool:
        """Whether a read should be taken at ``now`` (seconds, the loop's clock); never while an abandoned read
        still runs on the worker (it would queue behind it)."""
        if self._stuck is not None:
            if not self._stuck.done():
                return False
            self._stuck = None  # it ended at last: its result is ignored; the table is read afresh
            self._left, self._next_at, self._dice_done = self.confirm_reads, now, False
            self._epoch += 1
            self._boxes, self._first, self._seen = None, True, {}
            self.message = Text("the camera reads again (the stuck read ended; what it saw was left out)")
            log.info(self.message)
        return self._left > 0 and now >= self._next_at

    @property
    def stuck(self) -> bool:
        """Whether an abandoned read still runs on the worker."""
        return self._stuck is not None and not self._stuck.done()

    # -- reading -----------------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        """Whether a read started with :meth:`begin` has not been collected yet."""
        return self._pending is not None

    def read(self, frame: Any, now: float, photo: str | None = None) -> list[Event]:
        """Read ``frame`` (a :class:`device.Frame`) on this thread: :meth:`plan`, :meth:`see`, :meth:`apply`.

        Args:
            frame: the still frame.
            now: the loop's clock (s), for the next read.
            photo: the replayed photo behind the frame, if any (kept with a dice read).

        Returns:
            The events recorded at once (Among the Stars' ``station_read``); questions are only asked.
            A read that raises is reported in :attr:`message` and returns [] (nothing recorded is lost).
        """
        try:
            plan = self.plan(frame, now, photo)
            return self.apply(self.see(plan))
        except Exception as exc:  # a bad frame or a reader bug must not stop the table
            return self._failed(exc)

    def begin(self, frame: Any, now: float, photo: str | None, executor: Executor) -> None:
        """Start a read of ``frame`` on ``executor`` (a worker thread) so the loop keeps serving the
        touchscreen and phones; :meth:`collect` applies it. The plan (what to read, from the game
        state) is made here, on the loop's thread; only :meth:`see` (OpenCV work) runs on the worker.

        Raises:
            RuntimeError: a read is already pending.
        """
        if self._pending is not None:
            raise RuntimeError("a camera read is already pending: collect it first")
        try:
            plan = self.plan(frame, now, photo)
        except Exception as exc:
            self._failed(exc)
            return
        # the worker gets its own copy: the loop goes on drawing and publishing the frame it holds
        self._pending = executor.submit(self.see, dataclasses.replace(plan, image=plan.image.copy()))
        self._began_at = self._clock()

    def collect(self, wait: bool = False) -> list[Event] | None:
        """Apply the read started by :meth:`begin` once it is done (on the loop's thread).

        A read still running ``read_timeout_s`` after it began is abandoned: it gives [] with :attr:`message`
        saying so, its late result is ignored, and :meth:`due` starts no read until it ends.

        Args:
            wait: block until it is done, at most ``read_timeout_s`` (used when the loop stops).

        A read that ends after the game moved on (an event recorded while it ran) is not applied: what it saw is kept
        and the still table is planned again at once under the game as it stands (:meth:`_again`).

        Returns:
            None while it is still running (or nothing is pending); else the events recorded (as
            :meth:`read`; a read that raised or was abandoned is reported in :attr:`message` and gives [];
            a read planned again gives []).
        """
        future = self._pending
        if future is None:
            return None
        if wait and not future.done():
            try:
                future.exception(timeout=self.read_timeout_s)
            except FutureTimeout:
                pass
        if not future.done():
            if wait or self._clock() - self._began_at >= self.read_timeout_s:
                return self._abandon(future)
            return None
        self._pending = None
        try:
            sight = future.result()
            if sight.plan.seq is not None and sight.plan.seq != self.flow.session.last_seq:
                return self._again(sight)
            return self.apply(sight)
        except Exception as exc:
            return self._failed(exc)

    def _again(self, sight: Sight) -> list[Event]:
        """A read that ended after the game moved on (a phone's report, an answer, Next or Undo recorded while it ran):
        what it chose to read, and what its questions would ask, belonged to the game as it was (Roll: a read begun
        while the last set-up was being reported is no read of the phase strips; one begun before Reveal asks no
        selection after it). What it saw of the frame is kept, and the still table is planned again at once under the
        game as it stands, with nothing changed since: what was seen is taken as it is, and only a pass the game
        wants now and this read did not run is read (the dice on the strips, once the set-ups are in). Nothing is
        recorded from it; a newer still table already waiting to be read is read instead. Returns []."""
        plan = sight.plan
        self._keep(sight)
        log.info("camera read of still table %d ended after the game moved on (event %s to %s): read again",
                 plan.epoch, plan.seq, self.flow.session.last_seq)
        if self._left == 0 and plan.epoch == self._epoch:
            self.schedule(-math.inf, [], asked=plan.asked)
        return []

    def _abandon(self, future: Future) -> list[Event]:
        self._pending, self._stuck = None, future
        self._left = 0
        self._seen = {}
        self.message = Text("camera read took longer than {seconds:g} s and was abandoned: the game goes on without it "
                            "(check the camera; reads start again once it answers)", seconds=self.read_timeout_s)
        log.error(self.message)
        return []

    def _failed(self, exc: BaseException) -> list[Event]:
        self._seen = {}  # the next read reads it all
        self.message = Text("camera read failed: {error}: {problem}", error=type(exc).__name__, problem=message_of(exc))
        log.error("camera read failed", exc_info=exc)
        return []
