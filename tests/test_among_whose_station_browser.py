"""Among the Stars with the camera and no zones, on phones at 360 px (Debian's chromium via Playwright) and on the
touchscreen: "whose station is this?" is one tap on a player, and a table with no Main Reactor identified is told so.

The table is ``tests/test_among_whose_station.py``'s: Ann's and Bob's stations side by side, nothing recorded, no seats
tapped (each player builds their own station from their own Main Reactor: Among the Stars rulebook, 3 'Setup').
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import numpy as np
import pytest

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.screen import TouchScreen
from companion.web import create_app, serve
from device import FakeCamera
from tests.browser_pages import PHONE_360, joined_page
from tests.phones import LoopThread
from tests.test_among_camera_stations import among, read, reader
from tests.test_among_whose_station import TWO
from tests.test_phone_browser import browser  # noqa: F401  (the fixture)
from vision.motion import StillnessDetector


@contextlib.contextmanager
def table_read(store, hub, table=TWO):
    """A 2-player game with no zones whose camera read ``table`` once, published: ``(flow, camera, loop)``."""
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    loop = MainLoop(source=FakeCamera([np.zeros((600, 1000, 3), np.uint8)]), reader=None, session=flow.session,
                    hub=hub, stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    read(cam)
    loop.publish()
    yield flow, cam, loop


def test_the_touchscreen_asks_whose_station_with_a_button_per_player(store, hub, output_dir):
    """The oldest question on the touchscreen: one button per player and Dismiss, no Confirm (no answer of its own)."""
    from companion.screen.game import Table

    with table_read(store, hub) as (_flow, _cam, loop):
        view = loop.view()
        screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
        screen.render(view)
        screen.save_png(output_dir / "screen_among_whose_station.png")
        labels = [b.label for b in Table().buttons(screen, view) if str(b.key).startswith("camera")]
        assert labels == ["Ann", "Bob", "Dismiss"]


@pytest.mark.browser
def test_each_phone_taps_its_own_player_and_the_station_is_theirs(browser, hub, store, output_dir):  # noqa: F811
    """Ζωή's Greek phone holds Ann's seat, a Polish phone Bob's. Each of the two questions shows, on each phone, the
    button of its own player only (the box refuses a phone's answer for a seat another phone holds) and Dismiss, with
    no Confirm and no dropdown, within 360 px; a third phone holding no seat is told whose it is to answer. Ann taps
    herself on the station with Customs: recorded for Ann."""
    from playwright.sync_api import expect

    with table_read(store, hub) as (flow, _cam, loop):
        server = serve(create_app(hub), host="127.0.0.1", port=0)
        try:
            with joined_page(browser, server, hub, locale="el-GR", **PHONE_360) as (greek, greek_errors), \
                    joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (polish, polish_errors):
                with LoopThread(loop):
                    for page, seat in ((greek, "Ann"), (polish, "Bob")):
                        page.locator("#seats button", has_text=seat).click()
                        expect(page.locator("#me")).to_have_text(seat)
                    for page, seat in ((greek, "Ann"), (polish, "Bob")):
                        questions = page.locator("#questions li")
                        expect(questions).to_have_count(2)
                        for k in range(2):
                            q = questions.nth(k)
                            expect(q.locator("button.confirm")).to_have_text([seat])
                            expect(q.locator("button.dismiss")).to_have_count(1)
                            expect(q.locator("select")).to_have_count(0)
                    for page, lang in ((greek, "el"), (polish, "pl")):
                        page.locator("#camera-section").screenshot(
                            path=str(output_dir / f"phone_among_whose_station_{lang}.png"))
                    with joined_page(browser, server, hub, locale="en-GB", **PHONE_360) as (third, third_errors):
                        # a phone holding no seat: both players' seats are held by the other phones, so theirs to answer
                        q = third.locator("#questions li").first
                        expect(q.locator(".waiting")).to_have_text("waiting for Ann, Bob to answer on their phone")
                        expect(q.locator("button.confirm")).to_have_count(0)
                        assert third_errors == []
                    mine = greek.locator("#questions li", has_text="Customs")
                    expect(mine.locator(".q")).to_have_text(
                        "Κάμερα: Ποιανού είναι αυτός ο σταθμός: ο Main Reactor με Customs (1 δεξιά από τον Main "
                        "Reactor);")
                    for page in (greek, polish):
                        width = page.evaluate("document.documentElement.scrollWidth")
                        assert width <= 360, width
                    mine.locator("button.confirm").click()
                    expect(greek.locator("#camera-result")).to_have_class("action-result ok")
                    expect(polish.locator("#questions li")).to_have_count(1)
                assert greek_errors == [] and polish_errors == []
        finally:
            server.shutdown()
    claims = [(e.kind, e.player, e.payload["at"]) for e in flow.session.events() if e.kind == "station_claimed"]
    assert claims == [("station_claimed", "Ann", [300.0, 450.0])]


@pytest.mark.browser
def test_no_main_reactor_in_view_is_said_on_a_hungarian_phone_and_the_touchscreen(browser, hub, store,  # noqa: F811
                                                                                   output_dir):
    from playwright.sync_api import expect

    table = [(None, 300, 450, False), ("customs", 360, 450, False), ("garden", 700, 450, False)]
    with table_read(store, hub, table) as (_flow, _cam, loop):
        screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
        screen.render(loop.view())
        screen.save_png(output_dir / "screen_among_no_reactor.png")
        server = serve(create_app(hub), host="127.0.0.1", port=0)
        try:
            with joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (page, errors):
                note = page.locator("#reader-notes li")
                expect(note).to_have_count(1)
                expect(note).to_contain_text("egyetlen Főreaktor kártya sem látszik: ")
                box = note.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
                page.locator("#camera-section").screenshot(path=str(output_dir / "phone_among_no_reactor_hu.png"))
                assert errors == []
        finally:
            server.shutdown()


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_touchscreen_says_whose_stations_are_not_told_apart_whole(store, hub, monkeypatch, lang):
    """The status lines beside Undo (292 x 48 px) hold the short note whole for four players in every language: the
    question itself is shown above them; the phones keep the whole note."""
    from companion import i18n
    from companion.screen import game

    shown: list[str] = []
    monkeypatch.setattr(game, "status_lines", lambda ts, message, room: shown.append((message, room)))
    four = among(store, "Ann,Bob,Cid,Dora")
    cam = CameraFlow(four, deck=SimpleNamespace(art=None), read_cards=reader(TWO))
    loop = MainLoop(source=FakeCamera([np.zeros((600, 1000, 3), np.uint8)]), reader=None, session=four.session,
                    hub=hub, stillness=StillnessDetector(), flow=four, camera_flow=cam, sleep=lambda s: None)
    read(cam)
    view = cam.view()
    assert "whose station is this?" in view["reader_notes"][0] and len(view["reader_notes"][0]) > 200
    brief = view["reader_briefs"][0]
    assert brief == ("stations not told apart (Ann, Bob, Cid, Dora): answer “whose station is this?” or report a "
                     "build on a phone")
    screen = TouchScreen(phone_url="http://192.168.1.20:8080/")
    screen.render(loop.view())
    (message, room), = shown
    assert message == brief
    said = i18n.say(brief, lang)
    assert "Ann" in said and "Dora" in said
    most = {size: max(2, room.height // screen.font(size).get_linesize()) for size in range(20, 12, -1)}
    fits = [size for size, lines in most.items() if len(screen.wrap_lines(said, room.width, size)) <= lines]
    assert fits, said


@pytest.mark.browser
def test_a_hungarian_phone_giving_its_player_a_second_station_is_told_why(browser, hub, store,  # noqa: F811
                                                                          output_dir):
    """Ann's Hungarian phone taps Ann on the station with Customs, then on the bare reactor too: the second tap is
    refused in Hungarian within 360 px (each player builds one station, rulebook 3 'Setup'), the question stays."""
    from playwright.sync_api import expect

    with table_read(store, hub) as (flow, _cam, loop):
        server = serve(create_app(hub), host="127.0.0.1", port=0)
        try:
            with joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (page, errors):
                with LoopThread(loop):
                    page.locator("#seats button", has_text="Ann").click()
                    expect(page.locator("#me")).to_have_text("Ann")
                    questions = page.locator("#questions li")
                    expect(questions).to_have_count(2)
                    questions.filter(has_text="Customs").locator("button.confirm", has_text="Ann").click()
                    expect(page.locator("#camera-result")).to_have_class("action-result ok")
                    expect(questions).to_have_count(1)
                    questions.first.locator("button.confirm", has_text="Ann").click()
                    result = page.locator("#camera-result")
                    expect(result).to_contain_text("Ann már kapott űrállomást")
                    expect(result).to_contain_text("szabálykönyv 3 „Előkészületek”")
                    expect(questions).to_have_count(1)
                    box = result.bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
                    assert page.evaluate("document.documentElement.scrollWidth") <= 360
                    page.locator("#camera-section").screenshot(
                        path=str(output_dir / "phone_among_second_station_hu.png"))
                assert errors == []
        finally:
            server.shutdown()
    assert [(e.kind, e.player) for e in flow.session.events()] == [("station_claimed", "Ann")]
