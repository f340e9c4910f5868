"""The phone page in a real browser (Debian's chromium via Playwright) while the box dies and comes back:
the page shows "reconnecting" while the box is gone and the live state of the restarted box after, by
itself, without a reload; and it says "reconnecting" at once when the phone loses its network."""

from __future__ import annotations

import pytest

from bench.box_process import BoxProcess, free_port
from tests.test_phone_browser import browser, phone_context  # noqa: F401  (the browser fixture)

pytestmark = pytest.mark.browser

BOX = ["demo", "--no-screen", "--no-gpio", "--hold", "1"]
BACK_MS = 60_000  # a restarted box imports OpenCV and pygame again: slow on a shared 2-core machine


@pytest.fixture
def phone_page(browser):  # noqa: F811
    with phone_context(browser, device_scale_factor=2, is_mobile=True, has_touch=True) as (page, errors):
        yield page, errors


def test_the_page_says_reconnecting_while_the_box_restarts_then_shows_the_new_box_live(phone_page, tmp_path,
                                                                                         output_dir):
    from playwright.sync_api import expect

    page, errors = phone_page
    port = free_port()
    db = tmp_path / "demo.sqlite3"
    first = BoxProcess([*BOX, "--db", str(db)], tmp_path, port=port)
    try:
        before = first.wait_until(lambda s: (s.get("game") or {}).get("rolls", 0) >= 1)
        page.goto(first.base + "/")
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("body")).to_have_attribute("data-session", before["session"]["id"])
        expect(page.locator("#rolls")).not_to_have_text("no rolls yet")
        page.evaluate("window.__notReloaded = true")
    finally:
        first.kill()  # SIGKILL: the stream is cut with no goodbye

    expect(page.locator("#connection")).to_have_text("reconnecting\u2026")
    expect(page.locator("#connection")).to_have_class("conn reconnecting")
    page.screenshot(path=str(output_dir / "phone-reconnecting.png"))
    for _ in range(3):  # a few of the browser's retries fail while nothing listens: still reconnecting
        page.wait_for_event("requestfailed", timeout=15000)
    expect(page.locator("#connection")).to_have_text("reconnecting\u2026")

    second = BoxProcess([*BOX, "--db", str(db), "--new-session"], tmp_path, port=port)
    try:
        after = second.wait_until(lambda s: (s.get("session") or {}).get("id"))
        assert after["session"]["id"] != before["session"]["id"]
        expect(page.locator("#connection")).to_have_text("live", timeout=BACK_MS)
        # the restarted box's own state, drawn whatever its version number
        expect(page.locator("body")).to_have_attribute("data-session", after["session"]["id"], timeout=BACK_MS)
        second.wait_until(lambda s: (s.get("game") or {}).get("rolls", 0) >= 1)
        # the page follows the new box's rolls live: what it shows is what the box has
        page.wait_for_function("""async () => {
            const rolls = ((await (await fetch("/api/state", {cache: "no-store"})).json()).game || {}).rolls || 0;
            return document.querySelector("#rolls").textContent === (rolls ? `roll ${rolls}` : "no rolls yet");
        }""", timeout=BACK_MS)
        assert page.evaluate("window.__notReloaded") is True  # recovered without a reload
        page.screenshot(path=str(output_dir / "phone-reconnected.png"))
    finally:
        code, err = second.stop()
    assert code == 0, err[-2000:]
    assert errors == []


def test_a_phone_that_goes_offline_shows_reconnecting_at_once_and_recovers(phone_page, tmp_path):
    from playwright.sync_api import expect

    page, errors = phone_page
    box = BoxProcess([*BOX, "--db", str(tmp_path / "demo.sqlite3")], tmp_path)
    try:
        state = box.wait_until(lambda s: (s.get("session") or {}).get("id"))
        page.goto(box.base + "/")
        expect(page.locator("#connection")).to_have_text("live")
        page.context.set_offline(True)  # the Wi-Fi drops: the browser says offline
        expect(page.locator("#connection")).to_have_text("reconnecting\u2026")
        page.context.set_offline(False)
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("body")).to_have_attribute("data-session", state["session"]["id"])
    finally:
        code, err = box.stop()
    assert code == 0, err[-2000:]
    assert errors == []
