"""A demo killed with SIGKILL leaves its temporary folder (companion/demo_folder.py): the next demo removes the
folders earlier demos left whose process is gone, and nothing else (a folder of a demo still running, one no demo
made, a link, a folder whose owner file is a link or not a demo's)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from companion import demo_folder
from companion.demo_folder import OWNER_FILE, PREFIX, remove_stale_demo_folders

ROOT = Path(__file__).resolve().parents[1]


def _dead_pid() -> int:
    """The id of a process that has ended (a child run and waited for)."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True)
    return int(child.stdout)


def _left(parent: Path, name: str, owner: object | None) -> Path:
    folder = parent / (PREFIX + name)
    folder.mkdir()
    (folder / "sessions.sqlite3").write_bytes(b"games")
    if owner is not None:
        (folder / OWNER_FILE).write_text(owner if isinstance(owner, str) else json.dumps(owner), encoding="utf-8")
    return folder


def test_only_folders_of_demos_that_are_gone_are_removed(tmp_path):
    me = {"pid": os.getpid(), "started": demo_folder._started(os.getpid())}
    dead = _left(tmp_path, "dead", {"pid": _dead_pid(), "started": 12345})
    reused = _left(tmp_path, "reused", {"pid": os.getpid(), "started": (me["started"] or 0) + 1})  # the id reused
    running = _left(tmp_path, "running", me)
    unknown_start = _left(tmp_path, "nostart", {"pid": os.getpid(), "started": None})  # alive, start not written
    foreign = _left(tmp_path, "foreign", None)  # no owner file: not a demo's (or an older box's)
    garbled = _left(tmp_path, "garbled", "{not json")
    wrong = _left(tmp_path, "wrong", {"pid": "12", "started": None})
    linked_owner = _left(tmp_path, "linkedowner", None)
    (tmp_path / "owner.json").write_text(json.dumps({"pid": _dead_pid(), "started": None}), encoding="utf-8")
    (linked_owner / OWNER_FILE).symlink_to(tmp_path / "owner.json")
    target = _left(tmp_path, "target-of-link", None)
    (tmp_path / (PREFIX + "link")).symlink_to(target)
    other = tmp_path / "other-folder"
    other.mkdir()
    (other / OWNER_FILE).write_text(json.dumps({"pid": _dead_pid(), "started": None}), encoding="utf-8")

    assert sorted(remove_stale_demo_folders(tmp_path)) == sorted([dead, reused])
    assert not dead.exists() and not reused.exists()
    for kept in (running, unknown_start, foreign, garbled, wrong, linked_owner, target):
        assert (kept / "sessions.sqlite3").exists(), kept
    assert (tmp_path / (PREFIX + "link")).is_symlink() and (other / OWNER_FILE).exists()
    assert remove_stale_demo_folders(tmp_path / "nothing-here") == []  # never raises


def test_a_demo_killed_with_sigkill_has_its_folder_removed_at_the_next_start(tmp_path, monkeypatch):
    """A demo whose data folder cannot be written plays in a temporary folder; killed with SIGKILL it cannot remove
    it (atexit does not run). The next demo's start removes it, and makes its own with its owner file."""
    script = ("import os, sys\n"
              "from companion.demo_folder import demo_data_folder\n"
              "print(demo_data_folder('demo'), flush=True)\n"
              "sys.stdin.read()\n")  # runs until killed (or its stdin closes)
    env = {**os.environ, "TMPDIR": str(tmp_path), "TABLETOP_DATA_DIR": "/proc/nope/box"}
    demo = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        spare = Path(demo.stdout.readline().strip())
        assert spare.parent == tmp_path and spare.name.startswith(PREFIX) and (spare / OWNER_FILE).is_file()
        assert remove_stale_demo_folders(tmp_path) == [] and spare.is_dir()  # still running: kept
    finally:
        demo.send_signal(signal.SIGKILL)
        demo.wait(timeout=10)
        demo.stdin.close()
        demo.stdout.close()
    assert spare.is_dir()  # SIGKILL: nothing removed it
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    monkeypatch.setenv("TABLETOP_DATA_DIR", "/proc/nope/box")
    mine = demo_folder.demo_data_folder("demo")
    assert not spare.exists()
    assert mine is not None and mine.is_dir() and json.loads((mine / OWNER_FILE).read_text())["pid"] == os.getpid()
    assert remove_stale_demo_folders(tmp_path) == [] and mine.is_dir()  # this one's process runs


def test_an_owner_file_naming_no_process_a_demo_could_have_been_leaves_its_folder(tmp_path):
    """A demo writes its own process id (1 to 2**31 - 1 on any system) and a start from 0 up. An owner file with a
    number out of that range, a pipe or a file grown large in its place is no demo's: its folder is kept, and the
    next demo starts rather than stopping on it (a process id too large for the system once raised OverflowError
    out of the cleanup)."""
    kept = [_left(tmp_path, f"pid{i}", {"pid": pid, "started": None})
            for i, pid in enumerate((0, -5, 2**31, 99999999999999999999, 10**400))]
    kept.append(_left(tmp_path, "negstart", {"pid": _dead_pid(), "started": -1}))
    kept.append(_left(tmp_path, "large", json.dumps({"pid": _dead_pid(), "started": None}) + " " * 300))
    piped = _left(tmp_path, "pipe", None)
    os.mkfifo(piped / OWNER_FILE)
    kept.append(piped)
    dead = _left(tmp_path, "dead", {"pid": _dead_pid(), "started": None})
    assert remove_stale_demo_folders(tmp_path) == [dead]
    for folder in kept:
        assert (folder / "sessions.sqlite3").exists(), folder
