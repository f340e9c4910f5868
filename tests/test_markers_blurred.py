"""Calibration from a soft frame (issue 16: a table whose calibration failed read its cards without one, and on a
patterned cloth missed them all): small markers with a narrow quiet zone, smeared by motion blur and a strong JPEG,
are found on sharpened and enlarged copies of the frame."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.mat import render_marker
from vision.table import MarkerLayout, calibrate, detect_markers, markers_looked_harder

POS = [(200, 100), (1000, 90), (1010, 600), (190, 610)]   # each marker's top-left, px


def _soft_frame(side: int, blur: float, quality: int) -> tuple[np.ndarray, MarkerLayout]:
    """A 1280x720 frame: four ``side`` px markers with a quiet zone of an eighth of their side on a green and white
    checked cloth, a horizontal motion blur of ``blur`` px each way, JPEG ``quality``; and its layout (2 px per
    mm)."""
    yy, xx = np.mgrid[0:720, 0:1280]
    check = ((yy // 14) % 2) + ((xx // 14) % 2)
    img = np.dstack([np.choose(check, [225, 150, 40]), np.choose(check, [230, 190, 150]),
                     np.choose(check, [225, 150, 40])]).astype(np.uint8)
    for i, (x, y) in enumerate(POS):
        z = side // 8
        img[y - z:y + side + z, x - z:x + side + z] = 245
        img[y:y + side, x:x + side] = render_marker(i, side)[..., None]
    k = np.zeros((int(2 * blur) + 1, int(2 * blur) + 1), np.float32)
    k[k.shape[0] // 2, :] = 1.0
    img = cv2.filter2D(img, -1, k / k.sum())
    img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
    corners = {i: np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float) / 2.0
               for i, (x, y) in enumerate(POS)}
    return img, MarkerLayout(corners, 640.0, 360.0)


@pytest.mark.parametrize("side, blur, quality", [(24, 2.0, 55), (28, 2.0, 40)])
def test_a_soft_frames_markers_calibrate(side, blur, quality):
    img, layout = _soft_frame(side, blur, quality)
    assert len(detect_markers(img)) < 2          # the cause: as it is, the frame shows too few markers to calibrate
    cal = calibrate(img, layout)
    assert len(cal.markers_px) >= 2
    # the table maps where the markers were drawn: every drawn corner within 1.5 px
    for i, (x, y) in enumerate(POS):
        drawn = np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], float)
        assert np.abs(cal.to_px(layout.corners_mm[i]) - drawn).max() < 1.5


def test_markers_looked_harder_are_in_the_frames_pixels():
    # a sharp frame: the harder looks find every marker where the plain look does (the enlarged looks' corners
    # mapped back to the frame's pixels)
    img, _ = _soft_frame(40, 0.0, 95)
    plain = detect_markers(img)
    harder = markers_looked_harder(img)
    assert sorted(plain) == sorted(harder) == [0, 1, 2, 3]
    for i in plain:
        assert np.abs(plain[i] - harder[i]).max() < 0.5
