"""Roll for the Galaxy component data (rules/data/roll/*.json) against the rulebook's counts."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

from rules.roll import APPLIED, REMINDED, catalogue
from rules.roll.powers import reminder_phases, reminders_for


def raw(name: str) -> dict:
    return json.loads((resources.files("rules") / "data" / "roll" / name).read_text(encoding="utf-8"))


def test_dice_counts_and_specialties():
    # p.1 Components: 111 dice; white 25, red 22, purple 9, blue 20, brown 14, green 12, yellow 9.
    dice = catalogue().dice
    assert {c: d.count for c, d in dice.items()} == {
        "white": 25,
        "red": 22,
        "purple": 9,
        "blue": 20,
        "brown": 14,
        "green": 12,
        "yellow": 9,
    }
    assert sum(d.count for d in dice.values()) == 111
    # p.12: purple specialises in Ship x3, yellow in Wild x3; p.10: yellow has no Explore face.
    assert dice["purple"].faces.count("ship") == 3
    assert dice["yellow"].faces.count("wild") == 3
    assert "explore" not in dice["yellow"].faces
    # p.4 Reveal: the extra white die can never show Wild.
    assert "wild" not in dice["white"].faces
    assert all(len(d.faces) == 6 for d in dice.values())


def test_tile_counts_match_the_rulebook_table():
    # p.12: 55 game tiles; 15 Novelty (blue), 13 Rare Elements (brown), 9 Genes (green),
    # 7 Alien Technology (yellow), 11 other (gray) worlds; 18 Reassign developments, 34 with
    # other powers, 3 with immediate effects. p.1: 9 faction tiles, 9 home worlds.
    cat = catalogue()
    assert len(cat.game_tiles) == 55
    colours = Counter(t.world.colour for t in cat.game_tiles)
    assert colours == {"blue": 15, "brown": 13, "green": 9, "yellow": 7, "gray": 11}
    kinds = Counter(t.development.kind for t in cat.game_tiles)
    assert kinds["reassign"] == 18 and kinds["immediate"] == 3
    assert kinds["phase"] + kinds["continuous"] == 34
    assert len(cat.factions) == 9 and len(cat.home_worlds) == 9
    assert all(1 <= t.development.cost <= 6 and 1 <= t.world.cost <= 6 for t in cat.game_tiles)


def test_ten_cost6_developments_have_a_bonus_formula():
    cat = catalogue()
    six = {t.development.name for t in cat.game_tiles if t.development.cost == 6}
    assert len(six) == 10
    assert all(cat.developments[n].endgame for n in six)


def test_every_record_keeps_its_source_and_conflicts_are_marked():
    data = raw("tiles.json")
    assert data["discrepancies"], "the list of source conflicts is kept"
    assert all(t["source"] for t in data["game_tiles"])
    assert all(f["source"] for f in data["faction_tiles"])
    assert all(h["source"] for h in data["home_worlds"])
    flagged = {
        side["name"] for t in data["game_tiles"] for side in (t["development"], t["world"]) if side.get("discrepancy")
    }
    assert {
        "Galactic Survey Headquarters",
        "Deserted Alien Library",
        "Lost Alien Warship",
        "Alien Sentinels",
    } <= flagged
    assert all(d["source"] for d in raw("dice.json")["dice"])


def test_doomed_world_and_faction_9():
    # p.2 Setup: Doomed World gives no dice and its owner starts with $8; the faction with
    # Destroyed Colony has two worlds, both of which give dice.
    cat = catalogue()
    doomed = cat.worlds["Doomed World"]
    assert doomed.effect.gain_dice == () and doomed.effect.starting_credits == 8
    nine = cat.faction("Destroyed Colony")
    assert nine.development is None and len(nine.worlds) == 2
    assert all(w.effect.gain_dice for w in nine.worlds)


def test_every_power_is_applied_or_reminded_with_a_phase():
    cat = catalogue()
    for name, dev in cat.developments.items():
        assert name in APPLIED or name in REMINDED, name
        assert dev.power, name
        if name in REMINDED:
            phases = reminder_phases(dev)
            assert phases and set(phases) <= {"assign", "explore", "develop", "settle", "produce", "ship"}, name
    assert set(APPLIED) | REMINDED <= set(cat.developments)


def test_reminders_carry_their_phase():
    cat = catalogue()
    got = {
        (r.tile, r.phase)
        for r in reminders_for(
            "Ann", ["Improved Reconnaissance", "Backup Planning", "Space Docks", "Conscription"], cat
        )
    }
    assert got == {
        ("Improved Reconnaissance", "explore"),
        ("Backup Planning", "assign"),
        ("Space Docks", "ship"),
        ("Conscription", "develop"),
    }
    assert [r.tile for r in reminders_for("Ann", ["Space Docks", "Backup Planning"], cat, phase="ship")] == [
        "Space Docks"
    ]


def test_reassign_powers_have_structured_limits():
    cat = catalogue()
    for t in cat.game_tiles:
        if t.development.is_reassign:
            assert t.development.reassign is not None, t.development.name
            assert "workers" in t.development.reassign


def test_names_are_unique_across_sides():
    cat = catalogue()
    assert not set(cat.developments) & set(cat.worlds)
    assert cat.lookup("earth\u2019s lost colony") == "Earth's Lost Colony"
