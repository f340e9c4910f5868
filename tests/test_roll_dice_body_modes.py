"""The body colour's histogram smoothed by spreading its occupied bins (``vision.roll_dice.tops._box_sum_sparse``)
holds the box filter's numbers to the bit where the weights' sums are exact, so every die's body colour is the one
the box filter gave: worked by hand on small histograms, and against ``cv2.boxFilter`` on hand-built face crops."""

from __future__ import annotations

import numpy as np
import pytest

import vision.roll_dice.tops as tops
from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.tops import _box_sum, _box_sum_sparse, body_colours, rim_weights, sums_exact

CFG = RollDiceConfig()


def _histogram(bins: dict[tuple[int, int, int], float], dims: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(``float64[d0 d1 d2]`` histogram, ``int[S]`` the pixels' bins) of one pixel per bin with its weight."""
    d0, d1, d2 = dims
    key = np.array([(a * d1 + b) * d2 + c for a, b, c in bins], np.int64)
    h = np.zeros(d0 * d1 * d2)
    h[key] = list(bins.values())
    return h, key


def test_two_occupied_bins_spread_to_their_neighbours_worked_by_hand():
    # bins (2, 2, 2) weight 1 and (2, 2, 3) weight 0.5 in a 5 x 5 x 5 volume: a bin next to both holds 1.5, a bin next
    # to the first only 1, next to the second only 0.5, and the first highest in C order is (1, 1, 2)
    h, key = _histogram({(2, 2, 2): 1.0, (2, 2, 3): 0.5}, (5, 5, 5))
    got = _box_sum_sparse(h, key, 5, 5).reshape(5, 5, 5)
    assert got[2, 2, 2] == 1.5 and got[3, 3, 3] == 1.5 and got[1, 1, 2] == 1.5
    assert got[1, 1, 1] == 1.0 and got[3, 3, 1] == 1.0
    assert got[1, 1, 4] == 0.5 and got[2, 2, 4] == 0.5
    assert got[0].sum() == 0 and got[4].sum() == 0 and got[:, :, 0].sum() == 0
    assert got.sum() == 27 * 1.5
    assert np.unravel_index(int(got.argmax()), (5, 5, 5)) == (1, 1, 2)


def test_several_pixels_in_one_bin_count_once_each():
    # three pixels in bin (1, 2, 1) of a 3 x 4 x 3 volume, weights 0.3, 0.75 and 1: each neighbour holds 2.05
    d0, d1, d2 = 3, 4, 3
    key = np.full(3, (1 * d1 + 2) * d2 + 1, np.int64)
    w = np.array([0.3, 0.75, 1.0], np.float32)
    h = np.bincount(key, w, minlength=d0 * d1 * d2)
    got = _box_sum_sparse(h, key, d1, d2).reshape(d0, d1, d2)
    total = float(np.float64(w[0]) + np.float64(w[1]) + np.float64(w[2]))
    assert np.count_nonzero(got) == 27 and set(got[got > 0].tolist()) == {total}
    assert got[0, 1, 0] == total and got[2, 3, 2] == total and got[0, 0].sum() == 0


def test_the_spread_equals_the_box_filter_to_the_bit_on_rim_weighted_histograms():
    rng = np.random.default_rng(3)
    w = rim_weights(34, 28.0).reshape(-1)
    sel = np.flatnonzero(w)
    for _ in range(30):
        d0, d1, d2 = (int(v) for v in rng.integers(4, 30, 3))
        pts = np.stack([rng.integers(1, d - 1, len(sel)) for d in (d0, d1, d2)])
        key = (pts[0] * d1 + pts[1]) * d2 + pts[2]
        h = np.bincount(key, w[sel], minlength=d0 * d1 * d2)
        box = _box_sum(h, d0, d1, d2).reshape(-1)
        spread = _box_sum_sparse(h, key, d1, d2)
        assert np.array_equal(box, spread)
        assert int(box.argmax()) == int(spread.argmax())


@pytest.mark.parametrize("weights, exact", [
    (None, True),
    (rim_weights(34, 28.0), True),
    (np.array([1, 2, 3]), True),
    (np.array([0.3, 1.0], np.float64), False),                    # 0.3 is no float32
    (np.array([0.25, 1.0], np.float64), True),                    # both float32, sums exact
    (np.array([2.0 ** -40, 2.0 ** 20], np.float32), False),       # too many bits between the smallest and the sum
    (np.array([np.nan, 1.0], np.float32), False),
    (np.array([np.inf, 1.0], np.float32), False),
    (np.zeros(4, np.float32), True),
    (np.array(["a"]), False),
])
def test_which_weights_sum_exactly(weights, exact):
    assert sums_exact(weights) is exact


def _die_crop(rng: np.random.Generator, size: int, body: tuple[int, int, int], ink: tuple[int, int, int],
              table: tuple[int, int, int]) -> np.ndarray:
    """``uint8[size, size, 3]`` BGR: a die's face (``body``, a bar of ``ink`` across its middle) on ``table``, the
    face 26/34 of the crop, a little noise on all of it."""
    img = np.empty((size, size, 3), np.float64)
    img[:] = table
    lo, hi = round(size * 4 / 34), round(size * 30 / 34)
    img[lo:hi, lo:hi] = body
    m0, m1 = round(size * 14 / 34), round(size * 20 / 34)
    img[m0:m1, lo + 4:hi - 4] = ink
    img += rng.normal(0, 3.0, img.shape)
    return np.clip(np.round(img), 0, 255).astype(np.uint8)


def test_body_colours_of_face_crops_are_those_of_the_box_filter(monkeypatch):
    rng = np.random.default_rng(11)
    colours = [((40, 40, 200), (235, 235, 235), (60, 120, 150)), ((230, 230, 230), (30, 30, 30), (90, 90, 90)),
               ((200, 90, 40), (240, 240, 240), (40, 160, 60)), ((60, 160, 230), (250, 250, 250), (35, 35, 35)),
               ((120, 60, 140), (245, 245, 245), (200, 200, 200)), ((50, 170, 70), (235, 235, 235), (140, 90, 50))]
    for size in (34, 48):
        crops = np.stack([_die_crop(rng, size, *c) for c in colours])
        logp = to_log(crops, CFG)
        w = rim_weights(size, size / 1.3)
        assert sums_exact(w.reshape(-1)[w.reshape(-1) != 0])
        spread = body_colours(logp, weights=w)
        unweighted = body_colours(logp)
        monkeypatch.setattr(tops, "sums_exact", lambda weights: False)
        assert np.array_equal(spread, body_colours(logp, weights=w))
        assert np.array_equal(unweighted, body_colours(logp))
        monkeypatch.undo()
        # each die's body is its own body colour, not the ink's or the table's
        for got, (body, _, _) in zip(spread, colours, strict=True):
            assert np.linalg.norm(got - to_log(np.array([[body]], np.uint8), CFG)[0, 0]) < 0.1
