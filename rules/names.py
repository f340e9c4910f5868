"""Game terms per language: ``names(kind, id, lang)``, with English where a language has no term.

The players' editions name a game's parts in their own language: the Greek Roll for the Galaxy
rulebook its phases and dice, the Polish Race for the Galaxy rulebook its phases and card types, the
Hungarian Among the Stars rulebook some locations, the reactors and the location types, the Greek Eclipse: Rise
of the Ancients rulebook its Rare Technologies, Developments, two Discoveries and some base technologies. Those names
are package data, ``rules/data/<game>/names.json``, each with its source (the rulebook transcript's
file, line and a quote of that line). A name an edition does not give is absent there, never made
up: :func:`names` then answers the English name, which comes from the game's component data
(tiles, cards, locations, phases) or, for the kinds that have none there, from ``names.json``.

Kinds (``"<game>.<kind>"``) and their ids:

- ``roll.phase`` (``explore`` ... ``ship``), ``roll.face`` (the phases and ``wild``), ``roll.step``
  (``roll``, ``assign``, ``reveal``, ``phases``, ``manage``), ``roll.die`` and ``roll.colour`` (die and
  world colours, ``white`` ... ``gray``), ``roll.tile`` (a tile side's English name, tiles.json);
- ``race.phase`` (``explore`` ... ``produce``, game.json), ``race.action`` (action card ids, game.json),
  ``race.card`` (a card's English name, cards.json), ``race.card_type`` (``world``, ``development``);
- ``among_the_stars.location``, ``.reactor``, ``.objective``, ``.race`` (ids of cards.json) and
  ``among_the_stars.location_type`` (``administrative`` ... ``recreation``);
- ``eclipse.technology`` (a technology's English name: the base game's 24 and the 10 Rare Technologies,
  ``rules.eclipse.data``), ``eclipse.development`` (the 8 Development tiles' English names) and
  ``eclipse.discovery`` (the Discoveries laid on a hex, ``rules.eclipse.data.DISCOVERIES``).

Pure: reads package data only, no I/O beyond it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from rules.core import RulesError

__all__ = ["LANGUAGES", "Term", "UnknownTerm", "WORD_KINDS", "kinds", "names", "source", "term", "translated"]

LANGUAGES = ("en", "el", "pl", "hu")
"""The box's languages (ISO 639-1): English, Greek, Polish, Hungarian."""

GAMES = ("roll", "race", "among_the_stars", "eclipse")
"""The games with a ``names.json``."""


class UnknownTerm(RulesError, LookupError):
    """No such kind, or no such id of that kind; the message names both and what exists."""


def _data(game: str, filename: str) -> Any:
    text = (resources.files("rules") / "data" / game / filename).read_text(encoding="utf-8")
    return json.loads(text)


def _by(records: list[Mapping[str, Any]], key: str = "id", value: str = "name") -> dict[str, str]:
    return {str(r[key]): str(r[value]) for r in records}


def _roll_tiles() -> dict[str, str]:
    tiles = _data("roll", "tiles.json")
    sides = [side for tile in tiles["game_tiles"] for side in (tile["development"], tile["world"])]
    sides += [tile["development"] for tile in tiles["faction_tiles"]]
    sides += [world for tile in tiles["faction_tiles"] for world in tile["worlds"]]
    sides += tiles["home_worlds"]
    return {side["name"]: side["name"] for side in sides if side}  # a faction tile may have no development side


def _race_game(part: str, value: str) -> Callable[[], dict[str, str]]:
    return lambda: _by(_data("race", "game.json")[part], value=value)


def _among(part: str) -> Callable[[], dict[str, str]]:
    return lambda: _by(_data("among_the_stars", "cards.json")[part])


def _eclipse(*parts: str) -> Callable[[], dict[str, str]]:
    def english() -> dict[str, str]:
        from rules.eclipse import data  # the component names; imported when first asked (rules.eclipse says terms)

        return {name: name for part in parts for name in getattr(data, part)}

    return english


_ENGLISH: dict[str, Callable[[], dict[str, str]]] = {
    "roll.tile": _roll_tiles,
    "race.phase": _race_game("phases", "name"),
    "race.action": _race_game("actions", "card"),
    "race.card": lambda: {c["name"]: c["name"] for c in _data("race", "cards.json")["cards"]},
    "among_the_stars.location": _among("locations"),
    "among_the_stars.reactor": _among("reactors"),
    "among_the_stars.objective": _among("objectives_base"),
    "among_the_stars.race": _among("races"),
    "eclipse.technology": _eclipse("TECHNOLOGIES", "RARE_TECHNOLOGIES"),
    "eclipse.development": _eclipse("DEVELOPMENTS"),
    "eclipse.discovery": _eclipse("DISCOVERIES"),
}
"""Kinds whose English names are in the game's component data: kind -> () -> {id: English name}."""


@cache
def _terms() -> dict[str, dict[str, dict[str, Any]]]:
    """kind -> id -> {"en": English, lang: {"name", "seed", "line", "quote"}} from every names.json,
    with the English of the component data filled in."""
    terms: dict[str, dict[str, dict[str, Any]]] = {}
    for game in GAMES:
        for kind, entries in _data(game, "names.json").items():
            if not kind.startswith("_"):
                terms[f"{game}.{kind}"] = {str(k): dict(v) for k, v in entries.items()}
    for kind, english in _ENGLISH.items():
        entries = terms.setdefault(kind, {})
        for id_, name in english().items():
            entries.setdefault(id_, {})["en"] = name
    return terms


def kinds() -> tuple[str, ...]:
    """Every kind, e.g. ``("roll.phase", ..., "among_the_stars.location_type")``."""
    return tuple(sorted(_terms()))


def _entry(kind: str, id: str) -> dict[str, Any]:
    terms = _terms()
    if kind not in terms:
        raise UnknownTerm(f"no kind of game term {kind!r}: the kinds are {', '.join(sorted(terms))}")
    entry = terms[kind].get(str(id))
    if entry is None:
        known = sorted(terms[kind])
        shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
        raise UnknownTerm(f"no {kind} {id!r}: the ids are {shown}")
    return entry


def names(kind: str, id: str, lang: str) -> str:
    """The name of ``id`` of ``kind`` in ``lang``, as that language's edition prints it; English when
    the edition gives none (or ``lang`` is not one of :data:`LANGUAGES`).

    Examples: ``names("roll.phase", "settle", "el") == "Αποίκιση"``,
    ``names("roll.tile", "Space Piracy", "el") == "Space Piracy"`` (the Greek rulebook keeps tile
    names in English), ``names("among_the_stars.location", "restaurant", "hu") == "Étterem"``,
    ``names("eclipse.technology", "Antimatter Splitter", "el") == "Διαχωριστής Αντιύλης"``.

    Raises:
        UnknownTerm: no such kind, or no such id of it.
    """
    entry = _entry(kind, id)
    term = entry.get(lang)
    if isinstance(term, Mapping):
        return _named(term, lang)
    return str(entry["en"])


def _named(term: Mapping[str, Any], lang: str) -> str:
    """A translation's name: its ``name``, or for a name the edition makes of two it prints (``"of"``: the Vak's
    own Main Reactor, named by the race and the edition's word for a Main Reactor, as the English card is), those
    names in ``lang`` joined by a space."""
    if "of" in term:
        return " ".join(names(kind, id_, lang) for kind, id_ in term["of"])
    return str(term["name"])


def translated(kind: str, lang: str) -> dict[str, str]:
    """``{id: name}`` of the ids of ``kind`` that ``lang``'s edition names (English: every id).

    Raises:
        UnknownTerm: no such kind.
    """
    _entry_kind = _terms().get(kind)
    if _entry_kind is None:
        raise UnknownTerm(f"no kind of game term {kind!r}: the kinds are {', '.join(kinds())}")
    if lang == "en":
        return {id_: str(e["en"]) for id_, e in _entry_kind.items()}
    return {id_: _named(e[lang], lang) for id_, e in _entry_kind.items() if isinstance(e.get(lang), Mapping)}


def source(kind: str, id: str, lang: str) -> dict[str, Any] | None:
    """Where ``lang``'s name of ``id`` comes from: ``{"name", "seed" (file in shared/seeds/), "line"
    (1-based), "quote" (from that line)}`` and maybe ``"page"`` (the rulebook's page that line holds) and
    ``"note"``; for a name made of two the edition prints, ``{"name", "of": [[kind, id], ...], "note"}`` (each
    part has its own source, or is a name the same in both editions); None for English or a name the
    edition does not give.

    Raises:
        UnknownTerm: no such kind, or no such id of it.
    """
    term = _entry(kind, id).get(lang)
    if not isinstance(term, Mapping):
        return None
    return dict(term, name=_named(term, lang))


WORD_KINDS = frozenset({"roll.colour", "roll.phase", "roll.face", "roll.step", "roll.die", "race.phase",
                        "race.action", "race.card_type"})
"""Kinds whose English is an ordinary word (a die's colour, a phase, a step of the round, an action card's title),
not a name printed on a single component: where the player's edition gives none (Roll has no Polish or Hungarian
edition, Race no Greek or Hungarian one), the box says it from its message catalog (``companion.i18n.localize``)
rather than in English, so one screen speaks one language. Card, tile and location names stay as printed."""


class Term(str):
    """A game term in a message: the ``str`` of its English name that keeps its kind and id, so the box says it
    as the player's edition prints it (``companion.i18n.localize`` asks :func:`names`).

    Attributes:
        kind: the term's kind (``"roll.phase"``).
        id: its id within the kind (``"settle"``).
    """

    kind: str
    id: str

    def __new__(cls, kind: str, id: str) -> Term:
        self = str.__new__(cls, names(kind, id, "en"))
        self.kind, self.id = kind, str(id)
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Term, (self.kind, self.id))

    def __deepcopy__(self, memo: dict[int, Any]) -> Term:
        return self

    def __copy__(self) -> Term:
        return self

    def said(self, lang: str) -> str:
        """This term in ``lang`` (:func:`names`)."""
        return names(self.kind, self.id, lang)


def term(kind: str, id: Any) -> str:
    """``id`` of ``kind`` as a :class:`Term` when it is a known one, else ``str(id)`` as it is (a name a player
    typed, a card the data does not list): a message never fails for want of a term."""
    try:
        return Term(kind, str(id))
    except UnknownTerm:
        return str(id)
