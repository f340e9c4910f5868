"""Vision room of tabletop-companion: frames (``uint8[H, W, 3]`` BGR) -> observations (OpenCV + numpy only).

Every reader is a plug-in behind one protocol, :class:`Reader` (``name``, ``read(frame) -> Sighting``);
:class:`Sighting` is what one reader saw in one frame. The adapters are in :mod:`vision.readers`:
d6 pip dice (:class:`D6Reader`), Roll for the Galaxy dice (:mod:`vision.roll_dice`), cards and tiles
(:mod:`vision.cards`, decks in :mod:`vision.deck`), Eclipse sector hexes (:mod:`vision.hexes`). Table
geometry (markers, calibration, player zones) is in :mod:`vision.table`, the stillness of the scene in
:mod:`vision.motion`.

Glossary: *frame* = ``uint8[H, W, 3]`` BGR camera image; *box* = ``(x, y, w, h)`` in frame pixels;
*confidence* = 0..1 probability an observation is right; *unreadable* = a die found whose value
is not known well enough (``value=None``).
"""

from .annotate import annotate
from .config import D6Config
from .d6 import D6Reader
from .errors import BadFrame, VisionError
from .observations import DiceRead, DieObservation, Reader, Sighting

__all__ = [
    "BadFrame",
    "D6Config",
    "D6Reader",
    "DiceRead",
    "DieObservation",
    "Reader",
    "Sighting",
    "VisionError",
    "annotate",
]
