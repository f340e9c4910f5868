"""Roll for the Galaxy, p.8 Manage Empire (Recruit, Recall), the End check, the end of the game and the dice
counted for the final scoring."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import LAST_ROUND, WHOLE_TABLE, Severity
from rules.engine import EventContext
from rules.refusals import wrong_kind
from rules.roll.data import PHASES
from rules.roll.dice import Dice
from rules.roll.events import (
    DICE_COUNT_PLACES,
    END_TILES,
    GOODS_LIST,
    read_colour,
    read_dice_counts,
    read_player,
    read_tile,
    tableau_only,
)
from rules.roll.moves import check_owned, check_stage, take_from
from rules.roll.state import RollState, Stage
from rules.roll.words import colour_word, dice_words, place_word, stage_word
from rules.text import N_, OR, Listing, Text

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["check_end", "on_dice_counted", "on_game_end", "on_recall", "on_recruit"]


def on_recruit(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.8 Recruit: Citizenry -> cup at $1 a die, mandatory until the Citizenry is empty or
    credits run out; afterwards $0 becomes $1."""
    p = read_player(state, ctx)
    check_stage(ctx, state, Stage.MANAGE, p.name, Text("recruiting"), N_("p.8 Manage Empire"))
    dice = read_dice_counts(ctx, "dice")
    check_owned(ctx, p, dice, p.citizenry, Text("in the Citizenry"), N_("p.8 Recruit"))
    moved = take_from(p.citizenry, dice)
    if dice.total > p.credits:
        ctx.finding(
            Text("{player} recruited {count} dice with ${credits}; each costs $1",
                 player=p.name, count=dice.total, credits=p.credits),
            p.name,
            Severity.ERROR,
            N_("p.8 Recruit"),
        )
    must = min(p.credits, p.citizenry.total)
    if dice.total < must:
        ctx.finding(
            Text("{player} recruited {count} dice but must recruit {must} (recruiting is mandatory while credits and "
                 "Citizenry dice remain)", player=p.name, count=dice.total, must=must),
            p.name,
            Severity.WARNING,
            N_("p.8 Recruit and p.10 FAQ"),
        )
    credits = max(0, p.credits - moved.total)
    if credits == 0:
        credits = 1  # Roll for the Galaxy, p.8: after recruiting, $0 becomes $1 (the arrow on the mat)
    p = replace(p, citizenry=p.citizenry - moved, cup=p.cup + moved, credits=credits)
    return state.with_player(p)


def on_recall(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.8 Recall (free, optional, only in Manage Empire): construction-zone dice and goods to
    the cup."""
    p = read_player(state, ctx)
    check_stage(
        ctx, state, Stage.MANAGE, p.name, Text("a recall"),
        N_("p.8 Manage Empire; p.10 FAQ (recall only in Manage Empire)")
    )
    for stack, attr in (("development", "dev_workers"), ("world", "world_workers")):
        if stack in ctx.payload:
            dice = read_dice_counts(ctx, stack)
            have = getattr(p, attr)
            check_owned(ctx, p, dice, have,
                        Text("on the development stack") if stack == "development" else Text("on the world stack"),
                        N_("p.8 Recall"))
            moved = take_from(have, dice)
            p = replace(p, **{attr: have - moved}, cup=p.cup + moved)
    goods = ctx.payload.get("goods", [])
    if not isinstance(goods, list):
        raise wrong_kind(ctx, goods, ctx.word("goods"), GOODS_LIST)
    for g in goods:
        if not isinstance(g, Mapping):
            raise wrong_kind(ctx, g, ctx.word("goods"), GOODS_LIST)
        world = read_tile(ctx, game.cat, g.get("world"))
        colour = read_colour(ctx, g.get("colour"))
        now = list(p.goods_on(world))
        if colour not in now:
            ctx.finding(Text("{player} has no {colour} good on {world}",
                             player=p.name, colour=colour_word(colour), world=world), p.name, Severity.ERROR,
                        N_("p.8 Recall"))
            continue
        now.remove(colour)
        p = replace(p.with_goods(world, tuple(now)), cup=p.cup.add(colour))
    return state.with_player(p)


def on_game_end(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.8 End check: the game ends after the round in which the VP pool empties or a
    tableau reaches 12 tiles; the round in progress finishes first."""
    if not state.ending:
        ctx.finding(
            Text("the game was declared over, but the VP pool is not empty and no tableau has 12 tiles"),
            WHOLE_TABLE,
            Severity.ERROR,
            N_("p.8 End check"),
        )
    if state.stage not in (Stage.MANAGE, Stage.OVER):
        ctx.finding(
            Text("the game was declared over during {stage}; the round in progress finishes first",
                 stage=stage_word(state.stage)),
            WHOLE_TABLE,
            Severity.WARNING,
            N_("p.3 Rounds: finish the current round"),
        )
    return replace(state, stage=Stage.OVER)


_COUNTED = {
    "cup": N_("{player}'s cup counted {counted}; the reports gave {reported}: the count is kept"),
    "citizenry": N_("{player}'s citizenry counted {counted}; the reports gave {reported}: the count is kept"),
    "construction_zone": N_("{player}'s construction zone counted {counted}; the reports gave {reported}: "
                            "the count is kept"),
}
"""A count that differs from the dice followed, by place."""


def on_dice_counted(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.8 Victory: the dice the final scoring counts (see :data:`DICE_COUNTED`).

    A count taken before the end is triggered is kept but said (INFO): the dice still move until
    the last Manage Empire. In full tracking, a count that differs from the dice followed is said
    (WARNING, with both counts) and the count is kept.

    Raises:
        BadEvent: no place given, a place that is not ``{colour: count >= 0}``, an unknown colour.
    """
    p = read_player(state, ctx)
    places = [k for k in DICE_COUNT_PLACES if k in ctx.payload]
    unknown = sorted(str(k) for k in ctx.payload if k not in (*DICE_COUNT_PLACES, "read"))
    if unknown or not places:
        raise ctx.bad(Text("dice are counted in {places} (p.8 Victory), each by colour; got {got}",
                           places=Listing([place_word(k) for k in DICE_COUNT_PLACES], OR),
                           got=Listing(unknown) if unknown else Text("none")))
    counted = {k: read_dice_counts(ctx, k) for k in places}
    if not state.ending and state.stage != Stage.OVER:
        ctx.finding(Text("{player}'s dice were counted before the end of the game; count again after the last Manage "
                         "Empire", player=p.name), p.name, Severity.INFO, N_("p.8 Victory"))
    held = {"cup": p.cup + p.workers, "citizenry": p.citizenry, "construction_zone": p.dev_workers + p.world_workers}
    if not tableau_only(state):
        if "construction_zone" not in counted and "citizenry" in counted:
            held["citizenry"] = held["citizenry"] + held["construction_zone"]  # counted together
        for k, dice in counted.items():
            if dice != held[k]:
                ctx.finding(Text(_COUNTED[k], player=p.name, counted=dice_words(dice), reported=dice_words(held[k])),
                            p.name, Severity.WARNING, N_("p.8 Victory"))
    new = p
    if "cup" in counted:
        new = replace(new, cup=counted["cup"])
    if "citizenry" in counted:
        new = replace(new, citizenry=counted["citizenry"])
        if "construction_zone" not in counted:  # counted with the citizenry
            new = replace(new, dev_workers=Dice(), world_workers=Dice())
    if "construction_zone" in counted:
        new = replace(new, dev_workers=counted["construction_zone"], world_workers=Dice())
    if "cup" in counted or "citizenry" in counted:
        new = replace(new, columns=(Dice(),) * len(PHASES), dictate=Dice())
    return state.with_player(new)


def check_end(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.8 End check: VP pool exhausted, or 12+ tiles in a tableau (faction tile counts 2)."""
    reasons = list(state.ending)
    if state.vp_pool <= 0 and state.stage != Stage.SETUP and "VP pool exhausted" not in reasons:
        reasons.append(Text("VP pool exhausted"))
    for p in state.players:
        # said with the rule's threshold, not the count then: the banner stands all round while the tableau grows
        why = Text("{player} has {count} tiles or more", player=p.name, count=END_TILES)
        if p.tile_count >= END_TILES and not any(r.startswith(f"{p.name} has") for r in reasons):
            reasons.append(why)
    if len(reasons) != len(state.ending):
        new = reasons[len(state.ending) :]
        ctx.finding(
            Text("end of game triggered ({why}): this is the last round", why=Listing(new, "; ")),
            WHOLE_TABLE,
            Severity.INFO,
            N_("p.8 End check"),
            rule_kind=LAST_ROUND,
        )
        state = replace(state, ending=tuple(reasons))
    return state
