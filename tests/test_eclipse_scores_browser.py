"""A finished 4-player Eclipse game with only the alliances module of Rise of the Ancients, on 360 px phones in Polish
and Hungarian (Debian's chromium via Playwright): the score table listed Ancient Cruisers, Ancient Dreadnought, Ancient
Monument, Artifact Link, Shellworld, Warp Portal and Ancient Warp Portal as 0 for everyone, modules the game was set up
without. Now it lists the rows this game can score, and every total is on the screen without scrolling sideways."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_eclipse_browser import pass_to_the_final_positions
from tests.test_evening_browser import fits
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)
from tests.test_score_standings_browser import TOTAL_SEEN

pytestmark = pytest.mark.browser

#: Eclipse, End of the game, hand-worked: no hex, Ambassador, alliance or technology, so each total is the reputation
#: tiles' face value: Łucja 4 + 2 = 6, Bálint 3, Ζωή 2 + 1 = 3, Ann 1.
REPUTATION = {"Łucja": {"reputation_4": 1, "reputation_2": 1}, "Bálint": {"reputation_3": 1},
              "Ζωή": {"reputation_2": 1, "reputation_1": 1}, "Ann": {"reputation_1": 1}}
TOTALS = {"Łucja": 6, "Bálint": 3, "Ζωή": 3, "Ann": 1}
#: The breakdown's rows (Eclipse scoring rows 1-7, and 17 for the alliances module), in Polish and Hungarian.
ROWS = {"pl": ["reputacja", "ambasadorowie", "heksy", "odkrycia", "monolity", "tory technologii", "zdrajca",
               "kafelek sojuszu"],
        "hu": ["hírnév", "nagykövetek", "hexek", "felfedezések", "monolitok", "technológiai sávok", "áruló",
               "szövetséglapka"]}


@pytest.mark.parametrize("locale, lang", [("pl-PL", "pl"), ("hu-HU", "hu")])
def test_a_finished_game_lists_only_the_rows_its_set_up_can_score(browser, hub, tmp_path, output_dir,  # noqa: F811
                                                                  locale, lang):
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        species = ["Terran Directorate", "Orion Hegemony", "Hydran Progress", "Mechanema"]
        with flow_on_the_box(hub, tmp_path, "eclipse", ",".join(TOTALS), alliances=True, species=species) as flow:
            pass_to_the_final_positions(hub)
            for name, values in REPUTATION.items():
                answer = hub.request("report", origin="cli", timeout=5, player=name, form="position", values=values)
                assert answer is not None and answer["status"] == 200, answer
            if not flow.progress().over:
                answer = hub.request("next_phase", origin="cli", timeout=5)
                assert answer is not None and answer["status"] == 200, answer
            assert flow.progress().over
            with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                expect(page.locator("#score-section")).to_be_visible()
                heads = page.locator("#scores tr th:first-child, #scores tr td:first-child").evaluate_all(
                    "(cells) => cells.map((c) => c.innerText.trim())")
                assert [h.casefold() for h in heads if h.casefold() in ROWS[lang]] == ROWS[lang]
                expect(page.locator("#scores tr")).to_have_count(len(ROWS[lang]) + 2)  # heading and total too
                players = [{"name": name, "total": total} for name, total in TOTALS.items()]
                assert page.evaluate(TOTAL_SEEN, ["score-section", players]) == []
                assert fits(page)
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(output_dir / f"eclipse-scores-360-{lang}.png"), full_page=True)
            assert errors == []
    finally:
        server.shutdown()
