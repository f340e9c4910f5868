"""The app that wires the rooms together: session log, main loop, touchscreen, phone view, CLI.

``companion`` is the only room that imports ``device``, ``vision`` and ``rules``; camera
observations become rule inputs here (:mod:`companion.app`).
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep pygame's banner out of CLI output

from device.opencv_env import configure_opencv  # noqa: E402  (imports neither cv2 nor gpiozero)

configure_opencv()  # OpenCV's image bounds and quiet logs: only before anything imports cv2

from companion.errors import BadEntry, CompanionError, CorruptSession, SessionError, UnknownSession  # noqa: E402

__all__ = ["BadEntry", "CompanionError", "CorruptSession", "SessionError", "UnknownSession"]
