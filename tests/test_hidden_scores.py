"""What a game not over shows of the players' hidden information: nothing, wherever its standing is computed.

Eclipse (End of the game): after round 9 each player enters their final position (reputation tiles face down,
resources, tech tracks) on their own phone, hidden until the game is scored. A game left during final scoring and
opened in the history, or the history opened from a phone on a box without a touchscreen, showed totals built from
the positions already entered: anyone watching read a hidden reputation. Race and Roll for the Galaxy keep their
action cards and phase selections face down until revealed: a choice made does not score, so it must not move a
total either.

Every value is worked by hand from the printed tiles (rules/data/eclipse/hexes.json: 221 and 232 are worth 3 VP
each) and the scoring table (Eclipse, End of the game: a reputation tile scores its value).
"""

from __future__ import annotations

import json
import urllib.parse

from companion.actions import Action
from companion.flow import GameFlow
from companion.flow_export import BGSTATS_URL
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.library import Library
from companion.modes.base import ModeName
from companion.player_names import parse_players
from tests.phones import joined_phone, post_through_loop
from tests.test_eclipse_flow import at_final_scoring as eclipse_at_final_scoring
from tests.test_evening import do, evening

ECLIPSE = FLOWS["eclipse"]
ANN_POSITION = {"reputation_4": 2, "reputation_3": 1, "money": 9}  # reputation 4 + 4 + 3 = 11 VP, hidden
BOB_POSITION = {"reputation_2": 1}  # 2 VP


def totals(players) -> dict[str, int]:
    return {p["name"]: p["total"] for p in players}


def bgstats_scores(url: str) -> dict[str, int]:
    play = json.loads(urllib.parse.unquote(url.removeprefix(BGSTATS_URL)))
    return {p["name"]: p["score"] for p in play["players"]}


def test_the_history_of_a_game_in_final_scoring_shows_no_hidden_position(store):
    """Ann has entered her position (reputation 11), Bob not yet: the game's line and its opened record show each
    on the table alone (3 and 3), the breakdown holds no reputation, no winner is named, and the BG Stats link
    carries the same; once the game is scored the record shows everything (Ann 3 + 11 = 14, Bob 3 + 2 = 5)."""
    flow = eclipse_at_final_scoring(store)
    flow.report("Ann", "position", ANN_POSITION)
    library = Library(store)
    line = library.summary(flow.session.id, flow.session.last_seq)
    assert totals(line["players"]) == {"Ann": 3, "Bob": 3}
    record = library.record(flow.session.id)
    assert totals(record["players"]) == {"Ann": 3, "Bob": 3}
    assert totals(record["result"]["players"]) == {"Ann": 3, "Bob": 3}
    assert sum(record["result"]["players"][0]["breakdown"].values()) == 3  # no reputation line with a value
    assert bgstats_scores(record["bgstats_url"]) == {"Ann": 3, "Bob": 3}
    assert record["winners"] == [] and not record["finished"]
    flow.report("Bob", "position", BOB_POSITION)  # the last position entered: a last look before Score the game
    assert not flow.over() and library.record(flow.session.id)["winners"] == []
    flow.next_phase()
    assert flow.over()
    record = library.record(flow.session.id)
    assert totals(record["players"]) == {"Ann": 14, "Bob": 5} and record["winners"] == ["Ann"]
    assert bgstats_scores(record["bgstats_url"]) == {"Ann": 14, "Bob": 5}


def test_the_tie_break_of_a_game_not_over_holds_no_hidden_resources(store):
    """Eclipse 2.2: a tie is broken by resources, which the final position reports: before the end Ann's tie-break
    is what the table shows (nothing reported: 0), not the 9 Money she entered; after it, 9."""
    flow = eclipse_at_final_scoring(store)
    before = flow.result()["players"][0]["tiebreak"]
    flow.report("Ann", "position", ANN_POSITION)
    assert flow.result()["players"][0]["tiebreak"] == before
    flow.report("Bob", "position", BOB_POSITION)
    flow.next_phase()  # Score the game
    assert flow.result()["players"][0]["tiebreak"] != before


def history_drawn(loop, output_dir, name: str) -> list[str]:
    """The texts the touchscreen draws of the loop's view (the history with a game opened)."""
    from companion.screen import TouchScreen
    from tests.test_evening_screens import shot

    screen = shot(loop, TouchScreen(pairing=loop.hub.pairing), f"eclipse-history-{name}", output_dir)
    return [str(text) for text, _, _ in screen.drawn]


def test_a_watcher_another_player_and_the_player_see_no_hidden_position(store, tmp_path, output_dir):
    """Through the phone view: Ann enters her position on her phone; a phone that has not joined, Bob's phone and
    Ann's own read /api/state during play and with the game opened in the history (the table left it during final
    scoring): every one reads Ann 3, Bob 3 (her 11 reputation nowhere), no winner, and so does the touchscreen. Back in
    the game, Bob's position scores it: the history then shows Ann 14, Bob 5 to everyone, as before."""
    flow = eclipse_at_final_scoring(store)
    session = flow.session.id
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    do(loop, "resume_game", session=session)
    assert loop.mode_name is ModeName.PLAY
    loop.publish(picture=False)
    ann, bob = joined_phone(hub), joined_phone(hub)
    watcher = ann.application.test_client()  # the same box, never joined
    for phone, name in ((ann, "Ann"), (bob, "Bob")):
        assert post_through_loop(phone, loop, "/api/seat", {"player": name}).status_code == 200
    answer = post_through_loop(ann, loop, "/api/report", {"player": "Ann", "form": "position",
                                                         "values": ANN_POSITION})
    assert answer.status_code == 200, answer.get_json()
    loop.publish(picture=False)

    def seen(client) -> dict:
        answer = client.get("/api/state")
        assert answer.status_code == 200
        return answer.get_json()

    for client in (watcher, bob, ann):
        game = seen(client)["game"]
        assert not game["over"] and game["result"] is None and game["export"] is None
        assert [p["vp"] for p in game["players"]] == [None, None]
    do(loop, "history")  # the table leaves the game during final scoring
    do(loop, "open_game", session=session)
    loop.publish(picture=False)
    for client in (watcher, bob, ann):
        state = seen(client)
        opened = state["history"]["open"]
        assert totals(opened["players"]) == {"Ann": 3, "Bob": 3} and opened["winners"] == []
        assert opened["hidden"] == HIDDEN  # why Ann's 11 is not in her total, said over the totals (box.html)
        assert totals(opened["result"]["players"]) == {"Ann": 3, "Bob": 3}
        assert bgstats_scores(opened["bgstats_url"]) == {"Ann": 3, "Bob": 3}
        [line] = [g for g in state["history"]["games"] if g["session"] == session]
        assert totals(line["players"]) == {"Ann": 3, "Bob": 3}
    drawn = history_drawn(loop, output_dir, "hidden")  # the touchscreen shows the same
    assert "11" not in drawn and "14" not in drawn and "3" in drawn, drawn
    do(loop, "resume_game", session=session)
    loop.publish(picture=False)
    answer = post_through_loop(bob, loop, "/api/report", {"player": "Bob", "form": "position",
                                                         "values": BOB_POSITION})
    assert answer.status_code == 200, answer.get_json()
    do(loop, "next_phase")  # Score the game
    do(loop, "history")
    do(loop, "open_game", session=session)
    loop.publish(picture=False)
    for client in (watcher, bob, ann):
        opened = seen(client)["history"]["open"]
        assert totals(opened["result"]["players"]) == {"Ann": 14, "Bob": 5} and opened["winners"] == ["Ann"]
    drawn = history_drawn(loop, output_dir, "scored")
    assert "11" in drawn and "14" in drawn, drawn  # Ann's reputation line and her total, once the game is scored


def test_a_race_action_card_face_down_moves_no_total(store):
    """Race for the Galaxy: action cards are chosen face down and revealed together; a card chosen does not score.
    Ann's Develop chosen while Bob has not chosen leaves the history's record scoring as it was: the start worlds'
    printed VP (Old Earth 2, Epsilon Eridani 1), tie-breaks and all."""
    flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    library = Library(store)
    before = library.record(flow.session.id)
    assert totals(before["players"]) == {"Ann": 2, "Bob": 1}
    flow.report("Ann", "select", {"action": "Develop"})
    after = library.record(flow.session.id)
    assert after["result"] == before["result"] and after["players"] == before["players"]


def test_a_roll_phase_selection_not_revealed_moves_no_total(store):
    """Roll for the Galaxy, p.3 Assign: each player selects a phase behind their screen; it is revealed together
    (p.4 Reveal). Ann's selection leaves every total and tie-break of the history's record as it was."""
    flow = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    library = Library(store)
    before = library.record(flow.session.id)
    flow.report("Ann", "select", {"phase": "settle"})
    after = library.record(flow.session.id)
    assert after["result"] == before["result"] and after["players"] == before["players"]


def test_a_roll_phase_selection_changed_before_the_reveal_is_said_without_naming_either(store):
    """Roll for the Galaxy, p.3 Assign and p.4 Reveal: the phases selected stay behind the screens until the reveal.
    Ann selecting Settle, then Develop, put "Ann changed their phase selection from Settle to Develop" among the
    findings every phone and the touchscreen show: now the finding says she changed it and names neither, in each
    language."""
    from companion import i18n
    from rules.roll.words import phase_word

    flow = GameFlow(store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {})), FLOWS["roll"])
    flow.report("Ann", "select", {"phase": "settle"})
    flow.report("Ann", "select", {"phase": "develop"})
    [finding] = flow.view()["findings"]
    assert str(finding["what"]) == ("Ann changed their phase selection before the reveal; the new one replaces the "
                                    "earlier one")
    for lang in ("en", "el", "pl", "hu"):
        said = i18n.localize(finding["what"], lang)
        assert said != str(finding["what"]) or lang == "en"
        for phase in ("settle", "develop"):
            word = i18n.localize(phase_word(phase), lang)
            assert word and word.lower() not in said.lower(), (lang, word, said)


HIDDEN = "final positions already entered stay hidden: they count once the game is scored"


def test_the_history_says_why_a_total_leaves_out_a_final_position_entered(store):
    """Ann entered reputation 11 in secret and the history showed her 3, with nothing saying why (Eclipse, End of the
    game: the positions are scored together): the opened record now says the positions entered count once the game
    is scored; before anyone entered one, and once the game is scored, there is nothing to say."""
    flow = eclipse_at_final_scoring(store)
    library = Library(store)
    assert library.record(flow.session.id)["hidden"] is None  # nothing entered: every total is whole
    flow.report("Ann", "position", ANN_POSITION)
    record = library.record(flow.session.id)
    assert str(record["hidden"]) == HIDDEN and totals(record["players"]) == {"Ann": 3, "Bob": 3}
    flow.report("Bob", "position", BOB_POSITION)
    flow.next_phase()  # Score the game
    assert library.record(flow.session.id)["hidden"] is None and flow.over()


def test_the_touchscreens_history_says_why_and_offers_export_once_the_game_is_over(store, tmp_path, output_dir):
    """The touchscreen's history offered Export for a game during final scoring (the phones' history offers no
    download until the game is over: its record holds Ann's position); it now offers Resume alone, says why there is
    no Export, and says, over the totals and in the table's language, that the positions entered count once the game
    is scored. Export, tapped from a phone's page or a script, is refused with the same words. Once the game is
    scored, Export is back."""
    from companion import i18n
    from companion.screen import TouchScreen
    from tests.test_evening_screens import shot

    flow = eclipse_at_final_scoring(store)
    flow.report("Ann", "position", ANN_POSITION)
    session = flow.session.id
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    do(loop, "history")
    do(loop, "open_game", session=session)
    screen = TouchScreen(pairing=hub.pairing)
    try:
        for lang in ("en", "el", "pl", "hu"):
            i18n.set_box_language(lang)
            shot(loop, screen, f"eclipse-history-hidden-{lang}", output_dir)
            drawn = [str(text) for text, _, _ in screen.drawn]
            assert i18n._(HIDDEN) in drawn, (lang, drawn)
            assert i18n._("Export once the game is over: its record holds what the table has not revealed yet") \
                in drawn, (lang, drawn)
            assert "export_game" not in screen.buttons and "resume_game" in screen.buttons
    finally:
        i18n.set_box_language("en")
    answer = loop.dispatch({"action": Action("export_game"), "origin": "phone", "session": session})
    assert answer.error == "Export once the game is over: its record holds what the table has not revealed yet"
    assert not (tmp_path / "exports" / f"{session}.json").exists()
    flow.report("Bob", "position", BOB_POSITION)
    flow.next_phase()  # Score the game
    do(loop, "games")
    do(loop, "history")
    do(loop, "open_game", session=session)
    shot(loop, screen, "eclipse-history-scored-export", output_dir)
    assert "export_game" in screen.buttons
    drawn = [str(text) for text, _, _ in screen.drawn]
    assert HIDDEN not in drawn
    do(loop, "export_game", session=session)
    assert (tmp_path / "exports" / f"{session}.json").is_file()
