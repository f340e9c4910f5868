"""Roll for the Galaxy's VP chips taken in V Ship: the number is every chip taken in the phase, those its Consumes paid
included, and the form says how many are counted already (found at the table: after a Consume had paid 3, a player
who meant "30 more" and typed 30 got 27; the hint said the same chips count once, not which number to type).

Rulebook p.7 Ship (the digest's §5 V Ship): Consume gives 1 VP always, +1 if the good's die colour matches the world, +1
if the shipper's does. Ann's brown good on Alpha Centauri (a brown world) shipped by a white die: 1 + 1 = 2 VP."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_flow_rules import roll_at_ship

CONSUME = {"world": "Alpha Centauri", "mode": "consume", "good": "brown", "shipper": "white"}


def chips(flow) -> dict[str, int]:
    return {p["name"]: p["vp_chips"] for p in flow.engine_view()["players"]}


def note(flow, player: str) -> str | None:
    return flow.view()["form_notes"][player].get("vp")


def test_after_a_consume_the_form_names_its_chips_and_asks_for_the_phases_total(store):
    roll = roll_at_ship(store)
    assert note(roll, "Ann") is None  # nothing counted yet
    roll.report("Ann", "ship", CONSUME)
    assert chips(roll) == {"Ann": 2, "Bob": 0}
    assert note(roll, "Ann") == ("So far in V Ship: 2 VP in chips counted for you (a good consumed pays its chips by "
                                 "itself). Report the phase's total: 2 + the chips you took more.")
    assert note(roll, "Bob") is None
    # a power paid Ann 3 more chips: she reports the phase's 5
    roll.report("Ann", "vp", {"vp": 5})
    assert chips(roll) == {"Ann": 5, "Bob": 0} and roll.engine_view()["vp_pool"] == 24 - 5  # 2 players: 24 (p.2)
    assert "5 VP in chips counted for you" in note(roll, "Ann")


def test_thirty_more_after_a_consume_is_reported_as_the_total(store):
    """Ann's Consume paid 2 and a power paid her 30 more: she reports 32 and has 32 chips, not 30 (2 players: 24 VP in
    the pool and 10 set aside, p.2 Setup; the set-aside chips pay once the pool runs out, p.7 Ship)."""
    roll = roll_at_ship(store)
    roll.report("Ann", "ship", CONSUME)
    roll.report("Ann", "vp", {"vp": 32})
    assert chips(roll)["Ann"] == 32


def test_a_number_below_what_the_consume_paid_is_refused_naming_both(store):
    """Ann meant "1 more" and typed 1: refused with 1 and 2, nothing recorded; her chips stay 2."""
    roll = roll_at_ship(store)
    roll.report("Ann", "ship", CONSUME)
    before = roll.session.last_seq
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "vp", {"vp": 1})
    assert str(refused.value) == ("VP chips taken: 1 is not more than the 2 VP in chips already counted for you in V "
                                  "Ship: report the phase's total (2 + the chips you took more)")
    assert roll.session.last_seq == before and chips(roll)["Ann"] == 2


def test_the_consumes_own_chips_reported_are_counted_once(store):
    """Ann reports the 2 her Consume paid: recorded, counted once (2 chips, not 4)."""
    roll = roll_at_ship(store)
    roll.report("Ann", "ship", CONSUME)
    roll.report("Ann", "vp", {"vp": 2})
    assert chips(roll)["Ann"] == 2


def test_a_second_report_in_the_phase_is_its_new_total(store):
    """Ann reports 3 chips before shipping (she took them as her shipper consumed: 2, and 1 from a power), then
    ships (the same 2: counted once), then takes 2 more: she reports 5, the phase's total; 3 again is refused."""
    roll = roll_at_ship(store)
    roll.report("Ann", "vp", {"vp": 3})
    roll.report("Ann", "ship", CONSUME)
    assert chips(roll)["Ann"] == 3
    with pytest.raises(BadEntry, match="3 is not more than the 3 VP in chips"):
        roll.report("Ann", "vp", {"vp": 3})
    roll.report("Ann", "vp", {"vp": 5})
    assert chips(roll)["Ann"] == 5


def test_outside_ship_the_number_is_the_chips_taken_now(store):
    """After Ship the phase's count starts again: Manage Empire, 1 chip reported is 1 more, and the form says
    nothing more."""
    roll = roll_at_ship(store)
    roll.report("Ann", "ship", CONSUME)
    roll.next_phase()  # Manage Empire
    assert note(roll, "Ann") is None
    roll.report("Ann", "vp", {"vp": 1})
    assert chips(roll)["Ann"] == 3


@pytest.mark.parametrize("lang, phase", [("el", "V Αποστολή"), ("pl", "V Transport"), ("hu", "V Szállítás")])
def test_the_note_and_the_refusal_are_said_in_each_language(store, lang, phase):
    roll = roll_at_ship(store)
    roll.report("Ann", "ship", CONSUME)
    said = i18n.localize(roll.view()["form_notes"]["Ann"]["vp"], lang)
    assert phase in said and "2 + " in said and "VP" not in said, said
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "vp", {"vp": 1})
    said = i18n.localize(refused.value.args[0], lang)
    assert phase in said and " 1 " in said and "2 + " in said and "VP" not in said, said
