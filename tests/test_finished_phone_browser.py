"""A finished game on a 360 px phone, in a real browser (Debian's chromium via Playwright): the phone opened on the
game's newest notes and the final scores sat about 2,000 px further down, under the players and their boards; and
the score table hid a four-player game's fourth column behind a sideways scroll with no sign of it. Now the scores
come first (every game's phone page is one page, so every game's), the notes follow, every one of them, and a table
wider than the phone says to swipe it and fades at its right edge while a column lies beyond it."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.session import SessionStore
from tests.browser_pages import joined_page
from tests.test_evening_browser import box_on, fits
from tests.test_phone_browser import CHROMIUM_ARGS, browser  # noqa: F401  (the browser fixture)
from tests.test_score_standings_browser import TOTALS, among_four_scored

pytestmark = pytest.mark.browser

#: Where the page's parts are at the top of the page, unscrolled: each element's box in the viewport.
BOXES = """(ids) => { window.scrollTo(0, 0); return Object.fromEntries(ids.map((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return [id, {top: r.top, bottom: r.bottom, left: r.left, right: r.right}]; })); }"""

#: The box of the standings line showing ``name`` (the page unscrolled).
LINE = """([name]) => { window.scrollTo(0, 0);
    const li = [...document.querySelectorAll("#standings li")].find((e) => e.innerText.includes(name));
    const r = li.getBoundingClientRect(); return {text: li.innerText, top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, width: window.innerWidth, height: window.innerHeight}; }"""


@pytest.mark.parametrize("locale, lang", [("el-GR", "el"), ("pl-PL", "pl"), ("hu-HU", "hu")])
def test_a_finished_game_opens_on_its_scores_and_shows_the_fourth_total(browser, tmp_path, output_dir,  # noqa: F811
                                                                        locale, lang):
    """Among the Stars, four players, to its end: on the first screen of a 360 × 740 phone, the final scores' heading
    and every player's total (the fourth seat's, Bob's 14, among them), above the game's notes, which all follow; the
    breakdown table, wider than the phone, says to swipe it, and once swiped its fourth column's total is on the
    screen."""
    from playwright.sync_api import expect

    words = i18n.translations(lang)
    with SessionStore(tmp_path / "box.sqlite3") as store:
        among_four_scored(store, tmp_path)
        with box_on(store, tmp_path) as (loop, hub, server):
            with joined_page(browser, server, hub, locale=locale, mobile=True) as (page, errors):
                expect(page.locator("#score-section")).to_be_visible()
                state = page.evaluate("fetch('/api/state').then((r) => r.json())")
                notes = (state.get("game") or {}).get("findings") or state.get("findings") or []
                assert notes  # the game's notes (rounds ended with nobody's action reported): every one still shown
                expect(page.locator("#findings li")).to_have_count(len(notes))
                boxes = page.evaluate(BOXES, ["score-section", "findings-section", "standings", "players"])
                height = page.evaluate("window.innerHeight")
                assert 0 <= boxes["score-section"]["top"] < 200, boxes  # the first thing under the header
                assert boxes["standings"]["bottom"] <= height, boxes  # every total on the first screen
                assert boxes["score-section"]["bottom"] <= boxes["findings-section"]["top"], boxes
                assert boxes["score-section"]["bottom"] <= boxes["players"]["top"], boxes
                fourth = page.evaluate(LINE, ["Bob"])
                assert str(TOTALS["Bob"]) in fourth["text"], fourth
                assert 0 <= fourth["left"] and fourth["right"] <= fourth["width"], fourth
                assert 0 <= fourth["top"] and fourth["bottom"] <= fourth["height"], fourth
                page.screenshot(path=str(output_dir / f"finished-360-first-screen-{lang}.png"))
                page.screenshot(path=str(output_dir / f"finished-360-whole-{lang}.png"), full_page=True)

                # the breakdown: four columns do not fit 360 px; the line over the table says to swipe it
                scroll = page.locator("#scores").locator("xpath=..")
                assert scroll.evaluate("e => e.scrollWidth > e.clientWidth + 1")
                cue = page.locator("#score-section .scroll-cue")
                expect(cue).to_be_visible()
                expect(cue).to_have_text(words.gettext("Swipe the table sideways for every player’s column") + " →")
                expect(scroll).to_have_class("table-scroll more-right")  # the right edge fades: more lies there
                said = cue.evaluate("c => { window.scrollTo(0, 0); return c.getBoundingClientRect().bottom; }")
                assert said <= height  # the line is on the first screen, over the table
                bob = page.locator("#scores tr.winner-row td").last
                expect(bob).to_have_text(str(TOTALS["Bob"]))
                scroll.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
                expect(scroll).to_have_class("table-scroll")  # scrolled to its end: nothing more to the right
                bob.scroll_into_view_if_needed()
                seen = bob.evaluate(
                    "c => { const r = c.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth "
                    "&& r.top >= 0 && r.bottom <= window.innerHeight "
                    "&& c.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }")
                assert seen  # the fourth player's total in the table, on the screen, not under the row labels
                assert fits(page)  # the page itself never scrolls sideways
                scroll.screenshot(path=str(output_dir / f"finished-360-table-swiped-{lang}.png"))
    assert errors == []


def test_a_table_that_fits_says_nothing_about_swiping(browser, tmp_path):  # noqa: F811
    """The same game on a tablet's 1024 px: the table fits, so no swipe line and no faded edge."""
    from playwright.sync_api import expect

    with SessionStore(tmp_path / "box.sqlite3") as store:
        among_four_scored(store, tmp_path)
        with box_on(store, tmp_path) as (loop, hub, server):
            with joined_page(browser, server, hub, width=1024, height=768) as (page, errors):
                expect(page.locator("#scores tr.winner-row")).to_be_visible()
                scroll = page.locator("#scores").locator("xpath=..")
                assert scroll.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
                expect(page.locator("#score-section .scroll-cue")).to_be_hidden()
                expect(scroll).to_have_class("table-scroll")
    assert errors == []
