"""Roll for the Galaxy, p.2 Setup: a player's starting tiles and dice (``player_setup``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.roll.dice import Dice
from rules.roll.events import read_player, read_tile
from rules.roll.moves import gain_dice
from rules.roll.state import PlayerState, RollState, Stage

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["on_player_setup", "setup_open"]


def setup_open(state: RollState, p: PlayerState) -> bool:
    """Whether ``p`` may still report their setup (Roll for the Galaxy, p.2 Setup: players set up at the same
    time, each at their own pace): before the first round, and in round 1 until that player has selected a
    phase, as long as the phases are not revealed. A player who finished first and selected a phase does not
    close the setup of the others."""
    if state.stage is Stage.SETUP:
        return True
    return state.round == 1 and state.stage in (Stage.ROLL, Stage.ASSIGN) and p.selected is None


def on_player_setup(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.2 Setup: faction tile and home world face up; 3 white dice in the cup, 2 in the
    Citizenry, plus the dice shown on the faction and home worlds; $1 ($8 with Doomed World);
    one development and one world from the bag in the construction zone."""
    p = read_player(state, ctx)
    if not setup_open(state, p):
        ctx.finding(f"{p.name}'s setup reported after the game started", p.name, Severity.ERROR, "p.2 Setup")
    if p.faction is not None:
        ctx.finding(
            f"{p.name} was already set up; the new setup replaces it", p.name, Severity.WARNING, "p.2 Setup"
        )
    cat = game.cat
    raw_faction = ctx.require("faction")
    try:
        faction = cat.faction(raw_faction)
    except KeyError:
        raise ctx.bad(f"unknown faction {raw_faction!r}") from None
    home = cat.worlds.get(read_tile(ctx, game.cat, ctx.require("home_world")))
    if home is None or not home.home:
        raise ctx.bad(f"{ctx.payload['home_world']!r} is not a home world")
    dev = cat.developments.get(read_tile(ctx, game.cat, ctx.require("development")))
    world = cat.worlds.get(read_tile(ctx, game.cat, ctx.require("world")))
    if dev is None or dev.name not in cat.tile_of:
        raise ctx.bad(f"{ctx.payload['development']!r} is not the development side of a game tile")
    if world is None or world.name not in cat.tile_of:
        raise ctx.bad(f"{ctx.payload['world']!r} is not the world side of a game tile")
    for q in state.players:
        if q.name == p.name:
            continue
        if q.faction == faction.number:
            ctx.finding(
                f"{q.name} already has faction tile {faction.names[0]}", p.name, Severity.ERROR, "p.1 Components"
            )
        if q.home_world == home.name:
            ctx.finding(f"{q.name} already has home world {home.name}", p.name, Severity.ERROR, "p.1 Components")
    if cat.tile_of[dev.name] == cat.tile_of[world.name]:
        ctx.finding(
            f"{dev.name} and {world.name} are the two sides of one tile; setup draws two tiles",
            p.name,
            Severity.ERROR,
            "p.2 Setup",
        )
    bag = list(state.bag)
    for tid, name in ((cat.tile_of[dev.name], dev.name), (cat.tile_of[world.name], world.name)):
        if tid in bag:
            bag.remove(tid)
        else:
            ctx.finding(
                f"{name}'s tile is not in the bag (another player has it)", p.name, Severity.ERROR, "p.1 Components"
            )
    # Start from a clean player so a repeated setup replaces the first.
    p = PlayerState(name=p.name, faction=faction.number, home_world=home.name)
    devs = (faction.development.name,) if faction.development else ()
    worlds = tuple(w.name for w in faction.worlds) + (home.name,)
    p = replace(
        p,
        developments=devs,
        worlds=worlds,
        dev_stack=(dev.name,),
        world_stack=(world.name,),
        cup=Dice.of(white=3),
        citizenry=Dice.of(white=2),
        credits=home.effect.starting_credits or 1,
    )
    for w in (*faction.worlds, home):  # dice given only at setup (Roll for the Galaxy, p.2 'Important points')
        p = gain_dice(p, w)
    return replace(state.with_player(p), bag=tuple(bag))
