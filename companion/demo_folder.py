"""The demo's data folder when the box's own cannot be written: ``companion demo`` is tried out on a machine the box's
folder is not set up for (``box.data_dir`` on a card not mounted, a read-only disk, a folder of another user), and a
player trying it expects to see it play, not an exit. So the demo keeps that run's games in a fresh temporary folder,
says so on one line, and removes it when it stops. ``companion run`` never does this: the table's games would be lost
at the next start, so it refuses such a folder, naming it and the setting to change (exit 3,
:func:`companion.paths.data_dir`).

A demo that cannot remove its folder (killed with SIGKILL, the power cut) leaves it behind; the next demo removes
such folders (:func:`remove_stale_demo_folders`), only those it can tell a demo made and whose demo is gone: a
``companion-demo-*`` folder of the system's temporary folder, a real folder of this user, holding the owner file a demo
writes (:data:`OWNER_FILE`: its process id and when that process started), whose process is no longer running (or
the id now belongs to a process started at another time). Anything else is left as it is."""

from __future__ import annotations

import atexit
import json
import logging
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path

import platformdirs

from companion.i18n import _
from companion.paths import APP_NAME, DATA_DIR_ENV, data_dir_problem

__all__ = ["OWNER_FILE", "PREFIX", "demo_data_folder", "remove_stale_demo_folders"]

log = logging.getLogger(__name__)

PREFIX = "companion-demo-"
"""How the name of a demo's temporary folder starts (``tempfile.mkdtemp``'s prefix)."""

OWNER_FILE = ".companion-demo-owner.json"
"""The file a demo writes in its temporary folder: ``{"pid": <its process id>, "started": <when that process started,
in the kernel's clock ticks since boot, or null where the system does not say>}``."""

MAX_PID = 2**31 - 1
"""The largest process id a system gives (``pid_t`` is a signed 32-bit number): an owner file naming another is no
demo's."""


def _started(pid: int) -> int | None:
    """When process ``pid`` started (clock ticks since boot: ``/proc/<pid>/stat``'s 22nd field), or None when the
    system does not say (no ``/proc``, no such process, unreadable)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii", errors="replace")
        return int(text.rsplit(")", 1)[1].split()[19])  # fields after the command's name, which may hold spaces
    except (OSError, IndexError, ValueError):
        return None


def _running(pid: int, started: int | None) -> bool:
    """Whether the process that wrote an owner file (``pid``, started at ``started``) is still running: ``pid`` is a
    process now (one of another user counts too) and, where both are known, it started when the file says."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # alive, another user's
    except (OSError, OverflowError):
        return True  # cannot tell: keep the folder
    now = _started(pid)
    return started is None or now is None or now == started


def _owner(folder: Path) -> tuple[int, int | None] | None:
    """``(pid, started)`` from ``folder``'s owner file when it is a regular file (not a link) a demo wrote: a process
    id from 1 to :data:`MAX_PID` and a start that is null or a count from 0; else None (a file cut short, grown large,
    or naming no process a demo could have been: the folder is not a demo's)."""
    path = folder / OWNER_FILE
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a link refused, a pipe never waited on
        with os.fdopen(fd, "rb") as file:
            if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
                return None
            text = file.read(201)
        if len(text) > 200:  # a demo writes some 40 bytes
            return None
        data = json.loads(text.decode("utf-8"))
    except (OSError, ValueError):
        return None
    pid, started = (data.get("pid"), data.get("started")) if isinstance(data, dict) else (None, None)
    if type(pid) is not int or not 0 < pid <= MAX_PID:
        return None
    if started is not None and (type(started) is not int or started < 0):
        return None
    return pid, started


def remove_stale_demo_folders(parent: Path | None = None) -> list[Path]:
    """Remove the temporary folders earlier demos left behind in ``parent`` (None: the system's temporary folder):
    each ``companion-demo-*`` entry that is a real folder (not a link), owned by this user, holding a demo's owner
    file (:data:`OWNER_FILE`) whose process is gone (:func:`_running`). Never raises: a folder that cannot be read or
    removed is left (a line in the log).

    Returns:
        The folders removed.
    """
    parent = Path(parent or tempfile.gettempdir())
    removed: list[Path] = []
    try:
        entries = sorted(parent.glob(PREFIX + "*"))
    except OSError as exc:
        log.info("demo folders in %s not looked at: %s", parent, exc)
        return removed
    for folder in entries:
        try:
            info = folder.lstat()
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                continue
            owner = _owner(folder)
            if owner is None or _running(*owner):
                continue
            shutil.rmtree(folder)
            removed.append(folder)
            log.info("removed %s, left by a demo that stopped without removing it", folder)
        except OSError as exc:
            log.info("left %s: %s", folder, exc)
    return removed


def demo_data_folder(command: str | None) -> Path | None:
    """For ``companion demo`` (``command == "demo"``) whose data folder (``$TABLETOP_DATA_DIR``, which
    ``box.data_dir`` sets, else the user's data directory) cannot be made or written: a new temporary folder made
    ``$TABLETOP_DATA_DIR`` for this process, removed when it ends (and by the next demo if this one is killed:
    :func:`remove_stale_demo_folders`, run first), and one line on stderr saying why and where the demo's games go.
    Returns that folder, or None (another command, or the folder is fine: nothing changed).

    Raises:
        OSError: not even a temporary folder can be made (the system's temporary folder is full or read-only); the
            caller then refuses the folder as ``companion run`` does.
    """
    if command != "demo":
        return None
    remove_stale_demo_folders()  # those of demos killed before they could remove theirs
    given = os.environ.get(DATA_DIR_ENV, "").strip()
    folder = Path(given).expanduser() if given else Path(platformdirs.user_data_dir(APP_NAME))
    problem = data_dir_problem(folder)
    if problem is None:
        return None
    spare = Path(tempfile.mkdtemp(prefix=PREFIX))
    atexit.register(shutil.rmtree, spare, True)
    owner = {"pid": os.getpid(), "started": _started(os.getpid())}
    (spare / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")  # for the next demo, if this one is killed
    os.environ[DATA_DIR_ENV] = str(spare)
    print(_("companion demo: {folder}: {problem}; this demo keeps its games in {spare} instead and removes them "
            "when it stops (companion run refuses that folder)").format(problem=problem, folder=folder, spare=spare),
          file=sys.stderr)
    return spare
