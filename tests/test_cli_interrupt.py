"""Ctrl-C while a command is still starting (companion.console, companion.cli): one line in the command's language,
exit code 130, never a traceback of the module being loaded."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import companion.commands
from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]

# the catalogs' lines for "companion: interrupted; what the command had not saved yet is not saved"
INTERRUPTED = {
    "en": "companion: interrupted; what the command had not saved yet is not saved",
    "el": "companion: διακόπηκε· ό,τι δεν είχε αποθηκεύσει ακόμη η εντολή δεν αποθηκεύτηκε",
    "pl": "companion: przerwano; to, czego polecenie jeszcze nie zapisało, nie zostało zapisane",
    "hu": "companion: megszakítva; amit a parancs még nem mentett, az nincs mentve",
}


class _PressWhileLoading:
    """An import hook that raises Ctrl-C's KeyboardInterrupt when ``name`` starts to load."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(self, name, path, target=None):
        if name == self.name:
            raise KeyboardInterrupt
        return None


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_ctrl_c_while_the_commands_load_is_said_in_the_commands_language(tmp_path, capsys, monkeypatch, lang):
    # the run/demo command module loads after the command line is read: a Ctrl-C there (a second on a busy Pi)
    monkeypatch.delitem(sys.modules, "companion.commands.box", raising=False)
    monkeypatch.delattr(companion.commands, "box", raising=False)
    monkeypatch.setattr(sys, "meta_path", [_PressWhileLoading("companion.commands.box"), *sys.meta_path])
    assert main(["--language", lang, "sessions", "--db", str(tmp_path / "none.sqlite3")]) == 130
    assert capsys.readouterr().err.strip() == INTERRUPTED[lang]


def _entry_point() -> str:
    """The console script pip installs as ``companion``: ``module:function``."""
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["companion"]


# the installed script, as pip writes it, with a Ctrl-C (SIGINT to itself) as companion.cli starts to load
PRESS_WHILE_STARTING = """
import os, signal, sys

class Press:
    def find_spec(self, name, path, target=None):
        if name == "companion.cli":
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, Press())
from {module} import {function}
sys.argv[0] = "companion"
sys.exit({function}())
"""


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_ctrl_c_while_the_command_starts_is_one_line_and_exit_130(tmp_path, lang):
    module, function = _entry_point().split(":")
    # Ctrl-C as a terminal starts the box with it: a test run started in the background has it ignored, and an
    # ignored Ctrl-C stays ignored (the test below)
    script = "import signal\nsignal.signal(signal.SIGINT, signal.default_int_handler)\n" + PRESS_WHILE_STARTING.format(
        module=module, function=function)
    db = tmp_path / "none.sqlite3"
    env = {**os.environ, "TABLETOP_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script, "--language", lang, "sessions", "--db", str(db)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.stderr.strip() == INTERRUPTED[lang], done.stderr
    assert done.returncode == 130 and done.stdout == ""
    assert not db.exists()  # the command itself never ran


def test_a_ctrl_c_ignored_by_whoever_started_the_box_stays_ignored(tmp_path):
    # nohup and some service managers start the box with SIGINT ignored: a SIGINT while it starts changes nothing
    module, function = _entry_point().split(":")
    script = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n" + PRESS_WHILE_STARTING.format(
        module=module, function=function)
    env = {**os.environ, "TABLETOP_DATA_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script, "sessions", "--db", str(tmp_path / "none.sqlite3")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 3 and "none.sqlite3" in done.stderr and "interrupted" not in done.stderr
