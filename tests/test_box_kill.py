"""A whole box over HTTP, killed with SIGKILL at random moments and started again with the same command:
nothing it acknowledged (2xx) is lost or doubled, nothing it never acknowledged shows up (a tap cut off by
the kill is sent again with its key and answered once), the restarted state is a clean replay of the log,
and a setup in progress comes back with its players and colours."""

from __future__ import annotations

import pytest

from bench.box_process import BoxProcess

BOX = ["--no-screen", "--no-gpio"]


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
