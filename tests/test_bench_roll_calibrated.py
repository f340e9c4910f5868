"""bench/roll_calibrated.py's comparison of two versions' reads of the calibrated tables: a die whose face moved is
named and fails the comparison, a confidence or light that moved alone is measured and does not; hand-made reads."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_calibrated import compare, seeds, totals  # noqa: E402 - after the path


def frame(dice: list[tuple], light: tuple[float, ...], size: float, found: int, right: int, false: int) -> dict:
    return {"dice": dice, "light": light, "size": size, "cpu": 0.0,
            "counts": {"dice": 20, "dice_found": found, "dice_right": right, "dice_false": false}}


RED = ("red", "settle", (100, 100, 40, 40))
BLUE = ("blue", "ship", (300, 100, 40, 40))


def write(tmp: Path, name: str, reads: dict) -> str:
    path = tmp / name
    path.write_bytes(pickle.dumps(reads))
    return str(path)


def test_seeds_take_a_range_or_a_list():
    assert seeds("1-8") == [1, 2, 3, 4, 5, 6, 7, 8]
    assert seeds("2,5") == [2, 5]


def test_a_confidence_and_the_light_that_moved_are_measured_and_pass(tmp_path, capsys):
    old = {("kept", 1, 0): frame([(*RED, 0.90), (*BLUE, 0.40)], (0.1, 0.0, -0.1, 1.0), 0.67, 2, 2, 0),
           ("searched", 1, 0): frame([(*RED, 0.90)], (0.1, 0.0, -0.1, 1.0), 0.67, 1, 1, 0)}
    new = {("kept", 1, 0): frame([(*BLUE, 0.35), (*RED, 0.92)], (0.1, 0.002, -0.1, 1.0), 0.67, 2, 2, 0),
           ("searched", 1, 0): frame([(*RED, 0.90)], (0.1, 0.0, -0.1, 1.0), 0.67, 1, 1, 0)}
    assert compare(write(tmp_path, "old.pkl", old), write(tmp_path, "new.pkl", new)) == 0
    out = capsys.readouterr().out
    # the blue die's confidence moved by 0.40 - 0.35 = 0.05, the light's second channel by 0.002
    assert "[kept] 1/1 frames with every die's colour, face and box the same; largest confidence change there 0.05; " \
           "largest light change 0.002" in out
    assert "[searched] 1/1 frames" in out


def test_a_face_that_moved_is_named_and_fails(tmp_path, capsys):
    old = {("kept", 3, 1): frame([(*RED, 0.90)], (0.0, 0.0, 0.0, 1.0), 0.67, 1, 1, 0)}
    new = {("kept", 3, 1): frame([("red", "develop", RED[2], 0.90)], (0.0, 0.0, 0.0, 1.0), 0.84, 1, 0, 0)}
    assert compare(write(tmp_path, "old.pkl", old), write(tmp_path, "new.pkl", new)) == 1
    out = capsys.readouterr().out
    assert "('kept', 3, 1): die size 0.67 -> 0.84" in out
    assert "('kept', 3, 1) differs" in out and "'develop'" in out
    assert "[kept] 0/1 frames" in out
    assert totals(new, "kept") == {"dice_found": 1, "dice_right": 0, "dice_false": 0}
