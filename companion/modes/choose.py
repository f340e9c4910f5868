"""The chooser: what the table plays next (the d6 dice, a game's setup) or a game left open to go back to.

The service starts here (or on the game it was on: :meth:`companion.library.Library.resumed`). ``choose_game``
starts the dice or a game's setup; ``resume_game`` goes back to a game that has not ended; History and Settings
open from it; Back returns to what was open before.
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action, Posted
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import BoxMode, ModeName

__all__ = ["ChooseMode"]


class ChooseMode(BoxMode):
    """The game chooser (see the module doc)."""

    name = ModeName.CHOOSE

    def handle(self, act: Posted) -> Outcome | None:
        """Next means nothing here (the chooser waits for a choice); "read now" is taken (nothing to read). Opening
        a game (``open``: History's list does it) is refused naming where players do it: History for a past game,
        and the chooser's own Resume buttons when games are left open."""
        if act.action is Action.OPEN_GAME:
            history, resume = Text("History"), Text("Resume")
            if self.loop.library.open_games():
                return Outcome([], "", Text("a past game is opened from {history}; a game left open goes on with its "
                                            "{resume} button here", history=history, resume=resume))
            return Outcome([], "", Text("a past game is opened from {history}", history=history))
        if act.action is Action.NEXT_PHASE:
            return Outcome([], "", Text("choose a game first"))
        if act.action is Action.READ_NOW:
            return Outcome([], Text("choose a game first"))
        return None

    def block(self) -> dict[str, Any]:
        """``{"games": [{"game", "title", "players"}], "open": [a game left open: Library.summary]}``."""
        library = self.loop.library
        return {"games": library.offered(), "open": library.open_games()}
