"""Eclipse's volley target, Shrine colours, empty map spaces and their errors in the players' language (the
Eclipse rulebook's terms: Ancients, Money, Science, Materials)."""

from __future__ import annotations

import pytest

from companion.flows.eclipse import ECLIPSE_FLOW
from companion.i18n import localize
from rules import BadEvent
from tests.test_eclipse_game import FOUR, play


def _field(form_id: str, name: str):
    form = next(f for f in ECLIPSE_FLOW.forms({"players": [{"name": "Ann"}, {"name": "Bob"}]}) if f.id == form_id)
    return next(x for x in form.fields if x.name == name)


def test_shrine_colours_and_the_ancients_are_offered_in_polish() -> None:
    colour = _field("structure", "colour")
    assert list(colour.choices) == ["money", "science", "materials"]  # what the phone posts: never translated
    assert localize(list(colour.labels), "pl") == ["Pieniądze", "Nauka", "Materiały"]
    target = _field("volley", "target")
    assert localize(list(target.labels), "hu")[-1] == "Ősök"


def test_a_volley_at_oneself_is_refused_in_the_players_words() -> None:
    with pytest.raises(BadEvent) as refused:
        play(FOUR, ("volley_rolled", "Ann", {"dice": [{"colour": "red", "face": 6}], "target": "Ann"}))
    assert localize(refused.value.problem, "pl") == "celem musi być inny gracz lub Pradawni, podano Ann"
    assert localize(refused.value.problem, "el") == "ο στόχος πρέπει να είναι άλλος παίκτης ή οι Αρχαίοι, δόθηκε Ann"


def test_a_shrine_of_no_resource_colour_is_refused_in_the_players_words() -> None:
    with pytest.raises(BadEvent) as refused:
        play(FOUR, ("structure_built", "Bob", {"q": 2, "r": -2, "structure": "shrine", "colour": "grey"}))
    assert "jeden z: Pieniądze, Nauka, Materiały" in localize(refused.value.problem, "pl")


def test_two_species_on_one_board_say_how_many_boards_carry_them_in_each_language() -> None:
    """Terran Union and Planta are the two sides of one board (Rise of the Ancients p.3): Hungarian read "de csak
    ezeken vannak: 1" ("but they are only on these: 1"); each language says the count of boards as a count."""
    from companion.i18n import say
    from rules import BadSettings
    from tests.test_eclipse_game import GAME

    with pytest.raises(BadSettings) as refused:
        GAME.initial_state({"players": [{"name": "A", "species": "Terran Union"}, {"name": "B", "species": "Planta"}]})
    assert "de csak 1 játékostábla hordozza őket" in say(refused.value, "hu")
    assert "μόνο 1 ταμπλό παίκτη τα έχει" in say(refused.value, "el")
    assert "liczba plansz gracza z tymi rasami: 1" in say(refused.value, "pl")


@pytest.mark.parametrize(("species", "said"), [
    (["Planta", "Planta"], "2 players chose Planta, and only 1 player board shows it"),
    (["Terran Union", "Planta"], "2 players chose Terran Union and Planta, and only 1 player board shows them"),
    (["Planta", "Planta", "Planta"], "3 players chose Planta, and only 1 player board shows it"),
    (["Magellan"] * 4, "4 players chose Magellan, and only 3 player boards show it"),  # the back of the three new
    (["Planta", "Terran Union", "Orion Hegemony", "Planta"],
     "3 players chose Planta and Terran Union, and only 1 player board shows them"),
])
def test_a_species_chosen_by_more_players_than_boards_is_said_in_a_sentence(species, said) -> None:
    """Two players on Planta read "Planta and Planta: each needs a player board of its own, and only 1 carry them":
    the species once, the players counted, the board a count that agrees (Rise of the Ancients p.3: Terran Union and
    Planta are the two sides of one board)."""
    from companion.i18n import say
    from rules import BadSettings
    from tests.test_eclipse_game import GAME

    with pytest.raises(BadSettings) as refused:
        GAME.initial_state({"players": [{"name": f"P{k}", "species": s} for k, s in enumerate(species)]})
    assert say(refused.value, "en").startswith(said + " ("), say(refused.value, "en")
    for lang in ("el", "pl", "hu"):
        said_there = say(refused.value, lang)
        assert species[0] in said_there and said_there != say(refused.value, "en"), said_there


@pytest.mark.parametrize(("development", "greek"), [
    ("Diplomatic Fleet", "Διπλωματικός Στόλος"), ("Mining Colony", "Αποικία Εξόρυξης"),
    ("Ancient Monument", "Αρχαίο Μνημείο")])
def test_a_development_two_players_hold_is_named_in_greek_whatever_its_gender(development, greek) -> None:
    """Each Development tile is unique (Rise of the Ancients p.5, Greek "Κάθε Πλακίδιο Ανάπτυξης είναι μοναδικό"):
    a score file giving one to two players is refused naming the tile as the Greek rulebook does, after the noun
    whose article it takes ("την Διπλωματικός Στόλος", English "Diplomatic Fleet", before)."""
    from companion.i18n import say
    from rules.eclipse.endgame import final_scores
    from rules.scoring import ScoreInputError
    from tests.test_eclipse_cases import case

    data = case("score-rise-of-the-ancients-rows")
    for player in data["players"][1:3]:
        player["developments"] = [development]
    with pytest.raises(ScoreInputError) as refused:
        final_scores(data)
    assert say(refused.value, "el") == (f"players[2].developments[0]: players[1]: κρατά επίσης το Πλακίδιο "
                                        f"Ανάπτυξης {greek}· κάθε Πλακίδιο Ανάπτυξης είναι μοναδικό")
    assert str(refused.value) == (f"players[2].developments[0]: players[1] holds {development} too; each Development "
                                  "tile is unique")


def test_a_token_without_its_development_is_named_in_greek() -> None:
    """A Warp Portal tile on a hex needs the Warp Portal Development (Rise of the Ancients p.8): the Greek refusal
    names it "Πύλη Στρεβλώσεως" (p.5), as the score rows do."""
    from companion.i18n import say
    from rules.eclipse.endgame import final_scores
    from rules.scoring import ScoreInputError
    from tests.test_eclipse_cases import case

    data = case("score-rise-of-the-ancients-rows")  # players[0] lays a Warp Portal on 105
    data["players"][0]["developments"] = []
    with pytest.raises(ScoreInputError) as refused:
        final_scores(data)
    assert say(refused.value, "el") == ("players[0].warp_portal_hex: ένα πλακίδιο Πύλη Στρεβλώσεως μπαίνει σε "
                                        "εξάγωνο μόνο με την Ανάπτυξη Πύλη Στρεβλώσεως στο 'developments'")


@pytest.mark.parametrize(("guardian", "greek"), [("Ancient Dreadnought", "Αρχαίο Θωρηκτό"),
                                                 ("Ancient Cruiser", "Αρχαίο Καταδρομικό")])
def test_a_guardian_still_on_a_hex_is_named_in_the_players_words(guardian, greek) -> None:
    """An influence disc waits until the hex's guardian is destroyed (Rise of the Ancients p.6-7): the refusal and its
    fix name the guardian in Greek ("Αρχαίο Θωρηκτό", Greek p.6), without an article that fits one gender."""
    from companion.i18n import say
    from rules.eclipse.data import catalogue
    from rules.eclipse.galaxy import Galaxy, PlacedHex
    from rules.eclipse.placement import check_influence_target

    centre = PlacedHex(catalogue().sector("001"), (0, 0), 0, False)
    [verdict] = check_influence_target(Galaxy.of([centre]), (0, 0), "Ann", owners={}, ancients={},
                                       guardians={(0, 0): guardian})
    label = centre.sector.label
    assert say(verdict.message, "el") == (f"στον τομέα {label} βρίσκεται ακόμη {greek}: κανένας Δίσκος Επιρροής "
                                          "μέχρι να καταστραφεί")
    assert say(verdict.fix, "el") == f"{greek}: πρέπει πρώτα να καταστραφεί"
    assert verdict.message == f"{label} still holds the {guardian}: no influence disc until it is destroyed"
