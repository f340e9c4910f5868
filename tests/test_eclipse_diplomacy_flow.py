"""Eclipse's diplomacy on the phones (companion/flows/eclipse.py; Eclipse 1.2, Diplomacy; Rise of the Ancients
p.10-11 for alliances): relations and attacks offered only where diplomacy is used (4 or more players) and only with
the players they can be with, refusals with the rule, and the Ambassadors and Alliance columns.
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start


def test_relations_with_yourself_are_not_offered_and_refused_in_the_players_words(store):
    """The ``with`` of relations, an attack and an alliance lists the other players (the field says so: the phone
    leaves the reporter out); naming yourself is refused without the event's kind or the session's id."""
    from rules import BadEvent

    flow = start(store, "Ann,Bob,Cy,Dee")
    forms = {f["id"]: f for f in flow.view()["forms"]}
    for form in ("relations", "attack", "alliance_found"):
        assert next(f for f in forms[form]["fields"] if f["name"] == "with")["others"] is True, form
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "relations", {"with": "Ann"})
    said = str(refused.value)
    assert "you cannot choose yourself (Ann); choose another player: Bob, Cy, Dee" in said, said
    assert "relations_formed" not in said and "session" not in said and "event" not in said
    # the engine's own refusal keeps its facts for players and its event and session for the log
    with pytest.raises(BadEvent) as engine:
        flow.session.append("relations_formed", {"with": "Ann"}, player="Ann")
    assert engine.value.problem == ("With: relations are made with another player (Eclipse, Diplomacy): Bob, Cy or "
                                    "Dee; got 'Ann'")
    assert "relations_formed" in str(engine.value) and flow.session.id in str(engine.value)
    assert flow.session.last_seq == 0


def test_relations_and_attacks_are_offered_only_where_diplomacy_is_used(store):
    """Eclipse, Diplomacy: relations are not used with 2 or 3 players (Second Dawn: 4 or more; the rules notes, 1.2):
    the phones offered "Diplomatic relations" and "Attacked a player you have relations with" to a 2-player table
    and recorded a misplay when used. They are closed with 2 or 3 players, saying why in the table's language, and
    open with 4 or more, every player other than the reporter in their choices."""

    for players in ("Ann,Bob", "Ann,Bob,Cy"):
        flow = start(store, players)
        for name in flow.names:
            assert not {"relations", "attack"} & set(flow.view()["open_forms"][name]), (players, name)
        with pytest.raises(BadEntry) as closed:
            flow.report("Ann", "relations", {"with": "Bob"})
        count = len(flow.names)
        said = {lang: i18n.say(closed.value, lang) for lang in ("en", "el", "pl", "hu")}
        assert said["en"] == f"diplomatic relations are not used with {count} players"
        assert said["el"] == f"οι διπλωματικές σχέσεις δεν χρησιμοποιούνται με {count} παίκτες"
        assert said["pl"] == f"stosunków dyplomatycznych nie używa się przy {count} graczach"
        assert said["hu"] == f"{count} játékosnál nincs diplomáciai kapcsolat"
        assert flow.session.events() == []
    flow = start(store, "Ann,Bob,Cy,Dee,Eve,Fay")
    assert {"relations", "attack"} <= set(flow.view()["open_forms"]["Ann"])
    flow.report("Ann", "relations", {"with": "Fay"})
    assert not [f for f in flow.view()["findings"] if "not used" in f["what"]]


def test_an_attack_offers_only_the_players_you_have_relations_with(store):
    """Eclipse, Diplomacy: who attacks a player they exchanged Ambassadors with returns the Ambassadors and takes the
    Traitor card. The phone's 'Attacked a player you have relations with' listed every other player: it offers only
    those the reporter has relations with (in seat order), and with none it says so instead of a list, in the
    table's language; once the treaty is broken by that attack, neither side offers the other again."""
    from tests.i18n_walk import leaks

    flow = start(store, "Ann,Bob,Cy,Dee")

    def offered(player: str) -> dict:
        return flow.view()["choices_now"][player]["attack"]["with"]

    none = offered("Ann")
    assert none["choices"] == []
    english = i18n.localize(none["none"], "en")
    assert "relations with no one" in english
    for lang in ("el", "pl", "hu"):
        said = i18n.localize(none["none"], lang)
        assert said != english and leaks([said], lang) == [], (lang, said)
    flow.report("Ann", "relations", {"with": "Cy"})
    flow.report("Dee", "relations", {"with": "Cy"})
    assert offered("Ann")["choices"] == ["Cy"]
    assert offered("Cy")["choices"] == ["Ann", "Dee"]
    assert offered("Bob")["choices"] == []
    flow.report("Ann", "attack", {"with": "Cy"})  # the treaty broken: Ambassadors returned
    assert offered("Ann")["choices"] == [] and offered("Cy")["choices"] == ["Dee"]
    assert start(store, "Ann,Bob,Cy").view()["choices_now"]["Ann"] == {}  # no relations with 3 players


def test_an_attack_on_a_player_outside_your_relations_is_refused_with_the_rule(store):
    """Eclipse 1.2, Diplomacy: only an attack on a player you exchanged Ambassadors with returns them and takes the
    Traitor card. The phones offer only those players; a report naming another (a page older than the table, a
    request made by hand) was recorded with a 'no relations to break' finding. It is refused, in the table's
    language, and nothing is recorded; an attack on the player you have relations with is recorded as before."""

    flow = start(store, "Ann,Bob,Cy,Dee")
    flow.report("Ann", "relations", {"with": "Cy"})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "attack", {"with": "Bob"})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].startswith("you have no diplomatic relations with Bob: only an attack on a player you exchanged")
    assert said["en"].endswith("(the Ambassadors go back and the attacker takes the Traitor card: "
                               "Eclipse 1.2, Diplomacy)")
    assert said["el"].startswith("Bob: δεν έχετε διπλωματικές σχέσεις· εδώ δηλώνεται μόνο επίθεση")
    assert said["pl"].startswith("Bob i ty nie macie stosunków dyplomatycznych:")  # the name as written, not "z Bob"
    assert said["hu"].startswith("Bob játékossal nincs diplomáciai kapcsolatod:")
    assert all("Eclipse 1.2" in s for s in said.values())
    assert flow.session.last_seq == before  # nothing recorded, no finding
    assert not [f for f in flow.view()["findings"] if "no relations" in f["what"]]
    flow.report("Ann", "attack", {"with": "Cy"})  # the treaty broken: Ann takes the Traitor card
    assert flow.session.last_seq == before + 1
    with pytest.raises(BadEntry):  # the Ambassadors went back: no relations left to break
        flow.report("Cy", "attack", {"with": "Ann"})
    assert flow.session.last_seq == before + 1


def test_the_players_rows_show_ambassadors_and_alliances_only_where_they_are_played(store):
    """A 2-player table's rows read 'Ambassadors 0' and 'Alliance –' for rules it does not play (relations are used
    with 4 or more players, Eclipse 1.2 Diplomacy; alliances only with their module, Rise of the Ancients p.10-11),
    and the three columns did not fit a 360 px phone. Each column shows where its rule is played."""
    assert [c["key"] for c in start(store, "Ann,Bob").view()["columns"]] == ["hexes"]
    assert [c["key"] for c in start(store, "Ann,Bob,Cy").view()["columns"]] == ["hexes"]
    assert [c["key"] for c in start(store, "Ann,Bob,Cy,Dee").view()["columns"]] == ["hexes", "ambassadors"]
    both = start(store, "Ann,Bob,Cy,Dee", alliances=True).view()
    assert [c["key"] for c in both["columns"]] == ["hexes", "ambassadors", "alliance"]
    assert set(both["players"][0]) >= {"hexes", "ambassadors", "alliance"}
