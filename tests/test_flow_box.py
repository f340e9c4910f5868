"""The game flows inside the box: the main loop, the GPIO button and buzzer, the phone API, export."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from companion.app import MainLoop
from companion.cli import main
from companion.flow import GameFlow
from companion.flow_actions import handle_action
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from rules.roll.data import catalogue
from tests.phones import joined_phone
from vision.motion import StillnessDetector


def roll_flow(store, players="Ann,Bob") -> GameFlow:
    session = store.start("roll", FLOWS["roll"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["roll"])


def setup_roll(flow: GameFlow) -> None:
    label = lambda n: " / ".join(catalogue().faction(n).names)  # noqa: E731
    flow.report("Ann", "setup", {"faction": label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})


def make_loop(flow: GameFlow, hub: StateHub, **kw) -> MainLoop:
    frames = [np.full((60, 80, 3), 90, np.uint8)] * 50
    return MainLoop(source=FakeCamera(frames), reader=None, session=flow.session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, stop_at_end=True, sleep=lambda s: None, **kw)


# -- the main loop and the GPIO button ----------------------------------------------------------


def test_gpio_button_advances_the_phase_and_the_buzzer_announces_the_last_round(store, monkeypatch):
    gpiozero = pytest.importorskip("gpiozero")
    from gpiozero.pins.mock import MockFactory

    from device import Controls, LedTimings

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    global_before = gpiozero.Device.__dict__.get("pin_factory")
    factory = MockFactory()
    flow = roll_flow(store)
    hub = StateHub()
    controls = Controls(button_pin=17, led_pin=27, buzzer_pin=22, pin_factory=factory, bounce_time=None,
                        on_press=lambda: hub.post_action("next_phase", origin="button"),
                        timings=LedTimings(slow=0.05, fast=0.01, flash=0.02, beep=0.01))
    announced: list[str] = []

    def announce(what: str) -> None:
        announced.append(what)
        controls.beep(3 if what == "last_round" else 1)

    loop = make_loop(flow, hub, on_announce=announce)
    try:
        setup_roll(flow)
        flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
        flow.report("Bob", "select", {"phase": "develop"})
        for expected in ("reveal", "develop", "ship"):
            factory.pin(17).drive_low()  # press: gpiozero's thread only posts the action
            factory.pin(17).drive_high()
            loop.step()  # the loop takes it and records the event
            assert flow.engine_view()["stage"] == expected
        events = flow.session.events()
        assert [e.origin for e in events[-3:]] == ["button"] * 3
        assert hub.snapshot().view["game"]["stage"] == "ship"
        hub.post_action("report", "phone", player="Bob", form="vp", values={"vp": 24})  # as the phone does
        loop.step()
        assert announced == ["last_round"] and controls.beeps == 3
        assert hub.snapshot().view["game"]["last_round"]
        buzzer_states = [s.state for s in factory.pin(22).states]
        assert buzzer_states[0] is False and True in buzzer_states  # it sounded
        loop.step()
        assert announced == ["last_round"]  # once per game
    finally:
        controls.close()
        factory.reset()
        factory.close()
    assert gpiozero.Device.__dict__.get("pin_factory") is global_before


def test_next_phase_without_a_flow_is_refused_with_a_message(store):
    session = store.start("d6", {})
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.zeros((20, 20, 3), np.uint8)] * 3), reader=object(), session=session,
                    hub=hub, stillness=StillnessDetector(), sleep=lambda s: None)
    loop.dispatch({"action": "next_phase", "origin": "touchscreen"})
    assert "needs a game flow" in loop.message and session.last_seq == 0


@pytest.mark.parametrize(("game", "lang", "words"), [
    ("d6", "el", "η κάμερα δεν κάνει ερωτήσεις εδώ"), ("d6", "pl", "kamera nie zadaje tu pytań"),
    ("roll", "hu", "ebben a játékban a kamera nem kérdez"), ("roll", "pl", "w tej grze kamera nie zadaje pytań")])
def test_a_camera_answer_with_no_camera_questions_is_said_to_players_without_the_command_line(store, caplog, game,
                                                                                               lang, words):
    """A stale "Confirm" from a phone when the camera asks nothing was answered 'no camera questions: the camera reads
    cards with --deck in a game flow': a command-line option, in English words, shown to players. The players read a
    sentence in their language; the option is for the owner, in the box's log."""
    from companion import i18n

    if game == "d6":
        session = store.start("d6", {})
        loop = MainLoop(source=FakeCamera([np.zeros((20, 20, 3), np.uint8)] * 3), reader=object(), session=session,
                        hub=StateHub(), stillness=StillnessDetector(), sleep=lambda s: None)
    else:
        flow = roll_flow(store)
        session = flow.session
        loop = make_loop(flow, StateHub())
    before = session.last_seq
    with caplog.at_level("INFO"):
        outcome = loop.dispatch({"action": "camera_confirm", "origin": "phone", "id": 1})
    said = i18n.say(outcome.error, lang)
    assert words in said and "--deck" not in said and "camera_confirm" not in said, said
    if game != "d6":  # where the players report: the phone's section, by its label
        assert i18n.localize(i18n.Text("What changed?"), lang) in said, said
    assert "--deck" in caplog.text and "--dice-profile" in caplog.text
    assert session.last_seq == before


@pytest.mark.parametrize("command", ["run", "demo"])
def test_the_hint_to_start_a_game_names_the_command_the_box_runs_as(store, command):
    """The d6 demo (what `./setup.sh run` starts off a Pi) answered Next with '(companion run --game ...)', a command
    that on a laptop finds no camera; the hint names `companion demo` there, `companion run` on the box's camera,
    on the touchscreen's Next and on a phone's next_phase alike."""
    session = store.start("d6", {})
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.zeros((20, 20, 3), np.uint8)] * 3), reader=object(), session=session,
                    hub=hub, stillness=StillnessDetector(), sleep=lambda s: None, command=command)
    hint = f"(companion {command} --game {'|'.join(FLOWS)})"
    loop.dispatch({"action": "next_phase", "origin": "touchscreen"})
    assert loop.message.endswith(hint)
    loop.publish()
    assert hub.snapshot().view["box"]["command"] == command
    answer = joined_phone(hub).post("/api/action", json={"action": "next_phase"})
    assert answer.status_code == 400 and answer.get_json()["error"].endswith(hint)


# -- the phone API ---------------------------------------------------------------------------


class LoopThread:
    """Plays the main loop's part for the phone API: takes actions and publishes the flow's view."""

    def __init__(self, flow: GameFlow, hub: StateHub) -> None:
        self.flow, self.hub = flow, hub
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop.is_set():
            for action in self.hub.take_actions():
                outcome = handle_action(self.flow, action)
                action["reply"].set_result(outcome.to_json())
            self.hub.publish({"game": self.flow.view()})
            self.stop.wait(0.01)

    def __enter__(self) -> LoopThread:
        self.hub.publish({"game": self.flow.view()})
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)


def test_phone_reports_are_recorded_and_bad_ones_answered_with_the_problem(store):
    flow = roll_flow(store)
    hub = StateHub()
    client = joined_phone(hub, reply_s=5.0)
    with LoopThread(flow, hub):
        assert b"flow.js" in client.get("/").data  # a game flow gets the report page
        ok = client.post("/api/report", json={"player": "Ann", "form": "credits", "values": {"credits": 4}})
        assert ok.status_code == 200 and ok.get_json()["recorded"] == [1]
        bad = client.post("/api/report", json={"player": "Ann", "form": "credits", "values": {"credits": 11}})
        assert bad.status_code == 400
        assert bad.get_json()["error"] == "Credits must be a whole number from 0 to 10, got 11"
        unknown = client.post("/api/report", json={"player": "Ann", "form": "setup", "values": {
            "faction": "Space Pirates", "home_world": "Old Earth", "development": "Advanced Logistics",
            "world": "Spice World"}})
        assert unknown.status_code == 400 and "Faction: unknown 'Space Pirates'" in unknown.get_json()["error"]
        shape = client.post("/api/report", json={"player": "Ann", "form": "credits", "values": [4]})
        assert shape.status_code == 400 and "'values' must be an object" in shape.get_json()["error"]
        not_json = client.post("/api/report", data="credits=4")
        assert not_json.status_code == 400
        huge = client.post("/api/report", data="x" * 20000, content_type="application/json")
        assert huge.status_code == 413
        undo = client.post("/api/report/undo", json={"player": "Ann"})
        # players' words, no event number (issue 17)
        assert undo.status_code == 200 and undo.get_json()["message"] == "Ann's report withdrawn: Credits"
        nothing = client.post("/api/report/undo", json={"player": "Ann"})
        assert nothing.status_code == 200 and nothing.get_json()["recorded"] == []
    kinds = [e.kind for e in flow.session.events()]
    assert kinds == ["credits_changed", "undo"]  # the refused reports left no trace


def test_a_report_the_loop_does_not_take_in_time_is_cancelled_not_queued(store):
    hub = StateHub()
    answer = joined_phone(hub, reply_s=0.01).post("/api/report",
                                                  json={"player": "Ann", "form": "vp", "values": {"vp": 1}})
    assert answer.status_code == 503 and "nothing was recorded" in answer.get_json()["error"]
    [action] = hub.take_actions()
    assert action["action"] == "report" and hub.begin(action) is False  # the loop drops it: never recorded later


# -- export -----------------------------------------------------------------------------------


def test_export_writes_the_finished_game_and_the_bgstats_play(tmp_path, capsys):
    db = tmp_path / "export.sqlite3"
    with SessionStore(db) as store:
        flow = roll_flow(store)
        setup_roll(flow)
        flow.report("Ann", "select", {"phase": "ship", "extra_white": "ship"})
        flow.report("Bob", "select", {"phase": "ship"})
        assert main(["export", "--db", str(db), "--json", str(tmp_path / "g.json")]) == 1  # not over yet
        flow.next_phase()
        flow.next_phase()
        flow.report("Ann", "vp", {"vp": 24})
        flow.next_phase()
        flow.next_phase()
        assert flow.over()
    capsys.readouterr()
    assert main(["export", "--db", str(db), "--json", str(tmp_path / "g.json"),
                 "--bgstats", str(tmp_path / "p.json")]) == 0
    out = capsys.readouterr().out
    assert "bgstats://app.bgstatsapp.com/addPlay.html?data=" in out
    game = json.loads((tmp_path / "g.json").read_text())
    assert game["game"] == "roll" and game["finished"] and game["winners"] == ["Ann"]
    assert game["players"][0]["breakdown"]["VP chips"] == 24
    play = json.loads((tmp_path / "p.json").read_text())
    assert play["players"][0] == {"name": "Ann", "score": game["players"][0]["total"], "winner": True, "seatOrder": 1,
                                  "startPlayer": True, "role": game["players"][0]["role"], "color": "red"}
    assert main(["export", "--db", str(db)]) == 2  # nothing asked for
    assert main(["export", "--db", str(tmp_path / "none.sqlite3"), "--json", str(tmp_path / "x.json")]) == 3


def test_a_tap_sends_session_events_as_its_version_and_a_stale_one_is_409(store):
    """/api/state holds two counters: ``version``, the hub's publish count (every publish moves it, also one that
    records nothing), and ``session.events``, the event log's last seq, which a tap sends as its ``version``. A tap
    made before another event was recorded is 409 with the current state, and nothing is recorded; a ``version``
    ahead of the log (the publish count sent by mistake) is 409 too."""
    from tests.phones import LoopThread as Loop

    flow = roll_flow(store)
    hub = StateHub()
    loop = make_loop(flow, hub)
    phone = joined_phone(hub, reply_s=5.0)
    loop.publish()
    with Loop(loop):
        state = phone.get("/api/state").get_json()
        seen = state["session"]["events"]
        assert seen == flow.session.last_seq == 0
        loop.publish()  # nothing recorded: the publish count moves, the log does not
        later = phone.get("/api/state").get_json()
        assert later["version"] > state["version"] and later["session"]["events"] == seen

        bob = phone.post("/api/report", json={"player": "Bob", "form": "credits", "values": {"credits": 3},
                                              "version": seen, "key": "bob-credits"})
        assert bob.status_code == 200 and bob.get_json()["version"] == seen + 1 == flow.session.last_seq

        stale = phone.post("/api/action", json={"action": "next_phase", "version": seen, "key": "ann-next"})
        assert stale.status_code == 409, stale.get_json()
        body = stale.get_json()
        assert body["recorded"] == [] and "1 event was recorded since this was tapped" in body["error"]
        assert body["state"]["session"]["events"] == seen + 1  # what the phone shows next, to tap again
        assert flow.session.last_seq == seen + 1  # nothing recorded

        ahead = later["version"] + flow.session.last_seq  # the publish count, never the log's seq: ahead of it
        wrong = phone.post("/api/report/undo", json={"player": "Bob", "version": ahead, "key": "bob-undo"})
        assert wrong.status_code == 409 and f"but the box is at state {seen + 1}" in wrong.get_json()["error"]
        assert flow.session.last_seq == seen + 1
