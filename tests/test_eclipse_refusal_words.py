"""Eclipse's refusals reach each phone in its player's language (el, pl, hu), as every other refusal does: the rules
give the problem as words with their parts (``rules.text.Text``) and the box says them (``companion.i18n``).

- The Final position form (Eclipse, End of the game) refused for more reputation tiles than the spaces the player
  gives: each tile kept and each Ambassador received takes a space of the reputation track (Eclipse, reputation
  tiles). Ann (2 players: no Ambassadors received) reports two tiles of 3 VP on a track of one space.
- A camera question the rules refuse when it is confirmed: the refusal stays under the question, said in the
  language of the screen or phone that shows it (before, the question kept the English).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.camera import CameraFlow
from companion.camera.questions import Proposal
from companion.errors import BadEntry
from companion.i18n import Text
from tests.test_eclipse_camera import eclipse
from tests.test_eclipse_flow import at_final_scoring

SPACES = {"el": "Μετρητής Φήμης έχει 1 θέσεις", "pl": "pól na torze reputacji: 1",
          "hu": "a hírnévsávon csak 1 hely van"}
"""Each language's words for "the reputation track has 1 spaces" (the catalog's own translation of the problem)."""

@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_final_positions_refusal_for_too_many_tiles_is_said_in_the_phones_language(store, lang):
    flow = at_final_scoring(store)
    before = len(flow.session.events())
    with pytest.raises(BadEntry) as caught:
        flow.report("Ann", "position", {"reputation_3": 2, "reputation_slots": 1, "money": 2})
    said = i18n.say(caught.value, lang)
    assert SPACES[lang] in said, said
    assert i18n.say(Text("Final position"), lang) in said and i18n.say(Text("reputation"), lang) in said
    assert "holds 2 reputation tiles" not in said and "Ann.reputation" not in said   # no English, no file path
    assert len(flow.session.events()) == before                                       # nothing recorded

def test_the_final_positions_refusal_in_english_names_the_field_without_the_file_path(store):
    flow = at_final_scoring(store)
    with pytest.raises(BadEntry) as caught:
        flow.report("Ann", "position", {"reputation_3": 2, "reputation_slots": 1})
    assert i18n.say(caught.value, "en").startswith(
        "Final position: reputation: holds 2 reputation tiles, and 0 Ambassador tiles were received, but the "
        "reputation track has 1 spaces")

@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_camera_answer_the_rules_refuse_keeps_its_refusal_in_each_readers_language(store, lang):
    # a tile the hex deck holds but Eclipse does not ("999": a deck enrolled from a scan under another number); the
    # question reaches the rules only when a player confirms it, and the rules refuse a sector they do not know
    flow = eclipse(store)
    cam = CameraFlow(flow, dice_reader=None, zones=None)
    cam._ask(Proposal("Ann", Text("{sector} laid at {cell}, rotation {rotation}?", sector="999", cell="[1, -2]",
                                  rotation=0), "hex_placed", {"sector": "999", "q": 1, "r": -2, "rotation": 0}))
    [q] = cam.view()["questions"]
    before = len(flow.session.events())
    with pytest.raises(BadEntry) as caught:
        cam.confirm(q["id"])
    words = {"el": "δεν υπάρχει τομέας '999'", "pl": "'999'", "hu": "'999'"}[lang]
    assert words in i18n.say(caught.value, lang)
    [shown] = i18n.localize(cam.view(), lang)["questions"]
    assert str(shown["error"]) == i18n.say(Text("no sector {sector} in Eclipse or Rise of the Ancients",
                                                sector="'999'"), lang)
    assert "in Eclipse or Rise of the Ancients" not in str(shown["error"])           # not the English
    assert len(flow.session.events()) == before

def test_a_ship_the_rules_do_not_know_is_refused_in_the_players_words(store):
    flow = at_final_scoring(store)  # any Eclipse game: a volley from a ship type no blueprint has
    with pytest.raises(Exception) as caught:
        flow.session.append("volley_aimed", {"ship": "Frigate"}, player="Ann")
    said = i18n.say(getattr(caught.value, "problem", caught.value), "pl")
    assert said.startswith("Pole „Statek” przyjmuje tylko: Myśliwiec, Krążownik, Pancernik lub Baza gwiezdna; "
                           "podano 'Frigate'"), said


def test_a_player_not_at_the_table_is_refused_naming_the_players_in_greek(store):
    flow = eclipse(store)
    with pytest.raises(Exception) as caught:
        flow.session.append("passed", {}, player="Zed")
    said = i18n.say(caught.value.problem, "el")
    assert said == "δεν υπάρχει παίκτης με το όνομα 'Zed'· παίκτες: Ann, Bob", said

