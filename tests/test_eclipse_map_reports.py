"""Eclipse map reports that cannot be legal placements are refused before anything is recorded
(``companion.flows.eclipse_map``), and a starting sector is said as laid at setup.

Eclipse rulebook, Explore action: the new hex goes on an empty space next to a hex where the player has a disc or a
ship; Setup: each player lays their starting sector on an empty start position (2 players: ring II, as in
``tests/test_eclipse_flow.py``: 221 Procyon at [0, -2], 232 Rigel at [0, 2]).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.test_eclipse_flow import start


def _set_up(store):
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232 Rigel", "hex": [0, 2], "rotation": 0})
    return flow


def _laid(flow) -> dict[str, tuple[int, int]]:
    return {h["sector"]: (h["q"], h["r"]) for h in flow.engine_view()["map"]}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_tile_explored_onto_a_laid_hex_is_refused_with_the_reason_and_nothing_recorded(store, lang):
    """Ann explores 103 Beta Leonis onto [0, 2], Bob's 232 Rigel: it cannot lie there (Explore: an empty space), as
    a tile already on the map cannot be laid again. Before, it was recorded with an error finding an Undo had to take
    back; now it is refused, naming the space, the tile on it and the rule, and the log and the map are unchanged.
    The Galactic Center at [0, 0] is a laid hex too."""
    flow = _set_up(store)
    before = flow.session.last_seq
    for cell, there in (([0, 2], "232 Rigel"), ([0, 0], "001")):
        with pytest.raises(BadEntry) as refused:
            flow.report("Ann", "explore", {"sector": "103 Beta Leonis", "hex": cell, "rotation": 0, "from": [0, -2]})
        said = i18n.say(refused.value, lang)
        assert f"[{cell[0]}, {cell[1]}]" in said and there in said, said
        if lang != "en":
            assert said != str(refused.value) and "already holds" not in said, said  # said in the phone's language
    assert flow.session.last_seq == before
    assert _laid(flow) == {"001": (0, 0), "221": (0, -2), "232": (0, 2)}
    assert [f for f in flow.view()["findings"] if f["severity"] != "info"] == []
    # the same tile onto the empty space beside Ann's home is recorded (a full wormhole: test_eclipse_flow)
    flow.report("Ann", "explore", {"sector": "103 Beta Leonis", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    assert _laid(flow)["103"] == (0, -1)


def test_a_starting_sector_corrected_in_its_own_space_is_still_taken(store):
    """Ann turns her own starting sector where it lies (rotation 0 -> 2): the space holds her own earlier report,
    which the new one replaces (Setup: each player lays one), so it is not refused; onto Bob's it is."""
    flow = _set_up(store)
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 2})
    assert next(h for h in flow.engine_view()["map"] if h["sector"] == "221")["rotation"] == 2
    before = flow.session.last_seq
    with pytest.raises(BadEntry, match=r"the space at \[0, 2\] already holds 232 Rigel"):
        flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, 2], "rotation": 0})
    assert flow.session.last_seq == before and _laid(flow)["221"] == (0, -2)


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_starting_sector_is_echoed_as_laid_at_setup_and_an_explored_one_as_explore(store, lang):
    """The phone echoed a starting sector as "Sector laid", as if explored; it says "Starting sector laid (setup)",
    the setup form's own title, in the phone's language; an explored tile is still the Explore action."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    home = flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    assert str(flow.describe(home)) == "Ann: Starting sector laid (setup)"
    said = i18n.say(flow.describe(home), lang)
    assert said == "Ann: " + i18n.say(i18n.Text("Starting sector laid (setup)"), lang) and "Starting" not in said
    explored = flow.report("Ann", "explore", {"sector": "103 Beta Leonis", "hex": [0, -1], "rotation": 0,
                                              "from": [0, -2]})
    assert str(flow.describe(explored)) == "Ann: Explore"
