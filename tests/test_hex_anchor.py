"""The hex map's anchor when the Galactic Center is not read: guessed anchors checked against the sectors' rings,
the cell the rings point to when it is not found at all; uncertain ids unreadable; enrollment photos framed
tightly. Hand-worked maps (Eclipse numbering: 001 the Galactic Center, 1xx ring I, 2xx ring II, 3xx ring III)."""

from __future__ import annotations

import math

import numpy as np

from vision.deck import Identification
from vision.hexes import HexesConfig
from vision.hexes.enroll import seen_whole
from vision.hexes.geometry import SQRT3, hexagon
from vision.hexes.identify import HexScore, decide_hexes
from vision.hexes.layout import joined_to_read, place_hexes, ring_anchor, rings_agree, sector_ring

F = 100.0   # flat width, mm (no calibration: px = mm here)

# a map round the Galactic Center at (0, 0): ring I at (1, -1), (1, 0), (0, 1), (-1, 1); ring II at (2, -1),
# (0, 2), (-2, 1); ring III at (3, -2)
MAP = {(0, 0): "001", (1, -1): "101", (1, 0): "102", (0, 1): "103", (-1, 1): "104",
       (2, -1): "201", (0, 2): "202", (-2, 1): "203", (3, -2): "301"}


def centre(q: int, r: int) -> tuple[float, float]:
    """Flat-top axial (q, r) -> centre (x, y), y down: q steps 1.5 sides right and half a flat down."""
    return 1.5 * F / SQRT3 * q + 500.0, F * (r + q / 2.0) + 400.0


def corners_of(cells) -> list[np.ndarray]:
    return [hexagon(F, centre(*a)) for a in cells]


def test_sector_ring_is_the_hundreds_digit():
    assert [sector_ring(h) for h in ("001", "104", "221", "381")] == [0, 1, 2, 3]
    assert [sector_ring(h) for h in (None, "A1", "4011", "901")] == [None, None, None, None]


def test_rings_agree_with_the_right_anchor_only():
    cells = list(MAP)
    ids = [MAP[a] if a != (0, 0) else None for a in cells]
    assert rings_agree(cells, ids, 0.75)
    shifted = [(q - 1, r) for q, r in cells]            # counted from (1, 0): ring I hexes at distance 0-2
    assert not rings_agree(shifted, ids, 0.75)
    assert not rings_agree(cells[:3], ids[:3], 0.75)    # two sectors: too few to say


def test_a_guessed_center_is_refused_when_the_rings_disagree():
    # 101's best guess is the Galactic Center: counted from it, ring I hexes would lie at distance 0-2 -- refused,
    # and the rings point to the true centre instead
    cells = list(MAP)
    ids = [MAP[a] for a in cells]
    ids[0] = None                                       # the Galactic Center unread
    guesses = list(ids)
    guesses[1] = "001"                                  # and 101 at (1, -1) is the one whose guess it is
    ids[1] = None
    obs = place_hexes(corners_of(cells), ids, [0.9] * len(cells), [0] * len(cells), None, None, None, F, F,
                      HexesConfig(hex_mm=F), guesses)
    assert {o.id: o.axial for o in obs if o.id} == {h: a for a, h in MAP.items() if h not in ("001", "101")}


def test_the_rings_place_a_center_that_was_not_found():
    cells = [a for a in MAP if a != (0, 0)]             # the Galactic Center covered: not found at all
    ids = [MAP[a] for a in cells]
    obs = place_hexes(corners_of(cells), ids, [0.9] * len(cells), [0] * len(cells), None, None, None, F, F,
                      HexesConfig(hex_mm=F), list(ids))
    assert {o.id: o.axial for o in obs} == {h: a for a, h in MAP.items() if h != "001"}


def test_the_rings_place_no_center_when_two_cells_explain_them():
    cells = [(1, -1), (1, 0), (0, 1), (-1, 1)]          # too few sectors (below ring_anchor_least)
    ids = [MAP[a] for a in cells]
    c = HexesConfig(hex_mm=F)
    ups = np.array([[0.0, -F / 2]] * len(cells))
    got = ring_anchor(np.array([centre(*a) for a in cells]), ups, np.full(len(cells), F), ids, c)
    assert got == [None] * len(cells)


def test_an_uncertain_id_is_unreadable():
    class Deck:   # the frame decision of a deck: confidences as given
        def decide_frame(self, scores):
            confs = (0.95, 0.3)
            return [Identification(s[0], conf, s[1], s[2], 0, s[0]) for s, conf in zip(scores, confs, strict=True)]

    res = decide_hexes(Deck(), [HexScore("101", 0.1, 0.5, 2), HexScore("102", 0.4, 0.45, 1)], 0.5)
    assert res[0][:3] == ("101", 0.95, 2)
    assert res[1][0] is None and res[1][2] is None and res[1][3] == "102"


def test_a_hex_seen_whole_is_a_photo_however_tightly_framed():
    w, h = 425, 374
    tight = hexagon(335.0, (w / 2, h / 2))               # 61 % of the picture, table all round it
    assert cv2_area(tight) / (w * h) > 0.6 and seen_whole(tight, w, h)
    scan = np.array([[0.25 * (w - 1), 0], [0.75 * (w - 1), 0], [w - 1, (h - 1) / 2], [0.75 * (w - 1), h - 1],
                     [0.25 * (w - 1), h - 1], [0, (h - 1) / 2]])
    assert not seen_whole(scan, w, h)                    # a scan: the hexagon touches the picture's sides


def cv2_area(q: np.ndarray) -> float:
    x, y = q[:, 0], q[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def test_centre_helper_is_a_lattice():
    a, b = np.array(centre(0, 0)), np.array(centre(1, 0))
    assert math.isclose(float(np.linalg.norm(a - b)), F, rel_tol=1e-9)   # neighbours one flat apart


def test_hexes_joined_to_no_read_sector_are_not_the_map():
    # the map (two read sectors and an unreadable hex between them), and two hexes of a patterned cloth
    # touching each other two flats away from it
    cells = [(0, 0), (1, 0), (2, 0), (5, 0), (6, 0)]
    ids = ["101", None, "102", None, None]
    assert joined_to_read(corners_of(cells), ids) == [True, True, True, False, False]
    assert joined_to_read(corners_of(cells), [None] * 5) == [True] * 5   # nothing read: nothing to judge by
