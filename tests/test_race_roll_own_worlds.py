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
    # Alpha Centauri starts with a brown good (tiles.json) and holds 1 without Galactic Reserves: it is full
    assert left(flow, "Bob", "good")["choices"] == []
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
    assert left(flow, "Ann", "consumed")["choices"] == []  # a production world placed holds no good yet
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


def test_race_a_good_goes_on_a_world_with_none_and_is_consumed_from_one_with_one(store):
    """Race for the Galaxy, Produce phase: a world holds at most one good; Consume phase: a good is consumed from a
    world it lies on. Bob's start world Alpha Centauri is a windfall world and gets its good when placed: his Good
    placed offers nothing (the form says why) and his Consume offers Alpha Centauri. Ann places Gem World (no good
    yet): Good placed offers it, Consume nothing. Each phone's other goods world sent all the same is refused with
    the rule and nothing is recorded; once Ann's good lies on Gem World, the lists swap."""
    flow = start(store, "race")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Alpha Centauri"})
    assert left(flow, "Bob", "good") == {"choices": [], "none": "every world of yours that holds goods has one "
                                         "already: a world holds at most one (Race for the Galaxy, Produce phase)"}
    assert "why" not in left(flow, "Bob", "consumed") and left(flow, "Bob", "consumed")["choices"] == ["Alpha Centauri"]
    flow.report("Ann", "select", {"action": "Settle"})
    flow.report("Bob", "select", {"action": "Produce"})
    flow.report("Ann", "card", {"card": "Gem World"})  # III Settle
    flow.next_phase()  # V Produce
    assert left(flow, "Ann", "consumed") == {"choices": [], "none": "no good lies on a world of yours (Race for the "
                                             "Galaxy, Consume phase)"}
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as full:
        flow.report("Bob", "good", {"world": "Alpha Centauri"})
    assert str(full.value) == "Good placed: Alpha Centauri already holds a good; a world holds at most one"
    with pytest.raises(BadEntry) as empty:
        flow.report("Ann", "consumed", {"world": "Gem World"})
    assert str(empty.value).endswith(": no good lies on Gem World in Ann's tableau")
    assert flow.session.last_seq == before
    flow.report("Ann", "good", {"world": "Gem World"})
    assert left(flow, "Ann", "good")["choices"] == [] and left(flow, "Ann", "consumed")["choices"] == ["Gem World"]


def test_roll_a_good_goes_on_a_world_with_room_and_is_shipped_from_one_with_a_good(store):
    """Roll for the Galaxy, p.7 Produce: a world holds 1 good (2 with Galactic Reserves); p.7 Ship: a good is shipped
    from a world it lies on. Bob's Alpha Centauri starts with a brown good (tiles.json): full, so Good placed offers
    nothing (the form says why) and a report on it is refused with the rule ("2 goods on Alpha Centauri"), nothing
    recorded. Ann's Spice World, built in Settle, holds none: Good shipped offers nothing; sent all the same, it is
    refused naming the world."""
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert left(flow, "Bob", "good") == {"choices": [], "none": "every world of yours that holds goods is full: a "
                                         "world holds 1 good, 2 with Galactic Reserves (p.7 Produce)"}
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "produce"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # III Settle
    flow.report("Ann", "tile", {"tile": "Spice World"})
    assert left(flow, "Ann", "ship") == {"choices": [], "none": "none of your worlds holds a good to ship (p.7 Ship)"}
    flow.next_phase()  # IV Produce
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as full:
        flow.report("Bob", "good", {"world": "Alpha Centauri", "colour": "white"})
    assert str(full.value) == ("Good placed: 2 goods on Alpha Centauri: a world holds 1 without Galactic "
                               "Reserves")
    with pytest.raises(BadEntry) as empty:
        flow.report("Ann", "ship", {"world": "Spice World", "mode": "trade", "good": "white", "shipper": "white"})
    assert str(empty.value) == "Good shipped: Spice World holds no good to ship (p.7 Ship)"
    assert flow.session.last_seq == before


@pytest.mark.parametrize("lang, none, why", [
    ("el", "κάθε κόσμος σας που κρατά προϊόντα είναι γεμάτος: ένας κόσμος κρατά 1 προϊόν, 2 με Galactic "
           "Reserves (σ.7 Παραγωγή)", "στον Spice World δεν υπάρχει προϊόν για αποστολή (σ.7 Αποστολή)"),
    ("pl", "każdy twój świat, który może mieć towary, jest pełny: świat ma 1 towar, 2 z Galactic Reserves "
           "(s. 7 Produkcja)", "na świecie Spice World nie ma towaru do wysłania (s. 7 Transport)"),
    ("hu", "minden világod, amelyen lehet áru, megtelt: egy világon 1 áru lehet, a Galactic Reserves-szel 2 "
           "(7. o. Termelés)", "ezen nincs elszállítható áru: Spice World (7. o. Szállítás)"),
])
def test_full_and_empty_worlds_are_said_in_each_language(store, lang, none, why):
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert i18n.localize(left(flow, "Bob", "good")["none"], lang) == none
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "produce"})
    flow.next_phase()
    flow.next_phase()
    flow.report("Ann", "tile", {"tile": "Spice World"})
    flow.next_phase()
    with pytest.raises(BadEntry) as empty:
        flow.report("Ann", "ship", {"world": "Spice World", "mode": "trade", "good": "white", "shipper": "white"})
    assert i18n.localize(empty.value.args[0], lang).endswith(": " + why)
