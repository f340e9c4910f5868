"""Diplomatic relations, the Traitor card and Rise of the Ancients' alliances: the handlers of their events.

Rules (Eclipse, Diplomacy; Rise of the Ancients p.8, p.10-11):

- Two players exchange Ambassador tiles (diplomatic relations); each Ambassador held scores 1 VP. Who later
  attacks a player they have relations with returns the Ambassadors and takes the Traitor card (-2 VP); its
  holder makes no new relations. Relations are not used with 2 or 3 players (:data:`DIPLOMACY_MIN_PLAYERS`).
- Alliances (p.10-11): not with 2 or 3 players; two players with relations found one, tiles face up; with 4-5
  players an alliance has 2 members, with 6 or more a third may join if they have relations with a member.
  A player is in one alliance at most. Leaving turns the tile to its Traitor side (-3 VP) and keeps the
  relations; leaving while sharing a hex with a former ally counts as an attack (the Traitor card). Nobody
  rejoins. In the last round no alliance is founded or left.

A handler is ``handler(game, state, ctx) -> state`` (:mod:`rules.engine`); a broken rule is an ERROR finding
and, where the table cannot be as reported (relations twice, an alliance that does not exist), the state
stays as it was.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules.eclipse.data import ROUNDS
from rules.eclipse.state import EclipsePlayer, EclipseState
from rules.eclipse.verdict import Verdict
from rules.engine import EventContext

__all__ = ["DIPLOMACY_MIN_PLAYERS", "alliance_founded", "alliance_joined", "alliance_left", "relations_broken",
           "relations_formed"]

DIPLOMACY_MIN_PLAYERS = 4
"""Diplomatic relations (and so Ambassadors and the Traitor card) are used with 4 or more players. UNCONFIRMED
in a first-edition rulebook: first-edition play as players report it, and Second Dawn's rule."""

ALLIANCE_MIN_PLAYERS = 4
"""Alliances are not used with 2 or 3 players (Rise of the Ancients p.10)."""

DIPLOMACY = "Diplomacy (Ambassadors and the Traitor card); not used with 2-3 players (unconfirmed for the first edition)"
ALLIANCES = "Rise of the Ancients p.10-11 Alliances"


def _say(ctx: EventContext, verdict: Verdict, player: str) -> None:
    ctx.add(verdict.finding(seq=ctx.event.seq, player=player, where=player))


def _other(ctx: EventContext, state: EclipseState, me: str) -> EclipsePlayer:
    name = ctx.require("with", str)
    if name == me or name not in ctx.players:
        raise ctx.bad(f"'with' must be another player ({', '.join(p for p in ctx.players if p != me)}), got {name!r}")
    return state.player(name)


def _take_traitor(state: EclipseState, name: str) -> EclipseState:
    """``name`` takes the Traitor card from whoever holds it (there is one)."""
    return replace(state, players=tuple(replace(p, traitor=p.name == name) for p in state.players))


def relations_formed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Two players exchange Ambassadors (Eclipse, Diplomacy; through Warp Portals too, Rise of the Ancients p.8)."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    if other.name in me.relations:
        _say(ctx, Verdict("relations_twice", False, DIPLOMACY, f"{me.name} and {other.name} already have relations",
                          "one pair of Ambassadors per pair of players"), me.name)
        return state
    if len(state.players) < DIPLOMACY_MIN_PLAYERS:
        _say(ctx, Verdict("diplomacy_players", False, DIPLOMACY, f"diplomatic relations are not used with "
                          f"{len(state.players)} players", "play without Ambassadors"), me.name)
    for p in (me, other):
        if p.traitor:
            _say(ctx, Verdict("traitor_relations", False, DIPLOMACY, f"{p.name} holds the Traitor card and makes no "
                              "new relations", "take the Ambassadors back"), p.name)
    state = state.with_player(replace(me, relations=me.relations + (other.name,)))
    return state.with_player(replace(other, relations=other.relations + (me.name,)))


def relations_broken(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """The player attacks ``with``: both Ambassadors go back and the attacker takes the Traitor card."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    if other.name not in me.relations:
        _say(ctx, Verdict("no_relations", False, DIPLOMACY, f"{me.name} and {other.name} have no relations to break",
                          "nothing to return"), me.name)
        return state
    state = state.with_player(replace(me, relations=tuple(n for n in me.relations if n != other.name)))
    state = state.with_player(replace(other, relations=tuple(n for n in other.relations if n != me.name)))
    return _take_traitor(state, me.name)


def _last_round(state: EclipseState) -> bool:
    return state.rounds.round >= ROUNDS


def _alliance_checks(state: EclipseState, ctx: EventContext, p: EclipsePlayer, what: str) -> None:
    """The rules every founding or joining shares: the module, the player count, one alliance, the last round."""
    if not state.modules.get("alliances"):
        _say(ctx, Verdict("alliances_module", False, ALLIANCES, "the Alliances module is not in play",
                          "choose it at setup"), p.name)
    if len(state.players) < ALLIANCE_MIN_PLAYERS:
        _say(ctx, Verdict("alliance_players", False, ALLIANCES, f"Alliances are not used with {len(state.players)} players",
                          "play without alliances"), p.name)
    if p.left_alliance:
        _say(ctx, Verdict("alliance_rejoin", False, ALLIANCES, f"{p.name} left an alliance and can never join one again",
                          "take the tile back"), p.name)
    elif p.alliance is not None:
        _say(ctx, Verdict("one_alliance", False, ALLIANCES, f"{p.name} is already in {p.alliance}; a player is in one "
                          "alliance at most", "take the tile back"), p.name)
    if _last_round(state):
        _say(ctx, Verdict("alliance_last_round", False, ALLIANCES, f"no alliance is {what} in the last round",
                          "take the tile back"), p.name)


def alliance_founded(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Two players with relations found an alliance, each taking one of its tiles face up (p.10)."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    name = ctx.require("alliance", str).strip()
    if not name:
        raise ctx.bad("'alliance' must be the alliance's name")
    if name in state.alliances:
        _say(ctx, Verdict("alliance_exists", False, ALLIANCES, f"{name} is already founded; a third member joins it",
                          "report the player joining instead"), me.name)
        return state
    for p in (me, other):
        _alliance_checks(state, ctx, p, "founded")
    if other.name not in me.relations:
        _say(ctx, Verdict("alliance_relations", False, ALLIANCES, f"{me.name} and {other.name} have no diplomatic "
                          "relations; only players with relations found an alliance", "exchange Ambassadors first"), me.name)
    state = replace(state, alliances=state.alliances + (name,))
    for p in (me, other):
        state = state.with_player(replace(state.player(p.name), alliance=name, alliance_side="face"))
    return state


def alliance_joined(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """A third player joins an alliance (6 or more players; relations with a member, p.10)."""
    me = state.player(ctx.player())
    name = ctx.require("alliance", str)
    if name not in state.alliances:
        _say(ctx, Verdict("no_alliance", False, ALLIANCES, f"no alliance {name!r} has been founded "
                          f"({', '.join(state.alliances) or 'none yet'})", "two players found it first"), me.name)
        return state
    members = [p for p in state.players if p.alliance == name]
    limit = 3 if len(state.players) >= 6 else 2
    _alliance_checks(state, ctx, me, "joined")
    if len(members) >= limit:
        _say(ctx, Verdict("alliance_full", False, ALLIANCES, f"{name} already has {len(members)} members; with "
                          f"{len(state.players)} players an alliance has at most {limit}", "take the tile back"), me.name)
    if not any(m.name in me.relations for m in members if m.alliance_side == "face"):
        _say(ctx, Verdict("alliance_relations", False, ALLIANCES, f"{me.name} has no diplomatic relations with a member "
                          f"of {name}", "exchange Ambassadors with a member first"), me.name)
    return state.with_player(replace(me, alliance=name, alliance_side="face"))


def alliance_left(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """The player turns their Alliance tile to its Traitor side, on their turn before acting (p.11)."""
    me = state.player(ctx.player())
    if me.alliance is None or me.alliance_side != "face":
        _say(ctx, Verdict("not_in_alliance", False, ALLIANCES, f"{me.name} holds no face-up Alliance tile to turn",
                          "nothing to leave"), me.name)
        return state
    if _last_round(state):
        _say(ctx, Verdict("alliance_last_round", False, ALLIANCES, "no alliance is left in the last round",
                          "turn the tile back"), me.name)
    state = state.with_player(replace(me, alliance_side="traitor", left_alliance=True))
    if ctx.get("traitor_card", False, bool):
        state = _take_traitor(state, me.name)
    return state
