"""Roll for the Galaxy, p.3-4: Roll, Assign (phase selection, Dictate, Reassign) and Reveal; the start of a round."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import WHOLE_TABLE, BadEvent, Severity
from rules.engine import EventContext
from rules.refusals import not_one_of
from rules.roll.data import FACES, PHASES
from rules.roll.dice import Dice
from rules.roll.events import read_dice_list, read_player
from rules.roll.moves import alone_most_blue, check_face, check_owned
from rules.roll.powers import reassign_budget
from rules.roll.state import RollState, Stage
from rules.roll.words import face_word, phase_word, stage_word
from rules.text import N_, Listing, Text, plural


def _no_face(ctx: EventContext, extra: object) -> BadEvent:
    """The refusal of an extra white die that shows no face (Roll for the Galaxy, p.2 Setup, two players: a third
    white die, rolled, assigns the phase its face shows), or none."""
    return not_one_of(ctx, extra, ctx.word("extra_white"), {**{f: face_word(f) for f in FACES}, "none": Text("none")})

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = ["on_assign", "on_phase_selected", "on_reveal", "on_roll", "start_round"]


def on_roll(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.3 Roll: each player rolls the dice in their cup. Starts a round after setup or Manage
    Empire."""
    if state.stage in (Stage.SETUP, Stage.MANAGE, Stage.OVER):
        state = start_round(game, state, ctx)
    p = read_player(state, ctx)
    if state.stage not in (Stage.ROLL, Stage.ASSIGN):
        ctx.finding(Text("a roll reported during {stage}",
                         stage=stage_word(state.stage)), p.name, Severity.WARNING, N_("p.3 Rounds"))
    dice = read_dice_list(ctx, "dice", with_column=False)
    rolled = Dice.from_list(d["colour"] for d in dice)
    for d in dice:
        check_face(ctx, game.cat, p.name, d["colour"], d["face"])
    check_owned(ctx, p, rolled, p.cup + p.workers, Text("in the cup"), N_("p.3 Roll"))
    return state


def start_round(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    if state.stage == Stage.OVER or (state.stage == Stage.MANAGE and state.ending):
        ctx.finding(
            Text("the game ended after round {round} ({why})", round=state.round, why=Listing(state.ending, "; ")),
            WHOLE_TABLE,
            Severity.ERROR,
            N_("p.8 End check"),
        )
    players = []
    for p in state.players:
        # Workers left on the strip go back to the cup; the 0 -> 1 credit bump (Roll for the Galaxy, p.8) if missed.
        p = replace(
            p,
            cup=p.cup + p.workers,
            columns=(Dice(),) * len(PHASES),
            dictate=Dice(),
            selected=None,
            assigned=False,
            credits=max(p.credits, 1) if state.stage == Stage.MANAGE else p.credits,
        )
        players.append(p)
    return replace(
        state, players=tuple(players), stage=Stage.ROLL, round=state.round + 1, selected=(), extra_white=None
    )


def on_assign(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.3 Assign: every die in a column; exactly one phase-selection die; Dictate and
    Reassign powers move other workers (each power once; digest section 9 checks)."""
    if state.stage == Stage.SETUP or state.stage == Stage.MANAGE:
        state = start_round(game, state, ctx)
    p = read_player(state, ctx)
    if state.stage not in (Stage.ROLL, Stage.ASSIGN):
        ctx.finding(Text("an assignment reported during {stage}",
                         stage=stage_word(state.stage)), p.name, Severity.WARNING, N_("p.3 Rounds"))
    dice = read_dice_list(ctx, "dice", with_column=True)
    columns = {ph: Dice() for ph in PHASES}
    dictate = Dice()
    selections = []
    moves = 0
    for d in dice:
        colour, face, column = d["colour"], d["face"], d["column"]
        check_face(ctx, game.cat, p.name, colour, face)
        if d.get("selected"):
            selections.append(d)
            if column == "dictate":
                ctx.finding(
                    Text("{player}'s phase-selection die is in the Dictate area",
                         player=p.name), p.name, Severity.ERROR, N_("p.3 Assign")
                )
        elif column != "dictate" and face not in (column, "wild"):
            moves += 1  # an off-face worker must have been Reassigned (Roll for the Galaxy, p.3 Assign)
        if column == "dictate":
            dictate = dictate.add(colour)
        else:
            columns[column] = columns[column].add(colour)
    if not selections:
        ctx.finding(
            Text("{player} selected no phase; each player selects exactly one",
                 player=p.name), p.name, Severity.ERROR, N_("p.3 Assign")
        )
    elif len(selections) > 1:
        phases = Listing(phase_word(s["column"]) for s in selections)
        ctx.finding(
            Text("{player} reported {count} phase selections ({phases}); each player selects exactly one",
                 player=p.name, count=len(selections), phases=phases),
            p.name,
            Severity.ERROR,
            N_("p.3 Assign"),
        )
    if dictate.total > 1 and "Backup Planning" not in p.developments:
        ctx.finding(
            Text("{player} has {total} dice in the Dictate area; only one without Backup Planning",
                 player=p.name, total=dictate.total),
            p.name,
            Severity.ERROR,
            N_("p.3 Assign"),
        )
    budget = reassign_budget(p.developments, dictate.total, alone_most_blue(state, p, game.cat), game.cat)
    if moves > budget:
        ctx.finding(
            Text("{player} has {moves} workers in columns their faces do not show, but Dictate and Reassign powers "
                 "can move at most {budget}", player=p.name, moves=moves, budget=budget),
            p.name,
            Severity.WARNING,
            N_("p.3 Assign"),
        )
    assigned = dictate
    for col in columns.values():
        assigned = assigned + col
    available = p.cup + p.workers
    check_owned(ctx, p, assigned, available, Text("in the cup"), N_("p.3 Assign"))
    if assigned.total < available.total and available.covers(assigned):
        ctx.finding(
            plural("{n} of {player}'s dice was not reported on the strip; every die is placed before Reveal",
                   "{n} of {player}'s dice were not reported on the strip; every die is placed before Reveal",
                   available.total - assigned.total, player=p.name),
            p.name,
            Severity.WARNING,
            N_("p.3 Assign"),
        )
    p = replace(
        p,
        cup=available - assigned,
        columns=tuple(columns[ph] for ph in PHASES),
        dictate=dictate,
        selected=selections[0]["column"] if len(selections) == 1 else None,
        assigned=True,
    )
    return replace(state.with_player(p), stage=Stage.ASSIGN)


def on_phase_selected(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.3 Assign: each player selects exactly one phase (here reported without the
    dice); a second selection by the same player in a round replaces the first, said without naming either phase
    while the selections are still hidden (before p.4 Reveal). 2 players: the extra white die (p.4 Reveal) may come
    with it."""
    if state.stage in (Stage.SETUP, Stage.MANAGE, Stage.OVER):
        state = start_round(game, state, ctx)
    p = read_player(state, ctx)
    if state.stage not in (Stage.ROLL, Stage.ASSIGN):
        ctx.finding(Text("a phase selection reported during {stage}",
                         stage=stage_word(state.stage)), p.name, Severity.WARNING, N_("p.3 Rounds"))
    phase = ctx.require("phase")
    if phase not in PHASES:
        raise not_one_of(ctx, phase, ctx.word("phase"), {p: phase_word(p) for p in PHASES})
    extra = ctx.payload.get("extra_white")
    if extra is not None:
        if extra not in FACES:
            raise _no_face(ctx, extra)
        if state.extra_white is not None and state.extra_white != extra:  # one die, two reports: the table checks it
            ctx.finding(Text("the extra white die: {player} reports {face}, reported before as {earlier}; the last "
                             "report counts", player=p.name, face=face_word(extra),
                             earlier=face_word(state.extra_white)), WHOLE_TABLE, Severity.INFO, N_("p.4 Reveal"))
        state = replace(state, extra_white=extra)
    if p.selected is not None and p.assigned:
        if state.stage in (Stage.ROLL, Stage.ASSIGN):  # still behind the screen (p.4 Reveal): neither phase named
            what = Text("{player} changed their phase selection before the reveal; the new one replaces the "
                        "earlier one", player=p.name)
        else:
            what = Text("{player} changed their phase selection from {selected} to {phase}",
                        player=p.name, selected=phase_word(p.selected), phase=phase_word(phase))
        ctx.finding(what, p.name, Severity.INFO, N_("p.3 Assign"))
    p = replace(p, selected=phase, assigned=True)
    return replace(state.with_player(p), stage=Stage.ASSIGN)


def on_reveal(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Roll for the Galaxy, p.4 Reveal: the selected phases happen; in a 2-player game an extra white die adds
    its phase (it never shows Wild). Dictated dice and workers of phases that do not
    happen return to the cup."""
    if state.stage not in (Stage.ROLL, Stage.ASSIGN):
        ctx.finding(Text("Reveal reported during {stage}",
                         stage=stage_word(state.stage)), WHOLE_TABLE, Severity.WARNING, N_("p.3 Rounds"))
    selected = set()
    for p in state.players:
        if p.faction is None:  # setup is open to each player until their phase is selected (p.2 Setup)
            ctx.finding(
                Text("{player} has no setup reported (faction, home world, construction zone)", player=p.name),
                p.name,
                Severity.WARNING,
                N_("p.2 Setup"),
            )
        if not p.assigned:
            ctx.finding(Text("no assignment reported for {player}",
                             player=p.name), p.name, Severity.WARNING, N_("p.4 Reveal"))
        if p.selected:
            selected.add(p.selected)
    extra = ctx.payload["extra_white"] if "extra_white" in ctx.payload else state.extra_white
    if extra is not None and extra not in FACES:
        raise _no_face(ctx, extra)
    if len(state.players) == 2:
        if extra is None:
            ctx.finding(Text("2 players: the extra white die was not reported"), WHOLE_TABLE, Severity.WARNING,
                        N_("p.4 Reveal"))
        elif extra not in game.cat.dice["white"].faces:
            ctx.finding(
                Text("the extra white die cannot show {face} (a white die has no {face} face)", face=face_word(extra)),
                WHOLE_TABLE,
                Severity.WARNING,
                N_("p.4 Reveal"),
            )
            extra = None
        else:
            selected.add(extra)
    elif extra is not None:
        ctx.finding(
            Text("an extra white die is rolled only with 2 players, not {count}; ignored", count=len(state.players)),
            WHOLE_TABLE,
            Severity.WARNING,
            N_("p.4 Reveal"),
        )
        extra = None
    players = []
    for p in state.players:
        back = p.dictate
        for ph in PHASES:
            if ph not in selected:
                back = back + p.column(ph)
                p = p.with_column(ph, Dice())
        players.append(replace(p, cup=p.cup + back, dictate=Dice()))
    order = tuple(ph for ph in PHASES if ph in selected)
    return replace(state, players=tuple(players), stage=Stage.REVEAL, selected=order, extra_white=extra)
