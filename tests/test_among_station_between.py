"""Among the Stars with the camera and no zones: a card laid as near to one station as to another is neither's, and
the table is told which two stations it lies between (by their players, once known) and to push it flush against its
own (a station grows by cards sharing a full edge: Among the Stars rulebook, 5.1 'Grid and adjacency').

The table (60x90 px cards on a 1000x600 px frame): Ann's reactor at (300, 450) with Customs right of it at (360, 450),
Bob's reactor at (540, 450), and Garden at (450, 450): 90 px (1.5 card widths) from Customs and from Bob's reactor,
joined to neither (a joined card lies one width, 60 px, beside another).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from companion.camera import CameraFlow
from tests.test_among_camera_stations import (
    among,
    quad,
    read,
    reader,
    store,  # noqa: F401 (fixture)
)
from vision.stations import find_stations

TABLE = [("main_reactor", 300, 450, False), ("customs", 360, 450, False), ("main_reactor", 540, 450, False),
         ("garden", 450, 450, False)]
SEATS = {"Ann": [300.0, 590.0], "Bob": [540.0, 590.0]}


def test_a_card_as_near_to_two_stations_is_neithers():
    quads = np.array([quad(x, y, t) for _c, x, y, t in TABLE])
    found = find_stations(quads, [c for c, *_ in TABLE], {"main_reactor"})
    assert [s.members for s in found.stations] == [(0, 1), (2,)]
    assert found.between == {3: (0, 2)} and 3 in found.loose


def test_a_card_nearer_to_one_station_is_that_stations_between_cells():
    """Garden moved 10 px towards Bob's reactor (80 px from it, not joined; 100 from Customs): Bob's, between cells."""
    table = [*TABLE[:3], ("garden", 460, 450, False)]
    quads = np.array([quad(x, y, t) for _c, x, y, t in table])
    found = find_stations(quads, [c for c, *_ in table], {"main_reactor"})
    assert found.between == {} and found.stations[1].members == (2, 3) and found.stations[1].cells[3] is None


def test_the_table_is_told_which_two_players_stations_the_card_lies_between(store):  # noqa: F811
    flow = among(store, seats=SEATS)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TABLE))
    read(cam)
    view = cam.view()
    assert view["reader_notes"] == ["Garden lies as near to Ann's station as to Bob's: push it flush against the "
                                    "station it belongs to (rulebook 5.1 'Grid and adjacency': a card shares a full "
                                    "edge with its station)"]
    assert sorted(q["text"] for q in view["questions"]) == ["Ann built Customs: 1 right of the Main Reactor?"]
    assert view["notes"] == {}   # no player is told their Garden lies between cells


def test_before_the_stations_are_told_apart_the_card_is_said_between_two_stations(store):  # noqa: F811
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TABLE))
    read(cam)
    assert ("Garden lies as near to one station as to another: push it flush against the station it belongs to "
            "(rulebook 5.1 'Grid and adjacency': a card shares a full edge with its station)") in \
        cam.view()["reader_notes"]


def test_with_one_stations_player_known_the_card_is_said_beside_that_players_station(store):  # noqa: F811
    """Three players, two stations on the table and none tapped: the table answers "whose station is this?" for the
    reactor with Customs (Ann's), Bob's or Cy's station is still not known. The Garden between the two was said to lie
    "as near to one station as to another", naming no one though Ann's station is known; now it names hers, in each
    language."""
    from companion import i18n

    flow = among(store, players="Ann,Bob,Cy")
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(TABLE))
    read(cam)
    customs = next(q for q in cam.view()["questions"] if "Customs" in q["text"])
    cam.confirm(customs["id"], "Ann", origin="phone")
    read(cam)
    notes = [n for n in cam.view()["reader_notes"] if "Garden" in n]
    assert notes == ["Garden lies as near to Ann's station as to another station: push it flush against the station "
                     "it belongs to (rulebook 5.1 'Grid and adjacency': a card shares a full edge with its station)"]
    said = cam.station_seats.between[0]
    assert "(κάτοχος του ενός: Ann)" in i18n.say(said, "el") and "stacji (Ann) jak innej" in i18n.say(said, "pl")
    assert "Ann űrállomásához, mint egy másik" in i18n.say(said, "hu")
