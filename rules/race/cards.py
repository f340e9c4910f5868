"""Race for the Galaxy card data: the 95 base-game cards and the game's other facts, read once.

Both come from package data (``rules/data/race/``, read with :mod:`importlib.resources`):
``cards.json`` (derived from Keldon Jones' ``cards.txt``, GPLv2 notice beside it) and
``game.json`` (phases, action cards, VP pool, hand limit, end condition, with sources).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.core import RulesError
from rules.names import term
from rules.scoring import ScoreInputError, closest_names
from rules.text import N_, Text

__all__ = [
    "DEVELOPMENT",
    "GOODS_KINDS",
    "TRADE_BONUS_CODES",
    "WORLD",
    "Card",
    "CardSet",
    "Power",
    "VpRule",
    "cards",
    "facts",
]

DATA_PACKAGE = "rules"
DATA_DIR = ("data", "race")

WORLD, DEVELOPMENT = "world", "development"
GOODS_KINDS = ("novelty", "rare", "genes", "alien")
WINDFALL, PRODUCTION = "windfall", "production"

TRADE_BONUS_CODES = frozenset({"TRADE_ANY", "TRADE_NOVELTY", "TRADE_RARE", "TRADE_GENE", "TRADE_ALIEN", "TRADE_THIS"})
"""Phase-IV codes that make a power a *trade* power (cards.json ``_meta.schema.per_values``)."""
NOT_CONSUME_CODES = TRADE_BONUS_CODES | {"TRADE_NO_BONUS"}
"""A phase-IV power with any code outside this set is a *consume* power (the engine's P4_TRADE_MASK)."""

GOODS_WORDS = {"novelty": N_("Novelty"), "rare": N_("Rare Elements"), "genes": N_("Genes"),
               "alien": N_("Alien Technology")}
"""Each kind of good as the rulebook names it (Race for the Galaxy, Goods), said in the players' language."""

RULE_WORDS = {
    "production_world": N_("production world"),
    "windfall_world": N_("windfall world"),
    "development_with_power": N_("development with a phase {phase} power"),
    "world_with_power": N_("world with a phase {phase} power"),
    "development_with_trade_power": N_("development with a trade power"),
    "world_with_trade_power": N_("world with a trade power"),
    "development_with_consume_power": N_("development with a consume power"),
    "world_with_consume_power": N_("world with a consume power"),
    "six_cost_development": N_("6-cost development"),
    "development": N_("development"),
    "world": N_("world"),
    "alien_card": N_("Alien card"),
    "military_world": N_("military world"),
    "rebel_military_world": N_("Rebel military world"),
    "military_strength": N_("Military strength"),
}
"""What each per-card rule of a cost-6 development counts (cards.json ``_meta.schema.per_values``), for the score's
details in the players' language."""

GOODS_RULE_WORDS = {"production_world": N_("{goods} production world"), "windfall_world": N_("{goods} windfall world")}
"""A rule that counts worlds of one kind of good (``goods`` in cards.json)."""

GOODS_QUALIFIER = {"novelty": "NOVELTY", "rare": "RARE", "genes": "GENE", "alien": "ALIEN"}
"""The qualifier code cards.txt uses for each goods kind (``WINDFALL_RARE``, ``REDUCE``+``RARE``)."""


@dataclass(frozen=True)
class Power:
    """One power line of a card: ``phase`` 1-5, ``code`` as in cards.txt, ``value``, ``times``,
    ``text`` (paraphrase)."""

    phase: int
    code: tuple[str, ...]
    value: int
    times: int
    text: str

    def has(self, *codes: str) -> bool:
        """Whether every one of ``codes`` is in this power's code."""
        return all(c in self.code for c in codes)

    @property
    def is_trade(self) -> bool:
        """A phase-IV trade-bonus power (extra cards when selling)."""
        return self.phase == 4 and bool(TRADE_BONUS_CODES.intersection(self.code))

    @property
    def is_consume(self) -> bool:
        """A phase-IV power other than a pure trade bonus (consume goods, discard hand, draw, sell)."""
        return self.phase == 4 and any(c not in NOT_CONSUME_CODES for c in self.code)


@dataclass(frozen=True)
class VpRule:
    """One scoring rule of a cost-6 development (``vp_bonus`` in cards.json).

    ``per`` is one of cards.json ``_meta.schema.per_values``; ``goods``, ``phase`` and
    ``name`` qualify it; ``is_global`` rules count once per owner, not per tableau card.
    """

    points: int
    per: str
    goods: str | None = None
    phase: int | None = None
    name: str | None = None
    is_global: bool = False

    def describe(self) -> str:
        """What the rule counts, for score details, said in a player's language (``"Genes production world"``;
        a card by its name, as the player's edition prints it).

        Raises:
            RulesError: a ``per`` that cards.json's schema does not list.
        """
        if self.name:
            return term("race.card", self.name)
        words = RULE_WORDS.get(self.per)
        if words is None:
            raise RulesError(f"cards.json: unknown vp_bonus rule per={self.per!r}")
        if self.goods:
            return Text(GOODS_RULE_WORDS[self.per], goods=Text(GOODS_WORDS[self.goods]))
        return Text(words, phase=self.phase)


@dataclass(frozen=True)
class Card:
    """One distinct base-game card (see cards.json ``_meta.schema`` for each field)."""

    name: str
    type: str
    cost: int
    vp: int
    count: int
    military: bool
    defense: int | None
    goods: str | None
    goods_mode: str | None
    start_world: int | None
    flags: frozenset[str]
    powers: tuple[Power, ...]
    vp_bonus: tuple[VpRule, ...]
    sources: tuple[str, ...]

    @property
    def is_world(self) -> bool:
        return self.type == WORLD

    @property
    def is_development(self) -> bool:
        return self.type == DEVELOPMENT

    @property
    def is_six_cost(self) -> bool:
        """A cost-6 development, whose VP ("?") are computed at game end from ``vp_bonus``."""
        return self.is_development and self.cost == 6

    @property
    def is_windfall(self) -> bool:
        return self.goods_mode == WINDFALL

    @property
    def is_production(self) -> bool:
        return self.goods_mode == PRODUCTION

    @property
    def is_alien(self) -> bool:
        return "alien" in self.flags

    @property
    def is_rebel(self) -> bool:
        return "rebel" in self.flags

    def powers_in(self, phase: int) -> tuple[Power, ...]:
        """This card's powers of ``phase`` (1-5)."""
        return tuple(p for p in self.powers if p.phase == phase)


def _card(raw: Mapping[str, Any]) -> Card:
    return Card(
        name=raw["name"],
        type=raw["type"],
        cost=raw["cost"],
        vp=raw["vp"],
        count=raw["count"],
        military=raw["military"],
        defense=raw["defense"],
        goods=raw["goods"],
        goods_mode=raw["goods_mode"],
        start_world=raw["start_world"],
        flags=frozenset(raw["flags"]),
        powers=tuple(Power(p["phase"], tuple(p["code"]), p["value"], p["times"], p["text"]) for p in raw["powers"]),
        vp_bonus=tuple(
            VpRule(
                points=r["points"],
                per=r["per"],
                goods=r.get("goods"),
                phase=r.get("phase"),
                name=r.get("name"),
                is_global=bool(r.get("global", False)),
            )
            for r in raw.get("vp_bonus", ())
        ),
        sources=tuple(raw["sources"]),
    )


class CardSet(Mapping[str, Card]):
    """The base-game cards by exact name, with a lookup that suggests close names."""

    def __init__(self, cards: Mapping[str, Card], meta: Mapping[str, Any]) -> None:
        self._cards = dict(cards)
        self.meta = meta

    def __getitem__(self, name: str) -> Card:
        return self._cards[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._cards)

    def __len__(self) -> int:
        return len(self._cards)

    def lookup(self, name: Any, field: str) -> Card:
        """The card called ``name`` (exact, then ignoring case and surrounding spaces).

        Raises:
            ScoreInputError: naming ``field``, with up to three close card names.
        """
        if not isinstance(name, str):
            raise ScoreInputError.coded(field, "race.card_name", got=repr(name))
        if name in self._cards:
            return self._cards[name]
        folded = name.strip().casefold()
        for card_name, card in self._cards.items():
            if card_name.casefold() == folded:
                return card
        raise ScoreInputError.coded(field, "race.unknown_card", closest_names(name, self._cards), card=repr(name))

    @property
    def start_worlds(self) -> tuple[Card, ...]:
        """The five start worlds, by number 0-4."""
        return tuple(sorted((c for c in self._cards.values() if c.start_world is not None),
                            key=lambda c: c.start_world or 0))


def _read_json(filename: str) -> Any:
    path = resources.files(DATA_PACKAGE).joinpath(*DATA_DIR, filename)
    return json.loads(path.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def cards() -> CardSet:
    """The 95 distinct base-game cards from ``rules/data/race/cards.json`` (read once)."""
    raw = _read_json("cards.json")
    return CardSet({c["name"]: _card(c) for c in raw["cards"]}, raw["_meta"])


@lru_cache(maxsize=1)
def facts() -> Mapping[str, Any]:
    """The game's facts other than cards, from ``rules/data/race/game.json`` (read once)."""
    return _read_json("game.json")
