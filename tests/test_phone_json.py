"""The phone view's JSON as bytes on the wire (``companion.webstream.json_text``, Flask's ``app.json``): letters are
sent as UTF-8, not ``\\uXXXX`` escapes, and an answer holding a lone surrogate anywhere (which UTF-8 cannot carry) is
sent escaped instead, whole: every answer is valid UTF-8 and valid JSON a phone parses."""

from __future__ import annotations

import json

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
