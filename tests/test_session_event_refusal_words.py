"""An event the session log cannot take (a time that is no number, an empty origin, a player that is no name: a tool
or a file made it) is refused in each reader's language (el, pl, hu), as every game's payload refusals are; nothing is
recorded. Roll for the Galaxy's faction field takes a faction tile's number as well as a name printed on it (p.2 Setup:
the tiles are numbered 1-9, p.1 Components), and its refusal says both. Words hand-written from the catalogs."""

from __future__ import annotations

import math

import pytest

from companion import i18n
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.core import BadEvent


def _flow(store, game="roll"):
    spec = FLOWS[game]
    return GameFlow(store.start(game, spec.settings(parse_players("Ann,Bob"), {})), spec)


def _refused(flow, **kwargs):
    before = flow.session.last_seq
    with pytest.raises(BadEvent) as caught:
        flow.session.append("credits_changed", {"credits": 1}, player=kwargs.pop("player", "Ann"), **kwargs)
    assert flow.session.last_seq == before  # nothing recorded
    return caught.value.problem


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "the event's time must be a finite number of seconds since 1970 (Unix time), got nan"),
    ("el", "η ώρα του συμβάντος πρέπει να είναι πεπερασμένος αριθμός δευτερολέπτων από το 1970 (χρόνος Unix), "
           "δόθηκε nan"),
    ("pl", "czas zdarzenia musi być skończoną liczbą sekund od 1970 roku (czas uniksowy), podano nan"),
    ("hu", "az esemény idejének az 1970 óta eltelt másodpercek véges számának kell lennie (Unix-idő), kapott érték: "
           "nan"),
])
def test_an_event_time_that_is_no_number_is_refused_in_each_language(store, lang, said):
    assert i18n.say(_refused(_flow(store), at=math.nan), lang) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("el", "η προέλευση του συμβάντος (από πού ήρθε η αναφορά) πρέπει να είναι κείμενο, όχι κενό, δόθηκε ''"),
    ("pl", "źródło zdarzenia (skąd przyszło zgłoszenie) musi być tekstem, niepustym, podano ''"),
    ("hu", "az esemény forrásának (ahonnan a jelentés jött) nem üres szövegnek kell lennie, kapott érték: ''"),
])
def test_an_empty_origin_is_refused_in_each_language(store, lang, said):
    assert i18n.say(_refused(_flow(store), origin=""), lang) == said


@pytest.mark.parametrize(("lang", "said"), [
    ("el", "ο παίκτης του συμβάντος πρέπει να είναι όνομα παίκτη (κείμενο) ή κανένας, δόθηκε 7"),
    ("pl", "gracz zdarzenia musi być imieniem gracza (tekstem) albo nie być podany wcale, podano 7"),
    ("hu", "az esemény játékosa csak egy játékos neve (szöveg) lehet, vagy semmi, kapott érték: 7"),
])
def test_a_player_that_is_no_name_is_refused_in_each_language(store, lang, said):
    assert i18n.say(_refused(_flow(store), player=7), lang) == said


SETUP = {"home_world": "Alpha Centauri", "development": "Investment Credits", "world": "Gem World"}


@pytest.mark.parametrize(("faction", "lang", "said"), [
    ("Nowhere", "en", "Faction must be a faction tile's number (1-9) or a name printed on it, got 'Nowhere'"),
    (12, "pl", "Pole „Frakcja” musi zawierać numer kafelka frakcji (1-9) lub nazwę na nim wydrukowaną, podano 12"),
    (True, "hu", "Frakció: egy frakciólapka számát (1-9) vagy egy rá nyomtatott nevet kell megadni, kapott érték: "
                 "True"),
    (0, "el", "Φατρία: πρέπει να περιέχει τον αριθμό ενός πλακιδίου φατρίας (1-9) ή ένα όνομα τυπωμένο πάνω του, "
              "δόθηκε 0"),
])
def test_a_faction_no_tile_has_is_refused_saying_a_number_or_a_name(store, faction, lang, said):
    flow = _flow(store)
    with pytest.raises(BadEvent) as caught:
        flow.session.append("player_setup", {**SETUP, "faction": faction}, player="Ann")
    assert flow.session.last_seq == 0
    assert i18n.say(caught.value.problem, lang) == said


def test_a_faction_given_by_its_number_is_taken(store):
    flow = _flow(store)
    flow.session.append("player_setup", {**SETUP, "faction": 3}, player="Ann")
    assert flow.session.last_seq == 1
