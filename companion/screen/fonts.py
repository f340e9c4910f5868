"""The touchscreen's typeface: one that has the players' letters (Greek, Polish and Hungarian as well as English).

pygame's built-in font has no Greek and misses letters such as ő, ű, ą, ł: the box draws with DejaVu Sans (the
Debian and Raspberry Pi OS package ``fonts-dejavu-core``, installed by ``./setup.sh``), else Noto Sans, else
whatever ``$TABLETOP_FONT`` names. Without any of them the built-in font is used and one warning says what to
install. A symbol the font has no glyph for (an emoji a player typed in a name: "👩‍🚀 Άννα") is drawn from a symbol
font (Symbola, ``fonts-symbola``, installed by ``./setup.sh``; :data:`SYMBOL_FILES`: outline glyphs pygame draws at
every size, where Noto Color Emoji's bitmaps are not), so "👩‍🚀 Άννα" and "👨‍🚀 Άννα" are told apart; one that font
lacks too (or with no symbol font) is left out of what is drawn and measured (:class:`ScreenFont`) instead of drawn as
an empty box. A letter it has no glyph for is drawn
from its compatibility form when the font has that (a full-width "ＡＮＮ" as "ANN"), else from a fallback font with
the Chinese, Japanese and Korean letters (WenQuanYi Micro Hei, ``fonts-wqy-microhei``, installed by ``./setup.sh``;
:data:`FALLBACK_FILES`), else drawn as the font draws it.
"""

from __future__ import annotations

import logging
import os
import unicodedata
from functools import lru_cache
from pathlib import Path

import pygame

__all__ = [
    "FALLBACK_FILES", "FONT_ENV", "FONT_FILES", "PYGAME_DEFAULT_SCALE", "SAMPLE_LETTERS", "SYMBOL_FILES", "ScreenFont",
    "drawable", "fallback_file", "font_file", "missing_letters", "runs", "symbol_file", "visible_name",
]

log = logging.getLogger(__name__)

FONT_ENV = "TABLETOP_FONT"
"""Environment variable naming a TrueType/OpenType file to draw with instead."""

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",  # fonts-dejavu-extra: narrower, more fits
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",  # fonts-dejavu-core (Debian, Raspberry Pi OS)
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",  # fonts-noto-core
    "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "/usr/share/fonts/opentype/noto/NotoSans-Bold.otf",
)
"""Where the font is looked for, in order (bold first: the screen's labels are bold)."""

FALLBACK_FILES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",  # fonts-wqy-microhei: Chinese, Japanese, Korean, full width
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",  # fonts-droid-fallback: the same but Korean
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",  # fonts-noto-cjk
)
"""Where the font for letters the touchscreen's font lacks (a player named 山田, 김민 or ＡＮＮ) is looked for."""

SYMBOL_FILES = (
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",  # fonts-symbola (Debian, Raspberry Pi OS)
    "/usr/share/fonts/truetype/ancient-scripts/Symbola.ttf",
)
"""Where the font for symbols the touchscreen's font lacks (emoji: 👩 🚀 🎲 ✅) is looked for: Symbola's outline
glyphs, one colour, drawn by pygame at any size. An emoji sequence is drawn symbol by symbol (pygame does not join
them): "👩‍🚀" as a woman and a rocket, still told apart from "👨‍🚀"."""

PYGAME_DEFAULT_SCALE = 0.64
"""pygame draws its built-in font at this fraction of the size asked; a file font is asked at the same fraction
so the layout's sizes (designed with the built-in font) keep their height."""

SAMPLE_LETTERS = "ΑαΒβΓγΔδΕεΖζΗηΘθΙιΚκΛλΜμΝνΞξΟοΠπΡρΣσςΤτΥυΦφΧχΨψΩωάέήίόύώ ąćęłńóśźżĄĆĘŁŃÓŚŹŻ őűáéíóöúüŐŰÁÉÍÓÖÚÜ"
"""Letters every touchscreen font must have: the Greek alphabet with its accents, Polish and Hungarian letters."""


@lru_cache(maxsize=1)
def font_file() -> str | None:
    """The font file the touchscreen draws with, or None for pygame's built-in font (logged once)."""
    named = os.environ.get(FONT_ENV, "").strip()
    candidates = ([named] if named else []) + list(FONT_FILES)
    for candidate in candidates:
        if Path(candidate).is_file():
            return candidate
    from companion.i18n import _

    if named:
        log.warning("%s", _("{variable}={path} is not a file; looking for DejaVu or Noto instead").format(
            variable=FONT_ENV, path=named))
    log.warning("%s", _("no font with Greek, Polish and Hungarian letters (DejaVu Sans or Noto Sans): the touchscreen "
                        "uses pygame's own, which lacks them; install fonts-dejavu-core (./setup.sh does)"))
    return None


@lru_cache(maxsize=1)
def fallback_file() -> str | None:
    """The first of :data:`FALLBACK_FILES` on this system, or None (letters the font lacks are then drawn as the font
    draws them: no warning, as a table may never have such a name)."""
    return next((f for f in FALLBACK_FILES if Path(f).is_file()), None)


@lru_cache(maxsize=1)
def symbol_file() -> str | None:
    """The first of :data:`SYMBOL_FILES` on this system, or None (symbols the font lacks are then left out: no
    warning, as most tables never type one)."""
    return next((f for f in SYMBOL_FILES if Path(f).is_file()), None)


def missing_letters(font: object, text: str = SAMPLE_LETTERS) -> str:
    """The letters of ``text`` that ``font`` (a :class:`pygame.font.Font`) has no glyph for (spaces ignored)."""
    metrics = font.metrics(text)  # type: ignore[attr-defined]
    return "".join(ch for ch, m in zip(text, metrics, strict=True) if m is None and not ch.isspace())


_JOINED = {"\u200d", "\u20e3"}
"""Characters that only join to the symbol before them: the zero-width joiner of a sequence such as 👨‍👩‍👧 and the
keycap's enclosing square."""


def _clings(ch: str) -> bool:
    """Whether ``ch`` belongs to the symbol before it (a variation selector, a skin tone, a joiner, a keycap)."""
    return (ch in _JOINED or "\ufe00" <= ch <= "\ufe0f" or "\U0001f3fb" <= ch <= "\U0001f3ff"
            or "\U000e0020" <= ch <= "\U000e007f" or unicodedata.category(ch) in ("Mn", "Me") and ord(ch) > 0x2000)


def _symbol(ch: str) -> bool:
    """Whether ``ch`` is a symbol (an emoji, a sign: Unicode categories So, Sk, Sm, Sc) or has no meaning to draw
    (unassigned, private use), not a letter, digit or punctuation: only those are left out where the font lacks them
    (a letter the font lacks stays, as the missing font's warning says)."""
    return unicodedata.category(ch) in ("So", "Sk", "Sm", "Sc", "Cn", "Co")


NOTDEF = "\uffff"
"""A noncharacter no font has a glyph for: what it draws is the font's empty box (its "notdef" glyph)."""


def _kept(font: object, name: str) -> dict[str, bool]:
    """The per-character answers kept on ``font`` under the attribute ``name`` (made empty the first time). pygame's
    own font class takes no attributes: then a fresh dict, not kept, is given each time."""
    cache = getattr(font, name, None)
    if cache is None:
        cache = {}
        try:
            setattr(font, name, cache)
        except AttributeError:
            pass
    return cache


def _lacks(font: object, ch: str, metrics: tuple[int, ...] | None) -> bool:
    """Whether ``font`` has no glyph for ``ch`` (``metrics``: its ``font.metrics`` entry). pygame says None only past
    U+FFFF; a missing glyph below it (✅ ⭐ ⚽ in DejaVu) has the empty box's metrics and image, compared here (the
    answer kept per font and character: text is measured again and again while it is fitted)."""
    if metrics is None:
        return True
    cache = _kept(font, "_lacking")
    if ch not in cache:
        box = font.metrics(NOTDEF)[0]  # type: ignore[attr-defined]
        cache[ch] = metrics == box and _image(font, ch) == _image(font, NOTDEF)
    return cache[ch]


def _draws(font: object | None, ch: str) -> bool:
    """Whether ``font`` (the symbol font; None: there is none) draws ``ch`` as a glyph of its own, not its empty box
    (pygame gives no metrics past U+FFFF, so what it draws is compared; the answer kept per font and character)."""
    if font is None:
        return False
    cache = _kept(font, "_drawing")
    if ch not in cache:
        try:
            cache[ch] = _image(font, ch) != _image(font, NOTDEF)
        except pygame.error:  # "Text has zero width": nothing to draw
            cache[ch] = False
    return cache[ch]


def _image(font: object, text: str) -> bytes:
    """``text`` drawn by ``font`` as pygame draws it (not through :class:`ScreenFont`), as bytes to compare."""
    return pygame.image.tobytes(pygame.font.Font.render(font, text, False, (255, 255, 255)), "RGB")  # type: ignore


def drawable(font: object, text: str, symbols: object | None = None) -> str:
    """``text`` without the symbols ``font`` (a :class:`pygame.font.Font`) has no glyph for, so none is drawn as an
    empty box (a letter it lacks is kept: a name must not vanish where the font is not the one the box installs):
    each such symbol goes with what clings to it (variation selectors, skin tones, the joiners of an emoji
    sequence) and with the one space that separated it from the words ("Ζωή 🎲" -> "Ζωή", "🎲 Ζωή" -> "Ζωή",
    "Ζωή 🎲  (waiting)" -> "Ζωή  (waiting)"). Text the font draws whole comes back unchanged. Text that is only
    such symbols (a player named "🎲") is not left blank: each symbol is said by its Unicode name ("Game Die"), so
    the table still tells one seat from another (:func:`_named`). ``symbols``: the symbol font (:func:`symbol_file`),
    whose symbols are kept, to be drawn from it (:func:`runs`)."""
    if not text or text.isascii():
        return text
    metrics = font.metrics(text)  # type: ignore[attr-defined]

    def lost(ch: str, m: tuple[int, ...] | None) -> bool:
        return _symbol(ch) and _lacks(font, ch, m) and not _draws(symbols, ch)

    if not any(lost(ch, m) for ch, m in zip(text, metrics, strict=True)):
        return text
    kept: list[str] = []
    dropping = skip_space = False
    for ch, m in zip(text, metrics, strict=True):
        if lost(ch, m):
            while kept and _clings(kept[-1]):  # a joiner before this symbol joined it to a dropped one
                kept.pop()
            if kept and kept[-1] == " ":
                kept.pop()
            elif not kept:
                skip_space = True
            dropping = True
            continue
        if dropping and _clings(ch):
            continue
        dropping = False
        if skip_space and ch == " ":
            skip_space = False
            continue
        skip_space = False
        kept.append(ch)
    out = "".join(kept)
    return out if out.strip() or not text.strip() else _named(text)


def visible_name(font: object, name: str) -> str:
    """A player's ``name`` as it is to be drawn among other words ("{player}  (waiting)"): unchanged, unless ``font``
    would draw none of it (only symbols it has no glyph for: "🎲"), then its symbols' Unicode names ("Game Die").
    :func:`drawable` names such text only when it is drawn alone: beside other words the name was left out and the
    row read "  (waiting)" beside the seat badge."""
    shown = drawable(font, name, font.symbols() if isinstance(font, ScreenFont) else None)
    return shown if name.strip() and shown == _named(name) else name


def _named(text: str) -> str:
    """The symbols of ``text`` by their Unicode names, title case, what clings to them left out ("🎲" -> "Game Die",
    "👨‍👩‍👧" -> "Man Woman Girl"); a symbol with no name (private use) as ``U+E000``."""
    return " ".join(unicodedata.name(ch, f"U+{ord(ch):04X}").title() for ch in text
                    if not ch.isspace() and not _clings(ch))


RUNS_KEPT = 512
"""How many texts' runs a :class:`ScreenFont` keeps (a screen shows fewer labels than that)."""


class _Fallback(pygame.font.Font):
    """The fallback font (:func:`fallback_file`), a subclass only so that what it lacks can be kept per character."""


def _folded(font: object, ch: str) -> str | None:
    """``ch``'s compatibility form (NFKC: a full-width "Ａ" is "A") when it differs and ``font`` has every letter of it,
    else None."""
    folded = unicodedata.normalize("NFKC", ch)
    if folded == ch or not folded.strip():
        return None
    metrics = font.metrics(folded)  # type: ignore[attr-defined]
    return None if any(_lacks(font, c, m) for c, m in zip(folded, metrics, strict=True)) else folded


def runs(font: object, fallback: object | None, text: str, symbols: object | None = None) -> list[tuple[object, str]]:
    """``text`` (already :func:`drawable`) as runs of ``(font, part)`` to draw one after the other: the letters
    ``font`` has; a letter it lacks as its compatibility form when ``font`` has that (:func:`_folded`), else in
    ``fallback`` when that has it, else in ``symbols`` (the symbol font: an emoji) when that draws it, else left to
    ``font`` (its box: a name never vanishes). A mark clinging to a
    letter (a combining accent, a variation selector) goes in the letter's run. One run for text ``font`` draws
    whole."""
    if not text or text.isascii():
        return [(font, text)]
    out: list[tuple[object, str]] = []
    metrics = font.metrics(text)  # type: ignore[attr-defined]
    for ch, m in zip(text, metrics, strict=True):
        use, part = font, ch
        if out and _clings(ch):
            use = out[-1][0]
        elif _lacks(font, ch, m):
            folded = _folded(font, ch)
            if folded is not None:
                part = folded
            elif fallback is not None and not _lacks(fallback, ch, fallback.metrics(ch)[0]):  # type: ignore
                use = fallback
            elif _draws(symbols, ch):
                use = symbols
        if out and out[-1][0] is use:
            out[-1] = (use, out[-1][1] + part)
        else:
            out.append((use, part))
    return out


class ScreenFont(pygame.font.Font):
    """A :class:`pygame.font.Font` that draws and measures only what it has glyphs for (:func:`drawable`): a
    symbol it lacks is left out, never drawn as an empty box, and widths measured match what is drawn. A letter it
    lacks is drawn from its compatibility form or from the fallback font (:func:`runs`), on the same baseline."""

    def __init__(self, file: str | None, size: int) -> None:
        super().__init__(file, size)
        self._size = size
        self._bold = bool(file) and "bold" in Path(str(file)).name.lower()
        self._fallback: pygame.font.Font | None | bool = False  # False: not opened yet
        self._symbols: pygame.font.Font | None | bool = False
        self._parts: dict[str, list[tuple[object, str]]] = {}

    def fallback(self) -> pygame.font.Font | None:
        """The fallback font at this font's size (bold when this one is), opened on first need; None when there is
        none or it cannot be opened (then a letter this font lacks is drawn as it draws it)."""
        if self._fallback is False:
            self._fallback = self._open(fallback_file(), "fallback")
            if self._fallback is not None and self._bold:
                self._fallback.set_bold(True)
        return self._fallback  # type: ignore[return-value]

    def symbols(self) -> pygame.font.Font | None:
        """The symbol font (:func:`symbol_file`) at this font's size, opened on first need; None when there is none or
        it cannot be opened (then a symbol this font lacks is left out)."""
        if self._symbols is False:
            self._symbols = self._open(symbol_file(), "symbol")
        return self._symbols  # type: ignore[return-value]

    def _open(self, path: str | None, what: str) -> pygame.font.Font | None:
        """The font file ``path`` at this font's size; None when there is no file or it cannot be opened (logged,
        naming ``what`` font it is: a damaged file never stops the screen)."""
        try:
            return _Fallback(path, self._size) if path else None
        except (OSError, pygame.error) as exc:
            log.warning("cannot open the %s font %s: %s", what, path, exc)
            return None

    def _runs(self, text: object) -> list[tuple[object, str]]:
        """:func:`runs` of :func:`drawable` ``text``, kept for the last :data:`RUNS_KEPT` texts (a label is measured
        again and again while it is fitted, and drawn at every redraw)."""
        text = str(text)
        parts = self._parts.get(text)
        if parts is None:
            if len(self._parts) >= RUNS_KEPT:
                self._parts.clear()
            symbols = self.symbols()
            parts = self._parts[text] = runs(self, self.fallback(), drawable(self, text, symbols), symbols)
        return parts

    def render(self, text, antialias, color, background=None):  # noqa: D102 (pygame's)
        parts = self._runs(text)
        if len(parts) == 1 and parts[0][0] is self:
            return super().render(parts[0][1], antialias, color, background)
        ascent = self.get_ascent()
        images = [(pygame.font.Font.render(f, part, antialias, color, background),  # type: ignore[arg-type]
                   max(0, ascent - f.get_ascent())) for f, part in parts]  # type: ignore[attr-defined]
        width = sum(image.get_width() for image, _ in images)
        height = max([self.get_height()] + [image.get_height() + dy for image, dy in images])
        surface = pygame.Surface((max(1, width), height), pygame.SRCALPHA)
        surface.fill((0, 0, 0, 0) if background is None else background)
        x = 0
        for image, dy in images:
            surface.blit(image, (x, dy))
            x += image.get_width()
        return surface

    def size(self, text):  # noqa: D102 (pygame's)
        parts = self._runs(text)
        if len(parts) == 1 and parts[0][0] is self:
            return super().size(parts[0][1])
        ascent = self.get_ascent()
        sizes = [(pygame.font.Font.size(f, part), max(0, ascent - f.get_ascent()))  # type: ignore[arg-type]
                 for f, part in parts]
        return (sum(w for (w, _), _ in sizes), max([self.get_height()] + [h + dy for (_, h), dy in sizes]))
