"""The Roll dice reader's "not table" score (:func:`vision.roll_dice.foreground.foreground_score`): worked by hand on
flat patches, and the same numbers by channel planes as by the per-pixel formula on interleaved channels."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.foreground import _foreground_score_any, foreground, foreground_score

CFG = RollDiceConfig()  # log_offset 16, chroma_weight 3, bright_weight 2, dark_weight 3, shadow_log 0.40


def flat(bgr: tuple[int, int, int], size: int = 4) -> np.ndarray:
    return np.full((size, size, 3), bgr, np.uint8)


@pytest.mark.parametrize(("work", "table", "expected"), [
    # grey twice as bright (84 + 16 = 100 over 34 + 16 = 50): no chroma, brightening 2 x ln 2
    ((84, 84, 84), (34, 34, 34), 2.0 * math.log(2.0)),
    # grey a quarter as bright (25 over 100): darker than a soft shadow, 3 x (ln 4 - 0.40)
    ((9, 9, 9), (84, 84, 84), 3.0 * (math.log(4.0) - 0.40)),
    # blue channel doubled alone: d = (ln 2, 0, 0), chroma sqrt(2/3) ln 2, times 3 beats brightening 2 ln 2 / 3
    ((84, 34, 34), (34, 34, 34), 3.0 * math.sqrt(2.0 / 3.0) * math.log(2.0)),
    # a soft shadow (80 over 100): k = ln 0.8 brightens nothing and darkens less than 0.40; the chroma, 0, is the most
    ((64, 64, 64), (84, 84, 84), 0.0),
])
def test_score_of_flat_patches_worked_by_hand(work, table, expected):
    score = foreground_score(flat(work), flat(table), CFG)
    assert score.dtype == np.float32 and score.shape == (4, 4)
    assert np.allclose(score, expected, atol=1e-5)


def test_channel_planes_give_the_interleaved_formulas_numbers():
    rng = np.random.default_rng(7)
    for shape in ((1, 1), (1, 9), (13, 1), (37, 53), (360, 640)):
        work = rng.integers(0, 256, (*shape, 3), dtype=np.uint8)
        table = cv2.GaussianBlur(work, (5, 5), 0) if min(shape) > 4 else rng.integers(0, 256, (*shape, 3), np.uint8)
        got = foreground_score(work, table, CFG)
        assert got.dtype == np.float32
        assert np.array_equal(got, _foreground_score_any(work, table, CFG))


def test_float_images_take_the_per_pixel_formula():
    work = flat((84, 84, 84)).astype(np.float32)
    table = flat((34, 34, 34)).astype(np.float32)
    assert np.allclose(foreground_score(work, table, CFG), 2.0 * math.log(2.0), atol=1e-5)


def test_a_die_on_a_flat_table_is_foreground_and_the_table_is_not():
    frame = np.full((360, 640, 3), (60, 90, 120), np.uint8)       # wood-brown table
    cv2.rectangle(frame, (300, 160), (330, 190), (40, 40, 200), -1)  # a red die's top, 31 px
    work, mask, scale = foreground(frame, CFG)
    assert scale == 1.0 and mask.dtype == np.uint8
    assert mask[175, 315] == 255 and mask[20, 20] == 0 and mask[300, 600] == 0
