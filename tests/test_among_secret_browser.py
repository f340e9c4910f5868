"""Among the Stars in real browsers (Debian's chromium via Playwright, 360 px phones): a Qualeen player enters her
secret objective on her own phone (Hungarian); the other player's phone (Greek) is not offered the form and never
shows which objective she keeps; the touchscreen's history of the game not over says why her total leaves it out;
once the game is scored every phone and the touchscreen show it, scored though tied (rulebook 'Races', Qualeen).

Hand-worked: both discard every round, 4 x 10 + 24 x 3 = 112 credits each, 37 VP; no location built, so both face-up
objectives are tied at 0 and go to nobody; Ágnes' secret On Budget (5 VP) is tied at 112 and still hers: 42 to 37.

Never downloads a browser: uses /usr/bin/chromium, and skips with the reason when it or Playwright is missing.
"""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from companion import i18n
from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

FACE_UP = ["First Line of Defense", "Intergalactic Trade"]  # 2 players: 2 objectives (rulebook 8)
HIDDEN = "a Qualeen's secret objective stays hidden: it counts once the game is scored"


def test_the_secret_objective_is_entered_on_the_qualeens_phone_alone_and_shown_once_scored(
        browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    phones = []
    try:
        with flow_on_the_box(hub, tmp_path, "among", "Ágnes,Bálint", races=["Qualeen", ""], objectives=FACE_UP), \
                ExitStack() as opened:
            for name, locale in (("Ágnes", "hu-HU"), ("Bálint", "el-GR")):
                page, errors = opened.enter_context(joined_page(browser, server, hub, locale=locale, **PHONE_360))
                phones.append((page, errors))
                page.locator("#seats button", has_text=name).click()
                expect(page.locator("#me")).to_have_text(name)
            (agnes, _), (balint, _) = phones
            secret = i18n.localize(i18n.Text("{form} (hidden: only on your phone)",
                                             form=i18n.Text("Secret objective (Qualeen)")), "hu")
            assert secret == "Titkos cél (Qualeen) (rejtett: csak a telefonodon)"
            expect(agnes.locator("#form-pick option", has_text=secret)).to_have_count(1)
            expect(balint.locator("#form-pick option", has_text="Qualeen")).to_have_count(0)
            agnes.locator("#form-pick").select_option("secret")
            field = agnes.locator('#fields [data-field="objective"]')
            # the objectives face up are not offered: one of the 2 extra ones drawn is kept
            offered = field.locator("option").all_inner_texts()
            assert not {"First Line of Defense", "Intergalactic Trade"} & set(offered), offered
            field.select_option("Well Organised")  # a slip: she kept On Budget
            agnes.locator("#send").click()
            expect(agnes.locator("#report-result")).to_contain_text("Ágnes")
            # kept from the setup (Qualeen race tile): the form closes once entered; its own button withdraws it
            expect(agnes.locator("#form-pick option", has_text=secret)).to_have_count(0)
            withdraw = agnes.locator("#withdraw-kept button")
            expect(withdraw).to_have_text("Bejegyzésem visszavonása: Titkos cél (Qualeen)")
            expect(balint.locator("#withdraw-kept button")).to_have_count(0)
            agnes.screenshot(path=str(output_dir / "phone_among_secret_kept_hu.png"), full_page=True)
            withdraw.click()
            expect(agnes.locator("#form-pick option", has_text=secret)).to_have_count(1)
            expect(withdraw).to_have_count(0)
            agnes.locator("#form-pick").select_option("secret")
            field.select_option("On Budget")
            agnes.locator("#send").click()
            expect(withdraw).to_have_count(1)
            agnes.screenshot(path=str(output_dir / "phone_among_secret_entered_hu.png"), full_page=True)
            expect(balint.locator("#report-result")).not_to_contain_text("On Budget")
            balint.screenshot(path=str(output_dir / "phone_among_secret_other_el.png"), full_page=True)
            assert "On Budget" not in balint.locator("body").inner_text()
            assert flow_state_secret(hub) is None  # nothing of it in what the box publishes, but the forms' lists

            for _ in range(24):  # the rest is played at the table: both discard, Next ends the round
                for name in ("Ágnes", "Bálint"):
                    answer = hub.request("report", origin="cli", timeout=5, player=name, form="discard", values={})
                    assert answer is not None and answer["status"] == 200, answer
                answer = hub.request("next_phase", origin="cli", timeout=5)
                assert answer is not None and answer["status"] == 200, answer
            for page in (agnes, balint):
                expect(page.locator("#score-section")).to_be_visible()
                expect(page.locator("#winner")).to_contain_text("Ágnes")
                expect(page.locator("#scores tr.winner-row")).to_contain_text("★ 42")  # her secret +5 counted
            balint.screenshot(path=str(output_dir / "phone_among_secret_scored_el.png"), full_page=True)
            agnes.screenshot(path=str(output_dir / "phone_among_secret_scored_hu.png"), full_page=True)
            width = agnes.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, width
            result = hub.snapshot().view["game"]["result"]
            assert {p["name"]: p["total"] for p in result["players"]} == {"Ágnes": 42, "Bálint": 37}
    finally:
        server.shutdown()
    assert all(errors == [] for _, errors in phones)


def flow_state_secret(hub) -> str | None:
    """'On Budget' where the published view holds it outside the report forms (their lists name every objective one
    may keep), else None."""
    import json

    game = {k: v for k, v in hub.snapshot().view["game"].items() if k != "forms"}
    return "On Budget" if "On Budget" in json.dumps(game, default=str) else None


def test_the_touchscreens_history_leaves_the_secret_out_and_says_why(store, tmp_path, output_dir):
    """The game left in year 4 and opened in the touchscreen's history: totals 36 and 36 (40 + 23 x 3 = 109 credits,
    109 // 3), no +5 for Ágnes, and the reason over them, in each language; scored, the score screen shows her 42."""
    from companion.hub import StateHub
    from companion.screen import TouchScreen
    from tests.test_among_secret import every_round_discarded, qualeen_table
    from tests.test_evening import do, evening
    from tests.test_evening_screens import shot

    flow = qualeen_table(store)
    every_round_discarded(flow, 23)
    hub = StateHub()
    loop = evening(store, tmp_path, hub=hub)
    do(loop, "history")
    do(loop, "open_game", session=flow.session.id)
    screen = TouchScreen(pairing=hub.pairing)
    try:
        for lang in ("en", "el", "pl", "hu"):
            i18n.set_box_language(lang)
            shot(loop, screen, f"among-history-secret-{lang}", output_dir)
            drawn = [str(text) for text, _, _ in screen.drawn]
            assert i18n._(HIDDEN) in drawn, (lang, drawn)
            assert "41" not in drawn and "36" in drawn, drawn
    finally:
        i18n.set_box_language("en")
    do(loop, "resume_game", session=flow.session.id)
    every_round_discarded(loop.flow, 1)
    screen = shot(loop, TouchScreen(pairing=hub.pairing), "among-secret-scored", output_dir)
    drawn = [str(text) for text, _, _ in screen.drawn]
    assert "42" in drawn, drawn
