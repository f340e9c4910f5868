"""Roll for the Galaxy final scoring: known values from the rulebook and hand-worked cases.

Sources: rulebook p.8 "Victory" (Greek edition, shared/seeds/000_1d34022fb175a604.txt), its
worked example (13 + 3 + 5 + 4 = 25) and p.11 FAQ ("round up": 4 red dice = 2 sets of 3 =
4 VP; purple dice never match other colours in end-game powers); the cost-6 formulas of the
digest section 7 table. Tile costs and colours used in the arithmetic are the printed values
in rules/data/roll/tiles.json (named in each comment). Expected values were worked by hand.
"""

from __future__ import annotations

import pytest

from rules.roll import ROLL_GAME
from rules.roll.endgame import final_scores
from rules.scoring import ScoreInputError, scores_json, winners


def player(name="Ann", vp_chips=0, credits=1, tableau=(), goods=None, cup=None, citizenry=None, zone=None):
    return {
        "name": name,
        "vp_chips": vp_chips,
        "credits": credits,
        "tableau": list(tableau),
        "goods": goods or {},
        "dice": {"cup": cup or {}, "citizenry": citizenry or {}, "construction_zone": zone or {}},
    }


def score_one(**kw) -> dict[str, int]:
    [b] = final_scores({"players": [player(**kw)]})
    out = {line.category: line.vp for line in b.lines}
    out["total"] = b.total
    return out


def test_rulebook_example_13_3_5_4_is_25():
    # Roll for the Galaxy, p.8 Victory, worked example: 13 VP of developments (with Galactic
    # Federation and New Galactic Order), 3 VP of worlds, +5 Galactic Federation, +4 New
    # Galactic Order with 4 red (Military) dice = 25.
    # Tableau: faction 2 = Alien Archaeology (1) + Alien Rosetta Stone World (1); home world
    # New Sparta (2); Galactic Federation (6); New Galactic Order (6).
    # developments 1 + 6 + 6 = 13; worlds 1 + 2 = 3; GF ceil(13/3) = 5; NGO 2 x ceil(4/3) = 4.
    s = score_one(
        tableau=[
            "Alien Archaeology",
            "Alien Rosetta Stone World",
            "New Sparta",
            "Galactic Federation",
            "New Galactic Order",
        ],
        cup={"white": 3, "red": 2},
        citizenry={"red": 2},
    )
    assert s == {
        "VP chips": 0,
        "developments": 13,
        "worlds": 3,
        "Galactic Federation bonus": 5,
        "New Galactic Order bonus": 4,
        "total": 25,
    }


def test_free_trade_association_half_blue_world_cost_rounded_up():
    # Faction 3: Consumer Markets (3) + Space Mall (0, blue); home Earth's Lost Colony (2, blue);
    # Free Trade Association (6); Spice World (2, blue); Artist Colony (1, blue).
    # blue worlds 0 + 2 + 2 + 1 = 5 -> ceil(5/2) = 3.
    # developments 3 + 6 = 9; worlds 0 + 2 + 2 + 1 = 5; chips 4; total 4 + 9 + 5 + 3 = 21.
    s = score_one(
        vp_chips=4,
        tableau=["Consumer Markets", "Earth's Lost Colony", "Free Trade Association", "Spice World", "Artist Colony"],
    )
    assert s["Free Trade Association bonus"] == 3
    assert (s["developments"], s["worlds"], s["total"]) == (9, 5, 21)


def test_galactic_bankers_one_per_development_faction_and_itself_included():
    # Faction 1: Space Piracy (0) + Hidden Fortress (2); home Old Earth (3); Galactic Bankers (6),
    # Public Works (1), Backup Planning (1). Developments: Space Piracy, Bankers, Public Works,
    # Backup Planning = 4 -> +4. developments 0 + 6 + 1 + 1 = 8; worlds 2 + 3 = 5; total 17.
    s = score_one(tableau=["Space Piracy", "Old Earth", "Galactic Bankers", "Public Works", "Backup Planning"])
    assert s["Galactic Bankers bonus"] == 4
    assert s["total"] == 17


def test_galactic_exchange_counts_colours_owned_purple_only_as_purple():
    # Faction 5: Genetics Lab (2) + The Last of the Gnarssh (0); home Ancient Race (0);
    # Galactic Exchange (6). Owned dice: cup 3 white + 1 purple, Citizenry 2 red, construction
    # zone 1 brown, a green good on Ancient Race -> white, purple, red, brown, green = 5
    # (the purple die is one colour, not a match for all: p.11 FAQ).
    # developments 2 + 6 = 8; worlds 0 + 0 = 0; chips 2; total 2 + 8 + 0 + 5 = 15.
    s = score_one(
        vp_chips=2,
        tableau=["Genetics Lab", "Ancient Race", "Galactic Exchange"],
        goods={"Ancient Race": ["green"]},
        cup={"white": 3, "purple": 1},
        citizenry={"red": 2},
        zone={"brown": 1},
    )
    assert s["Galactic Exchange bonus"] == 5
    assert s["total"] == 15


def test_galactic_federation_third_of_development_cost_rounded_up():
    # Faction 9: Awakened Alien Outpost (3) + Destroyed Colony (0), no development; home Doomed
    # World (0); Galactic Federation (6), Public Works (1). developments 6 + 1 = 7 ->
    # ceil(7/3) = 3; worlds 3 + 0 + 0 = 3; total 7 + 3 + 3 = 13.
    s = score_one(tableau=["Awakened Alien Outpost", "Doomed World", "Galactic Federation", "Public Works"])
    assert s["Galactic Federation bonus"] == 3
    assert s["total"] == 13


@pytest.mark.parametrize(
    "chips, bonus",
    [(0, 0), (1, 1), (2, 1), (3, 2), (9, 3), (10, 4), (15, 5)],  # steps at 1/3/6/10/15 VP in chips
)
def test_galactic_renaissance_triangular_steps(chips, bonus):
    # Faction 4: Improved Reconnaissance (2) + Wormhole Station (3); home Separatist Colony (2);
    # Galactic Renaissance (6). developments 2 + 6 = 8; worlds 3 + 2 = 5.
    # e.g. 10 VP in chips reaches 1+2+3+4 = 10 -> +4; total 10 + 8 + 5 + 4 = 27.
    s = score_one(vp_chips=chips, tableau=["Improved Reconnaissance", "Separatist Colony", "Galactic Renaissance"])
    assert s["Galactic Renaissance bonus"] == bonus
    assert s["total"] == chips + 8 + 5 + bonus


def test_galactic_reserves_one_per_good_and_two_goods_per_world():
    # Faction 6: Galactic Religion (2) + Pilgrimage World (3, blue); home Earth's Lost Colony
    # (2, blue); Galactic Reserves (6). Goods: 2 on Pilgrimage World (allowed with Reserves),
    # 1 on Earth's Lost Colony -> +3. developments 2 + 6 = 8; worlds 3 + 2 = 5; chips 1;
    # total 1 + 8 + 5 + 3 = 17.
    s = score_one(
        vp_chips=1,
        tableau=["Galactic Religion", "Earth's Lost Colony", "Galactic Reserves"],
        goods={"Pilgrimage World": ["blue", "purple"], "Earth's Lost Colony": ["blue"]},
    )
    assert s["Galactic Reserves bonus"] == 3
    assert s["total"] == 17


def test_mining_league_two_per_brown_world_faction_and_home_included():
    # Faction 8: Mining Industry (2) + Meteorite Planet (1, brown); home Alpha Centauri (1,
    # brown); Mining League (6); Comet Zone (3, brown); Spice World (2, blue).
    # brown worlds 3 -> 2 x 3 = 6. developments 2 + 6 = 8; worlds 1 + 1 + 3 + 2 = 7; chips 3;
    # total 3 + 8 + 7 + 6 = 24.
    s = score_one(
        vp_chips=3, tableau=["Mining Industry", "Alpha Centauri", "Mining League", "Comet Zone", "Spice World"]
    )
    assert s["Mining League bonus"] == 6
    assert s["total"] == 24


def test_new_economy_one_per_development_without_reassign_power():
    # Faction 7: Biological Adaptation (2, not a Reassign power: p.11 FAQ) + Aquatic Uplift World
    # (2); home New Sparta (2); New Economy (6); Backup Planning (1, Reassign); Public Works (1);
    # Conscription (4, immediate). Without Reassign: Biological Adaptation, New Economy, Public
    # Works, Conscription = 4. developments 2 + 6 + 1 + 1 + 4 = 14; worlds 2 + 2 = 4;
    # total 14 + 4 + 4 = 22.
    s = score_one(
        tableau=[
            "Biological Adaptation",
            "New Sparta",
            "New Economy",
            "Backup Planning",
            "Public Works",
            "Conscription",
        ]
    )
    assert s["New Economy bonus"] == 4
    assert s["total"] == 22


def test_new_galactic_order_red_dice_anywhere_owned_purple_not_red():
    # Faction 1: Space Piracy (0) + Hidden Fortress (2); home Earth's Lost Colony (2, blue, with a
    # red good); New Galactic Order (6). Red owned: cup 3 + Citizenry 2 + construction zone 1 +
    # 1 good = 7 (2 purple dice in the cup are not red: p.11 FAQ) -> 2 x ceil(7/3) = 6.
    # developments 0 + 6 = 6; worlds 2 + 2 = 4; total 6 + 4 + 6 = 16.
    s = score_one(
        tableau=["Space Piracy", "Earth's Lost Colony", "New Galactic Order"],
        goods={"Earth's Lost Colony": ["red"]},
        cup={"red": 3, "purple": 2},
        citizenry={"red": 2},
        zone={"red": 1},
    )
    assert s["New Galactic Order bonus"] == 6
    assert s["total"] == 16


def test_new_galactic_order_rulebook_faq_four_red_is_four_vp():
    # p.11 FAQ "round up", example 2: 4 red dice = 1.5 sets -> 2 sets x 2 VP = 4.
    s = score_one(tableau=["Space Piracy", "Old Earth", "New Galactic Order"], cup={"red": 4})
    assert s["New Galactic Order bonus"] == 4


def test_system_diversification_half_reassign_cost_rounded_up():
    # Faction 2: Alien Archaeology (1) + Alien Rosetta Stone World (1); home Old Earth (3);
    # System Diversification (6), Nanotechnology (5), Local Subsidies (2) - all Reassign -
    # and Public Works (1, not). Reassign cost 6 + 5 + 2 = 13 -> ceil(13/2) = 7.
    # developments 1 + 6 + 5 + 2 + 1 = 15; worlds 1 + 3 = 4; total 15 + 4 + 7 = 26.
    s = score_one(
        tableau=[
            "Alien Archaeology",
            "Old Earth",
            "System Diversification",
            "Nanotechnology",
            "Local Subsidies",
            "Public Works",
        ]
    )
    assert s["System Diversification bonus"] == 7
    assert s["total"] == 26


def test_every_cost6_bonus_is_its_own_category():
    # Two cost-6 developments -> two separate bonus lines (p.8: "as the specific tiles say").
    s = score_one(tableau=["Space Piracy", "Old Earth", "Galactic Bankers", "Mining League"])
    assert "Galactic Bankers bonus" in s and "Mining League bonus" in s


def test_faction_tile_scores_both_numbers_when_one_side_is_listed():
    # p.8 Victory: include both numbers of the faction tile. Improved Reconnaissance (2) is on
    # the same faction tile as Wormhole Station (3): listing either scores 2 + 3.
    a = score_one(tableau=["Improved Reconnaissance", "Old Earth"])
    b = score_one(tableau=["Improved Reconnaissance", "Wormhole Station", "Old Earth"])
    assert a == b
    assert (a["developments"], a["worlds"]) == (2, 3 + 3)


def test_tie_break_cup_plus_credits_construction_zone_not_in_cup():
    # p.8 Victory: ties go to dice in cup + credits; p.10 FAQ: construction-zone dice and goods
    # are not in the cup.
    # Ann: Space Piracy 0 + Hidden Fortress 2 + Old Earth 3 = 5 VP; cup 2 + $3 = 5
    #      (her 3 construction-zone dice would make 8 if they counted).
    # Bob: Alien Archaeology 1 + Alien Rosetta Stone World 1 + New Sparta 2 + 1 chip = 5 VP;
    #      cup 4 + $2 = 6 -> Bob wins the tie.
    ann = player("Ann", credits=3, tableau=["Space Piracy", "Old Earth"], cup={"white": 2}, zone={"white": 3})
    bob = player("Bob", vp_chips=1, credits=2, tableau=["Alien Rosetta Stone World", "New Sparta"], cup={"white": 4})
    result = scores_json(final_scores({"players": [ann, bob]}))
    assert [p["total"] for p in result["players"]] == [5, 5]
    assert result["winners"] == ["Bob"]


def test_goods_do_not_count_for_the_tie_break_then_shared():
    # Ann: Alien Archaeology 1 + Alien Rosetta Stone World 1 + Alpha Centauri 1 + 2 chips = 5 VP;
    #      cup 2 + $3 = 5 (her brown good on Alpha Centauri would make 6 if it counted).
    # Bob: Space Piracy 0 + Hidden Fortress 2 + Old Earth 3 = 5 VP; cup 5 + $0 = 5.
    # 5 = 5 after the tie-break: they share the win (p.8).
    ann = player(
        "Ann",
        vp_chips=2,
        credits=3,
        tableau=["Alien Archaeology", "Alpha Centauri"],
        cup={"white": 2},
        goods={"Alpha Centauri": ["brown"]},
    )
    bob = player("Bob", vp_chips=0, credits=0, tableau=["Space Piracy", "Old Earth"], cup={"white": 5})
    result = scores_json(final_scores({"players": [ann, bob]}))
    assert [p["total"] for p in result["players"]] == [5, 5]
    assert result["winners"] == ["Ann", "Bob"]


def test_output_shape_is_exact():
    result = scores_json(final_scores({"players": [player(tableau=["Space Piracy", "Old Earth"])]}))
    assert set(result) == {"players", "winners"}
    assert set(result["players"][0]) == {"name", "total", "breakdown"}
    assert all(isinstance(v, int) for v in result["players"][0]["breakdown"].values())


def test_game_object_final_scores_matches_module():
    data = {"players": [player(tableau=["Space Piracy", "Old Earth", "Galactic Bankers"])]}
    assert [b.total for b in ROLL_GAME.final_scores(data)] == [b.total for b in final_scores(data)]


def test_winners_highest_total_first():
    data = {
        "players": [player("A", vp_chips=1, tableau=["Old Earth"]), player("B", vp_chips=2, tableau=["New Sparta"])]
    }
    # A: 1 + 3 = 4; B: 2 + 2 = 4 -> tie; tie-break A cup 0 + $1 = 1, B 0 + $1 = 1 -> shared.
    assert winners(final_scores(data)) == ["A", "B"]


# --- bad inputs: the message names the field and the problem -----------------------------


def bad(data) -> ScoreInputError:
    with pytest.raises(ScoreInputError) as info:
        final_scores(data)
    return info.value


def test_missing_field_is_named():
    p = player()
    del p["vp_chips"]
    err = bad({"players": [p]})
    assert err.field == "players[0].vp_chips"
    assert "missing" in str(err)


def test_unknown_tile_names_closest_known():
    err = bad({"players": [player(tableau=["Old Earth", "Galactic Federaton"])]})
    assert err.field == "players[0].tableau[1]"
    assert "Galactic Federaton" in str(err)
    assert "Galactic Federation" in err.suggestions


def test_tile_names_ignore_case():
    assert score_one(tableau=["old earth"])["worlds"] == 3


@pytest.mark.parametrize("credits", [-1, 11])
def test_credits_outside_0_to_10(credits):
    err = bad({"players": [player(credits=credits)]})
    assert err.field == "players[0].credits"
    assert "between 0 and 10" in str(err)


def test_negative_vp_chips():
    assert bad({"players": [player(vp_chips=-2)]}).field == "players[0].vp_chips"


def test_wrong_type_is_named():
    err = bad({"players": [player(credits="3")]})
    assert "whole number" in str(err) and err.field == "players[0].credits"


def test_good_on_a_gray_world():
    # p.7 Produce: goods go on non-gray worlds; Old Earth is gray.
    err = bad({"players": [player(tableau=["Old Earth"], goods={"Old Earth": ["white"]})]})
    assert err.field == 'players[0].goods["Old Earth"]' and "gray" in str(err)


def test_two_goods_without_galactic_reserves():
    # p.7 Produce: 1 good per world without Galactic Reserves.
    err = bad({"players": [player(tableau=["Alpha Centauri"], goods={"Alpha Centauri": ["brown", "red"]})]})
    assert "Galactic Reserves" in str(err)


def test_good_on_a_world_not_in_the_tableau():
    err = bad({"players": [player(tableau=["Old Earth"], goods={"Alpha Centauri": ["brown"]})]})
    assert "not a world in this player's tableau" in str(err)


def test_both_sides_of_one_tile():
    # Galactic Federation and Artist Colony are the two sides of one game tile.
    err = bad({"players": [player(tableau=["Galactic Federation", "Artist Colony"])]})
    assert "two sides of one tile" in str(err)


def test_same_tile_in_two_tableaux():
    data = {"players": [player("A", tableau=["Spice World"]), player("B", tableau=["Alien Research Ship"])]}
    assert "each tile exists once" in str(bad(data))


def test_two_factions_or_two_home_worlds():
    assert "one faction tile" in str(bad({"players": [player(tableau=["Space Piracy", "Genetics Lab"])]}))
    assert "second home world" in str(bad({"players": [player(tableau=["Old Earth", "New Sparta"])]}))


def test_unknown_die_colour_and_negative_count():
    assert bad({"players": [player(cup={"pink": 1})]}).field == "players[0].dice.cup.pink"
    assert bad({"players": [player(cup={"red": -1})]}).field == "players[0].dice.cup.red"


def test_more_dice_of_a_colour_than_the_game_has():
    # p.1 Components: 9 purple dice in the game.
    assert "only 9" in str(bad({"players": [player(cup={"purple": 10})]}))


def test_duplicate_names_and_player_count():
    assert "also the name" in str(bad({"players": [player("A"), player("A")]}))
    assert bad({"players": []}).field == "players"
    assert bad({}).field == "players"


def test_a_typed_die_colour_ignores_case_and_is_named_back_as_the_game_names_it():
    # New Galactic Order with 4 red dice: 2 x ceil(4/3) = 4 (p.11 FAQ); "RED" and " Red" are red, as tile names ignore
    # case. Galactic Exchange (6) with a good typed "WHITE" on Alpha Centauri (1, brown) and 2 "White" dice in the cup
    # owns one colour, white: +1; total 6 + 1 + 1 = 8.
    s = score_one(tableau=["Space Piracy", "Old Earth", "New Galactic Order"], cup={"RED": 3},
                  citizenry={" Red": 1})
    assert s["New Galactic Order bonus"] == 4
    s = score_one(tableau=["Alpha Centauri", "Galactic Exchange"], goods={"Alpha Centauri": ["WHITE"]},
                  cup={"White": 2})
    assert s["Galactic Exchange bonus"] == 1 and s["total"] == 8


def test_one_colour_twice_in_two_spellings_is_refused_naming_it():
    err = bad({"players": [player(cup={"white": 1, "WHITE": 2})]})
    assert err.field == "players[0].dice.cup.WHITE"
    assert "'white' is listed twice" in str(err)


def test_an_unknown_colour_in_capitals_is_named_as_typed_with_the_closest_colour():
    err = bad({"players": [player(cup={"WHTE": 1})]})
    assert err.field == "players[0].dice.cup.WHTE" and "'WHTE'" in str(err)
    assert list(err.suggestions) == ["white"]
    err = bad({"players": [player(tableau=["Alpha Centauri"], goods={"Alpha Centauri": ["PINK"]})]})
    assert err.field == 'players[0].goods["Alpha Centauri"][0]'
