"""``companion --help`` and each command's ``--help`` as a newcomer reads them in an 80-column terminal.

- argparse wrapped lines at hyphens, so ``config init --help`` printed its example path as ``.../tabletop-`` and
  ``companion/config.toml`` on the next line (copied from the terminal, a path that does not exist), and
  ``DIR/<card-id>/`` could come out as ``DIR/<card-`` and ``id>/``. Lines now break at spaces only.
- A command's own ``--help`` (``companion doctor --help``, ``export``, ``sessions``, ``calibrate``, ``run`` ...) said
  nothing of what the command does: only ``companion --help``'s list did. Each now opens with that line."""

from __future__ import annotations

import re

import pytest

from companion.cli import main


def _help(capsys, monkeypatch, *words):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as done:
        main([*words, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_the_config_path_in_config_init_s_help_is_on_one_line(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "my-config"))
    said = _help(capsys, monkeypatch, "config", "init")
    assert "tabletop-companion/config.toml" in said, said
    assert not re.search(r"-\n", said), said  # no line ends in a hyphen cut from its word


@pytest.mark.parametrize("words", [(), ("run",), ("demo",), ("read",), ("enroll", "cards"), ("enroll", "roll-dice"),
                                   ("calibrate",), ("export",), ("config", "init"), ("doctor",)])
def test_no_help_line_ends_in_a_word_cut_at_its_hyphen(capsys, monkeypatch, words):
    said = _help(capsys, monkeypatch, *words)
    cut = [line for line in said.splitlines() if re.search(r"\w-$", line)]
    assert cut == [], cut


@pytest.mark.parametrize(("words", "opening"), [
    (("doctor",), "check the box's health: camera, light, calibration, disk, database, clock, network, service"),
    (("export",), "write a finished Roll for the Galaxy, Race for the Galaxy, Among the Stars or Eclipse game (JSON, "
                  "BG Stats play)"),
    (("sessions",), "list the sessions in a database: id, game, players, started, finished"),
    (("print-mat",), "write the A4 calibration sheet with its ArUco markers (PNG or PDF)"),
    (("demo",), "the main job on a replay of real photos; no camera needed"),
    (("config", "show"), "every setting, its value and where it came from (default, FILE:LINE, flag, environment)"),
])
def test_each_command_s_help_says_what_it_does(capsys, monkeypatch, words, opening):
    said = _help(capsys, monkeypatch, *words)
    usage, _, rest = said.partition("\n\n")
    assert usage.startswith(f"usage: companion {' '.join(words)}")
    assert " ".join(rest.split("\n\n")[0].split()) == opening, said
