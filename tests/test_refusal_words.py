"""A refusal said in a player's language names actions, reports, fields, games and options by the words the screens
show them by ("Odczytaj teraz", "Kredyty teraz"), never by the box's internal ids (``read_now``, ``credits``,
``roll``). Expected words are hand-written from what the phone page and the touchscreen show."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.action_words import ACTION_WORDS, action_word
from companion.actions import Action, phone_names
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import Pairing
from companion.library import Library
from companion.player_names import parse_players
from companion.setup_flow import TableSetup
from companion.web import PHONE_ACTIONS, create_app

SECRET = "join-secret-0123456789"
IDS = re.compile(r"\b(read_now|next_phase|undo_report|setup_\w+|credits|select|home_world)\b")


def _said(exc: BaseException, lang: str) -> str:
    return i18n.say(exc, lang)


def test_every_action_has_words_for_players():
    assert set(ACTION_WORDS) == set(Action)
    assert i18n.localize(action_word("read_now"), "pl") == "Odczytaj teraz"
    assert i18n.localize(action_word(Action.UNDO_REPORT), "hu") == "Utolsó bejelentésem visszavonása"
    assert action_word("explode") == "'explode'" and action_word(["x"]) == "['x']"


@pytest.mark.parametrize(("lang", "words"), [("pl", "Odczytaj teraz, Cofnij, Dalej"),
                                             ("el", "Ανάγνωση τώρα, Αναίρεση, Επόμενο"),
                                             ("hu", "Olvasás most, Visszavonás, Tovább")])
def test_an_unknown_action_lists_the_buttons_a_phone_has(hub, make_view, lang, words):
    phone = _joined(hub, make_view, lang)
    r = phone.post("/api/action", json={"action": "explode"})
    assert r.status_code == 400 and r.get_json()["allowed"] == list(PHONE_ACTIONS)  # the API's ids stay in the JSON
    said = r.get_json()["error"]
    assert said.endswith(words) and "'explode'" in said and not IDS.search(said), said


@pytest.mark.parametrize(("lang", "reports", "fields"), [
    ("pl", "Przygotowanie, Wybrano fazę", "nieznane pole 'bogus'; pola: Kredyty"),
    ("hu", "Előkészületek, Fázis kiválasztva", "Credit")])
def test_an_unknown_report_or_field_lists_the_forms_and_fields_by_their_labels(store, lang, reports, fields):
    spec = FLOWS["roll"]
    flow = GameFlow(store.start("roll", spec.settings(parse_players("Ann,Bob"), {})), spec)
    with pytest.raises(BadEntry) as unknown:
        flow.report("Ann", "teleport", {})
    said = _said(unknown.value, lang)
    assert "'teleport'" in said and reports in said and not IDS.search(said), said
    with pytest.raises(BadEntry) as field:
        flow.report("Ann", "credits", {"bogus": 1})
    said = _said(field.value, lang)
    assert fields in said and not IDS.search(said), said


def test_an_unknown_game_lists_the_chooser_titles(store):
    with pytest.raises(BadEntry) as unknown:
        Library(store).setup_mode(None, "chess")
    said = _said(unknown.value, "el")
    assert "'chess'" in said and "Ζάρια (d6), Roll for the Galaxy, Race for the Galaxy" in said, said
    assert ", roll," not in said and "among" not in said


def test_an_unknown_player_option_lists_the_options_by_their_words(store):
    setup = TableSetup(store, FLOWS["eclipse"], {})
    setup.add_player("Ann")
    with pytest.raises(BadEntry) as unknown:
        setup.choose("Ann", "faction", "x")
    said = _said(unknown.value, "pl")
    assert "'faction'" in said and "(opcje: " in said and "species" not in said, said


def _joined(hub, make_view, lang):
    hub.publish(make_view([3, 4]))
    hub.set_pairing(Pairing("g1", SECRET, {}))
    app = create_app(hub)
    app.testing = True
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    assert phone.get(f"/join/{SECRET}").status_code == 303
    return phone


BUTTON_IDS = re.compile(r"\b(games|history|back|choose|resume|open|export|table_ok|player|remove|rename|choice|even|"
                        r"start|confirm|dismiss)\b")
"""The API's names of the box's, the setup's and a camera question's buttons: never in a player's refusal."""


@pytest.mark.parametrize(("lang", "route", "body", "words"), [
    ("pl", "/api/box", {"action": "fly"},
     "Gry, Historia, Wstecz, Wybierz grę, Wznów, Gra z historii, Eksport, Wygląda dobrze: grajcie"),
    ("el", "/api/box", {"action": 5},
     "Παιχνίδια, Ιστορικό, Πίσω, Επιλέξτε παιχνίδι, Συνέχεια, Παιχνίδι από το Ιστορικό, Εξαγωγή, Σωστό: παίξτε"),
    ("hu", "/api/setup", {"action": "fly"},
     "Játékos hozzáadása, Eltávolítás, Átnevezés, játékos beállítása, játékbeállítás, Egyenlő felosztás, Indítás"),
    ("pl", "/api/setup", {},
     "Dodaj gracza, Usuń, Zmień imię, opcja gracza, opcja gry, Podziel po równo, Start"),
    ("el", "/api/camera", {"id": 1, "answer": "yes"}, "Επιβεβαίωση, Απόρριψη"),
    ("hu", "/api/camera", {"id": 1, "answer": None}, "Megerősítés, Elvetés"),
])
def test_a_choice_no_button_makes_lists_the_buttons_by_their_labels(hub, make_view, lang, route, body, words):
    """A body whose "action" (or a camera question's "answer") is no button's is refused naming the buttons as the
    screens label them, in the phone's language, one word for each name (a game opened from History is "A game from
    History", no longer a second "History"); the API's names stay in the answer's "allowed" for a page's
    programmer."""
    phone = _joined(hub, make_view, lang)
    key = "answer" if route == "/api/camera" else "action"
    r = phone.post(route, json={**body, "version": 1, "key": "k1"})
    said = r.get_json()["error"]
    assert r.status_code == 400 and r.get_json()["field"] == key, said
    assert r.get_json()["allowed"] == list(phone_names(route.removeprefix("/api/")))
    assert said.endswith(words) and not BUTTON_IDS.search(said.replace(words, "")), said
    assert len(words.split(", ")) == len(r.get_json()["allowed"])   # the words and the names agree, one each
    if body.get(key) == "fly":
        assert "\"fly\"" in said, said
    assert hub.take_actions() == []


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_setup_hint_names_the_split_button_as_the_phone_and_the_touchscreen_label_it(hub, store, lang):
    """The setup's hint and Start's refusal say "... or Split evenly" (the touchscreen's button); the phone's button
    read "Split the table evenly" ("Μοιράστε το τραπέζι εξίσου" beside a hint naming "Εξίσου μοιρασιά"): a player
    looked for a button that was not on their phone."""
    from html.parser import HTMLParser

    setup = TableSetup(store, FLOWS["among"], {"races": ["", ""]})
    setup.add_player("Ann")
    setup.add_player("Bob")
    setup.seat("Ann", [10, 120])
    view = setup.view()
    hub.publish({"mode": "setup", "game": {**view, "flow": True, "setup": True}})
    app = create_app(hub)
    app.testing = True
    phone = app.test_client()
    phone.set_cookie("lang", lang)
    page = phone.get("/").get_data(as_text=True)

    class Button(HTMLParser):
        label = None
        inside = False

        def handle_starttag(self, tag, attrs):
            self.inside = tag == "button" and ("id", "setup-even") in attrs

        def handle_data(self, data):
            if self.inside and data.strip():
                Button.label = data.strip()

    Button().feed(page)
    touchscreen = i18n.localize(i18n.Text("Split evenly"), lang)
    assert Button.label == touchscreen == i18n.localize(action_word(Action.SETUP_EVEN), lang), Button.label
    for hint in (view["note"], setup.why_not()):
        assert touchscreen in i18n.localize(hint, lang), i18n.localize(hint, lang)
