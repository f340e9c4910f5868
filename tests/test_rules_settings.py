"""The one settings check (``rules.settings.check_settings``) and every engine's declaration (``game.info``)."""

from __future__ import annotations

import pytest

from rules import GAMES, BadEvent, BadSettings, GameInfo, Option, check_settings
from rules.among_the_stars import AMONG_GAME
from rules.race import RACE_GAME
from rules.roll import ROLL_GAME
from rules.settings import components_conflict

INFO = GameInfo(
    name="toy", title="Toy Game", bgg_id=None, players=(2, 3),
    options=(
        Option("fast", "bool", default=False, players=(2, 2), label="the fast game"),
        Option("rounds", "int", default=3, minimum=1, maximum=9),
        Option("board", "choice", default=None, choices=("Red Side", "Blue Side")),
        Option("extras", "choices", default=(), choices=("Moon", "Sun", "Star"), maximum=2),
        Option("hero", "choices", default=(), per_player=True, player_key="hero", choices=("Garrn Athak Nok", "Vak"),
               distinct="two players play {value}: one tile each"),
    ),
)


def test_defaults_fill_every_declared_option():
    s = check_settings(INFO, {"players": ["Ann", "Bob"]})
    assert s.players == ("Ann", "Bob")
    assert dict(s.options) == {"fast": False, "rounds": 3, "board": None, "extras": (), "hero": ("", "")}


@pytest.mark.parametrize("players, words", [
    (["Ann"], "Toy Game is for 2-3 players, got 1"),
    (["A", "B", "C", "D"], "Toy Game is for 2-3 players, got 4"),
    (["Ann", "Ann"], "player names must differ"),
    (["Ann", ""], "each player is a name"),
    ("Ann,Bob", "a list of 2-3 names"),
    (None, "a list of 2-3 names"),
])
def test_player_lists_are_checked(players, words):
    with pytest.raises(BadSettings, match=words):
        check_settings(INFO, {"players": players})


def test_players_at_the_limits_are_accepted():
    assert len(check_settings(INFO, {"players": ["A", "B"]}).players) == 2
    assert len(check_settings(INFO, {"players": ["A", "B", "C"]}).players) == 3


@pytest.mark.parametrize("settings, words", [
    ({"fast": "yes"}, "the fast game must be true or false"),
    ({"rounds": 0}, "'rounds' must be 1-9, got 0"),
    ({"rounds": True}, "'rounds' must be a whole number"),
    ({"board": "Green Side"}, "'board' must be one of Red Side, Blue Side, got 'Green Side'"),
    ({"board": "Red Sid"}, "did you mean 'Red Side'"),
    ({"extras": "Moon"}, "must be a list of names"),
    ({"extras": ["Moon", "Sun", "Star"]}, "takes 0-2 entries, got 3"),
    ({"extras": ["Moon", "moon"]}, "'Moon' is listed twice"),
])
def test_option_values_are_checked(settings, words):
    with pytest.raises(BadSettings, match=words):
        check_settings(INFO, {"players": ["Ann", "Bob"], **settings})


def test_choices_match_ignoring_case_and_punctuation_and_come_back_as_declared():
    s = check_settings(INFO, {"players": ["Ann", "Bob"], "board": "blue side", "extras": ["STAR"],
                              "hero": ["garrn_athak_nok", ""]})
    assert s["board"] == "Blue Side" and s["extras"] == ("Star",) and s["hero"] == ("Garrn Athak Nok", "")


def test_a_per_player_option_comes_in_the_entries_as_a_list_or_by_name():
    entries = check_settings(INFO, {"players": [{"name": "Ann", "hero": "Vak"}, {"name": "Bob"}]})
    listed = check_settings(INFO, {"players": ["Ann", "Bob"], "hero": ["Vak", ""]})
    named = check_settings(INFO, {"players": ["Ann", "Bob"], "hero": {"Ann": "Vak"}})
    assert entries["hero"] == listed["hero"] == named["hero"] == ("Vak", "")
    assert named.for_player("hero", "Ann") == "Vak" and named.for_player("hero", "Bob") == ""
    with pytest.raises(BadSettings, match="'hero': 2 players need one each, in seat order; got 1$"):
        check_settings(INFO, {"players": ["Ann", "Bob"], "hero": ["Vak"]})
    with pytest.raises(BadSettings, match="names no player 'Cy'"):
        check_settings(INFO, {"players": ["Ann", "Bob"], "hero": {"Cy": "Vak"}})
    with pytest.raises(BadSettings, match="not both"):
        check_settings(INFO, {"players": [{"name": "Ann", "hero": "Vak"}, "Bob"], "hero": ["Vak", ""]})
    with pytest.raises(BadSettings, match="two players play Vak: one tile each"):
        check_settings(INFO, {"players": ["Ann", "Bob"], "hero": ["Vak", "vak"]})


def test_an_option_for_some_player_counts_only():
    assert check_settings(INFO, {"players": ["A", "B"], "fast": True})["fast"] is True
    assert check_settings(INFO, {"players": ["A", "B", "C"], "fast": False})["fast"] is False  # the default is fine
    with pytest.raises(BadSettings, match="the fast game is for 2 players, not 3"):
        check_settings(INFO, {"players": ["A", "B", "C"], "fast": True})


def test_keys_a_game_does_not_declare_are_left_to_the_companion():
    s = check_settings(INFO, {"players": ["A", "B"], "seats": [{"name": "A"}], "zones": {}})
    assert "seats" not in s.options


def test_bad_settings_is_a_bad_event_so_older_callers_still_catch_it():
    assert issubclass(BadSettings, BadEvent) and issubclass(BadSettings, ValueError)


def test_a_declaration_that_cannot_be_right_is_refused():
    with pytest.raises(ValueError, match="seat colours"):
        GameInfo(name="x", title="X", bgg_id=None, players=(2, 9))
    with pytest.raises(ValueError, match="kind"):
        Option("x", "float")
    with pytest.raises(ValueError, match="per-player"):
        Option("x", "bool", per_player=True)


# -- the engines' declarations ---------------------------------------------------------------------


def test_every_engine_declares_itself_once():
    # BoardGameGeek ids: Roll for the Galaxy 132531, Race for the Galaxy 28143, Among the Stars 121408,
    # Eclipse 72125 (boardgamegeek.com/boardgame/<id>, as the BG Stats export already used).
    declared = {name: (g.info.title, g.info.bgg_id, g.info.players, g.info.score_input) for name, g in GAMES.items()}
    assert declared == {
        "d6": ("Free roll (d6)", None, (0, 0), None),
        "roll": ("Roll for the Galaxy", 132531, (2, 5), "json"),  # Roll for the Galaxy, p.1: 2-5 players
        "race": ("Race for the Galaxy", 28143, (2, 4), "jsonl-games"),  # the box: 2-4 players
        "among": ("Among the Stars", 121408, (2, 4), "json"),  # Among the Stars rulebook, Components: 2-4
        "eclipse": ("Eclipse", 72125, (2, 9), "json"),  # Rise of the Ancients p.2: up to nine players
    }
    for name, game in GAMES.items():
        assert game.name == game.info.name == name and game.title == game.info.title
        for option in game.info.options:
            assert option.help, f"{name} {option.name}: the help says where the option comes from"


def test_the_engines_refuse_settings_through_the_one_check():
    with pytest.raises(BadSettings, match="Roll for the Galaxy is for 2-5 players, got 6"):
        ROLL_GAME.initial_state({"players": list("ABCDEF")})
    with pytest.raises(BadSettings, match="Race for the Galaxy is for 2-4 players, got 1"):
        RACE_GAME.initial_state({"players": ["A"]})
    with pytest.raises(BadSettings, match="the advanced game is for 2 players, not 3"):
        RACE_GAME.initial_state({"players": ["A", "B", "C"], "advanced": True})
    with pytest.raises(BadSettings, match="two players play the race Sheptas"):
        AMONG_GAME.initial_state({"players": [{"name": "A", "race": "Sheptas"}, {"name": "B", "race": "sheptas"}]})
    with pytest.raises(BadSettings, match="did you mean 'Sheptas'"):
        AMONG_GAME.initial_state({"players": [{"name": "A", "race": "Shepta"}, "B"]})
    with pytest.raises(BadSettings, match="did you mean 'On Budget'"):
        AMONG_GAME.initial_state({"players": ["A", "B"], "objectives": ["On Budgett"]})


def test_the_options_reach_the_state():
    # Among the Stars stores race and objective ids; a session recorded with ids still opens.
    state = AMONG_GAME.initial_state({"players": [{"name": "A", "race": "garrn_athak_nok"}, "B"],
                                      "objectives": ["on_budget"], "aggressive": True})
    assert [p.race for p in state.players] == ["garrn_athak_nok", None]
    assert state.objectives == ("on_budget",) and state.aggressive is True
    race = RACE_GAME.initial_state({"players": ["Ann", "Bob"], "advanced": True, "start_worlds": ["Old Earth", ""]})
    assert race.advanced and [p.card for p in race.player("Ann").tableau] == ["Old Earth"]
    assert ROLL_GAME.initial_state({"players": ["A", "B"], "tracking": "tableau"}).tracking == "tableau"


def test_entries_printed_on_shared_boards_must_fit_one_board_each():
    # Eclipse: each player board is double-sided; Rise of the Ancients p.3 puts Magellan on the back of the
    # three new boards, so up to three players play Magellan, but not beside all three front sides.
    boards = (("Terran Directorate", "Eridani Empire"), ("Magellan", "Exiles"), ("Magellan", "Rho Indi Syndicate"),
              ("Magellan", "Enlightened of Lyra"))
    assert components_conflict(["Magellan", "Exiles", ""], boards) is None
    assert components_conflict(["Magellan", "Magellan", "Magellan"], boards) is None
    assert components_conflict(["Eridani Empire", "Magellan", "Terran Directorate"], boards) == (
        ("Eridani Empire", "Terran Directorate"), 1)
    assert components_conflict(["Exiles", "Magellan", "Rho Indi Syndicate", "Magellan"], boards) == (
        ("Exiles", "Magellan", "Rho Indi Syndicate", "Magellan"), 3)
    assert components_conflict(["Planta", "Planta"],
                               boards) == (("Planta", "Planta"), 1), "an entry on no board is its own"
    option = Option("species", "choices", per_player=True, choices=tuple({s for b in boards for s in b}),
                    components=boards,
                    distinct="{value}: only {components} boards")
    info = GameInfo(name="x", title="X", bgg_id=None, players=(2, 4), options=(option,))
    with pytest.raises(BadSettings, match="Terran Directorate and Eridani Empire: only 1 boards"):
        check_settings(info, {"players": ["A", "B"], "species": ["terran directorate", "Eridani Empire"]})
    assert check_settings(info, {"players": ["A", "B"], "species": ["Magellan", "Magellan"]})["species"] == ("Magellan",
                                                                                                             "Magellan")
    with pytest.raises(ValueError, match="components"):
        Option("x", "choices", per_player=True, components=boards)  # components need their refusal


def test_a_game_declares_how_a_bad_input_file_exits():
    assert GameInfo(name="x", title="X", bgg_id=None, players=(2, 4)).input_error_exit == 1
    assert GAMES["eclipse"].info.input_error_exit == 2  # issue 14: "a bad file gets one line naming the field, exit 2"
    with pytest.raises(ValueError, match="input_error_exit"):
        GameInfo(name="x", title="X", bgg_id=None, players=(2, 4), input_error_exit=0)


@pytest.mark.parametrize(("lang", "words"), [
    # an option's label carries its own article ("the objectives", "each player's species"): the sentence adds none
    ("el", "Eclipse, ρυθμίσεις: η φυλή κάθε παίκτη πρέπει να είναι ένα από "),
    ("hu", "Eclipse beállítások: minden játékos faja értéke ezek egyike kell legyen: "),
])
def test_a_species_that_is_none_reads_naturally_in_the_language(tmp_path, monkeypatch, capsys, lang, words):
    from companion.cli import main

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["--language", lang, "demo", "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1",
                 "--game", "eclipse", "--players", "Ann,Bob", "--species", "Foo,"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0] and err[0].endswith("'Foo'"), err


@pytest.mark.parametrize("lang, said", [
    ("en", "Among the Stars settings: each player's race: 3 players need one each, in seat order; got 1. The rule: "
           "one race per player, in seat order; none for a first game (Among the Stars rulebook, 3 Setup: each player "
           "takes a race tile)"),
    ("el", "Among the Stars, ρυθμίσεις: η φυλή κάθε παίκτη: 3 παίκτες χρειάζονται από ένα, με τη σειρά των θέσεων· "
           "δόθηκαν: 1. Ο κανόνας: μία φυλή ανά παίκτη"),
    ("pl", "ustawienia Among the Stars: rasa każdego gracza: potrzeba po jednym wpisie dla każdego z 3 graczy, w "
           "kolejności miejsc; podano 1. Zasada: jedna rasa na gracza"),
    ("hu", "Among the Stars beállítások: minden játékos faja: 3 játékosnak egy-egy kell, ülésrendben; kapott: 1. "
           "A szabály: játékosonként egy faj"),
])
def test_too_few_per_player_entries_say_how_many_the_players_need_and_the_rule(lang, said):
    """Three players and one race read 'each player's race gives 1 for 3 players': each of the 3 players takes a race
    tile (Among the Stars rulebook, 3 Setup), so 3 are needed in seat order and 1 was given; the message says so
    and cites the rule, in each language."""
    from companion.i18n import say

    with pytest.raises(BadSettings) as caught:
        check_settings(AMONG_GAME.info, {"players": ["Ann", "Bob", "Cy"], "races": ["Qualeen"]})
    assert say(caught.value.args[0], lang).startswith(said)


def test_too_many_eclipse_species_cite_the_setup():
    """Eclipse setup: each player chooses one species (Rise of the Ancients p.14-15 adds four): 2 players, 3 given."""
    from rules.eclipse import ECLIPSE_GAME

    with pytest.raises(BadSettings) as caught:
        check_settings(ECLIPSE_GAME.info, {"players": ["Ann", "Bob"], "species": ["Terrans", "Hydran Progress",
                                                                                 "Planta"]})
    assert str(caught.value).startswith("Eclipse settings: each player's species: 2 players need one each, in seat "
                                        "order; got 3. The rule: one species per player, in seat order (Eclipse setup")
