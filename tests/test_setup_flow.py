"""Setting up a game at the table (issue 3 'Setup on the touchscreen or phone', issue 5 'Player zones'):
players and colours from a phone or the touchscreen, seats tapped on the table picture or an even
split, Start records the session with its zones, and a resumed game keeps them."""

from __future__ import annotations

import numpy as np
import pygame
import pytest

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.cli import main
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.player_names import parse_players
from companion.screen import Screen, TouchScreen
from companion.session import SessionStore
from companion.setup_flow import TableSetup
from device import FakeCamera
from vision.motion import StillnessDetector
from vision.table import Zones

W, H = 320, 240


def test_players_colours_and_limits(store):
    setup = TableSetup(store, FLOWS["race"])
    assert setup.why_not() == "add players: Race for the Galaxy needs 2-4"
    assert setup.add_player("Ann") == "Ann joined (red, seat 1)"  # first free colour in seat order
    assert setup.add_player("Bob", "green") == "Bob joined (green, seat 2)"
    with pytest.raises(ValueError, match="green is taken"):
        setup.add_player("Cy", "green")
    with pytest.raises(ValueError, match="not one of"):
        setup.add_player("Cy", "teal")
    setup.add_player("Cy")
    setup.add_player("Di")
    with pytest.raises(ValueError, match="at most 4 players"):  # Race for the Galaxy base game: 2-4
        setup.add_player("Ed")
    assert setup.remove_player("Di") == "Di left"
    assert [p["colour"] for p in setup.view()["players"]] == ["red", "green", "blue"]
    assert setup.view()["can_start"] is True and setup.view()["zones"] == "even"


def test_seats_tapped_make_the_zones_and_a_resumed_game_keeps_them(store):
    setup = TableSetup(store, FLOWS["among"], {"races": ["", ""]})
    setup.add_player("Ann")
    setup.add_player("Bob")
    setup.seat("Ann", [10, 120])  # left edge of a 320 x 240 frame
    assert setup.why_not() == "tap the seat of Bob on the picture, or Split evenly"
    setup.seat("Bob", [310, 120])  # right edge
    flow = setup.start((W, H))
    settings = flow.session.settings
    zones = Zones.from_json(settings["zones"])
    # nearest seat: the split is the vertical line halfway, x = 160
    assert (zones.units, zones.zone_of((100, 20)), zones.zone_of((220, 200))) == ("px", "Ann", "Bob")
    assert settings["seat_points"] == {"Ann": [10.0, 120.0], "Bob": [310.0, 120.0]}
    assert [s["name"] for s in settings["seats"]] == ["Ann", "Bob"]
    # resumed: the camera reads with the saved zones
    resumed = store.resume_latest("among")
    from companion.flow import GameFlow

    cam = CameraFlow(GameFlow(resumed, FLOWS["among"]), deck=object())
    assert cam.zones.zone_of((100, 20)) == "Ann" and cam.zones.zone_of((220, 20)) == "Bob"


def test_even_split_is_zones_even(store):
    setup = TableSetup(store, FLOWS["roll"])
    for name in ("Ann", "Bob"):
        setup.add_player(name)
    setup.seat("Ann", [5, 5])
    setup.even()  # forget the tapped seat
    zones = Zones.from_json(setup.start((W, H)).session.settings["zones"])
    # Zones.even with 2 players: the first at the bottom half, the second at the top half
    assert zones.zone_of((160, 200)) == "Ann" and zones.zone_of((160, 40)) == "Bob"


def test_touchscreen_and_phone_set_up_a_game_in_the_main_loop(store, output_dir):
    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    hub = StateHub()
    started = []
    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([frame] * 30), reader=None, session=None, hub=hub, stillness=StillnessDetector(),
                    setup=setup, make_camera=lambda flow: started.append(flow) or None, stop_at_end=True,
                    sleep=lambda s: None)
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    loop.screen = screen
    loop.step()
    assert screen.state is Screen.SETUP
    # a phone adds Ann (blue); the touchscreen adds "Player 1" with the next free colour
    hub.post_action("setup_player", origin="phone", player="Ann", colour="blue")
    tap = lambda pos: [screen.handle_event(pygame.event.Event(t, button=1, pos=pos), hub)  # noqa: E731
                       for t in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP)][-1]
    loop.step()
    assert tap(screen.buttons["setup_player"].rect.center) == "setup_player"
    loop.step()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == ["Ann", "Player 1"]
    assert [p["colour"] for p in hub.snapshot().view["game"]["players"]] == ["blue", "red"]
    # Ann taps her name, then her seat at the picture's left edge (middle height)
    assert tap(screen.buttons["setup_pick:Ann"].rect.center) is None
    assert screen.seating == "Ann"
    rect = screen.frame_rect
    assert tap((rect.x + 2, rect.centery)) == "setup_seat"
    loop.step()
    seat = hub.snapshot().view["game"]["seat_points"]["Ann"]
    assert seat[0] < 0.05 * W and abs(seat[1] - H / 2) < 0.05 * H
    tap(screen.buttons["setup_pick:Player 1"].rect.center)
    tap((rect.right - 2, rect.centery))
    loop.step()
    screen.save_png(output_dir / "setup_seats.png")
    assert hub.snapshot().view["game"]["can_start"] is True
    # Start: the Next button (GPIO) or the Start button
    assert tap(screen.buttons["setup_start"].rect.center) == "setup_start"
    loop.step()
    assert loop.session is not None and loop.flow is not None and started == [loop.flow]
    view = hub.snapshot().view
    assert view["game"]["flow"] == "race" and not view["game"].get("setup")
    assert [p["name"] for p in view["game"]["players"]] == ["Ann", "Player 1"]
    zones = Zones.from_json(loop.session.settings["zones"])
    assert zones.zone_of((20, 20)) == "Ann" and zones.zone_of((300, 20)) == "Player 1"
    screen.render(hub.snapshot())
    assert screen.state is Screen.TABLE


def test_phone_api_setup_is_answered(store):
    from tests.phones import joined_phone

    hub = StateHub()
    hub.publish({"game": {"flow": "race", "setup": True}})  # the box shows the setup step
    app = joined_phone(hub, reply_s=0.01)
    assert app.post("/api/setup", json={"action": "dance"}).status_code == 400
    assert app.post("/api/setup", json={"action": "player", "name": 3}).status_code == 400
    # nobody takes it within reply_s: cancelled, answered 503, and the loop drops it
    response = app.post("/api/setup", json={"action": "player", "name": "Ann", "colour": "red"})
    assert response.status_code == 503 and "nothing was recorded" in response.get_json()["error"]
    [action] = hub.take_actions()
    assert (action["action"], action["player"], action["colour"],
            action["origin"]) == ("setup_player", "Ann", "red", "phone")
    assert hub.begin(action) is False


def test_add_tapped_before_typing_a_name_is_said_to_the_player_in_their_language(store):
    """The phone's "Add" with the name field empty (or only spaces) sent name "": the answer was the API's English
    "'name' is empty: send a name, e.g. {JSON}" in every language. Now a sentence for the player, in the phone's
    language; a pasted name with a text-direction control is said in it too. Nothing reaches the loop."""
    from tests.phones import joined_phone

    hub = StateHub()
    hub.publish({"game": {"flow": "race", "setup": True}})
    app = joined_phone(hub, reply_s=0.01)
    english = app.post("/api/setup", json={"action": "player", "name": "  ", "colour": "red", "version": 0,
                                           "key": "e1"})
    assert english.status_code == 400
    assert english.get_json() == {"error": "type the player's name first", "field": "name"}
    for lang in ("el", "pl", "hu"):
        said = app.post("/api/setup", json={"action": "player", "name": "", "version": 0, "key": f"n{lang}"},
                        headers={"Accept-Language": lang})
        assert said.status_code == 400 and said.get_json()["field"] == "name"
        assert said.get_json()["error"] != "type the player's name first" and "{" not in said.get_json()["error"]
        renamed = app.post("/api/setup", json={"action": "rename", "name": "Ann", "new_name": " ", "version": 0,
                                               "key": f"r{lang}"}, headers={"Accept-Language": lang})
        assert renamed.get_json() == said.get_json() | {"field": "new_name"}
        bidi = app.post("/api/setup", json={"action": "player", "name": "Ann\u202e", "version": 0, "key": f"b{lang}"},
                        headers={"Accept-Language": lang})
        name_field = {"el": "Όνομα", "pl": "Imię", "hu": "Név"}[lang]  # the field's label on the page, not its key
        said_bidi = bidi.get_json()["error"]
        assert bidi.status_code == 400 and name_field in said_bidi and "'name'" not in said_bidi
        assert "type it again" not in bidi.get_json()["error"]
    assert hub.take_actions() == []


def test_run_without_players_and_no_open_game_shows_the_setup(tmp_path, capsys):
    code = main(["demo", "--game", "race", "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen",
                 "--no-gpio", "--once", "--fast", "--max-frames", "3"])
    assert code == 0
    with SessionStore(tmp_path / "d.sqlite3") as s:
        assert s.list_sessions() == []  # nothing is started until Start


# -- the setup step is durable: setup-step players are events --------------------------------------


def test_a_setup_resumes_with_its_players_colours_and_seats(store):
    setup = TableSetup(store, FLOWS["race"])
    setup.add_player("Ann", "blue")
    setup.add_player("Player 2")
    setup.rename_player("Player 2", "Bob")
    setup.add_player("Cy")
    setup.remove_player("Cy")
    setup.seat("Ann", [10, 120])
    assert setup.version == 6
    again = TableSetup(store, FLOWS["race"])  # the same command after a kill: the open setup goes on
    assert again.id == setup.id and again.version == 6
    assert again.players == [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"}]
    assert again.seats == {"Ann": [10.0, 120.0]} and again.split == "seats"
    assert TableSetup(store, FLOWS["race"], resume=False).players == []  # --new-session: a new setup
    assert TableSetup(store, FLOWS["among"]).players == []  # another game
    assert TableSetup(store, FLOWS["race"], {"advanced": True}).players == []  # other options


def test_start_records_the_session_under_the_setups_id_and_closes_the_setup(store):
    setup = TableSetup(store, FLOWS["roll"])
    setup.add_player("Ann")
    setup.add_player("Bob")
    flow = setup.start((W, H))
    assert flow.session.id == setup.id
    assert store.resume_latest("roll").id == setup.id
    assert TableSetup(store, FLOWS["roll"]).players == []  # started: no longer an open setup


def test_a_game_started_from_a_setup_keeps_its_join_secret_and_claims(store):
    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)] * 5), reader=None, session=None, hub=hub,
                    stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    secret = hub.pairing().secret
    for name in ("Ann", "Bob"):
        loop.dispatch({"action": "setup_player", "origin": "phone", "player": name})
    loop.dispatch({"action": "claim_seat", "origin": "phone", "player": "Ann", "client": "ann-phone"})
    started = loop.dispatch({"action": "setup_start", "origin": "touchscreen"})
    assert started.status == 200 and loop.flow is not None
    assert started.version == 0  # the new game's log
    assert hub.pairing() == type(hub.pairing())(setup.id, secret, {"Ann": "ann-phone"})
    assert [p["claimed"] for p in loop.view()["game"]["players"]] == [True, False]
    # after a restart the game keeps them
    from companion.flow import GameFlow

    again = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)] * 5), reader=None, hub=StateHub(),
                     session=store.get(setup.id), flow=GameFlow(store.get(setup.id), FLOWS["race"]),
                     stillness=StillnessDetector(), sleep=lambda s: None)
    assert again.hub.pairing().secret == secret and again.hub.pairing().claims == {"Ann": "ann-phone"}


def test_a_setup_is_paired_before_anything_is_recorded(store):
    hub = StateHub()
    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([np.zeros((H, W, 3), np.uint8)] * 5), reader=None, session=None, hub=hub,
                    stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
    assert hub.pairing().game == setup.id and len(hub.pairing().secret) >= 22
    view = loop.view()
    assert view["session"]["events"] == 0 and view["storage"]["ok"] is True
    answer = loop.dispatch({"action": "setup_player", "origin": "phone", "player": "Ann", "version": 0, "key": "k1"})
    assert (answer.status, answer.version, [e.seq for e in answer.events]) == (200, 1, [1])
    assert loop.view()["session"]["events"] == 1
    stale = loop.dispatch({"action": "setup_player", "origin": "phone", "player": "Bob", "version": 0})
    assert stale.status == 409 and setup.names == ["Ann"]


# -- one rule for player names and colours on the CLI and the phone -----------------------------------
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
    # Ann added again (a second phone, a resent form) without a new colour keeps hers: refused, nothing recorded
    # (it took the first free colour in her place); with a new colour it changes hers (the end of this test)
    seen = setup.version
    for again in (None, "", " RED "):
        with pytest.raises(BadEntry, match="'Ann' is already playing"):
            setup.add_player("Ann", again)
    assert setup.version == seen and setup.players == [{"name": "Ann", "colour": "red"}]
    with pytest.raises(BadEntry, match="not one of red, blue"):
        setup.add_player("Bob", "mauve")
    setup.add_player("Bob", "BLUE")
    assert setup.players == [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}]
    with pytest.raises(BadEntry, match="already playing"):
        setup.rename_player("Bob", "ANN")
    assert setup.rename_player("Ann", "ANN") == "Ann is now ANN"  # a player may change their own case
    assert setup.add_player("ANN", "green") == "ANN is green"  # the same player again: a new colour


@pytest.mark.parametrize("name", ["\u0000Ann", "Ann\u202e", "\u0001", "Bo\u200bb"])
def test_names_with_control_or_invisible_characters_are_refused(store, name):
    from companion.errors import BadEntry
    from companion.player_names import check_player_name

    with pytest.raises(BadEntry, match="control or invisible formatting"):
        check_player_name(name)
    with pytest.raises(BadEntry, match="control or invisible formatting"):
        TableSetup(store, FLOWS["race"]).add_player(name, "red")


def test_names_that_look_the_same_are_the_same_player():
    # "Zoe" + U+0308 COMBINING DIAERESIS displays as "Zoë": one person, in the CLI/phone rule and score files
    from companion.errors import BadEntry
    from companion.player_names import check_player_name
    from rules.scoring import ScoreInputError, check_distinct_names

    assert check_player_name("Zoe\u0308") == "Zo\u00eb"
    with pytest.raises(BadEntry, match="already playing"):
        check_player_name("Zoe\u0308", ["Zo\u00eb"])
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name"):
        check_distinct_names(["Zo\u00eb", "ZOE\u0308"])


def test_a_score_file_names_a_player_as_a_phone_does():
    # A score file's players are told apart as a phone's names are: case and accents aside, one person
    # ("Ελένη" typed on a keyboard without accents is "ελενη"), while a letter of its own ("Ł") is a letter.
    from companion.player_names import named_player
    from rules.scoring import ScoreInputError, check_distinct_names

    with pytest.raises(ScoreInputError, match=r"players\[1\]\.name"):
        check_distinct_names(["\u0395\u03bb\u03ad\u03bd\u03b7", "\u0395\u039b\u0395\u039d\u0397"])
    check_distinct_names(["\u0141ukasz", "Lukasz"])
    helen = "\u0395\u03bb\u03ad\u03bd\u03b7"
    assert named_player("\u03b5\u03bb\u03b5\u03bd\u03b7", ["Ann", helen]) == helen


def test_a_phone_renames_a_player_added_on_the_touchscreen(tmp_path):
    store = SessionStore(tmp_path / "box.sqlite3")
    setup = TableSetup(store, FLOWS["roll"])
    setup.handle({"action": "setup_player", "player": "Player 1"})
    setup.handle({"action": "setup_player", "player": "Bob"})
    setup.handle({"action": "setup_seat", "player": "Player 1", "point": [10, 20]}, (80, 60))
    out = setup.handle({"action": "setup_rename", "player": "Player 1", "name": " Ann "})
    assert out.error is None and out.message == "Player 1 is now Ann"
    players = setup.view()["players"]
    assert [(p["name"], p["colour"]) for p in players] == [("Ann", "red"), ("Bob", "blue")]
    assert players[0]["seated"] is True
    assert "already playing" in setup.handle({"action": "setup_rename", "player": "Ann", "name": "Bob"}).error
    assert "no player" in setup.handle({"action": "setup_rename", "player": "Zed", "name": "Cy"}).error
    store.close()


def test_a_name_of_a_nul_alone_is_refused_naming_the_nul_not_as_empty(store):
    """The setup's name "\\x00" was "type the player's name first" (nothing typed) while "a\\nb" named its character:
    a name holding a character no keyboard types is refused naming it, whatever else it holds; spaces alone are
    still a name not typed yet."""
    from tests.phones import joined_phone

    hub = StateHub()
    hub.publish({"game": {"flow": "race", "setup": True}})
    app = joined_phone(hub, reply_s=0.01)
    for name, character in (("\x00", "U+0000"), ("\x00 \x00", "U+0000"), ("A\nB", "U+000A")):
        for body in ({"action": "player", "name": name}, {"action": "rename", "name": "Ann", "new_name": name}):
            said = app.post("/api/setup", json=body | {"version": 0, "key": "k1"})
            assert said.status_code == 400 and character in said.get_json()["error"], said.get_json()
    assert app.post("/api/setup", json={"action": "player", "name": " ", "version": 0, "key": "k2"}).get_json() == {
        "error": "type the player's name first", "field": "name"}
    assert hub.take_actions() == []


def test_a_family_emoji_name_typed_on_a_phone_joins_the_game(store):
    """A phone's emoji keyboard types a family as people joined by U+200D (a zero-width joiner): it was refused as a
    control character. It joins; the same name with a text-direction control is still refused."""
    from tests.phones import joined_phone, post_through_loop

    frame = np.full((H, W, 3), (60, 90, 40), np.uint8)
    hub = StateHub()
    loop = MainLoop(source=FakeCamera([frame] * 5), reader=None, session=None, hub=hub, stillness=StillnessDetector(),
                    setup=TableSetup(store, FLOWS["race"]), stop_at_end=True, sleep=lambda s: None)
    loop.step()
    phone = joined_phone(hub)
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467 Kowalscy"
    answer = post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": family, "colour": "blue",
                                                           "version": 0, "key": "f1"})
    assert answer.status_code == 200, answer.get_json()
    assert [p["name"] for p in hub.snapshot().view["game"]["players"]] == [family]
    answer = post_through_loop(phone, loop, "/api/setup", {"action": "player", "name": family + "\u202e",
                                                           "colour": "red", "version": 1, "key": "f2"})
    assert answer.status_code == 400 and [p["name"] for p in hub.snapshot().view["game"]["players"]] == [family]


def test_an_unknown_player_is_said_as_a_greek_player_would_say_it(store):
    """Removing or renaming a player no longer at the table read "κανένας παίκτης 'Nobody'" ("not any player"), a
    word-for-word English: Greek says "δεν υπάρχει παίκτης με το όνομα" (there is no player by the name; "παίκτης
    'Nobody'" would make the name a man's)."""
    from companion.flow import BadEntry
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["race"])
    setup.add_player("Ann")
    for act in (lambda: setup.remove_player("Nobody"), lambda: setup.rename_player("Nobody", "Bob")):
        with pytest.raises(BadEntry) as refused:
            act()
        assert say(refused.value, "el") == "δεν υπάρχει παίκτης με το όνομα 'Nobody'"
        assert say(refused.value, "pl") == "nie ma gracza o imieniu 'Nobody'"
    assert setup.names == ["Ann"]


def test_a_choice_seat_or_rename_naming_no_player_says_no_player_was_named(store):
    """An Eclipse species picked with no player named (``setup_choice`` without ``player``, or null, or blank) said
    "no player null" (the JSON word for nothing, read as a name); it says that no player was named, in the table's
    language, and records nothing."""
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["eclipse"])
    setup.handle({"action": "setup_player", "player": "Ann"})
    species = setup.player_options[0]
    for player in ({}, {"player": None}, {"player": "  "}):
        for action in ({"action": "setup_choice", "option": species.name, "value": species.choices[0]},
                       {"action": "setup_seat", "point": [10, 20]},
                       {"action": "setup_rename", "name": "Bob"},
                       {"action": "setup_remove"}):
            out = setup.handle(action | player)
            assert out.error == "no player named: say which player this is for", (action, player, out.error)
            assert out.events == []
            assert say(out.error, "hu") == "nincs megadva játékos: mondd meg, melyik játékosra vonatkozik"
    assert [p["name"] for p in setup.view()["players"]] == ["Ann"]
    assert setup.view()["players"][0]["choices"] == {species.name: None}
    store.close()


def test_a_species_another_player_has_is_said_as_theirs(store):
    """Ελένη picked Ζωή's Terran Directorate and read 'Terran Directorate και Terran Directorate: each needs a player
    board of its own, and only 1 carry them (... Magellan is on the back of the three new boards)': the same species
    twice is said as whose it is, in the table's language, and her pick is not recorded. Two species printed on one
    double-sided board are still refused with the board's rule (Eclipse: each board is one player's)."""
    from companion.i18n import say
    from rules.eclipse.data import BOARDS

    setup = TableSetup(store, FLOWS["eclipse"])
    for name in ("Ζωή", "Ελένη"):
        setup.handle({"action": "setup_player", "player": name})
    board = next(b for b in BOARDS if len(b) == 2)
    first = setup.handle({"action": "setup_choice", "player": "Ζωή", "option": "species", "value": board[0]})
    assert first.error is None
    out = setup.handle({"action": "setup_choice", "player": "Ελένη", "option": "species", "value": board[0].lower()})
    assert out.error == f"Ζωή has {board[0]} already; pick another" and out.events == []
    assert say(out.error, "el") == f"{board[0]}: το έχει ήδη επιλέξει Ζωή· διαλέξτε άλλο"
    assert say(out.error, "hu") == f"{board[0]} már Ζωή választása; válassz mást"
    assert say(out.error, "pl") == f"Ζωή ma już {board[0]}; wybierz coś innego"
    back = setup.handle({"action": "setup_choice", "player": "Ελένη", "option": "species", "value": board[1]})
    assert back.error is not None and "board" in back.error and "already" not in back.error
    assert [p["choices"]["species"] for p in setup.view()["players"]] == [board[0], None]
    again = setup.handle({"action": "setup_choice", "player": "Ζωή", "option": "species", "value": board[0]})
    assert again.error is None  # her own pick again is no conflict
    store.close()


def test_a_game_chosen_on_the_box_plays_its_on_off_options_set_on_a_phone(store):
    """Eclipse chosen on the box's chooser starts a setup with no options (the command line gives none): a phone turns
    the alliances on (Rise of the Ancients p.10-11, 4 or more players) and Start records them, as ``--alliances``
    does; the setup resumed after a restart keeps them; the alliances with 3 players are refused at Start with the
    rule's player count; an option the game does not have and a value that is not on/off are refused by name."""
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["eclipse"], {})
    for name in ("Ζωή", "Νίκος", "Ελένη"):
        setup.handle({"action": "setup_player", "player": name})
    options = {o["option"]: o for o in setup.view()["options"]}
    assert options["alliances"]["on"] is False and options["last_round_upkeep"]["on"] is True  # the games' defaults
    assert "species" not in options  # a per-player option is picked beside each name
    assert say(options["alliances"]["label"], "el") == ("οι παίκτες μπορούν να ιδρύσουν συμμαχίες που βαθμολογούνται "
                                                        "μαζί (Αυγή των Αρχαίων σ.10-11· 4 ή περισσότεροι παίκτες)")
    out = setup.handle({"action": "setup_option", "option": "alliances", "value": "on"})
    assert out.error is None and out.message == "the alliances module: in play" and len(out.events) == 1
    assert say(out.message, "el") == "η ενότητα Συμμαχιών: σε χρήση"
    assert "Alliance" in [c["label"] for c in setup.view()["columns"]]  # the column shows as soon as it is on
    bad = setup.handle({"action": "setup_option", "option": "aggressive", "value": "on"})  # Among the Stars'
    # the options are named as the setup form names them, never by their ids
    assert bad.error.startswith("Eclipse has no option 'aggressive' (options: the ancient homeworlds module, the "
                                "hives module")
    for lang in ("el", "pl", "hu"):
        said = say(bad.error, lang)
        assert "ancient_homeworlds" not in said and "hives," not in said and "warp_portals" not in said, said
    assert "η ενότητα Συμμαχιών" in say(bad.error, "el")
    assert setup.handle({"action": "setup_option", "option": "hives", "value": "maybe"}).error == \
        'an option is on or off: send true or false (without quotes), or "on" or "off"; got \'maybe\''
    resumed = TableSetup(store, FLOWS["eclipse"], {})  # the box restarted during the setup
    assert {o["option"]: o["on"] for o in resumed.view()["options"]}["alliances"] is True
    assert resumed.handle({"action": "setup_start"}).error.startswith("the alliances module is for 4-9 players")
    resumed.handle({"action": "setup_player", "player": "Γιώργος"})
    assert resumed.handle({"action": "setup_start"}).error is None
    assert resumed.flow.session.settings["alliances"] is True
    store.close()


def test_among_the_stars_chosen_on_the_box_plays_the_objectives_a_phone_picks(store):
    """Among the Stars with 2 players draws 2 objectives (rulebook 8, 2-player rules; 3 Setup: as many as players):
    chosen on the box's chooser its setup had no way to name them. A phone now ticks them (sent as names separated by
    commas, matched ignoring case); a name that is no objective is refused with the closest, one twice is refused,
    and Start plays the objectives picked."""
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["among"], {})
    for name in ("Ágnes", "Bálint"):
        setup.handle({"action": "setup_player", "player": name})
    objectives = next(o for o in setup.view()["options"] if o["option"] == "objectives")
    assert objectives["on"] == [] and "Intergalactic Trade" in objectives["choices"] and len(objectives["choices"]) == 8
    bad = setup.handle({"action": "setup_option", "option": "objectives", "value": "First Line of Defence"})
    assert "did you mean 'First Line of Defense'" in bad.error and bad.events == []
    twice = setup.handle({"action": "setup_option", "option": "objectives", "value": "On Budget,on budget"})
    assert twice.error == "On Budget named twice"
    out = setup.handle({"action": "setup_option", "option": "objectives", "value": "first line of defense,On Budget"})
    assert out.error is None and out.message == "the objectives: First Line of Defense and On Budget"
    assert say(out.message, "hu") == "a célok: First Line of Defense és On Budget"
    assert next(o for o in setup.view()["options"] if o["option"] == "objectives")["on"] == [
        "First Line of Defense", "On Budget"]
    assert setup.handle({"action": "setup_start"}).error is None
    assert setup.flow.session.settings["objectives"] == ["first_line_of_defense", "on_budget"]  # as --objectives
    store.close()


def test_an_option_a_player_leaving_breaks_is_said_before_start_is_tapped(store):
    """The alliances ticked with four Eclipse players (Rise of the Ancients p.10-11: 4 or more), then one leaves: the
    setup page and the touchscreen kept Start lit with nothing said, and only a tap on Start told the table. Now Start
    is off at once with the rule's player count, in the phone's language, and lit again when a fourth player joins;
    Race's advanced game (2 players, Race for the Galaxy rulebook, Advanced 2-player game) likewise when a third
    player joins."""
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["eclipse"], {})
    for name in ("Ζωή", "Νίκος", "Ελένη", "Γιώργος"):
        setup.handle({"action": "setup_player", "player": name})
    setup.handle({"action": "setup_option", "option": "alliances", "value": "on"})
    assert setup.view()["can_start"] is True
    setup.handle({"action": "setup_remove", "player": "Γιώργος"})
    view = setup.view()
    assert view["can_start"] is False and view["next"]["enabled"] is False
    assert view["why"] == view["next"]["why"] == "the alliances module is for 4-9 players, not 3"
    assert say(view["why"], "pl") == say(setup.handle({"action": "setup_start"}).error, "pl")
    assert setup.flow is None  # nothing started
    setup.handle({"action": "setup_player", "player": "Μαρία"})
    assert setup.view()["can_start"] is True

    race = TableSetup(store, FLOWS["race"], {})
    for name in ("Ágnes", "Bálint"):
        race.handle({"action": "setup_player", "player": name})
    race.handle({"action": "setup_option", "option": "advanced", "value": "on"})
    assert race.view()["can_start"] is True
    race.handle({"action": "setup_player", "player": "Łucja"})
    assert race.view()["why"] == "the advanced game is for 2 players, not 3"
    store.close()


def test_objectives_ticked_for_more_players_than_are_left_keep_start_off(store):
    """Among the Stars lays as many objectives as there are players (rulebook 3 Setup; 2 with 2 players, 8 2-player
    rules), none for a first game. Three ticked for three players, then one left: Start played the two with three
    objectives. Now Start is off saying how many the two play, in the phone's language; unticking one lights it."""
    from companion.i18n import say

    setup = TableSetup(store, FLOWS["among"], {})
    for name in ("Ágnes", "Bálint", "Łucja"):
        setup.handle({"action": "setup_player", "player": name})
    three = "On Budget,Intergalactic Trade,First Line of Defense"
    assert setup.handle({"action": "setup_option", "option": "objectives", "value": three}).error is None
    assert setup.view()["can_start"] is True
    setup.handle({"action": "setup_remove", "player": "Łucja"})
    why = setup.view()["why"]
    assert why == "2 players play 2 objectives, not 3 (Among the Stars rulebook, 3 Setup and 8 2-player rules)"
    assert say(why, "hu") == "2 játékoshoz 2 cél jár, nem 3 (Among the Stars szabálykönyv, 3 Előkészületek és " \
                             "8 2-Játékos Szabályok)"
    assert say(why, "pl").startswith("liczba celów dla 2 graczy: 2, nie 3 (instrukcja Among the Stars")
    out = setup.handle({"action": "setup_start"})
    assert out.error == why and setup.flow is None
    setup.handle({"action": "setup_option", "option": "objectives", "value": "On Budget,Intergalactic Trade"})
    assert setup.view()["can_start"] is True
    setup.handle({"action": "setup_option", "option": "objectives", "value": ""})  # a first game: none
    assert setup.handle({"action": "setup_start"}).error is None
    assert setup.flow.session.settings["objectives"] == []
    store.close()


@pytest.mark.parametrize("payload", [
    {"option": "aggressive"},  # no value: the setup could not be resumed (KeyError), the box stopped
    {"option": ["aggressive"], "value": True},  # a list for a name (TypeError)
    {"option": "no_such_option", "value": True},  # another version's option: Start stayed off for good
    {"option": "objectives", "value": ["Not an objective"]},  # likewise, with no box on the phone to untick it
    {"option": "aggressive", "value": {"on": 1}},  # read as on
])
def test_a_damaged_option_row_on_disk_is_left_out_and_the_setup_goes_on(store, caplog, payload):
    """A game option's setup event damaged on disk between two runs (hand-edited, written by another version) stopped
    the setup from being resumed, or held Start off with no way to clear it from a phone. It is now left out with a
    log line; the players are kept, the option is as it was before it, the next tap is recorded after it, and Start
    plays."""
    import json
    import logging

    setup = TableSetup(store, FLOWS["among"], {})
    for name in ("Ágnes", "Bálint"):
        setup.handle({"action": "setup_player", "player": name})
    with store.transaction(write=True, doing="damaging the setup") as conn:
        conn.execute("INSERT INTO setup_events (setup_id, seq, kind, payload, at, origin) VALUES (?, ?, ?, ?, ?, ?)",
                     (setup.id, 3, "option_set", json.dumps(payload), 0.0, "phone"))
    with caplog.at_level(logging.WARNING, logger="companion.setup_flow"):
        resumed = TableSetup(store, FLOWS["among"], {})  # the box restarted
    assert resumed.id == setup.id and resumed.names == ["Ágnes", "Bálint"] and resumed.version == 3
    assert "damaged setup event 3 (option_set) left out" in caplog.text
    assert {o["option"]: o["on"] for o in resumed.view()["options"]} == {"objectives": [], "aggressive": False}
    assert resumed.view()["can_start"] is True
    out = resumed.handle({"action": "setup_option", "option": "aggressive", "value": "on"})
    assert out.error is None and out.events[0].seq == 4
    assert resumed.handle({"action": "setup_start"}).error is None
    assert resumed.flow.session.settings["aggressive"] is True and resumed.flow.session.settings["objectives"] == []
    store.close()


def test_a_fault_in_a_games_settings_check_does_not_stop_the_setup_view(store, monkeypatch, caplog):
    """The setup's reason for Start runs the game's own checks on every view; a fault in them (not a refusal) would
    have stopped every publish of the setup, and with it the touchscreen and the phones. It is logged, and the view
    is drawn as before the check (the fault meets Start again, which reports it as any fault)."""
    import logging

    setup = TableSetup(store, FLOWS["race"], {})
    for name in ("Ann", "Bob"):
        setup.handle({"action": "setup_player", "player": name})

    def broken(settings):
        raise ZeroDivisionError("a fault in a game's check")

    monkeypatch.setattr(FLOWS["race"], "check_setup", broken)
    with caplog.at_level(logging.ERROR, logger="companion.setup_flow"):
        view = setup.view()
    assert view["players"][1]["name"] == "Bob" and view["why"] == "" and view["can_start"] is True
    assert "checking the settings before Start failed" in caplog.text
    store.close()


def test_a_phone_sends_as_many_objectives_as_four_players_play(store):
    """Among the Stars with 4 players lays 4 objectives (rulebook 3 Setup). The phone sends the names ticked in one
    text, and the phone view refused any text over 60 characters: three long names (63 characters) were answered
    "'value' is longer than 60 characters" and four could never be ticked. All eight together (148 characters) now
    reach the box; a value far past any list of names is still refused."""
    from tests.phones import joined_phone

    hub = StateHub()
    hub.publish({"game": {"flow": "among", "setup": True}})
    app = joined_phone(hub, reply_s=0.01)
    four = "First Line of Defense,Intergalactic Trade,Peace Among the Stars,Accelerated Construction"
    everything = ",".join(TableSetup(store, FLOWS["among"], {}).view()["options"][0]["choices"])
    assert len(four) == 88 and len(everything) == 148
    for value in (four, everything):
        response = app.post("/api/setup", json={"action": "option", "option": "objectives", "value": value})
        assert response.status_code == 503  # taken by the phone view; no loop runs here to take it
        [action] = hub.take_actions()
        assert (action["action"], action["option"], action["value"]) == ("setup_option", "objectives", value)
    too_long = app.post("/api/setup", json={"action": "option", "option": "objectives", "value": "x," * 400})
    assert too_long.status_code == 400 and hub.take_actions() == []
    names = app.post("/api/setup", json={"action": "player", "name": "N" * 61})  # other fields keep their limits
    assert names.status_code == 400
    store.close()
