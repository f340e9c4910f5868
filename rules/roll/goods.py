"""Roll for the Galaxy, p.7 Produce and Ship: goods placed on worlds, then shipped for credits (Trade) or VP
(Consume)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import not_one_of, wrong_kind
from rules.roll.data import World
from rules.roll.endgame import good_capacity
from rules.roll.events import A_WORLD, read_colour, read_player, read_tile, tableau_only
from rules.roll.moves import check_stage, credit, take_ship_vp, use_worker
from rules.roll.state import PlayerState, RollState, Stage
from rules.roll.words import colour_word
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["on_goods_placed", "on_goods_shipped"]


def on_goods_placed(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.7 Produce: a producer becomes a good on a non-gray world of the player's with room:
    1 good per world, 2 with Galactic Reserves."""
    p = read_player(state, ctx)
    check_stage(ctx, state, Stage.PRODUCE, p.name, Text("a good produced"), N_("p.7 Produce"))
    world = read_tile(ctx, game.cat, ctx.require("world"), "world")
    colour = read_colour(ctx, ctx.require("colour"))
    if world not in game.cat.worlds:
        raise wrong_kind(ctx, world, ctx.word("world"), A_WORLD)
    where = Text("{player}: {world}", player=p.name, world=world)
    fits = True
    if world not in p.worlds:
        ctx.finding(Text("{world} is not in {player}'s tableau",
                         world=world, player=p.name), where, Severity.ERROR, N_("p.7 Produce"))
        fits = False
    if not game.cat.worlds[world].holds_goods:
        ctx.finding(
            Text("a good on {world}, a gray world: gray worlds hold no goods",
                 world=world), where, Severity.ERROR, N_("p.7 Produce")
        )
        fits = False
    capacity = good_capacity(p.developments)
    now = p.goods_on(world)
    if len(now) + 1 > capacity:
        ctx.finding(
            Text("{count} goods on {world}: a world holds 2 with Galactic Reserves", count=len(now) + 1, world=world)
            if capacity == 2 else
            Text("{count} goods on {world}: a world holds 1 without Galactic Reserves",
                 count=len(now) + 1, world=world),
            where,
            Severity.ERROR,
            N_("p.7 Produce"),
        )
        fits = False
    if tableau_only(state):  # no dice followed: the good is as reported, if it fits
        return state.with_player(_good_die_taken(p, colour).with_goods(world, now + (colour,)) if fits else p)
    before = p.owned_dice
    p = use_worker(ctx, p, "produce", colour, None, to_citizenry=False, tableau_only=tableau_only(state))
    if p.owned_dice != before:  # the producer's die left the strip (or the cup)
        # Roll for the Galaxy, p.7: a producer with nowhere to go returns to the cup; the state never holds an
        # impossible good (the finding tells the table).
        p = p.with_goods(world, now + (colour,)) if fits else replace(p, cup=p.cup.add(colour))
    return state.with_player(p)


def _good_die_taken(p: PlayerState, colour: str) -> PlayerState:
    """With ``"tracking": "tableau"`` no worker is followed: the die that becomes a good (p.7 Produce: a worker from
    the strip, rolled from the cup) is taken from where the engine holds the player's dice of ``colour``, the cup
    first, else the Citizenry (a die recruited unseen), else from nowhere (a die the reports never gave). A good
    shipped or recalled puts its die back (p.7 Ship, p.8 Recall), so each die is held once: the good's die left in
    the cup too would be one more die of that colour at every good shipped, which the dice counted at the end
    and the scoring would hold against the box's dice."""
    if p.cup[colour]:
        return replace(p, cup=p.cup.add(colour, -1))
    if p.citizenry[colour]:
        return replace(p, citizenry=p.citizenry.add(colour, -1))
    return p


def on_goods_shipped(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.7 Ship: Trade pays by the world's colour (blue $3, brown $4, green $5, yellow $6);
    Consume gives 1 VP, +1 if the good's colour matches the world, +1 if the shipper's does
    (purple matches every world; Wild faces count for nothing). Both dice go to the Citizenry. The player's own
    report of the same chips is not added again (:func:`rules.roll.moves.take_ship_vp`)."""
    cat = game.cat
    p = read_player(state, ctx)
    check_stage(ctx, state, Stage.SHIP, p.name, Text("a good shipped"), N_("p.7 Ship"))
    world_name = read_tile(ctx, game.cat, ctx.require("world"), "world")
    world = cat.worlds.get(world_name)
    if world is None:
        raise wrong_kind(ctx, world_name, ctx.word("world"), A_WORLD)
    mode = ctx.require("mode")
    if mode not in ("trade", "consume"):
        raise not_one_of(ctx, mode, ctx.word("mode"), {"trade": Text("Trade"), "consume": Text("Consume")})
    now = list(p.goods_on(world.name))
    good = ctx.payload.get("good") or (now[0] if len(now) == 1 else None)
    if good is None:
        raise ctx.bad(Text("{what}: say which good is shipped from {world} (p.7 Ship)", what=ctx.word("good"),
                           world=world.name))
    good = read_colour(ctx, good)
    if good in now:
        now.remove(good)
        p = p.with_goods(world.name, tuple(now))
        p = replace(p, citizenry=p.citizenry.add(good))
    else:
        ctx.finding(Text("{player} has no {colour} good on {world}",
                         player=p.name, colour=colour_word(good), world=world.name), p.name, Severity.ERROR,
                    N_("p.7 Ship"))
    power = ctx.payload.get("power")
    shipper = read_colour(ctx, ctx.require("shipper"))
    p = use_worker(ctx, p, "ship", shipper, power, tableau_only=tableau_only(state))
    owned = set(p.developments)
    if mode == "trade":
        return _traded(state, ctx, p, world, owned)

    def match(colour: str) -> bool:
        return colour == "purple" or colour == world.colour

    vp = 1 + (1 if match(good) else 0) + (1 if match(shipper) else 0)
    if state.stage is Stage.SHIP:  # a good consumed in this Ship phase: its VP chips need no question (rules.consume)
        p = replace(p, ship_consumed=p.ship_consumed + 1)
    if "Galactic Renaissance" in owned:
        vp += 1
    if "Minor Research Labs" in owned and world.colour in ("green", "yellow"):
        vp += 1
    if "Space Refineries" in owned and world.colour == "brown":
        vp += 1
    money = [
        ("New Economy", 2 if "New Economy" in owned else 0),
        ("Trade Levies", 1 if "Trade Levies" in owned else 0),
    ]
    if "Mining Industry" in owned and world.colour == "brown":
        money.append(("Mining Industry", 1))
    for source, n in money:
        if n:
            p = credit(ctx, p, n, source)
    return take_ship_vp(state.with_player(p), p.name, vp, Text("Consume"), ctx, reported=False)


def _traded(state: RollState, ctx: EventContext, p: PlayerState, world: World, owned: set[str]) -> RollState:
    """Trade (Roll for the Galaxy, p.7 Ship): the world's price and the owned Trade bonuses, then Galactic Bankers
    if asked for."""
    price = world.trade_price or 0
    gains = [(Text("Trade"), price)]
    if "Export Duties" in owned:
        gains.append(("Export Duties", 1))
    if "Galactic Demand" in owned and world.colour == "blue":
        gains.append(("Galactic Demand", 2))
    if "Jumpdrive Research" in owned and world.colour == "brown":
        gains.append(("Jumpdrive Research", 1))
    if not price:
        ctx.finding(Text("{world} is gray: nothing to Trade",
                         world=world.name), p.name, Severity.ERROR, N_("p.7 Ship"))
    for source, n in gains:
        p = credit(ctx, p, n, source)
    state = state.with_player(p)
    if ctx.payload.get("bankers"):
        if "Galactic Bankers" not in owned:
            ctx.finding(Text("{player} has no Galactic Bankers",
                             player=p.name), p.name, Severity.ERROR, N_("Galactic Bankers"))
        elif p.credits < 1:
            ctx.finding(
                Text("{player} cannot pay $1 for Galactic Bankers",
                     player=p.name), p.name, Severity.ERROR, N_("Galactic Bankers")
            )
        else:
            state = state.with_player(replace(p, credits=p.credits - 1))
            state = take_ship_vp(state, p.name, 1, "Galactic Bankers", ctx, reported=False)
    return state
