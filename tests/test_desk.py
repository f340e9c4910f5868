"""companion.desk through the main loop: every action is checked, allowed, applied once and answered;
nothing a phone sends stops the box (bad input is 400 naming the field, a bug is 500 and the box goes on),
stale taps are 409, a repeated key gets its first answer. Who may act (a phone only for its own seat):
``tests/test_desk_authority.py``."""

from __future__ import annotations

import logging
import threading

import numpy as np
import pytest

from companion.app import MainLoop
from companion.errors import shown
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import ANSWER_KEYS, StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from tests.phones import post_through_loop
from vision.motion import StillnessDetector

ANN_PHONE, BOB_PHONE = "client-ann-1", "client-bob-2"


def race(store, players="Ann,Bob") -> GameFlow:
    session = store.start("race", FLOWS["race"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["race"])


def box(flow: GameFlow, hub: StateHub | None = None, **kw) -> MainLoop:
    frames = [np.full((60, 80, 3), 90, np.uint8)] * 40
    return MainLoop(source=FakeCamera(frames), reader=None, session=flow.session, hub=hub or StateHub(),
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None, **kw)


def act(loop: MainLoop, name: str, origin: str = "phone", /, **payload) -> dict:
    """Post ``name`` as a view does (hub.request from another thread) while this thread plays the loop."""
    answer: list = []
    seen: list = []

    def phone() -> None:
        answer.append(loop.hub.request(name, origin, 30.0, **payload))
        seen.append(loop.hub.snapshot().view)  # what a GET /api/state right after the answer shows

    thread = threading.Thread(target=phone)
    thread.start()
    while thread.is_alive():
        loop.take_actions()
        thread.join(0.002)
    assert answer[0] is not None and set(answer[0]) == set(ANSWER_KEYS)
    answer[0]["_view"] = seen[0]
    return answer[0]


# -- bad input: 400 naming the field, never a crash ------------------------------------------------------


@pytest.mark.parametrize("given", ["+-3", "\u00b2", "\u2460", "\u0663", "1" * 5000, 10 ** 5000, "3.0", True, [4], None],
                         ids=shown)
def test_a_bad_whole_number_is_400_naming_the_field(store, given):
    loop = box(race(store))
    answer = act(loop, "report", player="Ann", form="hand", values={"cards": given})
    assert answer["status"] == 400 and answer["recorded"] == []
    assert answer["error"].startswith("Cards ") and "Cards in hand" not in answer["error"]  # one field: named once
    assert len(answer["error"]) < 200  # a 5,000-digit number is not echoed back
    assert loop.session.last_seq == 0
    # the box goes on: the next good report is recorded
    assert act(loop, "report", player="Ann", form="hand", values={"cards": " +4 "})["status"] == 200


def test_a_json_true_or_null_is_quoted_as_the_phone_sent_it(store):
    loop = box(race(store))
    for given, spelt in ((True, "got true"), (False, "got false")):
        answer = act(loop, "report", player="Ann", form="hand", values={"cards": given})
        assert answer["status"] == 400 and spelt in answer["error"] and "True" not in answer["error"]


def test_whole_numbers_in_the_spelling_a_phone_sends_are_read():
    from companion.flow_spec import whole_number

    assert [whole_number(v, "n") for v in (3, "3", " -2 ", "+4", "007")] == [3, 3, -2, 4, 7]


@pytest.mark.parametrize("values", [
    {"cards": 4, "extra": 1},                      # an unknown field
    {"cards": "\ud800"},                          # a lone surrogate
    {"\ud800": 1},
    {"cards": list(range(5000))},                  # a huge list
    {"cards": {"nested": [[[[]]]]}},
], ids=shown)
def test_other_bad_report_values_are_400(store, values):
    loop = box(race(store))
    answer = act(loop, "report", player="Ann", form="hand", values=values)
    assert answer["status"] == 400 and "Cards" in answer["error"] and len(answer["error"]) < 200


@pytest.mark.parametrize("sent", ["\ud800", "4\ud800", "1\x00", "7" * 150], ids=shown)
def test_text_that_is_no_text_in_a_number_field_is_told_the_field_takes_a_number(store, sent):
    """A lone surrogate ("\ud800") sent for Cards in hand was told "'values.cards' must be text of up to 100
    characters": the field takes a whole number, and the answer says so by the field's label, as the form's own check
    does (the form asks that field alone: its label is not said again); in a field of names the character is named.
    Nothing is recorded."""
    from tests.phones import joined_phone, post_through_loop

    loop = box(race(store))
    loop.publish()
    phone = joined_phone(loop.hub)
    answer = post_through_loop(phone, loop, "/api/report", {"player": "Ann", "form": "hand", "values": {"cards": sent}})
    said = answer.get_json()["error"]
    assert answer.status_code == 400 and said.startswith("Cards must be a whole number from 0 to 40, "
                                                         "got "), said  # the form's range, as the phone shows it
    assert "text" not in said and answer.get_json()["field"] == "values.cards"
    answer = post_through_loop(phone, loop, "/api/report", {"player": "Ann", "form": "start", "values": {"card": sent}})
    said = answer.get_json()["error"]
    assert answer.status_code == 400 and (" holds U+" in said or "up to 100" in said), said
    assert loop.flow.session.last_seq == 0


@pytest.mark.parametrize("payload, says", [
    ({"player": "\ud800", "form": "hand", "values": {"cards": 1}}, "unknown player"),
    ({"player": 10 ** 5000, "form": "hand", "values": {"cards": 1}}, "unknown player"),
    ({"player": "Ann", "form": ["hand"] * 1000, "values": {}}, "unknown report"),
    ({"player": "Ann", "form": "start", "values": {"card": "\ud800" * 3000}}, "Start world: unknown"),
    ({"player": "Ann", "form": "start", "values": {"card": ["x"] * 9999}}, "must be one of the listed names"),
    ({"player": "Ann", "form": "hand", "values": "4"}, "'values' must be an object"),
], ids=shown)
def test_names_choices_and_shapes_a_phone_cannot_send(store, payload, says):
    answer = act(box(race(store)), "report", **payload)
    assert answer["status"] == 400 and says in answer["error"] and len(answer["error"]) < 300


# hand-written: what a Greek, Polish and Hungarian player reads for a player the game does not have
UNKNOWN_ANN = {"el": "άγνωστο όνομα παίκτη", "pl": "nieznane imię gracza", "hu": "ismeretlen játékos"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_refusal_reaches_the_phone_in_its_language(store, lang):
    from tests.phones import joined_phone, post_through_loop

    loop = box(race(store))
    phone = joined_phone(loop.hub)
    phone.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = lang
    answer = post_through_loop(phone, loop, "/api/seat", {"player": "Nobody"})
    assert answer.status_code == 400
    error = answer.get_json()["error"]
    assert UNKNOWN_ANN[lang] in error and "unknown player" not in error
    assert loop.session.last_seq == 0


def test_cells_and_camera_question_ids_are_checked_too(store):
    session = store.start("among", FLOWS["among"].settings(parse_players("Ann,Bob"), {}))
    loop = box(GameFlow(session, FLOWS["among"]))
    for cell in (["a", 1], [10 ** 5000, 0], [1, 2, 3], "0,1", [1.5, 0]):
        answer = act(loop, "report", player="Ann", form="reactor", values={"cell": cell})
        assert answer["status"] == 400 and "Cell" in answer["error"], (cell, answer)
    for qid in ("1" * 5000, 1.5, None, [1], "\u2460"):
        answer = act(loop, "camera_confirm", id=qid)
        assert answer["status"] == 400, (qid, answer)


@pytest.mark.parametrize("field, value", [("key", "no spaces allowed"), ("key", "k" * 65), ("key", 7),
                                          ("version", -1), ("version", "3"), ("version", True), ("client", ""),
                                          ("client", "c" * 200)])
def test_the_common_fields_are_checked_before_anything(store, field, value):
    loop = box(race(store))
    answer = act(loop, "report", player="Ann", form="hand", values={"cards": 1}, **{field: value})
    assert answer["status"] == 400 and f"'{field}'" in answer["error"] and loop.session.last_seq == 0


# -- containment: an unexpected exception is 500, logged with its traceback; the box goes on ---------------


class BrokenRace:
    """Race for the Galaxy whose "Cards in hand" report has a bug (a KeyError in the flow spec)."""

    def __init__(self) -> None:
        self._race = FLOWS["race"]

    def __getattr__(self, name):
        return getattr(self._race, name)

    def report_event(self, form, values, player, view):
        if form == "hand":
            return {}["no such key"]
        return self._race.report_event(form, values, player, view)


def test_a_bug_in_one_action_is_500_logged_with_its_traceback_and_the_box_goes_on(store, caplog):
    session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    loop = box(GameFlow(session, BrokenRace()))
    with caplog.at_level(logging.ERROR, logger="companion"):
        answer = act(loop, "report", player="Ann", form="hand", values={"cards": 3})
    assert answer["status"] == 500 and answer["recorded"] == [] and "KeyError" in answer["error"]
    assert "nothing was recorded" in answer["error"]
    [record] = [r for r in caplog.records if r.exc_info]
    assert record.exc_info[0] is KeyError and "report (phone) failed" in record.getMessage()
    assert "KeyError" in loop.message  # the status line says it too
    ok = act(loop, "report", player="Ann", form="start", values={"card": "Old Earth"})
    assert ok["status"] == 200 and ok["recorded"] == [1]


def test_a_frame_whose_processing_raises_is_said_nothing_is_recorded_and_the_loop_turns_on(store, caplog):
    from companion.app import MainLoop as Loop
    from tests.test_app import ScriptedReader, scenes

    class FailsOnce(ScriptedReader):
        # the d6 mode looks at the settling table on its worker and reads the still frame when that look failed:
        # the first scene's look and read both fail
        def read(self, frame):
            if self.calls < 2:
                self.calls += 1
                raise MemoryError("a frame too large for OpenCV")  # not a DeviceError, not ours
            return super().read(frame)

    session = store.start("d6", {})
    hub = StateHub()
    loop = Loop(source=FakeCamera(scenes(2, 5)), reader=FailsOnce(), session=session, hub=hub,
                stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None)
    messages = []
    original = hub.publish
    hub.publish = lambda view, jpeg=None: messages.append(view["status"]["message"]) or original(view, jpeg)
    with caplog.at_level(logging.ERROR, logger="companion"):
        stats = loop.run()
    assert stats.frames == 24  # every frame was taken: the loop never stopped
    assert [e.payload["values"] for e in session.events()] == [[5]]  # nothing from the failed read
    assert any("reading the picture failed (MemoryError)" in m for m in messages)
    assert any(r.exc_info and r.exc_info[0] is MemoryError for r in caplog.records)


def test_a_failing_touchscreen_pump_or_callback_does_not_stop_the_loop(store):
    flow = race(store)
    calls = []

    def pump():
        calls.append(1)
        raise RuntimeError("pygame event queue broke")

    loop = box(flow, pump_screen=pump)
    loop.run(max_frames=5)
    assert len(calls) >= 5 and "the touchscreen failed (RuntimeError)" in loop.message


def test_every_origin_goes_through_the_same_desk(store):
    loop = box(race(store))
    loop.hub.post_action("report", "button", player="Ann", form="hand", values={"cards": "+-3"})  # GPIO: no reply
    loop.hub.post_action("report", "touchscreen", player="Ann", form="hand", values={"cards": 2})
    loop.take_actions()
    assert [e.origin for e in loop.session.events()] == ["touchscreen"]
    assert act(loop, "report", "touchscreen", player="Ann", form="hand",
               values={"cards": "\u00b2"})["error"].startswith("Cards must be a whole number")


# -- answers: written before 2xx, published before the answer ----------------------------------------------


def test_a_2xx_is_written_and_published_before_it_is_answered(store, tmp_path):
    flow = race(store)
    loop = box(flow)
    answer = act(loop, "report", player="Ann", form="hand", values={"cards": 5}, client=ANN_PHONE, version=0,
                 key="tap-1")
    assert (answer["status"], answer["recorded"], answer["version"]) == (200, [1], 1)
    assert answer["_view"]["session"]["events"] == 1  # a state read right after the answer shows it
    with SessionStore(tmp_path / "box.sqlite3") as other:  # another connection sees it: it is committed
        assert [e.kind for e in other.get(flow.session.id).events()] == ["hand_counted"]
        [key] = other._conn.execute("SELECT key FROM answers").fetchall()
        assert key == (f"{ANN_PHONE}/tap-1",)  # kept as that phone's own key


def test_the_answer_and_the_events_are_written_together_or_not_at_all(store, tmp_path):
    flow = race(store)
    loop = box(flow)
    # a fault injected at the connection: keeping the answer fails after the event was inserted
    store._conn.execute("CREATE TEMP TRIGGER no_answers BEFORE INSERT ON answers BEGIN "
                        "SELECT RAISE(ABORT, 'injected fault'); END")
    answer = act(loop, "report", player="Ann", form="hand", values={"cards": 5}, key="tap-1")
    assert answer["status"] == 500 and "injected fault" in answer["error"] and answer["recorded"] == []
    assert flow.session.last_seq == 0 and flow.session.events() == []  # the cache was rolled back too
    with SessionStore(tmp_path / "box.sqlite3") as other:
        assert other.get(flow.session.id).last_seq == 0
    store._conn.execute("DROP TRIGGER no_answers")
    assert act(loop, "report", player="Ann", form="hand", values={"cards": 5}, key="tap-1")["recorded"] == [1]


def test_several_events_in_one_transaction_are_all_written_or_none(store):
    flow = race(store)
    session = flow.session
    store._conn.execute("CREATE TEMP TRIGGER no_second BEFORE INSERT ON events WHEN NEW.seq = 2 BEGIN "
                        "SELECT RAISE(ABORT, 'injected fault'); END")
    with pytest.raises(Exception, match="injected fault"):
        with store.transaction(write=True, doing="Next"):
            session.append("hand_counted", {"player": "Ann", "cards": 3})
            session.append("hand_counted", {"player": "Bob", "cards": 4})
    assert session.events() == [] and session.last_seq == 0


# -- versions: two taps, one move ----------------------------------------------------------------------


def _started_race(store):
    flow = race(store)
    loop = box(flow)
    for player, world in (("Ann", "Old Earth"), ("Bob", "Epsilon Eridani")):
        act(loop, "report", "touchscreen", player=player, form="start", values={"card": world})
    for player, action in (("Ann", "Explore +5"), ("Bob", "Develop")):
        act(loop, "report", "touchscreen", player=player, form="select", values={"action": action})
    return flow, loop


def test_next_tapped_on_two_phones_at_once_moves_the_game_one_step(store):
    flow, loop = _started_race(store)
    seen = flow.session.last_seq
    answers = []

    def phone(key):
        answers.append(loop.hub.request("next_phase", "phone", 30.0, version=seen, key=key, client=key))

    threads = [threading.Thread(target=phone, args=(f"phone-{k}",)) for k in range(2)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):
        loop.take_actions()
        for t in threads:
            t.join(0.002)
    statuses = sorted(a["status"] for a in answers)
    assert statuses == [200, 409]
    stale = next(a for a in answers if a["status"] == 409)
    assert stale["recorded"] == [] and stale["version"] == flow.session.last_seq
    moved = next(a for a in answers if a["status"] == 200)
    assert flow.session.last_seq == moved["version"] == seen + len(moved["recorded"])


def test_a_double_tap_on_undo_my_last_report_withdraws_one_report(store):
    flow = race(store)
    loop = box(flow)
    act(loop, "report", player="Ann", form="hand", values={"cards": 3}, client=ANN_PHONE)
    act(loop, "report", player="Ann", form="hand", values={"cards": 4}, client=ANN_PHONE)
    seen = flow.session.last_seq
    first = act(loop, "undo_report", player="Ann", client=ANN_PHONE, version=seen, key="undo-a")
    second = act(loop, "undo_report", player="Ann", client=ANN_PHONE, version=seen, key="undo-b")
    assert first["status"] == 200 and second["status"] == 409
    assert "Ann's entries changed" in second["error"]
    assert len(flow.session.replay().applied) == 1  # one of the two reports still stands


def test_another_players_tap_does_not_make_mine_stale_but_the_round_moving_does(store):
    flow, loop = _started_race(store)
    seen = flow.session.last_seq
    assert act(loop, "report", player="Bob", form="hand", values={"cards": 6}, version=seen)["status"] == 200
    assert act(loop, "report", player="Ann", form="hand", values={"cards": 5}, version=seen)["status"] == 200
    seen = flow.session.last_seq
    assert act(loop, "next_phase", "touchscreen")["status"] == 200
    stale = act(loop, "report", player="Ann", form="hand", values={"cards": 4}, version=seen)
    assert stale["status"] == 409 and "round moved on" in stale["error"]
    assert act(loop, "next_phase", version=seen)["status"] == 409  # table-wide: any event since
    assert act(loop, "report", player="Ann", form="hand", values={"cards": 4}, version=10 ** 6)["status"] == 409


def test_a_phones_refused_tap_is_told_to_that_phone_not_on_every_views_status_line(store):
    # A stale or bad tap records nothing: the phone that made it is told why in its answer; the status line
    # every view shows keeps what the table last did.
    flow, loop = _started_race(store)
    seen = flow.session.last_seq
    assert act(loop, "next_phase", "touchscreen")["status"] == 200
    table_said = loop.message
    stale = act(loop, "report", player="Ann", form="hand", values={"cards": 4}, version=seen)
    assert stale["status"] == 409 and stale["error"]
    bad = act(loop, "report", player="Ann", form="hand", values={"cards": "many"})
    assert bad["status"] == 400 and bad["error"]
    assert loop.message == table_said
    assert loop.view()["status"]["message"] == table_said
    # the touchscreen's own refusal is shown there: it is the box's screen that was tapped
    refused = act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": "many"})
    assert refused["status"] == 400 and loop.message == refused["error"]


def test_a_phones_undo_with_nothing_to_withdraw_is_told_to_that_phone_only(store):
    # Bob's phone taps "Undo my last report" before Bob reported anything, and in d6 mode a phone taps Undo on
    # an empty log: nothing is written, so, as for a refusal, that phone is told and the status line every view
    # shows keeps what the table last did.
    flow = race(store)
    loop = box(flow)
    assert act(loop, "report", "touchscreen", player="Ann", form="start", values={"card": "Old Earth"})["recorded"]
    table_said = loop.message
    nothing = act(loop, "undo_report", player="Bob", client=BOB_PHONE)
    assert nothing["status"] == 200 and nothing["recorded"] == [] and "Bob" in nothing["message"]
    assert loop.message == table_said and nothing["_view"]["status"]["message"] == table_said
    # withdrawing a report is the table's news: it is on the status line
    act(loop, "report", player="Ann", form="hand", values={"cards": 3}, client=ANN_PHONE)
    withdrawn = act(loop, "undo_report", player="Ann", client=ANN_PHONE)
    assert withdrawn["recorded"] and loop.message == withdrawn["message"]

    dice = MainLoop(source=FakeCamera([np.full((60, 80, 3), 90, np.uint8)] * 4), reader=object(),
                    session=store.start("d6", {}), hub=StateHub(), stillness=StillnessDetector(), stop_at_end=True,
                    sleep=lambda s: None)
    dice_said = dice.message
    empty = act(dice, "undo")
    assert empty["status"] == 200 and empty["recorded"] == [] and empty["message"]
    assert dice.message == dice_said


# -- exactly once: a repeated key gets the first answer, also after a restart ----------------------------


def test_a_repeated_key_returns_the_first_answer_and_records_nothing_twice(store):
    flow = race(store)
    loop = box(flow)
    first = act(loop, "report", player="Ann", form="hand", values={"cards": 3}, key="tap-42", version=0)
    again = act(loop, "report", player="Ann", form="hand", values={"cards": 3}, key="tap-42", version=0)
    assert {k: again[k] for k in ANSWER_KEYS} == {k: first[k] for k in ANSWER_KEYS}
    assert flow.session.last_seq == 1
    # after a restart too (the key is kept with the event, in the same transaction)
    restarted = box(GameFlow(store.get(flow.session.id), FLOWS["race"]))
    later = act(restarted, "report", player="Ann", form="hand", values={"cards": 3}, key="tap-42", version=0)
    assert later["recorded"] == [1] and later["status"] == 200 and flow.session.last_seq == 1


def test_a_refused_answer_is_not_kept_so_a_retry_is_worked_out_again(store):
    loop = box(race(store))
    bad = act(loop, "report", player="Ann", form="hand", values={"cards": 99}, key="tap-7")
    assert bad["status"] == 400
    good = act(loop, "report", player="Ann", form="hand", values={"cards": 9}, key="tap-7")
    assert good["status"] == 200 and good["recorded"] == [1]


# -- fuzz: nothing a phone sends is a 500 or stops the box ---------------------------------------------

def test_a_phone_s_move_carrying_a_number_too_long_to_write_is_asked_of_the_table_not_a_fault(store):
    """A phone's move off a game being played is refused and put to the table, and the question is kept for a restart
    with the action it would carry out. An action holding, besides its own fields, a whole number of 5000 digits
    (Python writes at most 4300 as text) failed while keeping the question: 500 "unexpected ValueError" instead of
    the refusal. The question is asked all the same, it is only not kept for a restart (a log line says so)."""
    loop = box(race(store))
    outcome = loop.dispatch({"action": "history", "origin": "phone", "client": BOB_PHONE, "id": 10 ** 5000})
    assert outcome.status == 403, outcome
    assert loop.switchboard.asking == BOB_PHONE  # the touchscreen asks the table about Bob's phone's move
    loop.publish()  # the views still render


def _json_values():
    from hypothesis import strategies as st

    leaf = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10 ** 30, max_value=10 ** 5000)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30)
            | st.sampled_from(["+-3", "\u00b2", "\u2460", "\ud800", "1" * 5000, "", " 4 ", "Old Earth", "red"]))
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                        max_size=4), max_leaves=8)


@pytest.mark.parametrize("game", ["roll", "race", "among", "setup"])
def test_fuzzed_actions_are_answered_200_400_403_or_409_and_never_stop_the_box(tmp_path, game):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from companion.hub import ACTIONS
    from companion.setup_flow import TableSetup

    values = _json_values()
    names = st.sampled_from(["Ann", "Bob", "Cy", "ann"]) | values
    fields = st.sampled_from(["cards", "vp", "card", "world", "credits", "cell", "phase", "faction", "home_world",
                              "development", "action", "second", "extra_white", "tile", "good", "race"])
    payloads = st.fixed_dictionaries({}, optional={
        "player": names, "form": st.sampled_from(["hand", "vp", "start", "select", "credits", "setup", "card", "good",
                                                   "location", "reactor", "tile"]) | values,
        "values": st.dictionaries(fields, values | st.integers(0, 12), max_size=4) | values,
        "id": values, "choice": values,
        "point": values, "colour": st.sampled_from(["red", "blue", "mauve"]) | values, "name": names,
        "version": st.integers(min_value=0, max_value=12), "key": st.from_regex(r"[a-z]{1,8}", fullmatch=True),
        "client": st.sampled_from([ANN_PHONE, BOB_PHONE])})
    actions = st.lists(st.tuples(st.sampled_from(sorted(ACTIONS - {"quit"})), st.sampled_from(["phone", "touchscreen"]),
                                 payloads), min_size=1, max_size=6)
    made = iter(range(10 ** 6))

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(actions)
    def run(script):
        with SessionStore(tmp_path / f"fuzz-{next(made)}.sqlite3") as fuzz_store:
            if game == "setup":
                loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 3), reader=None, session=None,
                                hub=StateHub(), stillness=StillnessDetector(), sleep=lambda s: None,
                                setup=TableSetup(fuzz_store, FLOWS["race"]))
            else:
                session = fuzz_store.start(game, FLOWS[game].settings(parse_players("Ann,Bob"), {}))
                loop = box(GameFlow(session, FLOWS[game]))
            for name, origin, payload in script:
                outcome = loop.dispatch({"action": name, "origin": origin, **payload})
                assert outcome.status in (200, 400, 403, 409), (name, payload, outcome)
                assert set(outcome.to_json()) == set(ANSWER_KEYS)
            loop.publish()  # the views still render

    run()


def test_a_retried_next_with_its_key_gets_the_first_answer_not_a_stale_label(store):
    """A phone's Next whose answer was lost is sent again with the same key and label: the label now differs
    (the first Next moved the game), but the key was answered, so the first answer comes back."""
    from companion.web import create_app

    flow, loop = _started_race(store)
    loop.publish()
    label = loop.hub.snapshot().view["game"]["next"]["label"]
    seen = flow.session.last_seq
    app = create_app(loop.hub, reply_s=0.2)
    app.testing = True
    phone = app.test_client()
    assert phone.get(f"/join/{loop.hub.pairing().secret}").status_code == 303
    tap = {"action": "next_phase", "label": label, "key": "nx-1", "version": seen}
    first = post_through_loop(phone, loop, "/api/action", tap).get_json()  # its answer is lost on the way
    assert first["status"] == 200 and first["recorded"]
    loop.publish()
    assert loop.hub.snapshot().view["game"]["next"]["label"] != label
    again = phone.post("/api/action", json=tap)  # nobody plays the loop: the web answers from the key alone
    assert again.status_code == 200
    assert {k: again.get_json()[k] for k in ("recorded", "status", "version")} == \
        {k: first[k] for k in ("recorded", "status", "version")}
    other = phone.post("/api/action", json={**tap, "key": "nx-2"})  # a new tap with the old label: stale
    assert other.status_code == 409 and "Next now means" in other.get_json()["error"]


# -- one refusal per problem, each said once -------------------------------------------------------------


@pytest.mark.parametrize("values, said", [
    # Race's "Start world" form has one field, also labelled "Start world": its label is said once
    ({"card": "Nowhere"}, "Start world: unknown 'Nowhere'"),
    ({"card": ""}, "Start world is missing"),
], ids=shown)
def test_a_field_labelled_as_its_form_is_named_once(store, values, said):
    answer = act(box(race(store)), "report", player="Ann", form="start", values=values)
    assert answer["status"] == 400 and answer["error"] == said


@pytest.mark.parametrize("name, character", [
    ("\x00", "U+0000, a control character"), ("Ann\x00", "U+0000, a control character"),
    ("\n", "U+000A, a control character"), ("An\nn", "U+000A, a control character"),
    ("\ud800", "U+D800, half of a character"), ("Ann\u202e", "U+202E, a text-direction control"),
    ("Ann\u2028Bob", "U+2028, a control character"), ("Ann\u2029", "U+2029, a control character"),
], ids=shown)
def test_a_name_holding_a_character_no_keyboard_types_is_refused_naming_it(store, name, character):
    """A NUL alone was "empty" while a line break inside a name was "characters that are not text": one refusal,
    naming the character, whether or not the rest of the name shows something."""
    from tests.phones import joined_phone, post_through_loop

    loop = box(race(store))
    loop.publish()
    phone = joined_phone(loop.hub)
    for path, body in (("/api/report", {"player": name, "form": "hand", "values": {"cards": 1}}),
                       ("/api/report", {"player": "Ann", "form": "start", "values": {"card": name}})):
        answer = post_through_loop(phone, loop, path, body)
        said = answer.get_json()["error"]
        assert answer.status_code == 400 and character in said and "empty" not in said, said
        assert said.endswith("type it again")
    assert loop.session.last_seq == 0


def test_spaces_alone_are_still_an_empty_name(store):
    from tests.phones import joined_phone, post_through_loop

    loop = box(race(store))
    loop.publish()
    answer = post_through_loop(joined_phone(loop.hub), loop, "/api/report",
                               {"player": " \u3000 ", "form": "hand", "values": {"cards": 1}})
    assert answer.status_code == 400 and "'player' is empty" in answer.get_json()["error"]


def test_a_seat_taken_again_no_longer_reads_free_on_the_status_line(store):
    # Ann's phone gives up her seat: every view reads that it is free and how to take it. Once a phone takes it,
    # the line says so instead of still offering the seat (a new phone read "Ann's seat is free" right under its
    # own "Ann's seat is claimed by this phone"); a claim of another seat leaves the line alone.
    flow = race(store)
    loop = box(flow)
    assert act(loop, "claim_seat", player="Ann", client=ANN_PHONE)["status"] == 200
    assert act(loop, "release_seat", player="Ann", client=ANN_PHONE)["status"] == 200
    assert str(loop.message) == "Ann's seat is free: Ann's phone taps Ann to claim it"
    assert act(loop, "claim_seat", player="Bob", client=BOB_PHONE)["status"] == 200
    assert str(loop.message) == "Ann's seat is free: Ann's phone taps Ann to claim it"
    taken = act(loop, "claim_seat", player="Ann", client="client-ann-new")
    assert taken["status"] == 200 and taken["message"] == "Ann's seat is claimed by this phone"
    assert str(loop.message) == "Ann's seat is taken by a phone"
    assert str(taken["_view"]["status"]["message"]) == "Ann's seat is taken by a phone"
