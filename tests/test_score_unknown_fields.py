"""A misspelt field in a score file is refused, never read as absent (it would change the result)."""

import pytest

from rules.among_the_stars import final_scores as among_scores
from rules.roll import final_scores as roll_scores
from rules.scoring import Fields, ScoreInputError
from tests.test_among_scoring import rulebook_example


def test_fields_only_names_the_unknown_key_and_the_closest_known():
    with pytest.raises(ScoreInputError) as caught:
        Fields({"cup": {}, "cupp": {}}, "players[0].dice").only("cup", "citizenry", "construction_zone")
    assert caught.value.field == "players[0].dice.cupp"
    assert caught.value.suggestions == ("cup",)


def test_roll_dice_place_misspelt():
    player = {"name": "Ann", "vp_chips": 3, "credits": 1, "tableau": ["Doomed World"], "dice": {"cupp": {"white": 5}}}
    with pytest.raises(ScoreInputError, match=r"players\[0\]\.dice\.cupp"):
        roll_scores({"players": [player]})


def test_among_objectives_misspelt():
    data = rulebook_example()
    data["objective"] = data.pop("objectives")
    with pytest.raises(ScoreInputError, match="objective.*did you mean 'objectives'"):
        among_scores(data)


def _renamed(data: dict, second: str) -> dict:
    data["players"][1]["name"] = second
    return data


def test_same_player_name_in_another_case_is_refused_in_every_game():
    # "Ann" and "ann" are one person at the table (companion.player_names.check_player_name says so too)
    from rules.race import final_scores as race_scores
    from tests.test_race_scoring import FILLER, game

    among = rulebook_example()
    first = among["players"][0]["name"]
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name.*also the name of players\[0\]"):
        among_scores(_renamed(among, first.upper()))

    race = game(["Old Earth"], FILLER)
    race["players"][0]["name"] = "Ann"
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name.*'ann'.*players\[0\] \('Ann'\)"):
        race_scores(_renamed(race, "ann"))

    from tests.test_roll_scoring import player

    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name.*'ANN'.*players\[0\] \('Ann'\)"):
        roll_scores({"players": [player("Ann", tableau=["Doomed World"]), player("ANN", tableau=["Alpha Centauri"])]})
