"""The phone page on a 360 px phone (Debian's chromium via Playwright) in Greek, Polish and Hungarian: every text the
page sets keeps a bracketed place ("[0, 2]") and an Eclipse sector's number with its name ("232 Rigel") on one line,
in what is drawn only; the report form's undo button reads on at most two lines.

Before: the Next explanation, the seat hint and the other direct texts were set as they came (only the report result,
the note, the message and the findings kept their places); a Polish refusal could end a line with "232" and start the
next with "Rigel"; "Cofnij moje ostatnie zgłoszenie" took three lines in half of the row, as did Hungarian's
"Utolsó bejelentésem visszavonása".
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.test_eclipse_browser import report
from tests.test_phone_browser import browser  # noqa: F401 (fixture)
from tests.test_phone_places_browser import anns_phone

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parent.parent / "companion" / "static"

LINES_OF = """(node, [start, end]) => {
  // how many line boxes the characters start..end of the node's text are drawn on (end -1: all of it)
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  const text = walker.nextNode();
  const range = document.createRange();
  range.setStart(text, start);
  range.setEnd(text, end < 0 ? text.data.length : end);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


def test_every_text_the_page_sets_is_drawn_through_the_keeping():
    """No script of the phone pages sets a node's text without Box.drawn (box.js: its own drawn)."""
    loose = []
    for script in sorted(STATIC.glob("*.js")):
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1):
            for m in re.finditer(r"\.textContent = (.{0,12})", line):
                if not re.match(r"(Box\.)?drawn\(", m.group(1)):
                    loose.append(f"{script.name}:{number}: {line.strip()}")
    assert loose == []


@pytest.mark.parametrize("locale, lang", [("el-GR", "el"), ("pl-PL", "pl"), ("hu-HU", "hu")])
def test_places_sectors_and_the_undo_button_on_a_narrow_phone(browser, hub, tmp_path, output_dir, locale, lang):  # noqa: F811
    from playwright.sync_api import expect

    with anns_phone(browser, hub, tmp_path, locale) as (flow, page, errors, before):
        # the drawing helper: places and sectors kept, nothing else; null draws nothing
        drawn = page.evaluate("""() => [Box.drawn("a [0, 0] at 232 Rigel, 103 Beta Leonis"), Box.drawn(null),
                                       Box.drawn(undefined), Box.drawn("1232 Rigel x232 Rigel 232 rigel 23 VP"),
                                       Box.drawn(7)]""")
        assert drawn == ["a [0,\u00a00] at 232\u00a0Rigel, 103\u00a0Beta Leonis", "", "",
                         "1232 Rigel x232 Rigel 232 rigel 23 VP", "7"]

        # the undo button: its words whole, on at most two lines, inside the phone's width
        undo = page.locator("#undo-report")
        width = undo.evaluate("node => [node.getBoundingClientRect().right, node.scrollWidth <= node.clientWidth]")
        assert width[0] <= 360 and width[1], width
        undo_lines = undo.evaluate(LINES_OF, [0, -1])
        assert undo_lines <= 2, (lang, undo.text_content(), undo_lines)

        # a refusal naming Bob's sector: "232 Rigel" on one line, the place too; nothing recorded
        report(page, "explore", sector="103 Beta Leonis", hex=(0, 2), rotation=0, **{"from": (0, -2)})
        result = page.locator("#report-result")
        expect(result).to_contain_text("Rigel")
        text = result.text_content()
        assert "232\u00a0Rigel" in text and "232 Rigel" not in text, text
        start = text.index("232\u00a0Rigel")
        assert result.evaluate(LINES_OF, [start, start + len("232 Rigel")]) == 1
        assert flow.session.last_seq == before  # refused: nothing recorded
        # what the box keeps and sends has no no-break space: the keeping is in the drawing alone
        assert page.locator('#fields [data-field="sector"]').input_value() == "103 Beta Leonis"
        assert "\u00a0" not in str(hub.snapshot().view)
        result.scroll_into_view_if_needed()
        page.screenshot(path=str(output_dir / f"phone_narrow_{lang}.png"))
        assert errors == []
