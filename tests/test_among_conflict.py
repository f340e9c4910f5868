"""Among the Stars' aggressive mode at the table: a Conflict card played from a phone (rulebook 7 'Aggressive mode':
from year 2, Conflict cards are shuffled into the deck; one chosen is not built but paid, 1 credit, and its effect
applied after the other players' actions; Dispute, the card known, compares one kind of location with another
player and moves the lead in VP, at most 3). The box's rules took it, but no phone could report it: the player
who played one was "no action reported this round" and Next had to be pressed twice."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_flow import start


def _year_one(flow) -> None:
    """Ann builds two Turrets (1 credit, 1 energy, 2 VP each, from the Main Reactor's 2 cubes), Bob a Crew Quarters
    (1 credit, 1 VP); every other action is a discard for 3 credits. Six rounds in year 1 (rulebook 7: the
    aggressive mode plays year 1 as usual)."""
    plays = {1: {"Ann": ("location", {"card": "Turret", "cell": [1, 0]}),
                 "Bob": ("location", {"card": "Crew Quarters", "cell": [1, 0]})},
             2: {"Ann": ("location", {"card": "Turret", "cell": [2, 0]})}}
    for rnd in range(1, 7):
        for player in ("Ann", "Bob", "Cy"):
            form, values = plays.get(rnd, {}).get(player, ("discard", {}))
            flow.report(player, form, values)
        flow.next_phase()


def test_a_conflict_card_is_reported_from_year_two_as_the_rounds_action(store):
    flow = start(store, "among", "Ann,Bob,Cy", aggressive=True)
    view = flow.view()
    assert "conflict" not in view["open_forms"]["Ann"]  # year 1: no Conflict card in the deck yet
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "conflict", {"target": "Bob", "counts": "red"})
    assert "only in the deck in years 2-4 of aggressive mode" in i18n.say(refused.value, "en")
    _year_one(flow)
    view = flow.view()
    assert view["round_label"] == "Year 2 of 4, round 1 of 7"
    # credits: Ann 10 - 1 - 1 + 4 x 3 = 20, Bob 10 - 1 + 5 x 3 = 24, Cy 10 + 6 x 3 = 28; then 10 more each
    assert [(p["name"], p["credits"], p["vp"]) for p in view["players"]] == [("Ann", 30, 4), ("Bob", 34, 1),
                                                                              ("Cy", 38, 0)]
    assert "conflict" in view["open_forms"]["Ann"]
    assert view["choices_now"]["Ann"]["conflict"]["target"]["choices"] == ["Bob", "Cy"]  # another player
    flow.report("Ann", "conflict", {"target": "Bob", "counts": "red"})
    flow.report("Bob", "discard", {})
    flow.report("Cy", "discard", {})
    flow.next_phase()  # every player acted: no question, the round ends at once
    view = flow.view()
    assert view["round_label"] == "Year 2 of 4, round 2 of 7"
    # Dispute on red: Ann 2 Turrets against Bob's none, a lead of 2 (at most 3): Ann 4 + 2 = 6, Bob 1 - 2 stops
    # at 0; Ann paid 1 credit
    assert [(p["name"], p["credits"], p["vp"]) for p in view["players"]] == [("Ann", 29, 6), ("Bob", 37, 0),
                                                                              ("Cy", 41, 0)]


def test_a_conflict_card_names_what_it_compares_in_the_players_words(store):
    flow = start(store, "among", "Ann,Bob", aggressive=True)
    form = next(f for f in flow.view()["forms"] if f["id"] == "conflict")
    assert [f["name"] for f in form["fields"]] == ["target", "counts"]
    counts = form["fields"][1]
    assert counts["choices"] == ["green", "red", "yellow", "blue", "purple", "power_reactors"]
    said = {lang: [i18n.localize(label, lang) for label in counts["labels"]] for lang in ("el", "pl", "hu")}
    assert said["el"][1] == "κόκκινο" and said["el"][5] == "κάρτες Power Reactor"  # the printed name, as Polish
    assert said["pl"][1] == "czerwony" and said["pl"][5] == "karty Power Reactor"
    assert said["hu"][1] == "piros" and said["hu"][5] == "Erőművek"
    labels = {lang: i18n.localize(counts["label"], lang) for lang in ("el", "pl", "hu")}
    assert labels == {"el": "Τοποθεσίες που συγκρίνονται", "pl": "Porównywane lokacje",
                      "hu": "Összehasonlított helyszínek"}
