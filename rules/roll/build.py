"""Roll for the Galaxy, p.6 Develop and Settle: a tile completed by its workers joins the tableau; its
immediate effect and the triggered powers of tiles already owned."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import wrong_kind
from rules.roll.data import Development, World
from rules.roll.dice import Dice
from rules.roll.events import GAME_TILE, read_dice_counts, read_player, read_tile, tableau_only
from rules.roll.moves import check_owned, check_stage, credit, gain_dice, remove_die, take_any, take_from
from rules.roll.powers import adjusted_cost
from rules.roll.state import PlayerState, RollState, Stage
from rules.roll.words import dice_words, phase_word
from rules.text import N_, Listing, Text

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["check_to_cup", "completed", "on_die_removed", "on_tile_built", "tile_from_zone_or_bag"]


def on_die_removed(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.11 FAQ Immediate effects: the die a tile built without it said removes ("remove one of
    your dice": any one, from anywhere, back to the supply). Refused when the player owes no removal for that tile
    (its ``tile_built`` said the die, or the tile removes none)."""
    p = read_player(state, ctx)
    source = ctx.require("source")
    if source not in p.removals_owed:
        owed = Listing(p.removals_owed) if p.removals_owed else Text("none")
        raise ctx.bad(Text("{player} owes no die removed for {tile} (owed: {owed}); a die is removed once, when a "
                           "tile that says so is built (p.11 FAQ Immediate effects)", player=p.name, tile=repr(source),
                           owed=owed))
    if not isinstance(ctx.payload.get("remove"), Mapping):
        raise wrong_kind(ctx, ctx.payload.get("remove"), ctx.word("remove"), Text("a die (its colour and place)"))
    owed = list(p.removals_owed)
    owed.remove(source)
    return state.with_player(remove_die(ctx, replace(p, removals_owed=tuple(owed)), source))


def on_tile_built(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.6 Develop / Settle: the top tile completes when its workers equal its cost after
    discounts; it joins the tableau and its workers go to the Citizenry. A world's
    immediate effect applies once (dice, credits, remove a die). Triggered powers pay."""
    cat = game.cat
    p = read_player(state, ctx)
    name = read_tile(ctx, game.cat, ctx.require("tile"), "tile")
    is_dev = name in cat.developments
    if name not in cat.tile_of:
        raise wrong_kind(ctx, name, ctx.word("tile"), GAME_TILE)
    tile: Development | World = cat.developments[name] if is_dev else cat.worlds[name]
    phase = "develop" if is_dev else "settle"
    check_stage(ctx, state, Stage(phase), p.name, Text("{tile} built", tile=name), N_("p.6"))
    if tableau_only(state):
        state, p = tile_from_zone_or_bag(game, state, p, name, is_dev, ctx)
        if name in p.tableau:
            ctx.finding(Text("{tile} is already in {player}'s tableau",
                             tile=name, player=p.name), p.name, Severity.ERROR, N_("p.6"))
            return state
        if is_dev:
            p = replace(p, developments=p.developments + (name,))
        else:
            p = replace(p, worlds=p.worlds + (name,))
        return completed(game, state, replace(p, built=p.built + (name,)), tile, name, is_dev, ctx)
    stack = p.dev_stack if is_dev else p.world_stack
    if name not in stack:
        ctx.finding((Text("{tile} is not in {player}'s development stack",
                          tile=name, player=p.name) if is_dev else Text("{tile} is not in {player}'s world stack",
                                                                        tile=name, player=p.name)), p.name,
                    Severity.ERROR, N_("p.6"))
    elif stack[0] != name:
        ctx.finding(
            (Text("{tile} is not the top of {player}'s development stack (top: {top})",
                  tile=name, player=p.name, top=stack[0]) if is_dev
             else Text("{tile} is not the top of {player}'s world stack (top: {top})",
                       tile=name, player=p.name, top=stack[0])),
            p.name,
            Severity.ERROR,
            N_("p.6: workers go on the top tile"),
        )
    if name in p.tableau:
        ctx.finding(Text("{tile} is already in {player}'s tableau",
                         tile=name, player=p.name), p.name, Severity.ERROR, N_("p.6"))
        return state
    need = adjusted_cost(tile, p.developments, cat)
    on_tile = p.dev_workers if is_dev else p.world_workers
    column = p.column(phase)
    used = read_dice_counts(ctx, "dice") if "dice" in ctx.payload else None
    if used is None:
        used = take_any(on_tile + column, need)
    if used.total != need:
        ctx.finding(
            Text(_NEEDS[is_dev, need != tile.cost], tile=name, need=need, player=p.name, cost=tile.cost,
                 used=used.total),
            p.name,
            Severity.WARNING,
            N_("p.6 and p.10 FAQ (discounts are mandatory)"),
        )
    from_tile = take_from(on_tile, used)
    from_column = used - from_tile
    check_owned(ctx, p, from_column, column, Text("left in the {phase} column or on the tile",
                                                  phase=phase_word(phase)), N_("p.6"))
    column = column - from_column
    rest_on_tile = on_tile - from_tile
    to_cup = read_dice_counts(ctx, "to_cup") if "to_cup" in ctx.payload else Dice()
    check_to_cup(game, ctx, p, tile, used, to_cup)
    to_cup = take_from(used, to_cup)
    stack = tuple(s for s in stack if s != name)
    p = p.with_column(phase, column)
    if is_dev:
        p = replace(
            p, dev_stack=stack, dev_workers=rest_on_tile if stack else Dice(), developments=p.developments + (name,)
        )
    else:
        p = replace(
            p, world_stack=stack, world_workers=rest_on_tile if stack else Dice(), worlds=p.worlds + (name,)
        )
    if stack == () and rest_on_tile.total:
        p = replace(p, cup=p.cup + rest_on_tile)
    p = replace(p, built=p.built + (name,), citizenry=p.citizenry + (used - to_cup), cup=p.cup + to_cup)
    return completed(game, state, p, tile, name, is_dev, ctx)


def tile_from_zone_or_bag(game: RollGame, state: RollState, p: PlayerState, name: str, is_dev: bool, ctx: EventContext
) -> tuple[RollState, PlayerState]:
    """Tableau tracking: a built tile leaves the player's construction zone, else the bag
    (Roll for the Galaxy, p.1 Components: each tile exists once)."""
    stack = p.dev_stack if is_dev else p.world_stack
    if name in stack:
        rest = tuple(s for s in stack if s != name)
        return state, replace(p, **({"dev_stack": rest} if is_dev else {"world_stack": rest}))
    tid = game.cat.tile_of[name]
    if tid in state.bag:
        bag = list(state.bag)
        bag.remove(tid)
        return replace(state, bag=tuple(bag)), p
    if name not in p.tableau:
        ctx.finding(
            Text("{tile}'s tile is neither in {player}'s construction zone nor in the bag (another player has it)",
                 tile=name, player=p.name),
            p.name,
            Severity.ERROR,
            N_("p.1 Components"),
        )
    return state, p


_NEEDS = {
    (True, False): N_("{tile} needs {need} developers for {player} (cost {cost}), reported {used}"),
    (True, True): N_("{tile} needs {need} developers for {player} (cost {cost} after discounts), reported {used}"),
    (False, False): N_("{tile} needs {need} settlers for {player} (cost {cost}), reported {used}"),
    (False, True): N_("{tile} needs {need} settlers for {player} (cost {cost} after discounts), reported {used}"),
}
"""A tile built with the wrong number of workers: (a development?, discounted?) -> the message."""


def completed(game: RollGame, state: RollState, p: PlayerState, tile: Development | World, name: str, is_dev: bool,
              ctx: EventContext
) -> RollState:
    """A tile joined ``p``'s tableau: its immediate effect and the triggered powers of tiles already owned."""
    # Immediate effects (Roll for the Galaxy, p.6 'Completing a world'; p.11 FAQ 'Immediate effects').
    if isinstance(tile, World):
        p = gain_dice(p, tile)
        if tile.effect.credits:
            p = credit(ctx, p, tile.effect.credits, name)
        if tile.effect.remove_die:
            p = remove_die(ctx, p, name)
    else:
        gains = {"Conscription": ("red", 2, 0), "Information Tech": ("blue", 2, 0), "Space Marines": ("red", 1, 1)}
        if name in gains:
            colour, n, money = gains[name]
            p = remove_die(ctx, p, name)
            p = replace(p, cup=p.cup.add(colour, n))
            if money:
                p = credit(ctx, p, money, name)
    # Triggered powers of tiles already owned (Roll for the Galaxy, p.11 FAQ: Public Works pays for each later
    # development).
    owned = set(p.developments) - {name}
    if is_dev and "Public Works" in owned:
        p = credit(ctx, p, 1, "Public Works")
    if "Galactic Recycling" in owned:
        p = credit(ctx, p, 1, "Galactic Recycling")
    if not is_dev and "Terraforming Robots" in owned:
        p = credit(ctx, p, 2 if isinstance(tile, World) and tile.colour == "brown" else 1, "Terraforming Robots")
    return state.with_player(p)


def check_to_cup(game: RollGame, ctx: EventContext, p: PlayerState, tile: Development | World, used: Dice,
                 to_cup: Dice) -> None:
    """Galactic Federation (1-2 developers of a later development), Galactic Exchange (1-2
    settlers) and New Galactic Order (red settlers) send completing dice to the cup
    (digest section 4, 'Where dice go')."""
    if not to_cup.total:
        return
    owned = set(p.developments)
    if isinstance(tile, Development):
        allowed = min(2, used.total) if "Galactic Federation" in owned else 0
    else:
        allowed = min(2, used.total) if "Galactic Exchange" in owned else 0
        if "New Galactic Order" in owned:
            allowed = max(
                allowed, used["red"] + (min(2, used.total - used["red"]) if "Galactic Exchange" in owned else 0)
            )
    if to_cup.total > allowed or not used.covers(to_cup):
        ctx.finding(
            Text("{player} sent {dice} to the cup after building {tile}; their powers allow {allowed} (the rest go to "
                 "the Citizenry)", player=p.name, dice=dice_words(to_cup), tile=tile.name, allowed=allowed),
            p.name,
            Severity.ERROR,
            N_("p.4 Phases: workers that finish go to the Citizenry"),
        )
