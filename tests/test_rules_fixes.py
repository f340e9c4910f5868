"""Fixes from a newcomer's review: JSON Lines keep going past a bad line, byte-order marks,
component limits on counts, and uneven rules checks in Race and Among the Stars.

Rule values come from the digests in shared/rules/ (section cited by each test), worked by hand.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from companion.scoring import cmd_check
from rules import Severity
from rules.among_the_stars.game import CREDITS_CHANGED, VP_CHANGED
from rules.race import RACE_GAME
from tests.test_among_game import Log as AmongLog
from tests.test_among_game import run as among_run
from tests.test_among_scoring import rulebook_example
from tests.test_race_game import run as race_run
from tests.test_race_game import setup as race_setup
from tests.test_race_scoring import FILLER, game
from tests.test_roll_cli import EXAMPLE as ROLL_EXAMPLE
from tests.test_roll_cli import run as _run_score

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def write_text(tmp_path: Path, text: str, name: str, encoding: str = "utf-8") -> str:
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return str(path)


def score(*argv: str) -> tuple[int, str, str]:
    return _run_score("score", *argv)


def check(*argv: str) -> tuple[int, str, str]:
    import argparse
    import io

    from companion.scoring import add_check_parser

    p = argparse.ArgumentParser(prog="companion")
    add_check_parser(p.add_subparsers(dest="command", required=True))
    out, err = io.StringIO(), io.StringIO()
    code = cmd_check(p.parse_args(["check", *argv]), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


# -- 1. one bad line of a Race JSON Lines file does not hide the others ---------------------

# Old Earth 2 VP + 1 chip = 3 against Epsilon Eridani 1 VP (digest §7: chips + printed VP).
GOOD_1 = game(["Old Earth"], FILLER, chips=(1, 0))
# New Sparta 1 VP + 4 chips = 5 against Epsilon Eridani 1 VP.
GOOD_2 = game(["New Sparta"], FILLER, chips=(4, 0))
BAD = game(["Old Earht"], FILLER)  # misspelt card


def mixed_file(tmp_path: Path) -> str:
    lines = [json.dumps(GOOD_1), json.dumps(BAD), "", "garbage", json.dumps(GOOD_2)]
    return write_text(tmp_path, "\n".join(lines) + "\n", "mixed.jsonl")


def test_jsonl_prints_one_line_per_game_and_an_error_object_for_each_bad_line(tmp_path):
    code, out, err = score("race", mixed_file(tmp_path), "--json")
    assert code == 1  # README: 1 some input could not be read
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 4  # lines 1, 2, 4, 5; the blank line 3 is skipped
    assert rows[0] == {
        "players": [
            {"name": "P0", "total": 3, "breakdown": {"VP chips": 1, "developments": 0, "worlds": 2}},
            {"name": "P1", "total": 1, "breakdown": {"VP chips": 0, "developments": 0, "worlds": 1}},
        ],
        "winners": ["P0"],
    }
    assert list(rows[1]) == ["line", "error"] and rows[1]["line"] == 2
    assert "players[0].tableau[0]" in rows[1]["error"] and "Old Earth" in rows[1]["error"]
    assert rows[2]["line"] == 4 and "is not JSON" in rows[2]["error"]
    assert [p["total"] for p in rows[3]["players"]] == [5, 1]
    # the same messages on stderr, both lines named
    assert rows[1]["error"] in err and rows[2]["error"] in err
    assert "line 2" in err and "line 4" in err


def test_jsonl_all_good_exits_0_and_table_output_keeps_going(tmp_path):
    path = write_text(tmp_path, json.dumps(GOOD_1) + "\n\n" + json.dumps(GOOD_2) + "\n", "good.jsonl")
    code, out, err = score("race", path, "--json")
    assert code == 0 and err == ""
    assert [[p["total"] for p in json.loads(line)["players"]] for line in out.splitlines()] == [[3, 1], [5, 1]]
    code, out, err = score("race", mixed_file(tmp_path))
    assert code == 1
    assert "line 2: error:" in out and "line 4: error:" in out and out.count("winner") == 2


def test_a_single_race_document_that_is_bad_still_prints_nothing(tmp_path):
    code, out, err = score("race", write_text(tmp_path, json.dumps(BAD, indent=2), "one.json"), "--json")
    assert (code, out) == (1, "") and "Old Earth" in err


# -- 2. byte-order marks and the article -----------------------------------------------------


def test_files_with_a_utf8_byte_order_mark_are_read(tmp_path):
    path = write_text(tmp_path, json.dumps(ROLL_EXAMPLE), "bom.json", encoding="utf-8-sig")
    assert Path(path).read_bytes()[:3] == b"\xef\xbb\xbf"
    code, out, err = score("roll", path, "--json")
    assert code == 0, err
    assert json.loads(out)["winners"] == ["Bob"]  # p.8 example: 25 each, Bob wins the tie-break
    race = write_text(tmp_path, json.dumps(GOOD_1) + "\n" + json.dumps(GOOD_2) + "\n", "bom.jsonl", encoding="utf-8-sig")
    code, out, err = score("race", race, "--json")
    assert code == 0 and len(out.splitlines()) == 2, err
    among = write_text(tmp_path, json.dumps(rulebook_example()), "among.json", encoding="utf-8-sig")
    code, out, err = check("among", among, "--json")
    assert code == 0 and json.loads(out) == {"findings": []}, err
    code, out, err = score("among", among, "--json")
    assert code == 0, err


def test_several_documents_name_the_game_with_the_right_article(tmp_path):
    two = json.dumps(rulebook_example()) + "\n" + json.dumps(rulebook_example()) + "\n"
    code, _, err = score("among", write_text(tmp_path, two, "two.jsonl"), "--json")
    assert code == 1
    assert "an Among the Stars file holds one game" in err and "a among" not in err
    roll = json.dumps(ROLL_EXAMPLE) + "\n" + json.dumps(ROLL_EXAMPLE) + "\n"
    code, _, err = score("roll", write_text(tmp_path, roll, "two.jsonl"), "--json")
    assert code == 1 and "a Roll for the Galaxy file holds one game" in err


# -- 3. counts beyond the components ---------------------------------------------------------

HUGE = 99999999999999999999999


def test_race_chips_are_limited_by_the_chips_in_the_box(tmp_path):
    # Digest §1: 18 x 1 + 6 x 5 + 4 x 10 = 88 VP of chips; the 12-per-player pool, then the
    # 10s and leftover chips set aside (§2, §6): nobody can hold more than the box.
    code, out, err = score("race", write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(HUGE, 0))), "g.json"), "--json")
    assert code == 1 and out == ""
    assert "players[0].chips" in err and "88" in err
    code, out, err = score("race", write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(88, 0))), "g.json"), "--json")
    assert code == 0, err
    # together: 50 + 40 = 90 > 88
    code, out, err = score("race", write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(50, 40))), "g.json"), "--json")
    assert code == 1 and "90" in err and "88" in err


def test_roll_vp_chips_are_limited_by_the_chips_in_the_box(tmp_path):
    # Roll digest, Components: 20 x 1 + 8 x 5 + 5 x 10 = 110 VP of chips.
    data = copy.deepcopy(ROLL_EXAMPLE)
    data["players"][1]["vp_chips"] = HUGE
    code, _, err = score("roll", write_text(tmp_path, json.dumps(data), "r.json"), "--json")
    assert code == 1 and "players[1].vp_chips" in err and "110" in err
    data["players"][0]["vp_chips"], data["players"][1]["vp_chips"] = 60, 60  # 120 together
    code, _, err = score("roll", write_text(tmp_path, json.dumps(data), "r.json"), "--json")
    assert code == 1 and "120" in err and "110" in err


@pytest.mark.parametrize(("field", "value", "limit"), [("credits", HUGE, "112"), ("vp", HUGE, "500"), ("credits", 113, "112")])
def test_among_credits_and_vp_have_bounds(tmp_path, field, value, limit):
    # Among digest §1: 32 x 1-credit + 16 x 5-credit tokens = 112 credits.
    data = rulebook_example()
    data["players"][1][field] = value
    code, _, err = score("among", write_text(tmp_path, json.dumps(data), "a.json"), "--json")
    assert code == 1 and f"players[1].{field}" in err and limit in err
    code, _, err = check("among", write_text(tmp_path, json.dumps(data), "a.json"), "--json")
    assert code == 1 and f"players[1].{field}" in err


def test_schemas_carry_the_same_maxima():
    text = (SCHEMAS / "race-score-input.schema.json").read_text(encoding="utf-8")
    assert '"maximum": 88' in text
    roll = (SCHEMAS / "roll-score-input.schema.json").read_text(encoding="utf-8")
    assert '"maximum": 110' in roll
    among = json.loads((SCHEMAS / "among-score-input.schema.json").read_text(encoding="utf-8"))
    props = among["$defs"]["player"]["properties"]
    assert (props["credits"]["maximum"], props["vp"]["maximum"]) == (112, 500)
    from rules.among_the_stars.endgame import MAX_CREDITS, MAX_VP
    from rules.race.scoring import vp_chips_in_box
    from rules.roll.endgame import MAX_VP_CHIPS

    assert (vp_chips_in_box(), MAX_VP_CHIPS, MAX_CREDITS, MAX_VP) == (88, 110, 112, 500)


def test_schemas_reject_the_huge_numbers():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "race-score-input.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(game(["Old Earth"], FILLER, chips=(HUGE, 0)), schema)
    jsonschema.validate(game(["Old Earth"], FILLER, chips=(88, 0)), schema)


# -- 4. Race rules checks ----------------------------------------------------------------------


def test_two_players_with_the_same_start_world_is_a_finding():
    # Digest §2 setup 3: the 5 start worlds are shuffled and one is dealt to each player.
    r = race_run(race_setup(ann="Old Earth", bob="Old Earth"))
    hits = [f for f in r.findings if "Old Earth" in f.what and "start world" in f.what]
    assert hits and hits[0].severity is Severity.ERROR
    assert "start worlds dealt one each" in hits[0].rule and hits[0].rule.startswith("Race for the Galaxy")
    assert not [f for f in race_run(race_setup()).findings if f.severity is not Severity.INFO]
    from rules import BadEvent

    with pytest.raises(BadEvent, match="dealt one each"):
        RACE_GAME.initial_state({"players": ["Ann", "Bob"], "start_worlds": {"Ann": "Old Earth", "Bob": "Old Earth"}})


def test_vp_chips_outside_consume_are_flagged_and_the_pool_never_goes_negative():
    # 2 players: pool 2 x 12 = 24 (digest §2). 30 VP reported during Explore: 24 from the pool,
    # 6 from the chips set aside (§6); VP chips come from Consume powers (§4 IV).
    log = race_setup().round(Ann="explore_5", Bob="explore_1_1")("vp_changed", player="Ann", delta=30)
    r = race_run(log)
    warnings = [f for f in r.findings if f.severity is Severity.WARNING]
    assert any("outside the Consume phase" in f.what and "30" in f.what for f in warnings)
    assert r.state.pool == 0 and r.state.set_aside_paid == 6
    view = RACE_GAME.view(r.state)
    assert view["vp_pool"] == 0 and view["vp_set_aside_paid"] == 6
    assert any("6 VP" in f.what and "set aside" in f.what for f in r.findings if f.severity is Severity.INFO)
    assert r.state.player("Ann").vp_chips == 30 and r.state.ending
    # in Consume: no warning
    ok = race_run(race_setup().round(Ann="consume_trade", Bob="produce")("vp_changed", player="Ann", delta=3))
    assert not [f for f in ok.findings if f.severity is not Severity.INFO]
    assert ok.state.pool == 21


def test_more_chips_than_the_box_holds_is_a_warning():
    # 2 players: 24 in the pool, 88 - 24 = 64 set aside; 24 + 64 = 88 is fine, 89 is not.
    log = race_setup().round(Ann="consume_x2", Bob="produce")("vp_changed", player="Ann", delta=88)
    assert not [f for f in race_run(log).findings if "box holds" in f.what]
    log("vp_changed", player="Bob", delta=1)
    assert [f for f in race_run(log).findings if "box holds" in f.what and f.severity is Severity.WARNING]


def test_a_second_pick_before_the_reveal_replaces_the_first_and_is_visible():
    # Digest §3: each player secretly picks one card, face down, until all reveal: a
    # changed mind before the reveal counts (the last pick), but it is shown as INFO.
    log = race_setup()("action_chosen", player="Ann", actions="develop")("action_chosen", player="Ann", actions="settle")
    r = race_run(log)
    infos = [f for f in r.findings if f.severity is Severity.INFO and "chose again" in f.what]
    assert infos and infos[0].where == "Ann" and "develop" not in infos[0].what and "settle" not in infos[0].what
    r = race_run(log("action_chosen", player="Bob", actions="produce"))
    assert r.state.player("Ann").actions == ("settle",)


# -- 5. Among the Stars adjustments ----------------------------------------------------------


def test_credits_adjusted_below_zero_is_a_warning_naming_the_amount():
    # Among digest §3: 10 credits at the start of year 1; -30 cannot be paid (§4).
    log = AmongLog()
    log.add(CREDITS_CHANGED, "A", delta=-30, reason="test")
    r = among_run(log, players=("A", "B"))
    assert r.state.player("A").credits == 0
    hits = [f for f in r.findings if f.severity is Severity.WARNING and "30" in f.what]
    assert hits and hits[0].where == "A" and "10 credits" in hits[0].what and "rulebook 4 'The three actions'" in hits[0].rule
    ok = AmongLog()
    ok.add(CREDITS_CHANGED, "A", delta=-10, reason="test")
    assert not among_run(ok, players=("A", "B")).findings


def test_vp_adjusted_below_zero_is_shown_and_stops_at_zero():
    # Among digest §5.6: no score drops below 0; a larger loss stops at 0.
    log = AmongLog()
    log.add(VP_CHANGED, "A", delta=4, reason="test")
    log.add(VP_CHANGED, "A", delta=-30, reason="test")
    r = among_run(log, players=("A", "B"))
    assert r.state.player("A").vp == 0
    hits = [f for f in r.findings if "30" in f.what and "stops at 0" in f.what]
    assert hits and "26" in hits[0].what and "rulebook 5 'Round end'" in hits[0].rule
