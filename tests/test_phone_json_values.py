"""Values JSON cannot carry as they are, anywhere in a phone's state or answer: a whole number longer than Python
writes (``10**5000``), a set, bytes, nesting about 900 deep and deeper, keys of no JSON kind. Each reaches the phone
as valid JSON through ``/api/state``, the event stream and the exports, logged once with where it was; a value the
box cannot write at all (one holding itself) is one clear error for that message, and the live view goes on."""

from __future__ import annotations

import json
import math
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import i18n, webstream
from companion.hub import StateHub
from tests.phones import joined_phone


def _strict(text: str):
    """``text`` parsed as a phone's ``JSON.parse`` parses it: ``NaN``, ``Infinity`` and ``-Infinity`` are no JSON."""
    def refuse(word):
        raise ValueError(f"{word} is not JSON")
    return json.loads(text, parse_constant=refuse)


def _nested(depth: int, inner=7):
    value = inner
    for _ in range(depth):
        value = [value]
    return value


def _depth(value) -> int:
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    return depth


def _view(odd) -> dict:
    return {"mode": "play", "game": {"players": [{"name": "Νίκος", "vp": 3}, {"name": "Kasia", "vp": odd}]},
            "session": {"id": "s1", "game": "roll", "events": 3}}


def _sse_states(hub: StateHub, count: int, me=None) -> list[str]:
    """The first ``count`` events after the stream's ``retry:`` hint (heartbeats left out)."""
    stop = threading.Event()
    stream = webstream.sse_stream(hub, heartbeat_s=60, stop=stop, me=me, lang="el")
    assert next(stream).startswith("retry:")
    out = []
    for text in stream:
        out.append(text)
        if len(out) == count:
            break
    stop.set()
    return out


def _data(event: str):
    return _strict(event.split("data: ", 1)[1])


ODD = {
    "a whole number of 5001 digits": (10**5000, None),
    "a set": ({3, 1, 2}, [1, 2, 3]),
    "a frozenset": (frozenset({"b", "a"}), ["a", "b"]),
    "bytes": (b"Kasia \xff", "Kasia \ufffd"),
    "a complex number": (1j, None),
    "an object": (object(), None),
    "a tuple key": ({(1, 2): 5}, {"(1, 2)": 5}),
    "a huge whole-number key": ({10**5000: 5}, {"null": 5}),
}
"""What the phone gets for each: each is logged."""


@pytest.mark.parametrize("name", list(ODD))
def test_a_value_json_cannot_carry_reaches_the_phone_as_valid_json_logged_once_where_it_was(name, caplog,
                                                                                             monkeypatch):
    """Before: /api/state answered 500 and the event stream raised (ending every phone's live view). Now /api/state
    answers 200 and the stream's first state is the same valid JSON; the odd value is sent as its nearest JSON (a
    set as a sorted list, bytes as text, a number too long to write as null) and logged once, naming
    ``$.game.players[1].vp``, however often it is sent."""
    odd, sent = ODD[name]
    monkeypatch.setattr(webstream, "_LOGGED_PLACES", set())
    caplog.set_level("WARNING", logger="companion.webstream")
    hub = StateHub()
    hub.publish(_view(odd))
    phone = joined_phone(hub)
    for _ in range(2):
        answer = phone.client.get("/api/state", headers={"Accept-Language": "el"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
        said = _strict(answer.get_data().decode("utf-8"))
        assert said["game"]["players"][1] == {"name": "Kasia", "vp": sent}
        assert said["game"]["players"][0] == {"name": "Νίκος", "vp": 3} and said["version"] == 1
    [event] = _sse_states(hub, 1)
    assert event.startswith("id: 1\nevent: state\n") and _data(event) == said
    logged = [r.getMessage() for r in caplog.records if " held " in r.getMessage()]
    assert len(logged) == 1 and "$.game.players[1].vp" in logged[0], logged


def test_keys_of_mixed_kinds_are_sent_sorted_as_json_writes_them(caplog):
    """A dict with whole-number, text and None keys (each a JSON key) in a state sent with sorted keys (Flask's
    default): before, a TypeError ('<' between int and str) and a 500; now the keys as JSON writes them, sorted, and
    nothing logged (nothing was changed)."""
    caplog.set_level("WARNING", logger="companion.webstream")
    hub = StateHub()
    hub.publish(_view({1: "a", "b": 2, None: 3}))
    answer = joined_phone(hub).client.get("/api/state")
    assert answer.status_code == 200
    assert _strict(answer.get_data(as_text=True))["game"]["players"][1]["vp"] == {"1": "a", "b": 2, "null": 3}
    assert '"vp":{"1":"a","b":2,"null":3}' in answer.get_data(as_text=True)
    assert not [r for r in caplog.records if " held " in r.getMessage()]


@pytest.mark.parametrize("depth", [900, 5000])
def test_nesting_hundreds_deep_reaches_the_phone_as_valid_json(depth, caplog, monkeypatch):
    """A list nested 900 deep (Python's own stack depth is 1000) and 5000 deep: before, a RecursionError and a 500.
    Now valid JSON: the first 200 levels as they were, anything deeper as null, logged once."""
    monkeypatch.setattr(webstream, "_LOGGED_PLACES", set())
    caplog.set_level("WARNING", logger="companion.webstream")
    hub = StateHub()
    hub.publish(_view(_nested(depth)))
    phone = joined_phone(hub)
    answer = phone.client.get("/api/state")
    assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
    vp = _strict(answer.get_data(as_text=True))["game"]["players"][1]["vp"]
    assert webstream.MAX_DEPTH - 10 <= _depth(vp) <= depth
    [event] = _sse_states(hub, 1)
    assert _depth(_data(event)["game"]["players"][1]["vp"]) == _depth(vp)
    logged = [r.getMessage() for r in caplog.records if "nesting deeper" in r.getMessage()]
    assert len(logged) <= 1 and all("$.game.players[1].vp[0]" in m for m in logged)


def test_a_state_that_cannot_be_written_is_one_clear_error_and_the_stream_goes_on(caplog):
    """A state holding itself (no JSON can say it): /api/state answers 500 saying so in the phone's language, the
    event stream sends ``event: problem`` for that version instead of ending, and the next state arrives as
    usual."""
    caplog.set_level("ERROR")
    loop: list = []
    loop.append(loop)
    hub = StateHub()
    hub.publish(_view(loop))
    phone = joined_phone(hub)
    answer = phone.client.get("/api/state", headers={"Accept-Language": "pl"})
    assert answer.status_code == 500
    error = _strict(answer.get_data(as_text=True))["error"]
    assert "ValueError" in error and "stanu gry" in error, error

    stop = threading.Event()
    stream = webstream.sse_stream(hub, heartbeat_s=60, stop=stop, lang="hu")
    assert next(stream).startswith("retry:")
    problem = next(stream)
    assert problem.startswith("event: problem\n")
    body = _data(problem)
    assert body["version"] == 1 and "ValueError" in body["error"] and "állapotát" in body["error"]
    hub.publish(_view(4))
    state = next(stream)
    stop.set()
    assert state.startswith("id: 2\nevent: state\n") and _data(state)["game"]["players"][1]["vp"] == 4
    assert any("state version 1 could not be sent: Circular reference" in r.getMessage() for r in caplog.records)
    with pytest.raises(ValueError, match=r"Circular reference at \$\.game\.players\[1\]\.vp"):
        webstream.json_text(_view(loop))  # said where, for a value not said in a language first


def test_a_phones_me_that_fails_is_said_once_and_the_stream_goes_on():
    """``me`` raising (what this phone may do could not be worked out): one ``event: problem``, not one every half
    second, then the states go on."""
    calls = []

    def me():
        calls.append(1)
        if len(calls) < 4:
            raise KeyError("seats")
        return {"joined": True}

    hub = StateHub()
    hub.publish(_view(1))
    stop = threading.Event()
    stream = webstream.sse_stream(hub, heartbeat_s=60, stop=stop, me=me, lang="el")
    assert next(stream).startswith("retry:")
    assert next(stream).startswith("id: 1\nevent: state")
    problem = next(stream)
    assert problem.startswith("event: problem\n")
    # it was this phone's seats that could not be sent, not the game's state; a sentence of its own, with a capital
    said = _data(problem)["error"]
    assert said.startswith("Το κουτί δεν μπόρεσε να στείλει τις θέσεις αυτού του τηλεφώνου (KeyError)"), said
    hub.publish(_view(2))
    assert next(stream).startswith("id: 2\nevent: state")
    later = next(stream)
    stop.set()
    assert later.startswith("event: me\n") and _data(later) == {"joined": True}


def test_other_values_are_left_as_they_were():
    """The view given is not changed by sending it, and an ordinary state is the text ``json.dumps`` writes."""
    view = _view({2, 1})
    webstream.json_text(view)
    assert view["game"]["players"][1]["vp"] == {1, 2}
    plain = _view(5)
    assert webstream.json_text(plain, sort_keys=True) == json.dumps(plain, ensure_ascii=False, sort_keys=True)


def _huge(sign: int, digits: int) -> int:
    """A whole number of ``digits`` digits (more than 4300: one Python refuses to write)."""
    return sign * 10**digits


_ODD_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(), st.binary(max_size=8),
    st.builds(_huge, st.sampled_from([1, -1]), st.sampled_from([4299, 4400, 5000])),
    st.complex_numbers(max_magnitude=10), st.just(object()),
    st.frozensets(st.integers(), max_size=3),
)
_KEYS = st.one_of(st.text(max_size=8), st.integers(), st.floats(), st.booleans(), st.none(),
                  st.builds(_huge, st.just(1), st.just(5000)), st.tuples(st.integers()), st.binary(max_size=4))
_VALUES = st.recursive(
    _ODD_LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.tuples(inner, inner),
                            st.dictionaries(_KEYS, inner, max_size=4),
                            st.sets(st.one_of(st.integers(), st.text(max_size=3)), max_size=3),
                            st.builds(_nested, st.sampled_from([250, 900, 3000]), inner)),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_VALUES, sort_keys=st.booleans())
def test_any_json_like_value_gives_valid_json_and_no_exception(value, sort_keys):
    """Whatever mix of numbers (NaN, infinities, 10**5000), texts, bytes, sets, tuples, odd keys and deep nesting a
    state holds: the encoder writes text a strict JSON reader takes, and raises nothing."""
    text = webstream.json_text({"game": value}, sort_keys=sort_keys, separators=(",", ":"))
    said = _strict(text)
    assert set(said) == {"game"}
    text.encode("utf-8")
    if isinstance(value, float) and not math.isfinite(value):
        assert said["game"] is None


@pytest.mark.parametrize("lang, state, seats", [
    ("en", "The box could not send the game's state", "The box could not send this phone's seats"),
    ("el", "Το κουτί δεν μπόρεσε να στείλει την κατάσταση του παιχνιδιού",
     "Το κουτί δεν μπόρεσε να στείλει τις θέσεις αυτού του τηλεφώνου"),
    ("pl", "Pudełko nie mogło wysłać stanu gry", "Pudełko nie mogło wysłać miejsc tego telefonu"),
    ("hu", "A doboz nem tudta elküldeni a játék állapotát", "A doboz nem tudta elküldeni ennek a telefonnak a helyeit"),
])
def test_what_could_not_be_sent_is_named_in_a_sentence_of_its_own(lang, state, seats):
    """The game's state and this phone's seats are two things a phone is told of apart, each a sentence starting
    with a capital (the pill shows it alone)."""
    assert i18n.localize(webstream.unsent(ValueError(), "state"), lang).startswith(state + " (ValueError)")
    assert i18n.localize(webstream.unsent(ValueError(), "me"), lang).startswith(seats + " (ValueError)")
