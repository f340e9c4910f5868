"""A scratch fourth game, declared in this one module: Pig, the folk dice game, behind the game API.

It exists to show that a new game needs nothing but its module and a line in each registry to pass
``tests/test_game_conformance.py`` (the engine, :data:`PIG_GAME`) and ``tests/test_flow_conformance.py``
(its at-table flow, :data:`PIG_FLOW`). It is registered in neither ``rules.GAMES`` nor
``companion.flows.FLOWS``: the tests' own registries hold it.

Pig's rules (the folk game; "Pig" in John Scarne's *Scarne on Dice*, the source BoardGameGeek cites):
players take turns in seat order. On a turn a player rolls one die as often as they like: a 1 ends
the turn and loses everything rolled this turn; any other face adds to the turn total. A player may
hold instead of rolling: the turn total is banked and the turn passes. The first player to bank the
goal (100; settings may lower it) wins at once.

Events: ``rolled`` ``{"value": 1-6}`` (the player whose turn it is) and ``held`` ``{}``. A roll or hold
out of turn is a WARNING (the state follows the report; undo withdraws it).

At the table (:class:`PigFlow`): the player whose turn it is reports each roll and the hold on their
phone; the players' rows show what each has banked and the turn total; there is nothing for Next to do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.flow_spec import Column, Field, FlowBase, Form, TableRound
from rules.core import GameInfo, Option, Progress, ScoreBreakdown, ScoreLine, Severity
from rules.engine import EventContext, GameBase
from rules.scoring import Fields, ScoreInputError, check_distinct_names, field_path
from rules.settings import check_settings

TITLE = "Pig"
ROLLED, HELD = "rolled", "held"


@dataclass(frozen=True)
class PigState:
    """Banked points per seat, whose turn it is, the turn total, the round (a full cycle of turns), the winner."""

    players: tuple[str, ...]
    banked: tuple[int, ...]
    goal: int
    turn: int = 0
    turn_total: int = 0
    round: int = 1
    winner: str | None = None


def _next_turn(state: PigState) -> PigState:
    turn = (state.turn + 1) % len(state.players)
    return replace(state, turn=turn, turn_total=0, round=state.round + (1 if turn == 0 else 0))


class PigGame(GameBase):
    """Pig as a :class:`rules.core.Game`."""

    info = GameInfo(
        name="pig", title=TITLE, bgg_id=None, players=(2, 5),
        options=(Option("goal", "int", default=100, minimum=10, maximum=100, label="the goal",
                        help="the points to bank to win (Pig: 100; a short game plays to less)"),),
        score_input="json", rulebook="Pig, the folk dice game (Scarne on Dice)",
    )

    def initial_state(self, settings: Mapping[str, Any]) -> PigState:
        """Seat order as given; the first player starts. Raises BadSettings (2-5 players, goal 10-100)."""
        checked = check_settings(self.info, settings)
        return PigState(players=checked.players, banked=(0,) * len(checked.players), goal=checked["goal"])

    def players(self, state: PigState) -> tuple[str, ...]:
        return state.players

    def before(self, state: PigState, ctx: EventContext) -> bool:
        """After the win nothing changes; a report out of turn is said and still followed."""
        if state.winner is not None:
            ctx.finding(f"the game is over: {state.winner} won", "table", Severity.WARNING,
                        "the goal ends the game at once")
            return False
        player = ctx.player()
        if player != state.players[state.turn]:
            ctx.finding(f"{player} reported, but it is {state.players[state.turn]}'s turn", player, Severity.WARNING,
                        "players take turns in seat order")
        return True

    def _rolled(self, state: PigState, ctx: EventContext) -> PigState:
        value = ctx.require("value", int)
        if not 1 <= value <= 6:
            raise ctx.bad(f"'value' must be a die face 1-6, got {value}")
        if value == 1:
            ctx.finding(f"{state.players[state.turn]} rolled a 1: {state.turn_total} points lost",
                        state.players[state.turn],
                        Severity.INFO, "a 1 ends the turn and loses the turn total")
            return _next_turn(state)
        return replace(state, turn_total=state.turn_total + value)

    def _held(self, state: PigState, ctx: EventContext) -> PigState:
        banked = list(state.banked)
        banked[state.turn] += state.turn_total
        state = replace(state, banked=tuple(banked))
        if banked[state.turn] >= state.goal:
            return replace(state, winner=state.players[state.turn], turn_total=0)
        return _next_turn(state)

    handlers = {ROLLED: _rolled, HELD: _held}

    def view(self, state: PigState) -> dict[str, Any]:
        return {"game": self.name, "turn": state.players[state.turn], "turn_total": state.turn_total,
                "goal": state.goal,
                "round": state.round, "winner": state.winner,
                "players": [{"name": n, "banked": b} for n, b in zip(state.players, state.banked, strict=True)]}

    def progress(self, state: PigState) -> Progress:
        over = state.winner is not None
        return Progress(round=state.round, round_label=f"Round {state.round}", stage="over" if over else "turn",
                        turn=None if over else state.players[state.turn], over=over,
                        ending=(f"{state.winner} banked {state.goal}",) if over else ())

    def scores(self, state: PigState) -> list[ScoreBreakdown]:
        return [ScoreBreakdown(n, (ScoreLine("banked", b, "points banked"),))
                for n, b in zip(state.players, state.banked, strict=True)]

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """``{"players": [{"name", "banked"}]}``. Raises ScoreInputError naming the field."""
        players = Fields(data, "").list("players")
        if not 2 <= len(players) <= 5:
            raise ScoreInputError("players", f"Pig is for 2-5 players, got {len(players)}")
        out: list[ScoreBreakdown] = []
        for k, raw in enumerate(players):
            f = Fields(raw, field_path("players", k)).only("name", "banked")
            name = f.str("name")
            check_distinct_names([b.player for b in out] + [name])
            out.append(ScoreBreakdown(name, (ScoreLine("banked", f.int("banked", low=0), "points banked"),)))
        return out


PIG_GAME = PigGame()


class PigFlow(FlowBase):
    """Pig at the table: the player whose turn it is reports each roll and the hold (see the module doc)."""

    game = PIG_GAME
    columns = (Column("banked", "Banked"), Column("turn_total", "This turn"))

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """A roll (the die's face) and the hold."""
        return (Form("roll", "Rolled", (Field("value", "Die", kind="int", minimum=1, maximum=6),)),
                Form("hold", "Held"))

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Only the player whose turn it is rolls or holds; nobody once someone has won."""
        return ["roll", "hold"] if not progress.over and player == progress.turn else []

    def report_event(self, form: str, values: dict[str, Any], player: str,
                     view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """Rolled -> ``rolled {"value"}``, Held -> ``held {}``."""
        return (ROLLED, {"value": values["value"]}) if form == "roll" else (HELD, {})

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """No phases: whose turn it is and the turn total; each player's banked points."""
        rows = {p["name"]: {"banked": p["banked"], "vp": p["banked"],
                            "turn_total": view["turn_total"] if p["name"] == progress.turn else 0}
                            for p in view["players"]}
        if progress.over:
            return TableRound(progress, [], f"{view['winner']} won", "Game over", "the game is over", players=rows)
        note = f"{progress.turn} rolls or holds ({view['turn_total']} this turn; {view['goal']} to win)"
        return TableRound(progress, [], note, "Next", "players roll and hold on their phones", players=rows)

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """Pig has no table-wide step: Next never records anything."""
        return []


PIG_FLOW = PigFlow()
