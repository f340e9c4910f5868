"""Race for the Galaxy engine findings (rules/race/): one start world each, VP chips outside Consume and the
pool, chips beyond the box, a second pick before the reveal. Rule values from the rulebook digest
(shared/rules/, section cited by each test), worked by hand."""

from __future__ import annotations

import pytest

from rules import Severity
from rules.race import RACE_GAME
from tests.test_race_game import run as race_run
from tests.test_race_game import setup as race_setup


def test_two_players_with_the_same_start_world_is_a_finding():
    # Digest §2 setup 3: the 5 start worlds are shuffled and one is dealt to each player.
    r = race_run(race_setup(ann="Old Earth", bob="Old Earth"))
    hits = [f for f in r.findings if "Old Earth" in f.what and "start world" in f.what]
    assert hits and hits[0].severity is Severity.ERROR
    assert "start worlds dealt one each" in hits[0].rule and hits[0].rule.startswith("Race for the Galaxy")
    assert not [f for f in race_run(race_setup()).findings if f.severity is not Severity.INFO]
    from rules import BadEvent

    with pytest.raises(BadEvent, match="dealt one each"):
        RACE_GAME.initial_state({"players": ["Ann", "Bob"], "start_worlds": {"Ann": "Old Earth", "Bob": "Old Earth"}})


def test_vp_chips_outside_consume_are_flagged_and_the_pool_never_goes_negative():
    # 2 players: pool 2 x 12 = 24 (digest §2). 30 VP reported during Explore: 24 from the pool,
    # 6 from the chips set aside (§6); VP chips come from Consume powers (§4 IV).
    log = race_setup().round(Ann="explore_5", Bob="explore_1_1")("vp_changed", player="Ann", delta=30)
    r = race_run(log)
    warnings = [f for f in r.findings if f.severity is Severity.WARNING]
    assert any("outside the Consume phase" in f.what and "30" in f.what for f in warnings)
    assert r.state.pool == 0 and r.state.set_aside_paid == 6
    view = RACE_GAME.view(r.state)
    assert view["vp_pool"] == 0 and view["vp_set_aside_paid"] == 6
    assert any("6 VP" in f.what and "set aside" in f.what for f in r.findings if f.severity is Severity.INFO)
    assert r.state.player("Ann").vp_chips == 30 and r.state.ending
    # in Consume, after consuming a good (Alpha Centauri's windfall good, Old Earth's consume power): no warning
    ok = race_run(race_setup(ann="Alpha Centauri").round(Ann="consume_x2", Bob="produce")
                  ("good_removed", player="Ann", world="Alpha Centauri")("vp_changed", player="Ann", delta=3))
    assert not [f for f in ok.findings if f.severity is not Severity.INFO]
    assert ok.state.pool == 21


CHIPS_WITHOUT_GOODS = "no good of theirs was consumed in it"


def asked(log) -> list:
    return [f for f in race_run(log).findings if CHIPS_WITHOUT_GOODS in f.what]


def test_vp_chips_with_no_good_consumed_in_consume_are_questioned_at_the_phases_end():
    """IV Consume: VP chips are what consume powers give for the goods they consume (or, Deficit Spending and Merchant
    World, for cards discarded from hand). 14 chips taken with no good consumed are a question (a warning, nothing
    refused) naming the rule, asked when the phase is over; a good consumed in the phase, or a power that pays for
    cards from hand, leaves it unasked, and a new Consume phase asks again."""
    log = race_setup(ann="Alpha Centauri").round(Ann="consume_trade", Bob="produce")("vp_changed", player="Ann",
                                                                                      delta=14)
    assert asked(log) == []  # the good may still be reported
    result = race_run(log.done())
    [question] = [f for f in result.findings if CHIPS_WITHOUT_GOODS in f.what]
    assert question.what == ("Ann took 14 VP in chips in IV Consume and no good of theirs was consumed in it: which "
                             "consume power paid them?")
    assert question.severity is Severity.WARNING and question.seq == len(log.events)  # with the phase's end
    assert question.rule == ("Race for the Galaxy, Consume phase: VP chips come from consume powers (goods, or cards "
                             "from hand as Deficit Spending)")
    assert result.state.player("Ann").vp_chips == 14  # taken as reported
    consumed = race_setup(ann="Alpha Centauri").round(Ann="consume_trade", Bob="produce")
    consumed("good_removed", player="Ann", world="Alpha Centauri")("vp_changed", player="Ann", delta=2).done()
    assert asked(consumed) == []
    # the good counts in its own Consume phase only: the next round's chips with nothing consumed are asked about
    consumed.done()("round_ended").round(Ann="consume_x2", Bob="produce")("vp_changed", player="Ann", delta=2).done()
    assert len(asked(consumed)) == 1
    # Deficit Spending (placed in Develop, before this Consume phase) pays VP for cards from hand: not asked
    spending = race_setup().round(Ann="develop", Bob="consume_trade")("card_placed", player="Ann",
                                                                       card="Deficit Spending").done()
    spending("vp_changed", player="Ann", delta=2).done()
    assert asked(spending) == []


def test_vp_chips_reported_before_the_good_they_came_from_are_not_questioned():
    """Each phone reports on its own: Ann's phone reports her 2 VP chips, then the good Old Earth consumed for them
    (Race for the Galaxy, IV Consume: Alpha Centauri's windfall good). The chips were questioned as soon as they were
    reported, before the good came in; the question waits for the phase's end, when every report of it is in, and the
    order the phones reported in no longer matters. Bob, who consumed nothing, is still asked about his."""
    log = race_setup(ann="Alpha Centauri").round(Ann="consume_trade", Bob="consume_x2")
    log("vp_changed", player="Ann", delta=2)("vp_changed", player="Bob", delta=3)
    log("good_removed", player="Ann", world="Alpha Centauri")
    assert asked(log) == []
    [question] = asked(log.done())
    assert question.what.startswith("Bob took 3 VP in chips in IV Consume")


def test_a_good_consumed_and_the_chips_it_gave_count_once_in_either_order():
    """IV Consume: "rewards are VP chips from the pool" (digest, IV Consume): the box pays nothing for a good consumed
    (``good_removed`` only empties the world, as consume powers vary), so the chips the player reports are the chips,
    counted once, whichever the phone reports first (Roll's Ship, whose shipment pays its own chips, counts a report
    of the same chips once too). Ann consumes Alpha Centauri's good and reports 2 VP chips; Bob reports 1 VP chip and
    then the good his power consumed for it. 2 players: the pool holds 2 x 12 = 24 VP (digest, setup 1), 21 after."""
    log = race_setup(ann="Alpha Centauri", bob="Alpha Centauri").round(Ann="consume_trade", Bob="consume_x2")
    log("good_removed", player="Ann", world="Alpha Centauri")("vp_changed", player="Ann", delta=2)
    log("vp_changed", player="Bob", delta=1)("good_removed", player="Bob", world="Alpha Centauri")
    result = race_run(log.done())
    assert [result.state.player(name).vp_chips for name in ("Ann", "Bob")] == [2, 1]
    assert result.state.pool == 24 - 3


def test_more_chips_than_the_box_holds_is_a_warning():
    # 2 players: 24 in the pool, 88 - 24 = 64 set aside; 24 + 64 = 88 is fine, 89 is not.
    log = race_setup().round(Ann="consume_x2", Bob="produce")("vp_changed", player="Ann", delta=88)
    assert not [f for f in race_run(log).findings if "box holds" in f.what]
    log("vp_changed", player="Bob", delta=1)
    assert [f for f in race_run(log).findings if "box holds" in f.what and f.severity is Severity.WARNING]


def test_a_second_pick_before_the_reveal_replaces_the_first_and_is_visible():
    # Digest §3: each player secretly picks one card, face down, until all reveal: a
    # changed mind before the reveal counts (the last pick), but it is shown as INFO.
    log = race_setup()("action_chosen", player="Ann",
                       actions="develop")("action_chosen", player="Ann", actions="settle")
    r = race_run(log)
    infos = [f for f in r.findings if f.severity is Severity.INFO and "chose again" in f.what]
    assert infos and infos[0].where == "Ann" and "develop" not in infos[0].what and "settle" not in infos[0].what
    r = race_run(log("action_chosen", player="Bob", actions="produce"))
    assert r.state.player("Ann").actions == ("settle",)
