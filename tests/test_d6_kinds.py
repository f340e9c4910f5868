"""Smoky d6 told by colour (tools/d6_kinds.py) and dice drawn more often in classifier training
(tools/d6_augment.classifier_samples ``die_draws``), on dice painted by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

cv2 = pytest.importorskip("cv2")

from tools.d6_augment import LabelledImage, classifier_samples  # noqa: E402 - after the cv2 skip
from tools.d6_kinds import is_smoky, smoky_mask  # noqa: E402
from vision.config import D6Config  # noqa: E402
from vision.d6 import NO_DIE  # noqa: E402

# A 40 px die box at (0, 0): its inner half is rows and columns 10..29, 400 pixels.
BOX = np.array([0.0, 0.0, 40.0, 40.0])
SMOKE = (40, 40, 50)  # BGR: HSV V 50, S 255 * 10 / 50 = 51 (dark, unsaturated)
RED = (0, 0, 200)  # BGR: H 0, S 255, V 200 (a red pip)


def die(body=SMOKE, red_pixels: int = 40, ring=(255, 255, 255)) -> np.ndarray:
    """A 48 px photo: ``ring`` outside the inner half, ``body`` inside with its first ``red_pixels`` red."""
    img = np.full((48, 48, 3), ring, np.uint8)
    inner = np.full((400, 3), body, np.uint8)
    inner[:red_pixels] = RED
    img[10:30, 10:30] = inner.reshape(20, 20, 3)
    return img


def test_dark_body_with_red_pips_is_smoky_whatever_the_table_around_it():
    assert is_smoky(die(red_pixels=40), BOX)  # 10 % red, white table outside the inner half
    assert is_smoky(die(red_pixels=40, ring=(0, 200, 0)), BOX)


def test_red_share_must_exceed_three_percent():
    assert not is_smoky(die(red_pixels=12), BOX)  # 12 / 400 = 3 %: not over it
    assert is_smoky(die(red_pixels=13), BOX)  # 3.25 %


def test_white_die_saturated_body_bright_body_and_black_pips_are_not_smoky():
    white_die = die(body=(230, 230, 230))  # white 360 / 400
    blue_die = die(body=(100, 20, 20))  # V 100 but S 255 * 80 / 100 = 204
    grey_die = die(body=(150, 150, 150))  # V 150, S 0
    black_pips = die(red_pixels=0)
    for img in (white_die, blue_die, grey_die, black_pips):
        assert not is_smoky(img, BOX)


def test_white_just_under_three_percent_still_smoky():
    img = die(red_pixels=40)
    img[29, 10:21] = (230, 230, 230)  # 11 white pixels: 2.75 %
    assert is_smoky(img, BOX)
    img[29, 21] = (230, 230, 230)  # 12: 3 %, not under
    assert not is_smoky(img, BOX)


def test_mask_and_clear_errors():
    img = die()
    far = np.array([100.0, 100.0, 140.0, 140.0])
    assert smoky_mask(img, np.stack([BOX, BOX + [24, 24, 24, 24]])).tolist() == [True, False]
    with pytest.raises(ValueError, match="no inner pixel"):
        is_smoky(img, far)
    with pytest.raises(ValueError, match="uint8 BGR"):
        is_smoky(img.astype(np.float32), BOX)


def test_die_draws_gives_that_many_patches_of_each_die():
    img = np.full((200, 300, 3), 90, np.uint8)
    boxes = np.array([[20, 20, 60, 60], [120, 20, 160, 60], [220, 120, 260, 160]], np.float32)
    item = LabelledImage("hand", img, boxes, np.array([2, 4, 6]))
    cfg = D6Config()

    def labels(**kw) -> list[int]:
        out = classifier_samples(item, np.random.default_rng(0), cfg, negatives_per_die=0, **kw)
        return sorted(v for _, v in out if v != NO_DIE)

    assert labels() == [1, 3, 5]
    assert labels(die_draws=np.array([3, 0, 1])) == [1, 1, 1, 5]
    with pytest.raises(ValueError, match="die_draws"):
        labels(die_draws=np.array([1, 1]))
