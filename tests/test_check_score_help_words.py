"""``companion check --help`` and ``companion score --help`` say what each command does in the players' words and
where each game's file is described, in every language the box speaks; they read "(a check of another file: the
schema its game names)", which told a player nothing. Eclipse's check reads its own placement file (its schema is
the placement input's), every other game's file is the one its score reads."""

from __future__ import annotations

import re

import pytest

from companion.cli import main

SCORE = {"en": "Score a finished game from a file of each player's end-of-game position",
         "el": "Βαθμολόγηση ενός τελειωμένου παιχνιδιού από αρχείο",
         "pl": "Podlicz zakończoną grę z pliku",
         "hu": "Egy befejezett játék pontozása egy fájlból"}
CHECK = {"en": "Check each player's position in a file against the rules",
         "el": "Έλεγχος της θέσης κάθε παίκτη από αρχείο",
         "pl": "Sprawdź pozycję każdego gracza z pliku",
         "hu": "Minden játékos állásának ellenőrzése egy fájlból"}


def _help(capsys, monkeypatch, lang, command):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as done:
        main(["--language", lang, command, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())   # argparse's wrapping left out


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_score_help_says_what_it_does_and_where_each_file_is_described(capsys, monkeypatch, lang):
    said = _help(capsys, monkeypatch, lang, "score")
    assert SCORE[lang] in said, said
    files = re.findall(r"schemas/[a-z-]+\.schema\.json", said)
    assert files == [f"schemas/{g}-score-input.schema.json" for g in ("among", "eclipse", "race", "roll")], files
    assert "another file" not in said and "<game>" not in said


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_check_help_names_eclipse_s_placement_file(capsys, monkeypatch, lang):
    said = _help(capsys, monkeypatch, lang, "check")
    assert CHECK[lang] in said, said
    files = re.findall(r"schemas/[a-z-]+\.schema\.json", said)
    assert files == ["schemas/among-score-input.schema.json", "schemas/eclipse-placement-input.schema.json"], files
    assert "another file" not in said and "<game>" not in said
