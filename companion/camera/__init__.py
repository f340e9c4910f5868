"""The camera inside a game flow, one module per idea.

- :mod:`companion.camera.flow`: :class:`CameraFlow`, the reads of a still table (scheduled, on a worker), the
  questions asked and answered, the camera block of the view;
- :mod:`companion.camera.schedule`: when a read is taken (the still table's reads, on a worker, stuck, failed or
  planned again);
- :mod:`companion.camera.answers`: the players' answers to the camera's questions;
- :mod:`companion.camera.station_flow`, :mod:`companion.camera.station_seats` and :mod:`companion.camera.station_ask`:
  whose each Among the Stars station is on a table with no player zones, and the "whose station is this?" questions;
- :mod:`companion.camera.seeing`: what one read sees (the OpenCV part, on a worker thread);
- :mod:`companion.camera.passes`: the readers a game uses and in which passes (cards, dice, a count);
- :mod:`companion.camera.spec`: a game's camera part (:class:`CameraSpec`) and the tableau games' one;
- :mod:`companion.camera.questions`: what the camera proposes and asks;
- :mod:`companion.camera.preview`: the misplay a proposal would cause, judged by the rules engine;
- :mod:`companion.camera.watch`, :mod:`companion.camera.station` and :mod:`companion.camera.hexmap`: the watchers
  that turn a stream of reads into confirmed changes (a player's tableau; an Among the Stars station; the shared hex
  map of Eclipse).
"""

from __future__ import annotations

from companion.camera.flow import CameraFlow
from companion.camera.passes import (
    TABLE,
    CardPass,
    CountPass,
    DicePass,
    DiceSet,
    MapPass,
    ReadPass,
    ReadPlan,
    Sight,
    colour_counts,
    deck_kind,
)
from companion.camera.questions import Observed, Proposal, Question
from companion.camera.spec import CameraSpec, TableauCamera

__all__ = ["TABLE", "CameraFlow", "CameraSpec", "CardPass", "CountPass", "DicePass", "DiceSet", "MapPass", "Observed",
           "Proposal", "Question", "ReadPass", "ReadPlan", "Sight", "TableauCamera", "colour_counts", "deck_kind"]
