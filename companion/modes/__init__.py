"""The main loop's modes (:class:`ModeName`), one module each: d6 dice, setup, play (and scores), enrollment.

Each mode says what an action, a frame and the view mean while it runs, and which mode comes next
(:class:`Mode`: ``enter`` / ``handle`` / ``on_frame`` / ``view`` / ``next``); :class:`companion.app.MainLoop`
runs them, one at a time, on its one loop and hub.
"""

from __future__ import annotations

from companion.modes.base import Mode, ModeName, SessionMode
from companion.modes.dice import DiceMode
from companion.modes.enroll import EnrollMode
from companion.modes.play import PlayMode, ScoresMode
from companion.modes.setup import SetupMode

__all__ = ["DiceMode", "EnrollMode", "Mode", "ModeName", "PlayMode", "ScoresMode", "SessionMode", "SetupMode"]
