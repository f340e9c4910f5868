"""Among the Stars with no zones on a phone (Debian's chromium via Playwright): when the box cannot tell whose station
is whose, the table's message, which asks the players to report a build on their phones, is on the phones too."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from companion.app import MainLoop
from companion.camera import CameraFlow
from companion.web import create_app, serve
from device import FakeCamera
from tests.browser_pages import PHONE_360, joined_page
from tests.test_among_camera_stations import ACROSS_THE_MIDDLE, among, read, reader
from tests.test_phone_browser import browser  # noqa: F401  (the fixture)
from vision.motion import StillnessDetector

pytestmark = pytest.mark.browser


def test_the_stations_untold_message_is_on_a_polish_phone_at_360_px(browser, hub, store):  # noqa: F811
    """No seats tapped and nothing built: the two stations are not told apart, and a Polish phone shows the message
    saying so (before, the phone's camera block stayed hidden while it held no question, misplay or markers)."""
    from playwright.sync_api import expect

    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(ACROSS_THE_MIDDLE))
    loop = MainLoop(source=FakeCamera([np.zeros((600, 1000, 3), np.uint8)]), reader=None, session=flow.session,
                    hub=hub, stillness=StillnessDetector(), flow=flow, camera_flow=cam, sleep=lambda s: None)
    read(cam)
    loop.publish()
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, locale="pl", **PHONE_360) as (page, errors):
            note = page.locator("#reader-notes li")
            expect(note).to_have_count(1)
            expect(note).to_be_visible()
            expect(note).to_contain_text("Ann, Bob")
            box = note.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
            assert errors == []
    finally:
        server.shutdown()
