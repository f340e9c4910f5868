"""What players call each action: the label of the button or section that does it on the touchscreen or the phone
("Read now", "Undo my last report"), for a message that names an action (a refusal, "Next does not apply now"), said
in the player's language; the action's id (``read_now``) is the API's, never shown."""

from __future__ import annotations

from typing import Any

from companion.actions import Action
from companion.errors import shown
from companion.i18n import N_, Text

__all__ = ["ACTION_WORDS", "action_word"]

ACTION_WORDS: dict[Action, str] = {
    Action.READ_NOW: N_("Read now"),
    Action.UNDO: N_("Undo"),
    Action.NEXT_PHASE: N_("Next"),
    Action.QUIT: N_("Quit"),
    Action.REPORT: N_("What changed?"),
    Action.UNDO_REPORT: N_("Undo my last report"),
    Action.CAMERA_CONFIRM: N_("Confirm"),
    Action.CAMERA_DISMISS: N_("Dismiss"),
    Action.SETUP_PLAYER: N_("Add player"),
    Action.SETUP_REMOVE: N_("Remove"),
    Action.SETUP_RENAME: N_("Rename"),
    Action.SETUP_CHOICE: N_("a player's option"),
    Action.SETUP_OPTION: N_("a game option"),
    Action.SETUP_SEAT: N_("a seat tapped on the table"),
    Action.SETUP_EVEN: N_("Split evenly"),
    Action.SETUP_START: N_("Start"),
    Action.CLAIM_SEAT: N_("Who are you?"),
    Action.RELEASE_SEAT: N_("Free seat"),
    Action.REVOKE_PHONES: N_("New QR code"),
    Action.ENROLL_OK: N_("OK"),
    Action.ENROLL_ANOTHER: N_("Another"),
    Action.ENROLL_RETAKE: N_("Retake"),
    Action.ENROLL_BACK: N_("Back"),
    Action.ENROLL_SKIP: N_("Skip"),
    Action.GAMES: N_("Games"),
    Action.HISTORY: N_("History"),
    Action.SETTINGS: N_("Settings"),
    Action.BACK: N_("Back"),
    Action.CHOOSE_GAME: N_("Choose a game"),
    Action.RESUME_GAME: N_("Resume"),
    Action.OPEN_GAME: N_("A game from History"),   # a game's row in History, and its "All games"
    Action.EXPORT_GAME: N_("Export"),
    Action.TABLE_OK: N_("Looks right: play"),
    Action.CHANGE_SETTING: N_("Settings"),
    Action.OWNER_ASK: N_("Ask the box"),
    Action.OWNER_ALLOW: N_("Allow"),
    Action.OWNER_REFUSE: N_("Refuse"),
}
"""Every action's words for players (a test checks none is missing)."""


def action_word(action: Any) -> Text | str:
    """The words players know ``action`` by (an :class:`Action` or its id, ``"read_now"``), said in their language
    (a :class:`Text`); what was sent, quoted and cut short (:func:`companion.errors.shown`), for a name that is no
    action."""
    try:
        member = Action(action)
    except (ValueError, TypeError):  # not an action's id (TypeError: a value that is no name at all, a list)
        return shown(action)
    return Text(ACTION_WORDS[member])
