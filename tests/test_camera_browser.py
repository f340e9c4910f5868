"""A phone answers a camera question in a real browser (Debian's chromium via Playwright), and sets up
a game. Skips with the reason when chromium or Playwright is missing (see test_phone_browser.py)."""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.flows import FLOWS
from companion.setup_flow import TableSetup
from companion.web import create_app, serve
from device import FakeCamera
from tests.browser_pages import PHONE_390, joined_page
from tests.phones import LoopThread
from tests.test_camera_flow import FakeDiceReader, flow_of, halves, setup_roll
from tests.test_phone_browser import TIMEOUT_MS, browser, join_url  # noqa: F401  (the fixture)
from vision.motion import StillnessDetector

pytestmark = pytest.mark.browser


def page_for(browser, url):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    return context, page, errors


@contextlib.contextmanager
def race_setup_on_a_phone(browser, hub, store):  # noqa: F811
    """A box setting up Race for the Galaxy (its loop, not started, and its :class:`TableSetup`) with a phone's page
    joined to it on loopback: ``(loop, setup, page, errors)``, ``errors`` the page's script errors."""
    image = np.full((240, 320, 3), 70, np.uint8)
    setup = TableSetup(store, FLOWS["race"])
    loop = MainLoop(source=FakeCamera([image]), reader=None, session=None, hub=hub, stillness=StillnessDetector(),
                    setup=setup, sleep=lambda s: None)
    loop.publish()
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
            yield loop, setup, page, errors
    finally:
        server.shutdown()


def bob_asked_about_his_phase(store, hub):
    """A Roll for the Galaxy game set up, whose camera read Bob's dice (Explore 2, Settle 1) and asks the table
    "Bob selected Explore?": ``(flow, loop)``, the question published."""
    from tests.camera_tables import frame_of

    reader = FakeDiceReader([("white", "explore", (340, 100, 30, 30)), ("white", "explore", (380, 100, 30, 30)),
                             ("green", "settle", (420, 100, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves(), reread_s=0.0)
    image = np.full((240, 640, 3), 70, np.uint8)
    loop = MainLoop(source=FakeCamera([image]), reader=None, session=flow.session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    cam.schedule(0.0)
    cam.read(frame_of(image), 0.0)
    loop.publish()
    return flow, loop


def test_phone_confirms_a_camera_question_with_a_correction(browser, hub, store, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    flow, loop = bob_asked_about_his_phase(store, hub)
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
            with LoopThread(loop):
                question = page.locator("#questions li")
                expect(question).to_have_count(1)
                expect(question.locator(".q")).to_have_text("Camera: Bob selected Explore? (dice: Explore 2, Settle 1)")
                expect(question.locator("select.choice")).to_have_value("explore")
                page.screenshot(path=str(output_dir / "phone_camera_question.png"), full_page=True)
                question.locator("select.choice").select_option("settle")
                question.locator("button.confirm").click()
                expect(page.locator("#camera-result")).to_contain_text("Bob: Phase selected recorded from the "
                                                                       "camera")  # players' words (issue 17)
                expect(page.locator("#questions li")).to_have_count(0)
            last = flow.session.events()[-1]
            assert (last.kind, last.player, last.origin,
                    last.payload["phase"]) == ("phase_selected", "Bob", "camera", "settle")
            assert last.payload["read"]["corrected"] is True
            assert errors == []
    finally:
        server.shutdown()


def test_a_correction_picked_on_a_phone_survives_another_report_and_a_reload(browser, hub, store):  # noqa: F811
    """Bob picks Settle where the camera guessed Explore; before he taps Confirm, Ann reports on her phone (the page
    is drawn again) and his phone reloads (back from the lock screen). His pick stayed Settle, not the camera's
    guess again, and Confirm records Settle (Roll for the Galaxy p.3 Assign: the phase the player selected)."""
    from playwright.sync_api import expect

    flow, loop = bob_asked_about_his_phase(store, hub)
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, **PHONE_390) as (page, errors):
            with LoopThread(loop):
                question = page.locator("#questions li")
                expect(question.locator("select.choice")).to_have_value("explore")
                question.locator("select.choice").select_option("settle")
                shown = page.locator("body").get_attribute("data-version")
                hub.post_action("report", origin="phone", player="Ann", form="credits", values={"credits": 4})
                expect(page.locator("body")).not_to_have_attribute("data-version", shown)  # drawn again
                expect(question.locator("select.choice")).to_have_value("settle")
                page.reload()
                expect(question).to_have_count(1)
                expect(question.locator("select.choice")).to_have_value("settle")
                question.locator("button.confirm").click()
                expect(page.locator("#questions li")).to_have_count(0)
            last = flow.session.events()[-1]
            assert (last.kind, last.player, last.payload["phase"]) == ("phase_selected", "Bob", "settle")
            assert errors == []
    finally:
        server.shutdown()


def test_phone_adds_players_and_starts_the_game(browser, hub, store, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    with race_setup_on_a_phone(browser, hub, store) as (loop, setup, page, errors):
        with LoopThread(loop):
            expect(page.locator("#setup-section")).to_be_visible()
            for name, colour in (("Ann", "green"), ("Bob", "red")):
                page.locator("#setup-name").fill(name)
                page.locator("#setup-colour").select_option(colour)
                page.locator("#setup-add").click()
                expect(page.locator("#setup-players li .name").last).to_have_text(name)
            page.screenshot(path=str(output_dir / "phone_setup.png"), full_page=True)
            page.locator("#setup-start").click()
            expect(page.locator("#setup-section")).to_be_hidden()
            expect(page.locator("#seats button")).to_have_count(2)
        assert loop.flow is not None and loop.flow.seats == [{"name": "Ann", "colour": "green"},
                                                             {"name": "Bob", "colour": "red"}]
        assert errors == []


def test_a_name_typed_again_keeps_its_players_colour_unless_another_is_picked(browser, hub, store):  # noqa: F811
    """After a restart Ζωή typed her name again and tapped "Add player": the form sent the first free colour it showed,
    and the box took that as her new colour (red became yellow) without anyone picking it. A name typed again is
    "already playing" and keeps its colour; a colour picked on the form still changes it."""
    from playwright.sync_api import expect

    with race_setup_on_a_phone(browser, hub, store) as (loop, setup, page, errors):
        with LoopThread(loop):
            expect(page.locator("#setup-section")).to_be_visible()
            for name in ("Ζωή", "Łucja"):
                page.locator("#setup-name").fill(name)
                page.locator("#setup-add").click()
                expect(page.locator("#setup-players li .name", has_text=name)).to_have_count(1)
            assert [p["colour"] for p in setup.players] == ["red", "blue"]  # the first free colours, as shown
            page.locator("#setup-name").fill("Ζωή")
            page.locator("#setup-add").click()
            expect(page.locator("#setup-result")).to_have_text(
                "'Ζωή' is already playing; names must differ (ignoring case and accents)")
            expect(page.locator("#setup-result")).to_have_class("action-result error")
            assert [p["colour"] for p in setup.players] == ["red", "blue"]
            page.locator("#setup-colour").select_option("purple")
            page.locator("#setup-name").fill("Ζωή")
            page.locator("#setup-add").click()
            expect(page.locator("#setup-result")).to_have_text("Ζωή is purple")
            assert [p["colour"] for p in setup.players] == ["purple", "blue"]
            page.locator("#setup-name").fill("Ann")  # a new player without a colour picked: the first free one
            page.locator("#setup-add").click()
            expect(page.locator("#setup-players li .name", has_text="Ann")).to_have_count(1)
            assert [p["colour"] for p in setup.players] == ["purple", "blue", "red"]
        assert errors == []
