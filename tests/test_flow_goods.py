"""The goods forms' shared shape (companion.flow_goods): Race's Good placed / Good consumed or sold and Roll's Good
placed / Good shipped list a player's worlds with room for a good and with a good on them the same way, and say the
same things they said when each game worked the lists out by itself."""

from __future__ import annotations

import pytest

from companion.flow_forms import Form
from companion.flow_spec import GoodsWords, GoodsWorld, goods_choices
from companion.flows import FLOWS
from companion.i18n import Text

PLACE, TAKE = Form("good", "Good placed"), Form("ship", "Good shipped")
WORDS = GoodsWords(no_world="no world", all_full="all full", none_on="none on",
                   full=lambda w: f"{w.name} full at {w.goods}", empty=lambda w: f"{w.name} empty")


def test_worlds_with_room_and_with_a_good_each_listed_in_the_order_given():
    """Three worlds: one empty, one with a good and room for one more (a world of 2), one full."""
    worlds = [GoodsWorld("Spice World", 0, 1), GoodsWorld("Gem World", 1, 2), GoodsWorld("Alpha Centauri", 1, 1)]
    got = goods_choices(worlds, PLACE, TAKE, "world", WORDS)
    assert got == {
        "good": {"world": {"choices": ["Spice World", "Gem World"], "none": "all full",
                           "why": {"Alpha Centauri": "Good placed: Alpha Centauri full at 1"}}},
        "ship": {"world": {"choices": ["Gem World", "Alpha Centauri"], "none": "none on",
                           "why": {"Spice World": "Good shipped: Spice World empty"}}},
    }


def test_no_world_that_holds_goods_says_so_in_both_forms():
    got = goods_choices([], PLACE, TAKE, "world", WORDS)
    assert got == {"good": {"world": {"choices": [], "none": "no world"}},
                   "ship": {"world": {"choices": [], "none": "no world"}}}


@pytest.mark.parametrize("goods, room", [(-1, 1), (0, 0)])
def test_a_world_with_goods_below_none_or_no_room_is_refused_naming_it(goods, room):
    with pytest.raises(ValueError, match="'Gem World'.*goods -?[0-9], room [0-9]"):
        GoodsWorld("Gem World", goods, room)


def test_roll_with_galactic_reserves_offers_a_world_holding_one_good():
    """Roll for the Galaxy, p.7 Produce: a world holds 1 good, 2 with Galactic Reserves. Ann owns Galactic Reserves:
    Spice World with 1 good has room, Alpha Centauri with 2 is full (a third would make 3); both can be shipped from,
    her Old Earth is gray and never listed."""
    view = {"players": [{"name": "Ann", "worlds": ["Old Earth", "Spice World", "Alpha Centauri"],
                         "developments": ["Galactic Reserves"],
                         "goods": {"Spice World": ["blue"], "Alpha Centauri": ["brown", "white"]}}]}
    got = FLOWS["roll"].choices_now(view, None, "Ann")
    assert got["good"]["world"]["choices"] == ["Spice World"]
    assert str(got["good"]["world"]["why"]["Alpha Centauri"]) == ("Good placed: 3 goods on Alpha Centauri: a world "
                                                                  "holds 2 with Galactic Reserves")
    assert got["ship"]["world"]["choices"] == ["Alpha Centauri", "Spice World"] and got["ship"]["world"]["why"] == {}


def test_race_a_tableau_of_worlds_and_developments_lists_only_goods_worlds():
    """Race for the Galaxy, three uses of a card: goods lie on production and windfall worlds. Bob's tableau: Old Earth
    (no goods), Gem World (production, empty), Alpha Centauri (windfall, its good on it), Contact Specialist (a
    development)."""
    tableau = [{"card": "Old Earth", "goods": 0}, {"card": "Gem World", "goods": 0},
               {"card": "Alpha Centauri", "goods": 1}, {"card": "Contact Specialist", "goods": 0}]
    view = {"players": [{"name": "Bob", "tableau": tableau}]}
    got = FLOWS["race"].choices_now(view, None, "Bob")
    good, consumed = got["good"]["world"], got["consumed"]["world"]
    assert good["choices"] == ["Gem World"] and consumed["choices"] == ["Alpha Centauri"]
    assert str(good["why"]["Alpha Centauri"]) == ("Good placed: Alpha Centauri already holds a good; a world holds at "
                                                  "most one")
    assert str(consumed["why"]["Gem World"]) == ("Good consumed or sold: no good lies on Gem World in Bob's "
                                                 "tableau")
    assert isinstance(consumed["none"], Text)


@pytest.mark.parametrize("game", ["race", "roll"])
def test_a_player_not_at_the_table_is_offered_nothing_narrowed(game):
    assert FLOWS[game].choices_now({"players": [{"name": "Ann"}]}, None, "Zoe") == {}
