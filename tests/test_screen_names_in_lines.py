"""Player names inside the touchscreen's longer lines and on the setup chips.

A player named only by emoji ("🎲") dropped out of a note built with names as parameters: Eclipse's "waiting for
ANN,, BELLA" (the font has no glyph for the die, and beside other words the name was left out). A 40-letter name on
a setup chip shrank to 12 px, not read; it now keeps 18 px and is cut with "…" as the players' table cuts."""

from __future__ import annotations

import pytest

from companion.i18n import Listing, Text, localize
from companion.screen import TouchScreen
from companion.screen.canvas import ELLIPSIS
from companion.screen.fonts import font_file
from companion.screen.setup import Setup

pytestmark = pytest.mark.skipif(font_file() is None, reason="no DejaVu or Noto font installed (./setup.sh installs it)")

DIE = "\U0001f3b2"  # GAME DIE: not in DejaVu Sans


@pytest.fixture
def no_symbol_font(monkeypatch):
    """A box without Symbola (``fonts-symbola``): an emoji DejaVu lacks cannot be drawn (with it, the die is drawn:
    ``tests/test_screen_emoji.py``)."""
    from companion.screen import fonts

    monkeypatch.setattr(fonts, "symbol_file", lambda: None)


def _waiting(names):
    return Text("the Action phase ends when everyone has passed (waiting for {players})", players=Listing(names))


def test_a_name_of_emoji_alone_reads_by_its_symbols_names_inside_the_touchscreens_lines(no_symbol_font):
    screen = TouchScreen()
    view = {"game": {"note": _waiting(["ANN", DIE, "BELLA"]), "turn": Text("{player}'s turn (clockwise)", player=DIE),
                     "players": [{"name": DIE}]}}
    said = screen._said(view)
    assert said["game"]["note"] == "the Action phase ends when everyone has passed (waiting for ANN, Game Die, BELLA)"
    assert said["game"]["turn"] == "Game Die's turn (clockwise)"
    assert said["game"]["players"][0]["name"] == DIE  # a name standing alone is what a button posts back: kept
    # a name with letters reads as before (the emoji beside it is left out where it is drawn), the separators too
    assert screen._said({"note": _waiting([f"Ζωή {DIE}", "Ádám"])})["note"].endswith("(waiting for Ζωή 🎲, Ádám)")


def test_the_phones_get_the_name_as_typed():
    """The phone's browser draws the emoji itself: what is said for a phone is unchanged."""
    assert localize(_waiting(["ANN", DIE, "BELLA"]), "en") == (
        "the Action phase ends when everyone has passed (waiting for ANN, \U0001f3b2, BELLA)")


def _chip_name(name: str):
    screen = TouchScreen()
    screen.begin()
    view = {"game": {"title": "Eclipse", "max_players": 6,
                     "players": [{"name": name, "colour": "white"}, {"name": "Ann", "colour": "red"}]}}
    Setup().do(screen, view, None)
    chip = next(b.rect for b in Setup().buttons(screen, view) if b.name == f"setup_pick:{name}")
    return screen, next((text, rect) for text, rect, _ in screen.drawn  # right of the seat dot, above the seat's state
                        if chip.contains(rect) and rect.left >= chip.x + 30 and rect.centery < chip.centery)


@pytest.mark.parametrize("name", ["W" * 40, "山" * 40, "Κωνσταντίνος Παπαδόπουλος-Καραγιαννόπουλ"])
def test_a_long_name_on_a_setup_chip_keeps_a_readable_size_and_is_cut(name):
    assert len(name) == 40
    screen, (text, rect) = _chip_name(name)
    assert rect.height >= screen.font(18).size("W")[1]  # before: 12 px
    assert text.endswith(ELLIPSIS) and name.startswith(text[:-1].rstrip()) and len(text) < 40


def test_a_short_name_on_a_setup_chip_is_whole_at_its_size():
    screen, (text, rect) = _chip_name("Ann")
    assert text == "Ann" and rect.height == screen.font(26).size("Ann")[1]


def test_a_first_and_last_name_on_a_setup_chip_is_whole():
    for name in ("Ζωή Παπαδοπούλου", "Małgorzata Wiśniewska"):
        _, (text, _) = _chip_name(name)
        assert text == name


def _seat_label(name: str):
    """The label over ``name``'s seat in the table's picture on the setup screen: ``(screen, (text, rect))``."""
    import numpy as np

    screen = TouchScreen()
    screen.begin()
    view = {"frame": {"width": 640, "height": 480},
            "game": {"title": "Eclipse", "max_players": 6, "seat_points": {name: [320, 240]},
                     "players": [{"name": name, "colour": "white"}, {"name": "Ann", "colour": "red"}]}}
    Setup().do(screen, view, np.full((480, 640, 3), 70, np.uint8))
    picture = screen.frame_rect
    return screen, next((text, rect) for text, rect, _ in screen.drawn  # above the seat's dot, in the picture
                        if picture.contains(rect) and rect.bottom < picture.centery - 10)


@pytest.mark.parametrize("name", ["W" * 40, "山" * 40, "Κωνσταντίνος Παπαδόπουλος-Καραγιαννόπουλ",
                                  "Grzegorz Brzęczyszczykiewicz-Wiśniewski", "Szentgyörgyi-Hegedűs Erzsébet Kriszt"])
def test_a_long_name_over_its_seat_in_the_picture_keeps_a_readable_size_and_is_cut(name):
    screen, (text, rect) = _seat_label(name)
    assert rect.height >= screen.font(18).size("W")[1] and rect.width <= 118  # before: 12 px, whole
    assert text.endswith(ELLIPSIS) and name.startswith(text[:-1].rstrip())


def test_a_first_and_last_name_over_its_seat_is_whole_and_an_emoji_name_reads_by_its_symbols(no_symbol_font):
    for name in ("Γιώργος Νικολάου", "Katarzyna Nowak", "Kovács Erzsébet"):
        _, (text, _) = _seat_label(name)
        assert text == name
    _, (text, _) = _seat_label("\U0001f3b2")
    assert text == "Game Die"  # before: the emoji, drawn as nothing
