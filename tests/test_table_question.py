"""The question a phone puts to the table on the box's touchscreen (companion.phone_policy): Allow gives the seat,
Refuse keeps it from being asked again for half a minute, a question no longer applying is dropped, the holder said as
it is now, the question kept across a restart, a damaged kept question, and the screenshots of it."""

from __future__ import annotations

import pytest

from companion.actions import Action
from companion.hub import StateHub
from companion.modes import ModeName
from companion.phone_policy import (
    AWAY_S,
    REASK_S,
    PhonePresence,
)
from tests.test_evening import among_round_ended_unreported, evening
from tests.test_phone_policy import Clock, _phone, _race_in_play


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_the_touchscreen_shows_a_phones_question_and_its_allow_gives_the_seat(store, tmp_path, output_dir, lang):
    """The refused phone's claim on the touchscreen: "A phone asks" with the question in the box's language, Allow and
    Refuse at least 48 px; a tap on Allow gives the seat to the phone that asked."""
    from companion import i18n
    from companion.screen import Screen, TouchScreen
    from tests.test_evening_screens import shot, tap

    hub = StateHub()
    loop = _race_in_play(store, tmp_path, hub=hub)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    before = i18n.box_language()
    i18n.set_box_language(lang)  # the touchscreen speaks the box's language
    try:
        screen = TouchScreen(pairing=hub.pairing)
        shot(loop, screen, f"seat-asked-{lang}", output_dir)
        drawn = " ".join(text for text, _, _ in screen.drawn)
        assert screen.state is Screen.ASKING and set(screen.buttons) >= {"owner_allow", "owner_refuse"}
        assert {"en": "A phone asks for Ann's seat", "pl": "Ann: telefon prosi o miejsce"}[lang] in drawn
        assert tap(screen, hub, "owner_allow") == "owner_allow"
    finally:
        i18n.set_box_language(before)
    loop.take_actions()
    assert loop.pairing.claims["Ann"] == "new-phone" and loop.view()["box"]["asking"] is None


def test_a_phone_the_table_just_refused_does_not_put_its_question_again_for_half_a_minute(store, tmp_path):
    clock = Clock()
    loop = _race_in_play(store, tmp_path, clock=clock)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert "now asks the table" in _phone(loop, "games", "bob-phone").error
    assert loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"}).error is None
    clock.now += REASK_S - 10
    for name, payload in (("games", {}), ("claim_seat", {"player": "Ann"})):
        again = _phone(loop, name, "bob-phone", **payload)
        assert again.status == 403 and again.error == ("the table refused this phone's request on the box's "
                                                       "touchscreen a moment ago: talk to the players at the table; "
                                                       "the box asks them again in 10 s"), name
        assert loop.view()["box"]["asking"] is None
    assert "now asks the table" in _phone(loop, "games", "carol-phone").error  # another phone is asked about
    loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"})
    clock.now += 10
    assert "now asks the table" in _phone(loop, "claim_seat", "bob-phone", player="Ann").error
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks for Ann's seat")


def test_the_tables_question_is_dropped_once_it_no_longer_applies(store, tmp_path):
    clock = Clock()
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.hub.presence.heard("ann-phone")
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks for Ann's seat")
    # Ann gives her seat up on her old phone: the question no longer applies; the touchscreen goes back to the game,
    # and a late Allow gives no seat to anyone
    assert _phone(loop, "release_seat", "ann-phone", player="Ann").error is None
    assert loop.view()["box"]["asking"] is None
    allowed = loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"})
    assert allowed.message == "no phone is asking" and loop.pairing.claims == {}
    # the phone that asked took the seat itself: the question about it is dropped too
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    loop.hub.presence.heard("ann-phone")
    clock.now += AWAY_S
    loop.hub.presence.heard("new-phone")
    assert loop.view()["box"]["asking"] is not None  # Ann's old phone is away, but the seat is still its own
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").error is None  # away: taken over without asking
    assert loop.view()["box"]["asking"] is None and loop.pairing.claims["Ann"] == "new-phone"
    # a phone asking to leave, while the touchscreen leaves the game itself: nothing is left to allow
    loop.hub.presence.heard("bob-phone")  # the phone view hears from every phone that posts
    assert _phone(loop, "games", "bob-phone").status == 403 and loop.view()["box"]["asking"] is not None
    assert loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"}).error is None
    assert loop.view()["box"]["asking"] is None and loop.mode_name is ModeName.CHOOSE
    assert loop.dispatch({"action": Action.BACK, "origin": "touchscreen"}).error is None
    assert loop.mode_name is ModeName.PLAY
    # a phone that asked and then went away (two minutes without a request): no one waits for the answer
    loop.hub.presence.heard("bob-phone")
    assert _phone(loop, "games", "bob-phone").status == 403 and loop.view()["box"]["asking"] is not None
    clock.now += AWAY_S
    assert loop.view()["box"]["asking"] is None
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).message == "no phone is asking"
    assert loop.mode_name is ModeName.PLAY


def test_a_question_the_table_is_reading_is_not_replaced_by_another_phones(store, tmp_path):
    loop = _race_in_play(store, tmp_path)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    for name in ("games", "owner_ask"):  # while the table reads the seat's question
        busy = _phone(loop, name, "bob-phone")
        assert busy.status == 403 and busy.error == ("the box's touchscreen is asking the table about another phone's "
                                                     "request right now: tap again once the table has answered it")
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks for Ann's seat")
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403  # the same phone asks again: its own
    allowed = loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"})  # the Allow the table read
    assert allowed.error is None and loop.pairing.claims["Ann"] == "new-phone" and loop.mode_name is ModeName.PLAY
    assert "now asks the table" in _phone(loop, "games", "bob-phone").error  # answered: the next phone is asked
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks to leave Race for the Galaxy")


def test_the_table_is_told_which_game_a_phone_would_start(store, tmp_path):
    loop = _race_in_play(store, tmp_path)
    for payload, doing in (({"game": "among"}, "Choose a game: Among the Stars"),
                           ({"game": "d6"}, "Choose a game: Dice (d6)")):
        assert _phone(loop, "choose_game", "bob-phone", **payload).status == 403
        assert loop.view()["box"]["asking"]["question"] == (
            f"A phone asks to leave Race for the Galaxy, which is being played ({doing}). The game stays open: "
            "Resume brings it back. Allow?")
    assert _phone(loop, "history", "bob-phone").status == 403  # a move that starts no game: the button alone
    assert "being played (History)" in loop.view()["box"]["asking"]["question"]


def test_a_question_about_leaving_a_game_is_dropped_once_the_game_is_over(store, tmp_path):
    loop = evening(store, tmp_path)
    for name, payload in (("choose_game", {"game": "among"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    assert _phone(loop, "games", "bob-phone").status == 403 and loop.view()["box"]["asking"] is not None
    for _ in range(24):  # Among the Stars: 4 years of 6 rounds, Next ends each round (rulebook pp. 4-5)
        among_round_ended_unreported(loop)
    assert loop.mode_name is ModeName.SCORES and loop.view()["box"]["asking"] is None  # the scores are shown
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).message == "no phone is asking"
    assert loop.mode_name is ModeName.SCORES
    assert _phone(loop, "games", "bob-phone").error is None and loop.mode_name is ModeName.CHOOSE  # over: at once


def test_a_question_about_a_held_seat_is_dropped_once_the_game_is_over(store, tmp_path):
    """A phone asked for Bob's seat, which Bob's phone holds: the touchscreen asked the table, and the question stayed
    up over the finished game's scores, where nobody reports for a seat any more. It is dropped when the game ends
    (and a late Allow gives the seat to nobody)."""
    loop = evening(store, tmp_path)
    for name, payload in (("choose_game", {"game": "among"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    loop.hub.presence.heard("bob-phone")
    assert _phone(loop, "claim_seat", "bob-phone", player="Bob").error is None
    loop.hub.presence.heard("new-phone")
    assert _phone(loop, "claim_seat", "new-phone", player="Bob").status == 403
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks for Bob's seat")
    for _ in range(24):  # Among the Stars: 4 years of 6 rounds, Next ends each round (rulebook pp. 4-5)
        among_round_ended_unreported(loop)
    assert loop.mode_name is ModeName.SCORES and loop.view()["box"]["asking"] is None  # the scores are shown
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).message == "no phone is asking"
    assert loop.pairing.claims["Bob"] == "bob-phone"


def test_the_tables_seat_question_says_the_holder_as_it_is_now_not_as_it_was_when_asked(store, tmp_path):
    """The touchscreen asks about Ann's seat while Ann's phone was heard from 10 s before; 25 s later the question
    says 35 s, and once Ann's phone is heard from again it says 0 s (the Allow answers the question as the table reads
    it)."""
    clock = Clock()
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.hub.presence.heard("ann-phone")
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    clock.now += 10.0
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    asked = ("A phone asks for Ann's seat, which another phone holds (heard from {} s ago). Give the seat to the "
             "phone that asks?")
    assert loop.view()["box"]["asking"]["question"] == asked.format(10)
    clock.now += 25.0
    assert loop.view()["box"]["asking"]["question"] == asked.format(35)
    loop.hub.presence.heard("ann-phone")
    assert loop.view()["box"]["asking"]["question"] == asked.format(0)
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).error is None
    assert loop.pairing.claims["Ann"] == "new-phone"


def test_a_seat_question_waiting_when_the_box_restarts_is_asked_again_and_allow_still_gives_the_seat(store, tmp_path):
    """The table is asked whether Bob's phone may take Ann's seat (Ann's phone is still here) and the box restarts
    before anyone answers: the touchscreen and the phones show the same question, and Allow gives the seat to the
    phone that asked, as it would have before the restart; once answered, a second restart asks nothing."""
    loop = _race_in_play(store, tmp_path, hub=StateHub())
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    refused = _phone(loop, "claim_seat", "bob-phone", player="Ann")
    assert refused.status == 403
    asked = loop.view()["box"]["asking"]
    assert asked["question"].startswith("A phone asks for Ann's seat")
    again = evening(store, tmp_path, hub=StateHub())  # the box restarts
    assert again.mode_name is ModeName.PLAY and again.session.id == loop.session.id
    assert again.view()["box"]["asking"]["question"].startswith("A phone asks for Ann's seat")
    assert again.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).error is None
    assert again.pairing.claims["Ann"] == "bob-phone" and again.view()["box"]["asking"] is None
    assert evening(store, tmp_path, hub=StateHub()).view()["box"]["asking"] is None


def test_a_damaged_or_stale_kept_table_question_is_dropped_without_stopping_the_box(store, tmp_path):
    from companion import records

    loop = _race_in_play(store, tmp_path, hub=StateHub())
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "claim_seat", "bob-phone", player="Ann").status == 403
    kept = records.load_table_question(loop.store)
    assert kept["client"] == "bob-phone" and kept["game"] == loop.session.id
    for damaged in ({**kept, "game": "another-game"}, {**kept, "asked": {"action": "no_such_action"}},
                    {**kept, "question": {"text": "{who}", "params": {"x": 1}}}, {**kept, "client": 7}, {"asked": []}):
        records.save_table_question(loop.store, damaged)
        again = evening(store, tmp_path, hub=StateHub())
        assert again.mode_name is ModeName.PLAY and again.view()["box"]["asking"] is None, damaged
        assert records.load_table_question(again.store) == {}


@pytest.mark.parametrize("value", [
    '{"client": "bob-phone", "asked": {"action": "claim_seat", "player": "Ann"}, "game": "x", '
    '"question": {"text": "{who[x]}", "plural": null, "n": null, "params": {"who": 5}}}',  # an index into a number
    "[" * 100_000 + "]" * 100_000,  # nested deeper than Python reads JSON
    '{"client": "' + "b" * 5_000_000 + '"}',  # far larger than the box ever keeps
    "{not json",
], ids=["template-indexes-a-number", "nested-past-the-stack", "five-million-characters", "not-json"])
def test_a_hand_damaged_table_question_row_never_stops_the_box(store, tmp_path, value):
    """The session file edited by hand between two runs: the box starts on the same game and asks nothing."""
    loop = _race_in_play(store, tmp_path, hub=StateHub())
    with loop.store.transaction(write=True, doing="a hand edit") as conn:
        conn.execute("INSERT OR REPLACE INTO box_state (key, value, at) VALUES ('table_question', ?, 0)", (value,))
    again = evening(store, tmp_path, hub=StateHub())
    assert again.mode_name is ModeName.PLAY and again.session.id == loop.session.id
    assert again.view()["box"]["asking"] is None


def test_the_tables_question_is_saved_as_a_screenshot_once_when_asked_and_once_when_answered(store, tmp_path):
    """``--screenshot`` (the loop's ``on_change``) saves the touchscreen when a phone's claim on a held seat is put to
    the table, not again while the same question is said with the seconds gone by ("heard from 0 s ago", then 7 s),
    and again once the table allowed it (before, none of these were saved: the game view had not changed)."""
    clock = Clock()
    saved = []
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.on_change = lambda: saved.append(loop.view()["box"]["asking"])
    loop.publish()
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    loop.hub.presence.heard("ann-phone")
    loop.publish()
    saved.clear()
    assert _phone(loop, "claim_seat", "new-phone", player="Ann").status == 403
    loop.publish()
    assert [str(a["question"]) for a in saved] == ["A phone asks for Ann's seat, which another phone holds (heard "
                                                   "from 0 s ago). Give the seat to the phone that asks?"]
    clock.now += 7.0
    loop.publish()
    assert "(heard from 7 s ago)" in str(loop.view()["box"]["asking"]["question"]) and len(saved) == 1
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).error is None
    loop.publish()
    assert saved[1:] == [None] and loop.pairing.claims["Ann"] == "new-phone"
