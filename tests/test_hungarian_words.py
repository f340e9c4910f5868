"""Hungarian words for the game's own terms are one word each across the box (the Hungarian catalog).

Among the Stars' table in Hungarian read "Év: 1/4, forduló: 1/6" over round buttons "1. kör" and a Next of "Forduló
vége": one round, two words. A round is a "kör" everywhere, as the Hungarian Among the Stars rulebook says it ("Kör
Áttekintése", round overview) and as every other game's table already did."""

from __future__ import annotations

import re

from tests.catalogs import pairs

ROUND = re.compile(r"\brounds?\b", re.I)
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def test_a_round_is_a_kor_in_every_hungarian_message():
    """Every message that names a round (not only a placeholder that says it) says "kör" and never "forduló"."""
    naming = [(english, said) for english, said in pairs("hu") if ROUND.search(PLACEHOLDER.sub("", english))]
    assert len(naming) > 30  # the rounds of four games: a check that would see them
    assert [(english, said) for english, said in naming if "kör" not in said.lower()] == []
    assert [said for _english, said in pairs("hu") if "fordul" in said.lower()] == []
