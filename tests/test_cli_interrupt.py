"""Ctrl-C while a command is still starting (companion.cli): one line in the command's language, exit code 130."""

from __future__ import annotations

import sys

import pytest

import companion.commands
from companion.cli import main

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
