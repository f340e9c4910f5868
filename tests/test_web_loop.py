"""A phone's rename, undo and Next through the real main loop, the history's downloads, and a report the table
has moved past, through the phone view's HTTP API (Flask test client)."""

from __future__ import annotations

import json
import logging
import threading

import numpy as np

from companion import i18n
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.setup_flow import TableSetup
from device import FakeCamera
from tests.phones import joined_phone, post_through_loop
from vision.motion import StillnessDetector

# -- a phone's rename, undo and Next through the main loop ---------------------------------------------
W, H = 320, 240


def _loop(hub: StateHub, **kw) -> MainLoop:
    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    return MainLoop(source=FakeCamera([frame] * 5), reader=None, hub=hub, stillness=StillnessDetector(),
                    stop_at_end=True, sleep=lambda s: None, **kw)




def _race(store, players="Ann,Bob"):
    session = store.start("race", FLOWS["race"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["race"])


def test_phone_rename_renames_player_1(store):
    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = _loop(hub, session=None, setup=setup)
    setup.add_player("Player 1")  # what the touchscreen's "Add player" adds
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    rename = {"action": "rename", "name": "Player 1", "new_name": "Ann"}
    response = post_through_loop(client, loop, "/api/setup", rename)
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["message"] == "Player 1 is now Ann"
    assert setup.names == ["Ann"]
    loop.publish()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == ["Ann"]


def test_hub_payload_may_carry_a_name_key():
    hub = StateHub()
    hub.post_action("setup_rename", origin="phone", player="Player 1", name="Ann")
    [action] = hub.take_actions()
    assert (action["action"], action["player"], action["name"]) == ("setup_rename", "Player 1", "Ann")


def test_phone_page_rename_button_posts_name_and_new_name():
    from importlib import resources

    js = (resources.files("companion") / "static" / "flowsetup.js").read_text(encoding="utf-8")
    assert 'action: "rename", name: p.name, new_name: name }' in js  # askName's answer is trimmed and fits MAX_NAME


def test_phone_global_undo_is_refused_in_a_game_and_undo_report_withdraws_only_mine(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    e_bob = flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    loop.publish()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = client.post("/api/action", json={"action": "undo"})
        assert response.status_code == 403
        # the refusal names the button players tap, never the API's path or a JSON body
        assert response.get_json()["error"] == ("in a game a phone withdraws only its own report: pick your seat and "
                                                "tap “Undo my last report”; the Undo of the whole table is on the "
                                                "touchscreen")
        assert hub.take_actions() == []  # nothing queued
        for lang, button in (("el", "«Αναιρώ την αναφορά μου»"), ("pl", "„Cofnij moje ostatnie zgłoszenie”"),
                             ("hu", "„Utolsó bejelentésem visszavonása”")):
            said = client.post("/api/action", json={"action": "undo"}, headers={"Accept-Language": lang})
            assert said.status_code == 403 and button in said.get_json()["error"]
            assert "/api/" not in said.get_json()["error"] and "{" not in said.get_json()["error"]
        # an old phone page that still queues a plain undo: the loop refuses it, and says so in the log
        hub.post_action("undo", origin="phone")
        loop.take_actions()
    assert {e_bob.seq, e_ann.seq} <= set(flow.session.replay().applied)
    assert any("undo (phone) refused" in r.getMessage() for r in caplog.records)
    # Ann's phone withdraws Ann's report only (logged with its origin)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = post_through_loop(client, loop, "/api/report/undo", {"player": "Ann"})
    assert response.status_code == 200, response.get_json()
    applied = set(flow.session.replay().applied)
    assert e_ann.seq not in applied and e_bob.seq in applied
    assert any(f"undo_report (phone): Ann: report #{e_ann.seq} undone" in r.getMessage() for r in caplog.records)


def test_touchscreen_undo_still_withdraws_the_newest_event_and_is_logged(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    with caplog.at_level(logging.INFO, logger="companion"):
        hub.post_action("undo", origin="touchscreen")
        loop.take_actions()
    assert e_ann.seq not in set(flow.session.replay().applied)
    assert any(r.getMessage() == f"undo (touchscreen): event {e_ann.seq + 1} withdraws event {e_ann.seq}"
               for r in caplog.records)


def test_d6_phone_undo_still_accepted_and_logged(store, caplog):
    # a phone's d6 undo is answered once written (200), no longer queued (202)
    from rules.d6 import D6_GAME

    session = store.start(D6_GAME.name, {"source": "fake"})
    read = session.append("dice_read", {"values": [3, 4], "image": None}, origin="camera")
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)]), reader=object(), session=session, hub=hub,
                    stillness=StillnessDetector(), sleep=lambda s: None)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    with caplog.at_level(logging.INFO, logger="companion"):
        assert post_through_loop(client, loop, "/api/action", {"action": "undo"}).status_code == 200
    assert read.seq not in set(session.replay().applied)
    assert any(r.getMessage() == f"undo (phone): event {read.seq + 1} withdraws event {read.seq}"
               for r in caplog.records)


def test_phone_next_moves_the_round_with_origin_phone(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    flow.report("Ann", "select", {"action": "Explore +5"})
    flow.report("Bob", "select", {"action": "Settle"})
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "I Explore done"
    # a stale label (another phone already pressed Next): nothing moves
    stale = client.post("/api/action", json={"action": "next_phase", "label": "Reveal"})
    assert stale.status_code == 409 and "I Explore done" in stale.get_json()["error"]
    assert hub.take_actions() == []
    with caplog.at_level(logging.INFO, logger="companion"):
        response = post_through_loop(client, loop, "/api/action", {"action": "next_phase", "label": "I Explore done"})
    assert response.status_code == 200, response.get_json()
    last = flow.session.events()[-1]
    assert (last.kind, last.origin) == ("phase_done", "phone")
    assert any(r.getMessage().startswith("next_phase (phone):") for r in caplog.records)
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "III Settle done"


def test_a_phones_next_answers_what_the_last_next_asked_only_with_confirm(store):
    """Among the Stars, Bob has not reported: a phone's Next is refused naming him (rulebook 4: every player does one
    action a round); a second Next without ``"confirm": true`` (a phone whose page had not shown that yet) is refused
    again, one with it ends the round; ``confirm`` that is not true or false is a 400 naming it, nothing queued."""
    session = store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["among"])
    hub = StateHub()
    loop = _loop(hub, session=session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    flow.report("Ann", "discard", {})
    loop.publish()
    label = hub.snapshot().view["game"]["next"]["label"]
    for body in ({"action": "next_phase", "label": label}, {"action": "next_phase", "label": label, "confirm": False}):
        refused = post_through_loop(client, loop, "/api/action", body)
        assert refused.status_code == 400 and refused.get_json()["error"].startswith("Bob: no action reported")
    bad = client.post("/api/action", json={"action": "next_phase", "label": label, "confirm": "yes"})
    assert bad.status_code == 400 and bad.get_json()["field"] == "confirm", bad.get_json()
    assert hub.take_actions() == []
    ended = post_through_loop(client, loop, "/api/action", {"action": "next_phase", "label": label, "confirm": True})
    assert ended.status_code == 200, ended.get_json()
    assert [e.kind for e in session.events()] == ["card_discarded", "round_ended"]


def test_phone_next_is_for_game_flows_only(hub, make_view):
    hub.publish(make_view([1, 2]))
    response = joined_phone(hub).post("/api/action", json={"action": "next_phase"})
    assert response.status_code == 400 and "game flow" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_phone_page_has_a_labelled_next_button():
    from importlib import resources

    html = (resources.files("companion") / "templates" / "flow.html").read_text(encoding="utf-8")
    js = (resources.files("companion") / "static" / "flow.js").read_text(encoding="utf-8")
    assert 'id="phone-next"' in html
    assert 'format(_("Next: {action}"), { action: next.label })' in js
    assert 'action: "next_phase", label: label' in js


def test_setup_after_the_game_started_is_refused_at_once(store):
    hub, flow = StateHub(), _race(store)
    loop = _loop(hub, session=flow.session, flow=flow)
    loop.publish()
    response = joined_phone(hub).post("/api/setup", json={"action": "start"})
    assert response.status_code == 409 and "no game is being set up" in response.get_json()["error"]
    assert hub.take_actions() == []


# -- the history's downloads ------------------------------------------------------------------


def test_a_finished_race_game_downloads_as_its_record_and_its_bgstats_play(store):
    """The history's two links (``/export/<session>.json`` and ``/export/<session>.bgstats.json``, docs/contracts.md)
    on a joined phone: a 2-player Race game, Ann takes all 24 VP chips in Consume x2 (the pool is 12 per player,
    Race for the Galaxy, Setup), so the game ends at the end of that round with Ann the winner."""
    from companion.library import export_documents
    from tests.race_games import finished_race

    sid = finished_race(store).session.id
    phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
    record = phone.get(f"/export/{sid}.json")
    assert record.status_code == 200 and record.mimetype == "application/json"
    assert f'filename="{sid}.json"' in record.headers["Content-Disposition"]
    game = json.loads(record.get_data(as_text=True))
    assert game["game"] == "race" and game["finished"] is True and game["winners"] == ["Ann"]
    play = phone.get(f"/export/{sid}.bgstats.json")
    assert play.status_code == 200, play.get_data(as_text=True)
    assert play.mimetype == "application/json"
    assert f'filename="{sid}.bgstats.json"' in play.headers["Content-Disposition"]
    bgstats = json.loads(play.get_data(as_text=True))
    assert bgstats["sourceName"] == "tabletop-companion"
    assert [(p["name"], p["winner"]) for p in bgstats["players"]] == [("Ann", True), ("Bob", False)]
    assert "Retry-After" not in record.headers and "Retry-After" not in play.headers  # nothing to wait for
    for wrong in (f"/export/{sid}.csv", f"/export/{sid}.bgstats", "/export/.json", "/export/nosuchgame.bgstats.json",
                  "/export/.bgstats.json", f"/export/{sid}.bgstats.bgstats.json", f"/export/{sid}..json"):
        answer = phone.get(wrong)
        assert answer.status_code == 404 and "Retry-After" not in answer.headers, wrong
        said = answer.get_json()["error"]
        # no game is named ".bgstats" or "<sid>.bgstats": a name that is no download is told what the downloads are
        assert said.startswith("no such export") or wrong.endswith("/nosuchgame.bgstats.json"), (wrong, said)


def test_a_game_not_over_does_not_download_its_hidden_choices(store):
    """Race for the Galaxy: each player chooses an action card in secret and they are revealed together (Race for the
    Galaxy rulebook, Action selection). A joined phone could download the game being played and read, in its record,
    the card Ann chose before Bob had chosen his: a game not over is refused, both documents, naming why; once the game
    is over it downloads (the test above)."""
    from companion.library import export_documents

    flow = _race(store)
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Ann", "select", {"action": "Develop"})  # Bob has not chosen: Ann's card is still face down
    assert not flow.over()
    phone = joined_phone(StateHub(), exports=lambda s: export_documents(store, s))
    for name in (f"{flow.session.id}.json", f"{flow.session.id}.bgstats.json"):
        answer = phone.get(f"/export/{name}")
        assert answer.status_code == 403, name
        text = answer.get_data(as_text=True)
        assert "develop" not in text.lower() and "Content-Disposition" not in answer.headers
        assert "not over" in answer.get_json()["error"]
    greek = phone.get(f"/export/{flow.session.id}.json", headers={"Accept-Language": "el"})
    assert greek.status_code == 403 and "not over" not in greek.get_json()["error"]  # said in the phone's language


def test_the_name_field_and_the_box_take_names_of_one_length(store):
    """The setup's name field took 40 characters while the box's check of a typed text allowed 60 (a name of 61
    read "Name is longer than 60 characters", one of 41-60 "at most 40"): the page's field takes the box's own
    limit, passed into the page, and every too-long name is refused naming that limit."""
    import re

    from companion import web
    from companion.webinput import MAX_TEXT

    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = _loop(hub, session=None, setup=setup)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    page = client.get("/").get_data(as_text=True)
    most = int(re.search(r'id="setup-name" maxlength="(\d+)"', page).group(1))
    for length in (most + 1, most + 21, MAX_TEXT + 1):
        response = post_through_loop(client, loop, "/api/setup", {"action": "player", "name": "A" * length})
        assert response.status_code == 400 and f" {most} characters" in response.get_json()["error"], length
    response = post_through_loop(client, loop, "/api/setup", {"action": "player", "name": "B" * most})
    assert response.status_code == 200, response.get_json()
    assert setup.names == ["B" * most]
    web.MAX_NAME, kept = 12, web.MAX_NAME  # one place: the page reads the box's constant
    try:
        assert 'id="setup-name" maxlength="12"' in client.get("/").get_data(as_text=True)
    finally:
        web.MAX_NAME = kept


def _post_in(lang: str, client, loop, url: str, body: dict):
    """POST ``body`` from a phone whose language is ``lang`` while this thread plays the main loop."""
    answer: list = []
    headers = {"Accept-Language": lang}
    phone = threading.Thread(target=lambda: answer.append(client.post(url, json=body, headers=headers)))
    phone.start()
    while phone.is_alive():
        loop.take_actions()
        phone.join(0.005)
    return answer[0]


def test_a_report_the_table_has_moved_past_is_409_with_its_reason_in_the_phones_language(store):
    """A well-formed report on a form the table has closed (Roll for the Galaxy p.2: a player's setup is done once they
    select a phase) and a phase selection withdrawn after Reveal (p.4: the selections are public and run this round)
    are refused 409, as a stale tap: the state moved on. The phone page draws the state the answer carries and shows
    the reason (box.js ``problem``), here in Polish. A malformed report (a form the game has not) stays 400."""
    from tests.test_flow import faction_label

    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    ann_setup = {"faction": faction_label(1), "home_world": "Old Earth", "development": "Advanced Logistics",
                 "world": "Spice World"}
    flow.report("Ann", "setup", ann_setup)
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    last = flow.session.last_seq

    closed = _post_in("pl", client, loop, "/api/report", {"player": "Ann", "form": "setup", "values": ann_setup})
    assert closed.status_code == 409, closed.get_json()
    said = closed.get_json()
    assert flow.session.last_seq == last
    why = i18n.Text("{player} has selected a phase, so their setup is done: withdraw the phase selection (Undo my last "
                    "report) to change it", player="Ann")
    assert said["error"] == i18n.localize(why, "pl") and "setup" not in said["error"]
    assert said["state"]["game"]  # the page draws the state the table moved to

    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal
    loop.publish()
    last = flow.session.last_seq
    withdrawn = _post_in("pl", client, loop, "/api/report/undo", {"player": "Ann"})
    assert withdrawn.status_code == 409, withdrawn.get_json()
    assert withdrawn.get_json()["error"].endswith("„Cofnij ostatni wpis stołu” w telefonie)")

    unknown = _post_in("pl", client, loop, "/api/report", {"player": "Ann", "form": "setupp", "values": {}})
    assert unknown.status_code == 400, unknown.get_json()
    assert flow.session.last_seq == last  # nothing recorded by a refusal
