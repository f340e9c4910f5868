"""A recording fake camera with fault injection, for tests of everything above the device room.

Like OctoPrint's virtual printer injects firmware faults, :class:`FakeCamera` replays the
arrays it is given and injects camera faults at chosen frame numbers::

    cam = FakeCamera([img_a, img_b, img_c, img_d],
                     faults=[Fault.glare(1), Fault.drop(2), Fault.disconnect(3)])
    with cam:
        cam.read().index   # 0
        cam.read()         # frame 1 with a saturated glare patch
        cam.read().index   # 3 -- frame 2 was dropped, the index shows the gap
        ...
    cam.calls              # [("open",), ("read", 0), ("glare", 1), ("read", 1), ("drop", 2), ...]

Faults can also be written as strings, ``"drop@2"``, ``"glare@1"``, ``"wb_flip@4"``,
``"disconnect@3"``, ``"busy@0"`` (the first ``open()`` fails), and with a count ``"black@3x10"``
(frames 3 to 12). Every random choice is seeded.

The faults a camera at a real table meets, for the camera-health tests (``device.health``):
``black`` (lens covered, light off), ``saturated`` (all white), ``freeze`` (a stuck driver hands
out its last picture again and again), ``stall`` (a read that blocks), ``error`` (an exception
that is not a :class:`~device.errors.DeviceError`, as ``cv2.error`` or ``OSError``), ``gone``
(the camera vanishes and comes back a few reopen attempts later).
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from device.camera import CameraSource, Frame, as_bgr
from device.errors import N_, CameraBusy, CameraDisconnected, CameraNotFound, EndOfStream, Words

__all__ = ["FakeCamera", "Fault", "FaultKind"]


class FaultKind(enum.Enum):
    """What can go wrong with a camera."""

    DROP = "drop"
    """The frame never arrives; the next read returns the following frame (its index shows the gap)."""
    GLARE = "glare"
    """A saturated white blob (a lamp's reflection on a die) covers part of the frame."""
    WB_FLIP = "wb_flip"
    """Red and blue swap, as after an auto-white-balance jump or an RGB/BGR mix-up."""
    DISCONNECT = "disconnect"
    """The camera vanishes: this and every later read raise CameraDisconnected until reopened."""
    BUSY = "busy"
    """``open()`` number ``at`` (0-based) raises CameraBusy, as if another program held the camera."""
    BLACK = "black"
    """Frames ``at`` .. ``at + count - 1`` are all black (lens covered, the light switched off)."""
    SATURATED = "saturated"
    """Frames ``at`` .. ``at + count - 1`` are all white (a lamp straight into the lens, exposure stuck)."""
    FREEZE = "freeze"
    """Frames ``at + 1`` .. ``at + count`` repeat frame ``at``'s picture exactly (a stuck driver re-sends
    its last buffer); their indexes go on counting."""
    STALL = "stall"
    """The read of frame ``at`` blocks until :meth:`FakeCamera.unstall` (or ``seconds``), then delivers it."""
    ERROR = "error"
    """Reads ``at`` .. ``at + count - 1`` raise ``exception`` (default a ``cv2.error``): an exception that is
    not a DeviceError, as OpenCV or the kernel raise; each loses its frame."""
    GONE = "gone"
    """Reading frame ``at`` raises CameraDisconnected, and the next ``count`` open() attempts raise
    CameraNotFound (the cable is out); the attempt after them works: the camera is back."""


@dataclass(frozen=True)
class Fault:
    """One injected fault: ``kind`` at frame number ``at`` (0-based; for BUSY, the open() attempt number).

    ``box`` is the glare patch (x, y, w, h) in pixels; None picks a seeded random one covering
    about a sixth of the frame's width. ``count`` is how many frames the fault lasts (BLACK,
    SATURATED, FREEZE, ERROR) or how many open() attempts fail (GONE). ``seconds`` bounds a STALL
    (None: until :meth:`FakeCamera.unstall`). ``exception`` is what an ERROR raises (None: a ``cv2.error``).
    """

    kind: FaultKind
    at: int
    box: tuple[int, int, int, int] | None = None
    count: int = 1
    seconds: float | None = None
    exception: BaseException | None = None

    def covers(self, index: int) -> bool:
        """Whether frame ``index`` is one of the ``count`` frames from ``at``."""
        return self.at <= index < self.at + self.count

    @classmethod
    def drop(cls, at: int) -> Fault:
        """Frame ``at`` is dropped."""
        return cls(FaultKind.DROP, at)

    @classmethod
    def glare(cls, at: int, box: tuple[int, int, int, int] | None = None) -> Fault:
        """Frame ``at`` has a glare patch (``box`` = x, y, w, h in pixels, or seeded random)."""
        return cls(FaultKind.GLARE, at, box)

    @classmethod
    def wb_flip(cls, at: int) -> Fault:
        """Frame ``at`` has red and blue swapped."""
        return cls(FaultKind.WB_FLIP, at)

    @classmethod
    def disconnect(cls, at: int) -> Fault:
        """Reading frame ``at`` raises CameraDisconnected, and so does every read until the next open()."""
        return cls(FaultKind.DISCONNECT, at)

    @classmethod
    def busy(cls, at: int = 0) -> Fault:
        """open() attempt ``at`` (0-based) raises CameraBusy."""
        return cls(FaultKind.BUSY, at)

    @classmethod
    def black(cls, at: int, count: int = 1) -> Fault:
        """Frames ``at`` .. ``at + count - 1`` are black."""
        return cls(FaultKind.BLACK, at, count=count)

    @classmethod
    def saturated(cls, at: int, count: int = 1) -> Fault:
        """Frames ``at`` .. ``at + count - 1`` are white."""
        return cls(FaultKind.SATURATED, at, count=count)

    @classmethod
    def freeze(cls, at: int, count: int) -> Fault:
        """The ``count`` frames after ``at`` repeat frame ``at``'s picture."""
        return cls(FaultKind.FREEZE, at, count=count)

    @classmethod
    def stall(cls, at: int, seconds: float | None = None) -> Fault:
        """The read of frame ``at`` blocks for ``seconds`` (None: until :meth:`FakeCamera.unstall`)."""
        return cls(FaultKind.STALL, at, seconds=seconds)

    @classmethod
    def error(cls, at: int, count: int = 1, exception: BaseException | None = None) -> Fault:
        """Reads ``at`` .. ``at + count - 1`` raise ``exception`` (default: a ``cv2.error``)."""
        return cls(FaultKind.ERROR, at, count=count, exception=exception)

    @classmethod
    def gone(cls, at: int, count: int = 1) -> Fault:
        """The camera vanishes at frame ``at`` and ``count`` reopen attempts fail before it is back."""
        return cls(FaultKind.GONE, at, count=count)

    @classmethod
    def parse(cls, text: str) -> Fault:
        """Parse ``"kind@n"`` or ``"kind@nxcount"``, e.g. ``"drop@3"``, ``"busy@0"``, ``"black@3x10"``.

        Raises:
            ValueError: unknown kind or a malformed number (the message lists the kinds).
        """
        kind_text, sep, at_text = text.partition("@")
        at_text, times, count_text = at_text.lower().partition("x")
        kinds = ", ".join(k.value for k in FaultKind)
        try:
            kind = FaultKind(kind_text.strip().lower())
            at = int(at_text) if sep else 0
            count = int(count_text) if times else 1
            if count < 1:
                raise ValueError(count)
        except ValueError:
            raise ValueError(f"bad fault {text!r}: expected KIND@N or KIND@NxCOUNT with KIND one of {kinds}") from None
        return cls(kind, at, count=count)


class FakeCamera(CameraSource):
    """Replays the given arrays as frames and injects :class:`Fault` s; records every call in :attr:`calls`.

    Args:
        frames: the pictures, each ``uint8[H, W, 3]`` BGR (grey ``uint8[H, W]`` is expanded).
            Frame ``i`` of the fake is ``frames[i % len(frames)]`` when looping.
        faults: :class:`Fault` objects or ``"kind@n"`` strings.
        seed: seed of the random glare patches.
        loop: keep cycling through ``frames`` instead of raising EndOfStream after the last.
        fps: the synthetic timestamps are ``index / fps`` seconds (unless ``clock`` is given).
        clock: optional seconds clock for timestamps, to behave like a live camera.
        name: the source name (default ``"fake"``).
        live: behave as a live camera (:attr:`CameraSource.live`): two identical frames in a row
            then mean a stuck pipeline. Give frames that differ (a sensor's noise) when True.

    :attr:`calls` holds tuples in order: ``("open",)``, ``("busy",)``, ``("not_found",)``,
    ``("read", i)`` for a delivered frame, ``("drop", i)``, ``("glare", i)``, ``("wb_flip", i)``,
    ``("black", i)``, ``("saturated", i)``, ``("freeze", i)``, ``("stall", i)``, ``("error", i)``,
    ``("gone", i)``, ``("disconnect", i)``, ``("end",)``, ``("close",)``. Reads may run on another
    thread (the camera watch's); each call is appended when it happens.
    """

    def __init__(
        self,
        frames: Sequence[np.ndarray],
        faults: Iterable[Fault | str] = (),
        *,
        seed: int = 0,
        loop: bool = False,
        fps: float = 10.0,
        clock: Callable[[], float] | None = None,
        name: str = "fake",
        live: bool = False,
    ) -> None:
        if len(frames) == 0:
            raise ValueError("FakeCamera needs at least one frame")
        self._frames = [as_bgr(np.asarray(f)) for f in frames]
        self.faults = tuple(f if isinstance(f, Fault) else Fault.parse(f) for f in faults)
        self.seed = seed
        self.loop = loop
        self.fps = fps
        self.name = name
        self.label = Words(N_("test camera"))
        self.live = live
        self._clock = clock
        self._rng = np.random.default_rng(seed)
        self.calls: list[tuple[str] | tuple[str, int]] = []
        """Every call and injected fault, in order (see the class docstring)."""
        self.open_attempts = 0
        """How many times open() was called while closed (BUSY faults count these, from 0)."""
        self._open = False
        self._next = 0
        self._disconnected = False
        self._refuse_opens = 0  # GONE: open() attempts still to refuse
        self._frozen: np.ndarray | None = None  # FREEZE: the picture being repeated
        self._unstalled = threading.Event()

    def unstall(self) -> None:
        """Let a read blocked by a STALL fault go on (and every later STALL pass at once)."""
        self._unstalled.set()

    @property
    def is_open(self) -> bool:
        """True between a successful :meth:`open` and :meth:`close`."""
        return self._open

    def _faults_at(self, kind: FaultKind, at: int) -> list[Fault]:
        return [f for f in self.faults if f.kind is kind and f.at == at]

    def _faults_over(self, kind: FaultKind, index: int) -> list[Fault]:
        return [f for f in self.faults if f.kind is kind and f.covers(index)]

    def open(self) -> None:
        """Open the fake; a pending disconnect is cleared (the camera was plugged back in).

        Raises:
            CameraBusy: a ``Fault.busy(n)`` matches this attempt number.
            CameraNotFound: the camera is gone (a ``Fault.gone``) for this attempt.
        """
        if self._open:
            return
        attempt = self.open_attempts
        self.open_attempts += 1
        if self._faults_at(FaultKind.BUSY, attempt):
            self.calls.append(("busy",))
            raise CameraBusy.said(N_("{name} is in use by another program (injected fault {fault}): try again"),
                                  name=self.name, fault=f"busy@{attempt}")
        if self._refuse_opens > 0:
            self._refuse_opens -= 1
            self.calls.append(("not_found",))
            raise CameraNotFound.said(N_("no camera at {name} (injected fault {fault}): plug it back in"),
                                      name=self.name, fault="gone")
        self.calls.append(("open",))
        self._open = True
        self._disconnected = False

    def read(self) -> Frame:
        """Return the next frame (a copy), with its faults applied.

        Raises:
            CameraDisconnected: at a DISCONNECT or GONE fault, and on every read after it until reopened.
            EndOfStream: after the last frame when not looping.
            RuntimeError: not open.
            BaseException: the ``error`` of an ERROR fault (a ``cv2.error`` by default).
        """
        if not self._open:
            raise RuntimeError(f"{self.name} is not open: call open() or use it in a with-block")
        while True:
            index = self._next
            if self._disconnected:
                self.calls.append(("disconnect", index))
                raise CameraDisconnected.said(N_("{name} is disconnected (injected fault): reopen it"), name=self.name)
            if self._faults_at(FaultKind.DISCONNECT, index):
                self._disconnected = True
                self._next += 1  # the frame that was being captured is lost
                self.calls.append(("disconnect", index))
                raise CameraDisconnected.said(
                    N_("{name} stopped delivering frames at {index} (injected fault {fault}): reopen it"),
                    name=self.name, index=index, fault=f"disconnect@{index}",
                )
            for fault in self._faults_at(FaultKind.GONE, index):
                self._disconnected = True
                self._refuse_opens = fault.count
                self._next += 1
                self.calls.append(("gone", index))
                raise CameraDisconnected.said(N_("{name} is gone at frame {index} (injected fault {fault})"),
                                              name=self.name, index=index, fault=f"gone@{index}")
            if index >= len(self._frames) and not self.loop:
                self.calls.append(("end",))
                raise EndOfStream.said(N_("{name} ended after {count} frames"), name=self.name,
                                       count=len(self._frames))
            for fault in self._faults_over(FaultKind.ERROR, index):
                self._next += 1
                self.calls.append(("error", index))
                raise fault.exception or cv2.error(f"injected fault error@{index}: the driver failed")
            for fault in self._faults_at(FaultKind.STALL, index):
                self.calls.append(("stall", index))
                self._unstalled.wait(fault.seconds)
            self._next += 1
            if self._faults_at(FaultKind.DROP, index):
                self.calls.append(("drop", index))
                continue
            image = self._picture(index)
            self.calls.append(("read", index))
            timestamp = self._clock() if self._clock is not None else index / self.fps
            return Frame(image=image, timestamp=timestamp, index=index, source=self.name)

    def _picture(self, index: int) -> np.ndarray:
        """Frame ``index``'s picture with its faults applied (a copy)."""
        if self._frozen is not None and self._faults_over(FaultKind.FREEZE, index - 1):  # at+1 .. at+count
            self.calls.append(("freeze", index))
            return self._frozen.copy()
        self._frozen = None
        image = self._frames[index % len(self._frames)].copy()
        for fault in self._faults_at(FaultKind.GLARE, index):
            self.calls.append(("glare", index))
            _add_glare(image, fault.box or _random_box(image.shape, self._rng))
        if self._faults_at(FaultKind.WB_FLIP, index):
            self.calls.append(("wb_flip", index))
            image = np.ascontiguousarray(image[:, :, ::-1])
        if self._faults_over(FaultKind.BLACK, index):
            self.calls.append(("black", index))
            image[:] = 0
        if self._faults_over(FaultKind.SATURATED, index):
            self.calls.append(("saturated", index))
            image[:] = 255
        if self._faults_at(FaultKind.FREEZE, index):
            self._frozen = image.copy()
        return image

    def close(self) -> None:
        """Close the fake (recorded only when it was open)."""
        if self._open:
            self.calls.append(("close",))
        self._open = False


def _random_box(shape: tuple[int, ...], rng: np.random.Generator) -> tuple[int, int, int, int]:
    """A seeded (x, y, w, h) box about a sixth of the frame's width, fully inside the frame."""
    height, width = int(shape[0]), int(shape[1])
    w = max(1, width // 6)
    h = max(1, min(height, w))
    x = int(rng.integers(0, width - w + 1))
    y = int(rng.integers(0, height - h + 1))
    return x, y, w, h


def _add_glare(image: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Saturate an ellipse inscribed in ``box`` (x, y, w, h) to white, in place, with a soft rim."""
    x, y, w, h = box
    height, width = image.shape[:2]
    yy, xx = np.ogrid[:height, :width]
    cx, cy = x + w / 2.0, y + h / 2.0
    rx, ry = max(w / 2.0, 0.5), max(h / 2.0, 0.5)
    r = ((xx + 0.5 - cx) / rx) ** 2 + ((yy + 0.5 - cy) / ry) ** 2
    core = r <= 1.0
    rim = (r > 1.0) & (r <= 1.6)
    image[core] = 255
    blend = image[rim].astype(np.float32) * 0.5 + 127.5
    image[rim] = blend.astype(np.uint8)
