"""The phone view's JSON as bytes on the wire (``companion.webstream.json_text``, Flask's ``app.json``): letters are
sent as UTF-8, not ``\\uXXXX`` escapes, and an answer holding a lone surrogate anywhere (which UTF-8 cannot carry) is
sent escaped instead, whole: every answer is valid UTF-8 and valid JSON a phone parses."""

from __future__ import annotations

import json

import pytest

from companion import webstream
from companion.hub import StateHub
from tests.phones import joined_phone

NAMES = ["Νίκος", "Ελένη", "Kasia", "Ádám"]


def _view(note: str) -> dict:
    return {"mode": "play", "game": {"players": [{"name": n, "vp": k} for k, n in enumerate(NAMES)], "note": note},
            "session": {"id": "s1", "game": "among", "events": 3}}


def test_greek_is_sent_as_utf8_and_is_a_third_of_its_escaped_size():
    """"Νίκος" is 10 bytes in UTF-8 against 30 escaped ("\\u039d\\u03af…"): the state carries the letters as they
    are, and parses back to the same view."""
    hub = StateHub()
    hub.publish(_view("Έτος 1 από 4, γύρος 2 από 6"))
    phone = joined_phone(hub)
    answer = phone.client.get("/api/state", headers={"Accept-Language": "el"})
    body = answer.get_data()
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert "Νίκος".encode() in body and b"\\u039d" not in body
    said = json.loads(body.decode("utf-8"))
    assert [p["name"] for p in said["game"]["players"]] == NAMES and said["game"]["note"].startswith("Έτος")
    escaped = json.dumps(said, ensure_ascii=True, sort_keys=True).encode()
    assert len(body) < len(escaped) * 0.75, (len(body), len(escaped))
    event = webstream._sse_state(hub.snapshot(), "el")
    assert "Νίκος" in event and json.loads(event.split("data: ", 1)[1]) == said


def test_a_lone_surrogate_anywhere_in_the_state_sends_it_escaped_and_valid():
    """A text holding "\\ud800" alone (no entry point takes one: a phone's text is refused, the session store refuses
    it; a view made another way still must not stop an answer): /api/state and the event stream send the whole state
    escaped, as valid UTF-8 and JSON that gives the same texts back, the surrogate as its escape."""
    hub = StateHub()
    hub.publish(_view("a\ud800b"))
    phone = joined_phone(hub)
    answer = phone.client.get("/api/state", headers={"Accept-Language": "el"})
    assert answer.status_code == 200
    body = answer.get_data().decode("utf-8")  # strict: valid UTF-8
    assert body.isascii() and "\\ud800" in body
    said = json.loads(body)
    assert said["game"]["note"] == "a\ud800b" and [p["name"] for p in said["game"]["players"]] == NAMES
    event = webstream._sse_state(hub.snapshot(), "el")
    event.encode("utf-8")  # the stream's bytes: no UnicodeEncodeError
    assert json.loads(event.split("data: ", 1)[1])["game"]["note"] == "a\ud800b"
    assert webstream.json_text({"k": "\udfff", "n": "Νίκος"}) == ('{"k": "\\udfff", '
                                                                   '"n": "\\u039d\\u03af\\u03ba\\u03bf\\u03c2"}')


def test_a_phones_lone_surrogate_is_refused_in_an_answer_that_is_valid_utf8():
    """A report naming a player "\\ud800" is refused naming the field (400), nothing is recorded, and the refusal,
    which may quote what was sent, is valid UTF-8 and JSON."""
    hub = StateHub()
    hub.publish(_view(""))
    phone = joined_phone(hub)
    answer = phone.post("/api/report", json={"player": "\ud800", "form": "vp", "values": {"vp": 2}})
    assert answer.status_code == 400
    refusal = json.loads(answer.get_data().decode("utf-8"))
    assert refusal["field"] == "player" and refusal["error"]
    assert hub.take_actions() == []


def _strict(text: str):
    """``text`` parsed as a phone's ``JSON.parse`` parses it: ``NaN``, ``Infinity`` and ``-Infinity`` are no JSON."""
    def refuse(word):
        raise ValueError(f"{word} is not JSON")
    return json.loads(text, parse_constant=refuse)


def test_a_float_that_is_not_finite_anywhere_is_sent_as_null_and_logged_once_where_it_was(caplog, monkeypatch):
    """NaN, inf and -inf nested in dicts and lists (json.dumps wrote NaN, Infinity and -Infinity, which a phone's
    JSON.parse refuses, so the phone kept an old state): sent as null, the rest as it was, beside a lone surrogate
    too; each place is logged once, however often the state is sent."""
    nan, inf = float("nan"), float("inf")
    view = _view("a\ud800b")
    view["game"]["players"][2]["vp"] = nan
    view["game"]["scores"] = [[1.5, inf], {"mean": -inf, "rows": [{"x": nan}]}, (2, -inf)]
    caplog.set_level("WARNING", logger="companion.webstream")
    monkeypatch.setattr(webstream, "_LOGGED_PLACES", set())  # none logged yet in this process
    for _ in range(3):
        text = webstream.json_text(view, sort_keys=True)
    assert text.isascii() and "\\ud800" in text  # the surrogate's escapes, as before
    said = _strict(text)
    assert said["game"]["players"][2] == {"name": "Kasia", "vp": None}
    assert said["game"]["scores"] == [[1.5, None], {"mean": None, "rows": [{"x": None}]}, [2, None]]
    assert said["game"]["note"] == "a\ud800b" and [p["name"] for p in said["game"]["players"]] == NAMES
    places = [r.getMessage() for r in caplog.records if "sent as null" in r.getMessage()]
    assert len(places) == 5, places  # five places, each logged once over three answers
    assert any("nan at $.game.players[2].vp" in p for p in places)
    assert any("-inf at $.game.scores[1].mean" in p for p in places)
    assert view["game"]["players"][2]["vp"] != view["game"]["players"][2]["vp"]  # the view itself is left as it was
    assert _strict(webstream.json_text({"Νίκος": [nan]})) == {"Νίκος": [None]}  # letters as UTF-8 still
    assert webstream.json_text({"Νίκος": [nan]}) == '{"Νίκος": [null]}'


def test_the_phone_gets_a_state_holding_nan_as_valid_json():
    """Through /api/state and the event stream: the NaN a view holds reaches the phone as null."""
    hub = StateHub()
    view = _view("Έτος 1")
    view["game"]["players"][0]["vp"] = float("nan")
    view["game"]["ratio"] = [float("-inf"), {"k": float("inf")}]
    hub.publish(view)
    phone = joined_phone(hub)
    answer = phone.client.get("/api/state", headers={"Accept-Language": "el"})
    assert answer.status_code == 200
    said = _strict(answer.get_data().decode("utf-8"))
    assert said["game"]["players"][0]["vp"] is None and said["game"]["ratio"] == [None, {"k": None}]
    assert "Νίκος".encode() in answer.get_data()
    event = webstream._sse_state(hub.snapshot(), "el")
    assert _strict(event.split("data: ", 1)[1])["game"]["ratio"] == [None, {"k": None}]


def test_other_json_errors_are_not_hidden():
    """Only a non-finite float is put right: a loop in the value is still an error, as json.dumps says it."""
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        webstream.json_text(loop)
