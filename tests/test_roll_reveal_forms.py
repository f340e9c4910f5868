"""Roll for the Galaxy during Reveal: the phase forms are closed, saying the phase they open in.

Rulebook p.4 (the digest's §4 Round structure): a round is Roll, Assign, Reveal, then the selected phases in order
I-V and Manage Empire. Reveal only turns the phase tiles over: a tile is built in II Develop or III Settle (p.5-6), a
good placed in IV Produce and shipped in V Ship (p.7), so none of them can happen during Reveal. A report made then
is refused with the phase it belongs to, and nothing is recorded; VP chips and credits (counts a player holds) stay
open."""

from __future__ import annotations

import pytest

from companion.errors import MovedOn
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.roll import ROLL_GAME


def roll_at_reveal(store) -> GameFlow:
    """Ann (faction 3 on Alpha Centauri) and Bob (faction 1 on Old Earth) both selected Ship; the table is at Reveal."""
    roll = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    for player, faction, home in (("Ann", 3, "Alpha Centauri"), ("Bob", 1, "Old Earth")):
        roll.report(player, "setup", {"faction": " / ".join(ROLL_GAME.cat.faction(faction).names),
                                      "home_world": home, "development": "Investment Credits", "world": "Gem World"})
    roll.report("Ann", "select", {"phase": "ship"})
    roll.report("Bob", "select", {"phase": "ship"})
    roll.next_phase()  # Reveal
    return roll


def test_reveal_offers_only_vp_chips_and_credits(store):
    roll = roll_at_reveal(store)
    assert roll.view()["open_forms"]["Ann"] == ["vp", "credits"]


@pytest.mark.parametrize(("form", "values", "phases"), [
    ("tile", {"tile": "Gem World"}, "II Develop or III Settle"),
    ("good", {"world": "Alpha Centauri", "colour": "brown"}, "IV Produce"),
    ("ship", {"world": "Alpha Centauri", "mode": "consume", "good": "brown", "shipper": "white"}, "V Ship"),
])
def test_a_phase_report_during_reveal_is_refused_naming_its_phase(store, form, values, phases):
    roll = roll_at_reveal(store)
    before = roll.session.last_seq
    with pytest.raises(MovedOn) as refused:
        roll.report("Ann", form, values)
    label = {"tile": "Tile built", "good": "Good placed", "ship": "Good shipped"}[form]
    assert str(refused.value) == (f"{label} opens in {phases}: Reveal only turns the phase tiles over, and nothing is "
                                  "built, produced or shipped before the selected phases run in order I-V (p.4 "
                                  "Reveal, Phases)")
    assert roll.session.last_seq == before  # nothing recorded


def test_the_forms_open_again_in_the_phase(store):
    roll = roll_at_reveal(store)
    roll.next_phase()  # V Ship
    assert roll.view()["open_forms"]["Ann"] == ["tile", "good", "ship", "vp", "credits"]
