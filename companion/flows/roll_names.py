"""Roll for the Galaxy's round as the table names it (:mod:`companion.flows.roll`): the phases and stages in the
players' edition's words (Roll for the Galaxy, p.3 Rounds, p.4 Phases), the phases' Roman numbers as the round's list
shows them ("II Develop"), and a faction tile named by its two sides (p.2 Setup).
"""

from __future__ import annotations

from typing import Any

from companion.i18n import Text
from rules.roll.data import PHASES
from rules.roll.words import phase_word, stage_word

PHASE_NAMES = {ph: phase_word(ph) for ph in PHASES} | {"manage": stage_word("manage")}
"""The phases and Manage Empire as the players' edition names them (:mod:`rules.roll.words`)."""
STAGE_NAMES = {
    **PHASE_NAMES,
    "roll": stage_word("roll"),
    "assign": stage_word("assign"),
    "reveal": stage_word("reveal"),
}
"""Every stage as the rulebook names it (p.3 Rounds: Roll, Assign, Reveal, the phases, Manage Empire)."""
ROMAN = {"explore": "I", "develop": "II", "settle": "III", "produce": "IV", "ship": "V"}


def _phase_named(phase: str) -> Text:
    """A phase as the round's list names it ("II Develop")."""
    return Text("{number} {phase}", number=ROMAN[phase], phase=PHASE_NAMES[phase])


def _faction_label(f: Any) -> str:
    """A faction tile named by both its sides, as one tile ("Space Piracy / Hidden Fortress"; p.2 Setup: a faction tile
    shows one side but counts both in the tableau)."""
    return " / ".join(f.names)


_SHIP = Text("{number} {phase}", number=ROMAN["ship"], phase=PHASE_NAMES["ship"])
"""The Ship phase as the round's list names it ("V Ship")."""
