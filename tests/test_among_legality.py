"""Among the Stars: placement legality (one placement, whole station) and the end-of-year correction.

Every expected finding is worked by hand from the rulebook (section named in each test)
and the card data (costs, energy, MAX, placement rules); arithmetic in the comments.
"""

from __future__ import annotations

from rules.among_the_stars.data import catalogue
from rules.among_the_stars.endgame import parse_station
from rules.among_the_stars.legality import (
    RULES,
    check_placement,
    check_station,
    correct_station,
    rule_citation,
)
from rules.among_the_stars.station import Placed, Station
from rules.core import Severity


def st(*cards, mr_cubes: int = 2) -> Station:
    """A station from (card, (i, j), year[, cubes]) tuples; the Main Reactor at [0, 0] holds ``mr_cubes``."""
    rows = [{"card": "Main Reactor", "cell": [0, 0], "cubes": mr_cubes}]
    for c in cards:
        row = {"card": c[0], "cell": list(c[1]), "year": c[2]}
        if len(c) > 3:
            row["cubes"] = c[3]
        rows.append(row)
    return parse_station(rows, "station")


def card(name: str):
    return catalogue().card(name)


def rules_of(issues, severity=Severity.ERROR):
    return [(i.rule, i.card, i.cell) for i in issues if i.severity is severity]


# -- one placement (game flow) -------------------------------------------------------------------


def test_legal_placement_has_no_issues():
    # Rulebook 4 example: Holographic Display Area (2 credits, 1 energy) next to Turret and Transportation
    # Platform, 1 cube from the Main Reactor at distance 2 (within 2).
    s = st(("Turret", (1, 0), 1), ("Transportation Platform", (0, 1), 1), mr_cubes=1)
    assert check_placement(s, card("Holographic Display Area"), (1, 1), credits=8, payment={(0, 0): 1}) == []


def test_not_edge_adjacent():
    # Rulebook 4: only next to a built location; (1, 1) touches the Main Reactor only at a corner.
    issues = check_placement(st(), card("Crew Quarters"), (1, 1), credits=10)
    assert rules_of(issues) == [("adjacency", "Crew Quarters", (1, 1))]
    assert issues[0].message.startswith("Crew Quarters (1 below and 1 right of the Main Reactor) shares no edge")


def test_cell_already_taken():
    issues = check_placement(st(("Turret", (1, 0), 1)), card("Crew Quarters"), (1, 0), credits=10)
    assert rules_of(issues) == [("cell_taken", "Crew Quarters", (1, 0))]


def test_energy_from_a_reactor_out_of_range():
    # Rulebook 4: energy from a reactor within distance 2. Turret (1 energy) at (3, 0): the Main Reactor
    # is 3 steps away ((3,0)->(2,0)->(1,0)->(0,0)).
    s = st(("Crew Quarters", (1, 0), 1), ("Crew Quarters", (2, 0), 1))
    issues = check_placement(s, card("Turret"), (3, 0), credits=10, payment={(0, 0): 1})
    assert rules_of(issues) == [("energy_range", "Turret", (3, 0))]
    assert "distance 3" in issues[0].message
    # without a stated payment: no reactor in range holds a cube
    assert rules_of(check_placement(s, card("Turret"), (3, 0), credits=10)) == [("energy_range", "Turret", (3, 0))]


def test_energy_without_enough_cubes():
    # The Main Reactor shows 0 cubes; a Turret needs 1.
    s = st(mr_cubes=0)
    issues = check_placement(s, card("Turret"), (1, 0), credits=10, payment={(0, 0): 1})
    assert rules_of(issues) == [("energy_cubes", "Turret", (1, 0))]
    # Heavy Ion Cannon needs 2 energy; paying 1 is short.
    issues = check_placement(st(), card("Heavy Ion Cannon"), (1, 0), credits=10, payment={(0, 0): 1})
    assert rules_of(issues) == [("energy_cubes", "Heavy Ion Cannon", (1, 0))]


def test_energy_from_several_reactors_is_fine():
    # FAQ: cubes may come from several reactors, each within range. Heavy Ion Cannon (2 energy) at (1, 1):
    # Main Reactor at distance 2 via (1, 0); Power Reactor (1, 0) at distance 1.
    s = st(("Power Reactor", (1, 0), 1, 2), mr_cubes=1)
    assert check_placement(s, card("Heavy Ion Cannon"), (1, 1), credits=10, payment={(0, 0): 1, (1, 0): 1}) == []


def test_more_copies_than_max():
    # Command Centre: MAX 1 per station (card data, rulebook 10 anatomy figure).
    s = st(("Command Centre", (1, 0), 1), mr_cubes=1)
    issues = check_placement(s, card("Command Centre"), (0, 1), credits=10, payment={(0, 0): 1})
    assert rules_of(issues) == [("max_per_station", "Command Centre", (0, 1))]


def test_fighter_launch_bay_within_distance_three():
    # Card text: not within distance 3 of the Main Reactor. A chain (1,0),(2,0) then the bay at (3, 0): distance 3.
    s = st(("Crew Quarters", (1, 0), 1), ("Crew Quarters", (2, 0), 1), ("Power Reactor", (2, 1), 1, 2))
    issues = check_placement(s, card("Fighter Launch Bay"), (3, 0), credits=10, payment={(2, 1): 1})
    assert rules_of(issues) == [("fighter_launch_bay", "Fighter Launch Bay", (3, 0))]
    # one cell further, (4, 0) is at distance 4; the reactor (2, 1) is 3 away from it, so pay from a nearer one
    s = s.with_card(Placed(card("Power Reactor"), (3, 0), cubes=2, year=1, order=9))
    assert check_placement(s, card("Fighter Launch Bay"), (4, 0), credits=10, payment={(3, 0): 1}) == []


def test_solar_panels_must_touch_a_reactor():
    s = st(("Crew Quarters", (1, 0), 1))
    assert rules_of(check_placement(s, card("Solar Panels"), (2, 0),
                                    credits=10)) == [("solar_panels", "Solar Panels", (2, 0))]
    assert check_placement(s, card("Solar Panels"), (0, 1), credits=10) == []  # beside the Main Reactor


def test_nothing_beside_an_observation_dome():
    s = st(("Observation Dome", (1, 0), 1))
    issues = check_placement(s, card("Crew Quarters"), (2, 0), credits=10)
    assert rules_of(issues) == [("observation_dome", "Crew Quarters", (2, 0))]


def test_credit_cost_that_cannot_be_paid():
    # Command Centre costs 5; the player has 4.
    issues = check_placement(st(), card("Command Centre"), (1, 0), credits=4, payment={(0, 0): 1})
    assert rules_of(issues) == [("credits", "Command Centre", (1, 0))]


# -- whole station (camera) -----------------------------------------------------------------------


def test_legal_station_has_no_findings():
    # Year 1: Turret (1 credit, 1 cube from the MR), Transportation Platform (1), Holographic Display Area
    # (2 credits, 1 cube): MR 2 - 2 = 0 cubes; 4 credits of 10 + discards.
    s = st(("Turret", (1, 0), 1), ("Transportation Platform", (0, 1), 1), ("Holographic Display Area", (1, 1), 1),
           mr_cubes=0)
    assert check_station(s, credits=6) == []


def test_whole_station_card_not_joined_to_the_station():
    s = st(("Crew Quarters", (1, 0), 1), ("Crew Quarters", (3, 0), 1))
    assert rules_of(check_station(s)) == [("adjacency", "Crew Quarters", (3, 0))]


def test_whole_station_card_only_joined_through_a_later_card():
    # At the end of year 1 the station is the year-1 cards: (2, 0) touched only (1, 0), built in year 2.
    s = st(("Crew Quarters", (1, 0), 2), ("Crew Quarters", (2, 0), 1))
    issues = check_station(s)
    assert rules_of(issues) == [("adjacency", "Crew Quarters", (2, 0))]
    assert "year 1" in issues[0].message


def test_whole_station_energy_out_of_range_and_cubes_short():
    # Turret at (3, 0) needs 1 cube; the only reactor (MR) is 3 steps away -> out of range.
    s = st(("Crew Quarters", (1, 0), 1), ("Crew Quarters", (2, 0), 1), ("Turret", (3, 0), 1), mr_cubes=1)
    assert ("energy_range", "Turret", (3, 0)) in rules_of(check_station(s))
    # Main Reactor still shows its 2 starting cubes, so 2 - 2 = 0 were spent, but the Turret needed 1.
    s = st(("Turret", (1, 0), 1), mr_cubes=2)
    assert rules_of(check_station(s)) == [("energy_cubes", "Turret", (1, 0))]
    # Two Turrets share the MR's 2 cubes (2 spent = 1 + 1): legal. A third Turret has nothing left.
    s = st(("Turret", (1, 0), 1), ("Turret", (0, 1), 1), mr_cubes=0)
    assert check_station(s) == []
    s = st(("Turret", (1, 0), 1), ("Turret", (0, 1), 1), ("Turret", (-1, 0), 2), mr_cubes=0)
    assert rules_of(check_station(s)) == [("energy_cubes", "Turret", (-1, 0))]


def test_whole_station_more_copies_than_max_flags_the_later_copy():
    # Council Room: MAX 1. The year-3 copy is the extra one.
    s = st(("Council Room", (1, 0), 3), ("Council Room", (0, 1), 1))
    assert rules_of(check_station(s)) == [("max_per_station", "Council Room", (1, 0))]


def test_whole_station_fighter_launch_bay_uses_the_station_as_it_was_built():
    # Card text: not built within distance 3 of the Main Reactor; 'built' is the station at that moment.
    # Year 1: (1,0), (2,0), (2,1) and a Power Reactor at (2,2) (1 cube left, 1 spent on the bay).
    base = [("Crew Quarters", (1, 0), 1), ("Crew Quarters", (2, 0), 1), ("Crew Quarters", (2, 1), 1),
            ("Power Reactor", (2, 2), 1, 1)]
    # Bay at (1, 2) in year 2: (1,2)->(2,2)->(2,1)->(2,0)->(1,0)->(0,0) = 5 steps: legal.
    s = st(*base, ("Fighter Launch Bay", (1, 2), 2))
    assert check_station(s) == []
    # A year-3 card at (1, 1) makes it (1,2)->(1,1)->(1,0)->(0,0) = 3 now, but the bay was legal when built.
    s = st(*base, ("Fighter Launch Bay", (1, 2), 2), ("Crew Quarters", (1, 1), 3))
    assert s.distance((1, 2), (0, 0)) == 3
    assert check_station(s) == []
    # The same (1, 1) card built in year 1, before the bay: 3 steps at build time, surely illegal.
    s = st(*base, ("Crew Quarters", (1, 1), 1), ("Fighter Launch Bay", (1, 2), 2))
    assert rules_of(check_station(s)) == [("fighter_launch_bay", "Fighter Launch Bay", (1, 2))]
    # Built in the same year as the bay: the camera cannot know which came first, so only a warning.
    s = st(*base, ("Crew Quarters", (1, 1), 2), ("Fighter Launch Bay", (1, 2), 2))
    issues = check_station(s)
    assert rules_of(issues) == []
    assert rules_of(issues, Severity.WARNING) == [("fighter_launch_bay", "Fighter Launch Bay", (1, 2))]


def test_whole_station_solar_panels_and_observation_dome():
    s = st(("Crew Quarters", (1, 0), 1), ("Solar Panels", (2, 0), 1))
    assert rules_of(check_station(s)) == [("solar_panels", "Solar Panels", (2, 0))]
    # Dome built in year 1; a card beside it in year 2 is illegal; one from the same year is only a warning.
    s = st(("Observation Dome", (1, 0), 1), ("Crew Quarters", (2, 0), 2), ("Crew Quarters", (1, 1), 1))
    assert rules_of(check_station(s)) == [("observation_dome", "Crew Quarters", (2, 0))]
    assert rules_of(check_station(s), Severity.WARNING) == [("observation_dome", "Crew Quarters", (1, 1))]


def test_whole_station_credit_cost_that_could_not_have_been_paid():
    # Year 1, six cards, so no round was left to discard for credits: income 10 (rulebook 4).
    # Trade Union HQ 4 + Alliance HQ 4 + Crew Quarters 1 x 4 = 12 > 10. Running sum 4, 8, 9, 10, 11, 12:
    # the 5th and 6th cards (each 1 credit) do not fit.
    s = st(("Trade Union Headquarters", (1, 0), 1), ("Alliance Headquarters", (2, 0), 1), ("Crew Quarters", (0, 1), 1),
           ("Crew Quarters", (0, 2), 1), ("Crew Quarters", (0, -1), 1), ("Crew Quarters", (-1, 0), 1))
    assert rules_of(check_station(s)) == [("credits", "Crew Quarters", (0, -1)), ("credits", "Crew Quarters", (-1, 0))]
    # With 2 of the 6 rounds spent discarding (+3 each), 4 cards of 4 + 4 + 1 + 1 = 10 <= 10 + 6: fine,
    # and at most 16 - 10 = 6 credits carry into year 2; with no more building (years 2-4: 6 discards = 18 + 10
    # a year) the bound is large, so only a very high count is flagged.
    s = st(("Trade Union Headquarters", (1, 0), 1), ("Alliance Headquarters", (2, 0), 1), ("Crew Quarters", (0, 1), 1),
           ("Crew Quarters", (0, 2), 1))
    assert check_station(s, credits=10) == []
    # Most credits possible: 6 + 3 x (10 + 18) = 90; 91 is more than could have been kept.
    assert rules_of(check_station(s, credits=91), Severity.WARNING) == [("credits", "credits", (0, 0))]


def test_whole_station_more_cards_than_rounds():
    # Rulebook 4: 6 rounds a year, one card each. Seven year-1 cards of 1 credit (Crew Quarters / Platforms).
    cells = [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3), (-1, 0)]
    names = ["Crew Quarters"] * 4 + ["Transportation Platform"] * 3  # the box holds 4 + 1 of each
    s = st(*[(n, c, 1) for n, c in zip(names, cells, strict=True)])
    assert rules_of(check_station(s)) == [("rounds", "Transportation Platform", (-1, 0))]
    # Aggressive mode: years 2-4 have 7 rounds.
    s = st(*[(n, c, 2) for n, c in zip(names, cells, strict=True)])
    assert check_station(s, aggressive=True) == []


def test_every_rule_has_a_rulebook_citation():
    for rule in RULES:
        assert rule_citation(rule).startswith("Among the Stars, rulebook ") or rule_citation(rule).startswith(
            ("Among the Stars, card text", "Among the Stars, race tile")), rule


# -- end-of-year correction (rulebook 5 'Round end') -----------------------------------------------


def test_correction_fills_a_split_with_a_face_down_reactor():
    # Command Centre MAX 1: the year-2 copy at (2, 0) is removed. The Crew Quarters at (3, 0) hung on it,
    # so a face-down Power Reactor fills (2, 0). VP earned unknown from a read: printed 0 + 3 = 3; 10 - 3 = 7.
    s = st(("Command Centre", (1, 0), 1), ("Command Centre", (2, 0), 2), ("Crew Quarters", (3, 0), 2), mr_cubes=0)
    fix = correct_station(s, vp=10, year=2)
    assert [(p.card.name, p.cell, vp) for p, vp in fix.removed] == [("Command Centre", (2, 0), 3)]
    assert fix.fillers == ((2, 0),)
    assert (fix.vp_before, fix.vp_after, fix.vp_lost) == (10, 7, 3)
    filler = fix.station.at((2, 0))
    assert filler.face_down and not filler.is_location and not filler.is_reactor and filler.cubes == 0
    assert fix.station.at((3, 0)).card.name == "Crew Quarters"
    assert fix.station.non_reactor_locations() == 2  # Command Centre + Crew Quarters; the filler is not counted
    assert [i for i in check_station(fix.station) if i.severity is Severity.ERROR] == []


def test_correction_without_split_needs_no_filler_and_vp_stops_at_zero():
    # A second Council Room (MAX 1), 3 printed VP: penalty 3 + 3 = 6, but the player has 2 -> 0 (FAQ).
    s = st(("Council Room", (1, 0), 1), ("Council Room", (0, 1), 2))
    fix = correct_station(s, vp=2, year=2)
    assert [(p.cell, vp) for p, vp in fix.removed] == [((0, 1), 6)]
    assert fix.fillers == ()
    assert fix.vp_after == 0


def test_correction_uses_the_vp_the_card_earned_when_known():
    from dataclasses import replace

    s = st(("Council Room", (1, 0), 1), ("Council Room", (0, 1), 2))
    s = s.replaced(replace(s.at((0, 1)), vp_earned=3))
    fix = correct_station(s, vp=20, year=2)
    assert fix.vp_after == 17  # 20 - 3 earned


def test_correction_removes_until_legal():
    # Two loose cards far from the station: both removed (printed VP 1 + 3 = 4 each: 10 - 8 = 2).
    s = st(("Crew Quarters", (1, 0), 1), ("Crew Quarters", (5, 5), 1), ("Crew Quarters", (5, 6), 1))
    fix = correct_station(s, vp=10, year=1)
    assert sorted(p.cell for p, _ in fix.removed) == [(5, 5), (5, 6)]
    assert fix.vp_after == 2 and fix.fillers == ()


def test_face_down_filler_joins_the_station_for_earlier_cards():
    # Rulebook 5: a face-down Power Reactor fills a split at the end of a year. Laid at the end of year 3 in
    # the cell of a card built in year 1, it keeps joining the year-2 card beyond it: no adjacency finding.
    s = parse_station([
        {"card": "Main Reactor", "cell": [0, 0], "cubes": 2},
        {"card": "Crew Quarters", "cell": [1, 0], "year": 1},
        {"card": "Power Reactor", "cell": [2, 0], "year": 3, "face_down": True},
        {"card": "Crew Quarters", "cell": [3, 0], "year": 2},
    ], "station")
    assert check_station(s) == []
