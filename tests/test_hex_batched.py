"""The hex reader's work done for many poses or cells at once (:func:`vision.hexes.outline.edge_scores`, the
lattice's cells) gives each the numbers, to the last bit, that reading it alone gives: batching changes what a read
costs, never what it says."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.hexes import HexesConfig
from vision.hexes.geometry import hexagon
from vision.hexes.lattice import _lattice_cells
from vision.hexes.outline import edge_scores, outline_maps

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
