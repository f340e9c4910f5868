"""vision.raster: the array helpers the readers' stages share."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.raster import Halvings, disc_morphology, rotation_canvas, shift


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


def test_halvings_average_each_2x2_block_and_drop_an_odd_edge():
    a = np.arange(24, dtype=np.uint8).reshape(4, 6)   # rows 0-5, 6-11, 12-17, 18-23
    h = Halvings(a)
    assert h.level(0) is a
    # by hand: (0+1+6+7)/4 = 3.5, (2+3+8+9)/4 = 5.5, (4+5+10+11)/4 = 7.5; the next row of blocks 12 more; halves up
    assert h.level(1).tolist() == [[4, 6, 8], [16, 18, 20]]
    # level 2: the 2x3 level 1 less its odd column, (4+6+16+18)/4 = 11
    assert h.level(2).tolist() == [[11]]
    odd = np.arange(35, dtype=np.uint8).reshape(5, 7)
    assert np.array_equal(Halvings(odd).level(1), Halvings(np.ascontiguousarray(odd[:4, :6])).level(1))
    colour = np.dstack([a, a, 255 - a])
    assert Halvings(colour).level(1).shape == (2, 3, 3)


def test_halvings_level_for_a_factor_leaves_at_most_one_halving():
    h = Halvings(np.zeros((720, 1280, 3), np.uint8))
    # the most halvings k with factor x 2^k at most 1
    assert [h.level_for(f) for f in (1.0, 0.8, 0.51, 0.5, 0.3, 0.25, 0.2)] == [0, 0, 0, 1, 1, 2, 2]
    small = Halvings(np.zeros((8, 8), np.uint8))
    assert small.level_for(0.1) == 2                    # 8 -> 4 -> 2 px: no level of 1 px
    with pytest.raises(ValueError, match="level"):
        small.level(4)
    with pytest.raises(ValueError, match="level"):
        small.level(-1)


def test_halvings_cut_puts_a_point_where_its_mapping_says():
    img = np.zeros((64, 64), np.uint8)
    img[36:40, 20:24] = 255                            # a 4x4 square centred on (21.5, 37.5) px
    cut, fx, fy, ox, oy = Halvings(img).cut(0, 0, 64, 64, 0.25)
    # two halvings, nothing left to resize: each px one 4x4 block, the square's the block at column 5, row 9
    assert cut.shape == (16, 16) and (fx, fy) == (0.25, 0.25)
    assert ((21.5 - ox) * fx, (37.5 - oy) * fy) == (5.0, 9.0)
    assert cut[9, 5] == 255 and cut.sum() == 255


def test_halvings_cut_with_a_rest_keeps_the_box_edges_and_a_step_in_place():
    img = np.full((64, 64), 40, np.uint8)
    img[:, 30:] = 200                                  # a step at x = 29.5 px (between columns 29 and 30)
    cut, fx, fy, ox, oy = Halvings(img).cut(10, 0, 50, 64, 0.3)
    # one halving (level columns 5-24, 20 px), then 0.6 of it: 12 px, 0.3 of the box's 40 px
    assert cut.shape == (19, 12) and fx == pytest.approx(0.3)
    assert (9.5 - ox) * fx == pytest.approx(-0.5)                # the box's left edge on the cut's
    assert (49.5 - ox) * fx == pytest.approx(cut.shape[1] - 0.5)  # and its right edge
    assert (29.5 - ox) * fx == pytest.approx(5.5)               # the step between cut columns 5 and 6
    assert (cut[:, :6] == 40).all() and (cut[:, 6:] == 200).all()


def test_halvings_refuse_what_they_cannot_cut():
    with pytest.raises(ValueError, match="non-empty"):
        Halvings(np.zeros((0, 5), np.uint8))
    h = Halvings(np.zeros((16, 16), np.uint8))
    for factor in (0.0, 1.5, float("nan")):
        with pytest.raises(ValueError, match="factor"):
            h.cut(0, 0, 8, 8, factor)
    with pytest.raises(ValueError, match="nothing"):
        h.cut(20, 20, 30, 30, 0.5)
