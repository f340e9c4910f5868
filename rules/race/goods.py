"""Race for the Galaxy's goods: a good put on a world (a windfall world's when it is placed, a production world's in
V Produce, a windfall world's in V Produce by the Produce bonus or a windfall power) and a good consumed or sold in
IV Consume; a world holds at most one (three uses of a card: a good is a card face down on a world).

Each ``on_*`` is a handler ``(game, state, ctx) -> state`` of :data:`rules.race.game.RACE_GAME`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.race.cards import GOODS_QUALIFIER, Card
from rules.race.events import card_of, placed_card, player_of, world_of
from rules.race.state import PhaseStep, PlayerState, RaceState, Stage, action_facts, active_cards, put
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.race.game import RaceGame

__all__ = ["on_good_placed", "on_good_removed"]


def _windfall_source(state: RaceState, player: PlayerState, world: Card, step: PhaseStep) -> str | None:
    """An unused way to produce on windfall ``world`` now: a matching windfall power, else the Produce bonus."""
    wanted = {f"WINDFALL_{GOODS_QUALIFIER[world.goods]}", "WINDFALL_ANY"} if world.goods else set()
    for card in active_cards(player, state.phase_count):
        for power in card.powers_in(5):
            if wanted.intersection(power.code) and card.name not in player.produce_used:
                return card.name
    bonuses = sum(action_facts()[i].get("windfall_produce", 0) for i in step.bonus_for(player.name))
    if player.produce_used.count("bonus") < bonuses:
        return "bonus"
    return None


def on_good_placed(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """A good put on a world: a windfall world's when placed, a production world's in Produce (V Produce)."""
    player, card = player_of(state, ctx), card_of(ctx, "world")
    where = f"{player.name}: {card.name}"
    windfall_rule = "Settle phase: windfall worlds"
    index = placed_card(ctx, player, card, N_("three uses of a card"))
    if index is None:
        return state
    placed = player.tableau[index]
    step = state.current
    producing = step is not None and step.phase == "produce"
    used = player.produce_used
    if not (card.is_world and card.goods):
        # A world without a goods kind has no room for a good: nothing lies on it, nothing to consume or to
        # count at the tie-break (Race, three uses of a card: a good is a card face down on a world).
        ctx.finding(Text("{card} does not produce or hold goods",
                         card=card.name), where, Severity.ERROR, N_("three uses of a card"))
        return state
    if placed.good:
        ctx.finding(Text("{card} already holds a good; a world holds at most one",
                         card=card.name), where, Severity.ERROR, N_("Produce phase"))
    elif card.is_production:
        if not producing:
            ctx.finding(Text("{card} is a production world: it gets goods only in the Produce phase",
                             card=card.name), where,
                        Severity.ERROR, N_("Produce phase"))
    elif card.is_windfall:
        first = (not placed.windfall_received and placed.placed_at == state.phase_count
                 and state.stage in (Stage.PHASES, Stage.SETUP))
        if first:
            placed = replace(placed, windfall_received=True)
        elif not producing or step is None:
            ctx.finding(Text("a windfall good added to {card} outside its first placement",
                             card=card.name), where, Severity.ERROR, windfall_rule)
        else:
            source = _windfall_source(state, player, card, step)
            if source is None:
                ctx.finding(
                    Text("{card} is a windfall world: it produces only with the Produce bonus or a windfall "
                         "power, and {player} has none left", card=card.name, player=player.name),
                    where,
                    Severity.ERROR,
                    N_("Produce phase: windfall worlds"),
                )
            else:
                used = (*used, source)
    tableau = player.tableau[:index] + (replace(placed, good=True),) + player.tableau[index + 1 :]
    return put(state, replace(player, tableau=tableau, produce_used=used))


def on_good_removed(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """A good consumed or sold (IV Consume)."""
    player, card, index = world_of(state, ctx)
    where = f"{player.name}: {card.name}"
    if index is None or not player.tableau[index].good:
        ctx.finding(Text("no good lies on {card} in {player}'s tableau",
                         card=card.name, player=player.name), where, Severity.ERROR, N_("Consume phase"))
        return state
    step = state.current
    if step is None or step.phase != "consume":
        ctx.finding(Text("a good on {card} is consumed or sold outside the Consume phase",
                         card=card.name), where, Severity.WARNING, N_("Consume phase"))
    tableau = player.tableau[:index] + (replace(player.tableau[index], good=False),) + player.tableau[index + 1 :]
    return put(state, replace(player, tableau=tableau, consumed=player.consumed + 1))
