"""The phone's answer to its own report and the box's status line at the foot of the page say the same words after a
tap ("zapisano: Ann: Kredyty" twice on a 360 px phone): the phone that tapped shows them once, under its form; a
phone that did not tap still reads the box's line at the foot."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_long_lists_browser import _seat, _tell
from tests.test_next_button_browser import two_in_ship
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

RECORDED = {"el-GR": "καταγράφηκε: Ann: Μονάδες", "pl-PL": "zapisano: Ann: Kredyty", "hu-HU": "rögzítve: Ann: Credit"}


def test_a_report_is_said_once_on_the_phone_that_sent_it(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll"):
            two_in_ship(hub)  # Reveal, V Ship
            for credits, (locale, said) in enumerate(RECORDED.items(), start=3):
                with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                    _seat(page, "Ann")
                    page.select_option("#form-pick", "credits")
                    page.locator('#fields [data-field="credits"]').fill(str(credits))
                    page.locator("#send").click()
                    expect(page.locator("#report-result")).to_have_text(said)
                    page.wait_for_timeout(500)  # the state after the report has come in
                    expect(page.locator("#message")).to_have_text("")
                    page.screenshot(path=str(output_dir / f"phone_recorded_once_{locale[:2]}.png"), full_page=True)
                    assert errors == []
                    page.once("dialog", lambda dialog: dialog.accept())  # "Give up Ann's seat on this phone?"
                    page.locator("#give-up-seat").click()
                    expect(page.locator("#seats button", has_text="Ann")).to_have_class("seat free")
            with joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (page, errors):
                _seat(page, "Ann")
                _tell(hub, ("Bob", "credits", {"credits": 2}))  # Bob's report, not this phone's
                expect(page.locator("#message")).to_have_text("zapisano: Bob: Kredyty")
                assert errors == []
    finally:
        server.shutdown()
