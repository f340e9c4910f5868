"""Eclipse's reputation tiles at the end: does a reported hand of tiles fit the bag?

A player's final position (the ``position_reported`` event) names their reputation tiles by value (1-4 VP).
The bag limits them: the base game has 12 tiles of 1 VP, 9 of 2, 7 of 3 and 4 of 4 (Eclipse, reputation tiles:
the first-edition summary sheet and the official FAQ, rules digest 2.1 row 1). Rise of the Ancients adds tiles for
7-9 players (p.12: 2x4, 3x3, 2x2, 2x1 VP; p.20 says 3x4; the check allows 3, so that no legal report is called
impossible). No player, and no table's reports together, can hold more tiles of a value than the bag has. A report
beyond it is a finding (the report is kept, as the engine keeps every other play that breaks a rule; the table
corrects it).

The reputation track on each species board limits them too: each tile kept and each Ambassador tile received takes
a space, and Diplomatic Fleet adds one (Rise of the Ancients p.5). The number of spaces per species is printed on the
boards and given in no stored rulebook text, so the player gives it (``reputation_slots`` in a score file, "Spaces on
your reputation track" in the Final position form): more tiles and Ambassadors than that is refused, naming both counts
(:func:`rules.eclipse.endgame.parse_player`), and nothing is recorded. Without it the spaces are not checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.eclipse.verdict import Verdict
from rules.text import N_, Text

__all__ = ["BASE_BAG", "BAG_SECTION", "MANY_PLAYERS", "MANY_PLAYERS_EXTRA", "bag", "hand_verdicts", "table_verdicts"]

BASE_BAG = {1: 12, 2: 9, 3: 7, 4: 4}
"""Reputation tiles in the base game's bag, by VP (32 tiles; the first-edition summary sheet and FAQ)."""

MANY_PLAYERS = 7
"""Rise of the Ancients adds its reputation tiles to the bag with 7-9 players (p.12)."""

MANY_PLAYERS_EXTRA = {1: 2, 2: 2, 3: 3, 4: 3}
"""The tiles Rise of the Ancients adds for 7-9 players, by VP: p.12 and p.20 (p.20 gives 3 of 4 VP, p.12 and the
component list 2; the larger count is allowed)."""

BAG_SECTION = N_("Reputation tiles (the bag: 12 of 1 VP, 9 of 2, 7 of 3, 4 of 4); Rise of the Ancients "
                 "p.12: tiles added for 7-9 players")
"""The rule a bag finding cites (``"Eclipse, <section>"``)."""


def bag(players: int) -> dict[int, int]:
    """The reputation tiles in the game's bag by VP (1-4): the base bag, plus Rise of the Ancients' tiles with 7-9
    ``players`` (Rise of the Ancients p.12; more than 6 players play only with it, p.2)."""
    extra = MANY_PLAYERS_EXTRA if players >= MANY_PLAYERS else {}
    return {vp: n + extra.get(vp, 0) for vp, n in BASE_BAG.items()}


def hand_verdicts(player: str, reputation: Sequence[int], in_bag: dict[int, int]) -> list[Verdict]:
    """The findings on one player's reported tiles: a value held more often than ``in_bag`` has it (one verdict a
    value, rule kind ``reputation_bag``). Empty when the report fits.

    ``reputation``: the tiles' VP (1-4 each); ``in_bag``: :func:`bag`.
    """
    out: list[Verdict] = []
    held = Counter(reputation)
    for vp in sorted(held):
        most = in_bag.get(vp, 0)
        if held[vp] > most:
            out.append(Verdict("reputation_bag", False, BAG_SECTION,
                               Text("{player} reports more reputation tiles of {vp} VP than the game has: the bag "
                                    "holds {most}", player=player, vp=vp, most=most),
                               Text("check the values of the reputation tiles")))
    return out


def table_verdicts(hands: Sequence[Sequence[int]], mine: Sequence[int], in_bag: dict[int, int]) -> list[Verdict]:
    """The findings on the reports together: a value the players' hands (``hands``, every reported hand, ``mine``
    among them) hold more often than ``in_bag`` has it, for a value ``mine`` holds and does not exceed alone (that
    is :func:`hand_verdicts`' finding). Rule kind ``reputation_bag``; no player's count is named (the tiles are
    hidden)."""
    total = Counter(vp for hand in hands for vp in hand)
    own = Counter(mine)
    out: list[Verdict] = []
    for vp in sorted(own):
        most = in_bag.get(vp, 0)
        if own[vp] <= most < total[vp]:
            out.append(Verdict("reputation_bag", False, BAG_SECTION,
                               Text("the players' reports together hold more reputation tiles of {vp} VP than the "
                                    "game has: the bag holds {most}", vp=vp, most=most),
                               Text("check the values of the reputation tiles")))
    return out
