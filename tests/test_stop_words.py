"""What the box's terminal says to the table, in the run's language (``--language``): where to set up a game, the
Ctrl-C line that tells when another press stops it at once, and the line while it closes its record. They were INFO
log lines in English whatever the language; the rest of the log (the stop line's counts, the phone view's address)
stays English, read by tools."""

from __future__ import annotations

import logging
import signal

import pytest

from companion import i18n


@pytest.mark.parametrize(("lang", "asked", "closing"), [
    ("en", "stopping: Ctrl-C (press it again after 2 s to stop at once)", "stopping: the box is closing"),
    ("el", "τερματισμός: Ctrl-C (πατήστε το ξανά μετά από 2 δευτ. για να σταματήσει αμέσως)",
     "τερματισμός: το κουτί κλείνει"),
    ("pl", "zatrzymywanie: Ctrl-C (naciśnij ponownie po 2 s, aby zatrzymać od razu)",
     "zatrzymywanie: pudełko się zamyka"),
    ("hu", "leállítás: Ctrl-C (nyomd meg újra 2 mp után az azonnali leállításhoz)", "leállítás: a doboz bezár"),
])
def test_a_ctrl_c_and_the_closing_are_said_in_the_runs_language(lang, asked, closing, caplog):
    from companion.commands.box import _closing, _stop_on_interrupt

    class Loop:
        def stop(self) -> None:
            pass

    with i18n.use_language(lang), caplog.at_level(logging.INFO, logger="companion"):
        _stop_on_interrupt(Loop(), clock=lambda: 100.0)(signal.SIGINT, None)
        _closing(signal.SIGINT, None)
    assert caplog.messages == [asked, closing]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "race: no open game in {db}: set it up on the touchscreen or a phone"),
    ("el", "race: κανένα ανοιχτό παιχνίδι στο αρχείο {db}: στήστε το στην οθόνη αφής ή σε ένα τηλέφωνο"),
    ("pl", "race: brak otwartej gry w pliku {db}: przygotuj ją na ekranie dotykowym lub na telefonie"),
    ("hu", "race: nincs nyitott játék itt: {db}; állítsd be az érintőképernyőn vagy egy telefonon"),
])
def test_a_game_with_no_open_game_says_where_to_set_it_up_in_the_runs_language(lang, words, tmp_path, caplog):
    """``--game race`` without players and with no open Race game: the box waits for the table to set one up, and
    says where, in the run's language."""
    from companion.cli import main

    db = tmp_path / "box.sqlite3"
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["--language", lang, "demo", "--game", "race", "--db", str(db), "--no-web", "--no-screen",
                     "--no-gpio", "--once", "--fast", "--max-frames", "1"]) == 0
    assert words.format(db=db) in caplog.messages
