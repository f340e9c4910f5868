"""Every placement rule kind of rules/eclipse/placement.py, each on a map worked by hand.

Edges and rings as in tests/test_eclipse_galaxy.py. Home tiles print wormholes on 12, 2, 6, 8 (hexes.json).
"""

from __future__ import annotations

from rules.core import Severity
from rules.eclipse.data import catalogue
from rules.eclipse.galaxy import Galaxy, PlacedHex
from rules.eclipse.placement import (
    EXPLORE_KINDS,
    check_explore,
    check_influence_target,
    check_link,
    check_shrines,
    check_start_sector,
    check_structure,
)
from rules.eclipse.verdict import legal

CAT = catalogue()


def at(sector: str, q: int, r: int, k: int = 0, token: bool = False) -> PlacedHex:
    return PlacedHex(CAT.sector(sector), (q, r), k, token)


HOME = Galaxy.of([at("001", 0, 0), at("231", 2, -2)])  # 231 as printed: wormholes on 12, 2, 6, 8


def kinds(verdicts) -> list[str]:
    return [v.rule_kind for v in verdicts]


def test_the_explore_kinds_keep_the_issue_order():
    issue_order = ["ring_mismatch", "full_wormhole", "half_wormhole_with_generator", "half_wormhole_without_generator",
                   "no_wormhole_connection"]
    assert [k for k in EXPLORE_KINDS if k in issue_order] == issue_order


def test_ring_mismatch_is_checked_first():
    # (3, -2): ring (3 + 2 + 1) / 2 = 3; 101 is an Inner tile; its wormholes do not matter
    verdicts = check_explore(HOME, at("101", 3, -2), (2, -2))
    assert kinds(verdicts) == ["ring_mismatch"] and not legal(verdicts)
    assert "a tile of the Inner (I) stack" in verdicts[0].message and "ring III" in verdicts[0].message
    assert verdicts[0].fix == "take it back and draw from the Outer (III) stack"
    assert verdicts[0].finding().rule == "Eclipse, Explore action (wormholes and hex stacks)"
    assert kinds(check_explore(HOME, at("001", 1, -1), (2, -2))) == ["ring_mismatch"]  # the Galactic Center is ring 0


def test_ring_0_holds_the_galactic_center_from_setup_and_no_stack():
    # Eclipse, Setup: the Galactic Center sector is laid at the middle of the table; no stack has ring-0 tiles
    into = check_explore(HOME, at("104", 0, 0), (0, -1))
    assert kinds(into) == ["ring_mismatch"] and not legal(into)
    assert into[0].message == "the space at (0, 0) holds the Galactic Center from setup; no tile is explored into it"
    assert into[0].fix == "explore an empty space next to your hex"
    center = check_explore(HOME, at("001", 1, -1), (2, -2))
    assert kinds(center) == ["ring_mismatch"] and "the the" not in center[0].message
    assert center[0].message.endswith("lies at (0, 0) from setup; it is never explored")
    assert center[0].fix == "take it back and draw from the Inner (I) stack"


def test_a_taken_space_a_tile_twice_and_a_starting_sector():
    assert kinds(check_explore(HOME, at("302", 1, -2), (2, -2))) == ["ring_mismatch"]  # ring 2 space, Outer tile
    # an Outer tile on a home (ring II): the space is taken, said before the stack (before, only the stack was said,
    # and the tile was laid over the home)
    assert kinds(check_explore(HOME, at("302", 2, -2), (2, -2))) == ["space_taken"]
    assert kinds(check_explore(HOME, at("201", 2, -2), (2, -2))) == ["space_taken"]
    assert kinds(check_explore(HOME, at("231", 1, -2), (2, -2))) == ["sector_on_map"]
    assert kinds(check_explore(HOME, at("222", 1, -2), (2, -2))) == ["not_in_stack"]


def test_an_ancient_homeworld_explored_asks_about_hidden_worlds():
    # (2, -3) is ring 3: a homeworld is a ring-II tile; (1, -2) is ring 2, across 231's edge 10 (none there)
    verdicts = check_explore(HOME, at("271", 1, -2, 2), (2, -2))
    # 271 turned 2: printed 12, 2, 6, 8 on 4, 6, 10, 12; it touches 231 with edge 4 (231's edge 10 has none): half
    assert kinds(verdicts) == ["half_wormhole_without_generator", "not_in_stack"]  # the deciding verdict first
    assert verdicts[1].severity is Severity.WARNING
    hidden = check_explore(HOME, at("271", 1, -2, 2), (2, -2), hidden_worlds=True)
    assert kinds(hidden) == ["half_wormhole_without_generator"]


def test_the_explorer_must_be_next_to_the_new_space():
    verdicts = check_explore(HOME, at("106", 0, -1), (2, -2))
    assert kinds(verdicts) == ["not_adjacent"] and not legal(verdicts)
    assert kinds(check_explore(HOME, at("301", -3, 0))) == ["not_adjacent"]  # next to no explored hex at all


def test_wormholes_full_half_and_none_with_their_fixes():
    assert kinds(check_explore(HOME, at("317", 2, -3, 0), (2, -2))) == ["full_wormhole"]
    half = check_explore(HOME, at("317", 2, -3, 1), (2, -2))
    assert kinds(half) == ["half_wormhole_without_generator"]
    assert half[0].fix == "rotate it 4 steps clockwise so its wormhole faces yours"  # rotation 5 from 1
    assert kinds(check_explore(HOME, at("317", 2, -3, 1), (2, -2),
                               wormhole_generator=True)) == ["half_wormhole_with_generator"]
    one_step = check_explore(HOME, at("317", 2, -3, 4), (2, -2))  # wormholes on 2 and 4; rotation 5 is 1 step on
    assert one_step[0].fix == "rotate it 1 step clockwise so its wormhole faces yours"
    none = check_explore(HOME, at("314", 3, -2), (2, -2))  # 231's edge 4, 314's edge 10: neither
    assert kinds(none) == ["no_wormhole_connection"] and none[0].fix.startswith("no rotation connects it")
    assert none[0].finding(cell=(3, -2)).to_json()["cell"] == [3, -2]


def test_without_a_known_source_any_explored_neighbour_may_connect():
    g = HOME.with_hex(at("206", 3, -3))  # 206 prints 2, 4, 6, 10
    # (3, -2) touches 231 (its edge 10 / 231's 4: none) and 206 above it (its edge 12 / 206's 6): 314 has no 12
    assert kinds(check_explore(g, at("314", 3, -2))) == ["half_wormhole_without_generator"]
    assert kinds(check_explore(g, at("314", 3, -2, 3))) == ["full_wormhole"]  # turned 3: 4, 6, 8 on 10, 12, 2


def test_move_and_influence_through_wormholes_and_portals():
    g = Galaxy.of([at("001", 0, 0), at("106", 0, -1), at("201", 1, -2), at("281", -2, 0),
                   at("303", 3, -3, 0, token=True),
                   at("107", -1, 0)])
    assert kinds(check_link(g, (-2, 0), (3, -3))) == ["warp_portal_adjacency"]  # a printed portal and a token
    assert kinds(check_link(g, (0, -1), (0, 0))) == ["full_wormhole"]  # 106's 6 and the centre's 12
    assert kinds(check_link(g, (0, -1), (1, -2))) == ["not_adjacent"]  # 106's 2 and 201's 8: half
    assert kinds(check_link(g, (0, -1), (1, -2), wormhole_generator=True)) == ["half_wormhole_with_generator"]
    far = check_link(g, (0, -1), (3, -3), action="influence")
    assert kinds(far) == ["not_adjacent"] and "only one of them is a portal hex" in far[0].message
    assert far[0].message.startswith("an influence disc cannot go")


def test_a_species_starting_sector_taken_by_another_species_names_both_species_in_every_language():
    # Eclipse, Setup: each player lays their species' own starting sector. {other} is the species of the player who
    # laid it, never a player: a Greek table read "όχι του παίκτη Hydran Progress" ("not the player Hydran Progress's").
    from companion.i18n import say

    (verdict,) = check_start_sector(at("227", -2, 2), 5, "Hydran Progress")
    assert verdict.message == "227 Sirius is the Terran Republic starting sector, not Hydran Progress's"
    assert say(verdict.message, "el") == ("ο τομέας 227 Sirius είναι ο αρχικός τομέας της φυλής Terran Republic, όχι "
                                          "της φυλής Hydran Progress")
    assert say(verdict.message, "pl") == "227 Sirius to sektor startowy rasy Terran Republic, nie rasy Hydran Progress"
    assert say(verdict.message, "hu") == "227 Sirius a Terran Republic faj kezdőszektora, nem a Hydran Progress fajé"


def test_start_sectors_for_the_player_count():
    assert check_start_sector(at("221", 0, -2, 3), 4, "Terran Directorate") == []
    assert kinds(check_start_sector(at("221", 0, -3), 4)) == ["starting_sector"]  # ring III with 4 players
    assert kinds(check_start_sector(at("221", 0, -2, 3), 4, "Planta")) == ["starting_sector"]  # Planta's is 226
    # 7-9 players: ring III, and a wormhole must face a Middle (II) space. (0, -3): printed 12, 2, 6, 8 as printed face
    # (0, -4) ring 4, (1, -4) ring 4, (0, -2) ring 2, (-1, -2) ring 3: the 6 faces the Middle ring
    assert check_start_sector(at("221", 0, -3), 8) == []
    turned = check_start_sector(at("221", 0, -3, 3), 8)  # turned 3: 6, 8, 12, 2, the same edges
    assert turned == []
    away = check_start_sector(at("221", 0, -3, 1),
                              8)  # 2, 4, 8, 10: (1, -4), (1, -3), (-1, -2), (-1, -3): rings 4, 3, 3, 4
    assert kinds(away) == ["starting_sector"] and "Middle (II)" in away[0].message
    assert kinds(check_start_sector(at("271", 0, -2), 6)) == ["starting_sector"]  # no empty start position with 6
    assert check_start_sector(at("271", 0, -2), 5) == []
    assert check_start_sector(at("106", 0, -1), 4) == []  # not a start tile


def test_a_starting_sector_with_no_wormhole_towards_the_centre_is_warned_about():
    """Setup: with 2-6 players the rulebook shows only the start positions (Rise of the Ancients p.12 sets the
    orientation rule for 7-9 players: a wormhole connects towards the centre). A home facing away gets a warning at
    placement, with the turn that mends it. Hand-worked, 221 prints wormholes on 12, 2, 6, 8:
    - at (2, 0) as printed: its Inner (I) neighbour (1, 0) lies across edge 10, which has none: warned; turned 1
      step the wormholes are on 2, 4, 8, 10: mended by 1 step;
    - at (2, 0) turned 3 (6, 8, 12, 2): edge 10 again bare, and turning 1 more step (8, 10, 2, 4) mends it;
    - at (0, -2) as printed: (0, -1) lies across edge 6, which has one: no warning;
    - at (-2, 2) its one Inner neighbour (-1, 1) lies across edge 2: turned 1 (2, 4, 8, 10) it has one, no warning;
      turned 2 (4, 6, 10, 12) none: warned."""
    out = check_start_sector(at("221", 2, 0), 3, "Terran Directorate")
    assert kinds(out) == ["home_facing_out"] and out[0].legal and out[0].severity is Severity.WARNING
    assert out[0].message == ("221 Procyon has no wormhole facing Inner (I), towards the centre: no Explore, Move or "
                              "Influence can go that way from it. The rulebook's set-up (Rise of the Ancients p.12) "
                              "asks, with 7-9 players, that at least one wormhole of a starting sector connect "
                              "towards the centre; for 3 players it shows only the start positions")
    assert out[0].fix == "rotate it 1 step clockwise so a wormhole faces the centre"
    assert "Setup (starting sectors)" in out[0].section
    assert check_start_sector(at("221", 2, 0, 1), 3, "Terran Directorate") == []
    assert kinds(check_start_sector(at("221", 2, 0, 3), 4)) == ["home_facing_out"]
    assert check_start_sector(at("221", 0, -2), 4) == []
    assert check_start_sector(at("221", -2, 2, 1), 6) == []
    assert kinds(check_start_sector(at("221", -2, 2, 2), 6)) == ["home_facing_out"]
    assert check_start_sector(at("271", 2, 0), 4) == []  # an Ancient Homeworld is no player's home


def test_an_influence_disc_beside_ancients_or_another_disc():
    g = Galaxy.of([at("001", 0, 0), at("104", 1, -1), at("271", 2, -2)])
    owners = {(1, -1): "Bob"}
    ancients = {(1, -1): 2}
    guardians = {(0, 0): "GCDS", (2, -2): "Ancient Cruiser"}
    assert kinds(check_influence_target(g, (1, -1), "Ann", owners=owners, ancients=ancients, guardians=guardians)) == [
        "hex_controlled", "ancients_present"]
    assert kinds(check_influence_target(g, (0, 0), "Ann", owners={}, ancients={},
                                        guardians=guardians)) == ["ancients_present"]
    assert kinds(check_influence_target(g, (1, -1), "Ann", owners={}, ancients=ancients,
                                        guardians={}, draco=True)) == []
    drac = check_influence_target(g, (2, -2), "Ann", owners={}, ancients={}, guardians=guardians, draco=True)
    assert kinds(drac) == ["ancients_present"] and "Ancient Cruiser" in drac[0].message  # Draco fight it (p.6)
    assert kinds(check_influence_target(g, (5, 0), "Ann", owners={}, ancients={}, guardians={})) == ["unexplored"]


def test_shrines_match_planets_of_their_colour_or_grey_one_each():
    vega = at("204", 0, -2)  # planets: money (advanced), materials (advanced), grey
    assert check_shrines(vega, ["science"]) == []  # the grey planet hosts any colour
    assert check_shrines(vega, ["money", "materials", "science"]) == []
    assert kinds(check_shrines(vega, ["science", "science"])) == ["shrine_per_planet"]  # one grey for two
    assert kinds(check_shrines(at("207", 0, -2), ["money"])) == ["shrine_colour"]  # no planets at all
    assert kinds(check_shrines(at("234", 2, 0), ["science"])) == ["shrine_colour"]  # the printed Orbital is no planet


def test_one_orbital_per_hex_one_token_in_the_game_and_control():
    g = Galaxy.of([at("001", 0, 0), at("234", 2, 0), at("106", 0, -1)])
    assert kinds(check_structure(g, (2, 0), "orbital", here=[], on_map=[], controlled=True)) == ["one_orbital_per_hex"]
    assert kinds(check_structure(g, (0, -1), "ancient_orbital", here=["orbital"], on_map=[], controlled=False)) == [
        "one_orbital_per_hex"]
    assert check_structure(g, (0, -1), "monolith", here=["orbital"], on_map=[], controlled=True) == []  # they share
    assert kinds(check_structure(g, (0, -1), "warp_portal", here=[], on_map=["warp_portal"], controlled=True)) == [
        "one_in_the_game"]
    assert kinds(check_structure(g, (0, -1), "shellworld", here=[], on_map=[], controlled=False)) == ["not_controlled"]
    assert check_structure(g, (0, -1), "ancient_warp_portal", here=[], on_map=[], controlled=False) == []
    assert kinds(check_structure(g, (4, 4), "orbital", here=[], on_map=[], controlled=True)) == ["unexplored"]


def test_an_influence_disc_on_the_galactic_center_names_its_guardian_as_the_greek_rulebook_prints_it():
    # Rise of the Ancients p.6 ΚΑΤΑΚΤΗΣΗ ΤΟΥ ΓΑΛΑΞΙΑΚΟΥ ΚΕΝΤΡΟΥ: "…του Γαλαξιακού Κέντρου, αντί για το ΓΚΑΣ";
    # the Greek refusal read "βρίσκεται ακόμη GCDS". Polish and Hungarian have no rulebook here: the English letters.
    from companion.i18n import say

    g = Galaxy.of([at("001", 0, 0)])
    (verdict,) = check_influence_target(g, (0, 0), "Ann", owners={}, ancients={}, guardians={(0, 0): "GCDS"})
    assert verdict.message == "001 Galactic Center still holds the GCDS: no influence disc until it is destroyed"
    assert say(verdict.message, "el") == ("στον τομέα 001 Galactic Center βρίσκεται ακόμη ΓΚΑΣ: κανένας Δίσκος "
                                          "Επιρροής μέχρι να καταστραφεί")
    assert say(verdict.fix, "el") == "ΓΚΑΣ: πρέπει πρώτα να καταστραφεί"
    assert "GCDS" in say(verdict.message, "pl") and "GCDS" in say(verdict.message, "hu")
