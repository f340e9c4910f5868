"""A scratch fourth game, declared in this one module: Pig, the folk dice game, behind the game API.

It exists to show that a new game needs nothing but its module and a line in a registry to pass
``tests/test_game_conformance.py`` (issue 13, "Done when"). It is not registered in ``rules.GAMES``.

Pig's rules (the folk game; "Pig" in John Scarne's *Scarne on Dice*, the source BoardGameGeek cites):
players take turns in seat order. On a turn a player rolls one die as often as they like: a 1 ends
the turn and loses everything rolled this turn; any other face adds to the turn total. A player may
hold instead of rolling: the turn total is banked and the turn passes. The first player to bank the
goal (100; settings may lower it) wins at once.

Events: ``rolled`` ``{"value": 1-6}`` (the player whose turn it is) and ``held`` ``{}``. A roll or hold
out of turn is a WARNING (the state follows the report; undo withdraws it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

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
            ctx.finding(f"the game is over: {state.winner} won", "table", Severity.WARNING, "the goal ends the game at once")
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
            ctx.finding(f"{state.players[state.turn]} rolled a 1: {state.turn_total} points lost", state.players[state.turn],
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
        return {"game": self.name, "turn": state.players[state.turn], "turn_total": state.turn_total, "goal": state.goal,
                "round": state.round, "winner": state.winner,
                "players": [{"name": n, "banked": b} for n, b in zip(state.players, state.banked)]}

    def progress(self, state: PigState) -> Progress:
        over = state.winner is not None
        return Progress(round=state.round, round_label=f"Round {state.round}", stage="over" if over else "turn",
                        turn=None if over else state.players[state.turn], over=over,
                        ending=(f"{state.winner} banked {state.goal}",) if over else ())

    def scores(self, state: PigState) -> list[ScoreBreakdown]:
        return [ScoreBreakdown(n, (ScoreLine("banked", b, "points banked"),)) for n, b in zip(state.players, state.banked)]

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
