"""Polish (and Greek, Hungarian) wording that reads right: a field's label in a refusal agrees with any label
("Pole „Karty” musi ..."), counts take the language's plural form ("3 kredyty", "5 kredytów"), and the most
digits a number may have is not read as the number itself; a field with a range says the range, and NaN is "not a
number"."""

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
    assert "Pole „Karty” musi zawierać liczbę całkowitą od 0 do 40, podano 41" in said
    assert "Karty musi" not in said


@pytest.mark.parametrize(("lang", "words"), [("pl", "o najwyżej 9 cyfrach"), ("el", "με το πολύ 9 ψηφία"),
                                             ("hu", "legfeljebb 9 számjegyű")])
def test_the_most_digits_are_said_as_digits(lang: str, words: str) -> None:
    unbounded = Form("hand", i18n.Text("Hand"), (Field("cards", i18n.Text("Cards"), "int"),))  # a field without range
    with pytest.raises(BadEntry) as refused:
        parse_form(unbounded, {"cards": "abc"})
    said = i18n.say(refused.value, lang)
    assert words in said and "najwyżej 9)" not in said


@pytest.mark.parametrize(("lang", "words"), [("en", "Cards must be a whole number from 0 to 40, got 'abc'"),
                                             ("pl", "Pole „Karty” musi zawierać liczbę całkowitą od 0 do 40, podano"),
                                             ("el", "ακέραιος από 0 έως 40"), ("hu", "0 és 40 között")])
def test_a_field_with_a_range_says_its_range_not_the_most_digits(lang: str, words: str) -> None:
    """Credits (0-10) refused "at most 9 digits (0-9)": the range the form shows is what the refusal says."""
    said = _refusal({"cards": "abc"}, lang)
    assert words in said and "9" not in said, said


@pytest.mark.parametrize("sent", [float("nan"), float("inf"), float("-inf"), "nan", "NaN", " -Infinity ", "inf"])
def test_not_a_number_is_refused_by_name_never_echoed(sent) -> None:
    for lang, words in (("en", "what was sent is not a number"), ("pl", "wysłana wartość nie jest liczbą"),
                        ("el", "δεν είναι αριθμός"), ("hu", "a küldött érték nem szám")):
        said = _refusal({"cards": sent}, lang)
        assert words in said and "nan" not in said.casefold() and "inf" not in said.casefold(), said
    assert _refusal({"cards": sent}, "en") == ("Cards must be a whole number from 0 to 40; what was sent is "
                                               "not a number")


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


def test_a_station_cell_is_not_a_field_named_field() -> None:
    """Polish "pole" is both a form's field and a grid's cell: a refused Among the Stars cell read "Pole „Pole: dotknij
    go na swojej stacji” musi zawierać komórkę"; the station's place is "Miejsce" (a place to build)."""
    from companion.flows.among import AMONG_FLOW

    view = AMONG_GAME.view(AMONG_GAME.initial_state({"players": ["Ann", "Bob"]}))
    form = next(f for f in AMONG_FLOW.forms(view) if f.id == "location")
    with pytest.raises(BadEntry) as refused:
        parse_form(form, {"card": "Turret", "cell": "1,0"})
    said = i18n.say(refused.value, "pl")
    assert "Pole „Miejsce: dotknij je na swojej stacji” musi zawierać komórkę [i, j]" in said
