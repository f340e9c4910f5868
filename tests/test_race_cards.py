"""Race for the Galaxy card data and game facts as package data (rules/data/race/)."""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path

import pytest

from rules.race.cards import cards, facts

SHARED = Path(os.environ.get("TABLETOP_SHARED") or Path(__file__).resolve().parents[1].parent / "shared")
DATA = resources.files("rules").joinpath("data", "race")


def test_base_game_card_counts():
    # Digest §1 (seed): 5 start worlds + 109 game cards = 114; 59 + 5 worlds, 50 developments.
    deck = cards()
    assert len(deck) == 95
    assert sum(c.count for c in deck.values()) == 114
    assert sum(c.count for c in deck.values() if c.is_development) == 50
    assert sum(c.count for c in deck.values() if c.is_world) == 64
    assert [c.name for c in deck.start_worlds] == ["Old Earth", "Epsilon Eridani", "Alpha Centauri", "New Sparta",
                                                   "Earth's Lost Colony"]


def test_twelve_cost_six_developments_have_bonus_rules():
    # Digest §7 lists the 12 cost-6 ("?") developments of the base game.
    six = sorted(c.name for c in cards().values() if c.is_six_cost)
    assert six == sorted([
        "Alien Tech Institute", "Free Trade Association", "Galactic Federation", "Galactic Imperium",
        "Galactic Renaissance", "Galactic Survey: SETI", "Merchant Guild", "Mining League", "New Economy",
        "New Galactic Order", "Pan-Galactic League", "Trade League",
    ])
    assert all(cards()[n].vp_bonus and cards()[n].vp == 0 for n in six)


def test_every_card_names_its_sources_and_the_sources_are_described():
    deck = cards()
    described = set(deck.meta["sources"])
    for card in deck.values():
        assert card.sources and set(card.sources) <= described, card.name
    assert all("third-party-start-numbers" in c.sources for c in deck.start_worlds)


def test_gpl_notice_and_raw_source_sit_beside_the_derived_data():
    assert "GNU GENERAL PUBLIC LICENSE" in DATA.joinpath("keldon_cards_COPYING.txt").read_text(encoding="utf-8")
    assert "N:Old Earth" in DATA.joinpath("keldon_cards_base.txt").read_text(encoding="utf-8")
    readme = DATA.joinpath("README.md").read_text(encoding="utf-8")
    assert "GNU General Public" in readme and "keldon_cards_COPYING.txt" in readme


def test_game_facts_with_sources():
    f = facts()
    assert [p["number"] for p in f["phases"]] == [1, 2, 3, 4, 5]
    assert f["vp_pool_per_player"]["value"] == 12 and f["hand_limit"]["value"] == 10 and f["tableau_end"]["value"] == 12
    assert len([a for a in f["actions"] if not a["advanced_only"]]) == 7  # seed: 7 action cards per player
    assert len(f["actions"]) == 9  # advanced 2-player game: 9 (digest §3)
    for key, value in f.items():
        if key != "_meta" and isinstance(value, dict):
            assert value.get("source"), key
    assert all(a["source"] for a in f["actions"]) and all(p["source"] for p in f["phases"])


@pytest.mark.shared
def test_package_copy_matches_the_shared_reference_data():
    source = SHARED / "data" / "race"
    if not source.is_dir():
        pytest.skip(f"shared reference data not found at {source} (set TABLETOP_SHARED)")
    shared = json.loads((source / "base_cards.json").read_text(encoding="utf-8"))
    ours = json.loads(DATA.joinpath("cards.json").read_text(encoding="utf-8"))
    strip = [{k: v for k, v in c.items() if k != "sources"} for c in ours["cards"]]
    assert strip == shared["cards"]
    for name in ("keldon_cards_base.txt", "keldon_cards_COPYING.txt"):
        assert DATA.joinpath(name).read_bytes() == (source / name).read_bytes(), name
