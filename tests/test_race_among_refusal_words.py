"""Race for the Galaxy's and Among the Stars' refusals of a payload a phone's form would never send (a session file
edited by hand, a payload posted by hand) name the field as the phone's form labels it, in each reader's language
(el, pl, hu), as Roll's and Eclipse's do: "Pole „Karty”", never the payload's key ('cards'). Nothing of the event is
recorded. The form's label and the refusal's word come from one table (``FIELD_WORDS``), checked here too.

Expected words are hand-written from the catalogs' entries: the field labels of the forms (Race: Karty, Świat,
Karta akcji, ΠΝ; Among: Μονάδες +/-, Cél, Porównywane lokacje) inside the shared refusals ("{what}: not given",
"{what} must be a whole number {minimum} or more", "{what} must be {choices}"). The rules the values come from:
Race for the Galaxy, the round: select (the action cards, by the players' edition); Among the Stars rulebook 7
'Aggressive mode' (Dispute compares the locations of one colour, or Power Reactors).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.among_the_stars.words import FIELD_WORDS as AMONG_WORDS
from rules.core import BadEvent
from rules.race.words import FIELD_WORDS as RACE_WORDS


def _refused(store, game, kind, payload):
    spec = FLOWS[game]
    flow = GameFlow(store.start(game, spec.settings(parse_players("Ann,Bob"), {})), spec)
    before = flow.session.last_seq
    with pytest.raises(BadEvent) as caught:
        flow.session.append(kind, payload, player="Ann")
    assert flow.session.last_seq == before  # nothing recorded
    return caught.value.problem


CASES = [
    # (game, kind, payload, {lang: the exact words})
    ("race", "hand_counted", {}, {
        "en": "Cards: not given", "el": "Κάρτες: δεν δόθηκε", "pl": "Pole „Karty”: nie podano wartości",
        "hu": "Kártyák: nincs megadva"}),
    ("race", "hand_counted", {"cards": "x"}, {
        "en": "Cards must be a whole number 0 or more, got 'x'",
        "el": "Κάρτες: πρέπει να είναι ακέραιος 0 ή μεγαλύτερος, δόθηκε 'x'",
        "pl": "Pole „Karty” musi zawierać liczbę całkowitą nie mniejszą niż 0, podano 'x'",
        "hu": "Kártyák: legalább 0 értékű egész számnak kell lennie; kapott érték: 'x'"}),
    ("race", "vp_changed", {"delta": -1}, {
        "en": "VP must be a whole number 0 or more, got -1",
        "el": "ΠΝ: πρέπει να είναι ακέραιος 0 ή μεγαλύτερος, δόθηκε -1",
        "pl": "Pole „PZ” musi zawierać liczbę całkowitą nie mniejszą niż 0, podano -1",
        "hu": "GYP: legalább 0 értékű egész számnak kell lennie; kapott érték: -1"}),
    ("race", "good_placed", {"world": 3}, {
        "en": "World must be a card's name, got 3",
        "el": "Κόσμος: πρέπει να περιέχει το όνομα μιας κάρτας, δόθηκε 3",
        "pl": "Pole „Świat” musi zawierać nazwę karty, podano 3",
        "hu": "Világ: egy kártya nevét kell megadni, kapott érték: 3"}),
    ("race", "card_placed", {"card": "Old Erth"}, {
        "en": "Card: no card is named 'Old Erth'; did you mean 'Old Earth'?",
        "el": "Κάρτα: καμία κάρτα δεν ονομάζεται 'Old Erth'· μήπως εννοείτε 'Old Earth';",
        "pl": "Pole „Karta”: żadna karta nie nazywa się 'Old Erth'; może chodziło o 'Old Earth'?",
        "hu": "Kártya: nincs 'Old Erth' nevű kártya; talán erre gondoltál: 'Old Earth'?"}),
    ("race", "card_placed", {"card": "Old Earth", "paid": "two"}, {
        "en": "Cards paid must be a whole number 0 or more, got 'two'",
        "el": "Κάρτες που πληρώθηκαν: πρέπει να είναι ακέραιος 0 ή μεγαλύτερος, δόθηκε 'two'",
        "pl": "Pole „Zapłacone karty” musi zawierać liczbę całkowitą nie mniejszą niż 0, podano 'two'",
        "hu": "Kifizetett kártyák: legalább 0 értékű egész számnak kell lennie; kapott érték: 'two'"}),
    ("race", "action_chosen", {}, {
        "en": "Action card: not given", "el": "Κάρτα δράσης: δεν δόθηκε",
        "pl": "Pole „Karta akcji”: nie podano wartości", "hu": "Akciókártya: nincs megadva"}),
    ("race", "card_placed", {"card": "Old Earth", "method": "steal"}, {  # Settle phase: conquered or paid for
        "en": "How the world is placed must be conquer (Military) or pay (cards), got 'steal'",
        "el": "Πώς τοποθετείται ο κόσμος: πρέπει να είναι κατάκτηση (Στρατός) ή πληρωμή (κάρτες), δόθηκε 'steal'",
        "pl": "Pole „Sposób zajęcia świata” przyjmuje tylko: podbój (siła militarna) lub zapłata (karty); podano "
              "'steal'",
        "hu": "A világ megszerzésének módja: a válasz csak meghódítás (katonai erő) vagy fizetés (kártyák) lehet, "
              "kapott érték: 'steal'"}),
    ("among", "vp_changed", {"delta": "x"}, {
        "en": "VP +/- must be a whole number, got 'x'",
        "el": "ΠΝ +/-: πρέπει να περιέχει έναν ακέραιο αριθμό, δόθηκε 'x'",
        "pl": "Pole „PZ +/-” musi zawierać liczbę całkowitą, podano 'x'",
        "hu": "GYP +/-: egy egész számot kell megadni, kapott érték: 'x'"}),
    ("among", "credits_changed", {}, {
        "en": "Credits +/-: not given", "el": "Μονάδες +/-: δεν δόθηκε",
        "pl": "Pole „Kredyty +/-”: nie podano wartości", "hu": "Credit +/-: nincs megadva"}),
    ("among", "location_built", {"card": 3}, {
        "en": "Location must be a card's name, got 3",
        "el": "Τοποθεσία: πρέπει να περιέχει το όνομα μιας κάρτας, δόθηκε 3",
        "pl": "Pole „Lokacja” musi zawierać nazwę karty, podano 3",
        "hu": "Helyszín: egy kártya nevét kell megadni, kapott érték: 3"}),
    ("among", "conflict_played", {"target": "Bob", "counts": "pink"}, {
        "en": "Locations compared must be green, red, yellow, blue, purple or Power Reactors, got 'pink'",
        "hu": "Összehasonlított helyszínek: a válasz csak zöld, piros, sárga, kék, lila vagy Erőművek lehet, kapott "
              "érték: 'pink'"}),
    ("among", "conflict_played", {"target": "Cy", "counts": "red"}, {
        "en": "Player must be Ann or Bob, got 'Cy'",
        "pl": "Pole „Gracz” przyjmuje tylko: Ann lub Bob; podano 'Cy'"}),
]
IDS = [f"{game}-{kind}-{i}" for i, (game, kind, *_rest) in enumerate(CASES)]


@pytest.mark.parametrize(("game", "kind", "payload", "said"), CASES, ids=IDS)
def test_the_refusal_names_the_field_as_the_form_labels_it_in_each_language(store, game, kind, payload, said):
    problem = _refused(store, game, kind, payload)
    for lang, words in said.items():
        assert i18n.say(problem, lang) == words, lang
    for lang in ("el", "pl", "hu"):  # never the payload's key, never English
        text = i18n.say(problem, lang)
        assert not any(f"'{key}'" in text for key in payload), text
        assert "must be" not in text and "not given" not in text, text


def test_a_secret_objective_no_objective_has_is_refused_in_hungarian_naming_the_field(store):
    flow_spec = FLOWS["among"]
    settings = flow_spec.settings(parse_players("Ann,Bob"), {})
    settings["races"] = ["qualeen", ""]  # Ann plays the Qualeen (rulebook 'Races': a secret objective)
    flow = GameFlow(store.start("among", settings), flow_spec)
    with pytest.raises(BadEvent) as caught:
        flow.session.append("secret_objective_chosen", {"objective": "Zzzz"}, player="Ann")
    assert i18n.say(caught.value.problem, "hu") == "Cél: nincs 'Zzzz' nevű cél"
    assert i18n.say(caught.value.problem, "el") == "Στόχος: κανένας στόχος δεν ονομάζεται 'Zzzz'"


@pytest.mark.parametrize(("game", "form", "field", "key"), [
    ("race", "hand", "cards", "cards"), ("race", "good", "world", "world"), ("race", "card", "card", "card"),
    ("race", "start", "card", "start_world.card"), ("race", "vp", "vp", "vp_changed.delta"),
    ("race", "select", "action", "actions"),
    ("among", "credits", "delta", "credits_changed.delta"), ("among", "vp", "delta", "vp_changed.delta"),
    ("among", "location", "card", "card"), ("among", "location", "cell", "cell"),
    ("among", "conflict", "target", "target"), ("among", "conflict", "counts", "counts"),
])
def test_the_form_and_the_refusal_take_the_label_from_one_table(game, form, field, key):
    spec = FLOWS[game]
    view = {"players": [{"name": "Ann"}, {"name": "Bob"}], "advanced": False, "objectives": []}
    forms = {f.id: f for f in spec.forms(view)}
    [label] = [f.label for f in forms[form].fields if f.name == field]
    words = RACE_WORDS if game == "race" else AMONG_WORDS
    assert label is words[key]
