"""vision.white: the paper round the calibration markers as the frame's white reference, and the Roll dice
reader given it through its adapter when the table is calibrated."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.readers import RollDiceAdapter
from vision.roll_dice.observations import RollDiceRead
from vision.synth_table import make_scene
from vision.table import calibrate
from vision.white import paper_white

IDS = [f"c{k}" for k in range(12)]
WARM_LAMP = np.array([0.55, 0.80, 0.95])  # B, G, R gains of an uncorrected incandescent lamp


@pytest.fixture(scope="module")
def table():
    scene = make_scene("race", IDS, seed=1)
    calibration = calibrate(scene.image, scene.layout)
    base = (scene.image.astype(np.float32) * 0.85).astype(np.uint8)  # paper below clipping
    return base, calibration


def lit(image: np.ndarray, gains) -> np.ndarray:
    return np.clip(image.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def test_the_paper_follows_the_light(table):
    base, cal = table
    neutral = paper_white(base, cal.markers_px, cal.frame_size)
    warm = paper_white(lit(base, WARM_LAMP), cal.markers_px, cal.frame_size)
    assert neutral is not None and warm is not None
    assert min(neutral) > 150  # paper, not the cloth
    np.testing.assert_allclose(np.array(warm) / np.array(neutral), WARM_LAMP, atol=0.04)


def test_a_covered_marker_is_left_out_and_all_covered_give_none(table):
    base, cal = table
    ids = sorted(cal.markers_px)
    rest = paper_white(base, {k: cal.markers_px[k] for k in ids[1:]}, cal.frame_size)
    covered = base.copy()
    quad = cal.markers_px[ids[0]]
    centre = quad.mean(axis=0)
    hand = np.round(centre + (quad - centre) * 1.6).astype(np.int32)
    cv2.fillConvexPoly(covered, hand, (120, 150, 205))  # a hand lying over the marker and its margin
    assert paper_white(covered, cal.markers_px, cal.frame_size) == rest
    for k in ids[1:]:
        quad = cal.markers_px[k]
        centre = quad.mean(axis=0)
        cv2.fillConvexPoly(covered, np.round(centre + (quad - centre) * 1.6).astype(np.int32), (120, 150, 205))
    assert paper_white(covered, cal.markers_px, cal.frame_size) is None


def test_clipped_paper_says_nothing_of_the_light(table):
    base, cal = table
    assert paper_white(lit(base, (1.6, 1.6, 1.6)), cal.markers_px, cal.frame_size) is None


def test_corners_are_scaled_to_a_frame_of_another_size(table):
    base, cal = table
    h, w = base.shape[:2]
    half = cv2.resize(base, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    full = np.array(paper_white(base, cal.markers_px, cal.frame_size))
    np.testing.assert_allclose(paper_white(half, cal.markers_px, cal.frame_size), full, atol=6)


class _Seen:
    """A Roll dice reader that keeps the white reference it was given."""

    def __init__(self):
        self.white = "never called"

    def read(self, frame, white=None, aside=None):
        self.white = white
        return RollDiceRead(frame.shape[1], frame.shape[0], (), {}, None)


def test_the_dice_adapter_reads_under_the_papers_white_when_calibrated(table):
    base, cal = table
    frame = lit(base, WARM_LAMP)
    seen = _Seen()
    RollDiceAdapter(seen, calibration=cal).read(frame)
    assert seen.white == paper_white(frame, cal.markers_px, cal.frame_size)
    RollDiceAdapter(seen).read(frame)
    assert seen.white is None  # no calibration: the dice alone decide the light
