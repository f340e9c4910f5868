"""Every action a view posts to the main loop, declared once: its name, its payload, where a phone sends it.

The touchscreen, the phones (``companion.web``), the GPIO button, the enrollment's terminal and the CLI all
post the same :class:`Action` members to the :class:`companion.hub.StateHub`; the loop's current mode
(:mod:`companion.modes`) carries them out. An action posted is a dict ``{"action": name, "origin": ...,
**payload}`` (the hub's queue, :mod:`companion.desk`'s checks); :func:`posted` reads one as a
:class:`Posted` whose ``payload`` is the action's declared payload type.

A payload holds the values as posted: a phone may send anything, so the mode that carries the action out
judges them (an unknown player, a question no longer waiting) and answers with a message; the declaration
says which keys an action has and what each means.

The phone's JSON keeps its own names (``POST /api/setup {"action": "player"}`` is :attr:`Action.SETUP_PLAYER`,
``POST /api/camera {"answer": "confirm"}`` is :attr:`Action.CAMERA_CONFIRM`): each member declares its phone
route and name (:meth:`Action.for_phone`, :func:`phone_names`).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Asker",
    "COMMON_KEYS",
    "GameChoice",
    "NAVIGATION",
    "OWNER_ONLY",
    "Pick",
    "SettingChange",
    "ENROLL_ACTIONS",
    "SEAT_ACTIONS",
    "SETUP_ACTIONS",
    "TOUCHSCREEN_ONLY",
    "UNRECORDED",
    "Action",
    "Claim",
    "Empty",
    "NewPlayer",
    "NextPress",
    "PlayerChoice",
    "Posted",
    "Question",
    "Quit",
    "Rename",
    "Report",
    "Seat",
    "SeatPoint",
    "Withdrawal",
    "Answer",
    "phone_names",
    "posted",
]


# -- payloads -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Empty:
    """No payload."""


@dataclass(frozen=True)
class NextPress:
    """``confirm``: True when the pressing phone's page showed the question the last Next asked
    (``view["game"]["next"]["asked"]``, Among the Stars: who has not reported); a phone's press without it is no
    answer to that question (two phones tapping at once). None or False: the page showed none."""

    confirm: Any = None


@dataclass(frozen=True)
class Quit:
    """``why``: what stopped it, for the message ("SIGTERM", "end of input"); None: "stopped"."""

    why: Any = None


@dataclass(frozen=True)
class Seat:
    """``player``: the seat (a player's name) the action is for."""

    player: Any = None


@dataclass(frozen=True)
class Withdrawal:
    """``player``: the seat whose report is withdrawn; ``form``: a form the player keeps one entry on (a Qualeen's
    secret objective), whose entry is withdrawn, or None: their newest report."""

    player: Any = None
    form: Any = None


@dataclass(frozen=True)
class Claim:
    """``player``: the seat a phone takes; ``client``: that phone's client id (from its cookie)."""

    player: Any = None
    client: Any = None


@dataclass(frozen=True)
class Report:
    """``player``: who reports; ``form``: the report form's id; ``values``: ``{field: value}``."""

    player: Any = None
    form: Any = None
    values: Any = None


@dataclass(frozen=True)
class Answer:
    """``id``: the camera question answered; ``choice``: one of its choices instead of the camera's answer."""

    id: Any = None
    choice: Any = None


@dataclass(frozen=True)
class Question:
    """``id``: the camera question dropped."""

    id: Any = None


@dataclass(frozen=True)
class NewPlayer:
    """``player``: the name (a player already there: a new colour); ``colour``: a seat colour, None for the
    next free one."""

    player: Any = None
    colour: Any = None


@dataclass(frozen=True)
class PlayerChoice:
    """``player``: whose entry; ``option``: a per-player option the game offers (Eclipse's ``species``, Among the
    Stars' ``races``); ``value``: one of its choices, None or "" for none."""

    player: Any = None
    option: Any = None
    value: Any = None


@dataclass(frozen=True)
class TableOption:
    """``option``: a game-wide on/off option the game offers (Eclipse's ``alliances``, Race's ``advanced``);
    ``value``: ``"on"`` or ``"off"`` (a phone's text; True or False from the box itself)."""

    option: Any = None
    value: Any = None


@dataclass(frozen=True)
class Rename:
    """``player``: the player renamed; ``name``: the new name."""

    player: Any = None
    name: Any = None


@dataclass(frozen=True)
class SeatPoint:
    """``player``: whose seat; ``point``: ``[x, y]`` frame px where the seat was tapped on the table picture."""

    player: Any = None
    point: Any = None


@dataclass(frozen=True)
class GameChoice:
    """``game``: what the chooser starts: ``"d6"`` (the dice) or a game with a flow (its setup)."""

    game: Any = None


@dataclass(frozen=True)
class Pick:
    """``session``: a game's session id (from the chooser's open games or the history)."""

    session: Any = None


@dataclass(frozen=True)
class SettingChange:
    """``setting``: one of the settings screen's (``"box.language"``, ``"screen.brightness"``, ``"sound.on"``);
    ``value``: its new value."""

    setting: Any = None
    value: Any = None


@dataclass(frozen=True)
class Asker:
    """``client``: the phone asking to become an owner (its client id, from its cookie)."""

    client: Any = None


COMMON_KEYS = frozenset({"version", "key", "client", "reply", "fingerprint"})
"""Keys every action may carry besides its payload (:mod:`companion.desk`): the state version the view
showed, an idempotency key, the phone's client id, the Future that gets the loop's answer, and the fingerprint of
the request the phone view took (:func:`companion.desk.request_fingerprint`)."""


# -- the actions ----------------------------------------------------------------------------------------


class Action(str, enum.Enum):
    """One action a view may post; its value is the name in the hub's queue and the docs.

    Attributes:
        payload: the payload type (a frozen dataclass whose fields are the action's keys).
        phone: the phone view's route that posts it (``"action"`` is ``POST /api/action``), or None.
        phone_name: the name the phone's JSON uses on that route (``"player"`` for ``setup_player``).

    A member compares and hashes as its name (``Action.UNDO == "undo"``), so sets of members answer for
    plain names too.
    """

    payload: type
    phone: str | None
    phone_name: str | None

    def __new__(cls, name: str, payload: type, phone: str | None = None, phone_name: str | None = None) -> Action:
        member = str.__new__(cls, name)
        member._value_ = name
        member.payload = payload
        member.phone = phone
        member.phone_name = phone_name if phone_name is not None else (name if phone is not None else None)
        return member

    __hash__ = str.__hash__

    def __str__(self) -> str:
        return self.value

    # the table
    READ_NOW = ("read_now", Empty, "action")
    """Read the table now (the dice, the cards; "Count dice" after a Roll game starts the count over)."""
    UNDO = ("undo", Empty, "action")
    """The table's Undo: withdraw the newest event in force (a phone only in the d6 mode)."""
    NEXT_PHASE = ("next_phase", NextPress, "action")
    """The Next button: what it means now (Reveal, the next phase, end of round; Start during the setup)."""
    QUIT = ("quit", Quit)
    """Stop the box (touchscreen, button, signal), or the guided enrollment (keeping its photos)."""
    # a player's seat
    REPORT = ("report", Report, "report")
    """A player's report on one of the game's forms."""
    UNDO_REPORT = ("undo_report", Withdrawal, "report/undo")
    """Withdraw that player's newest report still in force (or their entry on a form they keep one of)."""
    # the camera's one-tap questions
    CAMERA_CONFIRM = ("camera_confirm", Answer, "camera", "confirm")
    """Record what the camera saw (its question's event, ``origin="camera"``)."""
    CAMERA_DISMISS = ("camera_dismiss", Question, "camera", "dismiss")
    """Drop a camera question; nothing is recorded."""
    # the setup step
    SETUP_PLAYER = ("setup_player", NewPlayer, "setup", "player")
    """Add a player (or change a player's colour)."""
    SETUP_REMOVE = ("setup_remove", Seat, "setup", "remove")
    """Remove a player."""
    SETUP_RENAME = ("setup_rename", Rename, "setup", "rename")
    """Rename a player (a "Player N" added on the touchscreen, renamed on a phone)."""
    SETUP_CHOICE = ("setup_choice", PlayerChoice, "setup", "choice")
    """A player's entry of a per-player option (a species, a race) picked during the setup."""
    SETUP_OPTION = ("setup_option", TableOption, "setup", "option")
    """A game-wide option (Eclipse's alliances module) turned on or off during the setup."""
    SETUP_SEAT = ("setup_seat", SeatPoint)
    """A player's seat tapped on the touchscreen's table picture."""
    SETUP_EVEN = ("setup_even", Empty, "setup", "even")
    """Split the table evenly among the players (forget the tapped seats)."""
    SETUP_START = ("setup_start", Empty, "setup", "start")
    """Start: record the game's session with its players, seats and options."""
    # phone pairing
    CLAIM_SEAT = ("claim_seat", Claim, "seat")
    """A phone takes a seat."""
    RELEASE_SEAT = ("release_seat", Seat, "seat/free")
    """A seat is freed for another phone: by the touchscreen, by the phone that holds it ("Give up my seat"), or by
    another phone once the holder is away (:mod:`companion.phone_policy`)."""
    REVOKE_PHONES = ("revoke_phones", Empty)
    """The touchscreen makes a new join code: every phone must scan again."""
    # the guided dice enrollment (companion.enroll_guided)
    ENROLL_OK = ("enroll_ok", Empty)
    """Capture the pair asked for once the table is still; at a check, keep the photo and go on."""
    ENROLL_ANOTHER = ("enroll_another", Empty)
    """Keep the photo and take one more of the same pair."""
    ENROLL_RETAKE = ("enroll_retake", Empty)
    """Drop the photo and take it again."""
    ENROLL_BACK = ("enroll_back", Empty)
    """Back to the previous pair."""
    ENROLL_SKIP = ("enroll_skip", Empty)
    """Go on to the next pair without (or dropping) a photo."""
    # the whole evening on the box (issue 17): the chooser, the history, the table check, the settings
    GAMES = ("games", Empty, "box")
    """Open the game chooser (what was open stays open: Back returns to it)."""
    HISTORY = ("history", Empty, "box")
    """Open the history of past games."""
    SETTINGS = ("settings", Empty)
    """Open the touchscreen's settings screen (language, brightness, sound)."""
    BACK = ("back", Empty, "box")
    """Back to what the chooser, the history or the settings were opened from."""
    CHOOSE_GAME = ("choose_game", GameChoice, "box", "choose")
    """Start a game from the chooser: the d6 dice, or a game's setup (its open setup goes on)."""
    RESUME_GAME = ("resume_game", Pick, "box", "resume")
    """Go back to a game that has not ended (from the chooser or the history)."""
    OPEN_GAME = ("open_game", Pick, "box", "open")
    """Show one past game in the history (its scores; ``session`` None: the list again)."""
    EXPORT_GAME = ("export_game", Pick, "box", "export")
    """Write a game's record (JSON and the BG Stats play) to the box's exports folder."""
    TABLE_OK = ("table_ok", Empty, "box", "table_ok")
    """The table check looks right: play (Next does the same)."""
    CHANGE_SETTING = ("change_setting", SettingChange, "owner")
    """Change one of the box's settings (the touchscreen's settings screen; an owner phone's page)."""
    OWNER_ASK = ("owner_ask", Asker, "owner/ask")
    """A phone asks to change the box's settings; the touchscreen asks the table to allow it."""
    OWNER_ALLOW = ("owner_allow", Empty)
    """The touchscreen allows the phone that asked: it may open the owner page."""
    OWNER_REFUSE = ("owner_refuse", Empty)
    """The touchscreen refuses the phone that asked."""

    @classmethod
    def for_phone(cls, route: str, name: Any) -> Action | None:
        """The action the phone's ``name`` means on ``route`` (``("setup", "player")`` -> :attr:`SETUP_PLAYER`),
        or None."""
        return next((a for a in cls if a.phone == route and a.phone_name == name), None)

    def payload_of(self, action: Mapping[str, Any]) -> Any:
        """This action's payload read from a posted dict: each declared key's value as posted (None when absent)."""
        return self.payload(**{f.name: action.get(f.name) for f in dataclasses.fields(self.payload)})

    @property
    def keys(self) -> frozenset[str]:
        """The payload's keys."""
        return frozenset(f.name for f in dataclasses.fields(self.payload))


def phone_names(route: str) -> tuple[str, ...]:
    """The names a phone may send on ``route``, in declaration order (``"action"``: read_now, undo, next_phase)."""
    return tuple(a.phone_name for a in Action if a.phone == route)


SEAT_ACTIONS = frozenset({Action.REPORT, Action.UNDO_REPORT, Action.CLAIM_SEAT})
"""Actions for one player's seat (the version rule looks at that player's events and the round)."""
TOUCHSCREEN_ONLY = frozenset({Action.REVOKE_PHONES, Action.QUIT, Action.SETTINGS, Action.OWNER_ALLOW,
                              Action.OWNER_REFUSE})
"""Actions no phone may post."""
OWNER_ONLY = frozenset({Action.CHANGE_SETTING})
"""Actions a phone may post only once the touchscreen allowed it to change the box's settings (an owner)."""
NAVIGATION = frozenset({Action.GAMES, Action.HISTORY, Action.SETTINGS, Action.BACK, Action.CHOOSE_GAME,
                        Action.RESUME_GAME})
"""Actions that move the box to another mode and game (:meth:`companion.app.MainLoop.switch`)."""
UNRECORDED = frozenset({Action.READ_NOW, Action.QUIT, Action.RELEASE_SEAT, Action.REVOKE_PHONES, Action.GAMES,
                        Action.HISTORY, Action.CHOOSE_GAME, Action.RESUME_GAME, Action.SETTINGS, Action.BACK,
                        Action.OPEN_GAME, Action.EXPORT_GAME,
                        Action.CHANGE_SETTING, Action.OWNER_ASK, Action.OWNER_ALLOW, Action.OWNER_REFUSE})
"""Actions that record no game event: no version check (moving between screens, settings, owners)."""
SETUP_ACTIONS = (Action.SETUP_PLAYER, Action.SETUP_REMOVE, Action.SETUP_RENAME, Action.SETUP_CHOICE,
                 Action.SETUP_OPTION, Action.SETUP_SEAT, Action.SETUP_EVEN, Action.SETUP_START)
"""The setup step's actions (:mod:`companion.setup_flow`)."""
ENROLL_ACTIONS = frozenset({Action.ENROLL_OK, Action.ENROLL_ANOTHER, Action.ENROLL_RETAKE, Action.ENROLL_BACK,
                            Action.ENROLL_SKIP, Action.QUIT})
"""What the views may post during the guided enrollment (:mod:`companion.enroll_guided`)."""


@dataclass(frozen=True)
class Posted:
    """One posted action as a mode carries it out.

    Attributes:
        action: what.
        origin: who posted it: ``"touchscreen"``, ``"phone"``, ``"button"``, ``"cli"``, ``"terminal"``, ``"signal"``.
        payload: the action's payload (:attr:`Action.payload`), values as posted.
    """

    action: Action
    origin: str
    payload: Any


def posted(action: Mapping[str, Any] | Posted) -> Posted | None:
    """The :class:`Posted` of a dict as the hub queues it (``{"action": name, "origin", **payload}``), or None
    when ``name`` is not an :class:`Action`; a :class:`Posted` as it is."""
    if isinstance(action, Posted):
        return action
    name = action.get("action")
    try:
        act = Action(name) if isinstance(name, str) else None
    except ValueError:
        act = None
    if act is None:
        return None
    return Posted(act, str(action.get("origin") or "cli"), act.payload_of(action))
