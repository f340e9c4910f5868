"""The Eclipse map model (rules/eclipse/galaxy.py): axial positions, rings, rotation, wormhole edges, portals.

Geometry from the issue's section 2.2 and hexes.json ``meta.edge_convention``: the neighbour across edge 12 is
(0, -1), 2 (+1, -1), 4 (+1, 0), 6 (0, +1), 8 (-1, +1), 10 (-1, 0); ring = (|q| + |r| + |q + r|) / 2; a
printed edge h turned k steps lies on ((h + 2k - 1) mod 12) + 1; neighbours touch on edges e and e + 6.
"""

from __future__ import annotations

import pytest

from rules.eclipse.data import BOARDS, SPECIES, catalogue
from rules.eclipse.galaxy import (
    EDGES,
    Galaxy,
    Link,
    PlacedHex,
    changes,
    edge_between,
    link,
    neighbour,
    opposite,
    ring,
    rotations_with_full_wormhole,
    table_edge,
)

CAT = catalogue()


def at(sector: str, q: int, r: int, k: int = 0, token: bool = False) -> PlacedHex:
    return PlacedHex(CAT.sector(sector), (q, r), k, token)


def test_the_data_is_the_71_tile_faces_with_their_rings():
    assert len(CAT.sectors) == 71  # hexes.json: 71 tile faces (base 50, Rise of the Ancients 21)
    assert CAT.sector("001").ring == 0 and CAT.sector("212").ring == 2 and CAT.sector("319").ring == 3
    assert all(s.ring == int(s.id[0]) for s in CAT.sectors.values() if s.id != "001")  # the hundreds digit is the ring
    assert [s.id for s in CAT.sectors.values() if s.warp_portal] == ["281", "381", "382"]
    assert CAT.homes("Magellan") == ("233", "235", "237") and CAT.homes("Exiles") == ("234",)
    assert len(BOARDS) == 9 and sorted({s for b in BOARDS for s in b}) == sorted(SPECIES)


@pytest.mark.parametrize(("cell", "expected"), [((0, 0), 0), ((1, -1), 1), ((0, -2), 2), ((2, -1), 2), ((-2, -1), 3),
                                                ((3, -3), 3), ((1, 2), 3)])
def test_ring_is_the_distance_from_the_centre(cell, expected):
    # (|q| + |r| + |q + r|) / 2: (-2, -1) -> (2 + 1 + 3) / 2 = 3; (1, 2) -> (1 + 2 + 3) / 2 = 3
    assert ring(*cell) == expected


def test_neighbours_and_touching_edges():
    assert [neighbour((0, 0), e) for e in EDGES] == [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    assert [opposite(e) for e in EDGES] == [6, 8, 10, 12, 2, 4]
    for e in EDGES:
        b = neighbour((2, -1), e)
        assert edge_between((2, -1), b) == e and edge_between(b, (2, -1)) == opposite(e)
    assert edge_between((0, 0), (2, 0)) is None
    with pytest.raises(ValueError, match="12, 2, 4, 6, 8, 10"):
        neighbour((0, 0), 3)


@pytest.mark.parametrize(("printed", "k", "table"), [(12, 0, 12), (12, 1, 2), (10, 1, 12), (2, 3, 8), (8, 5, 6), (6, 3, 12)])
def test_a_turned_edge_lies_on_h_plus_2k(printed, k, table):
    # ((h + 2k - 1) mod 12) + 1: (10 + 2 - 1) mod 12 + 1 = 12; (8 + 10 - 1) mod 12 + 1 = 6
    assert table_edge(printed, k) == table


def test_a_placed_hex_has_its_wormholes_turned():
    assert at("302", 3, -1, 5).wormholes == {10, 4, 6}  # printed 12, 6, 8 turned 5 steps
    assert at("222", 0, -2, 3).wormholes == {6, 8, 12, 2}  # printed 12, 2, 6, 8 turned 3 steps
    assert at("001", 0, 0).wormholes == set(EDGES)
    with pytest.raises(ValueError, match="0-5"):
        at("101", 0, -1, 6)


def test_full_half_and_no_wormholes_between_neighbours():
    home = at("231", 2, -2)  # printed 12, 2, 6, 8
    assert link(home, at("317", 2, -3, 0)) is Link.FULL  # home's 12 meets 317's printed 6
    assert link(home, at("317", 2, -3, 1)) is Link.HALF  # 317's wormholes on 8 and 10: none on 6
    assert link(at("317", 2, -3, 1), home) is Link.HALF  # the same edge, seen from the other side
    assert link(home, at("314", 3, -2)) is Link.NONE  # home's edge 4 and 314's edge 10: neither
    assert link(home, at("106", 0, -1)) is Link.NONE  # not neighbours
    assert rotations_with_full_wormhole(CAT.sector("317"), (2, -3), home) == [0, 5]  # printed 6 on 6; 8 + 10 -> 6


def test_portal_hexes_and_the_map():
    g = Galaxy.of([at("001", 0, 0), at("281", -2, 0), at("208", 1, 1, 0, token=True), at("106", 0, -1)])
    assert sorted(h.sector.id for h in g.portals()) == ["208", "281"]
    assert g.at((1, 1)).portal and not g.at((0, -1)).portal
    assert g.find("106").cell == (0, -1) and g.find("107") is None
    assert [(e, h.sector.id) for e, h in g.neighbours((0, 0))] == [(12, "106")]  # (1, 1) is two steps away
    assert [(e, h.sector.id) for e, h in g.neighbours((0, 1))] == [(12, "001"), (4, "208")]
    assert g.with_portal_token((0, -1)).at((0, -1)).portal
    with pytest.raises(ValueError, match="two hexes"):
        Galaxy.of([at("001", 0, 0), at("101", 0, 0)])
    with pytest.raises(ValueError, match="lies at both"):
        Galaxy.of([at("101", 0, -1), at("101", 1, -1)])
    assert g.to_json()[0] == {"sector": "001", "q": 0, "r": 0, "rotation": 0, "ring": 0, "wormholes": [2, 4, 6, 8, 10, 12],
                              "warp_portal_token": False}


def test_changes_between_two_reads_name_the_new_hexes():
    before = Galaxy.of([at("001", 0, 0), at("106", 0, -1)])
    after = Galaxy.of([at("001", 0, 0), at("106", 0, -1, 2), at("104", 1, -1)])
    diff = changes(before, after)
    assert [h.sector.id for h in diff.added] == ["104"] and diff.removed == ()
    assert [(a.rotation, b.rotation) for a, b in diff.changed] == [(0, 2)]
    assert not changes(after, after)
