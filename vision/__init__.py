"""Vision room of tabletop-companion: reads real dice from camera frames (OpenCV + numpy only).

Glossary: *frame* = ``uint8[H, W, 3]`` BGR camera image; *box* = ``(x, y, w, h)`` in frame pixels;
*confidence* = 0..1 probability an observation is right; *unreadable* = a die found whose value
is not known well enough (``value=None``).
"""

from .annotate import annotate
from .config import D6Config
from .d6 import D6Reader
from .errors import BadFrame, VisionError
from .observations import DiceRead, DieObservation

__all__ = [
    "BadFrame",
    "D6Config",
    "D6Reader",
    "DiceRead",
    "DieObservation",
    "VisionError",
    "annotate",
]
