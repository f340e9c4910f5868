"""A five-player Roll for the Galaxy table on 360 px phones in Chromium: every note of the game reaches the phone
(a state carried only the 6 newest, so older misplays never showed), behind "Show N older notes", and the
developments still in the bag, the same for every seat, are sent once for all five and still listed under their
heading. The setups clash on purpose (Roll for the Galaxy, p.1 Components: each tile exists once; p.2 Setup: two
different tiles a player), so the box has more than 6 notes to say."""

from __future__ import annotations

import json

import pytest

from companion.web import create_app, serve
from tests.browser_pages import joined_page
from tests.test_flow import faction_label
from tests.test_phone_browser import browser, flow_on_the_box  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

NAMES = ("Νίκος", "Kasia", "Ádám", "Ann", "Bob")
#: (faction, home world, starting development, starting world): Ann's two starting tiles are one tile's two sides,
#: and Ádám's world is a tile another player holds: two setup errors.
SETUPS = ((1, "Old Earth", "Advanced Logistics", "Spice World"),
          (2, "Alpha Centauri", "Alien Research Team", "Information Hub"),
          (3, "Earth's Lost Colony", "Backup Planning", "Rebel Warrior Race"),
          (4, "Ancient Race", "Conscription", "Gem World"),
          (5, "New Sparta", "Export Duties", "Trading World"))


def _tell(hub, player, form, values) -> None:
    answer = hub.request("report", origin="cli", timeout=5, player=player, form=form, values=values)
    assert answer is not None and answer["status"] == 200, answer


def _five_in_develop(hub) -> None:
    """The five players of :data:`NAMES` set up, each selects Develop, and the table is taken to II Develop."""
    for name, (faction, home, development, world) in zip(NAMES, SETUPS, strict=True):
        _tell(hub, name, "setup", {"faction": faction_label(faction), "home_world": home,
                                   "development": development, "world": world})
    for name in NAMES:
        _tell(hub, name, "select", {"phase": "develop"})
    for _ in range(2):  # Reveal, II Develop
        assert hub.request("next_phase", origin="cli", timeout=5)["status"] == 200


@pytest.mark.parametrize("locale, more, fewer", [
    ("pl-PL", "Pokaż 2 starsze uwagi", "Pokaż tylko najnowsze uwagi"),
    ("hu-HU", "2 régebbi megjegyzés megjelenítése", "Csak a legújabb megjegyzések"),
    ("el-GR", "Δείτε 2 παλαιότερες σημειώσεις", "Μόνο οι νεότερες σημειώσεις"),
])
def test_every_note_of_the_game_opens_on_the_phone_and_the_bag_is_sent_once(browser, hub, tmp_path, output_dir,  # noqa: F811
                                                                           locale, more, fewer):
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll", ",".join(NAMES)) as flow:
            _five_in_develop(hub)
            for k, name in enumerate(NAMES):  # each reports the next player's starting development built
                _tell(hub, name, "tile", {"tile": SETUPS[(k + 1) % len(NAMES)][2]})
            every = flow.findings(limit=None)
            assert len(every) == 8  # 5 builds of another's tile, 2 setup clashes, Conscription's die to remove

            with joined_page(browser, server, hub, locale=locale, mobile=True) as (page, errors):
                state = page.evaluate("fetch('/api/state').then((r) => r.json())")
                game = state["game"]
                assert "all_findings" not in game and game["findings_total"] == 8 and len(game["findings"]) == 6
                # the bag's developments: one list for the five seats, each seat's group pointing at it
                assert len(game["choice_lists"]) == 1
                bag = game["choice_lists"][0]
                assert bag == flow.view()["choice_groups"]["Ann"]["tile"]["tile"]["groups"][-1]["choices"]
                for name in NAMES:
                    groups = game["choice_groups"][name]["tile"]["tile"]["groups"]
                    assert groups[-1]["choices"] == 0 and json.dumps(bag) not in json.dumps(groups)

                notes = page.locator("#findings li")
                expect(notes).to_have_count(6)
                button = page.locator("#findings-more")
                expect(button).to_have_text(more)
                button.click()
                expect(notes).to_have_count(8)
                expect(button).to_have_text(fewer)
                asked = page.evaluate("fetch('/api/findings').then((r) => r.json())")
                shown = notes.evaluate_all("ls => ls.map((l) => l.firstChild.textContent)")
                assert shown == [f["what"] for f in asked["findings"]]  # newest first, as the box keeps them
                page.locator("#findings-section").screenshot(path=str(output_dir / f"every-note-{locale}.png"))
                box = button.bounding_box()
                assert box["height"] >= 40 and box["x"] + box["width"] <= 360  # a thumb's target, inside the phone
                # another report while unfolded: the new note joins the whole list
                _tell(hub, "Ann", "tile", {"tile": SETUPS[0][3]})  # Νίκος's starting world
                assert len(flow.findings(limit=None)) == 10  # not in her zone, and a world in II Develop
                expect(notes).to_have_count(10)
                button.click()
                expect(notes).to_have_count(6)
                expect(button).to_have_text(more.replace("2", "4"))

                # Tile built: the shared list is put back under the phase's heading on Ann's phone
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                page.locator("#form-pick").select_option("tile")
                labels = page.locator("#fields optgroup").evaluate_all("gs => gs.map((g) => g.children.length)")
                assert labels[-2] == len(bag) and sum(labels) == 110  # every tile side offered, each once
            assert errors == []
    finally:
        server.shutdown()


def test_what_next_answered_goes_once_the_game_moves_on(browser, hub, tmp_path):  # noqa: F811
    """A phone's Next answers with the phase it started ("Round 1: II Develop"); at a five-player table that line
    stood under the round for the rest of the game, "Round 5: IV Produce" still under "Game over". It stays until
    anything more is recorded, from any phone (here Bob's tile built), then gives way to the round as it stands."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll", "Ann,Bob"):
            for name, (faction, home, development, world) in zip(("Ann", "Bob"), SETUPS[3:], strict=True):
                _tell(hub, name, "setup", {"faction": faction_label(faction), "home_world": home,
                                           "development": development, "world": world})
                _tell(hub, name, "select", {"phase": "develop"})
            with joined_page(browser, server, hub, mobile=True) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                for label in ("Next: Reveal", "Next: Develop"):
                    expect(page.locator("#phone-next")).to_have_text(label)
                    page.locator("#phone-next").click()
                said = page.locator("#next-result")
                expect(said).to_have_text("Round 1: II Develop")
                expect(page.locator("#round-label")).to_contain_text("Round 1")
                _tell(hub, "Bob", "tile", {"tile": SETUPS[4][2]})  # his starting development, built
                expect(said).to_have_text("")
                expect(page.locator("#note")).to_have_text("Develop: report what you built, produced, shipped")
            assert errors == []
    finally:
        server.shutdown()


def test_a_note_made_while_the_box_does_not_answer_for_every_note_still_shows(browser, hub, tmp_path):  # noqa: F811
    """Unfolded, each new state asks the box for every note; when that ask is not answered (the read limit, the box
    restarting: here 503), the phone kept the whole list it had, without the note just made, so a player who had
    built another's tile saw nothing. Now the state's newest notes are drawn, the new one first."""
    from playwright.sync_api import expect

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "roll", ",".join(NAMES)) as flow:
            _five_in_develop(hub)
            for k, name in enumerate(NAMES[:3]):  # each reports the next player's starting development built
                _tell(hub, name, "tile", {"tile": SETUPS[(k + 1) % len(NAMES)][2]})
            assert len(flow.findings(limit=None)) == 6  # 3 builds of another's tile, 2 setup clashes, Conscription
            _tell(hub, NAMES[3], "tile", {"tile": SETUPS[4][2]})
            with joined_page(browser, server, hub, mobile=True) as (page, errors):
                notes = page.locator("#findings li")
                page.locator("#findings-more").click()
                expect(notes).to_have_count(7)
                page.route("**/api/findings", lambda route: route.fulfill(status=503, body="{}"))
                _tell(hub, NAMES[4], "tile", {"tile": SETUPS[0][2]})  # Νίκος's starting development
                newest = flow.findings()[0]["what"]
                assert "Advanced Logistics" in newest
                expect(notes.first).to_contain_text("Advanced Logistics")
            assert errors == []
    finally:
        server.shutdown()
