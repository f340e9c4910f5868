"""Among the Stars with the camera and no zones: a waiting "whose station is this?" question follows its station as
the table changes, keeping its id: a card read again as another is named as it is now, a card hidden by a hand is not
dropped from the words, and a player given another station is no longer offered; the answer records the station as
the players last saw it asked.

Tables are ``tests/test_among_whose_station.py``'s (60x90 px cards on a 1000x600 px frame); the words are worked out by
hand from where the cards lie (a card one width right of the reactor is "1 right of the Main Reactor", Among the Stars
rulebook 5.1 'Grid and adjacency'; each player builds one station, rulebook 3 'Setup').
"""

from __future__ import annotations

from types import SimpleNamespace

from companion.camera import CameraFlow
from tests.test_among_camera_stations import (
    among,
    read,
    reader,
    store,  # noqa: F401 (fixture)
)
from tests.test_among_whose_station import BARE, TWO, WITH_CUSTOMS

EMBASSY = "Whose station is this: the Main Reactor with Embassy Offices (1 right of the Main Reactor)?"


def asked(cam: CameraFlow) -> dict[str, dict]:
    return {q["text"]: q for q in cam.view()["questions"]}


def test_a_card_read_again_as_another_is_named_as_it_is_now_and_the_answer_records_it(store):  # noqa: F811
    """Customs right of the reactor is read, on a later read, as Embassy Offices (a misread put right, or the card
    turned over): the same question names Embassy Offices, and the answer records it."""
    table = list(TWO)
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    qid = asked(cam)[WITH_CUSTOMS]["id"]
    table[1] = ("embassy_offices", 360, 450, False)
    read(cam)
    assert WITH_CUSTOMS not in asked(cam) and asked(cam)[EMBASSY]["id"] == qid
    event = cam.confirm(qid, "Ann")
    assert event.payload["cards"] == [["embassy_offices", [0, 1]]]


def test_a_card_hidden_by_a_hand_is_not_dropped_from_the_words(store):  # noqa: F811
    table = list(TWO)
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    first = {t: q["id"] for t, q in asked(cam).items()}
    del table[1]   # a hand over Customs: its reactor is seen bare
    read(cam)
    assert {t: q["id"] for t, q in asked(cam).items()} == first


THREE = [*TWO, ("main_reactor", 500, 150, False)]
"""Three stations for Ann, Bob and Cid: TWO's and a bare reactor at (500, 150): "towards the top" (0.25 of the height
above the middle, nothing across)."""
TOP = ("Whose station is this: a Main Reactor with no card identified beside it yet, towards the top of the camera's "
       "picture?")


def test_a_player_given_a_station_is_no_longer_offered_on_the_others_and_they_keep_their_ids(store):  # noqa: F811
    """Three players, three stations nothing tells apart: Ann taps Ann on the Customs station; the two other questions
    stay with their ids and offer Bob and Cid (before, each went and came back with a new id)."""
    flow = among(store, "Ann,Bob,Cid")
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(THREE))
    read(cam)
    first = {t: q["id"] for t, q in asked(cam).items()}
    assert sorted(first) == sorted([WITH_CUSTOMS, BARE, TOP])
    assert all(q["choices"] == ["Ann", "Bob", "Cid"] for q in asked(cam).values())
    cam.confirm(first[WITH_CUSTOMS], "Ann")
    read(cam)
    now = {t: q for t, q in asked(cam).items() if q["choose_player"]}   # and "Ann built Customs ...?"
    assert {t: q["id"] for t, q in now.items()} == {BARE: first[BARE], TOP: first[TOP]}
    assert all(q["choices"] == ["Bob", "Cid"] for q in now.values())
    event = cam.confirm(first[TOP], "Cid", origin="phone")
    assert (event.player, event.payload["at"]) == ("Cid", [500.0, 150.0])
