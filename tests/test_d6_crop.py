"""The d6 classifier's patch around a detected die: how much of the table round the box it takes in."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import D6Config  # noqa: E402 - after the cv2 skip
from vision.d6 import extract_patches, patch_side  # noqa: E402


def test_patch_side_is_the_reader_context_times_the_longer_box_side():
    # 1.2 x 40 = 48 px for a 40 x 30 box; 1.2 x 50 = 60 px for a 30 x 50 one.
    cfg = D6Config()
    assert cfg.patch_context == pytest.approx(1.2)
    assert patch_side(40.0, 30.0, cfg) == pytest.approx(48.0)
    assert patch_side(30.0, 50.0, cfg) == pytest.approx(60.0)


def test_reader_context_lies_inside_the_training_jitter():
    # Training cuts 1.35 x the labelled side, times a random factor e^U(-0.15, 0.2) = 0.861-1.221:
    # 1.162-1.649 x the side. The reader's patch must be one the classifier has seen.
    lo, hi = 1.35 * np.exp(-0.15), 1.35 * np.exp(0.2)
    assert lo == pytest.approx(1.162, abs=1e-3) and hi == pytest.approx(1.649, abs=1e-3)
    assert lo <= D6Config().patch_context <= hi


def test_the_patch_holds_the_box_and_a_tenth_of_its_side_each_way():
    # A 40 px white die top centred at (100, 100) on a black table, a ring of grey 8 px outside it (a
    # neighbour or a side face). At 1.2 the patch is 48 frame px: 4 px of black each side of the die,
    # scale 48 / 48 = 1, and the grey ring (6-8 px out) stays outside; at 1.35 (54 px) it comes in.
    frame = np.zeros((200, 200, 3), np.uint8)
    cv2.rectangle(frame, (72, 72), (127, 127), (128, 128, 128), -1)
    cv2.rectangle(frame, (74, 74), (125, 125), (0, 0, 0), -1)
    frame[80:120, 80:120] = 255
    box = np.array([[80.0, 80.0, 40.0, 40.0]], np.float32)
    cfg = D6Config(patch_angles=(0.0,))
    patch = extract_patches(frame, box, cfg)[0, 0]
    assert patch.shape == (48, 48, 3)
    assert (patch[5:43, 5:43] == 255).all()
    assert patch[:3].max() == 0 and patch[-3:].max() == 0 and patch[:, :3].max() == 0
    wide = extract_patches(frame, box, D6Config(patch_angles=(0.0,), patch_context=1.35))[0, 0]
    assert wide[0, 24].max() > 60   # 54 frame px -> the patch's edge row samples the grey ring
