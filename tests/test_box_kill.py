"""A whole box over HTTP, killed with SIGKILL at random moments and started again with the same command:
nothing it acknowledged (2xx) is lost or doubled, nothing it never acknowledged shows up (a tap cut off by
the kill is sent again with its key and answered once), the restarted state is a clean replay of the log,
and a setup in progress comes back with its players and colours."""

from __future__ import annotations

import pytest

from bench.box_process import BoxProcess

BOX = ["--no-screen", "--no-gpio"]
ONCE = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


@pytest.mark.slow
def test_a_kill_during_the_setup_step_and_the_same_command_again_resume_it(tmp_path):
    db = tmp_path / "box.sqlite3"
    command = ["demo", "--game", "race", "--db", str(db), *BOX]
    box = BoxProcess(command, tmp_path)
    try:
        box.wait_until(lambda s: (s.get("game") or {}).get("setup"))
        for name, colour in (("Ann", "green"), ("Bob", "red")):
            assert box.post("/api/setup", {"action": "player", "name": name, "colour": colour})[0] == 200
    finally:
        box.kill()
    again = BoxProcess(command, tmp_path)
    try:
        state = again.wait_until(lambda s: (s.get("game") or {}).get("setup"))
        assert [(p["name"], p["colour"]) for p in state["game"]["players"]] == [("Ann", "green"), ("Bob", "red")]
        assert state["session"]["events"] == 2
        assert again.post("/api/setup", {"action": "start"})[0] == 200
        state = again.wait_until(lambda s: s.get("session", {}).get("id"))
    finally:
        again.kill()
    third = BoxProcess(command, tmp_path)  # killed after Start: the same command resumes the game
    try:
        resumed = third.wait_until(lambda s: s.get("session", {}).get("id"))
        assert resumed["session"]["id"] == state["session"]["id"]
        assert [p["name"] for p in resumed["game"]["players"]] == ["Ann", "Bob"]
    finally:
        code, err = third.stop()
    assert code == 0 and "Traceback" not in err


@pytest.mark.slow
def test_a_power_cut_during_a_setup_chosen_on_the_chooser_comes_back_to_it_as_the_phones_last_saw_it(tmp_path):
    # --game choose asks for the chooser at every start, but a setup under way is not on the chooser to go back to:
    # before, the players had joined, taken their seats and ticked the Alliances, and after the restart the box
    # showed the chooser, every phone's seat free, and a tap made on the setup page was refused
    db = tmp_path / "box.sqlite3"
    command = ["demo", "--game", "choose", "--db", str(db), *BOX]
    box = BoxProcess(command, tmp_path)
    try:
        box.wait_until(lambda s: s.get("mode") == "choose")
        assert box.post("/api/box", {"action": "choose", "game": "eclipse"})[0] == 200
        box.wait_until(lambda s: (s.get("game") or {}).get("setup"))
        for name, colour in (("Ann", "red"), ("Bob", "blue"), ("Cy", "green")):
            assert box.post("/api/setup", {"action": "player", "name": name, "colour": colour})[0] == 200
        assert box.post("/api/seat", {"player": "Ann"})[0] == 200
        code, answer = box.post("/api/setup", {"action": "option", "option": "alliances", "value": "on"})
        assert code == 200 and answer["version"] == 4  # three players, then the option: the setup's fourth event
    finally:
        box.kill()
    again = BoxProcess(command, tmp_path, port=box.port, phone=box.phone)  # the same phone, its cookie kept
    try:
        state = again.wait_until(lambda s: s.get("mode") in ("choose", "setup"))
        assert state["mode"] == "setup" and state["session"]["game"] == "eclipse"
        assert state["session"]["events"] == 4  # the version the phone last saw
        game = state["game"]
        assert [(p["name"], p["colour"]) for p in game["players"]] == [("Ann", "red"), ("Bob", "blue"), ("Cy", "green")]
        assert [p["name"] for p in game["players"] if p["claimed"]] == ["Ann"]
        assert again.get("/api/me")["seats"] == ["Ann"]
        assert next(o for o in game["options"] if o["option"] == "alliances")["on"] is True
        # a tap made on the page as it stood before the power cut (version 4) is taken: nothing changed since
        dee = {"action": "player", "name": "Dee", "colour": "yellow"}
        code, answer = again.phone.post("/api/setup", dee, version=4)
        assert (code, answer["version"]) == (200, 5), answer
        assert again.post("/api/setup", {"action": "start"})[0] == 200
        started = again.wait_until(lambda s: s.get("session", {}).get("id"))
        assert [p["name"] for p in started["game"]["players"]] == ["Ann", "Bob", "Cy", "Dee"]
    finally:
        code, err = again.stop()
    assert code == 0 and "Traceback" not in err


def test_game_choose_comes_back_to_a_setup_under_way_and_new_session_leaves_it_for_the_chooser(tmp_path):
    """A power cut while the players joined a game chosen on the chooser: `--game choose` started on the chooser
    again, the setup out of sight (it is not listed there to go back to). The box now comes back to the setup with its
    players; `--new-session` still asks for the chooser, and the setup stays kept for the game chosen again."""
    from companion.cli import main
    from companion.flows import FLOWS
    from companion.modes import ModeName
    from companion.records import load_place, save_place
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup

    db = str(tmp_path / "demo.sqlite3")
    with SessionStore(db) as s:
        setup = TableSetup(s, FLOWS["race"])
        setup.add_player("Ann", "green")
        place = {"mode": ModeName.SETUP.value, "game": "race", "setup": setup.id}
        with s.transaction(write=True, doing="keeping where the box is"):
            save_place(s, place)  # where the box was when the power went
    assert main(["demo", "--db", db, *ONCE, "--max-frames", "2", "--game", "choose"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == place
        assert TableSetup(s, FLOWS["race"]).names == ["Ann"]
    assert main(["demo", "--db", db, *ONCE, "--max-frames", "2", "--game", "choose", "--new-session"]) == 0
    with SessionStore(db) as s:
        assert load_place(s) == {"mode": ModeName.CHOOSE.value}
        resumed = TableSetup(s, FLOWS["race"])  # Race chosen again: its setup goes on
        assert (resumed.id, resumed.names) == (setup.id, ["Ann"])


@pytest.mark.parametrize("place", [{"mode": "setup", "game": ["race"]}, {"mode": "play", "session": {"id": 1}},
                                   {"mode": ["play"], "session": "x"}, {"mode": "scores", "session": "nope"}])
def test_a_kept_place_changed_by_hand_starts_the_box_on_the_chooser(place, tmp_path):
    """Where the box was, kept in the database, changed by hand to shapes the box never writes (a game that is a
    list: before, a TypeError at the start; a session that is an object or no game): the box starts on the chooser,
    and the games recorded are untouched."""
    from companion.cli import main
    from companion.records import save_place
    from companion.session import SessionStore

    db = str(tmp_path / "demo.sqlite3")
    with SessionStore(db) as s:
        with s.transaction(write=True, doing="keeping where the box is"):
            save_place(s, place)
        before = [(i.id, i.events) for i in s.list_sessions()]
    assert main(["demo", "--db", db, *ONCE, "--max-frames", "2", "--game", "choose"]) == 0
    with SessionStore(db) as s:
        assert [(i.id, i.events) for i in s.list_sessions()] == before


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_acknowledged_nor_records_a_tap_twice():
    # bench/kill_trials.py, a few kills in each kind of game (a Roll game set up on a phone, then played by
    # three phones; the d6 reader with the camera reading): the full run is the bench's 200 kills
    from bench.kill_trials import run

    ledger = run(trials=6, seed=20261201, per_game=2, say=lambda _: None)
    assert [kind for kind, _ in ledger.games] == ["roll", "roll", "d6"]
    assert ledger.ok > 20 and ledger.events_by_answer > 10  # the phones did play
    assert ledger.lost == [] and ledger.not_durable == 0  # every 2xx was in the database when answered, and stays
    assert ledger.duplicated == [] and ledger.phantom == []
    assert ledger.replay_differs == [] and ledger.restarts == ledger.replay_equal > 0
    assert ledger.claims_lost == 0
    assert ledger.tracebacks == 0 and ledger.clean_stops == 3
