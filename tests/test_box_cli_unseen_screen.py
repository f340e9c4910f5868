"""``companion demo`` / ``companion run`` on a machine without a display (companion/commands/box.py): SDL draws the
touchscreen off-screen, where nobody sees or taps it, so the box runs as one without a touchscreen (``--no-screen``):
a phone that asks to leave a game being played is not told "the box's touchscreen now asks the table" (a question no
one would ever see: the table was stuck in its game), its player's phone leaves it. A display, or a driver asked for
by name (the tests' ``dummy``), keeps the touchscreen's part."""

from __future__ import annotations

import pygame
import pytest

import companion.app
from companion.cli import main
from companion.screen import window

BOX = ["--no-web", "--no-gpio", "--once", "--fast", "--max-frames", "2"]


@pytest.mark.parametrize("problem, unseen", [
    (pygame.error("SDL found no screen and draws with its 'offscreen' video driver"), True),  # a box without a desktop
    (None, False),  # a display, or the driver asked for by name: the touchscreen is there
])
def test_a_touchscreen_no_one_can_see_leaves_its_questions_to_the_phones(tmp_path, monkeypatch, caplog, problem,
                                                                         unseen):
    made = []

    class Loop(companion.app.MainLoop):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            made.append(self)

    real_open = window.open_touchscreen

    def open_touchscreen(hub, *, fullscreen, **kw):
        screen, pump, _drawn, _problem = real_open(hub, fullscreen=fullscreen, **kw)
        return screen, pump, False, problem

    monkeypatch.setattr(companion.app, "MainLoop", Loop)
    monkeypatch.setattr(window, "open_touchscreen", open_touchscreen)
    caplog.set_level("INFO", logger="companion")
    assert main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, "--game", "race", "--players", "Ann,Bob"]) == 0
    [loop] = made
    assert loop.screen is not None  # still drawn off-screen, for --screenshot
    assert loop.no_screen is unseen and loop.screenless() is unseen  # the phone page's "screen" follows it
    said = [r.getMessage() for r in caplog.records if "no display for the touchscreen" in r.getMessage()]
    assert len(said) == (1 if unseen else 0)
    if unseen:
        assert "the phones do what the touchscreen would" in said[0]
        # the policy that follows: a seated player's phone leaves the game being played, no question to the table
        from companion.phone_policy import leaving_refused
        assert leaving_refused("Race for the Galaxy", screenless=loop.screenless(), holds_seat=True,
                               seats_held=True) is None
