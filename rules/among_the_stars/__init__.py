"""Among the Stars (Vangelis Bagiartakis, Artipia Games, 2012), base game, 2-4 players.

Each player builds a space station of location cards around a Main Reactor over 4
years of card drafting. The box checks every placement (edge adjacency, energy from
reactors within distance 2, MAX per station, card-specific rules, credit costs),
corrects stations at the end of each year, and scores the game.

- :mod:`.data`: cards, objectives, races and rule numbers from package data, each with its source/status;
- :mod:`.station`: the grid, edge adjacency and BFS path distance;
- :mod:`.legality`: one placement, a whole station, the end-of-year correction;
- :mod:`.abilities`: white-box (when built) and yellow-box (game end) abilities;
- :mod:`.endgame`: ``final_scores`` / ``check_position`` for ``companion score|check among FILE``;
- :mod:`.events`, :mod:`.state`: the event kinds with their payloads, the table the engine keeps;
- :mod:`.actions`, :mod:`.corrections`, :mod:`.objectives`, :mod:`.rounds`: the events' handlers (the three actions
  and Dispute; VP, credits and a camera read; a Qualeen's secret objective and Accelerated Construction; the round's
  and the year's end);
- :mod:`.game`: :data:`AMONG_GAME`, the :class:`rules.core.Game`.

Sources: ``shared/rules/among-the-stars.md`` (digest) and the Hungarian rulebook; section
names in findings follow the rulebook's (3 Setup, 4 Round overview, 5 Round end, 6 Game end,
7 Aggressive mode, 8 2-player rules, 10 Location cards, FAQ).
"""

from rules.among_the_stars.endgame import check_position, final_scores
from rules.among_the_stars.game import AMONG_GAME, AmongState, AmongTheStarsGame

__all__ = ["AMONG_GAME", "AmongState", "AmongTheStarsGame", "check_position", "final_scores"]
