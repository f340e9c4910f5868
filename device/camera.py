"""Camera sources: one small interface (:class:`CameraSource`) that the main loop is handed.

The interface and the :class:`Frame` it returns are the contract with the other rooms
(``docs/contracts.md``). Implementations live in their own modules and are re-exported
here and from :mod:`device`:

- :class:`~device.picam.Picamera2Source`: the Raspberry Pi camera (``picamera2`` from apt,
  imported lazily inside :meth:`open`, never at module level);
- :class:`~device.opencv_source.OpenCVSource`: a USB webcam or a video file through ``cv2.VideoCapture``;
- :class:`~device.replay.ReplaySource`: a folder of photos or a video file, for the demo;
- :class:`~device.fake.FakeCamera`: a recording fake with injectable faults, for tests;
- :func:`~device.sources.open_source`: builds one of them from a spec string.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any

import numpy as np

from device.errors import N_, EndOfStream, Words

if TYPE_CHECKING:  # the implementations import this module; at run time __getattr__ resolves them
    from device.fake import FakeCamera, Fault, FaultKind
    from device.opencv_source import OpenCVSource
    from device.picam import Picamera2Source
    from device.replay import ReplaySource
    from device.sources import open_source

__all__ = [
    "Frame",
    "CameraSource",
    "as_bgr",
    # Re-exported lazily (see __getattr__ below):
    "Picamera2Source",
    "OpenCVSource",
    "ReplaySource",
    "FakeCamera",
    "Fault",
    "FaultKind",
    "open_source",
]


@dataclass(frozen=True)
class Frame:
    """One picture from a :class:`CameraSource`.

    Attributes:
        image: ``uint8[H, W, 3]`` BGR (OpenCV order), C-contiguous; the source hands out its own
            copy, so the caller may draw on it.
        timestamp: seconds; ``time.monotonic()`` for live sources, the frame's time within the
            recording for replays (``index / fps`` for a folder of photos).
        index: 0-based frame number from this source. A dropped frame leaves a gap.
        source: human-readable source name, e.g. ``"replay:/path/to/folder"``, ``"opencv:0"``,
            ``"picamera2:0"``.
    """

    image: np.ndarray
    timestamp: float
    index: int
    source: str

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return int(self.image.shape[1])

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return int(self.image.shape[0])


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Return ``image`` as a C-contiguous ``uint8[H, W, 3]`` BGR array.

    Accepts ``uint8[H, W]`` grey (expanded to 3 channels), ``uint8[H, W, 3]`` BGR (returned as is
    when already contiguous) and ``uint8[H, W, 4]`` BGRA/BGRX (the 4th channel is dropped).

    Raises:
        ValueError: for any other dtype or shape (the message gives both).
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        dtype = getattr(image, "dtype", type(image).__name__)
        raise ValueError(f"expected a uint8 image, got {dtype}")
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = image[:, :, :3]
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"expected uint8[H, W, 3] BGR, got shape {image.shape}")
    return np.ascontiguousarray(image)


class CameraSource(ABC):
    """A source of :class:`Frame` s: a camera, a replay or a fake.

    Use it as a context manager (``open()`` on enter, ``close()`` on exit) and iterate over it;
    iteration ends when a replay is finished (:class:`~device.errors.EndOfStream`) and lets
    :class:`~device.errors.CameraDisconnected` through::

        with open_source("auto") as cam:
            for frame in cam:
                ...

    ``open()`` is idempotent and ``close()`` may be called any number of times; a closed source
    may be opened again (a replay starts over, a camera reconnects).
    """

    name: str
    """Human-readable source name, also used as :attr:`Frame.source` (``"replay:/home/pi/photos"``): for the log
    and the owner's terminal, never shown to players."""

    label: Words = Words(N_("camera"))
    """What players call this source (``"Pi camera"``, ``"demo replay"``), said in their language by
    ``companion``: the camera's kind, never a folder or a device path."""

    live: bool = False
    """True for a camera that looks at the table now (its sensor's noise makes every frame differ, so
    two identical frames in a row mean a stuck pipeline: :mod:`device.health` calls that frozen);
    False for a replay, a video file or a fake, which repeat a picture on purpose."""

    @abstractmethod
    def open(self) -> None:
        """Acquire the device or files.

        Raises:
            CameraNotFound: nothing there (message names the source and what to try next).
            CameraBusy: another program holds the camera.
        """

    @abstractmethod
    def read(self) -> Frame:
        """Return the next frame (``Frame.image`` is ``uint8[H, W, 3]`` BGR).

        Raises:
            CameraDisconnected: a live camera stopped delivering frames.
            EndOfStream: a replay has no more frames.
            BadImage: a replayed file cannot be decoded.
            RuntimeError: the source is not open (a :class:`DeviceError` subclass is not used
                for this programming error).
        """

    @abstractmethod
    def close(self) -> None:
        """Release the device or files. Safe to call twice."""

    def hold_light(self, hold: bool) -> None:  # noqa: B027 - optional hook: a camera without the controls keeps it
        """Hold the camera's automatic exposure and white balance where they are (``hold``: the table is still, so
        its light has no reason to change), or let them adapt again (the table moves). A camera without them (a
        replay, a fake, a webcam through OpenCV) does nothing. Called on the camera's own thread; never raises for
        a camera that refuses (it logs)."""

    def __enter__(self) -> CameraSource:
        self.open()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Yield frames until :class:`EndOfStream`; opens the source first if needed."""
        self.open()
        while True:
            try:
                frame = self.read()
            except EndOfStream:
                return
            yield frame

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def _now() -> float:
    """The clock of live sources (seconds, monotonic); a function so tests can pass another."""
    return time.monotonic()


_LAZY = {
    "Picamera2Source": "device.picam",
    "OpenCVSource": "device.opencv_source",
    "ReplaySource": "device.replay",
    "FakeCamera": "device.fake",
    "Fault": "device.fake",
    "FaultKind": "device.fake",
    "open_source": "device.sources",
}


def __getattr__(name: str) -> Any:
    """Re-export the implementations (``from device.camera import ReplaySource``) without an import cycle."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
