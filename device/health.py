"""Camera health: reads on their own thread with a timeout, and every picture judged before it is used.

A camera at a real table fails in ways that must not stop the game or be read as dice: a read
that blocks (a wiggling ribbon cable, a USB hub that browns out), an exception from OpenCV or
the kernel that is not a :class:`~device.errors.DeviceError`, a lens covered by a hand or a
light switched off (black frames), a lamp straight into the lens (white frames), a driver that
hands out its last buffer again and again (frozen frames), a replay folder deleted mid-game.

:class:`CameraWatch` wraps a :class:`~device.camera.CameraSource` for the main loop: every
``open``/``read``/``close`` runs on one daemon thread of its own, the loop waits at most
:attr:`CameraHealthConfig.poll_s` for a frame and goes on taking taps without one, and each
frame is judged (:func:`picture_fault`, :func:`same_picture`) before it is handed out. A bad
frame is never handed out, so nothing is read from it; :attr:`CameraWatch.status` (a
:class:`CameraStatus`, the ``"camera"`` value of the views' status block) and
:attr:`CameraWatch.message` say what is wrong and what to do, and the watch recovers by itself
when the source returns. This module imports neither ``vision``, ``rules`` nor ``companion``.
"""

from __future__ import annotations

import enum
import logging
import math
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, wait
from dataclasses import dataclass
from typing import Any

import numpy as np

from device.camera import CameraSource, Frame
from device.errors import N_, BadImage, DeviceError, EndOfStream, told_players

__all__ = ["CameraStatus", "CameraHealthConfig", "CameraWatch", "picture_fault", "same_picture"]

log = logging.getLogger(__name__)


class CameraStatus(str, enum.Enum):
    """The camera's state, as the views show it (``view["status"]["camera"]``)."""

    OK = "ok"
    """Frames arrive and look like a table."""
    LOST = "lost"
    """The source failed (disconnected, gone, an exception, pictures that cannot be decoded): it is
    tried again every ``reconnect_s`` seconds; nothing recorded is lost."""
    STALLED = "stalled"
    """A read has not come back for :attr:`CameraHealthConfig.read_timeout_s`: the game goes on
    without the camera until it returns."""
    BLACK = "black"
    """The frames are black: the lens is covered or the light is off."""
    SATURATED = "saturated"
    """The frames are white: too much light into the lens, or the exposure is stuck."""
    FROZEN = "frozen"
    """A live camera sends the same picture over and over: its pipeline is stuck."""
    ENDED = "ended"
    """A replay has shown its last picture."""


PICTURE_FAULTS = (CameraStatus.BLACK, CameraStatus.SATURATED, CameraStatus.FROZEN)
"""The statuses of a camera whose frames arrive but cannot be used."""


@dataclass(frozen=True)
class CameraHealthConfig:
    """Thresholds of :class:`CameraWatch`, declared once.

    Attributes:
        read_timeout_s: seconds (real time) a read may take before the camera is reported
            ``stalled``; the read is abandoned by the loop, not by the camera (it is collected if
            it ever comes back). Above any frame interval: 3 s is 90 frames at 30 fps.
        poll_s: seconds one loop step waits for a frame before it goes on without one (taps and
            phone actions are taken between waits).
        close_timeout_s: seconds :meth:`CameraWatch.close` waits for the source to close before
            leaving a stuck camera to the system.
        sample_step: the black/white checks look at every ``sample_step``-th pixel in each
            direction (px); 4 keeps a 2304x1296 frame at 576x324 samples, about 1 ms.
        dark_level: a pixel whose brightest channel is at or below this grey level (0-255) is
            dark. A covered lens gives 0-10; a dim table still has dice and cards above 24.
        black_fraction: a frame is black when at least this fraction (0-1) of the samples is dark.
        bright_level: a pixel whose darkest channel is at or above this grey level (0-255) is
            blown out.
        saturated_fraction: a frame is saturated when at least this fraction (0-1) of the samples
            is blown out (a glare patch on a die covers a few per cent, never this much).
        frozen_frames: a live source (:attr:`CameraSource.live`) is ``frozen`` after this many
            frames in a row identical to the one before (frames; a sensor's noise makes two real
            frames differ). A repeated frame is never handed out, even before that.
        recover_frames: good frames in a row that end a black/saturated/frozen spell (frames);
            the first ones are not handed out, so a flicker does not toggle the views.
    """

    read_timeout_s: float = 3.0
    poll_s: float = 0.05
    close_timeout_s: float = 2.0
    sample_step: int = 4
    dark_level: int = 24
    black_fraction: float = 0.98
    bright_level: int = 250
    saturated_fraction: float = 0.95
    frozen_frames: int = 10
    recover_frames: int = 3

    def __post_init__(self) -> None:
        for name in ("read_timeout_s", "poll_s", "close_timeout_s"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite number of seconds >= 0, got {value}")
        for name in ("sample_step", "frozen_frames", "recover_frames"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("dark_level", "bright_level"):
            if not 0 <= getattr(self, name) <= 255:
                raise ValueError(f"{name} must be a grey level 0-255, got {getattr(self, name)}")
        for name in ("black_fraction", "saturated_fraction"):
            if not 0 < getattr(self, name) <= 1:
                raise ValueError(f"{name} must be in (0, 1], got {getattr(self, name)}")


def picture_fault(image: np.ndarray, config: CameraHealthConfig | None = None) -> CameraStatus | None:
    """What is wrong with a picture on its own: BLACK, SATURATED, or None for a usable one.

    Args:
        image: ``uint8[H, W, 3]`` BGR.
        config: the thresholds (:class:`CameraHealthConfig`).
    """
    cfg = config or CameraHealthConfig()
    sample = image[:: cfg.sample_step, :: cfg.sample_step]
    if sample.size == 0:
        return None
    count = sample.shape[0] * sample.shape[1]
    if np.count_nonzero(sample.max(axis=2) <= cfg.dark_level) >= cfg.black_fraction * count:
        return CameraStatus.BLACK
    if np.count_nonzero(sample.min(axis=2) >= cfg.bright_level) >= cfg.saturated_fraction * count:
        return CameraStatus.SATURATED
    return None


def same_picture(a: np.ndarray, b: np.ndarray, config: CameraHealthConfig | None = None) -> bool:
    """Whether two frames (``uint8[H, W, 3]``) are identical, pixel for pixel (sampled first: cheap when they
    differ)."""
    step = (config or CameraHealthConfig()).sample_step
    if a.shape != b.shape:
        return False
    return bool(np.array_equal(a[::step, ::step], b[::step, ::step]) and np.array_equal(a, b))


class _Worker:
    """One daemon thread running calls in order; a call that never returns blocks only this thread.

    (A ``ThreadPoolExecutor`` would join a stuck thread at interpreter exit and hang the box's stop.)
    """

    def __init__(self, name: str) -> None:
        self._calls: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.thread.start()

    def submit(self, call: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        self._calls.put((future, call))
        return future

    def stop(self) -> None:
        """End the thread after the calls already submitted."""
        self._calls.put(None)

    def _run(self) -> None:
        while (item := self._calls.get()) is not None:
            future, call = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = call()
            except BaseException as exc:  # noqa: BLE001 - everything a source raises is reported to the loop
                future.set_exception(exc)
            else:
                future.set_result(result)


_REPEAT = "repeat"  # a live frame identical to the one before (not a status until frozen_frames of them)


def _one_line(error: BaseException) -> str:
    """An exception as one line: ``cv2.error`` messages span several."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class CameraWatch:
    """A camera source read on its own thread, with a timeout and a judged picture.

    Args:
        source: the camera source (opened or not; it is opened on the watch's thread).
        config: the thresholds (:class:`CameraHealthConfig`).
        reconnect_s: seconds between attempts to read a LOST camera again (reopening it first,
            unless it was a picture that could not be decoded: a replay has moved past it).
        clock: seconds clock of the reconnect waits (the main loop's). The read timeout is real
            time (``time.monotonic``): a read blocks in real time.

    Use :meth:`poll` from one thread (the main loop); :attr:`status`, :attr:`message` and
    :meth:`take_change` tell the views. Messages name the source and what to do.
    """

    def __init__(
        self,
        source: CameraSource,
        config: CameraHealthConfig | None = None,
        *,
        reconnect_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.config = config or CameraHealthConfig()
        self.reconnect_s = reconnect_s
        self._clock = clock
        self.status = CameraStatus.OK
        """The camera's state now."""
        self.message = ""
        """What is wrong and what to do (or that the camera is back); one line, English."""
        self.said: tuple[str, dict[str, Any]] = ("", {})
        """:attr:`message` as its template and parameters (``companion`` says it in the players' language; the
        templates are marked with :func:`N_` for ``pybabel extract``); a parameter may be the source's own
        :class:`~device.errors.DeviceError` made with ``said()``, said in turn."""
        self.losses = 0
        """How many times the camera became LOST."""
        self._changed = False
        self._worker: _Worker | None = None
        self._pending: Future[Any] | None = None
        self._pending_since = 0.0
        self._reopen = False
        self._failed_at: float | None = None
        self._previous: np.ndarray | None = None  # the watch thread's last picture (frozen check)
        self._repeats = 0
        self._good = 0

    @property
    def busy(self) -> bool:
        """True while a read is on its way (or stuck)."""
        return self._pending is not None

    def take_change(self) -> bool:
        """True once after :attr:`status` or :attr:`message` changed (then publish the views)."""
        changed, self._changed = self._changed, False
        return changed

    def poll(self, wait_s: float | None = None) -> Frame | None:
        """The next good frame, or None: none has come yet (waited up to ``wait_s``, default
        :attr:`CameraHealthConfig.poll_s`), the camera is LOST and not due to be tried again, it
        ENDED, or the frame that came is bad (its fault is in :attr:`status`). Never raises for
        anything the source raises."""
        if self.status is CameraStatus.ENDED:
            return None
        if self._pending is None:
            if (self.status is CameraStatus.LOST and self._failed_at is not None
                    and self._clock() - self._failed_at < self.reconnect_s):
                return None
            reopen, self._reopen = self._reopen, False
            self._pending = self._start().submit(lambda: self._grab(reopen))
            self._pending_since = time.monotonic()
        done, _ = wait([self._pending], timeout=self.config.poll_s if wait_s is None else wait_s)
        if not done:
            stuck = time.monotonic() - self._pending_since
            if stuck >= self.config.read_timeout_s and self.status is not CameraStatus.STALLED:
                self._set(CameraStatus.STALLED,
                          N_("{name}: no picture for {seconds:g} s: check its cable; the game goes on"),
                          name=self.source.label, seconds=round(stuck, 1))
            return None
        future, self._pending = self._pending, None
        error = future.exception()
        if error is not None:
            self._failed(error)
            return None
        frame, fault = future.result()
        return self._judge(frame, fault)

    def control(self, call: Callable[..., Any], *args: Any) -> None:
        """Run ``call(*args)`` (a camera control, e.g. :meth:`CameraSource.hold_light`) on the watch's thread after
        the read under way, without waiting for it; what it raises is logged, never passed on. Nothing happens
        before the first read (the source is not open yet) or after :meth:`close`."""
        if self._worker is None:
            return

        def guarded() -> None:
            try:
                call(*args)
            except Exception as exc:  # a control the camera refuses never stops the box
                log.warning("camera %s: %s failed: %s", self.source.name, getattr(call, "__name__", "a control"),
                            _one_line(exc))

        self._worker.submit(guarded)

    def close(self) -> None:
        """Close the source on the watch's thread and end that thread (waiting at most ``close_timeout_s`` for
        both); a later :meth:`poll` opens it again on a new thread. A stuck read is left to finish on its own (its
        thread is a daemon: it does not hold the box's stop)."""
        worker, self._worker = self._worker, None
        self._pending = None
        if worker is None:  # never read: nothing runs on the source but this thread
            self.source.close()
            return
        closed = worker.submit(self.source.close)
        worker.stop()
        started = time.monotonic()
        done, _ = wait([closed], timeout=self.config.close_timeout_s)
        if done:  # the thread ends right after the close: joined, so no thread of a closed watch stays
            worker.thread.join(max(0.0, self.config.close_timeout_s - (time.monotonic() - started)))
        if not done:
            log.warning("camera %s did not close within %g s (a read is stuck); leaving it to the system",
                        self.source.name, self.config.close_timeout_s)
        elif closed.exception() is not None:
            log.warning("camera %s failed while closing: %s", self.source.name, _one_line(closed.exception()))

    # -- internals ----------------------------------------------------------------------------

    def _start(self) -> _Worker:
        if self._worker is None:
            self._worker = _Worker(f"camera-{self.source.name}")
            self._previous = None
        return self._worker

    def _grab(self, reopen: bool) -> tuple[Frame, CameraStatus | str | None]:
        """On the watch's thread: (re)open if needed, read one frame, judge it."""
        if reopen:
            self.source.close()
            self._previous = None
        self.source.open()  # idempotent: a no-op while open
        frame = self.source.read()
        image = frame.image
        fault: CameraStatus | str | None = picture_fault(image, self.config)
        previous, self._previous = self._previous, image
        if fault is None and self.source.live and previous is not None and same_picture(previous, image, self.config):
            fault = _REPEAT
        return frame, fault

    def _judge(self, frame: Frame, fault: CameraStatus | str | None) -> Frame | None:
        name = self.source.label
        if fault is None:
            self._repeats = 0
            if self.status in PICTURE_FAULTS:
                self._good += 1
                if self._good < self.config.recover_frames:
                    return None
                self._set(CameraStatus.OK, N_("camera: the picture is back"))
            elif self.status is not CameraStatus.OK:
                self._set(CameraStatus.OK, N_("{name}: working again"), name=name)
            self._good = 0
            return frame
        self._good = 0
        if fault == _REPEAT:
            self._repeats += 1
            if self._repeats >= self.config.frozen_frames and self.status is not CameraStatus.FROZEN:
                self._set(
                    CameraStatus.FROZEN,
                    N_("camera sends the same picture over and over: unplug it and plug it back in"),
                )
            return None
        self._repeats = 0
        if fault is CameraStatus.BLACK and self.status is not fault:
            self._set(fault, N_("camera sees only black: lens covered or light off?"))
        elif fault is CameraStatus.SATURATED and self.status is not fault:
            self._set(fault, N_("camera sees only white: a lamp shining into the lens?"))
        return None

    def _failed(self, error: BaseException) -> None:
        name = self.source.label
        if isinstance(error, EndOfStream):
            self._set(CameraStatus.ENDED, N_("{name}: finished"), name=name)
            return
        if isinstance(error, DeviceError) and error.template is not None:  # the device's own words, said in a
            # player's language by companion (a said() error), naming the source by its kind (the log has the rest)
            template, params = "{problem}", {"problem": told_players(error, name)}
            if self.status is not CameraStatus.LOST:
                log.warning("camera %s: %s", self.source.name, _one_line(error))
        elif isinstance(error, DeviceError):  # the device's own words (English): said as they are
            template, params = "{problem}", {"problem": _one_line(error).removeprefix(f"{type(error).__name__}: ")}
        else:  # cv2.error, OSError, a bug: a camera fault, never the end of the loop
            template = N_("{name}: failed ({problem}); trying again every {seconds:g} s")
            # an OSError is kept whole: companion says its reason in the players' words, never its file's path
            problem = error if isinstance(error, OSError) else _one_line(error)
            params = {"name": name, "problem": problem, "seconds": self.reconnect_s}
            if self.status is not CameraStatus.LOST:
                log.error("camera %s failed", self.source.name, exc_info=error)
        self._reopen = not isinstance(error, BadImage)  # a replay has already moved past a bad picture
        self._failed_at = self._clock()
        if self.status is not CameraStatus.LOST:
            self.losses += 1
        self._set(CameraStatus.LOST, template, **params)

    def _set(self, status: CameraStatus, template: str, **params: Any) -> None:
        message = template.format(**params) if params else template
        if status is self.status and message == self.message:
            return
        if status is not self.status:
            (log.info if status in (CameraStatus.OK, CameraStatus.ENDED) else log.warning)(
                "camera %s: %s", self.source.name, message)
        self.status, self.message, self.said = status, message, (template, dict(params))
        self._changed = True
