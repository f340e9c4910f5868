"""Among the Stars through the camera flow with no player zones saved (a game started with ``--players``, or Start
tapped before the first picture): each player's station is found from the cards around its own Main Reactor, and the
questions name places the player finds on their own station.

The table is a 1000x600 px frame with 60x90 px cards laid by hand; the card reader is replaced by one that gives
each card the zone and cell the real reader gives (:func:`vision.card_layout.assign_cells` in each zone around that
zone's reactor; no zones: one grid around the surest reactor), so what the flow does with no zones is what is tested.
Expected questions are worked out by hand from where the cards lie (rulebook 5.1 'Grid and adjacency').
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pytest

from companion.camera import CameraFlow
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.flows.among import reactor_place
from companion.i18n import localize
from companion.player_names import parse_players
from companion.session import SessionStore
from device import Frame
from vision.card_layout import assign_cells
from vision.cards import CardsConfig

W, H = 60.0, 90.0


def quad(cx: float, cy: float, turned: bool = False) -> np.ndarray:
    tl, tr = (cx - W / 2, cy - H / 2), (cx + W / 2, cy - H / 2)
    br, bl = (cx + W / 2, cy + H / 2), (cx - W / 2, cy + H / 2)
    return np.array([br, bl, tl, tr] if turned else [tl, tr, br, bl], np.float64)


@dataclass(frozen=True)
class Seen:
    id: str | None
    corners: np.ndarray
    confidence: float
    cell: tuple[int, int] | None
    zone: str | None


def reader(table: list[tuple[str, float, float, bool]]):
    """A card reader that sees ``table`` (id, centre x, y px, turned half round) as the real one lays it out."""

    def read_cards(frame, deck, calibration=None, zones=None, config=None):
        corners = [quad(x, y, t) for _, x, y, t in table]
        centres = np.array([c.mean(axis=0) for c in corners])
        ups = np.array([(c[0] + c[1]) / 2 - (c[2] + c[3]) / 2 for c in corners])
        ups /= np.linalg.norm(ups, axis=1)[:, None]
        sizes = np.array([[W, H]] * len(table))
        zone = [zones.zone_of(p) if zones is not None else None for p in centres]
        cells: list = [None] * len(table)
        for z in dict.fromkeys(zone):
            members = [k for k in range(len(table)) if zone[k] == z]
            anchors = [j for j, k in enumerate(members) if table[k][0] == (config.anchor_id if config else None)]
            sub = assign_cells(centres[members], ups[members], sizes[members], anchors[0] if anchors else None,
                               CardsConfig())
            for j, k in enumerate(members):
                cells[k] = sub[j]
        return SimpleNamespace(cards=[Seen(t[0], c, 0.95, cell, z) for t, c, cell, z
                                      in zip(table, corners, cells, zone, strict=True)], markers=None, notes=())

    return read_cards


@pytest.fixture
def store(tmp_path):
    with SessionStore(tmp_path / "box.sqlite3") as s:
        yield s


def among(store, players="Ann,Bob", seats=None) -> GameFlow:
    """A game started with no zones; ``seats``: the seats tapped in the Players step (kept when Start was tapped before
    the camera's first picture)."""
    settings = dict(FLOWS["among"].settings(parse_players(players), {}))
    if seats is not None:
        settings["seat_points"] = seats
    return GameFlow(store.start("among", settings), FLOWS["among"])


def read(cam: CameraFlow) -> list:
    cam.schedule(0.0)
    assert cam.due(0.0)
    return cam.read(Frame(image=np.zeros((600, 1000, 3), np.uint8), timestamp=0.0, index=0, source="synthetic"), 0.0)


ACROSS_THE_MIDDLE = [("main_reactor", 200, 450, False), ("customs", 260, 450, False),
                     ("main_reactor", 700, 250, True), ("embassy_offices", 700, 340, True)]
"""Ann's station in the bottom half: Customs right of her reactor. Bob's, read from the far side, in the top half: his
Embassy Offices at (700, 340) lies one card towards the frame's bottom, which is *up* as his turned reactor reads, so
it is his [-1, 0]; it lies across the middle of the frame, in what an even split calls Ann's half. Ann tapped her seat
at the bottom edge (200, 590), Bob at the top (700, 10)."""


def test_a_station_across_the_even_split_is_read_whole_as_its_players(store):
    """No zones, the seats tapped: the box finds both stations, each nearest its player's seat, and Bob's Embassy
    Offices is asked about as his, one above his reactor. Before, the even split gave the Embassy Offices to Ann ("Ann
    built Embassy Offices at [-1, 8]?", a cell counted from her reactor)."""
    flow = among(store, seats={"Ann": [200, 590], "Bob": [700, 10]})
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(ACROSS_THE_MIDDLE))
    assert cam.finds_stations
    read(cam)
    texts = sorted(q["text"] for q in cam.view()["questions"])
    assert texts == ["Ann built Customs: 1 right of the Main Reactor?",
                     "Bob built Embassy Offices: 1 above the Main Reactor?"]
    payloads = sorted((q["player"], q["payload"]["cell"]) for q in cam.view()["questions"])
    assert payloads == [("Ann", [0, 1]), ("Bob", [-1, 0])]
    assert cam.zones is None
    assert cam.view()["reader_notes"] == []


def test_stations_the_box_cannot_tell_apart_are_not_guessed_and_the_table_is_told_how_to_set_the_seats(store):
    """Two stations, nothing built and no seats: no question names a builder or a place; the table is asked whose
    each station is (below), told once, and nothing is recorded as gone from anyone's station."""
    table = [("main_reactor", 300, 450, False), ("customs", 360, 450, False), ("main_reactor", 700, 450, False)]
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    assert read(cam) == []
    view = cam.view()
    assert all(q["choose_player"] and q["player"] == "" for q in view["questions"]) and len(view["questions"]) == 2
    assert view["misplays"] == [] and view["notes"] == {}
    assert len(view["reader_notes"]) == 1
    assert "Ann, Bob" in view["reader_notes"][0] and "whose station is this?" in view["reader_notes"][0]
    for lang in ("el", "pl", "hu"):
        said = localize(view["reader_notes"][0], lang)
        assert "Ann, Bob" in said and said != view["reader_notes"][0]


def test_the_recorded_build_then_tells_the_stations_apart(store):
    """The same table once Ann has reported Customs at [0, 1] on her phone: the station holding it is hers, the other
    Bob's; nothing more to ask (Customs is recorded), no note."""
    table = [("main_reactor", 300, 450, False), ("customs", 360, 450, False), ("main_reactor", 700, 450, False)]
    flow = among(store)
    flow.session.append("location_built", {"card": "Customs", "cell": [0, 1]}, player="Ann")
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    view = cam.view()
    assert view["questions"] == [] and view["reader_notes"] == []
    assert sorted(cam.watchers) == ["Ann", "Bob"]
    assert dict(cam.watchers["Ann"].layout) == {(0, 0): "main_reactor", (0, 1): "customs"}


def test_saved_zones_are_still_read_zone_by_zone(store):
    """A game whose seats were tapped (zones saved) reads each zone as its player's: no station finding."""
    from vision.table import Zones

    zones = Zones({"Ann": np.array([[0, 300], [1000, 300], [1000, 600], [0, 600]], float),
                   "Bob": np.array([[0, 0], [1000, 0], [1000, 300], [0, 300]], float)}, units="px")
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), zones=zones, read_cards=reader(ACROSS_THE_MIDDLE[:2]))
    assert not cam.finds_stations
    read(cam)
    assert [q["text"] for q in cam.view()["questions"]] == ["Ann built Customs: 1 right of the Main Reactor?"]


@pytest.mark.parametrize("cell, english", [
    ((0, 1), "1 right of the Main Reactor"),
    ((0, -2), "2 left of the Main Reactor"),
    ((-1, 0), "1 above the Main Reactor"),
    ((3, 0), "3 below the Main Reactor"),
    ((-2, 1), "2 above and 1 right of the Main Reactor"),
    ((-1, -3), "1 above and 3 left of the Main Reactor"),
    ((2, 7), "2 below and 7 right of the Main Reactor"),
    ((1, -1), "1 below and 1 left of the Main Reactor"),
    ((0, 0), "on the Main Reactor"),
])
def test_a_place_is_said_from_the_players_own_reactor(cell, english):
    """Rows run down and columns right as the reactor reads (rulebook 5.1's grid, the Main Reactor its first cell)."""
    assert reactor_place(cell) == english


def test_a_place_in_every_language():
    """Hand-checked: Greek names the reactor with its article, Polish as "karta", Hungarian with "hellyel"."""
    place = reactor_place((-2, 1))
    assert localize(place, "el") == "2 πάνω και 1 δεξιά από τον Main Reactor"
    assert localize(place, "pl") == "2 w górę i 1 w prawo od karty Main Reactor"
    assert localize(place, "hu").endswith("kártyától 2 hellyel feljebb és 1 hellyel jobbra")


def test_a_malformed_cell_is_named():
    with pytest.raises(ValueError, match=r"\[row, column\]"):
        reactor_place("b2")


def test_the_table_check_says_the_stations_are_found_from_the_cards_and_draws_no_even_split(store, tmp_path):
    """A game whose zones are not known when the check looks (saved in table mm for a box without its calibration, or
    none): the check draws no even split it will not use, and says the camera reads the whole table."""
    from tests.test_evening import do, evening, library

    made = []

    def camera(flow):
        cam = CameraFlow(flow, deck=SimpleNamespace(art=None))
        cam.zones = None  # as when the saved zones cannot be used
        made.append(cam)
        return cam

    loop = evening(store, tmp_path, lib=library(store, tmp_path, make_camera=camera))
    do(loop, "choose_game", game="among")
    for name in ("Ann", "Bob"):
        do(loop, "setup_player", player=name)
    do(loop, "setup_even")
    do(loop, "setup_start")
    check = loop.view()["check"]
    assert made[0].finds_stations
    assert check["zones"] == {} and check["stations"] is True


@pytest.mark.parametrize("points", [{"Ann": "bottom", "Bob": [700, "far"], "Cid": [1]}, ["Ann", 3], "seats",
                                    {"Ann": [10**400, 590], "Bob": "79"}])
def test_damaged_seats_in_a_stored_game_tell_nothing_and_stop_nothing(store, points):
    """Seats kept in a game edited by hand (a word, a point with a word, a list, a number too large for any picture, a
    word of two digits): left out, so the stations are not told apart and the table is told; the read goes on."""
    flow = among(store, seats=points)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(ACROSS_THE_MIDDLE))
    read(cam)
    view = cam.view()
    assert view["message"] == "camera read 1: cards 4"
    assert len(view["reader_notes"]) == 1
    assert [q["choices"] for q in view["questions"]] == [["Ann", "Bob"], ["Ann", "Bob"]]   # whose is each station?
