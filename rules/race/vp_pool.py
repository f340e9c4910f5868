"""Race for the Galaxy's VP chips: taken in IV Consume from the VP pool (12 VP a player) while it lasts, then from
the chips set aside; the round the pool runs out is the last one (end of game).

Its handler ``on_vp_changed`` ``(game, state, ctx) -> state`` is one of :data:`rules.race.game.RACE_GAME`'s.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from rules.core import Severity
from rules.engine import EventContext
from rules.race.cards import facts
from rules.race.events import player_of
from rules.race.rounds import last_round
from rules.race.scoring import vp_chips_in_box
from rules.race.state import RaceState, put, stage_word
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.race.game import RaceGame

__all__ = ["on_vp_changed"]


def on_vp_changed(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """VP chips taken (``delta``): from the pool while it lasts, then from the chips set aside (end of game).

    VP chips are gained in the Consume phase: a take in any other phase is a WARNING (misreport
    or a late report). The pool never goes below 0; what it cannot pay comes from the set-aside
    chips (INFO), and more than the box holds is a WARNING. Chips taken in the Consume phase with no good
    consumed are asked about once the phase is over, whichever was reported first (:mod:`rules.consume`).
    """
    player = player_of(state, ctx)
    vp = ctx.count("delta")
    where = Text("{player}: VP chips", player=player.name)
    step = state.current
    if vp and (step is None or step.phase != "consume"):
        now = step.label if step else stage_word(state.stage)
        ctx.finding(
            Text("{player} takes {vp} VP in chips outside the Consume phase (now: {now}); VP chips are gained by "
                 "consuming", player=player.name, vp=vp, now=now),
            where,
            Severity.WARNING,
            N_("Consume phase: VP chips"),
        )
    elif vp > 0:  # whether a good paid them is asked once the phase is over (_phase_done)
        player = replace(player, chips_taken=player.chips_taken + vp)
    state = put(state, replace(player, vp_chips=player.vp_chips + vp))
    from_pool = min(vp, state.pool)
    extra = vp - from_pool
    state = replace(state, pool=state.pool - from_pool, set_aside_paid=state.set_aside_paid + extra)
    if extra:
        ctx.finding(
            Text("the VP pool had only {from_pool} VP left; {extra} VP of {player}'s {vp} come from the chips set "
                 "aside", from_pool=from_pool, extra=extra, player=player.name, vp=vp),
            where,
            Severity.INFO,
            N_("end of game: the VP pool runs out"),
        )
        set_aside = vp_chips_in_box() - facts()["vp_pool_per_player"]["value"] * len(state.players)
        if state.set_aside_paid > set_aside:
            ctx.finding(
                Text("{paid} VP paid from the chips set aside, but only {set_aside} VP are set aside (the box "
                     "holds {box} VP of chips): misread amount?",
                     paid=state.set_aside_paid, set_aside=set_aside, box=vp_chips_in_box()),
                where,
                Severity.WARNING,
                N_("components: 28 VP chips"),
            )
    if state.pool <= 0:
        state = last_round(state, ctx, Text("the VP pool is empty (set-aside chips pay out until the round ends)"))
    return state
