"""Among the Stars' actions (rulebook 4 'The three actions'): build a location, build a Power Reactor, discard the
card for credits; and a Conflict card's Dispute (rulebook 7 'Aggressive mode'). Each player takes exactly one a
round; effects on other players are kept for the round's end (:mod:`.rounds`).

Each ``on_*`` is a handler ``(game, state, ctx) -> state`` of :data:`rules.among_the_stars.game.AMONG_GAME`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.among_the_stars.abilities import Interaction, immediate
from rules.among_the_stars.choices import choice_count, choices_paid, energy_chosen, energy_paid, reactor_beside
from rules.among_the_stars.data import POWER_REACTOR, UnknownCard
from rules.among_the_stars.events import LOCATION_BUILT, REACTOR_BUILT, energy_payload, read_cell
from rules.among_the_stars.legality import Issue, auto_payment, check_placement, fix_for, issue_finding
from rules.among_the_stars.state import AmongPlayer, AmongState
from rules.among_the_stars.station import Cell, Placed, Station
from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import not_one_of, wrong_kind
from rules.text import N_, OR, Listing, Text

if TYPE_CHECKING:
    from rules.among_the_stars.game import AmongTheStarsGame

__all__ = ["acted", "on_card_discarded", "on_conflict_played", "on_location_built", "on_reactor_built"]


def acted(state: AmongState, p: AmongPlayer, ctx: EventContext, card: str | None = None,
          cell: Cell | None = None) -> AmongPlayer:
    """``p`` has taken this round's action (rulebook 4 'Round overview': exactly one action a round); every
    extra action is a finding of its own, naming what was built where (``card``, ``cell``) when known."""
    now = (state.year, state.round)
    if p.acted == now:
        ctx.finding(Text("{player} already took an action in year {year}, round {round}",
                         player=p.name, year=state.year, round=state.round), p.name,
                    Severity.WARNING, N_("rulebook 4 'Round overview': exactly one action a round"), player=p.name,
                    card=card, cell=cell)
    return replace(p, acted=now)


def on_location_built(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Rulebook 4 'Build a location': a location card at a cell, paid in credits and energy cubes (payload: see
    :data:`rules.among_the_stars.events.LOCATION_BUILT`). A rule broken is a finding; the card stays built unless its
    cell is taken.

    Raises:
        BadEvent: no player at the table, a card name missing or unknown (the closest named), a reactor, a cell or an
            energy row that is not one, choices that are not an object or a choice out of range.
    """
    cat = game.cat
    p = state.player(ctx.player())
    event = ctx.event
    name = ctx.require("card")
    if not isinstance(name, str):
        raise wrong_kind(ctx, name, ctx.word("card"), Text("a card's name"))
    try:
        card = cat.card(name)
    except UnknownCard as exc:
        if exc.suggestions:
            raise ctx.bad(Text("{what}: no card is named {value}; did you mean {names}?", what=ctx.word("card"),
                               value=repr(name), names=Listing([repr(s) for s in exc.suggestions], OR))) from None
        raise ctx.bad(Text("{what}: no card is named {value}", what=ctx.word("card"), value=repr(name))) from None
    if card.is_reactor:
        raise ctx.bad(f"{card.name} is not built with {LOCATION_BUILT}; use {REACTOR_BUILT}")
    cell = read_cell(ctx.payload.get("cell"), f"event {event.seq} cell")
    payment = energy_payload(ctx)
    choices = ctx.payload.get("choices") or {}
    if not isinstance(choices, Mapping):
        raise ctx.bad("'choices' must be an object of the card's choices")
    extra, escrow = (choice_count(choices, key, ctx) for key in ("extra_cubes", "escrow"))
    if choices.get("energy") is not None:  # the reactors the builder chose (rulebook FAQ: any in reach)
        if payment is not None:
            raise ctx.bad("give the reactors paying the energy once: 'energy' or 'choices.energy'")
        payment = energy_chosen(p.station, card, cell, choices["energy"], card.cost_energy + extra,
                                cat.rules["energy_range"], ctx)
    p = acted(state, p, ctx, card.name, cell)
    issues = check_placement(p.station, card, cell, credits=p.credits, payment=payment, cat=cat)
    fix = fix_for(issues, p.station, card, cell, credits=p.credits, cat=cat)
    ctx.add(*(issue_finding(i, p.name, event.seq, fix) for i in issues))
    if any(i.rule == "cell_taken" for i in issues):
        return state.with_player(p)
    station = p.station
    if payment is None and (card.cost_energy or extra):
        placed_now = station.with_card(Placed(card, cell, order=station.next_order))
        payment = auto_payment(placed_now, cell, card.cost_energy + extra, cat.rules["energy_range"])
    paid = 0
    for src, n in (payment or {}).items():
        r = station.at(src)
        if r is not None and r.is_reactor:
            took = min(n, r.cubes)
            paid += took
            station = station.with_cubes(src, r.cubes - took)
    credits = max(0, p.credits - card.cost_credits)
    choices_paid(card.word, extra, max(0, paid - card.cost_energy), escrow, credits, ctx)
    if choices.get("energy") is not None and payment:  # the table sees where the builder's cubes came from
        ctx.finding(energy_paid(card.word, station, payment), p.name, Severity.INFO,
                    N_("rulebook 4 'Build a location': the energy is paid from reactors within distance 2, any "
                       "of them (FAQ)"), player=p.name, card=card.name, cell=cell)
    flags = tuple(sorted({i.rule for i in issues if i.severity is Severity.ERROR}))
    placed = Placed(card, cell, year=state.year, order=station.next_order, cubes_spent=paid, flags=flags)
    station = station.with_card(placed)
    reactor_beside(station, card.word, cell, choices.get("reactor"), ctx)
    imm = immediate(station, placed, year=state.year, years=cat.rules["years"], paid=paid, credits=credits,
                    choices=choices, builder=p.name)
    for c, n in imm.cubes.items():
        station = station.with_cubes(c, station.at(c).cubes + n)
    station = station.replaced(replace(placed, vp_earned=imm.vp))
    p = replace(p, station=station, credits=credits + imm.credits, vp=p.vp + imm.vp, escrow=p.escrow + imm.escrow)
    if imm.note:
        ctx.finding(Text("{card}: {note}", card=card.word, note=imm.note), p.name, Severity.INFO,
                    Text("card text ({card})", card=card.word), player=p.name, card=card.name)
    return replace(state.with_player(p), pending=state.pending + imm.interactions)


def on_reactor_built(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Rulebook 4 'Build a Power Reactor': 1 credit, a reactor with 2 cubes, while the deck lasts (an empty deck is a
    finding).

    Raises:
        BadEvent: no player at the table, or a cell that is not ``[i, j]``.
    """
    cat = game.cat
    p = state.player(ctx.player())
    card = cat.cards[POWER_REACTOR]
    cell = read_cell(ctx.payload.get("cell"), f"event {ctx.event.seq} cell")
    p = acted(state, p, ctx, card.name, cell)
    issues = check_placement(p.station, card, cell, credits=p.credits, cat=cat)
    fix = fix_for(issues, p.station, card, cell, credits=p.credits, cat=cat)  # where it goes, not the deck
    if state.reactors_left <= 0:
        issues.append(Issue("reactor_deck", card.name, cell,
            Text("the Power Reactor deck is empty; this action is not available")))
    ctx.add(*(issue_finding(i, p.name, ctx.event.seq, "" if i.rule == "reactor_deck" else fix) for i in issues))
    if any(i.rule == "cell_taken" for i in issues):
        return state.with_player(p)
    flags = tuple(sorted({i.rule for i in issues if i.severity is Severity.ERROR}))
    placed = Placed(card, cell, cubes=card.start_cubes, year=state.year, order=p.station.next_order, vp_earned=0,
                    flags=flags)
    p = replace(p, station=p.station.with_card(placed), credits=max(0, p.credits - card.cost_credits))
    return replace(state.with_player(p), reactors_left=max(0, state.reactors_left - 1))


def on_card_discarded(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Rulebook 4 'Discard a card for credits': 3 credits (Sheptas 4, Zehuti 0; rulebook 'Races').

    Raises:
        BadEvent: no player at the table.
    """
    p = acted(state, state.player(ctx.player()), ctx)
    gain = game.cat.race_param(p.race, "discard_credits", game.cat.rules["discard_credits"])
    return state.with_player(replace(p, credits=p.credits + gain))


def on_conflict_played(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Dispute (rulebook 7 'Aggressive mode'): compare counts of one kind with a target; the lead (max 3) moves VP,
    after the round's actions. Played outside years 2-4 of the aggressive mode, or without the credit, is a finding.

    Raises:
        BadEvent: no player at the table, a target who is not a player, or ``counts`` not a known kind.
    """
    cat = game.cat
    p = acted(state, state.player(ctx.player()), ctx)
    rule = N_("rulebook 7 'Aggressive mode'")
    if not state.aggressive or state.year < 2:
        ctx.finding(Text("Conflict cards are only in the deck in years 2-4 of aggressive mode"), p.name,
                    Severity.WARNING, rule)
    cost = cat.conflict["cost_credits"]
    if p.credits < cost:
        ctx.finding(Text("{player} cannot pay the {cost} credit for the Conflict card",
                         player=p.name, cost=cost), p.name, Severity.ERROR, rule)
    target_name = ctx.payload.get("target")
    counts = ctx.payload.get("counts")
    try:
        target = state.player(target_name)
    except (KeyError, TypeError):
        raise not_one_of(ctx, target_name, ctx.word("target"), {q.name: q.name for q in state.players}) from None
    if counts not in (*cat.conflict["variants_known"],):  # Dispute compares a colour's locations or Power Reactors
        raise not_one_of(ctx, counts, ctx.word("counts"), {v: Text("Power Reactors") if v == "power_reactors"
                                                           else Text(v) for v in cat.conflict["variants_known"]})

    def count(s: Station) -> int:
        return len(s.reactors()) if counts == "power_reactors" else s.count_colour(counts)

    lead = min(cat.conflict["max_vp"], count(p.station) - count(target.station))
    pending = state.pending
    if lead > 0 and target.name != p.name:
        pending += (Interaction(p.name, "vp", lead, "Dispute", source=p.name),
                    Interaction(target.name, "vp", -lead, "Dispute", source=p.name))
    p = replace(p, credits=max(0, p.credits - cost))
    return replace(state.with_player(p), pending=pending)
