"""The hex reader's work done for many hexes, poses or cells at once (:func:`vision.hexes.outline.edge_scores`,
:func:`vision.hexes.identify.score_hexes`, the lattice's cells, :func:`vision.card_features.shifted_maps`) gives each
the numbers, to the last bit, that reading it alone gives: batching changes what a read costs, never what it says."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.card_features import shifted_maps
from vision.hexes import HexesConfig, build_hex_deck_from_images
from vision.hexes.geometry import hex_crop, hexagon
from vision.hexes.identify import _blend, _weighted_ncc, score_hex, score_hexes, turned_maps, turned_maps_many
from vision.hexes.lattice import _lattice_cells
from vision.hexes.outline import edge_scores, outline_maps
from vision.synth_table import hex_reference_images

FLAT = 56.0


def board() -> np.ndarray:
    """uint8[300, 400, 3]: three dark hexagons, turned a little, on a light noisy table."""
    rng = np.random.default_rng(5)
    img = np.full((300, 400, 3), (170, 180, 190), np.uint8)
    for k, (c, turn) in enumerate((((110.0, 100.0), 3.0), ((260.0, 170.0), -8.0), ((180.0, 230.0), 14.0))):
        cv2.fillPoly(img, [np.round(hexagon(FLAT, c, turn) * 16).astype(np.int32)], (60 + 30 * k, 40, 90),
                     cv2.LINE_AA, shift=4)
    return np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)


def test_poses_sharing_a_turn_score_as_each_pose_alone():
    # a refine grid: many poses at each of a few turns, plus turns only one to three poses have (weighed one by one),
    # shuffled, some off the image; every pose's six edge scores are those it gets as the only pose of a call
    rng = np.random.default_rng(11)
    maps = outline_maps(board())
    cfg = HexesConfig()
    turns = np.concatenate([np.repeat([3.0, -8.0, 14.0, 2.4], [150, 90, 37, 4]), [0.5, 0.5, 7.25, -20.0, -20.0, -20.0]])
    n = len(turns)
    cx, cy = rng.uniform(-30, 430, n), rng.uniform(-30, 330, n)
    sc = rng.choice([0.95, 1.0, 1.05], n)
    shuffle = rng.permutation(n)
    cx, cy, turns, sc = cx[shuffle], cy[shuffle], turns[shuffle], sc[shuffle]
    together = edge_scores(maps, FLAT, cfg, cx, cy, turns, sc)
    alone = np.concatenate([edge_scores(maps, FLAT, cfg, cx[k:k + 1], cy[k:k + 1], turns[k:k + 1], sc[k:k + 1])
                            for k in range(n)])
    assert together.shape == (n, 6) and together.dtype == np.float32
    assert np.array_equal(together, alone)
    assert together.max() > 0.8 and together.min() >= 0.0      # outlines found where hexagons are drawn
    assert edge_scores(maps, FLAT, cfg, *(np.zeros(0) for _ in range(4))).shape == (0, 6)


def _cells_one_by_one(cells, A, resp, occ, sides, win, nudge_gain, c):
    """The lattice's cells read one at a time, as the reader read them before (a loop over the cells)."""
    nh, nw = resp.shape
    found = []
    for qi, ri in cells.astype(int):
        p = np.array([qi, ri, 1.0]) @ A
        cx, cy = int(round(p[0])), int(round(p[1]))
        if not (0 <= cx < nw and 0 <= cy < nh) or occ[cy, cx] < c.min_occupancy_crisp - 0.1:
            continue
        a0, a1, b0, b1 = max(0, cx - win), min(nw, cx + win + 1), max(0, cy - win), min(nh, cy + win + 1)
        wr = resp[b0:b1, a0:a1]
        dy, dx = np.unravel_index(int(np.argmax(wr)), wr.shape)
        cx2, cy2 = a0 + dx, b0 + dy
        if nudge_gain and float(wr[dy, dx]) < c.refine_gain * float(resp[cy, cx]):
            cx2, cy2 = cx, cy
        o = float(occ[cy2, cx2])
        crisp = sum(float(sd[cy2, cx2]) >= c.min_edge for sd in sides)
        if crisp < c.min_crisp_sides or o < c.min_occupancy_crisp:
            continue
        if o < c.min_occupancy and crisp < c.crisp_for_low_occupancy:
            continue
        found.append((int(qi), int(ri), float(cx2), float(cy2), o, crisp, float(resp[cy2, cx2])))
    return found


@pytest.mark.parametrize("nudge_gain", [False, True])
@pytest.mark.parametrize("win", [1, 3])
def test_lattice_cells_read_together_are_read_as_one_by_one(nudge_gain, win):
    # responses with ties (levels of 0.5: the first strongest in row order wins), occupancies about the thresholds,
    # side strengths about min_edge, cells off the image and windows cut by its edge
    rng = np.random.default_rng(7 + win)
    c = HexesConfig()
    nh, nw = 60, 80
    resp = (np.round(rng.random((nh, nw)) * 8) / 2).astype(np.float32)
    occ = rng.choice(np.float32([0.5, c.min_occupancy_crisp - 0.1, 0.7, c.min_occupancy, 0.95]), (nh, nw))
    sides = [(rng.random((nh, nw)) * 2 * c.min_edge).astype(np.float32) for _ in range(6)]
    sides[0][::3] = np.float32(c.min_edge)
    A = np.array([[9.3, 1.1], [-0.7, 10.6], [3.3, -4.2]])
    cells = np.array([(q, r) for q in range(-3, 11) for r in range(-2, 8)], np.float64)
    pad = np.full((nh + 2 * 3, nw + 2 * 3), -np.inf, np.float32)
    pad[3:3 + nh, 3:3 + nw] = resp
    got = _lattice_cells(cells, A, resp, (pad, 3), occ, sides, win, nudge_gain, c)
    want = _cells_one_by_one(cells, A, resp, occ, sides, win, nudge_gain, c)
    assert len(want) > 10 and got == want


def test_a_sectors_blend_is_its_references_min_and_mean_in_the_decks_order():
    rng = np.random.default_rng(3)
    deck = SimpleNamespace(ref_ids=["b", "a", "c", "a", "b", "a", "d", "a"])   # sectors a, b, c, d: 4, 2, 1, 1 refs
    D = rng.random((8, 12)).astype(np.float32)
    uniq, inv = np.unique(deck.ref_ids, return_inverse=True)
    mn = np.full((4, 12), np.inf, np.float32)
    np.minimum.at(mn, inv, D)
    sm = np.zeros((4, 12), np.float32)
    np.add.at(sm, inv, D)
    counts = np.bincount(inv).astype(np.float32)
    assert np.array_equal(_blend(deck, D, 0.5), 0.5 * mn + 0.5 * sm / counts[:, None])


@pytest.fixture(scope="module")
def small_deck():
    ids = ["001", "101", "102", "201", "202", "301"]
    return build_hex_deck_from_images(hex_reference_images(ids), name="six", kind="scan"), ids


def test_hexes_scored_together_are_scored_as_each_alone(small_deck):
    # crops of the deck's own sectors turned, shifted and noisy, a blank one and one not in the deck: each crop's
    # score (best sector, distances, turn, the anchor's distance and turn) as when scored alone
    deck, ids = small_deck
    rng = np.random.default_rng(2)
    crops = []
    for k, hid in enumerate(ids + ["302"]):
        im = hex_reference_images([hid], seed=k)[hid][0]
        h, w = im.shape[:2]
        corners = np.roll(hexagon(0.86 * w, (w / 2 + rng.uniform(-3, 3), h / 2 + rng.uniform(-3, 3)),
                                  rng.uniform(-4, 4)), -k % 6, axis=0)
        crop = hex_crop(im, corners, 96)
        crops.append(np.clip(crop + rng.normal(0, 6, crop.shape), 0, 255).astype(np.uint8))
    crops.append(np.full((96, 96, 3), 128, np.uint8))
    cfg = HexesConfig()
    for anchor in ("001", None):
        together = score_hexes(deck, crops, anchor, cfg.shortlist, colour_weight=cfg.colour_weight,
                               fine_shift=cfg.fine_shift)
        alone = [score_hex(deck, cr, anchor, cfg.shortlist, colour_weight=cfg.colour_weight,
                           fine_shift=cfg.fine_shift) for cr in crops]
        assert together == alone
    assert [s.best for s in together[:len(ids)]] == ids      # and they read right
    maps, hists = turned_maps_many(crops, deck.config)
    for k, cr in enumerate(crops):
        m, hist = turned_maps(cr, deck.config)
        assert np.array_equal(maps[k], m) and np.array_equal(hists[k], hist)
    assert score_hexes(deck, []) == []
    with pytest.raises(ValueError, match="one size"):
        score_hexes(deck, [crops[0], cv2.resize(crops[1], (80, 80))])


def test_shifted_maps_of_many_queries_are_each_querys_own():
    rng = np.random.default_rng(4)
    big = cv2.GaussianBlur(rng.random((20, 26, 5 * 4)).astype(np.float32), (0, 0), 1.0)
    big = np.ascontiguousarray(big.transpose(2, 0, 1).reshape(5, 4, 20, 26)) * np.float32(30)
    for r in (None, 2):
        many = shifted_maps(big, 3, r)
        n = 7 if r is None else 5
        assert many.shape == (5, n * n, 4, 14 * 20)
        for k in range(5):
            assert np.array_equal(many[k], shifted_maps(big[k], 3, r))
    assert shifted_maps(big.reshape(1, 5, 4, 20, 26), 3).shape == (1, 5, 49, 4, 280)


def test_a_hexagon_crop_is_the_warp_filled_outside_with_the_median_inside():
    # the crop's pixels gathered by flat indices: the warp inside the hexagon (2 px in from its rim) as it is, every
    # pixel outside it the per-channel median of those inside (np.median's, even counts included)
    rng = np.random.default_rng(7)
    im = board()
    for _ in range(6):
        corners = hexagon(FLAT + rng.uniform(-6, 6), (rng.uniform(60, 340), rng.uniform(60, 240)),
                          rng.uniform(-30, 30))
        for size in (96, 57):
            got = hex_crop(im, corners, size)
            c = (size - 1) / 2.0
            canon = hexagon(np.sqrt(3.0) * c, (c, c))
            Hm, _ = cv2.findHomography(canon, corners, 0)
            want = cv2.warpPerspective(im, Hm, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                       borderMode=cv2.BORDER_REPLICATE)
            mask = np.zeros((size, size), np.uint8)
            cv2.fillPoly(mask, [np.round(hexagon(np.sqrt(3.0) * c - 2.0, (c, c)) * 16).astype(np.int32)], 255,
                         cv2.LINE_8, shift=4)
            inside = mask > 0
            want[~inside] = np.median(want[inside], axis=0).astype(np.uint8)
            assert np.array_equal(got, want)


def test_equal_channel_weights_are_taken_out_of_the_fine_product():
    # four channels of one weight (0.25, a power of two): the same numbers as weighing each channel before the
    # product; other weights: the weighted product itself
    rng = np.random.default_rng(3)
    qs = rng.normal(0, 0.02, (25, 4, 48 * 48)).astype(np.float32)
    refs = rng.normal(0, 0.02, (7, 4 * 48 * 48)).astype(np.float32)
    for w in (np.full(4, 0.25, np.float32), np.array([0.4, 0.3, 0.2, 0.1], np.float32)):
        want = (qs * w[None, :, None]).reshape(25, -1) @ refs.T
        got = _weighted_ncc(qs, w, refs)
        assert got.dtype == np.float32 and got.shape == (25, 7) and np.array_equal(got, want)
