"""An Eclipse event's payload field that cannot be applied, refused in the players' words.

A phone's forms offer only what the rules take, but a session file edited by hand, a payload posted by hand or a
tool can hold anything: a blueprint's part count out of range, a diplomatic partner who is the player, an action,
a direction, a structure or a Shrine's cost Eclipse does not have. Each is refused with a
:class:`rules.core.BadEvent` whose ``problem`` is a :class:`rules.text.Text`, which the box says in each reader's
language (el, pl, hu) as it says every other refusal, naming the field as the phone's form labels it (the same
catalog entries: "Hull", "Ion cannons (yellow dice)") and, where a rule decides, the rulebook's section. The event is
refused whole: nothing of it is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import BadEvent
from rules.eclipse.data import SHIP_TYPES
from rules.eclipse.words import ship_word
from rules.engine import EventContext
from rules.text import OR, Listing, Text

__all__ = ["not_one_of", "ship_type", "whole"]


def whole(ctx: EventContext, value: Any, word: Text, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high``, the field named ``word`` (its form label).

    Raises:
        BadEvent: not a whole number (JSON ``true`` is none), or outside ``low``-``high``: "Hull must be a whole
            number from 0 to 12, got 13", the words the phone's own form says.
    """
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return value
    raise ctx.bad(Text("{what} must be a whole number {range}, got {value}", what=word,
                       range=Text("from {low} to {high}", low=low, high=high), value=repr(value)))


def not_one_of(ctx: EventContext, value: Any, word: Text, choices: Mapping[str, Any]) -> BadEvent:
    """The refusal (raise it) of ``value`` in the field named ``word``, whose choices are ``choices``'s keys, said by
    their values (the players' words): "Ship must be Interceptor, Cruiser, Dreadnought or Starbase, got 'Frigate'"."""
    return ctx.bad(Text("{what} must be {choices}, got {value}", what=word, choices=Listing(choices.values(), OR),
                        value=repr(value)))


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
