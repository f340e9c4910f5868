"""A whole evening on the box with no terminal (issue 17): the chooser, a game's players, the table check, play,
the scores, the history (open one, export it) and back to the chooser, each as a mode of the one loop moved by
actions (``MainLoop.dispatch``); a restart comes back to the game the table was on; the phones stay joined; the
box's settings and the owner phones; the health checks on the status line."""

from __future__ import annotations

import contextlib
import json

import numpy as np

from companion.actions import Action
from companion.app import MainLoop
from companion.box_settings import BoxSettings
from companion.camera import CameraFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.library import Library
from companion.modes import ModeName
from companion.session import SessionStore
from device import FakeCamera
from vision.motion import StillnessDetector

W, H = 320, 240


class FakeReader:
    """A d6 reader that sees no dice (the chooser's dice entry needs one; nothing is read in these tests)."""

    def read(self, image):
        from vision import DiceRead

        return DiceRead(width=image.shape[1], height=image.shape[0], dice=())


def library(store, tmp_path, **kw) -> Library:
    return Library(store, dice_reader=FakeReader, exports=tmp_path / "exports", source="fake", **kw)


def evening(store, tmp_path, hub=None, **kw) -> MainLoop:
    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    lib = kw.pop("lib", None) or library(store, tmp_path)
    loop = MainLoop(source=FakeCamera([frame] * 50), reader=None, session=None, hub=hub or StateHub(),
                    stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None, library=lib, **kw)
    loop.step()  # a frame: the setup's seats and the check know the picture's size
    return loop


def do(loop: MainLoop, name: str, origin: str = "touchscreen", /, **payload):
    answer = loop.dispatch({"action": Action(name), "origin": origin, **payload})
    assert answer.error is None, answer.error
    return answer


def among_round_ended_unreported(loop: MainLoop, origin: str = "touchscreen") -> None:
    """Next on Among the Stars' table when nobody reported this round's action: the first Next is refused, naming who
    has not reported (rulebook 4 'Round overview': every player does one action a round), and the second ends the
    round."""
    answer = loop.dispatch({"action": Action("next_phase"), "origin": origin})
    assert answer.error is not None and "no action reported this round" in answer.error, answer
    do(loop, "next_phase", origin)


def race_started(loop: MainLoop) -> str:
    """Race for the Galaxy chosen on the touchscreen, Ann and Bob seated and the game started: its session id."""
    do(loop, "choose_game", game="race")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    return loop.session.id


def test_the_box_starts_on_the_chooser_and_plays_a_whole_evening(store, tmp_path):
    loop = evening(store, tmp_path)
    assert loop.mode_name is ModeName.CHOOSE
    view = loop.view()
    assert view["mode"] == "choose" and view["box"]["games"] is True
    assert [g["game"] for g in view["choose"]["games"]] == ["d6", *FLOWS]  # every game with a flow, in FLOWS order
    assert view["choose"]["open"] == []
    secret = loop.hub.pairing().secret
    # choose a game -> its setup; the players (touchscreen and phone), Start
    do(loop, "choose_game", game="among")
    assert loop.mode_name is ModeName.SETUP
    do(loop, "setup_player", "phone", player="Ann", colour="blue")
    do(loop, "setup_player", player="Bob")
    do(loop, "setup_start")
    assert loop.mode_name is ModeName.PLAY  # no camera part: nothing to check, straight to play
    assert loop.hub.pairing().secret == secret  # the phones joined at the chooser stay joined
    session = loop.session.id
    # play to the end: Among the Stars' 4 years of 6 rounds, Next ends each round (rulebook 4, 5)
    for _ in range(24):
        among_round_ended_unreported(loop)
    assert loop.mode_name is ModeName.SCORES and loop.view()["game"]["over"]
    # export from the scores, then the history: open the game, back to the list, the chooser
    answer = do(loop, "export_game")
    # the phones see this answer and the view: the files' names, never the box's folders
    assert answer.message == f"saved on the box: {session}.json, {session}.bgstats.json"
    assert str(tmp_path) not in json.dumps(loop.view(), default=str)
    exported = json.loads((tmp_path / "exports" / f"{session}.json").read_text(encoding="utf-8"))
    assert exported["format"] == "tabletop-companion/game" and exported["finished"] is True
    bgstats = json.loads((tmp_path / "exports" / f"{session}.bgstats.json").read_text())
    assert bgstats["sourceName"] == "tabletop-companion"
    do(loop, "history")
    assert loop.mode_name is ModeName.HISTORY
    games = loop.view()["history"]["games"]
    assert [g["session"] for g in games] == [session] and games[0]["finished"]
    assert {p["name"] for p in games[0]["players"]} == {"Ann", "Bob"}
    do(loop, "open_game", session=session)
    opened = loop.view()["history"]["open"]
    assert opened["session"] == session and opened["exported"] == {"json": f"{session}.json",
                                                                   "bgstats": f"{session}.bgstats.json"}
    assert str(tmp_path) not in json.dumps(loop.view(), default=str)
    assert [p["name"] for p in opened["result"]["players"]] == ["Ann", "Bob"]
    do(loop, "open_game", session=None)
    assert loop.view()["history"]["open"] is None
    do(loop, "back")
    assert loop.mode_name is ModeName.SCORES  # Back returns to what History was opened from
    do(loop, "games")
    assert loop.mode_name is ModeName.CHOOSE and loop.view()["choose"]["open"] == []


def test_games_from_a_game_and_back_and_a_game_left_open_is_offered(store, tmp_path):
    loop = evening(store, tmp_path)
    session = race_started(loop)
    do(loop, "report", "phone", player="Ann", form="hand", values={"cards": 5})
    do(loop, "games")
    assert loop.mode_name is ModeName.CHOOSE and loop.view()["box"]["back"] is True
    [left] = loop.view()["choose"]["open"]
    assert left["session"] == session and not left["finished"] and left["title"] == "Race for the Galaxy"
    do(loop, "back")
    assert loop.mode_name is ModeName.PLAY and loop.session.id == session
    do(loop, "games")
    do(loop, "choose_game", game="d6")
    assert loop.mode_name is ModeName.DICE
    do(loop, "games")
    do(loop, "resume_game", session=session)
    assert loop.mode_name is ModeName.PLAY and loop.session.id == session
    assert loop.flow.session.last_seq == 1  # nothing of the game was lost on the way


def test_a_restart_comes_back_to_the_game_the_table_was_on(store, tmp_path):
    loop = evening(store, tmp_path)
    do(loop, "choose_game", game="race")
    setup_id = loop.game_id
    do(loop, "setup_player", player="Ann")
    again = evening(store, tmp_path)  # a power cut during the setup
    assert again.mode_name is ModeName.SETUP and again.game_id == setup_id and again.setup.names == ["Ann"]
    do(again, "setup_player", player="Bob")
    do(again, "setup_start")
    third = evening(store, tmp_path)  # during the game
    assert third.mode_name is ModeName.PLAY and third.session.id == setup_id
    do(third, "games")
    assert evening(store, tmp_path).mode_name is ModeName.CHOOSE  # the table had gone to the chooser


def test_the_table_check_comes_between_start_and_play_when_the_camera_reads_the_table(store, tmp_path):
    made = []

    def camera(flow):
        made.append(CameraFlow(flow, deck=object()))
        return made[-1]

    loop = evening(store, tmp_path, lib=library(store, tmp_path, make_camera=camera))
    do(loop, "choose_game", game="race")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_even")
    do(loop, "setup_start")
    assert loop.mode_name is ModeName.CALIBRATION and loop.flow is not None
    view = loop.view()
    check = view["check"]
    assert [line["level"] for line in check["lines"]][0] == "OK"  # the camera sees the table
    assert any("has not been calibrated for this table" in line["message"] for line in check["lines"])
    assert set(check["zones"]) == {"Ann", "Bob"} and all(len(p) >= 3 for p in check["zones"].values())
    # a report during the check is taken as in play; the check's one tap plays
    do(loop, "report", "phone", player="Ann", form="start", values={"card": "Old Earth"})
    do(loop, "table_ok")
    assert loop.mode_name is ModeName.PLAY and loop.camera_flow is made[0]


def test_navigation_is_refused_on_a_box_started_for_one_game_and_settings_only_from_the_touchscreen(store, tmp_path):
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players

    session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)] * 5), reader=None, session=session,
                    hub=StateHub(), stillness=StillnessDetector(), flow=GameFlow(session, FLOWS["race"]),
                    sleep=lambda s: None)
    answer = loop.dispatch({"action": Action.GAMES, "origin": "touchscreen"})
    assert answer.status == 403 and "chooser" in answer.error and loop.mode_name is ModeName.PLAY
    assert loop.view()["box"]["games"] is False
    loop = evening(store, tmp_path, box_settings=BoxSettings(None))
    refused = loop.dispatch({"action": Action.SETTINGS, "origin": "phone", "client": "c1"})
    assert refused.status == 403 and loop.mode_name is ModeName.CHOOSE


def test_settings_screen_changes_language_and_a_phone_becomes_an_owner_only_when_the_touchscreen_allows(
        store, tmp_path):
    from companion import i18n

    settings = BoxSettings(tmp_path / "box-settings.json", "en", buzzer=True)
    loop = evening(store, tmp_path, box_settings=settings)
    try:
        do(loop, "settings")
        block = loop.view()["settings"]
        assert block["language"]["value"] == "en" and block["brightness"] is None and block["sound"] == {"value": True}
        do(loop, "change_setting", setting="box.language", value="el")
        assert i18n.box_language() == "el" and loop.view()["settings"]["language"]["value"] == "el"
        assert json.loads((tmp_path / "box-settings.json").read_text())["box.language"] == "el"
        assert loop.dispatch({"action": Action.CHANGE_SETTING, "origin": "touchscreen", "setting": "box.language",
                              "value": "tlh"}).status == 400
        # a phone may not change it until the touchscreen allows it
        phone = {"origin": "phone", "client": "owner-phone"}
        refused = loop.dispatch({"action": Action.CHANGE_SETTING, **phone, "setting": "sound.on", "value": False})
        assert refused.status == 403 and settings.sound is True
        do(loop, "owner_ask", "phone", client="owner-phone")
        assert loop.view()["box"]["asking"] == {"phone": "a phone"}
        assert loop.dispatch({"action": Action.OWNER_ALLOW, **phone}).status == 403  # not from a phone
        do(loop, "owner_allow")
        assert loop.view()["box"]["asking"] is None and "owner-phone" in loop.hub.pairing().owners
        assert loop.dispatch({"action": Action.CHANGE_SETTING, **phone, "setting": "sound.on",
                              "value": False}).status == 200
        assert settings.sound is False
        assert loop.hub.owner_view()["settings"]["sound"] == {"value": False}
        do(loop, "back")
        assert loop.mode_name is ModeName.CHOOSE
        again = BoxSettings(tmp_path / "box-settings.json", "en", buzzer=True)  # kept for the next start
        assert (again.language, again.sound) == ("el", False)
    finally:
        i18n.set_box_language("en")


def test_an_owner_phone_changing_the_language_on_a_full_card_is_told_what_the_box_did(store, tmp_path):
    """The session database is full (SQLite's "database or disk is full"), the settings file still writable. An owner
    phone's language change (a tap with its key) was answered 503 "nothing since ... is saved; tap again" while the
    box had switched to Greek all the same (only the tap's answer, kept for a retry, could not be written): the phone
    is told what happened, the language it asked for, and a retry of the same tap sets the same language again."""
    from companion import i18n, records
    from companion.errors import StorageError
    from tests.test_storage import fill_up

    settings = BoxSettings(tmp_path / "box-settings.json", "en")
    loop = evening(store, tmp_path, box_settings=settings)
    phone = {"origin": "phone", "client": "owner-phone"}
    try:
        do(loop, "owner_ask", "phone", client="owner-phone")
        do(loop, "owner_allow")
        fill_up(store)
        with contextlib.suppress(StorageError):  # every free page taken: the next answer kept does not fit
            for n in range(10_000):
                records.save_answer(store, f"filler-{n}", "filler", {"message": "x" * 400})
        tap = {"action": Action.CHANGE_SETTING, **phone, "setting": "box.language", "value": "el", "key": "k1"}
        for _ in range(2):  # the tap and its retry after a lost answer
            answer = loop.dispatch(tap)
            assert (answer.status, answer.error) == (200, None)
            assert answer.message == "language: Ελληνικά" and i18n.box_language() == "el"
        assert json.loads((tmp_path / "box-settings.json").read_text())["box.language"] == "el"
    finally:
        i18n.set_box_language("en")


def test_the_health_checks_show_their_worst_level_and_the_owner_page_lists_them(store, tmp_path):
    from companion.doctor import CheckResult, Level

    class Watch:
        version = 1

        def summary(self, skip=()):
            return {"level": "WARN", "key": "network", "message": "no network address", "problems": 1}

        def checks(self):
            return [CheckResult("disk", Level.OK, "9 GB free").as_dict(),
                    CheckResult("network", Level.WARN, "no network address").as_dict()]

    loop = evening(store, tmp_path, health=Watch())
    loop.step()
    assert loop.view()["box"]["health"]["level"] == "WARN"
    assert [c["key"] for c in loop.hub.owner_view()["health"]] == ["disk", "network"]


def test_the_dice_need_no_calibration_and_their_status_line_does_not_ask_for_one(store, tmp_path):
    """The d6 screen showed "WARN: no table calibration ... run `companion calibrate`": dice are read wherever they
    lie, so the status line of the dice leaves that check out; a game's still shows it, the owner page lists it."""
    from companion.doctor import CheckResult, HealthWatch, Level

    class Check:
        def __init__(self, key, level, message):
            self.key, self.result = key, CheckResult(key, level, message)

        def perform_check(self, ctx):
            return self.result

    def watch(*checks):
        health = HealthWatch(lambda: None, checks=checks)
        health.run_once()
        return health

    uncalibrated = Check("calibration", Level.WARN, "no table calibration: run `companion calibrate`")
    loop = evening(store, tmp_path, health=watch(Check("disk", Level.OK, "9 GB free"), uncalibrated))
    do(loop, "choose_game", game="among")
    assert loop.view()["box"]["health"]["key"] == "calibration"  # a game's camera places cards on the table
    do(loop, "games")
    do(loop, "choose_game", game="d6")
    assert loop.mode_name is ModeName.DICE
    assert loop.view()["box"]["health"]["level"] == "OK"
    assert [c["key"] for c in loop.hub.owner_view()["health"]] == ["disk", "calibration"]
    loop = evening(store, tmp_path, health=watch(uncalibrated, Check("disk", Level.FAIL, "the disk is full")))
    do(loop, "choose_game", game="d6")
    assert (loop.view()["box"]["health"]["level"], loop.view()["box"]["health"]["key"]) == ("FAIL", "disk")


def test_the_phone_view_address_appears_when_the_network_does(store, tmp_path):
    addresses = iter(["http://127.0.0.1:8080/", "http://127.0.0.1:8080/", "http://192.168.1.20:8080/"])
    loop = evening(store, tmp_path, phone_url="http://127.0.0.1:8080/", refresh_url=lambda: next(addresses),
                   url_every_s=0.0)
    assert loop.view()["phone_url"] == "http://127.0.0.1:8080/"
    loop.step()
    loop.step()
    assert loop.hub.snapshot().view["phone_url"] == "http://192.168.1.20:8080/"


def test_a_damaged_database_set_aside_is_said_on_both_views(tmp_path):
    db = tmp_path / "box.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 4000)
    with SessionStore.open_or_recover(db) as store:
        loop = evening(store, tmp_path)
        storage = loop.view()["storage"]
        assert storage["recovered"] and ".corrupt-" in storage["recovered"]
        assert "kept as" in storage["message"] and storage["recovered"] in storage["message"]


def test_the_history_marks_no_winner_of_a_game_not_finished(store, tmp_path):
    """A game left open has no winner yet (as its export says), whatever the scores stand at: the history's line
    marked a player the winner while the game's winners were empty."""
    loop = evening(store, tmp_path)
    race_started(loop)
    do(loop, "report", "phone", player="Ann", form="hand", values={"cards": 5})  # Ann ahead on the tie-breaker
    line = loop.library.summary(loop.session.id)
    assert line["finished"] is False and line["winners"] == []
    assert [p["winner"] for p in line["players"]] == [False, False]


def test_an_action_that_does_not_apply_is_named_as_the_phone_posts_it_and_where_the_box_is_in_words(store, tmp_path):
    """A phone's {"action": "open"} during play read "'open_game' nie ma teraz zastosowania (play)": the box's
    internal names. It names the action by the words of the screen that does it and the mode in the players'
    words."""
    from companion.i18n import say

    loop = evening(store, tmp_path)
    do(loop, "choose_game", game="among")
    do(loop, "setup_player", player="Ann")
    do(loop, "setup_player", player="Bob")
    do(loop, "setup_start")
    assert loop.mode_name is ModeName.PLAY
    answer = loop.dispatch({"action": Action.OPEN_GAME, "origin": "phone", "session": "x"})
    assert answer.error is not None
    assert say(answer.error, "pl") == "Gra z historii nie ma teraz zastosowania (gra w toku)"
    assert say(answer.error, "en") == "A game from History does not apply now (a game in play)"


def test_a_history_action_during_a_setup_names_what_is_refused_not_the_setup_steps(store, tmp_path):
    """A phone's {"action": "open"} (or "export") while a game was being set up read "set up the game first: add
    players, then Start", as if opening a past game waited for this setup: it names History and where the box is;
    nothing moves. A report during the setup still asks for the setup first."""
    from companion.i18n import say

    loop = evening(store, tmp_path)
    do(loop, "choose_game", game="race")
    do(loop, "setup_player", player="Ann")
    assert loop.mode_name is ModeName.SETUP
    answer = loop.dispatch({"action": Action.OPEN_GAME, "origin": "phone", "session": "x"})
    assert say(answer.error, "en") == "A game from History does not apply now (a game being set up)"
    assert say(answer.error, "pl") == "Gra z historii nie ma teraz zastosowania (przygotowanie gry)"
    assert loop.mode_name is ModeName.SETUP and [p["name"] for p in loop.view()["game"]["players"]] == ["Ann"]
    answer = loop.dispatch({"action": Action.REPORT, "origin": "phone", "player": "Ann", "form": "phase",
                            "values": {}})
    assert say(answer.error, "en") == "set up the game first: add players, then Start"


def test_opening_a_game_on_the_chooser_is_refused_naming_where_players_open_it(store, tmp_path):
    """A phone's {"action": "open"} on the chooser read "History does not apply now (the game chooser)", though
    History is a button right there: it names where a past game opens (History) and, with games left open, the
    chooser's own Resume buttons; nothing moves."""
    from companion.i18n import Text, say

    loop = evening(store, tmp_path)
    assert loop.mode_name is ModeName.CHOOSE and loop.view()["choose"]["open"] == []
    answer = loop.dispatch({"action": Action.OPEN_GAME, "origin": "phone", "session": "x"})
    assert say(answer.error, "en") == "a past game is opened from History"
    for lang in ("el", "pl", "hu"):
        said = say(answer.error, lang)
        assert say(Text("History"), lang) in said and said != say(answer.error, "en"), said
    session = race_started(loop)
    do(loop, "games")
    assert [g["session"] for g in loop.view()["choose"]["open"]] == [session]
    answer = loop.dispatch({"action": Action.OPEN_GAME, "origin": "phone", "session": session})
    assert loop.mode_name is ModeName.CHOOSE
    for lang in ("en", "el", "pl", "hu"):
        said = say(answer.error, lang)
        assert say(Text("History"), lang) in said and say(Text("Resume"), lang) in said and "(" not in said, said


def test_export_on_the_chooser_is_refused_naming_the_buttons_that_do_it(store, tmp_path):
    """A phone's {"action": "export"} without a game on the chooser read "which game? open it in the history": it
    names History and its Export button in each language, as the buttons say them; nothing is written."""
    from companion.i18n import Text, say

    loop = evening(store, tmp_path)
    assert loop.mode_name is ModeName.CHOOSE
    answer = loop.dispatch({"action": Action.EXPORT_GAME, "origin": "phone"})
    assert say(answer.error, "en") == "which game? open it in History, then tap Export there"
    for lang in ("el", "pl", "hu"):
        said = say(answer.error, lang)
        assert say(Text("History"), lang) in said and say(Text("Export"), lang) in said, said
        assert said != say(answer.error, "en") and "{" not in said, said
    assert loop.mode_name is ModeName.CHOOSE and not (tmp_path / "exports").exists()


def test_the_table_check_says_a_camera_lost_during_it_with_the_cameras_own_words(store, tmp_path):
    """The camera goes while the table check is up, then a player joins another game's setup: the check says the
    camera is lost, in the camera's words (never the last action's answer, "Di joined"), and no longer says the
    light is good from the camera's last picture."""
    import time

    from device import Fault

    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    lib = library(store, tmp_path, make_camera=lambda flow: CameraFlow(flow, deck=object()))
    loop = MainLoop(source=FakeCamera([frame] * 400, faults=[Fault.gone(6, count=400)]), reader=None, session=None,
                    hub=StateHub(), stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None,
                    library=lib, reconnect_s=0.0)
    loop.step()
    do(loop, "choose_game", game="race")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    assert loop.mode_name is ModeName.CALIBRATION
    assert loop.view()["check"]["lines"][0] == {"level": "OK", "message": "the camera sees the table"}
    deadline = time.monotonic() + 20
    while loop.camera != "lost":
        assert time.monotonic() < deadline, f"the camera was never lost: {loop.camera}"
        loop.step()
    lines = loop.view()["check"]["lines"]
    assert lines[0]["level"] == "FAIL" and "gone" in lines[0]["message"], lines
    assert not any("light" in line["message"] for line in lines)  # the last picture is not the table now
    assert loop.view()["check"]["ok"] is False
    # another game's check, entered while the camera is still lost, after a player's join was answered
    do(loop, "games")
    do(loop, "choose_game", game="among")
    for name in ("Cy", "Di"):
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    assert loop.mode_name is ModeName.CALIBRATION
    first = loop.view()["check"]["lines"][0]
    assert first["level"] == "FAIL" and "gone" in first["message"] and "Di" not in first["message"], first
    loop._watch.close()


def test_the_history_and_the_chooser_reach_games_older_than_thirty_others(store, tmp_path):
    """The history lists every game played (README, "An evening at the table", 6: "every game played, newest first;
    open one ... or resume one that has not ended"): it stopped at the newest 30, so the 31st game back could not be
    opened, exported nor resumed from the touchscreen or a phone, and a game left open before 30 finished ones was
    no longer offered on the chooser."""
    from companion.flow import GameFlow
    from companion.player_names import parse_players

    left_open = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    finished = []
    for _ in range(31):  # Among the Stars ends after its 4 years of 6 rounds, Next ending each (rulebook 4, 5)
        flow = GameFlow(store.start("among", FLOWS["among"].settings(parse_players("Cy,Di"), {})), FLOWS["among"])
        for _ in range(24):
            for name in ("Cy", "Di"):  # each player's one action a round (rulebook 4 'Round overview')
                flow.report(name, "discard", {})
            flow.next_phase()
        assert flow.over()
        finished.append(flow.session.id)
    loop = evening(store, tmp_path)
    [offered] = loop.view()["choose"]["open"]
    assert offered["session"] == left_open.id and not offered["finished"]
    do(loop, "history")
    listed = [g["session"] for g in loop.view()["history"]["games"]]
    assert listed == [*reversed(finished), left_open.id]  # every game, newest first
    do(loop, "open_game", session=left_open.id)
    assert loop.view()["history"]["open"]["session"] == left_open.id
    do(loop, "resume_game", session=left_open.id)
    assert loop.mode_name is ModeName.PLAY and loop.session.id == left_open.id


def test_an_export_the_card_refuses_is_said_and_leaves_the_earlier_one_and_no_spare_file(store, tmp_path,
                                                                                        monkeypatch):
    """Export on the box (History or the scores) wrote a temporary file and renamed it without asking the card to
    keep it, so a card that refuses the data (full, failing) was said "saved" and a power cut could leave an empty
    record; and a write that failed left its temporary file in the exports folder. The record is now on the card
    before "saved" is said; a refusal is said with the card's reason, the earlier export stays whole and no spare
    file is left."""
    import errno

    from companion import paths

    loop = evening(store, tmp_path)
    do(loop, "choose_game", game="among")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    session = loop.session.id
    for _ in range(23):  # Among the Stars: 4 years of 6 rounds (rulebook 4, 5); the last one ends below
        among_round_ended_unreported(loop)
    folder = tmp_path / "exports"
    loop.library.export(session)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == [f"{session}.bgstats.json", f"{session}.json"]
    among_round_ended_unreported(loop)  # the record changes: the game is over (History exports it only then)
    assert loop.mode_name is ModeName.SCORES

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(paths.os, "fsync", full)
    do(loop, "history")
    answer = loop.dispatch({"action": Action.EXPORT_GAME, "origin": "touchscreen", "session": session})
    assert answer.error == "cannot write the export on the box (the disk is full)"
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


def test_a_game_that_no_longer_replays_is_listed_once_as_unreadable_and_not_replayed_at_every_look(
        store, tmp_path, monkeypatch, caplog):
    """The history is published every second: a recorded game the box cannot replay any more is listed as
    unreadable and said once in the log, not replayed (and logged) again at every look until it changes."""
    import logging

    from companion.errors import SessionError

    loop = evening(store, tmp_path)
    race_started(loop)
    broken = loop.session.id
    library = loop.library
    library._summaries.clear()
    tries = []

    def cannot_replay(session_id, events=None):
        tries.append(session_id)
        raise SessionError("the recorded events do not replay")

    monkeypatch.setattr(library, "summary", cannot_replay)
    with caplog.at_level(logging.WARNING, logger="companion.library"):
        for _ in range(3):
            games = library.past_games()
            assert [(g["session"], g.get("unreadable")) for g in games] == [(broken, True)]
    assert tries == [broken]
    assert sum("cannot be read for the history" in r.getMessage() for r in caplog.records) == 1
