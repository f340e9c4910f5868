"""The phone view's HTTP answers (Flask test client) to a phone the policy refuses (companion.phone_policy), in the
phone's language: a seat another phone holds, after a restart, a game being played, the table answering another
phone, a lost cookie on a box without a touchscreen, a report for a held seat."""

from __future__ import annotations

import pytest

from companion.hub import StateHub
from companion.modes import ModeName
from companion.phone_policy import (
    AWAY_S,
    PhonePresence,
)
from companion.web import create_app
from tests.phones import joined_phone, post_through_loop
from tests.test_evening import evening
from tests.test_phone_policy import Clock, _phone, _race_in_play

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
