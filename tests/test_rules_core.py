"""The shared rules core and the d6 tally: hand-worked event logs and their derived states."""

import pytest

from rules import (
    GAMES,
    BadEvent,
    Event,
    Finding,
    ScoreBreakdown,
    ScoreLine,
    Severity,
    UnknownEvent,
    UnknownGame,
    get_game,
    replay,
)
from rules.core import effective_events
from rules.d6 import D6_GAME, DICE_CORRECTED, DICE_READ


def ev(number, kind, **payload):
    return Event(seq=number, kind=kind, payload=payload, at=1000.0 + number, origin="camera")


def test_games_are_listed_in_one_place():
    assert GAMES["d6"] is D6_GAME
    assert get_game("d6") is D6_GAME
    with pytest.raises(UnknownGame, match="unknown game 'chess'.*d6"):
        get_game("chess")


def test_read_counts_and_sum():
    # Hand-worked: 3, 5, 5, 1, 6 -> counts 1:1 3:1 5:2 6:1, sum 20.
    r = replay(D6_GAME, {}, [ev(1, DICE_READ, values=[3, 5, 5, 1, 6])])
    latest = r.state.latest
    assert latest.counts == {1: 1, 2: 0, 3: 1, 4: 0, 5: 2, 6: 1}
    assert latest.total == 20
    assert latest.unreadable == 0
    assert r.findings == ()


def test_unreadable_die_is_kept_and_flagged():
    r = replay(D6_GAME, {}, [ev(1, DICE_READ, values=[2, None, 4])])
    assert r.state.latest.values == (2, None, 4)
    assert r.state.latest.total == 6
    assert r.state.latest.unreadable == 1
    (finding,) = r.findings
    assert finding.severity is Severity.WARNING and finding.seq == 1


def test_undo_withdraws_and_undoing_the_undo_restores():
    log = [ev(1, DICE_READ, values=[1, 1]), ev(2, DICE_READ, values=[6, 6, 6])]
    assert replay(D6_GAME, {}, log).state.latest.total == 18
    undone = log + [ev(3, "undo", seq=2)]
    r = replay(D6_GAME, {}, undone)
    assert r.state.latest.total == 2 and r.undone == (2,) and r.applied == (1,)
    redone = undone + [ev(4, "undo", seq=3)]
    r = replay(D6_GAME, {}, redone)
    assert r.state.latest.total == 18 and r.undone == () and r.applied == (1, 2)


def test_events_replay_in_seq_order_whatever_order_given():
    log = [ev(2, DICE_READ, values=[4]), ev(1, DICE_READ, values=[2])]
    r = replay(D6_GAME, {}, log)
    assert r.state.latest.values == (4,) and [h.seq for h in r.state.history] == [2, 1]


@pytest.mark.parametrize("payload", [{"seq": 5}, {"seq": "1"}, {}, {"seq": 3}])
def test_bad_undo_is_named(payload):
    log = [ev(1, DICE_READ, values=[1]), ev(3, "undo", **payload)]
    with pytest.raises(BadEvent, match="undo event 3"):
        effective_events(log)


@pytest.mark.parametrize("values", [[0], [7], [2.5], ["6"], [True], "66"])
def test_impossible_values_are_bad_events(values):
    with pytest.raises(BadEvent, match="event 1"):
        replay(D6_GAME, {}, [ev(1, DICE_READ, values=values)])


def test_correction_replaces_latest_and_rejects_unknown_values():
    log = [ev(1, DICE_READ, values=[3, None]), ev(2, DICE_CORRECTED, values=[3, 4])]
    r = replay(D6_GAME, {}, log)
    assert r.state.latest.values == (3, 4) and r.state.latest.total == 7
    assert [h.seq for h in r.state.history] == [2]
    with pytest.raises(BadEvent):
        replay(D6_GAME, {}, [ev(1, DICE_CORRECTED, values=[None])])


def test_unknown_event_kind_is_named():
    with pytest.raises(UnknownEvent, match="event 1.*'d6'.*'roll_phase'"):
        replay(D6_GAME, {}, [ev(1, "roll_phase")])


def test_history_keeps_the_ten_newest():
    log = [ev(i, DICE_READ, values=[1 + i % 6]) for i in range(1, 14)]
    state = replay(D6_GAME, {}, log).state
    assert state.rolls == 13
    assert [h.seq for h in state.history] == list(range(13, 3, -1))


def test_view_is_json_shaped():
    view = D6_GAME.view(replay(D6_GAME, {}, [ev(1, DICE_READ, values=[6, 2])]).state)
    assert view["game"] == "d6" and view["rolls"] == 1
    assert view["latest"]["counts"] == {"1": 0, "2": 1, "3": 0, "4": 0, "5": 0, "6": 1}
    assert view["latest"]["total"] == 8


def test_score_breakdown_total_is_the_sum_of_its_lines():
    # Roll for the Galaxy rulebook's example: 13 VP chips + 3 + 5 + 4 = 25 (categories as lines).
    b = ScoreBreakdown("Ann",
                       (ScoreLine("VP chips", 13), ScoreLine("tiles", 3), ScoreLine("tiles", 5), ScoreLine("bonus", 4)))
    assert b.total == 25
    assert b.to_json()["total"] == 25 and len(b.to_json()["categories"]) == 4


def test_finding_json():
    f = Finding("two phase dice", "player Ann", Severity.ERROR, "Roll for the Galaxy, Assign", seq=4)
    assert f.to_json() == {"what": "two phase dice", "where": "player Ann", "severity": "error",
                           "rule": "Roll for the Galaxy, Assign", "seq": 4}
