"""vision.card_split and the places beside the cards found: the masked gradient histogram, the lattice scores read
from per-pixel canvases and the places of a ring boxed in one pass give the same numbers as working every pixel,
lattice cell or place out on its own; a station of touching cards is split into its cards."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.card_detect import CardsConfig, blobs_of, edge_map, fill_holes, neighbour_quads, outline_strengths
from vision.card_split import cell_sums, dominant_angle, lattice_scores, nudged_cells, split_blob
from vision.quads import order_quad
from vision.raster import rotation_canvas


def _angle_every_pixel(gray: np.ndarray, mask: np.ndarray) -> float:
    """The histogram of every pixel's angle, those outside the mask weighted 0 (the per-pixel routine)."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy) * (mask > 0)
    ang = np.remainder(np.degrees(np.arctan2(gy, gx)), 90.0)
    hist, _ = np.histogram(ang, bins=90, range=(0, 90), weights=mag)
    hist = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), np.ones(5) / 5, mode="same")[2:-2]
    return float(np.argmax(hist)) + 0.5


def _turned_cards(size: tuple[int, int], angle: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(grey uint8 image, uint8 mask): a block of noisy card-like rectangles turned by ``angle`` degrees."""
    rng = np.random.default_rng(seed)
    h, w = size
    img = np.full((h, w), 60, np.uint8)
    for r in range(3):
        for c in range(4):
            x0, y0 = w // 2 - 90 + c * 46, h // 2 - 95 + r * 64
            cv2.rectangle(img, (x0, y0), (x0 + 42, y0 + 60), int(rng.integers(150, 240)), -1)
    M = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    img = cv2.warpAffine(img, M, (w, h), borderValue=60)
    img = np.clip(img.astype(np.int16) + rng.integers(-6, 7, img.shape), 0, 255).astype(np.uint8)
    return img, ((img > 100).astype(np.uint8) * 255)


@pytest.mark.parametrize("size", [(200, 240), (320, 300)])   # one of np.histogram's runs, and several
@pytest.mark.parametrize("angle", [0.0, 7.0, 23.0, 61.0])
def test_dominant_angle_masked_equals_every_pixel(size, angle):
    gray, mask = _turned_cards(size, angle, seed=int(angle) + size[0])
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    assert dominant_angle(gray, mask) == _angle_every_pixel(gray, mask)


@pytest.mark.parametrize("angle", [3.0, 38.0])
def test_dominant_angle_of_faint_and_of_float_images_equals_every_pixel(angle):
    # low contrast: every gradient within the table of bins; a float image: every bin worked out
    gray, mask = _turned_cards((200, 240), angle, seed=int(angle))
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    faint = (gray // 5 + 90).astype(np.uint8)
    assert dominant_angle(faint, mask) == _angle_every_pixel(faint, mask)
    soft = gray.astype(np.float32) * 0.37
    assert dominant_angle(soft, mask) == _angle_every_pixel(soft, mask)


def test_dominant_angle_empty_mask_is_the_first_bin():
    gray, _ = _turned_cards((200, 240), 10.0, seed=3)
    assert dominant_angle(gray, np.zeros_like(gray)) == _angle_every_pixel(gray, np.zeros_like(gray)) == 0.5


def _scores_per_cell(occ, resp, rmax, at, thr, cw, ch, blob_area) -> np.ndarray:
    """split_blob's per-cell routine: the canvases read at the cells, each term worked out there."""
    o = occ.take(at)
    on = o >= thr
    inter = (o * on).sum(axis=(-2, -1)) * cw * ch
    union = blob_area + ((1 - o) * on).sum(axis=(-2, -1)) * cw * ch
    e = (resp.take(at) / rmax * on).sum(axis=(-2, -1)) / np.maximum(on.sum(axis=(-2, -1)), 1)
    return inter / union + 0.1 * e


@pytest.mark.parametrize("count", [1, 2, 7, 8, 9, 15, 16, 17, 31, 128, 129, 300])
def test_cell_sums_add_up_as_np_sum_does(count):
    # values of very different sizes, so that another order of adding them up gives other float32 numbers
    rng = np.random.default_rng(count)
    cells = (rng.random((count, 6, 5)) * 10.0 ** rng.integers(-3, 4, (count, 6, 5))).astype(np.float32)
    last = np.ascontiguousarray(np.moveaxis(cells, 0, -1))   # each sum's values side by side in memory
    want = last.sum(axis=-1)
    got = cell_sums(cells)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    # ... and the sums of a lattice's cells as rows and columns: np.sum over its two last axes
    rows = count // 3 if count % 3 == 0 else 1
    grid = last.reshape(6, 5, rows, count // rows)
    np.testing.assert_array_equal(cell_sums(cells), grid.sum(axis=(-2, -1)))


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_lattice_scores_equal_the_per_cell_routine(seed):
    rng = np.random.default_rng(seed)
    nh, nw = 150, 170
    mm = np.zeros((nh, nw), np.float32)
    mm[30:120, 25:150] = 1.0
    occ = cv2.boxFilter(mm, -1, (34, 48), normalize=True, borderType=cv2.BORDER_CONSTANT)
    resp = np.where(occ >= 0.6, rng.random((nh, nw), np.float32) * 40, 0.0)
    rmax = max(float(resp.max()), 1e-6)
    ny, nx = int(rng.integers(1, 6)), int(rng.integers(1, 7))   # 1 to 30 cells
    Y = rng.integers(0, nh, (3, 2, 5, ny))
    X = rng.integers(0, nw, (3, 2, 7, nx))
    at = Y[:, None, :, :, None, :, None] * nw + X[:, :, None, None, :, None, :]
    cells_first = np.moveaxis(at.reshape(3, 2, 2, 5, 7, ny * nx), -1, 0)
    got = lattice_scores(occ, resp, rmax, cells_first, 0.6, (34.2, 48.7), 9000.0)
    want = _scores_per_cell(occ, resp, rmax, at, 0.6, 34.2, 48.7, 9000.0)
    assert got.shape == want.shape == (3, 2, 2, 5, 7)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def _nudged_cell_by_cell(best, config, R, origin) -> list[np.ndarray]:
    """nudged_cells' per-cell routine: each cell's window clipped to the canvas and searched on its own."""
    _, cw, ch, resp, Xs, Ys, _, _ = best
    nh, nw = resp.shape
    Rinv = cv2.invertAffineTransform(R)
    quads = []
    wx, wy = max(1, int(config.split_refine * cw)), max(1, int(config.split_refine * ch))
    for cy in Ys:
        for cx in Xs:
            a0, a1, b0, b1 = max(0, cx - wx), min(nw, cx + wx + 1), max(0, cy - wy), min(nh, cy + wy + 1)
            win = resp[b0:b1, a0:a1]
            if win.size == 0 or float(win.max()) <= 0.0:
                continue
            dy, dx = np.unravel_index(int(np.argmax(win)), win.shape)
            ccx, ccy = a0 + dx, b0 + dy
            pts = np.array([[ccx - cw / 2, ccy - ch / 2], [ccx + cw / 2, ccy - ch / 2], [ccx + cw / 2, ccy + ch / 2],
                            [ccx - cw / 2, ccy + ch / 2]], np.float64)
            quads.append(order_quad((Rinv[:, :2] @ pts.T).T + Rinv[:, 2] + np.array(origin)))
    return quads


@pytest.mark.parametrize("seed", range(6))
def test_nudged_cells_equal_the_cell_by_cell_routine(seed):
    # a canvas of outline response with flat (tied) patches and zero stretches, cells near and on its edges
    rng = np.random.default_rng(seed)
    nh, nw = int(rng.integers(80, 200)), int(rng.integers(80, 200))
    resp = (rng.random((nh, nw)) * 30).astype(np.float32)
    resp[rng.random((nh, nw)) < 0.3] = 0.0
    resp[: nh // 3, : nw // 4] = 0.0                       # a cell there has no outline: left out
    resp[nh // 2 : nh // 2 + 6, nw // 2 : nw // 2 + 6] = 29.5   # ties: the first, row by row, is taken
    cw, ch = 30.0 + 20 * rng.random(), 40.0 + 20 * rng.random()
    Xs = np.clip(rng.integers(-3, nw + 3, int(rng.integers(1, 6))), 0, nw - 1)
    Ys = np.clip(rng.integers(-3, nh + 3, int(rng.integers(1, 6))), 0, nh - 1)
    R, _, _ = rotation_canvas(nw - 20, nh - 20, float(rng.uniform(-45, 45)))
    best = (1.0, cw, ch, resp, Xs, Ys, cw + 1, ch + 1)
    config = CardsConfig(split_refine=float(rng.choice([0.025, 0.1])))
    got = nudged_cells(best, config, R, (17, 5))
    want = _nudged_cell_by_cell(best, config, R, (17, 5))
    assert len(got) == len(want) > 0
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


def _outline_strength_quad_by_quad(gmag, quad, per_side=24) -> float:
    """outline_strengths' per-quad routine."""
    h, w = gmag.shape
    t = (np.arange(per_side) + 0.5) / per_side
    q = np.asarray(quad, np.float64).reshape(4, 2)
    pts = q[:, None, :] + (np.roll(q, -1, axis=0) - q)[:, None, :] * t[None, :, None]
    xs = np.clip(pts[..., 0].round().astype(int), 0, w - 1)
    ys = np.clip(pts[..., 1].round().astype(int), 0, h - 1)
    return float(np.sort(np.median(gmag[ys, xs], axis=1))[-2])


def test_outline_strengths_equal_the_quad_by_quad_routine():
    rng = np.random.default_rng(5)
    img = (rng.random((160, 220, 3)) * 60).astype(np.uint8)
    cv2.rectangle(img, (40, 30), (100, 120), (230, 230, 230), -1)
    gmag = edge_map(img)
    quads = [np.array([[40, 30], [100, 30], [100, 120], [40, 120]], np.float64)]
    for _ in range(12):   # turned, some over the image's edge
        c, a = rng.uniform(-20, 240, 2), rng.uniform(0, np.pi)
        e1, e2 = np.array([np.cos(a), np.sin(a)]) * 25, np.array([-np.sin(a), np.cos(a)]) * 35
        quads.append(np.array([c - e1 - e2, c + e1 - e2, c + e1 + e2, c - e1 + e2]))
    got = outline_strengths(gmag, quads)
    assert got.shape == (len(quads),)
    assert got[0] > 25.0   # the rectangle's crisp outline
    assert got.tolist() == [_outline_strength_quad_by_quad(gmag, q) for q in quads]
    assert outline_strengths(gmag, []).shape == (0,)


def test_split_blob_finds_each_card_of_a_turned_station():
    # 3 rows x 4 columns of 42 x 60 px cards 2 px apart on a mid-grey station board (one blob), turned 12 degrees
    h, w = 360, 420
    img = np.full((h, w, 3), 50, np.uint8)
    cv2.rectangle(img, (118, 83), (118 + 4 * 44 + 1, 83 + 3 * 62 + 1), (120, 120, 120), -1)
    centres = []
    M = cv2.getRotationMatrix2D((w / 2, h / 2), 12.0, 1.0)
    rng = np.random.default_rng(4)
    for r in range(3):
        for c in range(4):
            x0, y0 = 120 + c * 44, 85 + r * 62
            cv2.rectangle(img, (x0, y0), (x0 + 41, y0 + 59), tuple(int(v) for v in rng.integers(190, 250, 3)), -1)
            centres.append(M @ np.array([x0 + 20.5, y0 + 29.5, 1.0]))
    img = cv2.warpAffine(img, M, (w, h), borderValue=(50, 50, 50))
    mask = fill_holes((img.max(axis=2) > 100).astype(np.uint8) * 255)
    blobs = blobs_of(mask, CardsConfig())
    assert len(blobs) == 1
    quads = split_blob(img, blobs[0], (42.0, 60.0), CardsConfig())
    assert len(quads) == 12
    found = np.array([q.mean(axis=0) for q in quads])
    for c in centres:
        assert float(np.linalg.norm(found - c, axis=1).min()) < 4.0


def _neighbours_place_by_place(quads, mask, card_px, config) -> list[np.ndarray]:
    """neighbour_quads' per-place routine: each place moved, centred, boxed and tested on its own."""
    h, w = mask.shape
    short = float(min(card_px))
    centres = np.array([np.asarray(q, np.float64).mean(axis=0) for q in quads]).reshape(-1, 2)
    frontier = [np.asarray(q, np.float64) for q in quads]
    integral = cv2.integral((mask > 0).astype(np.uint8))
    out: list[np.ndarray] = []
    for _ in range(max(0, int(config.neighbour_rings))):
        new = []
        for q in frontier:
            for side in (q[1] - q[0], q[3] - q[0]):
                step = side * (1.0 + config.neighbour_gap * short / max(float(np.linalg.norm(side)), 1e-6))
                for p in (q + step, q - step):
                    c = p.mean(axis=0)
                    if not (0 <= c[0] < w and 0 <= c[1] < h):
                        continue
                    x0, y0 = np.maximum(np.floor(p.min(axis=0)).astype(int), 0)
                    x1, y1 = np.minimum(np.ceil(p.max(axis=0)).astype(int) + 1, (w, h))
                    need = config.neighbour_occupancy * max(float(cv2.contourArea(p.astype(np.float32))), 1.0)
                    box = int(integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0])
                    if box < need or bool((np.hypot(*(centres - c).T) < 0.5 * short).any()):
                        continue
                    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
                    cv2.fillPoly(inside, [np.round(p - (x0, y0)).astype(np.int32)], 1)
                    if float(np.count_nonzero(mask[y0:y1, x0:x1][inside > 0])) < need:
                        continue
                    centres = np.vstack([centres, c[None, :]])
                    new.append(p)
        out += new
        frontier = new
    return out


def _random_scene(seed: int) -> tuple[list[np.ndarray], np.ndarray, tuple[float, float]]:
    """(cards found: float[4, 2] quads turned up to 23 degrees, some near or over the edge; a mask of random
    card-sized patches, some cut by the edge; the card's (short, long) px)."""
    rng = np.random.default_rng(seed)
    h, w = 300, 420
    mask = np.zeros((h, w), np.uint8)
    for _ in range(14):
        x, y = int(rng.integers(-20, w - 20)), int(rng.integers(-30, h - 40))
        mask[max(y, 0):y + int(rng.integers(30, 90)), max(x, 0):x + int(rng.integers(20, 70))] = 255
    card = (40.0 + rng.random() * 5, 56.0 + rng.random() * 5)
    quads = []
    for _ in range(int(rng.integers(1, 6))):
        c = rng.random(2) * (w, h)
        a = rng.random() * 0.4
        e1, e2 = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        hx, hy = 0.5 * card[0] * e1, 0.5 * card[1] * e2
        quads.append(np.array([c - hx - hy, c + hx - hy, c + hx + hy, c - hx + hy]))
    return quads, mask, card


@pytest.mark.parametrize("seed", range(6))
def test_neighbour_places_equal_the_place_by_place_routine(seed):
    quads, mask, card = _random_scene(seed)
    config = CardsConfig(neighbour_occupancy=0.2)
    got = neighbour_quads(quads, mask, card, config)
    want = _neighbours_place_by_place(quads, mask, card, config)
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)


def test_neighbour_places_are_found_on_some_random_scene():
    # the equality above compares places, not only empty lists: its scenes hold places
    config = CardsConfig(neighbour_occupancy=0.2)
    assert sum(len(_neighbours_place_by_place(*_random_scene(seed), config)) for seed in range(6)) >= 3
