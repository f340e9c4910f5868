"""Roll for the Galaxy, p.2 Setup: a player's starting tiles and dice (``player_setup``)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import wrong_kind
from rules.roll.dice import Dice
from rules.roll.events import read_player, read_tile
from rules.roll.moves import gain_dice
from rules.roll.state import PlayerState, RollState, Stage
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.roll.data import Catalogue
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


def _draw_setup_tiles(cat: Catalogue, state: RollState, p: PlayerState, sides: tuple[str, str],
                      ctx: EventContext) -> tuple[int, ...]:
    """The bag once ``p`` drew the tiles of ``sides`` (their starting development's and world's names) at setup
    (p.2 Setup): a setup reported again gives its first tiles back first (never another player's); a tile not in
    the bag is a finding (p.1 Components); the two sides of one tile leave it once (the caller says so)."""
    bag = list(state.bag)
    held = {cat.tile_of[name] for q in state.players if q.name != p.name  # another player's tiles stay theirs
            for name in (*q.dev_stack, *q.world_stack, *q.developments, *q.worlds) if name in cat.tile_of}
    for name in (*p.dev_stack, *p.world_stack):  # a setup reported again: its first tiles go back to the bag first
        tid = cat.tile_of.get(name)
        if tid is not None and tid not in bag and tid not in held:
            bag.append(tid)
    drawn = [(cat.tile_of[name], name) for name in sides]
    for k, (tid, name) in enumerate(drawn):
        if k == 1 and tid == drawn[0][0]:
            continue  # the two sides of one tile: said by the caller, and no other player has it
        if tid in bag:
            bag.remove(tid)
        else:
            ctx.finding(
                Text("{tile}'s tile is not in the bag (another player has it)",
                     tile=name), p.name, Severity.ERROR, N_("p.1 Components")
            )
    return tuple(bag)


def on_player_setup(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.2 Setup: faction tile and home world face up; 3 white dice in the cup, 2 in the
    Citizenry, plus the dice shown on the faction and home worlds; $1 ($8 with Doomed World);
    one development and one world from the bag in the construction zone."""
    p = read_player(state, ctx)
    if not setup_open(state, p):
        ctx.finding(Text("{player}'s setup reported after the game started",
                         player=p.name), p.name, Severity.ERROR, N_("p.2 Setup"))
    if p.faction is not None:
        ctx.finding(
            Text("{player} was already set up; the new setup replaces it",
                 player=p.name), p.name, Severity.WARNING, N_("p.2 Setup")
        )
    cat = game.cat
    raw_faction = ctx.require("faction")
    try:
        if isinstance(raw_faction, bool):  # JSON true is no tile's number, though Python takes it as 1
            raise KeyError(raw_faction)
        faction = cat.faction(raw_faction)
    except (KeyError, TypeError):
        numbers = [f.number for f in cat.factions]
        raise wrong_kind(ctx, raw_faction, ctx.word("faction"),
                         Text("a faction tile's number ({low}-{high}) or a name printed on it", low=min(numbers),
                              high=max(numbers))) from None
    home = cat.worlds.get(read_tile(ctx, game.cat, ctx.require("home_world"), "home_world"))
    if home is None or not home.home:
        raise wrong_kind(ctx, ctx.payload["home_world"], ctx.word("home_world"), Text("a home world"))
    dev = cat.developments.get(read_tile(ctx, game.cat, ctx.require("development"), "development"))
    world = cat.worlds.get(read_tile(ctx, game.cat, ctx.require("world"), "world"))
    if dev is None or dev.name not in cat.tile_of:
        raise wrong_kind(ctx, ctx.payload["development"], ctx.word("development"),
                         Text("the development side of a game tile"))
    if world is None or world.name not in cat.tile_of:
        raise wrong_kind(ctx, ctx.payload["world"], ctx.word("world"), Text("the world side of a game tile"))
    for q in state.players:
        if q.name == p.name:
            continue
        if q.faction == faction.number:
            ctx.finding(
                Text("{player} already has faction tile {tile}",
                     player=q.name, tile=faction.names[0]), p.name, Severity.ERROR, N_("p.1 Components")
            )
        if q.home_world == home.name:
            ctx.finding(Text("{player} already has home world {tile}",
                             player=q.name, tile=home.name), p.name, Severity.ERROR, N_("p.1 Components"))
    if cat.tile_of[dev.name] == cat.tile_of[world.name]:
        ctx.finding(
            Text("{development} and {world} are the two sides of one tile; setup draws two tiles",
                 development=dev.name, world=world.name),
            p.name,
            Severity.ERROR,
            N_("p.2 Setup"),
        )
    bag = _draw_setup_tiles(cat, state, p, (dev.name, world.name), ctx)
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
