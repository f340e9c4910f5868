"""Drawing of a :class:`DiceRead` on its frame, for the touchscreen and phone views."""

from __future__ import annotations

import cv2
import numpy as np

from .frames import validate_frame
from .observations import DiceRead

#: BGR colours: read dice green, unreadable dice orange.
READ_COLOUR = (60, 200, 60)
UNREADABLE_COLOUR = (0, 140, 255)


def annotate(frame: np.ndarray, read: DiceRead) -> np.ndarray:
    """Return a copy of ``frame`` (``uint8[H, W, 3]`` BGR) with each die boxed and labelled.

    The label is the value (``"?"`` when unreadable). Raises :class:`BadFrame` for a bad frame.
    """
    out = validate_frame(frame).copy()
    thick = max(1, round(max(out.shape[:2]) / 400))
    for die in read.dice:
        x, y, w, h = die.box
        colour = READ_COLOUR if die.value is not None else UNREADABLE_COLOUR
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, thick)
        text = str(die.value) if die.value is not None else "?"
        fs = max(0.4, min(1.2, h / 60.0))
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, fs, thick)
        ty = y - 3 if y - th - 3 >= 0 else y + h + th + 3
        cv2.rectangle(out, (x, ty - th - 2), (x + tw + 2, ty + base - 1), colour, -1)
        cv2.putText(
            out,
            text,
            (x + 1, ty),
            cv2.FONT_HERSHEY_SIMPLEX,
            fs,
            (255, 255, 255),
            thick,
            cv2.LINE_AA,
        )
    return out
