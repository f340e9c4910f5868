"""Card abilities: what a location gives when built (white box) and at game end (yellow box).

Each ability is read from the card's ``ability_params`` (``kind`` plus numbers) in the
data file, so a corrected number is a data change. Counting conventions (digest §15,
decided here):

- Power Reactors and the Main Reactor are locations (rulebook 4: 'Az Erőművek
  helyszínnek számítanak') for "per location" counts; the Main Reactor counts as a Power
  Reactor (its printed text). A face-down filler is neither.
- A card counts itself when its text counts a colour it has (Command Centre, Trade Union
  Headquarters, War Room, ...), as the Restaurant FAQ does for types.
- The Vak Main Reactor counts as a location of every type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.among_the_stars.station import Cell, Placed, Station
from rules.text import Text

__all__ = ["END_GAME_KINDS", "IMMEDIATE_KINDS", "Immediate", "Interaction", "end_game_vp", "immediate"]


@dataclass(frozen=True)
class Interaction:
    """An effect on another player, resolved after every player's action of the round (rulebook 'Player order').

    ``what`` is ``"vp"`` or ``"credits"`` (``delta`` is added to ``target``; may be negative), or ``"bid"``: a payment
    of ``delta`` credits promised to a Galactic Research Facility, paid from what ``target`` has then, as many VP
    (the builder's VP follow what was paid: :mod:`rules.among_the_stars.game`'s resolution).
    """

    target: str
    what: str
    delta: int
    reason: str
    transfer_to: str | None = None  # credits taken from ``target`` go to this player (as many as ``target`` has)
    source: str = ""  # the player whose card caused it (orders the resolution)
    cell: tuple[int, int] | None = None  # the card's cell in ``source``'s station (a bid's Galactic Research Facility)


@dataclass(frozen=True)
class Immediate:
    """What building a card gives at once: VP (printed + white ability), credits, cubes, interactions."""

    printed_vp: int
    ability_vp: int = 0
    credits: int = 0
    cubes: Mapping[Cell, int] = field(default_factory=dict)
    escrow: int = 0
    interactions: tuple[Interaction, ...] = ()
    note: str = ""

    @property
    def vp(self) -> int:
        return self.printed_vp + self.ability_vp


def _cap(value: int, cap: int | None) -> int:
    return value if cap is None else min(value, cap)


# a flat dispatch on the card data's ability kind, one short rule per kind, as the cards list them
def immediate(  # noqa: C901
    station: Station,
    p: Placed,
    *,
    year: int,
    years: int = 4,
    paid: int | None = None,
    credits: int = 0,
    choices: Mapping[str, Any] | None = None,
    builder: str = "",
) -> Immediate:
    """The immediate effect of ``p``, already placed in ``station`` (the station after the build).

    ``paid``: cubes spent on it (Shield Generator's extra cubes); ``credits``: the
    builder's credits after paying (Business Offices); ``choices``: the player's choices
    for interactive cards (``gift_to``, ``take``, ``bids``, ``paid``, ``escrow``, ``reactor``).
    """
    card, prm, choices = p.card, p.card.params, choices or {}
    kind = prm.get("kind")
    base = Immediate(printed_vp=card.vp)
    if card.timing != "immediate":
        return base
    cap = card.ability_cap
    near = station.neighbours(p.cell)
    if kind == "extra_energy_bonus":
        extra = max(0, (paid if paid is not None else card.cost_energy) - card.cost_energy)
        return Immediate(card.vp, _cap(extra * prm["vp_per_extra_cube"], cap))
    if kind == "per_adjacent_location":
        return Immediate(card.vp, _cap(sum(1 for n in near if n.is_location) * prm["vp_each"], cap))
    if kind == "distinct_types_in_station":
        return Immediate(card.vp, _cap(len(station.types_present()) * prm["vp_each"], cap))
    if kind == "adjacency_either":
        better, basic = prm["better"], prm["base"]
        if any(not n.face_down and n.card.kind == better["name"] for n in near):
            return Immediate(card.vp, better["vp"])
        if any(n.has_colour(basic["colour"]) for n in near):
            return Immediate(card.vp, basic["vp"])
        return base
    if kind == "count_named":
        n = station.count_kind(prm["name"]) - (1 if prm.get("exclude_self") else 0)
        return Immediate(card.vp, _cap(n * prm["vp_each"], cap))
    if kind == "adjacent_named":
        hit = any(not n.face_down and n.card.kind == prm["name"] for n in near)
        return Immediate(card.vp, prm["vp"] if hit else 0)
    if kind == "locations_between":
        mr = station.main_reactor
        d = station.distance(p.cell, mr.cell) if mr else None
        return Immediate(card.vp, _cap(max(0, (d or 0) - 1) * prm["vp_each"], cap))
    if kind == "count_reactors_within":
        n = sum(1 for q in station.within(p.cell, prm["distance"]) if q.is_reactor)
        return Immediate(card.vp, _cap(n * prm["vp_each"], cap))
    if kind == "reactor_threshold":
        return Immediate(card.vp, prm["vp"] if len(station.reactors()) >= prm["threshold"] else 0)
    if kind == "count_colour_in_station":
        return Immediate(card.vp, _cap(station.count_colour(prm["colour"]) * prm["vp_each"], cap))
    if kind == "years_remaining":
        return Immediate(card.vp, _cap(max(0, years - year) * prm["vp_each"], cap))
    if kind == "absence_bonuses":
        vp = 0
        for rule in prm["rules"]:
            around = station.within(p.cell, rule["distance"])
            if "colour" in rule:
                hit = any(q.has_colour(rule["colour"]) for q in around)
            else:
                hit = any(q.is_reactor for q in around)
            vp += 0 if hit else rule["vp"]
        return Immediate(card.vp, vp)
    if kind == "credits_per_adjacent_colour":
        return Immediate(card.vp, credits=sum(prm["credits_each"] for n in near if n.has_colour(prm["colour"])))
    if kind == "credits_per_reactor":
        return Immediate(card.vp, credits=min(prm["max_credits"], len(station.reactors()) * prm["credits_each"]))
    if kind == "add_cube_main_reactor":
        mr = station.main_reactor
        beside = mr is not None and mr in near
        return Immediate(card.vp, prm["adjacent_main_reactor_vp"] if beside else 0,
                         cubes={mr.cell: prm["cubes"]} if mr else {})
    if kind == "add_cube_adjacent_reactor":
        reactors = [n for n in near if n.is_reactor]
        want = choices.get("reactor")
        target = next((r for r in reactors if list(r.cell) == list(want or ())), reactors[0] if reactors else None)
        return Immediate(card.vp, cubes={target.cell: prm["cubes"]} if target else {},
                         note="" if target else Text("no reactor beside it to take the cube"))
    if kind == "escrow_credits":
        n = max(0, min(int(choices.get("escrow", 0)), prm["max_credits"], credits))
        return Immediate(card.vp, n // prm["vp_per_credits"], credits=-n, escrow=n)
    if kind == "gift_vp":
        to = choices.get("gift_to")
        if not to:
            return Immediate(card.vp, note=Text("no player chosen: the gift is not used"))
        return Immediate(card.vp, prm["you"],
                         interactions=(Interaction(to, "vp", prm["other"], card.name, source=builder),))
    if kind == "take_credits":
        take = {k: int(v) for k, v in (choices.get("take") or {}).items() if int(v) > 0}
        moves: list[Interaction] = []
        left = prm["total"]
        for who, n in list(take.items())[: prm["max_players"]]:
            n = min(n, left)
            left -= n
            moves.append(Interaction(who, "credits", -n, card.name, transfer_to=builder, source=builder))
        return Immediate(card.vp, interactions=tuple(moves))
    if kind == "secret_bid":  # the highest bid + 1 now; a bid not paid in full lowers it when the round ends
        bids = {k: max(0, min(int(v), prm["max_each"])) for k, v in (choices.get("bids") or {}).items()}
        moves = [Interaction(who, "bid", n, card.name, source=builder, cell=p.cell) for who, n in bids.items() if n]
        return Immediate(card.vp, max(bids.values(), default=0) + 1, interactions=tuple(moves))
    if kind == "pay_or_lose":
        moves = []
        payers = 0
        for who, paid_one in (choices.get("paid") or {}).items():
            if paid_one:
                payers += 1
                moves.append(Interaction(who, "credits", -prm["pay_credits"], card.name,
                                         transfer_to=builder, source=builder))
            else:
                moves.append(Interaction(who, "vp", -prm["lose_vp"], card.name, source=builder))
        return Immediate(card.vp, payers * prm["you_vp_per_payment"], interactions=tuple(moves))
    return base


IMMEDIATE_KINDS = frozenset({
    "extra_energy_bonus", "per_adjacent_location", "distinct_types_in_station", "adjacency_either", "count_named",
    "adjacent_named", "locations_between", "count_reactors_within", "reactor_threshold", "count_colour_in_station",
    "years_remaining", "absence_bonuses", "credits_per_adjacent_colour", "credits_per_reactor", "add_cube_main_reactor",
    "add_cube_adjacent_reactor", "escrow_credits", "gift_vp", "take_credits", "secret_bid", "pay_or_lose",
})


def end_game_vp(station: Station, p: Placed, others: Sequence[Station] = ()) -> int:
    """VP of ``p``'s yellow-box ability at game end (0 for other cards). ``others``: the other players' stations."""
    card, prm = p.card, p.card.params
    if p.face_down or card.timing != "end_game":
        return 0
    kind, cap = prm.get("kind"), card.ability_cap
    if kind == "count_named":
        n = station.count_kind(prm["name"]) - (1 if prm.get("exclude_self") else 0)
        return _cap(n * prm["vp_each"], cap)
    if kind == "count_colour_within":
        n = sum(1 for q in station.within(p.cell, prm["distance"]) if q.has_colour(prm["colour"]))
        return prm["vp"] if n >= prm["threshold"] else 0
    if kind == "per_other_station_without":
        return _cap(sum(1 for s in others if s.count_kind(prm["name"]) == 0) * prm["vp_each"], cap)
    if kind == "count_colour_in_station":
        return _cap(station.count_colour(prm["colour"]) * prm["vp_each"], cap)
    if kind == "fully_surrounded":
        near = station.neighbours(p.cell)
        return prm["vp"] if sum(1 for n in near if n.is_location) == 4 else 0
    if kind == "colour_majority":
        return prm["vp"] if station.count_colour(prm["more"]) > station.count_colour(prm["than"]) else 0
    if kind == "distinct_adjacent_types":
        kinds = {c for n in station.neighbours(p.cell) for c in n.colours()}
        return _cap(len(kinds) * prm["vp_each"], cap)
    if kind == "per_other_station_more_colour":
        mine = station.count_colour(prm["colour"])
        return _cap(sum(1 for s in others if s.count_colour(prm["colour"]) > mine) * prm["vp_each"], cap)
    if kind == "farthest_from_main_reactor":
        mr = station.main_reactor
        if mr is None:
            return 0
        dist = station.distances(mr.cell)
        mine = dist.get(p.cell, 0)
        farthest = max((dist.get(q.cell, 0) for q in station if q.is_location), default=0)
        return prm["vp"] if mine >= farthest else 0
    if kind == "per_n_locations":
        return _cap(len(station.locations()) // prm["n"] * prm["vp_each"], cap)
    return 0


END_GAME_KINDS = frozenset({
    "count_named", "count_colour_within", "per_other_station_without", "count_colour_in_station", "fully_surrounded",
    "colour_majority", "distinct_adjacent_types", "per_other_station_more_colour", "farthest_from_main_reactor",
    "per_n_locations",
})
