"""Fixes for the problems a newcomer found (phone rename, phone undo/Next, --db safety, CLI checks,
players, export/sessions, enrollment folders, small ones). Expectations are worked by hand."""

from __future__ import annotations

import logging
import threading

import numpy as np
import pytest

from companion.app import MainLoop
from companion.cli import main
from companion.flow import GameFlow, parse_players
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.session import SessionStore
from companion.setup_flow import TableSetup
from tests.phones import joined_phone
from device import FakeCamera
from vision.motion import StillnessDetector

W, H = 320, 240
BOX = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast"]


@pytest.fixture
def store(tmp_path):
    with SessionStore(tmp_path / "box.sqlite3") as s:
        yield s


def _loop(hub: StateHub, **kw) -> MainLoop:
    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    return MainLoop(source=FakeCamera([frame] * 5), reader=None, hub=hub, stillness=StillnessDetector(),
                    stop_at_end=True, sleep=lambda s: None, **kw)


def _post(client, loop: MainLoop, url: str, body: dict):
    """POST from a phone (a thread) while this thread plays the main loop, which answers the request."""
    answer: list = []
    phone = threading.Thread(target=lambda: answer.append(client.post(url, json=body)))
    phone.start()
    while phone.is_alive():
        loop.take_actions()
        phone.join(0.005)
    return answer[0]


def _race(store, players="Ann,Bob"):
    session = store.start("race", FLOWS["race"].settings(parse_players(players), {}))
    return GameFlow(session, FLOWS["race"])


# -- 1. renaming a player from the phone ---------------------------------------------------------
def test_phone_rename_renames_player_1(store):
    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = _loop(hub, session=None, setup=setup)
    setup.add_player("Player 1")  # what the touchscreen's "Add player" adds
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    response = _post(client, loop, "/api/setup", {"action": "rename", "name": "Player 1", "new_name": "Ann"})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["message"] == "Player 1 is now Ann"
    assert setup.names == ["Ann"]
    loop.publish()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == ["Ann"]


def test_hub_payload_may_carry_a_name_key():
    hub = StateHub()
    hub.post_action("setup_rename", origin="phone", player="Player 1", name="Ann")
    [action] = hub.take_actions()
    assert (action["action"], action["player"], action["name"]) == ("setup_rename", "Player 1", "Ann")


def test_phone_page_rename_button_posts_name_and_new_name():
    from importlib import resources

    js = (resources.files("companion") / "static" / "flow.js").read_text(encoding="utf-8")
    assert 'action: "rename", name: p.name, new_name: name.trim()' in js


# -- 2. a phone cannot undo other players' reports -----------------------------------------------
def test_phone_global_undo_is_refused_in_a_game_and_undo_report_withdraws_only_mine(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    e_bob = flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    loop.publish()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = client.post("/api/action", json={"action": "undo"})
        assert response.status_code == 403
        assert "own report" in response.get_json()["error"]
        assert hub.take_actions() == []  # nothing queued
        # an old phone page that still queues a plain undo: the loop refuses it, and says so in the log
        hub.post_action("undo", origin="phone")
        loop.take_actions()
    assert {e_bob.seq, e_ann.seq} <= set(flow.session.replay().applied)
    assert any("undo (phone) refused" in r.getMessage() for r in caplog.records)
    # Ann's phone withdraws Ann's report only (logged with its origin)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="companion"):
        response = _post(client, loop, "/api/report/undo", {"player": "Ann"})
    assert response.status_code == 200, response.get_json()
    applied = set(flow.session.replay().applied)
    assert e_ann.seq not in applied and e_bob.seq in applied
    assert any(f"undo_report (phone): Ann: report #{e_ann.seq} undone" in r.getMessage() for r in caplog.records)


def test_touchscreen_undo_still_withdraws_the_newest_event_and_is_logged(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    flow.report("Bob", "hand", {"cards": 4})
    e_ann = flow.report("Ann", "hand", {"cards": 5})
    with caplog.at_level(logging.INFO, logger="companion"):
        hub.post_action("undo", origin="touchscreen")
        loop.take_actions()
    assert e_ann.seq not in set(flow.session.replay().applied)
    assert any(r.getMessage() == f"undo (touchscreen): event {e_ann.seq + 1} withdraws event {e_ann.seq}"
               for r in caplog.records)


def test_d6_phone_undo_still_accepted_and_logged(store, caplog):
    # a phone's d6 undo is answered once written (200), no longer queued (202)
    from rules.d6 import D6_GAME

    session = store.start(D6_GAME.name, {"source": "fake"})
    read = session.append("dice_read", {"values": [3, 4], "image": None}, origin="camera")
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)]), reader=object(), session=session, hub=hub,
                    stillness=StillnessDetector(), sleep=lambda s: None)
    loop.publish()
    client = joined_phone(hub, reply_s=30)
    with caplog.at_level(logging.INFO, logger="companion"):
        assert _post(client, loop, "/api/action", {"action": "undo"}).status_code == 200
    assert read.seq not in set(session.replay().applied)
    assert any(r.getMessage() == f"undo (phone): event {read.seq + 1} withdraws event {read.seq}" for r in caplog.records)


# -- 3. a phone can press Next ---------------------------------------------------------------------
def test_phone_next_moves_the_round_with_origin_phone(store, caplog):
    flow = _race(store)
    hub = StateHub()
    loop = _loop(hub, session=flow.session, flow=flow)
    client = joined_phone(hub, reply_s=30)
    flow.report("Ann", "select", {"action": "Explore +5"})
    flow.report("Bob", "select", {"action": "Settle"})
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "I Explore done"
    # a stale label (another phone already pressed Next): nothing moves
    stale = client.post("/api/action", json={"action": "next_phase", "label": "Reveal"})
    assert stale.status_code == 409 and "I Explore done" in stale.get_json()["error"]
    assert hub.take_actions() == []
    with caplog.at_level(logging.INFO, logger="companion"):
        response = _post(client, loop, "/api/action", {"action": "next_phase", "label": "I Explore done"})
    assert response.status_code == 200, response.get_json()
    last = flow.session.events()[-1]
    assert (last.kind, last.origin) == ("phase_done", "phone")
    assert any(r.getMessage().startswith("next_phase (phone):") for r in caplog.records)
    loop.publish()
    assert hub.snapshot().view["game"]["next"]["label"] == "III Settle done"


def test_phone_next_is_for_game_flows_only(hub, make_view):
    hub.publish(make_view([1, 2]))
    response = joined_phone(hub).post("/api/action", json={"action": "next_phase"})
    assert response.status_code == 400 and "game flow" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_phone_page_has_a_labelled_next_button():
    from importlib import resources

    html = (resources.files("companion") / "templates" / "flow.html").read_text(encoding="utf-8")
    js = (resources.files("companion") / "static" / "flow.js").read_text(encoding="utf-8")
    assert 'id="phone-next"' in html
    assert '"Next: " + next.label' in js
    assert 'action: "next_phase", label: label' in js


# -- 4. --db at a file that is not a session database ---------------------------------------------
def test_db_pointing_at_a_photo_is_refused_untouched(tmp_path, capsys):
    victim = tmp_path / "victim.jpg"
    data = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(range(256)) * 8
    victim.write_bytes(data)
    code = main(["demo", "--db", str(victim), *BOX, "--max-frames", "2"])
    assert code == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a session database" in err[0] and str(victim) in err[0]
    assert victim.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["victim.jpg"]  # nothing renamed, nothing made


def test_db_pointing_at_another_programs_sqlite_is_refused_untouched(tmp_path, capsys):
    import sqlite3

    other = tmp_path / "photos.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE albums (id INTEGER)")
    data = other.read_bytes()
    code = main(["demo", "--db", str(other), *BOX, "--max-frames", "2"])
    assert code == 3
    assert "not a session database" in capsys.readouterr().err
    assert other.read_bytes() == data and sorted(p.name for p in tmp_path.iterdir()) == ["photos.db"]


def test_damaged_session_database_is_still_kept_aside_and_replaced(tmp_path):
    db = tmp_path / "demo.sqlite3"
    db.write_bytes(b"SQLite format 3\x00" + b"\xa5" * 4000)
    code = main(["demo", "--db", str(db), *BOX, "--max-frames", "2"])
    assert code == 0
    kept = [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1 and kept[0].startswith("demo.sqlite3.corrupt-")


# -- 5. no tracebacks from --screenshot, --hold, --max-frames --------------------------------------
def test_screenshot_in_an_unwritable_folder_is_refused_at_start(tmp_path, capsys):
    code = main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, "--windowed", "--screenshot", "/proc/x.png"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--screenshot /proc/x.png" in err[0] and "cannot write in /proc" in err[0]
    assert not (tmp_path / "d.sqlite3").exists()  # refused before a session was made


def test_screenshot_that_fails_mid_run_is_one_log_line_and_the_box_goes_on(tmp_path, monkeypatch, caplog):
    import pygame

    from companion.commands.box import demo_photos
    from companion.screen import TouchScreen

    photos = tmp_path / "photos"
    photos.mkdir()
    for photo in sorted(p for p in demo_photos().iterdir() if p.suffix.lower() in (".jpg", ".png"))[:2]:
        (photos / photo.name).write_bytes(photo.read_bytes())

    def fail(self, path):
        raise pygame.error(f"Couldn't open {path}")

    monkeypatch.setattr(TouchScreen, "save_png", fail)
    with caplog.at_level(logging.INFO, logger="companion"):
        code = main(["demo", str(photos), "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-gpio", "--once", "--fast",
                     "--windowed", "--hold", "1.0", "--screenshot", str(tmp_path / "shot.png")])
    assert code == 0
    failed = [r for r in caplog.records if "cannot save --screenshot" in r.getMessage()]
    assert len(failed) == 1 and failed[0].levelno == logging.ERROR
    with SessionStore(tmp_path / "d.sqlite3") as s:
        (info,) = s.list_sessions()
        assert len([e for e in s.get(info.id).events() if e.kind == "dice_read"]) == 2  # both photos still read


@pytest.mark.parametrize("args, problem", [
    (["--hold", "1e308"], "at most 3600 seconds"),
    (["--hold", "3601"], "at most 3600 seconds"),
    (["--hold", "0.2"], "give at least 1 s"),
    (["--hold", "nan"], "positive number of seconds"),
    (["--hold", "inf"], "positive number of seconds"),
    (["--max-frames", "-1"], "give at least 1 frame"),
    (["--max-frames", "0"], "give at least 1 frame"),
])
def test_bad_hold_and_max_frames_are_usage_errors(tmp_path, capsys, args, problem):
    with pytest.raises(SystemExit) as info:
        main(["demo", "--db", str(tmp_path / "d.sqlite3"), *BOX, *args])
    assert info.value.code == 2
    assert problem in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


# -- 6. one rule for players on the CLI and the phone ----------------------------------------------
@pytest.mark.parametrize("players, problem", [
    ("Ann:mauve,Bob", "colour 'mauve' is not one of red, blue, green, yellow, purple"),
    ("Ann,Bob:red,Cy:red", "red is taken"),
    ("Ann,ann", "'ann' (as 'Ann') is already playing"),
    ("Ann,,Bob", "a player name is empty"),
])
def test_cli_players_follow_the_phone_rule(tmp_path, capsys, players, problem):
    code = main(["demo", "--game", "race", "--players", players, "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and problem in err[0], err
    # refused before any database is opened: no empty file is left behind
    assert not (tmp_path / "d.sqlite3").exists()


def test_game_options_reach_the_setup_step(tmp_path, monkeypatch):
    # without --players the setup step starts the game; --aggressive must not be lost on the way
    import companion.setup_flow as setup_flow

    seen = {}
    real = setup_flow.TableSetup.__init__

    def spy(self, store, spec, options=None, *a, **kw):
        seen.update(options or {})
        real(self, store, spec, options, *a, **kw)

    monkeypatch.setattr(setup_flow.TableSetup, "__init__", spy)
    code = main(["demo", "--game", "among", "--aggressive", "--races", "Sheptas,", "--db",
                 str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 0
    assert seen == {"aggressive": True, "races": ["Sheptas", ""]}


def test_cli_players_colours_any_case_and_free_ones_filled_in():
    assert parse_players("Ann, Bob:RED ,Cy") == [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"},
                                                {"name": "Cy", "colour": "green"}]


def test_phone_setup_follows_the_cli_rule(store):
    from companion.errors import BadEntry

    setup = TableSetup(store, FLOWS["race"])
    setup.add_player("Ann", "red")
    with pytest.raises(BadEntry, match="'ann' \\(as 'Ann'\\) is already playing"):
        setup.add_player("ann", "blue")
    with pytest.raises(BadEntry, match="red is taken"):
        setup.add_player("Bob", "red")
    with pytest.raises(BadEntry, match="not one of red, blue"):
        setup.add_player("Bob", "mauve")
    setup.add_player("Bob", "BLUE")
    assert setup.players == [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]
    with pytest.raises(BadEntry, match="already playing"):
        setup.rename_player("Bob", "ANN")
    assert setup.rename_player("Ann", "ANN") == "Ann is now ANN"  # a player may change their own case
    assert setup.add_player("ANN", "green") == "ANN is green"  # the same player again: a new colour


# -- 7. export after a demo, and `companion sessions` ------------------------------------------------
def _finished_race(db):
    """A 2-player Race game in ``db`` (not finished) and its session id."""
    with SessionStore(db) as s:
        flow = _race(s)
        flow.report("Ann", "hand", {"cards": 5})
        return flow.session.id


def test_export_without_db_names_both_databases(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    code = main(["export", "--json", str(tmp_path / "g.json")])
    assert code == 3
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert str(tmp_path / "sessions.sqlite3") in err and str(tmp_path / "demo.sqlite3") in err and "--demo" in err
    assert "()" not in err


def test_export_demo_reads_the_demo_database(tmp_path, monkeypatch, capsys):
    import json as _json

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    sid = _finished_race(tmp_path / "demo.sqlite3")
    out = tmp_path / "g.json"
    assert main(["export", "--demo", "--unfinished", "--json", str(out)]) == 0
    assert _json.loads(out.read_text())["session"] == sid
    assert main(["export", "--demo", "--db", str(tmp_path / "demo.sqlite3"), "--json", str(out)]) == 2


def test_sessions_lists_ids_game_players_started_finished(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    sid = _finished_race(tmp_path / "demo.sqlite3")
    assert main(["sessions", "--demo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"1 session in {tmp_path / 'demo.sqlite3'}, newest first:"
    assert out[1].startswith(f"{sid}  race   Ann, Bob  started ") and out[1].endswith("  not finished  1 events")
    assert main(["sessions", "--db", str(tmp_path / "demo.sqlite3"), "--json"]) == 0
    import json as _json

    row = _json.loads(capsys.readouterr().out)
    assert (row["id"], row["game"], row["players"], row["finished"]) == (sid, "race", ["Ann", "Bob"], False)
    # an unknown --session points here, not at a Python function
    code = main(["export", "--demo", "--session", "nope", "--json", str(tmp_path / "g.json")])
    assert code == 3
    err = capsys.readouterr().err
    assert "`companion sessions`" in err and "list_sessions" not in err


def test_sessions_without_a_database_says_where_it_looked(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    assert main(["sessions"]) == 3
    assert "demo.sqlite3" in capsys.readouterr().err


# -- 8. enroll roll-dice checks its folder names ------------------------------------------------------
def _enroll_dir(tmp_path, *names):
    root = tmp_path / "enroll"
    for name in names:
        (root / name).mkdir(parents=True)
        (root / name / "01.png").write_bytes(b"not really a png")
    return root


@pytest.mark.parametrize("names, problem", [
    (("white-explore", "pink-zap"), "folder pink-zap/ in {root}: unknown colour 'pink'; the dice are white, red, purple, blue, brown, green, yellow"),
    (("white-zap",), "folder white-zap/ in {root}: unknown face 'zap'; the faces are explore, develop, settle, produce, ship, wild"),
    (("white-wild",), "folder white-wild/ in {root}: white dice have no wild face (white: explore, develop, settle, produce, ship)"),
    (("yellow-explore",), "folder yellow-explore/ in {root}: yellow dice have no explore face (yellow: develop, settle, produce, wild)"),
    (("notes",), "folder notes/ in {root}: name it <colour>-<face>, e.g. white-explore"),
])
def test_enroll_refuses_folders_the_dice_do_not_have(tmp_path, capsys, names, problem):
    root = _enroll_dir(tmp_path, *names)
    code = main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion enroll: {problem.format(root=root)}"]
    assert not (tmp_path / "p.json").exists()


def test_enroll_names_every_bad_folder_in_one_run(tmp_path, capsys):
    root = _enroll_dir(tmp_path, "white-explore", "pink-zap", "white-wild", "notes")
    assert main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(":")[1].strip() for line in err] == ["folder notes/ in " + str(root), "folder pink-zap/ in " + str(root),
                                                             "folder white-wild/ in " + str(root)]
    assert all(line.startswith("companion enroll: ") for line in err)


def test_enroll_warns_about_missing_pairs_and_still_builds(tmp_path, capsys):
    root = _enroll_dir(tmp_path, "White-Explore")  # any case, as the builder reads it
    main(["enroll", "roll-dice", str(root), "--out", str(tmp_path / "p.json")])
    err = capsys.readouterr().err.splitlines()
    # 30 pairs on the dice (white 5, red 4, purple 4, blue 4, brown 5, green 4, yellow 4) less white-explore
    assert err[0] == ("companion enroll: warning: no photos of 29 pairs (white-develop, white-settle, white-produce, "
                      "white-ship, red-explore, red-develop, red-settle, red-wild, purple-explore, purple-develop "
                      "(+19 more)): the profile will not know them")
    assert len(err) == 2  # then the builder's own answer about the (fake) photo


# -- 9. small ones ------------------------------------------------------------------------------------
def test_too_large_body_is_a_json_413(hub):
    client = joined_phone(hub)
    response = client.post("/api/action", data='{"action": "undo", "pad": "' + "x" * 20000 + '"}',
                           content_type="application/json")
    assert response.status_code == 413
    assert response.is_json and "larger than 16 KiB" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_demo_hint_is_said_once():
    from companion.commands.box import _one_demo_hint

    message = ("no camera found (auto): opencv:0: no camera at /dev/video0 (opencv:0): try opencv:1, "
               "or run `companion demo` to replay photos. Connect a camera, or run `companion demo` to replay photos")
    assert _one_demo_hint(message) == ("no camera found (auto): opencv:0: no camera at /dev/video0 (opencv:0): "
                                       "try opencv:1. Connect a camera, or run `companion demo` to replay photos")
    assert _one_demo_hint("no camera, or run `companion demo` to replay photos").count("companion demo") == 1


def test_missing_calibration_is_exit_3_and_records_nothing(tmp_path, capsys):
    code = main(["demo", "--game", "race", "--players", "Ann,Bob", "--calibration", str(tmp_path / "none.json"),
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion demo: no calibration at {tmp_path / 'none.json'}: make one with `companion calibrate`"]
    assert not (tmp_path / "d.sqlite3").exists()


def test_malformed_calibration_is_exit_1_and_records_nothing(tmp_path, capsys):
    bad = tmp_path / "cal.json"
    bad.write_text("{not json")
    code = main(["demo", "--game", "race", "--players", "Ann,Bob", "--calibration", str(bad),
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 1
    assert "cannot be read" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


def test_calibration_with_d6_is_refused(tmp_path, capsys):
    cal = tmp_path / "cal.json"
    cal.write_text("{}")
    code = main(["demo", "--calibration", str(cal), "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    assert "--calibration does not go with --game d6" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


# -- 10. README ---------------------------------------------------------------------------------------
def test_readme_says_what_the_box_does_now_and_how_tests_find_shared_data():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    today = text[text.index("What it does today"):text.index("## Set up")]
    assert "coming next" not in today
    for words in ("Roll for the Galaxy", "Race for the Galaxy", "Among the Stars", "phone", "misplay",
                  "scoring", "export", "`companion read", "Eclipse with Rise of the Ancients", "--game eclipse"):
        assert words in today, words
    assert "`$TABLETOP_SHARED`" in text and "`../shared`" in text and "skipped, each with the reason" in text
    setup = text[text.index("## Set up"):text.index("## Hardware")]
    assert setup.count("```sh") == 2
    assert "```sh\n./setup.sh run\n```" in setup and "```sh\n./setup.sh test\n```" in setup
    assert "companion sessions" in text and "--demo" in text


# -- second newcomer pass ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["\u0000Ann", "Ann\u202e", "\u0001", "Bo\u200bb"])
def test_names_with_control_or_invisible_characters_are_refused(store, name):
    from companion.errors import BadEntry
    from companion.flow import check_player_name

    with pytest.raises(BadEntry, match="control or invisible formatting"):
        check_player_name(name)
    with pytest.raises(BadEntry, match="control or invisible formatting"):
        TableSetup(store, FLOWS["race"]).add_player(name, "red")


def test_setup_after_the_game_started_is_refused_at_once(store):
    hub, flow = StateHub(), _race(store)
    loop = _loop(hub, session=flow.session, flow=flow)
    loop.publish()
    response = joined_phone(hub).post("/api/setup", json={"action": "start"})
    assert response.status_code == 409 and "no game is being set up" in response.get_json()["error"]
    assert hub.take_actions() == []


def test_unfinished_game_exported_to_bgstats_has_no_winner(store):
    flow = _race(store)
    play = flow.bgstats_play()
    assert not flow.over()
    assert [p["winner"] for p in play["players"]] == [False, False]


# -- third newcomer pass ------------------------------------------------------------------------------
def test_the_same_command_again_resumes_the_open_game(tmp_path):
    db = str(tmp_path / "k.sqlite3")
    run = ["demo", "--game", "race", "--db", db, *BOX, "--max-frames", "2"]
    assert main([*run, "--players", "Ann,Bob"]) == 0
    with SessionStore(db) as s:
        [first] = s.list_sessions()
    assert main([*run, "--players", "Ann,Bob"]) == 0  # a restart with the same command: same game
    with SessionStore(db) as s:
        assert [x.id for x in s.list_sessions()] == [first.id]
    assert main([*run, "--players", "Ann,Cy"]) == 0  # other players: another game, the first one kept
    assert main([*run, "--players", "Ann,Bob"]) == 0  # Ann and Bob's open game is found again, though older
    with SessionStore(db) as s:
        assert len(s.list_sessions()) == 2
    assert main([*run, "--players", "Ann,Bob", "--new-session"]) == 0
    with SessionStore(db) as s:
        assert len(s.list_sessions()) == 3


def test_a_second_box_on_the_same_database_is_refused(tmp_path, capsys):
    db = tmp_path / "cc.sqlite3"
    with SessionStore(db, exclusive=True):
        code = main(["demo", "--db", str(db), *BOX, "--max-frames", "2"])
        assert code == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "is in use by another companion (pid " in err[0] and "--db" in err[0]
    assert main(["demo", "--db", str(db), *BOX, "--max-frames", "2"]) == 0  # released on close


def test_a_dice_profile_that_is_a_picture_is_one_line(tmp_path, capsys):
    bad = tmp_path / "rand.jpg"
    bad.write_bytes(bytes(range(256)) * 8)
    img = tmp_path / "blank.png"
    import cv2

    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    code = main(["read", str(img), "--dice", "roll", "--profile", str(bad)])
    assert code != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not a UTF-8 JSON file" in err[0]


def test_deeply_nested_score_file_is_not_json(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert main(["score", "roll", str(deep)]) == 1
    assert "is not JSON (nested too deeply" in capsys.readouterr().err


def test_enroll_cards_never_writes_outside_a_deck(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    refs = tmp_path / "refs"
    (refs / "a").mkdir(parents=True)
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 my holiday photo")
    # a path that is not .npz, and a name climbing out of the decks folder: refused (usage, exit 2)
    assert main(["enroll", "cards", str(photo), str(refs)]) == 2
    assert main(["enroll", "cards", "../../evil", str(refs)]) == 2
    err = capsys.readouterr().err
    assert err.count("give a deck name") == 2
    assert photo.read_bytes() == b"\xff\xd8 my holiday photo"
    # an existing .npz that is not a deck is not overwritten
    other = tmp_path / "other.npz"
    other.write_bytes(b"not a deck")
    assert main(["enroll", "cards", str(other), str(refs)]) == 1
    assert "exists and is not a deck: not overwritten" in capsys.readouterr().err
    assert other.read_bytes() == b"not a deck"


def test_reading_with_a_file_that_is_not_a_deck_says_so_without_numpy_advice(tmp_path, capsys):
    other = tmp_path / "roll.npz"
    other.write_text('{"format": "roll-dice"}')
    img = tmp_path / "blank.png"
    import cv2

    cv2.imwrite(str(img), np.full((60, 80, 3), 120, np.uint8))
    assert main(["read", str(img), "--cards", str(other)]) == 3
    err = capsys.readouterr().err
    assert "not a deck profile saved by `companion enroll cards`" in err and "allow_pickle" not in err


def test_two_players_cannot_play_the_same_race(tmp_path, capsys):
    # Among the Stars: 8 race tiles, one per race (rulebook, Components; Setup 7)
    from rules import BadEvent
    from rules.among_the_stars import final_scores as among_scores
    from rules.scoring import ScoreInputError
    from tests.test_among_scoring import rulebook_example

    code = main(["demo", "--game", "among", "--players", "Ann,Bob", "--races", "Sheptas,sheptas",
                 "--db", str(tmp_path / "d.sqlite3"), *BOX, "--max-frames", "2"])
    assert code == 2
    assert "two players play the race Sheptas" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
    data = rulebook_example()
    data["players"][0]["race"] = data["players"][1]["race"] = "Sheptas"
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.race.*another player plays Sheptas"):
        among_scores(data)
    with SessionStore(tmp_path / "e.sqlite3") as s, pytest.raises(BadEvent, match="two players play the race Sheptas"):
        s.start("among", {"players": [{"name": "Ann", "race": "sheptas"}, {"name": "Bob", "race": "sheptas"}]})


def test_a_setup_cannot_be_withdrawn_from_a_phone_once_that_player_is_done(store):
    # Roll for the Galaxy p.2 Setup: each player sets up at their own pace; a player's setup form closes once
    # that player selects a phase (issue 17: one player's selection no longer closes the others' setup), so
    # withdrawing a setup after that would leave the player with no way to report it again.
    from companion.errors import BadEntry
    from tests.test_flow import faction_label

    session = store.start("roll", FLOWS["roll"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["roll"])
    flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                 "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert flow.table().stage == "setup"
    undo = flow.undo_report("Bob")  # during setup: withdrawn, and Bob can report it again
    assert undo is not None and undo.kind == "undo"
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    assert flow.table().stage != "setup"
    assert flow.undo_report("Bob").kind == "undo"  # Bob has not selected a phase: his setup is still open
    flow.report("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                 "development": "Alien Research Team", "world": "Information Hub"})
    assert flow.undo_report("Ann").kind == "undo"  # Ann's phase selection can still be withdrawn before Reveal
    flow.report("Ann", "select", {"phase": "develop", "extra_white": "ship"})
    last = flow.session.last_seq
    with pytest.raises(BadEntry, match="Ann has selected a phase, so their setup is done"):  # Ann is done
        flow.report("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                     "development": "Advanced Logistics", "world": "Spice World"})
    assert flow.session.last_seq == last  # nothing recorded
    flow.report("Bob", "select", {"phase": "settle"})
    flow.next_phase()  # Reveal (p.4): the selections are public now and run this round
    last = flow.session.last_seq
    with pytest.raises(BadEntry, match="Ann's .* report can no longer be withdrawn"):
        flow.undo_report("Ann")
    assert flow.session.last_seq == last


def test_a_key_given_twice_in_a_score_file_is_refused(tmp_path, capsys):
    dup = tmp_path / "dup.json"
    dup.write_text('{"players": [{"name": "Ann", "name": "Bob", "vp_chips": 1, "credits": 1, "tableau": []}]}')
    assert main(["score", "roll", str(dup)]) == 1
    assert "gives the key 'name' twice in one object" in capsys.readouterr().err


def test_phone_view_address_problems_are_one_line_naming_them(tmp_path, capsys):
    import socket

    box = ["--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2", "--db", str(tmp_path / "d.sqlite3")]
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["demo", "--host", "127.0.0.1", "--port", str(port), *box]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"companion demo: cannot start the phone view: cannot listen on 127.0.0.1 port {port} "
                   "(Address already in use); try another --host or --port, or --no-web"]
    assert main(["demo", "--host", "999.1.1.1", *box]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--host 999.1.1.1 is not a network address" in err[0]


def test_names_that_look_the_same_are_the_same_player():
    # "Zoe" + U+0308 COMBINING DIAERESIS displays as "Zoë": one person, in the CLI/phone rule and score files
    from companion.errors import BadEntry
    from companion.flow import check_player_name
    from rules.scoring import ScoreInputError, check_distinct_names

    assert check_player_name("Zoe\u0308") == "Zo\u00eb"
    with pytest.raises(BadEntry, match="already playing"):
        check_player_name("Zoe\u0308", ["Zo\u00eb"])
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name"):
        check_distinct_names(["Zo\u00eb", "ZOE\u0308"])


def test_export_never_overwrites_the_database_or_another_file(tmp_path, capsys):
    db = tmp_path / "box.sqlite3"
    _finished_race(db)
    before = db.read_bytes()
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(db)]) == 1
    assert "not written by this command" in capsys.readouterr().err
    assert db.read_bytes() == before
    same = tmp_path / "g.json"
    assert main(["export", "--db", str(db), "--unfinished", "--json", str(same), "--bgstats", str(same)]) == 2
    assert "name the same file" in capsys.readouterr().err
    for _ in range(2):  # its own earlier export is replaced
        assert main(["export", "--db", str(db), "--unfinished", "--json", str(same),
                     "--bgstats", str(tmp_path / "b.json")]) == 0


def test_race_score_files_get_the_same_json_checks(tmp_path, capsys):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert main(["score", "race", str(deep)]) == 1
    assert "nested too deeply" in capsys.readouterr().err
    dup = tmp_path / "dup.json"
    dup.write_text('{"players": [{"name": "Ann", "name": "Zed", "chips": 0, "tableau": ["Old Earth"]},'
                   ' {"name": "B", "chips": 0, "tableau": ["Epsilon Eridani"]}]}')
    assert main(["score", "race", str(dup)]) == 1
    assert "gives the key 'name' twice" in capsys.readouterr().err
    big = tmp_path / "big.json"
    big.write_text('{"players": [{"name": "A", "chips": 1' + "0" * 5000 + ', "tableau": ["Old Earth"]}]}')
    assert main(["score", "roll", str(big)]) == 1
    assert "a number with more than 4300 digits" in capsys.readouterr().err


def test_unexpected_file_errors_and_ctrl_c_are_one_line(tmp_path, capsys, monkeypatch):
    long_name = "x" * 300
    assert main(["sessions", "--db", str(tmp_path / f"{long_name}.db")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "File name too long" in err[0]
    import companion.commands.enroll as enroll

    def interrupted(*a, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(enroll, "cmd_enroll_cards", interrupted)
    assert main(["enroll", "cards", "deck", str(tmp_path)]) == 130
    assert capsys.readouterr().err.strip() == "companion: interrupted; what the command had not saved yet is not saved"


def test_too_few_players_are_refused_before_a_database_file_is_made(tmp_path, capsys):
    # Among the Stars is for 2-4 players (rulebook, Components): the rules engine says so at once
    code = main(["demo", "--game", "among", "--players", "Ann", "--db", str(tmp_path / "d.sqlite3"), *BOX,
                 "--max-frames", "2"])
    assert code == 2
    assert "2-4 players" in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()


def test_export_to_standard_output(tmp_path, capsys):
    import json as _json

    db = tmp_path / "box.sqlite3"
    sid = _finished_race(db)
    assert main(["export", "--db", str(db), "--unfinished", "--json", "-", "--bgstats", str(tmp_path / "b.json")]) == 0
    out, err = capsys.readouterr()
    assert _json.loads(out)["session"] == sid  # stdout holds only the game, for a pipe
    assert f"wrote {tmp_path / 'b.json'}" in err and "bgstats://" in err
    assert not (tmp_path / "-").exists()
