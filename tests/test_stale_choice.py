"""A phone's Choose or Resume tapped on a chooser the box has already left (another phone chose a game a moment
before, or both tapped at once): the game being set up stays, and the phone is told to look again (409), in its
language. Found at a table where a Polish phone chose Race for the Galaxy and added a player while a Hungarian phone,
still showing the chooser, tapped Among the Stars: both were told their game was chosen, and the box went to Among
the Stars' setup."""

from __future__ import annotations

from companion.actions import Action
from companion.i18n import say
from companion.modes import ModeName
from tests.test_evening import evening


def _phone(loop, name: str, client: str, **payload):
    return loop.dispatch({"action": Action(name), "origin": "phone", "client": client, **payload})


def _race_being_set_up(loop) -> None:
    assert _phone(loop, "choose_game", "ewa-phone", game="race").error is None
    assert _phone(loop, "setup_player", "ewa-phone", player="Agnieszka").error is None
    assert loop.mode_name is ModeName.SETUP


def test_a_choice_from_a_chooser_the_box_has_left_keeps_the_game_being_set_up(store, tmp_path):
    loop = evening(store, tmp_path)
    assert loop.mode_name is ModeName.CHOOSE
    _race_being_set_up(loop)
    late = _phone(loop, "choose_game", "zsofi-phone", game="among")
    assert late.status == 409
    assert str(late.error) == ("the box is no longer on the game chooser (it now shows Race for the Galaxy): nothing "
                               "changed; look at the screen and tap again")
    view = loop.view()
    assert loop.mode_name is ModeName.SETUP and view["game"]["game"] == "race"
    assert [p["name"] for p in view["game"]["players"]] == ["Agnieszka"]
    # hand-written: the same in each language, the game named as the chooser names it
    for lang, words in (("el", "το κουτί δεν είναι πια στην επιλογή παιχνιδιού (δείχνει τώρα: Race for the Galaxy)"),
                        ("pl", "pudełko nie jest już na wyborze gry (teraz pokazuje: Race for the Galaxy)"),
                        ("hu", "a doboz már nem a játékválasztón van (most ezt mutatja: Race for the Galaxy)")):
        assert say(late.error, lang).startswith(words), say(late.error, lang)
    # the same game chosen again late changes nothing either: the phone looks at the screen
    assert _phone(loop, "choose_game", "zsofi-phone", game="race").status == 409
    assert [p["name"] for p in loop.view()["game"]["players"]] == ["Agnieszka"]


def test_a_resume_from_a_chooser_the_box_has_left_keeps_the_game_being_set_up(store, tmp_path):
    loop = evening(store, tmp_path)
    for name, payload in (("choose_game", {"game": "roll"}), ("setup_player", {"player": "Ann"}),
                          ("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    roll = loop.session.id
    for name, payload in (("games", {}), ("choose_game", {"game": "race"}), ("setup_player", {"player": "Ann"})):
        assert loop.dispatch({"action": Action(name), "origin": "touchscreen", **payload}).error is None
    late = _phone(loop, "resume_game", "zsofi-phone", session=roll)
    assert late.status == 409 and "no longer on the game chooser" in str(late.error)
    assert loop.mode_name is ModeName.SETUP and loop.view()["game"]["game"] == "race"


def test_the_touchscreen_and_a_phone_on_the_chooser_or_the_history_still_choose(store, tmp_path):
    loop = evening(store, tmp_path)
    _race_being_set_up(loop)
    # the touchscreen draws what the box shows: its tap is never made on a screen it left
    assert loop.dispatch({"action": Action.CHOOSE_GAME, "origin": "touchscreen", "game": "among"}).error is None
    assert loop.view()["game"]["game"] == "among"
    assert _phone(loop, "games", "ewa-phone").error is None
    assert _phone(loop, "choose_game", "ewa-phone", game="race").error is None  # the setup kept its player
    assert [p["name"] for p in loop.view()["game"]["players"]] == ["Agnieszka"]
    for name, payload in (("setup_player", {"player": "Bob"}), ("setup_start", {})):
        assert _phone(loop, name, "ewa-phone", **payload).error is None
    race = loop.session.id
    assert _phone(loop, "games", "ewa-phone").status == 403  # a game being played: the table is asked (as before)
    loop.dispatch({"action": Action.OWNER_ALLOW, "origin": "touchscreen"})
    assert loop.mode_name is ModeName.CHOOSE
    assert _phone(loop, "history", "ewa-phone").error is None
    assert _phone(loop, "resume_game", "ewa-phone", session=race).error is None  # Resume on the history page
    assert loop.mode_name is ModeName.PLAY and loop.session.id == race
