"""Exceptions of the vision room.

Every error raised by :mod:`vision` derives from :class:`VisionError`; errors about
the caller's input also derive from the matching builtin (``BadFrame`` is a
``ValueError``) so generic handlers keep working.
"""

from __future__ import annotations


class VisionError(Exception):
    """Base of every error raised by the vision room (missing model, bad frame, ...)."""


class BadFrame(VisionError, ValueError):
    """The frame is not a non-empty ``uint8[H, W, 3]`` BGR image; the message names the problem."""
