"""Among the Stars: Next does not end a round behind a player's back.

Rulebook 4 'Round overview' (the Hungarian rulebook's 'Kör Áttekintése'): every round each player picks a card and
does one action with it, all at once: builds a location, builds a Power Reactor, or discards it for 3 credits. The
box ended the round on the first Next even when a player had not reported their action yet (Race for the Galaxy
waits for every action card). Now the first Next names who has not reported, in the table's language, and asks to
be pressed again; the second ends the round as before (with the rules' "took no action" finding).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.hub import StateHub
from tests.test_evening import do, evening
from tests.test_flow import start


def test_next_names_who_has_not_reported_and_ends_the_round_when_pressed_again(store):
    flow = start(store, "among", "Ann,Ζωή,Łucja")
    flow.report("Ann", "discard", {})
    with pytest.raises(BadEntry) as refused:
        flow.next_phase()
    said = {lang: i18n.localize(i18n.message_of(refused.value), lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].startswith("Ζωή and Łucja: no action reported this round")
    assert said["el"].startswith("Ζωή και Łucja: καμία ενέργεια δεν δηλώθηκε σε αυτόν τον γύρο")
    assert said["pl"].startswith("Ζωή i Łucja: brak zgłoszonej akcji w tej rundzie")
    assert said["hu"].startswith("Ζωή és Łucja: ebben a körben nincs bejelentett akció")
    assert "Ann" not in said["en"]
    assert flow.view()["round_label"] == "Year 1 of 4, round 1 of 6"  # nothing recorded
    assert flow.view()["next"]["asked"] == said["en"]  # the touchscreen and every phone show what Next asks
    assert [e.kind for e in flow.session.events()] == ["card_discarded"]
    events = flow.next_phase()  # pressed again: the round ends without their actions
    assert [e.kind for e in events] == ["round_ended"]
    assert flow.view()["round_label"] == "Year 1 of 4, round 2 of 6"
    assert flow.view()["next"]["asked"] == ""
    missing = sorted(f["what"] for f in flow.view()["findings"] if "took no action" in f["what"])
    assert missing == ["Łucja took no action in year 1, round 1", "Ζωή took no action in year 1, round 1"]


def test_a_report_between_the_two_presses_asks_again(store):
    """Something recorded after the question (a player reports, or the table undoes) makes the next Next ask
    again, about who is still missing; once everyone has reported Next ends the round at once."""
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Ann", "discard", {})
    with pytest.raises(BadEntry):
        flow.next_phase()
    flow.report("Bob", "location", {"card": "Turret", "cell": [1, 0]})
    with pytest.raises(BadEntry) as again:
        flow.next_phase()
    assert str(again.value).startswith("Cy: no action reported this round")
    flow.report("Cy", "discard", {})
    assert [e.kind for e in flow.next_phase()] == ["round_ended"]  # everyone reported: no question
    assert flow.view()["round_label"] == "Year 1 of 4, round 2 of 6"


def test_the_touchscreen_and_a_phone_say_it_in_the_tables_language(store, tmp_path):
    """On the box: the first Next (from a phone) is refused with the names and nothing recorded; the touchscreen's
    Next ends the round."""
    loop = evening(store, tmp_path, hub=StateHub())
    do(loop, "choose_game", game="among")
    for name in ("Ágnes", "Bálint"):
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    do(loop, "report", "phone", player="Ágnes", form="discard", values={})
    before = loop.session.last_seq
    answer = loop.dispatch({"action": "next_phase", "origin": "phone"})
    assert answer.error is not None and answer.error.startswith("Bálint: no action reported this round"), answer
    assert i18n.localize(answer.error, "hu").startswith("Bálint: ebben a körben nincs bejelentett akció")
    assert loop.session.last_seq == before
    do(loop, "next_phase")
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 2 of 6"
