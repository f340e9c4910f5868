"""The touchscreen's settings screen: the box's language, the display's brightness, the buzzer's sound.

``change_setting`` (``key``, ``value``) applies one (:class:`companion.box_settings.BoxSettings`: kept in the data
folder); Back returns to what was open. Only the touchscreen opens this screen; a phone changes the same settings
on its owner page once the touchscreen allowed it (:data:`companion.actions.OWNER_ONLY`).
"""

from __future__ import annotations

from typing import Any

from companion.actions import Action, Posted
from companion.flow_actions import Outcome
from companion.i18n import Text
from companion.modes.base import BoxMode, ModeName

__all__ = ["SettingsMode"]


class SettingsMode(BoxMode):
    """The settings screen (see the module doc)."""

    name = ModeName.SETTINGS

    def handle(self, act: Posted) -> Outcome | None:
        if act.action in (Action.NEXT_PHASE, Action.READ_NOW):
            return Outcome([], "", Text("change a setting, or go back"))
        return None

    def block(self) -> dict[str, Any]:
        """:meth:`companion.box_settings.BoxSettings.view`, plus ``"game"``: the title of the game behind it."""
        settings = self.loop.box_settings
        behind = self.loop.behind()
        return {**(settings.view() if settings is not None else {}), "game": behind}
