"""``companion score race FILE --json`` on one game record (the shared score command)."""

from __future__ import annotations

import argparse
import io
import json

import pytest

scoring = pytest.importorskip("companion.scoring")


def game_record() -> dict:
    # Ann: Old Earth 2 + Galactic Federation 0 + Space Marines 1, 5 chips;
    #      GF bonus: itself (cost 6) 2 + Space Marines (development) 1 = 3 -> 11.
    # Bob: Epsilon Eridani 1 + Gem World 1 (a good on it), 4 chips -> 6.
    return {
        "players": [
            {"name": "Ann", "chips": 5, "hand": 2,
             "tableau": [{"card": "Old Earth", "goods": 0}, {"card": "Galactic Federation"}, "Space Marines"]},
            {"name": "Bob", "chips": 4, "hand": 1, "tableau": ["Epsilon Eridani", {"card": "Gem World", "goods": 1}]},
        ]
    }


def score(path, as_json=True):
    out, err = io.StringIO(), io.StringIO()
    rc = scoring.cmd_score(argparse.Namespace(game="race", file=path, json=as_json), out, err)
    return rc, out.getvalue(), err.getvalue()


def test_race_is_a_scoring_game():
    assert "race" in scoring.scoring_games()


def test_score_one_game_json(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game_record()), encoding="utf-8")
    rc, out, err = score(path)
    assert (rc, err) == (0, "")
    assert json.loads(out) == {
        "players": [
            {"name": "Ann", "total": 11,
             "breakdown": {"VP chips": 5, "developments": 1, "worlds": 2, "Galactic Federation bonus": 3}},
            {"name": "Bob", "total": 6, "breakdown": {"VP chips": 4, "developments": 0, "worlds": 2}},
        ],
        "winners": ["Ann"],
    }


def test_unknown_card_names_the_field_and_suggests(tmp_path):
    record = game_record()
    record["players"][1]["tableau"][1]["card"] = "Gem Wrld"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    rc, out, err = score(path)
    assert rc == 1 and out == ""
    assert "players[1].tableau[1].card: unknown card 'Gem Wrld'; did you mean 'Gem World'" in err
