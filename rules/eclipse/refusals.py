"""An Eclipse event's payload field that cannot be applied, refused in the players' words.

A phone's forms offer only what the rules take, but a session file edited by hand, a payload posted by hand or a
tool can hold anything: a blueprint's part count out of range, a diplomatic partner who is the player, an action,
a direction, a structure or a Shrine's cost Eclipse does not have. Each is refused with a
:class:`rules.core.BadEvent` whose ``problem`` is a :class:`rules.text.Text`, which the box says in each reader's
language (el, pl, hu) as it says every other refusal, naming the field as the phone's form labels it (the same
catalog entries: "Hull", "Ion cannons (yellow dice)") and, where a rule decides, the rulebook's section. The event is
refused whole: nothing of it is recorded. The refusals every game shares (:func:`whole`, :func:`not_one_of`) are
:mod:`rules.refusals`'s; Eclipse's own are here.
"""

from __future__ import annotations

from rules.eclipse.data import SHIP_TYPES
from rules.eclipse.words import ship_word
from rules.engine import EventContext
from rules.refusals import not_one_of
from rules.text import Text

__all__ = ["ship_type"]


def ship_type(ctx: EventContext, key: str = "ship", required: bool = True) -> str | None:
    """The ship type ``payload[key]`` names (any case, spaces around it ignored; Eclipse, Upgrade action: the four
    blueprints), or None when it is not required and absent.

    Raises:
        BadEvent: missing when required, not a string, or no ship type.
    """
    value = ctx.require(key, str) if required else ctx.get(key, None, str)
    if value is None:
        return None
    match = next((s for s in SHIP_TYPES if s.casefold() == value.strip().casefold()), None)
    if match is None:
        word = Text("Target ship") if key == "target_ship" else Text("Ship")
        raise not_one_of(ctx, value, word, {s: ship_word(s) for s in SHIP_TYPES})
    return match
