"""The phone page in a real browser (Debian's chromium via Playwright): live updates, Undo, reports.

Never downloads a browser: uses /usr/bin/chromium, and skips with the reason when it or
Playwright is missing.
"""

from __future__ import annotations

import contextlib
import os
import re

import cv2
import numpy as np
import pytest

from companion.hub import Pairing
from companion.web import create_app, serve
from tests.test_web import Answering, written

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--host-resolver-rules=MAP evil.test 127.0.0.1",  # a name the box is not: the DNS-rebinding test
]
TIMEOUT_MS = 10_000


def _jpeg(colour_bgr: tuple[int, int, int]) -> bytes:
    image = np.full((240, 320, 3), 80, np.uint8)
    cv2.rectangle(image, (100, 70), (180, 150), colour_bgr, -1)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install -e '.[test]' (never 'playwright install')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def phone_page(browser, hub, locale: str):
    """A phone's page (390x844, the browser's language ``locale``) and the box's phone view serving it on loopback; on
    leaving, the page has raised no script error."""
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with phone_context(browser, locale=locale) as (page, errors):
            yield page, server
    finally:
        server.shutdown()
    assert errors == []


@contextlib.contextmanager
def phone_context(browser, **options):
    """A phone's page (390x844 and ``options`` of the browser context) with the script errors it raises; the context
    is closed on leaving. Yields ``(page, errors)``."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, **options)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page, errors
    finally:
        context.close()


def join_url(server, hub) -> str:
    """The link the touchscreen's QR code carries (the main loop makes the pairing; a test without one
    gets a pairing of its own)."""
    if hub.pairing() is None:
        hub.set_pairing(Pairing("tests", "browser-join-secret-00", {}))
    return f"{server.url}join/{hub.pairing().secret}"


@contextlib.contextmanager
def flow_on_the_box(hub, tmp_path, game: str, players: str = "Ann,Bob", **options):
    """A new ``game`` session (with the game ``options``) played by a main loop on its own thread (a fake camera),
    publishing to ``hub``: yields its :class:`companion.flow.GameFlow`."""
    from companion.app import MainLoop
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore
    from device import FakeCamera
    from tests.phones import LoopThread
    from vision.motion import StillnessDetector

    with SessionStore(tmp_path / "flow.sqlite3") as store:
        session = store.start(game, FLOWS[game].settings(parse_players(players, FLOWS[game].info.colours), options))
        flow = GameFlow(session, FLOWS[game])
        main = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=session,
                        hub=hub, stillness=StillnessDetector(), flow=flow, sleep=lambda s: None)
        main.publish()
        with LoopThread(main):
            yield flow


@pytest.fixture
def phone(browser, hub):
    """A phone-sized page connected to a real server on 127.0.0.1 (free port)."""
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page, server, errors
    finally:
        context.close()
        server.shutdown()


def test_page_updates_live_and_undo_reaches_the_hub(phone, hub, make_view, output_dir, tmp_path):
    from playwright.sync_api import expect

    page, server, errors = phone
    hub.publish(make_view([1, 2], seq=1), _jpeg((255, 0, 0)))
    page.goto(join_url(server, hub))
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#total")).to_have_text("3")
    expect(page.locator("#frame")).to_be_visible()
    first_src = page.locator("#frame").get_attribute("src")
    assert first_src.endswith("?v=1")

    # A new snapshot from the main loop shows up without a reload.
    page.evaluate("window.__notReloaded = true")
    new_view = make_view(
        [6, 6, 4, 2, None],
        seq=2,
        history=[[1, 2]],
        findings=[{"what": "Five dice, expected four", "where": "roll 2", "severity": "warning",
                   "rule": "d6, 2", "seq": 2}],
    )
    new_view["frame"] = {"width": 320, "height": 240, "index": 99}
    hub.publish(new_view, _jpeg((0, 0, 255)))

    expect(page.locator("#total")).to_have_text("18")
    expect(page.locator("#count-6")).to_have_text("2")
    expect(page.locator("#count-4")).to_have_text("1")
    expect(page.locator("#count-1")).to_have_text("0")
    expect(page.locator("#unreadable")).to_have_text("1 unreadable")
    expect(page.locator("#latest-values .die")).to_have_text(["6", "6", "4", "2", "?"])
    expect(page.locator("#history li")).to_have_text([re.compile(r"#2: 6 6 4 2 \? = 18"), re.compile(r"#1: 1 2 = 3")])
    expect(page.locator("#findings li")).to_contain_text(["Five dice, expected four"])
    expect(page.locator("#camera")).to_have_text("Camera OK")
    expect(page.locator("#frame")).to_have_attribute("src", re.compile(r"/frame\.jpg\?v=2$"))
    # ... and the new picture (320 px wide, red block) has really loaded.
    page.wait_for_function(
        "() => { const i = document.getElementById('frame');"
        " return i.complete && i.naturalWidth === 320 && i.currentSrc.endsWith('?v=2'); }"
    )
    assert page.evaluate("window.__notReloaded") is True  # same document: no reload happened

    # Undo posts to the hub as the phone, with the version on screen and a fresh key; answered once written.
    with Answering(hub, lambda a: {**written(a, 3), "message": "undid event 2"}) as loop:
        with page.expect_response(lambda r: r.url.endswith("/api/action")) as answer:
            page.locator("#undo").click()
        assert answer.value.status == 200
        expect(page.locator("#action-result")).to_have_text("undid event 2")
    (taken,) = loop.taken
    assert (taken["action"], taken["origin"], taken["version"]) == ("undo", "phone", 2)
    assert re.fullmatch(r"[0-9a-f]{32}", taken["key"]) and taken["client"]

    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    page.screenshot(path=str(output_dir / "phone.png"), full_page=True)
    assert (tmp_path / "phone.png").stat().st_size > 0
    assert errors == []


def test_camera_lost_shows_on_the_phone_and_disables_read_now(phone, hub, make_view):
    from playwright.sync_api import expect

    page, server, errors = phone
    page.goto(join_url(server, hub))
    expect(page.locator("#no-frame")).to_be_visible()  # nothing published: 404 frame, placeholder shown

    lost = make_view([3, 3])
    lost["status"] = {"camera": "lost", "reader": "watching", "message": "Camera opencv:0 stopped sending frames."}
    hub.publish(lost)
    expect(page.locator("#camera")).to_have_text("Camera lost")
    expect(page.locator("#message")).to_have_text("Camera opencv:0 stopped sending frames.")
    expect(page.locator("#read-now")).to_be_disabled()
    expect(page.locator("#undo")).to_be_enabled()
    expect(page.locator("#storage-banner")).to_be_hidden()

    full = make_view([3, 3],
                     storage={"ok": False, "low": False, "message": "storage full: nothing since 21:04 is saved",
                              "since": 0, "free_mb": 0})
    hub.publish(full)
    expect(page.locator("#storage-banner")).to_have_text("storage full: nothing since 21:04 is saved")
    expect(page.locator("#storage-banner")).to_have_class("storage-banner failing")
    assert errors == []


def test_a_player_reports_from_the_phone_and_sees_it(phone, hub, tmp_path, output_dir):
    """Roll for the Galaxy flow: pick a seat, report credits, see them; a bad value is named; Undo."""
    from playwright.sync_api import expect

    page, server, errors = phone
    with flow_on_the_box(hub, tmp_path, "roll") as flow:
        session = flow.session
        page.goto(join_url(server, hub))
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#title")).to_have_text("Roll for the Galaxy")
        page.locator("#seats button", has_text="Ann").click()
        expect(page.locator("#me")).to_have_text("Ann")
        page.locator("#form-pick").select_option("credits")
        page.locator("#fields input").fill("7")
        page.locator("#send").click()
        expect(page.locator("#report-result")).to_contain_text("Ann: Credits recorded")  # players' words (issue 17)
        expect(page.locator("#players tbody tr").first).to_contain_text("7")

        page.locator("#fields input").fill("11")
        page.locator("#send").click()
        expect(page.locator("#report-result")).to_have_text("Credits must be a whole number from 0 to 10, got 11")
        expect(page.locator("#report-result")).to_have_class("action-result error")
        page.screenshot(path=str(output_dir / "phone_flow.png"), full_page=True)

        page.locator("#undo-report").click()
        expect(page.locator("#report-result")).to_contain_text("Ann's report withdrawn: "
                                                               "Credits")  # no event number (issue 17)
        expect(page.locator("#players tbody tr").first.locator("td").nth(2)).to_have_text("1")
        assert [e.kind for e in session.events()] == ["credits_changed", "undo"]
    assert errors == []


def test_among_the_stars_columns_and_station_board_on_the_phone(phone, hub, tmp_path, output_dir):
    """The game's own columns head the players' table, and each player's station is drawn as a board: a
    location reported from the phone appears at its cell (Among the Stars rulebook 4 'Build a location')."""
    from playwright.sync_api import expect

    page, server, errors = phone
    with flow_on_the_box(hub, tmp_path, "among") as flow:
        page.goto(join_url(server, hub))
        expect(page.locator("#title")).to_have_text("Among the Stars")
        headings = [c["label"] for c in flow.view()["columns"]]
        expect(page.locator("#players thead th")).to_have_text(["Player", *headings])
        expect(page.locator("#boards figcaption")).to_have_text(["Ann's station", "Bob's station"])
        expect(page.locator("#boards figure").first.locator("g.cell")).to_have_count(1)  # the Main Reactor
        page.locator("#seats button", has_text="Ann").click()
        expect(page.locator("#me")).to_have_text("Ann")
        page.locator("#form-pick").select_option("reactor")
        page.locator("#fields input[data-axis=i]").fill("1")
        page.locator("#fields input[data-axis=j]").fill("0")
        # the seat picker opened and Ann's seat (this phone's) picked again: the report being typed is kept
        page.locator("#change-seat").click()
        page.locator("#seats button", has_text="Ann").click()
        expect(page.locator("#fields input[data-axis=i]")).to_have_value("1")
        expect(page.locator("#fields input[data-axis=j]")).to_have_value("0")
        page.locator("#send").click()
        expect(page.locator("#report-result")).to_contain_text("Ann: Power Reactor built recorded")  # players' words
        ann = page.locator("#boards figure").first
        expect(ann.locator("g.cell")).to_have_count(2)
        expect(ann.locator("g.cell text.label").nth(1)).to_have_text("Power Reactor")
        page.screenshot(path=str(output_dir / "phone_among_boards.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("locale, headings", [("pl-PL", ["Gracz", "Układ kart", "Żetony PZ"]),
                                               ("el-GR", ["Παίκτης", "Ταμπλό", "Δείκτες ΠΝ"])])
def test_a_players_column_heading_starts_with_a_capital_as_player_beside_it(browser, hub, tmp_path, locale, headings):
    """Race for the Galaxy's players' table on a Polish phone was headed 'Gracz | Układ kart | żetony PZ' (the game's
    word for its VP chips is the rules' lowercase one, a score row's): every heading starts with a capital."""
    from playwright.sync_api import expect

    with phone_page(browser, hub, locale) as (page, server):
        with flow_on_the_box(hub, tmp_path, "race"):
            page.goto(join_url(server, hub))
            expect(page.locator("#title")).to_have_text("Race for the Galaxy")
            expect(page.locator("#players thead th")).to_have_text(headings)


@pytest.mark.parametrize("locale, heading", [("pl-PL", "Zgłaszasz jako Łucja"), ("hu-HU", "Bejelentés: Łucja"),
                                              ("el-GR", "Αναφορά για Łucja")])
def test_the_report_heading_takes_the_seats_name_as_it_is(browser, hub, tmp_path, locale, heading):
    """The report form's heading put the seat's name after words that would decline it: Polish 'Zgłaszaj za Łucja'
    (the preposition wants 'Łucję'), Hungarian 'Bejelentés ezért: Łucja' ('for this'). A name is never declined, so
    the heading's words take it as it is."""
    from playwright.sync_api import expect

    with phone_page(browser, hub, locale) as (page, server):
        with flow_on_the_box(hub, tmp_path, "among", players="Łucja,Bob"):
            page.goto(join_url(server, hub))
            page.locator("#seats button", has_text="Łucja").click()
            expect(page.locator("#me")).to_have_text("Łucja")
            said = page.locator("#report-section h2").evaluate("h => h.firstChild.textContent + h.querySelector('#me')"
                                                              ".textContent")
            assert " ".join(said.split()) == heading


@pytest.mark.parametrize("locale", ["hu-HU", "el-GR", "pl-PL"])
@pytest.mark.parametrize("game, options", [("eclipse", {"species": ["Planta", "Orion Hegemony"]}), ("among", {}),
                                           ("race", {})])
def test_a_players_column_heading_and_a_number_are_never_cut_in_the_middle_of_a_word(browser, hub, tmp_path, locale,
                                                                                     game, options):
    """Eclipse's players' table on a Hungarian phone cut its headings 'Nagyköv-etek' and 'Szövetsé-g' and the species
    'Hegemon-y' (every column a quarter of the phone's width): a heading breaks only between its words, a number
    never, a species' name between its words; the page itself never scrolls sideways."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import CUT_WORDS, fits

    with phone_page(browser, hub, locale) as (page, server):
        with flow_on_the_box(hub, tmp_path, game, players="Ζωή,Łucja", **options):
            page.goto(join_url(server, hub))
            expect(page.locator("#players tbody tr")).to_have_count(2)
            assert page.locator("#players th").evaluate_all(CUT_WORDS) == []
            assert page.locator("#players td:not(.player-name)").evaluate_all(CUT_WORDS) == []
            assert page.locator("#players td.player-name").evaluate_all(CUT_WORDS) == []
            assert fits(page)


LONG_NAMES = ("Κωνσταντίνος", "Χρυσοβαλάντης", "Szczepańska-Wróblewska", "Gyöngyvér",
              "Wolfeschlegelsteinhausenbergerdorff")

WIDER_THAN_ITS_CELL = """(cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
    .map((cell) => [...cell.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent)
    .join(""))"""


@pytest.mark.parametrize("locale", ["el-GR", "pl-PL", "hu-HU"])
def test_a_name_in_the_players_table_breaks_only_between_its_words_and_a_word_too_long_ends_with_an_ellipsis(
        browser, hub, tmp_path, locale, output_dir):
    """On a 360 px phone the players' table broke 'Krzysztofowiczówna' into 'Krzysztofowiczów' / 'na' and a 35-letter
    word over three lines. A name now breaks only between its words (or at its hyphen), as the touchscreen never breaks
    one; the name column takes the room the numbers leave, a name wider than that is drawn smaller (down to 0.8 of its
    size) where that keeps it whole, and a word wider still ends with '…', the touchscreen's rule: five players of Roll
    for the Galaxy (3 number columns), the 35-letter word alone cut. The page never scrolls sideways."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import CUT_WORDS, fits

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll", ",".join(LONG_NAMES)):
            context = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True, has_touch=True,
                                          locale=locale)
            try:
                page = context.new_page()
                page.goto(join_url(server, hub))
                cells = page.locator("#players td.player-name")
                expect(cells).to_have_count(5)
                page.locator("#players").screenshot(path=str(output_dir / f"phone_players_long_names_{locale}.png"))
                assert cells.evaluate_all(CUT_WORDS) == []  # no word drawn over two lines
                assert cells.evaluate_all(WIDER_THAN_ITS_CELL) == [LONG_NAMES[-1]]  # only it is cut ...
                assert cells.last.evaluate("c => getComputedStyle(c).textOverflow") == "ellipsis"  # ... with '…'
                assert fits(page)
            finally:
                context.close()
    finally:
        server.shutdown()


def test_the_score_rows_labels_stay_in_view_while_the_players_columns_scroll(browser, hub, tmp_path, output_dir):
    """Four players of Race for the Galaxy with Greek names at the end of the game (the 48-chip pool emptied: 24 each
    for Ζωή and Παναγιώτης): on a 360 px phone the breakdown is wider than the phone and scrolls sideways in itself,
    and the rows' labels ('Δείκτες ΠΝ', 'Κόσμοι', 'Σύνολο') scrolled out of sight with it, leaving numbers nobody
    could place. Scrolled to its end, every row's label still stands at the table's left edge, over the columns, and
    the rule cited under the table ("Κανόνας: ...") is whole in view at that edge too."""
    from playwright.sync_api import expect

    from tests.test_evening_browser import fits

    names = ("Ζωή", "Παναγιώτης", "Ευαγγελία", "Κωνσταντίνος")
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "race", ",".join(names)) as flow:
            worlds = ("Old Earth", "Epsilon Eridani", "Alpha Centauri", "New Sparta")
            for name, world in zip(names, worlds, strict=True):
                flow.report(name, "start", {"card": world})
            for name in names:
                flow.report(name, "select", {"action": "Develop"})
            flow.report(names[0], "vp", {"vp": 24})
            flow.report(names[1], "vp", {"vp": 24})  # the pool is empty: this round is the last
            while flow.view()["next"]["label"] != "End round":
                flow.next_phase()
            hub.post_action("next_phase", origin="touchscreen")  # the box ends the game and publishes its scores
            context = browser.new_context(viewport={"width": 360, "height": 800}, is_mobile=True, has_touch=True,
                                          locale="el-GR")
            try:
                page = context.new_page()
                page.goto(join_url(server, hub))
                expect(page.locator("#scores tr").last).to_be_visible()
                scroll = page.locator("#scores").locator("xpath=..")
                assert scroll.evaluate("e => e.scrollWidth > e.clientWidth + 40")  # it does scroll sideways
                scroll.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
                page.wait_for_timeout(100)
                left = scroll.evaluate("e => e.getBoundingClientRect().left")
                labels = page.locator("#scores tr > :first-child").evaluate_all(
                    "cells => cells.map((c) => [c.textContent, c.getBoundingClientRect().left])")
                assert [text for text, _x in labels][-1] == "Σύνολο" and len(labels) >= 4
                assert all(abs(x - left) <= 1 for _text, x in labels), (left, labels)
                at = page.locator("#scores tr > :first-child").last.evaluate(
                    "c => { window.scrollBy(0, c.getBoundingClientRect().top - 200);"
                    " const r = c.getBoundingClientRect();"
                    " return c.contains(document.elementFromPoint(r.left + 4, r.top + r.height / 2)); }")
                assert at  # drawn over the players' columns, not under them
                # the rule cited under the table ("Κανόνας: ...") scrolled away with the columns: it stays in view
                expect(page.locator("#scores caption.rule")).to_contain_text("Race for the Galaxy")
                right = scroll.evaluate("e => e.getBoundingClientRect().right")
                rule = page.locator("#scores caption.rule > span").evaluate(
                    "s => { const r = s.getBoundingClientRect(); return [r.left, r.right]; }")
                assert left - 1 <= rule[0] and rule[1] <= right + 1, (left, right, rule)
                scroll.screenshot(path=str(output_dir / "phone_scores_scrolled_el.png"))
                assert fits(page)
            finally:
                context.close()
    finally:
        server.shutdown()


def test_a_tap_the_box_refused_as_stale_says_nothing_was_recorded_once(phone, hub, tmp_path):
    """A phone that missed the box's news (its Wi-Fi dropped the live stream) sends Ann's discard after the table's
    Next ended the round: the box refuses it and says "...: nothing was recorded; look and tap again", and the page
    added "(nothing was recorded)" again after it. The box's words are shown once, and the page then shows the round
    as it is."""
    from playwright.sync_api import expect

    page, server, errors = phone
    first: dict[str, str] = {}

    def no_news(route):  # the live stream gives the state of the phone's first look, then nothing more
        if "state" not in first:
            first["state"] = page.request.get(f"{server.url}api/state").text()
        me = page.request.get(f"{server.url}api/me").text()
        route.fulfill(status=200, content_type="text/event-stream",
                      body=f"retry: 600000\nevent: me\ndata: {me}\n\nevent: state\ndata: {first['state']}\n\n")

    page.route("**/api/events*", no_news)
    with flow_on_the_box(hub, tmp_path, "among") as flow:
        page.goto(join_url(server, hub))
        expect(page.locator("#title")).to_have_text("Among the Stars")
        page.locator("#seats button", has_text="Ann").click()
        expect(page.locator("#me")).to_have_text("Ann")
        assert hub.request("next_phase", "touchscreen", 10.0)["error"] is not None  # nobody reported: it asks
        assert hub.request("next_phase", "touchscreen", 10.0)["error"] is None  # the table ends round 1
        page.locator("#form-pick").select_option("discard")
        page.locator("#send").click()
        result = page.locator("#report-result")
        expect(result).to_have_class("action-result error")
        said = result.text_content()
        assert said.count("nothing was recorded") == 1, said
        assert "look and tap again" in said
        expect(page.locator("#round-label")).to_contain_text("round 2 of 6")  # the refusal brought the state
        assert [e.kind for e in flow.session.events()] == ["round_ended"]
    assert errors == []


def test_a_hex_board_is_drawn_cell_by_cell_with_its_owner(phone, hub, tmp_path, output_dir):
    """A shared hex map (axial [q, r], flat-topped: Eclipse's sectors) in a flow's view is drawn, one
    hexagon per cell, each outlined in its owner's seat colour."""
    from playwright.sync_api import expect

    from companion.flow import GameFlow
    from companion.flow_spec import Board, Cell
    from companion.flows import FLOWS
    from companion.player_names import parse_players
    from companion.session import SessionStore

    page, server, errors = phone
    with SessionStore(tmp_path / "flow.sqlite3") as store:
        flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
        game = flow.view()
    game["boards"] = [Board("map", "The galaxy", "hex", (
        Cell((0, 0), "001", detail="Galactic Center"), Cell((1, -1), "101", owner="Ann", rotation=2),
        Cell((0, 1), "102", owner="Bob"))).to_json()]
    hub.publish({"session": {"id": "s", "game": "race", "events": 0}, "status": {"camera": "ok", "message": ""},
                 "game": game, "findings": []}, _jpeg((0, 0, 0)))
    page.goto(join_url(server, hub))
    board = page.locator("#boards figure")
    expect(board.locator("figcaption")).to_have_text("The galaxy")
    expect(board.locator("polygon")).to_have_count(3)
    expect(board.locator("g.cell text.label")).to_have_text(["001", "101", "102"])
    strokes = [board.locator("polygon").nth(k).get_attribute("stroke") for k in range(3)]
    assert strokes[1:] == ["red", "blue"]  # Ann's and Bob's seat colours (parse_players gives red, blue)
    page.screenshot(path=str(output_dir / "phone_hex_board.png"), full_page=True)
    assert errors == []


@pytest.mark.parametrize("game, locale, hint", [
    ("roll", "pl-PL", "Żetony PZ wzięte z puli. W fazie Transportu: wszystkie żetony wzięte dotąd w tej fazie, łącznie "
                      "z tymi za skonsumowane towary (s. 7 Transport: Konsumpcja daje 1-3 żetony PZ); po Konsumpcji "
                      "zgłoszonej później zgłoś nową sumę."),
    ("race", "hu-HU", "A Fogyasztás fázisban a készletből elvett GYP-zsetonjaid: az elfogyasztott vagy eladott áru "
                      "magától nem ad zsetont, ezért itt jelentsd be őket."),
    ("roll", "el-GR", "Οι δείκτες ΠΝ που πήρατε από το απόθεμα. Στη φάση Αποστολής: όλοι οι δείκτες που πήρατε ως "
                      "τώρα στη φάση, μαζί με όσους έδωσαν τα προϊόντα που καταναλώσατε (σ.7 Αποστολή: μια Κατανάλωση "
                      "δίνει 1-3 δείκτες ΠΝ)· μετά από μια Κατανάλωση που θα αναφέρετε αργότερα, αναφέρετε το νέο "
                      "σύνολο."),
])
def test_the_vp_chips_form_says_what_the_box_already_counts(browser, hub, tmp_path, game, locale, hint):
    """"VP chips taken" had no hint: a Roll player who shipped a good to consume could not tell whether to report its
    chips too (Roll p.7 Ship: a Consume pays 1-3 VP chips; the box counts the same chips once), and a Race player
    whether consuming paid any (Race IV Consume: the box pays none for a good consumed). The hint stands under the
    field in the phone's language, and only on that form."""
    from playwright.sync_api import expect

    from tests.test_flow import faction_label

    if game == "roll":  # set up, phases selected and revealed (p.4): the rest of the forms open
        reports = [("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                     "development": "Advanced Logistics", "world": "Spice World"}),
                   ("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                     "development": "Alien Research Team", "world": "Information Hub"}),
                   ("Ann", "select", {"phase": "develop"}), ("Bob", "select", {"phase": "settle"})]
    else:  # start worlds and action cards: both revealed
        reports = [("Ann", "start", {"card": "Old Earth"}), ("Bob", "start", {"card": "Epsilon Eridani"}),
                   ("Ann", "select", {"action": "Develop"}), ("Bob", "select", {"action": "Settle"})]
    with phone_page(browser, hub, locale) as (page, server):
        with flow_on_the_box(hub, tmp_path, game):
            for player, form, values in reports:
                answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
                assert answer is not None and answer["status"] == 200, answer
            if game == "roll":
                assert hub.request("next_phase", origin="cli", timeout=5)["status"] == 200  # Reveal
            page.goto(join_url(server, hub))
            page.locator("#seats button", has_text="Ann").click()
            expect(page.locator("#me")).to_have_text("Ann")
            page.locator("#form-pick").select_option("vp")
            expect(page.locator("#fields .form-hint")).to_have_text(hint)
            page.locator("#form-pick").select_option("hand" if game == "race" else "credits")
            expect(page.locator("#fields .form-hint")).to_have_count(0)
