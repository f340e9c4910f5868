"""The map watcher: a shared hex map (Eclipse's galaxy) followed across camera reads of a still table.

Each read of the table gives every sector hex the hex reader found (:class:`vision.hexes.HexObservation`: its id,
axial ``[q, r]`` from the Galactic Center, rotation 0-5, confidence). The :class:`MapWatcher` keeps the map it has
accepted and reports a change only once ``confirm_reads`` reads in a row agree on it, so a hand over the table or
one misread frame proposes nothing. It never judges a hex: a newly explored hex becomes a question, and what the
rules engine finds wrong with it is previewed by the game's camera part (:mod:`companion.camera.preview`).

What a change holds (:class:`MapChange`): hexes added (a new space, or another tile on a known space), hexes turned
in place (same tile, new rotation: a misplay being put right), hexes not seen any more (kept in the map: a hand, a
glare spot), and the hexes read too unsure to build on (notes for the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

__all__ = ["MapChange", "MapWatcher", "PlacedTile", "SeenHex", "seen_hexes"]

Axial = tuple[int, int]
"""An axial hex position ``(q, r)``."""


@dataclass(frozen=True)
class PlacedTile:
    """One tile on the map: its ``id`` (sector) and ``rotation`` (0-5 clockwise steps)."""

    id: str
    rotation: int


@dataclass(frozen=True)
class SeenHex:
    """One hex of one read: where (axial), what (id or None), turned how, how sure (0-1)."""

    at: Axial | None
    id: str | None
    rotation: int | None
    confidence: float


def seen_hexes(observations: Iterable[Any]) -> list[SeenHex]:
    """The reader's :class:`vision.hexes.HexObservation` (``id``, ``axial``, ``rotation``, ``confidence``) as
    :class:`SeenHex`."""
    out = []
    for h in observations:
        at = None if h.axial is None else (int(h.axial[0]), int(h.axial[1]))
        out.append(SeenHex(at, h.id, None if h.rotation is None else int(h.rotation), float(h.confidence)))
    return out


@dataclass
class MapChange:
    """What the camera saw change on the map (see the module doc).

    Attributes:
        added: ``(at, tile)`` of each hex on a space the map had empty, or with another tile than the map had.
        turned: ``(at, tile before, tile now)`` of each hex seen turned in place.
        missing: ``(at, tile)`` of each accepted hex not seen in these reads (kept in the map).
        layout: the accepted map after this change.
    """

    added: list[tuple[Axial, PlacedTile]] = field(default_factory=list)
    turned: list[tuple[Axial, PlacedTile, PlacedTile]] = field(default_factory=list)
    missing: list[tuple[Axial, PlacedTile]] = field(default_factory=list)
    layout: dict[Axial, PlacedTile] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.added or self.turned or self.missing)


class MapWatcher:
    """Follows the shared hex map across reads; reports a change once ``confirm_reads`` reads agree.

    Args:
        layout: the map the rules already hold (``{(q, r): PlacedTile}``): a resumed game asks nothing again.
        confirm_reads: identical reads in a row needed before a change is reported (>= 1).
        min_confidence: hexes identified below this (0-1), without an id or off the lattice are unsure: never built
            on (their space is neither added nor missing), said in :attr:`unsure`.

    Attributes:
        layout: the accepted map.
        unsure: sentences about the last read's unsure hexes (for the table).
        asked: space -> the key of the question the game's camera part asked about it (:attr:`Proposal.key`), so a
            hex turned before anyone answered withdraws the question about it as it was.
    """

    def __init__(self, layout: Mapping[Axial, PlacedTile] | None = None, *, confirm_reads: int = 2,
                 min_confidence: float = 0.6) -> None:
        if confirm_reads < 1:
            raise ValueError(f"confirm_reads must be at least 1, got {confirm_reads}")
        self.layout: dict[Axial, PlacedTile] = dict(layout or {})
        self.confirm_reads = confirm_reads
        self.min_confidence = min_confidence
        self.unsure: list[str] = []
        self.asked: dict[Axial, str] = {}
        self._last: tuple[dict[Axial, PlacedTile], frozenset[Axial]] | None = None
        self._agreeing = 0
        self._said_missing: set[Axial] | None = None  # the missing hexes last reported (said once while away)

    def _read(self, seen: Iterable[SeenHex]) -> tuple[dict[Axial, PlacedTile], frozenset[Axial]]:
        """(the sure hexes by space, the spaces of unsure ones) of one read."""
        sure: dict[Axial, PlacedTile] = {}
        unsure: set[Axial] = set()
        self.unsure = []
        for h in seen:
            if h.at is None:
                continue
            if h.id is None or h.rotation is None or h.confidence < self.min_confidence:
                unsure.add(h.at)
                self.unsure.append(f"the hex at [{h.at[0]}, {h.at[1]}] could not be read surely: straighten it or "
                                   "move what covers it")
                continue
            if h.at in sure and sure[h.at] != PlacedTile(h.id, h.rotation):
                unsure.add(h.at)  # two reads of one space: trust neither
                continue
            sure[h.at] = PlacedTile(h.id, h.rotation)
        for at in unsure:
            sure.pop(at, None)
        return sure, frozenset(unsure)

    def observe(self, seen: Iterable[SeenHex]) -> MapChange | None:
        """Feed one read; the change once ``confirm_reads`` reads in a row agree on a map that differs from the
        accepted one (then it becomes the accepted one: added and turned hexes in, missing ones kept), else None."""
        read = self._read(seen)
        if read == self._last:
            self._agreeing += 1
        else:
            self._last, self._agreeing = read, 1
        if self._agreeing < self.confirm_reads:
            return None
        sure, unsure = read
        change = MapChange()
        for at, tile in sorted(sure.items(), key=lambda kv: (_ring(kv[0]), kv[0])):
            before = self.layout.get(at)
            if before is None or before.id != tile.id:
                change.added.append((at, tile))
            elif before.rotation != tile.rotation:
                change.turned.append((at, before, tile))
        change.missing = [(at, tile) for at, tile in sorted(self.layout.items())
                          if at not in sure and at not in unsure]
        if not change.added and not change.turned:
            if not change.missing:
                return None
            missing = {at for at, _ in change.missing}
            if self._said_missing == missing:
                return None  # said once while it stays away
            self._said_missing = missing
        else:
            self._said_missing = None
        self.layout.update({at: tile for at, tile in change.added})
        self.layout.update({at: tile for at, _, tile in change.turned})
        change.layout = dict(self.layout)
        return change


def _ring(at: Axial) -> int:
    q, r = at
    return (abs(q) + abs(r) + abs(q + r)) // 2
