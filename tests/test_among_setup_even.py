"""Among the Stars set up at the table with "Split evenly": no zones are saved, so the camera finds each player's
station from its own Main Reactor and asks whose each one is, instead of reading an even split that gives a station
lying across it to the wrong player (each player builds their own station, Among the Stars rulebook 3 'Setup')."""

from __future__ import annotations

from types import SimpleNamespace

from companion.camera import CameraFlow
from companion.flows import FLOWS
from companion.setup_flow import TableSetup
from tests.test_among_camera_stations import (
    read,
    reader,
    store,  # noqa: F401 (fixture)
)
from tests.test_among_whose_station import BARE, TWO, WITH_CUSTOMS


def test_split_evenly_saves_no_zones_and_the_camera_asks_whose_each_station_is(store):  # noqa: F811
    setup = TableSetup(store, FLOWS["among"], {"races": ["", ""]})
    setup.add_player("Ann")
    setup.add_player("Bob")
    setup.seat("Ann", [5, 5])
    said = setup.even()
    assert said == ("no seats set: the camera finds each station from its Main Reactor and asks the table whose each "
                    "one is (rulebook 3 'Setup': each player builds their own station)")
    assert setup.view()["zones"] == "stations"   # each player is shown "no seat", not "even split"
    flow = setup.start((1000, 600))
    assert "zones" not in flow.session.settings and "seat_points" not in flow.session.settings
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TWO))
    assert cam.finds_stations
    read(cam)
    assert sorted(q["text"] for q in cam.view()["questions"]) == sorted([WITH_CUSTOMS, BARE])


def test_split_evenly_still_splits_a_game_read_by_zones(store):  # noqa: F811
    setup = TableSetup(store, FLOWS["race"])
    setup.add_player("Ann")
    setup.add_player("Bob")
    assert setup.even() == "the table is split evenly among the players"
    assert "zones" in setup.start((1000, 600)).session.settings
