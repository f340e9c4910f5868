"""The hand-worked Eclipse cases of ``tests/cases/eclipse/`` (the issue's score and placement formats), through the
rules and through ``companion score|check eclipse FILE --json``.

Every case holds its answer (``expect``) and the arithmetic or geometry that gives it (``worked``), from the
scoring table's rows and the Rise of the Ancients rulebook; the code is held to them, never the other way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import Severity
from rules.eclipse import ECLIPSE_GAME, check_placement, final_scores
from rules.scoring import scores_json
from tests.fuzzing import run_cli

CASES = Path(__file__).resolve().parent / "cases" / "eclipse"
SCORE_CASES = sorted(CASES.glob("score-*.json"))
PLACEMENT_CASES = sorted(CASES.glob("placement-*.json"))


def case(name: str) -> dict:
    """The case ``tests/cases/eclipse/<name>.json``, parsed."""
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def test_there_are_enough_hand_worked_cases():
    assert len(SCORE_CASES) >= 8 and len(PLACEMENT_CASES) >= 6
    for path in SCORE_CASES + PLACEMENT_CASES:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["game"] == "eclipse" and data["worked"], f"{path.name}: every case shows its working"


@pytest.mark.parametrize("path", SCORE_CASES, ids=lambda p: p.stem)
def test_score_case(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    expect = data["expect"]
    printed = scores_json(final_scores(data), ECLIPSE_GAME)
    assert {p["name"]: p["total"] for p in printed["players"]} == expect["totals"]
    assert set(printed["winners"]) == set(expect["winners"])
    assert printed["team_scores"] == expect.get("team_scores", {})
    if data["alliances_in_play"]:
        assert "team_scores" in expect


@pytest.mark.parametrize("path", PLACEMENT_CASES, ids=lambda p: p.stem)
def test_placement_case(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    findings = check_placement(data)
    assert findings[0].rule_kind == data["expect"]["rule_kind"], [f.rule_kind for f in findings]
    assert (not any(f.severity is Severity.ERROR for f in findings)) is data["expect"]["legal"]


def test_the_score_command_prints_the_issue_shape(tmp_path):
    path = CASES / "score-traitor-side-tie-on-resources.json"
    code, out, err = run_cli(["score", "eclipse", str(path), "--json"])
    assert (code, err) == (0, "")
    printed = json.loads(out)
    assert list(printed) == ["players", "team_scores", "winners"]
    assert list(printed["players"][0]) == ["name", "species", "total", "breakdown"]
    ann = printed["players"][0]
    assert ann["species"] == "Rho Indi Syndicate" and ann["total"] == sum(ann["breakdown"].values()) == 15
    assert ann["breakdown"]["traitor"] == 0 and ann["breakdown"]["alliance tile"] == -3
    assert printed["team_scores"] == {"Vortex": 15} and printed["winners"] == ["Cy"]
    plain = case("score-base-game-tie-on-resources")
    file = tmp_path / "base.json"
    file.write_text(json.dumps(plain), encoding="utf-8")
    printed = json.loads(run_cli(["score", "eclipse", str(file), "--json"])[1])
    assert printed["team_scores"] == {}, "team_scores is there, empty, without alliances"


def test_the_check_command_prints_the_issue_shape():
    code, out, err = run_cli(["check", "eclipse", str(CASES / "placement-half-wormhole-without-generator.json"), "--json"])
    assert (code, err) == (0, "")
    printed = json.loads(out)
    assert list(printed) == ["legal", "findings"] and printed["legal"] is False
    first = printed["findings"][0]
    assert list(first) == ["rule_kind", "rule", "message", "fix"]
    assert first["rule_kind"] == "half_wormhole_without_generator"
    assert first["fix"] == "rotate it 4 steps clockwise so its wormhole faces yours"  # rotation 5 from 1; see the case
    assert first["rule"].startswith("Eclipse, ")
    code, out, _ = run_cli(["check", "eclipse", str(CASES / "placement-full-wormhole-from-home.json"), "--json"])
    printed = json.loads(out)
    assert code == 0 and printed["legal"] is True and printed["findings"][0]["rule_kind"] == "full_wormhole"
    assert printed["findings"][0]["fix"] is None


@pytest.mark.parametrize(("command", "edit", "field"), [
    ("score", lambda d: d.update(colour="red"), "colour"),
    ("score", lambda d: d["players"][1].update(reputation=[5]), "players[1].reputation[0]"),
    ("score", lambda d: d["players"][0].pop("monoliths"), "players[0].monoliths"),
    ("score", lambda d: d["players"][0].update(controlled_hexes=["999"]), "players[0].controlled_hexes[0]"),
    ("score", lambda d: d.update(kind="placement"), "kind"),
    ("check", lambda d: d.update(kind="score"), "kind"),
    ("check", lambda d: d["explored"].update(rotation=6), "explored.rotation"),
    ("check", lambda d: d.update(**{"from": {"q": 5, "r": 5}}), "from"),
    ("check", lambda d: d["map"][1].update(q=0, r=0), "map[1]"),
])
def test_a_bad_file_is_one_line_naming_the_field_and_exit_2(tmp_path, command, edit, field):
    data = case("score-traitor-side-tie-on-resources" if command == "score" else "placement-full-wormhole-from-home")
    edit(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run_cli([command, "eclipse", str(path), "--json"])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"companion {command}: {path}: {field}: "), err


def test_expect_and_worked_are_ignored_and_other_keys_refused(tmp_path):
    data = case("placement-full-wormhole-from-home")
    data["expect"] = {"legal": False, "rule_kind": "anything"}  # the reader never looks
    data["worked"] = []
    assert check_placement(data)[0].rule_kind == "full_wormhole"
    for where in (data, data["map"][0]):
        where["comment"] = "a stray key"
        path = tmp_path / "stray.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        code, _, err = run_cli(["check", "eclipse", str(path)])
        assert code == 2 and "comment: is not a known field" in err
        del where["comment"]


def test_the_schemas_name_the_data_s_sectors_species_and_developments():
    from rules.eclipse.data import DEVELOPMENTS, SPECIES, catalogue
    from tests.fuzzing import game_schema

    score, placement = game_schema("eclipse"), game_schema("eclipse", "placement-input")
    ids = list(catalogue().sectors)
    assert score["$defs"]["sector"]["enum"] == ids == placement["$defs"]["sector"]["enum"]
    assert score["$defs"]["species"]["enum"] == list(SPECIES)
    assert score["$defs"]["development"]["enum"] == list(DEVELOPMENTS)
    assert score["$defs"]["player"]["required"] == list(score["$defs"]["player"]["properties"])


def test_the_bundled_hex_data_is_the_shared_file():
    import os

    shared = Path(os.environ.get("TABLETOP_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    source = shared / "data" / "eclipse" / "hexes.json"
    if not source.is_file():
        pytest.skip(f"the shared data folder is absent ({source})")
    bundled = Path(__file__).resolve().parents[1] / "rules" / "data" / "eclipse" / "hexes.json"
    assert json.loads(bundled.read_text(encoding="utf-8")) == json.loads(source.read_text(encoding="utf-8"))
