"""Every player's total on a 360 px phone, in a real browser (Debian's chromium via Playwright): the final scores'
table scrolled sideways inside itself, so a four-player game's fourth column (its total among them) was off the
phone's screen and a newcomer could not tell it was there. The totals come first now, one line a player, then the
breakdown."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.hub import StateHub
from companion.session import SessionStore
from tests.browser_pages import joined_page
from tests.test_evening import among_round_ended_unreported, do, evening
from tests.test_evening_browser import box_on, fits
from tests.test_phone_browser import CHROMIUM_ARGS, browser  # noqa: F401  (the browser fixture)

pytestmark = pytest.mark.browser

#: Among the Stars, four players, nothing built, each player's VP track moved on a phone (rulebook 7 Game end:
#: VP track + objectives + end-game abilities + race + 1 VP per empty reactor + 1 VP per 3 credits). Worked by hand:
#: 10 credits a year for 4 years (rulebook 3) and none spent = 40 credits = 13 VP; every Main Reactor keeps its 2
#: cubes (0 empty); no objective met. Totals: VP track + 13.
TRACK = {"Ζωή": 4, "Łucja": 12, "Ann-Marie O'Neil": 9, "Bob": 1}
TOTALS = {"Ζωή": 17, "Łucja": 25, "Ann-Marie O'Neil": 22, "Bob": 14}


def among_four_scored(store, tmp_path) -> None:
    """The game of :data:`TRACK` played on the touchscreen to its scores (4 years of 6 rounds, rulebook 4, 5)."""
    loop = evening(store, tmp_path, hub=StateHub())
    do(loop, "choose_game", game="among")
    for name in TRACK:
        do(loop, "setup_player", "phone", player=name)
    do(loop, "setup_start")
    for name, delta in TRACK.items():
        do(loop, "report", "phone", player=name, form="vp", values={"delta": delta})
    for _ in range(24):
        among_round_ended_unreported(loop)
    assert loop.view()["mode"] == "scores"


#: For each {name, total}: whether some element of the section showing both the player's name and their total (the
#: innermost such) lies wholly inside the phone's width and inside every box around it that scrolls sideways, and is
#: what the phone draws at its middle. The page is scrolled only down, never sideways, to reach it.
TOTAL_SEEN = """([section, players]) => players.map(({name, total}) => {
    const number = new RegExp("(^|[^0-9])" + total + "([^0-9]|$)");
    const shows = (e) => e.innerText.includes(name) && number.test(e.innerText);
    const found = [...document.getElementById(section).querySelectorAll("*")].filter(shows);
    const innermost = found.filter((e) => ![...e.children].some(shows));
    const seen = innermost.some((e) => {
        window.scrollTo(0, window.scrollY + e.getBoundingClientRect().top - 40);
        const r = e.getBoundingClientRect();
        if (!r.width || r.left < 0 || r.right > window.innerWidth) return false;
        for (let box = e.parentElement; box; box = box.parentElement) {  // nor cut by a box scrolling sideways
            const edge = box.getBoundingClientRect();
            const cut = r.left < edge.left - 0.5 || r.right > edge.right + 0.5;
            if (cut && getComputedStyle(box).overflowX !== "visible") return false;
        }
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return hit !== null && e.contains(hit);
    });
    return seen ? null : name;
}).filter((name) => name !== null)"""


@pytest.mark.parametrize("locale, lang", [("pl-PL", "pl"), ("el-GR", "el"), ("hu-HU", "hu")])
def test_every_players_total_is_on_a_360_px_phone_without_scrolling_sideways(browser, tmp_path, output_dir,  # noqa: F811
                                                                             locale, lang):
    """At 360 px the fourth player's total sat off the screen inside the sideways-scrolling table: each player's total
    is now on the screen beside their name, highest first with the winner's star, at the end of the game and on the
    game opened from the history; the breakdown still follows, and the page never scrolls sideways."""
    from playwright.sync_api import expect

    vp = i18n.translations(lang).gettext("VP")
    players = [{"name": name, "total": total} for name, total in TOTALS.items()]
    ranked = [("\u2605 " if name == "Łucja" else "") + f"{name} {TOTALS[name]} {vp}"
              for name in ("Łucja", "Ann-Marie O'Neil", "Ζωή", "Bob")]
    with SessionStore(tmp_path / "box.sqlite3") as store:
        among_four_scored(store, tmp_path)
        with box_on(store, tmp_path) as (loop, hub, server):
            with joined_page(browser, server, hub, locale=locale, mobile=True) as (page, errors):
                expect(page.locator("#score-section")).to_be_visible()
                expect(page.locator("#scores tr")).to_have_count(8)  # the breakdown: heading, 6 categories, total
                assert page.evaluate(TOTAL_SEEN, ["score-section", players]) == []
                lines = page.locator("#standings li").evaluate_all("(items) => items.map((li) => li.innerText)")
                assert [" ".join(line.split()) for line in lines] == ranked
                assert fits(page)
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(output_dir / f"scores-360-standings-{lang}.png"), full_page=True)
                page.locator("#box-nav button[data-box-action=history]").click()
                expect(page.locator("body")).to_have_attribute("data-page", "box")
                page.locator("#history-list button").first.click()
                expect(page.locator("#history-open")).to_be_visible()
                assert page.evaluate(TOTAL_SEEN, ["history-open", players]) == []
                assert fits(page)
                page.screenshot(path=str(output_dir / f"scores-360-standings-history-{lang}.png"), full_page=True)
    assert errors == []
