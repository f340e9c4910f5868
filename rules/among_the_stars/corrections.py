"""Among the Stars' corrections and checks reported beside the actions: a player's VP track or credits set right
(rulebook 5 'Round end': no score drops below 0; rulebook 4 'The three actions': credits never below 0), and a camera
read of a station checked as a whole against the placement rules (rulebook 10 'Location cards').

Each ``on_*`` is a handler ``(game, state, ctx) -> state`` of :data:`rules.among_the_stars.game.AMONG_GAME`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.among_the_stars.endgame import MAX_CREDITS, parse_station
from rules.among_the_stars.legality import check_station, issue_finding
from rules.among_the_stars.state import AmongState
from rules.core import BadEvent, Severity
from rules.engine import EventContext
from rules.scoring import ScoreInputError
from rules.text import N_, Text, plural

if TYPE_CHECKING:
    from rules.among_the_stars.game import AmongTheStarsGame

__all__ = ["on_credits_changed", "on_station_claimed", "on_station_read", "on_vp_changed"]


def on_vp_changed(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """A correction of the VP track by ``delta`` VP; the score stops at 0 (rulebook 5 'Round end': no score drops
    below 0), and a loss cut there is a finding.

    Raises:
        BadEvent: no player at the table, or ``delta`` not a whole number.
    """
    p = state.player(ctx.player())
    delta = ctx.require("delta", int)
    if p.vp + delta < 0:  # legal, but visible: the loss stops at 0
        ctx.finding(
            Text("{player} loses {loss} VP with only {vp}; the score stops at 0 ({lost} VP of the loss are not "
                 "taken)", player=p.name, loss=-delta, vp=p.vp, lost=-delta - p.vp),
            p.name, Severity.INFO, N_("rulebook 5 'Round end': score floor, no score drops below 0"))
    return state.with_player(replace(p, vp=max(0, p.vp + delta)))


def on_credits_changed(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """A correction of a player's credits, never below 0 (rulebook 4 'The three actions'). The 112 credits in the
    box are no limit (the rulebook never says the Supply runs out): a warning only above
    :data:`rules.among_the_stars.endgame.MAX_CREDITS`, the bound ``companion score among`` keeps.

    Raises:
        BadEvent: no player at the table, or ``delta`` not a whole number.
    """
    p = state.player(ctx.player())
    delta = ctx.require("delta", int)
    if p.credits + delta < 0:
        ctx.finding(
            plural("{player} has {credits} credit and cannot lose {loss}: credits never go below 0 (recorded as 0; "
                   "{missing} missing; misread amount?)",
                   "{player} has {credits} credits and cannot lose {loss}: credits never go below 0 "
                   "(recorded as 0; {missing} missing; misread amount?)",
                   p.credits, player=p.name, credits=p.credits, loss=-delta, missing=-delta - p.credits),
            p.name, Severity.WARNING,
            N_("rulebook 4 'The three actions': a player pays only with credits they have"))
    if p.credits + delta > MAX_CREDITS:  # the score file's bound: no game gives that many (a typing slip?)
        ctx.finding(Text("{player} now has {credits} credits, more than {most}: no game gives that many "
                         "(misread amount?)", player=p.name, credits=p.credits + delta, most=MAX_CREDITS),
                    p.name, Severity.WARNING, N_("rulebook 6 'Game end'"), player=p.name)
    return state.with_player(replace(p, credits=max(0, p.credits + delta)))


def on_station_read(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """A camera read of a player's station (``payload["station"]`` in the score-input shape), checked as a whole
    (findings only; the state keeps the engine's station).

    Raises:
        BadEvent: no player at the table, or a station that is not one (the score input's problem named).
    """
    p = state.player(ctx.player())
    try:
        station = parse_station(ctx.payload.get("station"), f"event {ctx.event.seq} station", game.cat)
    except ScoreInputError as exc:
        raise BadEvent(str(exc)) from None
    issues = check_station(station, race=p.race, credits=p.credits, aggressive=state.aggressive,
                           others=len(state.players) - 1, cat=game.cat)
    ctx.add(*(issue_finding(i, p.name, ctx.event.seq) for i in issues))
    return state


def on_station_claimed(game: AmongTheStarsGame, state: AmongState, ctx: EventContext) -> AmongState:
    """The players said whose station a Main Reactor the camera sees is (``payload["at"]``: the reactor's centre,
    camera frame px; :data:`rules.among_the_stars.events.STATION_CLAIMED`): each player builds their own station from
    their own Main Reactor (rulebook 3 'Setup'). Nothing of the game changes; the camera reads that station as the
    player's from then on.

    Raises:
        BadEvent: no player at the table, or ``at`` not two finite numbers, or ``cards`` not a list.
    """
    ctx.player()
    at = ctx.payload.get("at")
    if (not isinstance(at, (list, tuple)) or len(at) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and _finite(v) for v in at)):
        raise BadEvent(f"event {ctx.event.seq} at: the Main Reactor's place [x, y] in the camera's picture (px), "
                       f"got {at!r}")
    if not isinstance(ctx.payload.get("cards", []), list):
        raise BadEvent(f"event {ctx.event.seq} cards: a list of [card, [i, j]], got {ctx.payload.get('cards')!r}")
    return state


def _finite(value: float) -> bool:
    """Whether ``value`` is a finite number a float holds (a whole number too large for one is not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False
