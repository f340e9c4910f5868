"""Among the Stars with the camera: what it sees of a player's own station (a card not recognised, one between cells,
one no longer seen) reaches that player's phone, and the touchscreen says how many each player has. On a table read
with no calibration most cards of a station may be unrecognised at every read: as many notes of one kind are one line
with their count ("4 cards are not recognised yet"), not a line each. A card between cells is told to be pushed flush
(a card shares a full edge with its station: Among the Stars rulebook 5.1 'Grid and adjacency').

The table (60x90 px cards on a 1000x600 px frame, the seats tapped below each reactor): Ann's reactor at (300, 450)
with four cards the reader cannot name around it; Bob's reactor at (540, 450) with one at its right (600, 450)."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import numpy as np
import pytest

from companion import i18n
from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.camera.station import StationWatcher
from companion.camera.watch import SeenCard
from companion.screen import TouchScreen
from companion.screen.game import station_notes
from companion.web import create_app, serve
from device import FakeCamera
from tests.browser_pages import PHONE_360, joined_page
from tests.phones import LoopThread
from tests.test_among_camera_stations import among, read, reader
from tests.test_phone_browser import browser  # noqa: F401  (the fixture)
from vision.motion import StillnessDetector

TABLE = [("main_reactor", 300, 450, False), (None, 360, 450, False), (None, 240, 450, False),
         (None, 300, 360, False), (None, 300, 540, False), ("main_reactor", 540, 450, False), (None, 600, 450, False)]
SEATS = {"Ann": [300.0, 590.0], "Bob": [540.0, 590.0]}


def test_as_many_unrecognised_cards_are_one_note_with_their_count_and_fewer_are_a_line_each():
    w = StationWatcher("Ann")
    w.observe([SeenCard("main_reactor", (0, 0), 0.95), *(SeenCard(None, cell, 0.95)
                                                           for cell in ((0, 1), (0, -1), (1, 0)))])
    assert [str(n) for n in w.unsure] == ["3 cards are not recognised yet: straighten them, move hands and glare away"]
    assert i18n.say(w.unsure[0], "pl").startswith("3 karty nie zostały jeszcze rozpoznane")
    w.observe([SeenCard("main_reactor", (0, 0), 0.95), SeenCard(None, (0, 1), 0.95), SeenCard(None, (0, -1), 0.2)])
    assert [str(n) for n in w.unsure] == ["the card 1 right of the Main Reactor is not recognised yet",
                                          "the card 1 left of the Main Reactor is not recognised yet"]


def test_cards_between_cells_are_grouped_and_cite_the_rulebook():
    w = StationWatcher("Ann")
    w.observe([SeenCard("main_reactor", (0, 0), 0.95), SeenCard("turret", None, 0.9)])
    assert [str(n) for n in w.unsure] == ["Turret lies between cells: push it flush against its neighbour (rulebook "
                                          "5.1 'Grid and adjacency': a card shares a full edge with its station)"]
    w.observe([SeenCard("main_reactor", (0, 0), 0.95), *(SeenCard(None, None, 0.9) for _ in range(5))])
    [note] = w.unsure
    assert str(note).startswith("5 cards lie between cells: push each flush against its neighbour (rulebook 5.1")
    assert i18n.say(note, "el").startswith("5 κάρτες βρίσκονται ανάμεσα σε κελιά")
    assert i18n.say(note, "hu").startswith("5 kártya két mező között fekszik")


@contextlib.contextmanager
def table_read(store, hub):
    flow = among(store, seats=SEATS)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TABLE))
    loop = MainLoop(source=FakeCamera([np.zeros((600, 1000, 3), np.uint8)]), reader=None, session=flow.session,
                    hub=hub, stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    read(cam)
    loop.publish()
    yield flow, cam, loop


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_the_touchscreen_counts_each_players_notes(store, hub, output_dir, lang):
    with table_read(store, hub) as (_flow, cam, loop):
        notes = cam.view()["notes"]
        assert [str(n) for n in notes["Ann"]] == ["4 cards are not recognised yet: straighten them, move hands and "
                                                  "glare away"]
        assert [str(n) for n in notes["Bob"]] == ["the card 1 right of the Main Reactor is not recognised yet"]
        i18n.set_box_language(lang)
        try:
            view = loop.view()
            counted = station_notes(view["camera"])
            screen = TouchScreen(size=(480, 320), phone_url="http://192.168.1.20:8080/")
            screen.render(view)
            screen.save_png(output_dir / f"screen_among_station_notes_{lang}.png")
        finally:
            i18n.set_box_language("en")
        assert counted.endswith(": Ann 1, Bob 1") and counted == i18n.say(
            i18n.Text("Camera notes (on the phones): {counts}", counts="Ann 1, Bob 1"), lang)
        drawn = " ".join(text for text, _rect, _room in screen.drawn)
        assert "Ann 1" in drawn and "Bob 1" in drawn, drawn


@pytest.mark.browser
def test_each_phone_shows_its_own_stations_notes_in_its_language(browser, hub, store, output_dir):  # noqa: F811
    from playwright.sync_api import expect

    with table_read(store, hub) as (_flow, cam, loop):
        [bobs] = cam.view()["notes"]["Bob"]
        server = serve(create_app(hub), host="127.0.0.1", port=0)
        try:
            with joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (ann, ann_errors), \
                    joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (bob, bob_errors):
                with LoopThread(loop):
                    for page, seat in ((ann, "Ann"), (bob, "Bob")):
                        page.locator("#seats button", has_text=seat).click()
                        expect(page.locator("#me")).to_have_text(seat)
                    expect(ann.locator("#station-notes li")).to_have_text(
                        ["4 karty nie zostały jeszcze rozpoznane: wyprostuj je, zabierz ręce i odblaski"])
                    expect(bob.locator("#station-notes li")).to_have_text([i18n.say(bobs, "hu")])
                    assert i18n.say(bobs, "hu").endswith("kártya még nincs felismerve")
                    for page, lang in ((ann, "pl"), (bob, "hu")):
                        box = page.locator("#station-notes").bounding_box()
                        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
                        page.locator("#camera-section").screenshot(
                            path=str(output_dir / f"phone_among_station_notes_{lang}.png"))
                assert ann_errors == [] and bob_errors == []
        finally:
            server.shutdown()
