"""Die removed on a 360 px phone in Chromium (Roll for the Galaxy, p.11 FAQ, Immediate effects): after Ann builds
Conscription, her phone offers the form, lists only Conscription and the places holding her dice, and records
the die she names; in Greek, Polish and Hungarian."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_form_kept_browser import two_in_develop
from tests.test_long_lists_browser import _seat, _tell
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

FORM = {"el-GR": "Ζάρι αφαιρέθηκε", "pl-PL": "Usunięto kość", "hu-HU": "Kocka eltávolítva"}


def test_ann_says_which_die_conscription_removes(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll"):
            two_in_develop(hub)  # Reveal, II Develop
            _tell(hub, ("Ann", "tile", {"tile": "Conscription"}))
            for locale, label in FORM.items():
                with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                    _seat(page, "Ann")
                    pick = page.locator("#form-pick")
                    expect(pick.locator("option[value=remove]")).to_have_text(label)
                    pick.select_option("remove")
                    values = "os => os.map(o => o.value).filter(v => v)"
                    sources = page.locator('#fields select[data-field="source"] option').evaluate_all(values)
                    assert sources == ["Conscription"], sources
                    places = page.locator('#fields select[data-field="from"] option').evaluate_all(values)
                    assert places and set(places) <= {"cup", "citizenry", "goods"}, places
                    page.screenshot(path=str(output_dir / f"roll_die_removed_{locale[:2]}.png"), full_page=True)
                    assert errors == []
                    page.once("dialog", lambda dialog: dialog.accept())  # "Give up Ann's seat on this phone?"
                    page.locator("#give-up-seat").click()
                    expect(page.locator("#seats button", has_text="Ann")).to_have_class("seat free")
            with joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (page, errors):
                _seat(page, "Ann")
                page.locator("#form-pick").select_option("remove")
                # the one tile owing a die is chosen already (a form with one choice); the note asks which die
                expect(page.locator('#fields select[data-field="source"]')).to_have_value("Conscription")
                asks = page.locator("#findings li", has_text="mondd meg, melyiket (Kocka eltávolítva)")
                expect(asks).to_have_count(1)
                page.locator('#fields select[data-field="colour"]').select_option("white")
                page.locator('#fields select[data-field="from"]').select_option("citizenry")
                page.locator("#send").click()
                expect(page.locator("#report-result")).to_have_class("action-result ok")
                expect(page.locator("#form-pick option[value=remove]")).to_have_count(0)  # the die is said
                expect(asks).to_have_count(0)  # and the note asking for it has gone
                assert errors == []
    finally:
        server.shutdown()
