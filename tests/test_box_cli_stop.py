"""How ``companion demo`` / ``companion run`` stop (companion/commands/box.py): the last line's counts of reads,
rolls and taps, the caller's SIGTERM handler given back, Ctrl-C stopping the box after its pass with what it recorded
kept, and a double Ctrl-C. Expectations are worked by hand."""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

import pytest

from companion.app import MainLoop
from companion.cli import main
from companion.session import SessionStore

BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


def test_the_last_line_counts_the_reads_and_the_rolls_recorded_apart(tmp_path, caplog):
    """A demo photo is read on every pass but recorded once: a second pass said 'stopped: N frames, 0 reads (median
    15 ms)' though it had read the photos (the median of reads it said it had not made). Now both are counted."""
    import shutil
    from pathlib import Path

    import companion

    folder = tmp_path / "photos"
    folder.mkdir()
    for photo in sorted((Path(companion.__file__).parent / "demo" / "photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder / photo.name)
    run = ["demo", str(folder), "--db", str(tmp_path / "r.sqlite3"), *BOX, "--hold", "10"]
    stopped = []
    for _ in range(2):  # the second run reads the photos again (the first at least: the box resumed on the second)
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="companion"):
            assert main(run) == 0
        stopped += [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped: ")]
    reads = [int(m.split(", ")[1].split()[0]) for m in stopped]
    recorded = [int(m.split(", ")[2].split()[0]) for m in stopped]
    assert reads[0] == 2 and reads[1] >= 1 and recorded == [2, 0], stopped


def test_the_last_line_counts_what_the_phones_reported_with_the_camera_s_rolls(tmp_path, caplog, monkeypatch):
    """The stop line counted only the camera's rolls: a game whose phones reported their start worlds said '0
    recorded'. Now every event a tap added to the record (a report, its withdrawal) is counted with the camera's; a
    refused tap records nothing and counts nothing. The line keeps its parts apart by ', ' as before."""
    real_run = MainLoop.run

    def run(self, max_frames=None):  # the phones' taps, queued as the phone view queues them
        for player, world in (("Ann", "Old Earth"), ("bob", "Epsilon Eridani"), ("Zed", "Old Earth")):
            self.hub.post_action("report", origin="phone", player=player, form="start", values={"card": world})
        self.hub.post_action("undo_report", origin="phone", player="Ann")
        return real_run(self, max_frames)

    monkeypatch.setattr(MainLoop, "run", run)
    db = tmp_path / "r.sqlite3"
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--game", "race", "--players", "Ann,Bob", "--db", str(db), *BOX, "--max-frames", "3"]) == 0
    [stopped] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped: ")]
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        events = store.get(session.id).events()
    assert [e.kind for e in events] == ["start_world", "start_world", "undo"]  # Zed is no player: refused
    parts = stopped.split(", ")
    assert parts[:2] == ["stopped: 3 frames", "no reads"], stopped  # no deck: the camera reads nothing
    assert parts[2:] == ["3 recorded (0 read by the camera and 3 tapped in)", f"session {session.id}"], stopped


def test_the_stop_line_adds_the_camera_s_events_and_the_taps():
    from companion.app import LoopStats
    from companion.commands.box import stop_line

    stats = LoopStats(frames=320, reads=8, reported=3, read_ms=[90.0, 108.0, 130.0])
    assert stop_line(stats, "20261204-214402-d225cb") == (
        "stopped: 320 frames, 3 reads (median 108 ms), 11 recorded (8 read by the camera and 3 tapped in), session "
        "20261204-214402-d225cb")
    assert stop_line(LoopStats(), None) == ("stopped: 0 frames, no reads, 0 recorded (0 read by the "
                                            "camera and 0 tapped in), session none (not set up)")


def test_the_box_gives_the_callers_sigterm_handler_back(tmp_path):
    """run/demo stop on SIGTERM (systemctl stop) through their own handler while the loop runs; once the box has
    stopped, the process that ran it (a script, a test runner) has its own handler again, not one that stops a loop
    that is gone."""
    import signal

    def own(signum, frame):  # the caller's own handler (only which handler is in place is checked)
        return None

    before = signal.signal(signal.SIGTERM, own)
    try:
        assert main(["demo", "--db", str(tmp_path / "t.sqlite3"), *BOX, "--max-frames", "2"]) == 0
        assert signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGTERM, before)


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_ctrl_c_stops_the_box_after_its_pass_and_keeps_what_it_recorded(tmp_path):
    """Ctrl-C that landed in the middle of a pass (a lock being taken back) was taken for one failed pass: a
    traceback, and the box went on reading. Ctrl-C now asks the loop to stop after its pass, as SIGTERM does: one
    "stopped:" line, exit 0, no traceback, the rolls recorded kept."""
    import queue
    import subprocess
    import threading
    import time

    db = tmp_path / "c.sqlite3"
    env = dict(os.environ, TABLETOP_DATA_DIR=str(tmp_path / "data"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]),
                                                        os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from companion.cli import main; sys.exit(main())",
                             "demo", "--db", str(db), "--no-web", "--no-screen", "--no-gpio", "--fast"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    said: list[str] = []
    try:
        deadline = time.monotonic() + 180
        while not any("event 1: " in line for line in said):  # the first roll is in the record
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            assert line is not None and time.monotonic() < deadline, "".join(said)
            said.append(line)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=120) == 0, "".join(said)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)
    while (line := lines.get(timeout=60)) is not None:
        said.append(line)
    text = "".join(said)
    assert "Traceback" not in text and "failed" not in text and "not saved" not in text, text
    stopped = [line for line in said if "stopped: " in line]
    assert len(stopped) == 1, text
    recorded = int(stopped[0].split(" recorded")[0].rsplit(" ", 1)[1])
    with SessionStore(db) as store:
        (session,) = store.list_sessions()
        assert session.events >= recorded >= 1  # every roll the box said it recorded is in the record


def test_a_double_ctrl_c_is_one_ask_and_an_insisting_one_stops_at_once(caplog):
    """The box's Ctrl-C while the loop turns (``_stop_on_interrupt``): the first asks the loop to stop after its
    pass; a second within 2 s (a double press) asks the same, so the record is closed whole; one later, with the
    loop still turning (a pass that does not end), raises KeyboardInterrupt."""
    from companion.commands.box import _stop_on_interrupt

    class Loop:
        asks = 0

        def stop(self) -> None:
            self.asks += 1

    now = [100.0]
    loop = Loop()
    handler = _stop_on_interrupt(loop, clock=lambda: now[0])
    with caplog.at_level(logging.INFO, logger="companion"):
        handler(signal.SIGINT, None)
    # the line says when another press stops at once: after the 2 s, not within them (a double press is one ask)
    assert "stopping: Ctrl-C (press it again after 2 s to stop at once)" in caplog.messages
    now[0] += 0.2
    handler(signal.SIGINT, None)
    assert loop.asks == 2
    now[0] += 2.0
    with pytest.raises(KeyboardInterrupt):
        handler(signal.SIGINT, None)


def test_a_run_that_moved_from_the_dice_to_a_game_says_where_its_rolls_were_recorded(tmp_path, caplog, monkeypatch):
    """The demo records its photos' rolls in the d6 session; a phone then chooses a game. The stop line said '2
    recorded ..., session <the game's>' (or 'none (not set up)'), where none of the 2 was: a newcomer looked for them
    in the wrong session. Now it says how many each session got."""
    import shutil
    from pathlib import Path

    import companion
    from companion.app import LoopStats

    folder = tmp_path / "photos"
    folder.mkdir()
    for photo in sorted((Path(companion.__file__).parent / "demo" / "photos").glob("*.jpg"))[:2]:
        shutil.copy(photo, folder / photo.name)
    loops = []
    real_run, real_recorded = MainLoop.run, LoopStats.recorded

    def run(self, max_frames=None):
        loops.append(self)
        return real_run(self, max_frames)

    def recorded(self, session, n, *, camera):  # once both rolls are in, the touchscreen's chooser picks Race
        real_recorded(self, session, n, camera=camera)
        if camera and self.reads == 2:
            loops[0].hub.post_action("choose_game", origin="touchscreen", game="race")

    monkeypatch.setattr(MainLoop, "run", run)
    monkeypatch.setattr(LoopStats, "recorded", recorded)
    db = tmp_path / "r.sqlite3"
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", str(folder), "--db", str(db), *BOX, "--hold", "10"]) == 0
    [stopped] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("stopped: ")]
    with SessionStore(db) as store:
        [d6] = store.list_sessions()
        assert len(store.get(d6.id).events()) == 2
    assert "2 recorded (2 read by the camera and 0 tapped in)" in stopped, stopped
    assert stopped.endswith(f"session none (not set up) (0 recorded here; 2 in session {d6.id})"), stopped


def test_the_stop_line_names_each_session_the_run_recorded_in():
    from companion.app import LoopStats
    from companion.commands.box import stop_line

    stats = LoopStats(frames=50, read_ms=[30.0])
    stats.recorded(type("S", (), {"id": "A"})(), 8, camera=True)
    stats.recorded(type("S", (), {"id": "B"})(), 3, camera=False)
    stats.recorded(None, 1, camera=False)  # a record with no session to name: counted, not placed
    assert (stats.reads, stats.reported) == (8, 4)
    assert stop_line(stats, "B") == ("stopped: 50 frames, 1 read (median 30 ms), 12 recorded (8 read by the camera "
                                     "and 4 tapped in), session B (3 recorded here; 8 in session A)")
    assert stop_line(stats, "A").endswith("session A (8 recorded here; 3 in session B)")
