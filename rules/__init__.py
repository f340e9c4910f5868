"""Rules engines: pure Python, one module per game behind the shared core (``rules.core``).

No I/O, no OpenCV, no hardware. Observations from the camera become rule inputs in
``companion``; this room never imports ``vision``, ``device`` or ``companion``.
"""

from rules.core import (
    LAST_ROUND,
    UNDO,
    BadEvent,
    BadSettings,
    CheckFormat,
    CheckingGame,
    Event,
    Finding,
    Game,
    GameInfo,
    Option,
    Progress,
    RankingGame,
    Rename,
    Replay,
    RulesError,
    ScoreBreakdown,
    ScoreLine,
    Severity,
    Standings,
    UnknownEvent,
    effective_events,
    replay,
)
from rules.engine import GameBase
from rules.games import GAMES, UnknownGame, get_game, upgrade_event, upgrade_events
from rules.settings import Settings, check_settings

__all__ = [
    "LAST_ROUND", "UNDO", "BadEvent", "BadSettings", "CheckFormat", "CheckingGame", "Event", "Finding", "Game",
    "GameBase",
    "GameInfo", "Option", "Progress", "RankingGame", "Rename", "Replay", "RulesError", "ScoreBreakdown",
    "ScoreLine", "Settings", "Severity", "Standings", "UnknownEvent", "check_settings", "effective_events", "replay",
    "GAMES", "UnknownGame", "get_game", "upgrade_event", "upgrade_events",
]
