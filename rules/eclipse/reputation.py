"""Eclipse's reputation tiles at the end: does a reported hand of tiles fit the bag and the reputation track?

A player's final position (the ``position_reported`` event) names their reputation tiles by value (1-4 VP).
Two things limit them, and a report beyond either is a finding (the report is kept, as the engine keeps every
other play that breaks a rule; the table corrects it):

- **The bag.** The base game has 12 tiles of 1 VP, 9 of 2, 7 of 3 and 4 of 4 (Eclipse, reputation tiles: the
  first-edition summary sheet and the official FAQ, rules digest 2.1 row 1). Rise of the Ancients adds tiles for
  7-9 players (p.12: 2x4, 3x3, 2x2, 2x1 VP; p.20 says 3x4; the check allows 3, so that no legal report is
  called impossible). No player, and no table's reports together, can hold more tiles of a value than the bag has.
- **The reputation track.** The tiles a player keeps lie on their species board's reputation track, whose
  spaces also take the Ambassador tiles received; the Diplomatic Fleet Development holds one more Ambassador
  or reputation tile (Rise of the Ancients p.5). The number of spaces per species is printed on the boards and
  is not in the rulebooks' text: :data:`TRACK_SPACES_MOST` is the largest track of any species as the
  secondary sources give it (UNCONFIRMED), so a report that does not fit on it fits on no board.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.eclipse.verdict import Verdict
from rules.text import N_, Text

__all__ = ["BASE_BAG", "BAG_SECTION", "MANY_PLAYERS", "MANY_PLAYERS_EXTRA", "TRACK_SECTION", "TRACK_SPACES_MOST",
           "bag", "hand_verdicts", "table_verdicts", "track_room"]

BASE_BAG = {1: 12, 2: 9, 3: 7, 4: 4}
"""Reputation tiles in the base game's bag, by VP (32 tiles; the first-edition summary sheet and FAQ)."""

MANY_PLAYERS = 7
"""Rise of the Ancients adds its reputation tiles to the bag with 7-9 players (p.12)."""

MANY_PLAYERS_EXTRA = {1: 2, 2: 2, 3: 3, 4: 3}
"""The tiles Rise of the Ancients adds for 7-9 players, by VP: p.12 and p.20 (p.20 gives 3 of 4 VP, p.12 and the
component list 2; the larger count is allowed)."""

TRACK_SPACES_MOST = 5
"""UNCONFIRMED: the most spaces any species' reputation track has (reputation tiles and Ambassadors together).
The boards print their tracks; no rulebook text gives the sizes, and the secondary sources found give 4 or 5 per
species, never more. The Diplomatic Fleet adds one (Rise of the Ancients p.5)."""

BAG_SECTION = N_("Reputation tiles (the bag: 12 of 1 VP, 9 of 2, 7 of 3, 4 of 4); Rise of the Ancients "
                 "p.12: tiles added for 7-9 players")
"""The rule a bag finding cites (``"Eclipse, <section>"``)."""

TRACK_SECTION = N_("Reputation track (reputation and Ambassador tiles); Rise of the Ancients p.5 Diplomatic Fleet")
"""The rule a track finding cites."""


def bag(players: int) -> dict[int, int]:
    """The reputation tiles in the game's bag by VP (1-4): the base bag, plus Rise of the Ancients' tiles with 7-9
    ``players`` (Rise of the Ancients p.12; more than 6 players play only with it, p.2)."""
    extra = MANY_PLAYERS_EXTRA if players >= MANY_PLAYERS else {}
    return {vp: n + extra.get(vp, 0) for vp, n in BASE_BAG.items()}


def track_room(developments: Iterable[str]) -> int:
    """The most reputation and Ambassador tiles a player's track can hold together: :data:`TRACK_SPACES_MOST`, one
    more with the Diplomatic Fleet (Rise of the Ancients p.5)."""
    return TRACK_SPACES_MOST + (1 if "Diplomatic Fleet" in developments else 0)


def hand_verdicts(player: str, reputation: Sequence[int], ambassadors: int, developments: Iterable[str],
                  in_bag: dict[int, int]) -> list[Verdict]:
    """The findings on one player's reported tiles: a value held more often than ``in_bag`` has it (one verdict a
    value, rule kind ``reputation_bag``), more tiles and Ambassadors than the track holds (``reputation_track``,
    a warning: the track sizes are UNCONFIRMED). Empty when the report fits.

    ``reputation``: the tiles' VP (1-4 each); ``ambassadors``: Ambassador tiles received; ``in_bag``: :func:`bag`.
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
    room = track_room(developments)
    if len(reputation) + ambassadors > room:
        out.append(Verdict("reputation_track", True, TRACK_SECTION,
                           Text("{player}'s reputation track cannot hold the report: reputation tiles {count}, "
                                "Ambassador tiles {ambassadors}, spaces at most {most}", player=player,
                                count=len(reputation), ambassadors=ambassadors, most=room),
                           Text("count the tiles on the reputation track again"), warning=True))
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
