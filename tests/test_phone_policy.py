"""What one phone may do to the others' evening (companion.phone_policy): a seat another phone holds is taken over or
freed only once that phone is away (or given up by it, or freed on the touchscreen); a game being played is left from
the touchscreen, once it is over, or, on a box without a touchscreen, from a player's phone. The policy's functions,
the main loop's answers, and the phone view's HTTP answers (Flask test client) in the phone's language."""

from __future__ import annotations

import pytest

from companion.actions import Action
from companion.hub import StateHub
from companion.i18n import say
from companion.modes import ModeName
from companion.phone_policy import (
    AWAY_S,
    REASK_S,
    PhonePresence,
    SeatHold,
    leaving_question,
    leaving_refused,
    seat_question,
    seat_refused,
)
from companion.web import create_app
from tests.phones import joined_phone, post_through_loop
from tests.test_evening import among_round_ended_unreported, evening
from tests.test_phone_browser import browser  # noqa: F401 (fixture)


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


# -- the phone view -------------------------------------------------------------------------------------------------


def test_the_phone_view_refuses_a_takeover_in_the_phones_language_until_the_holder_is_away(store, tmp_path):
    """Two phones through HTTP: Ann's phone's requests keep her seat hers; Bob's phone, speaking Polish, is told why
    not and what to do (403); two minutes after Ann's phone's last request, Bob's phone takes the seat over (200),
    and Ann's phone no longer has it."""
    clock = Clock()
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.publish()
    ann, bob = joined_phone(loop.hub, reply_s=30), joined_phone(loop.hub, reply_s=30)
    bob.set_cookie("lang", "pl")
    assert post_through_loop(ann, loop, "/api/seat", {"player": "Ann"}).status_code == 200
    clock.now += AWAY_S - 1
    assert ann.get("/api/me").get_json()["seats"] == ["Ann"]  # a request: Ann's phone is here
    clock.now += AWAY_S - 1
    refused = post_through_loop(bob, loop, "/api/seat", {"player": "ann"})
    assert refused.status_code == 403
    error = refused.get_json()["error"]
    assert error.startswith("Ann: miejsce zajmuje telefon, który wciąż tu jest"), error
    assert "Oddaj moje miejsce" in error and "119" in error
    assert post_through_loop(bob, loop, "/api/seat/free", {"player": "Ann"}).status_code == 403
    assert ann.get("/api/me").get_json()["seats"] == ["Ann"] and bob.get("/api/me").get_json()["seats"] == []
    clock.now += AWAY_S  # then Ann's phone died: no request since
    taken = post_through_loop(bob, loop, "/api/seat", {"player": "Ann"})
    assert taken.status_code == 200, taken.get_json()
    assert bob.get("/api/me").get_json()["seats"] == ["Ann"] and ann.get("/api/me").get_json()["seats"] == []
    assert loop.flow.session.last_seq == 0  # nothing recorded, nothing lost


WEB_KEY = b"tests-box-cookie-signing-key-0000"  # the box's own cookie key, kept across a restart (web_secret_key)

# hand-written: who holds Ann's seat, as a phone asking for it 5 s after the box restarted is told in its language
# while Ann's phone from before the restart has not come back yet
NOT_HEARD = {"en": "Ann's seat is held by a phone the box has not heard from since it started 5 s ago (it counts as "
                   "away 120 s after the start): the box's touchscreen now asks the table",
             "el": "Ann: η θέση ανήκει σε τηλέφωνο που δεν έχει ακουστεί από τότε που ξεκίνησε το κουτί, πριν "
                   "από 5 s (θεωρείται απόν 120 s μετά την εκκίνηση): η οθόνη αφής του κουτιού ρωτά τώρα το τραπέζι",
             "pl": "Ann: miejsce zajmuje telefon, który nie odezwał się od uruchomienia pudełka 5 s temu "
                   "(zostanie uznany za nieobecny 120 s po uruchomieniu): ekran dotykowy pudełka pyta teraz stół",
             "hu": "Ann helyét egy telefon foglalja, amely nem jelentkezett, mióta a doboz 5 mp-e elindult (az indulás "
                   "után 120 mp-cel távollévőnek számít): a doboz érintőképernyője most megkérdezi az asztalt"}
STILL_HERE = {"en": "Ann's seat is held by a phone that is still here (heard from 3 s ago)",
              "el": "Ann: η θέση ανήκει σε τηλέφωνο που είναι ακόμα εδώ (ακούστηκε πριν από 3 s)",
              "pl": "Ann: miejsce zajmuje telefon, który wciąż tu jest (odezwał się 3 s temu)",
              "hu": "Ann helyét egy telefon foglalja, amely még itt van (3 mp-e jelentkezett)"}


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_after_a_restart_a_phone_not_back_yet_is_said_not_heard_from_since_the_start(store, tmp_path, lang):
    """Ann's phone holds her seat; the box restarts (a new loop and phone view on the same database, the phones'
    presence from nothing). 5 s later another phone asks for the seat: it is told, in its language, that the holder
    has not been heard from since the box started 5 s ago and counts as away at 120 s, and the touchscreen's question
    says the same; once Ann's phone is back (its cookie from before the restart), both say it is still here."""
    loop = _race_in_play(store, tmp_path, hub=StateHub(presence=PhonePresence(Clock())))
    loop.publish()
    old = joined_phone(loop.hub, reply_s=30, secret_key=WEB_KEY)
    assert post_through_loop(old, loop, "/api/seat", {"player": "Ann"}).status_code == 200
    cookie = old.get_cookie("companion").value
    clock = Clock(20.0)  # the restart: a new process and its own monotonic clock
    loop = evening(store, tmp_path, hub=StateHub(presence=PhonePresence(clock)))
    loop.publish()
    assert loop.mode_name is ModeName.PLAY and list(loop.pairing.claims) == ["Ann"]
    new = joined_phone(loop.hub, reply_s=30, secret_key=WEB_KEY)
    new.set_cookie("lang", lang)
    clock.now += 5.0
    refused = post_through_loop(new, loop, "/api/seat", {"player": "Ann"})
    error = refused.get_json()["error"]
    assert refused.status_code == 403 and error.startswith(NOT_HEARD[lang]), error
    assert loop.view()["box"]["asking"]["question"] == (  # the touchscreen speaks the box's language (English here)
        "A phone asks for Ann's seat, which another phone holds (not heard from since the box started 5 s ago). Give "
        "the seat to the phone that asks?")
    # Ann's phone comes back with its cookie from before the restart: its seat is still its own, and it is here
    back = create_app(loop.hub, reply_s=30, secret_key=WEB_KEY).test_client()
    back.set_cookie("companion", cookie)
    assert back.get("/api/me").get_json()["seats"] == ["Ann"]
    clock.now += 3.0
    again = post_through_loop(new, loop, "/api/seat", {"player": "Ann"})  # the same phone asks again
    error = again.get_json()["error"]
    assert again.status_code == 403 and error.startswith(STILL_HERE[lang]), error
    assert "(heard from 3 s ago)" in loop.view()["box"]["asking"]["question"]
    assert back.get("/api/me").get_json()["seats"] == ["Ann"] and new.get("/api/me").get_json()["seats"] == []


# hand-written: "... is being played: the box's touchscreen now asks the table whether to leave it" and "Resume" as
# a Greek, Polish and Hungarian player reads them
BEING_PLAYED = {"el": ("παίζεται: η οθόνη αφής του κουτιού ρωτά τώρα το τραπέζι αν θα το αφήσει", "Συνέχεια"),
                "pl": ("trwa: ekran dotykowy pudełka pyta teraz stół, czy ją opuścić", "Wznów"),
                "hu": ("folyamatban van: a doboz érintőképernyője most megkérdezi az asztalt", "Folytatás")}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_phone_is_told_in_its_language_how_to_leave_a_game_being_played(store, tmp_path, lang):
    loop = _race_in_play(store, tmp_path)
    loop.publish()
    phone = joined_phone(loop.hub, reply_s=30)
    phone.set_cookie("lang", lang)
    answer = post_through_loop(phone, loop, "/api/box", {"action": "choose", "game": "among", "version": 0,
                                                          "key": "leave1"})
    assert answer.status_code == 403 and loop.mode_name is ModeName.PLAY
    error = answer.get_json()["error"]
    said, resume = BEING_PLAYED[lang]
    assert "Race for the Galaxy" in error and said in error and resume in error, error


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


@pytest.mark.browser
def test_without_a_touchscreen_a_players_phone_leaves_the_game_and_a_watchers_is_told_why_not(store, tmp_path, browser,  # noqa: F811
                                                                                               output_dir):
    """Real browsers on a box without a touchscreen: during play the phone page offers Games; a joined phone holding no
    seat says yes to "Leave Race for the Galaxy?" and is refused, said why; Ann's phone (her seat) leaves it and both
    pages follow the box to the chooser."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.phones import LoopThread
    from tests.test_camera_browser import page_for

    loop = _race_in_play(store, tmp_path, no_screen=True)
    loop.publish()
    server = serve(create_app(loop.hub), host="127.0.0.1", port=0)
    pages = []
    try:
        with LoopThread(loop):
            link = f"{server.url}join/{loop.hub.pairing().secret}"
            pages = [page_for(browser, link), page_for(browser, link)]
            (_, ann, _), (_, watcher, _) = pages
            ann.locator("#seats button", has_text="Ann").click()
            expect(ann.locator("#me")).to_have_text("Ann")
            asked: list[str] = []

            def yes(dialog) -> None:
                asked.append(dialog.message)
                dialog.accept()

            games = watcher.locator("#box-nav button", has_text="Games")
            expect(games).to_be_visible()
            watcher.once("dialog", yes)
            games.click()
            expect(watcher.locator("#nav-result")).to_contain_text("only a player's phone leaves it before it is over")
            expect(watcher.locator("#nav-result")).to_have_class("action-result error")
            assert asked == ["Leave Race for the Galaxy? It stays open: Resume brings it back."]
            watcher.screenshot(path=str(output_dir / "phone_leave_refused.png"), full_page=True)
            assert loop.mode_name is ModeName.PLAY
            ann.once("dialog", yes)
            ann.locator("#box-nav button", has_text="Games").click()
            for page in (ann, watcher):  # the box moved: every page follows it to the chooser
                expect(page.locator("#choose-section")).to_be_visible()
        assert loop.mode_name is ModeName.CHOOSE
    finally:
        for context, _, _ in pages:
            context.close()
        server.shutdown()
    assert all(errors == [] for _, _, errors in pages)


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


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_phone_is_told_in_its_language_that_the_table_is_answering_another_phone(store, tmp_path, lang):
    loop = _race_in_play(store, tmp_path)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    assert _phone(loop, "games", "carol-phone").status == 403  # the table is asked about carol's phone
    phone = joined_phone(loop.hub)
    phone.set_cookie("lang", lang)
    answer = post_through_loop(phone, loop, "/api/box", {"action": "games", "version": 0, "key": "busy1"})
    said = answer.get_json()["error"]
    assert answer.status_code == 403 and said == BUSY_TABLE[lang], said
    assert loop.mode_name is ModeName.PLAY


BUSY_TABLE = {
    "el": "η οθόνη αφής του κουτιού ρωτά αυτή τη στιγμή το τραπέζι για το αίτημα άλλου τηλεφώνου: πατήστε ξανά μόλις "
          "απαντήσει το τραπέζι",
    "pl": "ekran dotykowy pudełka pyta właśnie stół o prośbę innego telefonu: dotknij ponownie, gdy stół odpowie",
    "hu": "a doboz érintőképernyője éppen egy másik telefon kéréséről kérdezi az asztalt: koppints újra, miután az "
          "asztal válaszolt",
}


# hand-written: what a phone that lost its cookie is told on a box without a touchscreen, 45 s after its old cookie's
# last request (120 - 45 = 75 s to wait), as a Greek, Polish and Hungarian player reads it
TRY_AGAIN = {"el": "αν εκείνο το τηλέφωνο δεν υπάρχει πια (άδεια μπαταρία, χαμένο cookie), δοκιμάστε ξανά σε 75 s",
             "pl": "jeśli tamtego telefonu już nie ma (rozładowana bateria, utracone ciasteczko), spróbuj ponownie za "
                   "75 s",
             "hu": "ha az a telefon már nincs meg (lemerült akku, elveszett süti), próbáld újra 75 mp múlva"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_without_a_touchscreen_a_phone_that_lost_its_cookie_is_told_when_to_try_again(store, tmp_path, lang):
    clock = Clock()
    loop = _race_in_play(store, tmp_path, no_screen=True, hub=StateHub(presence=PhonePresence(clock)))
    loop.publish()
    old, new = joined_phone(loop.hub, reply_s=30), joined_phone(loop.hub, reply_s=30)
    new.set_cookie("lang", lang)
    assert post_through_loop(old, loop, "/api/seat", {"player": "Ann"}).status_code == 200
    clock.now += 45  # the old cookie is gone with its browser: no request since
    refused = post_through_loop(new, loop, "/api/seat", {"player": "Ann"})
    assert refused.status_code == 403 and TRY_AGAIN[lang] in refused.get_json()["error"], refused.get_json()
    clock.now += 75
    assert post_through_loop(new, loop, "/api/seat", {"player": "Ann"}).status_code == 200
    assert new.get("/api/me").get_json()["seats"] == ["Ann"]


@pytest.mark.browser
def test_phones_asking_for_a_held_seat_are_told_who_the_table_answers_and_a_seat_given_up_ends_the_question(
        store, tmp_path, browser, output_dir):  # noqa: F811
    """Real browsers on a box with a touchscreen: Ann's phone holds her seat; Bob's phone taps it and the touchscreen
    asks the table; Carol's phone taps it too and is told the table is answering another phone's request (its page
    says so); Ann gives her seat up on her phone: the touchscreen stops asking, and Carol's next tap takes the seat."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.phones import LoopThread
    from tests.test_camera_browser import page_for

    loop = _race_in_play(store, tmp_path)
    loop.publish()
    server = serve(create_app(loop.hub), host="127.0.0.1", port=0)
    pages = []
    try:
        with LoopThread(loop):
            link = f"{server.url}join/{loop.hub.pairing().secret}"
            pages = [page_for(browser, link) for _ in range(3)]
            (_, ann, _), (_, bob, _), (_, carol, _) = pages
            for page in (ann, bob, carol):
                page.on("dialog", lambda dialog: dialog.accept())  # "Take it over?", "Give up Ann's seat?"
            ann.locator("#seats button", has_text="Ann").click()
            expect(ann.locator("#me")).to_have_text("Ann")
            bob.locator("#seats button", has_text="Ann").click()
            expect(bob.locator("#seat-result")).to_contain_text("the box's touchscreen now asks the table")
            carol.locator("#seats button", has_text="Ann").click()
            expect(carol.locator("#seat-result")).to_have_text(
                "the box's touchscreen is asking the table about another phone's request right now: tap again once "
                "the table has answered it")
            expect(carol.locator("#seat-result")).to_have_class("action-result error")
            carol.screenshot(path=str(output_dir / "phone_table_busy.png"), full_page=True)
            asking = loop.hub.snapshot().view["box"]["asking"]  # what the touchscreen shows (published)
            assert asking["question"].startswith("A phone asks for Ann's seat")
            ann.locator("#give-up-seat").click()
            expect(ann.locator("#seat-result")).to_contain_text("Ann's seat is free")
            assert loop.hub.snapshot().view["box"]["asking"] is None  # published before the answer: not asked now
            carol.locator("#seats button", has_text="Ann").click()
            expect(carol.locator("#me")).to_have_text("Ann")
        assert loop.view()["box"]["asking"] is None and list(loop.pairing.claims) == ["Ann"]
        assert loop.mode_name is ModeName.PLAY and loop.flow.session.last_seq == 0
    finally:
        for context, _, _ in pages:
            context.close()
        server.shutdown()
    assert all(errors == [] for _, _, errors in pages)


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


def test_a_report_for_a_seat_another_phone_holds_says_where_it_is_reassigned_in_hungarian(store, tmp_path):
    """A Hungarian phone reporting for Ann's seat held by another phone is told the seat can be reassigned *on* the
    touchscreen ("az érintőképernyőn"), not that the touchscreen itself can be reassigned ("az érintőképernyő")."""
    from companion import i18n

    loop = _race_in_play(store, tmp_path)
    assert _phone(loop, "claim_seat", "ann-phone", player="Ann").error is None
    refused = _phone(loop, "report", "bob-phone", player="Ann", form="hand", values={"cards": 5})
    assert refused.status == 403
    assert i18n.localize(refused.error, "hu") == ("Ann helyét egy másik telefon foglalja; az érintőképernyőn újra "
                                                  "kiosztható")
    assert i18n.localize(refused.error, "pl") == "Ann: miejsce zajmuje inny telefon; ekran dotykowy może je " \
                                                 "przydzielić ponownie"


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
