"""The hex reader on tables it was not tuned on (issue 16): a tile's edge is one profile all along it, which a
checked cloth or noise is not (:func:`vision.hexes.outline.edge_coherence`); hexes grown by their outline alone
must have such edges, so a gingham cloth grows no hexes and a tile the table-colour model takes for table is still
found on the map's edge, while a gap between hexes is not; the calibration markers are no foreground, so their
square edges cannot turn the lattice (:func:`vision.hexes.reader.marker_polygons`); and straight table texture
joined to the map (wood grain) does not take the lattice's angle (:func:`vision.hexes.lattice.lattice_angles`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.hexes import HexesConfig
from vision.hexes.geometry import SQRT3, HexCandidate, hexagon
from vision.hexes.lattice import find_hexes, lattice_angles
from vision.hexes.outline import edge_coherence, grow_hexes, outline_maps
from vision.hexes.reader import marker_polygons
from vision.mat import render_marker
from vision.table import apply_homography, calibrate, corner_layout

FLAT = 56.0


def gingham(h: int, w: int, check: int = 9) -> np.ndarray:
    """uint8[h, w, 3]: a checked cloth, squares of ``check`` px: white, mid green and dark green where the bands
    cross, with a little noise."""
    yy, xx = np.mgrid[0:h, 0:w]
    a, b = (xx // check) % 2, (yy // check) % 2
    img = np.empty((h, w, 3), np.float32)
    img[...] = (225, 235, 230)
    img[(a + b) == 1] = (120, 160, 110)
    img[(a + b) == 2] = (40, 90, 40)
    img += np.random.default_rng(2).normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def lattice_centres(origin: tuple[float, float], cells: list[tuple[int, int]], flat: float = FLAT) -> list[np.ndarray]:
    """Centres px of axial ``cells`` (flat-top, y down) of a lattice of hexes ``flat`` px across round ``origin``."""
    R = flat / SQRT3
    return [np.array([origin[0] + 1.5 * R * q, origin[1] + flat * (r + q / 2.0)]) for q, r in cells]


def draw_tiles(img: np.ndarray, centres: list[np.ndarray], flat: float = FLAT) -> np.ndarray:
    """``img`` with a dark sector tile (dark ground, a few coloured planets, a 2 px black rim) at each centre."""
    out = img.astype(np.float32)
    rng = np.random.default_rng(4)
    for c in centres:
        poly = np.round(hexagon(flat - 1.0, c) * 16).astype(np.int32)
        cv2.fillPoly(out, [poly], tuple(float(v) for v in rng.uniform(30, 70, 3)), cv2.LINE_AA, shift=4)
        for _ in range(3):
            p = c + rng.uniform(-0.25, 0.25, 2) * flat
            cv2.circle(out, (int(p[0]), int(p[1])), int(rng.integers(3, 7)), tuple(float(v) for v in
                                                                               rng.uniform(80, 220, 3)), -1)
        cv2.polylines(out, [poly], True, (10, 10, 10), 2, cv2.LINE_AA, shift=4)
    return np.clip(out, 0, 255).astype(np.uint8)


def candidate(c: np.ndarray, flat: float = FLAT) -> HexCandidate:
    return HexCandidate(hexagon(flat, c), np.asarray(c, np.float64), 0.0, 1.0, 6, 4.0)


def blurred(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(img.astype(np.float32), (0, 0), 1.0)


def test_a_tiles_edges_are_coherent_and_a_checked_cloths_are_not():
    cloth = gingham(300, 400)
    [c] = lattice_centres((200.0, 150.0), [(0, 0)])
    img = draw_tiles(cloth, [c])
    tile = edge_coherence(blurred(img), [hexagon(FLAT, c)], HexesConfig())
    empty = edge_coherence(blurred(cloth), [hexagon(FLAT, c + [3.0, 2.0])], HexesConfig())
    assert tile.shape == empty.shape == (1, 6) and tile.dtype == np.float32
    # every edge of the tile: one profile (cloth outside, black rim, dark tile inside) along the whole edge
    assert tile.min() > 0.7
    # the cloth's squares cross a hexagon's sides bright-to-dark here, dark-to-bright there
    assert np.sort(empty[0])[3] < 0.4 and empty.mean() < tile.mean() - 0.4


def test_coherence_is_the_same_for_hexes_fitted_together_or_alone():
    img = draw_tiles(gingham(300, 400), lattice_centres((200.0, 150.0), [(0, 0), (1, 0)]))
    polys = [hexagon(FLAT, c) for c in lattice_centres((200.0, 150.0), [(0, 0), (1, 0), (0, 1)])]
    b = blurred(img)
    together = edge_coherence(b, polys, HexesConfig())
    for k, p in enumerate(polys):
        np.testing.assert_allclose(together[k], edge_coherence(b, [p], HexesConfig())[0], rtol=1e-5)
    assert edge_coherence(b, [], HexesConfig()).shape == (0, 6)


def test_grown_hexes_on_a_checked_cloth_are_the_tiles_only():
    """Four tiles of a map on a gingham cloth, the table-colour model taking two of them for table (no foreground):
    the two are grown from their neighbours by their coherent outline on the map's edge; no cell of the cloth is,
    nor the gap enclosed by tiles."""
    origin = (260.0, 220.0)
    ring = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]   # round an empty gap at (0, 0)
    tiles = lattice_centres(origin, ring)
    img = draw_tiles(gingham(440, 520), tiles)
    mask = np.zeros(img.shape[:2], np.uint8)
    for c in tiles[:4]:   # the last two tiles look like the table to the colour model
        cv2.fillPoly(mask, [np.round(hexagon(FLAT - 1.0, c)).astype(np.int32)], 255)
    seeds = [candidate(c) for c in tiles[:4]]
    got = grow_hexes(img, mask, seeds, FLAT, HexesConfig(), maps=outline_maps(img))
    centres = np.array([h.centre for h in got])
    assert len(got) == len(tiles)
    for c in tiles:
        assert np.linalg.norm(centres - c, axis=1).min() < 0.06 * FLAT
    # without the colour model's foreground a gap has none either: enclosed, it is never grown
    gap = lattice_centres(origin, [(0, 0)])[0]
    assert np.linalg.norm(centres - gap, axis=1).min() > 0.5 * FLAT


def test_no_bare_growth_when_it_is_off():
    origin = (260.0, 220.0)
    tiles = lattice_centres(origin, [(0, 0), (1, 0), (2, -1)])
    img = draw_tiles(gingham(440, 520), tiles)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(hexagon(FLAT - 1.0, tiles[0])).astype(np.int32)], 255)
    maps = outline_maps(img)
    on = grow_hexes(img, mask, [candidate(tiles[0])], FLAT, HexesConfig(), maps=maps)
    off = grow_hexes(img, mask, [candidate(tiles[0])], FLAT, HexesConfig(grow_bare=False), maps=maps)
    assert len(on) == 3 and len(off) == 1


def test_marker_polygons_cover_the_markers_in_the_work_image():
    layout = corner_layout(600.0, 400.0, 50.0)
    # a top-down view: 1 px per mm, the layout 40 px in from the frame's corner
    frame = np.full((480, 680, 3), 90, np.uint8)
    for mid, q in layout.corners_mm.items():
        side = int(round(float(np.linalg.norm(q[1] - q[0]))))
        x, y = np.round(q.min(axis=0)).astype(int) + 40
        frame[y - 12:y + side + 12, x - 12:x + side + 12] = 255   # the marker's white paper
        frame[y:y + side, x:x + side] = render_marker(mid, side)[..., None]
    cal = calibrate(frame, layout)
    M = np.diag([0.5, 0.5, 1.0]) @ np.array([[1.0, 0, 10.0], [0, 1.0, 5.0], [0, 0, 1.0]])   # any frame -> work map
    polys = marker_polygons(cal, M)
    assert len(polys) == len(layout.corners_mm)
    for poly, q in zip(polys, layout.corners_mm.values(), strict=True):
        seen = apply_homography(M, cal.to_px(np.asarray(q, np.float64)))
        inside = [cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), (float(x), float(y)), False)
                  for x, y in seen]
        assert min(inside) > 0   # every corner of the marker lies inside its polygon (its paper grown round it)
        side = float(np.linalg.norm(seen[1] - seen[0]))
        assert abs(float(np.linalg.norm(poly[1] - poly[0])) / side - 1.5) < 0.05


def test_what_lies_in_a_not_hex_polygon_is_no_hex():
    img = draw_tiles(np.full((300, 400, 3), (175, 185, 195), np.uint8),
                     lattice_centres((200.0, 150.0), [(0, 0), (1, 0)]))
    cfg = HexesConfig()
    both = find_hexes(img, FLAT, cfg, refine=False)
    c1 = lattice_centres((200.0, 150.0), [(1, 0)])[0]
    one = find_hexes(img, FLAT, cfg, refine=False, not_hexes=[hexagon(1.2 * FLAT, c1)])
    assert len(both) == 2 and len(one) == 1
    assert np.linalg.norm(one[0].centre - lattice_centres((200.0, 150.0), [(0, 0)])[0]) < 0.1 * FLAT


def test_a_cloth_cell_beside_the_map_is_not_grown_though_partly_foreground():
    """A cell of the cloth between three tiles shares three coherent sides with them; its other three cross the
    checks. With a third of it taken for foreground (the colour model's noise) it is still no hex: it needs every
    side but one coherent, which outline scores alone (contrast-free, and the checks are contrast) do not see."""
    origin = (260.0, 220.0)
    tiles = lattice_centres(origin, [(0, -1), (1, -1), (-1, 0)])
    img = draw_tiles(gingham(440, 520), tiles)
    mask = np.zeros(img.shape[:2], np.uint8)
    for c in tiles:
        cv2.fillPoly(mask, [np.round(hexagon(FLAT - 1.0, c)).astype(np.int32)], 255)
    cell = lattice_centres(origin, [(0, 0)])[0]
    cv2.circle(mask, (int(cell[0]), int(cell[1])), int(0.3 * FLAT), 255, -1)
    maps = outline_maps(img)
    seeds = [candidate(c) for c in tiles]
    got = grow_hexes(img, mask, seeds, FLAT, HexesConfig(), maps=maps)
    assert len(got) == len(tiles)
    loose = grow_hexes(img, mask, seeds, FLAT, HexesConfig(grow_min_coherence=0.0, grow_second_edge=0.0), maps=maps)
    assert np.linalg.norm(np.array([h.centre for h in loose]) - cell, axis=1).min() < 0.1 * FLAT


def striped_map(turn: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """(uint8[360, 480, 3], centres px): seven tiles of a lattice turned ``turn`` degrees on a table of strong
    vertical stripes (wood grain), the stripes covering more of the picture than the tiles."""
    img = np.full((360, 480, 3), (150, 160, 170), np.float32)
    img[:, (np.arange(480) // 5) % 2 == 1] = (126, 136, 146)
    R = FLAT / SQRT3
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    cells = [(0, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    centres = [np.array([240.0, 180.0]) + rot @ np.array([1.5 * R * q, FLAT * (r + q / 2.0)]) for q, r in cells]
    out = img.astype(np.uint8)
    for c in centres:
        poly = np.round(hexagon(FLAT - 1.0, c, turn) * 16).astype(np.int32)
        cv2.fillPoly(out, [poly], (90, 60, 40), cv2.LINE_AA, shift=4)
        cv2.polylines(out, [poly], True, (10, 10, 10), 2, cv2.LINE_AA, shift=4)
    return out, centres


def test_lattice_angles_give_the_tiles_angle_beside_the_grains():
    img, _ = striped_map(12.0)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    angles = lattice_angles(gray, np.full(gray.shape, 255, np.uint8), 2)
    assert len(angles) == 2 and angles[0][1] >= angles[1][1] > 0
    got = sorted(a for a, _ in angles)
    # the stripes' edges are vertical: normals at 0 degrees, a lattice angle of -30 (mod 60); the tiles' at 12
    assert abs(got[0] + 30.0) < 2.0 or abs(got[0] - 30.0) < 2.0
    assert abs(got[1] - 12.0) < 2.0


def test_a_map_joined_to_a_grained_table_is_read_at_its_own_angle(monkeypatch):
    """The table-colour model takes the striped table round the tiles for foreground too (one blob): the grain's
    angle is the likelier, the tiles' the next; the lattice whose cells show more outline is the tiles'."""
    img, centres = striped_map(12.0)
    blob = np.zeros(img.shape[:2], np.uint8)
    cv2.circle(blob, (240, 180), 170, 255, -1)
    monkeypatch.setattr("vision.hexes.lattice.foreground_mask", lambda im, cfg: blob.copy())
    found = find_hexes(img, FLAT, HexesConfig(), refine=False)
    got = np.array([h.centre for h in found])
    for c in centres:
        assert np.linalg.norm(got - c, axis=1).min() < 0.1 * FLAT
    # at the likeliest angle only (the grain's), the lattice misses most tiles
    one = np.array([h.centre for h in find_hexes(img, FLAT, HexesConfig(second_angle=1.0), refine=False)])
    assert sum(len(one) > 0 and np.linalg.norm(one - c, axis=1).min() < 0.1 * FLAT for c in centres) <= 3
