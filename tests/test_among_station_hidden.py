"""Among the Stars with the camera and no zones: a station hidden on a still read (a hand resting over it, a card laid
on it) is the same station when it comes back, so its player's build questions stay asked, with the same ids, and a
phone answering one meanwhile is not refused.

The table is ``tests/test_among_whose_station.py``'s: Ann's reactor at (300, 450) with Customs right of it, Bob's bare
reactor at (700, 450); each player tapped their seat at the near edge below their station, so the box tells the
stations apart (each player builds their own station from their own Main Reactor: Among the Stars rulebook,
3 'Setup'). Customs one card width right of Ann's reactor is "1 right of the Main Reactor" (rulebook 5.1 'Grid and
adjacency').
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
from tests.test_among_whose_station import TWO

SEATS = {"Ann": [300.0, 590.0], "Bob": [700.0, 590.0]}
CUSTOMS = "Ann built Customs: 1 right of the Main Reactor?"


def asked(cam: CameraFlow) -> dict[str, int]:
    return {q["text"]: q["id"] for q in cam.view()["questions"]}


def test_a_station_hidden_on_a_read_keeps_its_build_question_and_its_id(store):  # noqa: F811
    table = list(TWO)
    flow = among(store, seats=SEATS)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    first = asked(cam)
    assert list(first) == [CUSTOMS]
    table[:] = [TWO[2]]   # a hand over Ann's station: only Bob's reactor is seen
    read(cam)
    assert asked(cam) == first
    table[:] = TWO   # the hand lifted: the same station, the same question
    read(cam)
    assert asked(cam) == first


def test_a_phone_answers_a_build_question_while_its_station_is_hidden(store):  # noqa: F811
    table = list(TWO)
    flow = among(store, seats=SEATS)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    qid = asked(cam)[CUSTOMS]
    table[:] = [TWO[2]]
    read(cam)
    event = cam.confirm(qid, origin="phone")
    assert (event.kind, event.player, event.payload["cell"]) == ("location_built", "Ann", [0, 1])
    table[:] = TWO
    read(cam)
    assert asked(cam) == {}   # built: not asked again
    assert [e.kind for e in flow.session.events() if e.kind == "location_built"] == ["location_built"]


def test_a_whose_station_question_keeps_its_id_while_its_station_is_hidden_for_a_read_or_two(store):  # noqa: F811
    """No seats tapped: both stations are asked about. A hand over the bare reactor for two reads: its question stays
    (the same id, its picture kept) and is answered meanwhile from a phone; the station with Customs keeps its own."""
    from tests.test_among_whose_station import BARE, WITH_CUSTOMS

    table = list(TWO)
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    first = asked(cam)
    assert sorted(first) == sorted([WITH_CUSTOMS, BARE])
    pictures = [q["picture"] for q in cam.view()["questions"]]
    table[:] = TWO[:2]   # a hand over the bare reactor at (700, 450)
    read(cam)
    read(cam)
    assert asked(cam) == first
    assert [q["picture"] for q in cam.view()["questions"]] == pictures and all(pictures)
    event = cam.confirm(first[BARE], "Bob", origin="phone")
    assert (event.kind, event.player, event.payload["at"]) == ("station_claimed", "Bob", [700.0, 450.0])


def test_a_whose_station_question_goes_once_its_station_stays_unseen(store):  # noqa: F811
    """A station unseen for more reads than a hand rests (HIDDEN_READS, 3): its question is withdrawn, and a late
    answer is told why; the other station's question stays as it was."""
    import pytest

    from companion.camera.answers import NotWaiting
    from companion.camera.station_ask import HIDDEN_READS
    from tests.test_among_whose_station import BARE, WITH_CUSTOMS

    table = list(TWO)
    flow = among(store)
    cam = CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))
    read(cam)
    first = asked(cam)
    table[:] = TWO[:2]
    for _ in range(HIDDEN_READS):
        read(cam)
    assert asked(cam) == first
    read(cam)
    assert asked(cam) == {WITH_CUSTOMS: first[WITH_CUSTOMS]}
    with pytest.raises(NotWaiting, match="no longer sees it"):
        cam.confirm(first[BARE], "Bob")
