"""vision.raster: the array helpers the readers' stages share."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.raster import disc_morphology, rotation_canvas, shift


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


@pytest.mark.parametrize("k", [1, 3, 5, 9, 15, 21, 25, 31, 51])
@pytest.mark.parametrize("op", [cv2.MORPH_CLOSE, cv2.MORPH_OPEN])
def test_disc_morphology_is_opencvs_with_the_elliptic_element_pixel_for_pixel(k, op):
    # blobby masks of several sizes (some smaller than the disc), all table, all foreground, lone pixels and
    # foreground touching the image's edges: the same pixels as cv2.morphologyEx with the k x k ellipse
    rng = np.random.default_rng(k)
    el = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    masks = [np.zeros((40, 60), np.uint8), np.full((33, 17), 255, np.uint8)]
    for h, w in [(120, 200), (17, 90), (301, 64)]:
        noise = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), 3)
        masks.append((noise > np.median(noise)).astype(np.uint8) * 255)
        specks = np.zeros((h, w), np.uint8)
        specks[rng.integers(0, h, 20), rng.integers(0, w, 20)] = 255
        masks.append(specks)
    for m in masks:
        before = m.copy()
        assert np.array_equal(disc_morphology(m, op, k), cv2.morphologyEx(m, op, el))
        assert np.array_equal(m, before)


def test_disc_morphology_refuses_what_it_does_not_do():
    m = np.zeros((10, 10), np.uint8)
    for op, k in [(cv2.MORPH_ERODE, 5), (cv2.MORPH_CLOSE, 4), (cv2.MORPH_OPEN, 0)]:
        with pytest.raises(ValueError):
            disc_morphology(m, op, k)
