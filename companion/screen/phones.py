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


COLUMN = (10, 256)
"""``(x, width)`` in px of the left column (the title, the QR code, the link and "Scan to join"), left of the seats'
rows at x 276: nothing in it is drawn under a row, whatever the number of seats."""
QR = (56, 206)
"""``(top, side)`` in px of the QR code, centred in the column: 206 px is 40 mm on the 7" screen, well over the 21 mm
phones need at arm's length (:data:`companion.screen.canvas.QR_SIDE`), and leaves room under it for the link and the
words, above the note at y 376."""
NOTE_Y = 376
"""The top of the note over the buttons (px)."""
NAME_GAP = 12
"""Px between a seat's name and its phone's words ("phone joined") in its row."""


def _rows(count: int) -> tuple[int, int, int]:
    """``(top, pitch, height)`` in px of the rows of ``count`` seats, right of the QR code and above the note at y 376:
    up to :data:`ROWS` rows of 48 px under the title's line, 4 px apart (the sixth ends at y 370), else up to
    :data:`MOST` rows of 36 px from the top."""
    return (62, 52, 48) if count <= ROWS else (10, 40, 36)


class PhonesPanel(ScreenState):
    """Handler of :attr:`Screen.PHONES` (see the module doc)."""

    screen = Screen.PHONES

    def qr_rect(self, ts: TouchScreen) -> pygame.Rect:
        x, width = COLUMN
        top, side = QR
        return ts.rect(x + (width - side) / 2, top, side, side)

    def row_rects(self, ts: TouchScreen, count: int) -> list[pygame.Rect]:
        """The rows of the first ``count`` seats (at most :data:`MOST`), in px, each beside its "Free seat"."""
        top, pitch, height = _rows(count)
        return [ts.rect(276, top + k * pitch, 356, height) for k in range(min(count, MOST))]

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
        column = ts.rect(COLUMN[0], 0, COLUMN[1], 0)
        ts.text_fit(_("Phones"), (column.x, ts.y(10)), column.width, 44, TEXT)
        link = ts.qr_url(view)
        qr = self.qr_rect(ts)
        y = qr.bottom + ts.s(6)
        if link:
            ts.draw_qr(link, qr)
            y = _draw_link(ts, link, (column.x, y), column.width)
        words = pygame.Rect(column.x, y + ts.s(4), column.width, ts.y(NOTE_Y - 2) - y - ts.s(4))
        caption = _("Scan to join: a phone without this code only watches")
        if ts.whole(caption, words, 20, DIM) is None:
            ts.wrap(caption, words.topleft, words.width, 14, DIM, max_lines=max(1, words.height // ts.s(17)))
        x = ts.x(276)
        players = _players(view)
        if not players:
            hint = (_("Seats are claimed once the game has players.") if (view.get("game") or {}).get("flow")
                    else _("Dice mode: every joined phone may Read now and Undo."))
            ts.wrap(hint, (x, ts.y(70)), ts.x(500), 28, DIM, max_lines=4)
        top, pitch, height = _rows(len(players))
        size = 30 if height >= 48 else 24
        for p, row in zip(players, self.row_rects(ts, len(players)), strict=False):
            pygame.draw.rect(surface, PANEL, row, border_radius=ts.s(8))
            ts.draw_seat_dot(p.get("colour"), (row.x + ts.s(18), row.centery), ts.s(11))
            held, colour = (_("phone joined"), GOOD) if p.get("claimed") else (_("no phone"), DIM)
            said = ts.text_fit(
                held, (row.right - ts.s(10), row.centery), ts.s(140), size - 6, colour, anchor="midright", min_size=12
            )
            # the name in the room left of the phone's words, a gap apart (the Greek "τηλέφωνο συνδεδεμένο" touched a
            # long name), cut with "…" as the players' table cuts rather than shrunk to 14 px
            left = row.x + ts.s(36)
            ts.name_fit(p["name"], (left, row.centery), said.left - ts.s(NAME_GAP) - left, size, TEXT, anchor="midleft")
        if len(players) > MOST:
            ts.text_fit(
                _("+{count} more").format(count=len(players) - MOST), (x, ts.y(top + MOST * pitch)), ts.x(300), 22, DIM
            )
        note = (
            _("Every phone must scan the new code and claim its seat again; the game itself is kept.")
            if ts.revoke_armed
            else _("Free a seat when a player changes phone; a new code unjoins every phone.")
        )
        ts.text_fit(note, (ts.x(10), ts.y(NOTE_Y)), ts.x(780), 22, WARN if ts.revoke_armed else ACCENT, min_size=12)
        ts.draw_buttons(self.buttons(ts, view))


def _draw_link(ts: TouchScreen, link: str, pos: tuple[int, int], width: int) -> int:
    """The join link from ``pos`` (px) on at most two lines of ``width`` px, at the largest design size from 18 down to
    12 at which it fits whole; a link has no spaces, so it breaks between characters, before its last "/" when that fits
    (the join secret whole on the second line, after the "/" that says it goes on). Longer still: the second line is cut
    with "…". Returns the y below the last line."""
    for size in range(18, 11, -1):
        font = ts.font(size)
        if font.size(link)[0] <= width:
            lines = [link]
            break
        cut = link.rfind("/")
        if 0 < cut < len(link) and font.size(link[:cut])[0] <= width and font.size(link[cut:])[0] <= width:
            lines = [link[:cut], link[cut:]]
            break
        cut = len(link)
        while cut > 1 and font.size(link[:cut])[0] > width:
            cut -= 1
        lines = [link[:cut], link[cut:]]
        if font.size(lines[1])[0] <= width:
            break
    x, y = pos
    for line in lines:
        ts.text_fit(line, (x, y), width, size, DIM, min_size=size)
        y += ts.font(size).get_linesize()
    return y


def _players(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in (view.get("game") or {}).get("players") or [] if isinstance(p, dict) and p.get("name")]
