"""Seat colours: each of Eclipse's nine seat colours has its own sign in its dot on both views (blue and black are
not both "B"), and the phone's dots are the touchscreen's (flow.js DOT / DOT_SIGN = canvas SEAT_COLOURS / SEAT_SIGNS);
a dark dot is ringed so it shows on the dark screen and page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.flows import FLOWS
from companion.i18n import use_language
from companion.screen.canvas import BG, SEAT_COLOURS, SEAT_SIGNS, seat_sign
from tests.test_phone_browser import browser  # noqa: F401 (fixture)

FLOW_JS = Path(__file__).resolve().parent.parent / "companion" / "static" / "flowdraw.js"


def _js_object(name: str) -> dict[str, str]:
    """The flowdraw.js object literal ``const NAME = {...};`` as a dict."""
    body = re.search(rf"const {name} = (\{{.*?\}});", FLOW_JS.read_text(), re.S).group(1)
    return json.loads(re.sub(r"(\w+):", r'"\1":', body))


def test_every_eclipse_colour_has_its_own_sign():
    colours = FLOWS["eclipse"].info.colours
    assert len(colours) == 9
    signs = [seat_sign(c) for c in colours]
    assert len(set(signs)) == 9, signs
    assert (seat_sign("blue"), seat_sign("black"), seat_sign("green"), seat_sign("grey")) == ("B", "Bk", "G", "Gy")
    assert seat_sign("orange") == "O" and seat_sign(None) == "?"


# hand-written from each language's colour words (piros, kék, zöld; κόκκινο, κίτρινο, μπλε, μωβ; czerwony, czarny)
SIGNS = {"hu": {"red": "P", "blue": "K", "green": "Z", "yellow": "S", "black": "Fe", "grey": "Sz"},
         "el": {"red": "Κο", "yellow": "Κι", "blue": "Μπ", "purple": "Μω", "black": "Μα"},
         "pl": {"red": "C", "black": "Cz", "yellow": "Ż", "blue": "N", "natural": "Na"}}


@pytest.mark.parametrize("lang", ["hu", "el", "pl"])
def test_the_touchscreen_signs_a_seat_colour_in_its_language(lang):
    """The dots said R, B, G, Y, P (English) on a Hungarian, Greek or Polish touchscreen: each sign is the language's
    own (piros P, kék K; κόκκινο Κο, κίτρινο Κι), still one of its own for each of Eclipse's nine colours."""
    with use_language(lang):
        signs = {c: seat_sign(c) for c in FLOWS["eclipse"].info.colours}
    assert len(set(signs.values())) == 9, signs
    assert {c: signs[c] for c in SIGNS[lang]} == SIGNS[lang]
    with use_language("en"):
        assert seat_sign("red") == "R" and seat_sign("black") == "Bk"


def test_a_hungarian_phone_signs_the_dots_in_hungarian(browser, hub, tmp_path):  # noqa: F811 (fixture)
    """A phone in Hungarian showed "R" and "B" in Ann's and Bob's dots (red, blue): it shows "P" (piros) and "K"
    (kék), as the Hungarian touchscreen does."""
    from playwright.sync_api import expect

    from companion.web import create_app, serve
    from tests.test_phone_browser import TIMEOUT_MS, flow_on_the_box, join_url

    server = serve(create_app(hub), host="127.0.0.1", port=0)
    context = browser.new_context(locale="hu-HU", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        with flow_on_the_box(hub, tmp_path, "roll"):
            page.goto(join_url(server, hub))
            dots = page.locator("#players tbody .dot")
            expect(dots).to_have_text(["P", "K"])
            with use_language("hu"):
                assert [seat_sign("red"), seat_sign("blue")] == ["P", "K"]
    finally:
        context.close()
        server.shutdown()


def test_the_phone_draws_the_dots_as_the_touchscreen_does():
    assert _js_object("DOT_SIGN") == SEAT_SIGNS
    assert {c: tuple(int(h[k:k + 2], 16) for k in (1, 3, 5)) for c, h in _js_object("DOT").items()} == SEAT_COLOURS


def test_nine_seats_on_the_touchscreen_each_with_its_sign_and_a_ring(store_nine, output_dir):
    from tests.test_flow import shoot

    flow = store_nine
    screen = shoot(flow, output_dir / "eclipse_nine_seats.png")
    said = [text for text, _rect, _room in screen.drawn]
    for colour in FLOWS["eclipse"].info.colours:
        assert seat_sign(colour) in said, colour
    # the black dot's ring: light pixels just outside it, on the dark background
    row = next(p for p in flow.view()["players"] if p["colour"] == "black")
    name = next(rect for text, rect, _room in screen.drawn if text.startswith(row["name"]))
    ring = [screen.surface.get_at((x, name.centery))[:3] for x in range(name.x - 40, name.x)]
    assert any(sum(px) > 500 for px in ring) and BG in ring


@pytest.fixture
def store_nine(tmp_path):
    from companion.flow import GameFlow
    from companion.player_names import parse_players
    from companion.session import SessionStore

    spec = FLOWS["eclipse"]
    names = "Ann Bob Cy Dora Eve Fay Gus Hal Ivy".split()
    players = ",".join(f"{n}:{c}" for n, c in zip(names, spec.info.colours, strict=False))
    with SessionStore(tmp_path / "nine.sqlite3") as store:
        session = store.start("eclipse", spec.settings(parse_players(players, spec.info.colours), {}))
        yield GameFlow(session, spec)


@pytest.mark.parametrize(("typed", "colour"), [("Czerwony", "red"), ("ZIELONY", "green"), ("κόκκινο", "red"),
                                               ("Κίτρινο", "yellow"), ("piros", "red"), ("Kék", "blue"),
                                               (" Blue ", "blue"), ("purple", "purple")])
def test_a_colour_is_taken_by_the_name_the_refusal_lists_as_well_as_its_id(store, typed, colour):
    """The colour refusal lists the colours by their names in the player's language ("czerwony, niebieski, ...");
    the name a player reads there is taken (any case), as the API's id is."""
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["roll"], {})
    setup.add_player("Ann", typed)
    assert [p["colour"] for p in setup.players] == [colour]


def test_a_colour_name_in_no_language_is_refused_listing_the_names_it_takes(store):
    from companion.errors import BadEntry
    from companion.i18n import say
    from companion.setup_flow import TableSetup

    setup = TableSetup(store, FLOWS["roll"], {})
    setup.add_player("Ann", "czerwony")
    with pytest.raises(BadEntry) as refused:
        setup.add_player("Bob", "różowy")
    assert say(refused.value, "pl") == ("kolor 'różowy' nie jest jednym z: czerwony, niebieski, zielony, żółty, "
                                        "fioletowy")
    with pytest.raises(BadEntry) as taken:  # the same colour by another language's name: taken
        setup.add_player("Bob", "PIROS")
    assert "czerwony" in say(taken.value, "pl")


def test_no_colour_name_means_two_colours_across_the_languages():
    from companion import i18n
    from companion.words import SEAT_COLOUR_WORDS

    named: dict[str, str] = {}
    for lang in i18n.LANGUAGES:
        for colour, word in SEAT_COLOUR_WORDS.items():
            name = str(i18n.localize(word, lang)).casefold()
            assert named.setdefault(name, colour) == colour, (lang, name)
