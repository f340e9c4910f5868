"""A box without a touchscreen (``--no-screen``, "a table can play from phones alone"): what the touchscreen
confirms, a joined phone confirms instead (the join secret is the proof of being at the table), and no message
points at a screen that is not there. A box with its touchscreen keeps these the touchscreen's."""

from __future__ import annotations

import numpy as np
import pytest

from companion.actions import Action
from companion.app import MainLoop
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.hub import StateHub
from companion.phone_policy import AWAY_S, PhonePresence
from companion.player_names import parse_players
from companion.session import SessionStore
from device import FakeCamera
from tests.phones import joined_phone, post_through_loop
from tests.test_phone_browser import browser  # noqa: F401 (fixture)
from vision.motion import StillnessDetector


@pytest.fixture
def store(tmp_path):
    with SessionStore(tmp_path / "box.sqlite3") as s:
        yield s


def _race_loop(store, no_screen: bool, clock=None) -> tuple[MainLoop, GameFlow]:
    """A Race for the Galaxy game (Ann, Bob) on the main loop; ``clock``: the phones' presence clock (s)."""
    session = store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {}))
    flow = GameFlow(session, FLOWS["race"])
    hub = StateHub(presence=PhonePresence(clock) if clock is not None else None)
    loop = MainLoop(source=FakeCamera([np.full((240, 320, 3), 60, np.uint8)] * 5), reader=None, hub=hub,
                    stillness=StillnessDetector(), stop_at_end=True, sleep=lambda s: None, session=session, flow=flow,
                    no_screen=no_screen)
    loop.publish()
    return loop, flow


def _act(loop: MainLoop, name: str, client: str | None = "phone-a", **payload):
    return loop.dispatch({"action": Action(name), "origin": "phone", "client": client, **payload})




def test_a_phone_that_lost_its_cookie_takes_its_seat_back_once_the_old_one_is_away(store):
    """A phone that joins again with a new cookie takes its seat back once the old cookie's phone made no request for
    AWAY_S seconds, with or without a touchscreen; before, it is refused saying what to do (and, without a
    touchscreen, pointing at no screen)."""
    for no_screen in (False, True):
        now = [1000.0]
        loop, _flow = _race_loop(store, no_screen, clock=lambda now=now: now[0])
        loop.hub.presence.heard("old-cookie")
        assert _act(loop, "claim_seat", "old-cookie", player="Ann").status == 200
        now[0] += AWAY_S - 1
        again = _act(loop, "claim_seat", "new-cookie", player="Ann")  # the same player, joined again
        assert again.status == 403 and "still here" in again.error and "Give up my seat" in again.error
        assert ("touchscreen" in again.error) is not no_screen and loop.pairing.claims["Ann"] == "old-cookie"
        now[0] += 1  # the old cookie's phone has been quiet AWAY_S seconds: away
        again = _act(loop, "claim_seat", "new-cookie", player="Ann")
        assert again.status == 200 and "moved to this phone" in again.message
        assert loop.pairing.claims["Ann"] == "new-cookie" and loop.view()["box"]["screen"] is (not no_screen)
        refused = _act(loop, "report", "old-cookie", player="Ann", form="hand", values={"cards": 3})
        assert refused.status == 403
        if not no_screen:
            continue
        # the old phone's report for Ann is now refused, and the message points at no screen
        assert "screen" not in refused.error and "take it over once that phone gave it up" in refused.error
        # a phone frees its own seat; a phone that has not joined frees none
        assert _act(loop, "release_seat", "new-cookie", player="Ann").status == 200 and "Ann" not in loop.pairing.claims
        assert _act(loop, "release_seat", None, player="Bob").status == 403
        # a new join code and stopping the box stay the box's own, said without a screen
        for name in ("revoke_phones", "quit"):
            refused = _act(loop, name)
            assert refused.status == 403
            assert "touchscreen's" not in refused.error and "on the touchscreen" not in refused.error


def test_the_tables_undo_from_a_joined_phone_only_without_a_touchscreen(store):
    for no_screen in (False, True):
        loop, flow = _race_loop(store, no_screen)
        phone = joined_phone(loop.hub, reply_s=30)
        loop.publish()
        flow.report("Bob", "hand", {"cards": 4})
        ann = flow.report("Ann", "hand", {"cards": 5})
        loop.publish()
        answer = post_through_loop(phone, loop, "/api/action", {"action": "undo"})
        if no_screen:
            assert answer.status_code == 200, answer.get_json()
            assert ann.seq not in set(flow.session.replay().applied)
        else:
            assert answer.status_code == 403 and ann.seq in set(flow.session.replay().applied)


def test_an_owner_request_is_allowed_at_once_without_a_touchscreen(store):
    loop, _flow = _race_loop(store, no_screen=True)
    answer = _act(loop, "owner_ask", "phone-a")
    assert answer.status == 200 and "touchscreen" not in answer.message
    assert "phone-a" in loop.pairing.owners and loop.view()["box"]["asking"] is None  # nothing left pending
    refused = _act(loop, "change_setting", "phone-b", setting="sound.on", value=False)
    assert refused.status == 403 and "touchscreen" not in refused.error.replace("no touchscreen", "")


def test_a_message_meant_for_one_phone_goes_only_to_that_phone(store):
    """Claiming a seat answers the phone that claimed it ("this phone"); the status line every view shows keeps
    what it said before, also when the claim is refused (another phone holds the seat)."""
    loop, _flow = _race_loop(store, no_screen=False)
    before = loop.view()["status"]["message"]
    answer = _act(loop, "claim_seat", "phone-b", player="Bob")
    assert answer.message == "Bob's seat is claimed by this phone"
    refused = _act(loop, "claim_seat", "phone-c", player="Bob")
    assert refused.status == 403
    loop.publish()
    assert loop.view()["status"]["message"] == before
    assert loop.hub.snapshot().view["status"]["message"] == before
    # what the table did is still said to everyone
    loop.dispatch({"action": Action.NEXT_PHASE, "origin": "touchscreen"})
    assert loop.view()["status"]["message"] != before


@pytest.mark.browser
def test_two_phones_on_a_box_without_a_screen_take_a_seat_over_and_undo_for_the_table(browser, store, output_dir):  # noqa: F811
    """Real browsers: Ann's phone claims her seat; her phone loses its cookie (a new context joins again, the old one
    is gone), taps Ann, confirms the takeover once the old phone has been away two minutes, and reports; the table's
    Undo on the phone withdraws the newest entry."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.phones import LoopThread
    from tests.test_camera_browser import page_for

    now = [1000.0]
    loop, flow = _race_loop(store, no_screen=True, clock=lambda: now[0])
    server = serve(create_app(loop.hub), host="127.0.0.1", port=0)
    pages = []
    try:
        with LoopThread(loop):
            url = f"{server.url}join/{loop.hub.pairing().secret}"
            for _ in range(2):
                pages.append(page_for(browser, url))
            pages.append(page_for(browser, server.url))  # a phone that only watches: no QR code to point it at
            (_, old, _), (_, new, _), (_, watching, _) = pages
            expect(watching.locator("#join-how")).to_contain_text("open the box's join link")
            old.locator("#seats button", has_text="Ann").click()
            expect(old.locator("#me")).to_have_text("Ann")
            expect(new.locator("#seats button", has_text="Ann")).to_contain_text("taken")
            pages[0][0].close()  # the old cookie's phone is gone ...
            now[0] += AWAY_S  # ... for two minutes: away
            new.once("dialog", lambda dialog: dialog.accept())
            new.locator("#seats button", has_text="Ann").click()
            expect(new.locator("#me")).to_have_text("Ann")
            expect(new.locator("#seat-result")).to_contain_text("moved to this phone")
            new.locator("#form-pick").select_option("hand")
            new.locator('#fields [data-field="cards"]').fill("5")
            new.locator("#send").click()
            expect(new.locator("#report-result")).to_contain_text("recorded")
            reported = flow.session.replay().applied[-1]
            undo = new.locator("#table-undo")
            expect(undo).to_be_visible()
            new.screenshot(path=str(output_dir / "phone_no_screen.png"), full_page=True)
            undo.click()
            expect(new.locator("#next-result")).to_have_class("action-result ok")
        assert reported not in flow.session.replay().applied  # withdrawn by the table's Undo, from a phone
    finally:
        for context, _, _ in pages[1:]:
            context.close()
        server.shutdown()
    assert all(errors == [] for _, _, errors in pages)
