"""A half-filled report form on a 360 px phone in Chromium keeps what the player chose while the table moves on: in
Roll for the Galaxy's II Develop every player reports their builds at once (p.6 Develop), and another player's Tile
built reorders Ann's list of tiles (a tile built is no longer offered first, p.1 Components); her form is drawn anew
with it, and her choices stay. Then Die removed (p.11 FAQ, Immediate effects): its note leaves once she says the die,
and Undo from her phone brings the form and the note back."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import faction_label
from tests.test_long_lists_browser import _next, _seat, _tell
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


def two_in_develop(hub) -> None:
    """Ann and Bob (2 players) set up and both chose II Develop: the table is in II Develop after Reveal."""
    _tell(hub, ("Ann", "setup", {"faction": faction_label(3), "home_world": "Alpha Centauri",
                                 "development": "Investment Credits", "world": "Spice World"}),
          ("Bob", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                            "development": "Advanced Logistics", "world": "Spice World"}),
          ("Ann", "select", {"phase": "develop"}), ("Bob", "select", {"phase": "develop"}))
    _next(hub, 2)  # Reveal, II Develop


def test_anns_choice_stays_while_bob_reports_his_build(browser, hub, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll"), joined_page(browser, server, hub, locale="pl-PL",
                                                                 **PHONE_360) as (page, errors):
            two_in_develop(hub)
            _seat(page, "Ann")
            page.locator("#form-pick").select_option("tile")
            tile = page.locator('#fields select[data-field="tile"]')
            tile.select_option("Space Marines")
            tile.evaluate("select => { select.dataset.before = 'drawn'; }")
            _tell(hub, ("Bob", "tile", {"tile": "Conscription"}))  # Bob's build: Ann's list is drawn anew
            expect(page.locator("#fields select[data-before]")).to_have_count(0)
            expect(tile).to_have_value("Space Marines")
            page.locator("#send").click()
            expect(page.locator("#report-result")).to_have_class("action-result ok")
            # sent: the form drawn after it starts empty (a second tap would report another build)
            expect(tile).to_have_value("")
            assert errors == []
    finally:
        server.shutdown()


def test_undo_of_die_removed_brings_its_note_and_form_back(browser, hub, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll"), joined_page(browser, server, hub, locale="el-GR",
                                                                 **PHONE_360) as (page, errors):
            two_in_develop(hub)
            _seat(page, "Ann")
            page.locator("#form-pick").select_option("tile")
            page.locator('#fields select[data-field="tile"]').select_option("Conscription")
            page.locator("#send").click()
            expect(page.locator("#report-result")).to_have_class("action-result ok")
            remove = page.locator("#form-pick option[value=remove]")
            expect(remove).to_have_count(1)
            asks = page.locator("#findings li", has_text="Ζάρι αφαιρέθηκε")
            expect(asks).to_have_count(1)
            for _round in range(2):  # said, undone, said again: the note follows the die each time
                page.locator("#form-pick").select_option("remove")
                expect(page.locator('#fields select[data-field="source"]')).to_have_value("Conscription")
                page.locator('#fields select[data-field="colour"]').select_option("white")
                page.locator('#fields select[data-field="from"]').select_option("citizenry")
                page.locator("#send").click()
                expect(page.locator("#report-result")).to_have_class("action-result ok")
                expect(remove).to_have_count(0)
                expect(asks).to_have_count(0)
                page.once("dialog", lambda dialog: dialog.accept())
                page.locator("#undo-report").click()
                expect(remove).to_have_count(1)
                expect(asks).to_have_count(1)
            assert errors == []
    finally:
        server.shutdown()
