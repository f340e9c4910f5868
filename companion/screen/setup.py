"""The setup screen: the table picture (tap a player, then their seat on it), the players with their colours, Add
player, Split evenly, Start (:mod:`companion.setup_flow`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _
from companion.screen.canvas import ACCENT, BG, BUTTON_PRESSED, DIM, GOOD, PANEL, QR_SIDE, TEXT, WARN, Button
from companion.screen.states import Screen, ScreenState, Tap, games_button

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen

ROWS = 4
"""Rows of seats (two a row) the setup screen lists: 8 players."""


def _next_player_name(players: list[dict[str, Any]]) -> str:
    """``"Player N"`` for the first N not taken (players added on the touchscreen have no keyboard)."""
    names = {p.get("name") for p in players}
    return next(_("Player {n}").format(n=k) for k in range(1, 10) if _("Player {n}").format(n=k) not in names)


class Setup(ScreenState):
    """Setting up a game: the table picture (tap a player, then their seat on it), the players with
    their colours, Add player, Split evenly, Start (``companion.setup_flow``)."""

    screen = Screen.SETUP

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(800 - 6 - QR_SIDE, 6, QR_SIDE, QR_SIDE)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        game = view.get("game") or {}
        players = game.get("players") or []
        buttons = []
        for k, p in enumerate(players[:ROWS * 2]):  # two columns of seats under the QR code
            row, col = divmod(k, 2)
            buttons.append(Button(Tap.SETUP_PICK, p["name"], ts.rect(414 + col * 194, 180 + row * 54, 186, 50), True,
                                  (("player", p["name"]),), f"setup_pick:{p['name']}"))
        full = len(players) >= int(game.get("max_players") or 5)
        buttons += [
            Button(Action.SETUP_PLAYER, _("Add player"), ts.rect(6, 404, 170, 70), not full,
                   (("player", _next_player_name(players)),)),
            Button(Action.SETUP_EVEN, _("Split evenly"), ts.rect(184, 404, 180, 70), bool(players)),
            Button(Action.SETUP_START, _("Start"), ts.rect(372, 404, 180, 70), bool(game.get("can_start"))),
            *games_button(ts, view, ts.rect(560, 404, 120, 70)),
        ]
        if ts.debug:
            buttons.append(Button(Action.QUIT, _("Quit"), ts.rect(688, 404, 106, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        game = view.get("game") or {}
        ts.draw_frame(frame, ts.rect(6, 6, 400, 300))
        seats = (game.get("seat_points") or {})
        size = view.get("frame") or {}
        if ts.frame_rect is not None and size.get("width"):
            for p in game.get("players") or []:
                point = seats.get(p["name"])
                if point:
                    x = ts.frame_rect.x + point[0] * ts.frame_rect.width / size["width"]
                    y = ts.frame_rect.y + point[1] * ts.frame_rect.height / size["height"]
                    ts.draw_seat_dot(p["colour"], (round(x), round(y)), ts.s(12))
                    lx = min(max(round(x), ts.frame_rect.x + ts.s(60)), ts.frame_rect.right - ts.s(60))
                    ly = max(round(y) - ts.s(14), ts.frame_rect.y + ts.s(22))
                    ts.text_fit(p["name"], (lx, ly), ts.s(118), 24, TEXT, anchor="midbottom", min_size=12)
        qr = self.qr_rect(ts)
        room = qr.x - ts.x(414) - ts.s(8)
        ts.text_fit(
            _("{title}: setup").format(title=game.get("title", "")), (ts.x(414), ts.y(8)), room, 34, TEXT, min_size=14
        )
        hint = (
            _("Tap the table where {player} sits").format(player=ts.seating)
            if ts.seating
            else _("Tap a player, then their seat on the picture")
        )
        ts.wrap(hint, (ts.x(414), ts.y(44)), room, 24, ACCENT if ts.seating else DIM, max_lines=3)
        players = {p["name"]: p for p in game.get("players") or []}
        for b in self.buttons(ts, view):
            if b.action != Tap.SETUP_PICK:
                continue
            p = players[b.label]
            chosen = ts.seating == p["name"]
            pygame.draw.rect(surface, BUTTON_PRESSED if chosen else PANEL, b.rect, border_radius=ts.s(8))
            ts.draw_seat_dot(p["colour"], (b.rect.x + ts.s(18), b.rect.y + ts.s(17)), ts.s(11))
            ts.text_fit(
                p["name"],
                (b.rect.x + ts.s(34), b.rect.y + ts.s(17)),
                b.rect.width - ts.s(40),
                26,
                TEXT,
                anchor="midleft",
                min_size=12,
            )
            state = (
                _("seat set") if p.get("seated") else (_("even split") if game.get("zones") == "even" else _("no seat"))
            )
            colour_said = (game.get("colour_words") or {}).get(p["colour"], p["colour"])
            # Eclipse's species, Among the Stars' race: in place of the colour's word (the dot's letters still say it)
            picked = ", ".join(str(v) for v in (p.get("choices") or {}).values() if v)
            said = _("{colour}, {state}").format(colour=picked or colour_said, state=state)
            ts.text_fit(
                said,  # from under the seat dot: the whole chip's width for a species' words
                (b.rect.x + ts.s(10), b.rect.bottom - ts.s(4)),
                b.rect.width - ts.s(16),
                18,
                GOOD if p.get("seated") else DIM,
                anchor="bottomleft",
                min_size=10,
            )
        if not game.get("players"):
            ts.wrap(_("No players yet: add them on a phone (scan the code) or here"), (ts.x(414), ts.y(190)),
                    ts.x(380), 24, DIM, max_lines=3)
        ts.draw_buttons([b for b in self.buttons(ts, view) if b.action != Tap.SETUP_PICK])
        message = game.get("why") or (view.get("status") or {}).get("message") or ""
        ts.wrap(message, (ts.x(6), ts.y(312)), ts.x(400), 22, WARN if game.get("why") else DIM, max_lines=3)
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), qr)
        ts.draw_health(view, ts.rect(688, 404, 106, 70), size=16)
