"""Roll for the Galaxy, p.4 Phases: the selected phases run in order I-V, then Manage Empire; the end of a
phase sends unused workers back and pays the end-of-phase powers."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.consume import ask_chips_without_goods
from rules.core import WHOLE_TABLE, Severity
from rules.engine import EventContext
from rules.refusals import not_one_of
from rules.roll.data import PHASES, Catalogue
from rules.roll.dice import Dice
from rules.roll.moves import SHIP_CHIPS_RULE, alone_most, credit, owns_all_top_worlds, ship_phase, take_vp
from rules.roll.state import ORDER, PlayerState, RollState, Stage
from rules.roll.words import phase_word, stage_word
from rules.scoring import ceil_div
from rules.text import N_, Listing, Text, plural

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["end_of_phase_powers", "end_phase", "on_phase"]


def on_phase(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.4 Phases: only the selected phases run, in order I-V, then Manage Empire (Roll for the
    Galaxy, p.8).

    Ending a phase pays its end-of-phase powers and sends unused workers back (Roll for the Galaxy, p.4):
    developers/settlers stay on the top tile of a non-empty stack, others go to the cup.
    """
    target = ctx.require("phase")
    if target not in (*PHASES, "manage"):
        raise not_one_of(ctx, target, ctx.word("phase"), {k: stage_word(k) for k in (*PHASES, "manage")})
    current = state.stage
    if current.value in PHASES:
        state = end_phase(game, state, current.value, ctx)
        if current is Stage.SHIP:  # every report of the phase is in: chips no good consumed paid for are asked about
            ask_chips_without_goods(ctx, [(p.name, max(0, p.ship_chips - p.ship_paid)) for p in state.players
                                          if not p.ship_consumed],
                                    ship_phase(),
                                    SHIP_CHIPS_RULE)
            _ask_chips_beyond_shipments(ctx, state)
            state = replace(state, players=tuple(replace(p, ship_chips=0, ship_consumed=0, ship_paid=0)
                                                 for p in state.players))
    elif current not in (Stage.REVEAL, Stage.ASSIGN, Stage.ROLL):
        ctx.finding(Text("phase {phase} reported during {stage}",
                         phase=stage_word(target), stage=stage_word(current)), WHOLE_TABLE, Severity.WARNING,
                    N_("p.3 Rounds"))
    if target != "manage" and target not in state.selected:
        ctx.finding(
            Text("phase {phase} was not selected this round (selected: {selected})", phase=stage_word(target),
                 selected=Listing(phase_word(s) for s in state.selected) if state.selected else Text("none")),
            WHOLE_TABLE,
            Severity.ERROR,
            N_("p.4 Phases: only the selected phases run"),
        )
    if ORDER.index(target) <= ORDER.index(current.value) and current.value in (*PHASES, "manage"):
        ctx.finding(
            Text("phase {phase} after {stage}: phases run once each, in order I-V",
                 phase=stage_word(target), stage=stage_word(current)),
            WHOLE_TABLE,
            Severity.ERROR,
            N_("p.4 Phases"),
        )
    skipped = [ph for ph in state.selected if ORDER.index(current.value) < ORDER.index(ph) < ORDER.index(target)]
    if skipped:
        ctx.finding(plural("selected phase {phases} skipped",
                           "selected phases {phases} skipped",
                           len(skipped), phases=Listing(phase_word(s) for s in skipped)), WHOLE_TABLE,
                    Severity.WARNING, N_("p.4 Phases"))
    return replace(state, stage=Stage(target))


def _ask_chips_beyond_shipments(ctx: EventContext, state: RollState) -> None:
    """At the end of Ship, a player who consumed a good and reported more VP chips than their shipments paid (Roll for
    the Galaxy, p.7 Ship: 1-3 VP a Consume, and the powers the box reckons with them) is asked which power paid the
    rest (a WARNING; the chips stay as reported). A player who consumed nothing is asked by
    :func:`rules.consume.ask_chips_without_goods` instead."""
    for p in state.players:
        if p.ship_consumed and p.ship_chips > p.ship_paid:
            ctx.finding(Text("{player} took {vp} VP in chips in {phase} beyond the {paid} VP their shipments paid: "
                             "which power paid them?", player=p.name, vp=p.ship_chips - p.ship_paid, paid=p.ship_paid,
                             phase=ship_phase()),
                        Text("{player}: VP chips", player=p.name), Severity.WARNING,
                        SHIP_CHIPS_RULE)


def end_phase(game: RollGame, state: RollState, phase: str, ctx: EventContext) -> RollState:
    cat = game.cat
    players = []
    for p in state.players:
        left = p.column(phase)
        p = p.with_column(phase, Dice())
        if phase == "develop" and p.dev_stack:
            p = replace(p, dev_workers=p.dev_workers + left)
        elif phase == "settle" and p.world_stack:
            p = replace(p, world_workers=p.world_workers + left)
        else:
            p = replace(p, cup=p.cup + left)
        players.append(p)
    state = replace(state, players=tuple(players))
    if phase == "explore":  # Roll for the Galaxy, p.5: returned tiles go back in the bag at the end of Explore
        state = replace(state, bag=state.bag + state.returned, returned=())
    for p in state.players:
        state = end_of_phase_powers(game, state, state.player(p.name), phase, ctx, cat)
    return state


def end_of_phase_powers(game: RollGame, state: RollState, p: PlayerState, phase: str, ctx: EventContext, cat: Catalogue
) -> RollState:
    """End-of-phase powers that pay credits or VP (tile texts in rules/data/roll/tiles.json;
    p.11 FAQ 'round up' for Space Piracy: 3 red dice pay $2)."""
    owned = set(p.developments)
    gain: list[tuple[str, int]] = []
    vp = 0
    if (
        phase in ("explore", "produce")
        and "Technology Unions" in owned
        and alone_most(state, p, lambda q: len(q.developments))
    ):
        gain.append(("Technology Unions", 1))
    if phase == "develop":
        if "Galactic Investors" in owned:
            gain.append(("Galactic Investors", 2))
        if "Galactic Religion" in owned:
            gain.append(("Galactic Religion", p.citizenry["blue"]))
    if phase == "settle" and "Robot Surveyors" in owned:
        gain.append(("Robot Surveyors", 2))
    if phase == "produce":
        gain += _produce_income(p, owned, cat)
    if phase == "ship":
        gain += _ship_income(state, p, owned, cat)
        if "Galactic Salon" in owned:
            vp += 1
    for source, amount in gain:
        if amount:
            p = credit(ctx, p, amount, source)
    state = state.with_player(p)
    if vp:
        state = take_vp(state, p.name, vp, "Galactic Salon", ctx)
    return state


def _produce_income(p: PlayerState, owned: set[str], cat: Catalogue) -> list[tuple[str, int]]:
    """The credits the owned tiles pay at the end of Produce, ``[(tile, $)]``, by the goods on the worlds then, those
    made in an earlier round included (the tile texts say "per good", not "per good produced"). Genetics Lab counts
    green dice that are goods, wherever they lie, not goods on green worlds (the Greek rulebook's FAQ, Genetics Lab)."""
    gain: list[tuple[str, int]] = []
    on = [(cat.worlds[w], cs) for w, cs in p.goods]
    if "Consumer Markets" in owned:
        gain.append(("Consumer Markets", sum(len(cs) for w, cs in on if w.colour == "blue")))
    if "Genetics Lab" in owned:
        gain.append(("Genetics Lab", 2 * sum(cs.count("green") for _, cs in on)))
    if "Merchant Guild" in owned:
        gain.append(("Merchant Guild", 2))
    if "Mining League" in owned:
        gain.append(("Mining League", sum(len(cs) for w, cs in on if w.colour == "brown")))
    return gain


def _ship_income(state: RollState, p: PlayerState, owned: set[str], cat: Catalogue) -> list[tuple[str, int]]:
    """The credits the owned tiles pay at the end of Ship, ``[(tile, $)]`` (p.11 FAQ 'round up' for Space Piracy)."""
    gain: list[tuple[str, int]] = []
    if "Free Trade Association" in owned:
        gain.append(("Free Trade Association", 2))
    if "Space Piracy" in owned:
        gain.append(("Space Piracy", ceil_div(p.citizenry["red"], 2)))
    if "Space Tourism" in owned:
        gain.append(("Space Tourism", 1 + (1 if owns_all_top_worlds(state, p, cat) else 0)))
    return gain
