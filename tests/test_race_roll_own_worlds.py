"""The Good placed / shipped / consumed forms of Roll and Race for the Galaxy offer the reporting player's own worlds
that hold goods, not every world of the game (59 in Race's deck, 62 in Roll's list): found at the table, where a
player scrolled past every world to find their one, and a tap on a neighbour's world was recorded as an error."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.roll.data import catalogue as roll_catalogue


def start(store, game: str, players: str = "Ann,Bob") -> GameFlow:
    spec = FLOWS[game]
    return GameFlow(store.start(game, spec.settings(parse_players(players), {})), spec)


def faction_label(number: int) -> str:
    return " / ".join(roll_catalogue().faction(number).names)


def left(flow: GameFlow, player: str, form: str) -> dict:
    return flow.view()["choices_now"][player][form]["world"]


def test_roll_offers_each_player_their_own_worlds_that_hold_goods(store):
    """Roll for the Galaxy, p.7 Produce: a good goes on one of your non-gray worlds. Ann starts with Hidden Fortress
    (faction 1) and Old Earth, both gray: nothing to offer, and the form says why. Bob's Alpha Centauri is brown. Once
    Ann builds Spice World (blue) it is hers to offer; Bob's world is refused on her phone, nothing recorded."""
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert left(flow, "Ann", "good")["choices"] == [] and left(flow, "Ann", "ship")["choices"] == []
    assert "gray worlds hold none" in str(left(flow, "Ann", "good")["none"])
    assert left(flow, "Bob", "good")["choices"] == ["Alpha Centauri"]
    assert left(flow, "Bob", "ship")["choices"] == ["Alpha Centauri"]
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "produce"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # III Settle
    flow.report("Ann", "tile", {"tile": "Spice World"})
    assert left(flow, "Ann", "good")["choices"] == ["Spice World"]
    flow.next_phase()  # IV Produce
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "good", {"world": "Alpha Centauri", "colour": "white"})
    assert str(refused.value) == ("Good placed: Alpha Centauri is not in Ann's tableau, or holds no goods: goods lie "
                                  "only on your own non-gray worlds (p.7 Produce)")
    assert flow.session.last_seq == before
    flow.report("Ann", "good", {"world": "Spice World", "colour": "white"})
    assert next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")["goods"] == {"Spice World": ["white"]}


def test_race_offers_each_player_their_own_worlds_that_hold_goods(store):
    """Race for the Galaxy, three uses of a card: a good is a card face down on a world of your tableau, a production
    or a windfall world. Ann's Old Earth holds none; Bob's Alpha Centauri is a windfall world. Ann places Gem World
    (production) and Contact Specialist (a development): she is offered Gem World alone."""
    flow = start(store, "race")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Alpha Centauri"})
    assert left(flow, "Ann", "good")["choices"] == [] and left(flow, "Ann", "consumed")["choices"] == []
    assert "only production and windfall worlds" in str(left(flow, "Ann", "good")["none"])
    assert left(flow, "Bob", "consumed")["choices"] == ["Alpha Centauri"]
    flow.report("Ann", "select", {"action": "Settle"})
    flow.report("Bob", "select", {"action": "Develop"})
    flow.report("Ann", "card", {"card": "Contact Specialist"})  # II Develop
    flow.next_phase()
    flow.report("Ann", "card", {"card": "Gem World"})  # III Settle
    assert left(flow, "Ann", "good")["choices"] == ["Gem World"]
    assert left(flow, "Ann", "consumed")["choices"] == ["Gem World"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "consumed", {"world": "Alpha Centauri"})
    assert "Alpha Centauri is not in Ann's tableau, or holds no goods" in str(refused.value)
    assert flow.session.last_seq == before


@pytest.mark.parametrize("lang, words", [
    ("el", ("Alpha Centauri", "Ann", "σ.7")),
    ("pl", ("Alpha Centauri", "Ann", "s. 7")),
    ("hu", ("Alpha Centauri", "Ann", "7. o.")),
])
def test_the_refusal_and_the_empty_list_are_said_in_each_language(store, lang, words):
    """The phone's language says the refusal with the world, the player and the page (the Greek rulebook cites pages
    as σ.N, the box's Polish as "s. N", its Hungarian as "N. o.")."""
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    form = next(f for f in FLOWS["roll"].forms(flow.engine_view()) if f.id == "good")
    said = i18n.localize(FLOWS["roll"].outside_choices(form, "world", "Alpha Centauri", "Ann"), lang)
    assert "Alpha Centauri" in said and "Ann" in said and any(w in said for w in words[2:]), said
    assert "holds goods" not in said and "gray" not in said, said
    none = i18n.localize(left(flow, "Ann", "good")["none"], lang)
    assert none and "gray" not in none, none
