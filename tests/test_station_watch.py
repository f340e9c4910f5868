"""Among the Stars station watcher: camera reads -> confirmed changes -> misplays with rule and fix.

Cells are (row, column) from the Main Reactor at (0, 0). Every expectation below is worked by
hand from the rulebook digest (../shared/rules/among-the-stars.md) and the card data.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.station_watch import SeenCard, StationWatcher, seen_cards
from rules.among_the_stars.data import catalogue
from rules.among_the_stars.legality import check_placement, fix_for, legal_cells
from rules.among_the_stars.station import Placed, Station
from rules.core import Severity

MR = SeenCard("main_reactor", (0, 0), 0.99)


def feed(w: StationWatcher, cards: list[SeenCard], times: int = 2, **kw):
    out = None
    for _ in range(times):
        out = w.observe([MR, *cards], **kw)
    return out


def test_legal_card_is_accepted_after_two_agreeing_reads() -> None:
    w = StationWatcher("Ann")
    assert w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)]) is None  # one read is not enough
    change = w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)])
    assert change is not None
    assert change.added == (("Shield Generator", (0, 1)),)
    assert change.misplays == ()
    assert {"card": "shield_generator", "cell": [0, 1]} in change.to_json()["station"]
    # the same layout again changes nothing
    assert w.observe([MR, SeenCard("shield_generator", (0, 1), 0.95)]) is None


def test_diagonal_card_is_a_misplay_with_the_nearest_legal_cells() -> None:
    # Shield Generator at (1, 1) touches the Main Reactor only at a corner (rulebook 4: diagonal is
    # not adjacent). Legal cells now: the four neighbours of (0, 0). Nearest to (1, 1): (0, 1) and
    # (1, 0) at 1 step, then (-1, 0) and (0, -1) at 3 steps; ties in row then column order.
    w = StationWatcher("Ann")
    change = feed(w, [SeenCard("shield_generator", (1, 1), 0.9)])
    rules = {m.rule for m in change.misplays if m.severity is Severity.ERROR}
    assert "adjacency" in rules
    adj = next(m for m in change.misplays if m.rule == "adjacency")
    assert adj.fix == "move it to one of [0, 1], [1, 0], [-1, 0]"
    assert adj.source.startswith("Among the Stars, rulebook 4 'Build a location'")
    assert adj.to_json()["cell"] == [1, 1]
    assert adj.player == "Ann"


def test_moving_the_misplaced_card_clears_it() -> None:
    w = StationWatcher("Ann")
    feed(w, [SeenCard("shield_generator", (1, 1), 0.9)])
    change = feed(w, [SeenCard("shield_generator", (1, 0), 0.9)])
    assert change.moved == (("Shield Generator", (1, 1), (1, 0)),)
    assert change.added == ()
    assert change.misplays == ()
    assert [s["cell"] for s in change.station] == [[0, 0], [1, 0]]


def test_fighter_launch_bay_next_to_the_main_reactor_must_go_back() -> None:
    # Fighter Launch Bay: not within distance 3 of the Main Reactor. With only the Main Reactor
    # built, every free cell is 1 step away: no cell allows it, so the fix is to take it back.
    w = StationWatcher("Bo")
    change = feed(w, [SeenCard("fighter_launch_bay", (0, 1), 0.9)])
    flb = next(m for m in change.misplays if m.rule == "fighter_launch_bay")
    assert flb.severity is Severity.ERROR
    assert flb.fix.startswith("take it back: no free cell")


def test_second_shield_generator_breaks_max() -> None:
    # Shield Generator has MAX 1 per station (rulebook 10 'Location cards').
    w = StationWatcher("Cy")
    feed(w, [SeenCard("shield_generator", (0, 1), 0.9)])
    change = feed(w, [SeenCard("shield_generator", (0, 1), 0.9), SeenCard("shield_generator", (0, -1), 0.9)])
    m = next(m for m in change.misplays if m.rule == "max_per_station")
    assert m.cell == (0, -1)
    assert m.fix.startswith("take it back")


def test_card_beside_an_observation_dome() -> None:
    # Observation Dome at (0, 1): no card may be built beside it. A Turret then at (1, 1) (beside
    # the dome, and beside nothing else... (1, 0) is empty) breaks the dome's rule; the nearest legal
    # cells for the Turret are those not beside the dome: (1, 0) (1 step), then (-1, 0), (0, -1).
    w = StationWatcher("Di")
    feed(w, [SeenCard("observation_dome", (0, 1), 0.9)])
    change = feed(w, [SeenCard("observation_dome", (0, 1), 0.9), SeenCard("turret", (1, 1), 0.9)])
    dome = next(m for m in change.misplays if m.rule == "observation_dome")
    assert dome.card == "Turret"
    assert dome.fix == "move it to one of [1, 0], [-1, 0], [0, -1]"


def test_two_cards_in_one_missed_read_are_checked_as_a_chain() -> None:
    # Customs (no energy) at (0, 1) and Crew Quarters (no energy) at (0, 2): (0, 2) is only legal
    # because (0, 1) is there; checked in that order, neither is a misplay.
    w = StationWatcher("Ed")
    change = feed(w, [SeenCard("crew_quarters", (0, 2), 0.9), SeenCard("customs", (0, 1), 0.9)])
    assert [c for _, c in change.added] == [(0, 1), (0, 2)]
    assert change.misplays == ()


def test_a_hand_hiding_a_card_for_one_read_changes_nothing() -> None:
    w = StationWatcher("Fi")
    feed(w, [SeenCard("customs", (0, 1), 0.9)])
    assert w.observe([MR]) is None  # hidden once
    assert w.observe([MR, SeenCard("customs", (0, 1), 0.9)]) is None  # back: no change


def test_missing_card_is_reported_once_and_kept() -> None:
    w = StationWatcher("Gu")
    feed(w, [SeenCard("customs", (0, 1), 0.9)])
    change = feed(w, [])
    assert change.missing == (("Customs", (0, 1)),)
    assert {"card": "customs", "cell": [0, 1]} in change.to_json()["station"]
    assert feed(w, []) is None  # not reported again


def test_unrecognised_cards_are_unsure_not_built() -> None:
    w = StationWatcher("Ha", min_confidence=0.6)
    change = feed(w, [SeenCard("customs", (0, 1), 0.3), SeenCard(None, (1, 0), 0.0), SeenCard("turret", None, 0.9),
                      SeenCard("not_a_card", (0, -1), 0.95)])
    assert change is None
    assert "the card at [0, 1] is not recognised yet" in w.unsure
    assert "the card at [1, 0] is not recognised yet" in w.unsure
    assert "Turret lies between cells: push it flush against its neighbour" in w.unsure
    assert any("'not_a_card'" in u and "not an Among the Stars card" in u for u in w.unsure)


def test_energy_from_the_engine_station_is_an_error_when_cubes_are_spent() -> None:
    # The engine says the Main Reactor has no cubes left: a Turret (1 energy) cannot be paid for.
    cat = catalogue()
    empty = Station((Placed(cat.card("main_reactor"), (0, 0), cubes=0),))
    w = StationWatcher("Io", confirm_reads=1)
    change = w.observe([MR, SeenCard("turret", (0, 1), 0.9)], station=empty)
    energy = next(m for m in change.misplays if m.rule == "energy_range")
    assert energy.severity is Severity.ERROR
    # Without the engine's station the camera cannot count cubes: only a warning.
    w2 = StationWatcher("Io", confirm_reads=1)
    w2.layout = {(0, 0): "main_reactor", (0, 1): "turret"}
    change2 = w2.observe([MR, SeenCard("turret", (0, 1), 0.9), SeenCard("heavy_ion_cannon", (0, -1), 0.9)])
    assert change2 is not None  # starting cubes (2) are assumed: 2 energy for the cannon are in range
    assert not [m for m in change2.misplays if m.rule.startswith("energy")]


def test_credits_too_few_means_take_it_back() -> None:
    w = StationWatcher("Jo", confirm_reads=1)
    change = w.observe([MR, SeenCard("command_centre", (0, 1), 0.9)], credits=4)  # costs 5
    m = next(m for m in change.misplays if m.rule == "credits")
    assert m.fix.startswith("take it back: it costs more credits")


def test_seen_cards_from_reader_observations_by_zone() -> None:
    obs = [SimpleNamespace(id="main_reactor", cell=(0, 0), confidence=0.97, zone="Ann"),
           SimpleNamespace(id="customs", cell=[0, 1], confidence=0.8, zone="Ann"),
           SimpleNamespace(id="turret", cell=None, confidence=0.7, zone="Bo")]
    ann = seen_cards(obs, zone="Ann")
    assert ann == [SeenCard("main_reactor", (0, 0), 0.97), SeenCard("customs", (0, 1), 0.8)]
    assert len(seen_cards(obs)) == 3


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="confirm_reads"):
        StationWatcher("x", confirm_reads=0)
    with pytest.raises(ValueError, match="min_confidence"):
        StationWatcher("x", min_confidence=1.5)


def test_legal_cells_and_fix_in_the_rules() -> None:
    cat = catalogue()
    st = Station((Placed(cat.card("main_reactor"), (0, 0), cubes=2),))
    # Solar Panels must be beside a reactor: any neighbour of the Main Reactor.
    assert legal_cells(st, cat.card("solar_panels")) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    # Fighter Launch Bay: nowhere yet.
    assert legal_cells(st, cat.card("fighter_launch_bay")) == []
    # A legal placement needs no fix.
    turret = cat.card("turret")
    assert fix_for(check_placement(st, turret, (0, 1)), st, turret, (0, 1)) == ""
