"""What one phone may do to the others' evening (companion.phone_policy): a seat another phone holds is taken over or
freed only once that phone is away (or given up by it, or freed on the touchscreen); a game being played is left from
the touchscreen, once it is over, or, on a box without a touchscreen, from a player's phone. The policy's functions
and the main loop's answers; the phone view's answers in the phone's language are in test_phone_policy_answers.py,
the table's question on the touchscreen in test_table_question.py, the phone pages in test_phone_policy_browser.py."""

from __future__ import annotations

import pytest

from companion.actions import Action
from companion.hub import StateHub
from companion.i18n import say
from companion.modes import ModeName
from companion.phone_policy import (
    AWAY_S,
    PhonePresence,
    SeatHold,
    leaving_question,
    leaving_refused,
    seat_question,
    seat_refused,
)
from tests.test_evening import among_round_ended_unreported, evening


class Clock:
    """A monotonic clock the test moves (s)."""

    def __init__(self, now: float = 500.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# -- the policy ---------------------------------------------------------------------------------------------------


def test_a_held_seat_is_taken_over_only_from_a_phone_away_two_minutes():
    assert AWAY_S == 120.0  # the documented two minutes
    assert seat_refused(SeatHold("Ann", AWAY_S, screenless=False)) is None
    assert seat_refused(SeatHold("Ann", 3600.0, screenless=True)) is None
    here = str(seat_refused(SeatHold("Ann", 12.4, screenless=False)))
    assert here.startswith("Ann's seat is held by a phone that is still here (heard from 12 s ago)")
    assert "the box's touchscreen now asks the table to give it to this phone" in here
    assert here.endswith('Ann taps "Give up my seat" on that phone, then tap Ann again')
    assert str(seat_question(SeatHold("Ann", 12.4, screenless=False))) == (
        "A phone asks for Ann's seat, which another phone holds (heard from 12 s ago). Give the seat to the phone "
        "that asks?")
    freeing = str(seat_refused(SeatHold("Ann", 0.0, screenless=False), freeing=True))
    assert "touchscreen frees it" in freeing and "tap Ann again" not in freeing
    alone = str(seat_refused(SeatHold("Ann", AWAY_S - 0.5, screenless=True)))
    assert "touchscreen" not in alone and alone.endswith("try again in 1 s, when it has been away 120 s")
    lost = str(seat_refused(SeatHold("Ann", 45.2, screenless=True)))  # Ann's own phone that lost its cookie asks
    assert lost.endswith('Ann taps "Give up my seat" on that phone; if that phone is gone (a flat battery, a lost '
                         'cookie), try again in 75 s, when it has been away 120 s')
    assert seat_refused(SeatHold("Ann", 30.0, screenless=False), away_s=30.0) is None  # the limit is a parameter


def test_a_game_being_played_is_left_from_the_touchscreen_or_a_players_phone():
    for screenless in (False, True):  # a move that leaves no game being played is every joined phone's
        assert leaving_refused(None, screenless=screenless, holds_seat=False, seats_held=True) is None
    said = str(leaving_refused("Race for the Galaxy", screenless=False, holds_seat=True, seats_held=True))
    assert said.startswith("Race for the Galaxy is being played: the box's touchscreen now asks the table whether to "
                           "leave it") and "Resume brings it back" in said
    behind = str(leaving_refused("Race for the Galaxy", screenless=False, holds_seat=True, seats_held=True,
                                 behind=True))
    assert "behind this screen" in behind and "Back returns to it" in behind
    assert str(leaving_question("Race for the Galaxy", "Choose a game")) == (
        "A phone asks to leave Race for the Galaxy, which is being played (Choose a game). The game stays open: "
        "Resume brings it back. Allow?")
    # without a touchscreen: one of the game's players, or anyone when no phone holds a seat
    assert leaving_refused("Race for the Galaxy", screenless=True, holds_seat=True, seats_held=True) is None
    assert leaving_refused("Race for the Galaxy", screenless=True, holds_seat=False, seats_held=False) is None
    alone = str(leaving_refused("Race for the Galaxy", screenless=True, holds_seat=False, seats_held=True))
    assert "only a player's phone leaves it" in alone and "touchscreen" not in alone


def test_presence_counts_from_the_last_request_and_from_the_start_for_a_phone_never_heard():
    clock = Clock(100.0)
    presence = PhonePresence(clock)
    clock.now = 130.0
    assert presence.quiet_for("never-seen") == 30.0  # a box just started: every phone counts as here at its start
    presence.heard("ann-phone")
    clock.now = 200.0
    assert presence.quiet_for("ann-phone") == 70.0 and presence.quiet_for("never-seen") == 100.0
    presence.heard("ann-phone")
    assert presence.quiet_for("ann-phone") == 0.0
    assert presence.heard_since_start("ann-phone") and not presence.heard_since_start("never-seen")


def test_a_phone_not_heard_from_since_the_box_started_is_never_said_to_be_still_here():
    """Right after a restart a seat kept from before is held by a phone that has not come back yet: it counts as here
    until two minutes after the start, and what the phone that asks and the table are told says it has not been heard
    from since the box started (and when it counts as away), never that it is still here."""
    clock = Clock(100.0)
    presence = PhonePresence(clock)  # the box started at 100 s
    clock.now = 105.4
    quiet, heard = presence.quiet_for("old-cookie"), presence.heard_since_start("old-cookie")
    assert quiet == pytest.approx(5.4) and heard is False
    hold = SeatHold("Ann", quiet, screenless=False, heard=heard)
    asking = str(seat_refused(hold))
    assert asking == ("Ann's seat is held by a phone the box has not heard from since it started 5 s ago (it counts as "
                      "away 120 s after the start): the box's touchscreen now asks the table to give it to this phone; "
                      'or Ann taps "Give up my seat" on that phone, then tap Ann again')
    assert str(seat_question(hold)) == ("A phone asks for Ann's seat, which another phone holds (not heard from since "
                                        "the box started 5 s ago). Give the seat to the phone that asks?")
    freeing = str(seat_refused(hold, freeing=True))
    assert freeing == ("Ann's seat is held by a phone the box has not heard from since it started 5 s ago (it counts "
                       'as away 120 s after the start): Ann taps "Give up my seat" on that phone, or the box\'s '
                       "touchscreen frees it (tap the QR code, then Free seat)")
    alone = str(seat_refused(SeatHold("Ann", quiet, screenless=True, heard=heard)))  # 120 - 5.4 = 114.6: 115 s
    assert alone == ("Ann's seat is held by a phone the box has not heard from since it started 5 s ago: Ann taps "
                     '"Give up my seat" on that phone; if that phone is gone (a flat battery, a lost cookie), try '
                     "again in 115 s, when it counts as away (120 s after the start)")
    clock.now = 220.0  # two minutes after the start and still nothing from it: away, taken over without asking
    assert seat_refused(SeatHold("Ann", presence.quiet_for("old-cookie"), False, heard=False)) is None
    presence.heard("old-cookie")  # the old phone is back: still here from now on
    clock.now = 223.0
    back = SeatHold("Ann", presence.quiet_for("old-cookie"), False, heard=presence.heard_since_start("old-cookie"))
    assert str(seat_refused(back)).startswith("Ann's seat is held by a phone that is still here (heard from 3 s ago)")
    assert "(heard from 3 s ago)" in str(seat_question(back))


# -- the main loop ------------------------------------------------------------------------------------------------


def _race_in_play(store, tmp_path, **kw):
    """An evening on Race for the Galaxy, Ann and Bob, started on the touchscreen: the game is being played."""
    loop = evening(store, tmp_path, **kw)
    for name, payload in (("choose_game", {"game": "race"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    assert loop.mode_name is ModeName.PLAY
    return loop


def _phone(loop, name: str, client: str, **payload):
    return loop.dispatch({"action": Action(name), "origin": "phone", "client": client, **payload})


def test_a_phone_does_not_move_the_box_off_a_game_being_played_but_the_touchscreen_does(store, tmp_path):
    loop = _race_in_play(store, tmp_path)
    session = loop.session.id
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "report", "ann-phone", player="Ann", form="hand", values={"cards": 5}).error is None
    for name, payload in (("games", {}), ("history", {}), ("choose_game", {"game": "among"}),
                          ("choose_game", {"game": "race"}), ("choose_game", {"game": "d6"})):
        refused = _phone(loop, name, "ann-phone", **payload)  # a seated phone too: the table decides at the box
        assert refused.status == 403, name
        assert refused.error.startswith("Race for the Galaxy is being played: the box's touchscreen now asks")
        assert loop.mode_name is ModeName.PLAY and loop.session.id == session
        assert loop.view()["box"]["asking"]["question"].startswith("A phone asks to leave Race for the Galaxy")
    assert loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"}).error is None  # the table: no
    assert loop.view()["box"]["asking"] is None and loop.mode_name is ModeName.PLAY
    # the touchscreen opens the chooser over the game: a phone may go Back to it or resume it, not choose another
    assert loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"}).error is None
    refused = _phone(loop, "choose_game", "bob-phone", game="among")
    assert refused.status == 403 and "behind this screen" in refused.error and loop.mode_name is ModeName.CHOOSE
    loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"})
    assert _phone(loop, "history", "bob-phone").error is None  # another screen over the chooser: the game stays
    assert _phone(loop, "resume_game", "bob-phone", session=session).error is None
    assert loop.mode_name is ModeName.PLAY and loop.session.id == session
    assert loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"}).error is None
    assert _phone(loop, "back", "bob-phone").error is None and loop.mode_name is ModeName.PLAY
    # a phone's move the table allows on the touchscreen is made (carol: the table refused bob a moment ago);
    # nothing of the game was lost (Resume brings it back)
    assert _phone(loop, "choose_game", "carol-phone", game="d6").status == 403 and loop.mode_name is ModeName.PLAY
    allowed = loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"})
    assert allowed.error is None and loop.mode_name is ModeName.DICE and loop.view()["box"]["asking"] is None
    assert _phone(loop, "games", "bob-phone").error is None  # the dice are no game being played
    assert _phone(loop, "resume_game", "bob-phone", session=session).error is None  # nothing left behind
    assert loop.session.id == session and loop.flow.session.last_seq == 1


def test_a_game_that_is_over_is_left_from_any_joined_phone(store, tmp_path):
    loop = evening(store, tmp_path)
    for name, payload in (("choose_game", {"game": "among"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    assert _phone(loop, "games", "bob-phone").status == 403
    loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"})
    for _ in range(24):  # Among the Stars: 4 years of 6 rounds, Next ends each round (rulebook pp. 4-5)
        among_round_ended_unreported(loop)
    assert loop.mode_name is ModeName.SCORES
    assert _phone(loop, "games", "bob-phone").error is None and loop.mode_name is ModeName.CHOOSE


def test_without_a_touchscreen_a_players_phone_leaves_the_game(store, tmp_path):
    loop = _race_in_play(store, tmp_path, no_screen=True)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    refused = _phone(loop, "games", "watcher-phone")  # joined, holds no seat, while Ann's phone holds hers
    assert refused.status == 403 and "only a player's phone leaves it" in refused.error
    assert loop.mode_name is ModeName.PLAY
    assert _phone(loop, "games", "ann-phone").error is None and loop.mode_name is ModeName.CHOOSE
    assert _phone(loop, "choose_game", "watcher-phone", game="d6").status == 403  # the game is behind the chooser
    assert _phone(loop, "choose_game", "ann-phone", game="d6").error is None and loop.mode_name is ModeName.DICE


def test_a_seat_refused_to_a_phone_is_given_to_it_when_the_table_allows_it_on_the_touchscreen(store, tmp_path):
    loop = _race_in_play(store, tmp_path)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    loop.hub.presence.heard("ann-phone")
    refused = _phone(loop, "claim_seat", "new-phone", player="ann")  # Ann's new phone; her old one is still here
    assert refused.status == 403 and loop.pairing.claims["Ann"] == "ann-phone"
    assert loop.view()["box"]["asking"] == {"phone": "a phone", "question": "A phone asks for Ann's seat, which "
                                            "another phone holds (heard from 0 s ago). Give the seat to the phone "
                                            "that asks?"}
    allowed = loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"})
    assert allowed.error is None and allowed.message == "Ann's seat moved to the phone that asked for it"
    assert loop.pairing.claims["Ann"] == "new-phone" and loop.view()["box"]["asking"] is None
    # the owner page's request is asked as before, and replaces a question no one answered
    _phone(loop, "claim_seat", "ann-phone", player="Ann")
    assert _phone(loop, "owner_ask", "ann-phone").error is None
    assert loop.view()["box"]["asking"] == {"phone": "a phone"}
    assert loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"}).error is None
    assert "ann-phone" in loop.pairing.owners and loop.pairing.claims["Ann"] == "new-phone"


def test_a_phone_frees_its_own_seat_and_another_phones_only_once_that_phone_is_away(store, tmp_path):
    clock = Clock()
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.hub.presence.heard("ann-phone")
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    refused = _phone(loop, "release_seat", "bob-phone", player="Ann")
    assert refused.status == 403 and "still here" in refused.error and loop.pairing.claims["Ann"] == "ann-phone"
    clock.now += AWAY_S
    assert _phone(loop, "release_seat", "bob-phone", player="Ann").error is None and "Ann" not in loop.pairing.claims
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None  # Ann's phone back: it claims again
    loop.hub.presence.heard("ann-phone")
    assert _phone(loop, "release_seat", "ann-phone", player="Ann").error is None  # "Give up my seat"
    assert loop.pairing.claims == {}


def test_a_phones_back_with_nothing_behind_the_game_is_a_move_off_it(store, tmp_path):
    """Back from a game with no screen behind it goes to the chooser, as Games does: from a phone it is refused and
    the table is asked, on a box without a touchscreen too; Back to a game behind the chooser stays every phone's."""
    loop = _race_in_play(store, tmp_path)
    refused = _phone(loop, "back", "bob-phone")
    assert refused.status == 403 and refused.error.startswith("Race for the Galaxy is being played: the box's "
                                                              "touchscreen now asks")
    assert loop.mode_name is ModeName.PLAY
    assert "being played (Back)" in loop.view()["box"]["asking"]["question"]
    loop.dispatch({"action": Action.OWNER_REFUSE, "origin": "touchscreen"})
    assert loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"}).error is None
    assert _phone(loop, "back", "bob-phone").error is None and loop.mode_name is ModeName.PLAY
    screenless = _race_in_play(store, tmp_path / "screenless", no_screen=True)
    assert _phone(screenless, "claim_seat", "ann-phone", player="Ann").error is None
    refused = _phone(screenless, "back", "watching-phone")
    assert refused.status == 403 and "only a player's phone leaves it" in refused.error
    assert screenless.mode_name is ModeName.PLAY


def test_choosing_a_game_the_box_does_not_have_is_refused_as_such_without_asking_the_table(store, tmp_path):
    loop = _race_in_play(store, tmp_path)
    refused = _phone(loop, "choose_game", "bob-phone", game="chess")
    assert refused.status == 400 and "'chess' is not one of the box's games" in refused.error
    assert loop.view()["box"]["asking"] is None and loop.mode_name is ModeName.PLAY
    # the table can still be asked about a real request at once
    assert _phone(loop, "games", "carol-phone").status == 403
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks to leave Race for the Galaxy")


def test_resuming_a_game_the_box_has_not_recorded_is_refused_as_such_without_asking_the_table(store, tmp_path):
    """A phone resuming a session id that names no game here (made up, empty, not text) while a game is played is told
    there is no such game, and the touchscreen is not asked to leave the game for it."""
    loop = _race_in_play(store, tmp_path)
    for session in ("no-such-game", "", 7):
        refused = _phone(loop, "resume_game", "bob-phone", session=session)
        assert refused.status == 400 and refused.error, (session, refused.error)
        assert loop.view()["box"]["asking"] is None and loop.mode_name is ModeName.PLAY
    unknown = _phone(loop, "resume_game", "bob-phone", session="no-such-game").error
    assert str(unknown) == ("no game 'no-such-game' in this box's record: pick one of the games listed under Games or "
                            "History")  # what is wrong and what to do
    # hand-written: the way out, in each language, with the names of the buttons the phone shows
    for lang, words in (("el", "στα Παιχνίδια ή στο Ιστορικό"), ("pl", "z listy w Gry albo Historia"),
                        ("hu", "a Játékok vagy az Előzmények listájából")):
        assert words in say(unknown, lang) and "'no-such-game'" in say(unknown, lang)
    # a game that is recorded is still a move off the game being played: the table is asked
    old = loop.session.id
    assert loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"}).error is None
    for name, payload in (("choose_game", {"game": "among"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    assert _phone(loop, "resume_game", "bob-phone", session=old).status == 403
    assert loop.view()["box"]["asking"]["question"].startswith("A phone asks to leave Among the Stars")
