"""Storage faults, made for real: a database that fills up (SQLite's own page limit on the connection), a
database file or folder that is read-only at start, and a file-size limit on a whole box process (the
kernel refuses the write). Each time: the write is answered 503 with the reason, both views say so, reads
and the views keep working, nothing already written is touched, and writing resumes once it can."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from companion import storage
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from tests.test_desk import act, box
from vision.motion import StillnessDetector


class Clock:
    """The loop's monotonic clock, moved by the test (the probe runs every storage.PROBE_S seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def race_flow(store) -> GameFlow:
    return GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])


def fill_up(store) -> None:
    """The database may not grow by one more page (``PRAGMA max_page_count``: SQLite answers SQLITE_FULL,
    "database or disk is full", exactly as on a full card)."""
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")


def make_room(store) -> None:
    store._conn.execute("PRAGMA max_page_count = 1073741823")


def test_a_full_database_is_503_on_both_views_retried_and_cleared_by_the_probe(tmp_path):
    clock = Clock()
    with SessionStore(tmp_path / "box.sqlite3") as store:
        flow = race_flow(store)
        loop = box(flow, clock=clock)
        fill_up(store)
        acknowledged = []
        for n in range(400):  # the card fills during the game: reports until the first one that does not fit
            answer = act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": n % 40})
            if answer["status"] != 200:
                break
            acknowledged += answer["recorded"]
        assert answer["status"] == 503 and answer["recorded"] == [], answer
        stamp = time.strftime("%H:%M", time.localtime(loop.storage.since))
        assert answer["error"] == (f"storage full: nothing since {stamp} is saved; the box's owner makes room on its "
                                   "card, then tap again (note your moves until then)")
        view = answer["_view"]
        assert view["storage"]["ok"] is False and view["storage"]["message"] == answer["error"]
        assert view["status"]["message"] == answer["error"]  # the touchscreen's status line says it too
        assert view["storage"]["since"] == pytest.approx(time.time(), abs=60)
        # reads and the views keep working; nothing acknowledged is touched
        assert [e.seq for e in flow.session.events()] == acknowledged
        assert view["session"]["events"] == acknowledged[-1]
        # the next write tries again (and is refused again, with the same first-failure time)
        again = act(loop, "report", "touchscreen", player="Bob", form="hand", values={"cards": 3})
        assert again["status"] == 503 and again["error"] == answer["error"]
        # room is made: the probe (every PROBE_S s while failing) clears the banner without any tap
        make_room(store)
        loop.step()
        assert loop.storage.ok is False  # not yet time to probe
        clock.now += storage.PROBE_S
        loop.step()
        view = loop.hub.snapshot().view
        assert view["storage"]["ok"] is True and view["storage"]["message"] == ""
        done = act(loop, "report", "touchscreen", player="Bob", form="hand", values={"cards": 3})
        assert done["status"] == 200 and done["recorded"] == [acknowledged[-1] + 1]
    with SessionStore(tmp_path / "box.sqlite3") as reopened:  # everything acknowledged is in the file
        assert [e.seq for e in reopened.get(flow.session.id).events()] == [*acknowledged, done["recorded"][0]]


def test_the_next_successful_write_clears_the_banner_too(tmp_path):
    with SessionStore(tmp_path / "box.sqlite3") as store:
        flow = race_flow(store)
        loop = box(flow)
        fill_up(store)
        while act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 1})["status"] == 200:
            pass
        assert not loop.storage.ok
        make_room(store)
        assert act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 2})["status"] == 200
        assert loop.hub.snapshot().view["storage"]["ok"] is True


def test_camera_reads_that_cannot_be_written_are_dropped_with_the_banner(tmp_path):
    from tests.test_app import ScriptedReader, scenes

    with SessionStore(tmp_path / "box.sqlite3") as store:
        session = store.start("d6", {})
        hub = StateHub()
        loop = MainLoop(source=FakeCamera(scenes(*([1, 2, 3, 4, 5, 6] * 12))), reader=ScriptedReader(),
                        session=session, hub=hub, stillness=StillnessDetector(), stop_at_end=True,
                        sleep=lambda s: None)
        fill_up(store)
        loop.run(max_frames=12 * 40)  # the scenes go on being read until the file is full
        assert loop.storage.ok is False and loop.message.startswith("read not saved: storage full")
        kept = [e.payload["values"] for e in session.events()]
        assert 0 < len(kept) < 40 and kept == [[v] for v in ([1, 2, 3, 4, 5, 6] * 12)[:len(kept)]]
        make_room(store)
        loop.run(max_frames=12 * 48)
        assert loop.storage.ok and len(session.events()) > len(kept)  # later reads are recorded again


def test_a_setup_step_write_that_fails_changes_nothing_shown(tmp_path):
    from companion.setup_flow import TableSetup

    with SessionStore(tmp_path / "box.sqlite3") as store:
        setup = TableSetup(store, FLOWS["race"])
        loop = MainLoop(source=FakeCamera([np.zeros((60, 80, 3), np.uint8)] * 5), reader=None, session=None,
                        hub=StateHub(), stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
        act(loop, "setup_player", "touchscreen", player="Ann")
        fill_up(store)
        for n in range(400):  # players come and go until the file is full
            if act(loop, "setup_player", "touchscreen", player=f"P{n}")["status"] != 200:
                break
            if act(loop, "setup_remove", "touchscreen", player=f"P{n}")["status"] != 200:
                break
        assert loop.storage.ok is False
        names, version = list(setup.names), setup.version
        failed = act(loop, "setup_player", "touchscreen", player="Zed")
        assert failed["status"] == 503 and setup.names == names and setup.version == version
        assert [p["name"] for p in failed["_view"]["game"]["players"]] == setup.names


# -- read-only at start --------------------------------------------------------------------------------


@contextlib.contextmanager
def read_only(path: Path):
    """``path`` (a file or a folder) cannot be written, as on a card mounted read-only: ``chattr +i`` when
    running as root (root ignores file modes), else its mode bits. Skips when neither works."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)],
                                                            capture_output=True).returncode:
            pytest.skip("running as root and chattr +i is not possible here: cannot make a file read-only")
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)


def _game_with_two_reports(db: Path) -> str:
    with SessionStore(db) as store:
        flow = race_flow(store)
        flow.report("Ann", "hand", {"cards": 5})
        flow.report("Bob", "hand", {"cards": 6})
        return flow.session.id


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_database_read_only_at_start_runs_shows_the_game_and_answers_writes_503(tmp_path, what):
    folder = tmp_path / "data"
    db = folder / "box.sqlite3"
    game = _game_with_two_reports(db)
    (folder / "box.sqlite3.lock").touch()
    clock = Clock()
    with read_only(db if what == "file" else folder):
        store = SessionStore.open_or_recover(db, exclusive=True)
        try:
            flow = GameFlow(store.resume_latest("race"), FLOWS["race"])
            assert flow.session.id == game
            loop = box(flow, clock=clock)
            assert store.read_only is not None and store.read_only.kind == "read-only"
            # detected at start, not on the first tap
            view = loop.view()
            assert view["storage"]["ok"] is False
            assert view["storage"]["message"].startswith("storage read-only: nothing since")
            assert view["session"]["events"] == 2 and loop.hub.pairing() is not None  # the game shows; phones can join
            answer = act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 7})
            assert answer["status"] == 503 and answer["error"].startswith("storage read-only")
            claim = act(loop, "claim_seat", player="Ann", client="phone-1")
            assert claim["status"] == 503 and loop.hub.pairing().claims == {}
            assert flow.session.last_seq == 2
        except BaseException:
            store.close()
            raise
    # the card is writable again: the probe opens it for writing and the box goes on saving
    try:
        clock.now += storage.PROBE_S
        loop.step()
        assert loop.storage.ok and store.read_only is None
        assert act(loop, "report", "touchscreen", player="Ann", form="hand", values={"cards": 7})["recorded"] == [3]
    finally:
        store.close()
    with SessionStore(db) as reopened:
        assert [e.payload["cards"] for e in reopened.get(game).events()] == [5, 6, 7]


def test_low_free_space_is_shown_from_the_start(tmp_path, monkeypatch):
    monkeypatch.setattr(storage, "LOW_MB", 10 ** 12)  # more than any disk here: every disk is "low"
    with SessionStore(tmp_path / "box.sqlite3") as store:
        loop = box(race_flow(store))
        view = loop.view()
        free = shutil.disk_usage(tmp_path).free // 2 ** 20
        assert view["storage"]["ok"] is True and view["storage"]["low"] is True
        assert abs(view["storage"]["free_mb"] - free) < 1024
        assert view["storage"]["message"].startswith("storage low: ") and "MB free" in view["storage"]["message"]
        assert loop.message == view["storage"]["message"]


def test_a_new_free_space_figure_never_says_the_storage_works_again(tmp_path, monkeypatch):
    # the storage never failed: a new free-space figure (every SPACE_S s) is no news for the status line
    clock = Clock()
    with SessionStore(tmp_path / "box.sqlite3") as store:
        loop = box(race_flow(store), clock=clock)
        loop.step()
        said = loop.message
        free = iter(range(5000, 6000, 7))
        monkeypatch.setattr(loop.storage, "free_space", lambda: setattr(loop.storage, "free_mb", next(free)))
        for _ in range(3):
            clock.now += storage.SPACE_S
            loop.step()
            assert loop.hub.snapshot().view["storage"]["ok"] is True
            assert "works again" not in str(loop.message) and loop.message == said



# hand-written: what the players do while nothing is saved ("tap again", "note your moves"), in each language
TAP_AGAIN = {"el": ("πατήστε ξανά", "σημειώστε τις κινήσεις σας"), "pl": ("dotknij ponownie", "notuj swoje ruchy"),
             "hu": ("koppints újra", "jegyezd fel a lépéseidet")}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
@pytest.mark.parametrize("kind", ["full", "read-only", "busy", "failing"])
def test_while_nothing_is_saved_the_views_say_what_the_owner_and_the_players_do(tmp_path, lang, kind):
    """The banner on both views while writes fail said only "storage full: nothing since 21:04 is saved": it now says
    what the box's owner does and that the players tap again (noting their moves meanwhile), in their language."""
    from companion.database import storage_error
    from companion.i18n import say

    with SessionStore(tmp_path / "box.sqlite3") as store:
        health = storage.StorageHealth(store, clock=Clock(), wall=lambda: 0.0)
        health.failed(storage_error(store.path, "report", kind, "disk I/O error"))
        english, said = say(health.message, "en"), say(health.message, lang)
    assert "the box's owner" in english and english.endswith("then tap again (note your moves until then)")
    assert all(words in said for words in TAP_AGAIN[lang]) and "owner" not in said and "nothing since" not in said


# hand-written: "cannot be written" and the way out, in each language
CANNOT_WRITE = {"el": "δεν μπορεί να γραφτεί", "pl": "nie da się zapisać", "hu": "nem írható"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_database_that_cannot_be_made_stops_the_start_in_the_boxs_language_with_what_to_do(tmp_path, capsys,
                                                                                             monkeypatch, lang):
    """`companion --language el demo --db FOLDER/new.sqlite3` on a folder that cannot be written (a card mounted
    read-only) stopped with "session database ...: opening failed: unable to open database file", in English and
    without a way out: it is said in the box's language, with what to do (exit 3, as a folder given as --db)."""
    from companion.cli import main

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "card"
    folder.mkdir()
    db = folder / "new.sqlite3"
    with read_only(folder):
        assert main(["--language", lang, "demo", "--db", str(db), "--no-web", "--no-screen", "--no-gpio",
                     "--max-frames", "1"]) == 3
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert str(db) in err and CANNOT_WRITE[lang] in err and "--db" in err
    assert "failed" not in err and "make the file" not in err and not db.exists()

# -- a whole box process whose writes the kernel refuses ---------------------------------------------------


def test_a_box_whose_file_writes_the_kernel_refuses_answers_503_and_stays_up(tmp_path):
    pytest.importorskip("resource")
    from bench.box_process import BoxProcess

    db = tmp_path / "box.sqlite3"
    limit = 256 * 1024  # bytes any file of the box process may grow to (RLIMIT_FSIZE): the WAL reaches it
    box_process = BoxProcess(["demo", "--game", "race", "--players", "Ann,Bob", "--db", str(db), "--no-screen",
                              "--no-gpio"], tmp_path,
                             preamble="import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
                                      f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))")
    try:
        box_process.wait_until(lambda s: s.get("session", {}).get("id"))
        acknowledged = 0
        for n in range(2000):
            status, answer = box_process.post("/api/report",
                                              {"player": "Ann", "form": "hand", "values": {"cards": n % 40}})
            if status != 200:
                break
            acknowledged += 1
        assert status == 503 and answer["error"].startswith("storage failing (disk I/O error): nothing since"), answer
        assert box_process.alive()  # the box stays up
        state = box_process.get("/api/state")
        assert state["storage"]["ok"] is False and state["session"]["events"] == acknowledged
        # another report: refused while the file stays at its limit, or recorded where a smaller write still fits
        # (or the loop's probe found writing works again): either way it is answered as it was kept
        status, answer = box_process.post("/api/report", {"player": "Bob", "form": "hand", "values": {"cards": 1}})
        assert status in (200, 503), answer
        if status == 200:
            acknowledged += 1
            assert box_process.get("/api/state")["storage"]["ok"] is True
        else:
            assert answer["error"].startswith("storage failing (disk I/O error): nothing since"), answer
    finally:
        code, err = box_process.stop()
    assert code == 0, err[-2000:]
    assert "Traceback" not in err
    with SessionStore(db) as store:  # nothing acknowledged is lost
        [info] = store.list_sessions()
        assert info.events == acknowledged


def test_a_first_start_on_a_card_that_takes_no_more_bytes_says_so_and_the_next_start_after_room_is_made_plays(
        tmp_path):
    """A first start on a full card: SQLite makes an empty database file and cannot write its first page, and the
    pid cannot be written into the lock file. The box said only "companion: the disk is full" (exit 1): closing the
    lock file flushed the refused pid again, and that error hid the database's own line; a second start opened the
    empty file read-only and said "listing sessions failed: no such table: sessions". Each start now says the
    database's line with what to do (exit 3: no session database), and once there is room the box starts on the
    file left behind. (The kernel refuses every write past 0 bytes here, RLIMIT_FSIZE, as a full card does.)"""
    pytest.importorskip("resource")
    import sys

    repo = Path(__file__).resolve().parent.parent
    db = tmp_path / "card" / "demo.sqlite3"
    db.parent.mkdir()
    args = ["demo", "--db", str(db), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]
    env = {**os.environ, "PYTHONPATH": str(repo), "TABLETOP_DATA_DIR": str(tmp_path / "data"),
           "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}

    def start(limited: bool) -> subprocess.CompletedProcess:
        limit = ("import resource, signal; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
                 "resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0)); ") if limited else ""
        script = limit + "import sys; from companion.cli import main; sys.exit(main(sys.argv[1:]))"
        return subprocess.run([sys.executable, "-c", script, *args], env=env, cwd=repo, capture_output=True,
                              text=True, timeout=180)

    for _ in range(2):
        full = start(limited=True)
        last = full.stderr.strip().splitlines()[-1]
        assert full.returncode == 3, full.stderr[-2000:]
        assert last.startswith(f"companion demo: session database {db}: the storage ") and "--db" in last, last
        assert "Traceback" not in full.stderr and "no such table" not in full.stderr
        assert db.exists() and db.stat().st_size == 0  # what SQLite left: nothing recorded, nothing read from it
    room = start(limited=False)
    assert room.returncode == 0, room.stderr[-2000:]
    with SessionStore(db) as store:
        assert [info.game for info in store.list_sessions()] == ["d6"]


@pytest.mark.parametrize("stored", [
    '{"player":',  # cut short on the disk
    '{"player": "Ann", "cards": ' + "9" * 5000 + "}",  # a number longer than Python reads (4300 digits)
    '{"x": ' + "[" * 5000 + "]" * 5000 + "}",  # nested deeper than the reader goes
    "null",  # no object at all
])
def test_an_event_changed_on_the_disk_is_refused_naming_it_not_a_crash(tmp_path, capsys, stored):
    """A database whose stored event 1 (Ann's hand of 5) was changed outside the box so that it is no JSON object this
    program reads: opening the game is refused with a SessionError naming the session, the file and the event, as a
    log that no longer replays is; `companion export` says so in one line (exit 3) instead of a traceback."""
    import sqlite3

    from companion.cli import main
    from companion.errors import SessionError

    db = tmp_path / "box.sqlite3"
    with SessionStore(db) as store:
        flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
        flow.report("Ann", "hand", {"cards": 5})
        sid = flow.session.id
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE seq = 1", (stored,))
    with SessionStore(db) as store, pytest.raises(SessionError) as refused:
        store.resume_latest("race").replay()
    assert str(refused.value) == (f"session {sid} in {db}: event 1 as stored is not a JSON object this program "
                                  "reads (changed outside the box?)")
    from companion import i18n

    assert i18n.say(refused.value, "el") == (f"η συνεδρία {sid} στο αρχείο {db}: το συμβάν 1, όπως είναι αποθηκευμένο, "
                                             "δεν είναι αντικείμενο JSON που διαβάζει αυτό το πρόγραμμα (άλλαξε έξω "
                                             "από το κουτί;)")
    assert i18n.say(refused.value, "pl") == (f"sesja {sid} w pliku {db}: zapisane zdarzenie 1 nie jest obiektem JSON, "
                                             "który ten program odczytuje (zmienione poza pudełkiem?)")
    # the article read as the number is said: "a 2026…" (kettő), "az 1." (egy)
    assert i18n.say(refused.value, "hu") == (f"a {sid} munkamenet ({db}): az 1. esemény a tárolt formájában nem "
                                             "olyan JSON-objektum, amelyet a program beolvas (a dobozon kívül "
                                             "módosították?)")
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(tmp_path / "g.json")]) == 3
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [f"companion export: {refused.value}"]
