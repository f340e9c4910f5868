"""The box's own screens: the game chooser, the history of games played, the settings, and a phone's request to
change the settings (Allow / Refuse). Each only shows the view and posts actions (:mod:`companion.modes`:
``choose``, ``history``, ``settings``; ``view["box"]["asking"]``); every target is at least 48 px."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _, format_datetime
from companion.screen.canvas import (
    ACCENT,
    BG,
    BUTTON,
    BUTTON_PRESSED,
    DIM,
    GOOD,
    PANEL,
    QR_SIDE,
    TEXT,
    WARN,
    Button,
    offline,
)
from companion.screen.game import score_table, tie_broken
from companion.screen.states import Screen, ScreenState, Tap

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen

__all__ = ["Asking", "Choose", "History", "Settings"]


def _bottom(ts: TouchScreen, view: dict[str, Any], items: list[tuple[str, str, bool]]) -> list[Button]:
    """A row of buttons along the bottom (design y 404-474), evenly wide."""
    area = ts.rect(6, 404, 788, 70)
    gap = ts.s(8)
    width = (area.width - gap * (len(items) - 1)) // max(1, len(items))
    return [Button(action, label, pygame.Rect(area.x + k * (width + gap), area.y, width, area.height), enabled)
            for k, (action, label, enabled) in enumerate(items)]


def _players_line(summary: dict[str, Any], ts: TouchScreen) -> str:
    """"Ann 42 ★, Bob 37" (finished) or "Ann, Bob" (open)."""
    parts = []
    for p in summary.get("players") or []:
        if summary.get("finished"):
            star = f" {ts.sign('winner')}" if p.get("winner") else ""
            parts.append(f"{p['name']} {p.get('total', 0)}{star}")
        else:
            parts.append(str(p["name"]))
    return ", ".join(parts)


class Choose(ScreenState):
    """The game chooser: a big button per game (its players), the games left open (Resume), History, Settings."""

    screen = Screen.CHOOSE

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(800 - 6 - QR_SIDE, 6, QR_SIDE, QR_SIDE)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        block = view.get("choose") or {}
        games = block.get("games") or []
        buttons = []
        columns = 2
        width = (800 - 12 - QR_SIDE - 12 - 8 * (columns - 1)) // columns
        for k, g in enumerate(games[:6]):
            row, col = divmod(k, columns)
            buttons.append(Button(Action.CHOOSE_GAME, g["title"],
                                  ts.rect(6 + col * (width + 8), 52 + row * 80, width, 72),
                                  True, (("game", g["game"]),), f"choose_game:{g['game']}"))
        top = max(52 + ((min(len(games), 6) + columns - 1) // columns) * 80, 6 + QR_SIDE + 24) + 28
        for k, s in enumerate((block.get("open") or [])[: max(0, (396 - top) // 58)]):
            label = _("Resume: {title} - {players} ({round})").format(
                title=s["title"], players=_players_line(s, ts), round=s.get("round_label", ""))
            buttons.append(Button(Action.RESUME_GAME, label, ts.rect(6, top + k * 58, 788, 52), True,
                                  (("session", s["session"]),), f"resume_game:{s['session']}"))
        box = view.get("box") or {}
        row = [(Action.HISTORY, _("History"), True)]
        if box.get("settings"):
            row.append((Action.SETTINGS, _("Settings"), True))
        row.append((Action.BACK, _("Back"), bool(box.get("back"))))
        return buttons + _bottom(ts, view, row) + ts.debug_buttons()

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        ts.surface.fill(BG)
        block = view.get("choose") or {}
        qr = self.qr_rect(ts)
        ts.text_fit(_("Choose a game"), (ts.x(10), ts.y(10)), qr.x - ts.x(20), 44, TEXT)
        buttons = self.buttons(ts, view)
        ts.draw_buttons([b for b in buttons if b.action not in (Action.RESUME_GAME, Action.CHOOSE_GAME)])
        players = {g["game"]: g.get("players") for g in block.get("games") or []}
        for b in buttons:
            if b.action != Action.CHOOSE_GAME:
                continue
            game = dict(b.payload)["game"]
            pygame.draw.rect(ts.surface, BUTTON_PRESSED if b.name == ts.pressed else BUTTON, b.rect,
                             border_radius=ts.s(10))
            ts.text_fit(b.label, (b.rect.centerx, b.rect.y + ts.s(8)), b.rect.width - ts.s(16), 34, TEXT,
                        anchor="midtop", min_size=16)
            low_high = players.get(game)
            sub = (_("{low}-{high} players").format(low=low_high[0], high=low_high[1]) if low_high
                   else _("read the dice on the table"))
            ts.text_fit(sub, (b.rect.centerx, b.rect.bottom - ts.s(8)), b.rect.width - ts.s(16), 22, DIM,
                        anchor="midbottom", min_size=12)
        resume = [b for b in buttons if b.action == Action.RESUME_GAME]
        if resume:
            ts.text_fit(_("Left open: go back to it"), (ts.x(10), resume[0].rect.y - ts.s(24)), ts.x(780), 22, DIM,
                        min_size=12)
            for b in resume:
                pygame.draw.rect(ts.surface, PANEL, b.rect, border_radius=ts.s(8))
                pygame.draw.rect(ts.surface, ACCENT, b.rect, width=max(1, ts.s(2)), border_radius=ts.s(8))
                ts.text_fit(f"{ts.sign('current')} {b.label}", (b.rect.x + ts.s(12), b.rect.centery),
                            b.rect.width - ts.s(24), 28, TEXT, anchor="midleft", min_size=14)
        elif not block.get("open"):
            ts.text_fit(_("Each game is set up next: players, colours and seats"), (ts.x(10), ts.y(300)), ts.x(560),
                        22, DIM, min_size=12)
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), qr)
            if not offline(ts.url(view)):
                ts.hint(_("Phones: scan"), (qr.centerx, qr.bottom + ts.s(4)), qr.width + ts.s(6), DIM, size=20,
                        above=False)
        ts.draw_health(view, ts.rect(10, 380, 780, 22))


class History(ScreenState):
    """The games played: a page of games (newest first); one opened shows its scores with Export and Resume."""

    screen = Screen.HISTORY
    ROWS = 5
    qr_tappable = False

    def enter(self, ts: TouchScreen) -> None:
        ts.history_page = 0

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        block = view.get("history") or {}
        opened = block.get("open")
        if opened:
            row = [(Action.OPEN_GAME, _("All games"), True)]
            if opened.get("finished"):  # a game not over is exported once it is: its record holds what is hidden
                row.append((Action.EXPORT_GAME, _("Export"), True))
            else:
                row.append((Action.RESUME_GAME, _("Resume"), True))
            row.append((Action.GAMES, _("Games"), True))
            buttons = _bottom(ts, view, row)
            payload = {Action.EXPORT_GAME: (("session", opened["session"]),),
                       Action.RESUME_GAME: (("session", opened["session"]),)}
            return [Button(b.action, b.label, b.rect, b.enabled, payload.get(b.action, ()), b.key) for b in buttons]
        games = block.get("games") or []
        pages = max(1, (len(games) + self.ROWS - 1) // self.ROWS)
        page = min(getattr(ts, "history_page", 0), pages - 1)
        buttons = []
        for k, g in enumerate(games[page * self.ROWS:(page + 1) * self.ROWS]):
            when = format_datetime(g["started_at"], "short") if g.get("started_at") else ""
            state = _players_line(g, ts) if g.get("finished") else _("open: {round}").format(round=g.get("round_label"))
            buttons.append(Button(Action.OPEN_GAME, f"{when}  {g['title']}  {state}", ts.rect(6, 56 + k * 68, 788, 60),
                                  True, (("session", g["session"]),), f"open_game:{g['session']}"))
        return buttons + _bottom(ts, view, [
            (Tap.PAGE_BACK, "\u25c0 " + _("Newer"), page > 0), (Tap.PAGE_ON, _("Older") + " \u25b6", page < pages - 1),
            (Action.BACK, _("Back"), True), (Action.GAMES, _("Games"), True)]) + ts.debug_buttons()

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        ts.surface.fill(BG)
        block = view.get("history") or {}
        opened = block.get("open")
        if opened:
            self._opened(ts, view, opened)
            return
        games = block.get("games") or []
        ts.text_fit(_("Games played"), (ts.x(10), ts.y(10)), ts.x(780), 44, TEXT)
        if not games:
            ts.wrap(_("No game played yet: choose one under Games."), (ts.x(10), ts.y(80)), ts.x(780), 30, DIM)
        for b in self.buttons(ts, view):
            if b.action == Action.OPEN_GAME:
                pygame.draw.rect(ts.surface, BUTTON_PRESSED if b.name == ts.pressed else PANEL, b.rect,
                                 border_radius=ts.s(8))
                ts.text_fit(b.label, (b.rect.x + ts.s(12), b.rect.centery), b.rect.width - ts.s(24), 28, TEXT,
                            anchor="midleft", min_size=14)
        ts.draw_buttons([b for b in self.buttons(ts, view) if b.action != Action.OPEN_GAME])

    def _opened(self, ts: TouchScreen, view: dict[str, Any], opened: dict[str, Any]) -> None:
        when = format_datetime(opened["started_at"], "medium") if opened.get("started_at") else ""
        ts.text_fit(f"{opened['title']}  {when}", (ts.x(10), ts.y(8)), ts.x(780), 34, DIM)
        result = opened.get("result") or {}
        won = result.get("winners") or []
        if opened.get("finished"):
            head = (_("Winner: {names}") if len(won) == 1 else _("Shared win: {names}")).format(names=", ".join(won))
            ts.text_fit(f"{ts.sign('winner')} {head}", (ts.x(10), ts.y(42)), ts.x(780), 44, GOOD)
        else:
            ts.text_fit(_("Not finished: {round}").format(round=opened.get("round_label", "")), (ts.x(10), ts.y(42)),
                        ts.x(780), 40, WARN)
        # a finished game's equal totals that its tie-break decided: said and shown as on the scores screen; a game
        # not over whose totals leave out what players entered hidden (Eclipse's final positions): said why
        tied = tie_broken(result) if opened.get("finished") else []
        top = 96
        line = _("{names} tied on {vp} VP; the tie-break under the totals decides").format(
            names=", ".join(p["name"] for p in tied), vp=tied[0]["total"]) if tied else str(opened.get("hidden") or "")
        if line:
            ts.text_fit(line, (ts.x(10), ts.y(top - 4)), ts.x(780), 24, WARN, min_size=12)
            top += 24
        score_table(ts, result, ts.rect(6, top, 788, 346 - top), winners=bool(opened.get("finished")),
                    tiebreak=bool(tied))
        exported = opened.get("exported")
        note = (_("Saved: {path}").format(path=exported["json"]) if exported
                else _("Export saves the record and the BG Stats play on the box; phones download them")
                if opened.get("finished") else _("Export once the game is over: its record holds what the table has "
                                                 "not revealed yet"))
        ts.text_fit(note, (ts.x(10), ts.y(372)), ts.x(780), 20, GOOD if exported else DIM, min_size=11)
        ts.draw_buttons(self.buttons(ts, view))


class Settings(ScreenState):
    """Language (each in its own words), brightness and sound where the hardware allows, the game, Back."""

    screen = Screen.SETTINGS
    qr_tappable = False

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        block = view.get("settings") or {}
        buttons = []
        language = block.get("language") or {}
        for k, choice in enumerate(language.get("choices") or []):
            chosen = choice["code"] == language.get("value")
            label = f"{ts.sign('chosen')} {choice['name']}" if chosen else choice["name"]
            buttons.append(Button(Action.CHANGE_SETTING, label, ts.rect(200 + k * 149, 56, 141, 60), True,
                                  (("setting", "box.language"), ("value", choice["code"])),
                                  f"language:{choice['code']}"))
        brightness = block.get("brightness")
        if brightness:
            value, step = brightness["value"], brightness.get("step", 10)
            buttons += [
                Button(Action.CHANGE_SETTING, "\u2212", ts.rect(200, 140, 90, 60), value > 10,
                       (("setting", "screen.brightness"), ("value", max(10, value - step))), "brightness:down"),
                Button(Action.CHANGE_SETTING, "+", ts.rect(420, 140, 90, 60), value < 100,
                       (("setting", "screen.brightness"), ("value", min(100, value + step))), "brightness:up"),
            ]
        sound = block.get("sound")
        if sound:
            on = bool(sound.get("value"))
            buttons += [
                Button(Action.CHANGE_SETTING, (ts.sign("chosen") + " " if on else "") + _("On"),
                       ts.rect(200, 224, 141, 60),
                       True, (("setting", "sound.on"), ("value", True)), "sound:on"),
                Button(Action.CHANGE_SETTING, (ts.sign("chosen") + " " if not on else "") + _("Off"),
                       ts.rect(349, 224, 141, 60), True, (("setting", "sound.on"), ("value", False)), "sound:off"),
            ]
        buttons.append(Button(Action.GAMES, _("Choose another game"), ts.rect(500, 308, 294, 60)))
        return buttons + _bottom(ts, view, [(Action.BACK, _("Back"), True)]) + ts.debug_buttons()

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        ts.surface.fill(BG)
        block = view.get("settings") or {}
        ts.text_fit(_("Settings"), (ts.x(10), ts.y(8)), ts.x(780), 40, TEXT)
        labels = ((86, _("Language")), (170, _("Brightness")), (254, _("Sound")), (338, _("Game")))
        for y, label in labels:
            ts.text_fit(label, (ts.x(10), ts.y(y)), ts.x(180), 30, DIM, anchor="midleft", min_size=14)
        brightness = block.get("brightness")
        if brightness:
            ts.text_fit(f"{brightness['value']} %", (ts.x(355), ts.y(170)), ts.x(120), 36, TEXT, anchor="center")
        else:
            ts.text_fit(_("this display's brightness is not adjustable from the box"), (ts.x(200), ts.y(170)),
                        ts.x(590), 24, DIM, anchor="midleft", min_size=12)
        if not block.get("sound"):
            ts.text_fit(_("no buzzer is wired: the box makes no sound"), (ts.x(200), ts.y(254)), ts.x(590), 24, DIM,
                        anchor="midleft", min_size=12)
        ts.text_fit(block.get("game") or _("none yet"), (ts.x(200), ts.y(338)), ts.x(290), 30, TEXT,
                    anchor="midleft", min_size=12)
        url = ts.url(view)
        hint = (_("Owner page: {url}owner on a phone (the touchscreen then allows it)").format(url=url) if url
                else _("Owner page: on a phone, once the box has its phone view"))
        ts.text_fit(hint, (ts.x(10), ts.y(384)), ts.x(780), 20, DIM, min_size=11)
        buttons = self.buttons(ts, view)
        ts.draw_buttons(buttons)
        chosen = ts.sign("chosen")
        for b in buttons:  # what is set now: outlined, and its label starts with the sign
            if b.action == Action.CHANGE_SETTING and b.label.startswith(chosen):
                pygame.draw.rect(ts.surface, GOOD, b.rect, width=max(2, ts.s(3)), border_radius=ts.s(10))


class Asking(ScreenState):
    """A phone asks for the owner page, or for what it was refused (a seat another phone holds, leaving a game being
    played: ``view["box"]["asking"]["question"]``): the touchscreen (the table) allows it or refuses."""

    screen = Screen.ASKING
    qr_tappable = False

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        return [Button(Action.OWNER_ALLOW, _("Allow"), ts.rect(60, 330, 320, 90)),
                Button(Action.OWNER_REFUSE, _("Refuse"), ts.rect(420, 330, 320, 90))]

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        ts.surface.fill(BG)
        asking = (view.get("box") or {}).get("asking") or {}
        if asking.get("question"):  # a phone's refused tap, put to the table
            title = _("A phone asks")
            ts.text_fit(f"{ts.sign('WARN')} {title}", (ts.x(400), ts.y(30)), ts.x(760), 40, WARN, anchor="midtop")
            ts.wrap(str(asking["question"]), (ts.x(40), ts.y(100)), ts.x(720), 36, TEXT, max_lines=5)
            ts.draw_buttons(self.buttons(ts, view))
            return
        ts.text_fit(f"{ts.sign('WARN')} {_('Owner page')}", (ts.x(400), ts.y(30)), ts.x(760), 40, WARN,
                    anchor="midtop")
        y = ts.wrap(_("Allow this phone to change the box settings?"), (ts.x(40), ts.y(100)), ts.x(720), 44, TEXT,
                    max_lines=2)
        ts.wrap(_("{phone} asks for the owner page: the box's health, its language, brightness and sound. Allow it "
                  "only for the box's owner.").format(phone=asking.get("phone") or _("a phone")),
                (ts.x(40), y + ts.s(16)), ts.x(720), 28, DIM, max_lines=4)
        ts.draw_buttons(self.buttons(ts, view))
