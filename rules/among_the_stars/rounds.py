"""Among the Stars' round and year (rulebook 4 'Round overview', 5 'Round end', 6 'Game end'): once every player has
acted, the effects on other players resolve in player order (rulebook 'Player order') and Accelerated Construction is
checked; after a year's last round each station is corrected and the credits parked on Business Offices come back,
then the next year's income, or after year 4 the final scores.

:func:`on_round_ended` is the handler ``(game, state, ctx) -> state`` of ``round_ended``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.among_the_stars.abilities import Interaction
from rules.among_the_stars.legality import correct_station, rule_citation
from rules.among_the_stars.objectives import accelerated
from rules.among_the_stars.state import AmongPlayer, AmongState, score_now
from rules.among_the_stars.station import station_place
from rules.core import Finding, Severity
from rules.engine import EventContext
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.among_the_stars.game import AmongTheStarsGame

__all__ = ["bids_paid", "income", "on_round_ended", "resolve", "year_ended"]


def income(game: AmongTheStarsGame, p: AmongPlayer) -> AmongPlayer:
    """``p`` with a year's credits taken (rulebook 4 'Round overview': 10 credits a year; Zehuti exactly 13 and no
    carry-over, rulebook 'Races'), plus 1 for each face-up card that pays a yearly income (card text, Galactic
    Bank)."""
    r = game.cat.rules
    base = game.cat.race_param(p.race, "year_credits", r["credits_per_year"])
    carry = game.cat.race_param(p.race, "carry_over", True)
    banks = sum(1 for q in p.station if not q.face_down and q.card.params.get("kind") == "yearly_income")
    return replace(p, credits=(p.credits if carry else 0) + base + banks)


def on_round_ended(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Every player has acted: effects on others resolve, then the next round, or the end of the year."""
    for p in state.players:
        if p.acted != (state.year, state.round):
            ctx.finding(Text("{player} took no action in year {year}, round {round}",
                             player=p.name, year=state.year, round=state.round), p.name,
                        Severity.WARNING, N_("rulebook 4 'Round overview': every player does one action"))
    state = accelerated(game, resolve(game, state, ctx), ctx)
    if state.round < game.rounds_in_year(state):
        return replace(state, round=state.round + 1)
    return year_ended(game, state, ctx)


def resolve(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Pending effects on other players, highest VP first, then most credits, then seat order (rulebook 'Player
    order'). A Galactic Research Facility's bids are paid from what each bidder has then
    (:func:`bids_paid`)."""
    if not state.pending:
        return state
    rank = {p.name: (-p.vp, -p.credits, k) for k, p in enumerate(state.players)}
    order = sorted(range(len(state.pending)),
                   key=lambda k: (rank.get(state.pending[k].source, (0, 0, len(rank))), k))
    bids = [k for k in order if state.pending[k].what == "bid"]
    paid: dict[int, int] = {}  # a bid's place in ``state.pending`` -> credits paid
    for k in order:
        it = state.pending[k]
        try:
            who = state.player(it.target)
        except KeyError:
            continue  # a virtual player or a name not at the table: nothing to do
        if it.what == "bid":
            paid[k] = min(who.credits, it.delta)
            state = state.with_player(replace(who, credits=who.credits - paid[k], vp=who.vp + paid[k]))
        elif it.what == "vp":
            state = state.with_player(replace(who, vp=max(0, who.vp + it.delta)))
        elif it.transfer_to:
            moved = min(who.credits, -it.delta)
            state = state.with_player(replace(who, credits=who.credits - moved))
            to = state.player(it.transfer_to)
            state = state.with_player(replace(to, credits=to.credits + moved))
        else:
            state = state.with_player(replace(who, credits=max(0, who.credits + it.delta)))
    return bids_paid(game, replace(state, pending=()), [(state.pending[k], paid.get(k, 0)) for k in bids], ctx)


def bids_paid(game: AmongTheStarsGame, state: AmongState, bids: list[tuple[Interaction, int]],
              ctx: EventContext) -> AmongState:
    """What a Galactic Research Facility's bids came to once paid (``bids``: each bid and the credits paid; card
    text: each other player secretly pays 0-3 credits and gains that many VP; you gain the highest amount paid +
    1). A bidder pays what they have, at most the bid, and gains as many VP as they paid. The builder scored the
    highest bid + 1 when building; where the highest payment falls short of it, the builder keeps the highest
    payment + 1 and loses the rest, and so does the card's VP earned. The rulebook says nothing of a bid larger
    than the bidder's credits; each shortfall is said as a finding citing the card."""
    cat = game.cat
    cited = N_("card text (Galactic Research Facility): you gain the highest amount paid + 1; the rulebook says "
               "nothing of a bid over the bidder's credits")
    for it, paid in bids:
        if paid < it.delta:
            ctx.finding(Text("{card}: {player} bid {bid} credits and has {paid} at the end of the round: pays "
                             "{paid}, +{paid} VP", card=cat.card(it.reason).word, player=it.target, bid=it.delta,
                             paid=paid),
                        it.target, Severity.INFO, cited, player=it.target, card=it.reason)
    for source, cell in dict.fromkeys((it.source, it.cell) for it, _ in bids):
        mine = [(it, paid) for it, paid in bids if (it.source, it.cell) == (source, cell)]
        bid, got = max(it.delta for it, _ in mine), max(paid for _, paid in mine)
        if got >= bid:
            continue
        builder = state.player(source)
        placed = builder.station.at(cell) if cell is not None else None
        station = builder.station
        if placed is not None and placed.vp_earned is not None:
            station = station.replaced(replace(placed, vp_earned=max(0, placed.vp_earned - (bid - got))))
        state = state.with_player(replace(builder, vp=max(0, builder.vp - (bid - got)), station=station))
        ctx.finding(Text("{card}: the highest payment is {paid}, not the {bid} bid: {player} gains {paid} + 1 "
                         "= {vp} VP, {lost} less than scored when it was built",
                         card=cat.card(mine[0][0].reason).word, paid=got, bid=bid, player=source, vp=got + 1,
                         lost=bid - got),
                    source, Severity.INFO, cited, player=source, card=mine[0][0].reason, cell=cell)
    return state


def year_ended(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Rulebook 5 'Round end': each station corrected; then the next year's income, or the game's end
    (rulebook 6)."""
    cat = game.cat
    for p in state.players:
        fix = correct_station(p.station, p.vp, state.year, exact_order=True, check_credits=False,
                              race=p.race, aggressive=state.aggressive, cat=cat)
        for placed, cost in fix.removed:
            why = next((i for i in fix.issues if i.cell == placed.cell), None)
            said = dict(year=state.year, card=placed.word, place=station_place(placed.cell), vp=cost)
            removed = (Text("end of year {year}: {card} removed ({place}), -{vp} VP "
                            "(a face-down Power Reactor fills the gap)", **said) if placed.cell in fix.fillers else
                       Text("end of year {year}: {card} removed ({place}), -{vp} VP", **said))
            ctx.add(Finding(
                removed,
                p.name, Severity.ERROR, rule_citation(why.rule if why else "round_end"), ctx.event.seq,
                player=p.name, card=placed.name, cell=tuple(placed.cell),
                rule_kind=why.rule if why else "round_end"))
        p = replace(p, station=fix.station, vp=fix.vp_after, credits=p.credits + p.escrow, escrow=0)
        state = state.with_player(p)
    if state.year >= cat.rules["years"]:
        final = replace(state, over=True)
        return replace(final, scores=tuple(score_now(final, game.cat)))
    state = replace(state, year=state.year + 1, round=1)
    return replace(state, players=tuple(income(game, p) for p in state.players))
