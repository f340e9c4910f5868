"""Hungarian words for the game's own terms are one word each across the box (the Hungarian catalog).

Among the Stars' table in Hungarian read "Év: 1/4, forduló: 1/6" over round buttons "1. kör" and a Next of "Forduló
vége": one round, two words. A round is a "kör" everywhere, as the Hungarian Among the Stars rulebook says it ("Kör
Áttekintése", round overview) and as every other game's table already did."""

from __future__ import annotations

import re

import pytest

from tests.catalogs import pairs

ROUND = re.compile(r"\brounds?\b", re.I)
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def test_a_round_is_a_kor_in_every_hungarian_message():
    """Every message that names a round (not only a placeholder that says it) says "kör" and never "forduló"."""
    naming = [(english, said) for english, said in pairs("hu") if ROUND.search(PLACEHOLDER.sub("", english))]
    assert len(naming) > 30  # the rounds of four games: a check that would see them
    assert [(english, said) for english, said in naming if "kör" not in said.lower()] == []
    assert [said for _english, said in pairs("hu") if "fordul" in said.lower()] == []


THESE_NAMES = re.compile(r"\b(?:ezek|azok|rájuk|nekik|őket|tőlük|ők)\w*\b[^.;]*\{(?:players|names)\}")
"""A list of names under a plural pronoun ("koppints a képen ezek helyére: {players}", "várakozás rájuk: {players}"):
the list may hold one name, and "ezek helyére: Anna" (these ones' seats: Anna) is wrong for her alone; the list
stands after a lead-in that fits one name or more ("várakozás a fázisválasztásra: Anna")."""


@pytest.mark.parametrize("text, found", [
    ("koppints a képen ezek helyére: {players}, vagy Egyenlő felosztás", True),
    ("várakozás ezek fázisválasztására: {names}", True),
    ("az Akció fázis véget ér, mielőtt ezek passzoltak: {players}", True),
    ("az Akció fázis akkor ér véget, ha mindenki passzolt (várakozás rájuk: {players})", True),
    ("koppints a képen minden játékos helyére ({players}), vagy Egyenlő felosztás", False),
    ("várakozás a fázisválasztásra: {names}", False),
    ("az Akció fázis véget ér passz nélkül: {players}", False),
])
def test_a_plural_pronoun_before_a_list_of_names_is_found(text, found):
    assert bool(THESE_NAMES.search(text)) is found


def test_no_hungarian_list_of_names_stands_under_a_plural_pronoun():
    """Every Hungarian message with a list of names reads right for one name: the setup's "koppints a képen minden
    játékos helyére (Anna)", the waiting lines "várakozás a fázisválasztásra: Anna", Eclipse's early end of the Action
    phase "az Akció fázis véget ér passz nélkül: Anna" ("ezek …: Anna" and "várakozás rájuk: Anna" before)."""
    assert [(english, said) for english, said in pairs("hu") if THESE_NAMES.search(said)] == []
