"""A long list of notes on a 360 px phone in Chromium: unfolded, "Show only the newest notes" heads the list and stays
on the screen while the player scrolls through it (it sat at the foot of 60 notes), folding brings the notes' top
back into view, and the whole list comes compressed and is read whole by the phone."""

from __future__ import annotations

import pytest

from companion.hub import StateHub
from companion.i18n import Text
from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_phone_browser import browser  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

#: Roll for the Galaxy p.1 Components: each tile exists once (hand-made notes; the wording is the engine's own).
NOTE = "the tile {tile} is not in the bag (another player has it)"


def _notes(n: int) -> list[dict]:
    return [{"what": Text(NOTE, tile=f"Gem World {k}"), "where": "Ann", "rule": "Roll for the Galaxy, p.1",
             "severity": "error", "todo": ""} for k in range(n, 0, -1)]  # newest first


def _publish(hub: StateHub, n: int) -> None:
    notes = _notes(n)
    hub.publish({"mode": "play", "game": {"flow": "roll", "title": "Roll for the Galaxy", "findings": notes[:6],
                                          "findings_total": n, "all_findings": notes}})


def _on_screen(page, selector: str) -> bool:
    """Whether the element is wholly inside the phone's screen now."""
    return page.evaluate("""(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                                       return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
                         selector)


@pytest.mark.parametrize("locale, more, fewer, one_more", [
    ("en-GB", "Show 54 older notes", "Show only the newest notes", "Show 55 older notes"),
    ("pl-PL", "Pokaż 54 starsze uwagi", "Pokaż tylko najnowsze uwagi", "Pokaż 55 starszych uwag"),  # Polish plurals
])
def test_the_newest_only_button_stays_where_the_player_is(browser, output_dir,  # noqa: F811
                                                         locale, more, fewer, one_more):
    from playwright.sync_api import expect

    hub = StateHub()
    _publish(hub, 60)
    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
            notes = page.locator("#findings li")
            expect(notes).to_have_count(6)
            button = page.locator("#findings-more")
            expect(button).to_have_text(more)
            # folded: the button follows the newest notes, where the older ones would go
            assert page.evaluate("document.querySelector('#findings').nextElementSibling.id") == "findings-more"
            button.click()
            expect(notes).to_have_count(60)
            expect(button).to_have_text(fewer)
            assert page.evaluate("document.querySelector('#findings').previousElementSibling.id") == "findings-more"
            # the whole list came compressed (Chromium accepts zstd, br and gzip) and was read whole
            sizes = page.evaluate("""() => performance.getEntriesByType('resource')
                                      .filter((e) => e.name.endsWith('/api/findings'))
                                      .map((e) => [e.encodedBodySize, e.decodedBodySize])""")
            assert sizes and all(0 < coded < whole / 3 for coded, whole in sizes), sizes
            notes.nth(40).scroll_into_view_if_needed()
            assert not _on_screen(page, "#findings li:first-child")  # deep in the list
            assert _on_screen(page, "#findings-more")  # and the button still on the screen
            box = button.bounding_box()
            assert box["height"] >= 40 and box["x"] + box["width"] <= 360  # a thumb's target, inside the phone
            page.screenshot(path=str(output_dir / f"notes-list-scrolled-{locale}.png"))
            button.click()
            expect(notes).to_have_count(6)
            expect(button).to_have_text(more)
            assert _on_screen(page, "#findings li:first-child")  # the newest note back in view
            assert page.evaluate("document.querySelector('#findings').nextElementSibling.id") == "findings-more"
            _publish(hub, 61)  # a new note while folded: the button below says one more
            expect(button).to_have_text(one_more)
            assert errors == []
    finally:
        server.shutdown()
