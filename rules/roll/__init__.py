"""Roll for the Galaxy (Wei-Hwa Huang and Tom Lehmann, Rio Grande Games), 2-5 players.

- :mod:`rules.roll.data`: dice faces and the 55 game tiles, 9 faction tiles and 9 home
  worlds, loaded from ``rules/data/roll/*.json`` (package data, sources kept per record);
- :mod:`rules.roll.state`: the frozen table state (:class:`RollState`, :class:`PlayerState`, :class:`Stage`);
- :mod:`rules.roll.game`: :class:`RollGame`, the engine: the declaration (``INFO``), the state API and the
  handler table; the handlers live one module per part of the round: :mod:`.events` (event kinds,
  payload readers), :mod:`.setup`, :mod:`.assign`, :mod:`.phases`, :mod:`.explore`, :mod:`.build`,
  :mod:`.goods`, :mod:`.manage`, and :mod:`.moves` (credits, VP chips, workers, dice every phase shares);
- :mod:`rules.roll.powers`: which powers the engine applies, and reminders for the rest;
- :mod:`rules.roll.endgame`: final scoring and the ``companion score roll`` input.
"""

from rules.roll.data import COLOURS, FACES, PHASES, Catalogue, catalogue
from rules.roll.dice import Dice
from rules.roll.endgame import COST6_BONUSES, EndPosition, final_scores, parse_score_input, score_position
from rules.roll.game import EVENT_KINDS, ROLL_GAME, RollGame
from rules.roll.powers import APPLIED, REMINDED, Reminder
from rules.roll.state import PlayerState, RollState, Stage

__all__ = [
    "APPLIED",
    "COLOURS",
    "COST6_BONUSES",
    "EVENT_KINDS",
    "FACES",
    "PHASES",
    "REMINDED",
    "ROLL_GAME",
    "Catalogue",
    "Dice",
    "EndPosition",
    "PlayerState",
    "Reminder",
    "RollGame",
    "RollState",
    "Stage",
    "catalogue",
    "final_scores",
    "parse_score_input",
    "score_position",
]
