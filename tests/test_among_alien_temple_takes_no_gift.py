"""Among the Stars: the Embassy Offices' choice (you +2 VP, a chosen other player +1 VP) belongs to that card alone;
the Alien Temple asks for no player (it scores at the end, +1 VP per green location, max +5). Building the Alien
Temple with the Embassy Offices' player set to the builder was refused as "Embassy Offices: ... you cannot choose
yourself": now it says the field is to be left empty for the Alien Temple, in the player's language."""

import pytest

from companion.errors import BadEntry
from companion.i18n import say
from tests.test_flow import start


@pytest.mark.parametrize("gift_to", ["Ann", "Bob"])
@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Embassy Offices: the player who gains 1 VP: leave it empty when you build Alien Temple"),
    ("pl", "Embassy Offices: gracz, który zyskuje 1 PZ: zostaw puste, gdy budujesz Alien Temple"),
    ("hu", "Embassy Offices: a játékos, aki 1 GYP-t kap: hagyd üresen, ha az Alien Temple lapot építed"),
    ("el", "Embassy Offices: ο παίκτης που κερδίζει 1 ΠΝ: αφήστε το κενό όταν χτίζετε Alien Temple"),
])
def test_the_alien_temple_with_an_embassy_gift_says_to_leave_it_empty(store, gift_to, lang, said):
    flow = start(store, "among", "Ann,Bob,Cy")
    seq = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Alien Temple", "cell": [1, 0], "gift_to": gift_to})
    assert say(refused.value, lang) == said
    assert "yourself" not in say(refused.value, "en")
    assert flow.session.last_seq == seq, "nothing recorded"


def test_the_embassy_offices_still_refuses_its_builder(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Embassy Offices", "cell": [1, 0], "gift_to": "Ann"})
    assert say(refused.value, "en") == ("Location built: Embassy Offices: the player who gains 1 VP: you cannot choose "
                                        "yourself (Ann); choose another player: Bob, Cy")


def test_the_alien_temple_without_a_gift_is_built(store):
    """Alien Temple: cost 3 credits, 0 printed VP (its VP come at the end): Ann 10 - 3 = 7 credits, 0 VP."""
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Ann", "location", {"card": "Alien Temple", "cell": [1, 0]})
    ann = next(p for p in flow.view()["players"] if p["name"] == "Ann")
    assert (ann["credits"], ann["vp"]) == (7, 0)
