"""Among the Stars engine: years and rounds, the three actions, interactions, the end-of-year
correction and final scoring through ``rules.core.replay``.

Values are hand-worked from the rulebook (sections named in comments) and the card data.
"""

from __future__ import annotations

import json

import pytest

from companion.i18n import say
from rules.among_the_stars import AMONG_GAME
from rules.among_the_stars.game import (
    CARD_DISCARDED,
    CONFLICT_PLAYED,
    CREDITS_CHANGED,
    LOCATION_BUILT,
    REACTOR_BUILT,
    ROUND_ENDED,
    STATION_READ,
    VP_CHANGED,
)
from rules.core import BadEvent, Event, Severity, UnknownEvent, replay


class Log:
    """Builds an event log with increasing seqs."""

    def __init__(self):
        self.events: list[Event] = []

    def add(self, kind, player=None, **payload):
        self.events.append(Event(len(self.events) + 1, kind, payload, player=player))
        return self.events[-1].seq

    def build(self, player, card, cell, energy=(), **choices):
        payload = {"card": card, "cell": list(cell)}
        if energy:
            payload["energy"] = [{"cell": list(c), "cubes": n} for c, n in energy]
        if choices:
            payload["choices"] = choices
        return self.add(LOCATION_BUILT, player, **payload)

    def discard(self, *players):
        for p in players:
            self.add(CARD_DISCARDED, p)

    def end_round(self, *discarding):
        """The round ends, after ``discarding`` players discard their card (rulebook 4: one card each a round)."""
        self.discard(*discarding)
        return self.add(ROUND_ENDED)


def run(log, players=("Szandra", "Bob"), **settings):
    return replay(AMONG_GAME, {"players": list(players), **settings}, log.events)


def pl(state, name):
    return state.player(name)


def test_rulebook_example_holographic_display_area():
    # Rulebook 4 example, year 1 round 3: station Main Reactor, Turret, Transportation Platform.
    # Round 1 Turret: 1 credit, 1 cube from the MR, 2 VP. Round 2 Transportation Platform: 1 credit, 1 + 1 VP.
    # Round 3 Holographic Display Area: 2 credits, 1 cube from the MR (distance 2), 2 + 2 = 4 VP.
    log = Log()
    log.build("Szandra", "Turret", (1, 0), [((0, 0), 1)])
    log.end_round("Bob")
    log.build("Szandra", "Transportation Platform", (0, 1))
    log.end_round("Bob")
    seq = log.build("Szandra", "Holographic Display Area", (1, 1), [((0, 0), 1)])
    r = run(log)
    s = pl(r.state, "Szandra")
    assert r.findings == ()
    assert s.station.at((1, 1)).vp_earned == 4
    assert s.vp == 2 + 2 + 4  # Turret 2; Platform 1 + 1; Display Area 4
    assert s.credits == 10 - 1 - 1 - 2
    assert s.station.at((0, 0)).cubes == 0  # 2 - 1 - 1
    assert (r.state.year, r.state.round) == (1, 3) and seq == 7


def test_year_structure_income_pass_direction_and_rounds():
    # Rulebook 4: 10 credits each year, unspent credits stay; 6 rounds; hands pass in alternating directions.
    log = Log()
    for _ in range(6):
        log.end_round("Szandra", "Bob")
    r = run(log)
    assert (r.state.year, r.state.round) == (2, 1)
    assert pl(r.state, "Szandra").credits == 10 + 6 * 3 + 10  # year 1 income, six discards, year 2 income
    v = AMONG_GAME.view(r.state)
    assert v["pass_direction"] == "right" and AMONG_GAME.pass_direction(1) == "left"
    assert v["rounds"] == 6
    aggressive = run(log, aggressive=True)
    assert AMONG_GAME.view(aggressive.state)["rounds"] == 7  # rulebook 7: years 2-4 draw 7 cards


def test_build_power_reactor_and_race_discards():
    # Rulebook 4 'Build a Power Reactor': 1 credit, 2 cubes. Sheptas discard for 4; Zehuti for 0 and 13 a year.
    log = Log()
    log.add(REACTOR_BUILT, "A", cell=[1, 0])
    log.end_round("S", "Z")
    r = run(log, players=[{"name": "A"}, {"name": "S", "race": "Sheptas"}, {"name": "Z", "race": "Zehuti"}])
    a = pl(r.state, "A")
    assert a.credits == 9 and a.station.at((1, 0)).cubes == 2 and r.state.reactors_left == 15
    assert pl(r.state, "S").credits == 14 and pl(r.state, "Z").credits == 13


def test_illegal_build_is_reported_with_card_cell_and_rule_then_removed_at_year_end():
    # Council Room MAX 1 (3 credits, 3 printed VP): the second one (round 2) is illegal. The Crew Quarters
    # built on it in round 3 hangs on it, so when it is removed a face-down Power Reactor fills its cell
    # (rulebook 5). VP: 3 + 3 + 1 = 7 during the year; the removed copy earned 3 -> 4. Credits 10 - 3 - 3 - 1
    # + 3 x 3 discards = 12.
    log = Log()
    log.build("A", "Council Room", (1, 0))
    log.end_round("B")
    seq = log.build("A", "Council Room", (2, 0))
    log.end_round("B")
    log.build("A", "Crew Quarters", (3, 0))
    log.end_round("B")
    for _ in range(3):
        log.end_round("A", "B")
    r = run(log, players=("A", "B"))
    first = [f for f in r.findings if f.seq == seq]
    assert [(f.severity, f.where) for f in first] == [(Severity.ERROR, "A: Council Room (2 below the Main Reactor)")]
    assert "MAX" in first[0].rule
    a = pl(r.state, "A")
    assert a.station.at((2, 0)).face_down and a.station.at((3, 0)).card.name == "Crew Quarters"
    assert a.vp == 4
    assert a.credits == 12 + 10  # and the year-2 income
    removed = [f for f in r.findings if "removed" in f.what]
    assert len(removed) == 1 and "face-down" in removed[0].what and "-3 VP" in removed[0].what
    assert say(removed[0].what, "en").startswith(
        "end of year 1: Council Room removed (2 below the Main Reactor), -3 VP")
    assert say(removed[0].what, "pl").startswith(
        "koniec roku 1: Council Room usunięta (2 w dół od karty Main Reactor), -3 PZ")
    assert "eltávolítva innen: a Főreaktor kártyától 2 hellyel lejjebb, -3 GYP" in say(removed[0].what, "hu")
    assert "αφαιρέθηκε (2 κάτω από τον Main Reactor), -3 ΠΝ" in say(removed[0].what, "el")


def test_year_end_correction_vp_never_below_zero():
    # Two Council Rooms: 3 + 3 = 6 VP; a player correction of -5 leaves 1. At the year's end the illegal copy
    # costs the 3 it earned: 1 - 3 stops at 0 (rulebook FAQ: no score below 0).
    log = Log()
    log.build("A", "Council Room", (1, 0))
    log.end_round("B")
    log.build("A", "Council Room", (0, 1))
    log.end_round("B")
    log.add(VP_CHANGED, "A", delta=-5, reason="test")
    for _ in range(4):
        log.end_round("A", "B")
    r = run(log, players=("A", "B"))
    assert pl(r.state, "A").vp == 0
    assert pl(r.state, "A").station.count_kind("council_room") == 1


def test_market_place_takes_credits_after_the_round_in_score_order():
    # Market Place: take 2 credits in total from up to 2 players; resolved after everyone's action
    # (rulebook 'Player order'). Bob spends 9 of his 10 on... a Command Centre (5) then has 5; take 1 from
    # Bob and 1 from Cy. A: 10 - 3 (Market Place) + 2 = 9; 2 VP printed.
    log = Log()
    log.build("A", "Market Place", (1, 0), take={"Bob": 1, "Cy": 1})
    log.discard("Bob", "Cy")
    r_mid = run(log, players=("A", "Bob", "Cy"))
    assert pl(r_mid.state, "A").credits == 7 and len(r_mid.state.pending) == 2  # not yet resolved
    log.end_round()
    r = run(log, players=("A", "Bob", "Cy"))
    assert pl(r.state, "A").credits == 9 and pl(r.state, "A").vp == 2
    assert pl(r.state, "Bob").credits == 12 and pl(r.state, "Cy").credits == 12  # 10 + 3 - 1


def test_school_of_alien_cultures_pay_or_lose():
    # FAQ School of Alien Cultures: payers give 1 credit, the others lose 2 VP (never below 0); +2 VP per payer.
    log = Log()
    log.build("A", "Crew Quarters", (1, 0))
    log.build("Bob", "Crew Quarters", (1, 0))
    log.end_round("Cy")
    log.build("A", "School of Alien Cultures", (0, 1), paid={"Bob": True, "Cy": False})
    log.end_round("Bob", "Cy")
    r = run(log, players=("A", "Bob", "Cy"))
    a = pl(r.state, "A")
    assert a.vp == 1 + 2 + 2  # Crew Quarters 1; School printed 2 + 2 for Bob's credit
    assert a.credits == 10 - 1 - 3 + 1
    assert pl(r.state, "Bob").vp == 1 and pl(r.state, "Cy").vp == 0  # Cy had 0; -2 stops at 0


def test_dispute_in_aggressive_mode():
    # Rulebook 7: a Conflict card costs 1 credit (data), resolves after the round. Dispute on red:
    # A has 2 red, B 0 -> A +2, B -2 (B has 1 VP -> 0).
    log = Log()
    for _ in range(6):
        log.end_round("A", "B")
    log.build("A", "Pilot Training Area", (1, 0))
    log.build("B", "Crew Quarters", (1, 0))
    log.end_round()
    log.build("A", "Pilot Training Area", (2, 0))
    log.end_round("B")
    log.add(CONFLICT_PLAYED, "A", target="B", counts="red")
    log.end_round("B")
    r = run(log, players=("A", "B"), aggressive=True)
    # A: PTA 2 (no red neighbour), PTA 2 + 1 (next to red) = 5, + 2 = 7. B: 1 - 2 -> 0.
    assert pl(r.state, "A").vp == 7 and pl(r.state, "B").vp == 0
    assert pl(r.state, "A").credits == 10 + 18 + 10 - 2 - 2 - 1


def test_conflict_outside_aggressive_mode_is_a_warning():
    log = Log()
    log.add(CONFLICT_PLAYED, "A", target="B", counts="red")
    r = run(log, players=("A", "B"))
    assert [f.severity for f in r.findings] == [Severity.WARNING]


def test_two_players_have_virtual_seats_and_two_objectives():
    r = run(Log(), players=("A", "B"), objectives=["On Budget", "Marvels in Space"])
    v = AMONG_GAME.view(r.state)
    assert v["seats"] == ["A", "virtual player 1", "B", "virtual player 2"]
    assert any("virtual" in text for text in v["reminders"])
    assert v["objectives"] == ["On Budget", "Marvels in Space"]
    assert run(Log(), players=("A", "B", "C")).state.players[2].name == "C"
    assert AMONG_GAME.seats(run(Log(), players=("A", "B", "C")).state) == ["A", "B", "C"]


def test_one_action_a_round():
    log = Log()
    log.end_round("A", "A")
    r = run(log, players=("A", "B"))
    assert [f.severity for f in r.findings] == [Severity.WARNING, Severity.WARNING]
    assert "already" in r.findings[0].what and "B took no action" in r.findings[1].what


def test_undo_withdraws_a_build():
    log = Log()
    seq = log.build("A", "Crew Quarters", (1, 0))
    log.add("undo", seq=seq)
    r = run(log, players=("A", "B"))
    assert len(pl(r.state, "A").station) == 1 and pl(r.state, "A").vp == 0 and r.undone == (seq,)


def test_full_game_scores_at_the_end_of_year_four():
    # Both players discard every round: 4 x 10 + 24 x 3 = 112 credits -> 37 VP (112 // 3); the Main Reactor
    # keeps its 2 cubes -> 0. A adds 1 VP by adjustment and wins.
    log = Log()
    log.add(VP_CHANGED, "A", delta=1, reason="test")
    for _ in range(24):
        log.end_round("A", "B")
    r = run(log, players=("A", "B"))
    assert r.state.over
    totals = {b.player: b.total for b in r.state.scores}
    assert totals == {"A": 1 + 37, "B": 37}
    after = AMONG_GAME.apply(r.state, Event(999, CARD_DISCARDED, {}, player="A"))
    assert after[0] is r.state and after[1][0].severity is Severity.WARNING


def test_accelerated_construction_goes_to_the_first_to_fifty():
    log = Log()
    log.add(VP_CHANGED, "A", delta=50, reason="test")
    log.end_round("A", "B")
    r = run(log, players=("A", "B"), objectives=["Accelerated Construction"])
    assert pl(r.state, "A").vp == 54 and r.state.accelerated_done


def test_station_read_checks_the_camera_view():
    log = Log()
    log.add(STATION_READ, "A", station=[{"card": "Main Reactor", "cell": [0, 0], "cubes": 2},
                                        {"card": "Crew Quarters", "cell": [1, 1], "year": 1}])
    r = run(log, players=("A", "B"))
    assert [(f.severity, f.where) for f in r.findings] == [
        (Severity.ERROR, "A: Crew Quarters (1 below and 1 right of the Main Reactor)")]
    assert len(pl(r.state, "A").station) == 1  # the engine's station is unchanged


def test_bad_events():
    with pytest.raises(BadEvent, match="did you mean"):
        run_one = Log()
        run_one.build("A", "Holografic Display Area", (1, 0))
        run(run_one, players=("A", "B"))
    with pytest.raises(BadEvent, match="no player"):
        bad = Log()
        bad.discard("Nobody")
        run(bad, players=("A", "B"))
    with pytest.raises(BadEvent, match=r"\[i, j\]"):
        bad = Log()
        bad.add(LOCATION_BUILT, "A", card="Turret", cell=[1])
        run(bad, players=("A", "B"))
    for energy in (5, {"cell": [0, 0]}, True):  # a hand-edited log: energy paid given as one number or one row
        with pytest.raises(BadEvent, match=r"energy: a list of"):
            bad = Log()
            bad.add(LOCATION_BUILT, "A", card="Turret", cell=[1, 0], energy=energy)
            run(bad, players=("A", "B"))
    with pytest.raises(UnknownEvent):
        AMONG_GAME.apply(AMONG_GAME.initial_state({"players": ["A", "B"]}), Event(1, "dice_read", {}))
    with pytest.raises(BadEvent):
        AMONG_GAME.initial_state({"players": ["A"]})


def test_apply_does_not_mutate_and_view_is_json():
    state = AMONG_GAME.initial_state({"players": ["A", "B"], "objectives": ["On Budget"]})
    before = AMONG_GAME.view(state)
    new, _ = AMONG_GAME.apply(state, Event(1, LOCATION_BUILT, {"card": "Turret", "cell": [1, 0]}, player="A"))
    assert AMONG_GAME.view(state) == before and new is not state
    json.dumps(AMONG_GAME.view(new))
    assert AMONG_GAME.event_kinds >= {LOCATION_BUILT, REACTOR_BUILT, CARD_DISCARDED, ROUND_ENDED}


def test_energy_is_paid_from_the_nearest_reactor_when_not_stated():
    # A Turret (1 energy) with no stated payment takes 1 cube from the Main Reactor (distance 1): 2 - 1 = 1,
    # and the year-end check finds the station legal (nothing removed).
    log = Log()
    log.build("A", "Turret", (1, 0))
    for _ in range(6):
        if _:
            log.discard("A")
        log.end_round("B")
    r = run(log, players=("A", "B"))
    a = pl(r.state, "A")
    assert a.station.at((0, 0)).cubes == 1 and a.station.at((1, 0)).card.name == "Turret"
    assert [f for f in r.findings if f.severity is Severity.ERROR] == []


def test_shield_generator_galactic_bank_and_business_offices():
    # Card data: Shield Generator +2 VP per extra cube (max +4); Galactic Bank +1 credit each later year;
    # Business Offices parks credits (+1 VP per 2), returned at the end of the year.
    log = Log()
    log.add(REACTOR_BUILT, "A", cell=[0, 1])
    log.end_round("B")  # 10 - 1 = 9
    # 3 cubes for a 1-energy card: MR 2 + Power Reactor (0,1) 1, at distance 2 -> 4 printed + 2 x 2 = 8 VP
    log.build("A", "Shield Generator", (1, 0), [((0, 0), 2), ((0, 1), 1)])
    log.end_round("B")  # 6
    log.build("A", "Galactic Bank", (0, 2), [((0, 1), 1)])
    log.end_round("B")  # 3; 4 VP
    log.build("A", "Business Offices", (-1, 0), escrow=2)
    log.end_round("B")  # 3 - 1 - 2 = 0; 1 + 1 VP
    for _ in range(2):
        log.end_round("A", "B")
    r = run(log, players=("A", "B"))
    a = pl(r.state, "A")
    assert a.station.at((1, 0)).vp_earned == 8
    assert a.vp == 8 + 4 + 2
    assert a.credits == 0 + 2 * 3 + 2 + 10 + 1  # discards, escrow back, year 2 income, bank
    assert [f for f in r.findings if f.severity is Severity.ERROR] == []


def test_backup_reactor_and_solar_panels_add_cubes():
    from rules.among_the_stars.endgame import parse_station
    from rules.among_the_stars.legality import check_station

    # Backup Reactor: +1 cube on the Main Reactor (2 + 1 = 3 possible); Solar Panels: +1 on a reactor beside it.
    def station(mr_cubes, pr_cubes):
        return parse_station([{"card": "Main Reactor", "cell": [0, 0], "cubes": mr_cubes},
                              {"card": "Backup Reactor", "cell": [1, 0], "year": 1},
                              {"card": "Power Reactor", "cell": [0, 1], "year": 1, "cubes": pr_cubes},
                              {"card": "Solar Panels", "cell": [0, 2], "year": 2}], "station")
    assert check_station(station(3, 3)) == []
    got = [(i.rule, i.card, i.severity) for i in check_station(station(4, 3))]
    assert got == [("reactor_cubes", "Main Reactor", Severity.WARNING)]
    # the engine: Backup Reactor built beside the Main Reactor -> MR 2 + 1 = 3 cubes, 2 + 1 = 3 VP
    log = Log()
    log.build("A", "Backup Reactor", (1, 0))
    r = run(log, players=("A", "B"))
    assert pl(r.state, "A").station.at((0, 0)).cubes == 3 and pl(r.state, "A").vp == 3


def test_build_order_stays_exact_after_a_removal():
    # Year 1: Council Room, a second (illegal) Council Room, Crew Quarters at (-1, 0). The second copy is
    # removed at the year's end (no split). In year 2 a Crew Quarters at (-2, 0) touches only the year-1
    # Crew Quarters: legal, and must not be mistaken for a card built before its neighbour.
    log = Log()
    log.build("A", "Council Room", (1, 0))
    log.end_round("B")
    log.build("A", "Council Room", (0, 1))
    log.end_round("B")
    log.build("A", "Crew Quarters", (-1, 0))
    log.end_round("B")
    for _ in range(3):
        log.end_round("A", "B")
    seq = log.build("A", "Crew Quarters", (-2, 0))
    log.discard("B")
    for _ in range(6):
        log.end_round()
        log.discard("A", "B")
    r = run(log, players=("A", "B"))
    errors = [f for f in r.findings if f.severity is Severity.ERROR]
    assert len(errors) == 2 and all("Council Room" in f.where or "Council Room" in f.what for f in errors)
    assert pl(r.state, "A").station.at((-2, 0)) is not None and not [f for f in r.findings if f.seq == seq]


def test_each_extra_build_in_one_round_is_a_finding_of_its_own_on_the_table(tmp_path):
    """Rulebook 4 'Round overview': one action a round. Ann builds three locations in round 1: the second and the
    third are each found, in the engine and in what the phones and the touchscreen list."""
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore

    spec = FLOWS["among"]
    with SessionStore(tmp_path / "among.sqlite3") as store:
        flow = GameFlow(store.start("among", spec.settings(parse_players("Ann,Bob"), {})), spec)
        for card, cell in (("Turret", [1, 0]), ("Crew Quarters", [0, 1]), ("Transportation Platform", [-1, 0])):
            flow.report("Ann", "location", {"card": card, "cell": cell})
        engine = [f for f in flow.session.replay().findings if "already took an action" in f.what]
        assert [(f.seq, f.card, f.cell) for f in engine] == [(2, "Crew Quarters", (0, 1)),
                                                             (3, "Transportation Platform", (-1, 0))]
        listed = [f for f in flow.findings() if "already took an action" in f["what"]]
        assert [f["card"] for f in listed] == ["Transportation Platform", "Crew Quarters"]  # newest first


# -- credits and VP adjusted below zero ------------------------------------------------------------
def test_credits_adjusted_below_zero_is_a_warning_naming_the_amount():
    # Among digest §3: 10 credits at the start of year 1; -30 cannot be paid (§4).
    log = Log()
    log.add(CREDITS_CHANGED, "A", delta=-30, reason="test")
    r = run(log, players=("A", "B"))
    assert r.state.player("A").credits == 0
    hits = [f for f in r.findings if f.severity is Severity.WARNING and "30" in f.what]
    assert hits and hits[0].where == "A" and "10 credits" in hits[0].what
    assert "rulebook 4 'The three actions'" in hits[0].rule
    ok = Log()
    ok.add(CREDITS_CHANGED, "A", delta=-10, reason="test")
    assert not run(ok, players=("A", "B")).findings


def test_vp_adjusted_below_zero_is_shown_and_stops_at_zero():
    # Among digest §5.6: no score drops below 0; a larger loss stops at 0.
    log = Log()
    log.add(VP_CHANGED, "A", delta=4, reason="test")
    log.add(VP_CHANGED, "A", delta=-30, reason="test")
    r = run(log, players=("A", "B"))
    assert r.state.player("A").vp == 0
    hits = [f for f in r.findings if "30" in f.what and "stops at 0" in f.what]
    assert hits and "26" in hits[0].what and "rulebook 5 'Round end'" in hits[0].rule
