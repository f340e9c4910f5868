"""The misplay a camera read would cause, found by the rules engine: the proposed events previewed on a copy.

The camera never judges a placement itself. What it proposes (a location built at a cell) is applied by the
game's engine to a copy of the state (:meth:`companion.flow.GameFlow.preview`: ``Game.apply``, nothing
recorded), after the changes it saw before that nobody has confirmed yet; what the engine finds about each new
card's place is shown at once on the camera panel, with the rule and the fix the engine gives.
"""

from __future__ import annotations

from typing import Any, Collection, Sequence

from companion.camera.questions import Proposal
from rules import Finding, Severity

__all__ = ["misplay_json", "misplays"]

SHOWN = (Severity.ERROR, Severity.WARNING)
"""Severities shown as misplays (an INFO finding is worth knowing, nothing is wrong)."""


def misplay_json(finding: Finding) -> dict[str, Any]:
    """``{"player", "card", "cell": [i, j], "rule": rule kind, "source": the rulebook citation, "message", "fix",
    "severity"}`` of an engine finding about a place (the camera panel's misplay; ``fix`` "" when none)."""
    return {"player": finding.player, "card": finding.card, "cell": list(finding.cell or ()), "rule": finding.rule_kind,
            "source": finding.rule, "message": finding.what, "fix": finding.fix or "", "severity": finding.severity.value}


def _about(finding: Finding, proposal: Proposal) -> bool:
    """Whether ``finding`` is about the place ``proposal`` names (its player and cell)."""
    cell = proposal.place
    return (finding.severity in SHOWN and finding.cell is not None and cell is not None
            and finding.player == proposal.player and list(finding.cell) == cell)


def misplays(flow: Any, chain: Sequence[Proposal], judged: Sequence[Proposal],
             withdraw: Collection[int] = ()) -> list[dict[str, Any]]:
    """What the engine finds wrong with the places ``judged`` names, previewed after the rest of ``chain``.

    Args:
        flow: the game's :class:`companion.flow.GameFlow` (its :meth:`~companion.flow.GameFlow.preview`).
        chain: every proposal to preview, in order: the changes seen before and not confirmed yet (they are on
            the table), then ``judged``.
        judged: the proposals whose findings are shown (each one of ``chain``).
        withdraw: seqs of recorded events left out first, as an undo would (a built card seen moved elsewhere).

    Returns:
        :func:`misplay_json` of each ERROR or WARNING finding about a judged proposal's cell, in order.
    """
    found = flow.preview([(p.kind, p.payload, p.player) for p in chain], withdraw)
    wanted = {id(p) for p in judged}
    return [misplay_json(f) for p, raised in zip(chain, found) if id(p) in wanted for f in raised if _about(f, p)]
