"""A game's list options picked on a phone during the setup, in a real browser (Debian's chromium via Playwright):
Among the Stars' objectives on a 360 px Hungarian phone. Eclipse's on/off options are tried in
``tests/test_eclipse_browser.py``.

Never downloads a browser: uses /usr/bin/chromium, and skips with the reason when it or Playwright is missing.
"""

from __future__ import annotations

import contextlib

import numpy as np
import pytest

from companion.web import create_app, serve
from tests.browser_pages import joined_page
from tests.test_phone_browser import browser  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser


@contextlib.contextmanager
def setup_phone(browser, hub, tmp_path, game: str, locale: str):  # noqa: F811
    """A box on the setup of ``game`` chosen on its chooser (no command-line options) and one phone at 360 px in
    ``locale`` on its page: yields ``(loop, page, errors)`` (the loop not running: wrap taps in ``LoopThread``;
    ``errors``: the page's script errors). Closes the page and the phone view after."""
    from companion.app import MainLoop
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup
    from device import FakeCamera
    from vision.motion import StillnessDetector

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    with SessionStore(tmp_path / "setup.sqlite3") as store:
        loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=None, hub=hub,
                        stillness=StillnessDetector(), setup=TableSetup(store, FLOWS[game], {}),
                        sleep=lambda s: None)
        loop.publish()
        try:
            with joined_page(browser, server, hub, locale=locale, width=360, height=740, mobile=True) as (page, errors):
                yield loop, page, errors
        finally:
            server.shutdown()


def test_a_phone_picks_among_the_stars_objectives_for_a_game_chosen_on_the_box(browser, hub, tmp_path):  # noqa: F811
    """Among the Stars with 2 players draws 2 objectives (rulebook 8, 2-player rules): on the phone each objective is
    a box under the option's words; ticking two records them at once, and Start plays them."""
    from playwright.sync_api import expect

    from tests.test_camera_browser import LoopThread

    with setup_phone(browser, hub, tmp_path, "among", "hu-HU") as (loop, page, errors):
        with LoopThread(loop):
            for name in ("Ágnes", "Bálint"):
                page.locator("#setup-name").fill(name)
                page.locator("#setup-add").click()
                expect(page.locator("#setup-players li .name").last).to_have_text(name)
            boxes = page.locator('#setup-option-list input[data-option="objectives"]')
            expect(boxes).to_have_count(8)
            boxes.and_(page.locator('[data-name="Intergalactic Trade"]')).check()
            expect(page.locator("#setup-result")).to_have_text("a célok: Intergalactic Trade")
            boxes.and_(page.locator('[data-name="On Budget"]')).check()
            expect(page.locator("#setup-result")).to_have_text("a célok: Intergalactic Trade és On Budget")
            width = page.evaluate("document.documentElement.scrollWidth")
            page.locator("#setup-start").click()
            expect(page.locator("#setup-section")).to_be_hidden()
        assert width <= 360
        assert loop.flow.session.settings["objectives"] == ["intergalactic_trade", "on_budget"]
        assert errors == []


def test_a_tick_the_box_did_not_record_is_taken_back_on_the_phone(browser, hub, tmp_path):  # noqa: F811
    """A phone ticks Race's advanced game while the box is busy (it does not take the tap within the reply time, so
    nothing is recorded: 503), then an objective of Among the Stars likewise: the boxes stayed ticked under the
    answer 'nothing was recorded', so the phone showed the option in play though the box plays without it. Each box
    now goes back to what the box holds, beside the answer in the phone's language."""
    from playwright.sync_api import expect

    from companion.app import MainLoop
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.setup_flow import TableSetup
    from device import FakeCamera
    from vision.motion import StillnessDetector

    server = serve(create_app(hub, reply_s=0.3), host="127.0.0.1", port=0)
    nothing = "nic nie zostało zapisane"  # the Polish catalog's "nothing was recorded" in the busy box's answer
    with SessionStore(tmp_path / "setup.sqlite3") as store:
        for game, selector in (("race", '[data-option="advanced"]'), ("among", '[data-name="On Budget"]')):
            setup = TableSetup(store, FLOWS[game], {})
            for name in ("Łucja", "Ζωή"):
                setup.handle({"action": "setup_player", "player": name})
            loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 70, np.uint8)]), reader=None, session=None,
                            hub=hub, stillness=StillnessDetector(), setup=setup, sleep=lambda s: None)
            loop.publish()  # the loop is not running: no tap is taken
            with joined_page(browser, server, hub, locale="pl-PL", width=360, height=740,
                             mobile=True) as (page, errors):
                box = page.locator("#setup-option-list input" + selector)
                expect(box).not_to_be_checked()
                box.check()
                expect(page.locator("#setup-result")).to_contain_text(nothing)
                expect(box).not_to_be_checked()
                assert errors == []
    server.shutdown()
