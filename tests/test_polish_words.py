"""Polish sentences about a player fit every player (the box's Polish catalog).

Polish past tenses say the speaker's gender: "Łucja zbudował Turret" and "Łucja nie wykonał akcji" are a man's
forms, read by a woman at the table about herself; "Zwycięzca: Łucja" is the same with a noun. A sentence whose
subject is a player's name says it without a gendered form: a present tense ("Ann dołącza"), an impersonal past
("Łucja: zbudowano Turret", "Łucja: brak akcji") or a neutral noun ("Wygrywa: Łucja", "Wspólne zwycięstwo")."""

from __future__ import annotations

import re

import pytest

from tests.catalogs import pairs

PERSON = r"\{(?:player|players|names|winner|who)\}"
"""The placeholders a player's name (or the players' names) fills."""

MASCULINE_PAST = re.compile(
    r"(?<!gracza )" + PERSON + r"\s+(?:(?:nie|już|ponownie|dwa razy)\s+)*\w+ł\b"
    r"|\b[Zz]wycięzca\b"
)
"""A player's name as the subject of a man's past form ("{player} zbudował", "{player} nie wykonał") or under the
noun for a man who won. "miejsce gracza {player} zajął ten telefon" is the phone's doing (the player is "gracza",
the owner), so it is left alone."""


def gendered(text: str) -> list[str]:
    """The pieces of ``text`` that give a player a man's grammatical gender."""
    return [m.group(0) for m in MASCULINE_PAST.finditer(text)]


@pytest.mark.parametrize("text", [
    "{player} zbudował {card} na {cell}?",
    "{player} nie wykonał akcji w roku {year}, rundzie {round}",
    "{player} wybrał już fazę",
    "{player} spasował: dozwolona jest tylko reakcja",
    "Zwycięzca: {names}",
    "zwycięzca: {names}",
])
def test_a_mans_form_about_a_player_is_found(text):
    assert gendered(text)


@pytest.mark.parametrize("text", [
    "{player} dołącza ({colour}, miejsce {seat})",
    "{player}: zbudowano {card} na {cell}?",
    "{player}: brak akcji w roku {year}, rundzie {round}",
    "miejsce gracza {player} zajął ten telefon",
    "miejsca gracza {player} nie zajął żaden telefon",
    "Wygrywa: {names}",
    "Wspólne zwycięstwo: {names}",
    "ekran odrzucił jasność ({why})",
])
def test_a_sentence_that_fits_every_player_is_left_alone(text):
    assert gendered(text) == []


def test_no_polish_sentence_gives_a_player_a_mans_form():
    """Every Polish message about a player fits a woman as well as a man: the camera's questions ("Łucja: zbudowano
    Turret na [0, 1]?"), the rules' findings ("Łucja: brak akcji w roku 1, rundzie 1"), the winner ("Wygrywa:
    Łucja")."""
    assert [(english, said) for english, said in pairs("pl") if gendered(said)] == []
