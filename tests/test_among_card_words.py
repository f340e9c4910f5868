"""Among the Stars' cards are named alike in every message of a language (the box's catalogs).

The convention (``rules/names.py``, ``rules/data/among_the_stars/names.json``): a card is named as the players'
edition names it. The seeds hold one Among the Stars rulebook, the Hungarian (seed 004: "Főreaktor", "Erőmű",
"Holografikus Kivetítő" ...); the cards themselves are printed in English, and Greek and Polish have no edition in
the seeds, so Greek and Polish say every card's printed English name ("Power Reactor", "Main Reactor", "Solar
Panels"), the common noun "reactor" in their own words ("αντιδραστήρας", "reaktor"). Before, Greek wrote
"Αντιδραστήρας Ενέργειας" in fixed messages while the same card filled into a message read "Power Reactor", and
Polish "Zbudowano Power Reactor" beside a Greek "Αντιδραστήρας χτίστηκε".

Greek grammar of the English names: a reactor is masculine, as "ο αντιδραστήρας" (``tests/test_greek_words.py``);
a location card is feminine, as "η κάρτα" ("δίπλα της", "το κόστος της"), and is named bare or as "η κάρτα {card}",
never under a neuter article.
"""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from rules.names import names
from tests.catalogs import catalog, pairs


def _cards() -> list[tuple[str, str, str]]:
    """(printed English name, kind, id) of every location and reactor, longest name first ("Vak Main Reactor"
    before "Main Reactor")."""
    raw = json.loads((resources.files("rules") / "data" / "among_the_stars" / "cards.json").read_text("utf-8"))
    out = [(c["name"], kind, c["id"]) for part, kind in (("locations", "location"), ("reactors", "reactor"))
           for c in raw[part]]
    return sorted(out, key=lambda t: -len(t[0]))


def misnamed(lang: str) -> list[tuple[str, str, str]]:
    """(card, English, translation) for each message of ``lang`` whose English names a card the translation does
    not name as :func:`rules.names.names` does (Hungarian inflects: the name's stem, less its last letter)."""
    found = []
    cards = _cards()
    for english, said in pairs(lang):
        left = english
        for name, kind, id_ in cards:
            pattern = re.compile(r"\b" + re.escape(name) + r"s?\b")
            if not pattern.search(left):
                continue
            left = pattern.sub("", left)
            want = names(f"among_the_stars.{kind}", id_, lang)
            if (want[:-1] if lang == "hu" else want) not in said:
                found.append((name, english, said))
    return found


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_every_message_names_a_card_as_the_edition_does(lang):
    assert misnamed(lang) == []


def test_the_check_finds_a_card_translated_against_the_convention():
    """Hand-made cases: the Greek "Αντιδραστήρας Ενέργειας" for Power Reactor is found; the Hungarian "Erőművet"
    (the rulebook's Erőmű, inflected) is not."""
    assert "Power Reactor" in names("among_the_stars.reactor", "power_reactor", "el")
    assert names("among_the_stars.reactor", "power_reactor", "hu") == "Erőmű"
    assert names("among_the_stars.reactor", "power_reactor", "hu")[:-1] in "Erőművet épített"
    assert names("among_the_stars.reactor", "power_reactor", "el") not in "χτίστε Αντιδραστήρα Ενέργειας"


GREEK_REACTOR_WORDS = re.compile(r"Αντιδραστήρ\w* Ενέργειας|Κύρι\w* Αντιδραστήρ")
"""The Greek renderings of the reactor cards' names the catalog used to mix with their printed English."""

LOCATION_NOT_FEMININE = re.compile(r"\b(?:δίπλα|πάνω|κόστος|ενέργειά) του\b|\bαυτό θα\b|\b[Ττ]ο \{(?:card|dome)\}"
                                   r"|\b[Σσ]το \{(?:card|dome)\}|\bτα (?:Backup|Solar)|\bχτίστηκε πρώτο\b")
"""A location card referred to as neuter or masculine ("δίπλα του", "το {card}", "τα Backup Reactor και Solar
Panels") where the convention is "η κάρτα": "δίπλα της", "την κάρτα {card}", "οι κάρτες Backup Reactor …"."""


def _among_greek() -> list[tuple[str, str]]:
    """(English, Greek) of the messages Among the Stars' rules and flow say."""
    out = []
    for message in catalog("el"):
        if not message.id or not any("among" in path for path, _line in message.locations):
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        out += [(english, s) for s in strings]
    return out


@pytest.mark.parametrize(("text", "found"), [
    ("{card} στο {cell}: ο αντιδραστήρας δίπλα του χτίστηκε το ίδιο έτος", True),
    ("το κελί {cell} έχει ήδη το {card} ({other})", True),
    ("μόνο τα Backup Reactor και Solar Panels προσθέτουν", True),
    ("{card} στο {cell}: ο αντιδραστήρας δίπλα της χτίστηκε το ίδιο έτος", False),
    ("το κελί {cell} έχει ήδη την κάρτα {card} ({other})", False),
])
def test_a_location_not_named_as_a_card_is_found(text, found):
    assert bool(LOCATION_NOT_FEMININE.search(text)) is found


def test_greek_names_reactor_cards_as_printed_and_locations_as_cards():
    """Every Greek message says the reactor cards as printed ("Main Reactor", not "Κύριος Αντιδραστήρας"), and
    refers to a location as "η κάρτα" (feminine), as most of the catalog already did ("δίπλα της", "πάρτε την
    πίσω")."""
    assert [s for _e, s in pairs("el") if GREEK_REACTOR_WORDS.search(s)] == []
    among = _among_greek()
    assert len(among) > 100
    assert [(e, s) for e, s in among if LOCATION_NOT_FEMININE.search(s)] == []


def test_greek_reactor_lists_and_distances_read_as_sentences():
    """"ο Main Reactor (στη θέση του Main Reactor): σε απόσταση 3" and "μπορεί να έρθει από: ο Power Reactor …" (a
    nominative after "από") read stiffly: the reactor is the subject of "είναι", and the list of reactors that can
    pay is the subject of "μπορούν να την πληρώσουν"."""
    said = dict(pairs("el"))
    far = said["{card} ({cell}): the {reactor} is {far}, and energy comes from within distance {rng}; "
               "it can come from: {reactors}"]
    assert "ο {reactor} είναι {far}" in far and far.endswith("μπορούν να την πληρώσουν: {reactors}")
    none = said["{card}: no reactor {cell} pays its energy; it can come from: {reactors}"]
    assert none.endswith("μπορούν να την πληρώσουν: {reactors}") and "από: {reactors}" not in none
    assert said["the {reactor}"] == "ο {reactor}"  # each item of {reactors}, a subject (with its place, if not the
    assert said["{reactor} ({place})"] == "{reactor} ({place})"  # Main Reactor, which every place is counted from)
