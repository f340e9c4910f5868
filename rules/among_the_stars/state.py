"""Among the Stars' table as the engine keeps it: each player's credits, VP track and station, the year and round,
the objectives, the effects on other players waiting for the round's end; and the table scored as it stands.

Facts (rulebook 4 'Round overview'): 4 years of 6 rounds (7 in years 2-4 of the aggressive mode); effects on other
players wait until everyone's action is done (rulebook 'Player order').
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules.among_the_stars.abilities import Interaction
from rules.among_the_stars.data import Catalogue
from rules.among_the_stars.endgame import PlayerPosition, Position, score_position
from rules.among_the_stars.station import Station
from rules.core import ScoreBreakdown

__all__ = ["AmongPlayer", "AmongState", "score_now"]


@dataclass(frozen=True)
class AmongPlayer:
    """One real player: credits, VP on the track, station, credits parked on Business Offices, last round acted."""

    name: str
    race: str | None
    credits: int
    vp: int
    station: Station
    escrow: int = 0
    acted: tuple[int, int] = (0, 0)  # (year, round) of the last action
    secret_objective: str | None = None  # a Qualeen's secret objective (its id), hidden until the game is scored
    secret_revealed: bool = False  # a secret Accelerated Construction met and revealed (Hungarian FAQ, Qualeen)


@dataclass(frozen=True)
class AmongState:
    """The table: players in seat order, year and round, objectives, pending interactions, final scores."""

    players: tuple[AmongPlayer, ...]
    objectives: tuple[str, ...] = ()
    aggressive: bool = False
    year: int = 1
    round: int = 1
    reactors_left: int = 16
    pending: tuple[Interaction, ...] = ()
    accelerated_done: bool = False
    over: bool = False
    scores: tuple[ScoreBreakdown, ...] = ()

    def player(self, name: str) -> AmongPlayer:
        """The player called ``name``.

        Raises:
            KeyError: nobody of that name at the table (a virtual seat of a 2-player game is no player).
        """
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, p: AmongPlayer) -> AmongState:
        """The table with ``p`` in the seat of the player of that name (the state is frozen: a new one)."""
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))


def score_now(state: AmongState, cat: Catalogue) -> list[ScoreBreakdown]:
    """The table scored as it stands, one breakdown a player in seat order (Among the Stars rulebook, 6 'Game end'):
    a Qualeen's secret objective counted as the player keeps it."""
    position = Position(
        [PlayerPosition(p.name, p.race, p.credits, p.vp, p.station,
                        cat.objectives[p.secret_objective] if p.secret_objective else None, p.secret_revealed)
         for p in state.players],
        [cat.objectives[o] for o in state.objectives], state.aggressive,
    )
    return score_position(position, cat)
