"""The per-game parts of the at-table flow (:mod:`companion.flow`), listed in one place.

Each module declares only what differs between the games (a :class:`companion.flow_spec.FlowBase`):
the report forms (choices from the game's data), the columns and boards shown, how the engine's view
and progress read as a round, what Next records, and roles. A new game is a new module and one line
here.
"""

from __future__ import annotations

from companion.flows.among import AMONG_FLOW
from companion.flows.eclipse import ECLIPSE_FLOW
from companion.flows.race import RACE_FLOW
from companion.flows.roll import ROLL_FLOW

FLOWS = {spec.name: spec for spec in (ROLL_FLOW, RACE_FLOW, AMONG_FLOW, ECLIPSE_FLOW)}
"""Game name -> its flow spec (``companion run --game NAME``): the one list of the games played at the table."""

__all__ = ["FLOWS", "run_hint"]


def run_hint(command: str = "run") -> str:
    """How to start a game flow, for messages, with the command the box runs as (``"run"`` on a camera, ``"demo"`` on
    the replay ``./setup.sh run`` starts off a Pi): ``companion demo --game roll|race|among|eclipse``."""
    return f"companion {command} --game {'|'.join(FLOWS)}"
