"""Greek sentences about a player fit every player (the box's Greek catalog).

"ο παίκτης Ζωή μπήκε" gives Ζωή a man's article and noun ("the (male) player Zoe joined"), and so do "Ο παίκτης
Ελένη έχτισε…;" and "Μαρία … φτάνει πρώτος" (a man's "first"). A sentence whose subject is a player's name starts
with the name, with no article, and Greek verbs say nothing of the speaker's gender: "Ζωή μπήκε (κόκκινο, θέση 1)",
"Νίκος κατακτά Rebel Warrior Race (άμυνα 3) με μόνο 2 Στρατό"."""

from __future__ import annotations

import re

import pytest

from tests.catalogs import pairs

NAMED = r"\{(?:player|players|holder|holders|names|winner|who)\}"
"""The placeholders a player's name (or the players' names) fills."""

MASCULINE_SUBJECT = re.compile(r"\b[Οο] (?:παίκτης )?" + NAMED + r"|" + NAMED + r"[^·:;,()]*\bπρώτος\b")
"""A player's name as a subject under a man's article ("ο παίκτης {player}", "την έχει ο {holder}") or with a man's
"first" ("{player} φτάνει πρώτος")."""


def gendered(text: str) -> list[str]:
    """The pieces of ``text`` that give a player named in it a man's grammatical gender as the subject."""
    return [m.group(0) for m in MASCULINE_SUBJECT.finditer(text)]


@pytest.mark.parametrize("text", [
    "ο παίκτης {player} μπήκε ({colour}, θέση {seat})",
    "Ο παίκτης {player} έχτισε {card} στο {cell};",
    "{player} δεν έχει την Κάρτα (την έχει ο {holder}: την παίρνει ο δεύτερος παίκτης)",
    "{objective}: {player} φτάνει πρώτος τους {threshold} ΠΝ",
])
def test_a_mans_article_or_word_for_a_player_is_found(text):
    assert gendered(text)


@pytest.mark.parametrize("text", [
    "{player} μπήκε ({colour}, θέση {seat})",
    "{player} έχτισε {card} στο {cell};",
    "{objective}: {player} φτάνει πρώτα στους {threshold} ΠΝ",
    "κάθε παίκτης επιλέγει ακριβώς μία",
    "την παίρνει ο δεύτερος παίκτης που πάει πάσο",
])
def test_a_sentence_that_fits_every_player_is_left_alone(text):
    assert gendered(text) == []


def test_no_greek_sentence_makes_a_player_a_man_as_its_subject():
    """Every Greek message whose subject is a player fits a woman as well as a man: a player joining ("Ζωή μπήκε"),
    the rules' findings ("Ζωή κατακτά …"), the camera's questions ("Ελένη έχτισε Turret στο [0, 1];")."""
    assert [(english, said) for english, said in pairs("el") if gendered(said)] == []
