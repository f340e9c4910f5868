"""The stop line says its counts as the box's language says them: no read is "no reads", one is "1 read", never
"0 reads (median 0 ms)" or "1 reads"; Polish has three forms (1 odczyt, 2-4 odczyty and 22 odczyty, 5-21 odczytów),
Greek and Hungarian two (Hungarian keeps the noun singular after a number)."""

import pytest

from companion.app import LoopStats
from companion.commands.box import stop_line
from companion.i18n import use_language


def _stats(reads: int, frames: int = 1) -> LoopStats:
    return LoopStats(frames=frames, read_ms=[40.0] * reads)


@pytest.mark.parametrize(("reads", "said"), [
    (0, "stopped: 1 frame, no reads, 0 recorded (0 read by the camera and 0 tapped in), session A"),
    (1, "stopped: 1 frame, 1 read (median 40 ms), 0 recorded (0 read by the camera and 0 tapped in), session A"),
    (2, "stopped: 1 frame, 2 reads (median 40 ms), 0 recorded (0 read by the camera and 0 tapped in), session A"),
])
def test_english(reads, said):
    with use_language("en"):
        assert stop_line(_stats(reads), "A") == said


@pytest.mark.parametrize(("reads", "part"), [(0, "brak odczytów"), (1, "1 odczyt (mediana 40 ms)"),
                                             (2, "2 odczyty (mediana 40 ms)"), (5, "5 odczytów (mediana 40 ms)"),
                                             (12, "12 odczytów (mediana 40 ms)"), (22, "22 odczyty (mediana 40 ms)")])
def test_polish_has_three_forms(reads, part):
    with use_language("pl"):
        line = stop_line(_stats(reads, frames=reads or 5), "A")
    assert line.split(", ")[1] == part, line
    assert line.startswith("zatrzymano: ")


def test_polish_frames_and_records():
    stats = LoopStats(frames=22, reads=3, reported=2, read_ms=[30.0, 40.0, 50.0])
    with use_language("pl"):
        assert stop_line(stats, "A") == ("zatrzymano: 22 klatki, 3 odczyty (mediana 40 ms), 5 zapisów (z kamery: 3, "
                                         "z dotknięć: 2), sesja A")


@pytest.mark.parametrize(("lang", "reads", "part"), [
    ("el", 0, "καμία ανάγνωση"), ("el", 1, "1 ανάγνωση (διάμεσος 40 ms)"), ("el", 3, "3 αναγνώσεις (διάμεσος 40 ms)"),
    ("hu", 0, "nincs olvasás"), ("hu", 1, "1 olvasás (medián 40 ms)"), ("hu", 3, "3 olvasás (medián 40 ms)"),
])
def test_greek_and_hungarian(lang, reads, part):
    with use_language(lang):
        assert stop_line(_stats(reads), None).split(", ")[1] == part
