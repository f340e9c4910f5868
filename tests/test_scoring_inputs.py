"""Reading ``companion score`` / ``companion check`` inputs (companion/scoring.py, rules/scoring.py): text
no player can type, files that are not files, numbers no game reaches, terminals that cannot show a name; JSON
Lines that keep going past a bad line, byte-order marks, JSON nested too deeply or with a key given twice, and
counts beyond the components in the box (and the same maxima in the JSON Schemas)."""

from __future__ import annotations

import argparse
import copy
import io
import json
import os
from pathlib import Path

import jsonschema
import pytest

from companion.cli import main
from companion.scoring import add_check_parser, cmd_check, cmd_score
from rules.scoring import ScoreInputError, check_int, check_typed_text
from tests.fuzzing import run_cli
from tests.test_among_scoring import rulebook_example
from tests.test_race_scoring import FILLER, game
from tests.test_roll_cli import EXAMPLE as ROLL_EXAMPLE
from tests.test_roll_cli import run as _run_score

# One position per game that scores (hand-checked in the games' own tests), with Ann's name to replace.
POSITIONS = {
    "roll": {"players": [{"name": "Ann", "vp_chips": 0, "credits": 1, "tableau": ["Old Earth"],
                          "dice": {"cup": {"white": 3}}}]},
    "race": {"players": [{"name": "Ann", "chips": 1, "tableau": ["Old Earth"]},
                         {"name": "Bob", "chips": 1, "tableau": ["Epsilon Eridani"]}]},
    "among": {"objectives": [], "players": [{"name": "Ann", "credits": 1, "vp": 3,
                                             "station": [{"card": "Main Reactor", "cell": [0, 0], "cubes": 2}]}]},
}


def named(game: str, name: str) -> dict:
    document = json.loads(json.dumps(POSITIONS[game]))
    document["players"][0]["name"] = name
    return document


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_a_name_given_as_a_lone_surrogate_escape_is_one_line_naming_the_field(game, tmp_path):
    # The JSON escape "\ud800" is half of a character: no one types it, and it cannot be printed as UTF-8.
    path = tmp_path / "final.json"
    path.write_text(json.dumps(named(game, "\ud800")), encoding="utf-8")
    assert "\\ud800" in path.read_text()
    expected = (f"companion score: {path}: players[0].name: holds U+D800, half of a character (text cut short or badly "
                "converted): retype it\n")
    assert run_cli(["score", game, str(path)]) == (1, "", expected)
    assert run_cli(["score", game, str(path), "--json"]) == (1, "", expected)
    if game == "among":
        assert run_cli(["check", game, str(path), "--json"]) == (1, "", expected.replace("score", "check", 1))


@pytest.mark.parametrize(("name", "what"), [
    ("Ann\x00", "U+0000, a control character"),
    ("Ann\nBob", "U+000A, a control character"),
    ("\x1b[31mAnn", "U+001B, a control character"),
    ("Ann\ufffe", "U+FFFE, a noncharacter"),
    ("Ann\udfff", "U+DFFF, half of a character"),
    ("a\u202eb", "U+202E, a text-direction control"),
    ("\u2067Ann", "U+2067, a text-direction control"),
])
def test_text_no_one_types_is_refused_wherever_it_is(name, what):
    with pytest.raises(ScoreInputError) as info:
        check_typed_text({"players": [{"name": "Bob"}, {"name": name}]})
    assert info.value.field == "players[1].name" and what in info.value.problem
    with pytest.raises(ScoreInputError) as info:
        check_typed_text({"players": [{"goods": {name: []}}]})
    assert info.value.field == "players[0].goods" and info.value.problem.startswith(f"has a key holding {what}")


def test_text_players_type_is_kept():
    document = {"players": [{"name": n} for n in ("Béla", "Łukasz", "李", "Zoë", "Ann-Marie", "👩‍🚀", "O'Neil")]}
    check_typed_text(document)  # accents, other scripts, emoji with a joiner: all typed on a phone
    deep = current = []
    for _ in range(50_000):  # a deep document is walked without recursion
        current.append([])
        current = current[0]
    check_typed_text(deep)


@pytest.mark.parametrize("name", ["\u200b", " \u200b\u2060 ", "\u3000"])
def test_a_name_that_shows_nothing_is_empty(tmp_path, name):
    # a zero-width space, a word joiner, an ideographic space: typed or pasted, the name is blank on every view
    path = tmp_path / "final.json"
    path.write_text(json.dumps(named("race", name)), encoding="utf-8")
    code, out, err = run_cli(["score", "race", str(path)])
    assert code == 1 and out == "" and "players[0].name: must be a non-empty string" in err


def test_a_jsonl_line_with_such_text_is_that_line_alone(tmp_path):
    path = tmp_path / "games.jsonl"
    good = json.dumps(POSITIONS["race"])
    path.write_text(good + "\n" + json.dumps(named("race", "Ann\ud800")) + "\n" + good + "\n", encoding="utf-8")
    code, out, err = run_cli(["score", "race", str(path), "--json"])
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 3 and rows[1]["line"] == 2 and "winners" in rows[0] and "winners" in rows[2]
    assert rows[1]["error"].startswith("players[0].name: holds U+D800")
    assert err == f"companion score: {path}: line 2: players[0].name: {rows[1]['error'].split(': ', 1)[1]}\n"


@pytest.mark.parametrize("kind", ["folder", "device", "missing", "not utf-8"])
def test_a_file_that_is_not_a_score_file_is_one_line(tmp_path, kind):
    path = {"folder": tmp_path, "device": "/dev/zero", "missing": tmp_path / "none.json",
            "not utf-8": tmp_path / "latin1.json"}[kind]
    if kind == "not utf-8":
        path.write_bytes('{"players": [{"name": "Béla"}]}'.encode("latin-1"))
    code, out, err = run_cli(["score", "roll", str(path)])
    assert code == 1 and out == "" and err.count("\n") == 1 and err.startswith(f"companion score: {path}: ")


def test_a_pipe_is_read(tmp_path):
    fifo = tmp_path / "in.json"
    os.mkfifo(fifo)
    writer = os.fork()
    if writer == 0:  # a `<(...)` process substitution, in miniature
        with open(fifo, "w", encoding="utf-8") as pipe:
            pipe.write(json.dumps(POSITIONS["roll"]))
        os._exit(0)
    try:
        code, out, err = run_cli(["score", "roll", str(fifo), "--json"])
    finally:
        os.waitpid(writer, 0)
    assert (code, err) == (0, "") and json.loads(out)["winners"] == ["Ann"]


def test_numbers_no_game_reaches_are_refused_briefly():
    with pytest.raises(ScoreInputError, match=r"must be at most 1000000, got a number of 4300 digits"):
        check_int(int("9" * 4300), "players[0].hand", low=0)
    with pytest.raises(ScoreInputError, match=r"^players\[0\].hand: must be at least 0, got -1$"):
        check_int(-1, "players[0].hand", low=0)
    assert check_int(1_000_000, "x", low=0) == 1_000_000


def test_a_terminal_that_cannot_show_a_name_gets_escapes_not_a_traceback(tmp_path):
    path = tmp_path / "final.json"
    path.write_text(json.dumps(named("roll", "Łukasz")), encoding="utf-8")
    for as_json in (True, False):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="latin-1", errors="strict")
        err = io.StringIO()
        assert cmd_score(argparse.Namespace(game="roll", file=path, json=as_json), out, err) == 0
        out.flush()
        text = raw.getvalue().decode("latin-1")
        assert "\\u0141ukasz" in text and err.getvalue() == ""
        if as_json:
            assert json.loads(text)["winners"] == ["Łukasz"]  # the same document, escaped
    among = named("among", "Łukasz")
    among["players"][0]["station"].append({"card": "Crew Quarters", "cell": [3, 3], "year": 1})  # touches nothing
    path.write_text(json.dumps(among), encoding="utf-8")
    for as_json in (True, False):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="ascii", errors="strict")
        assert cmd_check(argparse.Namespace(game="among", file=path, json=as_json), out, io.StringIO()) == 0
        out.flush()
        text = raw.getvalue().decode("ascii")
        assert "\\u0141ukasz" in text
        if as_json:
            assert json.loads(text)["findings"][0]["player"] == "Łukasz"


def write_text(tmp_path: Path, text: str, name: str, encoding: str = "utf-8") -> str:
    path = tmp_path / name
    path.write_text(text, encoding=encoding)
    return str(path)


def score(*argv: str) -> tuple[int, str, str]:
    return _run_score("score", *argv)


def check(*argv: str) -> tuple[int, str, str]:
    p = argparse.ArgumentParser(prog="companion")
    add_check_parser(p.add_subparsers(dest="command", required=True))
    out, err = io.StringIO(), io.StringIO()
    code = cmd_check(p.parse_args(["check", *argv]), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


# -- JSON checks on every game's score file ----------------------------------------------------------
def test_deeply_nested_score_file_is_said_to_be_too_deep_not_bad_json(tmp_path, capsys):
    """Lists inside lists 100,000 deep are JSON: the file is refused as too deep, not as 'not JSON'."""
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["score", "roll", str(deep)]) == 1
    err = capsys.readouterr().err
    assert "is nested too deeply (lists or objects inside each other about 1000 levels deep" in err
    assert "not JSON" not in err
    lines = tmp_path / "lines.jsonl"  # Race's JSON Lines: the deep line is named, the others scored
    lines.write_text('{"players": [{"name": "Ann", "chips": 0, "tableau": ["Old Earth"]}]}\n' + "[" * 5000 +
                     "]" * 5000 + "\n")
    assert main(["score", "race", str(lines)]) == 1
    err = capsys.readouterr().err
    assert "line 2" in err and "is nested too deeply" in err and "not JSON" not in err


def test_a_key_given_twice_in_a_score_file_is_refused(tmp_path, capsys):
    dup = tmp_path / "dup.json"
    dup.write_text('{"players": [{"name": "Ann", "name": "Bob", "vp_chips": 1, "credits": 1, "tableau": []}]}')
    assert main(["score", "roll", str(dup)]) == 1
    assert "gives the key 'name' twice in one object" in capsys.readouterr().err


def test_race_score_files_get_the_same_json_checks(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert main(["score", "race", str(deep)]) == 1
    assert "nested too deeply" in capsys.readouterr().err
    dup = tmp_path / "dup.json"
    dup.write_text('{"players": [{"name": "Ann", "name": "Zed", "chips": 0, "tableau": ["Old Earth"]},'
                   ' {"name": "B", "chips": 0, "tableau": ["Epsilon Eridani"]}]}')
    assert main(["score", "race", str(dup)]) == 1
    assert "gives the key 'name' twice" in capsys.readouterr().err
    big = tmp_path / "big.json"
    big.write_text('{"players": [{"name": "A", "chips": 1' + "0" * 5000 + ', "tableau": ["Old Earth"]}]}')
    assert main(["score", "roll", str(big)]) == 1
    assert "a number with more than 4300 digits" in capsys.readouterr().err


# -- one bad line of a Race JSON Lines file does not hide the others --------------------------------

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


# -- byte-order marks and the article ---------------------------------------------------------------


def test_files_with_a_utf8_byte_order_mark_are_read(tmp_path):
    path = write_text(tmp_path, json.dumps(ROLL_EXAMPLE), "bom.json", encoding="utf-8-sig")
    assert Path(path).read_bytes()[:3] == b"\xef\xbb\xbf"
    code, out, err = score("roll", path, "--json")
    assert code == 0, err
    assert json.loads(out)["winners"] == ["Bob"]  # p.8 example: 25 each, Bob wins the tie-break
    race = write_text(tmp_path, json.dumps(GOOD_1) + "\n" + json.dumps(GOOD_2) + "\n", "bom.jsonl",
                      encoding="utf-8-sig")
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


# -- counts beyond the components -------------------------------------------------------------------

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
HUGE = 99999999999999999999999


def test_race_chips_are_limited_by_the_chips_in_the_box(tmp_path):
    # Digest §1: 18 x 1 + 6 x 5 + 4 x 10 = 88 VP of chips; the 12-per-player pool, then the
    # 10s and leftover chips set aside (§2, §6): nobody can hold more than the box.
    code, out, err = score("race",
                           write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(HUGE, 0))), "g.json"),
                           "--json")
    assert code == 1 and out == ""
    assert "players[0].chips" in err and "88" in err
    code, out, err = score("race",
                           write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(88, 0))), "g.json"),
                           "--json")
    assert code == 0, err
    # together: 50 + 40 = 90 > 88
    code, out, err = score("race",
                           write_text(tmp_path, json.dumps(game(["Old Earth"], FILLER, chips=(50, 40))), "g.json"),
                           "--json")
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


@pytest.mark.parametrize(("field", "value", "limit"),
                         [("credits", HUGE, "500"), ("vp", HUGE, "500"), ("credits", 501, "500")])
def test_among_credits_and_vp_have_bounds(tmp_path, field, value, limit):
    # Bounds against typing slips only: the 112 credits in the box (32 x 1 + 16 x 5) are no limit, the rulebook
    # never says the Supply runs out (a Sheptas discarding every round holds 136: tests/test_among_secret.py).
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
    assert (props["credits"]["maximum"], props["vp"]["maximum"]) == (500, 500)
    from rules.among_the_stars.endgame import MAX_CREDITS, MAX_VP
    from rules.race.scoring import vp_chips_in_box
    from rules.roll.endgame import MAX_VP_CHIPS

    assert (vp_chips_in_box(), MAX_VP_CHIPS, MAX_CREDITS, MAX_VP) == (88, 110, 500, 500)


def test_schemas_reject_the_huge_numbers():
    schema = json.loads((SCHEMAS / "race-score-input.schema.json").read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(game(["Old Earth"], FILLER, chips=(HUGE, 0)), schema)
    jsonschema.validate(game(["Old Earth"], FILLER, chips=(88, 0)), schema)


def test_jsonl_lines_that_fail_are_said_in_the_commands_language_on_stdout_too(tmp_path, capsys):
    """`companion --language pl score race FILE.jsonl`: the table output's "line N: error: ..." rows were English
    (and their problem too) while stderr spoke Polish; with --json the shape stays {"line", "error"} and the message
    is in the language asked for (English without --language, as every tool reads it)."""
    from companion.cli import main

    path = mixed_file(tmp_path)
    assert main(["--language", "pl", "score", "race", path]) == 1
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if "wiersz" in line or "line" in line]
    assert rows[0].startswith("wiersz 2: błąd: players[0].tableau[0]: ") and "czy chodziło o 'Old Earth'" in rows[0]
    assert rows[1].startswith("wiersz 4: błąd: to nie jest JSON")
    assert "line 2" not in out and "error:" not in out and "did you mean" not in out
    assert main(["--language", "hu", "score", "race", path, "--json"]) == 1
    said = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [sorted(row) for row in said if "error" in row] == [["error", "line"], ["error", "line"]]
    errors = {row["line"]: row["error"] for row in said if "error" in row}
    assert errors[2].startswith("players[0].tableau[0]: ") and "erre gondoltál: 'Old Earth'" in errors[2]
    assert errors[4].startswith("nem JSON") and "sor" not in errors[4]


def test_untypable_text_is_found_by_one_scan_the_same_for_every_code_point():
    """A score file near the 64 MB limit took minutes to check on the box (every character looked up in Python); the
    check now scans once for the untypable characters and must find exactly the ones the file reader refuses, as
    Unicode defines them: the Cc category (U+0000-U+001F, U+007F-U+009F), U+2028 (Zl) and U+2029 (Zp), the
    text-direction controls U+202A-U+202E and U+2066-U+2069, the surrogate halves U+D800-U+DFFF and the 66
    noncharacters (U+FDD0-U+FDEF and the last two code points of each of the 17 planes). Every code point is
    tried alone and after ordinary text, and the first of two is the one named."""
    import unicodedata

    from rules.scoring import untypable

    def refused(code: int) -> bool:
        return (unicodedata.category(chr(code)) in ("Cc", "Zl", "Zp") or 0xD800 <= code <= 0xDFFF
                or 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069
                or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFF in (0xFFFE, 0xFFFF))

    wrong = [code for code in range(0x110000) if (untypable("Zoë " + chr(code)) is not None) != refused(code)]
    assert wrong == []
    assert sum(refused(code) for code in range(0x110000)) == 65 + 2 + 5 + 4 + 2048 + 66
    assert untypable("Ann\u202eBob\x00") == ("U+202E, a text-direction control (it turns the text after it "
                                              "around)")
    assert untypable("Zoë\x00\u202e") == "U+0000, a control character"
    assert untypable("Zoë Ἀλέξανδρος 🚀") is None
