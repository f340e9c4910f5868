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
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from tests.test_evening import do, evening
from tests.test_flow import start
from tests.test_phone_browser import browser  # noqa: F401  (the browser fixture)


def among_on_the_box(store, tmp_path, players: tuple[str, ...]):
    """An Among the Stars evening on the box with ``players`` seated from phones, its first round begun."""
    loop = evening(store, tmp_path, hub=StateHub())
    do(loop, "choose_game", game="among")
    for name in players:
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    return loop


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
    loop = among_on_the_box(store, tmp_path, ("Ágnes", "Bálint"))
    do(loop, "report", "phone", player="Ágnes", form="discard", values={})
    before = loop.session.last_seq
    answer = loop.dispatch({"action": "next_phase", "origin": "phone"})
    assert answer.error is not None and answer.error.startswith("Bálint: no action reported this round"), answer
    assert i18n.localize(answer.error, "hu").startswith("Bálint: ebben a körben nincs bejelentett akció")
    assert loop.session.last_seq == before
    do(loop, "next_phase")
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 2 of 6"


def test_next_names_the_round_it_moved_to_once(store, tmp_path):
    """The phones answered Among the Stars' Next with 'Rok 1 z 4, runda 2 z 6: Runda 2' ('Year 1 of 4, round 2 of 6:
    Round 2'): the year's label names the round already. It says the round once, in every language."""
    loop = among_on_the_box(store, tmp_path, ("Łucja", "Ζωή"))
    said = []
    for _ in range(6):  # the year's 6 rounds: each player discards for credits (rulebook 4), then Next
        for name in ("Łucja", "Ζωή"):
            do(loop, "report", "phone", player=name, form="discard", values={})
        said.append(do(loop, "next_phase", "phone").message)
    assert said[0] == "Year 1 of 4, round 2 of 6" and said[-1] == "Year 2 of 4, round 1 of 6"
    assert all(":" not in message for message in said), said  # the year's label alone, not ': Round 2' after it
    hu = [i18n.say(message, "hu") for message in said]
    assert hu[0] == "Év: 1/4, kör: 2/6" and all(m.count("kör") == 1 for m in hu), hu


@pytest.mark.browser
def test_the_phones_show_who_has_not_reported_once(browser, tmp_path):  # noqa: F811
    """A Polish phone presses Next with Ζωή's action not reported: it reads why in its own answer (once: the same
    words were shown twice, as the answer and as the Next button's note), and Ζωή's Greek phone reads it under its
    Next button."""
    from playwright.sync_api import expect

    from companion.session import SessionStore
    from tests.test_evening_browser import box_on, fits, phone

    with SessionStore(tmp_path / "box.sqlite3") as store:
        with box_on(store, tmp_path) as (loop, hub, server):
            loop.hub.request("choose_game", "touchscreen", 10.0, game="among")
            for name in ("Łucja", "Ζωή"):
                loop.hub.request("setup_player", "touchscreen", 10.0, player=name)
            loop.hub.request("setup_start", "touchscreen", 10.0)
            loop.hub.request("report", "phone", 10.0, player="Łucja", form="discard", values={})
            polish, pl_page, pl_errors = phone(browser, "pl-PL")
            greek, el_page, el_errors = phone(browser, "el-GR")
            try:
                for page in (pl_page, el_page):
                    page.goto(f"{server.url}join/{hub.pairing().secret}")
                expect(pl_page.locator("#phone-next")).to_have_text("Dalej: Koniec rundy")
                pl_page.locator("#phone-next").click()
                expect(pl_page.locator("#next-result")).to_contain_text("Ζωή: brak zgłoszonej akcji w tej rundzie")
                expect(el_page.locator("#next-why")).to_contain_text("Ζωή: καμία ενέργεια δεν δηλώθηκε")
                expect(pl_page.locator("#next-why")).to_have_text("")  # said once, in the answer
                assert fits(pl_page) and fits(el_page)
                assert loop.session.last_seq == 1  # nothing recorded by the first Next
                el_page.locator("#phone-next").click()  # the Greek phone shows the question: its tap answers it
                expect(el_page.locator("#next-why")).to_have_text("")
                assert [e.kind for e in loop.session.events()] == ["card_discarded", "round_ended"]
                assert not pl_errors and not el_errors, (pl_errors, el_errors)
            finally:
                polish.close()
                greek.close()


def test_two_phones_pressing_next_at_once_end_the_round_only_once_the_question_was_seen(store, tmp_path):
    """Two phones tap Next at the same moment while Bálint has not reported. The first is refused naming him; the
    second arrives before its page could show that question, so it is no answer to it: it is refused with the same
    words, and the round goes on. A tap from a page that shows the question ("confirm": true) ends the round; the
    touchscreen (where the question is drawn above its Next) ends it on its second press as before."""
    loop = among_on_the_box(store, tmp_path, ("Ágnes", "Bálint"))
    do(loop, "report", "phone", player="Ágnes", form="discard", values={})
    first = loop.dispatch({"action": "next_phase", "origin": "phone"})
    second = loop.dispatch({"action": "next_phase", "origin": "phone"})  # its page had not shown the question
    for answer in (first, second):
        assert answer.error is not None and answer.error.startswith("Bálint: no action reported this round"), answer
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 1 of 6"
    assert loop.view()["game"]["next"]["asked"].startswith("Bálint: no action reported")  # still asked
    third = loop.dispatch({"action": "next_phase", "origin": "phone", "confirm": True})
    assert third.error is None, third
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 2 of 6"


def test_a_confirmation_made_before_the_question_was_asked_is_no_confirmation(store, tmp_path):
    """A phone's "confirm" counts only for a question standing when its tap arrives: a first tap carrying it (a
    page still showing a question an Undo or a report has since made stale) is asked again."""
    loop = among_on_the_box(store, tmp_path, ("Ann", "Bob", "Cy"))
    do(loop, "report", "phone", player="Ann", form="discard", values={})
    assert loop.dispatch({"action": "next_phase", "origin": "phone"}).error is not None
    do(loop, "report", "phone", player="Bob", form="discard", values={})  # between the two taps
    again = loop.dispatch({"action": "next_phase", "origin": "phone", "confirm": True})
    assert again.error is not None and again.error.startswith("Cy: no action reported this round"), again
    do(loop, "undo")  # the table takes Bob's report back: Bob is missing again, and so the question changed
    after_undo = loop.dispatch({"action": "next_phase", "origin": "phone", "confirm": True})
    assert after_undo.error is not None and after_undo.error.startswith("Bob and Cy: no action reported"), after_undo
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 1 of 6"
    do(loop, "next_phase", "phone", confirm=True)
    assert loop.view()["game"]["round_label"] == "Year 1 of 4, round 2 of 6"


def test_a_restart_between_the_two_presses_ends_the_round_on_the_second(store, tmp_path):
    """The question is kept with the game: the box restarting (a power cut) between the first Next and the second
    does not ask again; the second press, from the touchscreen or from a phone whose page showed the question, ends
    the round with the 'took no action' finding (rulebook 4)."""
    loop = among_on_the_box(store, tmp_path, ("Ann", "Bob"))
    do(loop, "report", "phone", player="Ann", form="discard", values={})
    asked = loop.dispatch({"action": "next_phase", "origin": "phone"})
    assert asked.error is not None and asked.error.startswith("Bob: no action reported this round"), asked
    again = evening(store, tmp_path, hub=StateHub())  # the box restarts
    assert again.view()["game"]["next"]["asked"].startswith("Bob: no action reported this round")
    assert again.view()["game"]["round_label"] == "Year 1 of 4, round 1 of 6"
    do(again, "next_phase", "phone", confirm=True)
    assert again.view()["game"]["round_label"] == "Year 1 of 4, round 2 of 6"
    assert any(f["what"] == "Bob took no action in year 1, round 1" for f in again.view()["game"]["findings"])
    assert again.view()["game"]["next"]["asked"] == ""
    third = evening(store, tmp_path, hub=StateHub())  # the answered question is not asked of round 2 after a restart
    assert third.view()["game"]["next"]["asked"] == ""


def test_a_question_made_stale_before_a_restart_is_asked_again_after_it(store, tmp_path):
    """A report recorded after the question, then a restart: the kept question no longer stands, so Next asks about
    who is still missing; a kept value of another shape (a damaged row) asks again too, without stopping the box."""
    from companion import records

    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Ann", "discard", {})
    with pytest.raises(BadEntry):
        flow.next_phase()
    flow.report("Bob", "discard", {})
    restarted = GameFlow(store.get(flow.session.id), FLOWS["among"])
    with pytest.raises(BadEntry) as again:
        restarted.next_phase()
    assert str(again.value).startswith("Cy: no action reported this round")
    records._save_state(store, f"asked:{flow.session.id}", {"seq": "3", "words": 5}, "a damaged row")
    damaged = GameFlow(store.get(flow.session.id), FLOWS["among"])
    assert damaged.view()["next"]["asked"] == ""
    with pytest.raises(BadEntry):
        damaged.next_phase()
    assert [e.kind for e in damaged.next_phase()] == ["round_ended"]


def test_the_took_no_action_finding_names_the_player_once(store):
    """Rulebook 4: a round ended without Ágnes's action is a finding about her; the sentence names her, so its place
    does not say her name again: the phones show no "— Ágnes" after it and the touchscreen no "(Ágnes)", in every
    language. A place that is not the player the sentence names stays (Ann's name is not Anna's)."""
    from companion.flow import said_in
    from companion.screen.canvas import Canvas

    flow = start(store, "among", "Zoë,Ágnes")
    flow.report("Zoë", "discard", {})
    with pytest.raises(BadEntry):
        flow.next_phase()
    flow.next_phase()
    [f] = [f for f in flow.view()["findings"] if "took no action" in f["what"]]
    assert (f["what"], f["where"]) == ("Ágnes took no action in year 1, round 1", "")
    with i18n.use_language("el"):
        [said] = [f for f in i18n.localize(flow.view()["findings"]) if "Ágnes" in f["what"]]
        text = Canvas()._finding_parts(said, 700)[0][0]
    assert text.count("Ágnes") == 1 and "(" not in text
    assert not said_in("Ann", "Anna took no action in year 1, round 1", ["Ann", "Anna"])
    assert said_in("Anna", "Anna took no action in year 1, round 1", ["Ann", "Anna"])
    assert not said_in("Bob", "Anna took no action in year 1, round 1", ["Bob", "Anna"])
