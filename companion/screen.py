"""The touchscreen view: the official 7" Raspberry Pi display (800 x 480 px), drawn with pygame.

The screen only *shows* published snapshots and *posts* actions: a tap on a button calls
:meth:`companion.hub.StateHub.post_action` and returns; the main loop owns the game state.

What is on it is a small state machine in the style of pibooth's ``states.py``: each
:class:`Screen` (an Enum) has a handler with ``enter`` / ``do`` / ``validate`` / ``exit``.
On every :meth:`TouchScreen.render` the current handler's ``validate(view)`` names the screen
the snapshot calls for; on a change the old handler's ``exit`` and the new one's ``enter`` run;
then the (new) current handler's ``do`` draws.

Typical main-loop use::

    screen = TouchScreen.for_display(fullscreen=True)
    while running:
        for event in pygame.event.get():
            screen.handle_event(event, hub)
        screen.render(hub.snapshot())
        pygame.display.flip()
"""

from __future__ import annotations

import enum
import math
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np
import pygame

from companion.actions import Action
from companion.qr import qr_surface

__all__ = ["Screen", "Button", "ScreenSnapshot", "TouchScreen", "frame_to_surface", "BUTTON_MIN_PX"]

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

    __hash__ = str.__hash__


PANEL_ACTIONS = (Tap.PHONES_PANEL, Tap.PHONES_CLOSE, Tap.REVOKE_ARM)
"""Taps of the phones panel (opening, closing, "New QR code" armed)."""

BUTTON_MIN_PX = 48
"""Smallest side of a touch target in pixels (about 7.5 mm on the 7" display)."""

BASE_SIZE = (800, 480)
"""The size the layout is designed for (px); other sizes scale it."""

# Colours (RGB).
BG = (18, 21, 26)
PANEL = (30, 35, 43)
TEXT = (236, 239, 243)
DIM = (150, 158, 170)
GOOD = (86, 196, 120)
WARN = (240, 180, 60)
BAD = (232, 84, 72)
ACCENT = (90, 160, 240)
BUTTON = (54, 92, 150)
BUTTON_PRESSED = (90, 140, 210)
BUTTON_DISABLED = (48, 52, 60)
DIE_FACE = (246, 246, 240)
DIE_PIP = (20, 20, 20)

SEVERITY_COLOURS = {"error": BAD, "warning": WARN, "info": ACCENT}
CAMERA_TEXT = {"ok": ("Camera OK", GOOD), "lost": ("Camera lost", BAD), "ended": ("Replay finished", DIM)}
READER_TEXT = {
    "watching": ("watching the table", ACCENT),
    "still": ("dice still, reading...", WARN),
    "read": ("read", GOOD),
}


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
    """The phones panel, opened by tapping the QR code (``companion.screen_phones``): the join code, which
    seats a phone holds, Free seat, New QR code (every phone must scan again), Back."""


@dataclass(frozen=True)
class Button:
    """A touch target: tapping it posts ``action`` with ``payload`` (e.g. ``{"id": 3}`` for a camera
    question). ``rect`` is in screen pixels; ``key`` tells apart buttons of one action (default: the action)."""

    action: str
    label: str
    rect: pygame.Rect
    enabled: bool = True
    payload: tuple[tuple[str, Any], ...] = ()
    key: str = ""

    @property
    def name(self) -> str:
        """What :attr:`TouchScreen.buttons` files it under: ``key`` or else ``action``."""
        return self.key or self.action


@dataclass(frozen=True)
class ScreenSnapshot:
    """Input for :meth:`TouchScreen.render` when the frame is an array rather than JPEG bytes.

    Attributes:
        view: the published view dict (see ``docs/contracts.md``).
        frame: the latest annotated frame, ``uint8[H, W, 3]`` BGR, or JPEG bytes, or None.
        version: the hub version it came from (informational).
    """

    view: dict[str, Any]
    frame: np.ndarray | bytes | None = None
    version: int = 0


def frame_to_surface(image: np.ndarray, fit: tuple[int, int]) -> pygame.Surface:
    """Scale a BGR frame to fit inside ``fit`` (px, aspect kept) and convert it to an RGB surface.

    Args:
        image: ``uint8[H, W, 3]`` BGR (``uint8[H, W]`` grey and ``uint8[H, W, 4]`` BGRA also accepted).
        fit: ``(width, height)`` in pixels of the box to fit in.

    Returns:
        A surface at most ``fit`` large with the frame's aspect ratio.

    Raises:
        ValueError: ``image`` is empty or not one of the shapes above.
    """
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"expected a uint8[H, W, 3] BGR frame, got shape {image.shape}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected a uint8 frame, got dtype {image.dtype}")
    height, width = image.shape[:2]
    scale = min(fit[0] / width, fit[1] / height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if size != (width, height):
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        image = cv2.resize(image, size, interpolation=interpolation)
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    return pygame.image.frombuffer(rgb.tobytes(), size, "RGB").copy()


def _decode_jpeg(data: bytes) -> np.ndarray | None:
    """JPEG bytes -> ``uint8[H, W, 3]`` BGR, or None when they do not decode."""
    array = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    return array if array is not None and array.size else None


def _screen_for(view: dict[str, Any]) -> Screen:
    """The screen a view calls for."""
    if not view:
        return Screen.WAITING
    if view.get("enroll") is not None:
        return Screen.ENROLL
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


class _ScreenState:
    """Base of a screen handler (pibooth-style): ``enter`` / ``do`` / ``validate`` / ``exit``."""

    screen: Screen

    def enter(self, ts: TouchScreen) -> None:
        """Called once when this screen becomes current."""

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        """Draw the screen for ``view`` on ``ts.surface``."""
        raise NotImplementedError

    def validate(self, view: dict[str, Any]) -> Screen:
        """The screen ``view`` calls for (this one to stay)."""
        return _screen_for(view)

    def exit(self, ts: TouchScreen) -> None:
        """Called once when another screen takes over."""

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        """The touch targets of this screen for ``view``."""
        return ts._debug_buttons()

    qr_tappable = True
    """Whether a tap on this screen's QR code opens the phones panel."""

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect | None:
        """Where this screen draws the join QR code (tapping it opens the phones panel), or None."""
        return None


class _Waiting(_ScreenState):
    screen = Screen.WAITING
    qr_tappable = False  # the box is starting: no game to manage yet

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        rect = pygame.Rect(0, 0, ts._s(190), ts._s(190))
        rect.center = (ts.surface.get_width() // 2, ts._y(285))
        return rect

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        w, h = surface.get_size()
        ts._text("Tabletop companion", (w // 2, ts._y(70)), 64, TEXT, anchor="center")
        ts._text("Starting - waiting for the camera...", (w // 2, ts._y(130)), 36, DIM, anchor="center")
        url = ts._url(view)
        if url:
            rect = self.qr_rect(ts)
            ts._draw_qr(ts._qr_url(view), rect)
            ts._text_fit(f"Phones: scan the code ({url})", (w // 2, rect.bottom + ts._s(14)), w - 40, 32, TEXT,
                         anchor="midtop")
        ts._draw_buttons(self.buttons(ts, view))


class _Watching(_ScreenState):
    screen = Screen.WATCHING

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        rect = ts._rect(686, 372, 108, 108)
        rect.width = rect.height = min(rect.width, rect.height)
        return rect

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        camera_ok = (view.get("status") or {}).get("camera", "ok") == "ok"
        actions = [(Action.READ_NOW, "Read now", camera_ok), (Action.UNDO, "Undo", _can_undo(view))]
        if ts.debug:
            actions.append((Action.QUIT, "Quit", True))
        area = ts._rect(6, 404, 448, 70)
        gap = ts._s(10)
        width = (area.width - gap * (len(actions) - 1)) // len(actions)
        return [
            Button(action, label, pygame.Rect(area.x + i * (width + gap), area.y, width, area.height), enabled)
            for i, (action, label, enabled) in enumerate(actions)
        ]

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        ts._draw_frame(frame, ts._rect(6, 6, 448, 336))
        ts._draw_status(view, ts._rect(6, 346, 448, 26))
        ts._draw_findings(view.get("findings") or [], ts._rect(6, 374, 448, 26))
        ts._draw_buttons(self.buttons(ts, view))
        game = view.get("game") or {}
        latest = game.get("latest") or None
        ts._draw_counts(latest, ts._rect(466, 6, 328, 216))
        ts._draw_total(latest, game, ts._rect(466, 226, 328, 62))
        ts._draw_history(game.get("history") or [], ts._rect(466, 292, 328, 76))
        url = ts._url(view)
        if url:
            qr_rect = self.qr_rect(ts)
            ts._draw_qr(ts._qr_url(view), qr_rect)
            ts._text("Scan to join (tap it: phones)", (ts._x(466), ts._y(392)), 24, DIM)
            ts._text_fit(url, (ts._x(466), ts._y(418)), qr_rect.x - ts._x(466) - ts._s(8), 30, TEXT, min_size=16)


class _CameraLost(_ScreenState):
    screen = Screen.CAMERA_LOST

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts._rect(662, 10, 128, 128)

    def enter(self, ts: TouchScreen) -> None:
        self.since = time.monotonic()

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = [Button(Action.UNDO, "Undo", ts._rect(6, 404, 220, 70), _can_undo(view))]
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts._rect(236, 404, 220, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill((44, 18, 20))
        x = ts._x(24)
        ts._text("Camera lost", (x, ts._y(20)), 84, BAD)
        lost_for = int(time.monotonic() - getattr(self, "since", time.monotonic()))
        ts._text(f"for {lost_for} s", (x + ts._s(400), ts._y(44)), 36, DIM)
        message = (view.get("status") or {}).get("message") or "The camera stopped sending pictures."
        y = ts._wrap(message, (x, ts._y(92)), ts._s(600), 32, TEXT)
        y += ts._s(12)
        ts._text("What to do:", (x, y), 34, WARN)
        y += ts._s(34)
        for step in (
            "1. Check that the camera cable is pushed in at both ends.",
            "2. A USB camera: unplug it and plug it back in.",
            "3. Nothing is lost: the game goes on when the camera is back.",
        ):
            y = ts._wrap(step, (x + ts._s(12), y), ts._s(600), 30, TEXT) + ts._s(4)
        latest = ((view.get("game") or {}).get("latest")) or None
        if latest:
            ts._text(f"Last roll: sum {latest.get('total', 0)}", (ts._x(480), ts._y(420)), 36, TEXT)
        if ts._url(view):
            ts._draw_qr(ts._qr_url(view), self.qr_rect(ts))
        ts._draw_buttons(self.buttons(ts, view))


PHASE_COLOURS = {"current": ACCENT, "done": (40, 46, 56), "next": PANEL}


def _camera_attention(view: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(misplays, questions) of the view's camera block (``companion.camera``)."""
    camera = view.get("camera") or {}
    return list(camera.get("misplays") or []), list(camera.get("questions") or [])


class _Table(_ScreenState):
    """The game-tracking screen of a flow (see ``companion.flow`` for the view's ``game`` shape).

    With the camera (``view["camera"]``): a misplay it saw is shown at once over the players' table
    with the rule and the fix; the oldest waiting question ("Ann built Customs at [0, 1]?") gets
    Confirm / Dismiss buttons (and one button per other answer for questions with choices)."""

    screen = Screen.TABLE
    PANEL_TOP = 196  # y of the camera panel (px, 800 x 480 layout); it ends above the bottom buttons

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts._rect(700, 250, 94, 94)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        nxt = (view.get("game") or {}).get("next") or {}
        buttons = [
            Button(Action.NEXT_PHASE, f"Next: {nxt.get('label', '')}", ts._rect(6, 404, 330, 70), bool(nxt.get("enabled"))),
            Button(Action.UNDO, "Undo", ts._rect(344, 404, 150, 70), _can_undo(view)),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts._rect(502, 404, 100, 70)))
        _, questions = _camera_attention(view)
        if questions:
            q = questions[0]
            proposed = q.get("proposed")
            label = f"Yes: {proposed.capitalize()}" if proposed else "Confirm"
            answers = [(Action.CAMERA_CONFIRM, label, (("id", q["id"]),), "camera_confirm")]
            for choice in q.get("choices") or []:
                if choice != q.get("proposed"):
                    answers.append((Action.CAMERA_CONFIRM, choice.capitalize(), (("id", q["id"]), ("choice", choice)),
                                    f"camera_confirm:{choice}"))
            answers.append((Action.CAMERA_DISMISS, "Dismiss", (("id", q["id"]),), "camera_dismiss"))
            area = ts._rect(12, 338, 676, 56)
            gap = ts._s(8)
            width = (area.width - gap * (len(answers) - 1)) // len(answers)
            for k, (action, label, payload, key) in enumerate(answers):
                buttons.append(Button(action, label, pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
                                      True, payload, key))
        return buttons

    def _camera_panel(self, ts: TouchScreen, view: dict[str, Any], top: int) -> bool:
        """Draw the camera's misplays and oldest question over the players' table; False when there is none."""
        misplays, questions = _camera_attention(view)
        if not misplays and not questions:
            return False
        if not misplays:  # a question only: the players' table stays in view above it
            self._players(ts, view.get("game") or {}, ts._rect(6, top, 600, 292 - top))
            top = 296
        area = ts._rect(6, top, 688, 398 - top)
        pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts._s(8))
        x, y, width = area.x + ts._s(12), area.y + ts._s(6), area.width - ts._s(20)
        bottom = ts._y(334) if questions else area.bottom
        for m in misplays:
            if y + ts._s(84) > bottom:
                break
            colour = SEVERITY_COLOURS.get(m.get("severity"), BAD)
            pygame.draw.rect(ts.surface, colour, (area.x, y, ts._s(6), ts._s(82)))
            head = "MISPLAY" if m.get("severity", "error") == "error" else "CHECK"
            ts._text_fit(f"{head} - {m.get('player', '?')}: {m.get('message', '')}", (x, y), width, 28, colour, min_size=17)
            ts._text_fit(f"Rule: {m.get('source') or m.get('rule', '')}", (x, y + ts._s(26)), width, 24, DIM, min_size=15)
            if m.get("fix"):
                ts._text_fit(f"Fix: {m['fix']}", (x, y + ts._s(52)), width, 26, GOOD, min_size=15)
            y += ts._s(88)
        if questions:
            q = questions[0]
            more = f"  (+{len(questions) - 1} more)" if len(questions) > 1 else ""
            ts._text_fit(f"Camera: {q.get('text', '?')}{more}", (x, ts._y(306)), width, 30, TEXT, min_size=16)
            if q.get("error"):
                ts._text_fit(q["error"], (x, ts._y(302) - ts._s(18)), width, 20, BAD, min_size=14)
        return True

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        w = surface.get_width()
        ts._text_fit(game.get("title", ""), (ts._x(10), ts._y(8)), ts._x(330), 34, DIM)
        ts._text_fit(game.get("round_label", ""), (ts._x(10), ts._y(36)), ts._x(470), 40, TEXT)
        if game.get("pool") is not None:
            ts._text(f"{game.get('pool_label', 'VP pool')}: {game['pool']}", (w - ts._x(10), ts._y(14)), 48, WARN, anchor="topright")
        y = 76
        if game.get("last_round"):
            banner = ts._rect(6, y, 788, 40)
            pygame.draw.rect(surface, BAD, banner, border_radius=ts._s(8))
            why = "; ".join(game.get("ending") or [])
            ts._text_fit(f"LAST ROUND  {why}", banner.center, banner.width - 16, 38, TEXT, anchor="center")
            y += 44
        phases = game.get("phases") or []
        strip = ts._rect(6, y, 788, 70)
        if phases:
            gap = ts._s(6)
            width = (strip.width - gap * (len(phases) - 1)) // len(phases)
            for k, ph in enumerate(phases):
                box = pygame.Rect(strip.x + k * (width + gap), strip.y, width, strip.height)
                state = ph.get("state", "next")
                pygame.draw.rect(surface, PHASE_COLOURS.get(state, PANEL), box, border_radius=ts._s(8))
                colour = (16, 20, 24) if state == "current" else (DIM if state == "done" else TEXT)
                ts._text_fit(ph.get("label", ""), (box.centerx, box.y + ts._s(6)), box.width - 8, 32, colour, anchor="midtop", min_size=16)
                by = ", ".join(ph.get("by") or [])
                if by:
                    ts._text_fit(by, (box.centerx, box.bottom - ts._s(6)), box.width - 8, 22, colour, anchor="midbottom", min_size=14)
        else:
            pygame.draw.rect(surface, PANEL, strip, border_radius=ts._s(8))
        y += 74
        ts._text_fit(game.get("note", ""), (ts._x(10), ts._y(y)), ts._x(780), 26, DIM, min_size=16)
        y += 26
        if not self._camera_panel(ts, view, y):
            self._players(ts, game, ts._rect(6, y, 600, 340 - y))
            ts._draw_findings_with_rule(view.get("findings") or [], ts._rect(6, 372, 788, 28))
        ts._draw_buttons(self.buttons(ts, view))
        if ts._url(view):
            ts._draw_qr(ts._qr_url(view), self.qr_rect(ts))
        message = (view.get("status") or {}).get("message") or ""
        if not nxt_enabled(game) and (game.get("next") or {}).get("why"):
            message = game["next"]["why"]
        markers = (view.get("camera") or {}).get("markers")
        if markers:
            message = markers.get("message") or "calibration markers moved"
            ts._text_fit("Markers moved: recalibrate", (ts._x(700), ts._y(232)), ts._x(94), 20, WARN, min_size=12)
        elif ts._url(view):
            ts._text_fit("Phones: tap", (ts._x(747), ts._y(234)), ts._x(94), 20, DIM, anchor="midtop", min_size=12)
        ts._text_fit(message, (ts._x(610), ts._y(420)), ts._x(184), 22, DIM, min_size=14)

    @staticmethod
    def _players(ts: TouchScreen, game: dict[str, Any], area: pygame.Rect) -> None:
        """The players' rows: name (waiting ones marked) and the columns the game declares (``game["columns"]``;
        Tableau, Credits, VP when it declares none), narrower when there are more than three."""
        players = game.get("players") or []
        columns = game.get("columns") or DEFAULT_COLUMNS
        step = 120 if len(columns) <= 3 else (600 - 260) / len(columns)  # design px: the area is 600 wide
        size = 36 if len(columns) <= 3 else 28
        ts._text("Player", (area.x, area.y), 22, DIM)
        for k, c in enumerate(columns):
            ts._text_fit(str(c.get("label", "")), (area.x + ts._x(260 + k * step), area.y), ts._x(step - 6), 22, DIM,
                         min_size=12)
        row_h = max(ts._s(22), min(ts._s(40), (area.height - ts._s(20)) // max(1, len(players))))
        y = area.y + ts._s(20)
        for p in players:
            pygame.draw.circle(ts.surface, seat_rgb(p.get("colour")), (area.x + ts._s(8), y + row_h // 2), ts._s(7))
            name = p.get("name", "?") + ("  (waiting)" if p.get("waiting") else "")
            ts._text_fit(name, (area.x + ts._s(22), y + row_h // 2), ts._x(235), 32, WARN if p.get("waiting") else TEXT, anchor="midleft", min_size=16)
            for k, c in enumerate(columns):
                value = p.get(str(c.get("key")))
                ts._text_fit("-" if value is None else str(value), (area.x + ts._x(260 + k * step), y + row_h // 2),
                             ts._x(step - 6), size, TEXT, anchor="midleft", min_size=14)
            y += row_h


def nxt_enabled(game: dict[str, Any]) -> bool:
    """Whether the flow's Next button can be pressed now."""
    return bool((game.get("next") or {}).get("enabled"))


DEFAULT_COLUMNS = [{"key": "tableau", "label": "Tableau"}, {"key": "credits", "label": "Credits"}, {"key": "vp", "label": "VP"}]
"""The player columns of a view that names none (``companion.flow_spec.STANDARD_COLUMNS``)."""

SEAT_COLOURS = {"red": (220, 70, 60), "blue": (70, 130, 230), "green": (80, 190, 110), "yellow": (235, 200, 60),
                "purple": (160, 100, 210), "white": (230, 230, 230),
                "black": (70, 70, 76), "grey": (150, 150, 150), "natural": (214, 184, 140)}
"""How a seat colour is drawn (games name their seat colours in ``game.info.colours``)."""


def seat_rgb(colour: Any) -> tuple[int, int, int]:
    """The RGB a seat colour is drawn in: :data:`SEAT_COLOURS`, else pygame's colour of that name, else the text colour."""
    if colour in SEAT_COLOURS:
        return SEAT_COLOURS[colour]
    try:
        c = pygame.Color(str(colour))
    except ValueError:
        return TEXT
    return (c.r, c.g, c.b)


class _Scores(_ScreenState):
    """End of a flow game: the breakdown by category, each player's total, the winner."""

    screen = Screen.SCORES

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = [Button(Action.UNDO, "Undo", ts._rect(6, 404, 200, 70), _can_undo(view))]
        if (view.get("camera") or {}).get("count") is not None:  # Roll with --dice-profile: the dice count
            buttons.append(Button(Action.READ_NOW, "Count dice", ts._rect(214, 404, 200, 70), True, (), "count_dice"))
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts._rect(422, 404, 110, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        result = game.get("result") or {"players": [], "winners": []}
        won = result.get("winners") or []
        ts._text_fit(f"{game.get('title', '')}: game over", (ts._x(10), ts._y(8)), ts._x(780), 34, DIM)
        headline = ("Winner: " if len(won) == 1 else "Shared win: ") + ", ".join(won)
        ts._text_fit(headline, (ts._x(10), ts._y(40)), ts._x(780), 56, GOOD)
        players = result.get("players") or []
        categories = [c["category"] for c in players[0]["categories"]] if players else []
        table = ts._rect(6, 100, 788, 266 if (view.get("camera") or {}).get("count") is not None else 296)
        label_w = ts._x(230)
        col_w = (table.width - label_w) // max(1, len(players))
        rows = len(categories) + 2
        row_h = min(ts._s(34), table.height // max(1, rows))
        for k, p in enumerate(players):
            x = table.x + label_w + k * col_w
            colour = GOOD if p.get("winner") else TEXT
            ts._text_fit(p["name"], (x + col_w // 2, table.y), col_w - 6, 30, colour, anchor="midtop", min_size=14)
        y = table.y + row_h
        for cat in categories:
            ts._text_fit(cat, (table.x, y), label_w - 6, 26, DIM, min_size=14)
            for k, p in enumerate(players):
                x = table.x + label_w + k * col_w
                ts._text(str(p["breakdown"].get(cat, 0)), (x + col_w // 2, y), 28, TEXT, anchor="midtop")
            y += row_h
        pygame.draw.line(surface, DIM, (table.x, y), (table.right, y), 1)
        ts._text("Total", (table.x, y + ts._s(4)), 34, TEXT)
        for k, p in enumerate(players):
            x = table.x + label_w + k * col_w
            ts._text(str(p["total"]), (x + col_w // 2, y + ts._s(2)), 40, GOOD if p.get("winner") else TEXT, anchor="midtop")
        ts._draw_buttons(self.buttons(ts, view))
        count = (view.get("camera") or {}).get("count")
        if count is not None:
            ts._text_fit(count.get("prompt") or "", (ts._x(10), ts._y(372)), ts._x(780), 24, WARN, min_size=14)
            ts._text_fit("Export: companion export --json FILE / --bgstats FILE", (ts._x(424), ts._y(420)), ts._x(370), 22, DIM, min_size=12)
        else:
            ts._text_fit("Export: companion export --json FILE / --bgstats FILE", (ts._x(350), ts._y(430)), ts._x(440), 22, DIM, min_size=14)


class _Setup(_ScreenState):
    """Setting up a game: the table picture (tap a player, then their seat on it), the players with
    their colours, Add player, Split evenly, Start (``companion.setup_flow``)."""

    screen = Screen.SETUP

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts._rect(700, 300, 94, 94)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        game = view.get("game") or {}
        players = game.get("players") or []
        buttons = []
        for k, p in enumerate(players[:5]):
            buttons.append(Button(Tap.SETUP_PICK, p["name"], ts._rect(466, 70 + k * 56, 328, 50), True,
                                  (("player", p["name"]),), f"setup_pick:{p['name']}"))
        full = len(players) >= int(game.get("max_players") or 5)
        buttons += [
            Button(Action.SETUP_PLAYER, "Add player", ts._rect(6, 404, 190, 70), not full,
                   (("player", _next_player_name(players)),)),
            Button(Action.SETUP_EVEN, "Split evenly", ts._rect(204, 404, 220, 70), bool(players)),
            Button(Action.SETUP_START, "Start", ts._rect(432, 404, 220, 70), bool(game.get("can_start"))),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts._rect(680, 404, 114, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        ts._draw_frame(frame, ts._rect(6, 6, 448, 336))
        seats = (game.get("seat_points") or {})
        size = view.get("frame") or {}
        if ts.frame_rect is not None and size.get("width"):
            for p in game.get("players") or []:
                point = seats.get(p["name"])
                if point:
                    x = ts.frame_rect.x + point[0] * ts.frame_rect.width / size["width"]
                    y = ts.frame_rect.y + point[1] * ts.frame_rect.height / size["height"]
                    pygame.draw.circle(surface, seat_rgb(p["colour"]), (round(x), round(y)), ts._s(12))
                    lx = min(max(round(x), ts.frame_rect.x + ts._s(40)), ts.frame_rect.right - ts._s(40))
                    ts._text(p["name"], (lx, round(y) - ts._s(14)), 24, TEXT, anchor="midbottom")
        ts._text_fit(f"{game.get('title', '')}: setup", (ts._x(466), ts._y(8)), ts._x(328), 34, TEXT)
        hint = (f"Tap the table where {ts.seating} sits" if ts.seating
                else "Tap a player, then their seat on the picture")
        ts._text_fit(hint, (ts._x(466), ts._y(40)), ts._x(328), 24, ACCENT if ts.seating else DIM, min_size=14)
        for b in self.buttons(ts, view):
            if b.action != Tap.SETUP_PICK:
                continue
            p = next(q for q in game.get("players") or [] if q["name"] == b.label)
            chosen = ts.seating == p["name"]
            pygame.draw.rect(surface, BUTTON_PRESSED if chosen else PANEL, b.rect, border_radius=ts._s(8))
            pygame.draw.circle(surface, seat_rgb(p["colour"]), (b.rect.x + ts._s(20), b.rect.centery), ts._s(10))
            ts._text_fit(p["name"], (b.rect.x + ts._s(40), b.rect.centery), b.rect.width - ts._s(130), 32, TEXT,
                         anchor="midleft", min_size=16)
            state = "seat set" if p.get("seated") else ("even split" if game.get("zones") == "even" else "no seat")
            ts._text(state, (b.rect.right - ts._s(8), b.rect.centery), 22, GOOD if p.get("seated") else DIM, anchor="midright")
        if not game.get("players"):
            ts._text_fit("No players yet: add them on a phone (scan the code) or here", (ts._x(466), ts._y(80)),
                         ts._x(328), 24, DIM, min_size=14)
        ts._draw_buttons([b for b in self.buttons(ts, view) if b.action != Tap.SETUP_PICK])
        message = game.get("why") or (view.get("status") or {}).get("message") or ""
        ts._text_fit(message, (ts._x(6), ts._y(350)), ts._x(448), 24, WARN if game.get("why") else DIM, min_size=14)
        if ts._url(view):
            ts._draw_qr(ts._qr_url(view), self.qr_rect(ts))


DIE_COLOURS = {"white": (236, 236, 230), "red": (200, 52, 46), "purple": (132, 72, 172), "blue": (52, 102, 212),
               "brown": (128, 84, 50), "green": (60, 160, 82), "yellow": (236, 202, 52)}
"""RGB of the Roll for the Galaxy die colours on the enrollment screen's swatch."""

ENROLL_KEYS = {pygame.K_RETURN: Action.ENROLL_OK, pygame.K_KP_ENTER: Action.ENROLL_OK, pygame.K_SPACE: Action.ENROLL_OK,
               pygame.K_a: Action.ENROLL_ANOTHER, pygame.K_r: Action.ENROLL_RETAKE, pygame.K_b: Action.ENROLL_BACK,
               pygame.K_BACKSPACE: Action.ENROLL_BACK, pygame.K_s: Action.ENROLL_SKIP, pygame.K_ESCAPE: Action.QUIT,
               pygame.K_q: Action.QUIT}
"""Keys of the enrollment screen: Enter/Space OK, A another photo, R retake, B/Backspace back, S skip, Esc/Q quit."""

ENROLL_BUTTONS = ((Action.ENROLL_OK, "OK"), (Action.ENROLL_ANOTHER, "Another"), (Action.ENROLL_RETAKE, "Retake"),
                  (Action.ENROLL_BACK, "Back"), (Action.ENROLL_SKIP, "Skip"), (Action.QUIT, "Quit"))


def _photos(n: int) -> str:
    """``"1 photo"`` / ``"3 photos"``."""
    return f"{n} photo" if n == 1 else f"{n} photos"


class _Enroll(_ScreenState):
    """The guided dice enrollment (``companion.enroll_guided``; the view's ``"enroll"`` block): the
    prompt on top, the live picture (or the captured photo with a box per die seen) on the left, the
    pair's colour and face, the check ("3 dice seen") and the progress on the right, and OK / Another /
    Retake / Back / Skip / Quit along the bottom. After the walk: what happened and where the photos are."""

    screen = Screen.ENROLL
    WALKING = ("prompt", "check")

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        e = view.get("enroll") or {}
        if e.get("step") not in self.WALKING:
            return []
        enabled = e.get("buttons") or {}
        area = ts._rect(6, 404, 788, 70)
        gap = ts._s(8)
        width = (area.width - gap * (len(ENROLL_BUTTONS) - 1)) // len(ENROLL_BUTTONS)
        buttons = []
        for k, (action, label) in enumerate(ENROLL_BUTTONS):
            if action is Action.ENROLL_OK and e.get("step") == "check":
                label = "OK: next"
            buttons.append(Button(action, label, pygame.Rect(area.x + k * (width + gap), area.y, width, area.height),
                                  bool(enabled.get(action))))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        e = view.get("enroll") or {}
        step = e.get("step")
        if step not in self.WALKING:
            self._ended(ts, e, frame)
            return
        surface.fill(BG)
        pair = e.get("pair") or {}
        seen = e.get("seen")
        if step == "check":
            head, colour = ((f"{seen} {'die' if seen == 1 else 'dice'} seen", GOOD) if seen
                            else ("No dice seen", BAD))
            ts._text_fit(f"{pair.get('colour', '').capitalize()} {pair.get('face', '').capitalize()}: {head}",
                         (ts._x(10), ts._y(10)), ts._x(780), 48, colour, min_size=26)
            hint = "Is every die boxed? OK: next pair. Another: one more photo." if seen else \
                "Check the light and that the dice are in view, then Retake."
            ts._text_fit(hint, (ts._x(10), ts._y(52)), ts._x(780), 28, DIM, min_size=16)
        else:
            ts._wrap(e.get("prompt", ""), (ts._x(10), ts._y(8)), ts._x(780), 40, TEXT)
        ts._draw_frame(frame, ts._rect(6, 84, 552, 310))
        x, y, width = ts._x(568), ts._y(84), ts._x(226)
        swatch = pygame.Rect(x, y, ts._s(96), ts._s(96))
        fill = DIE_COLOURS.get(pair.get("colour", ""), PANEL)
        pygame.draw.rect(surface, fill, swatch, border_radius=ts._s(14))
        pygame.draw.rect(surface, DIM, swatch, width=2, border_radius=ts._s(14))
        ink = (20, 20, 20) if sum(fill) > 500 else TEXT
        ts._text_fit(pair.get("face", "").upper(), swatch.center, swatch.width - 8, 28, ink, anchor="center", min_size=14)
        ts._text_fit(pair.get("colour", "").capitalize(), (swatch.right + ts._s(10), swatch.y + ts._s(8)),
                     x + width - swatch.right - ts._s(10), 34, TEXT, min_size=16)
        ts._text_fit(pair.get("face", "").capitalize(), (swatch.right + ts._s(10), swatch.y + ts._s(44)),
                     x + width - swatch.right - ts._s(10), 34, TEXT, min_size=16)
        y = swatch.bottom + ts._s(10)
        ts._text_fit(f"Pair {int(e.get('index', 0)) + 1} of {e.get('total', 0)}", (x, y), width, 30, ACCENT, min_size=16)
        y += ts._s(32)
        if step == "prompt":
            status, colour = (("Hold still...", WARN) if e.get("waiting_still") else ("Tap OK when ready", DIM))
        else:
            status, colour = (f"{seen} {'die' if seen == 1 else 'dice'} seen", GOOD) if seen else ("No dice seen", BAD)
        ts._text_fit(status, (x, y), width, 36, colour, min_size=18)
        y += ts._s(38)
        ts._text_fit(f"This pair: {_photos(e.get('pair_photos', 0))}", (x, y), width, 24, DIM, min_size=14)
        y += ts._s(24)
        ts._text_fit(f"All: {_photos(e.get('photos', 0))}, {e.get('pairs_done', 0)}/{e.get('pairs_total', 0)} pairs",
                     (x, y), width, 24, DIM, min_size=14)
        y += ts._s(28)
        message = e.get("message") or ""
        if message and step == "prompt" and not e.get("waiting_still"):
            self._small_wrap(ts, message, (x, y), width, ts._y(398))
        ts._draw_buttons(self.buttons(ts, view))

    @staticmethod
    def _small_wrap(ts: TouchScreen, text: str, pos: tuple[int, int], width: int, bottom: int) -> None:
        """Word-wrapped small dim text that stops above ``bottom`` (px)."""
        font = ts._font(20)
        x, y = pos
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and font.size(trial)[0] > width:
                if y + font.get_linesize() > bottom:
                    return
                ts.surface.blit(ts._render_text(line, 20, DIM), (x, y))
                y += font.get_linesize()
                line = word
            else:
                line = trial
        if line and y + font.get_linesize() <= bottom:
            ts.surface.blit(ts._render_text(line, 20, DIM), (x, y))

    @staticmethod
    def _ended(ts: TouchScreen, e: dict[str, Any], frame: np.ndarray | None) -> None:
        """After the walk: building / saved / failed / stopped / camera lost, and where the photos are."""
        step = e.get("step")
        titles = {"finished": ("Every pair done", GOOD), "building": ("Building the dice profile...", ACCENT),
                  "saved": ("Dice profile saved", GOOD), "failed": ("Profile not built", BAD),
                  "stopped": ("Enrollment stopped", WARN), "camera_lost": ("Camera lost", BAD)}
        title, colour = titles.get(step, (str(step), TEXT))
        ts.surface.fill((44, 18, 20) if step == "camera_lost" else BG)
        x, width = ts._x(24), ts._x(752)
        ts._text_fit(title, (x, ts._y(24)), width, 72, colour)
        y = ts._wrap(e.get("message") or "", (x, ts._y(110)), width, 32, TEXT) + ts._s(16)
        ts._text_fit(f"Kept: {_photos(e.get('photos', 0))} ({e.get('pairs_done', 0)} of {e.get('pairs_total', 0)} pairs), in:",
                     (x, y), width, 30, DIM, min_size=16)
        y += ts._s(32)
        ts._text_fit(e.get("folder") or "", (x, y), width, 28, TEXT, min_size=12)
        y += ts._s(44)
        if step in ("stopped", "camera_lost", "failed"):
            for line in ("Nothing is lost. To go on later:", "companion enroll roll-dice --guided --keep FOLDER",
                         "or build from the photos so far: companion enroll roll-dice FOLDER"):
                ts._text_fit(line, (x, y), width, 28, WARN if line.startswith("Nothing") else TEXT, min_size=14)
                y += ts._s(30)


def _next_player_name(players: list[dict[str, Any]]) -> str:
    """``"Player N"`` for the first N not taken (players added on the touchscreen have no keyboard)."""
    names = {p.get("name") for p in players}
    return next(f"Player {k}" for k in range(1, 10) if f"Player {k}" not in names)


def _can_undo(view: dict[str, Any]) -> bool:
    """Whether there is anything to undo (unknown counts as yes)."""
    session = view.get("session") or {}
    if "events" in session:
        return bool(session.get("events"))
    return ((view.get("game") or {}).get("latest")) is not None


class TouchScreen:
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
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(size[0]), int(size[1]))
        if surface is not None and surface.get_size() != self.size:
            raise ValueError(f"surface is {surface.get_size()} px but size is {self.size} px")
        self.surface = surface if surface is not None else pygame.Surface(self.size)
        self.surface.fill(BG)
        self.debug = debug
        self.phone_url = phone_url
        self.pairing = pairing
        self.phones_open = False
        """The phones panel is shown (a tap on the QR code opens it, Back closes it)."""
        self.revoke_armed = False
        """"New QR code" was tapped once; the second tap unjoins every phone."""
        self._sx = self.size[0] / BASE_SIZE[0]
        self._sy = self.size[1] / BASE_SIZE[1]
        from companion.screen_phones import PhonesPanel

        self._handlers: dict[Screen, _ScreenState] = {
            h.screen: h for h in (_Waiting(), _Watching(), _CameraLost(), _Table(), _Scores(), _Setup(), _Enroll(),
                                  PhonesPanel())
        }
        self.seating: str | None = None
        """The player whose seat the next tap on the table picture sets (setup screen), or None."""
        self.state = Screen.WAITING
        self._handlers[self.state].enter(self)
        self._view: dict[str, Any] = {}
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text_cache: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}
        self._qr_cache: tuple[str, int, pygame.Surface] | None = None
        self._frame_source: object = None
        self._frame_array: np.ndarray | None = None
        self._frame_cache: tuple[object, tuple[int, int], pygame.Surface] | None = None
        self._pressed: str | None = None
        self.frame_rect: pygame.Rect | None = None
        """Where the frame was drawn on the last render (px), or None when there was no frame."""

    @classmethod
    def for_display(cls, size: tuple[int, int] = BASE_SIZE, fullscreen: bool = True, **kw: Any) -> TouchScreen:
        """Open the pygame display (full screen on the Pi, mouse cursor hidden) and draw on it.

        Without ``XDG_RUNTIME_DIR`` (a console login, a container) SDL prints "XDG_RUNTIME_DIR is invalid
        or not set" while probing Wayland; a private runtime folder is set first so a box without a
        desktop does not print an error that is not one.

        Raises:
            pygame.error: no video device (set ``SDL_VIDEODRIVER``, e.g. ``kmsdrm`` or ``dummy``).
        """
        if not os.environ.get("XDG_RUNTIME_DIR"):
            os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="companion-runtime-")  # mode 0700
        pygame.display.init()
        flags = pygame.FULLSCREEN if fullscreen else 0
        surface = pygame.display.set_mode(size, flags)
        pygame.display.set_caption("Tabletop companion")
        if fullscreen:
            pygame.mouse.set_visible(False)
        # Full screen gives the display's own size (an HDMI monitor, not the 7" panel): lay out for it.
        return cls(size=surface.get_size(), surface=surface, **kw)

    # ------------------------------------------------------------------ public API

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
        view, frame = self._unpack(snapshot)
        self._view = view
        current = self._handlers[self.state]
        wanted = current.validate(view)
        if self.phones_open and wanted not in (Screen.ENROLL, Screen.SCORES):
            wanted = Screen.PHONES
        elif wanted in (Screen.ENROLL, Screen.SCORES):
            self.phones_open = False
        if wanted is not self.state:
            current.exit(self)
            self._pressed = None
            self.state = wanted
            self._handlers[wanted].enter(self)
        self.frame_rect = None
        self._handlers[self.state].do(self, view, frame)
        return self.surface

    @property
    def buttons(self) -> dict[str, Button]:
        """The current screen's buttons by action name (as of the last render)."""
        return {b.name: b for b in self._handlers[self.state].buttons(self, self._view)}

    @property
    def qr_target(self) -> Button | None:
        """The QR code as a touch target (``phones_panel``: a tap opens the phones panel), or None."""
        handler = self._handlers[self.state]
        qr = handler.qr_rect(self) if handler.qr_tappable else None
        if qr is None or not self._url(self._view):
            return None
        return Button(Tap.PHONES_PANEL, "Phones", qr)

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

    def handle_event(self, event: pygame.event.Event, hub: Any) -> str | None:
        """Turn a pygame event into an action posted to ``hub`` (``origin="touchscreen"``).

        A tap is a left-button press and release on the same enabled button. SDL turns
        touches into mouse events (``event.touch`` is True), so finger events are not
        handled separately (that would post twice). Keys: Space = read now, N = next phase, U or
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
        if event.type == pygame.QUIT:
            action = Action.QUIT
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            down = self.button_at(event.pos)
            self._pressed = None if down is None else down.name
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            pressed, self._pressed = self._pressed, None
            released = self.button_at(event.pos)
            if released is not None and released.name == pressed:
                action, payload = released.action, dict(released.payload)
                if action == Tap.SETUP_PICK:  # whose seat the next tap sets: the screen's own business
                    self.seating = payload.get("player")
                    return None
                if action in PANEL_ACTIONS:  # opening, closing, arming: the screen's own business too
                    self._panel(action)
                    return None
                if action == Action.REVOKE_PHONES:
                    self.revoke_armed = False
            elif released is None and self.state is Screen.SETUP and self.seating:
                point = self._frame_point(event.pos)
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

        Raises:
            pygame.error: the file cannot be written.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    # ------------------------------------------------------------------ input

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

    # ------------------------------------------------------------------ layout helpers

    def _s(self, v: float) -> int:
        return max(1, round(v * min(self._sx, self._sy)))

    def _x(self, v: float) -> int:
        return round(v * self._sx)

    def _y(self, v: float) -> int:
        return round(v * self._sy)

    def _rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        return pygame.Rect(self._x(x), self._y(y), self._x(w), self._y(h))

    def _url(self, view: dict[str, Any]) -> str | None:
        return view.get("phone_url") or self.phone_url

    def _qr_url(self, view: dict[str, Any]) -> str | None:
        """The QR code's link: the join link of the current pairing, else the bare phone-view URL."""
        from companion.netinfo import join_url

        base = self._url(view)
        pairing = self.pairing() if self.pairing is not None else None
        return join_url(base, getattr(pairing, "secret", None)) if base else None

    def _debug_buttons(self) -> list[Button]:
        if not self.debug:
            return []
        return [Button(Action.QUIT, "Quit", self._rect(680, 404, 114, 70))]

    # ------------------------------------------------------------------ drawing helpers

    def _font(self, size: int) -> pygame.font.Font:
        size = self._s(size)
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = pygame.font.Font(None, size)
        return font

    def _render_text(self, text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        """Rendered text, cached (the same labels are drawn every frame; text is slow on a Pi)."""
        key = (text, size, colour)
        image = self._text_cache.get(key)
        if image is None:
            if len(self._text_cache) >= 512:
                self._text_cache.clear()
            image = self._text_cache[key] = self._font(size).render(text, True, colour)
        return image

    def _text(
        self, text: str, pos: tuple[int, int], size: int, colour: tuple[int, int, int], anchor: str = "topleft"
    ) -> pygame.Rect:
        image = self._render_text(text, size, colour)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        return rect

    def _text_fit(
        self,
        text: str,
        pos: tuple[int, int],
        width: int,
        size: int,
        colour: tuple[int, int, int],
        anchor: str = "topleft",
        min_size: int = 22,
    ) -> pygame.Rect:
        """Text at the largest size in ``min_size``..``size`` that fits ``width``, else cut with "..."."""
        while size > min_size and self._font(size).size(text)[0] > width:
            size -= 2
        font = self._font(size)
        if font.size(text)[0] > width:
            while text and font.size(text + "...")[0] > width:
                text = text[:-1]
            text += "..."
        return self._text(text, pos, size, colour, anchor)

    def _wrap(self, text: str, pos: tuple[int, int], width: int, size: int, colour: tuple[int, int, int]) -> int:
        """Word-wrapped text from ``pos``; returns the y below the last line."""
        font = self._font(size)
        x, y = pos
        line = ""
        for word in text.split():
            trial = f"{line} {word}".strip()
            if line and font.size(trial)[0] > width:
                self.surface.blit(self._render_text(line, size, colour), (x, y))
                y += font.get_linesize()
                line = word
            else:
                line = trial
        if line:
            self.surface.blit(self._render_text(line, size, colour), (x, y))
            y += font.get_linesize()
        return y

    def _draw_qr(self, url: str, rect: pygame.Rect) -> None:
        side = min(rect.width, rect.height)
        if self._qr_cache is None or self._qr_cache[:2] != (url, side):
            try:
                self._qr_cache = (url, side, qr_surface(url, side))
            except ValueError:
                return
        self.surface.blit(self._qr_cache[2], rect.topleft)

    def _draw_buttons(self, buttons: list[Button]) -> None:
        for button in buttons:
            if not button.enabled:
                fill, colour = BUTTON_DISABLED, DIM
            elif button.name == self._pressed:
                fill, colour = BUTTON_PRESSED, TEXT
            else:
                fill, colour = (BAD if button.action == Action.QUIT else BUTTON), TEXT
            pygame.draw.rect(self.surface, fill, button.rect, border_radius=self._s(10))
            self._text_fit(button.label, button.rect.center, button.rect.width - 12, 44, colour, anchor="center")

    def _draw_frame(self, frame: np.ndarray | None, area: pygame.Rect) -> None:
        pygame.draw.rect(self.surface, (0, 0, 0), area)
        if frame is None:
            self._text("No picture yet", area.center, 40, DIM, anchor="center")
            return
        key = (self._frame_source, area.size)
        if self._frame_cache is None or self._frame_cache[:2] != key:
            self._frame_cache = (self._frame_source, area.size, frame_to_surface(frame, area.size))
        image = self._frame_cache[2]
        rect = image.get_rect(center=area.center)
        self.surface.blit(image, rect)
        self.frame_rect = rect

    def _draw_status(self, view: dict[str, Any], area: pygame.Rect) -> None:
        status = view.get("status") or {}
        camera, camera_colour = CAMERA_TEXT.get(status.get("camera"), (f"Camera {status.get('camera', '?')}", DIM))
        reader, reader_colour = READER_TEXT.get(status.get("reader"), (str(status.get("reader") or ""), DIM))
        radius = self._s(7)
        pygame.draw.circle(self.surface, camera_colour, (area.x + radius, area.centery), radius)
        x = area.x + 2 * radius + self._s(6)
        rect = self._text(camera, (x, area.centery), 28, camera_colour, anchor="midleft")
        x = rect.right + self._s(10)
        if reader and status.get("camera") == "ok":
            rect = self._text(reader, (x, area.centery), 28, reader_colour, anchor="midleft")
            x = rect.right + self._s(10)
        message = status.get("message") or ""
        if message and area.right - x > 40:
            self._text_fit(message, (x, area.centery), area.right - x, 24, DIM, anchor="midleft")

    def _draw_findings(self, findings: list[dict[str, Any]], area: pygame.Rect) -> None:
        if not findings:
            return
        first = findings[0]
        colour = SEVERITY_COLOURS.get(first.get("severity"), WARN)
        pygame.draw.rect(self.surface, colour, (area.x, area.y, self._s(6), area.height))
        more = f"  (+{len(findings) - 1} more)" if len(findings) > 1 else ""
        where = f" - {first['where']}" if first.get("where") else ""
        text = f"{first.get('what', '?')}{where}"
        more_width = self._font(24).size(more)[0] if more else 0
        x = area.x + self._s(12)
        rect = self._text_fit(text, (x, area.centery), area.right - x - more_width, 26, colour, anchor="midleft")
        if more:
            self._text(more, (rect.right, area.centery), 24, DIM, anchor="midleft")

    def _draw_findings_with_rule(self, findings: list[dict[str, Any]], area: pygame.Rect) -> None:
        """The newest finding: what, where and the rule it breaks, and what to do (game flows)."""
        if not findings:
            return
        first = findings[0]
        colour = SEVERITY_COLOURS.get(first.get("severity"), WARN)
        pygame.draw.rect(self.surface, colour, (area.x, area.y - self._s(30), self._s(6), area.height + self._s(30)))
        where = f" ({first['where']})" if first.get("where") else ""
        x = area.x + self._s(12)
        self._text_fit(f"{first.get('what', '?')}{where}", (x, area.y - self._s(28)), area.right - x - self._s(110), 26, colour, min_size=14)
        rule = first.get("rule") or ""
        todo = first.get("todo") or ""
        self._text_fit(" - ".join(t for t in (rule, todo) if t), (x, area.y + self._s(2)), area.right - x, 22, DIM, min_size=16)

    def _draw_counts(self, latest: dict[str, Any] | None, area: pygame.Rect) -> None:
        counts = (latest or {}).get("counts") or {}
        values = {face: int(counts.get(str(face), counts.get(face, 0)) or 0) for face in range(1, 7)}
        most = max(values.values()) or 1
        row_h = area.height // 6
        face_side = row_h - self._s(4)
        bar_x = area.x + face_side + self._s(12)
        bar_w_max = area.right - bar_x - self._s(56)
        for i, face in enumerate(range(1, 7)):
            top = area.y + i * row_h
            face_rect = pygame.Rect(area.x, top + self._s(2), face_side, face_side)
            pygame.draw.rect(self.surface, DIE_FACE, face_rect, border_radius=self._s(6))
            self._text(str(face), face_rect.center, 46, DIE_PIP, anchor="center")
            n = values[face]
            bar_h = row_h - self._s(12)
            bar_rect = pygame.Rect(bar_x, top + (row_h - bar_h) // 2, bar_w_max, bar_h)
            pygame.draw.rect(self.surface, PANEL, bar_rect, border_radius=self._s(4))
            if n:
                filled = bar_rect.copy()
                filled.width = max(self._s(6), math.floor(bar_w_max * n / most))
                pygame.draw.rect(self.surface, ACCENT, filled, border_radius=self._s(4))
            self._text(f"x{n}", (area.right, top + row_h // 2), 44, TEXT if n else DIM, anchor="midright")

    def _draw_total(self, latest: dict[str, Any] | None, game: dict[str, Any], area: pygame.Rect) -> None:
        pygame.draw.rect(self.surface, PANEL, area, border_radius=self._s(8))
        self._text("Sum", (area.x + self._s(10), area.centery), 34, DIM, anchor="midleft")
        total = "-" if latest is None else str(latest.get("total", 0))
        rect = self._text(total, (area.x + self._s(74), area.centery + self._s(2)), 84, TEXT, anchor="midleft")
        x = max(rect.right + self._s(14), area.x + self._s(190))
        rolls = game.get("rolls")
        if rolls is not None:
            self._text(f"roll {rolls}", (x, area.y + self._s(8)), 26, DIM)
        unreadable = int((latest or {}).get("unreadable") or 0)
        self._text(
            f"{unreadable} unreadable", (x, area.bottom - self._s(8)), 26, WARN if unreadable else DIM, anchor="bottomleft"
        )

    def _draw_history(self, history: list[dict[str, Any]], area: pygame.Rect) -> None:
        self._text("Recent rolls (newest first)", (area.x, area.y), 22, DIM)
        line_h = self._s(18)
        y = area.y + self._s(18)
        if not history:
            self._text("none yet", (area.x, y), 24, DIM)
            return
        for roll in history[: max(1, (area.bottom - y) // line_h)]:
            values = " ".join("?" if v is None else str(v) for v in roll.get("values") or [])
            line = f"#{roll.get('seq', '?')}: {values} = {roll.get('total', 0)}"
            self._text_fit(line, (area.x, y), area.width, 24, TEXT)
            y += line_h
