"""The device room: camera sources, the box's GPIO button and LED, and the display's backlight.

Hardware sits behind small interfaces that are passed in: the main loop is handed a
:class:`CameraSource` (from :func:`open_source`) and a :class:`Controls` built with an explicit
gpiozero pin factory. Tests use :class:`FakeCamera` (with injected faults) and gpiozero's
``MockFactory``. This room imports neither ``vision``, ``rules`` nor ``companion``, and never
imports ``picamera2`` at module level (it comes from apt on Raspberry Pi OS).

Names are re-exported lazily: ``import device`` (or ``device.opencv_env``) imports neither
``cv2`` nor ``gpiozero``, so OpenCV's environment is set (:func:`device.opencv_env.configure_opencv`)
before the first module that needs ``cv2`` is loaded, and a command that needs no camera starts fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from device.opencv_env import configure_opencv

configure_opencv()  # before any module of this room imports cv2

if TYPE_CHECKING:
    from device.backlight import Backlight
    from device.camera import CameraSource, Frame, as_bgr
    from device.errors import (
        BadImage,
        CameraBusy,
        CameraDisconnected,
        CameraNotFound,
        DeviceError,
        EndOfStream,
        GPIOUnavailable,
        UnknownSourceSpec,
    )
    from device.fake import FakeCamera, Fault, FaultKind
    from device.gpio import Controls, LedState, LedTimings, find_pin_factory
    from device.health import CameraHealthConfig, CameraStatus, CameraWatch
    from device.images import IMAGE_EXTENSIONS, check_image_files, check_image_size, decode_image
    from device.opencv_source import OpenCVSource
    from device.picam import Picamera2Source
    from device.replay import VIDEO_EXTENSIONS, ReplaySource
    from device.sources import SPEC_FORMS, open_source, parse_source

_EXPORTS = {
    "device.camera": ("CameraSource", "Frame", "as_bgr"),
    "device.errors": ("DeviceError", "CameraNotFound", "CameraBusy", "CameraDisconnected", "EndOfStream", "BadImage",
                      "UnknownSourceSpec", "GPIOUnavailable", "one_demo_hint"),
    "device.picam": ("Picamera2Source",),
    "device.opencv_source": ("OpenCVSource",),
    "device.replay": ("ReplaySource", "VIDEO_EXTENSIONS"),
    "device.images": ("IMAGE_EXTENSIONS", "decode_image", "check_image_size", "check_image_files"),
    "device.fake": ("FakeCamera", "Fault", "FaultKind"),
    "device.health": ("CameraWatch", "CameraStatus", "CameraHealthConfig"),
    "device.sources": ("SPEC_FORMS", "open_source", "parse_source"),
    "device.gpio": ("Controls", "LedState", "LedTimings", "find_pin_factory"),
    "device.backlight": ("Backlight",),
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}

__all__ = [name for names in _EXPORTS.values() for name in names]


def __getattr__(name: str) -> Any:
    """``device.FakeCamera``, ``from device import BadImage``: the defining module is imported on first use."""
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
