"""Race for the Galaxy final scoring: hand-worked known values, one per cost-6 development.

Every expected value is worked out by hand in the comment above it, from the card texts
(``rules/data/race/cards.json``: type, printed VP, goods kind and mode, military, powers,
and the cost-6 card's ``vp_bonus`` list) and the scoring rules of the rules digest §7:
score = VP chips + printed VP + each cost-6 bonus; a cost-6 card's rules are tried in
order for every card of the tableau (itself included) and a card scores only the first
rule it matches.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from rules.core import ScoreBreakdown
from rules.race import final_scores, winners
from rules.race.cards import cards
from rules.scoring import ScoreInputError, json_documents, score_each, scores_json

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "race-score-input.schema.json"


def game(*tableaux: list, chips: tuple[int, ...] = (), hands: tuple[int, ...] = ()) -> dict:
    """A game record: player i is "P<i>" with tableau ``tableaux[i]``."""
    return {
        "players": [
            {
                "name": f"P{i}",
                "chips": chips[i] if i < len(chips) else 0,
                "hand": hands[i] if i < len(hands) else 0,
                "tableau": tableau,
            }
            for i, tableau in enumerate(tableaux)
        ]
    }


FILLER = ["Epsilon Eridani"]  # the second player's tableau: a start world, 1 VP, no bonus


def bonus(breakdown: ScoreBreakdown, card: str) -> int:
    return {line.category: line.vp for line in breakdown.lines}[f"{card} bonus"]


def score(tableau: list, chips: int = 0) -> ScoreBreakdown:
    return final_scores(game(tableau, FILLER, chips=(chips,)))[0]


# -- one known value per cost-6 development (digest §7; card texts in cards.json) -------------


def test_alien_tech_institute():
    # Rules: 3 per Alien production world, 2 per Alien windfall world, 2 per Alien card.
    # Alien Tech Institute itself (Alien keyword)        -> alien card        2
    # Alien Robotic Factory (Alien goods, production)    -> production world  3
    # Deserted Alien Outpost (Alien goods, windfall)     -> windfall world    2
    # Alien Rosetta Stone World (Alien keyword, no goods)-> alien card        2
    # Old Earth, Gem World (no Alien)                    -> 0
    # bonus = 2 + 3 + 2 + 2 = 9; printed VP 0+5+3+3+2+1 = 14; chips 5 -> total 28.
    b = score(["Old Earth", "Alien Tech Institute", "Alien Robotic Factory", "Deserted Alien Outpost",
               "Alien Rosetta Stone World", "Gem World"], chips=5)
    assert bonus(b, "Alien Tech Institute") == 9
    assert b.total == 28


def test_free_trade_association():
    # Rules: 2 per Novelty production world, 1 per Novelty windfall world, 2 for Consumer
    # Markets, 2 for Expanding Colony.
    # Earth's Lost Colony, Gem World (Novelty production)  -> 2 + 2
    # Galactic Resort (Novelty windfall)                   -> 1
    # Consumer Markets, Expanding Colony (named)           -> 2 + 2
    # Comet Zone (Rare production), the card itself        -> 0
    # bonus = 9; printed VP FTA 0 + ELC 1 + Gem 1 + Resort 2 + CM 3 + EC 1 + Comet 2 = 10.
    b = score(["Earth's Lost Colony", "Free Trade Association", "Gem World", "Galactic Resort", "Consumer Markets",
               "Expanding Colony", "Comet Zone"])
    assert bonus(b, "Free Trade Association") == 9
    assert b.total == 19


def test_galactic_federation_counts_itself_once_as_six_cost():
    # Rules: 2 per cost-6 development, 1 per development (first match only).
    # Galactic Federation, Mining League (cost 6)   -> 2 + 2 (not 2+1 each)
    # Public Works, Space Marines (developments)    -> 1 + 1
    # Old Earth (world)                             -> 0
    # bonus = 6.
    b = score(["Old Earth", "Galactic Federation", "Mining League", "Public Works", "Space Marines"])
    assert bonus(b, "Galactic Federation") == 6


def test_galactic_imperium():
    # Rules: 2 per Rebel military world, 1 per military world.
    # New Sparta (military, defense 2, not Rebel)   -> 1
    # Rebel Outpost, Rebel Fuel Cache (Rebel mil.)  -> 2 + 2
    # Pirate World (military, not Rebel)            -> 1
    # Gem World (not military), the card itself    -> 0
    # bonus = 6; printed VP 1 + 0 + 5 + 1 + 2 + 1 = 10.
    b = score(["New Sparta", "Galactic Imperium", "Rebel Outpost", "Rebel Fuel Cache", "Pirate World", "Gem World"])
    assert bonus(b, "Galactic Imperium") == 6
    assert b.total == 16


def test_galactic_renaissance():
    # Rules: 1 per 3 VP chips (rounded down), 3 each for Research Labs, Galactic
    # Trendsetters, Artist Colony.
    # 14 chips -> 14 // 3 = 4; Research Labs 3; Artist Colony 3 -> bonus = 10.
    # Total = 14 chips + printed (Old Earth 2 + GR 0 + RL 2 + AC 1 = 5) + 10 = 29.
    b = score(["Old Earth", "Galactic Renaissance", "Research Labs", "Artist Colony"], chips=14)
    assert bonus(b, "Galactic Renaissance") == 10
    assert b.total == 29


def test_galactic_renaissance_with_two_chips_gets_nothing_for_chips():
    # 2 chips -> 2 // 3 = 0; no named card -> bonus 0.
    assert bonus(score(["Old Earth", "Galactic Renaissance"], chips=2), "Galactic Renaissance") == 0


def test_galactic_survey_seti():
    # Rules: 1 per development with a phase-I power, 2 per world with a phase-I power, 1 per world.
    # SETI itself (I: draw 2 extra)                     -> 1
    # Expedition Force (I: draw 1 extra)                -> 1
    # Public Works (II and IV powers only)              -> 0
    # Malevolent Lifeforms, Star Nomad Lair (I: draw 1) -> 2 + 2
    # Old Earth, Gem World (worlds, no phase-I power)   -> 1 + 1
    # bonus = 8.
    b = score(["Old Earth", "Galactic Survey: SETI", "Expedition Force", "Public Works", "Malevolent Lifeforms",
               "Star Nomad Lair", "Gem World"])
    assert bonus(b, "Galactic Survey: SETI") == 8


def test_merchant_guild():
    # Rules: 2 per production world of each kind (Novelty, Rare, Genes, Alien).
    # Earth's Lost Colony (Novelty), Comet Zone (Rare), Distant World (Genes),
    # Alien Robotic Factory (Alien), all production          -> 2 + 2 + 2 + 2
    # Galactic Resort (Novelty windfall), the card itself    -> 0
    # bonus = 8.
    b = score(["Earth's Lost Colony", "Merchant Guild", "Comet Zone", "Distant World",
               "Alien Robotic Factory", "Galactic Resort"])
    assert bonus(b, "Merchant Guild") == 8


def test_mining_league():
    # Rules: 2 per Rare production world, 1 per Rare windfall world, 2 for Mining Robots,
    # 2 for Mining Conglomerate.
    # Alpha Centauri, Asteroid Belt (Rare windfall)  -> 1 + 1
    # Comet Zone, Mining World (Rare production)     -> 2 + 2
    # Mining Robots, Mining Conglomerate (named)     -> 2 + 2
    # Gem World (Novelty), the card itself           -> 0
    # bonus = 10.
    b = score(["Alpha Centauri", "Mining League", "Comet Zone", "Mining World", "Asteroid Belt", "Mining Robots",
               "Mining Conglomerate", "Gem World"])
    assert bonus(b, "Mining League") == 10


def test_new_economy():
    # Rules: 2 per development with a consume power, 1 per world with a consume power
    # (a trade bonus alone is not a consume power).
    # New Economy itself (IV: draw 1)                 -> 2
    # Consumer Markets (IV: consume Novelty for VP)   -> 2
    # Export Duties (IV: trade +1 only)               -> 0
    # Old Earth (IV: trade +1 and consume 2 for VP)   -> 1
    # Spice World (IV: trade +2 Novelty only)         -> 0
    # New Vinland (IV: consume 1 good for 2 cards)    -> 1
    # Gem World (no IV power)                         -> 0
    # bonus = 6.
    b = score(["Old Earth", "New Economy", "Consumer Markets", "Export Duties", "Spice World",
               "New Vinland", "Gem World"])
    assert bonus(b, "New Economy") == 6


def test_new_galactic_order_counts_plain_military_only():
    # Rule: 1 per point of total Military (plain III "+/-N Military" powers).
    # New Galactic Order +2, New Sparta +2, Space Marines +2, Contact Specialist -1,
    # Empath World -1                                   -> 4
    # Alien Rosetta Stone World (+2 only against Alien worlds) and New Military Tactics
    # (+3 only when discarded) do not count.
    # bonus = 4.
    b = score(["New Sparta", "New Galactic Order", "Space Marines", "Contact Specialist", "Empath World",
               "Alien Rosetta Stone World", "New Military Tactics"])
    assert bonus(b, "New Galactic Order") == 4


def test_new_galactic_order_can_be_negative():
    # Old Earth 0, NGO +2, Contact Specialist -1, Empath World -1, Refugee World -1,
    # Pan-Galactic League -1 -> -2.
    b = score(["Old Earth", "New Galactic Order", "Contact Specialist", "Empath World",
               "Refugee World", "Pan-Galactic League"])
    assert bonus(b, "New Galactic Order") == -2


def test_pan_galactic_league_first_matching_rule_only():
    # Rules, in order: 2 per Genes production world, 2 per Genes windfall world, 1 per
    # military world, 3 for Contact Specialist.
    # Lost Species Ark World (Genes production)                -> 2
    # Empath World (Genes windfall)                            -> 2
    # Rebel Warrior Race (Genes windfall AND military)         -> 2 (first match; not 2+1)
    # New Sparta (military)                                    -> 1
    # Contact Specialist                                       -> 3
    # bonus = 10.
    b = score(["New Sparta", "Pan-Galactic League", "Lost Species Ark World", "Empath World",
               "Rebel Warrior Race", "Contact Specialist"])
    assert bonus(b, "Pan-Galactic League") == 10


def test_trade_league():
    # Rules: 2 per development with a trade power, 1 per world with a trade power.
    # Trade League itself (IV: trade +1 any)      -> 2
    # Export Duties (trade +1 any)                -> 2
    # Genetics Lab (trade +1 Genes)               -> 2
    # Consumer Markets (consume only)             -> 0
    # Old Earth (trade +1 any)                    -> 1
    # Spice World (trade +2 Novelty)              -> 1
    # Space Port (trade +2 Rare)                  -> 1
    # Gem World (no IV power)                     -> 0
    # bonus = 9.
    b = score(["Old Earth", "Trade League", "Export Duties", "Genetics Lab", "Consumer Markets", "Spice World",
               "Space Port", "Gem World"])
    assert bonus(b, "Trade League") == 9


def test_two_cost_six_developments_both_count_the_same_card():
    # Galactic Federation: GF 2 + Galactic Imperium 2 (both cost 6) = 4.
    # Galactic Imperium: Rebel Base (Rebel military) 2 + New Sparta (military) 1 = 3.
    b = score(["New Sparta", "Galactic Federation", "Galactic Imperium", "Rebel Base"])
    assert bonus(b, "Galactic Federation") == 4
    assert bonus(b, "Galactic Imperium") == 3
    # chips 0 + printed (1 + 0 + 0 + 6) + 4 + 3 = 14
    assert b.total == 14


def test_breakdown_categories_and_every_cost_six_card_listed():
    b = score(["Old Earth", "Galactic Federation", "Space Marines", "Gem World"], chips=7)
    categories = [line.category for line in b.lines]
    assert categories == ["VP chips", "developments", "worlds", "Galactic Federation bonus"]
    # VP chips 7; developments GF 0 + Space Marines 1 = 1; worlds Old Earth 2 + Gem 1 = 3;
    # GF bonus: GF 2 + Space Marines 1 = 3. Total 14.
    assert [line.vp for line in b.lines] == [7, 1, 3, 3]
    assert b.total == 14


# -- winners and tie-break (digest §7) ------------------------------------------------------


def test_most_vp_wins():
    g = game(["Old Earth"], ["Epsilon Eridani"], chips=(3, 3))  # 5 VP vs 4 VP
    assert winners(final_scores(g)) == ["P0"]


def test_tie_broken_by_hand_plus_goods():
    # P0: Old Earth 2 VP + 1 chip = 3; hand 2 + goods 0 = 2.
    # P1: Epsilon Eridani 1 VP + Asteroid Belt 1 VP (Rare windfall, a good on it) + 1 chip = 3;
    #     hand 2 + goods 1 = 3 > 2 -> P1 wins the tie.
    g = game(["Old Earth"], ["Epsilon Eridani", {"card": "Asteroid Belt", "goods": 1}], chips=(1, 1), hands=(2, 2))
    scores = final_scores(g)
    assert [s.total for s in scores] == [3, 3]
    assert [s.tiebreak for s in scores] == [(2,), (3,)]
    assert winners(scores) == ["P1"]


def test_full_tie_is_shared():
    g = game(["Old Earth"], ["Epsilon Eridani"], chips=(1, 2), hands=(4, 4))  # 3 VP each, tie-break 4 each
    assert winners(final_scores(g)) == ["P0", "P1"]


def test_output_shape_through_the_shared_scores_json():
    out = scores_json(final_scores(game(["Old Earth"], ["Epsilon Eridani"], chips=(0, 0))))
    assert out == {
        "players": [
            {"name": "P0", "total": 2, "breakdown": {"VP chips": 0, "developments": 0, "worlds": 2}},
            {"name": "P1", "total": 1, "breakdown": {"VP chips": 0, "developments": 0, "worlds": 1}},
        ],
        "winners": ["P0"],
    }


# -- input errors name the field ------------------------------------------------------------


@pytest.mark.parametrize(
    ("record", "field", "message"),
    [
        (game(["Old Eart"], FILLER), "players[0].tableau[0]", "did you mean 'Old Earth'"),
        (game(FILLER, [{"card": "Galactic Federaton"}]), "players[1].tableau[0].card",
         "did you mean 'Galactic Federation'"),
        (game(["Old Earth", "Space Marines", "Space Marines"], FILLER), "players[0].tableau[2]",
         "second copy of the development"),
        (game(["Old Earth", "Gem World"], ["Epsilon Eridani", "Gem World"]), "players[1].tableau[1]", "deck has 1"),
        (game([{"card": "Old Earth", "goods": 1}], FILLER), "players[0].tableau[0].goods", "holds no goods"),
        (game([{"card": "Gem World", "goods": 2}], FILLER), "players[0].tableau[0].goods", "between 0 and 1"),
        (game([], FILLER), "players[0].tableau", "empty"),
        ({"players": [{"name": "A", "tableau": ["Old Earth"]}, {"name": "B", "chips": 0, "tableau": FILLER}]},
         "players[0].chips", "missing"),
        ({"players": [{"name": "A", "chips": -1, "tableau": ["Old Earth"]},
                      {"name": "B", "chips": 0, "tableau": FILLER}]}, "players[0].chips", "between 0 and 88"),
        ({"players": [{"name": "A", "chips": 0, "tableau": ["Old Earth"]},
                      {"name": "A", "chips": 0, "tableau": FILLER}]}, "players[1].name", "also the name of players"),
        ({"players": [{"name": "A", "chips": 0, "tableau": ["Old Earth"]}]}, "players", "2-4 players"),
        ({"player": []}, "players", "missing"),
    ],
)
def test_input_errors_name_the_field(record, field, message):
    with pytest.raises(ScoreInputError, match=message) as caught:
        final_scores(record)
    assert caught.value.field == field
    assert str(caught.value).startswith(field)


def test_card_names_ignore_case_and_spaces():
    assert score([" old earth "]).total == 2


def test_json_documents_one_object_or_json_lines():
    one = json.dumps(game(["Old Earth"], FILLER), indent=2)
    assert [line for line, _ in json_documents(one)] == [None]
    lines = "\n".join(json.dumps(game([w], FILLER)) for w in ("Old Earth", "New Sparta")) + "\n\n"
    docs = json_documents(lines)
    assert [(line, d["players"][0]["tableau"]) for line, d in docs] == [(1, ["Old Earth"]), (2, ["New Sparta"])]
    with pytest.raises(ScoreInputError, match="line 2"):
        json_documents('{"players": []}\n{"players": \n')


def test_score_each_gives_one_result_per_line_and_names_the_line():
    lines = "\n".join(json.dumps(game([w], FILLER, chips=(1, 0))) for w in ("Old Earth", "New Sparta"))
    results = score_each(final_scores, lines)
    # Old Earth 2 + 1 chip = 3; New Sparta 1 + 1 chip = 2.
    assert [[b.total for b in r] for r in results] == [[3, 1], [2, 1]]
    assert len(score_each(final_scores, json.dumps(game(["Old Earth"], FILLER)))) == 1
    bad = lines + "\n" + json.dumps(game(["Old Earht"], FILLER))
    with pytest.raises(ScoreInputError) as caught:
        score_each(final_scores, bad)
    assert caught.value.field == "line 3: players[0].tableau[0]"
    assert caught.value.suggestions == ("Old Earth",)


def test_schema_lists_exactly_the_card_names_and_accepts_the_examples():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert sorted(schema["$defs"]["cardName"]["enum"]) == sorted(cards())
    validator = jsonschema.Draft202012Validator(schema)
    validator.validate(game(["Old Earth", {"card": "Gem World", "goods": 1}], FILLER, chips=(3, 0), hands=(2, 0)))
    assert list(validator.iter_errors(game([{"card": "Gem World", "goods": 2}], FILLER)))
