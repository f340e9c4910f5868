"""VP chips with no good consumed behind them: the question both Galaxy games ask at the end of the phase that pays
VP chips for goods.

In Race for the Galaxy VP chips come from consume powers (IV Consume: goods, or cards from hand as Deficit Spending);
in Roll for the Galaxy from a shipper that consumes a good (p.7 Ship). A player's phone reports the chips and the
good on their own, in either order, so the question is asked once the phase is over, when every report of it is in:
a phone that reported the chips before the good it consumed is not asked. Nothing is refused (a WARNING): a power
the table knows of may have paid them.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import Severity
from rules.engine import EventContext
from rules.text import Text

__all__ = ["ask_chips_without_goods"]


def ask_chips_without_goods(ctx: EventContext, taken: Iterable[tuple[str, int]], phase: str, section: str) -> None:
    """One WARNING finding per player who took VP chips in the phase just over and consumed no good in it.

    Args:
        ctx: the event that ends the phase (Race's ``phase_done``, Roll's ``phase``).
        taken: ``(player, VP in chips taken in the phase)`` of each player whose chips no good consumed in it (nor,
            Race, a power paying VP for cards from hand) explains; a player with 0 is not asked.
        phase: the phase as the table names it ("IV Consume", "V Ship").
        section: the rulebook section cited (the game's title is added by the engine).
    """
    for player, vp in taken:
        if vp > 0:
            ctx.finding(Text("{player} took {vp} VP in chips in {phase} and no good of theirs was consumed in it: "
                             "which consume power paid them?", player=player, vp=vp, phase=phase),
                        Text("{player}: VP chips", player=player), Severity.WARNING, section)
