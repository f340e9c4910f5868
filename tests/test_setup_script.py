"""``./setup.sh run``'s main job, on a copy of the script whose programs are stand-ins (no packages installed):
a Raspberry Pi (picamera2 importable) runs ``companion run``, another machine ``companion demo``; README's
``./setup.sh run --once --no-screen`` (one pass of the demo without a window) is the demo on both, since --once
and --fast are options of the demo's replay that ``companion run`` does not take. The project is installed with pip
only when what it is installed from changed (a fresh .venv, pyproject.toml), and a Ctrl-C during pip is said as one."""

from __future__ import annotations

import os
import shlex
import signal
import stat
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.sh"


def _script(path: Path, body: str) -> None:
    path.write_text("#!/usr/bin/env bash\n" + body + "\n", encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


PIPS = {
    "installs": "exit 0",
    "fails": 'echo "ERROR: No matching distribution found for flask>=3.0" >&2; exit 1',
    # a Ctrl-C in the terminal reaches pip and the script alike; pip catches it and exits 1 ("cancelled")
    "is interrupted": ('trap \'echo "ERROR: Operation cancelled by user" >&2; exit 1\' INT\n'
                       'kill -INT "$PPID" "$$"\nsleep 1\nexit 0'),
}


def clone(tmp_path: Path, pi: bool = False, pip: str = "installs") -> Path:
    """A copy of setup.sh beside the real pyproject.toml whose .venv programs are stand-ins; every apt package is
    already installed, pybabel succeeds, picamera2 imports only on the Pi, pip does as ``PIPS[pip]`` and each pip
    command is kept, a line each, in ``pip-calls`` beside the clone."""
    box = tmp_path / "clone"
    (box / ".venv" / "bin").mkdir(parents=True)
    (box / "setup.sh").write_text(SETUP.read_text(encoding="utf-8"), encoding="utf-8")
    (box / "pyproject.toml").write_text((SETUP.parent / "pyproject.toml").read_text(encoding="utf-8"),
                                        encoding="utf-8")
    (box / "companion").mkdir()
    (box / "companion" / "__init__.py").write_text("", encoding="utf-8")
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    _script(tools / "dpkg-query", "echo 'install ok installed'")
    calls = shlex.quote(str(tmp_path / "pip-calls"))
    _script(box / ".venv" / "bin" / "python",
            f'if [ "${{1:-}}" = -c ]; then exit {0 if pi else 1}; fi\n'
            f'if [ "${{1:-}}" = -m ] && [ "${{2:-}}" = pip ]; then\n  echo "${{*:3}}" >> {calls}\n  {PIPS[pip]}\nfi\n'
            "exit 0")
    _script(box / ".venv" / "bin" / "pybabel", "exit 0")
    said = shlex.quote(str(tmp_path / "companion-args"))
    _script(box / ".venv" / "bin" / "companion", f'printf "%s\\n" "$@" > {said}')
    return box


def run(box: Path, *args: str, mode: str = "run") -> subprocess.CompletedProcess:
    """``./setup.sh MODE ARGS`` in ``box`` (from :func:`clone`), as a terminal starts it (a Ctrl-C is not ignored)."""
    env = {**os.environ, "PATH": f"{box.parent / 'tools'}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run(["bash", str(box / "setup.sh"), mode, *args], capture_output=True, text=True, env=env,
                          timeout=60, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def pip_calls(box: Path) -> list[str]:
    """The pip commands run so far (and forgets them)."""
    calls = box.parent / "pip-calls"
    said = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    calls.unlink(missing_ok=True)
    return said


def setup_run(tmp_path: Path, *args: str, pi: bool) -> tuple[list[str], str]:
    """``./setup.sh run ARGS`` in a copy whose .venv programs are stand-ins: ``(companion's arguments, stderr)``."""
    box = clone(tmp_path, pi)
    done = run(box, *args)
    assert done.returncode == 0, done.stderr
    return (tmp_path / "companion-args").read_text(encoding="utf-8").splitlines(), done.stderr


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


INSTALL = ["install -q --upgrade pip", "install -q -e ."]


def test_the_project_is_installed_again_only_when_what_it_is_installed_from_changed(tmp_path):
    box = clone(tmp_path)
    first = run(box, "--no-screen")
    assert first.returncode == 0 and pip_calls(box) == INSTALL  # a fresh machine: installed
    # pip runs quietly for minutes on a first install: the wait is said once, before it
    assert first.stderr.count("setup: installing the project into .venv with pip") == 1
    again = run(box, "--no-screen")
    assert again.returncode == 0 and pip_calls(box) == []  # nothing changed: straight to the demo
    assert "setup: installing" not in again.stderr  # and nothing said
    assert (tmp_path / "companion-args").read_text(encoding="utf-8").split() == ["demo", "--no-screen"]
    # a new dependency in pyproject.toml: installed again, once
    pyproject = box / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8").replace('"imagesize>=1.4",', '"imagesize>=1.5",'),
                         encoding="utf-8")
    assert run(box).returncode == 0 and pip_calls(box) == INSTALL
    assert run(box).returncode == 0 and pip_calls(box) == []
    # a new top-level package, and the test extras (an install of their own), are installed too
    (box / "rules").mkdir()
    (box / "rules" / "__init__.py").write_text("", encoding="utf-8")
    assert run(box).returncode == 0 and pip_calls(box) == INSTALL
    assert run(box, mode="test").returncode == 0 and pip_calls(box) == [INSTALL[0], "install -q -e .[test]"]
    assert run(box, mode="test").returncode == 0 and pip_calls(box) == []
    assert run(box).returncode == 0 and pip_calls(box) == []
    # a fresh .venv (no stamp) is installed into
    for stamp in (box / ".venv").glob(".setup-installed-*"):
        stamp.unlink()
    assert run(box).returncode == 0 and pip_calls(box) == INSTALL


def test_a_failed_install_says_so_and_is_tried_again_next_time(tmp_path):
    box = clone(tmp_path, pip="fails")
    done = run(box)
    assert done.returncode != 0 and not (tmp_path / "companion-args").exists()
    assert "No matching distribution" in done.stderr and "setup: pip install --upgrade pip failed" in done.stderr
    assert pip_calls(box) == INSTALL[:1]
    assert run(box).returncode != 0 and pip_calls(box) == INSTALL[:1]  # no stamp was left: tried again


def test_a_ctrl_c_during_the_install_is_said_as_an_interruption_not_a_failure(tmp_path):
    box = clone(tmp_path, pip="is interrupted")
    done = run(box)
    assert done.returncode == 130 and not (tmp_path / "companion-args").exists()
    assert "failed" not in done.stderr and "Operation cancelled" not in done.stderr, done.stderr
    said = done.stderr.strip().splitlines()
    assert said[0].startswith("setup: installing the project into .venv with pip")
    assert said[1:] == ["setup: pip install --upgrade pip was interrupted (Ctrl-C); the next ./setup.sh run installs "
                        "it again"]
    assert pip_calls(box) == INSTALL[:1]
    # the next start installs (nothing was kept of the interrupted one)
    python = box / ".venv" / "bin" / "python"
    python.write_text(python.read_text(encoding="utf-8").replace(PIPS["is interrupted"], PIPS["installs"]),
                      encoding="utf-8")
    assert run(box).returncode == 0 and pip_calls(box) == INSTALL
