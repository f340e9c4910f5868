"""Eclipse component data: the sector hexes from package data, and the component names the rules use.

``rules/data/eclipse/hexes.json`` (a copy of ``shared/data/eclipse/hexes.json``, sources and
conflicts kept in the file; see its README) holds every sector tile face; this module turns its
records into frozen :class:`Sector` records with look-ups, and names the other components the
engine and the score file use (species, player boards, developments, rare technologies, tech
tracks, resources, seat colours).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.scoring import closest_names

__all__ = [
    "ALLIANCE_NAMES",
    "BOARDS",
    "COLOURS",
    "DEVELOPMENTS",
    "DISCOVERIES",
    "MOVE_ACTIVATIONS",
    "PLANET_TYPES",
    "RARE_TECHNOLOGIES",
    "RESOURCES",
    "RISE_SPECIES",
    "ROUNDS",
    "SHIP_TYPES",
    "SPECIES",
    "TECHNOLOGIES",
    "TECH_TRACKS",
    "TITLE",
    "Catalogue",
    "Planet",
    "Sector",
    "UnknownSector",
    "catalogue",
]

TITLE = "Eclipse"
"""The game's title: every rule citation starts with it (``"Eclipse, Rise of the Ancients p.8 Warp Portals"``)."""

ROUNDS = 9
"""Rounds in a game of first-edition Eclipse (Second Dawn has 8; see :mod:`rules.eclipse.rounds`)."""

SPECIES = (
    "Terran Directorate", "Terran Federation", "Terran Union", "Terran Republic", "Terran Conglomerate",
    "Terran Alliance", "Eridani Empire", "Hydran Progress", "Planta", "Descendants of Draco", "Mechanema",
    "Orion Hegemony", "Magellan", "Exiles", "Rho Indi Syndicate", "Enlightened of Lyra",
)
"""Every species a player may play: the base game's six Terran and six alien boards' sides and the four of
Rise of the Ancients, spelt as the score file spells them."""

RISE_SPECIES = ("Magellan", "Exiles", "Rho Indi Syndicate", "Enlightened of Lyra")
"""The species Rise of the Ancients adds (Rise of the Ancients p.3: three new species, and the Magellan on
the back of the new player boards)."""

MOVE_ACTIVATIONS = {"Magellan": (2, 14), "Exiles": (2, 14), "Rho Indi Syndicate": (4, 15),
                    "Enlightened of Lyra": (2, 15)}
"""Species -> (ship activations one Move action gives, the Rise of the Ancients page of its board): "the number of
arrows on your Move action symbol is the number of activations per Move" (p.4, Ship activation); the boards (p.14:
Magellan and Exiles "move up to two ships, or one ship twice"; p.15: the Syndicate "up to four ships (four
activations)", as its p.16 example says again, and the Enlightened two). The base game's twelve species are not
here: their boards are in the base rulebook, not in the sources, so their Moves are not counted (a reaction's one
activation is: :data:`rules.eclipse.drives.REACTION_ACTIVATIONS`)."""

COLOURS = ("red", "blue", "green", "yellow", "white", "black", "natural", "grey", "purple")
"""Seat colours: the base game's six and Rise of the Ancients' three (p.3: natural, grey, purple)."""

DEVELOPMENTS = (
    "Ancient Monument", "Artifact Link", "Diplomatic Fleet", "Mining Colony", "Research Station", "Trade Fleet",
    "Shellworld", "Warp Portal",
)
"""The 8 Development tiles, one of each (Rise of the Ancients p.5)."""

DISCOVERIES = ("Ancient Warp Portal", "Ancient Orbital")
"""The Discovery tiles the box follows on the map, each laid on the hex where it was found (Rise of the Ancients
p.8); the other Discoveries are taken as resources, a technology or a ship part, or kept as VP."""

RARE_TECHNOLOGIES = (
    "Antimatter Splitter", "Neutron Absorber", "Distortion Shield", "Cloaking Device", "Point Defense",
    "Conifold Field", "Sentient Hull", "Interceptor Bay", "Flux Missile", "Zero-Point Source",
)
"""The 10 Rare Technology tiles, one of each (Rise of the Ancients p.4)."""

TECHNOLOGIES = (
    "Neutron Bombs", "Starbase", "Plasma Cannon", "Phase Shield", "Advanced Mining", "Tachyon Source",
    "Plasma Missile", "Gluon Computer",
    "Gauss Shield", "Fusion Source", "Improved Hull", "Positron Computer", "Advanced Economy", "Tachyon Drive",
    "Antimatter Cannon", "Quantum Grid",
    "Nanorobots", "Fusion Drive", "Orbital", "Advanced Robotics", "Advanced Labs", "Monolith", "Artifact Key",
    "Wormhole Generator",
)
"""The base game's 24 technologies, by track: Military, Grid, Nano, eight each (Eclipse rulebook, Technology
tiles; the Rare Technologies of Rise of the Ancients are :data:`RARE_TECHNOLOGIES`)."""

TECH_TRACKS = ("military", "grid", "nano")

SHIP_TYPES = ("Interceptor", "Cruiser", "Dreadnought", "Starbase")
"""The ship types a player's blueprints hold (one blueprint each on the player board)."""

ALLIANCE_NAMES = ("Nova", "Vortex", "Radiance")
"""The three alliances, three tiles each (Rise of the Ancients p.3: 9 Alliance tiles; p.10 shows Nova, Vortex and
a third). The third's English name is UNCONFIRMED: "Radiance" translates the Greek rulebook's ΛΑΜΨΗ; the flow's form
and the score file take these three (a misspelt one is refused with the closest)."""
"""The three tech tracks of a player board."""

RESOURCES = ("money", "science", "materials")
"""The three resources in storage (the tie-break adds them up)."""

PLANET_TYPES = ("money", "science", "materials", "grey", "orbital")
"""Planet types in ``hexes.json``: the three resource colours (orange, pink, brown), grey (wild) and the
Exiles' printed Orbital."""

_SPECIES_SPELLING = {"The Exiles": "Exiles"}
_RISE_BOARD_PAIRS = (("233", "234"), ("235", "236"), ("237", "238"))
"""Rise of the Ancients starting sectors printed on one tile's two sides: Magellan on the back of the
Exiles', the Syndicate's and the Enlightened's (paired by number; see the data README)."""


class UnknownSector(LookupError):
    """A sector id the data does not know; ``suggestions`` holds the closest ids."""

    def __init__(self, sector: str, suggestions: tuple[str, ...]) -> None:
        self.sector = sector
        self.suggestions = suggestions
        super().__init__(f"unknown sector {sector!r}")


@dataclass(frozen=True)
class Planet:
    """One printed planet: ``type`` (:data:`PLANET_TYPES`), population squares and advanced squares."""

    type: str
    squares: int
    advanced_squares: int


@dataclass(frozen=True)
class Sector:
    """One sector tile face as printed (``hexes.json``).

    Attributes:
        id: three digits (``"001"`` the Galactic Center); the hundreds digit is the ring's stack.
        ring: 0 Galactic Center, 1 Inner (I), 2 Middle (II), 3 Outer (III).
        kind: ``galactic_center``, ``sector``, ``starting_sector``, ``ancient_homeworld``,
            ``ancient_hive``, ``warp_sector``.
        vp: the hex's printed VP (0-4).
        wormholes: clock edges (12, 2, ..., 10) carrying a wormhole half-circle, as printed.
        ancients: Ancient ships the hex starts with (the Hives' 3 included).
        artifacts: Artifact symbols printed on it (Artifact Link counts them).
        warp_portal: a Warp Portal printed on it (281, 381, 382).
        species: the species whose starting sector it is, else None.
        other_side: the sector id on the tile's other side, when known.
        printed_orbital: an Orbital printed on it (the Exiles' home).
    """

    id: str
    name: str
    ring: int
    kind: str
    expansion: str
    vp: int
    planets: tuple[Planet, ...]
    wormholes: frozenset[int]
    ancients: int
    discovery: bool
    artifacts: int
    warp_portal: bool
    species: str | None = None
    other_side: str | None = None
    printed_orbital: bool = False

    @property
    def rise(self) -> bool:
        """A Rise of the Ancients tile."""
        return self.expansion == "rise_of_the_ancients"

    @property
    def home(self) -> bool:
        """A start-position tile: a starting sector or an Ancient Homeworld (never in the hex stacks)."""
        return self.kind in ("starting_sector", "ancient_homeworld")

    @property
    def label(self) -> str:
        """``"204 Vega"``: how players name the tile."""
        return f"{self.id} {self.name}"


def _sector(record: Mapping[str, Any]) -> Sector:
    species = record.get("species")
    if isinstance(species, str):
        species = "Magellan" if species.startswith("Magellan") else _SPECIES_SPELLING.get(species, species)
    return Sector(
        id=record["id"], name=record["name"], ring=int(record["ring"]), kind=record["kind"],
        expansion=record["expansion"], vp=int(record["vp"]),
        planets=tuple(Planet(p["type"], int(p["squares"]), int(p["advanced_squares"])) for p in record["planets"]),
        wormholes=frozenset(int(h) for h in record["wormholes"]), ancients=int(record["ancients"]),
        discovery=bool(record["discovery"]), artifacts=int(record["artifacts"]),
        warp_portal=bool(record.get("warp_portal", False)), species=species, other_side=record.get("other_side"),
        printed_orbital=bool(record.get("printed_orbital", False)),
    )


class Catalogue:
    """Every sector tile face, by id, in the data file's order."""

    def __init__(self, records: list[Mapping[str, Any]], meta: Mapping[str, Any]) -> None:
        self.meta = dict(meta)
        self.sectors: dict[str, Sector] = {}
        for record in records:
            sector = _sector(record)
            self.sectors[sector.id] = sector

    def sector(self, sector_id: str) -> Sector:
        """The sector called ``sector_id`` (three digits).

        Raises:
            UnknownSector: no such tile face (the closest ids as suggestions).
        """
        try:
            return self.sectors[sector_id]
        except (KeyError, TypeError):
            raise UnknownSector(str(sector_id), tuple(closest_names(str(sector_id), self.sectors))) from None

    def homes(self, species: str) -> tuple[str, ...]:
        """The starting sector ids of ``species`` (Magellan has three: one on each Rise of the Ancients tile)."""
        return tuple(s.id for s in self.sectors.values() if s.species == species)

    def boards(self) -> tuple[tuple[str, ...], ...]:
        """The species printed on one player board's two sides, one tuple per board: the base game's six
        (a Terran side and an alien side, as their starting sectors' ``other_side`` pairs them) and Rise of
        the Ancients' three (Exiles, the Syndicate and the Enlightened, each with Magellan on the back)."""
        out: list[tuple[str, ...]] = []
        seen: set[str] = set()
        pairs = [(s.id, s.other_side) for s in self.sectors.values() if s.kind == "starting_sector" and s.other_side]
        pairs += list(_RISE_BOARD_PAIRS)
        for a, b in pairs:
            if a in seen or b in seen:
                continue
            seen |= {a, b}
            out.append((self.sectors[a].species, self.sectors[b].species))
        return tuple(out)


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The sector data from ``rules/data/eclipse/hexes.json`` (read once)."""
    text = (resources.files("rules") / "data" / "eclipse" / "hexes.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    return Catalogue(raw["hexes"], raw["meta"])


BOARDS: tuple[tuple[str, ...], ...] = catalogue().boards()
"""The 9 double-sided player boards, as the species on their two sides (:meth:`Catalogue.boards`)."""
