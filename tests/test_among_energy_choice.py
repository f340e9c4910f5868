"""Among the Stars: the builder chooses which reactors pay a location's energy cubes.

Rulebook 4 'Build a location' (Hungarian edition, "Helyszín Építése"): the energy cost is paid with cubes from a place
of the station holding energy cubes within distance 2 of the new location, the distance counted through built
locations that share an edge, one step a location; the Main Reactor and the Power Reactors are the two places that
hold them. FAQ: the cost may be paid from more than one reactor; as long as it is paid in full and every reactor used
is within distance, it does not matter where the cubes come from. So the choice is the player's; the box takes the
nearest reactors first only where nothing is chosen. Values worked by hand from the card data
(``shared/data/among_the_stars``): a Power Reactor costs 1 credit and holds 2 cubes, a Turret 1 credit and 1 cube
(2 VP), a Heavy Ion Cannon 3 credits and 2 cubes (6 VP, +2 with 3 reactors).
"""

from __future__ import annotations

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import start
from tests.test_phone_browser import browser  # noqa: F401 (fixture)
from tests.test_screen_game import _shoot, sized  # noqa: F401 (fixture)


def _others_discard(flow) -> None:
    for name in ("Bob", "Cy"):
        flow.report(name, "discard", {})
    flow.next_phase()


def _with_reactor(store):
    """Year 1, round 1: Ann builds a Power Reactor at [1, 0] (10 - 1 = 9 credits); Bob and Cy discard."""
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Ann", "reactor", {"cell": [1, 0]})
    _others_discard(flow)
    return flow


def _cubes(flow, player: str = "Ann") -> dict[tuple[int, int], str]:
    station = next(b for b in flow.view()["boards"] if b["owner"] == player)
    return {tuple(c["at"]): c["detail"] for c in station["cells"] if c["detail"]}


def _refused(flow, values: dict, lang: str = "en") -> str:
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", values)
    assert flow.session.last_seq == before  # nothing recorded
    return i18n.say(refused.value, lang)


def test_the_phone_offers_each_reactor_in_reach_nearest_first_where_more_than_one_can_pay(store):
    flow = _with_reactor(store)
    offered = flow.view()["cell_choices"]["Ann"]["location"]
    # at [2, 0] the Power Reactor is 1 step away and the Main Reactor 2 (through [1, 0]): both can pay, the box
    # takes the nearest first, 2 cubes of it before the Main Reactor's
    first = offered["energy_1"]
    assert first["by"]["2,0"] == ["1,0", "0,0"] and first["chosen"]["2,0"] == "1,0"
    assert offered["energy_2"]["chosen"]["2,0"] == "1,0"
    assert [i18n.say(first["places"][at], "en") for at in first["by"]["2,0"]] == [
        "Power Reactor (1 below the Main Reactor): 2 energy cubes",
        "Main Reactor: 2 energy cubes"]   # every place is counted from it: named alone
    # at [-1, 0] the Main Reactor is 1 step away and the Power Reactor 2: the Main Reactor first
    assert first["chosen"]["-1,0"] == "0,0"
    assert "3,0" not in offered["energy_1"]["by"]  # not next to the station: no place to build
    # a station with its Main Reactor alone: one reactor can pay, nothing to choose anywhere
    assert {name: pick["by"] for name, pick in flow.view()["cell_choices"]["Bob"]["location"].items()} == {
        "energy_1": {}, "energy_2": {}, "extra_energy_1": {}, "extra_energy_2": {}, "reactor": {}}


def test_a_station_with_its_main_reactor_alone_lists_the_reactor_fields_with_no_place_to_choose(store):
    # Every game starts with the Main Reactor alone (rulebook 'Setup' 6: a Main Reactor with 2 energy cubes):
    # every place next to it is paid by it, and a Solar Panels beside it can only feed it. The fields are still
    # listed, with no place in "by": a field not listed is drawn on the phone as a free place of the station to
    # tap, and a Turret's "Energy cube 1" then offered the four empty places around the Main Reactor, each refused
    # as "no reactor at [1, 0] pays its energy"
    flow = start(store, "among", "Ann,Bob")
    for name in ("Ann", "Bob"):
        offered = flow.view()["cell_choices"][name]["location"]
        assert set(offered) == {"energy_1", "energy_2", "extra_energy_1", "extra_energy_2", "reactor"}
        assert all(pick["by"] == {} and pick["after"] == "cell" for pick in offered.values())


@pytest.mark.browser
def test_a_new_station_s_phone_shows_no_reactor_field_and_its_turret_is_paid_by_the_main_reactor(
        browser, hub, tmp_path):  # noqa: F811
    """Chromium, a Greek 360 px phone, year 1 round 1 (the Main Reactor alone, 2 cubes): a Turret (1 credit, 1 cube,
    2 VP) and a Solar Panels show no reactor field, before and after a place is tapped; the Turret at [1, 0] is sent
    with its card and place only, and the Main Reactor pays its cube: 10 - 1 = 9 credits, 2 VP, 1 cube left."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.test_phone_browser import flow_on_the_box

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "among", "Νίκος,Kasia") as flow:
            with joined_page(browser, server, hub, locale="el-GR", **PHONE_360) as (page, errors):
                sent: list[dict] = []
                page.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/api/report") else None)
                page.locator("#seats button", has_text="Νίκος").click()
                expect(page.locator("#me")).to_have_text("Νίκος")
                page.locator("#form-pick").select_option("location")
                card = page.locator('#fields [data-field="card"]')
                energy, solar = (page.locator(f'#fields [data-field="{name}"]') for name in ("energy_1", "reactor"))
                for name in ("Solar Panels", "Turret"):
                    card.select_option(name)
                    expect(energy).to_be_hidden()
                    expect(solar).to_be_hidden()
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="1,0"]').click()
                expect(energy).to_be_hidden()
                page.locator("#send").click()
                expect(page.locator("#boards")).to_contain_text("Turret")
                assert [body["values"] for body in sent] == [{"card": "Turret", "cell": [1, 0]}]
                nikos = next(p for p in flow.view()["players"] if p["name"] == "Νίκος")
                assert (nikos["credits"], nikos["vp"]) == (9, 2)
                station = next(b for b in flow.view()["boards"] if b["owner"] == "Νίκος")
                assert [i18n.say(c["detail"], "en") for c in station["cells"] if c["detail"]] == ["1 energy cube"]
                assert errors == []
    finally:
        server.shutdown()


def test_a_turret_takes_its_cube_from_the_main_reactor_chosen_two_steps_away_and_undo_puts_it_back(store):
    flow = _with_reactor(store)
    flow.report("Ann", "location", {"card": "Turret", "cell": [2, 0], "energy_1": [0, 0]})
    # the box alone would have taken the Power Reactor's (1 step): the Main Reactor gave it
    assert _cubes(flow) == {(0, 0): "1 energy cube", (1, 0): "2 energy cubes"}
    ann = next(p for p in flow.view()["players"] if p["name"] == "Ann")
    assert (ann["credits"], ann["vp"]) == (8, 2)  # 9 - 1 credits, 2 printed VP
    said = [i18n.say(f["what"], "en") for f in flow.findings()]
    assert "Turret: energy paid: 1 cube from the Main Reactor, 1 left" in said, said
    flow.session.undo()
    assert _cubes(flow) == {(0, 0): "2 energy cubes", (1, 0): "2 energy cubes"}
    ann = next(p for p in flow.view()["players"] if p["name"] == "Ann")
    assert (ann["credits"], ann["vp"], ann["tableau"]) == (9, 0, 0)


def test_a_heavy_ion_cannon_splits_its_two_cubes_between_the_reactors_chosen(store):
    flow = _with_reactor(store)
    # [1, 1]: the Power Reactor 1 step away, the Main Reactor 2; the box would take both of the Power Reactor's
    flow.report("Ann", "location", {"card": "Heavy Ion Cannon", "cell": [1, 1], "energy_1": [0, 0],
                                    "energy_2": [1, 0]})
    assert _cubes(flow) == {(0, 0): "1 energy cube", (1, 0): "1 energy cube"}
    ann = next(p for p in flow.view()["players"] if p["name"] == "Ann")
    assert (ann["credits"], ann["vp"]) == (6, 6)  # 9 - 3; 6 printed, 2 reactors of the 3 its +2 asks


def test_a_cube_not_named_comes_from_the_nearest_reactor_left(store):
    flow = _with_reactor(store)
    flow.report("Ann", "location", {"card": "Heavy Ion Cannon", "cell": [1, 1], "energy_1": [0, 0]})
    assert _cubes(flow) == {(0, 0): "1 energy cube", (1, 0): "1 energy cube"}


def test_a_vak_players_own_main_reactor_is_offered_and_pays_as_a_main_reactor(store):
    # Vak race tile: the Vak Main Reactor replaces the Main Reactor (2 cubes, the same reach; it counts as a location
    # of every type, which changes nothing of where the energy comes from)
    flow = start(store, "among", "Ann,Bob,Cy", races=["Vak", "", ""])
    flow.report("Ann", "reactor", {"cell": [0, 1]})
    _others_discard(flow)
    first = flow.view()["cell_choices"]["Ann"]["location"]["energy_1"]  # [1, 1]: 1 step from [0, 1], 2 from [0, 0]
    assert [i18n.say(first["places"][at], "en") for at in first["by"]["1,1"]] == [
        "Power Reactor (1 right of the Main Reactor): 2 energy cubes",
        "Vak Main Reactor: 2 energy cubes"]
    flow.report("Ann", "location", {"card": "Turret", "cell": [1, 1], "energy_1": [0, 0]})
    assert _cubes(flow) == {(0, 0): "1 energy cube", (0, 1): "2 energy cubes"}


def test_a_reactor_out_of_reach_not_a_reactor_or_short_of_cubes_is_refused_naming_it(store):
    flow = _with_reactor(store)
    flow.report("Ann", "location", {"card": "Turret", "cell": [2, 0]})  # the box's choice: the Power Reactor
    _others_discard(flow)
    assert _cubes(flow) == {(0, 0): "2 energy cubes", (1, 0): "1 energy cube"}
    # [3, 0] is 3 steps from the Main Reactor ([2, 0], [1, 0], [0, 0]): out of reach
    said = _refused(flow, {"card": "Turret", "cell": [3, 0], "energy_1": [0, 0]})
    assert ("Turret (3 below the Main Reactor): the Main Reactor is at distance 3, and energy "
            "comes from within distance 2; it can come from: the Power Reactor (1 below the Main Reactor)"
            ) in said, said
    said = _refused(flow, {"card": "Turret", "cell": [3, 0], "energy_1": [2, 0]})
    assert ("Turret: no reactor 2 below the Main Reactor pays its energy; it can come from: the Power Reactor "
            "(1 below the Main Reactor)") in said, said
    said = _refused(flow, {"card": "Heavy Ion Cannon", "cell": [2, 1], "energy_1": [1, 0], "energy_2": [1, 0]})
    assert ("Heavy Ion Cannon: the Power Reactor (1 below the Main Reactor) holds 1 energy cube, and 2 are named "
            "from it") in said, said
    said = _refused(flow, {"card": "Turret", "cell": [2, 1], "energy_1": [1, 0], "energy_2": [0, 0]})
    assert "Energy cube 2: the reactor it comes from: leave it empty when you build Turret" in said, said


@pytest.mark.parametrize("lang, words", [
    ("el", ("Turret (3 κάτω από τον Main Reactor):", "ο Main Reactor είναι",
            "ο Power Reactor (1 κάτω από τον Main Reactor)")),
    ("pl", ("Turret (3 w dół od karty Main Reactor):", ": Main Reactor jest",
            "Power Reactor (1 w dół od karty Main Reactor)")),
    ("hu", ("Turret (a Főreaktor kártyától 3 hellyel lejjebb):", ": a Főreaktor ",
            "Erőmű (a Főreaktor kártyától 1 hellyel lejjebb)"))])
def test_a_refused_reactor_is_said_in_the_phones_language(store, lang, words):
    flow = _with_reactor(store)
    flow.report("Ann", "location", {"card": "Turret", "cell": [2, 0]})
    _others_discard(flow)
    said = _refused(flow, {"card": "Turret", "cell": [3, 0], "energy_1": [0, 0]}, lang)
    assert all(w in said for w in words) and "[" not in said and "energy comes from" not in said, said
    # the Main Reactor is never named from itself ("on the Main Reactor")
    assert not any(w in said for w in ("στη θέση του", "na karcie", "kártyán")), said


def test_the_touchscreen_shows_where_the_cubes_came_from(store, sized, output_dir):  # noqa: F811
    flow = _with_reactor(store)
    flow.report("Ann", "location", {"card": "Turret", "cell": [2, 0], "energy_1": [0, 0]})
    _shoot(flow, output_dir / "screen_among_energy_chosen.png")
    drawn = " ".join(said for said, *_ in sized)
    assert "energy paid: 1 cube from the Main Reactor, 1 left" in drawn, drawn


@pytest.mark.browser
def test_the_phone_offers_the_reactors_beside_an_energy_card_and_sends_the_one_chosen(
        browser, hub, tmp_path, output_dir):  # noqa: F811
    """Chromium, a Hungarian 360 px phone: with Power Reactors at [1, 0] and [0, 1], a Turret tapped at [2, 0] offers
    the Power Reactor [1, 0] (the box's choice, first picked) and the Main Reactor (the other Power Reactor is 3 steps
    away); no choice beside a card without energy; a Solar Panels at [1, 1] offers both Power Reactors beside it; the
    Main Reactor chosen pays the Turret's cube."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.test_phone_browser import flow_on_the_box

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "among", "Ann,Bob,Cy"):
            for ann in ([1, 0], [0, 1]):  # two rounds: Ann builds Power Reactors at [1, 0] and [0, 1]
                for name, form, values in (("Ann", "reactor", {"cell": ann}), ("Bob", "discard", {}),
                                           ("Cy", "discard", {})):
                    answer = hub.request("report", origin="cli", timeout=5, player=name, form=form, values=values)
                    assert answer is not None and answer["status"] == 200, answer
                answer = hub.request("next_phase", origin="cli", timeout=5)
                assert answer is not None and answer["status"] == 200, answer
            with joined_page(browser, server, hub, locale="hu-HU", **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                page.locator("#form-pick").select_option("location")
                energy = page.locator('#fields [data-field="energy_1"]')
                page.locator('#fields [data-field="card"]').select_option("Turret")
                expect(energy).to_be_hidden()  # no place chosen yet
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="2,0"]').click()
                expect(energy).to_be_visible()
                assert energy.locator("option").count() == 2
                assert energy.input_value() == "1,0"  # the box's own choice first
                assert page.locator('#fields [data-field="energy_2"]').is_hidden()  # a Turret takes 1 cube
                # the Main Reactor's side: the Main Reactor is nearer there
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="0,-1"]').click()
                expect(energy).to_have_value("0,0")
                page.locator('#fields [data-field="card"]').select_option("Crew Quarters")  # no energy
                expect(energy).to_be_hidden()
                # a Solar Panels at [1, 1], beside both Power Reactors: which one takes its cube
                solar = page.locator('#fields [data-field="reactor"]')
                page.locator('#fields [data-field="card"]').select_option("Solar Panels")
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="1,1"]').click()
                expect(solar).to_be_visible()
                assert solar.locator("option").count() == 2 and solar.input_value() == "0,1"
                expect(energy).to_be_hidden()  # a Solar Panels costs no energy
                # a Shield Generator at [2, 0]: its cost's cube picked as the box would; each extra cube's reactor shows
                # once that many extra cubes are said (none before), left to the box
                page.locator('#fields [data-field="card"]').select_option("Shield Generator")
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="2,0"]').click()
                extra, extra_2 = (page.locator(f'#fields [data-field="extra_energy_{k}"]') for k in (1, 2))
                spent = page.locator('#fields [data-field="extra_cubes"]')
                expect(spent).to_be_visible()
                expect(extra).to_be_hidden()
                expect(extra_2).to_be_hidden()
                spent.fill("1")
                expect(extra).to_be_visible()
                expect(extra_2).to_be_hidden()
                assert extra.input_value() == "" and extra.locator("option").count() == 3 \
                    and energy.input_value() == "1,0"
                spent.fill("2")
                expect(extra_2).to_be_visible()
                page.screenshot(path=str(output_dir / "phone_among_extra_cubes_hu.png"), full_page=True)
                spent.fill("")
                expect(extra).to_be_hidden()
                expect(extra_2).to_be_hidden()
                page.locator('#fields [data-field="card"]').select_option("Turret")
                page.locator('#fields [data-field="cell"] .cell-picker button[data-at="2,0"]').click()
                expect(energy).to_be_visible()
                energy.select_option("0,0")
                page.screenshot(path=str(output_dir / "phone_among_energy_choice_hu.png"), full_page=True)
                page.locator("#send").click()
                # the phone's own picture of Ann's station: the Main Reactor gave the cube
                expect(page.locator("#boards")).to_contain_text("Turret")
                station = next(b for b in hub.snapshot().view["game"]["boards"] if b["owner"] == "Ann")
                assert {tuple(c["at"]): i18n.say(c["detail"], "en") for c in station["cells"] if c["detail"]} == {
                    (0, 0): "1 energy cube", (1, 0): "2 energy cubes", (0, 1): "2 energy cubes"}, \
                    page.locator("#report-result").inner_text()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 360, width
                assert errors == []
    finally:
        server.shutdown()


def test_a_solar_panels_offers_the_reactors_beside_its_place_and_its_cube_goes_to_the_one_chosen(store):
    # Solar Panels (card text): built next to a reactor, it adds 1 energy cube to a reactor beside it. With Power
    # Reactors at [1, 0] and [0, 1], the place [1, 1] is beside both; the box alone would take the first beside it
    flow = _with_reactor(store)
    flow.report("Ann", "reactor", {"cell": [0, 1]})
    _others_discard(flow)
    offered = flow.view()["cell_choices"]["Ann"]["location"]["reactor"]
    assert offered["by"]["1,1"] == ["0,1", "1,0"] and offered["chosen"]["1,1"] == "0,1"
    assert "2,0" not in offered["by"]  # beside the Power Reactor [1, 0] alone: nothing to choose
    flow.report("Ann", "location", {"card": "Solar Panels", "cell": [1, 1], "reactor": [1, 0]})
    assert _cubes(flow) == {(0, 0): "2 energy cubes", (1, 0): "3 energy cubes", (0, 1): "2 energy cubes"}


def test_a_shield_generators_extra_cubes_come_from_the_reactors_chosen_for_them(store):
    # Shield Generator (card text): +2 VP per energy cube spent beyond its cost of 1. At [2, 0] the Power Reactor is
    # 1 step away and the Main Reactor 2. Its cost and its first extra cube are named from the Main Reactor; the
    # second extra cube is left to the box, which takes the nearest: the Power Reactor
    flow = _with_reactor(store)
    extra = flow.view()["cell_choices"]["Ann"]["location"]["extra_energy_1"]
    assert extra["by"]["2,0"] == ["1,0", "0,0"] and extra["chosen"] == {}  # nothing picked: the box's choice
    flow.report("Ann", "location", {"card": "Shield Generator", "cell": [2, 0], "extra_cubes": 2,
                                    "energy_1": [0, 0], "extra_energy_1": [0, 0]})
    assert _cubes(flow) == {(0, 0): "0 energy cubes", (1, 0): "1 energy cube"}
    ann = next(p for p in flow.view()["players"] if p["name"] == "Ann")
    assert (ann["credits"], ann["vp"]) == (6, 8)  # 9 - 3 credits; 4 printed VP + 2 x 2 extra cubes


def test_a_reactor_named_for_an_extra_cube_not_spent_is_refused(store):
    flow = _with_reactor(store)
    said = _refused(flow, {"card": "Shield Generator", "cell": [2, 0], "extra_energy_1": [0, 0]})
    # one extra cube given a reactor, none spent: said as counts, which reads for any number ("1 extra energy cubes,
    # but 0 are spent" before)
    assert "Shield Generator: extra energy cubes given a reactor: 1, but spent beyond its cost: 0" in said, said


@pytest.mark.parametrize("lang, place", [("el", "από τον Main Reactor, απομένουν: 1"),
                                         ("pl", "z karty Main Reactor, zostało 1"),
                                         ("hu", "innen: Főreaktor, 1 maradt")])
def test_a_touchscreen_line_names_the_reactor_as_the_player_finds_it(lang, place):
    """The touchscreen's note of who paid a Turret's cube names the reactor's place from the player's Main Reactor,
    as the camera's questions do (no "[0, 0]"), wrapped at every width from 120 to 760 px with no word lost."""
    from companion.screen import TouchScreen
    from rules.among_the_stars.choices import energy_paid
    from rules.among_the_stars.data import catalogue
    from rules.among_the_stars.station import Placed, Station

    main = catalogue().card("Main Reactor")
    station = Station((Placed(main, (0, 0), order=0, cubes=1),))
    said = i18n.say(energy_paid("Turret", station, {(0, 0): 1}), lang)
    assert place in said and "[" not in said, said
    screen = TouchScreen()
    for width in range(120, 761, 2):
        assert " ".join(screen.wrap_lines(said, width, 20)).split() == said.split(), width
