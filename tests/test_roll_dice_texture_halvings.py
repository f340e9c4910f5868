"""The Roll dice texture test's regions cut from the frame's exact halvings (vision/roll_dice/texture.py
``table_repeats`` by vision/raster.py ``Halvings.cut``): a checked cloth recurs round a face as it does at the
frame's own scale, and a face's own window lands on the face, not a check beside it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.texture import table_repeats

CFG = RollDiceConfig()


def checks(period: int) -> np.ndarray:
    """A 640x480 cloth of ``period`` px checks, white and blue (BGR ``uint8[480, 640, 3]``)."""
    yy, xx = np.mgrid[0:480, 0:640]
    white = (((xx // period) + (yy // period)) % 2 == 0)[..., None]
    return np.where(white, np.uint8([215, 220, 222]), np.uint8([140, 40, 20])).astype(np.uint8)


def test_a_checked_cloth_recurs_from_the_halvings_as_at_the_frame_s_scale():
    # faces of one 40 px check: the halvings' cut (12 px a side, 0.3: one halving, then 0.6) and no scaling at all
    img = checks(40)
    rects = np.array([[260.0, 220.0, 40.0, 40.0, 0.0], [460.0, 260.0, 40.0, 40.0, 0.0]])
    halved = table_repeats(img, rects, CFG)
    full = table_repeats(img, rects, replace(CFG, texture_side=40.0))
    assert (halved > 0.9).all() and (full > 0.9).all()
    assert np.abs(halved - full).max() < 0.05


def test_a_face_s_window_from_the_halvings_is_the_face_itself():
    # a red die's top on plain cloth, with no twin: its own box is the only copy, left out, so no copy recurs
    img = np.full((480, 640, 3), (90, 140, 90), np.uint8)
    img[200:240, 300:340] = (60, 60, 200)
    img[212:228, 312:328] = (240, 240, 240)            # its symbol: a white square in the middle
    rect = np.array([[319.5, 219.5, 40.0, 40.0, 0.0]])
    assert table_repeats(img, rect, CFG)[0] < 0.5
    # the same die twice, 100 px apart (2.5 sides): each the other's copy when the other is not a die of the read
    img[200:240, 400:440] = img[200:240, 300:340]
    rects = np.vstack([rect, rect + [100.0, 0, 0, 0, 0]])
    assert (table_repeats(img, rects, replace(CFG, texture_copies=1), np.array([True, True]),
                          np.array([False, False])) > 0.9).all()
    assert (table_repeats(img, rects, replace(CFG, texture_copies=1)) < 0.5).all()
