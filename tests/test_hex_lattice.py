"""The hex reader's lattice stage (:func:`vision.hexes.lattice.find_hexes`): the expected hex size is a prior,
not a fact. A map whose hexes are larger or smaller in the work image than expected (a lens's barrel distortion
that a calibration from four markers does not model) is still found cell by cell, at its own size, instead of a
lattice of the expected pitch drifting off the tiles across the map."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.hexes import HexesConfig
from vision.hexes.geometry import SQRT3, hexagon
from vision.hexes.lattice import find_hexes

FLAT = 56.0   # the work image's expected flat width (HexesConfig.work_flat_px)


def hex_map(flat: float, radius: int = 2, size: int = 560, seed: int = 3) -> tuple[np.ndarray, list[np.ndarray]]:
    """(uint8[size, size, 3] BGR, centres float[2] px): every cell within ``radius`` of the middle one, flat-top
    tiles ``flat`` px across edge to edge (a 1 px dark seam), each its own mid colour with a few light stars, on a
    plain light table with a little noise."""
    rng = np.random.default_rng(seed)
    img = np.full((size, size, 3), (175, 185, 195), np.float32)
    R = flat / SQRT3
    centres = []
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q) + abs(r) + abs(q + r) > 2 * radius:
                continue
            c = np.array([size / 2 + 1.5 * R * q, size / 2 + flat * (r + q / 2.0)])
            centres.append(c)
            colour = tuple(float(v) for v in rng.uniform(40, 120, 3))
            cv2.fillPoly(img, [np.round(hexagon(flat - 1.0, c) * 16).astype(np.int32)], colour, cv2.LINE_AA,
                         shift=4)
            for _ in range(6):   # stars: isotropic print that is no outline
                p = c + rng.uniform(-0.3, 0.3, 2) * flat
                cv2.circle(img, (int(p[0]), int(p[1])), int(rng.integers(1, 4)), (230, 230, 230), -1, cv2.LINE_AA)
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), centres


@pytest.mark.parametrize("scale", [0.91, 1.09])
def test_a_map_of_another_size_than_expected_is_found_at_its_own_size(scale):
    flat = FLAT * scale
    img, centres = hex_map(flat)
    found = find_hexes(img, FLAT, HexesConfig(), refine=False, scales=HexesConfig().lattice_scales)
    got = np.array([h.centre for h in found])
    assert len(found) == len(centres)
    for c in centres:
        # a lattice of the expected pitch is off by 9 % of a flat per cell: two cells out, a fifth of a flat
        assert np.linalg.norm(got - c, axis=1).min() < 0.06 * flat
    for h in found:
        assert abs(float(np.linalg.norm(h.corners[0] - h.corners[4])) / flat - 1.0) < 0.04


def test_a_map_of_the_expected_size_is_found_at_it():
    img, centres = hex_map(FLAT)
    found = find_hexes(img, FLAT, HexesConfig(), refine=False, scales=HexesConfig().lattice_scales)
    got = np.array([h.centre for h in found])
    assert len(found) == len(centres)
    for c in centres:
        assert np.linalg.norm(got - c, axis=1).min() < 0.04 * FLAT
    for h in found:
        assert math.isclose(float(np.linalg.norm(h.corners[0] - h.corners[4])), FLAT, rel_tol=0.01)


def test_a_window_read_after_a_change_takes_the_width_the_last_read_fitted():
    """After a change only windows are read; the lattice width the cold read fitted (its hexes' median flat on the
    table over the deck's hex size) is the window's width, not searched again."""
    from types import SimpleNamespace

    from vision.hexes.reader import _lattice_scale
    from vision.table import TableCalibration, mat_layout

    px_per_mm = 2.0
    cal = TableCalibration(H=np.diag([px_per_mm, px_per_mm, 1.0]), markers_px={}, layout=mat_layout(),
                           reprojection_px=0.5, frame_size=(1280, 720))
    hex_mm = 110.0
    flats_mm = (115.0, 116.6, 118.0)   # a lens makes the map 6 % larger than the deck says: 116.6 / 110 = 1.06
    previous = [SimpleNamespace(corners=hexagon(f * px_per_mm, (300.0 + 250 * k, 300.0))) for k, f in
                enumerate(flats_mm)]
    assert math.isclose(_lattice_scale(previous, cal, hex_mm), 116.6 / 110.0, rel_tol=1e-6)
    assert _lattice_scale([], cal, hex_mm) is None
    assert _lattice_scale(previous, None, hex_mm) is None


@pytest.mark.parametrize("scale", [0.95, 1.05])
def test_a_map_a_few_percent_off_the_expected_size_is_searched_and_found_at_its_own_size(scale, monkeypatch):
    """The lattice fitted at the expected width shows it is off (the refit pitch follows the nudged hexes), so the
    other widths are searched, and the map is found at its own width."""
    import vision.hexes.lattice as lattice

    searched = []
    search = lattice.lattice_scale
    monkeypatch.setattr(lattice, "lattice_scale", lambda *a, **k: searched.append(1) or search(*a, **k))
    flat = FLAT * scale
    img, centres = hex_map(flat, seed=5)
    found = find_hexes(img, FLAT, HexesConfig(), refine=False, scales=HexesConfig().lattice_scales)
    assert searched
    got = np.array([h.centre for h in found])
    assert len(found) == len(centres)
    for c in centres:
        assert np.linalg.norm(got - c, axis=1).min() < 0.06 * flat
    for h in found:
        # the nearest width searched: 0.94 or 1.06 of the expected, within 1.5 % of the map's own
        assert abs(float(np.linalg.norm(h.corners[0] - h.corners[4])) / flat - 1.0) < 0.015


def test_a_map_of_the_expected_size_skips_the_width_search(monkeypatch):
    """At the expected width the refitted lattice keeps its pitch, covers the tiles and folds sharply: no other width
    is tried, and the hexes are those of the expected width alone."""
    import vision.hexes.lattice as lattice

    def no_search(*a, **k):
        raise AssertionError("the width was searched")

    img, _ = hex_map(FLAT, seed=6)
    expected = find_hexes(img, FLAT, HexesConfig(), refine=False)
    monkeypatch.setattr(lattice, "lattice_scale", no_search)
    found = find_hexes(img, FLAT, HexesConfig(), refine=False, scales=HexesConfig().lattice_scales)
    assert len(found) == len(expected) == 19
    for a, b in zip(found, expected, strict=True):
        assert np.array_equal(a.corners, b.corners)


def _fit(n: int, pitch: float | None, sharpness: float = 3.0, cover: float = 0.95):
    """A BlobLattice of ``n`` hexes at the expected width FLAT covering ``cover`` of its foreground."""
    from vision.hexes.lattice import BlobLattice

    return BlobLattice([None] * n, sharpness, pitch, n * SQRT3 / 2.0 * FLAT * FLAT / cover)  # type: ignore[list-item]


def test_the_width_is_in_doubt_when_the_refit_lattice_says_so():
    from vision.hexes.lattice import width_is_off

    c = HexesConfig(lattice_pitch_tolerance=0.01, lattice_min_cover=0.8, lattice_min_sharpness=1.5)
    assert not width_is_off([_fit(20, 1.004)], FLAT, c)
    assert width_is_off([_fit(20, 1.02)], FLAT, c)            # the refit pitch is 2 % larger
    assert width_is_off([_fit(20, 0.98)], FLAT, c)
    assert width_is_off([_fit(20, 1.0, cover=0.6)], FLAT, c)   # cells lost where the lattice drifted off the tiles
    assert width_is_off([_fit(20, 1.0, sharpness=1.2)], FLAT, c)   # a fold too weak to tell
    assert width_is_off([_fit(2, None)], FLAT, c)             # nothing refitted: no evidence at all
    assert width_is_off([], FLAT, c)
    # a small blob that was not refitted (a bit of table print) does not count; the map's pitch is the mean over
    # the refitted blobs' hexes: (30 x 1.0 + 10 x 1.03) / 40 = 1.0075
    assert not width_is_off([_fit(30, 1.0), _fit(10, 1.03), _fit(1, None, sharpness=1.0)], FLAT, c)


def test_the_width_search_reuses_the_sharpness_measured_at_the_expected_width():
    from vision.hexes.lattice import blob_lattice, lattice_scale, upright_blob

    img, _ = hex_map(FLAT * 1.06, seed=7)
    c = HexesConfig()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    comp = (cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) < 150).astype(np.uint8) * 255
    ub = upright_blob(gray, comp, FLAT)
    fit = blob_lattice(img, gray, comp, FLAT, c, ub)
    fresh = upright_blob(gray, comp, FLAT)
    assert lattice_scale([ub], FLAT, c.lattice_scales, c, {1.0: [fit.sharpness]}) == lattice_scale(
        [fresh], FLAT, c.lattice_scales, c)
