"""The evening on a phone (issue 17), in a real browser (Debian's chromium via Playwright) at a phone viewport: the
chooser, the players (a 40-letter name without a space), play (a place tapped on the station's picture), the
scores, the history with its downloads, and back to the chooser; the page follows the box's mode by itself, speaks
the browser's language (``<html lang>``) until the phone picks another, and the owner page waits for the
touchscreen's allowance."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pytest

from companion.app import MainLoop
from companion.errors import BadEntry
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.library import Library, export_documents
from companion.session import SessionStore
from companion.web import create_app, serve
from device import FakeCamera
from tests.browser_pages import PHONE_390, joined_page
from tests.test_camera_browser import LoopThread
from tests.test_evening import FakeReader
from tests.test_phone_browser import TIMEOUT_MS, browser  # noqa: F401  (the browser fixture)
from vision.motion import StillnessDetector

pytestmark = pytest.mark.browser

LONG = "Wolfeschlegelsteinhausenbergerdorffvoral"


@contextlib.contextmanager
def box_on(store, tmp_path):
    """A box on the chooser over ``store`` (the games it holds), its loop taking actions on a thread, its phone view on
    127.0.0.1: ``(loop, hub, server)``."""
    from companion.box_settings import BoxSettings

    hub = StateHub()
    library = Library(store, dice_reader=FakeReader, exports=tmp_path / "exports", source="fake")
    loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 80, np.uint8)] * 5), reader=None, session=None,
                    hub=hub, stillness=StillnessDetector(), sleep=lambda s: None, library=library,
                    box_settings=BoxSettings(None, "en"), phone_url="http://127.0.0.1:8080/")
    loop.publish()
    server = serve(create_app(hub, exports=lambda sid: export_documents(store, sid)), host="127.0.0.1", port=0)
    try:
        with LoopThread(loop):
            yield loop, hub, server
    finally:
        server.shutdown()


@pytest.fixture
def box(tmp_path):
    """A box on the chooser with no games recorded (:func:`box_on`)."""
    with SessionStore(tmp_path / "box.sqlite3") as store, box_on(store, tmp_path) as running:
        yield running


def phone(browser, locale: str = "en-GB"):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale=locale)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, errors


def fits(page) -> bool:
    """Nothing is wider than the phone's screen (no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_whole_evening_from_a_phone(browser, box, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    loop, hub, server = box
    with joined_page(browser, server, hub, locale="el-GR", **PHONE_390) as (page, errors):
        expect(page.locator("html")).to_have_attribute("lang", "el")  # the browser's language
        expect(page.locator("body")).to_have_attribute("data-page", "box")
        expect(page.locator("#choose-section")).to_be_visible()
        expect(page.locator("#games button")).to_have_count(1 + len(FLOWS))  # the d6 dice and every game with a flow
        page.locator("#lang-pick").select_option("pl")  # the phone picks its own
        expect(page.locator("html")).to_have_attribute("lang", "pl")
        page.screenshot(path=str(output_dir / "evening-phone-choose.png"), full_page=True)
        # choose a game: the page becomes the game's
        page.locator("#games button[data-game=among]").click()
        expect(page.locator("body")).to_have_attribute("data-page", "flow")
        expect(page.locator("#setup-section")).to_be_visible()
        for name in (LONG, "Bob"):
            page.locator("#setup-name").fill(name)
            page.locator("#setup-add").click()
            expect(page.locator("#setup-players li", has_text=name)).to_have_count(1)
        assert fits(page)
        page.screenshot(path=str(output_dir / "evening-phone-setup.png"), full_page=True)
        page.locator("#setup-start").click()
        expect(page.locator("#setup-section")).to_be_hidden()
        expect(page.locator("#seats button")).to_have_count(2)
        # play: the long name's seat, a Power Reactor placed by tapping the place on the station's picture
        page.locator("#seats button", has_text=LONG).click()
        page.locator("#form-pick").select_option("reactor")
        free = page.locator(".cell-picker .cell.free")
        expect(free).to_have_count(4)  # the four places next to the Main Reactor
        box_ = free.first.bounding_box()
        assert box_["width"] >= 48 and box_["height"] >= 48
        page.locator(".cell-picker .cell.free[data-at='1,0']").click()
        expect(page.locator(".cell-picker .cell.free.chosen")).to_have_count(1)
        page.locator("#send").click()
        from companion import i18n

        built = i18n.translations("pl").gettext("Power Reactor built")  # the phone speaks Polish now
        expect(page.locator("#report-result")).to_contain_text(built)
        assert built != "Power Reactor built"
        expect(page.locator("#boards figure").first.locator("g.cell")).to_have_count(2)
        assert fits(page)
        page.screenshot(path=str(output_dir / "evening-phone-play.png"), full_page=True)
        # the table plays on to the end (Next on the touchscreen), the phone shows the scores
        for _ in range(24):  # nobody reported: the first Next names them, the second ends the round
            for _press in range(2):
                hub.request("next_phase", "touchscreen", 10.0)
        expect(page.locator("#score-section")).to_be_visible()
        session = loop.session.id
        expect(page.locator("#download-json")).to_have_attribute("href", f"/export/{session}.json")
        record = page.request.get(f"{server.url}export/{session}.json")
        assert record.ok and json.loads(record.text())["format"] == "tabletop-companion/game"
        assert fits(page)
        page.screenshot(path=str(output_dir / "evening-phone-scores.png"), full_page=True)
        # the history: the game played, opened, its downloads; then back to the chooser
        page.locator("#box-nav button[data-box-action=history]").click()
        expect(page.locator("body")).to_have_attribute("data-page", "box")
        expect(page.locator("#history-list button")).to_have_count(1)
        page.locator("#history-list button").first.click()
        expect(page.locator("#history-open")).to_be_visible()
        expect(page.locator("#history-json")).to_have_attribute("href", f"/export/{session}.json")
        # the BG Stats play downloads when tapped (the file the BG Stats app imports)
        expect(page.locator("#history-play")).to_have_attribute("href", f"/export/{session}.bgstats.json")
        with page.expect_download() as got:
            page.locator("#history-play").click()
        download = got.value
        assert download.suggested_filename == f"{session}.bgstats.json"
        play = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert play["sourceName"] == "tabletop-companion" and {p["name"] for p in play["players"]} == {LONG, "Bob"}
        assert fits(page)
        page.screenshot(path=str(output_dir / "evening-phone-history.png"), full_page=True)
        page.get_by_role("button", name=i18n.translations("pl").gettext("Games"), exact=True).click()
        expect(page.locator("#choose-section")).to_be_visible()
        expect(page.locator("#open-games button")).to_have_count(0)  # the game is over: nothing left open
    assert errors == []


def test_the_owner_page_waits_for_the_touchscreen(browser, box, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    loop, hub, server = box
    try:
        with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
            page.goto(f"{server.url}owner")
            expect(page.locator("#ask-section")).to_be_visible()
            page.locator("#ask").click()
            expect(page.locator("#ask-result")).to_contain_text("touchscreen")
            assert loop.view()["box"]["asking"] is not None
            hub.request("owner_allow", "touchscreen", 10.0)
            expect(page.locator("#settings-section")).to_be_visible(timeout=8000)
            page.locator("#box-language").select_option("hu")
            page.locator("#save").click()
            expect(page.locator("#save-result")).to_contain_text("Magyar")
            assert loop.box_settings.language == "hu"
            page.screenshot(path=str(output_dir / "evening-phone-owner.png"), full_page=True)
    finally:
        from companion import i18n

        i18n.set_box_language("en")
    assert errors == []


def test_a_rename_longer_than_a_name_may_be_is_offered_again_cut_to_fit(browser, box):  # noqa: F811
    """The browser's own box for a new name takes any length: the box says the limit (MAX_NAME, 40 characters, as
    the name field's) up front, and a longer answer comes back cut to 40 for the player to check, not sent to be
    refused; the name sent is the one confirmed."""
    from playwright.sync_api import expect

    from companion.player_names import MAX_NAME

    loop, hub, server = box
    context, page, errors = phone(browser)
    asked: list[tuple[str, str]] = []
    answers = iter([LONG + "Zoë-Ωmega", None])  # 49 letters, then whatever the box offers back

    def answer(dialog) -> None:
        asked.append((dialog.message, dialog.default_value))
        typed = next(answers)
        dialog.accept(dialog.default_value if typed is None else typed)

    page.on("dialog", answer)
    try:
        page.goto(f"{server.url}join/{hub.pairing().secret}")
        page.locator("#games button[data-game=among]").click()
        expect(page.locator("#setup-section")).to_be_visible()
        for name in ("Ann", "Bob"):
            page.locator("#setup-name").fill(name)
            page.locator("#setup-add").click()
            expect(page.locator("#setup-players li", has_text=name)).to_have_count(1)
        page.locator("#setup-players li", has_text="Bob").locator("button.rename").click()
        expect(page.locator("#setup-players li", has_text=LONG)).to_have_count(1)
        assert len(asked) == 2, asked
        assert asked[0] == ("New name for Bob (at most 40 characters)", "Bob")
        assert "at most 40 characters" in asked[1][0] and asked[1][1] == LONG  # the first 40 letters
        assert len(LONG) == MAX_NAME
        assert [p["name"] for p in loop.view()["game"]["players"]] == ["Ann", LONG]
        expect(page.locator("#setup-result")).not_to_contain_text("at most")  # nothing refused
    finally:
        context.close()
    assert errors == []


def _play_among_to_its_scores(page, hub, names: tuple[str, ...] = ("Ann", "Bob")) -> None:
    """On a joined phone ``page``: pick Among the Stars, seat ``names``, start, and let the touchscreen end the
    game (4 years of 6 rounds, rulebook 4, 5) until the phone shows the scores."""
    from playwright.sync_api import expect

    page.locator("#games button[data-game=among]").click()
    expect(page.locator("body")).to_have_attribute("data-page", "flow")
    expect(page.locator("#setup-section")).to_be_visible()
    for name in names:
        page.locator("#setup-name").fill(name)
        page.locator("#setup-add").click()
        expect(page.locator("#setup-players li", has_text=name)).to_have_count(1)
    page.locator("#setup-start").click()
    expect(page.locator("#setup-section")).to_be_hidden()
    for _ in range(24):  # nobody reported: the first Next names them, the second ends the round
        for _press in range(2):
            hub.request("next_phase", "touchscreen", 10.0)
    expect(page.locator("#score-section")).to_be_visible()


@pytest.mark.parametrize("locale, lang, credits, total", [("pl-PL", "pl", "Kredyty", "Suma"),
                                                          ("el-GR", "el", "Μονάδες", "Σύνολο"),
                                                          ("hu-HU", "hu", "Credit", "Összesen")])
def test_the_phones_score_rows_are_labelled_with_a_capital_as_their_total_is(browser, box, locale, lang,  # noqa: F811
                                                                             credits, total):
    """The phone's scores table labelled its rows in lowercase ('kredyty') beside 'Suma', where the touchscreen's
    says 'Kredyty': each row label starts with a capital in the phone's language, at the end of the game and in the
    history (the same table)."""
    from playwright.sync_api import expect

    from companion import i18n

    loop, hub, server = box
    with joined_page(browser, server, hub, locale=locale, **PHONE_390) as (page, errors):
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _play_among_to_its_scores(page, hub)
        labels = page.locator("#scores tr td:first-child").all_text_contents()
        assert credits in labels and total in labels and credits.lower() not in labels, labels
        assert all(label[:1] == label[:1].upper() for label in labels), labels
        # the box is on its scores (its nav offers a new game) before the phone asks for the history, which it
        # opens on the box's page
        expect(page.locator("#box-nav button[data-box-action=games]")).to_have_text(
            i18n.translations(lang).gettext("New game"))
        page.locator("#box-nav button[data-box-action=history]").click()
        expect(page.locator("body")).to_have_attribute("data-page", "box")  # the page follows the box by itself
        page.locator("#history-list button").first.click()
        expect(page.locator("#history-open")).to_be_visible()
        labels = page.locator("#history-scores tr td:first-child").all_text_contents()
        assert credits in labels and total in labels and credits.lower() not in labels, labels
    assert errors == []


def test_a_greek_score_row_keeps_the_accent_of_its_first_letter(browser, box):  # noqa: F811
    """A Greek phone's scores said 'Αδειοι αντιδραστήρες' (empty reactors): the browser's Greek capitals are the
    all-capitals ones, which drop the accent, where a capital starting a word keeps it ('Άδειοι'). Every row label is
    the category's Greek word with only its first letter a capital, accent and all, at the end of the game and in the
    history."""
    from playwright.sync_api import expect

    from companion import i18n

    loop, hub, server = box
    greek = i18n.translations("el").gettext
    categories = [greek(word) for word in ("VP track", "objectives", "end-game abilities", "race", "empty reactors",
                                           "credits")]
    expected = [word[:1].upper() + word[1:] for word in categories] + [greek("Total")]
    assert "Άδειοι αντιδραστήρες" in expected  # the catalog's word, written as a Greek row label starts it
    with joined_page(browser, server, hub, locale="el-GR", **PHONE_390) as (page, errors):
        _play_among_to_its_scores(page, hub)
        assert page.locator("#scores tr td:first-child").all_text_contents() == expected
        page.locator("#box-nav button[data-box-action=history]").click()
        expect(page.locator("body")).to_have_attribute("data-page", "box")
        page.locator("#history-list button").first.click()
        expect(page.locator("#history-open")).to_be_visible()
        assert page.locator("#history-scores tr td:first-child").all_text_contents() == expected
    assert errors == []


CUT_WORDS = """(cells) => {
    // the words of each cell that the page drew over more than one line
    const cut = [];
    for (const cell of cells) {
        for (const node of cell.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            for (const word of node.textContent.matchAll(/[^\\s-]+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) cut.push(word[0]);
            }
        }
    }
    return cut;
}"""


@pytest.mark.parametrize("locale", ["el-GR", "pl-PL", "hu-HU"])
def test_a_score_row_label_and_a_score_are_never_cut_in_the_middle_of_a_word(browser, box, locale):  # noqa: F811
    """Four players' scores on a phone in Greek cut 'Κατηγορία' into 'Κατηγορ-ία' and 'Αναπτύξεις' into 'Αναπτύξει-ς'
    (every column had the same width, a quarter of the phone's): a row label breaks only between its words, a score
    never, at the end of the game and in the history; the page itself never scrolls sideways."""
    from playwright.sync_api import expect

    loop, hub, server = box
    with joined_page(browser, server, hub, locale=locale, **PHONE_390) as (page, errors):
        _play_among_to_its_scores(page, hub, ("Ζωή", "Łucja", "Ann-Marie O'Neil", "Bob"))
        for table in ("#scores", "#history-scores"):
            if table == "#history-scores":
                page.locator("#box-nav button[data-box-action=history]").click()
                expect(page.locator("body")).to_have_attribute("data-page", "box")
                page.locator("#history-list button").first.click()
                expect(page.locator("#history-open")).to_be_visible()
            labels = page.locator(f"{table} tr > :first-child")
            expect(labels).to_have_count(8)  # the heading, six categories, the total
            assert labels.evaluate_all(CUT_WORDS) == [], table
            assert page.locator(f"{table} td:not(:first-child)").evaluate_all(CUT_WORDS) == [], table
            assert fits(page)
    assert errors == []


def test_a_phone_without_a_seat_follows_the_box_however_soon_after_its_last_page_it_moves(browser, box):  # noqa: F811
    """A joined phone that claimed no seat, on a finished game's scores, stayed on the game's page when the box went
    to its history moments (under 1.5 s) after the phone's last page load: the guard against a reload loop dropped
    the move and drew the history's state on the game's page. The phone's clock stands still here, so every move
    comes 'moments after' the last load: the phone still follows the box to its history (a tap on the phone) and
    to a new game (taps on the touchscreen)."""
    from playwright.sync_api import expect

    loop, hub, server = box
    context, page, errors = phone(browser, "pl-PL")
    try:
        page.clock.set_fixed_time("2026-12-04T20:00:00")
        page.goto(f"{server.url}join/{hub.pairing().secret}")
        _play_among_to_its_scores(page, hub)
        assert loop.view()["mode"] == "scores"
        page.locator("#box-nav button[data-box-action=history]").click()
        expect(page.locator("body")).to_have_attribute("data-page", "box")
        expect(page.locator("#history-section")).to_be_visible()
        expect(page.locator("#history-list button")).to_have_count(1)
        # the touchscreen: Games, then a new game; the phone comes along to the new game's setup
        assert hub.request("games", "touchscreen", 10.0)["error"] is None
        expect(page.locator("#choose-section")).to_be_visible()
        assert hub.request("choose_game", "touchscreen", 10.0, game="among")["error"] is None
        expect(page.locator("body")).to_have_attribute("data-page", "flow")
        expect(page.locator("#setup-section")).to_be_visible()
        expect(page.locator("#setup-players li")).to_have_count(0)
    finally:
        context.close()
    assert errors == []


def test_a_hungarian_phone_sees_the_rulebook_section_under_the_scores_and_in_the_history(browser, box,  # noqa: F811
                                                                                           output_dir):
    """The scores named their rows but not where the rulebook says how the game is scored: under the breakdown, on
    the scores and on a game opened from the history, the game's scoring section in the phone's language."""
    from playwright.sync_api import expect

    from companion import i18n
    from rules.among_the_stars.game import INFO

    loop, hub, server = box
    with joined_page(browser, server, hub, locale="hu-HU", **PHONE_390) as (page, errors):
        expect(page.locator("html")).to_have_attribute("lang", "hu")
        _play_among_to_its_scores(page, hub, ("Ádám", "Őrs"))
        hungarian = i18n.translations("hu").gettext
        cited = hungarian("Rule: {rule}").format(rule=i18n.say(INFO.cite(INFO.score_rule), "hu"))
        assert "Game end" not in cited
        expect(page.locator("#scores caption.rule")).to_have_text(cited)
        assert fits(page)
        page.screenshot(path=str(output_dir / "evening-phone-scores-cited-hu.png"), full_page=True)
        page.locator("#box-nav button[data-box-action=history]").click()
        page.locator("#history-list button").first.click()
        expect(page.locator("#history-open")).to_be_visible()
        expect(page.locator("#history-scores caption.rule")).to_have_text(cited)
        assert not errors, errors


def test_a_right_to_left_name_keeps_its_own_score_beside_it_in_the_history(browser, tmp_path):  # noqa: F811
    """A history line says each player's name and total ("Among the Stars — מרים 14 ★, سارة 13"): with names
    written right to left the browser's bidi joined the totals to the names' run and drew "13 ... 14 מרים", so a
    total stood beside the other player's name. Each name is set apart (Unicode's first-strong isolate), so a
    Hebrew or Arabic name reads with its own total after it, the line left to right as the page."""
    from playwright.sync_api import expect

    from companion.flow import GameFlow
    from companion.player_names import parse_players

    with SessionStore(tmp_path / "box.sqlite3") as store:
        # Among the Stars: a card discarded for 3 credits (rulebook 4 'Discard a card for credits') and 1 VP per 3
        # credits left at the end (rulebook 6): Miriam ends one VP ahead of Sara, whatever the credits each year.
        flow = GameFlow(store.start("among", FLOWS["among"].settings(parse_players("מרים,سارة"), {})),
                        FLOWS["among"])
        flow.report("מרים", "discard", {})
        for _ in range(24):
            for _press in range(2):  # the first Next of a round nobody reported names who has not, the second ends it
                with contextlib.suppress(BadEntry):
                    flow.next_phase()
        totals = {p["name"]: str(p["total"]) for p in flow.result()["players"]}
        assert int(totals["מרים"]) == int(totals["سارة"]) + 1
        context, page, errors = phone(browser)
        try:
            with box_on(store, tmp_path) as (_, hub, server):
                page.goto(f"{server.url}join/{hub.pairing().secret}")
                page.locator("#box-actions button", has_text="History").click()
                line = page.locator("#history-list button").first
                expect(line).to_be_visible()
                # where each part of the line is drawn: the left edge (px) of a piece of its text
                left = line.evaluate("""(b, parts) => {
                    const node = b.firstChild, text = node.textContent, out = {};
                    let at = 0;
                    for (const part of parts) {
                        at = text.indexOf(part, at);
                        const range = document.createRange();
                        range.setStart(node, at); range.setEnd(node, at + part.length);
                        out[part] = range.getBoundingClientRect().left;
                    }
                    return out;
                }""", ["מרים", totals["מרים"], "سارة", totals["سارة"]])
                assert left["מרים"] < left[totals["מרים"]] < left["سارة"] < left[totals["سارة"]], left
                assert not errors, errors
        finally:
            context.close()


@pytest.mark.parametrize("locale, width", [("el-GR", 360), ("hu-HU", 412)])
def test_a_game_left_open_offers_no_download_in_the_history(browser, tmp_path, locale, width):  # noqa: F811
    """A Race game left open while Ann's action card is still face down (Race for the Galaxy: the cards chosen are
    revealed together): the box refuses a phone its record, so the history opened on it offers no download (a link
    would open the box's refusal as a bare page); the game's standing and "not finished" are still shown."""
    from playwright.sync_api import expect

    from companion import i18n
    from companion.flow import GameFlow
    from companion.player_names import parse_players

    with SessionStore(tmp_path / "box.sqlite3") as store:
        flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
        flow.report("Ann", "start", {"card": "Old Earth"})
        flow.report("Bob", "start", {"card": "Epsilon Eridani"})
        flow.report("Ann", "select", {"action": "Develop"})
        context, page, errors = phone(browser, locale)
        page.set_viewport_size({"width": width, "height": 800})
        try:
            with box_on(store, tmp_path) as (_, hub, server):
                page.goto(f"{server.url}join/{hub.pairing().secret}")
                said = i18n.translations(locale[:2]).gettext
                page.locator("#box-actions button", has_text=said("History")).click()
                page.locator("#history-list button").first.click()
                expect(page.locator("#history-open")).to_be_visible()
                expect(page.locator("#history-winner")).to_contain_text(said("Not finished: {round}").split("{")[0])
                expect(page.locator("#history-scores")).to_be_visible()
                for link in ("#history-json", "#history-play", "#history-bgstats"):
                    expect(page.locator(link)).to_be_hidden()
                assert fits(page)
                assert not errors, errors
        finally:
            context.close()


def test_an_eclipse_game_in_final_scoring_says_in_the_history_why_a_total_leaves_out_a_position(
        browser, tmp_path):  # noqa: F811
    """Ann entered reputation 11 in secret and the phone's history showed her 3 with nothing saying why (Eclipse, End
    of the game: the positions are scored together): it now says, over the totals in the phone's language, that the
    final positions entered count once the game is scored; a Greek phone at 360 px shows it whole."""
    from playwright.sync_api import expect

    from companion import i18n
    from tests.test_eclipse_flow import at_final_scoring

    with SessionStore(tmp_path / "box.sqlite3") as store:
        flow = at_final_scoring(store)
        flow.report("Ann", "position", {"reputation_4": 2, "reputation_3": 1, "money": 9})
        context, page, errors = phone(browser, "el-GR")
        page.set_viewport_size({"width": 360, "height": 800})
        try:
            with box_on(store, tmp_path) as (_, hub, server):
                page.goto(f"{server.url}join/{hub.pairing().secret}")
                said = i18n.translations("el").gettext
                page.locator("#box-actions button", has_text=said("History")).click()
                page.locator("#history-list button").first.click()
                expect(page.locator("#history-hidden")).to_have_text(
                    said("final positions already entered stay hidden: they count once the game is scored"))
                assert fits(page)
                assert not errors, errors
        finally:
            context.close()
