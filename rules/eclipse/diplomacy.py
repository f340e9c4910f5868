"""Diplomatic relations, the Traitor card and Rise of the Ancients' alliances: the handlers of their events.

Rules (Eclipse, Diplomacy; Rise of the Ancients p.8, p.10-11):

- Two players exchange Ambassador tiles (diplomatic relations); each Ambassador held scores 1 VP. A player gives
  one at each relation and has 3 (the Rho Indi Syndicate 2; :data:`AMBASSADORS`): a relation more is an error. Who later
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
from rules.text import N_, OR, Listing, Text

__all__ = ["DIPLOMACY_MIN_PLAYERS", "alliance_founded", "alliance_joined", "alliance_left", "relations_broken",
           "relations_formed"]

DIPLOMACY_MIN_PLAYERS = 4
"""Diplomatic relations (and so Ambassadors and the Traitor card) are used with 4 or more players. UNCONFIRMED
in a first-edition rulebook: first-edition play as players report it, and Second Dawn's rule."""

AMBASSADORS = 3
"""Ambassador tiles of a player colour (Rise of the Ancients p.3: each colour's pieces, "3 Πλακίδια Πρέσβη"); one is
given at each diplomatic relation, so a player has at most this many relations."""

SPECIES_AMBASSADORS = {"Rho Indi Syndicate": 2}
"""A species board that gives fewer Ambassador tiles (Rise of the Ancients p.15, Rho Indi Syndicate: "Δύο Πρέσβεις")."""

AMBASSADOR_TILES = N_("Diplomacy: one Ambassador tile given at each relation; 3 a player (Rise of the Ancients p.3), "
                      "the Rho Indi Syndicate 2 (p.15)")

ALLIANCE_MIN_PLAYERS = 4
"""Alliances are not used with 2 or 3 players (Rise of the Ancients p.10)."""

DIPLOMACY = N_("Diplomacy (Ambassadors and the Traitor card), with 4 or more players")
# the player count: first-edition play as players report it and Second Dawn's rule (DIPLOMACY_MIN_PLAYERS)
ALLIANCES = N_("Rise of the Ancients p.10-11 Alliances")
NEIGHBOURS = N_("Diplomacy (a player whose controlled hex is next to yours); Rise of the Ancients p.8 "
                "(through Warp Portals)")


def _say(ctx: EventContext, verdict: Verdict, player: str) -> None:
    ctx.add(verdict.finding(seq=ctx.event.seq, player=player, where=player))


def _other(ctx: EventContext, state: EclipseState, me: str) -> EclipsePlayer:
    name = ctx.require("with", str)
    if name == me or name not in ctx.players:  # Eclipse, Diplomacy: relations are between two players
        raise ctx.bad(Text("{what}: relations are made with another player (Eclipse, Diplomacy): {players}; got "
                           "{value}", what=Text("With"), players=Listing([p for p in ctx.players if p != me], OR),
                           value=repr(name)))
    return state.player(name)


def _take_traitor(state: EclipseState, name: str) -> EclipseState:
    """``name`` takes the Traitor card from whoever holds it (there is one)."""
    return replace(state, players=tuple(replace(p, traitor=p.name == name) for p in state.players))


def relations_formed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Two players exchange Ambassadors (Eclipse, Diplomacy; through Warp Portals too, Rise of the Ancients p.8)."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    if other.name in me.relations:
        _say(ctx, Verdict("relations_twice", False, DIPLOMACY,
            Text("{player} and {other} already have relations", player=me.name, other=other.name),
                          Text("one pair of Ambassadors per pair of players")), me.name)
        return state
    if len(state.players) < DIPLOMACY_MIN_PLAYERS:
        _say(ctx, Verdict("diplomacy_players", False, DIPLOMACY,
            Text("diplomatic relations are not used with {count} players",
                 count=len(state.players)), Text("play without Ambassadors")), me.name)
    for p in (me, other):
        if p.traitor:
            _say(ctx, Verdict("traitor_relations", False, DIPLOMACY,
                Text("{player} holds the Traitor card and makes no new relations",
                     player=p.name), Text("take the Ambassadors back")), p.name)
        most = SPECIES_AMBASSADORS.get(p.species or "", AMBASSADORS)
        if len(p.relations) >= most:
            _say(ctx, Verdict("ambassadors_given", False, AMBASSADOR_TILES,
                Text("{player} has no Ambassador tile left to give (Ambassador tiles: {count}, each with a player "
                     "they have relations with)", player=p.name, count=most),
                Text("check which relations stand")), p.name)
    if not _neighbours(state, me.name, other.name):
        _say(ctx, Verdict("relations_not_neighbours", False, NEIGHBOURS,
            Text("{player} and {other} control no hexes next to each other: relations are made with a player whose "
                 "controlled hex is next to yours, or joined to it by Warp Portals", player=me.name, other=other.name),
                          Text("report the Influence that brings their hexes together first, or undo the report")),
             me.name)
    state = state.with_player(replace(me, relations=me.relations + (other.name,)))
    return state.with_player(replace(other, relations=other.relations + (me.name,)))


def _neighbours(state: EclipseState, a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` control hexes next to each other on the box's map, or each a portal hex (Rise of the
    Ancients p.8: portal hexes are adjacent to one another). True when either controls no hex on the map: the box
    cannot tell (a table that reports no Influence)."""
    mine = [c for c, who in state.owners.items() if who == a]
    theirs = [c for c, who in state.owners.items() if who == b]
    if not mine or not theirs:
        return True
    if any(h.cell in theirs for c in mine for _, h in state.galaxy.neighbours(c)):
        return True
    portals = {h.cell for h in state.galaxy.portals()}
    return bool(portals & set(mine)) and bool(portals & set(theirs))


def relations_broken(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """The player attacks ``with``: both Ambassadors go back and the attacker takes the Traitor card."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    if other.name not in me.relations:
        _say(ctx, Verdict("no_relations", False, DIPLOMACY,
            Text("{player} and {other} have no relations to break", player=me.name, other=other.name),
                          Text("nothing to return")), me.name)
        return state
    state = state.with_player(replace(me, relations=tuple(n for n in me.relations if n != other.name)))
    state = state.with_player(replace(other, relations=tuple(n for n in other.relations if n != me.name)))
    return _take_traitor(state, me.name)


def _last_round(state: EclipseState) -> bool:
    return state.rounds.round >= ROUNDS


def _alliance_checks(state: EclipseState, ctx: EventContext, p: EclipsePlayer, what: str) -> None:
    """The rules every founding or joining shares: the module, the player count, one alliance, the last round."""
    if not state.modules.get("alliances"):
        _say(ctx, Verdict("alliances_module", False, ALLIANCES, Text("the Alliances module is not in play"),
                          Text("choose it at setup")), p.name)
    if len(state.players) < ALLIANCE_MIN_PLAYERS:
        _say(ctx, Verdict("alliance_players", False, ALLIANCES,
            Text("Alliances are not used with {count} players", count=len(state.players)),
                          Text("play without alliances")), p.name)
    if p.left_alliance:
        _say(ctx, Verdict("alliance_rejoin", False, ALLIANCES,
            Text("{player} left an alliance and can never join one again", player=p.name),
                          Text("take the tile back")), p.name)
    elif p.alliance is not None:
        _say(ctx, Verdict("one_alliance", False, ALLIANCES,
            Text("{player} is already in {alliance}; a player is in one alliance at most",
                 player=p.name, alliance=p.alliance), Text("take the tile back")), p.name)
    if _last_round(state):
        said = (Text("no alliance is founded in the last round") if what == "founded"
                else Text("no alliance is joined in the last round"))
        _say(ctx, Verdict("alliance_last_round", False, ALLIANCES, said, Text("take the tile back")), p.name)


def alliance_founded(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Two players with relations found an alliance, each taking one of its tiles face up (p.10)."""
    me = state.player(ctx.player())
    other = _other(ctx, state, me.name)
    name = ctx.require("alliance", str).strip()
    if not name:  # Rise of the Ancients p.10: the two take the tiles of one alliance, named by its tiles
        raise ctx.bad(Text("{what}: name the alliance whose tiles the two players take (Rise of the Ancients p.10)",
                           what=Text("Alliance")))
    if name in state.alliances:
        _say(ctx, Verdict("alliance_exists", False, ALLIANCES,
            Text("{alliance} is already founded; a third member joins it", alliance=name),
                          Text("report the player joining instead")), me.name)
        return state
    for p in (me, other):
        _alliance_checks(state, ctx, p, "founded")
    if other.name not in me.relations:
        _say(ctx, Verdict("alliance_relations", False, ALLIANCES,
            Text("{player} and {other} have no diplomatic relations; only players with relations found an alliance",
                 player=me.name, other=other.name), Text("exchange Ambassadors first")), me.name)
    state = replace(state, alliances=state.alliances + (name,))
    for p in (me, other):
        state = state.with_player(replace(state.player(p.name), alliance=name, alliance_side="face"))
    return state


def alliance_joined(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """A third player joins an alliance (6 or more players; relations with a member, p.10)."""
    me = state.player(ctx.player())
    name = ctx.require("alliance", str)
    if name not in state.alliances:
        founded = Listing(state.alliances) if state.alliances else Text("none yet")
        _say(ctx, Verdict("no_alliance", False, ALLIANCES,
                          Text("no alliance {alliance!r} has been founded ({founded})", alliance=name, founded=founded),
                          Text("two players found it first")), me.name)
        return state
    members = [p for p in state.players if p.alliance == name]
    limit = 3 if len(state.players) >= 6 else 2
    _alliance_checks(state, ctx, me, "joined")
    if len(members) >= limit:
        _say(ctx, Verdict("alliance_full", False, ALLIANCES,
            Text("{alliance} already has {members} members; with {players} players an alliance has at most {limit}",
                 alliance=name, members=len(members), players=len(state.players), limit=limit),
                          Text("take the tile back")), me.name)
    if not any(m.name in me.relations for m in members if m.alliance_side == "face"):
        _say(ctx, Verdict("alliance_relations", False, ALLIANCES,
            Text("{player} has no diplomatic relations with a member of {alliance}",
                 player=me.name, alliance=name), Text("exchange Ambassadors with a member first")), me.name)
    return state.with_player(replace(me, alliance=name, alliance_side="face"))


def alliance_left(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """The player turns their Alliance tile to its Traitor side, on their turn before acting (p.11)."""
    me = state.player(ctx.player())
    if me.alliance is None or me.alliance_side != "face":
        _say(ctx, Verdict("not_in_alliance", False, ALLIANCES,
            Text("{player} holds no face-up Alliance tile to turn", player=me.name),
                          Text("nothing to leave")), me.name)
        return state
    if _last_round(state):
        _say(ctx, Verdict("alliance_last_round", False, ALLIANCES, Text("no alliance is left in the last round"),
                          Text("turn the tile back")), me.name)
    state = state.with_player(replace(me, alliance_side="traitor", left_alliance=True))
    if ctx.get("traitor_card", False, bool):
        state = _take_traitor(state, me.name)
    return state
