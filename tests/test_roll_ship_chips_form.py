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
    assert note(roll, "Ann") == ("So far in V Ship: 2 VP in chips counted for you, paid by the goods you consumed "
                                 "(Good shipped). Report the phase's total, those included: 2 + the chips you took "
                                 "besides.")
    assert note(roll, "Bob") is None
    # a power paid Ann 3 more chips: she reports the phase's 5
    roll.report("Ann", "vp", {"vp": 5})
    assert chips(roll) == {"Ann": 5, "Bob": 0} and roll.engine_view()["vp_pool"] == 24 - 5  # 2 players: 24 (p.2)
    assert note(roll, "Ann") == ("So far in V Ship: 5 VP in chips counted for you: you reported 5 and your consumed "
                                 "goods paid 2, taken as the same chips as far as they go. Report the phase's total: "
                                 "every chip you took in V Ship, those of a good consumed after your report included.")


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
                                  "Ship; there the number is the phase's total, the chips of the goods you consumed "
                                  "included: report 2 + the chips you took besides (p.7 Ship)")
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


def _once(flow, player: str) -> list[str]:
    return [f["what"] for f in flow.findings(limit=None)
            if f["what"].startswith((player + ": the ", player + ": a good consumed"))]


def test_chips_reported_before_a_consume_get_its_chips_by_a_new_total(store):
    """Ann takes 5 VP chips from a power and reports 5, then ships her brown good from Alpha Centauri with a white
    shipper to consume it (p.7 Ship: 1 + 1 for the good's colour = 2 VP). The box cannot know whether her 5 held
    those 2: it counts them within the 5 (never twice), says so and names the total to report if they were not
    among them, 7; the form says a good consumed after her report counts within it. She reports 7: 7 chips, the
    2-player pool of 24 (p.2 Setup) keeps 17, and no chip is lost."""
    roll = roll_at_ship(store)
    roll.report("Ann", "vp", {"vp": 5})
    assert note(roll, "Ann") == ("So far in V Ship: 5 VP in chips counted for you, as you reported. Report the "
                                 "phase's total: every chip you took in V Ship, those of a good consumed after your "
                                 "report included.")
    roll.report("Ann", "ship", CONSUME)
    assert chips(roll)["Ann"] == 5
    assert _once(roll, "Ann") == ["Ann: the 2 VP in chips a good consumed paid in V Ship are counted within the 5 VP "
                                  "in chips reported before it; if they were not among those, report the phase's "
                                  "total in VP chips taken: 7"]
    roll.report("Ann", "vp", {"vp": 7})
    assert chips(roll) == {"Ann": 7, "Bob": 0} and roll.engine_view()["vp_pool"] == 24 - 7


def test_one_chip_reported_before_a_consume_of_two_is_not_lost(store):
    """Ann reports 1 chip from a power, then her Consume pays 2: the box counts 2 (the 1 taken as one of them) and
    says to report 3 if it was not. A total of 2 keeps 2, 1 is refused (below the 2 counted), and 3 gives 3."""
    roll = roll_at_ship(store)
    roll.report("Ann", "vp", {"vp": 1})
    roll.report("Ann", "ship", CONSUME)
    assert chips(roll)["Ann"] == 2
    assert _once(roll, "Ann") == ["Ann: a good consumed in V Ship paid 2 VP in chips: 1 counted within the 1 VP in "
                                  "chips reported before it, 1 taken now; if none of them were among those, report "
                                  "the phase's total in VP chips taken: 3"]
    roll.report("Ann", "vp", {"vp": 2})  # "the phase's total is 2": her 1 was one of the Consume's chips
    assert chips(roll)["Ann"] == 2
    with pytest.raises(BadEntry, match="1 is not more than the 2 VP in chips"):
        roll.report("Ann", "vp", {"vp": 1})
    roll.report("Ann", "vp", {"vp": 3})  # she took 1 from a power besides: the total is 3
    assert chips(roll)["Ann"] == 3


@pytest.mark.parametrize("said", [0, 71, "0", -1])
def test_a_number_out_of_range_is_refused_in_the_words_of_a_number_not_typed(store, said):
    """0, 71 and -1 chips get the same sentence as a value that is no number at all (p.2 Setup: 12 VP a player, 5
    players at most, and 10 set aside: 70)."""
    roll = roll_at_ship(store)
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "vp", {"vp": said})
    assert str(refused.value) == f"VP must be a whole number from 1 to 70, got {int(said)}"
    with pytest.raises(BadEntry) as typed:
        roll.report("Ann", "vp", {"vp": "many"})
    assert str(typed.value) == "VP must be a whole number from 1 to 70, got 'many'"


@pytest.mark.parametrize("lang, said", [
    ("el", "ΠΝ: πρέπει να είναι ακέραιος από 1 έως 70, δόθηκε 71"),
    ("pl", "Pole „PZ” musi zawierać liczbę całkowitą od 1 do 70, podano 71"),
    ("hu", "GYP: egész számnak kell lennie, 1 és 70 között; kapott érték: 71"),
])
def test_a_number_out_of_range_is_refused_saying_the_range_as_a_must_in_each_language(store, lang, said):
    """71 chips is more than the 5 x 12 + 10 a report may hold: refused with the range as a requirement ("must"; the
    Hungarian said "may be a whole number"), nothing recorded."""
    roll = roll_at_ship(store)
    before = roll.session.last_seq
    with pytest.raises(BadEntry) as refused:
        roll.report("Ann", "vp", {"vp": 71})
    assert i18n.localize(refused.value.args[0], lang) == said
    assert roll.session.last_seq == before
