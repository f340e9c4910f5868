"""Among the Stars at the table: watch each player's station through the camera (issue 7, "At the table").

The shared watching rules are in :mod:`companion.camera.watch`. The table reader (:func:`vision.cards.read_cards`)
gives, per frame, the cards it sees with an id, an edge-adjacency ``cell`` relative to the player's Main Reactor
and a confidence. One :class:`StationWatcher` per player turns that stream into *changes*:

1. A read is first reduced to a layout ``{cell: card id}`` of the cards identified with
   enough confidence; cards not identified or lying between cells are listed as ``unsure``
   (the players are told what to straighten) and leave their cell out of the layout, as do the copies of a card
   beyond the copies the box holds (those the station already holds kept first, then the surest reads).
2. A layout becomes the accepted station only after ``confirm_reads`` consecutive reads
   agree (a hand reaching over the table, a card being slid into place).
3. The accepted station is diffed against the previous one: cards ``added`` (a new cell),
   ``moved`` (the same card at another cell), ``replaced`` (another card seen where one lies) and ``missing``
   (no longer seen), with every new place in the order a station grows (:attr:`StationChange.placed`: cards
   joined to the station first, so two cards built in one missed read are judged as a chain).

The watcher never judges a placement: the game's camera part previews what each new card would be as an event
through the rules engine (:mod:`companion.camera.preview`), which gives the rule broken and the fix.

A card that goes missing is kept in the station (cards are never removed in play; a hand or a
glare patch may hide it) and reported once, so nothing already recorded is lost.

Nothing here talks to the camera or the screen: the flow feeds reads in and shows what it makes of the changes.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.camera.watch import AgreeingReads, SeenCard, check_confidence, seen_cards
from companion.i18n import Text, plural
from rules.among_the_stars.data import Catalogue, UnknownCard, catalogue
from rules.among_the_stars.station import Cell, neighbour_cells, station_place

__all__ = ["SeenCard", "StationChange", "StationWatcher", "growth_order", "seen_cards"]

MAIN_REACTOR_CELL: Cell = (0, 0)


def growth_order(station: Collection[Cell], new: Collection[Cell]) -> list[Cell]:
    """``new`` cells in the order a station grows from ``station``'s cells: each time the first (row, column)
    of those sharing an edge with what is there, else the first left; so a card is placed after the card it
    joins to."""
    left, order = set(new), []
    have = set(station)
    while left:
        ready = sorted(c for c in left if any(nb in have for nb in neighbour_cells(c)))
        pick = ready[0] if ready else min(left)
        order.append(pick)
        left.discard(pick)
        have.add(pick)
    return order


@dataclass(frozen=True)
class StationChange:
    """What changed in one player's station between two accepted reads.

    Attributes:
        player: the station's owner.
        added: ``(card name, cell)`` of each card newly in the station, in :attr:`placed` order.
        moved: ``(card name, from cell, to cell)``.
        replaced: ``(card name, cell)`` of a card seen where another one lies (kept: one card per cell).
        missing: ``(card name, cell)`` no longer seen (kept in the station).
        placed: every card seen at a new place (added, moved to, replaced), ``(card name, cell)`` in the order
            the station grows (:func:`growth_order`).
        station: the accepted station, ``[{"card": id, "cell": [i, j]}]`` in row/column order.
    """

    player: str
    added: tuple[tuple[str, Cell], ...] = ()
    moved: tuple[tuple[str, Cell, Cell], ...] = ()
    replaced: tuple[tuple[str, Cell], ...] = ()
    missing: tuple[tuple[str, Cell], ...] = ()
    placed: tuple[tuple[str, Cell], ...] = ()
    station: tuple[Mapping[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """JSON for the views: ``{"player", "added": [{"card", "cell"}], "moved": [{"card", "from", "to"}],
        "replaced": [{"card", "cell"}], "missing": [{"card", "cell"}], "station": [...]}``."""
        return {
            "player": self.player,
            "added": [{"card": c, "cell": list(cell)} for c, cell in self.added],
            "moved": [{"card": c, "from": list(a), "to": list(b)} for c, a, b in self.moved],
            "replaced": [{"card": c, "cell": list(cell)} for c, cell in self.replaced],
            "missing": [{"card": c, "cell": list(cell)} for c, cell in self.missing],
            "station": [dict(s) for s in self.station],
        }


class StationWatcher:
    """Successive camera reads of one player's station -> confirmed :class:`StationChange` s.

    Args:
        player: the station's owner (names the findings).
        confirm_reads: identical consecutive layouts needed before a change is accepted (>= 1).
        min_confidence: identifications below this (0..1) are ``unsure``, never built on.
        cat: the Among the Stars catalogue (default: the shipped data).
        main_reactor: id of the card at (0, 0) (``"vak_main_reactor"`` for a Vak player).

    Raises:
        ValueError: ``confirm_reads`` < 1 or ``min_confidence`` outside 0..1.
    """

    def __init__(self, player: str, *, confirm_reads: int = 2, min_confidence: float = 0.6,
                 cat: Catalogue | None = None, main_reactor: str = "main_reactor") -> None:
        self.player = player
        self._agree: AgreeingReads[dict[Cell, str]] = AgreeingReads(confirm_reads)
        self.min_confidence = check_confidence(min_confidence)
        self.cat = cat or catalogue()
        self.layout: dict[Cell, str] = {MAIN_REACTOR_CELL: self.cat.card(main_reactor).id}
        self.unsure: list[str] = []
        self._reported_missing: set[tuple[str, Cell]] = set()

    # -- reads -----------------------------------------------------------------------------
    def observe(self, seen: Sequence[SeenCard]) -> StationChange | None:
        """Feed one read; return the change once ``confirm_reads`` reads agree on a new layout.

        Args:
            seen: the cards seen in this player's zone in one frame.

        Returns:
            None while nothing new is confirmed; else the change (also when it only reports
            missing cards).
        """
        layout, self.unsure = self._layout(seen)
        if not self._agree.feed(layout):
            return None
        return self._accept(layout)

    def _layout(self, seen: Sequence[SeenCard]) -> tuple[dict[Cell, str], list[str]]:
        layout: dict[Cell, str] = {}
        unsure: list[str] = []
        between: list[str] = []   # grouped below: an uncalibrated table may show many at each read
        unread: list[str] = []
        best: dict[Cell, float] = {}
        if seen and all(s.cell is None for s in seen):   # no Main Reactor here: no card has a cell (rulebook 3 Setup)
            return layout, [Text("no {reactor} seen in {player}'s part of the table: a station's cells are counted "
                                 "from it (is the station in its player's part of the table?)",
                                 reactor=self._name(self.layout[MAIN_REACTOR_CELL]), player=self.player)]
        for s in seen:
            if s.cell is None:
                what = self._name(s.card) if s.card and s.confidence >= self.min_confidence else Text("a card")
                between.append(Text("{card} lies between cells: push it flush against its neighbour (rulebook 5.1 "
                                    "'Grid and adjacency': a card shares a full edge with its station)", card=what))
                continue
            if s.card is None or s.confidence < self.min_confidence:
                unread.append(Text("the card {cell} is not recognised yet", cell=_text(s.cell)))
                continue
            try:
                card_id = self.cat.card(s.card).id
            except UnknownCard:
                unsure.append(Text("the card {cell} ({card!r}) is not an Among the Stars card", cell=_text(s.cell),
                                   card=s.card))
                continue
            if s.confidence > best.get(s.cell, -1.0):
                layout[s.cell], best[s.cell] = card_id, s.confidence
        # no station holds more copies of a card than the box (rulebook 2 'Components'): the reads beyond them are a
        # question, not cards; the copies the station already holds keep their cells first (a surer read of a copy
        # elsewhere is the new card misread, not the built one moved), then the surest reads
        cells: dict[str, list[Cell]] = {}
        for cell, card_id in layout.items():
            cells.setdefault(card_id, []).append(cell)
        for card_id, at in cells.items():
            copies = self.cat.card(card_id).copies
            kept = sorted(at, key=lambda c: (self.layout.get(c) != card_id, -best[c]))
            for cell in kept[copies:] if 0 < copies < len(at) else ():
                del layout[cell]
                unread.append(Text("the card {cell} is not recognised yet", cell=_text(cell)))
        return layout, _grouped(between, unread) + unsure

    def _accept(self, layout: dict[Cell, str]) -> StationChange | None:
        before = dict(self.layout)
        seen_now = dict(layout)
        # the Main Reactor is the anchor; (0, 0) always holds it
        seen_now.pop(MAIN_REACTOR_CELL, None)
        gone = {c: n for c, n in before.items() if c != MAIN_REACTOR_CELL and seen_now.get(c) != n}
        new = {c: n for c, n in seen_now.items() if before.get(c) != n}
        moved: list[tuple[str, Cell, Cell]] = []
        for c, n in list(new.items()):
            origin = next((g for g, m in gone.items() if m == n), None)
            if origin is not None:
                moved.append((n, origin, c))
                del gone[origin]
        missing = [(n, c) for c, n in gone.items() if c not in new]
        replaced_cells = [c for c in gone if c in new]  # another card now seen where one was
        for c in replaced_cells:
            missing.append((gone[c], c))
        report_missing = [(n, c) for n, c in missing if (n, c) not in self._reported_missing]
        self._reported_missing.update(missing)
        if not new and not report_missing:
            return None
        for _, a, _ in moved:
            before.pop(a, None)
        moved_to = {b for _, _, b in moved}
        order = growth_order(before, new)
        added = [(n, c) for c, n in ((c, new[c]) for c in order) if c not in moved_to and c not in before]
        replaced = [(new[c], c) for c in order if c in before]
        for c in order:
            if c not in before:  # one card per cell: a card seen on another is not taken into the station
                before[c] = new[c]
        self.layout = before
        for n, c in missing:  # kept: a hidden card is still built
            self.layout.setdefault(c, n)
        name = self._name
        return StationChange(
            player=self.player,
            added=tuple((name(n), c) for n, c in added),
            moved=tuple((name(n), a, b) for n, a, b in moved),
            replaced=tuple((name(n), c) for n, c in replaced),
            missing=tuple((name(n), c) for n, c in report_missing),
            placed=tuple((name(new[c]), c) for c in order),
            station=tuple({"card": n, "cell": list(c)} for c, n in sorted(self.layout.items())),
        )

    # -- helpers ---------------------------------------------------------------------------
    def _name(self, card: str) -> str:
        try:
            return self.cat.card(card).word
        except UnknownCard:
            return repr(card)


def _text(cell: Cell) -> Text:
    """A station place as the player finds it from their Main Reactor (rules' ``station_place``)."""
    return station_place(cell)


GROUPED_FROM = 3
"""As many notes of one kind on one read (cards between cells, cards not recognised) are said as one note with their
count: a table read with no calibration may leave most cards of a station unrecognised, and a line each at every read
buries the notes that matter."""


def _grouped(between: list[str], unread: list[str]) -> list[str]:
    """The notes of cards between cells and of cards not recognised, each kind as its own lines while there are fewer
    than :data:`GROUPED_FROM`, else one line with the count ("3 cards are not recognised yet: …")."""
    out: list[str] = []
    if len(between) >= GROUPED_FROM:
        out.append(plural("{n} card lies between cells: push it flush against its neighbour (rulebook 5.1 'Grid and "
                          "adjacency': a card shares a full edge with its station)",
                          "{n} cards lie between cells: push each flush against its neighbour (rulebook 5.1 'Grid and "
                          "adjacency': a card shares a full edge with its station)", len(between)))
    else:
        out += between
    if len(unread) >= GROUPED_FROM:
        out.append(plural("{n} card is not recognised yet: straighten it, move hands and glare away",
                          "{n} cards are not recognised yet: straighten them, move hands and glare away", len(unread)))
    else:
        out += unread
    return out
