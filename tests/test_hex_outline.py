"""The hex reader's outline stages (:mod:`vision.hexes.outline`, :func:`vision.hexes.identify.turned_maps`): an
outline fitted from a pose a few pixels off lands on the hexagon drawn, the fits of several hexes at once are each
hex's own fit, and the six turns of a crop's maps are the maps of the crop turned."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.hexes import HexesConfig, default_id_config
from vision.hexes.geometry import HexCandidate, hexagon
from vision.hexes.identify import turned_maps
from vision.hexes.outline import edge_scores, outline_maps, refine_hexes

FLAT = 56.0


def board(centres: list[tuple[float, float]], turn: float = 0.0) -> np.ndarray:
    """uint8[300, 400, 3]: dark hexagons of flat width ``FLAT`` px on a light, slightly noisy table."""
    rng = np.random.default_rng(5)
    img = np.full((300, 400, 3), (170, 180, 190), np.uint8)
    for k, c in enumerate(centres):
        poly = hexagon(FLAT, c, turn)
        cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], (60 + 20 * k, 40, 90), cv2.LINE_AA, shift=4)
    noise = rng.normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def candidate(centre: tuple[float, float], turn: float = 0.0) -> HexCandidate:
    return HexCandidate(hexagon(FLAT, centre, turn), np.array(centre, np.float64), 0.0, 1.0, 6, 0.0)


def test_an_outline_a_few_pixels_off_is_fitted_onto_the_hexagon():
    truth = [(120.3, 110.6), (260.8, 180.2)]
    img = board(truth, 2.0)
    off = [candidate((c[0] + 3.4, c[1] - 2.7), 1.0) for c in truth]
    fitted = refine_hexes(img, off, FLAT, HexesConfig())
    for h, c in zip(fitted, truth, strict=True):
        # the lattice's pose is the prior (refine_prior): the fit moves most of the way, not all
        assert np.linalg.norm(h.centre - np.array(c)) < 1.5 < np.linalg.norm(np.array([3.4, -2.7]))
        e01 = h.corners[1] - h.corners[0]
        assert abs(math.degrees(math.atan2(e01[1], e01[0])) - 2.0) < 0.7
        assert h.score > 4.0


def test_hexes_fitted_together_are_fitted_as_each_alone():
    truth = [(120.3, 110.6), (260.8, 180.2), (190.0, 145.0)]
    img = board(truth[:2])
    cands = [candidate((c[0] + 1.5, c[1] + 2.0)) for c in truth]
    maps = outline_maps(img)
    together = refine_hexes(img, cands, FLAT, HexesConfig(), maps=maps)
    for h, c in zip(together, cands, strict=True):
        [alone] = refine_hexes(img, [c], FLAT, HexesConfig(), maps=maps)
        assert np.array_equal(h.corners, alone.corners) and h.score == alone.score


def test_edge_scores_see_an_outline_only_where_it_is():
    img = board([(200.0, 150.0)])
    maps = outline_maps(img)
    cfg = HexesConfig()
    on = edge_scores(maps, FLAT, cfg, np.array([200.0]), np.array([150.0]), np.array([0.0]), np.array([1.0]))
    off = edge_scores(maps, FLAT, cfg, np.array([200.0]), np.array([165.0]), np.array([0.0]), np.array([1.0]))
    assert on.shape == (1, 6) and on.min() > 0.9 and off.mean() < on.mean() - 0.1


def test_edge_scores_of_more_poses_than_an_image_has_rows():
    # a map's hexes fitted at once can ask for tens of thousands of poses; cv2.remap takes fewer than 32767 rows
    img = board([(200.0, 150.0)])
    maps = outline_maps(img)
    n = 40000
    x = np.full(n, 200.0)
    x[-1] = 210.0
    e = edge_scores(maps, FLAT, HexesConfig(), x, np.full(n, 150.0), np.zeros(n), np.ones(n))
    assert e.shape == (n, 6) and np.array_equal(e[0], e[n // 2]) and not np.array_equal(e[0], e[-1])


def test_the_six_turns_of_a_crop_are_its_maps_turned():
    rng = np.random.default_rng(3)
    crop = cv2.GaussianBlur((rng.random((96, 96, 3)) * 255).astype(np.uint8), (0, 0), 2)
    cfg = default_id_config()
    maps, _ = turned_maps(crop, cfg)
    for k in range(1, 6):
        R = cv2.getRotationMatrix2D((47.5, 47.5), 60.0 * k, 1.0)
        turned, _ = turned_maps(cv2.warpAffine(crop, R, (96, 96), borderMode=cv2.BORDER_REFLECT), cfg)
        # the crop turned so its edge k is on top matches turn k of the maps (away from the resampled rim)
        a, b = maps[k, 0, 12:-12, 12:-12].ravel(), turned[0, 0, 12:-12, 12:-12].ravel()
        assert np.corrcoef(a, b)[0, 1] > 0.8


def test_weakest_first_is_the_sorted_weighted_sum():
    from vision.hexes.outline import weakest_first

    rng = np.random.default_rng(7)
    sides = rng.random((6, 40, 50)).astype(np.float32)
    sides[rng.random(sides.shape) < 0.3] = 0.25      # ties
    w = np.array([1.0, 1.0, 1.0, 0.75, 0.5, 0.5], np.float32)[:, None, None]
    assert np.array_equal(weakest_first(list(sides)), (np.sort(sides, axis=0) * w).sum(axis=0))


def test_outline_maps_are_the_colour_structure_tensor_sums():
    """Each of the eight maps is the sum over the colour channels of its derivative product (Di Zenzo): a colour image
    gives the sum of what each of its channels gives alone, each weighed by 1 / sqrt(3) (products: 1 / 3)."""
    rng = np.random.default_rng(11)
    img = cv2.GaussianBlur(rng.integers(0, 256, (60, 80, 3)).astype(np.uint8), (0, 0), 1.5)
    got, sig = outline_maps(img)
    assert got.shape == (60, 80, 8) and got.dtype == np.float32 and sig == 1.0
    alone = sum(outline_maps(img[..., k])[0] for k in range(3)) / 3.0
    np.testing.assert_allclose(got, alone, rtol=1e-4, atol=1e-3)
    # a neutral grey step of d levels counts as d: the across-gradient map of a vertical step
    step = np.zeros((40, 40, 3), np.uint8)
    step[:, 20:] = 90
    grey = np.zeros((40, 40), np.uint8)
    grey[:, 20:] = 90
    np.testing.assert_allclose(outline_maps(step)[0][..., 0], outline_maps(grey)[0][..., 0], rtol=1e-5, atol=1e-3)


def test_the_two_pass_search_lands_where_the_whole_grid_does(monkeypatch):
    # FLAT x refine_window = 6.7 px: 7 steps either way, searched at every other step and then next to the best places;
    # with the two passes turned off (one pass over every step) the fits are the same poses, to the grid's rounding
    import vision.hexes.outline as outline

    truth = [(120.3, 110.6), (260.8, 180.2)]
    img = board(truth, 1.0)
    maps = outline_maps(img)
    offs = [(3.4, -2.7), (-4.6, 1.3)]
    cands = [candidate((c[0] + dx, c[1] + dy), 0.0) for c, (dx, dy) in zip(truth, offs, strict=True)]
    two = refine_hexes(img, cands, FLAT, HexesConfig(), maps=maps)
    monkeypatch.setattr(outline, "_TWO_PASS_STEPS", 1000)
    whole = refine_hexes(img, cands, FLAT, HexesConfig(), maps=maps)
    for a, b in zip(two, whole, strict=True):
        assert np.allclose(a.corners, b.corners, atol=1e-6) and abs(a.score - b.score) < 1e-5
