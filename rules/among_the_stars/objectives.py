"""Among the Stars' objectives during play: how many are laid out (rulebook 3 Setup, 8 2-player rules), a Qualeen's
secret objective (rulebook 'Races', Qualeen, and the Hungarian FAQ), and Accelerated Construction, scored the moment
a player alone reaches its VP (objective card). The objectives scored at the game's end are in :mod:`.endgame`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.among_the_stars.data import UnknownCard, catalogue
from rules.among_the_stars.endgame import SECRET_KEPT, SECRET_ROUND, check_secret_objective
from rules.among_the_stars.state import AmongState
from rules.core import Severity
from rules.engine import EventContext
from rules.names import term
from rules.scoring import ScoreInputError
from rules.text import N_, OR, Listing, Text

if TYPE_CHECKING:
    from rules.among_the_stars.game import AmongTheStarsGame

__all__ = ["accelerated", "accelerated_secret", "objectives_dealt", "on_secret_objective_chosen"]


def objectives_dealt(players: int) -> int:
    """How many objectives are laid face up for ``players`` players: as many as there are players (Among the Stars
    rulebook, 3 Setup), 2 with 2 players (8 2-player rules; ``two_player_objectives`` in the game data). A first game
    may play none (3 Setup 7: optional)."""
    return int(catalogue().rules["two_player_objectives"]) if players == 2 else players


def on_secret_objective_chosen(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """A Qualeen player's secret objective (rulebook 'Races', Qualeen: at setup draw 2 extra objectives and keep 1
    secretly; it scores at game end even when tied): one of the objectives not face up on the table. In year 1's
    first round (:data:`SECRET_ROUND`) a second one replaces the first (a slip corrected: the player keeps one);
    after it, the objective in force is kept for good and a change is refused (:data:`SECRET_KEPT`). No finding
    names it (findings are shown to the whole table); a first one entered after year 1's first round is a
    warning naming the round only (chosen at setup: a late one may have been picked knowing who leads what).

    Raises:
        BadEvent: the player does not play the Qualeen, an unknown objective, one face up on the table, or a
            change after year 1's first round.
    """
    cat = game.cat
    p = state.player(ctx.player())
    if p.race != "qualeen":
        raise ctx.bad(Text("only a Qualeen player keeps a secret objective"))
    name = ctx.require("objective", str)
    try:
        obj = cat.objective(name)
    except UnknownCard as exc:
        if exc.suggestions:
            close = Listing([repr(s) for s in exc.suggestions], OR)
            raise ctx.bad(Text("{what}: no objective is named {value}; did you mean {names}?",
                               what=ctx.word("objective"), value=repr(name), names=close)) from None
        raise ctx.bad(Text("{what}: no objective is named {value}", what=ctx.word("objective"),
                           value=repr(name))) from None
    try:
        check_secret_objective(obj, state.objectives, "objective")
    except ScoreInputError as exc:
        raise ctx.bad(exc.problem) from None
    if p.secret_objective is not None and (state.year, state.round) != SECRET_ROUND:
        raise ctx.bad(Text("{player} has a secret objective in force: {why}", player=p.name,
                           why=Text(SECRET_KEPT)))
    if (state.year, state.round) != SECRET_ROUND:  # kept from the setup: entered later, the table is told
        ctx.finding(Text("{player} entered a secret objective in year {year}, round {round}: a Qualeen keeps one "
                         "from the setup, so it is entered in the first round", player=p.name, year=state.year,
                         round=state.round),
                    p.name, Severity.WARNING, N_("Qualeen race tile"), player=p.name)
    return accelerated_secret(game, state.with_player(replace(p, secret_objective=obj.id, secret_revealed=False)),
                                    ctx)


def accelerated(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """Objective Accelerated Construction: the first player alone to reach its VP scores it at once. A Qualeen
    holding it secretly reveals it as soon as it is met (Hungarian FAQ, Qualeen) and scores it even when tied
    (rulebook 'Races', Qualeen)."""
    cat = game.cat
    state = accelerated_secret(game, state, ctx)
    if state.accelerated_done or "accelerated_construction" not in state.objectives:
        return state
    threshold = cat.rules["accelerated_construction_threshold"]
    over = [p for p in state.players if p.vp >= threshold]
    if not over:
        return state
    best = max(p.vp for p in over)
    top = [p for p in over if p.vp == best]
    obj = cat.objectives["accelerated_construction"]
    if len(top) > 1:
        ctx.finding(Text("{objective}: {players} reached {best} VP together; nobody scores it",
                         objective=term("among_the_stars.objective", obj.id), players=Listing(p.name for p in top),
                         best=best),
                    Text("objectives"), Severity.INFO, N_("objective card (Accelerated Construction)"))
        return replace(state, accelerated_done=True)
    winner = replace(top[0], vp=top[0].vp + obj.vp)
    ctx.finding(Text("{objective}: {player} is first to {threshold} VP, +{vp} VP",
                     objective=term("among_the_stars.objective", obj.id), player=winner.name, threshold=threshold,
                     vp=obj.vp), winner.name, Severity.INFO,
                N_("objective card (Accelerated Construction)"))
    return replace(state.with_player(winner), accelerated_done=True)


def accelerated_secret(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """A Qualeen's secret Accelerated Construction met (the track at its VP or more): revealed at once (Hungarian
    FAQ, Qualeen: "this one objective is revealed when it is met") and scored, even when another player is as far
    (rulebook 'Races', Qualeen)."""
    cat = game.cat
    obj = cat.objectives["accelerated_construction"]
    threshold = cat.rules["accelerated_construction_threshold"]
    for p in state.players:
        if p.secret_objective == obj.id and not p.secret_revealed and p.vp >= threshold:
            ctx.finding(Text("{objective}: {player} reveals it as their secret objective, met at {threshold} VP, "
                             "+{vp} VP", objective=term("among_the_stars.objective", obj.id), player=p.name,
                             threshold=threshold, vp=obj.vp), p.name, Severity.INFO,
                        N_("Qualeen race tile and FAQ"), player=p.name)
            state = state.with_player(replace(p, vp=p.vp + obj.vp, secret_revealed=True))
    return state
