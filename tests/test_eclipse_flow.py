"""Eclipse at the table (companion/flows/eclipse.py): a whole game played through the phones' forms and Next, the
combat helper, the misplay of a hex laid with its fix, the private end position, alliances in the score and the
exports, the touchscreen's tracker and score screens.

Every expected value is worked by hand in the comments from the printed tiles (rules/data/eclipse/hexes.json) and
the scoring table (Eclipse, End of the game; Rise of the Ancients p.11 for alliances).
"""

from __future__ import annotations

import json

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flow_spec import parse_form
from companion.flows import FLOWS
from companion.player_names import parse_players
from rules.eclipse.data import catalogue
from tests.test_flow import shoot

ECLIPSE = FLOWS["eclipse"]


def start(store, players: str = "Ann,Bob", **options) -> GameFlow:
    session = store.start("eclipse", ECLIPSE.settings(parse_players(players, ECLIPSE.info.colours), options))
    return GameFlow(session, ECLIPSE)


def at_final_scoring(store) -> GameFlow:
    """Ann (Terran, 221 Procyon) and Bob (Orion, 232 Rigel) play nine rounds passing at once: the game waits for
    their final positions (Eclipse, End of the game). On the table each controls their starting sector: 3 VP."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    for _ in range(9):
        turn = flow.view()["turn"]
        flow.report(turn, "pass", {})
        flow.report("Bob" if turn == "Ann" else "Ann", "pass", {})
        for _ in range(3):
            flow.next_phase()
    assert flow.view()["stage"] == "reporting"
    return flow


def next_round(flow: GameFlow) -> None:
    """Combat, Upkeep and Cleanup ended with Next (Eclipse, Game round)."""
    for label in ("Upkeep", "Cleanup"):
        assert flow.view()["next"]["label"] == label
        flow.next_phase()
    flow.next_phase()


def test_a_whole_game_through_the_phones_and_next(store, output_dir):
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    view = flow.view()
    assert [p["role"] for p in view["players"]] == ["Terran Directorate", "Orion Hegemony"]
    assert (view["round_label"], view["turn"], view["last_round"]) == ("Round 1 of 9, Action phase", "Ann", False)
    assert [(p["label"], p["state"]) for p in view["phases"]] == [
        ("Action", "current"), ("Combat", "next"), ("Upkeep", "next"), ("Cleanup", "next")]
    assert not view["next"]["enabled"] and "waiting for Ann, Bob" in view["next"]["why"]
    # Setup: each lays their starting sector in ring II (2 players, Eclipse Setup); 221 and 232 as printed.
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232 Rigel", "hex": [0, 2], "rotation": 0})
    # Round 1. Ann explores 103 Beta Leonis (ring I) at (0, -1) from her home: 221's printed 6 faces it, 103's
    # printed 12 faces back (rotation 0): a full wormhole, legal, nothing to find.
    flow.report("Ann", "explore", {"sector": "103 Beta Leonis", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    view = flow.view()
    assert view["turn"] == "Bob" and not [f for f in view["findings"] if f["severity"] != "info"]
    board = view["boards"][0]
    assert board["kind"] == "hex" and {"103", "221", "232", "001"} <= {c["label"] for c in board["cells"]}
    assert next(c for c in board["cells"] if c["label"] == "221")["owner"] == "Ann"
    space = next(c for c in board["cells"] if c["at"] == [1, -2])
    assert space["detail"] == "empty space" and space["empty"] is True  # an empty space to explore
    assert not any(c["empty"] for c in board["cells"] if c["owner"])  # a hex with a disc is no empty space
    flow.report("Bob", "pass", {})  # the first to pass starts the next round
    assert flow.view()["open_forms"]["Bob"][:4] == ["home", "upgrade", "build", "move"]  # reactions only
    flow.report("Ann", "influence", {"hex": [0, -1], "from": [0, -2]})
    # Bob's turn comes round: he may react, and without a reaction it goes by when Ann acts (Eclipse, Passing):
    # his phone offers no second pass, and Ann's pass is in turn
    view = flow.view()
    assert view["turn"] == "Ann" and "pass" not in view["open_forms"]["Bob"]
    assert "Bob passed and may react first (Upgrade, Build or Move)" in view["note"]
    flow.report("Ann", "pass", {})
    view = flow.view()
    assert not [f for f in view["findings"] if f["severity"] != "info"]
    assert (view["stage"], view["next"]["label"], view["next"]["enabled"]) == ("combat", "Upkeep", True)
    assert [p["hexes"] for p in view["players"]] == [2, 1]

    # The combat helper: Ann's Cruiser (Electron Computer +1, one Ion Cannon) fires at Bob's Interceptor (Gauss
    # Shield -1): a die hits on 6 - 1 + 1 = 6 or more. She rolls 6, 5, 2: only the 6 hits, 1 damage (yellow).
    flow.report("Ann", "blueprint",
                {"ship": "Cruiser", "computers": 1, "hull": 1, "initiative": 2, "yellow_cannons": 1})
    flow.report("Bob", "blueprint", {"ship": "Interceptor", "shields": 1, "initiative": 3, "yellow_cannons": 1})
    flow.report("Ann", "volley", {"ship": "Cruiser", "target": "Bob", "target_ship": "Interceptor", "yellow": "652"})
    throw = flow.view()["throws"][0]
    assert throw["label"] == "Ann's Cruiser at Bob's Interceptor"
    assert [(d["face"], d["hit"]) for d in throw["dice"]] == [(6, True), (5, False), (2, False)]
    assert throw["summary"].startswith("1 hit: 1 damage (hits on 6 or more)")
    # Bob's Interceptor fires back at Ann's Cruiser (no shields on its blueprint): aimed first (the camera would
    # read the dice), then he taps the faces in: 5 misses, 6 hits (hits on 6: no computers, no shields).
    flow.report("Bob", "volley", {"ship": "Interceptor", "target": "Ann", "target_ship": "Cruiser"})
    assert flow.view()["throws"][0]["summary"].startswith("roll 1 yellow dice: a die hits on 6 or more")
    flow.report("Bob", "volley", {"ship": "Interceptor", "yellow": "5 6"})
    with pytest.raises(BadEntry, match="you cannot choose yourself"):  # a volley is fired at another player
        flow.report("Bob", "volley", {"ship": "Interceptor", "target": "Bob", "yellow": "6"})
    throw = flow.view()["throws"][0]
    assert throw["label"] == "Bob's Interceptor at Ann's Cruiser" and [d["hit"] for d in throw["dice"]] == [False, True]
    next_round(flow)

    view = flow.view()
    assert (view["round_label"], view["turn"]) == ("Round 2 of 9, Action phase", "Bob")  # Bob passed first
    assert view["throws"] == []  # a new round clears the volley shown
    for rnd in range(2, 10):
        first, second = ("Bob", "Ann") if rnd == 2 else (flow.view()["turn"], None)
        second = second or ("Ann" if first == "Bob" else "Bob")
        flow.report(first, "pass", {})
        flow.report(second, "pass", {})
        if rnd == 9:
            view = flow.view()
            assert view["last_round"] and view["round_label"] == "Round 9 of 9, Combat phase"
            shoot(flow, output_dir / "eclipse_tracker_last_round.png")
        labels = [flow.view()["next"]["label"]]
        flow.next_phase()
        labels.append(flow.view()["next"]["label"])
        flow.next_phase()
        labels.append(flow.view()["next"]["label"])
        assert labels == ["Upkeep", "Cleanup", "End game" if rnd == 9 else f"Round {rnd + 1}"]
        flow.next_phase()

    # After round 9 (Eclipse, End of the game) each player enters the hidden part of their position.
    view = flow.view()
    assert (view["stage"], view["next"]["label"], view["over"]) == ("reporting", "Score now", False)
    assert view["open_forms"] == {"Ann": ["position"], "Bob": ["position"]}
    assert next(f for f in view["forms"] if f["id"] == "position")["private"] is True
    flow.report("Ann", "position", {"reputation_3": 1, "reputation_2": 1, "money": 5, "science": 3, "materials": 2,
                                    "military": 4, "grid": 2, "nano": 0, "discoveries": 1})
    assert flow.view()["players"][0]["vp"] is None  # nothing of her report shows before the end
    flow.report("Bob", "position", {"reputation_4": 1, "money": 1, "science": 1, "materials": 1, "military": 5})
    view = flow.view()  # every position in: a last look, until the table scores the game
    assert (view["stage"], view["next"]["label"], view["over"]) == ("reporting", "Score the game", False)
    flow.next_phase()
    view = flow.view()
    assert view["over"] and view["stage"] == "over"
    # Ann: reputation 3 + 2 = 5; hexes 221 (3 VP) + 103 (2 VP) = 5; one discovery kept 2; military 4 tiles 1 VP
    #      -> 13. Bob: reputation 4; hex 232 (3 VP); military 5 tiles 2 VP -> 9. Ann wins.
    result = view["result"]
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 13, "Bob": 9}
    assert result["winners"] == ["Ann"] and result["team_scores"] == {}  # no alliance formed
    ann = result["players"][0]["breakdown"]
    assert sum(ann.values()) == 13 and len([v for v in ann.values() if v]) == 4
    shoot(flow, output_dir / "eclipse_scores.png")
    play = flow.bgstats_play()
    assert play["game"]["bggId"] == 72125 and [p["winner"] for p in play["players"]] == [True, False]
    assert [p["role"] for p in play["players"]] == ["Terran Directorate", "Orion Hegemony"]
    assert flow.export_json()["finished"] is True


def test_score_now_asks_before_scoring_without_a_players_final_position(store):
    """After round 9 each player enters the hidden part of their position (Eclipse, End of the game; rules digest
    2.1: reputation, resources, tech tracks are scored from it). One tap of Score now with Bob's position missing
    scored him on the table alone, and a game scored cannot be resumed from the history: Next now first names who is
    missing; pressed again, it scores without it, as the table chose."""
    flow = at_final_scoring(store)
    flow.report("Ann", "position", {"reputation_3": 1, "money": 2})
    with pytest.raises(BadEntry) as asked:
        flow.next_phase()
    assert str(asked.value) == ("Bob: nothing entered yet (Final position); press Next again to score the game "
                                "without it, or enter it on the phone first")
    assert i18n.localize(i18n.message_of(asked.value), "el").startswith(
        "Bob: δεν καταχωρίστηκε ακόμη τίποτα (Τελική θέση)")
    assert flow.view()["next"]["asked"] == str(asked.value) and not flow.view()["over"]
    flow.next_phase()  # pressed again: scored without Bob's position
    result = flow.view()["result"]
    # Ann: reputation 3 + hex 221 (3 VP) = 6; Bob: hex 232 (3 VP) only = 3.
    assert {p["name"]: p["total"] for p in result["players"]} == {"Ann": 6, "Bob": 3}


def test_a_hex_laid_against_its_wormholes_is_a_misplay_with_the_fix(store):
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    # 101 Castor (ring I, printed wormholes 2, 4, 6, 8, 10) at (0, -1), across 221's edge 6 (221 has a half-circle
    # there). The new tile touches on its edge 12, where it has none: a half wormhole only. Turned k steps a printed
    # edge h lies on h + 2k: 10 -> 12 takes 1 step (8 takes 2, ...): "rotate it 1 step".
    flow.report("Ann", "explore", {"sector": "101 Castor", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    finding = flow.view()["findings"][0]
    assert (finding["rule_kind"], finding["severity"]) == ("half_wormhole_without_generator", "error")
    assert finding["fix"] == "rotate it 1 step clockwise so its wormhole faces yours"
    assert finding["rule"].startswith("Eclipse, Wormhole Generator")
    # 205 Mu Herculis (ring II, printed 4, 6, 8) at (1, -2), across 221's edge 4 where 221 has no half-circle, and
    # touching on its own edge 10, where it has none: no connection, and no turn makes one (221's side stays bare).
    flow.report("Bob", "explore", {"sector": "205 Mu Herculis", "hex": [1, -2], "rotation": 0, "from": [0, -2]})
    finding = flow.view()["findings"][0]
    assert (finding["rule_kind"], finding["fix"]) == ("no_wormhole_connection",
                                                      "no rotation connects it: place it elsewhere or discard it")


def test_alliances_score_as_a_team_in_the_result_and_the_exports(store, output_dir):
    """Rise of the Ancients p.11: Alexandros, Giannis and Kostas of the Nova alliance end with 26, 44 and 30; Nova
    scores floor(100 / 3) = 33 and beats Vasilis 32, Iakovos 31 and Loukas 30: all three win together."""
    flow = start(store, "Alexandros,Giannis,Kostas,Vasilis,Iakovos,Loukas", alliances=True)
    for a, b in (("Alexandros", "Giannis"), ("Alexandros", "Kostas")):
        flow.report(a, "relations", {"with": b})
    flow.report("Alexandros", "alliance_found", {"alliance": "Nova", "with": "Giannis"})
    flow.report("Kostas", "alliance_join", {"alliance": "Nova"})
    session = flow.session
    while not flow.progress().stage == "reporting":
        progress = flow.progress()
        if progress.stage == "action":
            session.append("passed", {}, player=progress.turn, origin="cli")
        else:
            flow.next_phase()
    # Each one's own total (row 17: +2 for the face-up Alliance tile; row 2: Alexandros holds 2 Ambassadors,
    # Giannis and Kostas 1 each; row 1 reputation; row 4: 2 VP a Discovery kept; row 6: a track of 7 tiles 5 VP):
    # Alexandros 2 + 2 + (4+4+4) + 2*5 = 26; Giannis 2 + 1 + 16 + 3*5 + 2*5 = 44; Kostas 2 + 1 + (4+4+3) + 2*8 = 30;
    # Vasilis 16 + 16 = 32; Iakovos 15 + 16 = 31; Loukas 14 + 16 = 30: the rulebook's example.
    for name, reputation, discoveries, track in (("Alexandros", [4, 4, 4], 5, 0), ("Giannis", [4, 4, 4, 4], 5, 7),
                                                 ("Kostas", [4, 4, 3], 8, 0), ("Vasilis", [4, 4, 4, 4], 8, 0),
                                                 ("Iakovos", [4, 4, 4, 3], 8, 0), ("Loukas", [4, 4, 4, 2], 8, 0)):
        values = {f"reputation_{v}": reputation.count(v) for v in (1, 2, 3, 4)}
        flow.report(name, "position", {**values, "discoveries": discoveries, "military": track, "grid": track,
                                       "nano": track, "money": 0, "science": 0, "materials": 0})
    flow.next_phase()  # Score the game
    result = flow.view()["result"]
    assert {p["name"]: p["total"] for p in result["players"]} == {
        "Alexandros": 26, "Giannis": 44, "Kostas": 30, "Vasilis": 32, "Iakovos": 31, "Loukas": 30}
    assert result["team_scores"] == {"Nova": 33}
    shoot(flow, output_dir / "eclipse_scores_alliance.png")
    assert sorted(result["winners"]) == ["Alexandros", "Giannis", "Kostas"]
    assert [p.get("team") for p in result["players"]] == ["Nova", "Nova", "Nova", None, None, None]
    play = flow.bgstats_play()
    assert [p.get("team") for p in play["players"]] == ["Nova", "Nova", "Nova", None, None, None]
    assert [p["winner"] for p in play["players"]] == [True, True, True, False, False, False]
    assert "Nova: 33 VP as a team" in play["comments"]
    assert flow.export_json()["team_scores"] == {"Nova": 33}


def test_the_forms_refuse_what_cannot_be_and_record_nothing(store):
    flow = start(store)
    before = flow.session.last_seq
    volley = next(f for f in ECLIPSE.forms(flow.engine_view()) if f.id == "volley")
    assert parse_form(volley, {"ship": "Cruiser", "red": "6 1", "yellow": "4,4"})["red"] == [6, 1]
    with pytest.raises(BadEntry, match="a die shows 1-6"):
        parse_form(volley, {"ship": "Cruiser", "red": "7"})
    with pytest.raises(BadEntry, match="type the faces rolled"):
        parse_form(volley, {"ship": "Cruiser", "red": "six"})
    with pytest.raises(BadEntry, match="both hexes"):
        flow.report("Ann", "move", {"from": [0, 1]})
    with pytest.raises(BadEntry, match="on which hex"):
        flow.report("Ann", "build", {"what": "Orbital"})
    with pytest.raises(BadEntry, match="cannot be reported now"):
        flow.report("Ann", "position", {"money": 1})  # the end position opens after round 9
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})
    with pytest.raises(BadEntry, match="cannot be reported now"):
        flow.report("Ann", "explore", {"sector": "101 Castor", "hex": [0, -1], "rotation": 0})  # Combat now
    assert flow.session.last_seq == before + 2
    assert json.loads(json.dumps(flow.view())) == flow.view()


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


def test_nine_seats_and_a_volley_fit_the_touchscreen(store, output_dir):
    """Rise of the Ancients p.2: up to nine players. The tracker's rows go in two halves, and the volley's dice are
    drawn under them: with computers +2 against no shields a die hits on 4 or more (Eclipse, Combat): yellow 6, 4
    hit, 3, 1 miss; red 5 hits, 2 misses: 1 + 1 + 4 = 6 damage."""
    names = "Alexandros,Giannis,Kostas,Vasilis,Iakovos,Loukas,Maria,Eleni,Sofia"
    flow = start(store, names, species=["Magellan", "Exiles", "Rho Indi Syndicate", "Terran Union", "", "", "", "", ""])
    for name in flow.names:
        flow.report(name, "pass", {})
    flow.report("Alexandros", "volley", {"ship": "Dreadnought", "target": "Ancients", "computers": 2,
                                         "yellow": "6 4 3 1", "red": "5 2"})
    throw = flow.view()["throws"][0]
    assert [d["hit"] for d in throw["dice"]] == [True, True, False, False, True, False]
    assert throw["summary"].startswith("3 hits: 6 damage (hits on 4 or more)")
    screen = shoot(flow, output_dir / "eclipse_nine_volley.png")
    assert {"next_phase", "undo"} <= set(screen.buttons)


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


def test_relations_with_yourself_are_not_offered_and_refused_in_the_players_words(store):
    """The ``with`` of relations, an attack and an alliance lists the other players (the field says so: the phone
    leaves the reporter out); naming yourself is refused without the event's kind or the session's id."""
    from rules import BadEvent

    flow = start(store, "Ann,Bob,Cy,Dee")
    forms = {f["id"]: f for f in flow.view()["forms"]}
    for form in ("relations", "attack", "alliance_found"):
        assert next(f for f in forms[form]["fields"] if f["name"] == "with")["others"] is True, form
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "relations", {"with": "Ann"})
    said = str(refused.value)
    assert "you cannot choose yourself (Ann); choose another player: Bob, Cy, Dee" in said, said
    assert "relations_formed" not in said and "session" not in said and "event" not in said
    # the engine's own refusal keeps its facts for players and its event and session for the log
    with pytest.raises(BadEvent) as engine:
        flow.session.append("relations_formed", {"with": "Ann"}, player="Ann")
    assert engine.value.problem == "'with' must be another player (Bob, Cy, Dee), got 'Ann'"
    assert "relations_formed" in str(engine.value) and flow.session.id in str(engine.value)
    assert flow.session.last_seq == 0


def test_the_touchscreen_shows_a_phone_reported_misplay_whole_with_its_fix(store, output_dir):
    """A hex reported from a phone against its wormholes: the touchscreen wraps the finding onto lines (never cut
    with "…") and shows its fix, as it does for the camera's misplays."""
    flow = start(store, species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "101 Castor", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    screen = shoot(flow, output_dir / "eclipse_finding_fix.png")
    said = [text for text, _rect, _room in screen.drawn]
    assert "Fix: rotate it 1 step clockwise so its wormhole faces yours" in said
    finding = flow.view()["findings"][0]["what"]
    shown = " ".join(t for t in said if t.split()[0] in finding.split() or t.startswith(screen.sign("error")))
    assert "makes only a half wormhole" in shown and "a new hex needs a full wormhole" in shown
    assert not any(t.endswith("\u2026") for t in said)  # nothing of it cut off
    fix = next(rect for text, rect, _room in screen.drawn if text.startswith("Fix:"))
    assert fix.bottom <= screen.buttons["undo"].rect.top  # above the buttons


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_every_eclipse_report_is_named_in_the_phones_language(store, lang):
    """A Hungarian phone laying its starting sector read 'rögzítve: Ann: hex placed', and after Explore 'Ann: action
    taken': Eclipse had no words for its events, so the message said the event's kind in English. Every kind of
    rules.eclipse.events has a label, said in each language."""
    from companion import i18n
    from rules.eclipse import events

    kinds = [getattr(events, name) for name in events.__all__ if name.isupper()]
    assert kinds and all(kind in ECLIPSE.event_words for kind in kinds), set(kinds) - set(ECLIPSE.event_words)
    for kind in kinds:
        label = ECLIPSE.event_label(kind)
        assert i18n.localize(label, lang) != str(label), (kind, str(label))
    flow = start(store)
    event = flow.report("Ann", "home", {"sector": "221 Procyon", "hex": [0, -2], "rotation": 0})
    said = i18n.say(flow.describe(event), lang)
    assert said.startswith("Ann: ") and "hex placed" not in said and said != "Ann: Sector laid"
    assert said == "Ann: " + i18n.say(i18n.Text("Starting sector laid (setup)"), lang)  # Setup, not an Explore


def test_next_names_the_phase_it_moved_to_once(store, tmp_path):
    """Next on Eclipse's touchscreen said 'Round 1 of 9, Upkeep phase: Upkeep' ('Γύρος 1 από 9, φάση: Συντήρηση:
    Συντήρηση'): the round's label names the phase already. It says each phase once, in every language."""
    from companion.i18n import say
    from tests.test_evening import do, evening

    loop = evening(store, tmp_path)
    do(loop, "choose_game", game="eclipse")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    for name in ("Ann", "Bob"):
        do(loop, "report", "phone", player=name, form="pass", values={})
    assert loop.view()["game"]["stage"] == "combat"  # everyone passed: the Combat phase (Eclipse, Game round)
    said = [do(loop, "next_phase").message for _ in range(3)]  # Upkeep, Cleanup, round 2's Action
    assert said == ["Round 1 of 9, Upkeep phase", "Round 1 of 9, Cleanup phase", "Round 2 of 9, Action phase"]
    for lang in ("el", "pl", "hu"):
        for message in said:
            words = say(message, lang).replace(",", " ").split()
            assert len(words) == len(set(words)), (lang, say(message, lang))  # no word twice: the phase once


def test_the_game_end_note_is_drawn_whole_and_said_once_after_next(store, tmp_path, output_dir):
    """After round 9 the touchscreen cut its note to 'Játék vége: minden játékos ... A Tovább mo…' (what Next does
    with positions still missing was lost) and Next said 'Game end: final positions: Game end: each player enters...'.
    The note, under the heading that already says the game is ending, is drawn whole over two lines, in Hungarian and
    Greek, and Next's message says 'Game end' once."""
    from companion import i18n
    from companion.hub import StateHub
    from companion.screen import TouchScreen
    from tests.test_evening import do, evening
    from tests.test_evening_screens import shot

    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    do(loop, "choose_game", game="eclipse")
    for name in ("Zsófia", "Νίκος", "Ελένη"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    for _ in range(9):  # nine rounds: everyone passes, then Next through Combat, Upkeep and Cleanup
        for _ in range(3):
            do(loop, "report", "phone", player=loop.view()["game"]["turn"], form="pass", values={})
        said = [do(loop, "next_phase").message for _ in range(3)]
    assert loop.view()["game"]["stage"] == "reporting"
    assert str(said[-1]).count("Game end") == 1, said[-1]
    screen = TouchScreen(pairing=hub.pairing)
    try:
        for lang, end in (("hu", "A Tovább most pontoz, a hiányzók nélkül"),
                          ("el", "Το Επόμενο βαθμολογεί τώρα, χωρίς όσους λείπουν")):
            i18n.set_box_language(lang)
            shot(loop, screen, f"eclipse-game-end-{lang}", output_dir)
            note = i18n.say(loop.view()["game"]["note"], lang)
            assert note.endswith(end), note
            drawn = [str(text) for text, _, _ in screen.drawn]
            start = next(k for k, text in enumerate(drawn) if note.startswith(text))
            assert " ".join(drawn[start:start + 2]) == note, drawn  # two lines, nothing cut
    finally:
        i18n.set_box_language("en")


def test_relations_and_attacks_are_offered_only_where_diplomacy_is_used(store):
    """Eclipse, Diplomacy: relations are not used with 2 or 3 players (Second Dawn: 4 or more; the rules notes, 1.2):
    the phones offered "Diplomatic relations" and "Attacked a player you have relations with" to a 2-player table
    and recorded a misplay when used. They are closed with 2 or 3 players, saying why in the table's language, and
    open with 4 or more, every player other than the reporter in their choices."""
    from companion import i18n

    for players in ("Ann,Bob", "Ann,Bob,Cy"):
        flow = start(store, players)
        for name in flow.names:
            assert not {"relations", "attack"} & set(flow.view()["open_forms"][name]), (players, name)
        with pytest.raises(BadEntry) as closed:
            flow.report("Ann", "relations", {"with": "Bob"})
        count = len(flow.names)
        said = {lang: i18n.say(closed.value, lang) for lang in ("en", "el", "pl", "hu")}
        assert said["en"] == f"diplomatic relations are not used with {count} players"
        assert said["el"] == f"οι διπλωματικές σχέσεις δεν χρησιμοποιούνται με {count} παίκτες"
        assert said["pl"] == f"stosunków dyplomatycznych nie używa się przy {count} graczach"
        assert said["hu"] == f"{count} játékosnál nincs diplomáciai kapcsolat"
        assert flow.session.events() == []
    flow = start(store, "Ann,Bob,Cy,Dee,Eve,Fay")
    assert {"relations", "attack"} <= set(flow.view()["open_forms"]["Ann"])
    flow.report("Ann", "relations", {"with": "Fay"})
    assert not [f for f in flow.view()["findings"] if "not used" in f["what"]]


def test_an_attack_offers_only_the_players_you_have_relations_with(store):
    """Eclipse, Diplomacy: who attacks a player they exchanged Ambassadors with returns the Ambassadors and takes the
    Traitor card. The phone's 'Attacked a player you have relations with' listed every other player: it offers only
    those the reporter has relations with (in seat order), and with none it says so instead of a list, in the
    table's language; once the treaty is broken by that attack, neither side offers the other again."""
    from companion import i18n
    from tests.i18n_walk import leaks

    flow = start(store, "Ann,Bob,Cy,Dee")

    def offered(player: str) -> dict:
        return flow.view()["choices_now"][player]["attack"]["with"]

    none = offered("Ann")
    assert none["choices"] == []
    english = i18n.localize(none["none"], "en")
    assert "relations with no one" in english
    for lang in ("el", "pl", "hu"):
        said = i18n.localize(none["none"], lang)
        assert said != english and leaks([said], lang) == [], (lang, said)
    flow.report("Ann", "relations", {"with": "Cy"})
    flow.report("Dee", "relations", {"with": "Cy"})
    assert offered("Ann")["choices"] == ["Cy"]
    assert offered("Cy")["choices"] == ["Ann", "Dee"]
    assert offered("Bob")["choices"] == []
    flow.report("Ann", "attack", {"with": "Cy"})  # the treaty broken: Ambassadors returned
    assert offered("Ann")["choices"] == [] and offered("Cy")["choices"] == ["Dee"]
    assert start(store, "Ann,Bob,Cy").view()["choices_now"]["Ann"] == {}  # no relations with 3 players


def test_an_attack_on_a_player_outside_your_relations_is_refused_with_the_rule(store):
    """Eclipse 1.2, Diplomacy: only an attack on a player you exchanged Ambassadors with returns them and takes the
    Traitor card. The phones offer only those players; a report naming another (a page older than the table, a
    request made by hand) was recorded with a 'no relations to break' finding. It is refused, in the table's
    language, and nothing is recorded; an attack on the player you have relations with is recorded as before."""
    from companion import i18n

    flow = start(store, "Ann,Bob,Cy,Dee")
    flow.report("Ann", "relations", {"with": "Cy"})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "attack", {"with": "Bob"})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].startswith("you have no diplomatic relations with Bob: only an attack on a player you exchanged")
    assert said["en"].endswith("(the Ambassadors go back and the attacker takes the Traitor card: "
                               "Eclipse 1.2, Diplomacy)")
    assert said["el"].startswith("Bob: δεν έχετε διπλωματικές σχέσεις· εδώ δηλώνεται μόνο επίθεση")
    assert said["pl"].startswith("Bob i ty nie macie stosunków dyplomatycznych:")  # the name as written, not "z Bob"
    assert said["hu"].startswith("Bob játékossal nincs diplomáciai kapcsolatod:")
    assert all("Eclipse 1.2" in s for s in said.values())
    assert flow.session.last_seq == before  # nothing recorded, no finding
    assert not [f for f in flow.view()["findings"] if "no relations" in f["what"]]
    flow.report("Ann", "attack", {"with": "Cy"})  # the treaty broken: Ann takes the Traitor card
    assert flow.session.last_seq == before + 1
    with pytest.raises(BadEntry):  # the Ambassadors went back: no relations left to break
        flow.report("Cy", "attack", {"with": "Ann"})
    assert flow.session.last_seq == before + 1


def test_the_players_rows_show_ambassadors_and_alliances_only_where_they_are_played(store):
    """A 2-player table's rows read 'Ambassadors 0' and 'Alliance –' for rules it does not play (relations are used
    with 4 or more players, Eclipse 1.2 Diplomacy; alliances only with their module, Rise of the Ancients p.10-11),
    and the three columns did not fit a 360 px phone. Each column shows where its rule is played."""
    assert [c["key"] for c in start(store, "Ann,Bob").view()["columns"]] == ["hexes"]
    assert [c["key"] for c in start(store, "Ann,Bob,Cy").view()["columns"]] == ["hexes"]
    assert [c["key"] for c in start(store, "Ann,Bob,Cy,Dee").view()["columns"]] == ["hexes", "ambassadors"]
    both = start(store, "Ann,Bob,Cy,Dee", alliances=True).view()
    assert [c["key"] for c in both["columns"]] == ["hexes", "ambassadors", "alliance"]
    assert set(both["players"][0]) >= {"hexes", "ambassadors", "alliance"}


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


def test_a_passed_player_is_not_asked_to_pass_again(store):
    """Eclipse 1.2, Passing: after passing a player only reacts (Upgrade, Build or Move), on their own turns; a turn
    with no reaction goes by when the next player acts. Ann passed, then Bob: Cy's turn. Ann's phone offers no Pass
    (before, every time round her turn came she had to pass again, or the next player was "out of turn"); a pass
    sent anyway is refused with the rule, nothing recorded, in each language. Cy acts, Dee acts: Ann's and Bob's
    turns go by with no warning; Ann may still react on hers."""
    from companion import i18n

    flow = start(store, "Ann,Bob,Cy,Dee")
    flow.report("Ann", "pass", {})
    flow.report("Bob", "pass", {})
    view = flow.view()
    assert view["turn"] == "Cy"
    assert "pass" not in view["open_forms"]["Ann"] and "move" in view["open_forms"]["Ann"]  # reactions still
    assert "pass" in view["open_forms"]["Cy"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "pass", {})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == ("Ann has already passed this round: after passing, a player only reacts (Upgrade, Build or "
                          "Move) on their own turns, and a turn with no reaction goes by when the next player acts "
                          "(it is Cy's turn)")
    assert said["el"].startswith("Ann έχει ήδη πάει πάσο σε αυτόν τον γύρο") and said["el"].endswith("(τώρα παίζει Cy)")
    assert said["pl"].startswith("Ann jest już po spasowaniu w tej rundzie") and said["pl"].endswith("(teraz gra Cy)")
    assert said["hu"].startswith("Ann már passzolt ebben a körben") and said["hu"].endswith("(most Cy következik)")
    assert flow.session.last_seq == before and flow.view()["turn"] == "Cy"
    flow.report("Cy", "upgrade", {})
    flow.report("Dee", "research", {})  # Ann's and Bob's turns (no reaction) go by: Cy's again
    view = flow.view()
    assert view["turn"] == "Cy" and not [f for f in view["findings"] if f["severity"] != "info"]
    flow.report("Cy", "pass", {})
    flow.report("Dee", "research", {})
    flow.report("Ann", "move", {})  # a reaction on her own turn, before Dee's: in turn
    flow.report("Dee", "pass", {})  # Bob's and Cy's turns go by; everyone has passed: Combat
    view = flow.view()
    assert view["round_label"] == "Round 1 of 9, Combat phase"
    assert not [f for f in view["findings"] if f["severity"] != "info"]


def test_an_action_after_passing_is_refused_with_the_rule(store):
    """Eclipse 1.2, Passing: after passing a player may only react (Upgrade, Build, Move). Zoë passed, then her
    phone sends Explore: refused naming the rule, in each language (before: "Explore cannot be reported now (Round 1
    of 9, Action phase)", no reason); nothing is recorded."""
    from companion import i18n

    flow = start(store, "Ann,Zoë,Cy")
    flow.report("Ann", "pass", {})
    flow.report("Zoë", "pass", {})
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Zoë", "explore", {"sector": "106 Capella", "hex": [0, -1], "rotation": 0})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"] == "Zoë has passed: only a reaction (Upgrade, Build or Move) is allowed, not Explore"
    assert said["el"] == ("Zoë έχει πάει πάσο: επιτρέπεται μόνο αντίδραση (Αναβάθμιση, Κατασκευή ή Μετακίνηση), όχι "
                          "Εξερεύνηση")
    assert said["pl"].endswith("Eksploracja") and said["hu"].endswith("Felfedezés")
    assert flow.session.last_seq == before
    flow.report("Cy", "pass", {})  # everyone has passed: Combat
    assert flow.view()["round_label"] == "Round 1 of 9, Combat phase"


def test_a_moves_further_steps_are_reported_without_taking_a_turn(store):
    """Eclipse 1.2, Move: one Move action activates ships (Terran: 3), each moving its drives' hexes. The Move form
    gave one step, so a second step had to be a second Move action: "Ann acts out of turn" and the turn moved on
    from the wrong player. "Move: one more step (same Move)" now records each further step, its wormhole checked,
    and the turn stays. Ann's 221 Procyon at (0, -2) (wormholes 12, 2, 6, 8), 106 Capella explored at (0, -1)
    (12, 2, 4, 6): Procyon's 6 meets Capella's 12, Capella's 6 the Galactic Center's 12."""
    flow = start(store, "Ann,Bob", species=["Terran Directorate", "Orion Hegemony"])
    flow.report("Ann", "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report("Bob", "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    flow.report("Ann", "explore", {"sector": "106", "hex": [0, -1], "rotation": 0, "from": [0, -2]})
    flow.report("Bob", "pass", {})
    assert "step" not in flow.view()["open_forms"]["Bob"]  # no Move of Bob's to step on (test_eclipse_move_steps)
    flow.report("Ann", "move", {"from": [0, -2], "to": [0, -1]})
    assert flow.view()["turn"] == "Ann"  # Bob has passed: his turn goes by unless he reacts (Passing)
    step = flow.report("Ann", "step", {"from": [0, -1], "to": [0, 0]})
    view = flow.view()
    assert step.kind == "ship_moved" and view["turn"] == "Ann" and flow.session.events()[-1].kind == "ship_moved"
    mine = [f["what"] for f in view["findings"] if f["seq"] == step.seq]
    assert mine == ["106 Capella and 001 Galactic Center are joined by a full wormhole"], mine
    assert _labels_said(flow, "Move: one more step (same Move)") == {
        "el": "Μετακίνηση: ένα ακόμη βήμα (της ίδιας Μετακίνησης)",
        "pl": "Ruch: jeszcze jeden krok (tego samego Ruchu)", "hu": "Mozgás: még egy lépés (ugyanabban a Mozgásban)"}
    with pytest.raises(BadEntry):  # both hexes of the step are needed
        flow.report("Ann", "step", {"from": [0, -1]})


def _labels_said(flow, label):
    from companion import i18n

    form = next(f for f in flow.view()["forms"] if f["id"] == "step")
    assert str(form["label"]) == label
    return {lang: i18n.say(form["label"], lang) for lang in ("el", "pl", "hu")}


# Explore and Influence as the Greek, Polish and Hungarian tables call them (Eclipse 1.2 Action phase), not the
# phase's "Action" ("Ενέργειες")
ACTION_NAMES = {"el": ("Εξερεύνηση", "Επιρροή"), "pl": ("Eksploracja", "Wpływ"), "hu": ("Felfedezés", "Befolyás")}
RECORDED = {"el": "καταγράφηκε: {what}", "pl": "zapisano: {what}", "hu": "rögzítve: {what}"}


@pytest.mark.parametrize(("lang", "players"), [("el", "Γιώργος,Ζωή"), ("pl", "Zofia,Piotr"), ("hu", "Ágnes,Bálint")])
def test_an_action_is_echoed_and_withdrawn_as_the_action_taken(store, lang, players):
    from companion.actions import Action
    from companion.flow import handle_action

    flow = start(store, players)
    first, second = players.split(",")
    flow.report(first, "home", {"sector": "221", "hex": [0, -2], "rotation": 0})
    flow.report(second, "home", {"sector": "232", "hex": [0, 2], "rotation": 0})
    turn = flow.view()["turn"]
    other = second if turn == first else first
    toward = [0, -1] if turn == first else [0, 1]  # ring I, next to the explorer's starting sector
    explored = handle_action(flow, {"action": Action.REPORT, "origin": "phone", "player": turn, "form": "explore",
                                    "values": {"sector": "103 Beta Leonis", "hex": toward, "rotation": 0}})
    influenced = handle_action(flow, {"action": Action.REPORT, "origin": "phone", "player": other,
                                      "form": "influence", "values": {}})
    explore, influence = ACTION_NAMES[lang]
    assert i18n.say(explored.message, lang) == RECORDED[lang].format(what=f"{turn}: {explore}")
    assert i18n.say(influenced.message, lang) == RECORDED[lang].format(what=f"{other}: {influence}")
    undone = handle_action(flow, {"action": Action.UNDO_REPORT, "origin": "phone", "player": other})
    assert undone.error is None and i18n.say(undone.message, lang).endswith(f": {influence}"), undone


def test_simultaneous_play_a_holder_waiting_to_hand_on_the_marker_is_not_asked_to_act(store):
    """Rise of the Ancients p.13 (simultaneous play): after acting a holder hands the marker clockwise at once, and
    waits while the next player still holds the other. Nine players: the markers start with A1 and E5 (9 // 2 seats
    on). A1, B2, C3 and D4 pass, the First Action marker moving on each time, until D4 must wait for E5. The box
    went on showing D4's turn and offering D4 Pass, and took that Pass again and again (each recorded, the marker
    never moving). Now the turn is E5's, the note says D4 waits, D4's phone has no Pass and D4's pass is refused,
    nothing recorded; once E5 has acted the marker comes to E5's neighbour as the rule moves it."""
    flow = start(store, "A1,B2,C3,D4,E5,F6,G7,H8,I9", simultaneous=True)
    for player in ("A1", "B2", "C3", "D4"):
        flow.report(player, "pass", {})
    assert flow.engine_view()["markers"] == {"first": "D4", "second": "E5", "first_waits": True,
                                             "second_waits": False}
    view = flow.view()
    assert view["turn"] == "E5"
    assert view["note"].startswith("First Action: D4 (waiting: E5 acts first), Second Action: E5")
    assert i18n.say(view["note"], "el").startswith("Πρώτη Ενέργεια: D4 (σε αναμονή: πρώτα παίζει E5), Δεύτερη")
    assert i18n.say(view["note"], "pl").startswith("Pierwsza akcja: D4 (czeka: najpierw gra E5), druga akcja: E5")
    assert i18n.say(view["note"], "hu").startswith("Első akció: D4 (várakozik: előbb E5 következik), második")
    assert "pass" not in view["open_forms"]["D4"] and "pass" in view["open_forms"]["E5"]
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("D4", "pass", {})
    said = {lang: i18n.say(refused.value, lang) for lang in ("en", "el", "pl", "hu")}
    assert said["en"].endswith("(only the marker holder (E5) acts now)")  # one holder now, not "holders"
    assert said["el"].endswith("(μόνο ο κάτοχος του δείκτη (E5) παίζει τώρα)")
    assert said["pl"].endswith("(teraz działa tylko posiadacz znacznika (E5))")
    assert said["hu"].endswith("(most csak a jelölő birtokosa (E5) cselekszik)")
    assert flow.session.last_seq == before
    flow.report("E5", "explore", {"sector": "101", "hex": [1, -1], "rotation": 0})
    # E5 hands the Second Action marker to F6; the waiting First Action marker comes from D4 to E5
    assert flow.engine_view()["markers"] == {"first": "E5", "second": "F6", "first_waits": False,
                                             "second_waits": False}
