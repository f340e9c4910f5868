"""The d6 screens: starting (the QR code while the camera comes up), watching the table (the picture, the tally of
the latest roll, its sum, the recent rolls, Read now / Undo), and a lost camera (what to do; nothing is lost)."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _, ngettext
from companion.screen.address import address_lines, draw_address
from companion.screen.canvas import (
    ACCENT,
    BAD,
    BG,
    DIM,
    PANEL,
    QR_SIDE,
    SEVERITY_COLOURS,
    TEXT,
    WARN,
    Button,
    Canvas,
)
from companion.screen.states import Screen, ScreenState, can_undo

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen


DIE_FACE = (246, 246, 240)


DIE_PIP = (20, 20, 20)


class Waiting(ScreenState):
    screen = Screen.WAITING
    qr_tappable = False  # the box is starting: no game to manage yet

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        rect = pygame.Rect(0, 0, ts.s(190), ts.s(190))
        rect.center = (ts.surface.get_width() // 2, ts.y(285))
        return rect

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        w, h = surface.get_size()
        ts.text_fit(_("Tabletop companion"), (w // 2, ts.y(70)), w - ts.s(40), 64, TEXT, anchor="center")
        ts.text_fit(
            _("Starting - waiting for the camera..."), (w // 2, ts.y(130)), w - ts.s(40), 36, DIM, anchor="center"
        )
        url = ts.url(view)
        if url:
            rect = self.qr_rect(ts)
            ts.draw_qr(ts.qr_url(view), rect)
            # two lines: the words at their own size, the address below (a long address shrinks alone)
            said = ts.text_fit(_("Phones: scan the code"), (w // 2, rect.bottom + ts.s(10)), w - ts.s(40), 32, TEXT,
                               anchor="midtop")
            ts.text_fit(url, (w // 2, said.bottom + ts.s(2)), w - ts.s(40), 26, DIM, anchor="midtop", min_size=16)
        ts.draw_buttons(self.buttons(ts, view))


class Watching(ScreenState):
    screen = Screen.WATCHING

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        rect = ts.rect(800 - 6 - QR_SIDE, 480 - 6 - QR_SIDE, QR_SIDE, QR_SIDE)
        rect.width = rect.height = min(rect.width, rect.height)
        return rect

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        camera_ok = (view.get("status") or {}).get("camera", "ok") == "ok"
        actions = [(Action.READ_NOW, _("Read now"), camera_ok), (Action.UNDO, _("Undo"), can_undo(view))]
        if (view.get("box") or {}).get("games"):
            actions.append((Action.GAMES, _("Games"), True))
        if ts.debug:
            actions.append((Action.QUIT, _("Quit"), True))
        area = ts.rect(6, 404, 448, 70)
        gap = ts.s(10)
        width = (area.width - gap * (len(actions) - 1)) // len(actions)
        return [
            Button(action, label, pygame.Rect(area.x + i * (width + gap), area.y, width, area.height), enabled)
            for i, (action, label, enabled) in enumerate(actions)
        ]

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        health = (view.get("box") or {}).get("health") or {}
        findings = view.get("findings") or []
        lift = finding_lift(ts, findings)
        ts.draw_frame(frame, ts.rect(6, 6, 448, 336 - lift))
        ts.draw_status(view, ts.rect(6, 346 - lift, 448, 26))
        if health.get("level") in ("WARN", "FAIL") and not findings:
            ts.draw_health(view, ts.rect(6, 374, 448, 26))
        elif lift:
            draw_finding_lines(ts, findings, ts.rect(6, 374 - lift, 448, 26 + lift))
        else:
            ts.draw_findings(findings, ts.rect(6, 374, 448, 26))
        ts.draw_buttons(self.buttons(ts, view))
        game = view.get("game") or {}
        latest = game.get("latest") or None
        draw_counts(ts, latest, ts.rect(466, 6, 328, 180))
        draw_total(ts, latest, game, ts.rect(466, 190, 328, 60))
        history = ts.rect(466, 256, 800 - 466 - 12 - QR_SIDE, 140)
        url = ts.url(view)
        if url:
            # the address whole at the window's foot (a player types it), the hint over it, the rolls above them:
            # on a small window the address takes two lines and the hint more, and the rolls give up their room
            qr_rect = self.qr_rect(ts)
            ts.draw_qr(ts.qr_url(view), qr_rect)
            room = qr_rect.x - ts.x(466) - ts.s(8)
            lines, size = address_lines(ts, url, room, 22)
            url_top = min(ts.y(452), ts.y(478) - len(lines) * ts.font(size).get_linesize())
            hint = _("Scan to join (tap the code: phones)")
            hint_size = next((at for at in range(20, 11, -1)  # the largest that fits over the address whole
                              if len(ts.wrap_lines(hint, room, at)) * ts.font(at).get_linesize()
                              <= url_top - ts.y(404) and ts.font(at).size(max(hint.split(), key=len))[0] <= room), 12)
            hint_h = len(ts.wrap_lines(hint, room, hint_size)) * ts.font(hint_size).get_linesize()
            hint_top = min(ts.y(404), url_top - hint_h)
            ts.wrap(hint, (ts.x(466), hint_top), room, hint_size, DIM)
            draw_address(ts, lines, size, (ts.x(466), url_top), room, TEXT)
            history.height = min(history.height, hint_top - ts.s(4) - history.y)
        draw_history(ts, game.get("history") or [], history)


class CameraLost(ScreenState):
    screen = Screen.CAMERA_LOST

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(800 - 6 - QR_SIDE, 6, QR_SIDE, QR_SIDE)

    def enter(self, ts: TouchScreen) -> None:
        self.since = time.monotonic()

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = [Button(Action.UNDO, _("Undo"), ts.rect(6, 404, 220, 70), can_undo(view))]
        if ts.debug:
            buttons.append(Button(Action.QUIT, _("Quit"), ts.rect(236, 404, 220, 70)))
        return buttons

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill((44, 18, 20))
        x = ts.x(24)
        ts.text_fit(_("{sign} Camera lost").format(sign=ts.sign('FAIL')), (x, ts.y(20)), ts.s(390), 84, BAD)
        lost_for = int(time.monotonic() - getattr(self, "since", time.monotonic()))
        ts.text_fit(_("for {seconds} s").format(seconds=lost_for), (x + ts.s(400), ts.y(44)), ts.s(220), 36, DIM)
        message = (view.get("status") or {}).get("message") or _("The camera stopped sending pictures.")
        y = ts.wrap(message, (x, ts.y(92)), ts.s(600), 32, TEXT, max_lines=3)
        y += ts.s(12)
        ts.text_fit(_("What to do:"), (x, y), ts.s(600), 34, WARN)
        y += ts.s(34)
        for step in (
            _("1. Check that the camera cable is pushed in at both ends."),
            _("2. A USB camera: unplug it and plug it back in."),
            _("3. Nothing is lost: the game goes on when the camera is back."),
        ):
            y = ts.wrap(step, (x + ts.s(12), y), ts.s(600), 30, TEXT, max_lines=2) + ts.s(4)
        latest = ((view.get("game") or {}).get("latest")) or None
        if latest:
            ts.text_fit(
                _("Last roll: sum {total}").format(total=latest.get('total', 0)),
                (ts.x(480), ts.y(420)),
                ts.x(310),
                36,
                TEXT,
            )
        if ts.url(view):
            ts.draw_qr(ts.qr_url(view), self.qr_rect(ts))
        ts.draw_buttons(self.buttons(ts, view))


def _finding_text(ts: Canvas, findings: list[dict[str, Any]]) -> str:
    first = findings[0]
    sign = ts.sign(first.get("severity", "warning"))
    if first.get("where"):
        return _("{sign} {what} - {where}").format(sign=sign, what=first.get("what", "?"), where=first["where"])
    return _("{sign} {what}").format(sign=sign, what=first.get("what", "?"))


def finding_lift(ts: Canvas, findings: list[dict[str, Any]]) -> int:
    """How far (design px) the picture's foot and the status rise on a window smaller than 800 x 480 so that the
    newest finding ("⚠ 1 ζάρι δεν διαβάστηκε· ελέγξτε το ή διορθώστε τη ζαριά") is read whole on two lines of
    12 px: one line's height where one line does not hold it, else 0 (800 x 480 keeps its one line)."""
    if not findings or ts.size[1] >= 480:
        return 0
    room = ts.x(448) - ts.s(12)
    if ts.font(12).size(_finding_text(ts, findings))[0] <= room:
        return 0
    return ts.design_y(ts.font(12).get_linesize())


def draw_finding_lines(ts: Canvas, findings: list[dict[str, Any]], area: pygame.Rect) -> None:
    """The newest finding over two lines of 12 px in ``area`` (px; :func:`finding_lift`), its severity's bar beside
    it and how many more there are after it; a longer one ends with "…" (the phones show it whole)."""
    colour = SEVERITY_COLOURS.get(findings[0].get("severity"), WARN)
    pygame.draw.rect(ts.surface, colour, (area.x, area.y, ts.s(6), area.height))
    text = _finding_text(ts, findings)
    if len(findings) > 1:
        text += "  " + _("(+{count} more)").format(count=len(findings) - 1)
    x = area.x + ts.s(12)
    ts.wrap(text, (x, area.y + ts.s(2)), area.right - x, 12, colour, max_lines=2)


def draw_counts(ts: Canvas, latest: dict[str, Any] | None, area: pygame.Rect) -> None:
    counts = (latest or {}).get("counts") or {}
    values = {face: int(counts.get(str(face), counts.get(face, 0)) or 0) for face in range(1, 7)}
    most = max(values.values()) or 1
    row_h = area.height // 6
    face_side = row_h - ts.s(4)
    bar_x = area.x + face_side + ts.s(12)
    bar_w_max = area.right - bar_x - ts.s(56)
    for i, face in enumerate(range(1, 7)):
        top = area.y + i * row_h
        face_rect = pygame.Rect(area.x, top + ts.s(2), face_side, face_side)
        pygame.draw.rect(ts.surface, DIE_FACE, face_rect, border_radius=ts.s(6))
        ts.text_fit(str(face), face_rect.center, face_rect.width, 46, DIE_PIP, anchor="center")
        n = values[face]
        bar_h = row_h - ts.s(12)
        bar_rect = pygame.Rect(bar_x, top + (row_h - bar_h) // 2, bar_w_max, bar_h)
        pygame.draw.rect(ts.surface, PANEL, bar_rect, border_radius=ts.s(4))
        if n:
            filled = bar_rect.copy()
            filled.width = max(ts.s(6), math.floor(bar_w_max * n / most))
            pygame.draw.rect(ts.surface, ACCENT, filled, border_radius=ts.s(4))
        ts.text_fit(f"x{n}", (area.right, top + row_h // 2), ts.s(54), 44, TEXT if n else DIM, anchor="midright",
                    min_size=16)


def draw_total(ts: Canvas, latest: dict[str, Any] | None, game: dict[str, Any], area: pygame.Rect) -> None:
    pygame.draw.rect(ts.surface, PANEL, area, border_radius=ts.s(8))
    label = _("Sum")  # as wide as its word at its least size needs (Greek "Άθροισμα" at 480 x 320), a third at most
    label_w = min(max(ts.s(62), ts.font(14).size(label)[0]), area.width // 3)
    ts.text_fit(label, (area.x + ts.s(10), area.centery), label_w, 34, DIM, anchor="midleft", min_size=14)
    total = "-" if latest is None else str(latest.get("total", 0))
    rect = ts.text_fit(total, (area.x + ts.s(12) + label_w, area.centery + ts.s(2)), ts.s(110), 84, TEXT,
                       anchor="midleft")
    rolls = game.get("rolls")
    said = ngettext("{n} roll", "{n} rolls", rolls).format(n=rolls) if rolls is not None else ""
    unreadable = int((latest or {}).get("unreadable") or 0)
    unread = ngettext("{n} unreadable", "{n} unreadable", unreadable).format(n=unreadable)
    x = max(rect.right + ts.s(14), area.x + ts.s(190))
    if max(ts.font(12).size(said)[0], ts.font(12).size(unread)[0]) > area.right - x - ts.s(6):
        x = rect.right + ts.s(14)  # the counts' words whole rather than in their column
    room = area.right - x - ts.s(6)
    if said:
        ts.text_fit(said, (x, area.y + ts.s(8)), room, 26, DIM, min_size=12)
    colour = WARN if unreadable else DIM
    if ts.font(12).size(unread)[0] <= room or " " not in unread:
        ts.text_fit(unread, (x, area.bottom - ts.s(8)), room, 26, colour, anchor="bottomleft", min_size=12)
    else:  # over two lines of its least size under the rolls ("0 δεν" / "διαβάστηκαν")
        lines = ts.wrap_lines(unread, room, 12)
        ts.wrap(unread, (x, area.bottom - ts.s(4) - len(lines) * ts.font(12).get_linesize()), room, 12, colour)


def draw_history(ts: Canvas, history: list[dict[str, Any]], area: pygame.Rect) -> None:
    """The latest rolls in ``area`` (px), newest first ("#2: 3 5 = 8"), as many as fit under their heading; the
    heading goes over two lines where one line at its least size would not hold it."""
    heading = _("Recent rolls (newest first)")
    if ts.font(12).size(heading)[0] <= area.width:
        ts.text_fit(heading, (area.x, area.y), area.width, 22, DIM, min_size=12)
        y = area.y + ts.s(18)
    else:  # two lines rather than a cut (its words are no smaller than READ_MIN_PX)
        y = ts.wrap(heading, (area.x, area.y), area.width, 12, DIM, max_lines=2) + ts.s(2)
    line_h = ts.s(18)
    if not history:
        ts.text_fit(_("none yet"), (area.x, y), area.width, 24, DIM)
        return
    for roll in history[: max(1, (area.bottom - y) // line_h)]:
        values = " ".join("?" if v is None else str(v) for v in roll.get("values") or [])
        line = f"#{roll.get('seq', '?')}: {values} = {roll.get('total', 0)}"
        ts.text_fit(line, (area.x, y), area.width, 24, TEXT)
        y += line_h
