"""Words the box says in many places, each kept to be said in the player's language (:mod:`companion.i18n`): the
seat colours (a colour is never the only signal: its name is shown beside it)."""

from __future__ import annotations

from companion import i18n
from companion.i18n import NC_, Text

__all__ = ["DOT_LETTER", "SEAT_COLOUR_LETTERS", "SEAT_COLOUR_WORDS", "colour_letter", "colour_word"]

SEAT_COLOUR_WORDS = {
    "red": Text("red"), "blue": Text("blue"), "green": Text("green"), "yellow": Text("yellow"),
    "purple": Text("purple"), "white": Text("white"), "black": Text("black"), "grey": Text("grey"),
    "natural": Text("natural"),
}
"""Every game's seat colours (``game.info.colours``) in the players' words."""


def colour_word(colour: str) -> str:
    """A seat colour (``"red"``) in the players' words; an unknown one as it is."""
    return SEAT_COLOUR_WORDS.get(str(colour), str(colour))



DOT_LETTER = "the letter in a seat colour's dot: 1-2 letters, different for each colour"
"""The context of a seat colour's letter (:func:`colour_letter`)."""

SEAT_COLOUR_LETTERS = {
    "red": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "red"),
    "blue": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "blue"),
    "green": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "green"),
    "yellow": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "yellow"),
    "purple": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "purple"),
    "white": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "white"),
    "black": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "black"),
    "grey": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "grey"),
    "natural": NC_("the letter in a seat colour's dot: 1-2 letters, different for each colour", "natural"),
}
"""Each seat colour's letter, the catalog's to choose (``(context, colour)``): the first letter of the colour's word
may be another colour's too (Greek κόκκινο and κίτρινο, μπλε and μωβ)."""


def colour_letter(colour: str, lang: str | None = None) -> str:
    """The letter in a seat colour's dot in ``lang`` (None: the current language): the catalog's, else the first
    letter of the colour's word (English ``"R"`` for red)."""
    colour = str(colour)
    lang = lang or i18n.current_language()
    letter = catalog_letter(colour, lang)
    return letter if letter is not None else i18n.say(colour_word(colour), lang)[:1].upper()


def catalog_letter(colour: str, lang: str | None = None) -> str | None:
    """The letter the catalog of ``lang`` (None: the current language) gives a seat colour's dot (Greek "Κο" for red,
    "Κι" for yellow), or None when it gives none (English, a colour it does not know)."""
    colour = str(colour)
    letter = i18n.translations(lang or i18n.current_language()).pgettext(DOT_LETTER, colour)
    return letter if letter and letter != colour else None
