"""The phone's Next button on a 360 px phone in Chromium: the phase it names fits inside it in every language (in
Greek, "Επόμενο: Διαχείριση Αυτοκρατορίας" stuck out of a half-width button: "Αυτοκρατορίας" is one word the button
does not break)."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import faction_label
from tests.test_long_lists_browser import _next, _seat, _tell
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

NEXT = {"el-GR": "Επόμενο: Διαχείριση Αυτοκρατορίας", "pl-PL": "Dalej: Zarządzanie imperium",
        "hu-HU": "Tovább: Birodalom irányítása"}


def two_in_ship(hub) -> None:
    """Ann and Bob of a 2-player Roll table set up, both select Ship, and the table is taken to V Ship."""
    _tell(hub, ("Ann", "setup", {"faction": faction_label(3), "home_world": "Alpha Centauri",
                                 "development": "Investment Credits", "world": "Gem World"}),
          ("Bob", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                            "development": "Advanced Logistics", "world": "Spice World"}),
          ("Ann", "select", {"phase": "ship"}), ("Bob", "select", {"phase": "ship"}))
    _next(hub, 2)  # Reveal, V Ship


def test_next_names_manage_empire_inside_its_button_in_each_language(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll"):
            two_in_ship(hub)  # Reveal, V Ship: Next leads to Manage Empire
            for locale, label in NEXT.items():
                with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                    _seat(page, "Ann")
                    button = page.locator("#phone-next")
                    expect(button).to_have_text(label)
                    assert button.evaluate("b => b.scrollWidth <= b.clientWidth"), locale
                    box, inside = button.bounding_box(), page.locator("#next-actions").bounding_box()
                    assert box["x"] + box["width"] <= inside["x"] + inside["width"] + 0.5, locale
                    page.screenshot(path=str(output_dir / f"phone_next_manage_empire_{locale[:2]}.png"))
                    assert errors == []
                    page.once("dialog", lambda dialog: dialog.accept())  # "Give up Ann's seat on this phone?"
                    page.locator("#give-up-seat").click()  # the next phone takes Ann's seat
                    expect(page.locator("#seats button", has_text="Ann")).to_have_class("seat free")
    finally:
        server.shutdown()
