"""Among the Stars component data, loaded from package data (``rules/data/among_the_stars/cards.json``).

The JSON file is the one place for every card value and rule number; each record keeps
its ``status`` (confirmed / partly_confirmed / single_source / conflict / unconfirmed)
and ``sources``, so a correction from a physical card is a one-line change there.
This module only turns the records into frozen dataclasses and name look-ups.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.names import term
from rules.scoring import closest_names

__all__ = [
    "shared_race",
    "COLOURS",
    "MAIN_REACTOR",
    "POWER_REACTOR",
    "TITLE",
    "TYPE_OF_COLOUR",
    "VAK_MAIN_REACTOR",
    "CardDef",
    "Catalogue",
    "Objective",
    "UnknownCard",
    "catalogue",
]

COLOURS = ("blue", "yellow", "red", "purple", "green")
"""Location colours, one per type (rulebook 4 'Build a location': Közigazgatási kék ... Diplomáciai zöld)."""

TYPE_OF_COLOUR = {
    "blue": "administrative",
    "yellow": "commercial",
    "red": "military",
    "purple": "recreation",
    "green": "diplomatic",
}

MAIN_REACTOR, VAK_MAIN_REACTOR, POWER_REACTOR = "main_reactor", "vak_main_reactor", "power_reactor"

TITLE = "Among the Stars"
"""The game's title: every rule citation starts with it (``"Among the Stars, rulebook 4 ..."``)."""


class UnknownCard(LookupError):
    """A card name the catalogue does not know; ``suggestions`` holds the closest known names."""

    def __init__(self, name: str, suggestions: tuple[str, ...]) -> None:
        self.name = name
        self.suggestions = suggestions
        super().__init__(f"unknown card {name!r}")


@dataclass(frozen=True)
class CardDef:
    """One card as printed (location, Main Reactor or Power Reactor).

    ``kind`` is the identity for counting and MAX (the special-deck Turret and
    Transportation Platform share the basic card's kind). ``colour`` is None for reactors;
    the Vak Main Reactor has ``all_types`` set (it counts as a location of every type).
    ``timing``: ``immediate`` (white box), ``end_game`` (yellow box), ``passive``, ``none``.
    """

    id: str
    name: str
    kind: str
    colour: str | None
    cost_credits: int = 0
    cost_energy: int = 0
    vp: int = 0
    max_per_station: int | None = None
    ability_cap: int | None = None
    timing: str = "none"
    ability: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    placement_rule: Mapping[str, Any] | None = None
    is_reactor: bool = False
    is_main_reactor: bool = False
    all_types: bool = False
    start_cubes: int = 0
    copies: int = 0
    status: str = ""

    @property
    def word(self) -> str:
        """The card's name as the players' edition prints it (:func:`rules.names.term`; English where the
        edition gives none)."""
        return term("among_the_stars.reactor" if self.is_reactor else "among_the_stars.location", self.id)

    @property
    def type(self) -> str | None:
        """The location type (``administrative`` ...), None for reactors."""
        return TYPE_OF_COLOUR.get(self.colour) if self.colour else None


@dataclass(frozen=True)
class Objective:
    """An objective card: ``kind`` is ``colour_majority``, ``marvels``, ``on_budget`` or ``accelerated``."""

    id: str
    name: str
    kind: str
    vp: int
    colour: str | None = None
    status: str = ""


_OBJECTIVE_COLOUR = {
    "first_line_of_defense": "red",
    "intergalactic_trade": "yellow",
    "peace_among_the_stars": "green",
    "well_organised": "blue",
    "grand_attractions": "purple",
}


class Catalogue:
    """Every card, objective, race and rule number of the base game, with name look-ups."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw = raw
        self.rules: dict[str, Any] = {k: v["value"] for k, v in raw["game_rules"].items()}
        cards: dict[str, CardDef] = {}
        for r in raw["reactors"]:
            main = r["id"] in (MAIN_REACTOR, VAK_MAIN_REACTOR)
            cards[r["id"]] = CardDef(
                id=r["id"], name=r["name"], kind=r["id"], colour=None, cost_credits=r.get("cost_credits", 0),
                vp=r.get("vp", 0), is_reactor=True, is_main_reactor=main, all_types=r["id"] == VAK_MAIN_REACTOR,
                start_cubes=r["start_cubes"], copies=r["copies"], status=r["status"],
            )
        for r in raw["locations"]:
            same = r["ability_params"].get("id") if r["ability_params"].get("kind") == "same_as" else None
            base = next((x for x in raw["locations"] if x["id"] == same), r) if same else r
            cards[r["id"]] = CardDef(
                id=r["id"], name=r["name"], kind=base["id"], colour=base["colour"],
                cost_credits=base["cost_credits"], cost_energy=base["cost_energy"], vp=base["vp"],
                max_per_station=base["max_per_station"], ability_cap=base["ability_cap"],
                timing=base["ability_timing"], ability=base["ability"], params=base["ability_params"],
                placement_rule=base["placement_rule"], copies=r["copies"], status=r["status"],
            )
        self.cards = cards
        self._by_name: dict[str, str] = {}
        for r in [*raw["reactors"], *raw["locations"]]:
            for alias in (r["name"], r["id"], *r.get("aka", ())):
                self._by_name.setdefault(_norm(alias), r["id"])
        self.objectives: dict[str, Objective] = {}
        for o in raw["objectives_base"]:
            kind = "colour_majority" if o["id"] in _OBJECTIVE_COLOUR else {
                "marvels_in_space": "marvels", "on_budget": "on_budget",
                "accelerated_construction": "accelerated"}[o["id"]]
            vp = o["vp"] if isinstance(o["vp"], int) else o["vp_per_lead"]  # Marvels: VP per location of lead
            self.objectives[o["id"]] = Objective(o["id"], o["name"], kind, vp, _OBJECTIVE_COLOUR.get(o["id"]),
                                                 o["status"])
        self._objective_names = {}
        for o in raw["objectives_base"]:
            for alias in (o["name"], o["id"], *o.get("aka", ())):
                self._objective_names[_norm(alias)] = o["id"]
        self.races = {r["id"]: r for r in raw["races"]}
        self._race_names = {_norm(r["name"]): r["id"] for r in raw["races"]} | {r["id"]: r["id"] for r in raw["races"]}
        self.conflict = raw["conflict_cards"]

    # -- look-ups -------------------------------------------------------------------
    def card(self, name: str) -> CardDef:
        """The card called ``name`` (case and punctuation insensitive; ids and 'aka' names work).

        Raises:
            UnknownCard: with the closest known card names.
        """
        key = self._by_name.get(_norm(name))
        if key is None:
            raise UnknownCard(name, tuple(closest_names(name, self.card_names())))
        return self.cards[key]

    def card_names(self) -> list[str]:
        """Every printed card name (reactors and locations)."""
        return [c.name for c in self.cards.values()]

    def objective(self, name: str) -> Objective:
        """The objective called ``name``. Raises UnknownCard with suggestions."""
        key = self._objective_names.get(_norm(name))
        if key is None:
            raise UnknownCard(name, tuple(closest_names(name, [o.name for o in self.objectives.values()])))
        return self.objectives[key]

    def race(self, name: str) -> str:
        """The race id of ``name`` (``"Sheptas"`` -> ``"sheptas"``). Raises UnknownCard with suggestions."""
        key = self._race_names.get(_norm(name))
        if key is None:
            raise UnknownCard(name, tuple(closest_names(name, [r["name"] for r in self.races.values()])))
        return key

    def race_param(self, race: str | None, key: str, default: Any) -> Any:
        """A race's rule number (``race_params`` in the data), or ``default`` for other races."""
        return self.rules["race_params"].get(race or "", {}).get(key, default)


def shared_race(races: Sequence[str | None]) -> str | None:
    """The first race id held by two players, or None. The box has one tile per race (Among the Stars
    rulebook, Components: 8 race tiles; Setup 7: each player takes a race tile), so no two players
    can play the same race.

    Args:
        races: each player's race id (None: no race).
    """
    seen: set[str] = set()
    for race in races:
        if race is not None and race in seen:
            return race
        if race is not None:
            seen.add(race)
    return None


def _norm(name: str) -> str:
    return " ".join("".join(ch if ch.isalnum() else " " for ch in name.lower()).split()).replace(" ", "_")


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    """The base game's catalogue, read once from package data."""
    text = (resources.files("rules") / "data" / "among_the_stars" / "cards.json").read_text(encoding="utf-8")
    return Catalogue(json.loads(text))
