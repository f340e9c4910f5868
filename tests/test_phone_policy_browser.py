"""The phone pages in Chromium when the policy refuses (companion.phone_policy): leaving a game from a phone without a
touchscreen, and phones asking for a held seat while the table answers another."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from companion.modes import ModeName
from companion.web import create_app
from tests.browser_pages import PHONE_390, joined_page
from tests.test_phone_browser import browser  # noqa: F401 (fixture)
from tests.test_phone_policy import _race_in_play


@pytest.mark.browser
def test_without_a_touchscreen_a_players_phone_leaves_the_game_and_a_watchers_is_told_why_not(store, tmp_path, browser,  # noqa: F811
                                                                                               output_dir):
    """Real browsers on a box without a touchscreen: during play the phone page offers Games; a joined phone holding no
    seat says yes to "Leave Race for the Galaxy?" and is refused, said why; Ann's phone (her seat) leaves it and both
    pages follow the box to the chooser."""
    from playwright.sync_api import expect

    from companion.web import serve
    from tests.phones import LoopThread

    loop = _race_in_play(store, tmp_path, no_screen=True)
    loop.publish()
    server = serve(create_app(loop.hub), host="127.0.0.1", port=0)
    pages = []
    try:
        with LoopThread(loop), ExitStack() as opened:
            pages = [opened.enter_context(joined_page(browser, server, loop.hub, **PHONE_390)) for _ in range(2)]
            (ann, _), (watcher, _) = pages
            ann.locator("#seats button", has_text="Ann").click()
            expect(ann.locator("#me")).to_have_text("Ann")
            asked: list[str] = []

            def yes(dialog) -> None:
                asked.append(dialog.message)
                dialog.accept()

            games = watcher.locator("#box-nav button", has_text="Games")
            expect(games).to_be_visible()
            watcher.once("dialog", yes)
            games.click()
            expect(watcher.locator("#nav-result")).to_contain_text("only a player's phone leaves it before it is over")
            expect(watcher.locator("#nav-result")).to_have_class("action-result error")
            assert asked == ["Leave Race for the Galaxy? It stays open: Resume brings it back."]
            watcher.screenshot(path=str(output_dir / "phone_leave_refused.png"), full_page=True)
            assert loop.mode_name is ModeName.PLAY
            ann.once("dialog", yes)
            ann.locator("#box-nav button", has_text="Games").click()
            for page in (ann, watcher):  # the box moved: every page follows it to the chooser
                expect(page.locator("#choose-section")).to_be_visible()
        assert loop.mode_name is ModeName.CHOOSE
    finally:
        server.shutdown()
    assert all(errors == [] for _, errors in pages)


@pytest.mark.browser
def test_phones_asking_for_a_held_seat_are_told_who_the_table_answers_and_a_seat_given_up_ends_the_question(
        store, tmp_path, browser, output_dir):  # noqa: F811
    """Real browsers on a box with a touchscreen: Ann's phone holds her seat; Bob's phone taps it and the touchscreen
    asks the table; Carol's phone taps it too and is told the table is answering another phone's request (its page
    says so); Ann gives her seat up on her phone: the touchscreen stops asking, and Carol's next tap takes the seat."""
    from playwright.sync_api import expect

    from companion.web import serve
    from tests.phones import LoopThread

    loop = _race_in_play(store, tmp_path)
    loop.publish()
    server = serve(create_app(loop.hub), host="127.0.0.1", port=0)
    pages = []
    try:
        with LoopThread(loop), ExitStack() as opened:
            pages = [opened.enter_context(joined_page(browser, server, loop.hub, **PHONE_390)) for _ in range(3)]
            (ann, _), (bob, _), (carol, _) = pages
            for page in (ann, bob, carol):
                page.on("dialog", lambda dialog: dialog.accept())  # "Take it over?", "Give up Ann's seat?"
            ann.locator("#seats button", has_text="Ann").click()
            expect(ann.locator("#me")).to_have_text("Ann")
            bob.locator("#seats button", has_text="Ann").click()
            expect(bob.locator("#seat-result")).to_contain_text("the box's touchscreen now asks the table")
            carol.locator("#seats button", has_text="Ann").click()
            expect(carol.locator("#seat-result")).to_have_text(
                "the box's touchscreen is asking the table about another phone's request right now: tap again once "
                "the table has answered it")
            expect(carol.locator("#seat-result")).to_have_class("action-result error")
            carol.screenshot(path=str(output_dir / "phone_table_busy.png"), full_page=True)
            asking = loop.hub.snapshot().view["box"]["asking"]  # what the touchscreen shows (published)
            assert asking["question"].startswith("A phone asks for Ann's seat")
            ann.locator("#give-up-seat").click()
            expect(ann.locator("#seat-result")).to_contain_text("Ann's seat is free")
            assert loop.hub.snapshot().view["box"]["asking"] is None  # published before the answer: not asked now
            carol.locator("#seats button", has_text="Ann").click()
            expect(carol.locator("#me")).to_have_text("Ann")
        assert loop.view()["box"]["asking"] is None and list(loop.pairing.claims) == ["Ann"]
        assert loop.mode_name is ModeName.PLAY and loop.flow.session.last_seq == 0
    finally:
        server.shutdown()
    assert all(errors == [] for _, errors in pages)
