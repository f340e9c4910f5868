"""Names in letters the touchscreen's font has no glyph for (a full-width "ＡＮＮ", 山田, 김민준, さくら) drew as
rows of empty boxes: a table could not tell those seats apart. A full-width letter is drawn as its ordinary form, and
Chinese, Japanese and Korean letters from the fallback font (``fonts-wqy-microhei``, installed by ``./setup.sh``), on
the same baseline; without a fallback font nothing fails and the name is drawn as before (SDL dummy drivers, see
conftest)."""

from __future__ import annotations

import pygame
import pytest

from companion.screen import fonts
from companion.screen.canvas import TEXT, Canvas
from companion.screen.fonts import NOTDEF, ScreenFont, fallback_file, font_file

pytestmark = pytest.mark.skipif(font_file() is None, reason="no DejaVu or Noto font installed (./setup.sh installs it)")

needs_fallback = pytest.mark.skipif(fallback_file() is None,
                                    reason="no fallback font installed (./setup.sh installs fonts-wqy-microhei)")

EAST_ASIAN = ("山田", "김민준", "さくら")


def _pixels(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


def _drawn(text: str) -> bytes:
    canvas = Canvas()
    canvas.text(text, (10, 10), 30, TEXT)
    return pygame.image.tobytes(canvas.surface, "RGB")


@pytest.fixture
def no_fallback(monkeypatch):
    """A box without any fallback font (the cached look-up cleared before and after)."""
    monkeypatch.setattr(fonts, "FALLBACK_FILES", ("/nonexistent/fallback.ttf",))
    fallback_file.cache_clear()
    yield
    fallback_file.cache_clear()


def test_a_full_width_name_is_drawn_as_its_letters():
    """"ＡＮＮ" (U+FF21 U+FF2E U+FF2E, as a Japanese keyboard types it) is the name Ann: drawn as "ANN", not three
    boxes, and as wide as what is drawn."""
    font = Canvas().font(30)
    assert all(font.metrics(ch)[0] == font.metrics(NOTDEF)[0] for ch in "ＡＮＮ")  # DejaVu has no full-width A or N
    assert _drawn("ＡＮＮ") == _drawn("ANN")
    assert _drawn("Ζωή ＡＮＮ２") == _drawn("Ζωή ANN2")
    assert font.size("ＡＮＮ") == font.size("ANN") == font.render("ＡＮＮ", True, TEXT).get_size()


@needs_fallback
@pytest.mark.parametrize("name", EAST_ASIAN)
def test_chinese_japanese_and_korean_names_are_letters_not_boxes(name):
    font = Canvas().font(30)
    boxes = pygame.font.Font.render(font, NOTDEF * len(name), True, TEXT)
    drawn = font.render(name, True, TEXT)
    assert _pixels(drawn) != _pixels(pygame.font.Font.render(font, name, True, TEXT))  # not the main font's boxes
    assert drawn.get_size() != boxes.get_size() or _pixels(drawn) != _pixels(boxes)
    fallback = font.fallback()
    assert fallback is not None and drawn.get_width() == pygame.font.Font.size(fallback, name)[0]
    assert font.size(name) == drawn.get_size()  # what is measured to fit is what is drawn


@needs_fallback
def test_a_name_mixing_scripts_is_one_line_on_one_baseline():
    """"Ζωή 山田": the Greek from the touchscreen's font, the rest from the fallback, side by side, no taller than a
    line of the touchscreen's font (the rows below it stay where they were)."""
    font = Canvas().font(30)
    fallback = font.fallback()
    assert [part for _, part in fonts.runs(font, fallback, "Ζωή 山田")] == ["Ζωή ", "山田"]
    width = pygame.font.Font.size(font, "Ζωή ")[0] + pygame.font.Font.size(fallback, "山田")[0]
    drawn = font.render("Ζωή 山田", True, TEXT)
    assert drawn.get_width() == font.size("Ζωή 山田")[0] == width
    assert drawn.get_height() <= font.get_linesize() + 2
    # the Greek part is drawn exactly as alone
    alone = font.render("Ζωή ", True, TEXT)
    assert _pixels(drawn.subsurface((0, 0, *alone.get_size()))) == _pixels(alone)


def test_without_a_fallback_font_the_name_is_drawn_as_before(no_fallback):
    Canvas()  # pygame's fonts started, as the touchscreen starts them
    font = ScreenFont(font_file(), 19)
    assert font.fallback() is None
    assert _pixels(font.render("山田", True, TEXT)) == _pixels(pygame.font.Font.render(font, "山田", True, TEXT))
    assert font.size("山田") == pygame.font.Font.size(font, "山田")  # kept, never blank: a name must not vanish


def test_a_damaged_fallback_font_never_stops_the_screen(tmp_path, monkeypatch):
    """A fallback file that is no font (a cut-off download, a card error) either fails to open (a warning) or has
    no glyphs: either way the name is drawn as the touchscreen's font draws it."""
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"not a font at all")
    monkeypatch.setattr(fonts, "FALLBACK_FILES", (str(broken),))
    fallback_file.cache_clear()
    try:
        Canvas()  # pygame's fonts started, as the touchscreen starts them
        font = ScreenFont(font_file(), 19)
        assert font.size("山田") == pygame.font.Font.size(font, "山田")
        drawn = font.render("Ζωή 山田", True, TEXT)
        assert _pixels(drawn) == _pixels(pygame.font.Font.render(font, "Ζωή 山田", True, TEXT))
    finally:
        fallback_file.cache_clear()
