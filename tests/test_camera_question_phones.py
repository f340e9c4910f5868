"""Two phones meet the same camera question in a real browser (Debian's chromium via Playwright): each reads it
in its own language, the box records one answer, and the phone that came second is told, in its language, that the
question was already answered. Skips with the reason when chromium or Playwright is missing (see
test_phone_browser.py)."""

from __future__ import annotations

import contextlib
import threading
import time

import numpy as np
import pytest

from companion.web import create_app, serve
from tests.phones import LoopThread
from tests.test_camera_browser import bob_asked_about_his_phase
from tests.test_phone_browser import TIMEOUT_MS, browser, join_url  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser


@contextlib.contextmanager
def phones(browser, hub, *locales: str):  # noqa: F811
    """Joined phones' pages (390x844), one per browser language in ``locales``, on the box's phone view served on
    loopback: ``[(page, errors), ...]``, ``errors`` each page's script errors."""
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    contexts, pages = [], []
    try:
        for locale in locales:
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale)
            contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda exc, errors=errors: errors.append(str(exc)))
            page.goto(join_url(server, hub))
            pages.append((page, errors))
        yield pages
    finally:
        for context in contexts:
            context.close()
        server.shutdown()


def test_a_question_answered_on_two_phones_at_once_is_recorded_once_and_the_second_told(browser, hub, store):  # noqa: F811
    """Ζωή (Greek) taps Confirm on "Bob selected Explore?" while Anna (Hungarian) taps Dismiss on it. The box records
    Bob's Explore once (Roll for the Galaxy p.3 Assign: the phase the player selected); Anna's phone said "1 event
    was recorded since this was tapped ... tap again", as if the question still waited for her. It now says, in
    Hungarian, that the question was already answered and how, and both phones show no question."""
    from playwright.sync_api import expect

    flow, loop = bob_asked_about_his_phase(store, hub)
    before = len(flow.session.events())
    with phones(browser, hub, "el-GR", "hu-HU") as ((greek, greek_errors), (hungarian, hungarian_errors)):
        expect(greek.locator("#questions li .q")).to_have_text(
            "Κάμερα: Bob επέλεξε Εξερεύνηση; (ζάρια: Εξερεύνηση 2, Αποίκιση 1)")
        expect(hungarian.locator("#questions li .q")).to_have_text(
            "Kamera: Bob ezt a fázist választotta: Felfedezés? (kockák: Felfedezés 2, Letelepedés 1)")
        reached, post = threading.Event(), hub.post_action  # "sending" shows before the request reaches the box
        hub.post_action = lambda *args, **kw: (post(*args, **kw), reached.set())
        greek.locator("#questions li button.confirm").click()  # both taps wait for the loop: the Greek one first
        expect(greek.locator("#camera-result")).to_have_text("αποστολή…")
        assert reached.wait(10), "the Greek phone's Confirm did not reach the box within 10 s"
        hungarian.locator("#questions li button.dismiss").click()
        expect(hungarian.locator("#camera-result")).not_to_have_text("")
        with LoopThread(loop):
            expect(greek.locator("#camera-result")).to_have_class("action-result ok")
            expect(hungarian.locator("#camera-result")).to_have_class("action-result error")
            expect(hungarian.locator("#camera-result")).to_have_text(
                "„Bob ezt a fázist választotta: Felfedezés? (kockák: Felfedezés 2, Letelepedés 1)”: erre már "
                "válaszoltak (rögzítve: Bob: Fázis kiválasztva), ez a válasz nem lett rögzítve")
            for page in (greek, hungarian):
                expect(page.locator("#questions li")).to_have_count(0)
            assert greek.locator("body").get_attribute("data-version") == hungarian.locator(
                "body").get_attribute("data-version")
    recorded = flow.session.events()[before:]
    assert [(e.kind, e.player, e.origin, e.payload["phase"]) for e in recorded] == [
        ("phase_selected", "Bob", "camera", "explore")]
    assert greek_errors == [] and hungarian_errors == []


def test_a_phone_offline_when_it_answers_is_told_the_touchscreen_answered_first(browser, hub, store):  # noqa: F811
    """Bob's phone (Polish) loses the Wi-Fi just as he taps Dismiss on "Bob selected Explore?"; meanwhile the table
    confirms it on the touchscreen. When the phone is back, its tap (sent again) is told the question was already
    answered (recorded), nothing more is recorded, and after a reload (back from the lock screen) it shows the same
    state as the touchscreen: no question, Bob's Explore recorded once (Roll for the Galaxy p.3 Assign)."""
    from playwright.sync_api import expect

    flow, loop = bob_asked_about_his_phase(store, hub)
    before = len(flow.session.events())
    with phones(browser, hub, "pl-PL") as [(page, errors)]:
        with LoopThread(loop):
            question = page.locator("#questions li")
            expect(question).to_have_count(1)
            page.context.set_offline(True)
            question.locator("button.dismiss").click()
            expect(page.locator("#camera-result")).to_have_text("wysyłanie…")
            hub.post_action("camera_confirm", origin="touchscreen", id=int(question.get_attribute("data-id")))
            deadline = time.monotonic() + 10  # the loop takes the touchscreen's Confirm (bounded: 10 s)
            while len(flow.session.events()) == before and time.monotonic() < deadline:
                hub.wait_for_change(hub.snapshot().version, 0.5)
            assert len(flow.session.events()) > before, "the touchscreen's Confirm was not recorded within 10 s"
            page.context.set_offline(False)
            expect(page.locator("#camera-result")).to_have_class("action-result error")
            expect(page.locator("#camera-result")).to_contain_text(
                "już odpowiedziano (zapisano: Bob: Wybrano fazę): ta odpowiedź nie została zapisana")
            page.reload()
            expect(page.locator("#connection")).to_have_class("conn live")
            expect(question).to_have_count(0)
            assert page.locator("body").get_attribute("data-version") == str(hub.snapshot().view["session"]["events"])
    recorded = flow.session.events()[before:]
    assert [(e.kind, e.player, e.origin, e.payload["phase"]) for e in recorded] == [
        ("phase_selected", "Bob", "camera", "explore")]
    assert errors == []


def test_each_phone_offers_buttons_only_for_its_own_seats_question(browser, hub, store):  # noqa: F811
    """Νίκος (Greek phone) holds Νίκος's seat and Zofia (Polish phone) hers; the camera read both players' dice (Roll
    for the Galaxy p.3 Assign: the phase most of a player's workers show): "Νίκος selected Develop? (dice: Develop
    2)" and "Zofia selected Explore? (dice: Explore 2, Settle 1)". Each phone lists both questions but offers Confirm
    and Dismiss only on its own; the other is shown waiting for that player, without buttons (the box would refuse
    that phone's answer, 403). Before, both phones offered both. Each phone answers its own: two selections recorded,
    one per player, from the camera, and neither phone shows a question after."""
    from playwright.sync_api import expect

    from companion.app import MainLoop
    from companion.camera import CameraFlow
    from device import FakeCamera
    from rules.roll.data import catalogue
    from tests.camera_tables import frame_of
    from tests.test_camera_flow import FakeDiceReader, flow_of, halves
    from vision.motion import StillnessDetector
    from vision.table import Zones

    whole = halves()  # the left half of the frame is Νίκος's, the right half Zofia's

    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30)), ("white", "develop", (60, 100, 30, 30)),
                             ("white", "explore", (340, 100, 30, 30)), ("white", "explore", (380, 100, 30, 30)),
                             ("green", "settle", (420, 100, 30, 30))])
    flow = flow_of(store, "roll", "Νίκος,Zofia")
    label = lambda n: " / ".join(catalogue().faction(n).names)  # noqa: E731
    flow.report("Νίκος", "setup", {"faction": label(1), "home_world": "Old Earth",
                                   "development": "Advanced Logistics", "world": "Spice World"})
    flow.report("Zofia", "setup", {"faction": label(2), "home_world": "Alpha Centauri",
                                   "development": "Alien Research Team", "world": "Information Hub"})
    halves = whole.polygons
    cam = CameraFlow(flow, dice_reader=reader, zones=Zones({"Νίκος": halves["Ann"], "Zofia": halves["Bob"]},
                                                           units="px"), reread_s=0.0)
    image = np.full((240, 640, 3), 70, np.uint8)
    loop = MainLoop(source=FakeCamera([image]), reader=None, session=flow.session, hub=hub,
                    stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    cam.schedule(0.0)
    cam.read(frame_of(image), 0.0)
    loop.publish()
    before = len(flow.session.events())
    with phones(browser, hub, "el-GR", "pl-PL") as ((greek, greek_errors), (polish, polish_errors)):
        with LoopThread(loop):
            for page, seat in ((greek, "Νίκος"), (polish, "Zofia")):
                page.locator("#seats button", has_text=seat).click()
                expect(page.locator("#seat-section")).to_be_hidden()  # the seat is this phone's
            for page, own, other, waiting in (
                    (greek, "Νίκος", "Zofia", "Zofia: αναμονή για απάντηση από το τηλέφωνο της θέσης"),
                    (polish, "Zofia", "Νίκος", "czekamy, aż Νίκος odpowie na swoim telefonie")):
                expect(page.locator("#questions li")).to_have_count(2)
                mine, theirs = (page.locator(f'#questions li[data-player="{name}"]') for name in (own, other))
                expect(mine.locator("button.confirm")).to_have_count(1)
                expect(mine.locator("button.dismiss")).to_have_count(1)
                expect(theirs.locator("button")).to_have_count(0)
                expect(theirs.locator("select")).to_have_count(0)
                expect(theirs.locator(".waiting")).to_have_text(waiting)
            greek.locator('#questions li[data-player="Νίκος"] button.confirm').click()
            expect(greek.locator("#camera-result")).to_have_class("action-result ok")
            polish.locator('#questions li[data-player="Zofia"] button.confirm').click()
            expect(polish.locator("#camera-result")).to_have_class("action-result ok")
            for page in (greek, polish):
                expect(page.locator("#questions li")).to_have_count(0)
    recorded = flow.session.events()[before:]
    assert sorted((e.kind, e.player, e.origin, e.payload["phase"]) for e in recorded) == [
        ("phase_selected", "Zofia", "camera", "explore"), ("phase_selected", "Νίκος", "camera", "develop")]
    assert greek_errors == [] and polish_errors == []
