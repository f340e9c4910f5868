"""Among the Stars: the choices a location's white box asks for, reported on the phone with the location built.

The rules took them (``choices`` of ``location_built``) but the phone's form had no field for them, so a location
built from a phone never scored them: an Embassy Offices gave its printed 2 VP and never the gift (you +2, the
player chosen +1), a Shield Generator never the +2 VP of an extra cube, a Business Offices never held credits, a
Market Place never took any. Values worked by hand from the card data (``shared/data/among_the_stars``; rulebook 4
'Build a location': credits paid, the printed VP and the white box's ability at once; effects on other players after
every player's action of the round, rulebook 'Player order')."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.errors import BadEntry
from tests.browser_pages import PHONE_360, joined_page
from tests.test_flow import start
from tests.test_phone_browser import browser  # noqa: F401 (fixture)


def _round(flow, ann: dict) -> None:
    """Ann builds ``ann`` (the location form's values), Bob and Cy discard for 3 credits, the round ends."""
    flow.report("Ann", "location", ann)
    flow.report("Bob", "discard", {})
    flow.report("Cy", "discard", {})
    flow.next_phase()


def _table(flow) -> list[tuple[str, int, int]]:
    return [(p["name"], p["credits"], p["vp"]) for p in flow.view()["players"]]


def test_an_embassy_offices_gift_scores_two_for_the_builder_and_one_for_the_player_chosen(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Embassy Offices", "cell": [1, 0], "gift_to": "Bob"})
    # Ann: 10 - 2 credits; 2 printed VP + 2 for the gift. Bob: +1 VP after the round's actions, 10 + 3 credits
    assert _table(flow) == [("Ann", 8, 4), ("Bob", 13, 1), ("Cy", 13, 0)]


def test_a_shield_generator_scores_two_vp_for_a_cube_spent_beyond_its_cost(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Shield Generator", "cell": [1, 0], "extra_cubes": 1})
    # 3 credits; 1 cube for its cost and 1 more from the Main Reactor's 2: 4 printed VP + 2
    assert _table(flow)[0] == ("Ann", 7, 6)
    station = next(b for b in flow.view()["boards"] if b["owner"] == "Ann")
    main = next(c for c in station["cells"] if list(c["at"]) == [0, 0])
    assert main["detail"] == "0 energy cubes"


def test_a_business_offices_holds_the_credits_placed_on_it_for_the_year(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Business Offices", "cell": [1, 0], "escrow": 4})
    # 10 - 1 credits, 4 placed on it: 5 left; 1 printed VP + 4 / 2
    assert _table(flow)[0] == ("Ann", 5, 3)


def test_a_market_place_takes_one_credit_from_each_player_named(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Market Place", "cell": [1, 0], "take_1": "Bob", "take_2": "Cy"})
    # Ann 10 - 3 + 2 taken, 2 printed VP; Bob and Cy 10 + 3 - 1
    assert _table(flow) == [("Ann", 9, 2), ("Bob", 12, 0), ("Cy", 12, 0)]


def test_a_market_place_takes_both_credits_from_one_player_named_twice(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Market Place", "cell": [1, 0], "take_1": "Bob", "take_2": "Bob"})
    assert _table(flow) == [("Ann", 9, 2), ("Bob", 11, 0), ("Cy", 13, 0)]


def test_a_cards_choice_given_for_another_card_is_refused_and_nothing_recorded(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Turret", "cell": [1, 0], "gift_to": "Bob"})
    said = i18n.say(refused.value, "en")
    assert "Embassy Offices: the player who gains 1 VP" in said and "Turret" in said
    with pytest.raises(BadEntry):
        flow.report("Ann", "location", {"card": "Embassy Offices", "cell": [1, 0], "gift_to": "Ann"})
    with pytest.raises(BadEntry):
        flow.report("Ann", "location", {"card": "Shield Generator", "cell": [1, 0], "extra_cubes": 3})
    assert flow.session.last_seq == before


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_an_embassy_offices_without_a_gift_is_said_in_the_phones_language(store, lang):
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Ann", "location", {"card": "Embassy Offices", "cell": [1, 0]})
    finding = next(f for f in flow.view()["findings"] if "gift" in str(f["what"]))
    said = i18n.say(finding["what"], lang)
    assert "no player chosen" not in said
    form = next(f for f in flow.view()["forms"] if f["id"] == "location")
    for field in form["fields"][2:]:
        assert i18n.say(field["label"], lang) != str(field["label"])


@pytest.mark.browser
def test_the_phone_shows_a_cards_choice_beside_that_card_only_and_sends_it(
        browser, hub, tmp_path, output_dir):  # noqa: F811
    """Chromium, a Polish 360 px phone: the Embassy Offices' gift is offered once that card is chosen, not beside a
    Turret; built with Bob as the gift, Ann has 2 + 2 VP and Bob 1 after the round (values as above)."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.test_phone_browser import flow_on_the_box

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    try:
        with flow_on_the_box(hub, tmp_path, "among", "Ann,Bob,Cy"):
            with joined_page(browser, server, hub, locale="pl-PL", **PHONE_360) as (page, errors):
                page.locator("#seats button", has_text="Ann").click()
                expect(page.locator("#me")).to_have_text("Ann")
                page.locator("#form-pick").select_option("location")
                gift = page.locator('#fields [data-field="gift_to"]')
                page.locator('#fields [data-field="card"]').select_option("Turret")
                expect(gift).to_be_hidden()
                page.locator('#fields [data-field="card"]').select_option("Embassy Offices")
                expect(gift).to_be_visible()
                assert gift.locator("option").all_inner_texts()[1:] == ["Bob", "Cy"]  # another player
                gift.select_option("Bob")
                cell = page.locator('#fields [data-field="cell"]')
                cell.locator('input[data-axis="i"]').fill("1")
                cell.locator('input[data-axis="j"]').fill("0")
                page.locator("#send").click()
                expect(page.locator("#report-result")).to_contain_text("zapisano")
                page.screenshot(path=str(output_dir / "phone_among_embassy_gift_pl.png"), full_page=True)
                for name in ("Bob", "Cy"):
                    answer = hub.request("report", origin="cli", timeout=5, player=name, form="discard", values={})
                    assert answer is not None and answer["status"] == 200, answer
                answer = hub.request("next_phase", origin="cli", timeout=5)
                assert answer is not None and answer["status"] == 200, answer
                players = hub.snapshot().view["game"]["players"]
                assert [(p["name"], p["vp"]) for p in players] == [("Ann", 4), ("Bob", 1), ("Cy", 0)]
                assert errors == []
    finally:
        server.shutdown()


def test_a_school_of_alien_cultures_scores_each_payment_and_the_others_lose_two_vp(store):
    flow = start(store, "among", "Ann,Bob,Cy,Dora")
    for name in ("Bob", "Cy", "Dora"):  # year 1, round 1: three Turrets, 2 VP each (1 credit, 1 cube)
        flow.report(name, "location", {"card": "Turret", "cell": [1, 0]})
    flow.report("Ann", "discard", {})
    flow.next_phase()
    flow.report("Ann", "location", {"card": "School of Alien Cultures", "cell": [1, 0], "paid_1": "Cy"})
    for name in ("Bob", "Cy", "Dora"):
        flow.report(name, "discard", {})
    flow.next_phase()
    # Ann: 10 + 3 - 3 + 1 from Cy credits; 2 printed VP + 2 for Cy's credit. Cy: 10 - 1 + 3 - 1, keeps 2 VP;
    # Bob and Dora paid nothing: 2 - 2 VP, 10 - 1 + 3 credits
    assert _table(flow) == [("Ann", 11, 4), ("Bob", 12, 0), ("Cy", 11, 2), ("Dora", 12, 0)]


def test_a_school_of_alien_cultures_nobody_paid_every_other_player_loses_two_vp(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    for name in ("Bob", "Cy"):
        flow.report(name, "location", {"card": "Turret", "cell": [1, 0]})
    flow.report("Ann", "discard", {})
    flow.next_phase()
    _round(flow, {"card": "School of Alien Cultures", "cell": [1, 0]})
    assert _table(flow) == [("Ann", 10, 2), ("Bob", 12, 0), ("Cy", 12, 0)]


def test_a_galactic_research_facility_scores_the_highest_payment_plus_one(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob", "bid_1_credits": 2,
                  "bid_2": "Cy", "bid_2_credits": 1})
    # Ann: 10 - 3 credits, 1 cube; 3 printed VP + 2 (the highest paid) + 1. Bob: 10 + 3 - 2 credits, +2 VP;
    # Cy: 10 + 3 - 1, +1 VP
    assert _table(flow) == [("Ann", 7, 6), ("Bob", 11, 2), ("Cy", 12, 1)]


def test_a_galactic_research_facility_bid_over_the_bidders_credits_pays_what_they_have_and_scores_what_was_paid(
        store):
    # The card: each other player secretly pays 0-3 credits and gains that many VP; the builder gains the highest
    # amount paid + 1. The rulebook says nothing of a bid a player cannot pay when the round's payments are made
    # (rulebook 'Player order': after every player's action): the bidder pays what they have, the builder gains the
    # highest amount actually paid + 1.
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Bob", "credits", {"delta": -8})  # Bob: 10 - 8 = 2 credits
    flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob",
                                    "bid_1_credits": 3, "bid_2": "Cy", "bid_2_credits": 2})
    # built: Ann 10 - 3 credits; 3 printed VP + the highest bid 3 + 1
    assert _table(flow)[0] == ("Ann", 7, 7)
    flow.report("Bob", "location", {"card": "Turret", "cell": [1, 0]})  # Bob: 2 - 1 = 1 credit, 2 VP
    flow.report("Cy", "discard", {})  # Cy: 10 + 3 = 13
    flow.next_phase()
    # Bob has 1 credit of his 3: pays 1, +1 VP (2 + 1 = 3). Cy pays 2: 11 credits, 2 VP. The highest paid is 2, so
    # Ann gains 2 + 1 = 3, not 4: 3 printed + 3 = 6 VP
    assert _table(flow) == [("Ann", 7, 6), ("Bob", 0, 3), ("Cy", 11, 2)]
    ann = flow.session.replay().state.player("Ann")
    assert ann.station.at((1, 0)).vp_earned == 6  # what a removal at the year's end takes back
    said = [i18n.say(f["what"], "en") for f in flow.findings()]
    assert any("Bob bid 3 credits and has 1 at the end of the round: pays 1, +1 VP" in w for w in said), said
    assert any("the highest payment is 2, not the 3 bid: Ann gains 2 + 1 = 3 VP, 1 less" in w for w in said), said
    rules = [i18n.say(f["rule"], "en") for f in flow.findings()]
    assert any("the rulebook says nothing of a bid over the bidder's credits" in r for r in rules), rules
    flow.session.undo()  # the round's end taken back: the bids are not paid yet
    assert _table(flow) == [("Ann", 7, 7), ("Bob", 1, 2), ("Cy", 13, 0)]


@pytest.mark.parametrize("lang, words", [("el", "η μεγαλύτερη πληρωμή είναι 0, όχι η προσφορά 2"),
                                         ("pl", "najwyższa zapłata to 0, a nie oferta 2"),
                                         ("hu", "a legmagasabb kifizetés 0, nem a 2 ajánlat")])
def test_a_galactic_research_facility_bid_nobody_could_pay_gives_the_builder_one_said_in_the_phones_language(
        store, lang, words):
    flow = start(store, "among", "Ann,Bob,Cy")
    flow.report("Bob", "credits", {"delta": -10})  # Bob: 0 credits
    flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob",
                                    "bid_1_credits": 2})
    flow.report("Bob", "vp", {"delta": 1})  # not an action: Bob takes none and keeps 0 credits
    flow.report("Cy", "discard", {})
    with pytest.raises(BadEntry):  # Bob has reported no action: the table is asked to confirm
        flow.next_phase()
    flow.next_phase()
    # Bob pays 0 of 2, gains 0; Ann gains 0 + 1: 3 printed + 1 = 4 VP, 10 - 3 = 7 credits
    assert _table(flow) == [("Ann", 7, 4), ("Bob", 0, 1), ("Cy", 13, 0)]
    said = [i18n.say(f["what"], lang) for f in flow.findings(limit=20)]
    assert any(words in w for w in said), said


def test_a_galactic_research_facility_payment_without_its_player_is_refused(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1_credits": 2})
    assert "say which player paid it" in i18n.say(refused.value, "en")
    with pytest.raises(BadEntry):
        flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob",
                                        "bid_1_credits": 1, "bid_2": "Bob", "bid_2_credits": 2})
    assert flow.session.last_seq == 0


def test_a_galactic_research_facility_payer_named_without_the_credits_is_asked_for_them(store):
    # Galactic Research Facility (card text): each other player may pay 0-3 credits. A payer named with the amount left
    # empty is a slip: counted as 0, the builder would score the highest actual payment + 1 = 1 VP without a word
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob"})
    assert "say how many credits Bob paid (0-3)" in i18n.say(refused.value, "en")
    assert "Bob" in i18n.say(refused.value, "el") and "(0-3)" in i18n.say(refused.value, "pl")
    assert flow.session.last_seq == 0
    flow.report("Ann", "location", {"card": "Galactic Research Facility", "cell": [1, 0], "bid_1": "Bob",
                                    "bid_1_credits": 0})  # a payment of 0 said as 0 is recorded
    assert flow.session.last_seq == 1


def _cubes(flow, player: str) -> dict[tuple[int, int], str]:
    station = next(b for b in flow.view()["boards"] if b["owner"] == player)
    return {tuple(c["at"]): c["detail"] for c in station["cells"] if c["detail"]}


def test_a_solar_panels_puts_its_cube_on_the_reactor_chosen_beside_it(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Turret", "cell": [-1, 0]})  # 1 cube from the Main Reactor: 1 left
    _round(flow, {"card": "Crew Quarters", "cell": [1, 0]})
    flow.report("Ann", "reactor", {"cell": [1, 1]})  # beside the Crew Quarters; 2 cubes
    flow.report("Bob", "discard", {})
    flow.report("Cy", "discard", {})
    flow.next_phase()
    # Solar Panels at [0, 1]: beside the Main Reactor [0, 0] and the Power Reactor [1, 1]; the cube goes to [1, 1]
    _round(flow, {"card": "Solar Panels", "cell": [0, 1], "reactor": [1, 1]})
    assert _cubes(flow, "Ann") == {(0, 0): "1 energy cube", (1, 1): "3 energy cubes"}
    assert _table(flow)[0] == ("Ann", 10 - 1 - 1 - 1 - 1, 2 + 1 + 2)


def test_a_solar_panels_reactor_that_is_not_beside_it_is_refused(store):
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "Solar Panels", "cell": [1, 0], "reactor": [2, 0]})
    assert ("no reactor beside it lies 2 below the Main Reactor; choose one of: on the Main Reactor"
            in i18n.say(refused.value, "en"))
    assert flow.session.last_seq == 0


def _refused_asking_2_of_1(flow, values, lang, english):
    """Ann's location ``values`` ask 2 where 1 is there to spend: refused in ``lang`` naming both numbers (the English
    words ``english`` not left in another language), nothing recorded."""
    before = flow.session.last_seq
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", values)
    said = i18n.say(refused.value, lang)
    assert ": 2," in said and re.search(r"(?<![\d\[])1(?![\d\]])", said)
    if lang != "en":
        assert english not in said
    assert flow.session.last_seq == before


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_shield_generator_given_more_cubes_than_its_reactors_hold_is_refused_not_scored_on_fewer(store, lang):
    # Shield Generator: 1 cube for its cost, +2 VP per cube beyond it. The Main Reactor, the only reactor, holds 2
    # cubes at the start: 1 beyond the cost. 2 extra cubes cannot be spent; before, the box took 1 and said nothing
    # (6 VP where the player counted 8)
    flow = start(store, "among", "Ann,Bob,Cy")
    _refused_asking_2_of_1(flow, {"card": "Shield Generator", "cell": [1, 0], "extra_cubes": 2}, lang,
                           "beyond its cost")
    _round(flow, {"card": "Shield Generator", "cell": [1, 0], "extra_cubes": 1})
    assert _table(flow)[0] == ("Ann", 10 - 3, 4 + 2)


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_business_offices_given_more_credits_than_are_left_is_refused_not_holding_fewer(store, lang):
    # Command Centre (5 credits), Shield Generator (3), then Business Offices (1): 10 - 5 - 3 - 1 = 1 credit left to
    # place on it. Before, 2 asked were 1 placed without a word
    flow = start(store, "among", "Ann,Bob,Cy")
    _round(flow, {"card": "Command Centre", "cell": [1, 0]})
    _round(flow, {"card": "Shield Generator", "cell": [-1, 0]})
    _refused_asking_2_of_1(flow, {"card": "Business Offices", "cell": [0, 1], "escrow": 2}, lang,
                           "credits placed on it")
    _round(flow, {"card": "Business Offices", "cell": [0, 1], "escrow": 1})
    # printed VP: Command Centre 0, Shield Generator 4, Business Offices 1; 1 credit placed is 0 VP (1 per 2)
    assert _table(flow)[0] == ("Ann", 0, 0 + 4 + 1)


@pytest.mark.parametrize("lang", ["en", "el", "pl", "hu"])
def test_a_school_of_alien_cultures_naming_one_payer_twice_is_refused(store, lang):
    # Bob named twice: a slip for Cy, who would lose 2 VP for a credit she paid. Before, it counted as Bob alone
    # (Ann 2 + 2 VP, Cy -2); refused as a Galactic Research Facility's payer named twice is
    flow = start(store, "among", "Ann,Bob,Cy")
    with pytest.raises(BadEntry) as refused:
        flow.report("Ann", "location", {"card": "School of Alien Cultures", "cell": [1, 0], "paid_1": "Bob",
                                        "paid_2": "Bob"})
    said = i18n.say(refused.value, lang)
    assert "Bob" in said and (lang == "en") == ("is named twice" in said)
    assert flow.session.last_seq == 0
