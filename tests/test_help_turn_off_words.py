"""``companion run --help`` and ``companion demo --help`` name what an option on by default turns off in the help's
language: Eclipse's ``--no-last-round-upkeep`` ("Upkeep and Cleanup of round 9", Eclipse: End of the game; the
rounds' Upkeep and Cleanup phases) read "wyłącz: round 9's Upkeep and Cleanup" in Polish, English inside the Polish
sentence, while the rest of its line was Polish."""

from __future__ import annotations

import pytest

from companion.cli import main

TURN_OFF = {
    "en": "with --game eclipse: turn off round 9's Upkeep and Cleanup (on by default:",
    "el": "Συντήρηση και Εκκαθάριση του γύρου 9",
    "pl": "z --game eclipse: wyłącz: Utrzymanie i Porządki rundy 9 (domyślnie włączone:",
    "hu": "a 9. kör Fenntartása és Takarítása",
}
"""The words of each language's catalogue for the option's label (and, in en and pl, the sentence around it)."""


def _help(capsys, monkeypatch, lang: str, command: str) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as done:
        main(["--language", lang, command, "--help"])
    assert done.value.code == 0
    return " ".join(capsys.readouterr().out.split())  # argparse's wrapping left out


@pytest.mark.parametrize("command", ["run", "demo"])
@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_an_option_on_by_default_names_what_it_turns_off_in_the_help_s_language(capsys, monkeypatch, lang, command):
    said = _help(capsys, monkeypatch, lang, command)
    start = said.index("--no-last-round-upkeep ")  # its entry in the options' list, not the usage line
    entry = said[start:start + 400]
    assert TURN_OFF[lang] in entry, entry
    if lang != "en":
        assert "round 9's" not in entry and "Upkeep and Cleanup" not in entry, entry
