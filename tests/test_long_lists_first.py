"""Roll's Tile built (110 sides) and Race's Card placed (95 cards) list first what the player most likely means, under
labels, then every other choice (found at the table: a player scrolled an alphabetical list of over a hundred names to
find the tile on their own construction zone). An order only: any choice can still be reported."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion import i18n
from companion.flows import FLOWS
from rules.race.cards import cards
from rules.roll.data import catalogue
from tests.test_flow import faction_label, start


def groups(flow, player: str, form: str, field: str) -> dict:
    return flow.view()["choice_groups"][player][form][field]


def roll_at_develop(store):
    """Roll, 2 players (p.2 Setup: each draws 2 tiles, one development side up in the development stack, one world side
    up in the world stack): Ann's zone Advanced Logistics / Spice World, Bob's Alien Research Team / Information Hub;
    Ann selects Develop, Bob Settle; revealed, II Develop runs."""
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop
    return flow


def test_roll_tile_built_lists_the_zone_then_the_phases_side_of_the_tiles_still_in_the_bag(store):
    """p.6 Develop: workers complete the top development of your stack; p.1 Components: each tile exists once. In II
    Develop Ann sees her zone (development stack first), then the developments of the 55 game tiles less the 4 tiles
    in the two zones (51), then the rest; in III Settle, once Advanced Logistics is built, Spice World alone in her
    zone, then the worlds of the 51 tiles still in the bag (her built tile and Bob's two are no longer there)."""
    flow = roll_at_develop(store)
    ann = groups(flow, "Ann", "tile", "tile")
    assert [str(g["label"]) for g in ann["groups"]] == ["In your construction zone", "Developments"]
    assert ann["groups"][0]["choices"] == ["Advanced Logistics", "Spice World"] and ann["rest"] == "Other tiles"
    developments = ann["groups"][1]["choices"]
    assert len(developments) == 55 - 4 and developments == sorted(developments)
    cat = catalogue()
    assert all(n in cat.developments for n in developments)
    for held in ("Advanced Logistics", "Alien Research Ship", "Alien Research Team", "Alien Uplift Blueprints"):
        assert held not in developments  # the development sides of the tiles in both zones
    assert groups(flow, "Bob", "tile", "tile")["groups"][0]["choices"] == ["Alien Research Team", "Information Hub"]
    flow.report("Ann", "tile", {"tile": "Advanced Logistics"})
    flow.next_phase()  # III Settle
    ann = groups(flow, "Ann", "tile", "tile")
    assert ann["groups"][0]["choices"] == ["Spice World"]
    worlds = ann["groups"][1]["choices"]
    assert str(ann["groups"][1]["label"]) == "Worlds" and len(worlds) == 55 - 4
    assert "Designer Species, Ultd." not in worlds and "Rebel Warrior Race" not in worlds
    assert all(n in cat.worlds for n in worlds)


def test_roll_groups_only_order_the_list_every_tile_can_still_be_reported(store):
    """A tile from the rest (not in Ann's zone, its tile in the bag) is recorded as before."""
    flow = roll_at_develop(store)
    flow.report("Ann", "tile", {"tile": "Galactic Renaissance"})
    ann = next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")
    assert "Galactic Renaissance" in ann["developments"]


def test_roll_outside_develop_and_settle_only_the_zone_comes_first(store):
    """Before Reveal (p.3 Assign) nothing is built; the zone is still what Ann most likely means, the rest follows
    alphabetically as the field has it."""
    flow = start(store, "roll")
    assert flow.view()["choice_groups"]["Ann"] == {}  # no setup yet: no zone known
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    ann = groups(flow, "Ann", "tile", "tile")
    assert [g["choices"] for g in ann["groups"]] == [["Advanced Logistics", "Spice World"]]


def race_view(phase: str, ann: list[str], bob: list[str]) -> dict:
    return {"players": [{"name": "Ann", "tableau": [{"card": c, "goods": 0} for c in ann]},
                        {"name": "Bob", "tableau": [{"card": c, "goods": 0} for c in bob]}],
            "steps": [{"phase": phase}], "step": 0}


PHASES = SimpleNamespace(stage="phases")


def test_race_develop_lists_the_developments_ann_can_place_first():
    """Race for the Galaxy, Develop phase: a development joins the tableau, and a tableau holds one copy of each
    development; the deck holds 2 Contact Specialists. Ann has one: she cannot place another, Bob (none yet) can."""
    view = race_view("develop", ["Old Earth", "Contact Specialist"], ["Epsilon Eridani"])
    deck = cards()
    ann = FLOWS["race"].choice_groups(view, PHASES, "Ann")["card"]["card"]
    bob = FLOWS["race"].choice_groups(view, PHASES, "Bob")["card"]["card"]
    assert [str(g["label"]) for g in ann["groups"]] == ["Developments"] and ann["rest"] == "Other cards"
    first = ann["groups"][0]["choices"]
    assert "Contact Specialist" not in first and "Contact Specialist" in bob["groups"][0]["choices"]
    assert all(deck[n].is_development for n in first) and len(first) == sum(c.is_development for c in deck.values()) - 1


def test_race_settle_lists_the_worlds_with_a_copy_left_first():
    """Settle phase: a world joins the tableau; the deck holds one Gem World: once Bob has it, nobody is offered it
    first (components), and neither is a start world in play."""
    view = race_view("settle", ["Old Earth"], ["Epsilon Eridani", "Gem World"])
    first = FLOWS["race"].choice_groups(view, PHASES, "Ann")["card"]["card"]["groups"][0]["choices"]
    assert str(FLOWS["race"].choice_groups(view, PHASES, "Ann")["card"]["card"]["groups"][0]["label"]) == "Worlds"
    assert "Gem World" not in first and "Old Earth" not in first and "Epsilon Eridani" not in first
    assert "Alpha Centauri" in first and "Contact Specialist" not in first


@pytest.mark.parametrize("phase, stage", [("consume", "phases"), ("explore", "phases")])
def test_race_other_phases_keep_the_list_as_it_is(phase, stage):
    assert FLOWS["race"].choice_groups(race_view(phase, [], []), SimpleNamespace(stage=stage), "Ann") == {}


def test_race_between_rounds_keeps_the_list_as_it_is(store):
    flow = start(store, "race")
    flow.report("Ann", "start", {"card": "Old Earth"})
    assert flow.view()["choice_groups"]["Ann"] == {}


@pytest.mark.parametrize("lang, zone, developments, rest", [
    ("el", "Στη ζώνη κατασκευών σας", "Τεχνολογίες", "Άλλα πλακίδια"),
    ("pl", "W twojej strefie budowy", "Technologie", "Pozostałe kafelki"),
    ("hu", "Az építési területeden", "Fejlesztések", "A többi lapka"),
])
def test_the_group_labels_are_said_in_each_language(store, lang, zone, developments, rest):
    flow = roll_at_develop(store)
    said = i18n.localize(groups(flow, "Ann", "tile", "tile"), lang)
    assert [g["label"] for g in said["groups"]] == [zone, developments] and said["rest"] == rest


@pytest.mark.parametrize("lang, words", [("el", ("Αναπτύξεις", "Άλλες κάρτες")),
                                         ("pl", ("Technologie", "Pozostałe karty")),
                                         ("hu", ("Fejlesztések", "A többi kártya"))])
def test_race_labels_are_said_in_each_language(lang, words):
    got = FLOWS["race"].choice_groups(race_view("develop", [], []), PHASES, "Ann")["card"]["card"]
    said = i18n.localize(got, lang)
    assert (said["groups"][0]["label"], said["rest"]) == words


def test_race_good_placed_in_produce_lists_production_worlds_before_windfall_ones(store):
    """Race for the Galaxy, Produce phase: a production world produces; a windfall world only with the Produce
    action's bonus or a windfall power. Ann starts on Alpha Centauri (a windfall world) and settles Spice World (a
    production world); Bob selects Produce, so V Produce is played. Her Good placed lists Spice World first under
    "Production worlds", and the windfall worlds after under a heading saying when they produce: at the table her
    phone offered Alpha Centauri first and the box then called the good a misplay. Only the order: Bob, whose tableau
    holds no windfall world, gets no groups."""
    flow = start(store, "race")
    flow.report("Ann", "start", {"card": "Alpha Centauri"})
    flow.report("Bob", "start", {"card": "Old Earth"})
    flow.report("Ann", "select", {"action": "Settle"})
    flow.report("Bob", "select", {"action": "Produce"})
    flow.report("Ann", "card", {"card": "Spice World"})
    flow.next_phase()  # V Produce
    order = flow.view()["choice_groups"]["Ann"]["good"]["world"]
    assert [(str(g["label"]), g["choices"]) for g in order["groups"]] == [("Production worlds", ["Spice World"])]
    # Ann chose Settle, not Produce, and has no windfall power: the heading says nothing of hers makes them produce
    assert str(order["rest"]) == ("Windfall worlds: they produce nothing for you this phase, as you have neither the "
                                  "Produce bonus nor a windfall power for them (Race for the Galaxy, Produce phase)")
    assert flow.view()["choice_groups"]["Bob"] == {}
    said = i18n.localize(order["rest"], "pl")
    assert said.startswith("Światy windfall: w tej fazie nic dla ciebie nie produkują")


def _produce_view(ann: list[str], bonus: list[str]) -> dict:
    """V Produce with Ann's tableau ``ann`` and her action ids with the bonus in it."""
    view = race_view("produce", ann, ["Old Earth"])
    view["steps"][0]["bonus"] = {"Ann": bonus} if bonus else {}
    return view


def test_race_produce_names_the_bonus_ann_chose():
    """Race for the Galaxy, Produce phase: the player who chose Produce also produces on one windfall world that has
    no good (the bonus). Ann chose Produce: her windfall worlds Alpha Centauri (Rare) and Refugee World (Novelty) come
    after Gem World (a production world) under a heading naming the bonus."""
    view = _produce_view(["Alpha Centauri", "Gem World", "Refugee World"], ["produce"])
    order = FLOWS["race"].choice_groups(view, PHASES, "Ann")["good"]["world"]
    assert [(str(g["label"]), g["choices"]) for g in order["groups"]] == [
        ("Production worlds", ["Gem World"]),
        ("Windfall worlds you may produce on with the Produce bonus (Race for the Galaxy, Produce phase)",
         ["Alpha Centauri", "Refugee World"])]


def test_race_produce_names_a_windfall_power_for_its_kind_only():
    """Produce phase: Mining Robots produces on a Rare windfall world. Ann has it and did not choose Produce: Alpha
    Centauri (Rare) is listed under Mining Robots, Refugee World (Novelty) under the heading saying nothing of hers
    produces on it."""
    view = _produce_view(["Alpha Centauri", "Mining Robots", "Refugee World"], [])
    order = FLOWS["race"].choice_groups(view, PHASES, "Ann")["good"]["world"]
    assert [(str(g["label"]), g["choices"]) for g in order["groups"]] == [
        ("Production worlds", []),
        ("Windfall worlds you may produce on with Mining Robots (Race for the Galaxy, Produce phase)",
         ["Alpha Centauri"])]
    assert str(order["rest"]).startswith("Windfall worlds: they produce nothing for you this phase")
    both = _produce_view(["Alpha Centauri", "Mining Robots"], ["produce"])
    label = FLOWS["race"].choice_groups(both, PHASES, "Ann")["good"]["world"]["groups"][1]["label"]
    assert str(label) == ("Windfall worlds you may produce on with the Produce bonus or Mining Robots (Race for the "
                          "Galaxy, Produce phase)")
    assert i18n.localize(label, "pl") == ("Światy windfall, na których możesz produkować dzięki: premia Produkcji lub "
                                          "Mining Robots (Race for the Galaxy, faza Produkcji)")
