"""Rules engines: pure Python, one module per game behind the shared core (``rules.core``).

No I/O, no OpenCV, no hardware. Observations from the camera become rule inputs in
``companion``; this room never imports ``vision``, ``device`` or ``companion``.
"""

from rules.core import (
    UNDO,
    BadEvent,
    BadSettings,
    CheckingGame,
    Event,
    Finding,
    Game,
    GameInfo,
    Option,
    Progress,
    Replay,
    RulesError,
    ScoreBreakdown,
    ScoreLine,
    Severity,
    UnknownEvent,
    effective_events,
    replay,
)
from rules.games import GAMES, UnknownGame, get_game

__all__ = [
    "UNDO", "BadEvent", "BadSettings", "CheckingGame", "Event", "Finding", "Game", "GameInfo", "Option",
    "Progress", "Replay", "RulesError", "ScoreBreakdown",
    "ScoreLine", "Severity", "UnknownEvent", "effective_events", "replay", "GAMES", "UnknownGame", "get_game",
]
