"""Every Among the Stars text a player reads names a station place from that player's Main Reactor, the way the
camera's questions do ("1 right of the Main Reactor"), never as "[0, 1]": rules findings and refusals, the flow's
notes and the phone's choices, in every language; the JSON keeps the cell as [row, column].

The places are hand-worked on rulebook 5.1's grid (the Main Reactor the first card, rows down and columns right as
the reactor reads).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.camera import Proposal
from companion.errors import BadEntry
from companion.flows.among import AMONG_CAMERA
from rules.among_the_stars.data import catalogue
from rules.among_the_stars.legality import check_placement, issue_finding
from rules.among_the_stars.station import Placed, Station, station_place
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import start
from tests.test_phone_browser import browser  # noqa: F401 (fixture)


@pytest.mark.parametrize("cell, en, el, pl, hu", [
    ((0, 0), "on the Main Reactor", "στη θέση του Main Reactor", "na karcie Main Reactor", "a Főreaktor kártyán"),
    ((0, 3), "3 right of the Main Reactor", "3 δεξιά από τον Main Reactor", "3 w prawo od karty Main Reactor",
     "a Főreaktor kártyától 3 hellyel jobbra"),
    ((-1, 0), "1 above the Main Reactor", "1 πάνω από τον Main Reactor", "1 w górę od karty Main Reactor",
     "a Főreaktor kártyától 1 hellyel feljebb"),
    ((1, 3), "1 below and 3 right of the Main Reactor", "1 κάτω και 3 δεξιά από τον Main Reactor",
     "1 w dół i 3 w prawo od karty Main Reactor", "a Főreaktor kártyától 1 hellyel lejjebb és 3 hellyel jobbra"),
    ((-2, -1), "2 above and 1 left of the Main Reactor", "2 πάνω και 1 αριστερά από τον Main Reactor",
     "2 w górę i 1 w lewo od karty Main Reactor", "a Főreaktor kártyától 2 hellyel feljebb és 1 hellyel balra"),
])
def test_a_station_place_in_every_language(cell, en, el, pl, hu):
    place = station_place(cell)
    assert [i18n.say(place, lang) for lang in ("en", "el", "pl", "hu")] == [en, el, pl, hu]


def _market_place_off_the_station():
    """A Main Reactor alone and a Market Place (a location) tapped at [1, 3]: diagonal to nothing, no shared edge
    (rulebook 4 'Build a location': a location touches the station along an edge)."""
    cat = catalogue()
    station = Station((Placed(cat.card("Main Reactor"), (0, 0), order=0, cubes=3),))
    market = cat.card("Market Place")
    issue = next(i for i in check_placement(station, market, (1, 3), cat=cat) if i.rule == "adjacency")
    return issue, issue_finding(issue, "Ann", fix="")


@pytest.mark.parametrize("lang, what, where", [
    ("en", "Market Place (1 below and 3 right of the Main Reactor) shares no edge with the station",
     "Ann: Market Place (1 below and 3 right of the Main Reactor)"),
    ("el", "Market Place (1 κάτω και 3 δεξιά από τον Main Reactor): δεν έχει κοινή πλευρά με τον σταθμό",
     "Ann: Market Place (1 κάτω και 3 δεξιά από τον Main Reactor)"),
    ("pl", "Market Place (1 w dół i 3 w prawo od karty Main Reactor) nie styka się bokiem ze stacją",
     "Ann: Market Place (1 w dół i 3 w prawo od karty Main Reactor)"),
    ("hu", "(a Főreaktor kártyától 1 hellyel lejjebb és 3 hellyel jobbra) nem oldalszomszédos az űrállomással",
     "(a Főreaktor kártyától 1 hellyel lejjebb és 3 hellyel jobbra)"),
])
def test_a_finding_names_the_place_from_the_main_reactor_and_keeps_the_cell(lang, what, where):
    issue, finding = _market_place_off_the_station()
    assert what in i18n.say(finding.what, lang) and where in i18n.say(finding.where, lang)
    assert "[" not in i18n.say(finding.what, lang) + i18n.say(finding.where, lang)
    assert finding.cell == (1, 3) and finding.to_json()["cell"] == [1, 3]


def test_a_refusal_names_the_places_to_move_to():
    """The fix names the free places nearest the one tapped, each from the Main Reactor."""
    from rules.among_the_stars.legality import fix_for

    issue, _ = _market_place_off_the_station()
    cat = catalogue()
    station = Station((Placed(cat.card("Main Reactor"), (0, 0), order=0, cubes=3),))
    fix = i18n.say(fix_for([issue], station, cat.card("Market Place"), (1, 3), cat=cat), "en")
    assert fix.startswith("move it to one of these places: 1 right of the Main Reactor") and "[" not in fix, fix


@pytest.mark.parametrize("lang, refused", [
    ("en", "Solar Panels: no reactor beside it lies 2 below the Main Reactor; choose one of: on the Main Reactor"),
    ("el", "Solar Panels: δεν υπάρχει αντιδραστήρας δίπλα της 2 κάτω από τον Main Reactor· επιλέξτε έναν από: "
           "στη θέση του Main Reactor"),
    ("pl", "Solar Panels: obok niej nie ma reaktora 2 w dół od karty Main Reactor; wybierz jeden z: "
           "na karcie Main Reactor"),
    ("hu", "nincs mellette erőmű itt: a Főreaktor kártyától 2 hellyel lejjebb; válassz ezek közül: "
           "a Főreaktor kártyán"),
])
def test_a_phone_refusal_names_the_place_in_the_phones_language(store, lang, refused):
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as out:
        flow.report("Ann", "location", {"card": "Solar Panels", "cell": [1, 0], "reactor": [2, 0]})
    assert refused in i18n.say(out.value, lang)
    assert flow.session.last_seq == 0  # nothing recorded


def test_the_cameras_misplay_names_the_place_and_keeps_the_cell(store):
    """A Market Place read at [1, 3] beside nothing: the phone's misplay row says the place as the question does,
    its JSON cell stays [1, 3]."""
    flow = start(store, "among", "Ann,Bob,Cy")
    rows = AMONG_CAMERA._misplays(flow, "Ann", {}, {}, _Change([("Market Place", (1, 3))]))
    adjacency = next(r for r in rows if r["rule"] == "adjacency")
    assert adjacency["cell"] == [1, 3]
    assert i18n.say(adjacency["place"], "pl") == "1 w dół i 3 w prawo od karty Main Reactor"
    assert "[" not in i18n.say(adjacency["message"], "el")
    assert isinstance(_question(), Proposal)


class _Change:
    def __init__(self, placed):
        self.placed, self.moved = placed, []


def _question() -> Proposal:
    return AMONG_CAMERA._proposal("Ann", "Market Place", (1, 3))


@pytest.mark.browser
@pytest.mark.parametrize("lang, locale, main, power, free", [
    ("el", "el-GR", "Main Reactor: 2 κύβοι ενέργειας",
     "Power Reactor (1 κάτω από τον Main Reactor): 2 κύβοι ενέργειας", "ελεύθερη θέση: 2 κάτω από τον Main Reactor"),
    ("pl", "pl-PL", "Main Reactor: 2 kostki energii",
     "Power Reactor (1 w dół od karty Main Reactor): 2 kostki energii", "wolne miejsce: 2 w dół od karty Main Reactor"),
    ("hu", "hu-HU", "Főreaktor: 2 energiakocka",
     "Erőmű (a Főreaktor kártyától 1 hellyel lejjebb): 2 energiakocka",
     "szabad hely: a Főreaktor kártyától 2 hellyel lejjebb"),
])
def test_the_phone_offers_each_reactor_by_its_place_at_360_px(browser, hub, tmp_path, output_dir,  # noqa: F811
                                                                lang, locale, main, power, free):
    """Chromium, a 360 px phone: Ann's Power Reactor built 1 below her Main Reactor; a Turret tapped 2 below offers
    both reactors, each named by its place from the Main Reactor (the Main Reactor by its name alone), in the phone's
    language, within the screen; the place chosen shows whole on the closed dropdown (it was cut at "(1 κάτω από τον
    M…"); a screen reader hears each free place by its words, not as "2, 0"."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.test_phone_browser import flow_on_the_box

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "among", "Ann,Bob,Cy"):
            for name, form, values in (("Ann", "reactor", {"cell": [1, 0]}), ("Bob", "discard", {}),
                                       ("Cy", "discard", {})):
                answer = hub.request("report", origin="cli", timeout=5, player=name, form=form, values=values)
                assert answer is not None and answer["status"] == 200, answer
            answer = hub.request("next_phase", origin="cli", timeout=5)
            assert answer is not None and answer["status"] == 200, answer
            with joined_page(browser, server, hub, locale=locale, **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                page.locator("#form-pick").select_option("location")
                page.locator('#fields [data-field="card"]').select_option("Turret")
                place = page.locator('#fields [data-field="cell"] .cell-picker button[data-at="2,0"]')
                assert place.get_attribute("aria-label") == free
                place.click()
                energy = page.locator('#fields [data-field="energy_1"]')
                expect(energy).to_be_attached()
                options = [t.strip() for t in energy.locator("option").all_inner_texts()]
                assert options == [power, main], options
                face = page.locator('#fields .place-pick:not([hidden]) .form-name').first
                expect(face).to_be_visible()
                expect(face).to_have_text(power)
                box = face.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
                assert face.evaluate("n => n.scrollWidth <= n.clientWidth"), "the place is cut on the dropdown's face"
                page.locator('#fields .place-pick:not([hidden])').first.screenshot(
                    path=str(output_dir / f"phone_among_place_face_{lang}.png"))
                energy.select_option("0,0")
                expect(face).to_have_text(main)
                page.screenshot(path=str(output_dir / f"phone_among_places_{lang}.png"), full_page=True)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, width
                assert errors == []
    finally:
        server.shutdown()


@pytest.mark.parametrize("cell", [(float("inf"), 0), (0, float("-inf")), (float("nan"), 1), (1.5, 0), "12", b"12",
                                  {1: 0, 2: 0}, (True, 0), ("1", "2"), None, (1, 2, 3)], ids=repr)
def test_what_is_not_a_cell_is_refused_naming_it_and_a_choice_of_it_is_said_as_sent(cell):
    """A cell is two whole numbers: text "12" is not the place 1 below and 2 right, 1.5 is not 1 below, and an
    infinite number is named like any other (it raised OverflowError, which a refusal naming the choice let through)."""
    from rules.among_the_stars.choices import _said

    with pytest.raises(ValueError, match="a station cell is"):
        station_place(cell)
    assert _said(cell) == repr(cell)


def test_a_cell_of_whole_floats_or_huge_numbers_is_still_a_place():
    assert i18n.say(station_place((2.0, -1.0)), "en") == "2 below and 1 left of the Main Reactor"
    huge = 10 ** 40
    assert i18n.say(station_place((-huge, huge)), "en") == f"{huge} above and {huge} right of the Main Reactor"


@pytest.mark.parametrize("lang, main, power", [
    ("en", "Main Reactor", "Power Reactor (1 below the Main Reactor)"),
    ("el", "Main Reactor", "Power Reactor (1 κάτω από τον Main Reactor)"),
    ("pl", "Main Reactor", "Power Reactor (1 w dół od karty Main Reactor)"),
    ("hu", "Főreaktor", "Erőmű (a Főreaktor kártyától 1 hellyel lejjebb)")])
def test_a_reactor_is_named_with_its_place_and_the_main_reactor_by_its_name_alone(lang, main, power):
    """Every place is counted from the Main Reactor, so it is never "Main Reactor (on the Main Reactor)"; a Power
    Reactor one card below it (rulebook 5.1 'Grid and adjacency') is named with that place."""
    from rules.among_the_stars.station import reactor_named

    cat = catalogue()
    assert i18n.say(reactor_named(cat.card("Main Reactor").word, (0, 0)), lang) == main
    assert i18n.say(reactor_named(cat.card("Power Reactor").word, [1, 0]), lang) == power
    with pytest.raises(ValueError, match="row, column"):
        reactor_named("Power Reactor", "10")


def test_companion_check_names_a_place_from_the_main_reactor_and_a_hex_by_its_numbers():
    """``companion check``'s line: an Among the Stars card at (3, 3) is 3 below and 3 right of the Main Reactor (said
    once: not again when the finding's own words name that place); another game's cell stays "at (q, r)"."""
    from companion.scoring import _describe
    from rules.core import Finding, Severity

    found = Finding("the energy is short", "Ann", Severity.ERROR, "", player="Ann", card="Crew Quarters", cell=(3, 3))
    assert _describe(found, "among") == ("Ann: Crew Quarters (3 below and 3 right of the Main Reactor): the energy is "
                                         "short")
    named = Finding("Crew Quarters (3 below and 3 right of the Main Reactor) shares no edge", "Ann", Severity.ERROR, "",
                    player="Ann", card="Crew Quarters", cell=(3, 3))
    assert _describe(named, "among") == "Ann: Crew Quarters (3 below and 3 right of the Main Reactor) shares no edge"
    assert _describe(found, "eclipse") == "Ann: Crew Quarters at (3, 3): the energy is short"
