"""Words the box says in many places, each kept to be said in the player's language (:mod:`companion.i18n`): the
seat colours (a colour is never the only signal: its name is shown beside it)."""

from __future__ import annotations

from companion.i18n import Text

__all__ = ["SEAT_COLOUR_WORDS", "colour_word"]

SEAT_COLOUR_WORDS = {
    "red": Text("red"), "blue": Text("blue"), "green": Text("green"), "yellow": Text("yellow"),
    "purple": Text("purple"), "white": Text("white"), "black": Text("black"), "grey": Text("grey"),
    "natural": Text("natural"),
}
"""Every game's seat colours (``game.info.colours``) in the players' words."""


def colour_word(colour: str) -> str:
    """A seat colour (``"red"``) in the players' words; an unknown one as it is."""
    return SEAT_COLOUR_WORDS.get(str(colour), str(colour))
