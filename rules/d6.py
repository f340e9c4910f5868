"""Free d6 rolling: the tally the box keeps of standard six-sided dice it reads.

Not a boxed game but the first "game" behind the core: every camera read (or a
player's correction) is an event; the state is the latest roll, its counts per value
and sum, and a short history of rolls. Games that roll d6 (Eclipse's combat dice are
d6 with symbols, many others use plain d6) can reuse the tally.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.core import GameInfo, Progress, RulesError, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.settings import check_settings
from rules.text import N_, Text, plural

__all__ = ["Roll", "D6State", "D6Game", "D6_GAME", "DICE_READ", "DICE_CORRECTED"]

DICE_READ = "dice_read"
"""A read of the dice in view. payload: ``{"values": [1-6 or null, ...], "image": str | None}``;
null is a die the camera saw but could not read."""

DICE_CORRECTED = "dice_corrected"
"""A player's correction of the latest roll. payload: ``{"values": [1-6, ...]}`` (all known)."""

HISTORY = 10  # rolls kept in the state's history


@dataclass(frozen=True)
class Roll:
    """One roll as the table saw it: ``values`` (1-6, None = unreadable die), the event ``seq``, ``at`` (Unix s)."""

    seq: int
    values: tuple[int | None, ...]
    at: float
    origin: str

    @property
    def read(self) -> tuple[int, ...]:
        """The values that were read (unreadable dice left out)."""
        return tuple(v for v in self.values if v is not None)

    @property
    def unreadable(self) -> int:
        """How many dice were seen but not read."""
        return sum(1 for v in self.values if v is None)

    @property
    def counts(self) -> dict[int, int]:
        """Dice showing each value 1-6 (all six keys present)."""
        return {face: self.read.count(face) for face in range(1, 7)}

    @property
    def total(self) -> int:
        """Sum of the read values (pips)."""
        return sum(self.read)

    def to_json(self) -> dict[str, Any]:
        """``{"seq", "values", "counts": {"1": n, ...}, "total", "unreadable", "at", "origin"}``."""
        return {
            "seq": self.seq,
            "values": list(self.values),
            "counts": {str(k): v for k, v in self.counts.items()},
            "total": self.total,
            "unreadable": self.unreadable,
            "at": self.at,
            "origin": self.origin,
        }


@dataclass(frozen=True)
class D6State:
    """The tally: ``latest`` roll (or None before the first), ``history`` newest first, ``rolls`` ever recorded."""

    latest: Roll | None = None
    history: tuple[Roll, ...] = ()
    rolls: int = 0


def _values(ctx: EventContext, allow_unreadable: bool) -> tuple[int | None, ...]:
    """The payload's ``values`` (1-6; None for an unreadable die when allowed). Raises BadEvent."""
    raw = ctx.payload.get("values")
    if not isinstance(raw, (list, tuple)):
        raise ctx.bad(f"'values' must be a list, got {raw!r}")
    values: list[int | None] = []
    for v in raw:
        if v is None and allow_unreadable:
            values.append(None)
        elif isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6:
            values.append(v)
        else:
            raise ctx.bad(f"{v!r} is not a d6 value 1-6")
    return tuple(values)


class D6Game(GameBase):
    """The d6 tally as a :class:`rules.core.Game`."""

    info = GameInfo(name="d6", title="Free roll (d6)", bgg_id=None, players=(0, 0))
    """Not a boxed game: it keeps no players (a session may name them), no options, no end-of-game input."""

    def initial_state(self, settings: Mapping[str, Any]) -> D6State:
        """An empty tally. Settings hold no players (other keys, e.g. ``"source"``, are not used).

        Raises:
            BadSettings: a player list that is not empty.
        """
        check_settings(self.info, settings)
        return D6State()

    def _on_read(self, state: D6State, ctx: EventContext) -> D6State:
        """A read of the dice in view. One with unreadable dice raises a WARNING finding asking players to
        check those dice or correct the roll."""
        event = ctx.event
        roll = Roll(seq=event.seq, values=_values(ctx, allow_unreadable=True), at=event.at, origin=event.origin)
        if roll.unreadable:
            ctx.finding(plural("{n} die could not be read; check it or correct the roll",
                               "{n} dice could not be read; check them or correct the roll", roll.unreadable),
                        Text("roll {seq}", seq=event.seq), Severity.WARNING, N_("each die shows one face 1-6"))
        history = (roll, *state.history)[:HISTORY]
        return replace(state, latest=roll, history=history, rolls=state.rolls + 1)

    def _on_corrected(self, state: D6State, ctx: EventContext) -> D6State:
        """A correction replaces the latest roll's values (it is a new roll in the history)."""
        event = ctx.event
        roll = Roll(seq=event.seq, values=_values(ctx, allow_unreadable=False), at=event.at, origin=event.origin)
        previous = state.history[1:] if state.history else ()
        history = (roll, *previous)[:HISTORY]
        return replace(state, latest=roll, history=history, rolls=max(state.rolls, 1))

    handlers = {DICE_READ: _on_read, DICE_CORRECTED: _on_corrected}

    def players(self, state: D6State) -> tuple[str, ...]:
        """A free roll keeps no players."""
        return ()

    def view(self, state: D6State) -> dict[str, Any]:
        """``{"game": "d6", "rolls", "latest": Roll.to_json() | None, "history": [Roll.to_json(), ...]}``."""
        return {
            "game": self.name,
            "rolls": state.rolls,
            "latest": state.latest.to_json() if state.latest else None,
            "history": [roll.to_json() for roll in state.history],
        }

    def progress(self, state: D6State) -> Progress:
        """No rounds: the free roll goes on (``round`` counts the rolls read); it never ends by itself."""
        return Progress(round=state.rolls, round_label=plural("{n} roll", "{n} rolls", state.rolls),
                        stage="rolling")

    def scores(self, state: D6State) -> list[ScoreBreakdown]:
        """Nobody scores a free roll: ``[]``."""
        return []

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """A free roll has no end-of-game input (``info.score_input`` is None).

        Raises:
            RulesError: always.
        """
        raise RulesError(f"{self.title} has no end-of-game scoring")


D6_GAME = D6Game()
