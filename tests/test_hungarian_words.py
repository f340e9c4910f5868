"""Hungarian words for the game's own terms are one word each across the box (the Hungarian catalog).

Among the Stars' table in Hungarian read "Év: 1/4, forduló: 1/6" over round buttons "1. kör" and a Next of "Forduló
vége": one round, two words. A round is a "kör" everywhere, as the Hungarian Among the Stars rulebook says it ("Kör
Áttekintése", round overview) and as every other game's table already did."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

CATALOG = Path(__file__).resolve().parents[1] / "companion" / "locale" / "hu" / "LC_MESSAGES" / "companion.po"

ROUND = re.compile(r"\brounds?\b", re.I)
PLACEHOLDER = re.compile(r"\{[^}]*\}")


def messages() -> list[tuple[str, str]]:
    """Every ``(English, Hungarian)`` pair of the catalog (each plural form its own pair)."""
    with CATALOG.open("rb") as handle:
        catalog = read_po(handle, locale="hu")
    pairs = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        said = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs += [(english[min(k, len(english) - 1)], text) for k, text in enumerate(said) if text]
    return pairs


def test_a_round_is_a_kor_in_every_hungarian_message():
    """Every message that names a round (not only a placeholder that says it) says "kör" and never "forduló"."""
    naming = [(english, said) for english, said in messages() if ROUND.search(PLACEHOLDER.sub("", english))]
    assert len(naming) > 30  # the rounds of four games: a check that would see them
    assert [(english, said) for english, said in naming if "kör" not in said.lower()] == []
    assert [said for _english, said in messages() if "fordul" in said.lower()] == []
