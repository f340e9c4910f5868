"""Every game the box knows, listed in one place (no registration by import side effect)."""

from __future__ import annotations

from rules.among_the_stars import AMONG_GAME
from rules.core import Game, RulesError
from rules.d6 import D6_GAME
from rules.race import RACE_GAME
from rules.roll import ROLL_GAME

GAMES: dict[str, Game] = {game.name: game for game in (D6_GAME, RACE_GAME, ROLL_GAME, AMONG_GAME)}


class UnknownGame(RulesError, KeyError):
    """A game name that is not in :data:`GAMES`."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0]) if self.args else "unknown game"


def get_game(name: str) -> Game:
    """The game called ``name``.

    Raises:
        UnknownGame: naming the game and listing the known ones.
    """
    try:
        return GAMES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known games: {', '.join(sorted(GAMES))}") from None
