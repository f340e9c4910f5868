"""Among the Stars: the choices a location's white box asks of its builder (``choices`` of
:data:`rules.among_the_stars.game.LOCATION_BUILT`), checked against the station and the player's credits before
anything is recorded: a choice that cannot be made is refused (:class:`rules.core.BadEvent`), naming both numbers or
the place, never carried out on less than was asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.among_the_stars.station import Cell, Station
from rules.engine import EventContext
from rules.text import Listing, Text

__all__ = ["choice_count", "choices_paid", "reactor_beside"]


def reactor_beside(station: Station, word: str, cell: Cell, want: Any, ctx: EventContext) -> None:
    """A Solar Panels' chosen reactor (``choices.reactor``, ``[i, j]``, or None: the first beside it) is a reactor
    beside ``cell`` (card text: add 1 energy cube to a reactor it is built next to).

    Raises:
        BadEvent: it is not, naming the reactors beside it.
    """
    beside = [n for n in station.neighbours(cell) if n.is_reactor]
    if want is None or (isinstance(want, (list, tuple)) and any(list(n.cell) == list(want) for n in beside)):
        return
    raise ctx.bad(Text("{card}: no reactor beside it at {cell}; choose one of: {cells}", card=word, cell=str(want),
                       cells=Listing(f"[{n.cell[0]}, {n.cell[1]}]" for n in beside)))


def choice_count(choices: Mapping[str, Any], key: str, ctx: EventContext) -> int:
    """``choices[key]`` (0 when absent): a Shield Generator's ``extra_cubes`` (cubes spent beyond its cost) or a
    Business Offices' ``escrow`` (credits placed on it).

    Raises:
        BadEvent: not a whole number of 0 or more.
    """
    n = choices.get(key, 0)
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ctx.bad(f"choices.{key}: a whole number, 0 or more; got {n!r}")
    return n


def choices_paid(word: str, extra: int, cubes_left: int, escrow: int, credits_left: int, ctx: EventContext) -> None:
    """What a card's choice spends is there to spend: a Shield Generator's cubes beyond its cost (``extra``) from the
    reactors within reach, ``cubes_left`` once its cost is paid (card text: +2 VP per extra energy cube spent); a
    Business Offices' credits placed on it (``escrow``) from ``credits_left`` once its cost is paid (card text: place
    up to 6 of your credits on it). Taking fewer without a word would score what the player did not count.

    Raises:
        BadEvent: more asked than there is, naming both numbers; nothing is recorded.
    """
    if extra > cubes_left:
        raise ctx.bad(Text("{card}: energy cubes beyond its cost: {extra}, but the reactors within reach hold only "
                           "{left} beyond its cost", card=word, extra=extra, left=cubes_left))
    if escrow > credits_left:
        raise ctx.bad(Text("{card}: credits placed on it: {escrow}, but only {left} are left after paying its cost",
                           card=word, escrow=escrow, left=credits_left))
