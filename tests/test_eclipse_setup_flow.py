"""Eclipse's set-up at the table (companion/flows/eclipse.py): each player's species on the set-up step (one player
board, two species), the starting sectors reported, again, by number and one per player, a correction the rules
refuse, and the players' columns while the table is set up.
"""

from __future__ import annotations

import pytest

from companion.errors import BadEntry
from companion.flows import FLOWS
from rules.eclipse.data import catalogue
from tests.test_eclipse_flow import start

ECLIPSE = FLOWS["eclipse"]


def test_the_setup_refuses_two_species_of_one_player_board(store):
    """Terran Directorate and the Eridani Empire are the two sides of one board (Eclipse components): only one
    player can play it."""
    with pytest.raises(BadEntry, match="Terran Directorate.*Eridani Empire|Eridani Empire.*Terran Directorate"):
        start(store, species=["Terran Directorate", "Eridani Empire"])


def test_each_player_picks_a_species_in_the_setup_step_and_one_board_is_refused(store):
    """The setup step (companion/setup_flow.py): species are per-player entries picked on the phones; species that
    need more double-sided boards than there are are refused at once (Rise of the Ancients p.3: Magellan on the back
    of the three new boards), and Start records the species in the settings."""
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, ECLIPSE, {"warp_portals": True}, resume=False)
    for name in ("Ann", "Bob", "Cy", "Dan"):
        setup.add_player(name)
    assert [c["option"] for c in setup.view()["choices"]] == ["species"]
    assert setup.choose("Ann", "species", "exiles") == "Ann: species Exiles"  # spelt as the game spells it
    setup.choose("Bob", "species", "Rho Indi Syndicate")
    setup.choose("Cy", "species", "Magellan")  # on the back of the Enlightened's board, which nobody plays
    with pytest.raises(BadEntry, match="Exiles, Rho Indi Syndicate, Magellan and Enlightened of Lyra"):
        setup.choose("Dan", "species", "Enlightened of Lyra")  # four species on the three new boards
    with pytest.raises(BadEntry, match="no per-player option"):
        setup.choose("Dan", "warp_portals", "yes")
    setup.choose("Cy", "species", None)  # Cy plays without a species noted
    setup.choose("Dan", "species", "Planta")
    resumed = TableSetup(store, ECLIPSE, {"warp_portals": True})  # a power cut: the setup comes back as it was
    assert [p["choices"] for p in resumed.view()["players"]] == [
        {"species": "Exiles"}, {"species": "Rho Indi Syndicate"}, {"species": None}, {"species": "Planta"}]
    flow = resumed.start((320, 240))
    assert [p["role"] for p in flow.view()["players"]] == ["Exiles", "Rho Indi Syndicate", None, "Planta"]
    assert flow.session.settings["warp_portals"] is True


def test_a_starting_sector_reported_again_or_by_number_and_one_per_player(store):
    """Eclipse, Setup (starting sectors): each player lays one starting sector. A tile already on the map is
    refused saying where it lies (not "unknown ... did you mean" another tile); a tile may be named by its
    number; a second and a third starting sector recorded for one player (a log, not a phone's correction) get a
    finding each."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    for again in ("221 Procyon", "221", " 221 procyon "):
        with pytest.raises(BadEntry) as refused:
            flow.report("Bob", "home", {"sector": again, "hex": [0, 2], "rotation": 0})
        assert "221 Procyon is already on the map at [0, -2]" in str(refused.value), str(refused.value)
        assert "did you mean" not in str(refused.value)
    with pytest.raises(BadEntry) as refused:  # explored too: a tile is in the game once
        flow.report("Ann", "explore", {"sector": "221", "hex": [0, -1], "rotation": 0})
    assert "already on the map at [0, -2]" in str(refused.value)
    event = flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})  # by number
    assert event.payload["sector"] == "232"
    def extra() -> list[dict]:
        return [f for f in flow.view()["findings"] if "already has a starting sector" in f["what"]]

    assert extra() == []
    flow.session.append("hex_placed", {"sector": "223", "q": 2, "r": -2, "rotation": 0}, player="Ann")
    flow.session.append("hex_placed", {"sector": "224", "q": -2, "r": 2, "rotation": 0}, player="Ann")
    found = extra()
    assert len(found) == 2 and {f["player"] for f in found} == {"Ann"}, found
    assert all(f["severity"] == "error" and f["rule"] == "Eclipse, Setup (starting sectors)" for f in found), found
    assert all("221 Procyon at [0, -2]" in f["what"] for f in found)


def test_a_starting_sector_reported_again_replaces_the_first_and_its_findings(store):
    """Eclipse, Setup (starting sectors): with 2 players the start positions are in ring II. Ann reports her 221
    Procyon in ring I (a misplay: the finding says so), then reports it again where it lies, in ring II: the newest
    report replaces the first (an undo of it is in the log), so the map holds 221 once, at [0, -2], and the ring I
    finding is gone, as it would be after an Undo. Another tile reported again replaces it too; an Ancient
    Homeworld is no player's and never replaces a starting sector."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"], ancient_homeworlds=True)

    def misplays() -> list[str]:
        return [f["what"] for f in flow.view()["findings"] if f["severity"] != "info"]

    def laid() -> dict[str, tuple[int, int]]:
        return {h["sector"]: (h["q"], h["r"]) for h in flow.engine_view()["map"] if h["sector"] != "001"}

    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -1], "rotation": 0})
    assert any("ring I" in what for what in misplays()), misplays()
    event = flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    assert misplays() == [] and laid() == {"221": (0, -2)}
    kinds = [(e.kind, e.payload.get("seq")) for e in flow.session.events()]
    assert kinds == [("hex_placed", None), ("undo", 1), ("hex_placed", None)] and event.seq == 3
    assert next(h for h in flow.engine_view()["map"] if h["sector"] == "221")["owner"] == "Ann"
    # Bob's report is his own: Ann's stays; Bob reporting again replaces only his
    flow.report("Bob", "home", {"sector": "232 Rigel", "hex": [0, 1], "rotation": 0})
    assert len(misplays()) == 1
    flow.report("Bob", "home", {"sector": "232 Rigel", "hex": [0, 2], "rotation": 0})
    assert misplays() == [] and laid() == {"221": (0, -2), "232": (0, 2)}
    # an Ancient Homeworld on an empty start position (Rise of the Ancients p.8) is laid beside, replacing nothing
    home = next(s for s in catalogue().sectors.values() if s.kind == "ancient_homeworld")
    flow.report("Ann", "home", {"sector": home.label, "hex": [2, -2], "rotation": 0})
    assert set(laid()) == {"221", "232", home.id}
    # corrected onto a taken space: refused with the reason, nothing recorded, the earlier report stands
    before = flow.session.last_seq
    with pytest.raises(BadEntry, match=r"the space at \[2, -2\] already holds " + home.label):
        flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [2, -2], "rotation": 0})  # the Homeworld's space
    assert flow.session.last_seq == before and laid()["221"] == (0, -2) and laid()[home.id] == (2, -2)
    assert misplays() == []


def test_a_correction_the_rules_refuse_records_nothing(store):
    """Session.replace writes the undo of the earlier report and the new event together: when the rules refuse the
    new one (a tile that does not exist), neither is recorded and the first report stands."""
    from rules import BadEvent

    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    with pytest.raises(BadEvent):
        flow.session.replace(1, "hex_placed", {"sector": "999", "q": 0, "r": 2, "rotation": 0}, player="Ann")
    assert flow.session.last_seq == 1 and [e.kind for e in flow.session.events()] == ["hex_placed"]
    assert {h["sector"] for h in flow.engine_view()["map"]} == {"001", "221"}


def test_the_setup_shows_the_columns_of_the_table_being_set_up(store):
    """While players are added, the players' table shows Ambassadors once there are 4 (Eclipse 1.2 Diplomacy) and
    Alliance only with the Alliances module, as the game will."""
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["eclipse"])
    for name in ("Ann", "Bob"):
        setup.add_player(name)
    assert [c["key"] for c in setup.view()["columns"]] == ["hexes"]
    for name in ("Cy", "Dee"):
        setup.add_player(name)
    assert [c["key"] for c in setup.view()["columns"]] == ["hexes", "ambassadors"]
    allied = TableSetup(store, FLOWS["eclipse"], options={"alliances": True})
    for name in ("Ann", "Bob", "Cy", "Dee"):
        allied.add_player(name)
    assert [c["key"] for c in allied.view()["columns"]] == ["hexes", "ambassadors", "alliance"]
