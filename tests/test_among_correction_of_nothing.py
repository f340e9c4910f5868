"""Among the Stars: a credits or VP track correction of 0 ("-0" as a phone's JSON may send it) would be an event that
changes nothing: it is refused, saying so in the player's language, and the game's record is left as it was."""

import json

import pytest

from companion.errors import BadEntry
from companion.i18n import say
from tests.test_flow import start


def _credits_and_vp(flow) -> list[tuple[str, int, int]]:
    return [(p["name"], p["credits"], p["vp"]) for p in flow.view()["players"]]


@pytest.mark.parametrize("form", ["credits", "vp"])
@pytest.mark.parametrize("delta", [0, json.loads("-0"), "-0"])
def test_a_correction_of_nothing_is_refused_and_nothing_is_recorded(store, form, delta):
    flow = start(store, "among", "Ann,Bob")
    before, seq = _credits_and_vp(flow), flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Bob", form, {"delta": delta})
    assert flow.session.last_seq == seq, "no event recorded"
    assert _credits_and_vp(flow) == before
    assert say(refused.value, "en") == ("a correction of 0 changes nothing, so nothing is recorded: enter how many to "
                                        "add (3) or to take away (-3)")
    assert say(refused.value, "pl") == ("korekta o 0 niczego nie zmienia, więc nic nie zostało zapisane: wpisz, ile "
                                        "dodać (3) albo odjąć (-3)")
    assert say(refused.value, "el").startswith("μια διόρθωση κατά 0 δεν αλλάζει τίποτα")
    assert say(refused.value, "hu").startswith("a 0-s javítás semmin sem változtat")


def test_a_correction_that_changes_something_is_still_recorded(store):
    """Every player takes 10 credits at the start of a year (Among the Stars, 3 "Year and round structure") and has
    0 VP: -3 credits leaves 7, +2 VP makes 2."""
    flow = start(store, "among", "Ann,Bob")
    seq = flow.session.last_seq
    flow.report("Bob", "credits", {"delta": -3})
    flow.report("Bob", "vp", {"delta": 2})
    assert flow.session.last_seq == seq + 2
    assert dict((name, (credits, vp)) for name, credits, vp in _credits_and_vp(flow))["Bob"] == (7, 2)
