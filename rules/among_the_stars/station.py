"""A space station: cards on a square grid around the Main Reactor, with edge adjacency and
path distance.

Rulebook 4 'Build a location': two locations are adjacent when they touch along an
edge; diagonal is *not* adjacent. Distance is counted through built locations that
touch along their edges, one location = one unit; the FAQ's A/B picture gives 4, not 2,
because there is no direct link (digest §5.2). So distances here are BFS steps through
placed cards; empty cells are never crossed. A face-down Power Reactor put into a split
at the end of a year (rulebook 5 'Round end') is a path cell but not a location.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.among_the_stars.data import COLOURS, MAIN_REACTOR, CardDef, catalogue
from rules.text import N_, Text

__all__ = ["ORIGIN", "Cell", "Placed", "Station", "neighbour_cells", "reactor_named", "station_place"]

Cell = tuple[int, int]
ORIGIN: Cell = (0, 0)


def neighbour_cells(cell: Cell) -> tuple[Cell, ...]:
    """The four edge-adjacent cells (diagonals are not adjacent)."""
    i, j = cell
    return ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1))


def station_place(cell: Any) -> Text:
    """Where ``cell`` (``[row, column]`` from the Main Reactor, rows down and columns right as the reactor reads: the
    station's grid, rulebook 5.1 'Grid and adjacency') lies as a player finds it on their own station: "2 above and 1
    right of the Main Reactor" (above: farther from the player who reads the reactor upright). The Main Reactor's own
    cell is the reactor itself. Every player text naming a station place says it this way (the camera's questions,
    findings, notes, the phone's choices); JSON keeps the cell as ``[row, column]``.

    Raises:
        ValueError: ``cell`` is not two whole numbers (text such as "12", a number with a fraction, an infinite one
            or a truth value is not read as a place).
    """
    row, col = _whole_pair(cell)
    reactor = catalogue().card(MAIN_REACTOR).word
    rows, cols = abs(row), abs(col)
    if row and col:
        template = {(True, True): N_("{rows} above and {cols} right of the {reactor}"),
                    (True, False): N_("{rows} above and {cols} left of the {reactor}"),
                    (False, True): N_("{rows} below and {cols} right of the {reactor}"),
                    (False, False): N_("{rows} below and {cols} left of the {reactor}")}[(row < 0, col > 0)]
        return Text(template, rows=rows, cols=cols, reactor=reactor)
    if row:
        return (Text("{rows} above the {reactor}", rows=rows, reactor=reactor) if row < 0
                else Text("{rows} below the {reactor}", rows=rows, reactor=reactor))
    if col:
        return (Text("{cols} right of the {reactor}", cols=cols, reactor=reactor) if col > 0
                else Text("{cols} left of the {reactor}", cols=cols, reactor=reactor))
    return Text("on the {reactor}", reactor=reactor)


def reactor_named(word: Any, cell: Any) -> Any:
    """A reactor as a player finds it on their station: ``word`` (the card's name as the edition prints it) with its
    place from the Main Reactor, "Power Reactor (1 below the Main Reactor)"; the Main Reactor's own cell by its name
    alone (every place is counted from it: "Main Reactor", never "Main Reactor (on the Main Reactor)").

    Raises:
        ValueError: ``cell`` is not two whole numbers (:func:`station_place`).
    """
    if _whole_pair(cell) == (0, 0):
        return word
    return Text("{reactor} ({place})", reactor=word, place=station_place(cell))


def _whole_pair(cell: Any) -> tuple[int, int]:
    """``cell`` as ``(row, column)``: two whole numbers (a float with no fraction counts), else ValueError."""
    bad = ValueError(f"a station cell is [row, column], got {cell!r}")
    if isinstance(cell, (str, bytes, Mapping)):
        raise bad
    try:
        pair = list(cell)
    except TypeError as exc:
        raise bad from exc
    if len(pair) != 2 or any(isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__index__")
                             for v in pair):
        raise bad
    if any(isinstance(v, float) and not (math.isfinite(v) and v.is_integer()) for v in pair):
        raise bad
    return int(pair[0]), int(pair[1])


@dataclass(frozen=True)
class Placed:
    """One card in a station.

    Attributes:
        card: the printed card.
        cell: its grid cell; the Main Reactor is at (0, 0).
        cubes: energy cubes on it now (reactors only).
        year: the year it was built (1-4; 0 for the Main Reactor).
        order: build order in the station (ties within a year are unknown from a camera read:
            ``order`` is then the list order, which checks treat as unknown within a year).
        face_down: a face-down Power Reactor filling a split (not a location, no cubes).
        vp_earned: VP scored when it was built, if known (engine); None from a camera read.
        cubes_spent: cubes paid for it, if known.
    """

    card: CardDef
    cell: Cell
    cubes: int = 0
    year: int = 0
    order: int = 0
    face_down: bool = False
    vp_earned: int | None = None
    cubes_spent: int | None = None
    flags: tuple[str, ...] = ()  # rule ids it broke when built (engine), removed at the year's end

    @property
    def name(self) -> str:
        return "face-down Power Reactor" if self.face_down else self.card.name

    @property
    def word(self) -> str:
        """:attr:`name` as the players' edition prints it (for messages)."""
        return Text("face-down Power Reactor") if self.face_down else self.card.word

    @property
    def is_location(self) -> bool:
        """Locations include the reactors (rulebook 4: 'Az Erőművek helyszínnek számítanak'), not face-down fillers."""
        return not self.face_down

    @property
    def is_reactor(self) -> bool:
        """A power source: a Power Reactor or the Main Reactor ('Counts as a Power Reactor'); never a face-down
        filler."""
        return self.card.is_reactor and not self.face_down

    def has_colour(self, colour: str) -> bool:
        """Whether it counts as a location of ``colour`` (the Vak Main Reactor counts as every type)."""
        return not self.face_down and (self.card.colour == colour or self.card.all_types)

    def colours(self) -> tuple[str, ...]:
        if self.face_down:
            return ()
        if self.card.all_types:
            return COLOURS
        return (self.card.colour,) if self.card.colour else ()


@dataclass(frozen=True)
class Station:
    """The cards of one player's station, in build order."""

    cards: tuple[Placed, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_cell", {p.cell: p for p in self.cards})

    # -- look-ups ---------------------------------------------------------------------
    def __iter__(self) -> Iterator[Placed]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def at(self, cell: Cell) -> Placed | None:
        return self._by_cell.get(cell)  # type: ignore[attr-defined]

    @property
    def cells(self) -> frozenset[Cell]:
        return frozenset(self._by_cell)  # type: ignore[attr-defined]

    @property
    def main_reactor(self) -> Placed | None:
        return next((p for p in self.cards if p.card.is_main_reactor and not p.face_down), None)

    @property
    def next_order(self) -> int:
        """The build order for the next card (one past the highest, even after removals)."""
        return max((p.order for p in self.cards), default=-1) + 1

    def neighbours(self, cell: Cell) -> list[Placed]:
        """Cards edge-adjacent to ``cell``."""
        return [p for c in neighbour_cells(cell) if (p := self.at(c)) is not None]

    def locations(self) -> list[Placed]:
        return [p for p in self.cards if p.is_location]

    def reactors(self) -> list[Placed]:
        return [p for p in self.cards if p.is_reactor]

    def count_colour(self, colour: str) -> int:
        return sum(1 for p in self.cards if p.has_colour(colour))

    def count_kind(self, kind: str) -> int:
        return sum(1 for p in self.cards if not p.face_down and p.card.kind == kind)

    def types_present(self) -> set[str]:
        return {c for p in self.cards for c in p.colours()}

    def non_reactor_locations(self) -> int:
        """Locations not counting Power Reactors or the Main Reactor (tie-break, Marvels in Space)."""
        return sum(1 for p in self.cards if p.is_location and not p.card.is_reactor)

    # -- paths ------------------------------------------------------------------------
    def distances(self, start: Cell, cells: Iterable[Cell] | None = None) -> dict[Cell, int]:
        """BFS steps from ``start`` to every card reachable through edge-adjacent cards.

        ``cells`` limits the walk to those cells (a station as it was earlier); ``start``
        itself is always walkable, so a cell about to be built can be measured from.
        """
        allowed = set(self.cells if cells is None else cells) | {start}
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in neighbour_cells(here):
                if nxt in allowed and nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def distance(self, a: Cell, b: Cell) -> int | None:
        """Path distance between two cards (None when no path joins them)."""
        return self.distances(a).get(b)

    def within(self, cell: Cell, limit: int, cells: Iterable[Cell] | None = None) -> list[Placed]:
        """Other cards at path distance 1..``limit`` of ``cell``."""
        d = self.distances(cell, cells)
        return [p for p in self.cards if p.cell != cell and 0 < d.get(p.cell, limit + 1) <= limit]

    def connected_to_main(self, cells: Iterable[Cell] | None = None) -> set[Cell]:
        """Cells joined to the Main Reactor through edge-adjacent cards (empty if there is none)."""
        mr = self.main_reactor
        if mr is None:
            return set()
        return set(self.distances(mr.cell, cells))

    # -- changes (new stations; never mutates) ----------------------------------------
    def with_card(self, placed: Placed) -> Station:
        return Station((*self.cards, placed))

    def without(self, cell: Cell) -> Station:
        return Station(tuple(p for p in self.cards if p.cell != cell))

    def replaced(self, placed: Placed) -> Station:
        return Station(tuple(placed if p.cell == placed.cell else p for p in self.cards))

    def with_cubes(self, cell: Cell, cubes: int) -> Station:
        p = self.at(cell)
        assert p is not None
        return self.replaced(replace(p, cubes=cubes))

    def to_json(self) -> list[dict]:
        """The station in the score/check input shape."""
        out = []
        for p in self.cards:
            row: dict = {"card": p.card.name, "cell": list(p.cell), "year": p.year}
            if p.card.is_reactor:
                row["cubes"] = p.cubes
            if p.face_down:
                row["face_down"] = True
            out.append(row)
        return out
