"""Eclipse's refusals of a payload that a phone's form would never send (a session file edited by hand, a payload
posted by hand) reach every reader in their language (el, pl, hu), naming the field as the phone's form labels it
and, where a rule decides, its rulebook section; nothing of the event is recorded.

The rules each refusal states (Eclipse with Rise of the Ancients):
- a blueprint's parts are counted per field (Eclipse, Upgrade action); the box takes 0-12 of each;
- diplomatic relations are made with another player (Eclipse, Diplomacy); an alliance is founded by name, the two
  taking its tiles (Rise of the Ancients p.10);
- a turn is one of the six actions (Eclipse, Action phase); a Build builds Orbitals and Monoliths, the other tiles
  are laid (Eclipse, Build action);
- the Turn Order card's holder chooses clockwise or counter-clockwise (Rise of the Ancients p.9);
- a Shrine costs 2, 4 or 6 (Rise of the Ancients p.15, the Enlightened of Lyra);
- a ship's step goes to another hex (Eclipse, Move action).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.i18n import Text
from rules.core import BadEvent
from tests.test_eclipse_camera import eclipse

CITED = {
    "Rise of the Ancients p.15": {"el": "Αυγή των Αρχαίων σ.15", "pl": "Rise of the Ancients s. 15",
                                  "hu": "Rise of the Ancients 15. o."},
    "Rise of the Ancients p.9": {"el": "Αυγή των Αρχαίων σ.9", "pl": "Rise of the Ancients s. 9",
                                 "hu": "Rise of the Ancients 9. o."},
    "Rise of the Ancients p.10": {"el": "Αυγή των Αρχαίων σ.10", "pl": "Rise of the Ancients s. 10",
                                  "hu": "Rise of the Ancients 10. o."},
    "Eclipse, Diplomacy": {"el": "Eclipse, Διπλωματία", "pl": "Eclipse, Dyplomacja", "hu": "Eclipse, Diplomácia"},
    "Eclipse, Action phase": {"el": "Eclipse, Φάση Ενεργειών", "pl": "Eclipse, faza akcji",
                              "hu": "Eclipse, Akció fázis"},
    "Eclipse, Build action": {"el": "Eclipse, ενέργεια Κατασκευής", "pl": "Eclipse, akcja Budowy",
                              "hu": "Eclipse, Építés akció"},
    "Eclipse, Move action": {"el": "Eclipse, ενέργεια Μετακίνησης", "pl": "Eclipse, akcja Ruchu",
                             "hu": "Eclipse, Mozgás akció"},
}
"""Each rulebook section in each language's words (the Greek rulebook of Rise of the Ancients is "Αυγή των
Αρχαίων"; the Polish and Hungarian players read it under its English title)."""

CASES = [
    # (event kind, payload, the English refusal, the field's form label or None, the rule cited or None)
    ("blueprint_set", {"ship": "Cruiser", "hull": 13},
     "Hull must be a whole number from 0 to 12, got 13", "Hull", None),
    ("blueprint_set", {"ship": "Cruiser", "computers": -1},
     "Computers (+) must be a whole number from 0 to 12, got -1", "Computers (+)", None),
    ("blueprint_set", {"ship": "Cruiser", "cannons": {"yellow": "two"}},
     "Ion cannons (yellow dice) must be a whole number from 0 to 12, got 'two'", "Ion cannons (yellow dice)", None),
    ("blueprint_set", {"ship": "Cruiser", "missiles": {"red": 1}},  # missiles roll yellow and orange dice
     "Missiles must be Ion missiles (yellow dice) or Plasma missiles (orange dice), got 'red'", "Missiles", None),
    ("blueprint_set", {"ship": "Frigate"},
     "Ship must be Interceptor, Cruiser, Dreadnought or Starbase, got 'Frigate'", "Ship", None),
    ("relations_formed", {"with": "Ann"},
     "With: relations are made with another player (Eclipse, Diplomacy): Bob; got 'Ann'", "With",
     "Eclipse, Diplomacy"),
    ("alliance_founded", {"with": "Bob", "alliance": "  "},
     "Alliance: name the alliance whose tiles the two players take (Rise of the Ancients p.10)", "Alliance",
     "Rise of the Ancients p.10"),
    ("action_taken", {"action": "trade"},
     "the action is one of the six: Explore, Influence, Research, Upgrade, Build or Move (Eclipse, Action phase); "
     "got 'trade'", None, "Eclipse, Action phase"),
    ("action_taken", {"action": "build", "structure": "shellworld", "q": 0, "r": 0},
     "a Build puts an Orbital or a Monolith on the map (Eclipse, Build action), not Shellworld; Shellworld, Warp "
     "Portal, Ancient Warp Portal, Ancient Orbital and Shrine are laid on a hex, not built", None,
     "Eclipse, Build action"),
    ("direction_chosen", {"direction": "widdershins"},
     "Direction: the Turn Order card's holder chooses clockwise or counter-clockwise (Rise of the Ancients p.9), got "
     "'widdershins'", "Direction", "Rise of the Ancients p.9"),
    ("structure_built", {"structure": "castle", "q": 0, "r": 0},
     "Tile must be Orbital, Monolith, Shellworld, Warp Portal, Ancient Warp Portal, Ancient Orbital or Shrine, got "
     "'castle'", "Tile", None),
    ("structure_built", {"structure": "shrine", "colour": "science", "cost": 3, "q": 0, "r": 0},
     "Shrine's cost is 2, 4 or 6 (Rise of the Ancients p.15), got 3", "Shrine's cost", "Rise of the Ancients p.15"),
    ("ship_moved", {"from": {"q": 1, "r": -1}, "to": {"q": 1, "r": -1}},
     "a step from hex [1, -1] to the same hex: a ship moves to a neighbouring hex (Eclipse, Move action)", None,
     "Eclipse, Move action"),
    ("ship_moved", {"from": {"q": "1", "r": -1}, "to": {"q": 0, "r": 0}},
     "From hex [q, r]: q must be a whole number, got '1'", "From hex [q, r]", None),
]
IDS = [f"{kind}-{i}" for i, (kind, *_rest) in enumerate(CASES)]


def _refusal(store, kind, payload):
    flow = eclipse(store)  # Ann and Bob; each refusal comes before any turn or phase is looked at
    before = flow.session.last_seq
    with pytest.raises(BadEvent) as caught:
        flow.session.append(kind, payload, player="Ann")
    assert flow.session.last_seq == before  # nothing recorded
    return caught.value


@pytest.mark.parametrize(("kind", "payload", "english", "field", "rule"), CASES, ids=IDS)
def test_the_refusal_in_english_names_the_field_and_the_rule(store, kind, payload, english, field, rule):
    refused = _refusal(store, kind, payload)
    assert isinstance(refused.problem, Text)  # kept to be said in each reader's language
    assert i18n.say(refused.problem, "en") == english
    assert kind in str(refused)  # the log keeps the event's kind; a player's words do not
    assert kind not in english


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
@pytest.mark.parametrize(("kind", "payload", "english", "field", "rule"), CASES, ids=IDS)
def test_the_refusal_reaches_each_reader_in_their_language(store, lang, kind, payload, english, field, rule):
    said = i18n.say(_refusal(store, kind, payload).problem, lang)
    assert said != english
    if field is not None:  # the field as that language's form labels it
        assert i18n.say(Text(field), lang) in said, said
    if rule is not None:
        assert CITED[rule][lang] in said, said
    for english_words in ("must be", "relations are made", "is one of the six", "are laid on", "chooses",
                          "same hex", "got "):
        assert english_words not in said, said


def test_a_blueprint_count_in_greek_reads_as_the_phones_own_form_refusal(store):
    # the words the blueprint form says of its own field: "Θωράκιση" (Hull), a whole number 0-12
    said = i18n.say(_refusal(store, "blueprint_set", {"ship": "Cruiser", "hull": 13}).problem, "el")
    assert said == "Θωράκιση: πρέπει να είναι ακέραιος από 0 έως 12, δόθηκε 13"


def test_a_shrine_of_a_cost_no_tile_has_is_refused_in_polish_naming_the_cost(store):
    # Rise of the Ancients p.15: Shrines of Freedom cost 2, of Prosperity 4, of Enlightenment 6
    payload = {"structure": "shrine", "colour": "money", "cost": 5, "q": 0, "r": 0}
    said = i18n.say(_refusal(store, "structure_built", payload).problem, "pl")
    assert said == "Pole „Koszt kapliczki” przyjmuje 2, 4 lub 6 (Rise of the Ancients s. 15), podano 5"


def test_a_shrine_of_each_printed_cost_is_not_refused(store):
    flow = eclipse(store)
    for cost in (2, 4, 6):  # the three tiers the Enlightened build (p.15): recorded, the table judges the rest
        flow.session.append("structure_built", {"structure": "shrine", "colour": "money", "cost": cost, "q": 0,
                                                "r": 0}, player="Ann")
    assert flow.session.last_seq == 3
