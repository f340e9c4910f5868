"""The evening's screens on the 800 x 480 touchscreen (issue 17), drawn headless and saved to look at
(``tests/_output/evening-*.png``): the chooser, the setup, the table check, the game, the scores, the history (a
list, one game opened), the settings, a phone asking for the owner page; each reachable by touch alone with targets
of at least 48 px, no text cut off or off the screen, the QR code at least 20 mm wide; finger-only taps act, a
touch followed by the driver's mouse press acts once; colour is never the only signal."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pygame

from companion.actions import Action
from companion.box_settings import BoxSettings
from companion.camera import CameraFlow
from companion.hub import StateHub
from companion.modes import ModeName
from companion.screen import BUTTON_MIN_PX, Screen, TouchScreen
from tests.test_evening import among_round_ended_unreported, do, evening, library

SCREEN_MM = (154, 86)
"""The official 7" touchscreen's active area (mm) for its 800 x 480 px."""
LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"  # 40 characters, no space: the longest name a player may have


def table_frame() -> np.ndarray:
    image = np.full((240, 320, 3), (70, 110, 60), np.uint8)
    cv2.rectangle(image, (40, 150), (120, 200), (200, 200, 200), -1)
    cv2.rectangle(image, (200, 30), (280, 80), (40, 40, 180), -1)
    return image


def shot(loop, screen: TouchScreen, name: str, output_dir) -> TouchScreen:
    """Render the loop's published view (and its picture), save it, and hold it to the screen rules."""
    loop.publish()
    snapshot = loop.hub.snapshot()
    screen.render(type("S", (), {"view": snapshot.view, "frame": table_frame(), "jpeg": None})())
    screen.save_png(output_dir / f"evening-{name}.png")
    check_screen(screen)
    return screen


def check_screen(screen: TouchScreen) -> None:
    """Touch targets >= 48 px inside the screen; every text inside the screen and its room (fitted, not cut off)."""
    bounds = screen.surface.get_rect()
    for button in screen.buttons.values():
        assert button.rect.width >= BUTTON_MIN_PX and button.rect.height >= BUTTON_MIN_PX, button
        assert bounds.contains(button.rect), button
    for text, rect, room in screen.drawn:
        assert bounds.contains(rect), (text, rect)
        if room is not None:
            assert rect.width <= room + 1, (text, rect, room)


def qr_code(image: np.ndarray) -> tuple[np.ndarray | None, str]:
    """(corners float[4, 2] in ``image`` px, or None when no code is found; its text, "" when not decoded) of the QR
    code on a screenshot ``image`` uint8[H, W, 3] BGR. OpenCV's classic detector misses some codes at the screen's
    own 800x480 that it finds with every pixel doubled, and a few at either size that its ArUco-based detector finds
    (the code's content, so its pattern, changes with each box's join secret): both are asked, at both sizes."""
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for scale in (1, 2):
            scaled = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
            found, points = detector.detect(scaled)
            if found:
                return np.asarray(points, np.float64).reshape(-1, 2)[:4] / scale, detector.decode(scaled, points)[0]
    return None, ""


def qr_mm(screen: TouchScreen, output_dir, name: str) -> float:
    """The QR code's width on the 7" screen (mm), measured on the saved screenshot by OpenCV's detectors."""
    corners, _ = qr_code(cv2.imread(str(output_dir / f"evening-{name}.png")))
    assert corners is not None, name
    width_px = float(np.ptp(corners[:, 0]))
    return width_px * SCREEN_MM[0] / 800


def tap(screen: TouchScreen, hub, name: str) -> str | None:
    centre = screen.buttons[name].rect.center
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1), hub)
    return screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1), hub)


def among_played_to_the_end(store, tmp_path):
    """Among the Stars played by Ann and Bob from the touchscreen to the end (4 years of 6 rounds, rulebook 4, 5):
    ``(loop, screen)``, the touchscreen paired with the box's hub."""
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="among")
    do(loop, "setup_player", player="Ann")
    do(loop, "setup_player", player="Bob")
    do(loop, "setup_start")
    for _ in range(24):
        among_round_ended_unreported(loop)
    return loop, screen


def test_every_screen_of_the_evening_by_touch_alone(store, tmp_path, output_dir):
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub, phone_url="http://192.168.1.20:8080/",
                   lib=library(store, tmp_path, make_camera=lambda flow: CameraFlow(flow, deck=object())),
                   box_settings=BoxSettings(None, "en", buzzer=False))
    screen = TouchScreen(pairing=hub.pairing)
    loop.screen = screen

    def touch(name: str) -> None:  # a tap on the touchscreen, taken by the loop
        assert tap(screen, hub, name) is not None, name
        loop.take_actions()

    shot(loop, screen, "choose", output_dir)
    assert screen.state is Screen.CHOOSE and qr_mm(screen, output_dir, "choose") >= 20
    touch("choose_game:roll")
    shot(loop, screen, "setup-empty", output_dir)
    assert screen.state is Screen.SETUP
    do(loop, "setup_player", "phone", player=LONG, colour="purple")
    touch("setup_player")
    do(loop, "setup_rename", "phone", player="Player 1", name="Ζωή Παπαδοπούλου")
    shot(loop, screen, "setup", output_dir)
    assert qr_mm(screen, output_dir, "setup") >= 20
    touch("setup_even")
    touch("setup_start")
    shot(loop, screen, "check", output_dir)
    assert screen.state is Screen.CHECK
    touch("table_ok")
    shot(loop, screen, "table", output_dir)
    assert screen.state is Screen.TABLE and qr_mm(screen, output_dir, "table") >= 20
    touch("games")
    shot(loop, screen, "choose-left-open", output_dir)
    touch("back")
    assert screen.state is Screen.TABLE
    touch("games")
    touch("settings")
    shot(loop, screen, "settings", output_dir)
    assert screen.state is Screen.SETTINGS
    touch("back")
    touch("history")
    shot(loop, screen, "history", output_dir)
    assert screen.state is Screen.HISTORY
    touch(next(name for name in screen.buttons if name.startswith("open_game:")))
    shot(loop, screen, "history-open", output_dir)
    touch("resume_game")
    assert screen.state is Screen.TABLE


def test_the_scores_screen_exports_and_goes_on_to_a_new_game(store, tmp_path, output_dir):
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub, phone_url="http://192.168.1.20:8080/")
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="among")
    do(loop, "setup_player", player=LONG)
    do(loop, "setup_player", player="Bob")
    do(loop, "setup_start")
    for _ in range(24):
        among_round_ended_unreported(loop)
    shot(loop, screen, "scores", output_dir)
    assert screen.state is Screen.SCORES and {"export_game", "history", "games"} <= set(screen.buttons)
    assert tap(screen, hub, "export_game") == "export_game"
    loop.take_actions()
    shot(loop, screen, "scores-exported", output_dir)
    said = loop.view()["status"]["message"]
    session = loop.session.id
    assert said == f"saved on the box: {session}.json, {session}.bgstats.json"  # the files, not the box's folder
    assert tap(screen, hub, "games") == "games"
    loop.take_actions()
    assert loop.mode.name.value == "choose"


def test_a_phone_asking_for_the_owner_page_is_answered_on_the_touchscreen(store, tmp_path, output_dir):
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub, box_settings=BoxSettings(None))
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "owner_ask", "phone", client="phone-1")
    shot(loop, screen, "asking", output_dir)
    assert screen.state is Screen.ASKING and set(screen.buttons) == {"owner_allow", "owner_refuse"}
    assert tap(screen, hub, "owner_refuse") == "owner_refuse"
    loop.take_actions()
    shot(loop, screen, "asked", output_dir)
    assert screen.state is Screen.CHOOSE and "phone-1" not in hub.pairing().owners


def test_no_network_is_said_until_an_address_appears(store, tmp_path, output_dir):
    hub = StateHub()
    urls = iter(["http://127.0.0.1:8080/"] * 2 + ["http://192.168.1.20:8080/"] * 10)
    loop = evening(store, tmp_path, hub=hub, phone_url="http://127.0.0.1:8080/", refresh_url=lambda: next(urls),
                   url_every_s=0.0)
    screen = TouchScreen(pairing=hub.pairing)
    shot(loop, screen, "no-network", output_dir)
    assert any("No network" in text for text, _, _ in screen.drawn)
    image = cv2.imread(str(output_dir / "evening-no-network.png"))
    assert qr_code(image)[0] is None  # no code a phone could not use
    loop.step()
    loop.step()
    shot(loop, screen, "network", output_dir)
    assert not any("No network" in text for text, _, _ in screen.drawn)
    assert qr_code(cv2.imread(str(output_dir / "evening-network.png")))[1].startswith("http://192.168.1.20:8080/join/")


def finger(screen: TouchScreen, hub, kind: int, pos: tuple[int, int]) -> str | None:
    w, h = screen.size
    return screen.handle_event(pygame.event.Event(kind, x=pos[0] / w, y=pos[1] / h, dx=0.0, dy=0.0, touch_id=1,
                                                  finger_id=0, pressure=1.0), hub)


def test_finger_taps_act_and_a_touch_told_again_as_a_mouse_press_acts_once(store, tmp_path):
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    loop.publish()
    screen.render(hub.snapshot())
    centre = screen.buttons["history"].rect.center
    # a finger alone (no mouse event synthesised): the tap acts
    assert finger(screen, hub, pygame.FINGERDOWN, centre) is None
    assert finger(screen, hub, pygame.FINGERUP, centre) == "history"
    # the driver then tells the same tap as a mouse press: nothing more is posted
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        assert screen.handle_event(pygame.event.Event(kind, pos=centre, button=1, touch=False), hub) is None
    # SDL's own mouse events made from a touch are left out too
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        assert screen.handle_event(pygame.event.Event(kind, pos=centre, button=1, touch=True), hub) is None
    assert [a["action"] for a in hub.take_actions()] == [Action.HISTORY]
    # a real mouse (no finger lately) still taps
    screen._finger_at = None  # noqa: SLF001  (long after the finger)
    screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1, touch=False), hub)
    assert screen.handle_event(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1, touch=False),
                               hub) == "history"


def test_colour_is_never_the_only_signal(store, tmp_path, output_dir):
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="race")
    for name, colour in (("Ann", "red"), ("Bob", "green")):
        do(loop, "setup_player", player=name, colour=colour)
    do(loop, "setup_start")
    do(loop, "report", "phone", player="Ann", form="hand", values={"cards": 5})
    shot(loop, screen, "signals", output_dir)
    drawn = [text for text, _, _ in screen.drawn]
    assert "R" in drawn and "G" in drawn  # each seat's dot carries its colour's letter
    assert any(text.startswith(("\u25b6", ">")) for text in drawn) or screen.state is Screen.TABLE


def test_the_scores_screen_says_the_game_ended_and_labels_its_rows_as_its_total(store, tmp_path, output_dir):
    """After the last Next the footer still said the last round's note ('Year 4 of 4, round 6 of 6: Hands pass right
    this year - ...', cut to 11 px) and the rows were labelled in lowercase ('credits') beside 'Total'. The Next that
    ends the game says so, and so does a box restarted on the finished game; each row label starts with a capital, in
    every language."""
    from companion import i18n
    from companion.i18n import Text

    loop, screen = among_played_to_the_end(store, tmp_path)
    assert loop.view()["status"]["message"] == "Among the Stars: game over"
    again = evening(store, tmp_path, hub=StateHub())  # the box restarted: back on the finished game's scores
    assert again.mode_name is ModeName.SCORES and again.view()["status"]["message"] == "Among the Stars: game over"
    try:
        for lang, credits, total in (("en", "Credits", "Total"), ("el", "Μονάδες", "Σύνολο"), ("pl", "Kredyty", "Suma"),
                                     ("hu", "Credit", "Összesen")):
            i18n.set_box_language(lang)
            shot(loop, screen, f"scores-over-{lang}", output_dir)
            assert screen.state is Screen.SCORES
            drawn = [str(text) for text, _, _ in screen.drawn]
            assert credits in drawn and total in drawn and credits.lower() not in drawn, (lang, drawn)
            ended = i18n.say(Text("{title}: game over", title="Among the Stars"), lang)
            assert drawn.count(ended) == 2, (lang, drawn)  # the title, and the footer's status line
            last_round = i18n.say(Text("Year {year} of {years}, round {round} of {rounds}", year=4, years=4, round=6,
                                       rounds=6), lang)
            assert not any(last_round in text for text in drawn), (lang, drawn)
    finally:
        i18n.set_box_language("en")


def test_the_scores_screen_cites_the_rulebook_section_the_scoring_follows(store, tmp_path, output_dir):
    """The breakdown named its rows and totals but never where the rulebook says how the game is scored (the rules'
    findings cite their section; the score did not): under the table, the game's scoring section, in the box's
    language (Among the Stars rulebook 6 'Game end'), and the same in the view the phones get."""
    from companion import i18n
    from companion.i18n import Text
    from rules.among_the_stars.game import INFO

    loop, screen = among_played_to_the_end(store, tmp_path)
    result = loop.view()["game"]["result"]
    assert str(result["rule"]) == "Among the Stars, rulebook 6 'Game end'"
    try:
        for lang in ("en", "el", "pl", "hu"):
            i18n.set_box_language(lang)
            shot(loop, screen, f"scores-cited-{lang}", output_dir)
            drawn = [str(text) for text, _, _ in screen.drawn]
            cited = i18n.say(Text("Rule: {rule}", rule=INFO.cite(INFO.score_rule)), lang)
            assert cited in drawn, (lang, drawn)
            if lang != "en":
                assert "Game end" not in cited, cited  # the section in the table's language
            assert i18n.localize(result, lang)["rule"] in cited
    finally:
        i18n.set_box_language("en")


def test_a_players_column_heading_starts_with_a_capital_as_player_beside_it(store, tmp_path, output_dir):
    """Race for the Galaxy's table headed its columns 'Gracz | Układ kart | żetony PZ' and 'Παίκτης | Ταμπλό | δείκτες
    ΠΝ': the game's word for its VP chips is the rules' lowercase one (a score row's). Every heading starts with a
    capital, in every language."""
    from companion import i18n
    from tests.test_evening import race_started

    loop = evening(store, tmp_path, hub=StateHub())
    screen = TouchScreen(pairing=loop.hub.pairing)
    race_started(loop)
    if loop.mode_name is ModeName.CALIBRATION:
        do(loop, "table_ok")
    try:
        for lang, chips in (("en", "VP chips"), ("el", "Δείκτες ΠΝ"), ("pl", "Żetony PZ"), ("hu", "GYP-zsetonok")):
            i18n.set_box_language(lang)
            shot(loop, screen, f"race-columns-{lang}", output_dir)
            drawn = [str(text) for text, _, _ in screen.drawn]
            assert chips in drawn and chips.lower() not in drawn, (lang, drawn)
    finally:
        i18n.set_box_language("en")


def test_a_species_picked_on_a_phone_shows_on_the_players_setup_chip(store, tmp_path, output_dir):
    """Eclipse's setup on the touchscreen showed each player's colour and seat but not the species they had picked on
    their phone ('κόκκινο, ίση μοιρασιά'), so the table could not see who plays what before Start. The chip says it
    in place of the colour's word (the seat dot's letters still name the colour), readable; a player with no species
    keeps the colour's word."""
    from companion import i18n

    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="eclipse")
    for name in ("Ζωή", "Νίκος"):
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_choice", "phone", player="Ζωή", option="species", value="Orion Hegemony")
    do(loop, "setup_even")
    try:
        i18n.set_box_language("el")
        shot(loop, screen, "setup-species-el", output_dir)
        drawn = [str(text) for text, _, _ in screen.drawn]
        assert "Orion Hegemony, ίση μοιρασιά" in drawn, drawn
        chip = next(rect for text, rect, _ in screen.drawn if str(text) == "Orion Hegemony, ίση μοιρασιά")
        plain = next(rect for text, rect, _ in screen.drawn if str(text) == "μπλε, ίση μοιρασιά")
        assert chip.height >= plain.height - 2, (chip, plain)  # about the size of a chip without a species
        assert "μπλε, ίση μοιρασιά" in drawn, drawn
    finally:
        i18n.set_box_language("en")


def test_a_refused_next_is_drawn_whole_with_its_rule_in_greek(store, tmp_path, output_dir):
    """Among the Stars with four players, three of whom have not reported: the refused Next's words (who, what to do,
    rulebook 4) took four lines at 24 px in Greek and the rule was cut with '…'; the finding is drawn whole, at a
    smaller size where its three lines need it."""
    from companion import i18n
    from companion.screen.canvas import ELLIPSIS

    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="among")
    for name in ("Łucja", "Ζωή", "Ágnes", "Bálint"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_start")
    do(loop, "report", "phone", player="Łucja", form="discard", values={})
    assert loop.dispatch({"action": "next_phase", "origin": "phone"}).error is not None
    try:
        i18n.set_box_language("el")
        shot(loop, screen, "among-next-asked-el", output_dir)
    finally:
        i18n.set_box_language("en")
    words = " ".join(str(text) for text, _rect, _room in screen.drawn)
    assert "Ζωή, Ágnes και Bálint: καμία ενέργεια δεν δηλώθηκε" in words
    assert "κάθε παίκτης κάνει μία ενέργεια σε κάθε γύρο)" in words, words
    assert not [text for text, _rect, _room in screen.drawn if str(text).endswith(ELLIPSIS)]


def test_the_setup_screen_says_which_game_options_are_in_play_whole_in_every_language(store, tmp_path, output_dir):
    """Options ticked on a phone (Eclipse's Alliances, Rise of the Ancients p.10-11) showed on the phones only: the
    touchscreen's setup gave no sign of them before Start. It now names the options in play under the picture, whole
    (never cut with '…') in each of the box's languages; with more than its corner holds (every module of Rise of
    the Ancients and a long reason Start waits) it names those that fit and counts the rest, listed on the phones."""
    from companion import i18n
    from companion.screen.canvas import ELLIPSIS

    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    screen = TouchScreen(pairing=hub.pairing)
    do(loop, "choose_game", game="eclipse")
    for name in ("Ζωή Παπαδοπούλου", "Łucja", "Ágnes", "Bálint"):
        do(loop, "setup_player", "phone", player=name)
    for option in ("alliances", "rare_technologies"):
        do(loop, "setup_option", "phone", option=option, value="on")
    heads = {"en": "Options in play: ", "el": "Επιλογές σε χρήση: ", "pl": "Opcje w grze: ",
             "hu": "Játékban lévő beállítások: "}
    try:
        for lang, head in heads.items():
            i18n.set_box_language(lang)
            shot(loop, screen, f"setup-options-{lang}", output_dir)
            drawn = " ".join(str(text) for text, _, _ in screen.drawn)
            assert ELLIPSIS not in drawn, drawn
            said = drawn[drawn.index(head):]
            # the two ticked, and round 9's Upkeep and Cleanup, on unless turned off; no module left off is named
            for name in ("the alliances module", "the rare technologies module", "round 9's Upkeep and Cleanup"):
                assert i18n._(name) in said, (lang, said)
            assert i18n._("the hives module") not in said, (lang, said)
        # every option on, and a reason Start waits that takes three lines (three long names without a seat): the
        # options named and those counted add up
        modules = [o["option"] for o in loop.view()["game"]["options"]]
        for option in modules:
            do(loop, "setup_option", "phone", option=option, value="on")
        for name in ("Ζωή Παπαδοπούλου", "Łucja", "Ágnes"):
            do(loop, "setup_rename", "phone", player=name, name=name + " " + LONG[:40 - len(name) - 1])
        do(loop, "setup_seat", player="Bálint", point=[10, 10])
        i18n.set_box_language("el")
        shot(loop, screen, "setup-options-all-el", output_dir)
        # under the picture (the players' chips cut long names, as before)
        texts = [str(text) for text, rect, _ in screen.drawn if rect.top >= 306 and rect.right <= 406]
        assert not any(ELLIPSIS in t for t in texts), texts
        said = " ".join(texts)
        assert "Wolfeschlegelsteinhausenbergerdorf" in said  # the reason, whole
        names = [i18n._(name) for name in ("the alliances module", "the hives module", "the warp portals module",
                                            "the developments module", "the rare technologies module",
                                            "the galactic center module", "the Turn Order variant",
                                            "the ancient homeworlds module", "simultaneous play",
                                            "the Hidden Worlds variant", "round 9's Upkeep and Cleanup")]
        named = sum(name in said for name in names)
        counted = re.search(r"(\d+) (?:ακόμη|επιλογ)", said)
        assert counted is not None, said  # not all of them fit beside the reason
        assert named + int(counted.group(1)) == len(modules) == 11, (named, said)
    finally:
        i18n.set_box_language("en")


def test_the_options_line_names_those_that_fit_and_counts_the_rest():
    from companion.screen.setup import options_in_play, options_line

    options = [{"option": "alliances", "name": "the alliances module", "on": True},
               {"option": "hives", "name": "the hives module", "on": False},
               {"option": "objectives", "name": "the objectives", "on": ["Ghost Station", "Bureaucracy"]},
               {"option": "aggressive", "name": "the aggressive mode", "on": []}]
    on = options_in_play(options)
    assert on == ["the alliances module", "the objectives: Ghost Station, Bureaucracy"]
    assert options_line(on, 2) == "Options in play: the alliances module, the objectives: Ghost Station, Bureaucracy"
    assert options_line(on, 1) == "Options in play: the alliances module and 1 more (listed on the phones)"
    assert options_line(on, 0) == "2 options in play (listed on the phones)"
    assert options_line([], 0) == "Options in play: none"
