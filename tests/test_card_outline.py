"""vision.card_outline: a place proposed off a card moves onto the card's outline of known size; vision.quads orders
many quads at once as it orders each."""

import cv2
import numpy as np
import pytest

from vision.card_outline import card_sized_about, off_card_size, snap_to_outline
from vision.quads import order_quad, order_quads


def _table_with_card(rng: np.random.Generator, centre: tuple[float, float], size: tuple[float, float],
                     turn_deg: float) -> np.ndarray:
    """A light checked cloth (squares of 0.4 card short side) with a slightly lighter card on it."""
    h, w = 400, 400
    yy, xx = np.mgrid[0:h, 0:w]
    sq = int(0.4 * size[0])
    img = np.where(((xx // sq + yy // sq) % 2)[..., None] == 0, (200, 200, 215), (170, 170, 190)).astype(np.uint8)
    box = cv2.boxPoints(((centre[0], centre[1]), size, -turn_deg)).astype(np.int32)
    cv2.fillPoly(img, [box], (225, 225, 228))
    return np.clip(img.astype(np.int16) + rng.integers(-6, 7, img.shape), 0, 255).astype(np.uint8)


def test_a_place_a_fifth_of_a_card_off_moves_onto_the_card():
    rng = np.random.default_rng(3)
    size = (60.0, 84.0)
    for turn in (0.0, 7.0):
        img = _table_with_card(rng, (200.0, 210.0), size, turn)
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        truth = order_quad(cv2.boxPoints(((200.0, 210.0), size, -turn)))
        place = truth + np.array([0.2 * size[0], -0.15 * size[1]])
        (snapped,) = snap_to_outline(gray, [place], size, reach=0.3)
        assert np.linalg.norm(snapped.mean(axis=0) - truth.mean(axis=0)) < 3.0
        assert np.abs(snapped - truth).max() < 4.0   # the card's own size and turn


def test_a_place_on_a_card_stays_there():
    rng = np.random.default_rng(4)
    size = (60.0, 84.0)
    img = _table_with_card(rng, (200.0, 200.0), size, 0.0)
    truth = order_quad(cv2.boxPoints(((200.0, 200.0), size, 0.0)))
    (snapped,) = snap_to_outline(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), [truth], size, reach=0.3)
    assert np.abs(snapped - truth).max() < 2.0


@pytest.mark.parametrize("turn", [0.0, 8.0, -23.0, 90.0])
def test_a_quad_that_lost_a_corner_of_its_card_gives_the_card_sized_place_about_it(turn):
    # a 60 x 84 card centred at (200, 210), turned; its blob lost 2 px of border all round and a wedge of the top, from
    # 30 px down the left side to the top-right corner: the fitted quad's top side is cut slanted across the card, its
    # other three sides run along the card's. The card-sized place about it has the card's size and turn, its
    # centre where the quad's is (worked out here from the quad's four corners)
    size = (60.0, 84.0)
    a = np.radians(turn)
    R = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])   # counter-clockwise on screen (y down)
    local = np.array([[-28.0, -12.0], [28.0, -40.0], [28.0, 40.0], [-28.0, 40.0]])   # the lost corner: (-30, -42)
    quad = local @ R.T + (200.0, 210.0)
    got = card_sized_about(quad, size)
    assert got.shape == (4, 2)
    np.testing.assert_allclose(got.mean(axis=0), quad.mean(axis=0), atol=1e-9)
    sides = np.linalg.norm(np.roll(got, -1, axis=0) - got, axis=1)
    np.testing.assert_allclose(np.sort(sides), [60.0, 60.0, 84.0, 84.0], atol=1e-9)
    # its long sides run along the card's long sides (the quad's three straight sides outvote the slanted one)
    long_dir = (R @ np.array([0.0, 1.0]))
    for k in (0, 1, 2, 3):
        v = got[(k + 1) % 4] - got[k]
        if np.linalg.norm(v) > 70:
            assert abs(abs(float(np.dot(v / np.linalg.norm(v), long_dir))) - 1.0) < 1e-9
    np.testing.assert_array_equal(got, order_quad(got))
    assert off_card_size(quad, size, 0.05)
    assert not off_card_size(got, size, 0.05) and not off_card_size(got[[2, 3, 0, 1]], size, 0.05)


def test_off_card_size_measures_either_side_against_the_card():
    size = (60.0, 84.0)

    def box(w: float, h: float) -> np.ndarray:
        return order_quad(np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]]))

    assert not off_card_size(box(60.0, 84.0), size, 0.05)
    assert not off_card_size(box(58.0, 81.0), size, 0.05)      # 3.3 % and 3.6 % short
    assert off_card_size(box(56.0, 84.0), size, 0.05)          # the short side 6.7 % short
    assert off_card_size(box(60.0, 89.0), size, 0.05)          # the long side 6.0 % long
    assert not off_card_size(box(56.0, 84.0), size, 0.07)


@pytest.mark.parametrize("seed", range(4))
def test_order_quads_equal_order_quad_quad_by_quad(seed):
    # cards turned every way, given with their corners in any order, some a little off a rectangle
    rng = np.random.default_rng(seed)
    n = 40
    centre, turn = rng.uniform(-50, 500, (n, 2)), rng.uniform(0, 360, n)
    quads = [cv2.boxPoints((tuple(c), tuple(rng.uniform(5, 90, 2)), float(t))).astype(np.float64)[rng.permutation(4)]
             + rng.normal(0, 1.5, (4, 2)) * (k % 2) for k, (c, t) in enumerate(zip(centre, turn, strict=True))]
    got = order_quads(quads)
    assert got.shape == (n, 4, 2)
    for g, q in zip(got, quads, strict=True):
        np.testing.assert_array_equal(g, order_quad(q))
    assert order_quads([]).shape == (0, 4, 2)
