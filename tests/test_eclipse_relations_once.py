"""Eclipse 1.2, Diplomacy: two players exchange one pair of Ambassadors, so a relation is recorded once, whichever
of the two phones reports it (companion/flows/eclipse.py, ``choices_now``)."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start


def test_a_relation_both_players_report_is_recorded_once(store):
    """Eclipse 1.2, Diplomacy: two players exchange one pair of Ambassadors. At a table both phones report it: the
    second report was recorded too, with the error "Ann and Cy already have relations". The relations form now offers
    only the players you have none with; the second report is refused naming the rule, in each language, and nothing
    more is recorded."""
    flow = start(store, "Ann,Bob,Cy,Dee")
    assert flow.view()["choices_now"]["Cy"]["relations"]["with"]["choices"] == ["Ann", "Bob", "Dee"]
    flow.report("Ann", "relations", {"with": "Cy"})
    assert flow.view()["choices_now"]["Cy"]["relations"]["with"]["choices"] == ["Bob", "Dee"]
    assert flow.view()["choices_now"]["Ann"]["relations"]["with"]["choices"] == ["Bob", "Dee"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Cy", "relations", {"with": "Ann"})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("you already have diplomatic relations with Ann: a relation is recorded once, whichever of "
                          "the two reports it (Eclipse 1.2, Diplomacy: one pair of Ambassadors a pair of players)")
    assert all("Ann" in s and "Eclipse 1.2" in s and s != said["en"] for lang, s in said.items() if lang != "en")
    assert flow.session.last_seq == before
    assert not [f for f in flow.view()["findings"] if f["severity"] != "info"]


def test_the_traitor_cards_holder_is_offered_no_new_relations_and_a_report_of_one_is_refused(store):
    """Eclipse 1.2, Diplomacy: who attacks a player they have relations with takes the Traitor card, and its holder
    makes no new relations. The relations form still offered the holder (the rules flagged the relation only after
    recording it). Ann has relations with Cy and attacks Cy: Ann holds the Traitor card. Bob is offered Cy and Dee,
    not Ann; Ann is offered no one; a report of either (a page older than the table) is refused naming the rule, in
    each language, and nothing is recorded."""
    flow = start(store, "Ann,Bob,Cy,Dee")
    flow.report("Ann", "relations", {"with": "Cy"})
    flow.report("Ann", "attack", {"with": "Cy"})
    view = flow.view()
    assert [p["name"] for p in flow.engine_view()["players"] if p["traitor"]] == ["Ann"]
    assert view["choices_now"]["Bob"]["relations"]["with"]["choices"] == ["Cy", "Dee"]
    assert view["choices_now"]["Ann"]["relations"]["with"]["choices"] == []
    before = flow.session.last_seq
    refusals = []
    for player, other in (("Bob", "Ann"), ("Ann", "Dee")):
        with pytest.raises(BadEntry) as refused:
            flow.report(player, "relations", {"with": other})
        refusals.append({lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")})
    assert refusals[0]["en"] == ("Ann holds the Traitor card and makes no new diplomatic relations (Eclipse 1.2, "
                                 "Diplomacy)")
    assert refusals[1]["en"] == ("you hold the Traitor card and make no new diplomatic relations (Eclipse 1.2, "
                                 "Diplomacy)")
    for said in refusals:
        assert all("Eclipse 1.2" in s and s != said["en"] for lang, s in said.items() if lang != "en")
    assert "Ann" in refusals[0]["pl"] and "Ann" in refusals[0]["hu"] and "Ann" in refusals[0]["el"]
    assert flow.session.last_seq == before


def test_the_alliance_form_offers_the_players_you_have_relations_with_the_traitor_cards_holder_too(store):
    """Rise of the Ancients p.10: "two players with diplomatic relations between them may found an alliance", and
    "each player may be a member of one alliance only"; nothing there about the Traitor card, which stops new
    relations only (Eclipse 1.2, Diplomacy). Hand-worked: Ann has relations with Cy and Bob, attacks Cy (the Ambassadors
    go back) and holds the Traitor card; she keeps her relations with Bob. The form refused Ann and Bob's alliance,
    so the table could not record a legal one, and offered Dee players she has no relations with (the rules then
    flagged the report). Now Ann and Bob are offered each other; Dee, with relations to no one, is offered no one and
    told why; Cy (relations with no one after the attack) is refused Ann naming p.10. Once Ann and Bob hold Nova's
    tiles, Bob's "With" is empty (one alliance only) and Dee, given relations with Bob, is refused him: Bob holds a
    tile. Every refusal names p.10 in each language, and records nothing."""
    flow = start(store, "Ann,Bob,Cy,Dee", alliances=True)
    assert flow.view()["choices_now"]["Bob"]["alliance_found"]["with"]["choices"] == []
    flow.report("Ann", "relations", {"with": "Cy"})
    flow.report("Ann", "relations", {"with": "Bob"})
    flow.report("Ann", "attack", {"with": "Cy"})
    choices = flow.view()["choices_now"]
    assert choices["Ann"]["alliance_found"]["with"]["choices"] == ["Bob"]
    assert choices["Bob"]["alliance_found"]["with"]["choices"] == ["Ann"]
    assert choices["Dee"]["alliance_found"]["with"]["choices"] == []
    assert "no one now" in i18n.say(choices["Dee"]["alliance_found"]["with"]["none"], "en")
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Cy", "alliance_found", {"alliance": "Nova", "with": "Ann"})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("you have no diplomatic relations with Ann: an alliance is founded by two players with "
                          "diplomatic relations (Rise of the Ancients p.10)")
    assert "Αυγή των Αρχαίων σ.10" in said["el"] and "s. 10" in said["pl"] and "10. o." in said["hu"]
    assert all("Ann" in said[lang] and said[lang] != said["en"] for lang in ("el", "pl", "hu"))
    assert flow.session.last_seq == before
    flow.report("Ann", "alliance_found", {"alliance": "Nova", "with": "Bob"})
    assert not [f for f in flow.view()["findings"] if f["rule_kind"].startswith("alliance")]
    flow.report("Dee", "relations", {"with": "Bob"})
    choices = flow.view()["choices_now"]
    assert choices["Bob"]["alliance_found"]["with"]["choices"] == []
    assert choices["Dee"]["alliance_found"]["with"]["choices"] == []
    before = flow.session.last_seq
    for player, other, opening in (("Dee", "Bob", "Bob holds an Alliance tile already"),
                                   ("Bob", "Dee", "you hold an Alliance tile already")):
        with pytest.raises(BadEntry) as refused:
            flow.report(player, "alliance_found", {"alliance": "Vortex", "with": other})
        said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
        assert said["en"].startswith(opening) and said["en"].endswith("(Rise of the Ancients p.10)")
        assert all(said[lang] != said["en"] and "10" in said[lang] for lang in ("el", "pl", "hu"))
    assert flow.session.last_seq == before


def test_the_alliance_fields_say_the_alliances_as_the_greek_rulebook_names_them(store):
    """Rise of the Ancients p.10 (Greek): ΣΥΜΜΑΧΙΑ ΝΟΒΑ, ΣΥΜΜΑΧΙΑ ΔΙΝΗ, ΣΥΜΜΑΧΙΑ ΛΑΜΨΗ (p.16: "τη Συμμαχία της
    Λάμψης"). A Greek phone's Alliance founded and Alliance joined offered "Nova", "Vortex", "Radiance"; now Νόβα,
    Δίνη and Λάμψη, while the phone still posts the English names the rules keep. Polish and Hungarian keep the
    English (no rulebook of theirs in the sources)."""
    flow = start(store, "Ann,Bob,Cy,Dee", alliances=True)
    forms = {f["id"]: f for f in flow.view()["forms"]}
    for form in ("alliance_found", "alliance_join"):
        field = next(f for f in forms[form]["fields"] if f["name"] == "alliance")
        assert field["choices"] == ["Nova", "Vortex", "Radiance"]
        assert [i18n.say(label, "el") for label in field["labels"]] == ["Νόβα", "Δίνη", "Λάμψη"]
        assert [i18n.say(label, "pl") for label in field["labels"]] == ["Nova", "Vortex", "Radiance"]
    flow.report("Ann", "relations", {"with": "Bob"})
    flow.report("Ann", "alliance_found", {"alliance": "Radiance", "with": "Bob"})
    assert [p["alliance"] for p in flow.engine_view()["players"]][:2] == ["Radiance", "Radiance"]
