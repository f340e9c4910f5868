"""Roll for the Galaxy's Die removed: which of a player's dice a tile they built takes back to the supply.

Rulebook p.11 FAQ, Immediate effects: a tile that says "remove one of your dice" (Conscription, Information Tech,
Space Marines; Rebel Warrior Race, Former Penal Colony, Rebel Miners) takes any one of the player's dice, from
anywhere, back to the supply, once, when it is built. Tile built says the tile; the rules then owe the removal
(``removals_owed`` in the player's view row) until this form says which die (``die_removed``), and Undo takes it
back as any report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadEntry
from companion.flow_spec import Field, Form
from companion.i18n import Text
from rules.roll.data import COLOURS, PHASES, catalogue
from rules.roll.dice import Dice
from rules.roll.events import DICE_FROM
from rules.roll.words import colour_word, place_word

__all__ = ["dice_at", "owed", "removed_choices", "removed_event", "removed_outside", "removed_form", "removing_tiles"]

def removing_tiles() -> tuple[str, ...]:
    """Every tile side whose immediate effect removes one of its owner's dice (p.11 FAQ), sorted."""
    cat = catalogue()
    worlds = [t.world.name for t in cat.game_tiles if t.world.effect.remove_die]
    return tuple(sorted({*worlds, "Conscription", "Information Tech", "Space Marines"}))


def removed_form() -> Form:
    """Die removed: the tile, the die's colour and where it was."""
    return Form("remove", Text("Die removed"), (
        Field("source", Text("Tile"), choices=removing_tiles()),
        Field("colour", Text("Die colour"), choices=tuple(COLOURS), labels=tuple(colour_word(c) for c in COLOURS)),
        Field("from", Text("From"), choices=DICE_FROM, labels=tuple(place_word(p) for p in DICE_FROM)),
    ), hint=Text("A tile you built removes one of your dice: any one, from anywhere, goes back to the supply (p.11 "
                 "FAQ, Immediate effects)."))


def _me(view: Mapping[str, Any], player: str) -> Mapping[str, Any]:
    return next((p for p in view.get("players", ()) if p.get("name") == player), {})


def owed(view: Mapping[str, Any], player: str) -> list[str]:
    """The tiles ``player`` built whose removed die is not said yet, in the order built."""
    return list(_me(view, player).get("removals_owed") or ())


def dice_at(me: Mapping[str, Any], place: str) -> Dice:
    """The dice the rules know the view row ``me`` has at ``place`` (one of ``DICE_FROM``)."""
    if place in ("cup", "citizenry"):
        return Dice.of(me.get(place))
    if place in PHASES:
        return Dice.of((me.get("columns") or {}).get(place))
    if place == "goods":
        return Dice.of({c: sum(cs.count(c) for cs in (me.get("goods") or {}).values()) for c in COLOURS})
    return Dice.of((me.get("construction_zone") or {}).get(f"{place}_workers"))


def removed_choices(view: Mapping[str, Any], player: str) -> dict[str, Any]:
    """The Die removed form's narrower lists for ``player``: the tiles whose die is owed, and the places holding any
    of their dice as the rules know them."""
    me = _me(view, player)
    return {"source": {"choices": owed(view, player), "none": Text("no tile of yours owes a removed die")},
            "from": {"choices": [p for p in DICE_FROM if dice_at(me, p).total],
                     "none": Text("the box knows of no die of yours")}}


def removed_outside(field: str, value: Any, player: str) -> str | None:
    """Why ``value`` of Die removed's ``field`` is outside :func:`removed_choices` (a page older than the table, or a
    request made by hand), naming it; None for another field."""
    if field == "source":
        return _owes_none(player, value)
    if field == "from" and value in DICE_FROM:
        return Text("{form}: the box knows of no die of {player}'s in {place} (p.11 FAQ, Immediate effects: any one "
                    "of your dice, from anywhere)", form=Text("Die removed"), player=player, place=place_word(value))
    return None


def _owes_none(player: str, tile: Any) -> Text:
    return Text("{form}: {player} owes no die for {tile}: a tile removes one of your dice once, when it is built, and "
                "Tile built says it (p.11 FAQ, Immediate effects)", form=Text("Die removed"), player=player, tile=tile)


def removed_event(values: Mapping[str, Any], player: str, view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Die removed -> ``die_removed``.

    Raises:
        BadEntry: the tile owes no removal for ``player`` (not built, or its die said already), or the rules know no
            die of that colour at that place; naming the tile or the die and the place. Nothing is recorded.
    """
    form = Text("Die removed")
    if values["source"] not in owed(view, player):
        raise BadEntry(_owes_none(player, values["source"]))
    if not dice_at(_me(view, player), values["from"])[values["colour"]]:
        raise BadEntry(Text("{form}: the box knows of no {colour} die of {player}'s in {place}: choose where the die "
                            "is (p.11 FAQ, Immediate effects: any one of your dice, from anywhere)", form=form,
                            player=player, colour=colour_word(values["colour"]), place=place_word(values["from"])))
    return "die_removed", {"source": values["source"],
                           "remove": {"colour": values["colour"], "from": values["from"]}}
