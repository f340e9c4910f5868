"""Emoji in players' names are drawn on the touchscreen from the symbol font (Symbola, ``fonts-symbola``, installed
by ``./setup.sh``; :data:`companion.screen.fonts.SYMBOL_FILES`), so two players "👩‍🚀 Άννα" and "👨‍🚀 Άννα" are told
apart. Before, the emoji was left out and both read "Άννα". pygame draws Symbola's outline glyphs at every size (Noto
Color Emoji's bitmaps it cannot scale); an emoji sequence is drawn symbol by symbol (a woman and a rocket).
SDL dummy drivers (see conftest)."""

from __future__ import annotations

import pygame
import pytest

from companion.screen.canvas import TEXT, Canvas
from companion.screen.fonts import drawable, font_file, symbol_file, visible_name

pytestmark = pytest.mark.skipif(font_file() is None or symbol_file() is None,
                                reason="no DejaVu/Noto or no Symbola installed (./setup.sh installs both)")

WOMAN_ASTRONAUT = "\U0001f469\u200d\U0001f680"  # woman ZWJ rocket
MAN_ASTRONAUT = "\U0001f468\u200d\U0001f680"  # man ZWJ rocket
DIE = "\U0001f3b2"


def _drawn(text: str) -> bytes:
    canvas = Canvas()
    canvas.text(text, (10, 10), 30, TEXT)
    return pygame.image.tobytes(canvas.surface, "RGB")


def test_two_players_told_apart_by_their_emoji():
    woman, man, plain = _drawn(f"{WOMAN_ASTRONAUT} Άννα"), _drawn(f"{MAN_ASTRONAUT} Άννα"), _drawn("Άννα")
    assert woman != man and woman != plain and man != plain


@pytest.mark.parametrize("size", [12, 18, 24, 30, 44])
def test_an_emoji_is_drawn_and_measured_as_drawn_at_every_size(size):
    font = Canvas().font(size)
    name = f"{WOMAN_ASTRONAUT} Άννα"
    width, _height = font.size(name)
    assert width > font.size("Άννα")[0] + font.size(" ")[0]  # the emoji takes room: it is drawn
    assert font.render(name, True, TEXT).get_size() == font.size(name)
    image = font.render(DIE, True, TEXT)
    assert image.get_width() > 0 and pygame.mask.from_surface(image).count() > 0  # ink, not an empty surface


def test_the_symbol_font_keeps_what_it_draws_and_names_a_name_of_symbols_alone_no_more():
    font = Canvas().font(30)
    symbols = font.symbols()
    assert symbols is not None
    assert drawable(font, f"Ζωή {DIE}", symbols) == f"Ζωή {DIE}"
    assert drawable(font, f"Ζωή {DIE}") == "Ζωή"  # no symbol font given: left out, as on a box without it
    assert visible_name(font, DIE) == DIE  # drawn as the die itself, not "Game Die"


def test_a_symbol_neither_font_has_is_still_left_out_not_a_box():
    font = Canvas().font(30)
    tag = "\U0001fae8"  # SHAKING FACE (Unicode 15): newer than Symbola 2.60
    assert drawable(font, f"Ζωή {tag}", font.symbols()) == "Ζωή"
