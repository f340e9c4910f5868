"""The setup screen: the table picture (tap a player, then their seat on it), the players with their colours, the
game's options in play, Add player, Split evenly, Start (:mod:`companion.setup_flow`)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _, ngettext
from companion.player_names import taken_name
from companion.screen.canvas import (
    ACCENT,
    BG,
    BUTTON_PRESSED,
    DIM,
    GOOD,
    HINT_MIN_SIZE,
    PANEL,
    QR_SIDE,
    TEXT,
    WARN,
    Button,
)
from companion.screen.states import Screen, ScreenState, Tap, games_button

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen

ROWS = 4
"""Rows of seats the setup screen lists: two a row up to 8 players, three a row beyond (Eclipse seats 9: Rise of the
Ancients, the 7-9 player game)."""

CHIP_NAME_MIN_SIZE = 18
"""The smallest design size (px) of a player's name on a setup chip and over their seat in the table's picture, read
from close by at the box (the players' table keeps 24 across the table): a longer name is cut with "…" (40 letters
shrank to 12 px, not read); a first and last name ("Ζωή Παπαδοπούλου", "Małgorzata Wiśniewska") still fits whole in a
chip of two a row; over the seat (118 px) "Kovács Erzsébet" and "Γιώργος Νικολάου" do, a longer one is cut there (its
chip beside the picture names it whole; at 16 px the letters were 13 px high, hardly more than the 10 px before)."""


def _next_player_name(players: list[dict[str, Any]]) -> str:
    """``"Player N"`` for the first N whose name no player has, as the box compares names
    (:func:`companion.player_names.taken_name`: a phone's "player 1" takes "Player 1"); players added on the
    touchscreen have no keyboard."""
    names = [str(p.get("name")) for p in players]
    return next(_("Player {n}").format(n=k) for k in itertools.count(1)
                if taken_name(_("Player {n}").format(n=k), names) is None)


def options_in_play(options: list[dict[str, Any]]) -> list[str]:
    """The game's options in play (the setup view's ``game["options"]``), each as the phones name it: an on/off
    option's name ("the alliances module"), a list option with its names ("the objectives: Ghost Station, ...");
    options off and lists with no names are left out."""
    said = []
    for o in options:
        if isinstance(o.get("on"), list):
            if o["on"]:
                names = ", ".join(o["on"])
                said.append(_("{option}: {names}").format(option=o.get("name") or o["option"], names=names))
        elif o.get("on"):
            said.append(str(o.get("name") or o["option"]))
    return said


def options_line(on: list[str], shown: int) -> str:
    """What the setup screen says of the options in play ``on`` (:func:`options_in_play`), naming the first
    ``shown`` of them (the others counted: each phone lists them all)."""
    if not on:
        return _("Options in play: none")
    if shown >= len(on):
        return _("Options in play: {options}").format(options=", ".join(on))
    rest = len(on) - shown
    if shown == 0:
        return ngettext("{n} option in play (listed on the phones)", "{n} options in play (listed on the phones)",
                        rest).format(n=rest)
    return ngettext("Options in play: {options} and {n} more (listed on the phones)",
                    "Options in play: {options} and {n} more (listed on the phones)", rest).format(
        options=", ".join(on[:shown]), n=rest)


def draw_message_and_options(ts: TouchScreen, message: str, colour: tuple[int, int, int],
                             options: list[dict[str, Any]], area: pygame.Rect) -> None:
    """Under the table picture: why Start waits (or the box's status), then which of the game's options are in play
    (a game with no options: the message alone). Each whole: the message takes what it needs at 22 px down to the
    hints' smallest size, keeping a line for the options; the options name as many as fit, counting the rest."""
    line = ts.font(HINT_MIN_SIZE).get_linesize() if options else 0
    y = area.y
    if message:
        room = pygame.Rect(area.x, area.y, area.width, area.height - line)
        below = ts.whole(message, room, 22, colour)
        y = below if below is not None else ts.wrap(message, (area.x, area.y), area.width, 22, colour, max_lines=3)
    if not options:
        return
    on = options_in_play(options)
    room = pygame.Rect(area.x, y + ts.s(4), area.width, max(area.bottom - y - ts.s(4), 0))
    for shown in range(len(on), -1, -1):
        if ts.whole(options_line(on, shown), room, 20, TEXT) is not None:
            return
    ts.text_fit(options_line(on, 0), (room.x, min(room.y, area.bottom - line)), room.width, HINT_MIN_SIZE, TEXT,
                min_size=10)


def chip_said(game: dict[str, Any], p: dict[str, Any]) -> str:
    """What a player's setup chip says under their name: their colour's word (Eclipse's species, Among the Stars'
    race in its place: the dot's letters still say the colour) and their seat's state ("red, even split")."""
    state = _("seat set") if p.get("seated") else (_("even split") if game.get("zones") == "even" else _("no seat"))
    colour_said = (game.get("colour_words") or {}).get(p["colour"], p["colour"])
    picked = ", ".join(str(v) for v in (p.get("choices") or {}).values() if v)
    return _("{colour}, {state}").format(colour=picked or colour_said, state=state)


def chip_height(ts: TouchScreen, game: dict[str, Any], players: list[dict[str, Any]], width: int) -> int:
    """A setup chip's height (design px): 50, or taller where a chip's colour and state take two lines of their
    least size (a small window, :data:`companion.screen.canvas.READ_MIN_PX`) and the rows of chips still end above
    the buttons (y 400)."""
    room = ts.x(width) - ts.s(16)
    if not any(ts.font(10).size(chip_said(game, p))[0] > room for p in players):
        return 50
    rows = -(-len(players) // (2 if len(players) <= ROWS * 2 else 3))
    step = ts.font(10).get_linesize()
    needed = ts.design_y(ts.s(4) + ts.font(26).get_linesize() // 2 + ts.s(17) + 2 * step) + 2
    return max(50, min(needed, (400 - 180) // max(1, rows) - 4))


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
        columns = 2 if len(players) <= ROWS * 2 else 3  # the seats under the QR code, 380 px wide
        width = (380 - 8 * (columns - 1)) // columns
        height = chip_height(ts, game, players[:ROWS * columns], width)
        for k, p in enumerate(players[:ROWS * columns]):
            row, col = divmod(k, columns)
            chip = ts.rect(414 + col * (width + 8), 180 + row * (height + 4), width, height)
            buttons.append(Button(Tap.SETUP_PICK, p["name"], chip, True, (("player", p["name"]),),
                                  f"setup_pick:{p['name']}"))
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
                    ts.name_fit(p["name"], (lx, ly), ts.s(118), 24, TEXT, anchor="midbottom",
                                least=CHIP_NAME_MIN_SIZE)
        qr = self.qr_rect(ts)
        room = qr.x - ts.x(414) - ts.s(8)
        title = _("{title}: setup").format(title=game.get("title", ""))
        if ts.font(14).size(title)[0] <= room or " " not in title:
            hint_y = ts.y(44)
            ts.text_fit(title, (ts.x(414), ts.y(8)), room, 34, TEXT, min_size=14)
        else:  # two lines rather than a cut ("Roll for the Galaxy:" / "przygotowanie" at 480 x 320)
            hint_y = max(ts.y(44), ts.wrap(title, (ts.x(414), ts.y(8)), room, 14, TEXT, max_lines=2) + ts.s(4))
        hint = (
            _("Tap the table where {player} sits").format(player=ts.seating)
            if ts.seating
            else _("Tap a player, then their seat on the picture")
        )
        ts.wrap(hint, (ts.x(414), hint_y), room, 24, ACCENT if ts.seating else DIM, max_lines=3)
        players = {p["name"]: p for p in game.get("players") or []}
        for b in self.buttons(ts, view):
            if b.action != Tap.SETUP_PICK:
                continue
            p = players[b.label]
            chosen = ts.seating == p["name"]
            pygame.draw.rect(surface, BUTTON_PRESSED if chosen else PANEL, b.rect, border_radius=ts.s(8))
            ts.draw_seat_dot(p["colour"], (b.rect.x + ts.s(18), b.rect.y + ts.s(17)), ts.s(11))
            ts.name_fit(p["name"], (b.rect.x + ts.s(34), b.rect.y + ts.s(17)), b.rect.width - ts.s(40), 26, TEXT,
                        anchor="midleft", least=CHIP_NAME_MIN_SIZE)
            said = chip_said(game, p)
            room = b.rect.width - ts.s(16)
            if ts.font(10).size(said)[0] > room and len(ts.wrap_lines(said, room, 10)) == 2:
                # two lines under the name where the chip was made taller for them ("czerwony, podział" /
                # "po równo" at 480 x 320), each whole
                step = ts.font(10).get_linesize()
                if b.rect.y + ts.s(4) + ts.font(26).get_linesize() // 2 + ts.s(17) + 2 * step <= b.rect.bottom:
                    ts.wrap(said, (b.rect.x + ts.s(10), b.rect.bottom - ts.s(4) - 2 * step), room, 10,
                            GOOD if p.get("seated") else DIM)
                    continue
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
        draw_message_and_options(ts, message, WARN if game.get("why") else DIM, game.get("options") or [],
                                 ts.rect(6, 312, 400, 86))
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), qr)
        ts.draw_health(view, ts.rect(688, 404, 106, 70), size=16)
