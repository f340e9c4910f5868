"""Joining and authority in a real browser (Debian's chromium via Playwright) against the real main loop:
join by the QR code's link, claim a seat, a second phone refused for that seat, a phone without the
secret only watching, another site's page and a foreign name refused. Screenshots go to tests/_output/.
Skips with the reason when chromium or Playwright is missing (see test_phone_browser.py)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.app import MainLoop
from companion.hub import Pairing
from companion.session import SessionStore
from companion.web import create_app, serve
from companion.webauth import JOIN_TO_ACT
from device import FakeCamera
from tests.phones import LoopThread
from tests.test_camera_browser import page_for
from tests.test_camera_flow import flow_of, setup_roll
from tests.test_phone_browser import TIMEOUT_MS, _jpeg, browser  # noqa: F401  (the fixture)
from vision.motion import StillnessDetector

pytestmark = pytest.mark.browser

HELD = "Ann's seat is held by a phone that is still here"


box_requests: list[dict] = []
"""What the box received (path, Origin, Cookie, the status it answered): filled by :func:`_recorded`."""


def _recorded(wsgi_app):
    """``wsgi_app`` recording each request into :data:`box_requests` (what the browser really sent)."""
    def app(environ, start_response):
        seen = {"path": environ.get("PATH_INFO"), "origin": environ.get("HTTP_ORIGIN"),
                "cookie": environ.get("HTTP_COOKIE", "")}
        box_requests.append(seen)

        def recording_start(status, headers, exc_info=None):
            seen["status"] = status
            return start_response(status, headers, exc_info)

        return wsgi_app(environ, recording_start)

    return app


@pytest.fixture
def box(hub, tmp_path):
    """A Roll for the Galaxy game (Ann, Bob, set up) on the real main loop, served on 127.0.0.1."""
    box_requests.clear()
    with SessionStore(tmp_path / "box.sqlite3") as store:
        flow = flow_of(store, "roll")
        setup_roll(flow)
        loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=flow.session,
                        hub=hub, stillness=StillnessDetector(), flow=flow, sleep=lambda s: None)
        loop.publish()
        app = create_app(hub)
        app.wsgi_app = _recorded(app.wsgi_app)
        server = serve(app, host="127.0.0.1", port=0)
        try:
            with LoopThread(loop):
                yield loop, server
        finally:
            server.shutdown()


def join_link(server, hub) -> str:
    """What the touchscreen's QR code carries (and `companion run` prints)."""
    return f"{server.url}join/{hub.pairing().secret}"


def test_join_by_the_qr_link_claim_a_seat_and_a_second_phone_is_refused(browser, hub, box, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    loop, server = box
    ann_ctx, ann, ann_errors = page_for(browser, join_link(server, hub))
    bob_ctx, bob, bob_errors = page_for(browser, join_link(server, hub))
    try:
        for page in (ann, bob):
            assert page.url == server.url  # the join link set the cookie and went to the page
            expect(page.locator("#connection")).to_have_text("live")
            expect(page.locator("#join-banner")).to_be_hidden()
        cookie = next(c for c in ann_ctx.cookies() if c["name"] == "companion")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"

        ann.locator("#seats button", has_text="Ann").click()
        expect(ann.locator("#me")).to_have_text("Ann")
        expect(ann.locator("#report-section")).to_be_visible()
        ann.locator("#form-pick").select_option("credits")
        ann.locator("#fields input").fill("7")
        ann.locator("#send").click()
        expect(ann.locator("#report-result")).to_contain_text("Ann: Credits recorded")  # players' words (issue 17)

        # Bob's phone sees Ann's seat taken; tapping it anyway (and saying yes to taking it over) is refused with
        # what to do: Ann's phone is here
        expect(bob.locator("#seats button", has_text="Ann").locator(".seat-state")).to_have_text("taken")
        bob.once("dialog", lambda dialog: dialog.accept())
        bob.locator("#seats button", has_text="Ann").click()
        expect(bob.locator("#seat-result")).to_contain_text(HELD)
        expect(bob.locator("#seat-result")).to_contain_text("the box's touchscreen now asks the table to give it to "
                                                            "this phone; or Ann taps \"Give up my seat\" on that phone")
        assert loop.view()["box"]["asking"]["question"].startswith("A phone asks for Ann's seat")
        expect(bob.locator("#seat-result")).to_have_class("action-result error")
        expect(bob.locator("#report-section")).to_be_hidden()
        bob.screenshot(path=str(output_dir / "phone_seat_refused.png"), full_page=True)
        bob.locator("#seats button", has_text="Bob").click()
        expect(bob.locator("#me")).to_have_text("Bob")

        claims = hub.pairing().claims
        assert set(claims) == {"Ann", "Bob"} and claims["Ann"] != claims["Bob"]
        last = loop.flow.session.events()[-1]
        assert (last.kind, last.player, last.origin) == ("credits_changed", "Ann", "phone")
        assert ann_errors == [] and bob_errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_a_phone_without_the_secret_only_watches(browser, hub, box, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    loop, server = box
    events_before = loop.flow.session.last_seq
    context, page, errors = page_for(browser, server.url)  # the bare address: no join link
    try:
        expect(page.locator("#connection")).to_have_text("live")
        expect(page.locator("#join-banner")).to_be_visible()
        expect(page.locator("#join-banner")).to_contain_text("scan the QR code on the box's screen")
        expect(page.locator("#seats button")).to_have_count(2)
        for k in range(2):
            expect(page.locator("#seats button").nth(k)).to_be_disabled()
        expect(page.locator("#next-actions")).to_be_hidden()
        page.screenshot(path=str(output_dir / "phone_watching_only.png"), full_page=True)
        answers = page.evaluate("""async () => {
            const post = (url, body) => fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                                    body: JSON.stringify(body)});
            const out = [];
            for (const [url, body] of [["/api/seat", {player: "Ann", version: 0, key: "k1"}],
                                       ["/api/action", {action: "next_phase", version: 0, key: "k2"}]]) {
                const r = await post(url, body);
                out.push([r.status, (await r.json()).error]);
            }
            const frame = await fetch("/frame.jpg");
            out.push([frame.status, (await frame.json()).error]);
            return out;
        }""")
        assert answers == [[403, JOIN_TO_ACT]] * 3
        assert loop.flow.session.last_seq == events_before and hub.pairing().claims == {}

        refused = page.goto(f"{server.url}join/an-old-secret")  # e.g. a code from before "New QR code"
        assert refused.status == 403
        expect(page.locator("#join-problem")).to_contain_text("Scan the QR code on the box's screen again")
        page.screenshot(path=str(output_dir / "phone_join_refused.png"), full_page=True)
        assert errors == []
    finally:
        context.close()


def test_a_dice_phone_without_the_secret_sees_no_picture_and_no_buttons(browser, hub, make_view,  # noqa: F811
                                                                        output_dir):
    from playwright.sync_api import expect

    hub.publish(make_view([6, 6, 4], seq=1), _jpeg((0, 0, 255)))
    hub.set_pairing(Pairing("d6-game", "d6-secret-0000000000", {}))
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    context, page, errors = page_for(browser, server.url)
    try:
        expect(page.locator("#total")).to_have_text("16")  # the numbers, live
        expect(page.locator("#frame")).to_be_hidden()
        expect(page.locator("#no-frame")).to_have_text("Scan the QR code on the box to see the camera picture.")
        expect(page.locator("#read-now")).to_be_hidden()
        expect(page.locator("#undo")).to_be_hidden()
        page.screenshot(path=str(output_dir / "phone_d6_watching_only.png"), full_page=True)
        page.goto(f"{server.url}join/d6-secret-0000000000")  # now it joins: the picture and buttons appear
        expect(page.locator("#frame")).to_be_visible()
        expect(page.locator("#undo")).to_be_visible()
        assert errors == []
    finally:
        context.close()
        server.shutdown()


def test_another_site_s_page_and_a_foreign_name_are_refused(browser, hub, box):  # noqa: F811
    loop, server = box
    events_before = loop.flow.session.last_seq
    attack = f"""<!doctype html><title>cat pictures</title><script>
        fetch("{server.url}api/action", {{method: "POST", mode: "no-cors", credentials: "include",
            headers: {{"Content-Type": "text/plain"}},
            body: JSON.stringify({{action: "next_phase", version: {events_before}, key: "evil"}})}})
          .then(() => document.title = "sent", () => document.title = "failed");
        </script>""".encode()

    def other_site(environ, start_response):  # another web site on the same network
        start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(attack)))])
        return [attack]

    site = serve(other_site, host="127.0.0.1", port=0)
    context, page, errors = page_for(browser, join_link(server, hub))  # a joined phone ...
    try:
        # ... opens that site's page, which tries to press Next on the box behind the player's back. It is on
        # the same host, another port: the same *site*, so the SameSite=Strict cookie goes along and only the
        # Origin check stands between it and the game (with a valid version and key, it would move the round)
        with page.expect_response(lambda r: r.url == f"{server.url}api/action") as answer:
            page.goto(f"http://127.0.0.1:{site.port}/")
        assert answer.value.status == 403
        (seen,) = [r for r in box_requests if r["path"] == "/api/action"]
        assert seen["origin"] == f"http://127.0.0.1:{site.port}" and "companion=" in seen["cookie"]
        assert seen["status"].startswith("403")
        page.wait_for_function("document.title === 'sent' || document.title === 'failed'")
        # DNS rebinding: a name that resolves to the box but is not one of its names
        rebound = page.goto(f"http://evil.test:{server.port}/")
        assert rebound.status == 403 and "does not answer to the name" in page.content()
        assert loop.flow.session.last_seq == events_before  # nothing moved
        assert errors == []
    finally:
        context.close()
        site.shutdown()


def test_a_phone_refused_a_held_seat_is_told_so_in_its_language_and_gets_it_once_given_up(browser, hub, box,  # noqa: F811
                                                                                          output_dir):
    """A Polish phone taps the seat Ann's phone holds: it asks first, in Polish, and the box's refusal says, in
    Polish, what to do; Ann gives the seat up on her phone and the Polish phone takes it."""
    from playwright.sync_api import expect

    loop, server = box
    ann_ctx, ann, ann_errors = page_for(browser, join_link(server, hub))
    bob_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  locale="pl-PL")
    bob = bob_ctx.new_page()
    bob.set_default_timeout(TIMEOUT_MS)
    bob_errors: list[str] = []
    bob.on("pageerror", lambda exc: bob_errors.append(str(exc)))
    asked: list[str] = []
    try:
        bob.goto(join_link(server, hub))
        expect(bob.locator("html")).to_have_attribute("lang", "pl")
        ann.locator("#seats button", has_text="Ann").click()
        expect(ann.locator("#me")).to_have_text("Ann")
        held = bob.locator("#seats button", has_text="Ann")
        expect(held).to_have_class("seat taken")

        def answer(dialog) -> None:
            asked.append(dialog.message)
            dialog.accept()

        bob.once("dialog", answer)
        held.click()
        result = bob.locator("#seat-result")
        expect(result).to_contain_text("Ann: miejsce zajmuje telefon, który wciąż tu jest")
        expect(result).to_contain_text("„Oddaj moje miejsce”")
        expect(result).to_have_class("action-result error")
        assert asked == ["Ann: miejsce zajmuje inny telefon. Przejąć je na tym telefonie?"]
        bob.screenshot(path=str(output_dir / "phone_seat_refused_pl.png"), full_page=True)
        assert hub.pairing().claims["Ann"] != "" and len(hub.pairing().claims) == 1

        ann.once("dialog", lambda dialog: dialog.accept())  # "Give up Ann's seat on this phone?"
        ann.locator("#give-up-seat").click()
        expect(ann.locator("#seat-result")).to_contain_text("Ann's seat is free")
        expect(held).to_have_class("seat free")
        held.click()  # free now: no question
        expect(bob.locator("#me")).to_have_text("Ann")
        assert list(hub.pairing().claims) == ["Ann"]
        assert ann_errors == [] and bob_errors == []
    finally:
        ann_ctx.close()
        bob_ctx.close()
