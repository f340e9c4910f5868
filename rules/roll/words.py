"""Roll for the Galaxy's words in messages: phases, steps, dice colours and faces as the players' edition prints
them (:mod:`rules.names`), for findings and labels said in each player's language (:mod:`rules.text`)."""

from __future__ import annotations

from rules.names import term
from rules.roll.data import COLOURS, PHASES
from rules.roll.dice import Dice
from rules.text import N_, Listing, Text

__all__ = ["COLOUR_WORDS", "colour_word", "dice_words", "face_word", "phase_word", "place_word", "stage_word"]


def phase_word(phase: str) -> str:
    """A phase (``"settle"``) as the edition names it (Greek: Αποίκιση)."""
    return term("roll.phase", phase)


def face_word(face: str) -> str:
    """A die face (a phase or ``"wild"``) as the edition names it."""
    return term("roll.face", face)


COLOUR_WORDS = (N_("white"), N_("red"), N_("purple"), N_("blue"), N_("brown"), N_("green"), N_("yellow"),
                N_("gray"))
"""The dice and world colours' English words, for the catalogs: an edition that names no colour has them said
from the catalog (:data:`rules.names.WORD_KINDS`)."""


def colour_word(colour: str) -> str:
    """A die or world colour (``"white"``) as the edition names it (else as the catalog says it)."""
    return term("roll.colour", colour)


def stage_word(stage: str) -> str:
    """Where the round is (a :class:`rules.roll.state.Stage` value): a phase or a step as the edition names it,
    setup and the end in the players' words."""
    value = getattr(stage, "value", stage)
    if value in PHASES:
        return phase_word(value)
    if value == "setup":
        return Text("Setup")
    if value == "over":
        return Text("the end of the game")
    return term("roll.step", value)


PLACE_WORDS = {"cup": Text("the cup"), "citizenry": Text("the Citizenry"),
               "construction_zone": Text("the construction zone"),
               "goods": Text("the goods"), "development": Text("the development stack"),
               "world": Text("the world stack")}
"""Where a player's dice are (``dice_counted``'s places, ``remove.from``), in the players' words."""


def place_word(place: str) -> str:
    """Where dice are (a phase column, the cup, the Citizenry, ...), in the players' words."""
    if place in PHASES:
        return Text("the {phase} column", phase=phase_word(place))
    return PLACE_WORDS.get(place) or Text(place)


def dice_words(dice: Dice) -> str:
    """Dice by colour, ``"2 red, 1 blue"`` (``"none"`` when there are none), each colour in the player's words."""
    items = [Text("{n} {colour}", n=n, colour=colour_word(c)) for c, n in zip(COLOURS, dice.counts, strict=True) if n]
    return Listing(items) if items else Text("none")


FIELD_WORDS = {
    "phase": Text("Phase"), "extra_white": Text("Extra white die (2 players)"), "faction": Text("Faction"),
    "home_world": Text("Home world"), "development": Text("Starting development"),
    "player_setup.world": Text("Starting world"), "world": Text("World"), "tile": Text("Tile"),
    "colour": Text("Die colour"), "mode": Text("Trade or consume"), "good": Text("Good's colour"),
    "shipper": Text("Shipper's colour"), "vp_changed.delta": Text("VP"), "credits": Text("Credits"),
    **{f"dice_counted.{k}": PLACE_WORDS[k] for k in ("cup", "citizenry", "construction_zone")},
}
"""A Roll for the Galaxy event's payload fields as the phone's forms label them (``"<kind>.<key>"`` where one form
labels a field its own way: the setup's world is the Starting world, p.2 Setup; the dice counted at the end, p.8
Victory, by place), said by a refusal of the field."""
