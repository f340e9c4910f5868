"""One rule for a player's name on the command line as at the table (``companion.player_names.check_player_name``):
``companion score`` and ``companion check`` refuse a name the box refuses (41 characters, ',' or ':', a control
character), and a stored game whose kept names that rule refuses is said as a stored game, not as a ``--players``
list typed on the command line."""

from __future__ import annotations

import argparse
import io
import json

import pytest

from companion import scoring
from companion.cli import main
from companion.errors import BadEntry
from companion.i18n import say
from companion.player_names import kept_seats
from companion.session import SessionStore


def _race(first: str) -> dict:
    # Ann (or the name tried): Old Earth 2 + 5 chips = 7; Bob: Epsilon Eridani 1 + 4 chips = 5
    return {"players": [{"name": first, "chips": 5, "hand": 0, "tableau": ["Old Earth"]},
                        {"name": "Bob", "chips": 4, "hand": 0, "tableau": ["Epsilon Eridani"]}]}


def _run(command, game: str, path, as_json: bool = True) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = command(argparse.Namespace(game=game, file=path, json=as_json), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_score_takes_a_name_of_40_characters_and_refuses_one_of_41_as_the_box_does(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_race("A" * 40)), encoding="utf-8")
    rc, out, err = _run(scoring.cmd_score, "race", path)
    assert (rc, err) == (0, "")
    assert [(p["name"], p["total"]) for p in json.loads(out)["players"]] == [("A" * 40, 7), ("Bob", 5)]
    path.write_text(json.dumps(_race("A" * 41)), encoding="utf-8")
    rc, out, err = _run(scoring.cmd_score, "race", path)
    assert rc == 1 and out == ""
    assert "players[0].name:" in err and "at most 40 characters; this one has 41" in err, err
    with pytest.raises(BadEntry) as box:  # the same words as the box's own refusal
        kept_seats(["A" * 41])
    assert say(box.value, "en").split(": ", 1)[1] in err


@pytest.mark.parametrize("name, words", [("Ann:red", "may not hold ',' or ':'"),
                                         ("Ann\u200bB", "control or invisible formatting characters"),
                                         ("Ann\u2028Bob", "U+2028, a control character"),
                                         ("Ann\u2029Bob", "U+2029, a control character")])
def test_score_refuses_a_name_the_setup_refuses(tmp_path, name, words):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_race(name)), encoding="utf-8")
    rc, out, err = _run(scoring.cmd_score, "race", path)
    assert rc == 1 and out == "" and words in err and "players[0].name" in err, err


def test_a_json_lines_file_names_the_line_whose_name_is_refused_and_scores_the_others(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(_race("Ann")) + "\n" + json.dumps(_race("B" * 41)) + "\n", encoding="utf-8")
    rc, out, err = _run(scoring.cmd_score, "race", path)
    rows = [json.loads(line) for line in out.splitlines()]
    assert rc == 1 and rows[0]["winners"] == ["Ann"]
    assert rows[1]["line"] == 2 and "players[0].name" in rows[1]["error"] and "has 41" in rows[1]["error"]


def test_check_refuses_a_name_of_41_characters_too(tmp_path):
    station = [{"card": "Main Reactor", "cell": [0, 0], "cubes": 2}]
    doc = {"players": [{"name": "C" * 41, "credits": 0, "vp": 0, "station": station},
                       {"name": "Dan", "credits": 0, "vp": 0, "station": station}]}
    path = tmp_path / "among.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rc, out, err = _run(scoring.cmd_check, "among", path)
    assert rc == 1 and out == "" and "players[0].name" in err and "has 41" in err, err


def test_kept_seats_take_each_name_whole_and_give_colours_in_seat_order():
    seats = kept_seats(["Ann", "Zoë 🎲"], ("red", "blue", "green"))
    assert seats == [{"name": "Ann", "colour": "red"}, {"name": "Zoë 🎲", "colour": "blue"}]
    with pytest.raises(BadEntry) as twice:
        kept_seats(["Ann", "ann"])
    assert say(twice.value, "en").startswith("player 2 as kept: 'ann' (as 'Ann') is already playing")


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_export_of_a_stored_game_with_a_refused_name_speaks_of_the_stored_game_not_of_players(
        tmp_path, capsys, lang):
    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as s:
        sid = s.start("race", {"players": ["Bob", "A" * 41]}).id
    out = tmp_path / "g.json"
    assert main(["--language", lang, "export", "--db", str(db), "--unfinished", "--json", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and sid in err and "41" in err and "40" in err
    assert "--players" not in err and not out.exists()
    if lang == "en":
        assert ("keeps a player name this program refuses: player 2 as kept: 'AAAAAAAAAAAAAAAAAAAA'…: a name is at "
                "most 40 characters; this one has 41") in err
    else:
        assert "keeps a player name" not in err and "as kept" not in err  # said in the command's language


@pytest.mark.parametrize("name", ["Ann\u2028Bob", "Ann\u2029Bob"])
def test_a_line_or_paragraph_separator_in_a_name_is_refused_at_the_table(name):
    """U+2028 and U+2029 break a line on a terminal and in a script as a line feed does: no name holds one."""
    with pytest.raises(BadEntry) as box:
        kept_seats([name, "Cy"])
    assert "control or invisible formatting characters" in say(box.value, "en")
