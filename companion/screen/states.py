"""The touchscreen's screens as states (pibooth's ``states.py``): the :class:`Screen` names, the handler every screen
family implements (:class:`ScreenState`: ``enter`` / ``do`` / ``validate`` / ``exit``), and which screen a view calls
for (:func:`screen_for`)."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.screen.canvas import Button

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


class Screen(enum.Enum):
    """The screens the touchscreen can show."""

    WAITING = "waiting"
    """Nothing published yet: the box is starting; shows the phone QR code."""
    WATCHING = "watching"
    """Normal play (camera ``ok`` or replay ``ended``): frame, tally, history, buttons."""
    CAMERA_LOST = "camera_lost"
    """Camera ``lost``: the message and what to do; the game so far is kept."""
    TABLE = "table"
    """A game flow (Roll, Race, Among the Stars): phase strip, VP pool, players, LAST ROUND, findings, Next."""
    SCORES = "scores"
    """A game flow that has ended: each player's breakdown and the winner."""
    SETUP = "setup"
    """A game being set up (``companion.setup_flow``): players, their seats tapped on the table picture, Start."""
    ENROLL = "enroll"
    """The guided dice enrollment (``companion.enroll_guided``): "put the white dice showing Explore in
    the tray, tap OK" over the live picture, then the photo with the dice seen; OK, Another, Retake,
    Back, Skip, Quit."""
    PHONES = "phones"
    """The phones panel, opened by tapping the QR code (``companion.screen.phones``): the join code, which
    seats a phone holds, Free seat, New QR code (every phone must scan again), Back."""
    CHOOSE = "choose"
    """The game chooser (``companion.screen.box``): each game, the games left open, History, Settings."""
    HISTORY = "history"
    """The games played: a list, one opened with its scores, Export, Resume."""
    SETTINGS = "settings"
    """Language, brightness, sound; the game behind it."""
    CHECK = "check"
    """The table check before the first round (``companion.screen.check``): the picture with each player's zone, the
    camera, light and calibration, "Looks right: play"."""
    ASKING = "asking"
    """A phone asks to change the box's settings: Allow or Refuse (the touchscreen's answer only)."""


class Tap(str, enum.Enum):
    """Taps the touchscreen keeps to itself: nothing is posted (a :class:`Button`'s ``action`` is one of these
    or an :class:`companion.actions.Action`)."""

    PHONES_PANEL = "phones_panel"
    """Open the phones panel (a tap on the QR code)."""
    PHONES_CLOSE = "phones_close"
    """Close it (Back)."""
    REVOKE_ARM = "revoke_arm"
    """"New QR code" tapped once: the second tap posts :attr:`Action.REVOKE_PHONES`."""
    SETUP_PICK = "setup_pick"
    """Whose seat the next tap on the table picture sets (the setup screen)."""
    PAGE_BACK = "page_back"
    """The history list's page before (the touchscreen shows a few games at a time)."""
    PAGE_ON = "page_on"
    """The history list's page after."""

    __hash__ = str.__hash__


PANEL_ACTIONS = (Tap.PHONES_PANEL, Tap.PHONES_CLOSE, Tap.REVOKE_ARM)
"""Taps of the phones panel (opening, closing, "New QR code" armed)."""


MODE_SCREENS = {"choose": Screen.CHOOSE, "history": Screen.HISTORY, "settings": Screen.SETTINGS,
                "calibration": Screen.CHECK}
"""The loop's modes (``view["mode"]``, :class:`companion.modes.ModeName`) that have a screen of their own."""


def screen_for(view: dict[str, Any]) -> Screen:
    """The screen a view calls for."""
    if not view:
        return Screen.WAITING
    if view.get("enroll") is not None:
        return Screen.ENROLL
    if (view.get("box") or {}).get("asking"):
        return Screen.ASKING
    if view.get("mode") in MODE_SCREENS:
        return MODE_SCREENS[view["mode"]]
    game = view.get("game") or {}
    if game.get("setup"):
        return Screen.SETUP
    if game.get("flow"):  # the flow is played without the camera: a lost camera is a status line
        if game.get("over") and not (view.get("camera") or {}).get("questions"):
            return Screen.SCORES
        return Screen.TABLE  # over with camera questions waiting (the dice count): answer them first
    if (view.get("status") or {}).get("camera") == "lost":
        return Screen.CAMERA_LOST
    return Screen.WATCHING


class ScreenState:
    """Base of a screen handler (pibooth-style): ``enter`` / ``do`` / ``validate`` / ``exit``."""

    screen: Screen

    def enter(self, ts: TouchScreen) -> None:
        """Called once when this screen becomes current."""

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        """Draw the screen for ``view`` on ``ts.surface``."""
        raise NotImplementedError

    def validate(self, view: dict[str, Any]) -> Screen:
        """The screen ``view`` calls for (this one to stay)."""
        return screen_for(view)

    def exit(self, ts: TouchScreen) -> None:
        """Called once when another screen takes over."""

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        """The touch targets of this screen for ``view``."""
        return ts.debug_buttons()

    qr_tappable = True
    """Whether a tap on this screen's QR code opens the phones panel."""

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect | None:
        """Where this screen draws the join QR code (tapping it opens the phones panel), or None."""
        return None


def games_button(ts: TouchScreen, view: dict[str, Any], rect: pygame.Rect, label: str | None = None) -> list[Button]:
    """The Games button (the chooser) where the box has one (``view["box"]["games"]``), else nothing."""
    from companion.actions import Action
    from companion.i18n import _

    if not (view.get("box") or {}).get("games"):
        return []
    return [Button(Action.GAMES, label or _("Games"), rect)]


def can_undo(view: dict[str, Any]) -> bool:
    """Whether there is anything to undo (unknown counts as yes)."""
    session = view.get("session") or {}
    if "events" in session:
        return bool(session.get("events"))
    return ((view.get("game") or {}).get("latest")) is not None
