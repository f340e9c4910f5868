"""The touchscreen (pygame), one module per idea.

- :mod:`companion.screen.canvas`: the drawing canvas (design pixels, colours, text, buttons, the picture, QR codes);
- :mod:`companion.screen.states`: the screens as states and which one a view calls for;
- one module per screen family: :mod:`~companion.screen.dice` (starting, watching, camera lost),
  :mod:`~companion.screen.game` (a game's table and its scores), :mod:`~companion.screen.setup`,
  :mod:`~companion.screen.enroll`, :mod:`~companion.screen.phones` (the phones panel);
- :mod:`companion.screen.window`: the device window, :class:`TouchScreen` (render, taps and keys -> actions).
"""

from __future__ import annotations

from companion.screen.canvas import BUTTON_MIN_PX, Button, frame_to_surface
from companion.screen.states import Screen, Tap
from companion.screen.window import ScreenSnapshot, TouchScreen

__all__ = ["BUTTON_MIN_PX", "Button", "Screen", "ScreenSnapshot", "Tap", "TouchScreen", "frame_to_surface"]
