"""A yes/no field sent a value it does not take (companion/flow_forms.py ``_parse_choice``): the refusal names the
field's two answers in the player's language ("must be yes or no"), not "one of the listed names" with a guess among
the English names the phone posts ("did you mean yes?"); the answer written in any of the app's languages is taken.
Eclipse's Move step: "A jump (Jump Drive)" and "Starts another activation of the same ship" are yes/no fields."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start


def moving(store):
    """Ann (Magellan) has explored 106 and Moves a Cruiser from her home onto it; Bob upgraded in between."""
    flow = start(store, species=["Magellan", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "upgrade", {})
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1], "ship": "Cruiser"})
    return flow


@pytest.mark.parametrize("value, shown", [("maybe", "'maybe'"), ("ye", "'ye'"), (True, "true"), (1, "1")])
def test_a_bad_yes_no_answer_is_refused_in_the_players_words(store, value, shown):
    flow = moving(store)
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "step", {"from": [0, -1], "to": [0, -2], "again": value})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].endswith(f"Starts another activation of the same ship must be yes or no, got {shown}")
    assert said["el"].endswith(f"Ξεκινά νέα ενεργοποίηση του ίδιου Σκάφους: πρέπει να είναι ναι ή όχι, δόθηκε {shown}")
    assert said["pl"].endswith(f"przyjmuje tylko: tak lub nie; podano {shown}")
    assert said["hu"].endswith(f"a válasz csak igen vagy nem lehet, kapott érték: {shown}")
    for words in said.values():
        assert "listed names" not in words and "yes?" not in words
    assert flow.session.last_seq == before


@pytest.mark.parametrize("value", ["tak", "Ναι", "IGEN", "yes "])
def test_a_yes_written_in_a_players_language_is_taken(store, value):
    flow = moving(store)
    flow.report("Ann", "step", {"from": [0, -1], "to": [0, -2], "again": value})
    assert flow.session.events()[-1].payload.get("again") is True
