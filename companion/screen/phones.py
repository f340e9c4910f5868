"""The touchscreen's phones panel: the table (physically at the box) decides which phones may act.

Opened by tapping the QR code on any screen that shows it (or the P key). It shows the join code large,
each seat with whether a phone holds it and a "Free seat" button (posts ``release_seat``: another phone
may then claim it), "New QR code" (posts ``revoke_phones`` after a second tap: a new join secret, every
phone unjoined and every seat freed, everyone scans the new code) and Back. Like every screen it only
posts actions; the loop keeps the pairing (:class:`companion.hub.Pairing`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import _
from companion.screen.canvas import ACCENT, BG, DIM, GOOD, PANEL, TEXT, WARN, Button
from companion.screen.states import Screen, ScreenState, Tap

if TYPE_CHECKING:
    from companion.screen.window import TouchScreen

__all__ = ["PhonesPanel"]

ROWS = 6
"""Seats listed in full-size rows; more players (Eclipse seats 9: Rise of the Ancients, the 7-9 player game) are listed
in rows drawn closer (:data:`MOST`)."""
MOST = 9
"""Seats listed at most (the most any game seats)."""


def _rows(count: int) -> tuple[int, int, int]:
    """``(top, pitch, height)`` in px of the rows of ``count`` seats, right of the QR code and above the note at y 376:
    up to :data:`ROWS` rows of 48 px under the title's line, else up to :data:`MOST` rows of 36 px from the top."""
    return (62, 54, 48) if count <= ROWS else (10, 40, 36)


class PhonesPanel(ScreenState):
    """Handler of :attr:`Screen.PHONES` (see the module doc)."""

    screen = Screen.PHONES

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        return ts.rect(10, 60, 250, 250)

    def buttons(self, ts: TouchScreen, view: dict[str, Any]) -> list[Button]:
        buttons = []
        players = _players(view)
        top, pitch, height = _rows(len(players))
        for k, p in enumerate(players[:MOST]):
            buttons.append(
                Button(
                    Action.RELEASE_SEAT,
                    _("Free seat"),
                    ts.rect(640, top + k * pitch, 150, height),
                    bool(p.get("claimed")),
                    (("player", p["name"]),),
                    f"release_seat:{p['name']}",
                )
            )
        if ts.revoke_armed:
            buttons.append(Button(Action.REVOKE_PHONES, _("Tap again: unjoin every phone"), ts.rect(6, 404, 470, 70)))
        else:
            buttons.append(Button(Tap.REVOKE_ARM, _("New QR code"), ts.rect(6, 404, 470, 70)))
        buttons.append(Button(Tap.PHONES_CLOSE, _("Back"), ts.rect(484, 404, 310, 70)))
        return buttons + ts.debug_buttons()

    def do(self, ts: TouchScreen, view: dict[str, Any], frame: np.ndarray | None) -> None:
        surface = ts.surface
        surface.fill(BG)
        ts.text_fit(_("Phones"), (ts.x(10), ts.y(10)), ts.x(300), 44, TEXT)
        link = ts.qr_url(view)
        qr = self.qr_rect(ts)
        if link:
            ts.draw_qr(link, qr)
            ts.text_fit(link, (ts.x(10), qr.bottom + ts.s(8)), qr.width + ts.s(180), 22, DIM, min_size=12)
        ts.text_fit(_("Scan to join: a phone without this code only watches"), (ts.x(10), qr.bottom + ts.s(34)),
                     ts.x(440), 22, DIM, min_size=12)
        x = ts.x(276)
        players = _players(view)
        if not players:
            hint = (_("Seats are claimed once the game has players.") if (view.get("game") or {}).get("flow")
                    else _("Dice mode: every joined phone may Read now and Undo."))
            ts.wrap(hint, (x, ts.y(70)), ts.x(500), 28, DIM, max_lines=4)
        top, pitch, height = _rows(len(players))
        size = 30 if height >= 48 else 24
        for k, p in enumerate(players[:MOST]):
            row = ts.rect(276, top + k * pitch, 356, height)
            pygame.draw.rect(surface, PANEL, row, border_radius=ts.s(8))
            ts.draw_seat_dot(p.get("colour"), (row.x + ts.s(18), row.centery), ts.s(11))
            ts.text_fit(p["name"], (row.x + ts.s(36), row.centery), ts.x(170), size, TEXT, anchor="midleft",
                        min_size=14)
            held, colour = (_("phone joined"), GOOD) if p.get("claimed") else (_("no phone"), DIM)
            ts.text_fit(
                held, (row.right - ts.s(10), row.centery), ts.s(140), size - 6, colour, anchor="midright", min_size=12
            )
        if len(players) > MOST:
            ts.text_fit(
                _("+{count} more").format(count=len(players) - MOST), (x, ts.y(top + MOST * pitch)), ts.x(300), 22, DIM
            )
        note = (
            _("Every phone must scan the new code and claim its seat again; the game itself is kept.")
            if ts.revoke_armed
            else _("Free a seat when a player changes phone; a new code unjoins every phone.")
        )
        ts.text_fit(note, (ts.x(10), ts.y(376)), ts.x(780), 22, WARN if ts.revoke_armed else ACCENT, min_size=12)
        ts.draw_buttons(self.buttons(ts, view))


def _players(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in (view.get("game") or {}).get("players") or [] if isinstance(p, dict) and p.get("name")]
