"""The long lists and Roll's VP chips in V Ship on a 360 px phone in Chromium, in Polish, Hungarian and Greek: the
choices the player most likely means come first under their own labels, and the VP chips form names the chips a
Consume paid and refuses a number below them, nothing recorded (tests/test_long_lists_first.py and
tests/test_roll_ship_chips_form.py work the values out)."""

from __future__ import annotations

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import faction_label
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


def _tell(hub, *reports) -> None:
    for player, form, values in reports:
        answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
        assert answer is not None and answer["status"] == 200, answer


def _next(hub, times: int = 1) -> None:
    for _ in range(times):
        answer = hub.request("next_phase", origin="cli", timeout=5)
        assert answer is not None and answer["status"] == 200, answer


def _groups(page) -> list[tuple[str, list[str]]]:
    return page.locator('#fields [data-field] optgroup').evaluate_all(
        "gs => gs.map(g => [g.label, [...g.querySelectorAll('option')].map(o => o.value)])")


def _seat(page, name: str) -> None:
    from playwright.sync_api import expect

    page.locator("#seats button", has_text=name).click()
    expect(page.locator("#me")).to_have_text(name)


def _shot(page, path) -> None:
    """The open list as a phone shows it, drawn in the page (a headless browser draws no pop-up list)."""
    page.locator("#fields select[data-field]").last.evaluate("s => { s.size = 14; }")
    page.screenshot(path=str(path), full_page=True)
    page.locator("#fields select[data-field]").last.evaluate("s => { s.size = 0; }")


ROLL_SETUP = [("Ann", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                "development": "Advanced Logistics", "world": "Spice World"}),
              ("Bob", "setup", {"faction": faction_label(2), "home_world": "Alpha Centauri",
                                "development": "Alien Research Team", "world": "Information Hub"})]


def test_roll_tile_built_shows_the_zone_then_the_developments_in_polish(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll") as flow:
            _tell(hub, *ROLL_SETUP, ("Ann", "select", {"phase": "develop"}), ("Bob", "select", {"phase": "settle"}))
            _next(hub, 2)  # Reveal, II Develop
            with joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (page, errors):
                _seat(page, "Ann")
                page.locator("#form-pick").select_option("tile")
                expect(page.locator("#fields optgroup")).to_have_count(3)
                groups = _groups(page)
                assert [g[0] for g in groups] == ["W twojej strefie budowy", "Technologie", "Pozostałe kafelki"]
                assert groups[0][1] == ["Advanced Logistics", "Spice World"] and len(groups[1][1]) == 51
                assert sum(len(g[1]) for g in groups) == 110  # every side still offered, each once
                _shot(page, output_dir / "phone_roll_tile_built_groups_pl.png")
                page.locator('#fields [data-field="tile"]').select_option("Advanced Logistics")
                page.locator("#send").click()
                expect(page.locator("#report-result")).to_contain_text("zapisano")
                expect(page.locator("#fields optgroup").first).to_have_attribute("label", "W twojej strefie budowy")
                assert _groups(page)[0][1] == ["Spice World"]
                assert "Advanced Logistics" in flow.engine_view()["players"][0]["developments"]
                assert errors == []
    finally:
        server.shutdown()


def test_race_card_placed_shows_the_worlds_first_in_settle_in_hungarian(browser, hub, tmp_path, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "race"):
            _tell(hub, ("Ann", "start", {"card": "Old Earth"}), ("Bob", "start", {"card": "Epsilon Eridani"}),
                  ("Ann", "select", {"action": "Settle"}), ("Bob", "select", {"action": "Settle"}))
            with joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (page, errors):
                _seat(page, "Ann")
                page.locator("#form-pick").select_option("card")
                expect(page.locator("#fields optgroup")).to_have_count(2)
                groups = _groups(page)
                assert [g[0] for g in groups] == ["Világok", "A többi kártya"]
                assert "Gem World" in groups[0][1] and "Old Earth" not in groups[0][1]
                assert "Contact Specialist" in groups[1][1] and "Old Earth" in groups[1][1]
                _shot(page, output_dir / "phone_race_card_placed_groups_hu.png")
                assert errors == []
    finally:
        server.shutdown()


def test_roll_vp_chips_in_ship_name_the_consumes_chips_in_greek(browser, hub, tmp_path, output_dir):  # noqa: F811
    """Ann's brown good on Alpha Centauri consumed by a white shipper: 1 + 1 = 2 VP (p.7 Ship). Her phone says so over
    the field; 1 is refused naming 1 and 2, nothing recorded; 5 (the phase's total) gives her 5 chips."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll") as flow:
            _tell(hub, ("Ann", "setup", {"faction": faction_label(3), "home_world": "Alpha Centauri",
                                         "development": "Investment Credits", "world": "Gem World"}),
                  ("Bob", "setup", {"faction": faction_label(1), "home_world": "Old Earth",
                                    "development": "Advanced Logistics", "world": "Spice World"}),
                  ("Ann", "select", {"phase": "ship"}), ("Bob", "select", {"phase": "ship"}))
            _next(hub, 2)  # Reveal, V Ship
            _tell(hub, ("Ann", "ship", {"world": "Alpha Centauri", "mode": "consume", "good": "brown",
                                        "shipper": "white"}))
            with joined_page(browser, server, hub, locale="el-GR", **PHONE_360) as (page, errors):
                _seat(page, "Ann")
                page.locator("#form-pick").select_option("vp")
                expect(page.locator("#fields .form-note")).to_have_text(
                    "Ως τώρα στη φάση V Αποστολή το κουτί σάς έχει μετρήσει 2 ΠΝ σε δείκτες, που έδωσαν τα προϊόντα "
                    "που καταναλώσατε (Προϊόν απεστάλη). Αναφέρετε το σύνολο της φάσης μαζί με αυτούς: 2 + όσους "
                    "δείκτες πήρατε επιπλέον.")
                before = flow.session.last_seq
                page.locator('#fields [data-field="vp"]').fill("1")
                page.locator("#send").click()
                expect(page.locator("#report-result")).to_contain_text("ο αριθμός 1 δεν ξεπερνά")
                expect(page.locator("#report-result")).to_contain_text("αναφέρετε 2 + όσους δείκτες πήρατε επιπλέον")
                assert flow.session.last_seq == before
                page.screenshot(path=str(output_dir / "phone_roll_ship_chips_el.png"), full_page=True)
                page.locator('#fields [data-field="vp"]').fill("5")
                page.locator("#send").click()
                expect(page.locator("#fields .form-note")).to_contain_text("σάς έχει μετρήσει 5 ΠΝ")
                assert flow.engine_view()["players"][0]["vp_chips"] == 5
                assert errors == []
    finally:
        server.shutdown()
