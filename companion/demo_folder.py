"""The demo's data folder when the box's own cannot be written: ``companion demo`` is tried out on a machine the box's
folder is not set up for (``box.data_dir`` on a card not mounted, a read-only disk, a folder of another user), and a
player trying it expects to see it play, not an exit. So the demo keeps that run's games in a fresh temporary folder,
says so on one line, and removes it when it stops. ``companion run`` never does this: the table's games would be lost
at the next start, so it refuses such a folder, naming it and the setting to change (exit 3,
:func:`companion.paths.data_dir`)."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import platformdirs

from companion.i18n import _
from companion.paths import APP_NAME, DATA_DIR_ENV, data_dir_problem

__all__ = ["demo_data_folder"]


def demo_data_folder(command: str | None) -> Path | None:
    """For ``companion demo`` (``command == "demo"``) whose data folder (``$TABLETOP_DATA_DIR``, which
    ``box.data_dir`` sets, else the user's data directory) cannot be made or written: a new temporary folder made
    ``$TABLETOP_DATA_DIR`` for this process, removed when it ends, and one line on stderr saying why and where the
    demo's games go. Returns that folder, or None (another command, or the folder is fine: nothing changed).

    Raises:
        OSError: not even a temporary folder can be made (the system's temporary folder is full or read-only); the
            caller then refuses the folder as ``companion run`` does.
    """
    if command != "demo":
        return None
    given = os.environ.get(DATA_DIR_ENV, "").strip()
    folder = Path(given).expanduser() if given else Path(platformdirs.user_data_dir(APP_NAME))
    problem = data_dir_problem(folder)
    if problem is None:
        return None
    spare = Path(tempfile.mkdtemp(prefix="companion-demo-"))
    atexit.register(shutil.rmtree, spare, True)
    os.environ[DATA_DIR_ENV] = str(spare)
    print(_("companion demo: {problem} ({folder}); this demo keeps its games in {spare} instead and removes them "
            "when it stops (companion run refuses that folder)").format(problem=problem, folder=folder, spare=spare),
          file=sys.stderr)
    return spare
