"""companion.doctor: each check with fakes (a fake camera or none, a corrupt database, a clock never set,
a calibration whose sheet moved), and `companion doctor`'s lines and exit code on this machine."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from companion.config import load
from companion.doctor import (
    CHECKS,
    CalibrationCheck,
    CameraCheck,
    ClockCheck,
    DatabaseCheck,
    DiskCheck,
    DoctorContext,
    Level,
    LightCheck,
    NetworkCheck,
    ServiceCheck,
    health,
    run_checks,
)
from device import CameraNotFound, FakeCamera

LINE = re.compile(r"^(OK|WARN|FAIL) {2,}(\S+) {2,}\S.*$")


def table(size=(640, 480), level=120) -> np.ndarray:
    """A lit table: grey cloth with a few brighter blocks (uint8[H, W, 3] BGR)."""
    image = np.full((size[1], size[0], 3), level, np.uint8)
    image[50:120, 60:140] = min(255, level + 80)
    return image


def context(tmp_path: Path, frames=None, config_text: str = "", **over) -> DoctorContext:
    path = tmp_path / "config.toml"
    path.write_text(config_text, encoding="utf-8")
    camera = (lambda: FakeCamera(frames, name="fake:table")) if frames is not None else over.pop("open_camera", None)
    return DoctorContext(load(path, env={}), open_camera=camera, data_dir=tmp_path, now=over.pop("now", lambda: 1.9e9),
                         run=over.pop("run", lambda cmd: (127, "not here")),
                         address=over.pop("address", lambda: "192.168.1.20"),
                         **over)


def absent_camera():
    raise CameraNotFound("no camera found (auto): picamera2: not installed; opencv:0: no camera at /dev/video0")


def result(check, ctx):
    got = check.perform_check(ctx)
    assert got.key == check.key and got.message
    return got


def test_no_camera_fails_and_says_what_to_do(tmp_path):
    ctx = context(tmp_path, open_camera=absent_camera)
    got = result(CameraCheck(), ctx)
    assert got.level is Level.FAIL
    assert "no camera found" in got.message and "Connect the camera" in got.message
    assert result(LightCheck(), ctx).level is Level.WARN  # nothing to judge: said once, by the camera check


def test_a_camera_that_hangs_fails_within_its_timeout(tmp_path):
    import threading

    never = threading.Event()

    class Hanging:
        name = "opencv:0"

        def __enter__(self):
            never.wait(5)
            return self

        def __exit__(self, *exc):
            return False

    ctx = context(tmp_path, open_camera=Hanging, camera_timeout_s=0.2)
    got = result(CameraCheck(), ctx)
    never.set()
    assert got.level is Level.FAIL and "within 0.2 s" in got.message


def test_a_fake_camera_at_the_expected_size_is_ok(tmp_path):
    ctx = context(tmp_path, [table((640, 480))], '[camera]\nsize = "640x480"\n')
    got = result(CameraCheck(), ctx)
    assert got.level is Level.OK and got.message == "fake:table delivers 640x480 frames"
    assert result(LightCheck(), ctx).level is Level.OK


def test_frames_of_another_size_than_configured_warn(tmp_path):
    ctx = context(tmp_path, [table((320, 240))], '[camera]\nsize = "1280x720"\n')
    got = result(CameraCheck(), ctx)
    assert got.level is Level.WARN and "320x240" in got.message and "1280x720" in got.message


@pytest.mark.parametrize("level, expected, words", [(0, Level.FAIL, "black"), (255, Level.FAIL, "white"),
                                                     (35, Level.WARN, "dim"), (120, Level.OK, "brightness")])
def test_light_level(tmp_path, level, expected, words):
    image = np.full((240, 320, 3), level, np.uint8)
    got = result(LightCheck(), context(tmp_path, [image]))
    assert got.level is expected and words in got.message


def test_a_corrupt_database_fails(tmp_path):
    db = tmp_path / "sessions.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE events (seq INTEGER PRIMARY KEY, payload TEXT)")
        conn.executemany("INSERT INTO events (payload) VALUES (?)", [("x" * 500,)] * 400)
    conn.close()
    assert result(DatabaseCheck(), context(tmp_path)).level is Level.OK
    data = bytearray(db.read_bytes())
    page = 4096
    data[2 * page: 2 * page + 200] = b"\xff" * 200  # a b-tree page's header overwritten
    db.write_bytes(bytes(data))
    got = result(DatabaseCheck(), context(tmp_path))
    assert got.level is Level.FAIL and str(db) in got.message and "sets it aside" in got.message
    db.write_bytes(b"not a database at all" * 100)
    assert result(DatabaseCheck(), context(tmp_path)).level is Level.FAIL


def test_no_database_yet_is_fine(tmp_path):
    got = result(DatabaseCheck(), context(tmp_path))
    assert got.level is Level.OK and "no session database yet" in got.message
    assert not (tmp_path / "sessions.sqlite3").exists()  # looked at, never made


def test_a_clock_never_set_fails_and_an_unsynchronised_one_warns(tmp_path, monkeypatch):
    assert result(ClockCheck(), context(tmp_path, now=lambda: 86400.0)).level is Level.FAIL  # 2 Jan 1970
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    unsynced = context(tmp_path, run=lambda cmd: (0, "no") if cmd[0] == "timedatectl" else (0, "active"))
    assert result(ClockCheck(), unsynced).level is Level.WARN
    synced = context(tmp_path, run=lambda cmd: (0, "yes"))
    assert result(ClockCheck(), synced).level is Level.OK


def test_network_and_service(tmp_path, monkeypatch):
    assert result(NetworkCheck(), context(tmp_path, address=lambda: "127.0.0.1")).level is Level.WARN
    got = result(NetworkCheck(), context(tmp_path, config_text="[web]\nport = 9000\n"))
    assert got.level is Level.OK and got.message == "phone view at http://192.168.1.20:9000/"
    monkeypatch.setattr("shutil.which", lambda name: f"/usr/bin/{name}")
    for answer, level in (("active", Level.OK), ("failed", Level.FAIL), ("inactive", Level.WARN)):
        assert result(ServiceCheck(), context(tmp_path, run=lambda cmd, a=answer: (0, a))).level is level
    monkeypatch.setattr("shutil.which", lambda name: None)
    assert result(ServiceCheck(), context(tmp_path)).level is Level.WARN


def test_disk(tmp_path, monkeypatch):
    import shutil
    from collections import namedtuple

    usage = namedtuple("usage", "total used free")
    assert result(DiskCheck(), context(tmp_path)).level in (Level.OK, Level.WARN)
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(2**34, 2**34 - 50 * 2**20, 50 * 2**20))
    assert result(DiskCheck(), context(tmp_path)).level is Level.FAIL


def test_a_data_folder_that_cannot_be_made_is_said_by_the_disk_check_and_named_by_the_others(tmp_path, monkeypatch):
    """A file where the data folder should be: the disk check names the problem, the calibration and the database
    checks point to it (a WARN and a FAIL: the box cannot start without its database), none of them 'failed itself'
    with a Python error name."""
    from companion import i18n

    blocker = tmp_path / "photo.jpg"
    blocker.write_bytes(b"not a folder")
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(blocker / "data"))
    ctx = context(tmp_path, [table()])
    ctx.data_dir = None  # the box's own folder, from $TABLETOP_DATA_DIR
    results = {r.key: r for r in run_checks(ctx, [CalibrationCheck(), DiskCheck(), DatabaseCheck()])}
    assert results["disk"].level is Level.FAIL and "cannot make the data folder" in results["disk"].message
    assert (results["calibration"].level, results["database"].level) == (Level.WARN, Level.FAIL)
    for key in ("calibration", "database"):
        assert str(results[key].message) == "no data folder (see disk)"
        assert "failed" not in str(results[key].message) and "Error" not in str(results[key].message)
    greek = i18n.localize(results["database"].message, "el")
    assert greek != "no data folder (see disk)" and "disk" in greek  # the check's key, as the listing shows it


def sheet_on_table(shift=(0, 0)) -> np.ndarray:
    import cv2

    from vision.mat import render_mat

    sheet = cv2.cvtColor(render_mat(60), cv2.COLOR_GRAY2BGR)
    frame = np.full((800, 1000, 3), (60, 90, 110), np.uint8)
    y, x = 40 + shift[1], 200 + shift[0]
    frame[y:y + sheet.shape[0], x:x + sheet.shape[1]] = sheet
    return frame


def test_calibration_missing_fresh_moved_and_for_another_size(tmp_path):
    from companion.calibration import save_calibration
    from vision.table import calibrate

    assert result(CalibrationCheck(), context(tmp_path, [sheet_on_table()])).level is Level.WARN  # none yet
    save_calibration(calibrate(sheet_on_table()), tmp_path / "calibration.json", source="test")
    got = result(CalibrationCheck(), context(tmp_path, [sheet_on_table()], now=__import__("time").time))
    assert got.level is Level.OK and "markers where they were" in got.message
    moved = result(CalibrationCheck(), context(tmp_path, [sheet_on_table(shift=(60, 30))]))
    assert moved.level is Level.FAIL and "moved" in moved.message
    away = result(CalibrationCheck(), context(tmp_path, [np.full((800, 1000, 3), 100, np.uint8)]))
    assert away.level is Level.WARN and "not in view" in away.message
    other = result(CalibrationCheck(), context(tmp_path, [table((640, 480))]))
    assert other.level is Level.FAIL and "1000x800" in other.message
    (tmp_path / "calibration.json").write_text("{", encoding="utf-8")
    assert result(CalibrationCheck(), context(tmp_path, [sheet_on_table()])).level is Level.FAIL


def test_a_check_that_raises_is_a_fail_and_the_others_still_run(tmp_path):
    class Broken:
        key = "broken"

        def perform_check(self, ctx):
            raise RuntimeError("oops")

    results = run_checks(context(tmp_path, [table()]), [Broken(), DiskCheck()])
    assert [(r.key, r.level) for r in results][0] == ("broken", Level.FAIL)
    assert results[1].key == "disk"


def test_health_is_json_ready_and_every_check_has_a_unique_key(tmp_path):
    got = health(context(tmp_path, [table()]))
    assert json.loads(json.dumps(got)) == got
    assert [r["key"] for r in got] == [c.key for c in CHECKS]
    assert len({c.key for c in CHECKS}) == len(CHECKS)
    assert {r["level"] for r in got} <= {"OK", "WARN", "FAIL"}


def test_companion_doctor_here_fails_on_the_camera_and_prints_one_line_per_check(tmp_path, monkeypatch, capsys):
    from companion.cli import main

    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "{tmp_path / "no-such-folder"}"\n', encoding="utf-8")
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["doctor", "--config", str(config)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CHECKS) and all(LINE.match(line) for line in lines), lines
    assert [line.split()[1] for line in lines] == [c.key for c in CHECKS]
    camera = next(line for line in lines if line.split()[1] == "camera")
    assert camera.startswith("FAIL")
    # the same as JSON
    assert main(["doctor", "--config", str(config), "--json"]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert [r["key"] for r in rows] == [c.key for c in CHECKS]


def test_companion_doctor_exits_0_with_a_working_replay(tmp_path, monkeypatch, capsys):
    import cv2

    from companion.cli import main

    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "table.png"), table((640, 480)))
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "{photos}"\n', encoding="utf-8")
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    monkeypatch.setattr("companion.doctor.ClockCheck.perform_check",
                        lambda self, ctx: __import__("companion.doctor").doctor.CheckResult("clock", Level.OK, "set"))
    code = main(["doctor", "--config", str(config)])
    out = capsys.readouterr().out
    assert "FAIL" not in out and code == 0, out
    assert "delivers 640x480 frames" in out


def test_players_read_the_missing_calibration_in_their_words_and_only_the_owner_reads_the_command(tmp_path):
    """The status line (the touchscreen, every phone's /api/state) said "run `companion calibrate`": players cannot
    type a command at the table. They read that the camera is not calibrated for this table and that the box's
    owner can calibrate it (the box has no calibrate button); the owner page keeps the command."""
    from companion.calibration import save_calibration
    from companion.doctor import HealthWatch
    from companion.i18n import say
    from vision.table import calibrate

    def watch(frames):
        health = HealthWatch(lambda: context(tmp_path, frames), checks=[CalibrationCheck()])
        health.run_once()
        return health

    missing = watch([sheet_on_table()])
    assert "companion calibrate" in missing.checks()[0]["message"]  # the owner page
    status = missing.summary()
    assert (status["level"], status["key"]) == ("WARN", "calibration")
    for lang in ("en", "el", "pl", "hu"):
        said = say(status["message"], lang)
        assert "calibrate`" not in said and "companion" not in said and "`" not in said, (lang, said)
    assert "not been calibrated for this table" in say(status["message"], "en")
    assert "owner" in say(status["message"], "en")
    save_calibration(calibrate(sheet_on_table()), tmp_path / "calibration.json", source="test")
    for frames in ([sheet_on_table(shift=(60, 30))], [table((640, 480))]):  # the sheet moved; another size
        health = watch(frames)
        assert "companion calibrate" in health.checks()[0]["message"]
        status = health.summary()
        assert status["level"] == "FAIL" and "companion" not in say(status["message"], "en")
        assert "owner can calibrate it again" in say(status["message"], "en")


@pytest.mark.parametrize("command", [["doctor"], ["config", "check", "{config}"]])
def test_doctor_and_config_log_only_warnings_unless_verbose(tmp_path, command):
    """`config check` and `doctor` printed 'INFO device.replay: replaying ...' above their report: without -v they
    log warnings only; -v shows the rest (run in a process of its own: the log is set up once per process)."""
    import os
    import subprocess
    import sys

    import cv2

    (tmp_path / "photos").mkdir()
    assert cv2.imwrite(str(tmp_path / "photos" / "t1.png"), np.full((48, 64, 3), 90, np.uint8))
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "{tmp_path / "photos"}"\n[box]\ndata_dir = "{tmp_path / "data"}"\n')
    env = {**os.environ, "TABLETOP_CONFIG": str(config), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    argv = [arg.format(config=config) for arg in command]
    logged = {}
    for verbose in ([], ["-v"]):
        done = subprocess.run([sys.executable, "-m", "companion.cli", *verbose, *argv], capture_output=True,
                              text=True, timeout=120, env=env)
        assert "Traceback" not in done.stderr, done.stderr
        logged[bool(verbose)] = [line for line in done.stderr.splitlines() if re.search(r" (INFO|DEBUG) ", line)]
    assert logged[False] == []
    assert any(f"replaying {tmp_path / 'photos'}" in line for line in logged[True]), logged[True]
