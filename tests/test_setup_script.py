"""``./setup.sh run``'s main job, on a copy of the script whose programs are stand-ins (no packages installed):
a Raspberry Pi (picamera2 importable) runs ``companion run``, another machine ``companion demo``; README's
``./setup.sh run --once --no-screen`` (one pass of the demo without a window) is the demo on both, since --once
and --fast are options of the demo's replay that ``companion run`` does not take."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.sh"


def _script(path: Path, body: str) -> None:
    path.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def setup_run(tmp_path: Path, *args: str, pi: bool) -> tuple[list[str], str]:
    """``./setup.sh run ARGS`` in a copy whose .venv programs are stand-ins: ``(companion's arguments, stderr)``."""
    box = tmp_path / "clone"
    (box / ".venv" / "bin").mkdir(parents=True)
    (box / "setup.sh").write_text(SETUP.read_text(encoding="utf-8"), encoding="utf-8")
    tools = tmp_path / "tools"
    tools.mkdir()
    # every apt package is already installed; pip and pybabel succeed; picamera2 imports only on the Pi
    _script(tools / "dpkg-query", "echo 'install ok installed'")
    _script(box / ".venv" / "bin" / "python",
            f'if [ "${{1:-}}" = -c ]; then exit {0 if pi else 1}; fi\nexit 0')
    _script(box / ".venv" / "bin" / "pybabel", "exit 0")
    said = tmp_path / "companion-args"
    _script(box / ".venv" / "bin" / "companion", f'printf "%s\\n" "$@" > {shlex.quote(str(said))}')
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", str(box / "setup.sh"), "run", *args], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return said.read_text(encoding="utf-8").splitlines(), done.stderr


@pytest.mark.parametrize("pi", [False, True], ids=["laptop", "raspberry-pi"])
def test_the_readmes_one_pass_without_a_window_is_the_demo_on_both(tmp_path, pi):
    args, err = setup_run(tmp_path, "--once", "--no-screen", pi=pi)
    assert args == ["demo", "--once", "--no-screen"]
    assert ("option of the demo replay" in err) is pi  # the Pi says why it is not the camera


def test_the_main_job_is_the_camera_on_a_pi_and_the_demo_elsewhere(tmp_path):
    assert setup_run(tmp_path / "pi", "--no-screen", pi=True)[0] == ["run", "--no-screen"]
    assert setup_run(tmp_path / "laptop", "--no-screen", pi=False)[0] == ["demo", "--no-screen"]
    # companion's own options stay in front of the command; --fast is the demo's too
    assert setup_run(tmp_path / "fast", "--language", "pl", "--fast", pi=True)[0] == ["--language", "pl", "demo",
                                                                                      "--fast"]
    # a command named is run as given
    assert setup_run(tmp_path / "read", "read", "photo.jpg", pi=True)[0] == ["read", "photo.jpg"]
