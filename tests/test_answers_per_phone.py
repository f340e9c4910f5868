"""A retry key (idempotency key) is the phone's own: two phones that send the same key are two taps, each worked out
and answered on its own; each phone's retry still gets its own first answer, also after a restart
(:mod:`companion.desk`, step 2; :func:`companion.desk.answer_key`)."""

from __future__ import annotations

import numpy as np

from companion.app import MainLoop
from companion.desk import answer_key
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from device import FakeCamera
from tests.phones import joined_phone, post_through_loop
from tests.test_desk import act
from vision.motion import StillnessDetector


def _race(store) -> GameFlow:
    session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    return GameFlow(session, FLOWS["race"])


def _box(flow: GameFlow, hub: StateHub | None = None) -> MainLoop:
    frames = [np.full((60, 80, 3), 90, np.uint8)] * 40
    return MainLoop(source=FakeCamera(frames), reader=None, session=flow.session, hub=hub or StateHub(),
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None)


def _phone_in(store, lang: str):
    """A Race table's box publishing to a hub, and Ann's phone joined to it in ``lang``: (flow, hub, loop, phone)."""
    flow = _race(store)
    hub = StateHub()
    loop = _box(flow, hub)
    loop.publish()
    phone = joined_phone(hub, reply_s=10.0)
    phone.set_cookie("lang", lang)
    return flow, hub, loop, phone

def test_two_phones_with_the_same_key_are_two_taps_and_each_retry_gets_its_own_answer(store):
    flow = _race(store)
    loop = _box(flow)
    ann = act(loop, "report", player="Ann", form="hand", values={"cards": 3}, key="k1", version=0,
              client="phone-ann")
    bob = act(loop, "report", player="Bob", form="hand", values={"cards": 5}, key="k1", version=0,
              client="phone-bob")
    assert ann["status"] == 200 and ann["recorded"] == [1]
    assert bob["status"] == 200 and bob["recorded"] == [2]  # not Ann's stored answer
    assert [(e.payload["player"], e.payload["cards"]) for e in flow.session.events()] == [("Ann", 3), ("Bob", 5)]
    # each phone's retry: its own first answer, nothing recorded twice; also after a restart
    for restarted in (loop, _box(GameFlow(store.get(flow.session.id), FLOWS["race"]))):
        again = act(restarted, "report", player="Bob", form="hand", values={"cards": 5}, key="k1", version=0,
                    client="phone-bob")
        assert again["recorded"] == [2] and again["status"] == 200
        again = act(restarted, "report", player="Ann", form="hand", values={"cards": 3}, key="k1", version=0,
                    client="phone-ann")
        assert again["recorded"] == [1] and again["status"] == 200
    assert flow.session.last_seq == 2


def test_the_phone_view_does_not_hand_one_phones_answer_to_another(store):
    """Through the phone view and the real loop: the view's early look-up of a retried key (before any check of the
    route's own) is scoped by the phone too."""
    flow = _race(store)
    hub = StateHub()
    loop = _box(flow, hub)
    loop.publish()
    ann, bob = joined_phone(hub, reply_s=10.0), joined_phone(hub, reply_s=10.0)
    body = {"form": "hand", "values": {"cards": 2}, "version": 0, "key": "same-key-1"}
    first = post_through_loop(ann, loop, "/api/report", {**body, "player": "Ann"})
    assert first.status_code == 200 and first.get_json()["recorded"] == [1]
    second = post_through_loop(bob, loop, "/api/report", {**body, "player": "Bob", "values": {"cards": 4}})
    assert second.status_code == 200 and second.get_json()["recorded"] == [2]
    assert [(e.payload["player"], e.payload["cards"]) for e in flow.session.events()] == [("Ann", 2), ("Bob", 4)]
    retried = post_through_loop(ann, loop, "/api/report", {**body, "player": "Ann"})
    assert retried.status_code == 200 and retried.get_json()["recorded"] == [1] and flow.session.last_seq == 2


def test_an_answer_is_kept_under_the_phones_own_name():
    assert answer_key("k1", "phone-ann") != answer_key("k1", "phone-bob")
    assert answer_key("k1") == "k1" == answer_key("k1", None)  # the touchscreen, the button, the terminal


def test_a_retried_tap_is_answered_in_the_phones_language_also_after_a_restart(store):
    """A phone whose answer was lost sends its tap again with the same key and gets its first answer again (nothing
    recorded twice): said in the phone's language as the first time, not in English ("Ádám: Cards in hand recorded"
    reached a Hungarian phone), whether the box kept running or restarted in between."""
    flow, hub, loop, ann = _phone_in(store, "hu")
    body = {"player": "Ann", "form": "hand", "values": {"cards": 2}, "version": 0, "key": "lost-answer-1"}
    first = post_through_loop(ann, loop, "/api/report", body).get_json()
    assert first["recorded"] == [1]
    assert first["message"] == "rögzítve: Ann: Kártyák a kézben"  # hu "{what} recorded", "Cards in hand"
    restarted = _box(GameFlow(store.get(flow.session.id), FLOWS["race"]), hub)
    for box in (loop, restarted):
        again = post_through_loop(ann, box, "/api/report", body).get_json()
        assert again["recorded"] == [1] and again["message"] == first["message"]
    assert flow.session.last_seq == 1


def test_an_answer_kept_as_plain_words_or_damaged_still_answers_the_retry(store):
    """An answer kept by an older box (its message plain English) is given again as it was; one whose words are
    damaged is given without them, never a crash: the retry still learns what was recorded."""
    from companion import records

    _race(store)  # a game on the box: its tables are there
    with store.transaction(write=True, doing="test"):
        records.save_answer(store, "old-box", None, {"recorded": [3], "message": "Ann: Cards in hand recorded",
                                                     "error": None, "status": 200, "version": 3})
    with store.transaction(write=True, doing="test") as conn:
        conn.execute("INSERT INTO answers (key, game, answer, at) VALUES (?, ?, ?, ?)",
                     ("damaged", None, '{"recorded":[4],"message":{"text":7},"error":null,"status":200}', 0.0))
    assert records.answer(store, "old-box")["message"] == "Ann: Cards in hand recorded"
    damaged = records.answer(store, "damaged")
    assert damaged["recorded"] == [4] and damaged["message"] is None and damaged["status"] == 200


REUSED = "this tap's key was already used for another report; nothing recorded"


def test_a_key_sent_again_with_another_report_is_refused_also_after_a_restart(store):
    """The desk's own look-up: Ann's phone reports 3 cards with key k1, then sends k1 with 5 cards. That is not a
    retry of the first tap: 409, nothing recorded, never the first answer's 200 (the phone would show 5 cards as
    recorded); the same report sent again still gets its first answer, before and after a restart."""
    flow = _race(store)
    loop = _box(flow)
    first = act(loop, "report", player="Ann", form="hand", values={"cards": 3}, key="k1", version=0,
                client="phone-ann")
    assert first["status"] == 200 and first["recorded"] == [1]
    for box in (loop, _box(GameFlow(store.get(flow.session.id), FLOWS["race"]))):
        other = act(box, "report", player="Ann", form="hand", values={"cards": 5}, key="k1", version=0,
                    client="phone-ann")
        assert other["status"] == 409 and other["recorded"] == [] and str(other["error"]) == REUSED
        again = act(box, "report", player="Ann", form="hand", values={"cards": 3}, key="k1", version=0,
                    client="phone-ann")
        assert again["status"] == 200 and again["recorded"] == [1]
    assert [(e.payload["player"], e.payload["cards"]) for e in flow.session.events()] == [("Ann", 3)]


def test_the_phone_view_refuses_a_reused_key_before_its_own_checks_in_the_phones_language(store):
    """The phone view's early look-up: a key already answered, sent with another body (even to another route, whose
    own check would refuse it otherwise: a Next label the table does not show), is the reused-key 409 in the phone's
    language; after a restart too; the tap sent again unchanged still gets its first answer."""
    flow, hub, loop, ann = _phone_in(store, "pl")
    body = {"player": "Ann", "form": "hand", "values": {"cards": 2}, "version": 0, "key": "tap-reused-1"}
    assert post_through_loop(ann, loop, "/api/report", body).get_json()["recorded"] == [1]
    restarted = _box(GameFlow(store.get(flow.session.id), FLOWS["race"]), hub)
    for box in (loop, restarted):
        for url, other in (("/api/report", {**body, "values": {"cards": 4}}),
                           ("/api/report", {**body, "version": 1}),
                           ("/api/action", {"action": "next_phase", "label": "Nowhere", "version": 0,
                                            "key": "tap-reused-1"})):
            refused = post_through_loop(ann, box, url, other)
            assert refused.status_code == 409, (url, other)
            assert refused.get_json()["error"] == ("klucz tego dotknięcia został już użyty do innego zgłoszenia; "
                                                   "nic nie zostało zapisane")
        again = post_through_loop(ann, box, "/api/report", body)
        assert again.status_code == 200 and again.get_json()["recorded"] == [1]
    assert flow.session.last_seq == 1


def test_an_answer_kept_without_a_fingerprint_is_given_again_to_any_body(store):
    """An answer kept by an older box has no fingerprint: a tap with its key gets it again as before (200), whatever
    the body, since nothing tells the two bodies apart."""
    from companion import records

    flow = _race(store)
    loop = _box(flow)
    with store.transaction(write=True, doing="test"):
        records.save_answer(store, answer_key("old-key", "phone-ann"), flow.session.id,
                            {"recorded": [7], "message": "Ann: Cards in hand recorded", "error": None, "status": 200,
                             "version": 7})
    again = act(loop, "report", player="Ann", form="hand", values={"cards": 5}, key="old-key", version=0,
                client="phone-ann")
    assert again["status"] == 200 and again["recorded"] == [7]
    assert flow.session.last_seq == 0


def test_a_fingerprint_is_of_the_canonical_body():
    """Key order and spacing do not change a request's fingerprint; any value does (a hand-worked SHA-256 of
    '{"a":1}')."""
    from companion import records

    assert records.fingerprint({"a": 1}) == "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862"
    assert records.fingerprint({"b": [1, 2], "a": {"y": 1, "x": "é"}}) == records.fingerprint(
        {"a": {"x": "é", "y": 1}, "b": [1, 2]})
    assert records.fingerprint({"a": 1}) != records.fingerprint({"a": 2})
