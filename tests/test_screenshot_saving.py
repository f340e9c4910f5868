"""``--screenshot`` on storage that refuses the write: the earlier picture stays whole, the reason is said once, in
the run's language, and the box goes on."""

from __future__ import annotations

import errno
import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

from companion.commands.files import screenshot_saver
from companion.i18n import use_language

# A child process, so that the file size limit (the kernel refusing a write past 1000 bytes, as a full card refuses
# one past its last free block) holds nothing of the test run's own files.
CARD_FILLS = """
import json, os, resource, signal, sys
from companion.screen import TouchScreen
shot = sys.argv[1]
screen = TouchScreen()
screen.render({"status": {"camera": "starting"}})
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing
resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
try:
    screen.save_png(shot)
    said = {"raised": None}
except Exception as exc:
    said = {"raised": type(exc).__name__, "errno": getattr(exc, "errno", None)}
print(json.dumps(said))
"""


def test_a_card_that_refuses_the_write_leaves_the_earlier_screenshot_whole(tmp_path):
    shot = tmp_path / "shot.png"
    assert cv2.imwrite(str(shot), np.full((4, 4, 3), 200, np.uint8))  # an earlier run's picture, 4 x 4
    before = shot.read_bytes()
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    run = subprocess.run([sys.executable, "-c", CARD_FILLS, str(shot)], capture_output=True, text=True, env=env,
                         timeout=120, cwd=Path(__file__).resolve().parents[1])
    assert run.returncode == 0, run.stderr
    said = json.loads(run.stdout.strip().splitlines()[-1])
    # the system's refusal, which the box says in the player's language; not pygame's "Error writing the PNG file."
    assert said == {"raised": "OSError", "errno": errno.EFBIG}
    assert "libpng error" not in run.stderr  # no line of its own on the terminal at every read
    assert shot.read_bytes() == before  # not cut off at the 1000th byte
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.png"]  # no half-written spare left beside it


class _ReadOnlyCard:
    """A touchscreen whose card was remounted read-only mid-game: every save is refused at the spare file, whose
    name (and so the error's text) is new each time, as ``tempfile.mkstemp`` makes it."""

    def __init__(self) -> None:
        self.saves = 0

    def save_png(self, path: Path) -> Path:
        self.saves += 1
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), f"{path.parent}/.{path.name}.{self.saves:06d}.new")


def test_a_refused_screenshot_is_said_once_per_reason_and_the_next_read_tries_again(tmp_path, caplog):
    screen = _ReadOnlyCard()
    save = screenshot_saver(screen, tmp_path / "shot.png")
    with use_language("hu"), caplog.at_level(logging.INFO, logger="companion"):
        for _read in range(3):
            save()  # returns: the box goes on to its next read
    assert screen.saves == 3
    lines = [r for r in caplog.records if "--screenshot" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.ERROR
    assert str(tmp_path / "shot.png") in lines[0].getMessage()
    assert "csak olvasható" in lines[0].getMessage()  # "the file system is read-only", in Hungarian


def test_no_screen_or_no_path_saves_nothing(tmp_path):
    screen = _ReadOnlyCard()
    screenshot_saver(screen, None)()
    screenshot_saver(None, tmp_path / "shot.png")()
    assert screen.saves == 0 and not (tmp_path / "shot.png").exists()


def test_a_screenshot_is_a_whole_png_others_may_read(tmp_path):
    """Written through a spare file (private to the box's user when made), the picture is still readable by the
    person who looks at it, as pygame's own file was."""
    from companion.screen import TouchScreen

    screen = TouchScreen()
    screen.render({"status": {"camera": "starting"}})
    shot = screen.save_png(tmp_path / "shots" / "shot.png")  # its folder made
    assert cv2.imread(str(shot)).shape[:2] == (480, 800)
    assert shot.stat().st_mode & 0o777 == 0o644
    assert sorted(p.name for p in shot.parent.iterdir()) == ["shot.png"]
