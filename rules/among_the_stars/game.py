"""Among the Stars as a :class:`rules.core.Game`: years, rounds, the three actions, scoring.

Facts (rulebook 4 'Round overview', numbers in the data file's ``game_rules``): 4 years
of 6 rounds (7 in years 2-4 of aggressive mode); each year every player takes 10
credits (Zehuti: exactly 13) and hands pass left or right by year; each round every
player does exactly one action with the card they revealed: build it, build a Power
Reactor (1 credit, 2 cubes), or discard it for 3 credits (Sheptas 4, Zehuti 0). Effects
on other players wait until everyone's action is done (rulebook 'Player order'), so they
are resolved by ``round_ended``. After the last round of a year the stations are
corrected (rulebook 5 'Round end'); after year 4 the game is scored (rulebook 6).

The box cannot see hands, so drafting is not modelled: events report what was revealed
and done. With 2 players two virtual seats sit between them (rulebook 8); they only
shape the passing, shown in :meth:`AmongTheStarsGame.view`.

This module holds the declaration, the state API and the handler table; the rules live one module per idea:
:mod:`.events` (the event kinds and their payloads), :mod:`.state` (the table), :mod:`.actions` (rulebook 4 'The
three actions' and Dispute), :mod:`.corrections` (VP and credits set right, a camera read checked),
:mod:`.objectives` (a Qualeen's secret objective, Accelerated Construction) and :mod:`.rounds` (the round's and the
year's end). Every name this module offered before is still importable from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.among_the_stars.actions import on_card_discarded, on_conflict_played, on_location_built, on_reactor_built
from rules.among_the_stars.corrections import (
    on_credits_changed,
    on_station_claimed,
    on_station_read,
    on_vp_changed,
)
from rules.among_the_stars.data import MAIN_REACTOR, POWER_REACTOR, TITLE, VAK_MAIN_REACTOR, Catalogue, catalogue
from rules.among_the_stars.endgame import check_position, final_scores
from rules.among_the_stars.events import (
    CARD_DISCARDED,
    CONFLICT_PLAYED,
    CREDITS_CHANGED,
    LOCATION_BUILT,
    REACTOR_BUILT,
    ROUND_ENDED,
    SECRET_OBJECTIVE_CHOSEN,
    STATION_CLAIMED,
    STATION_READ,
    VP_CHANGED,
)
from rules.among_the_stars.legality import energy_reach
from rules.among_the_stars.objectives import objectives_dealt, on_secret_objective_chosen
from rules.among_the_stars.rounds import income, on_round_ended
from rules.among_the_stars.state import AmongPlayer, AmongState, score_now
from rules.among_the_stars.station import ORIGIN, Placed, Station
from rules.among_the_stars.words import FIELD_WORDS
from rules.core import CheckFormat, Finding, GameInfo, Option, Progress, Rename, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.settings import check_settings
from rules.text import N_, Text

__all__ = [
    "AMONG_GAME",
    "CARD_DISCARDED",
    "CONFLICT_PLAYED",
    "CREDITS_CHANGED",
    "LOCATION_BUILT",
    "REACTOR_BUILT",
    "ROUND_ENDED",
    "SECRET_OBJECTIVE_CHOSEN",
    "STATION_CLAIMED",
    "STATION_READ",
    "VP_CHANGED",
    "AmongPlayer",
    "AmongState",
    "AmongTheStarsGame",
    "objectives_dealt",
]

VIRTUAL = ("virtual player 1", "virtual player 2")
_VIRTUAL = {
    "left": N_("2 players: leave your hand beside the virtual player on the left, take its hand, shuffle, put {count} "
               "card face up on the virtual discard pile, pass the rest to your opponent"),
    "right": N_("2 players: leave your hand beside the virtual player on the right, take its hand, shuffle, "
                "put {count} card face up on the virtual discard pile, pass the rest to your opponent"),
}
"""The 2-player reminder (rulebook 8), by the year's pass direction."""

RACE_REMINDERS = {
    "qualeen": Text("Qualeen: a secret objective scores even when tied; reveal Accelerated Construction when met"),
    "minireen": Text("Minireen: once this year you may build from the discard pile instead of your drafted card"),
    "sisssaurians": Text("Sisssaurians: once this year draw 5 unused specials, then remove 5 specials from your hand"),
    "garrn_athak_nok": Text("Garrn Athak Nok: once this year look at a hand and swap one card"),
    "zehuti": Text("Zehuti: exactly 13 credits each year, no carry-over; discarding gives nothing"),
    "sheptas": Text("Sheptas: discarding gives 4 credits; at the end 1 VP per 2 credits instead of 3 (at most 5 more)"),
}


INFO = GameInfo(
    name="among",
    title=TITLE,
    bgg_id=121408,
    players=(2, 4),  # Among the Stars rulebook, 1 Components: 4 Main Reactors, a game for 2-4 players
    options=(
        Option(
            "races", "choices", default=(), per_player=True, player_key="race", label=Text("each player's race"),
            choices=tuple(r["name"] for r in catalogue().races.values()),
            distinct=N_("two players play the race {value}: the box has one tile per race "
                        "(Among the Stars rulebook, Setup 7)"),
            help=Text("one race per player, in seat order; none for a first game (Among the Stars rulebook, 3 Setup: "
                 "each player takes a race tile)"),
        ),
        Option(
            "objectives", "choices", default=(), label=Text("the objectives"),
            choices=tuple(o.name for o in catalogue().objectives.values()),
            help=Text("the objectives in play: as many as players, 2 with 2 players (Among the Stars rulebook, 3 Setup "
                 "and 8 2-player rules)"),
        ),
        Option(
            "aggressive", "bool", default=False, label=Text("the aggressive mode"),
            help=Text("the aggressive mode: Conflict cards from year 2, 7 rounds in years 2-4 (Among the Stars "
                 "rulebook, 7 Aggressive mode)"),
        ),
    ),
    score_input="json",
    rulebook="Among the Stars rulebook, Hungarian edition",
    score_rule=N_("rulebook 6 'Game end'"),
    tiebreak=N_("locations without reactors, then credits"),  # rulebook 6: more locations (reactors not), credits
    renames=(
        Rename("vp_adjusted", "vp_changed", since="issue 13"),
        Rename("credits_adjusted", "credits_changed", since="issue 13"),
    ),
    check_format=CheckFormat(
        row=(("player", "player"), ("card", "card"), ("cell", "cell"), ("rule", "rule_kind"), ("message", "what")),
        legal=False, listed=(Severity.ERROR,),
    ),
)
"""Among the Stars' declaration (:class:`rules.core.GameInfo`)."""


class AmongTheStarsGame(GameBase):
    """Among the Stars (Artipia Games, 2012), base game, 2-4 players, as a :class:`rules.core.Game`."""

    info = INFO
    field_words = FIELD_WORDS

    def __init__(self, cat: Catalogue | None = None) -> None:
        self._cat = cat

    @property
    def cat(self) -> Catalogue:
        return self._cat or catalogue()

    # -- score / check commands -----------------------------------------------------------
    @staticmethod
    def final_scores(data: Any) -> list[ScoreBreakdown]:
        """``companion score among FILE``; see :func:`rules.among_the_stars.endgame.final_scores`."""
        return final_scores(data)

    @staticmethod
    def check(data: Any) -> list[Finding]:
        """``companion check among FILE``: errors first, then warnings; see
        :func:`rules.among_the_stars.endgame.check_position`."""
        return check_position(data)

    # -- facts ------------------------------------------------------------------------------
    def rounds_in_year(self, state: AmongState, year: int | None = None) -> int:
        year = state.year if year is None else year
        r = self.cat.rules
        return r["aggressive_rounds_per_year"] if state.aggressive and year >= 2 else r["rounds_per_year"]

    def pass_direction(self, year: int) -> str:
        """``"left"`` or ``"right"`` (data ``game_rules.pass_direction``; single source)."""
        return self.cat.rules["pass_direction"][str(year)]

    def seats(self, state: AmongState) -> list[str]:
        """Seats around the table; with 2 players a virtual player sits on each side (rulebook 8)."""
        names = [p.name for p in state.players]
        if len(names) == 2:
            return [names[0], VIRTUAL[0], names[1], VIRTUAL[1]]
        return names

    # -- state --------------------------------------------------------------------------------
    def initial_state(self, settings: Mapping[str, Any]) -> AmongState:
        """Year 1, round 1, each player with a Main Reactor (2 cubes) and the first year's credits.

        settings: ``{"players": [name or {"name", "race"}], "objectives": [names], "aggressive": bool}``
        (races may also come as ``"races"``: one per player in seat order).

        Raises:
            BadSettings: fewer than 2 or more than 4 players, an unknown race or objective, a race twice.
        """
        cat = self.cat
        checked = check_settings(self.info, settings)
        players = []
        for name, race_name in zip(checked.players, checked["races"], strict=True):
            race = cat.race(race_name) if race_name else None
            main = cat.cards[VAK_MAIN_REACTOR if race == "vak" else MAIN_REACTOR]
            station = Station((Placed(main, ORIGIN, cubes=main.start_cubes, year=0, order=0),))
            players.append(income(self, AmongPlayer(name, race, 0, 0, station)))
        objectives = tuple(cat.objective(name).id for name in checked["objectives"])
        return AmongState(players=tuple(players), objectives=objectives, aggressive=checked["aggressive"],
                          reactors_left=cat.cards[POWER_REACTOR].copies)

    def before(self, state: AmongState, ctx: EventContext) -> bool:
        """Once the game is scored, an event changes nothing (a camera read is still checked, a station still
        claimed)."""
        if state.over and ctx.event.kind not in (STATION_READ, STATION_CLAIMED):
            ctx.finding(Text("the game is over; this event changes nothing"), Text("event {seq}", seq=ctx.event.seq),
                        Severity.WARNING,
                        N_("rulebook 6 'Game end'"))
            return False
        return True

    handlers = {
        LOCATION_BUILT: on_location_built,
        REACTOR_BUILT: on_reactor_built,
        CARD_DISCARDED: on_card_discarded,
        CONFLICT_PLAYED: on_conflict_played,
        ROUND_ENDED: on_round_ended,
        VP_CHANGED: on_vp_changed,
        CREDITS_CHANGED: on_credits_changed,
        STATION_READ: on_station_read,
        STATION_CLAIMED: on_station_claimed,
        SECRET_OBJECTIVE_CHOSEN: on_secret_objective_chosen,
    }
    """Event kind -> handler ``(game, state, ctx) -> state``, one module per idea: :mod:`.actions` (the three
    actions and Dispute), :mod:`.corrections` (VP, credits, a camera read), :mod:`.objectives` (a Qualeen's secret
    objective), :mod:`.rounds` (the round's and the year's end)."""

    def scores(self, state: AmongState) -> list[ScoreBreakdown]:
        """Each player's score (rulebook 6 'Game end'): the final scores once the game is over, else
        the table as it stands scored as if it ended now."""
        if state.over:
            return list(state.scores)
        return score_now(state, self.cat)

    def public(self, state: AmongState) -> AmongState:
        """``state`` without a Qualeen's secret objective not yet revealed (rulebook 'Races', Qualeen: kept secretly
        until game end; entered on the player's own phone) until the game is over and scored; once it is, the state
        itself. A secret Accelerated Construction met is revealed at once (Hungarian FAQ) and stays."""
        if state.over or not any(p.secret_objective and not p.secret_revealed for p in state.players):
            return state
        return replace(state, players=tuple(p if p.secret_revealed else replace(p, secret_objective=None)
                                            for p in state.players))

    def progress(self, state: AmongState) -> Progress:
        """Year and round (rulebook 4 'Round overview': 4 years of 6 rounds, 7 in years 2-4 of the
        aggressive mode); the stage is ``"actions"`` (every player does one action, then the round
        ends) or ``"over"``; the players who have not acted this round are waited for."""
        years = self.cat.rules["years"]
        rounds = self.rounds_in_year(state)
        last = not state.over and state.year == years and state.round == rounds
        return Progress(
            round=state.round, round_label=Text("Year {year} of {years}, round {round} of {rounds}",
                                                year=state.year, years=years, round=state.round, rounds=rounds),
            stage="over" if state.over else "actions", last_round=last,
            ending=(Text("round {round} of year {year} is the last round",
                         round=rounds, year=years),) if last else (), over=state.over,
            rounds=rounds,
            waiting=() if state.over else tuple(p.name for p in state.players if p.acted != (state.year, state.round)),
        )

    def view(self, state: AmongState) -> dict[str, Any]:
        """``{"game", "year", "round", "rounds", "pass_direction", "seats", "players": [...], "objectives",
        "aggressive", "pending", "reminders", "over", "scores"}``; each player's ``energy_reach`` lists, for each free
        place next to their station, the reactors holding cubes that can pay a location's energy there, nearest first
        (:func:`rules.among_the_stars.legality.energy_reach`)."""
        cat = self.cat
        two = len(state.players) == 2
        reminders = [RACE_REMINDERS[p.race] for p in state.players if p.race in RACE_REMINDERS]
        wanted = objectives_dealt(len(state.players))
        if state.objectives and len(state.objectives) != wanted:
            reminders.append(Text("setup: {wanted} objectives are dealt for {players} players; {count} are in play",
                                  wanted=wanted, players=len(state.players), count=len(state.objectives)))
        if two:
            reminders.append(Text(_VIRTUAL[self.pass_direction(state.year)],
                                  count=cat.rules['virtual_discard_per_round']))
        return {
            "game": self.name,
            "year": state.year,
            "round": state.round,
            "rounds": self.rounds_in_year(state),
            "pass_direction": self.pass_direction(state.year),
            "seats": self.seats(state),
            "players": [
                {"name": p.name, "race": p.race, "credits": p.credits, "vp": p.vp, "escrow": p.escrow,
                 "station": p.station.to_json(), "locations": p.station.non_reactor_locations(),
                 "energy_reach": [{"cell": list(c), "reactors": [
                     {"card": r.name, "cell": list(r.cell), "cubes": r.cubes} for r in sources]}
                     for c, sources in energy_reach(p.station, cat.rules["energy_range"]).items()]}
                for p in state.players
            ],
            "objectives": [cat.objectives[o].name for o in state.objectives],
            "aggressive": state.aggressive,
            "reactors_left": state.reactors_left,
            "pending": [{"target": i.target, "what": i.what, "delta": i.delta,
                         "reason": i.reason} for i in state.pending],
            "reminders": reminders,
            "over": state.over,
            "scores": [b.to_json() for b in state.scores],
        }


AMONG_GAME = AmongTheStarsGame()
