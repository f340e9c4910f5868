"""The phone page in a real browser (Debian's chromium via Playwright): live updates and Undo.

Never downloads a browser: uses /usr/bin/chromium, and skips with the reason when it or
Playwright is missing.
"""

from __future__ import annotations

import os
import re

import cv2
import numpy as np
import pytest

from companion.web import create_app, serve

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
TIMEOUT_MS = 10_000


def _jpeg(colour_bgr: tuple[int, int, int]) -> bytes:
    image = np.full((240, 320, 3), 80, np.uint8)
    cv2.rectangle(image, (100, 70), (180, 150), colour_bgr, -1)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed: pip install -e '.[test]' (never 'playwright install')")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def phone(browser, hub):
    """A phone-sized page connected to a real server on 127.0.0.1 (free port)."""
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page, server, errors
    finally:
        context.close()
        server.shutdown()


def test_page_updates_live_and_undo_reaches_the_hub(phone, hub, make_view, output_dir, tmp_path):
    from playwright.sync_api import expect

    page, server, errors = phone
    hub.publish(make_view([1, 2], seq=1), _jpeg((255, 0, 0)))
    page.goto(server.url)
    expect(page.locator("#connection")).to_have_text("live")
    expect(page.locator("#total")).to_have_text("3")
    expect(page.locator("#frame")).to_be_visible()
    first_src = page.locator("#frame").get_attribute("src")
    assert first_src.endswith("?v=1")

    # A new snapshot from the main loop shows up without a reload.
    page.evaluate("window.__notReloaded = true")
    new_view = make_view(
        [6, 6, 4, 2, None],
        seq=2,
        history=[[1, 2]],
        findings=[{"what": "Five dice, expected four", "where": "roll 2", "severity": "warning", "rule": "d6, 2", "seq": 2}],
    )
    new_view["frame"] = {"width": 320, "height": 240, "index": 99}
    hub.publish(new_view, _jpeg((0, 0, 255)))

    expect(page.locator("#total")).to_have_text("18")
    expect(page.locator("#count-6")).to_have_text("2")
    expect(page.locator("#count-4")).to_have_text("1")
    expect(page.locator("#count-1")).to_have_text("0")
    expect(page.locator("#unreadable")).to_have_text("1 unreadable")
    expect(page.locator("#latest-values .die")).to_have_text(["6", "6", "4", "2", "?"])
    expect(page.locator("#history li")).to_have_text([re.compile(r"#2: 6 6 4 2 \? = 18"), re.compile(r"#1: 1 2 = 3")])
    expect(page.locator("#findings li")).to_contain_text(["Five dice, expected four"])
    expect(page.locator("#camera")).to_have_text("Camera OK")
    expect(page.locator("#frame")).to_have_attribute("src", re.compile(r"/frame\.jpg\?v=2$"))
    # ... and the new picture (320 px wide, red block) has really loaded.
    page.wait_for_function(
        "() => { const i = document.getElementById('frame');"
        " return i.complete && i.naturalWidth === 320 && i.currentSrc.endsWith('?v=2'); }"
    )
    assert page.evaluate("window.__notReloaded") is True  # same document: no reload happened

    # Undo posts to the hub as the phone.
    with page.expect_response(lambda r: r.url.endswith("/api/action")) as answer:
        page.locator("#undo").click()
    assert answer.value.status == 202
    assert hub.take_actions() == [{"action": "undo", "origin": "phone"}]
    expect(page.locator("#action-result")).to_have_text("Undo sent")

    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)
    page.screenshot(path=str(output_dir / "phone.png"), full_page=True)
    assert (tmp_path / "phone.png").stat().st_size > 0
    assert errors == []


def test_camera_lost_shows_on_the_phone_and_disables_read_now(phone, hub, make_view):
    from playwright.sync_api import expect

    page, server, errors = phone
    page.goto(server.url)
    expect(page.locator("#no-frame")).to_be_visible()  # nothing published: 404 frame, placeholder shown

    lost = make_view([3, 3])
    lost["status"] = {"camera": "lost", "reader": "watching", "message": "Camera opencv:0 stopped sending frames."}
    hub.publish(lost)
    expect(page.locator("#camera")).to_have_text("Camera lost")
    expect(page.locator("#message")).to_have_text("Camera opencv:0 stopped sending frames.")
    expect(page.locator("#read-now")).to_be_disabled()
    expect(page.locator("#undo")).to_be_enabled()
    assert errors == []
