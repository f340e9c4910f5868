"""Reading ``companion score`` / ``companion check`` inputs (companion/scoring.py, rules/scoring.py): text
no player can type, files that are not files, numbers no game reaches, terminals that cannot show a name."""

from __future__ import annotations

import argparse
import io
import json
import os

import pytest

from companion.scoring import cmd_check, cmd_score
from rules.scoring import ScoreInputError, check_int, check_typed_text
from tests.fuzzing import run_cli

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
    expected = f"companion score: {path}: players[0].name: holds U+D800, half of a character (text cut short or badly converted): retype it\n"
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
