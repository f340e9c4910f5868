"""``companion score roll FILE [--json]`` (companion/scoring.py) and its JSON Schema."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

import jsonschema
import pytest

from companion.scoring import add_score_parser, cmd_score, scoring_games

SCHEMA = Path(__file__).resolve().parents[1] / "schemas" / "roll-score-input.schema.json"

# p.8 Victory worked example: 13 + 3 + 5 + 4 = 25 (see test_roll_scoring.py for the arithmetic).
EXAMPLE = {
    "players": [
        {
            "name": "Ann",
            "vp_chips": 0,
            "credits": 1,
            "tableau": [
                "Alien Archaeology",
                "Alien Rosetta Stone World",
                "New Sparta",
                "Galactic Federation",
                "New Galactic Order",
            ],
            "goods": {},
            "dice": {"cup": {"white": 3, "red": 4}, "citizenry": {"white": 2}, "construction_zone": {}},
        },
        {
            # Space Piracy 0 + Hidden Fortress 2 + Old Earth 3 + 20 chips = 25: ties with Ann.
            # Tie-break: Ann cup 7 + $1 = 8; Bob cup 3 + $6 = 9 -> Bob.
            "name": "Bob",
            "vp_chips": 20,
            "credits": 6,
            "tableau": ["Space Piracy", "Hidden Fortress", "Old Earth"],
            "dice": {"cup": {"white": 3}},
        },
    ]
}


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion")
    add_score_parser(p.add_subparsers(dest="command", required=True))
    return p


def run(*argv: str) -> tuple[int, str, str]:
    args = parser().parse_args(list(argv))
    out, err = io.StringIO(), io.StringIO()
    code = cmd_score(args, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data, name="final.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_roll_can_score():
    assert "roll" in scoring_games()


def test_json_output_shape_and_values(tmp_path):
    code, out, err = run("score", "roll", write(tmp_path, EXAMPLE), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result == {
        "players": [
            {
                "name": "Ann",
                "total": 25,
                "breakdown": {
                    "VP chips": 0,
                    "developments": 13,
                    "worlds": 3,
                    "Galactic Federation bonus": 5,
                    "New Galactic Order bonus": 4,
                },
            },
            {"name": "Bob", "total": 25, "breakdown": {"VP chips": 20, "developments": 0, "worlds": 5}},
        ],
        "winners": ["Bob"],
    }


def test_table_output(tmp_path):
    code, out, _ = run("score", "roll", write(tmp_path, EXAMPLE))
    assert code == 0
    assert "Galactic Federation bonus" in out and "winner: Bob" in out
    assert "25" in out


def test_unknown_tile_exit_1_with_field_and_suggestion(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["players"][1]["tableau"][2] = "Old Eart"
    code, out, err = run("score", "roll", write(tmp_path, data), "--json")
    assert code == 1 and out == ""
    assert "players[1].tableau[2]" in err and "'Old Earth'" in err


def test_credits_above_10_exit_1(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    data["players"][0]["credits"] = 12
    code, _, err = run("score", "roll", write(tmp_path, data), "--json")
    assert code == 1 and "players[0].credits" in err and "between 0 and 10" in err


def test_missing_field_exit_1(tmp_path):
    data = json.loads(json.dumps(EXAMPLE))
    del data["players"][0]["tableau"]
    code, _, err = run("score", "roll", write(tmp_path, data))
    assert code == 1 and "players[0].tableau: is missing" in err


def test_not_json_and_missing_file_exit_1(tmp_path):
    code, _, err = run("score", "roll", write(tmp_path, "{players: oops"))
    assert code == 1 and "not JSON" in err and "line 1" in err
    code, _, err = run("score", "roll", str(tmp_path / "nope.json"))
    assert code == 1 and "no such file" in err


def test_unknown_game_is_a_usage_error():
    with pytest.raises(SystemExit) as info:
        parser().parse_args(["score", "monopoly", "x.json"])
    assert info.value.code == 2


def test_game_that_cannot_score_exit_2(tmp_path):
    args = argparse.Namespace(game="d6", file=Path(write(tmp_path, EXAMPLE)), json=True)
    err = io.StringIO()
    assert cmd_score(args, out=io.StringIO(), err=err) == 2
    assert "cannot score" in err.getvalue()


# --- the JSON Schema documents the same input --------------------------------------------


def test_schema_is_valid_and_accepts_the_example():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(EXAMPLE, schema)
    for example in schema.get("examples", []):
        jsonschema.validate(example, schema)


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d["players"][0].pop("vp_chips"),
        lambda d: d["players"][0].__setitem__("credits", 11),
        lambda d: d["players"][0].__setitem__("credits", -1),
        lambda d: d["players"][0]["tableau"].append("Galactic Federaton"),
        lambda d: d["players"][0]["dice"]["cup"].__setitem__("pink", 1),
    ],
)
def test_schema_rejects_what_the_checker_rejects(change, tmp_path):
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    data = json.loads(json.dumps(EXAMPLE))
    change(data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
    assert run("score", "roll", write(tmp_path, data))[0] == 1


def test_schema_lists_every_tile_name():
    from rules.roll import catalogue

    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert set(schema["$defs"]["tile_name"]["enum"]) == set(catalogue().names)


def test_input_formats_for_other_games(tmp_path):
    # Race for the Galaxy reads JSON Lines; the reader is shared (rules.scoring.INPUT_FORMATS).
    from companion.scoring import read_score_file
    from rules.scoring import ScoreInputError, json_documents

    lines = read_score_file(Path(write(tmp_path, '{"a": 1}\n\n{"b": 2}\n', "games.jsonl")))
    assert json_documents(lines) == [(1, {"a": 1}), (3, {"b": 2})]
    one = read_score_file(Path(write(tmp_path, '{"a": 1}', "one.json")))
    assert json_documents(one) == [(None, {"a": 1})]
    broken = read_score_file(Path(write(tmp_path, '{"a": 1}\n{"b": \n', "broken.jsonl")))
    with pytest.raises(ScoreInputError, match="line 2"):
        json_documents(broken)
    with pytest.raises(ScoreInputError, match="no such file"):
        read_score_file(tmp_path / "missing.json")
