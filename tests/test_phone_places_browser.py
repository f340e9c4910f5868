"""A place written in brackets ("[0, 2]") is never split across two lines on a 360 px phone (Debian's chromium via
Playwright), in Greek, Polish and Hungarian; the text the box stores and sends keeps its ordinary space.

The touchscreen keeps a place on one line (``companion/screen/canvas.py`` ``wrap_words``); the phone page wrapped
inside one ("… στο [0," / "2] …"). ``Box.keepPlaces`` (``companion/static/box.js``) draws the spaces inside a place
as no-break spaces, in the page only. Eclipse's refusal of a tile explored onto Bob's starting sector (Explore action:
a new hex goes on an empty space) names the place in a long line.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from companion.web import create_app, serve
from tests.browser_pages import PHONE_360, joined_page
from tests.test_eclipse_browser import report
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

PLACE_LINES = """(node) => {
  // each bracketed place in the element's text: how many line boxes it is drawn on
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    for (const m of t.data.matchAll(/\\[[^\\[\\]]{0,16}\\]/g)) {
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      out.push([m[0], tops.size]);
    }
  }
  return out;
}"""


@contextmanager
def anns_phone(browser, hub, tmp_path, locale):  # noqa: F811
    """An Eclipse game on the box with Ann's starting sector 221 Procyon at [0, -2] and Bob's 232 Rigel at [0, 2],
    and Ann's phone joined in ``locale`` at 360 px: yields ``(flow, page, errors, before)``, ``before`` the last
    event's number once both sectors are laid."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "eclipse", species=["Terran Directorate", "Orion Hegemony"]) as flow:
            for player, sector, cell in (("Ann", "221 Procyon", [0, -2]), ("Bob", "232 Rigel", [0, 2])):
                answer = hub.request("report", origin="cli", timeout=5, player=player, form="home",
                                     values={"sector": sector, "hex": cell, "rotation": 0})
                assert answer is not None and answer["status"] == 200, answer
            before = flow.session.last_seq
            with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                yield flow, page, errors, before
    finally:
        server.shutdown()


@pytest.mark.parametrize("locale", ["el-GR", "pl-PL", "hu-HU"])
def test_a_place_in_a_refusal_stays_on_one_line_on_a_narrow_phone(browser, hub, tmp_path, output_dir, locale):  # noqa: F811
    from playwright.sync_api import expect

    with anns_phone(browser, hub, tmp_path, locale) as (flow, page, errors, before):
        report(page, "explore", sector="103 Beta Leonis", hex=(0, 2), rotation=0, **{"from": (0, -2)})
        result = page.locator("#report-result")
        expect(result).to_contain_text("232 Rigel")
        text = result.evaluate("node => node.textContent")
        assert "[0,\u00a02]" in text and "[0, 2]" not in text, text  # drawn with a no-break space
        places = result.evaluate(PLACE_LINES)
        assert places == [["[0,\u00a02]", 1]], places
        assert flow.session.last_seq == before  # refused: nothing recorded
        result.scroll_into_view_if_needed()
        page.screenshot(path=str(output_dir / f"phone_place_{locale}.png"))
        # the page's helper: a place's inner spaces only; a long bracket (a list) and the text around are kept
        assert page.evaluate("Box.keepPlaces('a [0, 0] b [-12, 5]')") == "a [0,\u00a00] b [-12,\u00a05]"
        long_list = "[Main Reactor, Power Reactor]"
        assert page.evaluate(f"Box.keepPlaces('{long_list}')") == long_list
        assert errors == []


HEX_LINES = """(node) => {
  // each hex written as a pair in round brackets, with the word before it: how many line boxes it is drawn on
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const out = [];
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    for (const m of t.data.matchAll(/\\p{L}+\\s\\(-?\\d+,\\s-?\\d+\\)/gu)) {
      const range = document.createRange();
      range.setStart(t, m.index);
      range.setEnd(t, m.index + m[0].length);
      out.push([m[0], new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("locale", ["el-GR", "pl-PL", "hu-HU"])
def test_a_hex_named_in_a_note_stays_on_one_line_with_its_word(browser, hub, tmp_path, locale):  # noqa: F811
    """Eclipse names where a note was found as "hex (0, -1)" ("heks (0, -1)" in Polish): at 360 px it broke across
    lines ("heks (0," / "-1)", or "heks" / "(0, -1)"). Ann moves a ship onto a space where no hex lies: the note's
    place is drawn with no-break spaces, on one line with its word, in each language; what the box stores keeps its
    ordinary spaces."""
    from playwright.sync_api import expect

    with anns_phone(browser, hub, tmp_path, locale) as (flow, page, errors, before):
        report(page, "move", **{"from": (0, -2), "to": (0, -1), "ship": "Interceptor"})
        notes = page.locator("#findings")
        expect(notes).to_contain_text("(0,\u00a0-1)")
        places = notes.evaluate(HEX_LINES)
        assert places and all(lines == 1 and "\u00a0(0,\u00a0-1)" in place for place, lines in places), places
        assert any("(0, -1)" in f["where"] for f in flow.view()["findings"])  # stored with ordinary spaces
        assert page.evaluate("Box.keepPlaces('heks (0, 2) i x (-12, 3), [0, 1]')") == (
            "heks\u00a0(0,\u00a02) i x\u00a0(-12,\u00a03), [0,\u00a01]")
        assert page.evaluate("Box.keepPlaces('(1, 2)')") == "(1,\u00a02)"
        assert page.evaluate("Box.keepPlaces('(Main Reactor, 2)')") == "(Main Reactor, 2)"
        assert errors == []


def test_the_touchscreen_wraps_a_hex_with_its_word_as_one():
    """The touchscreen's wrapping (``wrap_words``) keeps "heks (0, -2)" and "εξάγωνο (0, 2)" whole, with what
    touches them, as it keeps "[0, 1]"."""
    from companion.screen.canvas import wrap_words

    assert wrap_words("Ruch: heks (0, -2), koniec [0, 1]") == ["Ruch:", "heks (0, -2),", "koniec", "[0, 1]"]
    assert wrap_words("στο εξάγωνο (0, 2) τώρα") == ["στο", "εξάγωνο (0, 2)", "τώρα"]
    assert wrap_words("(Main Reactor, 2) x") == ["(Main", "Reactor,", "2)", "x"]
