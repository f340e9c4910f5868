"""The chooser: what the table plays next (the d6 dice, a game's setup) or a game left open to go back to.

The service starts here (or on the game it was on: :meth:`companion.library.Library.resumed`). ``choose_game``
starts the dice or a game's setup; ``resume_game`` goes back to a game that has not ended; History and Settings
open from it; Back returns to what was open before.
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action, Posted
from companion.flow import Outcome
from companion.i18n import _
from companion.modes.base import BoxMode, ModeName

__all__ = ["ChooseMode"]


class ChooseMode(BoxMode):
    """The game chooser (see the module doc)."""

    name = ModeName.CHOOSE

    def handle(self, act: Posted) -> Outcome | None:
        """Next means nothing here (the chooser waits for a choice); "read now" is taken (nothing to read)."""
        if act.action is Action.NEXT_PHASE:
            return Outcome([], "", _("choose a game first"))
        if act.action is Action.READ_NOW:
            return Outcome([], _("choose a game first"))
        return None

    def block(self) -> dict[str, Any]:
        """``{"games": [{"game", "title", "players"}], "open": [a game left open: Library.summary]}``."""
        library = self.loop.library
        return {"games": library.offered(), "open": library.open_games()}
