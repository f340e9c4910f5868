"""The game ``companion demo`` / ``companion run`` start on (companion/commands/box_game.py): players, options and
races by one rule for the command line and the phone, too many players said as such, the chooser with the unfinished
game on it, and the demo without --game saying which game is kept. Expectations are worked by hand."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from companion.app import MainLoop
from companion.cli import main
from companion.hub import StateHub
from companion.session import SessionStore
from device import FakeCamera
from vision.motion import StillnessDetector

BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


# -- players, options and races: one rule for the CLI and the phone --------------------------------
@pytest.mark.parametrize("players, problem", [
    ("Ann:mauve,Bob", "colour, and 'mauve' is not one of red, blue, green, yellow, purple; a name may not hold ':'"),
    ("Ann,Bob:red,Cy:red", "red is taken"),
    ("Ann,ann", "'ann' (as 'Ann') is already playing"),
    ("Ann,,Bob", "a player name is empty"),
])
def test_cli_players_follow_the_phone_rule(tmp_path, capsys, players, problem):
    code = main(["demo", "--game", "race", "--players", players, "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0], err
    # refused before any database is opened: no empty file is left behind
    assert not (tmp_path / "d.sqlite3").exists()


def test_game_options_reach_the_setup_step(tmp_path, monkeypatch):
    # without --players the setup step starts the game; --aggressive must not be lost on the way
    import companion.setup_flow as setup_flow

    seen = {}
    real = setup_flow.TableSetup.__init__

    def spy(self, store, spec, options=None, *a, **kw):
        seen.update(options or {})
        real(self, store, spec, options, *a, **kw)

    monkeypatch.setattr(setup_flow.TableSetup, "__init__", spy)
    code = main(["demo", "--game", "among", "--aggressive", "--races", "Sheptas,", "--db",
                 str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 0
    assert seen == {"aggressive": True, "races": ["Sheptas", ""]}


def test_too_few_players_are_refused_before_a_database_file_is_made(tmp_path, capsys):
    # Among the Stars is for 2-4 players (rulebook, Components): the rules engine says so at once
    code = main(["demo", "--game", "among", "--players", "Ann", "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    assert "2-4 players" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


@pytest.mark.parametrize("players, lang, problem", [
    # one entry alone was counted first ("is for 2-4 players, got 1"), hiding what is wrong with it
    ("Ann:pink", "en", "'Ann:pink': after ':' comes the player's colour, and 'pink' is not one of"),
    ("Ann\nBob", "en", "'Ann\\nBob': a name may not hold control or invisible formatting characters"),
    ("A" * 41, "en", "a name is at most 40 characters; this one has 41"),
    ("Ann:pink", "pl", "'Ann:pink': po ':' podaje się kolor gracza, a 'pink' nie jest jednym z"),
    # a stray comma is the empty name it makes, whichever end it is at ("Ann,,Bob" and "Ann,Bob," already were)
    ("Ann,", "en", "a player name is empty"),
    (" ,Bob", "en", "a player name is empty"),
])
def test_one_bad_player_entry_is_named_not_counted(tmp_path, capsys, players, lang, problem):
    code = main(["--language", lang, "demo", "--game", "race", "--players", players,
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0] and "players, got" not in err[0], err
    assert not (tmp_path / "d.sqlite3").exists()


def test_two_players_cannot_play_the_same_race(tmp_path, capsys):
    # Among the Stars: 8 race tiles, one per race (rulebook, Components; Setup 7)
    from rules import BadEvent
    from rules.among_the_stars import final_scores as among_scores
    from rules.scoring import ScoreInputError
    from tests.test_among_scoring import rulebook_example

    code = main(["demo", "--game", "among", "--players", "Ann,Bob", "--races", "Sheptas,sheptas",
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    assert "two players play the race Sheptas" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
    data = rulebook_example()
    data["players"][0]["race"] = data["players"][1]["race"] = "Sheptas"
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.race.*another player plays Sheptas"):
        among_scores(data)
    with SessionStore(tmp_path / "e.sqlite3") as s, pytest.raises(BadEvent, match="two players play the race Sheptas"):
        s.start("among", {"players": [{"name": "Ann", "race": "sheptas"}, {"name": "Bob", "race": "sheptas"}]})


@pytest.mark.parametrize("game, lang, said", [
    # Race for the Galaxy and Among the Stars: 2-4 players; Roll for the Galaxy: 2-5 (the rulebooks' boxes)
    ("race", "en", "Race for the Galaxy is for 2-4 players, got 6"),
    ("among", "pl", "Among the Stars jest dla 2-4 graczy, podano 6"),
    ("roll", "hu", "Roll for the Galaxy 2-5 játékosra való, kapott: 6"),
    ("roll", "el", "το Roll for the Galaxy είναι για 2-5 παίκτες, όχι 6"),
])
def test_too_many_players_are_said_to_be_too_many_not_short_of_colours(tmp_path, capsys, game, lang, said):
    """Six players on the command line (five seat colours) were told 'no colour left: there are 5': the game's
    player count is checked first, in the words five players for Race already got (exit 2)."""
    code = main(["--language", lang, "demo", "--game", game, "--players", "A,B,C,D,E,F",
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].endswith(said), err
    assert not (tmp_path / "d.sqlite3").exists()


def test_game_choose_shows_the_chooser_with_the_unfinished_game_on_it(tmp_path):
    """README: `companion demo --game choose` is the chooser on the demo replay. After an Eclipse game left open
    (README walkthrough, step 4), `--game choose` reopened that game; it now starts on the chooser, the open game
    listed there to go back to. Without --game the box still comes back to where it was."""
    from companion.library import Library
    from companion.modes import ModeName
    from companion.records import load_place

    db = str(tmp_path / "demo.sqlite3")
    eclipse = ["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "eclipse", "--players", "Ann,Bob",
               "--species", "Terran Directorate,Orion Hegemony"]
    assert main(eclipse) == 0
    with SessionStore(db) as s:
        [game] = s.list_sessions()
        assert load_place(s)["mode"] in (ModeName.SETUP.value, ModeName.PLAY.value)  # the box was in that game
    assert main(["--language", "pl", "demo", "--db", db, *BOX, "--max-frames", "2", "--game", "choose"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == {"mode": ModeName.CHOOSE.value}
        loop = MainLoop(source=FakeCamera([np.zeros((240, 320, 3), np.uint8)] * 3), reader=None, session=None,
                        hub=StateHub(), stillness=StillnessDetector(), sleep=lambda s: None, library=Library(s))
        assert loop.mode_name is ModeName.CHOOSE
        assert [g["session"] for g in loop.view()["choose"]["open"]] == [game.id]  # to go back to from the chooser
        assert [x.id for x in s.list_sessions()] == [game.id]  # nothing new started, the game kept


def test_default_game_choose_in_the_configuration_starts_on_the_chooser(tmp_path, monkeypatch):
    """`default_game = "choose"` written in the configuration resumed the game the box was on, as if nothing was
    written: what an owner writes is asked for, as `--game choose` is. Left unset, the box comes back to its game."""
    from companion.config import default_file_text, load
    from companion.modes import ModeName
    from companion.records import load_place

    db = str(tmp_path / "box.sqlite3")
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "race", "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        assert load_place(s)["mode"] in (ModeName.SETUP.value, ModeName.PLAY.value)
    unset = tmp_path / "unset.toml"
    unset.write_text(default_file_text())  # the file an install writes: default_game left to its default
    assert load(unset, env={}).origin("box.default_game") == "default"
    written = tmp_path / "choose.toml"
    written.write_text('version = 1\n[web]\nannounce = false\n[box]\ndefault_game = "choose"\n')
    monkeypatch.setenv("TABLETOP_CONFIG", str(written))
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == {"mode": ModeName.CHOOSE.value}
        assert len(s.list_sessions()) == 1  # the game kept, to go back to from the chooser


def test_the_demo_started_again_without_game_says_which_game_is_kept_and_how_to_go_back(tmp_path, caplog):
    """`companion demo` after `demo --game roll --players ...` read the dice with no word of the game the table was
    playing: it still reads the dice (README: the default of a replay), and says the game is kept and the command
    that goes back to it, which then does."""
    db = str(tmp_path / "demo.sqlite3")
    assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "roll", "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        (game,) = [x.id for x in s.list_sessions()]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert ("demo reads the dice of the replay (without --game it always does); the Roll for the Galaxy game the box "
            "was on is kept: `companion demo --game roll` goes back to it") in said, said
    with SessionStore(db) as s:
        assert [x.game for x in s.list_sessions()] == ["d6", "roll"]  # the dice, the game kept open
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "roll"]) == 0
    assert any(r.getMessage() == f"roll session {game} (0 events) in {db}" for r in caplog.records), caplog.text
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):  # back on the dice: nothing more to say
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2", "--game", "d6"]) == 0
        assert main(["demo", "--db", db, *BOX, "--max-frames", "2"]) == 0
    assert not [r for r in caplog.records if "is kept" in r.getMessage()]
