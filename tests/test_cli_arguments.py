"""Rough edges a newcomer met typing the command line: help and usage, options unknown or left empty,
players and objectives, score lines, `config check`/`config init`; each case is what a player or an owner typed
and what they read."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


def test_the_species_help_names_every_species_once_and_how_to_write_them(capsys):
    """`demo --help`'s --species said 'one species per player' twice and named only Rise of the Ancients' four
    species: a newcomer could not tell what to type for the base game's boards."""
    from rules.eclipse.data import SPECIES

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    species = out[out.index("--species NAME,NAME with"):out.index("--ancient-homeworlds with")]
    assert all(name in species for name in SPECIES), species
    assert species.count("one per player") + species.count("per player") == 1, species
    assert "an empty entry: none" in species


def test_players_without_a_game_says_which_game_to_give(tmp_path, capsys, monkeypatch):
    """`demo --players "Ann,Bob"` answered '--players does not go with --game d6': a newcomer had given no --game."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    code = main(["demo", "--players", "Ann,Bob", "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen",
                 "--no-gpio", "--max-frames", "1"])
    assert code == 2
    assert capsys.readouterr().err.strip() == ("companion demo: --players goes with a game: give --game "
                                               "roll|race|among|eclipse (without --game, demo starts d6)")
    assert not (tmp_path / "d.sqlite3").exists()
    assert main(["demo", "--game", "d6", "--players", "Ann,Bob", "--db", str(tmp_path / "d.sqlite3"), "--no-web",
                 "--no-screen", "--no-gpio", "--max-frames", "1"]) == 2
    assert "--players does not go with --game d6" in capsys.readouterr().err


@pytest.mark.parametrize("lang, joined", [("el", "Among the Stars ή Eclipse"), ("pl", "Among the Stars lub Eclipse"),
                                          ("hu", "Among the Stars vagy Eclipse")])
def test_the_games_listed_in_the_help_are_joined_in_its_language(capsys, lang, joined):
    """`companion --language el --help` said 'εγγραφή ενός τελειωμένου παιχνιδιού Roll for the Galaxy, ..., Among the
    Stars or Eclipse': the English 'or' (and 'and' in the description) inside the Greek, Polish and Hungarian help."""
    with pytest.raises(SystemExit):
        main(["--language", lang, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert joined in out, out
    assert " or " not in out and "Among the Stars and Eclipse" not in out, out


@pytest.mark.parametrize("argv", [["read", "--bogus"], ["read", "--bogus=1"], ["enroll", "cards", "--bogus"]])
def test_an_unknown_option_is_named_before_a_missing_argument(capsys, argv):
    """`companion read --bogus` said only "the following arguments are required: IMAGE": the unknown option, the
    likelier mistake, is named, as the other commands name it."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[1].endswith(f"error: unrecognized arguments: {argv[-1]}"), err


def test_a_missing_argument_alone_is_still_said(capsys):
    with pytest.raises(SystemExit):
        main(["read"])
    assert capsys.readouterr().err.strip().endswith("error: the following arguments are required: IMAGE")


@pytest.mark.parametrize("lang, usage", [("el", "χρήση: companion demo [επιλογές] [φάκελος]"),
                                         ("pl", "użycie: companion demo [opcje] [katalog]"),
                                         ("hu", "használat: companion demo [opciók] [mappa]")])
def test_the_usage_line_says_its_placeholder_in_the_language(capsys, lang, usage):
    with pytest.raises(SystemExit):
        main(["--language", lang, "demo", "--bogus"])
    assert capsys.readouterr().err.splitlines()[0] == usage


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_session_id_is_refused_not_taken_for_the_newest_game(tmp_path, capsys, given):
    """`export --session ''` exported the newest game (or said there was none) as if --session were not there."""
    with pytest.raises(SystemExit) as exit_:
        main(["export", "--db", str(tmp_path / "none.sqlite3"), "--session", given, "--json", "-"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --session: an empty game id: give one that `companion sessions` lists" in err
    assert not (tmp_path / "none.sqlite3").exists()


@pytest.mark.parametrize("argv, argument", [(["config", "init", ""], "FILE"),
                                             (["demo", " ", "--once"], "folder"),
                                             (["read", "", "--dice", "d6"], "IMAGE"),
                                             (["sessions", "--db", ""], "--db"),
                                             (["score", "race", ""], "FILE"),
                                             (["export", "--db", "", "--json", "-"], "--db")])
def test_an_empty_path_is_refused_not_taken_for_the_current_folder(tmp_path, capsys, monkeypatch, argv, argument):
    """`config init ''` said ". is a folder" of a folder never given, and `demo ''` replayed the current folder: an
    empty path is a bad command line, named as empty, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert f"argument {argument}: an empty path: give a file or folder name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang, words", [("el", "κενή διαδρομή"), ("pl", "pusta ścieżka"), ("hu", "üres elérési út")])
def test_an_empty_path_is_said_in_the_boxs_language(capsys, lang, words):
    with pytest.raises(SystemExit):
        main(["--language", lang, "config", "init", ""])
    assert words in capsys.readouterr().err


def _mixed_race_lines(tmp_path):
    """Three Race games as JSON Lines, the second one's start world misspelt."""
    import json

    def game(card):
        return {"players": [{"name": "Ann", "chips": 1, "tableau": [card]},
                            {"name": "Bob", "chips": 0, "tableau": ["Epsilon Eridani"]}]}

    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(game(card)) for card in ("Old Earth", "Old Earht", "New Sparta")) + "\n")
    return path


def test_a_bad_score_line_is_said_once_on_a_terminal(tmp_path, monkeypatch):
    """`companion score race FILE.jsonl` printed each bad line's error on stdout ('line 2: error: ...', in its place
    between the tables) and on stderr: a terminal showed it twice. Where stdout and stderr reach one place it is
    said once, in its place; stdout into a file still leaves the message on stderr, and --json is unchanged."""
    import json
    import os
    import sys

    path = _mixed_race_lines(tmp_path)
    main_fd, tty_fd = os.openpty()  # one terminal, as the shell gives it: stdout and stderr two files on one device
    try:
        with open(tty_fd, "w", closefd=False) as out, open(tty_fd, "w", closefd=False) as err:
            monkeypatch.setattr(sys, "stdout", out)
            monkeypatch.setattr(sys, "stderr", err)
            assert main(["score", "race", str(path)]) == 1
        os.close(tty_fd)
        tty_fd = None
        chunks = []
        while True:  # one read may return only part of what the terminal holds: read until it is drained
            try:
                chunk = os.read(main_fd, 1 << 16)
            except OSError:  # EIO: the terminal's other end is closed and everything written has been read
                break
            if not chunk:
                break
            chunks.append(chunk)
        screen = b"".join(chunks).decode()
    finally:
        os.close(main_fd)
        if tty_fd is not None:
            os.close(tty_fd)
    assert screen.count("Old Earht") == 1 and screen.count("winner: Ann") == 2, screen
    assert screen.index("winner: Ann") < screen.index("line 2: error: ") < screen.rindex("winner: Ann"), screen

    both = tmp_path / "both.txt"  # `> both.txt 2>&1`
    with open(both, "w") as out, open(both, "a") as err:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        assert main(["score", "race", str(path)]) == 1
    assert both.read_text().count("Old Earht") == 1

    apart, errors = tmp_path / "apart.txt", tmp_path / "errors.txt"  # `> apart.txt` on a terminal
    with open(apart, "w") as out, open(errors, "w") as err:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        assert main(["score", "race", str(path)]) == 1
        assert main(["score", "race", str(path), "--json"]) == 1
    rows = [json.loads(line) for line in apart.read_text().splitlines() if line.startswith("{")]
    assert [sorted(row) for row in rows] == [["players", "winners"], ["error", "line"], ["players", "winners"]]
    assert apart.read_text().count("line 2: error: ") == 1
    said = errors.read_text().splitlines()
    assert len(said) == 2 and all(line.startswith(f"companion score: {path}: line 2: ") for line in said), said


# -- the configuration file a newcomer writes first ------------------------------------------------------------------

def test_config_check_of_a_missing_file_names_config_init_which_writes_it_whole_and_never_over_a_file(
        tmp_path, capsys, monkeypatch):
    """`companion config check FILE` on a missing FILE said 'write one (`python -m companion.config > FILE`)': outside
    the project's .venv that fails and the shell's `>` has already left an empty FILE. It names `companion config init
    FILE` (the entry point itself), which writes the commented default file and never replaces a file there."""
    import shlex

    missing = tmp_path / "my box" / "config.toml"  # a folder with a space: the command is quoted to be copied
    typed = shlex.quote(str(missing))
    assert main(["config", "check", str(missing)]) == 1
    assert capsys.readouterr().out == (f"{missing}: no such file: write the default one with "
                                       f"`companion config init {typed}`\n")
    monkeypatch.setenv("TABLETOP_CONFIG", str(missing))  # named by the variable: unsetting it is the other way out
    assert main(["config", "check"]) == 1
    assert capsys.readouterr().out == (f"{missing}: no such file: write the default one with "
                                       f"`companion config init {typed}`, or unset $TABLETOP_CONFIG\n")
    monkeypatch.delenv("TABLETOP_CONFIG")

    assert main(["config", "init", str(missing)]) == 0  # its folder made, the file whole
    out = capsys.readouterr().out
    assert out == (f"{missing}: the default configuration written: edit it, then check it with "
                   f"`companion config check {typed}`\n")
    shipped = Path(__file__).resolve().parents[1] / "companion" / "data" / "config.toml"
    assert missing.read_bytes() == shipped.read_bytes()
    assert sorted(p.name for p in missing.parent.iterdir()) == ["config.toml"]  # nothing else left beside it
    assert main(["config", "check", str(missing)]) == 0
    capsys.readouterr()

    missing.write_text('[web]\nport = 9000\n')  # the owner's own file is never replaced
    assert main(["config", "init", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"companion config init: {missing} is already there: it is not replaced (`companion config check {typed}` "
        "checks it)\n")
    assert missing.read_text() == '[web]\nport = 9000\n'
    assert main(["config", "init", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"companion config init: {tmp_path} is a folder: give a file name\n"


def test_config_init_that_cannot_write_leaves_no_file_behind(tmp_path, capsys, monkeypatch):
    """A disk that fills up while the file is written: nothing at FILE (not an empty or half file), no spare file
    beside it, one line naming FILE and why, exit 1."""
    import errno

    from companion import owner_commands

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(owner_commands.os, "fsync", full)
    target = tmp_path / "config.toml"
    assert main(["config", "init", str(target)]) == 1
    assert capsys.readouterr().err == f"companion config init: cannot write {target}: the disk is full\n"
    assert list(tmp_path.iterdir()) == []


def test_config_init_under_a_file_says_a_file_is_in_the_way_not_that_the_file_is_there(tmp_path, capsys):
    """`companion config init notes.txt/config.toml`, notes.txt a file: it said 'notes.txt/config.toml is already
    there: it is not replaced', of a file that is not there. It says the path cannot be written, a file being where a
    folder should be (as `config check` says of it), exit 1, and notes.txt is untouched."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    target = notes / "config.toml"
    assert main(["config", "init", str(target)]) == 1
    assert capsys.readouterr().err == (f"companion config init: cannot write {target}: a file is where a folder "
                                       "should be\n")
    assert notes.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("lang, words", [("el", "γράψτε το προεπιλεγμένο με `companion config init "),
                                         ("pl", "zapisz domyślny poleceniem `companion config init "),
                                         ("hu", "írd ki az alapértelmezettet a `companion config init ")])
def test_config_check_names_config_init_in_the_commands_language(tmp_path, capsys, lang, words):
    missing = tmp_path / "config.toml"
    assert main(["--language", lang, "config", "check", str(missing)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{missing}: ") and f"{words}{missing}`" in out and "python -m" not in out, out
    assert main(["--language", lang, "config", "init", str(missing)]) == 0 and missing.is_file()
    assert "companion config check" in capsys.readouterr().out


# -- --players: what comes after ':' and between players -------------------------------------------------------------

@pytest.mark.parametrize("players, said", [
    # an empty colour was taken as "none": a colour forgotten is said so
    ("Ann:,Bob", "companion demo: --players 'Ann:,Bob': 'Ann:': after ':' comes a colour: write one of red, blue, "
                 "green, yellow, purple, or leave ':' out for the first free one"),
    # two colours were refused as a name holding ':'
    ("Ann:red:blue,Bob", "companion demo: --players 'Ann:red:blue,Bob': 'Ann:red:blue': one colour per player: write "
                         "'Ann:red'"),
    # one entry with ';' was only counted
    ("Ann;Bob", "companion demo: Roll for the Galaxy is for 2-5 players, got 1; 'Ann;Bob' holds ';': players are "
                "separated by ',' (\"Ann,Bob\")"),
    ("Ann/Bob", "companion demo: Roll for the Galaxy is for 2-5 players, got 1; 'Ann/Bob' holds '/': players are "
                "separated by ',' (\"Ann,Bob\")"),
    # as before: a name holding ':' and a name of two words are what they are
    ("Dr:Who:red,Bob", "companion demo: --players 'Dr:Who:red,Bob': 'Dr:Who': a name may not hold ',' or ':'"),
    ("Ann Smith", "companion demo: Roll for the Galaxy is for 2-5 players, got 1"),
])
def test_players_are_told_what_comes_after_a_colon_and_between_players(tmp_path, capsys, monkeypatch, players, said):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    code = main(["demo", "--game", "roll", "--players", players, "--db", str(tmp_path / "d.sqlite3"), "--no-web",
                 "--no-screen", "--no-gpio", "--max-frames", "1"])
    assert code == 2
    assert capsys.readouterr().err.strip() == said
    assert not (tmp_path / "d.sqlite3").exists()


def test_a_name_holding_a_separator_is_still_a_name_when_the_count_is_right(tmp_path, capsys, monkeypatch):
    """The hint is for a list that came out too short; 'Ann;x' beside Bob is a player's name like any other."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    db = tmp_path / "d.sqlite3"
    assert main(["demo", "--game", "roll", "--players", "Ann;x,Bob:blue", "--db", str(db), "--no-web", "--no-screen",
                 "--no-gpio", "--max-frames", "1"]) == 0
    from companion.session import SessionStore

    with SessionStore(db) as store:
        assert [seat["name"] for seat in store.resume_latest("roll").settings["seats"]] == ["Ann;x", "Bob"]


@pytest.mark.parametrize("lang, empty, two, separator", [
    ("el", "μετά το ':' ακολουθεί ένα χρώμα", "ένα χρώμα ανά παίκτη: γράψτε 'Ann:red'",
     "το όνομα 'Ann;Bob' περιέχει το ';': οι παίκτες χωρίζονται με ','"),
    ("pl", "po ':' podaje się kolor: wpisz jeden z", "jeden kolor na gracza: wpisz 'Ann:red'",
     "'Ann;Bob' zawiera ';': graczy oddziela się znakiem ','"),
    ("hu", "a ':' után egy szín következik", "játékosonként egy szín: írd így: 'Ann:red'",
     "'Ann;Bob': ';' karaktert tartalmaz; a játékosokat ',' választja el"),
])
def test_players_are_told_in_the_commands_language(tmp_path, capsys, monkeypatch, lang, empty, two, separator):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    for players, words in (("Ann:,Bob", empty), ("Ann:red:blue", two), ("Ann;Bob", separator)):
        assert main(["--language", lang, "demo", "--game", "roll", "--players", players, "--db",
                     str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and words in err, err


@pytest.mark.parametrize("lang, players, objectives, said", [
    ("en", "Ann,Bob,Cem", "On Budget,Intergalactic Trade",
     "3 players play 3 objectives, not 2 (Among the Stars rulebook, 3 Setup and 8 2-player rules)"),
    ("hu", "Ann,Bob", "On Budget,Intergalactic Trade,First Line of Defense",
     "2 játékoshoz 2 cél jár, nem 3 (Among the Stars szabálykönyv, 3 Előkészületek és 8 2-Játékos Szabályok)"),
])
def test_objectives_on_the_command_line_are_as_many_as_the_players_play(tmp_path, capsys, lang, players, objectives,
                                                                         said):
    """Among the Stars lays as many objectives as there are players, 2 with 2 players (rulebook 3 Setup, 8 2-player
    rules). `--objectives` of another count started the game with a reminder only; it is now refused as Start refuses
    it on the touchscreen and phones, in the command's language, before any database file is made."""
    box = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2"]
    code = main(["--language", lang, "demo", "--game", "among", "--players", players, "--objectives", objectives,
                 "--db", str(tmp_path / "d.sqlite3"), *box])
    assert code == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
    code = main(["demo", "--game", "among", "--players", "Ann,Bob", "--objectives", "On Budget,Intergalactic Trade",
                 "--db", str(tmp_path / "e.sqlite3"), *box])
    assert code == 0
