"""Roll for the Galaxy component data: dice faces and tiles, loaded from package data.

The JSON files in ``rules/data/roll/`` carry every record's source and the conflicts
between sources (see their ``discrepancies`` and per-record ``discrepancy`` notes);
this module only turns them into frozen records and name look-ups.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = [
    "COLOURS",
    "FACES",
    "PHASES",
    "WORLD_COLOURS",
    "Catalogue",
    "Development",
    "DieColour",
    "Effect",
    "FactionTile",
    "GameTile",
    "World",
    "catalogue",
]

COLOURS = ("white", "red", "purple", "blue", "brown", "green", "yellow")
"""Die colours, in the rulebook's order (Roll for the Galaxy, p.1 Components)."""

PHASES = ("explore", "develop", "settle", "produce", "ship")
"""Phases I-V in the order they run (Roll for the Galaxy, p.3 Rounds)."""

FACES = (*PHASES, "wild")
"""Die faces: the five phase symbols and Wild."""

WORLD_COLOURS = ("blue", "brown", "green", "yellow", "gray")
"""World colours; gray worlds hold no goods (Roll for the Galaxy, p.7 Produce)."""


@dataclass(frozen=True)
class DieColour:
    """One die colour: ``faces`` (six, with repeats), ``count`` in the box, ``type`` (home, military, ...)."""

    colour: str
    type: str
    count: int
    faces: tuple[str, ...]


@dataclass(frozen=True)
class Effect:
    """A world's immediate effect when placed: credits, whether a die is removed, dice gained ``(colour, to)``."""

    credits: int
    remove_die: bool
    gain_dice: tuple[tuple[str, str], ...]  # (colour, "citizenry" | "cup" | "good")
    starting_credits: int | None = None  # Doomed World

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Effect:
        return cls(
            credits=int(obj.get("credits", 0)),
            remove_die=bool(obj.get("remove_die", False)),
            gain_dice=tuple((g["colour"], g["to"]) for g in obj.get("gain_dice", ())),
            starting_credits=obj.get("starting_credits"),
        )


@dataclass(frozen=True)
class Development:
    """A development side: name, printed cost, phases its power acts in, kind, power text.

    ``kind`` is ``reassign`` (Assign step), ``immediate`` (once, when built), ``phase`` or
    ``continuous``. ``reassign`` holds the structured limits of a Reassign power.
    ``endgame`` is the cost-6 bonus formula text, or "".
    """

    name: str
    cost: int
    phases: tuple[str, ...]
    kind: str
    power: str
    reassign: Mapping[str, Any] | None = None
    endgame: str = ""
    faction: int | None = None  # the (unconfirmed) faction number when on a faction tile

    @property
    def is_reassign(self) -> bool:
        return self.kind == "reassign"


@dataclass(frozen=True)
class World:
    """A world side: name, printed cost, colour (``gray`` holds no goods), immediate effect."""

    name: str
    cost: int
    colour: str
    effect: Effect
    trade_price: int | None = None
    home: bool = False
    faction: int | None = None

    @property
    def holds_goods(self) -> bool:
        return self.colour != "gray"


@dataclass(frozen=True)
class GameTile:
    """A double-sided game tile: one development side, one world side."""

    id: int
    development: Development
    world: World


@dataclass(frozen=True)
class FactionTile:
    """A wide faction tile: one development (none for faction 9) and one or two worlds; counts as 2 tiles."""

    number: int
    development: Development | None
    worlds: tuple[World, ...]

    @property
    def names(self) -> tuple[str, ...]:
        dev = (self.development.name,) if self.development else ()
        return dev + tuple(w.name for w in self.worlds)

    @property
    def cost(self) -> int:
        """Both printed numbers (Roll for the Galaxy, p.8 Victory: 'include both numbers of the faction tile')."""
        return (self.development.cost if self.development else 0) + sum(w.cost for w in self.worlds)


def _development(obj: Mapping[str, Any], faction: int | None = None) -> Development:
    return Development(
        name=obj["name"],
        cost=int(obj["cost"]),
        phases=tuple(obj.get("phases", ())),
        kind=obj["kind"],
        power=obj.get("power", ""),
        reassign=obj.get("reassign"),
        endgame=obj.get("endgame_formula", ""),
        faction=faction,
    )


def _world(obj: Mapping[str, Any], home: bool = False, faction: int | None = None) -> World:
    return World(
        name=obj["name"],
        cost=int(obj["cost"]),
        colour=obj["colour"],
        effect=Effect.from_json(obj["effect"]),
        trade_price=obj.get("trade_price"),
        home=home,
        faction=faction,
    )


@dataclass(frozen=True, eq=False)
class Catalogue:
    """Every Roll for the Galaxy component, with look-ups by name."""

    dice: Mapping[str, DieColour]
    game_tiles: tuple[GameTile, ...]
    factions: tuple[FactionTile, ...]
    home_worlds: tuple[World, ...]
    developments: Mapping[str, Development]  # every development side, game and faction tiles
    worlds: Mapping[str, World]  # every world side, game, faction and home
    tile_of: Mapping[str, int]  # game-tile side name -> game tile id
    faction_of: Mapping[str, int]  # faction side name -> faction number
    folded: Mapping[str, str]  # name in lower case, one apostrophe style -> catalogue spelling

    @property
    def names(self) -> tuple[str, ...]:
        """Every tile-side name a tableau may list."""
        return tuple(self.developments) + tuple(self.worlds)

    def faction(self, key: int | str) -> FactionTile:
        """A faction tile by its (unconfirmed) number or by any of its side names."""
        for f in self.factions:
            if key == f.number or key in f.names:
                return f
        raise KeyError(key)

    def lookup(self, name: str) -> str | None:
        """The catalogue's spelling of ``name``: exact, else ignoring case and the apostrophe style."""
        if name in self.developments or name in self.worlds:
            return name
        return self.folded.get(_fold(name))


def _fold(name: str) -> str:
    return " ".join(name.replace("\u2019", "'").lower().split())


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The component data from ``rules/data/roll/*.json`` (package data), loaded once."""
    root = resources.files("rules") / "data" / "roll"
    dice_json = json.loads((root / "dice.json").read_text(encoding="utf-8"))
    tiles_json = json.loads((root / "tiles.json").read_text(encoding="utf-8"))
    dice = {
        d["colour"]: DieColour(colour=d["colour"], type=d["type"], count=int(d["count"]), faces=tuple(d["faces"]))
        for d in dice_json["dice"]
    }
    tiles = tuple(
        GameTile(id=int(t["id"]), development=_development(t["development"]), world=_world(t["world"]))
        for t in tiles_json["game_tiles"]
    )
    factions = tuple(
        FactionTile(
            number=int(f["number_unconfirmed"]),
            development=_development(f["development"], f["number_unconfirmed"]) if f["development"] else None,
            worlds=tuple(_world(w, faction=f["number_unconfirmed"]) for w in f["worlds"]),
        )
        for f in tiles_json["faction_tiles"]
    )
    homes = tuple(_world(h, home=True) for h in tiles_json["home_worlds"])
    developments: dict[str, Development] = {}
    worlds: dict[str, World] = {}
    tile_of: dict[str, int] = {}
    faction_of: dict[str, int] = {}
    for t in tiles:
        developments[t.development.name] = t.development
        worlds[t.world.name] = t.world
        tile_of[t.development.name] = tile_of[t.world.name] = t.id
    for f in factions:
        if f.development:
            developments[f.development.name] = f.development
        for w in f.worlds:
            worlds[w.name] = w
        for n in f.names:
            faction_of[n] = f.number
    for h in homes:
        worlds[h.name] = h
    if set(developments) & set(worlds):
        raise ValueError(f"roll data: names used by both a development and a world: {set(developments) & set(worlds)}")
    return Catalogue(
        dice=dice,
        game_tiles=tiles,
        factions=factions,
        home_worlds=homes,
        developments=developments,
        worlds=worlds,
        tile_of=tile_of,
        faction_of=faction_of,
        folded={_fold(n): n for n in (*developments, *worlds)},
    )
