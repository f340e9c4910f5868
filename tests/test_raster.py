"""vision.raster: the array helpers the readers' stages share."""

from __future__ import annotations

import numpy as np
import pytest

from vision.raster import rotation_canvas, shift


def test_shift_moves_content_and_zero_fills():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)  # rows [0..3], [4..7], [8..11]
    # out[y, x] = a[y + dy, x + dx]
    assert shift(a, 1, 0).tolist() == [[1, 2, 3, 0], [5, 6, 7, 0], [9, 10, 11, 0]]
    assert shift(a, -1, 0).tolist() == [[0, 0, 1, 2], [0, 4, 5, 6], [0, 8, 9, 10]]
    assert shift(a, 0, 1).tolist() == [[4, 5, 6, 7], [8, 9, 10, 11], [0, 0, 0, 0]]
    assert shift(a, 2, -1).tolist() == [[0, 0, 0, 0], [2, 3, 0, 0], [6, 7, 0, 0]]
    assert shift(a, 0, 0).tolist() == a.tolist()
    assert shift(a, 1, 0).dtype == np.float32


@pytest.mark.parametrize("dx,dy", [(4, 0), (-4, 0), (0, 3), (0, -3), (9, 0), (0, -7), (5, 5)])
def test_shift_by_the_size_or_more_is_all_zeros(dx, dy):
    a = np.ones((3, 4), np.uint8)
    out = shift(a, dx, dy)
    assert out.shape == a.shape and not out.any()


@pytest.mark.parametrize("angle", [0.0, 30.0, -45.0, 90.0, 135.0])
def test_rotation_canvas_holds_the_whole_turned_image(angle):
    w, h = 40, 20
    M, nw, nh = rotation_canvas(w, h, angle)
    corners = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], np.float64)
    out = corners @ M.T
    # every corner inside the canvas, the image centre on the canvas centre
    assert (out >= -1e-9).all() and (out[:, 0] <= nw).all() and (out[:, 1] <= nh).all()
    assert np.allclose(np.array([w / 2, h / 2, 1.0]) @ M.T, [nw / 2, nh / 2])
    # a quarter turn swaps the sides (plus the 2 px margin)
    if angle == 90.0:
        assert (nw, nh) == (h + 2, w + 2)
