"""Among the Stars with the camera and no zones saved: "whose station is this?", one tap per station the box cannot
tell apart, and what the table is told when no Main Reactor is in view.

The table is the 1000x600 px frame of ``tests/test_among_camera_stations.py`` (60x90 px cards, its card reader
stand-in). Ann's and Bob's stations lie side by side with nothing recorded and no seats tapped, so nothing tells them
apart (each player builds their own station from their own Main Reactor: Among the Stars rulebook, 3 'Setup'). The
expected words are worked out by hand from where the cards lie (rulebook 5.1 'Grid and adjacency': a card one width
right of the reactor is "1 right of the Main Reactor").
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.camera import CameraFlow
from companion.camera.station_ask import picture_side
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.i18n import localize
from rules import BadEvent
from tests.test_among_camera_stations import (
    among,
    read,
    reader,
    store,  # noqa: F401 (fixture)
)

TWO = [("main_reactor", 300, 450, False), ("customs", 360, 450, False), ("main_reactor", 700, 450, False)]
"""A station with Customs right of its reactor at (300, 450), and a bare reactor at (700, 450): in a 1000x600 picture
that is 0.2 of the width right of the middle and 0.25 of the height below it, so "towards the bottom"."""
WITH_CUSTOMS = "Whose station is this: the Main Reactor with Customs (1 right of the Main Reactor)?"
BARE = ("Whose station is this: a Main Reactor with no card identified beside it yet, towards the bottom of the "
        "camera's picture?")


def camera(flow, table=TWO) -> CameraFlow:
    return CameraFlow(flow, deck=SimpleNamespace(art=None), read_cards=reader(table))


def asked(cam: CameraFlow) -> dict[str, dict]:
    return {q["text"]: q for q in cam.view()["questions"]}


def test_each_station_nothing_tells_apart_is_asked_about_by_its_cards_with_the_players_as_answers(store):  # noqa: F811
    cam = camera(among(store))
    assert read(cam) == []
    questions = asked(cam)
    assert sorted(questions) == sorted([WITH_CUSTOMS, BARE])
    for q in questions.values():   # no answer of its own: one tap on a player
        assert q["choose_player"] and q["player"] == "" and q["choices"] == ["Ann", "Bob"] and q["proposed"] is None
    assert questions[WITH_CUSTOMS]["payload"] == {"at": [300.0, 450.0], "cards": [["customs", [0, 1]]]}
    assert cam.watchers == {}   # nothing read for either player yet
    note = cam.view()["reader_notes"]
    assert len(note) == 1 and "whose station is this?" in note[0]


def test_a_tap_gives_the_station_to_that_player_and_the_other_follows(store):  # noqa: F811
    """Bob is the bare reactor's player: recorded as station_claimed for Bob; on the next read Bob's station is that
    one and Ann's the other (the only one left), so the box asks what it asks of any station: Ann's Customs."""
    flow = among(store)
    cam = camera(flow)
    read(cam)
    event = cam.confirm(asked(cam)[BARE]["id"], "Bob", origin="phone")
    assert (event.kind, event.player, event.origin, event.payload["at"]) == ("station_claimed", "Bob", "camera",
                                                                             [700.0, 450.0])
    assert flow.describe(event) == "Bob: Station claimed (camera question)"
    read(cam)
    assert sorted(asked(cam)) == ["Ann built Customs: 1 right of the Main Reactor?"]
    assert sorted(cam.watchers) == ["Ann", "Bob"] and cam.view()["reader_notes"] == []


def test_the_answer_survives_a_restart(store):  # noqa: F811
    flow = among(store)
    cam = camera(flow)
    read(cam)
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    again = camera(flow)   # the box restarted: its camera remembers nothing but the game's events
    read(again)
    assert sorted(asked(again)) == ["Ann built Customs: 1 right of the Main Reactor?"]
    assert again.view()["reader_notes"] == []


def test_the_tables_undo_withdraws_the_answer_and_the_question_is_asked_again(store):  # noqa: F811
    """Undo after a tap on Ann: the station is nobody's again, and so is Bob's, which the answer had told apart."""
    from companion.modes.dice import undo

    flow = among(store)
    cam = camera(flow)
    read(cam)
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam)
    assert sorted(cam.station_seats.where) == ["Ann", "Bob"]
    claim = next(e for e in flow.session.events() if e.kind == "station_claimed")
    flow.session.append("undo", {"seq": claim.seq}, origin="touchscreen")
    read(cam)
    assert {WITH_CUSTOMS, BARE} <= set(asked(cam)) and cam.view()["reader_notes"] != []
    assert cam.station_seats.where == {}
    flow = among(store)   # the table's Undo right after the tap names what it withdrew
    cam = camera(flow)
    read(cam)
    cam.confirm(asked(cam)[BARE]["id"], "Bob")
    assert undo(flow.session, "touchscreen", flow.describe).message == "undone: Bob: Station claimed (camera question)"


def test_a_question_keeps_its_id_across_reads_and_a_dismissed_one_is_not_asked_again_while_seen(store):  # noqa: F811
    cam = camera(among(store))
    read(cam)
    first = {t: q["id"] for t, q in asked(cam).items()}
    read(cam)
    assert {t: q["id"] for t, q in asked(cam).items()} == first   # a phone answering meanwhile answers it
    cam.dismiss(first[BARE])
    read(cam)
    assert sorted(asked(cam)) == [WITH_CUSTOMS]


def test_a_question_waiting_when_the_box_restarts_is_asked_again_as_it_was(store):  # noqa: F811
    """The same ids and words after a restart and the next read, so a phone that showed it before answers it."""
    flow = among(store)
    cam = camera(flow)
    read(cam)
    first = {t: q["id"] for t, q in asked(cam).items()}
    again = camera(flow)
    assert {t: q["id"] for t, q in asked(again).items()} == first
    read(again)
    assert {t: q["id"] for t, q in asked(again).items()} == first
    again.confirm(first[BARE], "Bob")
    assert [e.player for e in flow.session.events() if e.kind == "station_claimed"] == ["Bob"]


def test_an_answer_naming_no_player_or_another_is_refused_and_the_question_stays(store):  # noqa: F811
    flow = among(store)
    cam = camera(flow)
    read(cam)
    qid = asked(cam)[BARE]["id"]
    with pytest.raises(BadEntry, match=r"tap the player it belongs to \(Ann, Bob\)"):
        cam.confirm(qid)
    with pytest.raises(BadEntry,
                       match=r"'Cid' is not one of the players it may belong to; tap one of them \(Ann, Bob\)"):
        cam.confirm(qid, "Cid")
    with pytest.raises(BadEntry, match=r"\['Ann'\] is not one of the players"):
        cam.confirm(qid, ["Ann"])
    with pytest.raises(BadEntry, match=r"'A{28}\.\.\. is not one of the players"):
        cam.confirm(qid, "A" * 5000)
    assert flow.session.events() == [] and BARE in asked(cam)


def test_the_seat_an_answer_speaks_for_is_the_player_it_picks(store):  # noqa: F811
    """A phone holding Bob's seat may say a station is Bob's, not that it is Ann's while another phone holds hers:
    the seat checked is the one picked (the box's seat rule for every report)."""
    cam = camera(among(store))
    read(cam)
    qid = asked(cam)[BARE]["id"]
    assert cam.player_of(qid, "Bob") == "Bob" and cam.player_of(qid, "Ann") == "Ann"
    assert cam.player_of(qid) is None and cam.player_of(qid, "Cid") is None and cam.player_of(qid, ["Ann"]) is None


def test_the_questions_are_said_in_each_language(store):  # noqa: F811
    cam = camera(among(store))
    read(cam)
    texts = [q["text"] for q in cam.view()["questions"]]
    said = {lang: [localize(t, lang) for t in texts] for lang in ("el", "pl", "hu")}
    assert said["el"][0] == "Ποιανού είναι αυτός ο σταθμός: ο Main Reactor με Customs (1 δεξιά από τον Main Reactor);"
    assert said["pl"][0] == ("Czyja to stacja: karta Main Reactor, a obok niej: Customs (1 w prawo od karty Main "
                             "Reactor)?")
    assert said["hu"][0].startswith("Kié ez az űrállomás: a Főreaktor, mellette: Customs (a Főreaktor kártyától 1 "
                                    "hellyel jobbra)")
    assert "κάτω μέρος της εικόνας της κάμερας" in said["el"][1] and "u dołu obrazu z kamery" in said["pl"][1]
    assert "a kamera képének alja felé" in said["hu"][1]


@pytest.mark.parametrize("at, side", [((500, 300), "in the middle of the camera's picture"),
                                      ((950, 320), "towards the right of the camera's picture"),
                                      ((40, 200), "towards the left of the camera's picture"),
                                      ((520, 590), "towards the bottom of the camera's picture"),
                                      ((480, 10), "towards the top of the camera's picture")])
def test_a_bare_reactor_is_placed_in_the_camera_picture(at, side):
    assert picture_side(at, (1000, 600)) == side


def test_a_picture_of_no_size_is_named():
    with pytest.raises(ValueError, match="two positive numbers"):
        picture_side((1, 1), (0, 600))


def test_a_layout_with_no_main_reactor_identified_tells_the_table(store):  # noqa: F811
    """Cards on the table, none of them read as a Main Reactor: nothing is read and nothing asked, and the table is
    told why and what to do, in every language."""
    table = [(None, 300, 450, False), ("customs", 360, 450, False), ("garden", 700, 450, False)]
    cam = camera(among(store), table)
    read(cam)
    view = cam.view()
    assert view["questions"] == [] and cam.watchers == {}
    assert len(view["reader_notes"]) == 1
    note = view["reader_notes"][0]
    assert note.startswith("no Main Reactor in view: ") and "face up in the camera's view" in note
    assert localize(note, "el").startswith("δεν φαίνεται κανένας Main Reactor: ")
    assert localize(note, "pl").startswith("nie widać żadnej karty Main Reactor: ")
    assert localize(note, "hu").startswith("egyetlen Főreaktor kártya sem látszik: ")


@pytest.mark.parametrize("at", [None, [1], [1, "2"], [True, 0], "700,450", {"x": 1, "y": 2}, [10**400, 0]],
                         ids=repr)
def test_a_claim_with_no_place_in_the_picture_is_refused(store, at):  # noqa: F811
    flow = among(store)
    with pytest.raises(BadEvent, match="the Main Reactor's place"):
        flow.session.append("station_claimed", {"at": at}, player="Ann")
    with pytest.raises(BadEvent, match="no player"):
        flow.session.append("station_claimed", {"at": [1, 2]}, player="Cid")
    assert flow.session.events() == []


def test_an_answer_stays_one_undo_away_however_many_camera_reads_came_after_it(store):  # noqa: F811
    """Ann tapped Ann on the bare reactor, which is Bob's: the reads after it record the camera's station reads, yet
    the table's Undo takes back her answer (what a player did), and so does her phone's "Undo my last report"; the
    reads stay in the log, the undo names the answer, and a replay of the log gives the same game."""
    from companion.modes.dice import undo

    flow = among(store)
    cam = camera(flow)
    read(cam)
    wrong = cam.confirm(asked(cam)[BARE]["id"], "Ann")
    for _ in range(3):
        read(cam)
    reads = [e for e in flow.session.events() if e.kind == "station_read"]
    assert reads and all(e.seq > wrong.seq for e in reads)   # the camera's reads came after the answer
    taken = undo(flow.session, "touchscreen", flow.describe, flow.spec.camera_records)
    assert taken.message == "undone: Ann: Station claimed (camera question)"
    assert taken.events[0].payload == {"seq": wrong.seq}
    assert [e.seq for e in flow.session.events() if e.kind == "station_read"] == [e.seq for e in reads]
    read(cam)
    assert {WITH_CUSTOMS, BARE} <= set(asked(cam))   # nobody's again: asked again
    again = GameFlow(store.get(flow.session.id), FLOWS["among"])   # the box restarted: the log replayed
    assert again.session.replay().state == flow.session.replay().state
    assert again.session.replay().applied == flow.session.replay().applied
    # the same from Ann's phone: her newest report is her answer, not the camera's read of her station
    right = cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam)
    read(cam)
    withdrawn = flow.undo_report("Ann")
    assert withdrawn is not None and withdrawn.payload == {"seq": right.seq}
    # with only the camera's reads in force, there is nothing a player did to undo
    assert undo(flow.session, "touchscreen", flow.describe, flow.spec.camera_records).message == "nothing to undo"


def test_a_build_question_asked_because_of_an_answer_goes_when_the_answer_is_undone(store):  # noqa: F811
    """Ann's answer told the two stations apart, so her Customs was asked about; once her answer is undone nothing
    tells them apart, and "Ann built Customs" is withdrawn: a phone answering it is told why; answered again, the
    build is asked again."""
    from companion.camera.answers import NotWaiting
    from companion.modes.dice import undo

    flow = among(store)
    cam = camera(flow)
    read(cam)
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam)
    build = asked(cam)["Ann built Customs: 1 right of the Main Reactor?"]["id"]
    undo(flow.session, "touchscreen", flow.describe, flow.spec.camera_records)
    read(cam)
    assert "Ann built Customs: 1 right of the Main Reactor?" not in asked(cam)
    with pytest.raises(NotWaiting, match="the box can no longer tell whose station it is"):
        cam.confirm(build)
    assert not [e for e in flow.session.events() if e.kind == "location_built"]
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam)
    assert "Ann built Customs: 1 right of the Main Reactor?" in asked(cam)


def test_the_tables_undo_of_an_answer_takes_the_last_read_again_at_once(store):  # noqa: F811
    """Nothing moves on the table when a player taps Undo, so the camera would not read again by itself: the box takes
    what it saw last again under the answers still in force, and Ann's build question goes at once."""
    import numpy as np

    from companion.actions import posted
    from companion.modes.play import PlayMode
    from device import Frame

    flow = among(store)
    cam = camera(flow)
    read(cam)
    cam.confirm(asked(cam)[WITH_CUSTOMS]["id"], "Ann")
    read(cam)
    assert "Ann built Customs: 1 right of the Main Reactor?" in asked(cam) and not cam.due(5.0)
    mode = PlayMode(SimpleNamespace(clock=lambda: 5.0), flow, cam)
    outcome = mode.handle(posted({"action": "undo", "origin": "touchscreen"}))
    assert outcome.message == "undone: Ann: Station claimed (camera question)"
    assert cam.due(5.0)
    cam.read(Frame(image=np.zeros((600, 1000, 3), np.uint8), timestamp=5.0, index=1, source="synthetic"), 5.0)
    assert "Ann built Customs: 1 right of the Main Reactor?" not in asked(cam) and WITH_CUSTOMS in asked(cam)


def test_a_bare_reactors_question_is_named_by_the_card_built_beside_it_keeping_its_id(store):  # noqa: F811
    """Bob's reactor was bare when first asked about; Bob builds Garden left of it (one card width left is "1 left of
    the Main Reactor", rulebook 5.1): the question waiting says so now, with the same id, so a phone showing it
    answers it; the answer records the station as it was named."""
    flow = among(store)
    cam = camera(flow)
    read(cam)
    qid = asked(cam)[BARE]["id"]
    grown = [*TWO, ("garden", 640, 450, False)]
    cam._read_cards = reader(grown)
    read(cam)
    words = "Whose station is this: the Main Reactor with Garden (1 left of the Main Reactor)?"
    assert asked(cam)[words]["id"] == qid and BARE not in asked(cam)
    again = camera(flow, grown)   # after a restart: the question kept in its new words
    assert asked(again)[words]["id"] == qid
    read(again)
    assert asked(again)[words]["id"] == qid
    event = again.confirm(qid, "Bob")
    assert event.payload["cards"] == [["garden", [0, -1]]]


def test_a_player_given_one_station_is_not_given_a_second(store):  # noqa: F811
    """Ann answered the Customs station; tapping Ann on the bare reactor too is refused (each player builds one
    station, rulebook 3 'Setup'), naming how to take the first answer back; her answer stays in force, the question
    stays, and Bob may still answer it."""
    flow = among(store)
    cam = camera(flow)
    read(cam)
    q = asked(cam)
    cam.confirm(q[WITH_CUSTOMS]["id"], "Ann")
    with pytest.raises(BadEntry, match=r"Ann has a station already .*each player builds one station \(rulebook 3 "
                                       r"'Setup'\)\. If that answer was wrong, undo it first"):
        cam.confirm(q[BARE]["id"], "Ann")
    assert [(e.kind, e.player) for e in flow.session.events()] == [("station_claimed", "Ann")]
    assert BARE in asked(cam)
    assert cam.confirm(q[BARE]["id"], "Bob").player == "Bob"


def test_an_answer_after_the_station_left_the_view_is_told_why(store):  # noqa: F811
    """Bob's bare reactor is taken off the table before anyone answers: its question goes once the station stays unseen
    for more reads than a hand rests over one (``HIDDEN_READS``), and a phone answering it late is told it went because
    the box no longer sees that station, not that another phone answered."""
    from companion.camera.answers import NotWaiting
    from companion.camera.station_ask import HIDDEN_READS

    flow = among(store)
    cam = camera(flow)
    read(cam)
    qid = asked(cam)[BARE]["id"]
    cam._read_cards = reader(TWO[:2])
    for _ in range(HIDDEN_READS + 1):
        read(cam)
    assert BARE not in asked(cam)
    with pytest.raises(NotWaiting, match="withdrawn: the box now knows whose station it is, or no longer sees it"):
        cam.confirm(qid, "Bob")
    assert flow.session.events() == []


def test_an_answer_takes_the_last_read_again_at_once_so_the_other_station_follows(store):  # noqa: F811
    """Ann taps Ann on the Customs station (nothing moves on the table): the box takes what it saw last again, so
    Bob's station follows by elimination (two players, two stations), its question and the note go, and Ann's Customs
    is asked about."""
    import numpy as np

    from companion.actions import posted
    from companion.modes.play import PlayMode
    from device import Frame

    flow = among(store)
    cam = camera(flow)
    read(cam)
    mode = PlayMode(SimpleNamespace(clock=lambda: 5.0), flow, cam)
    qid = asked(cam)[WITH_CUSTOMS]["id"]
    mode.handle(posted({"action": "camera_confirm", "origin": "phone", "id": qid, "choice": "Ann"}))
    assert cam.due(5.0)
    cam.read(Frame(image=np.zeros((600, 1000, 3), np.uint8), timestamp=5.0, index=1, source="synthetic"), 5.0)
    assert sorted(asked(cam)) == ["Ann built Customs: 1 right of the Main Reactor?"]
    assert cam.view()["reader_notes"] == []
