"""Seat colours: each of Eclipse's nine seat colours has its own sign in its dot on both views (blue and black are
not both "B"), and the phone's dots are the touchscreen's (flow.js DOT / DOT_SIGN = canvas SEAT_COLOURS / SEAT_SIGNS);
a dark dot is ringed so it shows on the dark screen and page."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.flows import FLOWS
from companion.screen.canvas import BG, SEAT_COLOURS, SEAT_SIGNS, seat_sign

FLOW_JS = Path(__file__).resolve().parent.parent / "companion" / "static" / "flow.js"


def _js_object(name: str) -> dict[str, str]:
    """The flow.js object literal ``const NAME = {...};`` as a dict."""
    body = re.search(rf"const {name} = (\{{.*?\}});", FLOW_JS.read_text(), re.S).group(1)
    return json.loads(re.sub(r"(\w+):", r'"\1":', body))


def test_every_eclipse_colour_has_its_own_sign():
    colours = FLOWS["eclipse"].info.colours
    assert len(colours) == 9
    signs = [seat_sign(c) for c in colours]
    assert len(set(signs)) == 9, signs
    assert (seat_sign("blue"), seat_sign("black"), seat_sign("green"), seat_sign("grey")) == ("B", "Bk", "G", "Gy")
    assert seat_sign("orange") == "O" and seat_sign(None) == "?"


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
    from companion.flow import GameFlow, parse_players
    from companion.session import SessionStore

    spec = FLOWS["eclipse"]
    names = "Ann Bob Cy Dora Eve Fay Gus Hal Ivy".split()
    players = ",".join(f"{n}:{c}" for n, c in zip(names, spec.info.colours, strict=False))
    with SessionStore(tmp_path / "nine.sqlite3") as store:
        session = store.start("eclipse", spec.settings(parse_players(players, spec.info.colours), {}))
        yield GameFlow(session, spec)
