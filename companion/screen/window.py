"""The device window: the touchscreen that shows published snapshots and turns taps and keys into posted actions.

The screen only *shows* published snapshots and *posts* actions: a tap on a button calls
:meth:`companion.hub.StateHub.post_action` and returns; the main loop owns the game state.

What is on it is a small state machine in the style of pibooth's ``states.py``: each :class:`Screen` (an Enum)
has a handler (:class:`companion.screen.states.ScreenState`) with ``enter`` / ``do`` / ``validate`` / ``exit``, one
module per screen family (dice, game, setup, enroll, phones). On every :meth:`TouchScreen.render` the current
handler's ``validate(view)`` names the screen the snapshot calls for; on a change the old handler's ``exit`` and
the new one's ``enter`` run; then the (new) current handler's ``do`` draws on the canvas
(:class:`companion.screen.canvas.Canvas`).

Typical main-loop use::

    screen = TouchScreen.for_display(fullscreen=True)
    while running:
        for event in pygame.event.get():
            screen.handle_event(event, hub)
        screen.render(hub.snapshot())
        pygame.display.flip()
"""

from __future__ import annotations

import atexit
import functools
import io
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _, box_language, localize, use_language
from companion.paths import BY_UMASK, write_whole
from companion.screen.box import Asking, Choose, History, Settings
from companion.screen.canvas import BASE_SIZE, NAME_MIN_SIZE, Button, Canvas
from companion.screen.check import Check
from companion.screen.dice import CameraLost, Waiting, Watching
from companion.screen.enroll import ENROLL_KEYS, Enroll
from companion.screen.fonts import visible_name
from companion.screen.game import Scores, Table
from companion.screen.phones import PhonesPanel
from companion.screen.setup import Setup
from companion.screen.states import PANEL_ACTIONS, Screen, ScreenState, Tap

ECHO_S = 0.8
"""Seconds after a finger's event within which a mouse press at the same place is that tap told again."""
ECHO_PX = 40
"""Pixels (each way) within which a mouse press is at the finger's place."""


@dataclass(frozen=True)
class ScreenSnapshot:
    """Input for :meth:`TouchScreen.render` when the frame is an array rather than JPEG bytes.

    Attributes:
        view: the published view dict (see ``docs/contracts.md``).
        frame: the latest annotated frame, ``uint8[H, W, 3]`` BGR, or JPEG bytes, or None.
        version: the hub version it came from (informational).
        pictures: the small pictures the view names, JPEG bytes by name (:attr:`companion.hub.Snapshot.pictures`).
    """

    view: dict[str, Any]
    frame: np.ndarray | bytes | None = None
    version: int = 0
    pictures: Mapping[str, bytes] = field(default_factory=dict)


def _in_the_box_language(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` of the touchscreen run in the box's language (:func:`companion.i18n.box_language`: ``box.language``
    as the settings screen or an owner's phone set it), whatever language the command prints and logs in."""

    @functools.wraps(method)
    def in_it(self: Any, *args: Any, **kwargs: Any) -> Any:
        with use_language(box_language()):
            return method(self, *args, **kwargs)

    return in_it


def _decode_jpeg(data: bytes) -> np.ndarray | None:
    """JPEG bytes -> ``uint8[H, W, 3]`` BGR, or None when they do not decode."""
    array = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    return array if array is not None and array.size else None


class TouchScreen(Canvas):
    """Draws snapshots for the touchscreen and turns taps into posted actions.

    Args:
        size: ``(width, height)`` in pixels; the layout is made for 800 x 480 and scales.
        surface: where to draw (the display surface from ``pygame.display.set_mode``);
            None draws on an off-screen surface (tests, screenshots).
        debug: also show a "Quit" button.
        phone_url: the URL for the QR code when the view has no ``phone_url`` yet.
        pairing: returns the current :class:`companion.hub.Pairing` (``hub.pairing``): the QR code
            carries its join link (``phone_url`` + ``join/<secret>``); None: the bare ``phone_url``.

    Raises:
        ValueError: ``surface`` is not ``size`` large.
    """

    def __init__(
        self,
        size: tuple[int, int] = BASE_SIZE,
        surface: pygame.Surface | None = None,
        debug: bool = False,
        phone_url: str | None = None,
        pairing: Callable[[], Any] | None = None,
    ) -> None:
        super().__init__(size, surface)
        self.debug = debug
        self.phone_url = phone_url
        self.pairing = pairing
        self.phones_open = False
        """The phones panel is shown (a tap on the QR code opens it, Back closes it)."""
        self.revoke_armed = False
        """"New QR code" was tapped once; the second tap unjoins every phone."""
        self._handlers: dict[Screen, ScreenState] = {
            h.screen: h
            for h in (
                Waiting(),
                Watching(),
                CameraLost(),
                Table(),
                Scores(),
                Setup(),
                Enroll(),
                PhonesPanel(),
                Choose(),
                History(),
                Settings(),
                Check(),
                Asking(),
            )
        }
        self.history_page = 0
        """The history list's page shown (a few games at a time; the screen's own business)."""
        self._finger_at: tuple[float, tuple[int, int]] | None = None
        self.seating: str | None = None
        """The player whose seat the next tap on the table picture sets (setup screen), or None."""
        self.state = Screen.WAITING
        self._handlers[self.state].enter(self)
        self._view: dict[str, Any] = {}
        self._said_for: tuple[dict[str, Any], str, dict[str, Any]] | None = None

    @classmethod
    def for_display(cls, size: tuple[int, int] = BASE_SIZE, fullscreen: bool = True, **kw: Any) -> TouchScreen:
        """Open the pygame display (full screen on the Pi, mouse cursor hidden) and draw on it.

        Without ``XDG_RUNTIME_DIR`` (a console login, a container) SDL prints "XDG_RUNTIME_DIR is invalid
        or not set" while probing Wayland; a private runtime folder is set first so a box without a
        desktop does not print an error that is not one; it is removed when the program ends (each start of
        the box made one more folder in /tmp).

        Raises:
            pygame.error: no video device (set ``SDL_VIDEODRIVER``, e.g. ``kmsdrm`` or ``dummy``).
        """
        if not os.environ.get("XDG_RUNTIME_DIR"):
            runtime = tempfile.mkdtemp(prefix="companion-runtime-")  # mode 0700
            atexit.register(shutil.rmtree, runtime, True)
            os.environ["XDG_RUNTIME_DIR"] = runtime
        pygame.display.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Tabletop companion")
        if fullscreen:
            pygame.mouse.set_visible(False)
        # Full screen gives the display's own size (an HDMI monitor, not the 7" panel): lay out for it.
        return cls(size=surface.get_size(), surface=surface, **kw)

    @_in_the_box_language
    def render(self, snapshot: Any) -> pygame.Surface:
        """Draw ``snapshot`` and return the surface (``size`` px).

        Args:
            snapshot: a :class:`companion.hub.Snapshot` (``view`` + ``jpeg`` bytes), a
                :class:`ScreenSnapshot` (``view`` + ``frame`` as ``uint8[H, W, 3]`` BGR or JPEG
                bytes), or a bare view dict (no frame). Frames are treated as immutable: the
                scaled picture is reused while the same array or bytes object comes back.

        Raises:
            ValueError: the frame array has a wrong shape or dtype (JPEG bytes that do not
                decode are shown as "no picture" instead).
        """
        raw, frame = self._unpack(snapshot)
        self.pictures = dict(getattr(snapshot, "pictures", None) or {})
        view = self._said(raw)
        self._view = view
        self.begin()
        current = self._handlers[self.state]
        wanted = current.validate(view)
        if self.phones_open and wanted not in (Screen.ENROLL, Screen.SCORES, Screen.ASKING):
            wanted = Screen.PHONES
        elif wanted in (Screen.ENROLL, Screen.SCORES):
            self.phones_open = False
        if wanted is not self.state:
            current.exit(self)
            self.pressed = None
            self.state = wanted
            self._handlers[wanted].enter(self)
        self.frame_rect = None
        self._handlers[self.state].do(self, view, frame)
        return self.surface

    def _said(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` in the box's language (:func:`companion.i18n.localize`; what a button posts back is never
        translated: ids and names stay plain strings), said once per published view and language. A name put into
        a message ("waiting for {players}") reads as in the players' rows (:func:`visible_name`: "🎲" as "Game
        Die"), where the font would leave it out and the line read "waiting for ANN, , BELLA"; the phones, whose
        browsers draw emoji, get their views said elsewhere, unchanged."""
        lang = box_language()
        if self._said_for is not None and self._said_for[0] is view and self._said_for[1] == lang:
            return self._said_for[2]
        font = self.font(NAME_MIN_SIZE)
        said = localize(view, lang, names=lambda name: visible_name(font, name))
        self._said_for = (view, lang, said)
        return said

    @property
    @_in_the_box_language
    def buttons(self) -> dict[str, Button]:
        """The current screen's buttons by action name (as of the last render)."""
        return {b.name: b for b in self._handlers[self.state].buttons(self, self._view)}

    @property
    @_in_the_box_language
    def qr_target(self) -> Button | None:
        """The QR code as a touch target (``phones_panel``: a tap opens the phones panel), or None."""
        handler = self._handlers[self.state]
        qr = handler.qr_rect(self) if handler.qr_tappable else None
        if qr is None or not self.url(self._view):
            return None
        return Button(Tap.PHONES_PANEL, _("Phones"), qr)

    @_in_the_box_language
    def button_at(self, pos: tuple[int, int]) -> Button | None:
        """The enabled button (or the QR code, :attr:`qr_target`) under ``pos`` (px), or None."""
        for button in [*self.buttons.values(), self.qr_target]:
            if button is not None and button.enabled and button.rect.collidepoint(pos):
                return button
        return None

    def action_at(self, pos: tuple[int, int]) -> str | None:
        """The action of the enabled button under ``pos`` (px), or None."""
        button = self.button_at(pos)
        return None if button is None else button.action

    @_in_the_box_language
    def handle_event(self, event: pygame.event.Event, hub: Any) -> str | None:  # noqa: C901 - flat dispatch over event kinds
        """Turn a pygame event into an action posted to ``hub`` (``origin="touchscreen"``).

        A tap is a press and a release on the same enabled button, by a finger (``FINGERDOWN`` / ``FINGERUP``,
        positions 0-1 of the window) or the left mouse button. One tap acts once whatever the driver sends: the
        mouse events SDL makes from a touch (``event.touch`` True) are left out, and so is a mouse press that a
        touch driver sends after the finger's own events (within :data:`ECHO_S` and :data:`ECHO_PX` of them).
        Keys: Space = read now, N = next phase, U or
        Backspace = undo, Escape = quit (debug only); on the enrollment screen :data:`ENROLL_KEYS`
        (Enter/Space OK, A another, R retake, B/Backspace back, S skip, Escape/Q quit), each only
        while its button is enabled. ``pygame.QUIT`` (window closed, or SIGTERM/SIGINT, which SDL
        turns into QUIT) posts ``quit``.

        Args:
            event: any pygame event; ones that are not taps or the keys above are ignored.
            hub: a :class:`companion.hub.StateHub` (anything with ``post_action``).

        Returns:
            The action name posted, or None. Never changes game state itself.
        """
        action: str | None = None
        payload: dict[str, Any] = {}
        kind = self._pointer(event)
        if event.type == pygame.QUIT:
            action = Action.QUIT
        elif kind == "down":
            down = self.button_at(self._pos(event))
            self.pressed = None if down is None else down.name
        elif kind == "up":
            pos = self._pos(event)
            pressed, self.pressed = self.pressed, None
            released = self.button_at(pos)
            if released is not None and released.name == pressed:
                action, payload = released.action, dict(released.payload)
                if action == Tap.SETUP_PICK:  # whose seat the next tap sets: the screen's own business
                    self.seating = payload.get("player")
                    return None
                if action in PANEL_ACTIONS:  # opening, closing, arming: the screen's own business too
                    self._panel(action)
                    return None
                if action in (Tap.PAGE_BACK, Tap.PAGE_ON):  # the history's pages: the screen's own too
                    self.history_page = max(0, self.history_page + (1 if action == Tap.PAGE_ON else -1))
                    return None
                if action == Action.REVOKE_PHONES:
                    self.revoke_armed = False
            elif released is None and self.state is Screen.SETUP and self.seating:
                point = self._frame_point(pos)
                if point is not None:
                    action, payload = Action.SETUP_SEAT, {"player": self.seating, "point": point}
                    self.seating = None
        elif event.type == pygame.KEYDOWN and self.state is Screen.ENROLL:
            candidate = ENROLL_KEYS.get(event.key)
            enabled = {b.action for b in self.buttons.values() if b.enabled}
            if candidate in enabled:
                action = candidate
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_p and self.state is not Screen.ENROLL:
            self._panel(Tap.PHONES_CLOSE if self.phones_open else Tap.PHONES_PANEL)
            return None
        elif event.type == pygame.KEYDOWN:
            keys = {pygame.K_SPACE: Action.READ_NOW, pygame.K_u: Action.UNDO, pygame.K_BACKSPACE: Action.UNDO,
                    pygame.K_n: Action.NEXT_PHASE}
            if self.debug:
                keys[pygame.K_ESCAPE] = Action.QUIT
            candidate = keys.get(event.key)
            enabled = {b.action for b in self.buttons.values() if b.enabled}
            if candidate is Action.QUIT or candidate in enabled:
                action = candidate
        if action is not None:
            hub.post_action(action, origin="touchscreen", **payload)
        return action

    def _pointer(self, event: pygame.event.Event) -> str | None:
        """``"down"`` / ``"up"`` for a finger or the left mouse button, None for anything else and for the mouse
        events that echo a touch (SDL's synthesised ones, or a driver's own press right after the finger's)."""
        now = time.monotonic()
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            self._finger_at = (now, self._pos(event))
            return "down" if event.type == pygame.FINGERDOWN else "up"
        if event.type not in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) or getattr(event, "button", 1) != 1:
            return None
        if getattr(event, "touch", False):
            return None  # SDL made it from a touch the finger events already carried
        if self._finger_at is not None:
            at, where = self._finger_at
            pos = self._pos(event)
            if now - at <= ECHO_S and abs(pos[0] - where[0]) <= ECHO_PX and abs(pos[1] - where[1]) <= ECHO_PX:
                return None  # the same tap, told again as a mouse press by the touch driver
        return "down" if event.type == pygame.MOUSEBUTTONDOWN else "up"

    def _pos(self, event: pygame.event.Event) -> tuple[int, int]:
        """The event's position in screen px (a finger's 0-1 window position scaled to the screen)."""
        if event.type in (pygame.FINGERDOWN, pygame.FINGERUP, pygame.FINGERMOTION):
            width, height = self.size
            return (min(width - 1, max(0, round(event.x * width))), min(height - 1, max(0, round(event.y * height))))
        return tuple(event.pos)

    def _panel(self, action: str) -> None:
        """The phones panel's own taps: open it, close it, arm "New QR code" (nothing is posted)."""
        self.revoke_armed = action == Tap.REVOKE_ARM
        self.phones_open = action != Tap.PHONES_CLOSE

    def _frame_point(self, pos: tuple[int, int]) -> list[float] | None:
        """The frame pixel ``[x, y]`` under the screen point ``pos``, or None off the picture."""
        size = self._view.get("frame") or {}
        rect = self.frame_rect
        if rect is None or not rect.collidepoint(pos) or not size.get("width"):
            return None
        return [round((pos[0] - rect.x) * size["width"] / rect.width, 1),
                round((pos[1] - rect.y) * size["height"] / rect.height, 1)]

    def save_png(self, path: str | Path) -> Path:
        """Save what was last rendered as a PNG (creating parent folders); returns the path.

        The picture is made in memory and written whole (:func:`companion.paths.write_whole`): on a full card the
        write fails with the system's reason and an earlier picture at ``path`` stays as it was. (pygame writing the
        file itself left a cut-off PNG, printed a libpng line at every read, and said only "Error writing the PNG
        file."; onto a device such as /dev/full it said nothing at all.)

        Raises:
            OSError: the folder cannot be made or the file cannot be written (``errno.ENOSPC``: the card is full).
            pygame.error: the picture cannot be made.
        """
        path = Path(path)
        picture = io.BytesIO()
        pygame.image.save(self.surface, picture, "screen.png")  # the name hint picks PNG
        write_whole(path, picture.getvalue(), sync=False, mode=BY_UMASK)  # the owner's umask, as a plain write
        return path

    def _unpack(self, snapshot: Any) -> tuple[dict[str, Any], np.ndarray | None]:
        if isinstance(snapshot, dict):
            view, source = snapshot, None
        else:
            view = getattr(snapshot, "view", None) or {}
            source = getattr(snapshot, "frame", None)
            if source is None:
                source = getattr(snapshot, "jpeg", None)
        if source is None:
            return view, None
        if source is self._frame_source:
            return view, self._frame_array
        if isinstance(source, np.ndarray):
            array: np.ndarray | None = source
        elif isinstance(source, (bytes, bytearray, memoryview)):
            array = _decode_jpeg(bytes(source))
        else:
            raise ValueError(f"frame must be a BGR ndarray or JPEG bytes, got {type(source).__name__}")
        self._frame_source, self._frame_array = source, array
        self._frame_cache = None
        return view, array

    # ------------------------------------------------------------------ the view

    def url(self, view: dict[str, Any]) -> str | None:
        return view.get("phone_url") or self.phone_url

    def qr_url(self, view: dict[str, Any]) -> str | None:
        """The QR code's link: the join link of the current pairing, else the bare phone-view URL."""
        from companion.netinfo import join_url

        base = self.url(view)
        pairing = self.pairing() if self.pairing is not None else None
        return join_url(base, getattr(pairing, "secret", None)) if base else None

    @_in_the_box_language
    def debug_buttons(self) -> list[Button]:
        if not self.debug:
            return []
        return [Button(Action.QUIT, _("Quit"), self.rect(680, 404, 114, 70))]


NO_SCREEN_DRIVERS = frozenset({"dummy", "offscreen"})
"""SDL video drivers that show nothing: ``dummy`` (what tests ask for) and ``offscreen`` (what SDL takes by itself on a
machine without a desktop or a console display: the box then says it has no screen instead of drawing unseen)."""


def open_touchscreen(
    hub: Any, *, fullscreen: bool, **kw: Any
) -> tuple[TouchScreen, Callable[[], None], bool, Exception | None]:
    """The touchscreen on the display (:meth:`TouchScreen.for_display`), else drawn off-screen, and a pump that
    turns its input into actions posted to ``hub`` (call it once per turn of the loop).

    Args:
        hub: where taps and keys post (a :class:`companion.hub.StateHub`).
        fullscreen: full screen (the Pi's panel) or a window.
        kw: :class:`TouchScreen` arguments (``phone_url``, ``pairing``).

    Returns:
        ``(screen, pump, drawn to a display, the display's error or None)``: with no display (no video device,
        or SDL falling back to one of :data:`NO_SCREEN_DRIVERS` by itself: a machine without a desktop) the
        screen draws off-screen (``--screenshot`` shows it) and the error says why.
    """
    problem: Exception | None = None
    try:
        screen = TouchScreen.for_display(fullscreen=fullscreen, **kw)
        driver = pygame.display.get_driver()
        drawn = driver not in NO_SCREEN_DRIVERS
        if not drawn and os.environ.get("SDL_VIDEODRIVER") != driver:  # SDL fell back to it: no screen, no window
            problem = pygame.error(f"SDL found no screen and draws with its {driver!r} video driver")
    except pygame.error as exc:
        screen, drawn, problem = TouchScreen(**kw), False, exc

    def pump() -> None:
        if pygame.display.get_init():
            for event in pygame.event.get():
                screen.handle_event(event, hub)
            if drawn:
                pygame.display.flip()

    return screen, pump, drawn, problem
