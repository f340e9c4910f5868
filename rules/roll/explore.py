"""Roll for the Galaxy, p.5 Explore: Stock (credits) or Scout (tiles from the bag to the construction zone)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import not_one_of, wrong_kind
from rules.roll.events import GAME_TILE, SCOUTED, read_colour, read_player, read_tile, tableau_only
from rules.roll.moves import check_stage, credit, use_worker
from rules.roll.state import PlayerState, RollState, Stage
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["on_explored"]


def on_explored(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.5 Explore: Stock +$2 (+$4 with Alien Archaeology and a yellow explorer), or Scout:
    return any construction-zone tiles, draw one more than returned, place each at the
    bottom of the stack of the chosen side (on top only with Improved Reconnaissance)."""
    p = read_player(state, ctx)
    check_stage(ctx, state, Stage.EXPLORE, p.name, Text("an explorer's action"), N_("p.5 Explore"))
    action = ctx.require("action")
    colour = read_colour(ctx, ctx.require("colour"))
    p = use_worker(ctx, p, "explore", colour, ctx.payload.get("power"), tableau_only=tableau_only(state))
    if action == "stock":
        amount = 4 if colour == "yellow" and "Alien Archaeology" in p.developments else 2
        return state.with_player(credit(ctx, p, amount, Text("Stock")))
    if action != "scout":
        raise not_one_of(ctx, action, Text("Explore"), {"stock": Text("Stock"), "scout": Text("Scout")})
    return _scouted(game, state, ctx, p)


def _scouted(game: RollGame, state: RollState, ctx: EventContext, p: PlayerState) -> RollState:
    """Scout (Roll for the Galaxy, p.5 Explore): the returned tiles back to the bag, the drawn ones under their
    stacks (on top with Improved Reconnaissance)."""
    cat = game.cat
    returned = [read_tile(ctx, game.cat, n) for n in ctx.payload.get("returned", [])]
    dev_stack, world_stack = list(p.dev_stack), list(p.world_stack)
    back = list(state.returned)
    for name in returned:
        if name in dev_stack:
            dev_stack.remove(name)
        elif name in world_stack:
            world_stack.remove(name)
        else:
            ctx.finding(Text("{tile} is not in {player}'s construction zone",
                             tile=name, player=p.name), p.name, Severity.ERROR, N_("p.5 Explore"))
            continue
        back.append(cat.tile_of[name])
    tiles = ctx.payload.get("tiles", [])
    if not isinstance(tiles, list):
        raise wrong_kind(ctx, tiles, ctx.word("tiles"), SCOUTED)
    if len(tiles) != len(returned) + 1:
        ctx.finding(
            Text("{player} scouted {drawn} tiles after returning {returned}; a Scout draws one more than returned",
                 player=p.name, drawn=len(tiles), returned=len(returned)),
            p.name,
            Severity.WARNING,
            N_("p.5 Explore"),
        )
    bag = list(state.bag)
    for t in tiles:
        if not isinstance(t, Mapping):
            raise wrong_kind(ctx, t, ctx.word("tiles"), SCOUTED)
        name = read_tile(ctx, game.cat, t.get("tile"))
        stack = t.get("stack") or ("development" if name in cat.developments else "world")
        if name not in cat.tile_of:
            raise wrong_kind(ctx, name, ctx.word("tiles"), GAME_TILE)
        side_is_dev = name in cat.developments
        if (stack == "development") != side_is_dev:
            ctx.finding(
                (Text("{tile} is a development, placed in the world stack", tile=name) if side_is_dev
                 else Text("{tile} is a world, placed in the development stack", tile=name)),
                p.name,
                Severity.ERROR,
                N_("p.5 Explore"),
            )
        tid = cat.tile_of[name]
        if tid in bag:
            bag.remove(tid)
        elif tid in back:
            back.remove(tid)
        else:
            ctx.finding(Text("{tile}'s tile is not in the bag",
                             tile=name), p.name, Severity.ERROR, N_("p.1 Components"))
        target = dev_stack if side_is_dev else world_stack
        if t.get("top"):
            if "Improved Reconnaissance" not in p.developments:
                ctx.finding(
                    Text("{tile} placed on top: scouted tiles go at the bottom without Improved Reconnaissance",
                         tile=name),
                    p.name,
                    Severity.WARNING,
                    N_("p.5 Explore"),
                )
            target.insert(0, name)
        else:
            target.append(name)
    p = replace(p, dev_stack=tuple(dev_stack), world_stack=tuple(world_stack))
    return replace(state.with_player(p), bag=tuple(bag), returned=tuple(back))
