"""Among the Stars: the choices a location's white box asks of its builder (``choices`` of
:data:`rules.among_the_stars.game.LOCATION_BUILT`), checked against the station and the player's credits before
anything is recorded: a choice that cannot be made is refused (:class:`rules.core.BadEvent`), naming both numbers or
the place, never carried out on less than was asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.among_the_stars.data import CardDef
from rules.among_the_stars.legality import auto_payment, cell_text, energy_sources
from rules.among_the_stars.station import Cell, Placed, Station, reactor_named, station_place
from rules.engine import EventContext
from rules.text import Listing, Text, plural

__all__ = ["choice_count", "choices_paid", "energy_chosen", "energy_paid", "reactor_beside"]


def reactor_beside(station: Station, word: str, cell: Cell, want: Any, ctx: EventContext) -> None:
    """A Solar Panels' chosen reactor (``choices.reactor``, ``[i, j]``, or None: the first beside it) is a reactor
    beside ``cell`` (card text: add 1 energy cube to a reactor it is built next to).

    Raises:
        BadEvent: it is not, naming the reactors beside it.
    """
    beside = [n for n in station.neighbours(cell) if n.is_reactor]
    if want is None or (isinstance(want, (list, tuple)) and any(list(n.cell) == list(want) for n in beside)):
        return
    raise ctx.bad(Text("{card}: no reactor beside it lies {cell}; choose one of: {cells}", card=word, cell=_said(want),
                       cells=Listing(cell_text(n.cell) for n in beside)))


def _said(want: Any) -> Any:
    """A chosen cell as the player finds it from their Main Reactor; what is not a cell, as it was sent."""
    try:
        return station_place(want)
    except ValueError:
        return repr(want)


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



def energy_chosen(station: Station, card: CardDef, cell: Cell, want: Any, need: int, rng: int,
                  ctx: EventContext) -> dict[Cell, int]:
    """The cubes a location at ``cell`` takes from each reactor when its builder chose them (``choices.energy``: a list
    of reactor cells ``[i, j]``, one a cube, at most ``need``: its energy cost and a Shield Generator's extra cubes).
    Rulebook 4 'Build a location': the energy is paid from reactors holding cubes within distance ``rng`` of the new
    location, the distance counted through built cards (the new one placed); FAQ: the cubes may come from several
    reactors, which is the player's choice. The cubes not named come from the reactors nearest first, as when
    nothing is named (:func:`rules.among_the_stars.legality.auto_payment`). ``station`` is the station before the
    build.

    Returns:
        ``{reactor cell: cubes}``, possibly less than ``need`` when the reactors in reach hold too few (the placement
        check says so).

    Raises:
        BadEvent: not a list of cells; more cubes named than it takes; a cell that holds no reactor, a reactor
            farther than ``rng`` or not joined to it, a reactor named for more cubes than it holds: each naming the
            reactor and the ones that can pay.
    """
    if not isinstance(want, (list, tuple)) or not all(
            isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(n, int) and not isinstance(n, bool)
                                                                for n in v) for v in want):
        raise ctx.bad(f"choices.energy: a list of reactor cells [i, j], one a cube; got {want!r}")
    cells = [(v[0], v[1]) for v in want]
    if len(cells) > need:
        raise ctx.bad(Text("{card}: {count} energy cubes named, but it takes {need}", card=card.word,
                           count=len(cells), need=need))
    after = station.with_card(Placed(card, cell, order=station.next_order))
    dist = after.distances(cell)
    sources = energy_sources(after, cell, rng)
    can = (Listing(Text("the {reactor}", reactor=reactor_named(r.word, r.cell)) for r in sources) if sources
           else Text("none"))
    named: dict[Cell, int] = {}
    for c in cells:
        r = station.at(c)
        if r is None or not r.is_reactor:
            raise ctx.bad(Text("{card}: no reactor {cell} pays its energy; it can come from: {reactors}",
                               card=card.word, cell=cell_text(c), reactors=can))
        far = dist.get(c)
        if far is None or far > rng:
            raise ctx.bad(Text("{card} ({cell}): the {reactor} is {far}, and energy comes from within "
                               "distance {rng}; it can come from: {reactors}", card=card.word, cell=cell_text(cell),
                               reactor=reactor_named(r.word, c),
                               far=Text("not joined to it") if far is None else Text("at distance {distance}",
                                                                                       distance=far),
                               rng=rng, reactors=can))
        named[c] = named.get(c, 0) + 1
        if named[c] > r.cubes:
            raise ctx.bad(plural("{card}: the {reactor} holds {n} energy cube, and {count} are named from it",
                                 "{card}: the {reactor} holds {n} energy cubes, and {count} are named from it",
                                 r.cubes, card=card.word, reactor=reactor_named(r.word, c), count=named[c]))
    left = station
    for c, n in named.items():
        left = left.with_cubes(c, left.at(c).cubes - n)
    out = dict(named)
    for c, n in auto_payment(left.with_card(Placed(card, cell, order=left.next_order)), cell, need - len(cells),
                             rng).items():
        out[c] = out.get(c, 0) + n
    return out


def energy_paid(word: str, station: Station, payment: Mapping[Cell, int]) -> Text:
    """What a location's builder paid its energy with, for the table: ``"Turret: energy paid: 1 cube from the Main
    Reactor, 1 left"``, a Power Reactor named with its place (:func:`reactor_named`); ``station``: after the cubes were
    taken; ``payment``: cubes taken from each reactor cell."""
    parts = []
    for c, n in payment.items():
        r = station.at(c)
        if n and r is not None:
            parts.append(plural("{n} cube from the {reactor}, {left} left",
                                "{n} cubes from the {reactor}, {left} left", n, reactor=reactor_named(r.word, c),
                                left=r.cubes))
    return Text("{card}: energy paid: {sources}", card=word, sources=Listing(parts))
