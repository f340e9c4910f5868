"""A rule's verdict: the one record every Eclipse check returns (placements, rounds, combat).

A verdict names its ``rule_kind`` (a short stable id), whether the play keeps the rule, the rulebook
section, a message and a fix in the players' words; :meth:`Verdict.finding` makes it the core's
:class:`rules.core.Finding`, cited ``"Eclipse, <section>"``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rules.core import Finding, Severity, citation
from rules.eclipse.data import TITLE

__all__ = ["Cell", "Verdict", "legal"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Verdict:
    """One rule's verdict on a play (a placement, an action, a die read).

    Attributes:
        rule_kind: the rule's stable id (``ring_mismatch``, ``full_wormhole``, ``out_of_turn``, ...; the
            placement kinds are listed in :mod:`rules.eclipse.placement`).
        legal: the play keeps this rule.
        section: the rulebook section (cited as ``"Eclipse, <section>"``).
        message: one sentence a player understands.
        fix: what the players can do ("rotate it 2 steps clockwise so its wormhole faces yours"), or None.
        warning: legal but worth asking about (a WARNING finding instead of INFO).
    """

    rule_kind: str
    legal: bool
    section: str
    message: str
    fix: str | None = None
    warning: bool = False

    @property
    def severity(self) -> Severity:
        """ERROR when it breaks the rule, WARNING to ask, INFO when the play keeps it."""
        if not self.legal:
            return Severity.ERROR
        return Severity.WARNING if self.warning else Severity.INFO

    def finding(self, *, seq: int | None = None, player: str | None = None, card: str | None = None,
                cell: Cell | None = None, where: str = "map") -> Finding:
        """This verdict as a :class:`rules.core.Finding` citing ``"Eclipse, <section>"``."""
        return Finding(self.message, where, self.severity, citation(TITLE, self.section), seq, player=player,
                       card=card, cell=None if cell is None else tuple(cell), fix=self.fix, rule_kind=self.rule_kind)


def legal(verdicts: Iterable[Verdict]) -> bool:
    """No verdict breaks a rule."""
    return all(v.legal for v in verdicts)
