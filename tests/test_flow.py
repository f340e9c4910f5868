"""The shared at-table flow (companion/flow.py) with Roll for the Galaxy, Race for the Galaxy and
Among the Stars: setup, rounds, reports, undo, bad reports, end of game, scores, export, screens.

Scores are worked by hand in comments from the printed tile/card values (rules/data/...).
"""

from __future__ import annotations

import json
import unicodedata
import urllib.parse
from datetime import UTC, datetime

import pytest

from companion import i18n
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flow_actions import handle_action
from companion.flow_export import BGSTATS_URL, bgstats_url
from companion.flow_spec import parse_form
from companion.flows import FLOWS
from companion.player_names import check_player_name, named_player, parse_players
from companion.screen import Screen, TouchScreen
from rules.roll.data import catalogue as roll_catalogue


def start(store, game: str, players: str = "Ann,Bob", **options) -> GameFlow:
    spec = FLOWS[game]
    session = store.start(game, spec.settings(parse_players(players), options))
    return GameFlow(session, spec)


def faction_label(number: int) -> str:
    return " / ".join(roll_catalogue().faction(number).names)


def shoot(flow: GameFlow, path, message: str = "") -> TouchScreen:
    """Render the flow's view on an 800x480 touchscreen and save it for a person to look at."""
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    view = {"session": {"id": flow.session.id, "game": flow.spec.name, "events": flow.session.last_seq},
            "status": {"camera": "ok", "reader": "watching", "message": message},
            "game": flow.view(), "findings": flow.view()["findings"], "phone_url": "http://192.168.1.20:8080/"}
    screen.render(view)
    screen.save_png(path)
    return screen


# -- pure helpers ----------------------------------------------------------------------------


def test_players_take_seats_in_order_with_free_colours():
    assert parse_players("Ann, Bob:green ,Cy") == [
        {"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "green"}, {"name": "Cy", "colour": "blue"}]
    with pytest.raises(BadEntry, match="already playing"):
        parse_players("Ann,Ann")
    with pytest.raises(BadEntry, match="empty"):
        parse_players("Ann,,Bob")


# hand-worked: the names a phone's keyboard gives for the table's spelling (Greek capitals drop their accent, a
# keyboard without dead keys types none, a final sigma is a sigma in capitals)
SAME_PLAYER = [("ελενη", "Ελένη"), ("ΕΛΕΝΗ", "Ελένη"), (" Ελενη ", "Ελένη"), ("ΣΠΥΡΟΣ", "Σπύρος"),
               ("σπυρος", "Σπύρος"), ("ODON", "Ödön"), ("ödön", "Ödön"), ("ŁUKASZ", "Łukasz"),
               ("Ελε\u0301νη", "Ελένη")]  # the last: the accent sent as a combining mark (NFD)


@pytest.mark.parametrize("said, table", SAME_PLAYER)
def test_a_name_in_any_case_and_without_its_accents_is_the_table_s_player(said, table):
    """A phone's "ελενη" or "ΕΛΕΝΗ" named nobody when the table wrote "Ελένη": names are compared ignoring case and
    accents (NFD, combining marks left out, case-folded), the same rule that refuses a second such player."""
    names = [table, "Bob"]
    assert named_player(said, names) == table
    with pytest.raises(BadEntry, match="already playing; names must differ \\(ignoring case and accents\\)"):
        check_player_name(said, names)


def test_a_full_width_name_is_the_same_player_as_its_ascii_spelling():
    """A full-width "ＡＮＮ" (U+FF21 U+FF2E U+FF2E, an East Asian keyboard's letters) showed as "ANN" beside "Ann" and
    joined as a second player: compatibility forms are folded (NFKC) before names are compared."""
    full_width = "\uff21\uff2e\uff2e"
    with pytest.raises(BadEntry, match="already playing"):
        check_player_name(full_width, ["Ann"])
    assert named_player(full_width, ["Ann", "Bob"]) == "Ann"
    assert named_player("\uff4a\uff4f", ["Jo"]) == "Jo"  # ｊｏ
    assert check_player_name(full_width) == full_width  # alone it is a name, kept as typed


def test_a_letter_under_a_stack_of_marks_is_refused_and_real_accents_are_names():
    """"e" with 8 combining marks draws over the lines around it; a letter carries at most 4, decomposed (NFD).
    Hand-worked: Vietnamese "Nguyễn" (its e: e + U+0302 + U+0303, 2 marks), polytonic Greek "ᾯ" (Ω + U+0314 + U+0342
    + U+0345, 3), Thai "น้ำ" (a tone mark and a vowel above its consonant: 2) and "Ελένη" with a combining accent
    are names."""
    from companion.i18n import say

    with pytest.raises(BadEntry) as stacked:
        check_player_name("e" + "\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a" + "va")
    assert say(stacked.value, "en") == "'eva': a letter carries at most 4 accents or marks; one here carries 8"
    for lang in ("el", "pl", "hu"):
        assert "4" in say(stacked.value, lang) and "8" in say(stacked.value, lang), lang
        assert say(stacked.value, lang) != say(stacked.value, "en"), lang
    with pytest.raises(BadEntry, match="carries 5"):
        check_player_name("Zo" + "\u0301" * 5)
    for name in ("Nguye\u0302\u0303n", "\u1faf Ann", "\u0e19\u0e49\u0e33", "Ελε\u0301νη", "Zo" + "\u0301" * 4):
        assert check_player_name(name) == unicodedata.normalize("NFC", name)


def test_names_that_differ_by_more_than_case_and_accents_stay_apart():
    assert named_player("Łukasz", ["Lukasz"]) == "Łukasz"  # Ł is a letter of its own, not L with a mark
    assert named_player("Ελένη", ["Ελένα"]) == "Ελένη"  # names nobody: sent on as it is, for the action to refuse
    assert check_player_name("Łukasz", ["Lukasz"]) == "Łukasz"
    assert named_player("Ελένη", ["ελενη", "ΕΛΕΝΗ"]) == "Ελένη"  # an older game with both: neither is taken


def test_form_values_are_checked_and_named():
    form = next(f for f in FLOWS["roll"].forms({"players": [1, 2]}) if f.id == "tile")
    assert parse_form(form, {"tile": "advanced logistics"}) == {"tile": "Advanced Logistics"}
    with pytest.raises(BadEntry, match=r"Tile: unknown 'Advanced Logistic'; did you mean Advanced Logistics"):
        parse_form(form, {"tile": "Advanced Logistic"})
    with pytest.raises(BadEntry, match="Tile is missing"):
        parse_form(form, {})
    with pytest.raises(BadEntry, match="unknown field 'colour'"):
        parse_form(form, {"tile": "Advanced Logistics", "colour": "red"})
    credits = next(f for f in FLOWS["roll"].forms({"players": [1, 2]}) if f.id == "credits")
    with pytest.raises(BadEntry, match="Credits must be a whole number from 0 to 10, got 11"):
        parse_form(credits, {"credits": 11})
    with pytest.raises(BadEntry, match="whole number"):
        parse_form(credits, {"credits": 2.5})


# -- Roll for the Galaxy, end to end ---------------------------------------------------------


def test_roll_game_through_the_flow_end_to_end(store, output_dir):
    flow = start(store, "roll", "Ann,Bob")
    # Setup (Roll for the Galaxy, p.2): faction, home world, one development and one world from the bag.
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    view = flow.view()
    assert view["round_label"] == "Setup" and not view["next"]["enabled"]
    assert view["pool"] == 24  # 12 VP per player (p.2 Setup)

    # Round 1: Ann selects Develop, Bob Settle; the 2-player extra white die shows Ship (p.4 Reveal).
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    assert flow.view()["players"][1]["waiting"] and "Bob" in flow.view()["next"]["why"]
    flow.report("Bob", "select", {"phase": "settle"})
    assert flow.view()["next"] == {"label": "Reveal", "enabled": True, "why": "", "asked": ""}
    flow.next_phase()  # Reveal: the phases of the round, in order, with who selected each
    view = flow.view()
    assert [(p["label"], p["by"], p["state"]) for p in view["phases"]] == [
        ("II Develop", ["Ann"], "next"), ("III Settle", ["Bob"], "next"),
        ("V Ship", ["extra white die"], "next"), ("Manage Empire", [], "next")]
    flow.next_phase()  # II Develop
    assert [p["state"] for p in flow.view()["phases"]] == ["current", "next", "next", "next"]
    flow.report("Ann", "tile", {"tile": "Advanced Logistics"})  # from her construction zone
    flow.next_phase()  # III Settle
    flow.report("Bob", "tile", {"tile": "Information Hub"})
    shoot(flow, output_dir / "flow_roll_settle.png")
    flow.next_phase()  # V Ship
    flow.report("Bob", "vp", {"vp": 20})
    flow.report("Ann", "vp", {"vp": 4})  # 24 taken: the pool is empty
    view = flow.view()
    assert view["pool"] == 0 and view["last_round"] and view["ending"] == ["VP pool exhausted"]
    assert view["findings"][0]["rule"] == "Roll for the Galaxy, p.8 End check"
    shoot(flow, output_dir / "flow_roll_last_round.png")
    flow.next_phase()  # Manage Empire
    assert flow.view()["next"]["label"] == "End game"
    flow.report("Ann", "credits", {"credits": 3})
    flow.next_phase()  # end of game
    view = flow.view()
    assert view["over"] and not view["last_round"] and not view["next"]["enabled"]
    with pytest.raises(BadEntry, match="game is over"):
        flow.next_phase()

    # Scores by hand (p.8 Victory: chips + printed costs of the tableau, faction tile both numbers):
    # Ann: faction 1 (Space Piracy 0 + Hidden Fortress 2) + Old Earth 3 + Advanced Logistics 1 = 6, +4 chips = 10.
    # Bob: faction 2 (Alien Archaeology + Alien Rosetta Stone World) + Alpha Centauri + Information Hub (3) + 20 chips.
    result = view["result"]
    ann, bob = result["players"]
    assert ann["total"] == 10 and ann["breakdown"]["VP chips"] == 4
    cat = roll_catalogue()
    bob_tiles = cat.faction(2).cost + cat.worlds["Alpha Centauri"].cost + cat.worlds["Information Hub"].cost
    assert bob["total"] == 20 + bob_tiles and result["winners"] == ["Bob"] and bob["winner"]
    assert ann["role"] == f"{faction_label(1)}; Old Earth"
    screen = shoot(flow, output_dir / "flow_roll_scores.png")
    assert screen.state is Screen.SCORES

    exported = flow.export_json()
    assert exported["format"] == "tabletop-companion/game" and exported["finished"]
    assert [p["total"] for p in exported["players"]] == [ann["total"], bob["total"]]
    assert exported["winners"] == ["Bob"] and exported["bgg_id"] == 132531
    assert [e["kind"] for e in exported["events"]].count("phase") == 4  # develop, settle, ship, manage
    json.dumps(exported)  # JSON-compatible throughout

    play = flow.bgstats_play(tz=UTC)
    assert play["game"] == {"name": "Roll for the Galaxy", "bggId": 132531, "sourceGameId": "tabletop-companion:roll",
                            "highestWins": True, "noPoints": False, "cooperative": False}
    assert datetime.strptime(play["playDate"], "%Y-%m-%d %H:%M:%S")
    assert play["sourceName"] == "tabletop-companion" and play["durationMin"] >= 1
    assert [(p["name"], p["score"], p["winner"], p["seatOrder"], p["startPlayer"]) for p in play["players"]] == [
        ("Ann", 10, False, 1, True), ("Bob", bob["total"], True, 2, False)]
    url = bgstats_url(play)
    assert url.startswith(BGSTATS_URL)
    assert json.loads(urllib.parse.unquote(url[len(BGSTATS_URL):])) == play
    assert view["export"]["bgstats_url"].startswith(BGSTATS_URL)


def test_tile_not_in_zone_comes_from_the_bag_and_a_taken_tile_is_a_finding(store):
    flow = start(store, "roll")
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()
    flow.next_phase()
    # Bob builds Spice World, whose tile sits in Ann's construction zone (p.1 Components: each tile once).
    flow.report("Bob", "tile", {"tile": "Spice World"})
    first = flow.view()["findings"][0]
    assert first["severity"] == "error" and "neither in Bob's construction zone nor in the bag" in first["what"]
    assert first["rule"] == "Roll for the Galaxy, p.1 Components" and first["todo"]


def test_undo_of_a_phone_report_withdraws_only_that_players_report(store):
    flow = start(store, "roll")
    flow.report("Ann", "credits", {"credits": 5})
    flow.report("Bob", "credits", {"credits": 7})
    undo = flow.undo_report("Ann")
    assert undo is not None and undo.player == "Ann" and undo.payload == {"seq": 1}
    credits = {p["name"]: p["credits"] for p in flow.view()["players"]}
    assert credits == {"Ann": 1, "Bob": 7}  # Ann back to the $1 a player starts with (p.2 Setup), Bob kept
    assert flow.undo_report("Ann") is None  # nothing more of Ann's in force
    assert len(flow.session.events()) == 3  # nothing deleted: two reports and one undo


def test_bad_reports_are_refused_with_the_problem_and_nothing_recorded(store):
    flow = start(store, "roll")
    before = flow.session.last_seq
    with pytest.raises(BadEntry, match="unknown player 'Zed'; players: Ann, Bob"):
        flow.report("Zed", "credits", {"credits": 1})
    with pytest.raises(BadEntry, match="unknown report 'teleport'"):
        flow.report("Ann", "teleport", {})
    with pytest.raises(BadEntry, match="Tile built cannot be reported now"):
        flow.report("Ann", "tile", {"tile": "Advanced Logistics"})  # before setup is done
    with pytest.raises(BadEntry, match="Credits must be a whole number from 0 to 10, got 12"):
        flow.report("Ann", "credits", {"credits": 12})
    outcome = handle_action(flow, {"action": "report", "origin": "phone", "player": "Ann", "form": "setup",
                                   "values": {"faction": "Nope", "home_world": "Old Earth",
                                              "development": "Advanced Logistics", "world": "Spice World"}})
    assert outcome is not None and not outcome.events and "Faction: unknown 'Nope'" in outcome.error
    assert flow.session.last_seq == before


# -- Race for the Galaxy through the same flow ----------------------------------------------


def test_race_game_through_the_same_flow(store, output_dir):
    flow = start(store, "race", "Ann,Bob")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Ann", "select", {"action": "Develop"})
    view = flow.view()
    assert view["players"][1]["waiting"] and not view["next"]["enabled"]
    # Ann's choice stays hidden until Bob has chosen; the strip says the cards are being chosen (it was a blank panel
    # in the first round, Race for the Galaxy, Round: Action selection)
    assert view["phases"] == [{"label": "Choosing action cards", "by": [], "state": "current"}]
    # Race has no credits: its columns are the tableau and the VP chips only
    assert [c["key"] for c in view["columns"]] == ["tableau", "vp"]
    assert "Credits" not in [text for text, _rect, _room in shoot(flow, output_dir / "flow_race_select.png").drawn]
    flow.report("Bob", "select", {"action": "Settle"})
    view = flow.view()
    # Both revealed: II Develop (Ann's bonus), III Settle (Bob's bonus), in order (digest §3).
    assert [(p["label"], p["by"], p["state"]) for p in view["phases"]] == [
        ("II Develop", ["Ann (Develop)"], "current"), ("III Settle", ["Bob (Settle)"], "next")]
    assert view["next"] == {"label": "II Develop done", "enabled": True, "why": "", "asked": ""}
    flow.report("Ann", "card", {"card": "Investment Credits"})
    flow.next_phase()
    flow.report("Bob", "vp", {"vp": 24})  # the pool (12 per player) is empty: last round (digest §6)
    view = flow.view()
    assert view["last_round"] and view["pool"] == 0
    shoot(flow, output_dir / "flow_race_last_round.png")
    flow.next_phase()  # Settle done
    assert flow.view()["next"]["label"] == "End round"
    flow.next_phase()  # end of round: game over
    view = flow.view()
    assert view["over"]
    result = view["result"]
    # Printed VP: Ann: Old Earth 2 + Investment Credits 1 = 3; Bob: Epsilon Eridani 1 + 24 chips = 25.
    assert [(p["name"], p["total"]) for p in result["players"]] == [("Ann", 3), ("Bob", 25)]
    assert result["winners"] == ["Bob"] and result["players"][0]["role"] == "Old Earth"
    play = flow.bgstats_play()
    assert play["game"]["bggId"] == 28143 and play["players"][1]["role"] == "Epsilon Eridani"
    shoot(flow, output_dir / "flow_race_scores.png")


def test_race_ends_a_tied_game_only_once_the_tied_hands_are_counted_or_the_table_says_so(store):
    """Race for the Galaxy breaks a tie by cards in hand + goods (digest §7 Tie-break). Hand-worked: Ann has Old
    Earth (2 VP) and 11 + 1 chips, Bob Epsilon Eridani (1 VP) and 12 + 1 chips: 14 each; the 24-chip pool ran dry,
    so this round is the last (§6). Ending it asks for the hands first; with Bob's 3 cards counted and Ann's not,
    it asks about Ann alone; with her 5, the game ends at once and Ann wins, 5 against 3 (no goods). A table with
    no count presses Next twice (as Among the Stars' question)."""
    def last_round():
        flow = start(store, "race", "Ann,Bob")
        flow.report("Ann", "start", {"card": "Old Earth"})
        flow.report("Bob", "start", {"card": "Epsilon Eridani"})
        flow.report("Ann", "select", {"action": "Consume: x2 VP"})
        flow.report("Bob", "select", {"action": "Consume: Trade ($)"})
        flow.report("Ann", "vp", {"vp": 11})
        flow.report("Bob", "vp", {"vp": 12})  # 23 of 24: one chip left
        flow.report("Bob", "vp", {"vp": 1})  # the pool is empty: the last round (digest §6)
        flow.report("Ann", "vp", {"vp": 1})  # paid from the chips set aside: Ann 12 + 2 = 14, Bob 13 + 1 = 14
        flow.next_phase()  # IV Consume done
        return flow

    flow = last_round()
    with pytest.raises(BadEntry) as asked:
        flow.next_phase()
    assert str(asked.value) == ("tied on 14 VP: the tie-break counts cards in hand + goods (Race for the Galaxy, end "
                                "of game); Cards in hand not reported this round: Ann and Bob. Report it on the phone "
                                "first, or press Next again to end the game without it")
    assert i18n.localize(i18n.message_of(asked.value), "el").startswith("ισοπαλία με 14 ΠΝ: η άρση ισοπαλίας μετρά")
    flow.report("Bob", "hand", {"cards": 3})
    with pytest.raises(BadEntry, match="not reported this round: Ann. Report"):
        flow.next_phase()
    flow.report("Ann", "hand", {"cards": 5})
    flow.next_phase()  # no question left: the game ends
    result = flow.view()["result"]
    assert [(p["name"], p["total"], p["tiebreak"]) for p in result["players"]] == [("Ann", 14, [5]), ("Bob", 14, [3])]
    assert result["winners"] == ["Ann"]
    flow = last_round()
    with pytest.raises(BadEntry):
        flow.next_phase()
    flow.next_phase()  # pressed again: ended without the counts, as the table chose
    assert flow.view()["over"]


# -- Among the Stars through the same flow ---------------------------------------------------


def test_among_findings_show_at_once_and_the_game_ends_after_year_4(store, output_dir):
    flow = start(store, "among", "Ann,Bob", races=["Sheptas", ""])
    view = flow.view()
    assert view["round_label"] == "Year 1 of 4, round 1 of 6" and "pass left" in view["note"]
    assert [p["state"] for p in view["phases"]][:2] == ["current", "next"]
    assert view["players"][0]["role"] == "Sheptas" and view["players"][0]["credits"] == 10
    # A location far from the Main Reactor at (0, 0): not edge-adjacent to the station (rulebook 4).
    flow.report("Ann", "location", {"card": "Customs", "cell": [5, 5]})
    first = flow.view()["findings"][0]
    assert first["severity"] == "error" and first["where"] == "Ann: Customs (5 below and 5 right of the Main Reactor)"
    assert first["rule"].startswith("Among the Stars, rulebook 4 'Build a location'") and first["todo"]
    shoot(flow, output_dir / "flow_among_finding.png")
    flow.report("Bob", "discard", {})
    flow.next_phase()
    assert flow.view()["round_label"] == "Year 1 of 4, round 2 of 6"
    rounds = 0
    while not flow.view()["last_round"]:
        for name in ("Ann", "Bob"):  # each player's one action a round (rulebook 4 'Round overview')
            flow.report(name, "discard", {})
        flow.next_phase()
        rounds += 1
    assert flow.view()["round_label"] == "Year 4 of 4, round 6 of 6"
    assert rounds == 5 + 6 + 6 + 5  # rest of year 1, years 2-3, year 4 up to its last round
    for name in ("Ann", "Bob"):
        flow.report(name, "discard", {})
    flow.next_phase()
    view = flow.view()
    assert view["over"] and view["result"]["winners"]
    assert view["note"] == "Game over"  # not the year's passing direction: no hand passes after year 4
    shoot(flow, output_dir / "flow_among_scores.png")


def test_touchscreen_next_button_posts_next_phase(store, output_dir, hub):
    import pygame

    flow = start(store, "among", "Ann,Bob,Cy")
    screen = shoot(flow, output_dir / "flow_among_start.png")
    assert screen.state is Screen.TABLE
    button = screen.buttons["next_phase"]
    assert button.enabled and button.label == "Next: End round"
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        screen.handle_event(pygame.event.Event(kind, button=1, pos=button.rect.center), hub)
    assert hub.take_actions() == [{"action": "next_phase", "origin": "touchscreen"}]


def test_roll_setup_stays_open_for_each_player_until_they_select_a_phase(store):
    # Roll for the Galaxy p.2 Setup (issue 17): Ann selecting her phase no longer closes Bob's setup with
    # "Setup cannot be reported now (Round 1, assign)"; the table is told whom it waits for, and why.
    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    view = flow.view()
    assert view["stage"] == "assign"
    assert view["open_forms"]["Bob"][0] == "setup" and "setup" not in view["open_forms"]["Ann"]
    assert "waiting for the setup of Bob" in view["next"]["why"] and not view["next"]["enabled"]
    with pytest.raises(BadEntry, match="Ann has selected a phase, so their setup is done"):
        flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                     "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Bob", "select", {"phase": "settle"})
    view = flow.view()
    assert view["next"]["enabled"] and view["next"]["label"] == "Reveal"
    assert not [f for f in view["findings"] if f["severity"] in ("error", "warning")]


def test_race_between_rounds_shows_the_next_round_being_chosen(store, output_dir):
    """After End round the players choose the action cards of the next round (Race for the Galaxy, Round: action
    selection starts each round): the views say round 2 and that its phases are being chosen, not round 1's
    phases as if still to come."""
    flow = start(store, "race", "Ann,Bob")
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Ann", "select", {"action": "Develop"})
    flow.report("Bob", "select", {"action": "Settle"})
    assert flow.view()["round_label"] == "Round 1"
    flow.next_phase()  # II Develop done
    flow.next_phase()  # III Settle done
    assert flow.view()["next"]["label"] == "End round"
    flow.next_phase()
    view = flow.view()
    assert view["stage"] == "select" and view["round_label"].startswith("Round 2")
    assert "II Develop" not in [p["label"] for p in view["phases"]]  # round 1's phases are over
    assert [p["state"] for p in view["phases"]] == ["current"] and "action cards" in view["phases"][0]["label"]
    screen = shoot(flow, output_dir / "flow_race_choosing.png")
    said = [text for text, _rect, _room in screen.drawn]
    assert any(t.startswith("Round 2") for t in said) and not any("Develop" in t for t in said)
    flow.report("Ann", "select", {"action": "Produce"})
    flow.report("Bob", "select", {"action": "Produce"})
    assert flow.view()["round_label"] == "Round 2"  # revealed: the engine's round 2


@pytest.mark.parametrize("game", ["roll", "race", "among"])
def test_a_game_still_in_setup_exports_no_winner(store, game):
    # Nobody has played a turn: the scores stand level, but a game that has not ended has no winner
    # (an exported record that named every player the winner would be wrong in any score log).
    flow = start(store, game)
    exported = flow.export_json()
    assert exported["finished"] is False
    assert exported["winners"] == []
    assert [p["winner"] for p in exported["players"]] == [False, False]
    assert [p["winner"] for p in flow.bgstats_play(tz=UTC)["players"]] == [False, False]


@pytest.mark.parametrize("name", ["\U0001F468\u200d\U0001F469\u200d\U0001F467 Mum", "\u2764\ufe0f Eva",
                                  "\U0001F469\U0001F3FD\u200d\U0001F4BB Kasia",
                                  "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F Ian"])
def test_a_name_with_an_emoji_of_joined_parts_is_a_name(name):
    """A family emoji (people joined by U+200D), a heart with its variation selector (U+FE0F), a coder with a skin
    tone, Scotland's flag (tag characters) are what a phone's emoji keyboard types: they are names."""
    assert check_player_name(name) == name


@pytest.mark.parametrize("name", ["Ann\u202e", "A\x00nn", "Ann\u200b", "Ann\ufeff", "\u200d", "\u200d\ufe0f"])
def test_control_and_invisible_characters_besides_emojis_are_still_refused(name):
    with pytest.raises(BadEntry, match="control or invisible|is empty"):
        check_player_name(name)


def test_a_name_too_long_and_a_name_with_a_comma_are_each_refused_for_what_is_wrong():
    """"Łukasz:x" was told "a name is at most 40 characters, without ',' or ':'" though it is 8 letters: each refusal
    names the one problem (the length with the count, or the character), in each language."""
    from companion.i18n import say

    with pytest.raises(BadEntry) as colon:
        check_player_name("Łukasz:x")
    assert say(colon.value, "en") == "'Łukasz:x': a name may not hold ',' or ':'"
    with pytest.raises(BadEntry) as long:
        check_player_name("Ő" * 41)
    assert say(long.value, "en") == f"'{'Ő' * 20}'…: a name is at most 40 characters; this one has 41"
    for lang in ("el", "pl", "hu"):
        assert "41" in say(long.value, lang) and "40" in say(long.value, lang), lang
        assert "':'" in say(colon.value, lang) and "40" not in say(colon.value, lang), lang
    assert check_player_name("Ő" * 40) == "Ő" * 40


# the refusal's own words in each language (hand-written: the catalogs' translations)
COLON_WORDS = {"en": "a name may not hold ':'", "el": "ένα όνομα δεν μπορεί να περιέχει ':'",
               "pl": "imię nie może zawierać ':'", "hu": "a név nem tartalmazhat ':' karaktert"}


@pytest.mark.parametrize("lang", sorted(COLON_WORDS))
def test_players_on_the_command_line_refuse_a_colon_in_a_name_as_the_phone_does(lang):
    """`--players "Dr: Who,Bob"` was told only "colour ' Who' is not one of red, ...": the command line now says a
    name may not hold ':' (the phone's rename refuses it), in the command's language, naming what followed ':'."""
    from companion.i18n import say

    with pytest.raises(BadEntry) as spaced:
        parse_players("Dr: Who,Bob")
    said = say(spaced.value, lang)
    assert said.startswith("--players 'Dr: Who,Bob': 'Dr: Who': ") and COLON_WORDS[lang] in said, said
    assert "'Who'" in said and "' Who'" not in said, said
    with pytest.raises(BadEntry) as two:  # two colons: the name before the colour holds one
        parse_players("Dr:Who:red,Bob")
    said = say(two.value, lang)
    assert "'Dr:Who':" in said and "':'" in said, said
    assert parse_players("Dr: green ,Bob") == [{"name": "Dr", "colour": "green"}, {"name": "Bob", "colour": "red"}]


def test_the_tables_undo_of_a_next_says_which_phase_it_took_back(store):
    """Roll for the Galaxy p.4 Phases: the Next that starts a phase, undone on the touchscreen, said "undone: the
    next phase" whichever phase it was; it says the phase, as the round's list shows it, in the table's language."""
    from companion import i18n
    from companion.modes.dice import undo

    flow = start(store, "roll")
    for name, faction, home, dev, world in (("Ann", 1, "Old Earth", "Advanced Logistics", "Spice World"),
                                            ("Bob", 2, "Doomed World", "Mining League", "Comet Zone")):
        flow.report(name, "setup", {"faction": faction_label(faction), "home_world": home, "development": dev,
                                    "world": world})
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal
    flow.next_phase()  # II Develop starts
    said = undo(flow.session, "touchscreen", flow.describe).message
    assert said == "undone: II Develop", said
    assert i18n.say(said, "hu") == "visszavonva: II Fejlesztés"
    flow.next_phase()
    flow.next_phase()  # III Settle
    flow.next_phase()  # Manage Empire
    assert undo(flow.session, "touchscreen", flow.describe).message == "undone: Manage Empire"


def test_a_value_the_table_leaves_out_now_is_refused_naming_the_form_and_field(store):
    """The shared words for a value a field offers but the table leaves out now (FlowBase.outside_choices), in each
    language: 'Report: Field: value cannot be chosen now'."""
    from companion import i18n
    from companion.flow_spec import Field, FlowBase, Form

    form = Form("pick", i18n.Text("Pick"), (Field("with", i18n.Text("With"), "choice", choices=("Ann", "Bob")),))
    said = FlowBase.outside_choices(FLOWS["race"], form, "with", "Bob", "Ann")
    assert i18n.say(said, "en") == "Pick: With: Bob cannot be chosen now"
    assert i18n.say(said, "pl").endswith("nie można teraz wybrać Bob")
    assert i18n.say(said, "hu").endswith("Bob most nem választható")
    assert i18n.say(said, "el").endswith("η επιλογή Bob δεν είναι διαθέσιμη τώρα")
