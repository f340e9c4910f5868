"""The WARNING lines an owner reads on the terminal of a translated run are in the run's language (the log's
debug lines stay English); hand-written words of each language."""

from __future__ import annotations

import logging

import pytest

from companion import i18n
from companion.cli import main
from tests.test_desk import act, box, race

# hand-written: what an owner reads when a phone's report is refused, and when a new game starts beside open ones
REFUSED = {"el": "απορρίφθηκε", "pl": "odrzucono", "hu": "elutasítva"}
OPEN_GAMES = {"el": "ανοιχτό παιχνίδι race μένει", "pl": "otwarta gra race zostaje", "hu": "nyitott race-játék marad"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_refused_phone_action_is_logged_in_the_box_s_language(store, caplog, lang):
    """`report (phone) refused (400): ...` stayed English in a Greek box; the action and its origin keep the API's
    names, what was wrong is said in the box's language, as the phone reads it."""
    loop = box(race(store))
    before = i18n.box_language()
    i18n.set_box_language(lang)
    try:
        with caplog.at_level(logging.WARNING, logger="companion.app"):
            answer = act(loop, "report", player="Ann", form="hand", values={"cards": "+-3"})
    finally:
        i18n.set_box_language(before)
    assert answer["status"] == 400
    (line,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert line.startswith("report (phone) ") and REFUSED[lang] in line and "refused" not in line, line
    with i18n.use_language(lang):
        assert i18n.say(answer["error"]) in line or answer["error"] in line


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_new_game_beside_an_open_one_is_said_in_the_command_s_language(tmp_path, caplog, monkeypatch, lang):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    db = str(tmp_path / "d.sqlite3")
    common = ["--db", db, "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]
    assert main(["demo", "--game", "race", "--players", "Ann,Bob", *common]) == 0
    with caplog.at_level(logging.WARNING):
        assert main(["--language", lang, "demo", "--game", "race", "--players", "Ελένη,Σπύρος", *common]) == 0
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(OPEN_GAMES[lang] in line and "game(s)" not in line for line in said), said


# hand-written: the box cannot go back to where it was, in each language
NOT_BACK = {"el": "δεν μπορεί να επιστρέψει", "pl": "nie może wrócić", "hu": "nem tud visszatérni"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_place_the_box_cannot_go_back_to_is_said_in_the_box_s_language(store, tmp_path, caplog, lang):
    """The box kept that it was in a game which is gone (its session no longer in the file): it starts on the chooser
    and the owner reads why in the box's language."""
    from companion import records
    from companion.library import Library

    records.save_place(store, {"mode": "play", "session": "20200101-000000-gone00"})
    lib = Library(store, exports=tmp_path / "exports")
    before = i18n.box_language()
    i18n.set_box_language(lang)
    try:
        with caplog.at_level(logging.WARNING, logger="companion.library"):
            assert lib.resumed(None) is None
    finally:
        i18n.set_box_language(before)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(said) == 1 and NOT_BACK[lang] in said[0] and "cannot go back" not in said[0], said


def test_the_place_the_box_cannot_go_back_to_is_said_as_a_player_reads_it(store, tmp_path, caplog, monkeypatch):
    """The line printed the kept place as the dict it is stored as ("{'mode': 'play', 'session': ...}"); now a game
    is named by its id (as `companion sessions` and the History list it), a setup by its game's title, and a value
    changed outside the box is quoted as stored."""
    from companion import records
    from companion.errors import SessionError
    from companion.library import Library

    lib = Library(store, exports=tmp_path / "exports")

    def cannot_open(loop, game):
        raise SessionError("the record cannot be read")

    monkeypatch.setattr(lib, "setup_mode", cannot_open)
    said = []
    for place in ({"mode": "play", "session": "20200101-000000-gone00"},
                  {"mode": "scores", "session": ["20200101-000000-gone00"]},
                  {"mode": "setup", "game": "race"}):
        records.save_place(store, place)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="companion.library"):
            assert lib.resumed(None) is None
        said += [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(said) == 3, said
    assert said[0].startswith("the box cannot go back to game 20200101-000000-gone00 (no game ")
    assert said[1].startswith("the box cannot go back to game ['20200101-000000-gone00'] (which game? ")
    assert said[2] == (f"the box cannot go back to the setup of {lib.flows['race'].title} (the record cannot be "
                       "read): the chooser instead")
    assert all(line.endswith("): the chooser instead") for line in said)
    assert not any("{" in line or "mode" in line for line in said), said
