"""bench/roll_size_memory.py's lines for one frame: the sizes the memory keeps, the plane's die side, the faces weighed
per size with those on a marker's sheet, and the faces of other sizes taken; hand-made reads."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_size_memory import _report, seeds  # noqa: E402 - after the path
from vision.roll_dice.config import RollDiceConfig  # noqa: E402
from vision.roll_dice.shape import expected_sides  # noqa: E402


class Sheets:
    """A calibration whose markers' sheets cover every point right of x = 1000 px."""

    @staticmethod
    def on_marker(points: np.ndarray) -> np.ndarray:
        return np.asarray(points, np.float64).reshape(-1, 2)[:, 0] > 1000.0


def square(x: float, y: float, side: float) -> list[float]:
    return [x, y, side, side, 0.0]


def test_seeds_take_a_range_or_a_list():
    assert seeds("5-7") == [5, 6, 7]
    assert seeds("1,6") == [1, 6]


def test_a_kept_read_names_its_sizes_the_faces_on_sheets_and_what_it_took(capsys):
    # five chosen dice of side 40 px all over: the plane gives 40 px everywhere
    chosen = np.array([square(100 + 200 * i, 300, 40.0) for i in range(5)])
    log = {"cut": [(0.67, 30.0), (0.84, 12.0), (1.06, 8.0)], "step": 20.0,
           "chosen": (chosen, np.ones(5), RollDiceConfig()),
           "sizes": [0.84, 1.06],
           "others": [np.array([square(1100, 50, 45.0), square(500, 400, 38.0)]), np.array([square(1150, 60, 55.0)])],
           "taken": np.array([square(1100, 50, 45.0)])}
    memory = SimpleNamespace(size=0.67, also=(0.84, 1.06))
    _report(5, 10, False, memory, 600.0, log, Sheets(), expected_sides)
    out = capsys.readouterr().out.splitlines()
    # the cut of the sizes not chosen: 12 + 8 = 20 ms
    assert out[0] == ("table 5 frame 10: kept at 0.67, keeps 0.84, 1.06; read 600 ms CPU, other sizes cut 20 ms, "
                      "other-sizes step 20 ms")
    assert out[1] == "  die side the chosen faces' plane gives: 40.0-40.0 px"
    assert out[2] == "  0.84: faces weighed 2, on a marker's sheet 1"
    assert out[3] == "  1.06: faces weighed 1, on a marker's sheet 1"
    assert out[4] == "  taken: (1100, 50) side 45.0 px on a marker sheet"


def test_a_read_where_no_face_of_another_size_could_count_says_so(capsys):
    memory = SimpleNamespace(size=0.84, also=())
    _report(1, 0, True, memory, 400.0, {"cut": [(0.67, 10.0), (0.84, 15.0)], "step": 1.0}, Sheets(), expected_sides)
    out = capsys.readouterr().out.splitlines()
    assert out == ["table 1 frame 0: searched at 0.84, keeps none; read 400 ms CPU, other sizes cut 10 ms, "
                   "other-sizes step 1 ms", "  no face of another size could count"]
