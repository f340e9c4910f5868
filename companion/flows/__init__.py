"""The per-game parts of the at-table flow (:mod:`companion.flow`), listed in one place.

Each module declares only what differs between the games: the setup and report forms (choices
from the game's data), how the engine's view reads as a round, what Next records, and roles.
"""

from __future__ import annotations

from companion.flows.among import AMONG_FLOW
from companion.flows.race import RACE_FLOW
from companion.flows.roll import ROLL_FLOW

FLOWS = {spec.name: spec for spec in (ROLL_FLOW, RACE_FLOW, AMONG_FLOW)}
"""Game name -> its flow spec (``companion run --game NAME``)."""

__all__ = ["FLOWS"]
