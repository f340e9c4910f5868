"""Symbols players type in names (an emoji: "Ζωή 🎲") are never drawn on the touchscreen as an empty box: on a box
without the symbol font (``fonts-symbola``, :data:`companion.screen.fonts.SYMBOL_FILES`), what the font has no glyph
for is left out of what is drawn and measured (SDL dummy drivers, see conftest). With the symbol font they are drawn:
``tests/test_screen_emoji.py``."""

from __future__ import annotations

import pygame
import pytest

from companion.screen.canvas import TEXT, Canvas
from companion.screen.fonts import drawable, font_file

pytestmark = pytest.mark.skipif(font_file() is None, reason="no DejaVu or Noto font installed (./setup.sh installs it)")


@pytest.fixture(autouse=True)
def no_symbol_font(monkeypatch):
    """A box where Symbola is not installed (or cannot be opened): every ScreenFont made in the test has none."""
    from companion.screen import fonts

    monkeypatch.setattr(fonts, "symbol_file", lambda: None)

DIE = "\U0001f3b2"  # GAME DIE: not in DejaVu Sans
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # man ZWJ woman ZWJ girl


def _drawn(text: str) -> pygame.Surface:
    canvas = Canvas()
    canvas.text(text, (10, 10), 30, TEXT)
    return canvas.surface


def test_an_emoji_in_a_name_draws_as_the_name_alone():
    alone = pygame.image.tobytes(_drawn("Ζωή"), "RGB")
    for typed in (f"Ζωή {DIE}", f"{DIE} Ζωή", f"Ζωή{DIE}", f"Ζωή {FAMILY}", f"Ζωή {DIE}\ufe0f", "Ζωή \u2705"):
        assert pygame.image.tobytes(_drawn(typed), "RGB") == alone, typed


def test_the_width_measured_is_the_width_drawn():
    font = Canvas().font(30)
    assert font.size(f"Ζωή {DIE}") == font.size("Ζωή")
    assert font.render(f"Ζωή {DIE}", True, TEXT).get_size() == font.render("Ζωή", True, TEXT).get_size()


def test_symbols_dropped_with_what_clings_to_them_and_their_one_space():
    font = Canvas().font(30)
    assert drawable(font, f"Ζωή {DIE}") == "Ζωή"
    assert drawable(font, f"{DIE} Ζωή") == "Ζωή"
    assert drawable(font, f"Ζωή {DIE}  (waiting)") == "Ζωή  (waiting)"  # the words' own two spaces kept
    assert drawable(font, f"Anna {DIE}{DIE} Łucja") == "Anna Łucja"
    assert drawable(font, f"Ζωή {FAMILY}\U0001f3fd") == "Ζωή"  # a sequence and its skin tone go together
    assert drawable(font, DIE) == "Game Die"  # a name that is only symbols is said, never left blank
    assert drawable(font, f"{FAMILY}\U0001f3fd") == "Man Woman Girl"
    assert drawable(font, "") == "" and drawable(font, "  ") == "  "
    # below U+FFFF too, where pygame gives a missing glyph the empty box's metrics: ✅ ⭐ ⚽ are not DejaVu's
    assert drawable(font, "Ágnes \u2705 \u2b50\ufe0f \u26bd") == "Ágnes"
    # what the font has stays, a variation selector with it: the heart and the warning sign are DejaVu's
    assert drawable(font, "Ζωή \u2665\ufe0f") == "Ζωή \u2665\ufe0f"
    assert drawable(font, "\u26a0 Łucja") == "\u26a0 Łucja"
    assert drawable(font, "Ágnes Őrs") == "Ágnes Őrs"


def test_a_name_of_symbols_alone_is_drawn_by_their_names_not_blank():
    """A player named "🎲" showed as a seat badge with nothing beside it: the table could not tell whose seat it was."""
    named = pygame.image.tobytes(_drawn("Game Die"), "RGB")
    assert pygame.image.tobytes(_drawn(DIE), "RGB") == named
    assert pygame.image.tobytes(_drawn(DIE), "RGB") != pygame.image.tobytes(_drawn(""), "RGB")


def test_a_name_with_an_emoji_fits_as_the_name_alone_does():
    canvas = Canvas()
    canvas.begin()
    rect = canvas.name_fit(f"Ζωή {DIE}", (0, 0), canvas.font(30).size("Ζωή")[0] + 1, 30, TEXT)
    assert rect.width == canvas.font(30).size("Ζωή")[0]
    assert "…" not in canvas.drawn[-1][0]


def test_letters_the_font_lacks_are_kept_only_symbols_go():
    """A letter without a glyph is not a symbol: it stays (as the missing font's warning says), so that no name
    vanishes from the screen where the font is not the one the box installs; the emoji beside it still goes."""
    font = Canvas().font(30)
    gothic = "\U00010330"  # GOTHIC LETTER AHSA: a letter DejaVu Sans has no glyph for
    assert font.metrics(gothic)[0] is None
    assert drawable(font, f"{gothic} Ζωή {DIE}") == f"{gothic} Ζωή"


def test_a_sign_the_font_lacks_is_its_ascii_sign_not_a_box_or_nothing(monkeypatch):
    """pygame gives a glyph missing below U+FFFF the empty box's metrics, so a sign was never found missing."""
    from companion.screen import canvas as canvas_module

    canvas = Canvas()
    assert canvas.sign("warning") == "\u26a0"  # DejaVu's
    monkeypatch.setitem(canvas_module.SIGNS, "warning", ("\u2705", "!"))  # a check mark DejaVu lacks
    assert canvas.sign("warning") == "!"


def test_a_waiting_player_named_by_symbols_alone_is_not_left_out_of_the_row():
    """A player named "🎲" who had not yet acted showed as the seat badge and "  (waiting)", nothing else: the name was
    dropped from the words beside it, though alone it was said "Game Die". The row reads "Game Die  (waiting)"; a name
    with letters is drawn as before ("Ζωή 🎲" as "Ζωή")."""
    canvas = Canvas()
    canvas.begin()
    canvas.name_fit(DIE, (0, 0), 700, 30, TEXT, around="{player}  (waiting)")
    assert canvas.drawn[-1][0] == "Game Die  (waiting)"
    canvas.name_fit(f"{FAMILY}\U0001f3fd", (0, 0), 700, 30, TEXT, around="{player}  (waiting)")
    assert canvas.drawn[-1][0] == "Man Woman Girl  (waiting)"
    canvas.name_fit(f"Ζωή {DIE}", (0, 0), 700, 30, TEXT, around="{player}  (waiting)")
    assert pygame.image.tobytes(_drawn(f"Ζωή {DIE}  (waiting)"), "RGB") == pygame.image.tobytes(
        _drawn("Ζωή  (waiting)"), "RGB")
