"""Among the Stars: end-game scoring (rulebook 6 'Játék Vége' = Game end), objectives, tie-breaks,
the score/check input and its schema.

Known values: the rulebook's worked example (63 -> 79) and hand-worked cases with the
arithmetic in a comment.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from companion.cli import main
from rules.among_the_stars import AMONG_GAME, final_scores
from rules.core import CheckingGame, Severity
from rules.games import GAMES
from rules.scoring import ScoreInputError, scores_json

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "among-score-input.schema.json"
MR = {"card": "Main Reactor", "cell": [0, 0], "cubes": 2}


def row(card, cell, year=1, **kw):
    return {"card": card, "cell": list(cell), "year": year, **kw}


def chain(card, n, year=1):
    """``n`` copies of ``card`` in a row east of the Main Reactor."""
    return [MR, *(row(card, (k, 0), year) for k in range(1, n + 1))]


def player(name, vp, credits, station, race=None, **kw):
    return {"name": name, "race": race, "credits": credits, "vp": vp, "station": station, **kw}


def gyorgy_station():
    """György's station for the rulebook example, built legally so the digits the transcript kept add up.

    Yellow-box cards (3): Command Centre (+1 per blue: itself, Crew Quarters, Docking Bay, Transportation
    Platform = 4 -> +4), Opera House (neighbours (1,1) and (2,0), both red: one type -> +1), Alliance Fleet Base
    (6 red > 0 green -> +2): 4 + 1 + 2 = 7. Red: Shield Generator, 2 Heavy Ion Cannons, 2 Pilot Training Areas,
    Alliance Fleet Base = 6. Reactors: Main Reactor, (0,1), (0,-1) empty; (-1,0) still holds 1.
    Energy: Shield Generator 1 (MR) + Heavy Ion Cannons 2 (R1) + 2 (R2) + Alliance Fleet Base 1 (MR) + Command
    Centre 1 (R3) = 7 = 2 + 2 + 2 + (2 - 1) spent; every source within distance 2 when used.
    Cards a year: 4, 3, 4, 3 (at most 6); credits: year 1 costs 1 + 1 + 3 + 3 = 8 of 10 + 2 discards x 3.
    """
    return [
        {"card": "Main Reactor", "cell": [0, 0], "cubes": 0},
        row("Power Reactor", (0, 1), 1, cubes=0), row("Power Reactor", (0, -1), 1, cubes=0),
        row("Shield Generator", (1, 0), 1), row("Heavy Ion Cannon", (1, 1), 1),
        row("Power Reactor", (-1, 0), 2, cubes=1), row("Heavy Ion Cannon", (1, -1), 2),
        row("Alliance Fleet Base", (-1, 1), 2),
        row("Command Centre", (-1, -1), 3), row("Pilot Training Area", (2, 0), 3), row("Opera House", (2, 1), 3),
        row("Pilot Training Area", (2, -1), 3),
        row("Crew Quarters", (-2, 0), 4), row("Docking Bay", (-2, -1), 4), row("Transportation Platform", (-2, 1), 4),
    ]


def rulebook_example():
    # Opponents: 5, 4 and 2 red locations (the third digit is lost; any number below 5 works);
    # Ann has 5 credits like György, the others fewer.
    return {
        "objectives": ["First Line of Defense", "On Budget"],
        "players": [
            player("György", 63, 5, gyorgy_station()),
            player("Ann", 50, 5, chain("Pilot Training Area", 5)),
            player("Béla", 50, 3, chain("Pilot Training Area", 4)),
            player("Csaba", 50, 0, chain("Pilot Training Area", 2)),
        ],
    }


def by_name(breakdowns):
    return {b.player: b for b in breakdowns}


def objectives(breakdowns):
    """Each player's VP from the objectives."""
    return {b.player: {line.category: line.vp for line in b.lines}["objectives"] for b in breakdowns}


def test_rulebook_example_63_to_79():
    # Rulebook 6 example: 63 on the track; yellow cards +4, +1, +2 = +7; 3 built reactors + the Main Reactor,
    # one still holding cubes: +3; 5 credits: +1 (5 // 3); most military (red) locations, 6 against 5, 4, 2: +5;
    # most credits tied 5-5 with another player: nobody scores it. 63 + 7 + 3 + 1 + 5 = 79 (+16 in all).
    g = by_name(final_scores(rulebook_example()))["György"]
    lines = {line.category: line.vp for line in g.lines}
    assert lines == {"VP track": 63, "objectives": 5, "end-game abilities": 7, "race": 0, "empty reactors": 3,
                     "credits": 1}
    assert g.total == 79
    assert g.tiebreak == (11, 5)  # 6 red + 4 blue + Opera House = 11 locations without reactors; 5 credits
    checked = AMONG_GAME.check(rulebook_example())
    assert [f for f in checked if f.player == "György"] == []


def test_objective_tied_for_best_scores_for_nobody():
    # Rulebook 6: only one player scores an objective; a tie for best gives it to nobody.
    data = {"objectives": ["First Line of Defense"], "players": [
        player("A", 0, 0, chain("Turret", 2)), player("B", 0, 0, chain("Pilot Training Area", 2)),
        player("C", 0, 0, chain("Turret", 1))]}
    assert objectives(final_scores(data)) == {"A": 0, "B": 0, "C": 0}
    data["players"][1] = player("B", 0, 0, chain("Pilot Training Area", 3))
    assert objectives(final_scores(data)) == {"A": 0, "B": 5, "C": 0}


def test_marvels_in_space_scores_twice_the_lead_and_ignores_reactors():
    # Objective data: 2 x (your count - next best), Power Reactors not counted.
    # A: 4 locations (+ 2 Power Reactors, not counted); B: 2 locations -> A scores 2 x (4 - 2) = 4.
    a = chain("Crew Quarters", 4) + [row("Power Reactor", (0, 1), cubes=2), row("Power Reactor", (0, 2), cubes=2)]
    data = {"objectives": ["Marvels in Space"],
            "players": [player("A", 0, 0, a), player("B", 0, 0, chain("Crew Quarters", 2))]}
    got = by_name(final_scores(data))
    assert {line.category: line.vp for line in got["A"].lines}["objectives"] == 4
    assert {line.category: line.vp for line in got["B"].lines}["objectives"] == 0


def test_empty_reactors_and_credits():
    # +1 per reactor with no cubes (the Main Reactor counts), +1 per 3 credits rounded down (rulebook 6).
    st = [{"card": "Main Reactor", "cell": [0, 0], "cubes": 0}, row("Power Reactor", (1, 0), cubes=0),
          row("Power Reactor", (2, 0), cubes=1)]
    b = final_scores({"players": [player("A", 10, 8, st)]})[0]
    lines = {line.category: line.vp for line in b.lines}
    assert (lines["empty reactors"], lines["credits"], b.total) == (2, 2, 14)  # 10 + 2 + 8 // 3 = 14


def test_face_down_filler_scores_nothing():
    # Rulebook 5: the face-down filler is not a location; it holds no cubes and is not a reactor for scoring.
    st = [MR, row("Power Reactor", (1, 0), face_down=True), row("Crew Quarters", (2, 0))]
    b = final_scores({"players": [player("A", 0, 0, st)]})[0]
    assert {line.category: line.vp for line in b.lines}["empty reactors"] == 0
    assert b.tiebreak == (1, 0)


def test_tie_break_locations_then_credits_then_shared():
    # Rulebook 6: most VP; tied -> more locations (reactors not counted); still tied -> more credits; else shared.
    a = chain("Crew Quarters", 3) + [row("Power Reactor", (0, 1), cubes=2)]  # 3 locations (+ 1 reactor)
    b = chain("Crew Quarters", 2) + [row("Power Reactor", (0, 1), cubes=2), row("Power Reactor", (0, 2), cubes=2)]
    # both: 20 VP on the track, 2 credits (0 VP), reactors all holding cubes -> 20 each
    res = scores_json(final_scores({"players": [player("A", 20, 2, a), player("B", 20, 2, b)]}))
    assert [p["total"] for p in res["players"]] == [20, 20]
    assert res["winners"] == ["A"]  # 3 locations beat 2
    res = scores_json(final_scores({"players": [player("A", 20, 2, chain("Crew Quarters", 2)),
                                                player("B", 20, 1, chain("Docking Bay", 2))]}))
    assert res["winners"] == ["A"]  # 2 locations each; 2 credits beat 1
    res = scores_json(final_scores({"players": [player("A", 20, 2, chain("Crew Quarters", 2)),
                                                player("B", 20, 2, chain("Docking Bay", 2))]}))
    assert res["winners"] == ["A", "B"]


def test_races_sheptas_and_humareen():
    # Sheptas: 1 VP per 2 credits instead of 3, the bonus at most +5 (the usual 1 per 3, plus at most 5).
    # 9 credits -> 4 (usual 3); 14 -> 7 (usual 4); 36 -> 18 at 1 per 2, but 12 + 5 = 17; 100 -> 50, but 33 + 5 = 38.
    st = chain("Crew Quarters", 1)
    for credits, vp in ((9, 4), (14, 7), (36, 17), (100, 38)):
        b = final_scores({"players": [player("S", 0, credits, st, race="Sheptas")]})[0]
        assert {line.category: line.vp for line in b.lines}["credits"] == vp
    # Humareen: least-built type among those built, + 1, max 5. Blue 3 (Crew Quarters), red 1 (Turret): 1 + 1 = 2.
    st = chain("Crew Quarters", 3) + [row("Turret", (0, 1))]
    b = final_scores({"players": [player("H", 0, 0, st, race="Humareen")]})[0]
    assert {line.category: line.vp for line in b.lines}["race"] == 2


def test_qualeen_secret_objective_scores_even_when_tied():
    data = {"objectives": [], "players": [
        player("Q", 0, 0, chain("Turret", 2), race="Qualeen", secret_objective="First Line of Defense"),
        player("B", 0, 0, chain("Pilot Training Area", 2))]}
    got = by_name(final_scores(data))
    # 2 red each: tied, still scores (race text)
    assert {line.category: line.vp for line in got["Q"].lines}["objectives"] == 5
    assert {line.category: line.vp for line in got["B"].lines}["objectives"] == 0


def test_end_game_abilities_of_other_stations():
    # Council Room: +1 per other station without one. Alliance Headquarters: +1 per other station with more red.
    a = [MR, row("Council Room", (1, 0)), row("Alliance Headquarters", (2, 0))]
    data = {"players": [player("A", 0, 0, a), player("B", 0, 0, chain("Turret", 2)),
                        player("C", 0, 0, [MR, row("Council Room", (1, 0))])]}
    got = by_name(final_scores(data))
    # Council Room: B has none, C has one -> +1. Alliance HQ: B has 2 red > 0, C has 0 -> +1. Total 2.
    assert {line.category: line.vp for line in got["A"].lines}["end-game abilities"] == 2


# -- input errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "station, field, words",
    [
        ([MR, row("Holografic Display", (1, 0))], "players[0].station[1].card",
         ["unknown card", "Holographic Display Area"]),
        ([MR, row("Turret", (1, 0)), row("Crew Quarters", (1, 0))], "players[0].station[2].cell",
         ["already holds", "Turret"]),
        ([row("Turret", (1, 0))], "players[0].station", ["no Main Reactor"]),
        ([MR, row("Turret", (1, "x"))], "players[0].station[1].cell", ["[i, j]"]),
        ([MR, {"card": "Turret", "cell": [1, 0, 2], "year": 1}], "players[0].station[1].cell", ["[i, j]"]),
        ([{"card": "Main Reactor", "cell": [1, 0], "cubes": 2}], "players[0].station[0].cell", ["[0, 0]"]),
        ([MR, row("Power Reactor", (1, 0))], "players[0].station[1].cubes", ["missing"]),
        ([MR, {"card": "Turret", "cell": [1, 0]}], "players[0].station[1].year", ["missing"]),
        ([MR, row("Turret", (1, 0), year=5)], "players[0].station[1].year", ["between 1 and 4"]),
    ],
)
def test_bad_input_names_the_field(station, field, words):
    with pytest.raises(ScoreInputError) as err:
        final_scores({"players": [player("A", 0, 0, station)]})
    assert err.value.field == field
    for w in words:
        assert w in str(err.value)


def test_unknown_objective_and_race_suggest_names():
    with pytest.raises(ScoreInputError) as err:
        final_scores({"objectives": ["First Line of Defence"], "players": [player("A", 0, 0, [MR])]})
    assert err.value.field == "objectives[0]" and "First Line of Defense" in err.value.suggestions
    with pytest.raises(ScoreInputError) as err:
        final_scores({"players": [player("A", 0, 0, [MR], race="Shepta")]})
    assert err.value.field == "players[0].race" and "Sheptas" in err.value.suggestions



def test_a_qualeens_secret_objective_face_up_on_the_table_is_refused_naming_it(tmp_path, capsys):
    """Rulebook 'Races', Qualeen: at setup she draws 2 extra objectives and keeps 1 secretly, so her secret objective
    is never one of those face up. A score file that says so is refused, naming it, as her phone's form refuses it;
    one of the objectives not face up is scored (First Line of Defense: 2 red for Q alone, 5 VP; On Budget face up is
    tied at 0 credits, nobody's)."""
    face_up = ["First Line of Defense", "Marvels in Space"]
    data = {"objectives": face_up, "players": [
        player("Q", 0, 0, chain("Turret", 2), race="Qualeen", secret_objective="Marvels in Space"),
        player("B", 0, 0, [MR])]}
    with pytest.raises(ScoreInputError) as err:
        final_scores(data)
    assert err.value.field == "players[0].secret_objective" and err.value.code == "among.secret_face_up"
    assert str(err.value).startswith("players[0].secret_objective: Marvels in Space is face up on the table")
    path = tmp_path / "final.json"
    path.write_text(json.dumps(data))
    assert main(["--language", "pl", "score", "among", str(path)]) == 1
    said = capsys.readouterr().err
    assert "Marvels in Space" in said and "face up" not in said and said.count("\n") == 1
    data["objectives"] = ["On Budget"]
    data["players"][0]["secret_objective"] = "First Line of Defense"
    assert {line.category: line.vp for line in by_name(final_scores(data))["Q"].lines}["objectives"] == 5

# -- check command and schema ---------------------------------------------------------------------


def test_check_finds_each_misplay_with_its_player_card_cell_and_rule():
    data = {"players": [player("A", 0, 0, [MR, row("Crew Quarters", (1, 0)), row("Crew Quarters", (2, 2))])]}
    (f,) = [f for f in AMONG_GAME.check(data) if f.severity is Severity.ERROR]
    assert (f.player, f.card, f.cell, f.rule_kind) == ("A", "Crew Quarters", (2, 2), "adjacency")
    assert "Crew Quarters (2 below and 2 right of the Main Reactor)" in f.what
    assert f.rule.startswith("Among the Stars, rulebook 4")
    json.dumps([x.to_json() for x in AMONG_GAME.check(data)])
    assert isinstance(AMONG_GAME, CheckingGame)
    assert [f for f in AMONG_GAME.check({"players": [player("A", 0, 0, [MR, row("Crew Quarters", (1, 0))])]})
            if f.severity is Severity.ERROR] == []


def test_game_is_listed_and_scores_through_the_shared_command_shape():
    assert GAMES["among"] is AMONG_GAME
    assert AMONG_GAME.info.score_input == "json"
    res = scores_json(AMONG_GAME.final_scores(rulebook_example()))
    assert res["players"][0] == {"name": "György", "total": 79, "breakdown": {
        "VP track": 63, "objectives": 5, "end-game abilities": 7, "race": 0, "empty reactors": 3, "credits": 1}}


def test_schema_is_valid_lists_every_card_and_accepts_the_examples():
    from rules.among_the_stars.data import catalogue

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert sorted(schema["$defs"]["card_name"]["enum"]) == sorted(catalogue().card_names())
    for example in [*schema["examples"], rulebook_example()]:
        jsonschema.validate(example, schema)
        final_scores(example)
