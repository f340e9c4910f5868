"""Eclipse combat dice (rules/eclipse/combat.py), every value worked by hand.

A die hits when face + computers - shields >= 6; a 6 always hits, a 1 always misses. Damage: yellow (ion) 1,
orange (plasma) 2, red (antimatter) 4. Rise of the Ancients p.4 (Antimatter Splitter, Point Defense, Distortion
Shield), p.10 (allies, the Ancients' targets), p.17 (the combat example).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.eclipse.combat import (
    Die,
    Target,
    ancients_targets,
    expected_damage,
    firing_order,
    hit_probability,
    hits,
    point_defense,
    resolve_volley,
    sides,
    split_antimatter,
)


@pytest.mark.parametrize(("face", "computers", "shields", "hit"), [
    (6, 0, 5, True),   # a 6 always hits
    (1, 5, 0, False),  # a 1 always misses
    (5, 0, 0, False),  # 5 + 0 - 0 = 5
    (5, 1, 0, True),   # 5 + 1 = 6
    (4, 2, 0, True),   # 4 + 2 = 6 (the Point Defense roll of p.17: a 4 hits with the computer's help)
    (4, 2, 1, False),  # 4 + 2 - 1 = 5
    (2, 4, 0, True),   # 2 + 4 = 6
])
def test_computers_against_shields(face, computers, shields, hit):
    assert hits(face, computers, shields) is hit


@pytest.mark.parametrize(("computers", "shields", "p"), [
    (0, 0, Fraction(1, 6)),  # only the 6
    (1, 0, Fraction(2, 6)),  # 5, 6
    (2, 1, Fraction(2, 6)),  # net +1: 5, 6
    (3, 0, Fraction(4, 6)),  # 3, 4, 5, 6
    (5, 0, Fraction(5, 6)),  # 2-6: the 1 still misses
    (9, 0, Fraction(5, 6)),
    (0, 4, Fraction(1, 6)),  # the 6 still hits
])
def test_the_chance_a_die_hits(computers, shields, p):
    assert hit_probability(computers, shields) == p


def test_expected_damage_of_a_volley():
    # two ion cannons and an antimatter cannon with +1 computer against no shields: (1 + 1 + 4) x 2/6 = 2
    assert expected_damage(["yellow", "yellow", "red"], 1, 0) == 2
    assert expected_damage(["orange"] * 3, 0, 0) == Fraction(1)  # 3 x 2 x 1/6


def test_a_volley_says_which_dice_hit_and_the_damage():
    volley = resolve_volley([Die("yellow", 6), {"colour": "orange", "face": 5}, {"colour": "red", "face": 3},
                             {"colour": "red", "face": 1}], computers=1, shields=1)
    # 6 hits; 5 + 1 - 1 = 5 misses; 3 + 0 = 3 misses; 1 misses
    assert [r.hit for r in volley.results] == [True, False, False, False] and (volley.hits, volley.damage) == (1, 1)
    strong = resolve_volley([{"colour": "orange", "face": 5}, {"colour": "red", "face": 4}], computers=2)
    assert (strong.hits, strong.damage) == (2, 6)  # 5 + 2 and 4 + 2 both reach 6: 2 + 4 damage
    assert strong.to_json() == {"dice": [{"colour": "orange", "face": 5, "hit": True, "damage": 2},
                                         {"colour": "red", "face": 4, "hit": True, "damage": 4}], "hits": 2, "damage": 6}


def test_a_die_that_cannot_be_is_asked_about_and_left_out():
    volley = resolve_volley([{"colour": "red", "face": 7}, {"colour": "green", "face": 3}, {"colour": "yellow", "face": 6}])
    assert [q.rule_kind for q in volley.questions] == ["impossible_die", "impossible_die"]
    assert all(q.legal and q.warning for q in volley.questions)  # a question, never a silent change
    assert (len(volley.results), volley.damage) == (1, 1)


def test_distortion_shield_against_missiles():
    # a missile die 5 with +1 computer: 6 hits; against Distortion Shield -2: 4 misses; a 6 still hits
    assert resolve_volley([{"colour": "orange", "face": 5}], 1, 0, missiles=True).hits == 1
    assert resolve_volley([{"colour": "orange", "face": 5}], 1, 0, missiles=True, distortion_shield=True).hits == 0
    assert resolve_volley([{"colour": "orange", "face": 6}], 0, 0, missiles=True, distortion_shield=True).hits == 1
    assert resolve_volley([{"colour": "orange", "face": 5}], 1, 0, distortion_shield=True).hits == 1  # cannons: no malus


def test_antimatter_splitter_shares_a_hit_among_targets_the_roll_hits():
    # p.17: a 5 with +1 computer hits; split 2 + 2 it destroys two Cruisers (1 Hull each: 2 damage destroys one)
    cruisers = [Target("Cruiser 1", "Giannis", 2, hull=1), Target("Cruiser 2", "Giannis", 2, hull=1)]
    assert split_antimatter(5, 1, cruisers) == cruisers and sum(t.left for t in cruisers) == 4
    shielded = Target("Dreadnought", "Giannis", 3, hull=2, shields=1)
    assert split_antimatter(5, 1, [*cruisers, shielded]) == cruisers  # 5 + 1 - 1 = 5: the roll does not hit it


def test_point_defense_with_and_without_the_splitter():
    # p.17: an antimatter cannon rolls 4, +2 computers: a hit; with the Splitter it destroys the two missiles
    # aimed at the player's own ship; the opponent's shields do not count
    assert point_defense([Die("red", 4)], 2, missiles=2, splitter=True) == 2
    assert point_defense([Die("red", 4)], 2, missiles=2) == 1
    assert point_defense([Die("red", 4), Die("yellow", 6), Die("yellow", 1)], 0, missiles=5) == 1  # only the 6
    assert point_defense([Die("red", 6)], 0, missiles=9, splitter=True) == 4


def test_the_ancients_destroy_the_biggest_ship_they_can():
    interceptor = Target("Interceptor", "Ann", 1, hull=0, entered=1)  # destroyed by 1 damage
    cruiser = Target("Cruiser", "Ann", 2, hull=1, entered=1)  # by 2
    two_sixes = [Die("yellow", 6), Die("yellow", 6)]
    assert ancients_targets(two_sixes, 1, [interceptor, cruiser]) == {0: 1, 1: 1}  # 1 + 1 destroys the Cruiser
    assert ancients_targets([Die("yellow", 6)], 1, [interceptor, cruiser]) == {0: 0}  # 1 damage: the Interceptor
    first = Target("Cruiser", "Ann", 2, hull=1, entered=1)
    last = Target("Cruiser", "Bob", 2, hull=1, entered=2)
    assert ancients_targets(two_sixes, 1, [first, last]) == {0: 1, 1: 1}  # equal targets: who entered last (p.10)
    assert ancients_targets([Die("yellow", 6)], 1, [first, last]) == {0: 1}  # none destroyed: damage the biggest
    assert ancients_targets([Die("yellow", 3)], 1, [first]) == {}  # 3 + 1 = 4: a miss
    # one big die destroys the Cruiser, the small one is left for the Interceptor
    assert ancients_targets([Die("orange", 6), Die("yellow", 6)], 1, [interceptor, cruiser]) == {0: 1, 1: 0}


def test_allies_fight_on_one_side_and_win_initiative_ties():
    alliance = {"Ann": "Nova", "Bob": "Nova", "Cy": None}
    assert sides(["Ann", "Cy", "Bob"], alliance=alliance, defender="Ann") == (("Ann", "Bob"), ("Cy",))
    assert sides(["Ann", "Cy"], alliance=alliance, defender=None) == ((), ("Ann", "Cy"))  # the Ancients defend
    groups = [("Cy", "Cruiser", 2), ("Bob", "Interceptor", 3), ("Ann", "Cruiser", 2)]
    assert firing_order(groups, ["Ann", "Bob"]) == [("Bob", "Interceptor", 3), ("Ann", "Cruiser", 2), ("Cy", "Cruiser", 2)]
