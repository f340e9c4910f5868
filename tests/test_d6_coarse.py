"""The d6 reader's second, coarser look: pips read as small unreadable dice give way to the die around them."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

cv2 = pytest.importorskip("cv2")

from vision import D6Config, D6Reader, DieObservation  # noqa: E402 - after the cv2 skip
from vision.d6 import merge_coarse  # noqa: E402

# Pip centres of each face in units of the die side, from its centre.
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_dice(values: tuple[int, ...], side: int, size=(480, 640)) -> np.ndarray:
    """A ``uint8[H, W, 3]`` wood-coloured frame with white dice of ``side`` px in a row, black pips,
    a shadow to the lower right."""
    h, w = size
    frame = np.full((h, w, 3), (110, 160, 195), np.uint8)
    for k, value in enumerate(values):
        cx, cy, r = int(w * (k + 1) / (len(values) + 1)), h // 2, side // 2
        cv2.rectangle(frame, (cx - r + side // 12, cy - r + side // 10),
                      (cx + r + side // 12, cy + r + side // 10), (60, 90, 110), -1)
        cv2.rectangle(frame, (cx - r, cy - r), (cx + r, cy + r), (200, 205, 210), -1)
        cv2.rectangle(frame, (cx - r + side // 14, cy - r + side // 14),
                      (cx + r - side // 14, cy + r - side // 14), (240, 242, 245), -1)
        for dx, dy in PIPS[value]:
            cv2.circle(frame, (int(cx + dx * side * 0.27), int(cy + dy * side * 0.27)),
                       max(2, int(side * 0.09)), (25, 25, 25), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(frame, (5, 5), 0)


def pip_boxes(frame: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x, y, w, h)`` px of the dark blobs (the drawn pips) of ``frame``."""
    dark = (cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) < 80).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
    return [tuple(int(v) for v in stats[i, :4]) for i in range(1, n) if stats[i, 4] >= 4]


def die_box(side: int, size=(480, 640)) -> tuple[int, int, int, int]:
    h, w = size
    return (w // 2 - side // 2, h // 2 - side // 2, side, side)


def test_pips_read_as_unreadable_dice_give_way_to_the_die_the_coarse_look_read():
    frame = draw_dice((5,), 150)
    pips = pip_boxes(frame)
    assert len(pips) == 5
    fine = tuple(DieObservation("d6", None, b, 0.3) for b in pips)
    coarse = (DieObservation("d6", 5, die_box(150), 0.8),)
    assert merge_coarse(fine, coarse) == coarse


def test_a_die_read_with_a_value_is_never_dropped():
    frame = draw_dice((4,), 150)
    pips = pip_boxes(frame)
    fine = (DieObservation("d6", 1, pips[0], 0.5),) + tuple(
        DieObservation("d6", None, b, 0.3) for b in pips[1:])
    coarse = (DieObservation("d6", 4, die_box(150), 0.9),)
    assert merge_coarse(fine, coarse) == fine


def test_one_unreadable_die_or_an_unreadable_coarse_die_changes_nothing():
    frame = draw_dice((3,), 150)
    pips = pip_boxes(frame)
    one = (DieObservation("d6", None, pips[0], 0.3),)
    assert merge_coarse(one, (DieObservation("d6", 3, die_box(150), 0.9),)) == one
    fine = tuple(DieObservation("d6", None, b, 0.3) for b in pips)
    assert merge_coarse(fine, (DieObservation("d6", None, die_box(150), 0.9),)) == fine


def test_dice_outside_the_coarse_box_stay():
    frame = draw_dice((2, 6), 120)
    pips = pip_boxes(frame)
    assert len(pips) == 8
    fine = tuple(DieObservation("d6", None, b, 0.3) for b in pips)
    left = (640 // 3 - 60, 240 - 60, 120, 120)
    merged = merge_coarse(fine, (DieObservation("d6", 2, left, 0.7),))
    assert sorted(d.value or 0 for d in merged) == [0] * 6 + [2]
    assert all(d.box[0] > 320 for d in merged if d.value is None)


@pytest.fixture(scope="module")
def reader() -> D6Reader:
    return D6Reader()


def test_drawn_dice_read_the_same_with_and_without_the_second_look(reader):
    frame = draw_dice((3, 6), 50)
    alone = D6Reader(replace(reader.config, coarse_scale=0.0)).read(frame)
    assert sorted(d.value for d in reader.read(frame).dice) == sorted(d.value for d in alone.dice) == [3, 6]


def test_two_unreadable_dice_call_for_the_second_look():
    cfg = replace(D6Config(), value_threshold=1.01)   # every die unreadable
    frame = draw_dice((3, 6), 50)
    looked = D6Reader(cfg).read(frame)
    assert [d.value for d in looked.dice] == [None, None]
    assert "coarse" in looked.timings_ms
    assert "coarse" not in D6Reader(replace(cfg, coarse_min_unreadable=3)).read(frame).timings_ms
