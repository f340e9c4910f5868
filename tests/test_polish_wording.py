"""Polish (and Greek, Hungarian) wording that reads right: a field's label in a refusal agrees with any label
("Pole „Karty” musi ..."), counts take the language's plural form ("3 kredyty", "5 kredytów"), and the most
digits a number may have is not read as the number itself."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow_spec import Field, Form, parse_form
from rules.among_the_stars import AMONG_GAME
from rules.among_the_stars.game import CREDITS_CHANGED
from rules.core import Event, replay

FORM = Form("hand", i18n.Text("Hand"), (Field("cards", i18n.Text("Cards"), "int", minimum=0, maximum=40),))


def _refusal(values: dict, lang: str) -> str:
    with pytest.raises(BadEntry) as refused:
        parse_form(FORM, values)
    return i18n.say(refused.value, lang)


def test_a_range_refusal_names_the_field_so_it_agrees_with_a_plural_label() -> None:
    said = _refusal({"cards": 41}, "pl")
    assert "Pole „Karty” musi mieć wartość 0-40, podano 41" in said
    assert "Karty musi" not in said


@pytest.mark.parametrize(("lang", "words"), [("pl", "o najwyżej 9 cyfrach"), ("el", "με το πολύ 9 ψηφία"),
                                             ("hu", "legfeljebb 9 számjegyű")])
def test_the_most_digits_are_said_as_digits(lang: str, words: str) -> None:
    said = _refusal({"cards": "abc"}, lang)
    assert words in said and "najwyżej 9)" not in said


def _credits_finding(credits: int, loss: int) -> str:
    start = replay(AMONG_GAME, {"players": ["Ann", "Bob"]}, []).state.player("Ann").credits
    events = [Event(1, CREDITS_CHANGED, {"delta": credits - start}, player="Ann"),
              Event(2, CREDITS_CHANGED, {"delta": -loss}, player="Ann")]
    result = replay(AMONG_GAME, {"players": ["Ann", "Bob"]}, events)
    return next(f.what for f in result.findings if f.seq == 2)


@pytest.mark.parametrize(("credits", "polish"), [(1, "Ann ma 1 kredyt "), (3, "Ann ma 3 kredyty "),
                                                 (5, "Ann ma 5 kredytów ")])
def test_credits_take_the_polish_plural_form(credits: int, polish: str) -> None:
    said = i18n.say(_credits_finding(credits, 10), "pl")
    assert said.startswith(polish) and f"brakuje {10 - credits}" in said
