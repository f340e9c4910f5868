"""The setup screen: the table picture (tap a player, then their seat on it), the players with their colours, Add
player, Split evenly, Start (:mod:`companion.setup_flow`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.screen.canvas import (ACCENT, BG, BUTTON_PRESSED, DIM, GOOD, PANEL, TEXT, WARN, Button, seat_rgb)
from companion.screen.states import Screen, ScreenState, Tap

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


def _next_player_name(players: list[dict[str, Any]]) -> str:
    """``"Player N"`` for the first N not taken (players added on the touchscreen have no keyboard)."""
    names = {p.get("name") for p in players}
    return next(f"Player {k}" for k in range(1, 10) if f"Player {k}" not in names)


class Setup(ScreenState):
    """Setting up a game: the table picture (tap a player, then their seat on it), the players with
    their colours, Add player, Split evenly, Start (``companion.setup_flow``)."""

    screen = Screen.SETUP

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(700, 300, 94, 94)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        game = view.get("game") or {}
        players = game.get("players") or []
        buttons = []
        for k, p in enumerate(players[:5]):
            buttons.append(Button(Tap.SETUP_PICK, p["name"], ts.rect(466, 70 + k * 56, 328, 50), True,
                                  (("player", p["name"]),), f"setup_pick:{p['name']}"))
        full = len(players) >= int(game.get("max_players") or 5)
        buttons += [
            Button(Action.SETUP_PLAYER, "Add player", ts.rect(6, 404, 190, 70), not full,
                   (("player", _next_player_name(players)),)),
            Button(Action.SETUP_EVEN, "Split evenly", ts.rect(204, 404, 220, 70), bool(players)),
            Button(Action.SETUP_START, "Start", ts.rect(432, 404, 220, 70), bool(game.get("can_start"))),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, "Quit", ts.rect(680, 404, 114, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        ts.draw_frame(frame, ts.rect(6, 6, 448, 336))
        seats = (game.get("seat_points") or {})
        size = view.get("frame") or {}
        if ts.frame_rect is not None and size.get("width"):
            for p in game.get("players") or []:
                point = seats.get(p["name"])
                if point:
                    x = ts.frame_rect.x + point[0] * ts.frame_rect.width / size["width"]
                    y = ts.frame_rect.y + point[1] * ts.frame_rect.height / size["height"]
                    pygame.draw.circle(surface, seat_rgb(p["colour"]), (round(x), round(y)), ts.s(12))
                    lx = min(max(round(x), ts.frame_rect.x + ts.s(40)), ts.frame_rect.right - ts.s(40))
                    ts.text(p["name"], (lx, round(y) - ts.s(14)), 24, TEXT, anchor="midbottom")
        ts.text_fit(f"{game.get('title', '')}: setup", (ts.x(466), ts.y(8)), ts.x(328), 34, TEXT)
        hint = (f"Tap the table where {ts.seating} sits" if ts.seating
                else "Tap a player, then their seat on the picture")
        ts.text_fit(hint, (ts.x(466), ts.y(40)), ts.x(328), 24, ACCENT if ts.seating else DIM, min_size=14)
        for b in self.buttons(ts, view):
            if b.action != Tap.SETUP_PICK:
                continue
            p = next(q for q in game.get("players") or [] if q["name"] == b.label)
            chosen = ts.seating == p["name"]
            pygame.draw.rect(surface, BUTTON_PRESSED if chosen else PANEL, b.rect, border_radius=ts.s(8))
            pygame.draw.circle(surface, seat_rgb(p["colour"]), (b.rect.x + ts.s(20), b.rect.centery), ts.s(10))
            ts.text_fit(p["name"], (b.rect.x + ts.s(40), b.rect.centery), b.rect.width - ts.s(130), 32, TEXT,
                         anchor="midleft", min_size=16)
            state = "seat set" if p.get("seated") else ("even split" if game.get("zones") == "even" else "no seat")
            ts.text(state, (b.rect.right - ts.s(8), b.rect.centery), 22, GOOD if p.get("seated") else DIM, anchor="midright")
        if not game.get("players"):
            ts.text_fit("No players yet: add them on a phone (scan the code) or here", (ts.x(466), ts.y(80)),
                         ts.x(328), 24, DIM, min_size=14)
        ts.draw_buttons([b for b in self.buttons(ts, view) if b.action != Tap.SETUP_PICK])
        message = game.get("why") or (view.get("status") or {}).get("message") or ""
        ts.text_fit(message, (ts.x(6), ts.y(350)), ts.x(448), 24, WARN if game.get("why") else DIM, min_size=14)
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), self.qr_rect(ts))
