"""Every game the box knows, listed in one place (no registration by import side effect)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from rules.among_the_stars import AMONG_GAME
from rules.core import Event, Game, RulesError
from rules.d6 import D6_GAME
from rules.eclipse import ECLIPSE_GAME
from rules.race import RACE_GAME
from rules.roll import ROLL_GAME

GAMES: dict[str, Game] = {game.name: game for game in (D6_GAME, RACE_GAME, ROLL_GAME, AMONG_GAME, ECLIPSE_GAME)}


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


def upgrade_event(game_name: str, kind: str, payload: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """An event as stored by an older version, in today's names: ``(kind, payload)``.

    Pure: applies the game's declared renames (:attr:`rules.core.GameInfo.renames`) in order and
    returns a new payload dict; an event already in today's names, or of a game that is no longer
    known (its session cannot be opened anyway), comes back unchanged. The session database's
    migration calls this for every stored event, so a log written before a rename replays to the
    same state.
    """
    game = GAMES.get(game_name)
    out = dict(payload)
    if game is None:
        return kind, out
    for rename in game.info.renames:
        kind, out = rename.apply(kind, out)
    return kind, out


def upgrade_events(game_name: str, events: Iterable[Event]) -> list[Event]:
    """:func:`upgrade_event` over a whole log (an export, a test log): the same events in today's names."""
    out = []
    for event in events:
        kind, payload = upgrade_event(game_name, event.kind, event.payload)
        out.append(replace(event, kind=kind, payload=payload))
    return out
