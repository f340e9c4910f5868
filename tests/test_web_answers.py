"""What the phone view answers a joined phone (Flask test client against a stand-in for the main loop):
every field checked with a 400 naming it, the loop's status as the HTTP status, 409 with the current
state, no "queued" answer for anything that changes the game, and no input that makes a traceback."""

from __future__ import annotations

import json
import logging

import pytest

from companion import records
from companion.hub import Pairing
from companion.web import BUSY, create_app
from tests.test_web import Answering, written

SECRET = "answers-secret-000000"
FLOW_VIEW = {"session": {"id": "s1", "game": "roll", "events": 12}, "status": {"message": "ok"},
             "game": {"flow": "roll", "next": {"label": "Settle", "enabled": True},
                      "players": [{"name": "Ann", "claimed": True}, {"name": "Bob", "claimed": False}]}}
SETUP_VIEW = {"session": {"id": None, "game": "race", "events": 0}, "status": {"message": "ok"},
              "game": {"flow": "race", "setup": True, "players": []}}
D6_VIEW = {"session": {"id": "d", "game": "d6", "events": 4}, "status": {"camera": "ok"}, "game": {"game": "d6"}}

# every state-changing request a phone makes: (url, body without version/key, the loop's action, its payload)
REQUESTS = [
    ("/api/seat", {"player": "Ann"}, "claim_seat", {"player": "Ann"}),
    ("/api/report", {"player": "Ann", "form": "credits", "values": {"credits": 3}}, "report",
     {"player": "Ann", "form": "credits", "values": {"credits": 3}}),
    ("/api/report/undo", {"player": "Ann"}, "undo_report", {"player": "Ann"}),
    ("/api/action", {"action": "next_phase", "label": "Settle"}, "next_phase", {"confirm": False}),
    ("/api/camera", {"id": 5, "answer": "confirm", "choice": "settle"}, "camera_confirm",
     {"id": 5, "choice": "settle"}),
    ("/api/camera", {"id": 5, "answer": "dismiss"}, "camera_dismiss", {"id": 5}),
]
SETUP_REQUESTS = [
    ({"action": "player", "name": "Ann", "colour": "red"}, "setup_player", {"player": "Ann", "colour": "red"}),
    ({"action": "remove", "name": "Ann"}, "setup_remove", {"player": "Ann"}),
    ({"action": "rename", "name": "Player 1", "new_name": "Cy"}, "setup_rename", {"player": "Player 1", "name": "Cy"}),
    ({"action": "even"}, "setup_even", {}),
    ({"action": "start"}, "setup_start", {}),
]


@pytest.fixture
def phone(hub):
    """A joined phone of a game flow (``FLOW_VIEW`` published); ``phone.client_id`` is its cookie's id."""
    hub.publish(FLOW_VIEW)
    hub.set_pairing(Pairing("g1", SECRET, {}))
    app = create_app(hub, reply_s=2.0)
    app.testing = True
    client = app.test_client()
    assert client.get(f"/join/{SECRET}").status_code == 303
    return client


def _tapped(body, version=12, key="tap-0001"):
    return {**body, "version": version, "key": key}


@pytest.mark.parametrize(("url", "body", "action", "payload"), REQUESTS)
def test_each_request_reaches_the_loop_with_version_key_and_client(phone, hub, url, body, action, payload):
    with Answering(hub, written) as loop:
        response = phone.post(url, json=_tapped(body))
    assert response.status_code == 200 and response.get_json()["recorded"] == [7]
    (taken,) = loop.taken
    client = taken.pop("client")
    assert isinstance(client, str) and len(client) >= 16
    # the tap's route and body as the phone sent them, but the key: what a retry sends again
    assert taken.pop("fingerprint") == records.fingerprint({"route": url, "body": {**body, "version": 12}})
    assert taken == {"action": action, "origin": "phone", "version": 12, "key": "tap-0001", **payload}


@pytest.mark.parametrize(("body", "action", "payload"), SETUP_REQUESTS)
def test_setup_requests_reach_the_loop(phone, hub, body, action, payload):
    hub.publish(SETUP_VIEW)
    with Answering(hub, written) as loop:
        response = phone.post("/api/setup", json=_tapped(body, version=0))
    assert response.status_code == 200
    (taken,) = loop.taken
    taken.pop("client")
    assert taken.pop("fingerprint") == records.fingerprint({"route": "/api/setup", "body": {**body, "version": 0}})
    assert taken == {"action": action, "origin": "phone", "version": 0, "key": "tap-0001", **payload}


def test_d6_undo_is_answered_when_written(phone, hub):
    hub.publish(D6_VIEW)
    with Answering(hub, written) as loop:
        response = phone.post("/api/action", json={"action": "undo", "version": 4, "key": "u1"})
    assert response.status_code == 200 and loop.taken[0]["action"] == "undo"


@pytest.mark.parametrize(("url", "body", "_action", "_payload"),
                         REQUESTS + [("/api/setup", b, a, p) for b, a, p in SETUP_REQUESTS]
                         + [("/api/action", {"action": "undo"}, "undo", {})])
@pytest.mark.parametrize("missing", ["version", "key"])
def test_a_state_changing_request_without_version_or_key_is_refused(phone, hub, url, body, _action, _payload, missing):
    if url == "/api/setup":
        hub.publish(SETUP_VIEW)
    if body.get("action") == "undo":
        hub.publish(D6_VIEW)
    sent = _tapped(body)
    del sent[missing]
    response = phone.post(url, json=sent)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["field"] == missing and repr(missing) in answer["error"]
    assert hub.take_actions() == []


@pytest.mark.parametrize(("field", "value"), [
    ("version", "12"), ("version", 12.0), ("version", True), ("version", -1), ("version", 2**60), ("version", None),
    ("key", ""), ("key", "k" * 65), ("key", "has space"), ("key", "ключ"), ("key", 7), ("key", ["k"]),
    ("player", ""), ("player", "   "), ("player", 3), ("player", ["Ann"]), ("player", {"n": 1}), ("player", "A" * 61),
    ("player", "\ud800"), ("player", "Ann\x00"), ("player", "Ann\nBob"), ("player", "\u200b"), ("player", "A\u202eB"),
    ("form", None), ("form", 5), ("values", {"c": "3\u2066"}),
    ("values", []), ("values", "credits=3"), ("values", {"credits": {"deep": 1}}), ("values", {"c": [1, 2, 3, 4, 5]}),
    ("values", {f"f{k}": 1 for k in range(25)}), ("values", {"c": "x" * 101}), ("values", {"": 1}),
    ("values", {"c": "\udfff"}), ("values", {"c": [[1]]}),
])
def test_a_malformed_field_is_a_400_naming_it(phone, hub, field, value):
    body = _tapped({"player": "Ann", "form": "credits", "values": {"credits": 3}})
    body[field] = value
    response = phone.post("/api/report", json=body)
    assert response.status_code == 400
    answer = response.get_json()
    assert answer["field"].split(".")[0] == field
    assert len(response.get_data()) < 600  # names the field; does not echo a huge value back
    assert hub.take_actions() == []


@pytest.mark.parametrize("body", [{"id": True, "answer": "confirm"}, {"id": "5", "answer": "confirm"},
                                  {"id": -2, "answer": "confirm"}, {"id": 5, "answer": "maybe"},
                                  {"id": 5, "answer": "confirm", "choice": 3}, {"answer": "dismiss"}])
def test_camera_answers_are_checked(phone, hub, body):
    response = phone.post("/api/camera", json=_tapped(body))
    assert response.status_code == 400 and response.get_json()["field"] in ("id", "answer", "choice")
    assert hub.take_actions() == []


@pytest.mark.parametrize("status", [400, 403, 500, 503])
def test_the_loop_s_status_is_the_http_status(phone, hub, status):
    message = {400: "Credits must be a whole number from 0 to 10, got 11",
               403: "Bob's seat is claimed by another phone; the touchscreen can reassign it",
               500: "the box hit an unexpected problem",
               503: "storage full: nothing since 21:04 is saved"}
    with Answering(hub, lambda a: {"recorded": [], "message": "", "error": message[status], "status": status,
                                   "version": 12}):
        response = phone.post("/api/report",
                              json=_tapped({"player": "Bob", "form": "credits", "values": {"credits": 11}}))
    assert response.status_code == status
    assert response.get_json() == {"recorded": [], "message": "", "error": message[status], "status": status,
                                   "version": 12}


def test_409_returns_the_current_state(phone, hub):
    def stale(action):
        hub.publish({**FLOW_VIEW, "session": {**FLOW_VIEW["session"], "events": 13}})  # the loop publishes first
        return {"recorded": [], "message": "", "error": "Ann reported since: look and tap again", "status": 409,
                "version": 13}

    with Answering(hub, stale):
        response = phone.post("/api/report",
                              json=_tapped({"player": "Ann", "form": "credits", "values": {"credits": 2}}))
    assert response.status_code == 409
    answer = response.get_json()
    assert answer["version"] == 13 and answer["error"].startswith("Ann reported since")
    assert answer["state"]["session"]["events"] == 13 and answer["state"]["version"] == hub.snapshot().version


def test_a_stale_next_label_is_409_with_the_state_and_nothing_reaches_the_loop(phone, hub):
    response = phone.post("/api/action", json=_tapped({"action": "next_phase", "label": "Produce"}))
    assert response.status_code == 409
    answer = response.get_json()
    assert "Next now means 'Settle'" in answer["error"] and answer["state"]["game"]["next"]["label"] == "Settle"
    assert hub.take_actions() == []


def test_a_tap_already_answered_gets_its_first_answer_before_any_check_of_the_route(phone, hub):
    """A retry (same key) after the game moved on: its first answer, not the route's own stale-label or
    no-setup refusal; a new key is checked as before."""
    first = {"recorded": [13], "message": "Round 1: Develop", "error": None, "status": 200, "version": 13}
    hub.set_recall(lambda key, client, request: first if key == "tap-0001" else None)
    for url, body in (("/api/action", {"action": "next_phase", "label": "Produce"}), ("/api/setup", {"action": "even"}),
                      ("/api/report", {"player": "Ann", "form": "credits", "values": {"credits": 3}})):
        response = phone.post(url, json=_tapped(body))
        assert response.status_code == 200 and response.get_json()["recorded"] == [13], url
    assert hub.take_actions() == []  # nothing reached the loop: nothing done twice
    stale = phone.post("/api/action", json=_tapped({"action": "next_phase", "label": "Produce"}, key="tap-0002"))
    assert stale.status_code == 409


def test_setup_when_no_game_is_set_up_is_409_with_the_state(phone, hub):
    response = phone.post("/api/setup", json=_tapped({"action": "even"}))
    assert response.status_code == 409 and "no game is being set up" in response.get_json()["error"]
    assert response.get_json()["state"]["game"]["flow"] == "roll"


def test_an_answer_without_status_maps_error_to_400(phone, hub):
    with Answering(hub, lambda a: {"recorded": [], "message": "", "error": "no such form"}):
        assert phone.post("/api/report", json=_tapped({"player": "Ann", "form": "x", "values": {}})).status_code == 400
    with Answering(hub, lambda a: {"recorded": [9], "message": "ok", "error": None}):
        assert phone.post("/api/report", json=_tapped({"player": "Ann", "form": "x", "values": {}})).status_code == 200


def test_nobody_takes_it_in_time_is_503_and_cancelled(hub):
    hub.publish(FLOW_VIEW)
    hub.set_pairing(Pairing("g1", SECRET, {}))
    app = create_app(hub, reply_s=0.05)
    client = app.test_client()
    client.get(f"/join/{SECRET}")
    response = client.post("/api/report/undo", json=_tapped({"player": "Ann"}))
    assert response.status_code == 503 and response.get_json()["error"] == BUSY
    (left,) = hub.take_actions()
    assert not hub.begin(left)  # the loop would drop it: never done later


def test_an_unexpected_exception_is_a_short_500_and_a_logged_traceback(phone, hub, caplog, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyError("inside the box")

    monkeypatch.setattr(hub, "request", broken)
    with caplog.at_level(logging.ERROR, logger="companion.web"):
        response = phone.post("/api/report/undo", json=_tapped({"player": "Ann"}))
    assert response.status_code == 500
    answer = response.get_json()
    assert "KeyError" in answer["error"] and "Traceback" not in response.get_data(as_text=True)
    assert len(response.get_data()) < 300
    assert any(r.exc_info and "inside the box" in str(r.exc_info[1]) for r in caplog.records)
    assert phone.get("/api/state").status_code == 200  # the phone view goes on


def test_unknown_routes_and_methods_are_json(phone):
    missing = phone.get("/no/such/page")
    assert missing.status_code == 404 and "no such page" in missing.get_json()["error"]
    wrong = phone.get("/api/report")
    assert wrong.status_code == 405 and "POST" in wrong.headers["Allow"] and wrong.get_json()["error"]


@pytest.mark.parametrize("raw", [b"", b"null", b"[]", b"3", b'"x"', b"{", b"\xff\xfe{}", b"{" * 5000,
                                 b'{"version": ' + b"9" * 5000 + b"}", b'{"player": "\\ud800"}',
                                 b'{"player": "Ann", "player": "Bob"}'])
@pytest.mark.parametrize("url",
                         ["/api/report", "/api/report/undo", "/api/seat", "/api/setup", "/api/camera", "/api/action"])
def test_hostile_bodies_are_400s_never_tracebacks(phone, hub, url, raw):
    response = phone.post(url, data=raw, content_type="application/json")
    assert response.status_code in (400, 409), (url, raw[:20], response.get_data()[:200])
    assert json.loads(response.get_data())["error"]
    assert hub.take_actions() == []


@pytest.mark.parametrize(("what", "example"), [
    ("resume", '{"action": "resume", "session": "20261203-221149-c1a2b2", "version": 0, "key": "k1"}'),
    ("choose", '{"action": "choose", "game": "roll", "version": 0, "key": "k1"}'),
])
def test_a_box_request_missing_its_field_shows_an_example_of_that_action(phone, hub, what, example):
    """A "resume" without its "session" was shown the example of "choose" ({"action": "choose", "game": "roll"}):
    following it chose a new game instead of going back to the one left open."""
    response = phone.post("/api/box", json=_tapped({"action": what}))
    assert response.status_code == 400 and response.get_json()["field"] == ("session" if what == "resume" else "game")
    assert response.get_json()["error"].endswith(example), response.get_json()["error"]
    assert hub.take_actions() == []
