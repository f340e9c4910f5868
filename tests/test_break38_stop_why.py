"""A box stopped by SIGTERM (``systemctl stop``, ``kill``) says why it stops, as a Ctrl-C does: before, the log went
from the last roll straight to the "stopped: ..." counts, and whoever read it could not tell a service stop from a
crash-free end of a replay ("demo replay: finished") or a Ctrl-C ("stopping: Ctrl-C ..."). The line is said in the
run's language, as the Ctrl-C line is; the stop line's counts stay English (tools read them)."""

from __future__ import annotations

import logging
import os
import signal

import pytest

from companion import i18n
from companion.app import MainLoop
from companion.cli import main

BOX = ["--no-web", "--no-screen", "--no-gpio", "--fast"]


@pytest.mark.skipif(os.name != "posix", reason="needs POSIX signals")
def test_a_sigterm_is_said_before_the_stop_line(tmp_path, caplog, monkeypatch):
    real_run = MainLoop.run

    def run(self, max_frames=None):  # systemctl stop arrives while the loop turns
        os.kill(os.getpid(), signal.SIGTERM)
        return real_run(self, max_frames)

    monkeypatch.setattr(MainLoop, "run", run)
    with caplog.at_level(logging.INFO, logger="companion"):
        assert main(["demo", "--db", str(tmp_path / "t.sqlite3"), *BOX]) == 0
    said = caplog.messages
    asked = [i for i, m in enumerate(said) if m.startswith("stopping: SIGTERM")]
    stopped = [i for i, m in enumerate(said) if m.startswith("stopped: ")]
    assert len(asked) == 1 and len(stopped) == 1 and asked[0] < stopped[0], said
    assert said[asked[0]] == "stopping: SIGTERM (a service stop or kill): the box closes its record and stops"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "stopping: SIGTERM (a service stop or kill): the box closes its record and stops"),
    ("el", "τερματισμός: SIGTERM (διακοπή της υπηρεσίας ή kill): το κουτί κλείνει το αρχείο του και σταματά"),
    ("pl", "zatrzymywanie: SIGTERM (zatrzymanie usługi lub kill): pudełko zamyka swój zapis i się zatrzymuje"),
    ("hu", "leállítás: SIGTERM (a szolgáltatás leállítása vagy kill): a doboz lezárja a naplóját, és leáll"),
])
def test_a_sigterm_is_said_once_in_the_runs_language(lang, words, caplog):
    from companion.commands.box import _stop_on_sigterm

    class Loop:
        asks = 0

        def stop(self) -> None:
            self.asks += 1

    loop = Loop()
    handler = _stop_on_sigterm(loop)
    with i18n.use_language(lang), caplog.at_level(logging.INFO, logger="companion"):
        handler(signal.SIGTERM, None)
        handler(signal.SIGTERM, None)  # a second stop while it closes: asked again, said once
    assert loop.asks == 2
    assert caplog.messages == [words]
