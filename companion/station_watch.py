"""Among the Stars at the table: watch each player's station through the camera and flag a
misplaced location the moment it lands (issue 7, "At the table").

The shared watching rules are in :mod:`companion.watch`. The table reader (:func:`vision.cards.read_cards`) gives, per frame, the cards it sees with an
id, an edge-adjacency ``cell`` relative to the player's Main Reactor and a confidence. One
:class:`StationWatcher` per player turns that stream into *changes*:

1. A read is first reduced to a layout ``{cell: card id}`` of the cards identified with
   enough confidence; cards not identified or lying between cells are listed as ``unsure``
   (the players are told what to straighten) and leave their cell out of the layout.
2. A layout becomes the accepted station only after ``confirm_reads`` consecutive reads
   agree (a hand reaching over the table, a card being slid into place).
3. The accepted station is diffed against the previous one: cards ``added`` (a new cell),
   ``moved`` (the same card at another cell) and ``missing`` (no longer seen). Every added or
   moved card is checked with the rules (:func:`rules.among_the_stars.legality.check_placement`
   on the station as it was before) and each broken rule becomes a :class:`Misplay` with the
   rulebook section and a fix ("move it to [0, 1] or [1, 0]", "take it back: ...").

A card that goes missing is kept in the station (cards are never removed in play; a hand or a
glare patch may hide it) and reported once, so nothing already recorded is lost.

Nothing here talks to the camera or the screen: the flow feeds reads in and shows
:meth:`StationChange.to_json` on the touchscreen and the phone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.watch import AgreeingReads, SeenCard, check_confidence, seen_cards
from rules.among_the_stars.data import Catalogue, UnknownCard, catalogue
from rules.among_the_stars.legality import check_placement, fix_for, rule_citation
from rules.among_the_stars.station import Cell, Placed, Station, neighbour_cells
from rules.core import Severity

__all__ = ["Misplay", "SeenCard", "StationChange", "StationWatcher", "seen_cards"]

MAIN_REACTOR_CELL: Cell = (0, 0)


@dataclass(frozen=True)
class Misplay:
    """A rule a newly placed card breaks, with what to do about it.

    Attributes:
        player: the station's owner.
        card: the card's printed name.
        cell: where it lies, ``(row, column)`` from the Main Reactor.
        rule: short rule id (see :data:`rules.among_the_stars.legality.RULES`).
        source: the rulebook section (``"Among the Stars, rulebook 4 'Build a location': ..."``).
        message: what is wrong, one sentence.
        fix: what to do, one sentence (empty for warnings).
        severity: ERROR when the rule is surely broken, WARNING when it may be (e.g. energy
            cubes the camera cannot count).
    """

    player: str
    card: str
    cell: Cell
    rule: str
    source: str
    message: str
    fix: str
    severity: Severity = Severity.ERROR

    def to_json(self) -> dict[str, Any]:
        """``{"player", "card", "cell": [i, j], "rule", "source", "message", "fix", "severity"}``."""
        return {"player": self.player, "card": self.card, "cell": list(self.cell), "rule": self.rule,
                "source": self.source, "message": self.message, "fix": self.fix, "severity": self.severity.value}


@dataclass(frozen=True)
class StationChange:
    """What changed in one player's station between two accepted reads.

    Attributes:
        player: the station's owner.
        added: ``(card name, cell)`` of each card newly in the station, in the order checked
            (cards joined to the station first).
        moved: ``(card name, from cell, to cell)``.
        missing: ``(card name, cell)`` no longer seen (kept in the station).
        misplays: every rule broken by an added or moved card.
        station: the accepted station, ``[{"card": id, "cell": [i, j]}]`` in row/column order.
    """

    player: str
    added: tuple[tuple[str, Cell], ...] = ()
    moved: tuple[tuple[str, Cell, Cell], ...] = ()
    missing: tuple[tuple[str, Cell], ...] = ()
    misplays: tuple[Misplay, ...] = ()
    station: tuple[Mapping[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """JSON for the views: ``{"player", "added": [{"card", "cell"}], "moved": [{"card", "from", "to"}],
        "missing": [{"card", "cell"}], "misplays": [Misplay.to_json()], "station": [...]}``."""
        return {
            "player": self.player,
            "added": [{"card": c, "cell": list(cell)} for c, cell in self.added],
            "moved": [{"card": c, "from": list(a), "to": list(b)} for c, a, b in self.moved],
            "missing": [{"card": c, "cell": list(cell)} for c, cell in self.missing],
            "misplays": [m.to_json() for m in self.misplays],
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
    def observe(self, seen: Sequence[SeenCard], *, credits: int | None = None,
                station: Station | None = None) -> StationChange | None:
        """Feed one read; return the change once ``confirm_reads`` reads agree on a new layout.

        Args:
            seen: the cards seen in this player's zone in one frame.
            credits: the player's credits before the new card was paid for (None: not checked).
            station: the engine's station for this player (reactor cubes as played), used as the
                "before" station of the checks; None builds one from the accepted layout with
                every reactor holding its starting cubes (energy problems then only WARN: the
                camera does not count cubes).

        Returns:
            None while nothing new is confirmed; else the change (also when it only reports
            missing cards).
        """
        layout, self.unsure = self._layout(seen)
        if not self._agree.feed(layout):
            return None
        return self._accept(layout, credits, station)

    def _layout(self, seen: Sequence[SeenCard]) -> tuple[dict[Cell, str], list[str]]:
        layout: dict[Cell, str] = {}
        unsure: list[str] = []
        best: dict[Cell, float] = {}
        for s in seen:
            if s.cell is None:
                what = self._name(s.card) if s.card and s.confidence >= self.min_confidence else "a card"
                unsure.append(f"{what} lies between cells: push it flush against its neighbour")
                continue
            if s.card is None or s.confidence < self.min_confidence:
                unsure.append(f"the card at {_text(s.cell)} is not recognised yet")
                continue
            try:
                card_id = self.cat.card(s.card).id
            except UnknownCard:
                unsure.append(f"the card at {_text(s.cell)} ({s.card!r}) is not an Among the Stars card")
                continue
            if s.confidence > best.get(s.cell, -1.0):
                layout[s.cell], best[s.cell] = card_id, s.confidence
        return layout, unsure

    def _accept(self, layout: dict[Cell, str], credits: int | None, station: Station | None) -> StationChange | None:
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

        base = station if station is not None else self._station(before)
        cubes_known = station is not None
        for _, a, _ in moved:
            base = base.without(a)
            before.pop(a, None)
        misplays: list[Misplay] = []
        added: list[tuple[str, Cell]] = []
        for cell in self._check_order(base, new):
            n = new[cell]
            card = self.cat.card(n)
            if base.at(cell) is not None:  # a different card seen where one was built
                misplays.append(Misplay(self.player, card.name, cell, "cell_taken", rule_citation("cell_taken"),
                                        f"{card.name} is seen at {_text(cell)}, where {base.at(cell).name} was built",
                                        "check the card: one card per cell (a misread, or a card laid on top)",
                                        Severity.WARNING))
                continue
            issues = check_placement(base, card, cell, credits=credits, cat=self.cat)
            fix = fix_for(issues, base, card, cell, credits=credits, cat=self.cat)
            for i in issues:
                sev = i.severity
                if not cubes_known and i.rule in ("energy_range", "energy_cubes"):
                    sev = Severity.WARNING
                misplays.append(Misplay(self.player, card.name, cell, i.rule, rule_citation(i.rule), i.message,
                                        fix if sev is Severity.ERROR else "", sev))
            base = base.with_card(Placed(card, cell, cubes=card.start_cubes if card.is_reactor else 0,
                                         year=1, order=base.next_order))
            if not any(m[2] == cell for m in moved):
                added.append((card.name, cell))
            before[cell] = n
        self.layout = before
        for n, c in missing:  # kept: a hidden card is still built
            self.layout.setdefault(c, n)
        return StationChange(
            player=self.player,
            added=tuple(added),
            moved=tuple((self.cat.card(n).name, a, b) for n, a, b in moved),
            missing=tuple((self.cat.card(n).name, c) for n, c in report_missing),
            misplays=tuple(misplays),
            station=tuple({"card": n, "cell": list(c)} for c, n in sorted(self.layout.items())),
        )

    # -- helpers ---------------------------------------------------------------------------
    def _station(self, layout: Mapping[Cell, str]) -> Station:
        cards = []
        for k, (cell, n) in enumerate(sorted(layout.items(), key=lambda kv: kv[0] != MAIN_REACTOR_CELL)):
            card = self.cat.card(n)
            cards.append(Placed(card, cell, cubes=card.start_cubes if card.is_reactor else 0, order=k))
        return Station(tuple(cards))

    @staticmethod
    def _check_order(station: Station, new: Mapping[Cell, str]) -> list[Cell]:
        """New cells, those joined to the station first (two cards built in one missed read are
        checked as a chain, not both against the old station), then row/column order."""
        left, order = set(new), []
        have = set(station.cells)
        while left:
            ready = sorted(c for c in left if any(nb in have for nb in neighbour_cells(c)))
            pick = ready[0] if ready else min(left)
            order.append(pick)
            left.discard(pick)
            have.add(pick)
        return order

    def _name(self, card: str) -> str:
        try:
            return self.cat.card(card).name
        except UnknownCard:
            return repr(card)


def _text(cell: Cell) -> str:
    return f"[{cell[0]}, {cell[1]}]"
