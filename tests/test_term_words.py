"""Game terms the players' edition does not print in their language are said from the catalog, not in English:
one screen speaks one language (Roll has no Polish or Hungarian edition names, Race no Greek or Hungarian)."""

from __future__ import annotations

import pytest

from companion.flows.race import RACE_FLOW
from companion.i18n import TERM_WORDS, localize
from rules.names import WORD_KINDS, Term, names, translated
from rules.race.state import PhaseStep
from tests.catalogs import messages

PLAYERS = ("el", "pl", "hu")


def test_every_word_kind_term_is_in_the_catalog_list() -> None:
    listed = {message for _context, message in TERM_WORDS}
    for kind in WORD_KINDS - {"roll.colour"}:
        for id_ in translated(kind, "en"):
            assert names(kind, id_, "en") in listed, (kind, id_)


@pytest.mark.parametrize("lang", PLAYERS)
def test_no_word_kind_term_is_said_in_english(lang: str) -> None:
    for kind in WORD_KINDS:
        for id_, english in translated(kind, "en").items():
            said = localize(Term(kind, id_), lang)
            assert said and said != english, (lang, kind, id_, said)


def test_the_edition_name_still_wins() -> None:
    assert localize(Term("roll.phase", "settle"), "el") == "Αποίκιση"  # Greek Roll rulebook
    assert localize(Term("race.phase", "develop"), "pl") == "Rozwój"  # Polish Race rulebook


def test_roll_in_polish_and_race_in_hungarian() -> None:
    assert localize(Term("roll.step", "reveal"), "pl") == "Odkrycie"
    assert localize(Term("roll.phase", "ship"), "pl") == "Transport"  # the phase, not a spaceship ("Statek")
    assert localize(Term("roll.step", "manage"), "hu") == "Birodalom irányítása"
    assert localize(PhaseStep("settle", ()).label, "hu") == "III Letelepedés"
    assert localize(PhaseStep("develop", ()).label, "el") == "II Ανάπτυξη"


@pytest.mark.parametrize(("lang", "consume_x2"), [("pl", "Konsumpcja: x2 PZ"), ("hu", "Fogyasztás: x2 GYP"),
                                                  ("el", "Κατανάλωση: x2 ΠΝ")])
def test_race_action_cards_are_offered_in_the_players_words(lang: str, consume_x2: str) -> None:
    form = next(f for f in RACE_FLOW.forms({"advanced": True}) if any(x.name == "action" for x in f.fields))
    field = next(x for x in form.fields if x.name == "action")
    shown = dict(zip(field.choices, localize(list(field.labels), lang), strict=True))
    assert shown["Consume: x2 VP"] == consume_x2
    assert "Develop" not in shown.values()


def test_a_hungarian_table_is_told_of_a_missing_good_in_hungarian_spelling() -> None:
    """Roll for the Galaxy p.7 Ship: shipping a good the world does not hold is a finding; Hungarian said it with
    "árúja", a misspelling of "áruja" (áru, a good), the only one in the catalog."""
    from companion import i18n
    from tests.test_roll_engine import two_players

    t = two_players().add("goods_shipped", "Bob", world="Alpha Centauri", mode="consume", good="blue",
                          shipper="white")
    said = [i18n.say(f.what, "hu") for f in t.last_findings() if "has no blue good" in str(f.what)]
    assert said == ["Bob játékosnak nincs kék áruja ezen: Alpha Centauri"], said


@pytest.mark.parametrize("lang", PLAYERS)
def test_every_sentence_naming_manage_empire_names_it_as_the_round_step_does(lang: str) -> None:
    """Hungarian Roll for the Galaxy showed 'Birodalom irányítása' on the round's step and 'Birodalomkezelés: toborzás,
    aztán a játékvég ellenőrzése' just under it, two names for one step on one screen; every sentence of the catalog
    naming Manage Empire (the hints, the rule citations) uses the step's own name."""
    step = localize(Term("roll.step", "manage"), lang)
    sentences = [m for m in messages(lang) if isinstance(m.id, str) and "Manage Empire" in m.id and m.context is None]
    assert len(sentences) >= 3
    for message in sentences:
        assert step.split()[-1] in message.string, (message.id, message.string, step)
