"""Eclipse at the table (companion/flows/eclipse.py): a whole game played through the phones' forms and Next, the
combat helper, the misplay of a hex laid with its fix, the private end position, alliances in the score and the
exports, the touchscreen's tracker and score screens. The set-up is tested in test_eclipse_setup_flow.py, diplomacy's
forms in test_eclipse_diplomacy_flow.py, the Action phase's turns in test_eclipse_action_turns.py.

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
