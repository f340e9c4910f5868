"""Eclipse seats nine (Rise of the Ancients, the 7-9 player game): the touchscreen's setup lists every player to tap
for a seat, and its phones panel frees every player's seat. Found at a Hungarian table of nine: the setup listed
eight (Orsolya, seat 9, could not be picked to tap her seat), and the phones panel six ("+3 more": no Free seat for
seats 7-9)."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from companion.app import MainLoop
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.screen import Screen, TouchScreen
from companion.setup_flow import TableSetup
from device import FakeCamera
from vision.motion import StillnessDetector

W, H = 320, 240
NINE = ("Ágnes", "Bálint", "Zsófia", "Katalin", "László", "Gergely", "Erzsébet", "Krisztián", "Orsolya")


def _nine_at_the_table(store):
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.full((H, W, 3), (60, 90, 40), np.uint8)] * 30), reader=None, session=None,
                    hub=hub, stillness=StillnessDetector(), setup=TableSetup(store, FLOWS["eclipse"]),
                    make_camera=lambda flow: None, stop_at_end=True, sleep=lambda s: None)
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    loop.screen = screen
    loop.step()
    for name in NINE:
        hub.post_action("setup_player", origin="phone", player=name)
    loop.step()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == list(NINE)
    return loop, hub, screen


def _tap(screen, hub, pos):
    return [screen.handle_event(pygame.event.Event(t, button=1, pos=pos), hub)
            for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)][-1]


def _apart(rects) -> bool:
    return all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_the_setup_lists_all_nine_players_and_the_ninth_taps_her_seat(store, output_dir):
    loop, hub, screen = _nine_at_the_table(store)
    screen.render(hub.snapshot())
    assert screen.state is Screen.SETUP
    chips = [screen.buttons.get(f"setup_pick:{name}") for name in NINE]
    assert all(chip is not None for chip in chips), [n for n, c in zip(NINE, chips, strict=True) if c is None]
    others = [b.rect for key, b in screen.buttons.items() if not key.startswith("setup_pick:")]
    screen_rect = pygame.Rect(0, 0, 800, 480)
    qr = screen.qr_target.rect
    for chip in chips:  # on the screen, under the QR code, apart from each other and from the buttons below
        assert screen_rect.contains(chip.rect) and chip.rect.top >= qr.bottom
        assert chip.rect.width >= 110 and chip.rect.height >= 48  # a finger's tap
        assert not any(chip.rect.colliderect(other) for other in others)
    assert _apart([chip.rect for chip in chips])
    screen.save_png(output_dir / "setup_nine_players.png")
    # Orsolya (seat 9) taps her name, then her seat at the picture's right edge
    assert _tap(screen, hub, chips[8].rect.center) is None and screen.seating == "Orsolya"
    frame = screen.frame_rect
    assert _tap(screen, hub, (frame.right - 2, frame.centery)) == "setup_seat"
    loop.step()
    seat = hub.snapshot().view["game"]["seat_points"]["Orsolya"]
    assert seat[0] > 0.95 * W and abs(seat[1] - H / 2) < 0.05 * H


def test_the_phones_panel_frees_the_seat_of_each_of_nine_players(store, output_dir):
    loop, hub, screen = _nine_at_the_table(store)
    hub.post_action("setup_even", origin="touchscreen")
    hub.post_action("setup_start", origin="touchscreen")
    loop.step()
    for name in NINE:
        hub.post_action("claim_seat", origin="phone", client=f"{name}-phone", player=name)
    loop.step()
    screen.phones_open = True
    screen.render(hub.snapshot())
    frees = [screen.buttons.get(f"release_seat:{name}") for name in NINE]
    assert all(free is not None and free.enabled for free in frees), [
        n for n, f in zip(NINE, frees, strict=True) if f is None]
    others = [b.rect for key, b in screen.buttons.items() if not key.startswith("release_seat:")]
    for free in frees:
        assert pygame.Rect(0, 0, 800, 480).contains(free.rect) and free.rect.height >= 36  # 7 mm on the 7" screen
        assert not any(free.rect.colliderect(other) for other in others)
    assert _apart([free.rect for free in frees])
    screen.save_png(output_dir / "phones_nine_players.png")
    assert _tap(screen, hub, frees[8].rect.center) == "release_seat"
    loop.step()
    assert "Orsolya" not in loop.pairing.claims and "Krisztián" in loop.pairing.claims


LONGEST = ("Αλεξάνδρα-Κωνσταντίνα Παπαδοπούλου-Ξενοφ", "Małgorzata Wiśniewska-Szczepańska-Kowalcz",
           "Szentgyörgyi-Hegedűs Erzsébet Zsuzsanna", "Brzęczyszczykiewicz Grzegorz Władysław", "Ἀρχιμήδης",
           "Gergely Krisztián Orsolya Mária Ágnes", "Łucja", "Ζωή", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW")
"""Nine names of up to 40 characters (the most a name holds: :data:`companion.player_names.MAX_NAME`)."""


def _phones_view(names, claimed):
    """An Eclipse table's published view with ``names`` seated in the seat colours' order, seat ``k`` joined by a
    phone where ``claimed(k)``."""
    colours = ("red", "blue", "green", "yellow", "purple", "white", "black", "orange", "grey")
    players = [{"name": name, "colour": colour, "claimed": claimed(k)}
               for k, (name, colour) in enumerate(zip(names, colours, strict=False))]
    return {"game": {"flow": "eclipse", "title": "Eclipse", "players": players, "next": {"label": "Action"}},
            "status": {"message": "ok"}, "session": {"events": 3}, "phone_url": "http://192.168.100.200:8080/"}



def _phones_panel_in(screen, view, lang, words):
    """``screen`` draws ``view`` with its phones panel open in box language ``lang``; returns ``words`` said in it."""
    from companion import i18n

    screen.phones_open = True
    try:
        i18n.set_box_language(lang)
        said = i18n._(words)
        screen.render(view)
    finally:
        i18n.set_box_language("en")
    return said

@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
@pytest.mark.parametrize("seats", [6, 9])
def test_scan_to_join_and_the_link_are_drawn_whole_beside_six_or_nine_seats(seats, lang, output_dir):
    """With six seats or more the rows reach under the QR code's line: "Scan to join" and the join link ran on under
    the rows and were hidden there ("Σαρώστε για σύνδεση: ένα τηλέφωνο χωρίς αυτόν το…" cut by the sixth row). Both
    stay in the QR code's column, whole, above the note, in every language and beside the longest names."""
    from companion.hub import Pairing
    from companion.screen.canvas import ELLIPSIS
    from companion.screen.phones import PhonesPanel

    link = "http://192.168.100.200:8080/join/Zq3uV7aB9_kLmN0pQrStUv"  # a join secret: 22 characters (records.py)
    view = _phones_view(LONGEST[:seats], claimed=lambda k: k % 2 == 0)
    screen = TouchScreen(pairing=lambda: Pairing("g1", link.rsplit("/", 1)[1], {}))
    caption = _phones_panel_in(screen, view, lang, "Scan to join: a phone without this code only watches")
    screen.save_png(output_dir / f"phones_{seats}_players_{lang}.png")
    panel = PhonesPanel()
    rows = panel.row_rects(screen, seats)
    qr = panel.qr_rect(screen)
    assert all(qr.right < row.left for row in rows)
    drawn = [(str(text), rect) for text, rect, _room in screen.drawn]
    for text, rect in drawn:  # over a row only the row's own name and phone
        over = [row for row in rows if rect.colliderect(row)]
        assert over == [] or over[0].contains(rect), (text, rect, over)
    under_qr = [(text, rect) for text, rect in drawn if rect.top >= qr.bottom and rect.right <= rows[0].left]
    assert all(rect.bottom <= 376 and not text.endswith(ELLIPSIS) for text, rect in under_qr), under_qr
    lines = [text for text, _rect in under_qr]
    assert "".join(lines[:2]) == link and " ".join(lines[2:]) == caption


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
@pytest.mark.parametrize("seats", [6, 9])
def test_a_long_name_keeps_a_gap_before_its_phones_words_and_a_readable_size(seats, lang):
    """With six seats the Greek "τηλέφωνο συνδεδεμένο" touched a long name in its row (3 px apart, the name shrunk to
    13 px). The phone's words are placed first; the name takes the room left of them, 12 px apart, at the players'
    table's least size, cut with "…" past it."""
    from companion.screen.canvas import ELLIPSIS, NAME_MIN_SIZE
    from companion.screen.phones import NAME_GAP, PhonesPanel

    names = ("山田太郎左衛門之助長谷川", *LONGEST)[:seats]
    view = _phones_view(names, claimed=lambda k: True)
    screen = TouchScreen()
    joined = _phones_panel_in(screen, view, lang, "phone joined")
    drawn = [(str(text), rect) for text, rect, _room in screen.drawn]
    for name, row in zip(names, PhonesPanel().row_rects(screen, seats), strict=True):
        [(said, held)] = [(t, r) for t, r in drawn if row.contains(r) and t == joined]
        [(shown, rect)] = [(t, r) for t, r in drawn if row.contains(r) and r.left >= row.x + 30 and t != joined]
        assert rect.right + NAME_GAP <= held.left, (shown, rect, held)
        assert rect.height >= screen.font(min(NAME_MIN_SIZE, 24)).size("W")[1] - 1
        assert shown == name or (shown.endswith(ELLIPSIS) and name.startswith(shown[:-1].rstrip()))
