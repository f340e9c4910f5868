"""Among the Stars: station grid, edge adjacency, BFS path distance, and the data file.

Known values cite the Hungarian rulebook (section names as printed: 4 'Kör Áttekintése'
= Round overview, GY.I.K. = FAQ) or are hand-worked with the arithmetic in a comment.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from rules.among_the_stars.abilities import end_game_vp, immediate
from rules.among_the_stars.data import catalogue
from rules.among_the_stars.endgame import parse_station
from rules.among_the_stars.station import Station, neighbour_cells


def st(*cards) -> Station:
    """A station from (card, (i, j), year[, cubes]) tuples; the Main Reactor is added at [0, 0] with 2 cubes."""
    rows = [{"card": "Main Reactor", "cell": [0, 0], "cubes": 2}]
    for c in cards:
        row = {"card": c[0], "cell": list(c[1]), "year": c[2]}
        if len(c) > 3:
            row["cubes"] = c[3]
        rows.append(row)
    return parse_station(rows, "station")


def test_adjacency_is_by_edge_only():
    # Rulebook 4, 'Build a location' picture: 'Szomszédos' along an edge, 'NEM Szomszédos' diagonally.
    assert set(neighbour_cells((0, 0))) == {(1, 0), (-1, 0), (0, 1), (0, -1)}
    s = st(("Turret", (1, 0), 1), ("Crew Quarters", (1, 1), 1))
    assert [p.card.name for p in s.neighbours((0, 0))] == ["Turret"]  # (1, 1) is diagonal to the reactor
    assert {p.card.name for p in s.neighbours((1, 1))} == {"Turret"}


def test_faq_distance_goes_around_the_gap_not_across_it():
    # Rulebook FAQ: A and B look 2 apart but have no direct link, so their distance is 4.
    # A (0, 1) -> MR (0, 0) -> (1, 0) -> (2, 0) -> B (2, 1): 4 steps; (1, 1) is empty.
    s = st(("Crew Quarters", (0, 1), 1), ("Turret", (1, 0), 1), ("Turret", (2, 0), 1), ("Docking Bay", (2, 1), 1))
    assert s.distance((0, 1), (2, 1)) == 4
    assert abs(0 - 2) + abs(1 - 1) == 2  # straight-line/Manhattan would say 2
    assert s.distance((0, 0), (2, 1)) == 3
    assert [p.card.name for p in s.within((0, 1), 2)] == ["Main Reactor", "Turret"]


def test_a_card_on_no_path_has_no_distance():
    s = st(("Turret", (1, 0), 1), ("Turret", (5, 5), 1))
    assert s.distance((0, 0), (5, 5)) is None
    assert (5, 5) not in s.connected_to_main()


def test_within_two_bonus_fails_at_path_distance_four():
    # Alien Bazaar: +2 if at least 3 green locations lie within distance 2 (card data).
    # Bazaar at (0, 1); greens at (2, 1), (2, 2), (2, 0) are 2-4 cells away straight, but the path runs
    # (0,1)->(0,0)->(1,0)->(2,0): (2,0) is at 3, (2,1) at 4, (2,2) at 5, so no green within 2: +0.
    s = st(("Alien Bazaar", (0, 1), 1), ("Turret", (1, 0), 1), ("Embassy Offices", (2, 0), 1),
           ("Embassy Offices", (2, 1), 1), ("Embassy Offices", (2, 2), 1))
    assert end_game_vp(s, s.at((0, 1))) == 0
    # Filling the gap at (1, 1) puts (2, 1) at distance 2 via (1, 1), (2, 0) at 3 still, (2, 2) at 3: still < 3 greens.
    s2 = st(("Alien Bazaar", (0, 1), 1), ("Turret", (1, 0), 1), ("Ambassador Quarters", (1, 1), 1),
            ("Embassy Offices", (2, 0), 1), ("Embassy Offices", (2, 1), 1), ("Embassy Offices", (2, 2), 1))
    # greens within 2 of (0, 1): Ambassador Quarters (1, 1) at 1, Embassy (2, 1) at 2 -> 2 greens, +0
    assert end_game_vp(s2, s2.at((0, 1))) == 0
    s3 = st(("Alien Bazaar", (0, 1), 1), ("Ambassador Quarters", (1, 1), 1), ("Embassy Offices", (2, 1), 1),
            ("Council Room", (0, 2), 1), ("Turret", (1, 0), 1))
    # greens within 2 of (0, 1): (1, 1) at 1, (2, 1) at 2, Council Room (0, 2) at 1 -> 3 greens: +2
    assert end_game_vp(s3, s3.at((0, 1))) == 2


def test_holographic_display_area_rulebook_example():
    # Rulebook 4, example (year 1, round 3): Szandra's station is Main Reactor, Turret, Transportation
    # Platform; the Holographic Display Area goes next to 2 locations: 2 printed VP + 2 x (+1) = 4 VP.
    s = st(("Turret", (1, 0), 1), ("Transportation Platform", (0, 1), 1), ("Holographic Display Area", (1, 1), 1))
    got = immediate(s, s.at((1, 1)), year=1)
    assert (got.printed_vp, got.ability_vp, got.vp) == (2, 2, 4)


def test_faq_abilities_sports_arena_restaurant_beacon():
    # FAQ Sports Arena: the current year does not count; built in year 2 -> +2 (years 3 and 4).
    s = st(("Sports Arena", (1, 0), 2))
    assert immediate(s, s.at((1, 0)), year=2).ability_vp == 2
    # FAQ Restaurant: counts itself as purple. Station types: red (Turret) + purple (itself) = 2 -> +2.
    s = st(("Turret", (1, 0), 1), ("Restaurant", (0, 1), 1))
    assert immediate(s, s.at((0, 1)), year=1).ability_vp == 2
    # FAQ Communications Beacon: scores when no location is farther; an equal distance is fine.
    # Beacon (2, 0) at distance 2; Turret (0, 2) also at 2 -> +2. Add (0, 3) at distance 3 -> +0.
    s = st(("Turret", (1, 0), 1), ("Communications Beacon", (2, 0), 1), ("Crew Quarters", (0, 1), 1),
           ("Turret", (0, 2), 1))
    assert end_game_vp(s, s.at((2, 0))) == 2
    s = st(("Turret", (1, 0), 1), ("Communications Beacon", (2, 0), 1), ("Crew Quarters", (0, 1), 1),
           ("Turret", (0, 2), 1), ("Turret", (0, 3), 1))
    assert end_game_vp(s, s.at((2, 0))) == 0


def test_turret_counts_other_turrets_and_transportation_platform_counts_itself():
    # Rulebook 4 picture texts: Turret '+1 for each other Turret', Transportation Platform '+1 for each
    # Transportation Platform in the Station'; the special-deck copies are the same cards.
    s = st(("Turret", (1, 0), 1), ("Turret (special deck)", (2, 0), 1), ("Turret", (3, 0), 2),
           ("Transportation Platform", (0, 1), 1), ("Transportation Platform", (0, 2), 1))
    assert end_game_vp(s, s.at((1, 0))) == 2  # 3 Turrets, 2 others
    assert immediate(s, s.at((0, 2)), year=1).ability_vp == 2  # 2 platforms, itself included


def test_main_reactor_counts_as_power_reactor_and_face_down_filler_is_not_a_location():
    # Main Reactor card text: 'Counts as a Power Reactor.' Rulebook 5: the face-down filler is not counted
    # as a location.
    s = parse_station([
        {"card": "Main Reactor", "cell": [0, 0], "cubes": 0},
        {"card": "Power Reactor", "cell": [1, 0], "cubes": 0, "year": 1, "face_down": True},
        {"card": "Turret", "cell": [2, 0], "year": 1},
    ], "station")
    assert [p.card.name for p in s.reactors()] == ["Main Reactor"]
    assert len(s.locations()) == 2  # Main Reactor + Turret
    assert s.distance((0, 0), (2, 0)) == 2  # the filler still joins the path


def test_data_file_keeps_status_and_source_for_every_record():
    raw = json.loads((resources.files("rules") / "data" / "among_the_stars" / "cards.json").read_text(encoding="utf-8"))
    for section in ("locations", "reactors", "races", "objectives_base"):
        for record in raw[section]:
            assert record["status"] in {"confirmed", "partly_confirmed", "single_source", "conflict",
                                        "unconfirmed"}, record["id"]
            assert record["sources"], record["id"]
    for key, rule in raw["game_rules"].items():
        assert "value" in rule and rule["status"] and rule["sources"], key


def test_catalogue_numbers_the_digest_confirms():
    c = catalogue()
    # Digest §14: 10 credits a year, 6 rounds, 4 years, discard for 3, energy range 2, reactor 1 credit / 2 cubes.
    assert (c.rules["credits_per_year"], c.rules["rounds_per_year"], c.rules["years"]) == (10, 6, 4)
    assert (c.rules["discard_credits"], c.rules["energy_range"]) == (3, 2)
    assert (c.card("Power Reactor").cost_credits, c.card("Power Reactor").start_cubes) == (1, 2)
    # Rulebook 10 card-anatomy figure: Command Centre costs 5, 0 VP, MAX +8.
    cc = c.card("Command Centre")
    assert (cc.cost_credits, cc.vp, cc.ability_cap) == (5, 0, 8)


def test_unknown_card_suggests_close_names():
    with pytest.raises(LookupError) as err:
        catalogue().card("Holografic Display Aera")
    assert "Holographic Display Area" in err.value.suggestions
