"""Exceptions of the device room (camera sources, GPIO).

Every error raised by :mod:`device` derives from :class:`DeviceError`; each subclass
also derives from the matching builtin, so generic handlers keep working
(``except FileNotFoundError`` catches :class:`CameraNotFound`, ``except EOFError``
catches :class:`EndOfStream`).

Messages are meant for the person at the table: each names the source
(``"opencv:0"``, ``"replay:/home/pi/photos"``) and what to try next.
"""

from __future__ import annotations

__all__ = [
    "DeviceError",
    "CameraNotFound",
    "CameraBusy",
    "CameraDisconnected",
    "EndOfStream",
    "BadImage",
    "UnknownSourceSpec",
    "GPIOUnavailable",
]

DEMO_HINT = "or run `companion demo` to replay photos"
"""The fallback every camera message ends with: the demo needs no camera."""


class DeviceError(Exception):
    """Base of every error raised by the device room."""


class CameraNotFound(DeviceError, FileNotFoundError):
    """No camera (or replay folder / video file) where the source looked.

    Raised by :meth:`device.camera.CameraSource.open`.
    """


class CameraBusy(DeviceError, RuntimeError):
    """The camera exists but another program holds it (or it refused to start streaming).

    Raised by :meth:`device.camera.CameraSource.open`.
    """


class CameraDisconnected(DeviceError, ConnectionError):
    """The camera stopped delivering frames mid-game (cable pulled, power dip, driver crash).

    Raised by :meth:`device.camera.CameraSource.read`; close and reopen the source to retry.
    """


class EndOfStream(DeviceError, EOFError):
    """A replay (folder of photos or video file) has delivered its last frame.

    Raised by :meth:`device.camera.CameraSource.read`; iteration over a source stops on it.
    """


class BadImage(DeviceError, ValueError):
    """An image or video file could not be decoded; the message and :attr:`path` name the file."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path
        """The unreadable file (str), or None when the error is about a whole folder."""


class UnknownSourceSpec(DeviceError, ValueError):
    """:func:`device.open_source` was given a spec it does not understand; the message lists the accepted forms."""


class GPIOUnavailable(DeviceError, RuntimeError):
    """No gpiozero pin factory works on this machine (a dev PC, or the Pi without ``python3-lgpio``)."""
