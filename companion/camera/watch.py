"""Camera reads of the cards in front of a player -> confirmed changes the players answer with one tap.

Shared by the games whose components the table reader identifies (issue 5, "Wired into the
games"): Race for the Galaxy and Roll for the Galaxy tableaus (:class:`TableauWatcher`) and Among
the Stars stations (:class:`companion.station_watch.StationWatcher`). Both follow the same rules:

- a read only counts once ``confirm_reads`` consecutive reads agree (:class:`AgreeingReads`: a hand
  reaching over the table, a card being slid into place);
- a card identified below ``min_confidence``, or not in the game's data, is never added: it is
  listed as *unsure* with what to do;
- a difference from what the rules already hold is *reported* for the players to confirm; nothing
  here changes the game state, and a card no longer seen is never dropped from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.i18n import Text

__all__ = ["AgreeingReads", "SeenCard", "TableauChange", "TableauWatcher", "seen_cards"]

Cell = tuple[int, int]
T = TypeVar("T")


@dataclass(frozen=True)
class SeenCard:
    """One card the camera sees in a player's zone.

    Attributes:
        card: the card id or name as in the game's data, or None when the reader could not identify it.
        cell: ``(row offset, column offset)`` from the zone's anchor card in card pitches (Among the
            Stars), or None (between cells, or a game without an anchor).
        confidence: 0..1 that ``card`` is right.
    """

    card: str | None
    cell: Cell | None = None
    confidence: float = 1.0


def seen_cards(observations: Iterable[Any], zone: str | None = None) -> list[SeenCard]:
    """:class:`SeenCard` list from table-reader observations (objects with ``id``, ``cell``,
    ``confidence`` and ``zone`` attributes, as :class:`vision.observations.CardObservation`), keeping only
    those in ``zone`` when it is given."""
    out = []
    for o in observations:
        if zone is not None and getattr(o, "zone", None) != zone:
            continue
        cell = None if o.cell is None else (int(o.cell[0]), int(o.cell[1]))
        out.append(SeenCard(o.id, cell, float(o.confidence)))
    return out


class AgreeingReads(Generic[T]):
    """Accepts a value once ``needed`` consecutive reads gave it (and for as long as they keep giving it).

    Raises:
        ValueError: ``needed`` < 1.
    """

    def __init__(self, needed: int) -> None:
        if needed < 1:
            raise ValueError(f"confirm_reads must be at least 1, got {needed}")
        self.needed = needed
        self._value: T | None = None
        self._times = 0

    def feed(self, value: T) -> bool:
        """Record one read; True when ``value`` has now been read ``needed`` times in a row."""
        if self._times == 0 or value != self._value:
            self._value, self._times = value, 0
        self._times += 1
        return self._times >= self.needed


def check_confidence(min_confidence: float) -> float:
    """``min_confidence`` if within 0..1. Raises ValueError naming it otherwise."""
    if not 0.0 <= min_confidence <= 1.0:
        raise ValueError(f"min_confidence must be within 0..1, got {min_confidence}")
    return min_confidence


@dataclass(frozen=True)
class TableauChange:
    """How a player's tableau as seen differs from the tableau the rules hold.

    Attributes:
        player: the tableau's owner.
        added: card names seen but not in the rules' tableau (to confirm as built / placed).
        missing: card names in the rules' tableau but not seen (hidden, or recorded by mistake).
        unsure: what the players should straighten for a clean read, one sentence each.
    """

    player: str
    added: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    unsure: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"player", "added": [names], "missing": [names], "unsure": [sentences]}``."""
        return {
            "player": self.player,
            "added": list(self.added),
            "missing": list(self.missing),
            "unsure": list(self.unsure),
        }


class TableauWatcher:
    """Successive camera reads of one player's tableau -> :class:`TableauChange` when it differs from
    the rules' tableau (Race for the Galaxy cards, Roll for the Galaxy tiles).

    Args:
        player: the tableau's owner.
        resolve: card id or name from the reader -> the card's name in the game's data; returns None
            or raises ``LookupError`` / ``ValueError`` for a card the game does not have.
        confirm_reads: identical consecutive reads needed (>= 1).
        min_confidence: identifications below this (0..1) are unsure.

    Raises:
        ValueError: ``confirm_reads`` < 1 or ``min_confidence`` outside 0..1.
    """

    def __init__(self, player: str, resolve: Callable[[str], str | None], *, confirm_reads: int = 2,
                 min_confidence: float = 0.6) -> None:
        self.player = player
        self.resolve = resolve
        self.min_confidence = check_confidence(min_confidence)
        self._agree: AgreeingReads[tuple[tuple[str, ...], tuple[str, ...]]] = AgreeingReads(confirm_reads)
        self._reported: TableauChange | None = None
        self.unsure: list[str] = []
        self.matches = False
        """Whether the reads last agreed on exactly the rules' tableau (nothing added, nothing missing)."""

    def observe(self, seen: Sequence[SeenCard], tableau: Sequence[str]) -> TableauChange | None:
        """Feed one read of this player's zone; ``tableau`` is the rules' tableau now (card names).

        Returns the change once ``confirm_reads`` reads agree on it, and only when it differs from the
        change reported last (so each difference is asked about once); None otherwise, and None once
        the tableau seen and the rules' tableau agree again.
        """
        names: list[str] = []
        unsure: list[str] = []
        for s in seen:
            if s.card is None or s.confidence < self.min_confidence:
                unsure.append(Text("a card is not recognised yet: straighten it, move hands and glare away"))
                continue
            try:
                name = self.resolve(s.card)
            except (LookupError, ValueError):
                name = None
            if name is None:
                unsure.append(Text("{card!r} is not a card of this game", card=s.card))
                continue
            names.append(name)
        self.unsure = unsure
        have, want = Counter(names), Counter(tableau)
        added = tuple(sorted((have - want).elements()))
        missing = tuple(sorted((want - have).elements()))
        if not self._agree.feed((added, missing)):
            return None
        self.matches = not added and not missing
        if self.matches:
            self._reported = None
            return None
        change = TableauChange(self.player, added, missing, tuple(unsure))
        if self._reported is not None and (self._reported.added, self._reported.missing) == (added, missing):
            return None
        self._reported = change
        return change
