"""Race for the Galaxy's tableau: the start world dealt in setup (Setup: start worlds), a development placed in
II Develop or a world in III Settle (its cost, conquest or payment, one card a phase, the copies in the deck), and a
card discarded from the tableau for its power (New Military Tactics, Colony Ship; card powers: timing).

Each ``on_*`` is a handler ``(game, state, ctx) -> state`` of :data:`rules.race.game.RACE_GAME`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.names import term
from rules.race.cards import Card, cards
from rules.race.events import card_of, placed_card, player_of
from rules.race.rounds import check_tableau_end
from rules.race.state import (
    Placed,
    PlayerState,
    RaceState,
    Stage,
    action_facts,
    active_cards,
    military_against,
    put,
    reduction,
    stage_word,
)
from rules.race.words import SETTLE_METHODS
from rules.refusals import not_one_of
from rules.text import N_, Text, plural

if TYPE_CHECKING:
    from rules.race.game import RaceGame

__all__ = ["START_WORLDS", "on_card_discarded", "on_card_placed", "on_start_world"]

START_WORLDS = N_("Setup: start worlds")
"""The rulebook section cited for the start worlds (Setup: one start world dealt face up to each player)."""


def _pays_for_military(player: PlayerState, phase_count: int) -> bool:
    """Whether ``player`` may pay for a military world in this Settle phase: a ``PAY_MILITARY`` power (Contact
    Specialist) in their tableau before the phase began (digest §4 III; §5 timing)."""
    return any(p.has("PAY_MILITARY") for c in active_cards(player, phase_count) for p in c.powers_in(3))


def _settle_method(player: PlayerState, card: Card, phase_count: int) -> str:
    """How a placed card was paid for when the report does not say (``card_placed`` without ``method``).

    A non-military card is paid for. A military world is conquered, unless the player's Military falls short of
    its defense while a Contact Specialist lets them pay for it instead (a non-Alien world, digest §4 III
    "Contact Specialist": two fully separate ways, conquest or payment): the table reported a legal placement,
    not a conquest that fails, so it is taken as paid (its price, defense - 1 cards, is checked when ``paid`` is
    given).

    Returns:
        ``"conquer"`` or ``"pay"``.
    """
    if not card.military:
        return "pay"
    short = military_against(player, card, phase_count) < (card.defense or 0)
    return "pay" if short and not card.is_alien and _pays_for_military(player, phase_count) else "conquer"


def _check_paid(ctx: EventContext, where: str, card: Card, paid: int | None, due: int, rule: str) -> None:
    if paid is not None and paid < due:
        ctx.finding(plural("{card} costs {n} card here but {paid} were paid",
                           "{card} costs {n} cards here but {paid} were paid",
                           due, card=card.name, paid=paid), where, Severity.ERROR, rule)


def on_start_world(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """Setup 3: each player is dealt one start world face up, the first card of their tableau (Alpha
    Centauri comes with its windfall good unless ``"good": false``)."""
    player, card = player_of(state, ctx), card_of(ctx, "card")
    if state.stage is not Stage.SETUP:
        ctx.finding(Text("start world {card} dealt after setup",
                         card=card.name), player.name, Severity.WARNING, START_WORLDS)
    if card.start_world is None:
        ctx.finding(Text("{card} is not a start world", card=card.name), player.name, Severity.ERROR, START_WORLDS)
    if any(cards()[p.card].start_world is not None for p in player.tableau):
        ctx.finding(Text("{player} already has a start world",
                         player=player.name), player.name, Severity.ERROR, START_WORLDS)
    holders = [p.name for p in state.players if p.name != player.name and p.find(card.name) is not None]
    if card.start_world is not None and holders:
        ctx.finding(
            Text("{card} is already {holders}'s start world; there is one of each, dealt to one player: misread?",
                 card=card.name, holders=holders[0]),
            player.name,
            Severity.ERROR,
            N_("Setup: start worlds dealt one each"),
        )
    good = bool(ctx.payload.get("good", card.is_windfall))
    return put(state, replace(player,
                              tableau=(*player.tableau,
                                       Placed(card.name, good=good, placed_at=0, windfall_received=good))))


def on_card_placed(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """II Develop / III Settle: a development or a world joins the tableau
    (``{player, card, good?, paid?, method?}``)."""
    player, card = player_of(state, ctx), card_of(ctx, "card")
    step = state.current
    phase = "develop" if card.is_development else "settle"
    rule = N_("Develop phase") if phase == "develop" else N_("Settle phase")
    where = f"{player.name}: {card.name}"
    if step is None or step.phase != phase:
        now = step.label if step else stage_word(state.stage)
        ctx.finding(Text("{card} placed outside the {phase} phase (now: {now})",
                         card=card.name, phase=term("race.phase", phase), now=now), where, Severity.WARNING, rule)
    elif player.placed_in_phase:
        ctx.finding(Text("{player} places a second card in one {label} phase (one per phase)",
                         player=player.name, label=step.label), where, Severity.ERROR, rule)
    in_play = sum(1 for p in state.players for c in p.tableau if c.card == card.name)
    if card.is_development and player.find(card.name) is not None:
        ctx.finding(Text("{player} already has {card}: a tableau holds one copy of each development",
                         player=player.name, card=card.name), where, Severity.ERROR, rule)
    elif in_play >= card.count:
        ctx.finding(plural("{card} is already in play, and the deck has only {count}: misread?",
                           "{card}: all {count} in the deck are already in play: misread?",
                           card.count, card=card.name, count=card.count), where,
                    Severity.WARNING, N_("components"))
    bonus = step.bonus_for(player.name) if step else ()
    paid = ctx.payload.get("paid")
    if paid is not None:
        paid = ctx.count("paid", paid)
    method = ctx.payload.get("method")
    if method is None:
        method = _settle_method(player, card, state.phase_count)
    if method not in SETTLE_METHODS:  # Settle phase: a military world is conquered, any other paid for in cards
        raise not_one_of(ctx, method, ctx.word("method"), SETTLE_METHODS)
    if card.military and method == "conquer":
        military = military_against(player, card, state.phase_count)
        if military < (card.defense or 0):
            ctx.finding(
                Text("{player} conquers {card} (defense {defense}) with only {military} Military",
                     player=player.name, card=card.name, defense=card.defense, military=military),
                where,
                Severity.ERROR,
                N_("Settle phase: military worlds"),
            )
    elif card.military:
        if not _pays_for_military(player, state.phase_count):
            ctx.finding(Text("{player} pays for the military world {card} without Contact Specialist",
                             player=player.name, card=card.name), where,
                        Severity.ERROR, N_("Settle phase: military worlds"))
        elif card.is_alien:
            ctx.finding(Text("Contact Specialist cannot pay for the Alien military world {card}",
                             card=card.name), where,
                        Severity.ERROR, N_("Settle phase: Contact Specialist"))
        due = 0 if player.free_world else max(0,
                                              (card.defense or 0) - 1 - reduction(player, card, state.phase_count))
        _check_paid(ctx, where, card, paid, due, rule)
    else:
        discount = sum(action_facts()[i].get("discount", 0) for i in bonus)
        free = player.free_world and card.is_world and card.goods != "alien"  # Colony Ship's text
        due = 0 if free else max(0, card.cost - reduction(player, card, state.phase_count) - discount)
        _check_paid(ctx, where, card, paid, due, rule)
    good = ctx.payload.get("good", card.is_windfall)
    if good and not card.is_windfall:
        ctx.finding(Text("{card} gets no good when placed (only windfall worlds do)",
                         card=card.name), where, Severity.ERROR,
                    N_("Settle phase: windfall worlds"))
    placed = Placed(card.name, good=bool(good), placed_at=state.phase_count, windfall_received=bool(good))
    player = replace(
        player,
        tableau=(*player.tableau, placed),
        placed_in_phase=player.placed_in_phase + 1,
        free_world=player.free_world and not card.is_world,
    )
    return check_tableau_end(put(state, player), ctx, player)


def on_card_discarded(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """A card leaves the tableau for its power (New Military Tactics: +3 Military; Colony Ship: a free world)."""
    player, card = player_of(state, ctx), card_of(ctx, "card")
    where = f"{player.name}: {card.name}"
    index = placed_card(ctx, player, card, N_("card powers"))
    if index is None:
        return state
    placed = player.tableau[index]
    step = state.current
    settle = step is not None and step.phase == "settle"
    gain_military = sum(p.value for p in card.powers_in(3) if p.has("DISCARD", "EXTRA_MILITARY"))
    free = any(p.has("DISCARD", "REDUCE_ZERO") for p in card.powers_in(3))
    if (gain_military or free) and not settle:
        ctx.finding(Text("{card} is discarded for its Settle power outside a Settle phase",
                         card=card.name), where, Severity.WARNING, N_("card powers"))
    if placed.placed_at >= state.phase_count and state.phase_count:
        ctx.finding(Text("{card} is used in the phase it was placed; its power works from the next phase",
                         card=card.name), where,
                    Severity.ERROR, N_("card powers: timing"))
    tableau = player.tableau[:index] + player.tableau[index + 1 :]
    return put(state, replace(
        player,
        tableau=tableau,
        extra_military=player.extra_military + (gain_military if settle else 0),
        free_world=player.free_world or (free and settle),
    ))
