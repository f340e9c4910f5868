"""The main loop's modes (:class:`ModeName`), one module each: d6 dice, setup, the table check, play (and scores),
enrollment, and the box's own: the game chooser, the history, the settings.

Each mode says what an action, a frame and the view mean while it runs, and which mode comes next
(:class:`Mode`: ``enter`` / ``handle`` / ``on_frame`` / ``view`` / ``next``); :class:`companion.app.MainLoop`
runs them, one at a time, on its one loop and hub.
"""

from __future__ import annotations

from companion.modes.base import BoxMode, Mode, ModeName, SessionMode
from companion.modes.check import CheckMode
from companion.modes.choose import ChooseMode
from companion.modes.dice import DiceMode
from companion.modes.enroll import EnrollMode
from companion.modes.history import HistoryMode
from companion.modes.play import PlayMode, ScoresMode
from companion.modes.settings import SettingsMode
from companion.modes.setup import SetupMode

__all__ = ["BoxMode", "CheckMode", "ChooseMode", "DiceMode", "EnrollMode", "HistoryMode", "Mode", "ModeName",
           "PlayMode", "ScoresMode", "SessionMode", "SettingsMode", "SetupMode"]
