"""Player names inside the touchscreen's longer lines.

A player named only by emoji ("🎲") dropped out of a note built with names as parameters: Eclipse's "waiting for
ANN,, BELLA" (the font has no glyph for the die, and beside other words the name was left out)."""

from __future__ import annotations

import pytest

from companion.i18n import Listing, Text, localize
from companion.screen import TouchScreen
from companion.screen.fonts import font_file

pytestmark = pytest.mark.skipif(font_file() is None, reason="no DejaVu or Noto font installed (./setup.sh installs it)")

DIE = "\U0001f3b2"  # GAME DIE: not in DejaVu Sans


def _waiting(names):
    return Text("the Action phase ends when everyone has passed (waiting for {players})", players=Listing(names))


def test_a_name_of_emoji_alone_reads_by_its_symbols_names_inside_the_touchscreens_lines():
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

