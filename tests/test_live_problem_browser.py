"""The connection pill of a phone's live view after the box could not send something, in a real browser (Debian's
chromium via Playwright; the page's own scripts, its event stream replaced by one the test drives).

A ``problem`` event says what the box could not send in the pill. One about this phone's seats (``version``
null: ``/api/me`` could not be written) was never cleared by the good ``me`` that followed: on a quiet table (a
finished game's scores) the pill kept saying the box could not send the game's state until the next change."""

from __future__ import annotations

import json

import pytest

from tests.browser_pages import joined_page
from tests.test_evening_browser import box  # noqa: F401  (the box fixture)
from tests.test_phone_browser import browser  # noqa: F401  (the browser fixture)

pytestmark = pytest.mark.browser

#: An EventSource the test drives: every stream the page opens is kept in ``window.__streams``; ``fire(type, data)``
#: hands its listeners an event as the browser would.
FAKE_STREAM = """
window.__streams = [];
window.EventSource = class {
  constructor(url) { this.url = url; this.readyState = 1; this.listeners = {}; window.__streams.push(this); }
  addEventListener(type, listener) { (this.listeners[type] = this.listeners[type] || []).push(listener); }
  close() { this.readyState = 2; }
  fire(type, data) { (this.listeners[type] || []).forEach((listener) => listener({ data: data })); }
};
window.EventSource.CLOSED = 2;
"""

FIRE = "([type, data]) => window.__streams[window.__streams.length - 1].fire(type, data)"
PILL = "() => [document.getElementById('connection').className, document.getElementById('connection').textContent]"


def test_the_pill_clears_when_what_could_not_be_sent_is_sent_again(browser, box):  # noqa: F811
    """A phone's ``me`` the box could not write, then a good one: the pill says the problem, then "live" again; a
    state that could not be written keeps its problem in the pill through a good ``me`` until the next state."""
    _loop, hub, server = box
    with joined_page(browser, server, hub, init_script=FAKE_STREAM) as (page, errors):
        page.wait_for_function("window.__streams.length > 0")
        state = page.evaluate("fetch('/api/state').then((r) => r.text())")
        me = page.evaluate("fetch('/api/me').then((r) => r.text())")
        page.evaluate(FIRE, ["open", ""])
        page.evaluate(FIRE, ["state", state])
        page.evaluate(FIRE, ["me", me])
        assert page.evaluate(PILL) == ["conn live", "live"]

        said = "The box could not send the game's state (KeyError)"
        page.evaluate(FIRE, ["problem", json.dumps({"error": said, "version": None})])
        assert page.evaluate(PILL) == ["conn reconnecting", said]
        page.evaluate(FIRE, ["me", me])  # this phone's seats sent again: nothing is missing any more
        assert page.evaluate(PILL) == ["conn live", "live"]

        version = json.loads(state)["version"]
        page.evaluate(FIRE, ["problem", json.dumps({"error": said, "version": version + 1})])
        page.evaluate(FIRE, ["me", me])  # the state that could not be sent is still missing
        assert page.evaluate(PILL) == ["conn reconnecting", said]
        page.evaluate(FIRE, ["state", json.dumps(dict(json.loads(state), version=version + 2))])
        assert page.evaluate(PILL) == ["conn live", "live"]
    assert errors == []


def test_a_phone_polling_says_a_state_the_box_could_not_send_then_live_again(browser, box):  # noqa: F811
    """A browser with no event streams polls /api/state: a state the box cannot write (500 and what went wrong) is
    said in the pill, not "live"; the next good state clears it. Before, the error's body was taken for a state,
    dropped, and the pill said "live (every 3 s)" all along."""
    import copy
    import re

    from playwright.sync_api import expect

    _loop, hub, server = box
    with joined_page(browser, server, hub, init_script="window.EventSource = undefined;") as (page, errors):
        pill = page.locator("#connection")
        expect(pill).to_have_text("live (every 3 s)")
        good = hub.snapshot().view
        bad = copy.deepcopy(good)
        itself: list = []
        itself.append(itself)
        bad["held"] = itself
        hub.publish(bad)
        expect(pill).to_have_text(re.compile(r"could not send the game's state \(ValueError\)"))
        expect(pill).to_have_class(re.compile("reconnecting"))
        hub.publish(good)
        expect(pill).to_have_text("live (every 3 s)")
    assert errors == []
