"""The device room: camera sources and the box's GPIO button and LED.

Hardware sits behind small interfaces that are passed in: the main loop is handed a
:class:`CameraSource` (from :func:`open_source`) and a :class:`Controls` built with an explicit
gpiozero pin factory. Tests use :class:`FakeCamera` (with injected faults) and gpiozero's
``MockFactory``. This room imports neither ``vision``, ``rules`` nor ``companion``, and never
imports ``picamera2`` at module level (it comes from apt on Raspberry Pi OS).
"""

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
from device.opencv_source import OpenCVSource
from device.picam import Picamera2Source
from device.replay import IMAGE_EXTENSIONS, VIDEO_EXTENSIONS, ReplaySource
from device.sources import SPEC_FORMS, open_source

__all__ = [
    "CameraSource", "Frame", "as_bgr",
    "DeviceError", "CameraNotFound", "CameraBusy", "CameraDisconnected", "EndOfStream", "BadImage",
    "UnknownSourceSpec", "GPIOUnavailable",
    "Picamera2Source", "OpenCVSource", "ReplaySource", "FakeCamera", "Fault", "FaultKind",
    "IMAGE_EXTENSIONS", "VIDEO_EXTENSIONS", "SPEC_FORMS", "open_source",
    "Controls", "LedState", "LedTimings", "find_pin_factory",
]
