"""The touchscreen's drawing canvas: the layout's design pixels, colours, text, buttons, the camera picture, QR codes.

Every screen (:mod:`companion.screen`) draws on a :class:`Canvas` (the :class:`companion.screen.window.TouchScreen`
is one): positions and sizes in the 800 x 480 design layout, scaled to the display; what is drawn often is
cached.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import pygame

from companion.actions import Action
from companion.i18n import N_, _
from companion.qr import qr_surface
from companion.screen.fonts import PYGAME_DEFAULT_SCALE, ScreenFont, drawable, font_file, visible_name
from companion.words import catalog_letter

BUTTON_MIN_PX = 48
"""Smallest side of a touch target in pixels (about 7.5 mm on the 7" display)."""


BASE_SIZE = (800, 480)
"""The size the layout is designed for (px); other sizes scale it."""

QR_SIDE = 164
"""Design px of the join QR code with its quiet zone on the screens that show it: its modules span at least 108 px,
21 mm on the official 7" screen (800 px over 154 mm), as phones need at arm's length (a 41-module code at 4 px a
module; a shorter link's smaller code is drawn at the same 4 px)."""

HINT_MIN_SIZE = 14
"""The smallest design size (px) a hint beside the QR code is drawn at: smaller is not read at arm's length."""

NAME_MIN_SIZE = 24
"""The smallest design size (px) a player's name is drawn at in the players and score tables: a longer name is cut
with "…" rather than shrunk below it (40 characters at 12 px were not read at arm's length)."""

ERROR_MIN_PX = 12
"""The least line height (real px, whatever the window's size) of a refusal drawn under a camera question: its height
at the 800 x 480 layout's 16 px design size. At 480 x 320 the scaled layout drew it in 7 px lines, too small to read
at arm's length; it is drawn larger there (:meth:`Canvas.readable_size`)."""

READ_MIN_PX = 12
"""The least height (real px) of any text drawn on the touchscreen, whatever its size: a status line, a table's
heading, a phase's name, a camera question, a button's word. The layout is made for 800 x 480 and scaled; at 480 x 320
its smaller sizes drew 5-10 px text, and at 800 x 480 itself a long phase name shrunk to 10 px (Greek "Διαχείριση
Αυτοκρατορίας"), too small to read at arm's length. :meth:`Canvas.font` never makes a smaller font, so a text with no
room at it wraps or ends with "…" (:meth:`Canvas.text_fit`, :meth:`Canvas.wrap`)."""

NAME_KEPT = 8
"""The characters of a name kept before words beside it that may give way (a waiting player's "(waiting)") do."""


# Colours (RGB).
BG = (18, 21, 26)
PANEL = (30, 35, 43)
TEXT = (236, 239, 243)
DIM = (150, 158, 170)
GOOD = (86, 196, 120)
WARN = (240, 180, 60)
BAD = (232, 84, 72)
ACCENT = (90, 160, 240)
BUTTON = (54, 92, 150)
BUTTON_PRESSED = (90, 140, 210)
BUTTON_DISABLED = (48, 52, 60)


SEVERITY_COLOURS = {"error": BAD, "warning": WARN, "info": ACCENT}
LEVEL_COLOURS = {"OK": GOOD, "WARN": WARN, "FAIL": BAD}
"""A health check's level (``companion.doctor.Level``) as drawn; its sign (:data:`SIGNS`) says it without colour."""

SIGNS = {"error": ("\u2716", "X"), "warning": ("\u26a0", "!"), "info": ("\u2139", "i"), "OK": ("\u2713", "OK"),
         "WARN": ("\u26a0", "!"), "FAIL": ("\u2716", "X"), "winner": ("\u2605", "*"), "current": ("\u25b6", ">"),
         "done": ("\u2713", "+"), "chosen": ("\u2713", "*")}
"""Colour is never the only signal: a sign for each severity, level and state (the font's, else an ASCII one)."""

ELLIPSIS = "\u2026"
"""What ends a text cut to fit its room."""
CAMERA_TEXT = {"ok": (N_("Camera OK"), GOOD), "lost": (N_("Camera lost"), BAD), "ended": (N_("Replay finished"), DIM)}
READER_TEXT = {
    "watching": (N_("watching the table"), ACCENT),
    "still": (N_("dice still, reading..."), WARN),
    "read": (N_("read"), GOOD),
}
LEVEL_WORDS = {"OK": N_("OK"), "WARN": N_("WARN"), "FAIL": N_("FAIL")}
"""A health check's level as the touchscreen says it (said with :func:`companion.i18n._`)."""


SEAT_COLOURS = {"red": (220, 70, 60), "blue": (70, 130, 230), "green": (80, 190, 110), "yellow": (235, 200, 60),
                "purple": (160, 100, 210), "white": (230, 230, 230),
                "black": (70, 70, 76), "grey": (150, 150, 150), "natural": (214, 184, 140)}
"""How a seat colour is drawn (games name their seat colours in ``game.info.colours``)."""

SEAT_SIGNS = {"red": "R", "blue": "B", "green": "G", "yellow": "Y", "purple": "P", "white": "W", "black": "Bk",
              "grey": "Gy", "natural": "N"}
"""The English sign in a seat colour's dot (the phone's ``DOT_SIGN`` in flow.js is the same): a letter each, two where
colours share a first letter (blue B, black Bk; green G, grey Gy) among Eclipse's nine seat colours; another colour:
its first letter. Another language's signs are its catalog's (:func:`companion.words.catalog_letter`)."""


def seat_sign(colour: Any) -> str:
    """The sign in ``colour``'s dot in the touchscreen's language: the catalog's letter for it (Hungarian "P" for
    piros, red; Greek "Κο" and "Κι" for κόκκινο and κίτρινο), else :data:`SEAT_SIGNS`, else its first letter, else
    "?"."""
    if not colour:
        return "?"
    return catalog_letter(str(colour)) or SEAT_SIGNS.get(colour) or str(colour)[:1].upper()


def offline(url: str | None) -> bool:
    """Whether the phone view's ``url`` is on the box's loopback address (no network yet: no phone can reach it)."""
    from urllib.parse import urlsplit

    if not url:
        return False
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    return host == "localhost" or host.startswith("127.") or host == "::1"


def seat_rgb(colour: Any) -> tuple[int, int, int]:
    """The RGB a seat colour is drawn in: :data:`SEAT_COLOURS`, else pygame's colour of that name, else the text
    colour."""
    if colour in SEAT_COLOURS:
        return SEAT_COLOURS[colour]
    try:
        c = pygame.Color(str(colour))
    except ValueError:
        return TEXT
    return (c.r, c.g, c.b)


PLACE_MOST = 16
"""The longest inside of a bracketed place kept on one line, in characters: a station's "[-12, 5]", a hex's
"[q, r]"; a longer bracket (a list) may wrap inside."""

_WRAP_WORD = re.compile(rf"\S*\[[^\[\]\n]{{0,{PLACE_MOST}}}\]\S*|(?:[^\W\d_]+ )?\(-?\d{{1,3}}, -?\d{{1,3}}\)\S*|\S+")


VOWELS = frozenset("aeiouyαεηιουω")
"""The vowels of the box's languages by their base letter (accents, tonos and dialytika left aside: "ί", "ą", "ő"):
English, Polish ("y" a vowel) and Hungarian in Latin letters, Greek in its own."""


def vowel(letter: str) -> bool:
    """Whether ``letter`` is a vowel of :data:`VOWELS`, whatever its accent ("ί", "ó", "ű": yes; "κ", "ł": no)."""
    base = unicodedata.normalize("NFD", letter.casefold())[:1]
    return base in VOWELS


DIGRAPHS = frozenset({"ch", "cz", "dz", "dź", "dż", "rz", "sz", "cs", "gy", "ly", "ny", "ty", "zs"})
"""Two letters that write one sound in Polish ("cz", "rz", "sz") or Hungarian ("cs", "gy", "sz"): never split."""


GREEK_ONSETS = frozenset({"βδ", "βλ", "βρ", "γδ", "γκ", "γλ", "γν", "γρ", "δρ", "θλ", "θν", "θρ", "κλ", "κν", "κρ",
                          "κτ", "μν", "μπ", "ντ", "πλ", "πν", "πρ", "πτ", "σβ", "σγ", "σθ", "σκ", "σμ", "σπ", "στ",
                          "σφ", "σχ", "τζ", "τμ", "τρ", "τσ", "φθ", "φλ", "φρ", "χθ", "χλ", "χν", "χρ"})
"""Greek consonant pairs that can begin a word ("πτ" of "πτώση", "στ" of "στόλος"): Greek hyphenation keeps such a
pair together at the start of the next syllable ("Ανά-πτυξη", "Απο-στολή")."""


def syllable_break(head: str, tail: str) -> bool:
    """Whether a word may be broken with a hyphen between ``head`` and ``tail`` by simple rules the box's languages
    share, at least 3 letters on each side: before a single consonant between vowels (vowel | consonant vowel: Greek
    "Αποί-κιση", Polish "Kolo-nizacja", Hungarian "Lete-lepedés"); in Greek also before a consonant pair that can
    begin a word (:data:`GREEK_ONSETS`: "Ανά-πτυξη", "Απο-στολή") or three consonants whose first two can
    ("Περι-στροφή"), and between two consonants that cannot ("Ενέρ-γεια", "Διόρ-θωση", "Σταθ-μός"); between a
    doubled consonant ("Απόρ-ριψη"); in Latin letters between two consonants after a vowel that do not write one
    sound (Polish "Pot-wierdź", Hungarian "Fel-fedezés"; :data:`DIGRAPHS` "cz", "rz", "sz", "gy" stay whole). Never
    between two vowels (Greek "Απο-ίκιση" split the diphthong "οί")."""
    if len(head) < 3 or len(tail) < 3 or not all(c.isalpha() for c in head[-3:] + tail[:3]):
        return False
    if vowel(head[-1]):
        if vowel(tail[0]):
            return False
        return vowel(tail[1]) or _greek_onset(tail)
    if not vowel(head[-2]) or vowel(tail[0]):
        return False
    pair = (head[-1] + tail[0]).casefold()
    if pair[0] == pair[1]:
        return True
    if all(unicodedata.name(c, "").startswith("LATIN") for c in pair):
        return pair not in DIGRAPHS
    greek = all(unicodedata.name(c, "").startswith("GREEK") for c in pair)
    return greek and pair not in GREEK_ONSETS and (vowel(tail[1]) or _greek_onset(tail))


def _greek_onset(tail: str) -> bool:
    """Whether ``tail`` opens on consonants that Greek hyphenation keeps at the start of a syllable, then a vowel:
    a pair that can begin a word ("πτ" of "Ανά-πτυξη"), or three whose first two can ("στρ" of "Περι-στροφή",
    "επι-στροφή": the Greek rule for three or more consonants between vowels looks at the first two)."""
    if tail[:2].casefold() not in GREEK_ONSETS:
        return False
    return vowel(tail[2]) or (len(tail) > 3 and tail[3].isalpha() and vowel(tail[3]))


def _hyphenated(text: str, font: pygame.font.Font, width: int) -> tuple[str, str] | None:
    """``text`` as two lines of at most ``width`` px in ``font``, broken between words where it can, else inside a
    word with a hyphen between syllables (:func:`syllable_break`), the most even pair; None when no break fits."""
    pairs = []
    for k in range(3, len(text) - 2):
        head, tail = text[:k], text[k:]
        if head.endswith(" ") or tail.startswith(" "):
            pair = (head.strip(), tail.strip())
        elif syllable_break(head, tail):
            pair = (head + "-", tail)
        else:
            continue
        widths = [font.size(line)[0] for line in pair]
        if max(widths) <= width:
            pairs.append((max(widths) + (0 if pair[0][-1:] != "-" else width // 4), pair))
    return min(pairs)[1] if pairs else None


def wrap_words(text: Any) -> list[str]:
    """The words ``text`` may be wrapped between: its runs of non-space, except that a place written in brackets
    with its space ("[0, 0]", with what touches it: "[0, 0],") is one word, so a line never ends inside it ("… Main
    Reactor στο [0," / "0], …" before), and so is a hex written as a pair in round brackets with the word before it
    (Eclipse's "heks (0, 2)")."""
    return _WRAP_WORD.findall(str(text))


@dataclass(frozen=True)
class Button:
    """A touch target: tapping it posts ``action`` with ``payload`` (e.g. ``{"id": 3}`` for a camera
    question). ``rect`` is in screen pixels; ``key`` tells apart buttons of one action (default: the action)."""

    action: str
    label: str
    rect: pygame.Rect
    enabled: bool = True
    payload: tuple[tuple[str, Any], ...] = ()
    key: str = ""

    @property
    def name(self) -> str:
        """What :attr:`TouchScreen.buttons` files it under: ``key`` or else ``action``."""
        return self.key or self.action


def frame_to_surface(image: np.ndarray, fit: tuple[int, int]) -> pygame.Surface:
    """Scale a BGR frame to fit inside ``fit`` (px, aspect kept) and convert it to an RGB surface.

    Args:
        image: ``uint8[H, W, 3]`` BGR (``uint8[H, W]`` grey and ``uint8[H, W, 4]`` BGRA also accepted).
        fit: ``(width, height)`` in pixels of the box to fit in.

    Returns:
        A surface at most ``fit`` large with the frame's aspect ratio.

    Raises:
        ValueError: ``image`` is empty or not one of the shapes above.
    """
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3 or image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"expected a uint8[H, W, 3] BGR frame, got shape {image.shape}")
    if image.dtype != np.uint8:
        raise ValueError(f"expected a uint8 frame, got dtype {image.dtype}")
    height, width = image.shape[:2]
    scale = min(fit[0] / width, fit[1] / height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    if size != (width, height):
        interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        image = cv2.resize(image, size, interpolation=interpolation)
    rgb = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    return pygame.image.frombuffer(rgb.tobytes(), size, "RGB").copy()


class Canvas:
    """A pygame surface drawn in the 800 x 480 layout's design pixels, scaled to its real size.

    Screens draw with design coordinates: :meth:`x`, :meth:`y` (positions), :meth:`s` (sizes, scaled by the
    smaller factor) and :meth:`rect`; text (:meth:`text`, :meth:`text_fit`, :meth:`wrap`) and pictures are cached
    (text is slow on a Pi; the same labels are drawn every frame).

    Args:
        size: ``(width, height)`` in pixels.
        surface: where to draw; None draws on an off-screen surface (tests, screenshots).

    Raises:
        ValueError: ``surface`` is not ``size`` large.
    """

    def __init__(self, size: tuple[int, int] = BASE_SIZE, surface: pygame.Surface | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.size = (int(size[0]), int(size[1]))
        if surface is not None and surface.get_size() != self.size:
            raise ValueError(f"surface is {surface.get_size()} px but size is {self.size} px")
        self.surface = surface if surface is not None else pygame.Surface(self.size)
        self.surface.fill(BG)
        self._sx = self.size[0] / BASE_SIZE[0]
        self._sy = self.size[1] / BASE_SIZE[1]
        self._fonts: dict[int, pygame.font.Font] = {}
        self._text_cache: dict[tuple[str, int, tuple[int, int, int]], pygame.Surface] = {}
        self._qr_cache: tuple[str, int, pygame.Surface] | None = None
        self._frame_source: object = None
        self._frame_array: np.ndarray | None = None
        self._frame_cache: tuple[object, tuple[int, int], pygame.Surface] | None = None
        self.pressed: str | None = None
        """The name of the button held down (drawn pressed)."""
        self.drawn: list[tuple[str, pygame.Rect, int | None]] = []
        """Every text drawn since :meth:`begin`: (text, where, the width it had to fit or None): tests check that
        nothing runs off the screen or out of its room."""
        self.frame_rect: pygame.Rect | None = None
        """Where the frame was drawn on the last render (px), or None when there was no frame."""
        self.pictures: dict[str, bytes] = {}
        """The small pictures published with the view being drawn, by name (``{"station-7": JPEG bytes}``)."""
        self._picture_cache: dict[tuple[str, bytes, tuple[int, int]], pygame.Surface] = {}

    # ------------------------------------------------------------------ layout

    def s(self, v: float) -> int:
        return max(1, round(v * min(self._sx, self._sy)))

    def x(self, v: float) -> int:
        return round(v * self._sx)

    def y(self, v: float) -> int:
        return round(v * self._sy)

    def design_y(self, px: float) -> int:
        """Real px down the window as design px (the inverse of :meth:`y`, rounded up): how far a layout moves down
        under text drawn at its real size."""
        return -int(-px // self._sy)

    def rect(self, x: float, y: float, w: float, h: float) -> pygame.Rect:
        return pygame.Rect(self.x(x), self.y(y), self.x(w), self.y(h))

    # ------------------------------------------------------------------ drawing

    def font(self, size: int) -> pygame.font.Font:
        """The touchscreen's font at design size ``size`` (px, scaled): DejaVu or Noto when installed
        (:func:`companion.screen.fonts.font_file`: Greek, Polish and Hungarian letters), else pygame's own; a symbol it
        has no glyph for is left out, never drawn as an empty box (:class:`companion.screen.fonts.ScreenFont`). Never
        less than :data:`READ_MIN_PX` real px high, on every window: a design size drawn smaller (any size on a window
        smaller than 800 x 480, the smallest ones on the 800 x 480 layout) is drawn at the least readable size
        instead."""
        size = self.s(size)
        font = self._fonts.get(size)
        if font is None:
            font = self._fonts[size] = self._real_font(size)
            if min(font.get_linesize(), font.get_height()) < READ_MIN_PX:
                at = size
                while min(font.get_linesize(), font.get_height()) < READ_MIN_PX and at < 4 * READ_MIN_PX:
                    at += 1
                    font = self._real_font(at)
                self._fonts[size] = font
        return font

    @staticmethod
    def _real_font(px: int) -> pygame.font.Font:
        """The font of ``px`` real px (DejaVu or Noto, else pygame's own)."""
        path = font_file()
        return ScreenFont(path, max(1, round(px * PYGAME_DEFAULT_SCALE))) if path else ScreenFont(None, px)

    def render_text(self, text: str, size: int, colour: tuple[int, int, int]) -> pygame.Surface:
        """Rendered text, cached (the same labels are drawn every frame; text is slow on a Pi)."""
        key = (text, size, colour)
        image = self._text_cache.get(key)
        if image is None:
            if len(self._text_cache) >= 512:
                self._text_cache.clear()
            image = self._text_cache[key] = self.font(size).render(text, True, colour)
        return image

    def begin(self) -> None:
        """A new drawing of the screen starts (the record of texts drawn, :attr:`drawn`, restarts)."""
        self.drawn = []

    def text(
        self, text: str, pos: tuple[int, int], size: int, colour: tuple[int, int, int], anchor: str = "topleft",
        room: int | None = None,
    ) -> pygame.Rect:
        """``text`` at ``pos`` (design size ``size``); ``room``: the width it was fitted to (recorded, :attr:`drawn`).
        Text whose length is not known in advance goes through :meth:`text_fit`."""
        image = self.render_text(text, size, colour)
        rect = image.get_rect(**{anchor: pos})
        self.surface.blit(image, rect)
        self.drawn.append((text, rect, room))
        return rect

    def readable_size(self, size: int, least_px: int) -> int:
        """The smallest design size from ``size`` up whose font's line (and drawn text) is at least ``least_px`` real px
        high on this window (``size`` itself on the 800 x 480 layout or larger; larger on a smaller window, where the
        layout scales down), at most four times ``size``."""
        for at in range(size, 4 * size + 1):
            font = self.font(at)
            if min(font.get_linesize(), font.get_height()) >= least_px:
                return at
        return 4 * size

    def sign(self, kind: str) -> str:
        """The sign of ``kind`` (:data:`SIGNS`: a severity, a level, a state): the font's symbol, else ASCII."""
        symbol, plain = SIGNS.get(kind, ("", ""))
        return symbol if symbol and drawable(self.font(24), symbol) == symbol else plain

    def text_fit(
        self,
        text: str,
        pos: tuple[int, int],
        width: int,
        size: int,
        colour: tuple[int, int, int],
        anchor: str = "topleft",
        min_size: int = 22,
    ) -> pygame.Rect:
        """Text at the largest size in ``min_size``..``size`` that fits ``width`` px, else cut with "…": it never
        runs out of its room."""
        text = " ".join(str(text).split())  # one line: a name or message never breaks the layout
        while size > min_size and self.font(size).size(text)[0] > width:
            size = max(min_size, size - 2)   # never below min_size, whatever their parity
        font = self.font(size)
        if font.size(text)[0] > width:
            while text and font.size(text + ELLIPSIS)[0] > width:
                text = text[:-1]
            text = text.rstrip() + ELLIPSIS
        return self.text(text, pos, size, colour, anchor, room=width)

    def name_fit(
        self,
        name: str,
        pos: tuple[int, int],
        width: int,
        size: int,
        colour: tuple[int, int, int],
        anchor: str = "topleft",
        around: str = "{player}",
        optional: bool = False,
        least: int = NAME_MIN_SIZE,
    ) -> pygame.Rect:
        """A player's ``name`` in ``around`` (a message holding ``{player}``: "{player}  (waiting)") at the largest
        size in :data:`NAME_MIN_SIZE`..``size`` that fits ``width`` px, else the name cut with "…" so that the words
        around it still show; never bigger than ``size`` (a row smaller than the minimum keeps its own size).
        ``optional``: the words around give way to the name when it would keep fewer than :data:`NAME_KEPT` of its
        characters beside them (the row's colour still says it). ``least``: the smallest size (px) instead of
        :data:`NAME_MIN_SIZE` (a setup chip's name, read from close by:
        :data:`companion.screen.setup.CHIP_NAME_MIN_SIZE`)."""
        name = visible_name(self.font(size), " ".join(str(name).split()))  # "🎲" beside "(waiting)": its name
        least = min(size, least)
        while size > least and self.font(size).size(around.format(player=name))[0] > width:
            size -= 2
        font = self.font(size)
        shown = name
        if font.size(around.format(player=name))[0] > width:
            cut = name
            while cut and font.size(around.format(player=cut.rstrip() + ELLIPSIS))[0] > width:
                cut = cut[:-1]
            if optional and len(cut.rstrip()) < min(len(name), NAME_KEPT):
                return self.name_fit(name, pos, width, size, colour, anchor, least=least)  # the words' size
            if not cut.strip():  # not a letter of it fits beside the words around it: all of it cut at the end
                return self.text_fit(around.format(player=name), pos, width, size, colour, anchor, min_size=size)
            shown = cut.rstrip() + ELLIPSIS
        return self.text(around.format(player=shown), pos, size, colour, anchor, room=width)

    def wrap_lines(self, text: str, width: int, size: int, max_lines: int | None = None) -> list[str]:
        """``text`` broken into lines of at most ``width`` px at design size ``size`` (with ``max_lines`` the last
        line ends with "…" when there is more), never inside a place ("[0, 0]": :func:`wrap_words`)."""
        font = self.font(size)
        lines: list[str] = []
        line = ""
        for word in wrap_words(text):
            trial = f"{line} {word}".strip()
            if line and font.size(trial)[0] > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
        if max_lines is not None and len(lines) > max_lines:
            lines = lines[:max_lines]
            lines[-1] = lines[-1] + ELLIPSIS
        return lines

    def wrap(self, text: str, pos: tuple[int, int], width: int, size: int, colour: tuple[int, int, int],
             max_lines: int | None = None) -> int:
        """Word-wrapped text from ``pos`` in lines of at most ``width`` px (a word longer than a line is cut with
        "…"; with ``max_lines`` the last line ends with "…" when there is more); returns the y below the last line."""
        x, y = pos
        for line in self.wrap_lines(text, width, size, max_lines):
            self.text_fit(line, (x, y), width, size, colour, min_size=size)
            y += self.font(size).get_linesize()
        return y

    def hint(self, text: str, edge: tuple[int, int], width: int, colour: tuple[int, int, int], size: int = 18,
             min_size: int = HINT_MIN_SIZE, max_lines: int = 2, above: bool = True) -> list[pygame.Rect]:
        """A short hint beside a spot (the QR code's "Phones: tap the code"), centred on ``edge``'s x: at the largest
        design size in ``min_size``..``size`` (px) whose word-wrapped lines, at most ``max_lines``, fit ``width``
        px; never smaller than ``min_size`` (a longer text's last line ends with "…"). ``above``: the last line
        ends at ``edge``'s y (the hint sits over the spot), else the first starts there. Returns the lines' rects."""
        text = " ".join(str(text).split())
        for at in range(size, min_size - 1, -1):
            lines = self.wrap_lines(text, width, at)
            if len(lines) <= max_lines and all(self.font(at).size(line)[0] <= width for line in lines):
                break
        else:
            at, lines = min_size, self.wrap_lines(text, width, min_size, max_lines)
        step = self.font(at).get_linesize()
        x, y = edge
        top = y - step * len(lines) if above else y
        return [self.text_fit(line, (x, top + k * step), width, at, colour, anchor="midtop", min_size=at)
                for k, line in enumerate(lines)]

    def draw_qr(self, url: str, rect: pygame.Rect) -> None:
        """The QR code of ``url`` in ``rect`` (at least 20 mm on the 7" screen where a screen draws it); while the
        box has no network address (``url`` on 127.0.0.1) a "No network" sign instead: no phone could reach it."""
        if offline(url):
            pygame.draw.rect(self.surface, PANEL, rect, border_radius=self.s(8))
            pygame.draw.rect(self.surface, WARN, rect, width=max(1, self.s(2)), border_radius=self.s(8))
            inner = rect.inflate(-self.s(12), -self.s(12))
            self.text_fit(self.sign("WARN"), (inner.centerx, inner.y), inner.width, 56, WARN, anchor="midtop")
            self.text_fit(_("No network"), (inner.centerx, inner.y + self.s(58)), inner.width, 34, WARN,
                          anchor="midtop", min_size=12)
            self.wrap(_("phones cannot join yet: join the Wi-Fi"), (inner.x, inner.y + self.s(96)), inner.width, 20,
                      DIM, max_lines=3)
            return
        side = min(rect.width, rect.height)
        if self._qr_cache is None or self._qr_cache[:2] != (url, side):
            try:
                self._qr_cache = (url, side, qr_surface(url, side))
            except ValueError:
                return
        self.surface.blit(self._qr_cache[2], rect.topleft)

    def draw_buttons(self, buttons: list[Button]) -> None:
        for button in buttons:
            if not button.enabled:
                fill, colour = BUTTON_DISABLED, DIM
            elif button.name == self.pressed:
                fill, colour = BUTTON_PRESSED, TEXT
            else:
                fill, colour = (BAD if button.action == Action.QUIT else BUTTON), TEXT
            pygame.draw.rect(self.surface, fill, button.rect, border_radius=self.s(10))
            self.button_label(button.label, button.rect, colour)

    def label_fits(self, label: str, width: int, height: int) -> bool:
        """Whether :meth:`button_label` draws ``label`` whole on a button of ``width`` x ``height`` px (one line at
        16 or more, or two lines, a word broken with a hyphen if need be), never ending it with "…"."""
        text, room = " ".join(str(label).split()), width - 12
        font = self.font(16)
        if font.size(text)[0] <= room:
            return True
        return 2 * font.get_linesize() <= height - 2 and _hyphenated(text, font, room) is not None

    def button_label(self, label: str, rect: pygame.Rect, colour: tuple[int, int, int]) -> None:
        """A button's label on one line (44 down to 22), else on two lines (a longer word in another language),
        else one line down to 16, else (a small window, where text is no smaller than :data:`READ_MIN_PX`) broken
        inside its longest word with a hyphen over two lines, cut with "…" only when nothing else fits."""
        text, width = " ".join(str(label).split()), rect.width - 12
        if self.font(22).size(text)[0] > width and " " in text:
            words = wrap_words(text)
            for size in range(22, 15, -2):
                font = self.font(size)
                if 2 * font.get_linesize() > rect.height - 4:
                    continue
                splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
                fitting = [pair for pair in splits if max(font.size(line)[0] for line in pair) <= width]
                if fitting:
                    top, bottom = min(fitting, key=lambda pair: max(font.size(line)[0] for line in pair))
                    step = font.get_linesize()
                    self.text(top, (rect.centerx, rect.centery - step // 2), size, colour, "center", room=width)
                    self.text(bottom, (rect.centerx, rect.centery + step // 2), size, colour, "center", room=width)
                    return
        least = 22 if self.font(22).size(text)[0] <= width else 16
        font = self.font(least)
        if font.size(text)[0] > width and 2 * font.get_linesize() <= rect.height - 2:
            pair = _hyphenated(text, font, width)
            if pair is not None:
                step = font.get_linesize()
                self.text(pair[0], (rect.centerx, rect.centery - step // 2), least, colour, "center", room=width)
                self.text(pair[1], (rect.centerx, rect.centery + step // 2), least, colour, "center", room=width)
                return
        self.text_fit(text, rect.center, width, 44, colour, anchor="center", min_size=least)

    def draw_frame(self, frame: np.ndarray | None, area: pygame.Rect) -> None:
        pygame.draw.rect(self.surface, (0, 0, 0), area)
        if frame is None:
            self.text(_("No picture yet"), area.center, 40, DIM, anchor="center")
            return
        key = (self._frame_source, area.size)
        if self._frame_cache is None or self._frame_cache[:2] != key:
            self._frame_cache = (self._frame_source, area.size, frame_to_surface(frame, area.size))
        image = self._frame_cache[2]
        rect = image.get_rect(center=area.center)
        self.surface.blit(image, rect)
        self.frame_rect = rect

    def draw_picture(self, name: str, area: pygame.Rect) -> pygame.Rect | None:
        """Draw the published picture ``name`` (:attr:`pictures`) as large as fits in ``area`` (px, aspect kept),
        centred on its left edge's middle; the rectangle drawn, or None when there is no such picture or its JPEG
        does not decode (nothing drawn)."""
        data = self.pictures.get(name)
        if not data or area.width < 8 or area.height < 8:
            return None
        key = (name, data, area.size)
        image = self._picture_cache.get(key)
        if image is None:
            array = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if array is None or not array.size:
                return None
            image = frame_to_surface(array, area.size)
            self._picture_cache = {k: v for k, v in self._picture_cache.items() if k[0] != name}   # one size each
            self._picture_cache[key] = image
        rect = image.get_rect(midleft=area.midleft)
        self.surface.blit(image, rect)
        return rect

    def draw_status(self, view: dict[str, Any], area: pygame.Rect) -> None:
        status = view.get("status") or {}
        camera, camera_colour = CAMERA_TEXT.get(status.get("camera"), (None, DIM))
        camera = _(camera) if camera else _("Camera {status}").format(status=status.get("camera", "?"))
        reader, reader_colour = READER_TEXT.get(status.get("reader"), (str(status.get("reader") or ""), DIM))
        reader = _(reader) if reader else reader
        radius = self.s(7)
        pygame.draw.circle(self.surface, camera_colour, (area.x + radius, area.centery), radius)
        x = area.x + 2 * radius + self.s(6)
        rect = self.text_fit(
            camera, (x, area.centery), area.right - x, 28, camera_colour, anchor="midleft", min_size=16
        )
        x = rect.right + self.s(10)
        if reader and status.get("camera") == "ok" and area.right - x > 40:
            rect = self.text_fit(reader, (x, area.centery), area.right - x, 28, reader_colour, anchor="midleft",
                                 min_size=16)
            x = rect.right + self.s(10)
        message = status.get("message") or ""
        if message and area.right - x > 40:
            self.text_fit(message, (x, area.centery), area.right - x, 24, DIM, anchor="midleft")

    def draw_seat_dot(self, colour: Any, centre: tuple[int, int], radius: int) -> None:
        """A player's seat colour as a dot with its sign (:func:`seat_sign`) in it, so the colour is not the only
        signal, ringed in light grey so that a dark dot (black) shows on the dark screen. On a small window the dot
        grows to hold its sign at :data:`READ_MIN_PX` (Greek "Κο" at 480 x 320) rather than cutting it."""
        rgb = seat_rgb(colour)
        if colour and radius >= self.s(7):
            least = self.font(8)
            radius = max(radius, (max(least.size(seat_sign(colour))[0] + 2, least.get_height() - 2) + 1) // 2)
        pygame.draw.circle(self.surface, rgb, centre, radius)
        pygame.draw.circle(self.surface, (200, 205, 212), centre, radius + max(1, self.s(2)), max(1, self.s(2)))
        if colour and radius >= self.s(7):
            dark = (rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114) / 1000 > 140
            sign = seat_sign(colour)
            size = max(12, round(radius * 2.2 / max(self._sx, self._sy, 1e-9)))  # design size: the dot's height
            self.text_fit(sign, centre, 2 * radius - 2, size, (16, 20, 24) if dark else (250, 250, 250),
                          anchor="center", min_size=8)

    def draw_health(self, view: dict[str, Any], area: pygame.Rect, size: int = 22) -> None:
        """The box's health on a status line: the worst check's sign, level and message (``view["box"]["health"]``,
        :class:`companion.doctor.HealthWatch`); nothing before the first round of checks. The message is drawn whole:
        on one line, or word-wrapped on as many lines as ``area`` holds at a size read at arm's length (down to
        :data:`HINT_MIN_SIZE`); where it cannot be (the
        game screen's corner beside its buttons), the sign and level say where the whole message is (the Owner page,
        linked from every phone), on as many lines as the area holds; where not even that fits, the sign and level
        alone. Never a message cut mid-word."""
        health = (view.get("box") or {}).get("health")
        if not health:
            return
        level = health.get("level", "OK")
        colour = LEVEL_COLOURS.get(level, DIM)
        if level == "OK":
            said = _("{sign} health: all checks OK").format(sign=self.sign("OK"))
            self.text_fit(said, (area.x, area.centery), area.width, size, colour, anchor="midleft", min_size=12)
            return
        sign, word = self.sign(level), _(LEVEL_WORDS.get(level, level))
        said = " ".join(_("{sign} {level}: {message}").format(sign=sign, level=word,
                                                              message=health.get("message", "")).split())
        short = _("{sign} {level}: see {page}").format(sign=sign, level=word, page=_("Owner page"))
        if self.whole(said, area, size, colour, centred=True) is not None:
            return
        if self.font(12).size(short)[0] <= area.width:  # where the message is, on one line
            self.text_fit(short, (area.x, area.centery), area.width, size, colour, anchor="midleft", min_size=12)
            return
        if self.whole(short, area, size, colour, centred=True) is not None:
            return
        self.text_fit(f"{sign} {word}", (area.x, area.centery), area.width, size, colour, anchor="midleft",
                      min_size=12)  # not even where the message is fits: the level alone, never cut

    def whole(self, text: str, area: pygame.Rect, size: int, colour: tuple[int, int, int],
              min_size: int = HINT_MIN_SIZE, centred: bool = False) -> int | None:
        """Draw ``text`` word-wrapped in ``area`` at the largest design size from ``size`` down to ``min_size`` (px;
        smaller is not read at arm's length) at which every line fits whole (no "…"), from ``area``'s top or, with
        ``centred``, centred on its height; returns the y below the last line, or None (nothing drawn) when even
        ``min_size`` does not fit."""
        for at in range(size, min(size, min_size) - 1, -1):
            lines = self.wrap_lines(text, area.width, at)
            step = self.font(at).get_linesize()
            height = len(lines) * step
            if height <= area.height and all(self.font(at).size(line)[0] <= area.width for line in lines):
                y = area.centery - height // 2 if centred else area.y
                for line in lines:
                    self.text(line, (area.x, y), at, colour, room=area.width)
                    y += step
                return y
        return None

    def draw_findings(self, findings: list[dict[str, Any]], area: pygame.Rect) -> None:
        if not findings:
            return
        first = findings[0]
        colour = SEVERITY_COLOURS.get(first.get("severity"), WARN)
        pygame.draw.rect(self.surface, colour, (area.x, area.y, self.s(6), area.height))
        more = "  " + _("(+{count} more)").format(count=len(findings) - 1) if len(findings) > 1 else ""
        sign = self.sign(first.get("severity", "warning"))
        if first.get("where"):
            text = _("{sign} {what} - {where}").format(sign=sign, what=first.get("what", "?"), where=first["where"])
        else:
            text = _("{sign} {what}").format(sign=sign, what=first.get("what", "?"))
        more_width = self.font(24).size(more)[0] if more else 0
        x = area.x + self.s(12)
        rect = self.text_fit(text, (x, area.centery), area.right - x - more_width, 26, colour, anchor="midleft")
        if more:
            self.text(more, (rect.right, area.centery), 24, DIM, anchor="midleft")

    def _finding_parts(self, finding: dict[str, Any], room: int) -> list[tuple[str, int, tuple[int, int, int], int]]:
        """What the touchscreen says of a finding in ``room`` px of width, as (text, design size, colour, most lines):
        what and where, the rule it breaks and what to do, and its fix when it has one (``finding["fix"]``)."""
        colour = SEVERITY_COLOURS.get(finding.get("severity"), WARN)
        where = f" ({finding['where']})" if finding.get("where") else ""
        what = f"{self.sign(finding.get('severity', 'warning'))} {finding.get('what', '?')}{where}"
        # at the largest size down to 20 px where it fits its three lines whole (a refused Next names who has not
        # reported, what to do and the rule: in Greek four lines at 24 px); only a longer one is cut with '…'
        size = next((at for at in range(24, 19, -1) if len(self.wrap_lines(what, room, at)) <= 3), 20)
        parts = [(what, size, colour, 3)]
        said = " - ".join(t for t in (finding.get("rule") or "", finding.get("todo") or "") if t)
        if said:
            parts.append((said, 20, DIM, 2))
        if finding.get("fix"):
            parts.append((_("Fix: {fix}").format(fix=finding["fix"]), 22, GOOD, 2))
        return parts

    def findings_height(self, findings: list[dict[str, Any]], width: int) -> int:
        """The height (px) :meth:`draw_findings_with_rule` needs for ``findings`` in ``width`` px (0: none)."""
        if not findings:
            return 0
        room = width - self.s(12)
        return sum(len(self.wrap_lines(text, room, size, most)) * self.font(size).get_linesize()
                   for text, size, _colour, most in self._finding_parts(findings[0], room))

    def draw_findings_with_rule(self, findings: list[dict[str, Any]], area: pygame.Rect) -> None:
        """The newest finding in ``area``: what and where, the rule it breaks and what to do, and its fix ("Fix:
        rotate it 1 step clockwise ...") when it has one, each wrapped onto lines (game flows; the height it needs:
        :meth:`findings_height`)."""
        if not findings:
            return
        first = findings[0]
        pygame.draw.rect(self.surface, SEVERITY_COLOURS.get(first.get("severity"), WARN),
                         (area.x, area.y, self.s(6), area.height))
        x = area.x + self.s(12)
        y = area.y
        for text, size, colour, most in self._finding_parts(first, area.right - x):
            lines = self.wrap_lines(text, area.right - x, size, most)
            while lines and y + len(lines) * self.font(size).get_linesize() > area.bottom and len(lines) > 1:
                lines = lines[:-1]
                lines[-1] = lines[-1].rstrip(ELLIPSIS) + ELLIPSIS
            if y + self.font(size).get_linesize() > area.bottom + self.s(2):
                break
            for line in lines:
                self.text_fit(line, (x, y), area.right - x, size, colour, min_size=size)
                y += self.font(size).get_linesize()
