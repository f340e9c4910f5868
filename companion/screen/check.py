"""The table check before the first round (:mod:`companion.modes.check`): the live picture with each player's zone
drawn over it (outlined in the seat's colour and named), what the box found (the camera, the light, the
calibration sheet, each with its sign), and one tap: "Looks right: play"."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _
from companion.screen.canvas import BG, DIM, GOOD, LEVEL_COLOURS, QR_SIDE, TEXT, WARN, Button, seat_rgb
from companion.screen.states import Screen, ScreenState, games_button

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen

__all__ = ["Check"]


class Check(ScreenState):
    """Handler of :attr:`Screen.CHECK` (see the module doc)."""

    screen = Screen.CHECK

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(800 - 6 - QR_SIDE, 232, QR_SIDE, QR_SIDE)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        check = view.get("check") or {}
        label = _("Looks right: play") if check.get("ok", True) else _("Play anyway")
        return [Button(Action.TABLE_OK, label, ts.rect(6, 404, 330, 70)),
                Button(Action.READ_NOW, _("Look again"), ts.rect(344, 404, 200, 70), True, (), "look_again"),
                *games_button(ts, view, ts.rect(552, 404, 134, 70)), *ts.debug_buttons()]

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        ts.surface.fill(BG)
        game = view.get("game") or {}
        check = view.get("check") or {}
        ts.draw_frame(frame, ts.rect(6, 6, 448, 336))
        size = view.get("frame") or {}
        players = {p["name"]: p for p in game.get("players") or []}
        if ts.frame_rect is not None and size.get("width"):
            fx, fy = ts.frame_rect.width / size["width"], ts.frame_rect.height / size["height"]
            for name, polygon in (check.get("zones") or {}).items():
                points = [(round(ts.frame_rect.x + x * fx), round(ts.frame_rect.y + y * fy)) for x, y in polygon]
                if len(points) < 3:
                    continue
                colour = (players.get(name) or {}).get("colour")
                pygame.draw.polygon(ts.surface, seat_rgb(colour), points, width=max(2, ts.s(3)))
                cx = sum(p[0] for p in points) // len(points)
                cy = sum(p[1] for p in points) // len(points)
                cx = min(max(cx, ts.frame_rect.x + ts.s(60)), ts.frame_rect.right - ts.s(60))
                cy = min(max(cy, ts.frame_rect.y + ts.s(16)), ts.frame_rect.bottom - ts.s(16))
                ts.draw_seat_dot(colour, (cx - ts.s(50), cy), ts.s(11))
                ts.text_fit(name, (cx - ts.s(34), cy), ts.s(100), 24, TEXT, anchor="midleft", min_size=12)
        ts.text_fit(_("Table check: {title}").format(title=game.get("title", "")), (ts.x(466), ts.y(8)), ts.x(328),
                    32, TEXT, min_size=14)
        ts.text_fit(_("Before the first round"), (ts.x(466), ts.y(40)), ts.x(328), 22, DIM, min_size=12)
        y = ts.y(72)
        for line in check.get("lines") or []:
            level = line.get("level", "OK")
            colour = LEVEL_COLOURS.get(level, DIM)
            ts.text_fit(ts.sign(level), (ts.x(466), y), ts.x(26), 26, colour, min_size=14)
            room = ts.x(300) if y + ts.s(52) < ts.y(226) else ts.x(800 - 12 - QR_SIDE - 494)
            y = ts.wrap(line.get("message", ""), (ts.x(494), y), room, 22, colour, max_lines=2) + ts.s(4)
            if y > ts.y(330):
                break
        hint = (_("Each player's zone is outlined in their colour: the camera reads what lies in it")
                if check.get("zones") else
                _("The camera reads the whole table: each player's station is found from its own reactor")
                if check.get("stations") else _("The table is split evenly at the first read"))
        ts.wrap(hint, (ts.x(10), ts.y(346)), ts.x(440), 20, DIM, max_lines=2)
        ts.text_fit(_("Ready") if check.get("ok", True) else _("Look at what is marked"), (ts.x(466), ts.y(370)),
                    ts.x(160), 24, GOOD if check.get("ok", True) else WARN, min_size=12)
        ts.draw_buttons(self.buttons(ts, view))
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), self.qr_rect(ts))
        ts.draw_health(view, ts.rect(694, 404, 100, 70), size=16)
