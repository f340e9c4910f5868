"""Race for the Galaxy (Tom Lehmann, Rio Grande Games), base game, 2-4 players.

- :mod:`rules.race.cards`: the card data and game facts (package data in ``rules/data/race``);
- :mod:`rules.race.scoring`: final scoring of an end-of-game record (``final_scores``);
- :mod:`rules.race.game`: :data:`RACE_GAME`, the rounds, phases and misplay checks.
"""

from rules.race.cards import Card, CardSet, cards, facts
from rules.race.game import (
    EVENT_KINDS,
    RACE_GAME,
    PhaseStep,
    Placed,
    PlayerState,
    RaceGame,
    RaceState,
    Stage,
    military_against,
    plan_phases,
)
from rules.race.scoring import (
    final_scores,
    read_game,
    score_player,
    six_cost_bonus,
    winners,
)

__all__ = [
    "EVENT_KINDS",
    "RACE_GAME",
    "Card",
    "CardSet",
    "PhaseStep",
    "Placed",
    "PlayerState",
    "RaceGame",
    "RaceState",
    "Stage",
    "cards",
    "facts",
    "final_scores",
    "military_against",
    "plan_phases",
    "read_game",
    "score_player",
    "six_cost_bonus",
    "winners",
]
