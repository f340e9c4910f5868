"""The Eclipse map: hexes in axial coordinates around the Galactic Center, their rings and wormholes.

Geometry (the one convention of the box; ``vision.hexes`` reads hexes the same way, and
``hexes.json`` ``meta.edge_convention`` states the printed side of it):

- Flat-topped hexes, axial ``(q, r)``, the Galactic Center ``001`` at ``(0, 0)``; "12 o'clock" is the
  top of the table as the camera sees it.
- The neighbour across each table edge: 12 ``(0, -1)``, 2 ``(+1, -1)``, 4 ``(+1, 0)``, 6 ``(0, +1)``,
  8 ``(-1, +1)``, 10 ``(-1, 0)`` (:data:`STEP`).
- Ring = hex distance from the centre = ``(|q| + |r| + |q + r|) / 2`` (:func:`ring`): 0 the Galactic
  Center, I (6 spaces), II (12), III (18), and further out with 7-9 players.
- Rotation ``k`` (0-5) = clockwise 60-degree turns from the printed orientation: a wormhole printed on
  edge ``h`` lies on table edge ``((h + 2k - 1) mod 12) + 1`` (:func:`table_edge`).
- B across A's table edge ``e``: they touch on A's edge ``e`` and B's edge ``e + 6`` (:func:`opposite`).
  A **full** wormhole has a half-circle on both edges, a **half** wormhole on exactly one (:class:`Link`).
- **Portal hexes** (a printed Warp Portal, 281/381/382, or a Warp Portal development token or Ancient
  Warp Portal discovery lying on the hex) are all adjacent to one another, as if joined by full
  wormholes, for Move, Influence and Diplomacy (Rise of the Ancients p.8 Warp Portals).

Pure data and arithmetic; the rules that use it are in :mod:`rules.eclipse.placement`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.eclipse.data import Sector

__all__ = [
    "CENTRE",
    "EDGES",
    "STEP",
    "Cell",
    "Galaxy",
    "Link",
    "MapChange",
    "PlacedHex",
    "changes",
    "edge_between",
    "link",
    "neighbour",
    "opposite",
    "ring",
    "rotations_with_full_wormhole",
    "table_edge",
]

Cell = tuple[int, int]
"""An axial hex position ``(q, r)``."""

CENTRE: Cell = (0, 0)
"""Where the Galactic Center (sector 001) lies."""

EDGES = (12, 2, 4, 6, 8, 10)
"""A hex's six edges as clock positions, clockwise from the top."""

STEP: Mapping[int, Cell] = {12: (0, -1), 2: (1, -1), 4: (1, 0), 6: (0, 1), 8: (-1, 1), 10: (-1, 0)}
"""The axial step to the neighbour across each table edge."""


def ring(q: int, r: int) -> int:
    """The ring of position ``(q, r)``: its hex distance from the Galactic Center (0 the centre, 1 Inner,
    2 Middle, 3 Outer)."""
    return (abs(q) + abs(r) + abs(q + r)) // 2


def neighbour(cell: Cell, edge: int) -> Cell:
    """The position across table edge ``edge`` (12, 2, ..., 10) of ``cell``.

    Raises:
        ValueError: ``edge`` is not one of :data:`EDGES`.
    """
    try:
        dq, dr = STEP[edge]
    except KeyError:
        raise ValueError(f"a hex edge is one of {', '.join(map(str, EDGES))} o'clock, got {edge!r}") from None
    return (cell[0] + dq, cell[1] + dr)


def edge_between(a: Cell, b: Cell) -> int | None:
    """The table edge of ``a`` that ``b`` lies across, or None when they are not neighbours."""
    for edge, (dq, dr) in STEP.items():
        if (a[0] + dq, a[1] + dr) == (b[0], b[1]):
            return edge
    return None


def opposite(edge: int) -> int:
    """The edge a neighbour touches with: ``edge + 6`` as a clock position (12 -> 6, 2 -> 8, 8 -> 2)."""
    return ((edge + 6 - 1) % 12) + 1


def table_edge(printed: int, rotation: int) -> int:
    """Where a printed edge ``printed`` (clock, tile as printed) lies on the table after ``rotation``
    clockwise 60-degree turns: ``((h + 2k - 1) mod 12) + 1``."""
    return ((printed + 2 * rotation - 1) % 12) + 1


class Link(enum.Enum):
    """How two neighbouring hexes connect across their shared edge."""

    FULL = "full"  # a half-circle on both touching edges
    HALF = "half"  # a half-circle on exactly one of them
    NONE = "none"  # no half-circle on either (or not neighbours)


@dataclass(frozen=True)
class PlacedHex:
    """A sector tile on the table.

    Attributes:
        sector: the tile face (:class:`rules.eclipse.data.Sector`).
        cell: its position ``(q, r)``.
        rotation: clockwise 60-degree turns from the printed orientation, 0-5.
        portal_token: a Warp Portal development token or an Ancient Warp Portal discovery lies on it.
    """

    sector: Sector
    cell: Cell
    rotation: int = 0
    portal_token: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.rotation <= 5:
            raise ValueError(f"hex {self.sector.id}: rotation is 0-5 clockwise steps, got {self.rotation}")

    @property
    def wormholes(self) -> frozenset[int]:
        """The table edges carrying a wormhole half-circle, after rotation."""
        return frozenset(table_edge(h, self.rotation) for h in self.sector.wormholes)

    @property
    def portal(self) -> bool:
        """A portal hex: a printed Warp Portal or a portal token on it (Rise of the Ancients p.8)."""
        return self.sector.warp_portal or self.portal_token

    @property
    def ring(self) -> int:
        """The ring of its position (not of its stack: see ``sector.ring``)."""
        return ring(*self.cell)

    def to_json(self) -> dict[str, Any]:
        """``{"sector", "q", "r", "rotation", "ring", "wormholes": [table edges], "warp_portal_token"}``."""
        return {"sector": self.sector.id, "q": self.cell[0], "r": self.cell[1], "rotation": self.rotation,
                "ring": self.ring, "wormholes": sorted(self.wormholes), "warp_portal_token": self.portal_token}


def link(a: PlacedHex, b: PlacedHex) -> Link:
    """How ``a`` and ``b`` connect across their shared edge (:attr:`Link.NONE` when not neighbours)."""
    edge = edge_between(a.cell, b.cell)
    if edge is None:
        return Link.NONE
    mine, theirs = edge in a.wormholes, opposite(edge) in b.wormholes
    if mine and theirs:
        return Link.FULL
    return Link.HALF if mine or theirs else Link.NONE


def rotations_with_full_wormhole(sector: Sector, cell: Cell, other: PlacedHex) -> list[int]:
    """The rotations (0-5) of ``sector`` placed at ``cell`` that make a full wormhole with ``other``."""
    return [k for k in range(6) if link(PlacedHex(sector, cell, k), other) is Link.FULL]


@dataclass(frozen=True)
class Galaxy:
    """The hexes on the table, by position. Immutable: :meth:`with_hex` returns a new map.

    ``hexes`` maps ``(q, r)`` to its :class:`PlacedHex`; no two hexes share a position (the constructor
    of :meth:`of` refuses it).
    """

    hexes: Mapping[Cell, PlacedHex] = field(default_factory=dict)

    @classmethod
    def of(cls, hexes: Iterable[PlacedHex]) -> Galaxy:
        """A map of ``hexes``.

        Raises:
            ValueError: two hexes at one position, or one sector in two places.
        """
        out: dict[Cell, PlacedHex] = {}
        where: dict[str, Cell] = {}
        for h in hexes:
            if h.cell in out:
                raise ValueError(f"two hexes at {h.cell}: {out[h.cell].sector.id} and {h.sector.id}")
            if h.sector.id in where:
                raise ValueError(f"sector {h.sector.id} lies at both {where[h.sector.id]} and {h.cell}")
            out[h.cell] = h
            where[h.sector.id] = h.cell
        return cls(out)

    def __iter__(self) -> Iterator[PlacedHex]:
        return iter(self.hexes.values())

    def __len__(self) -> int:
        return len(self.hexes)

    def at(self, cell: Cell) -> PlacedHex | None:
        """The hex at ``cell``, or None (an unexplored space)."""
        return self.hexes.get((cell[0], cell[1]))

    def find(self, sector_id: str) -> PlacedHex | None:
        """The hex of sector ``sector_id`` on the map, or None."""
        return next((h for h in self.hexes.values() if h.sector.id == sector_id), None)

    def with_hex(self, placed: PlacedHex) -> Galaxy:
        """This map with ``placed`` added (or replacing the hex at its position)."""
        return Galaxy({**self.hexes, placed.cell: placed})

    def with_portal_token(self, cell: Cell) -> Galaxy:
        """This map with a portal token on the hex at ``cell`` (KeyError when no hex is there)."""
        h = self.hexes[cell]
        return self.with_hex(replace(h, portal_token=True))

    def neighbours(self, cell: Cell) -> list[tuple[int, PlacedHex]]:
        """``(table edge, hex)`` for each explored neighbour of ``cell``, clockwise from 12."""
        out = []
        for edge in EDGES:
            h = self.at(neighbour(cell, edge))
            if h is not None:
                out.append((edge, h))
        return out

    def portals(self) -> list[PlacedHex]:
        """Every portal hex on the map (Rise of the Ancients p.8)."""
        return [h for h in self.hexes.values() if h.portal]

    def to_json(self) -> list[dict[str, Any]]:
        """The hexes as :meth:`PlacedHex.to_json`, sorted by ring, then ``q``, then ``r``."""
        return [h.to_json() for h in sorted(self.hexes.values(), key=lambda h: (h.ring, h.cell))]


@dataclass(frozen=True)
class MapChange:
    """What changed between two reads of the map: hexes added, removed, and turned or swapped in place."""

    added: tuple[PlacedHex, ...] = ()
    removed: tuple[PlacedHex, ...] = ()
    changed: tuple[tuple[PlacedHex, PlacedHex], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.added or self.removed or self.changed)


def changes(before: Galaxy, after: Galaxy) -> MapChange:
    """The difference between two maps (a camera's two reads): newly explored hexes first of all."""
    added = tuple(h for c, h in after.hexes.items() if c not in before.hexes)
    removed = tuple(h for c, h in before.hexes.items() if c not in after.hexes)
    changed = tuple((before.hexes[c], h) for c, h in after.hexes.items()
                    if c in before.hexes and (before.hexes[c].sector.id, before.hexes[c].rotation) != (h.sector.id, h.rotation))
    return MapChange(added, removed, changed)
