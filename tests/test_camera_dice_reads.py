"""Roll's dice read by the camera: the strips read once the setup is reported, a face read unsure counted as
unreadable, and a game read for its dice alone speaking of dice, not cards (Roll for the Galaxy, p.3 Assign)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.camera import CameraFlow
from tests.camera_tables import frame_of, read_twice
from tests.test_camera_flow import FakeDiceReader, flow_of, halves, setup_roll


def test_dice_already_on_the_strips_are_read_once_the_setup_is_reported(store):
    """The table was read while the players were still setting up (no dice wanted, p.2 Setup); the setup finished on
    the phones with the dice already on the phase strips and nothing moved: the camera reads them then, once."""
    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30)), ("white", "explore", (340, 100, 30, 30))])
    flow = flow_of(store, "roll")
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    image = np.full((240, 640, 3), 70, np.uint8)
    cam.catch_up(0.0)
    assert not cam.due(0.0)  # no still table read yet: nothing to catch up
    read_twice(cam, image)
    assert reader.calls == 0 and cam.view()["questions"] == []
    # a game read for its dice alone says nothing of cards
    assert str(cam.message) == f"camera read {cam.confirm_reads}: no dice to read now"
    cam.catch_up(100.0)
    assert not cam.due(100.0)  # the game does not want the dice yet
    setup_roll(flow)
    cam.catch_up(200.0)
    assert cam.due(200.0)
    cam.read(frame_of(image, 5), 200.0)
    assert reader.calls == 1
    assert [q["text"] for q in cam.view()["questions"]] == ["Ann selected Develop? (dice: Develop 1)",
                                                           "Bob selected Explore? (dice: Explore 1)"]
    assert str(cam.message) == f"camera read {cam.confirm_reads + 1}: dice 2"
    cam.catch_up(300.0)
    while cam.due(300.0):
        cam.read(frame_of(image, 6), 300.0)
    flow.report("Ann", "select", {"phase": "develop"})
    cam.catch_up(400.0)
    assert not cam.due(400.0) and reader.calls == 1  # this still table's dice were read
    cam.schedule(500.0, asked=True)  # Read now on dice that did not move
    cam.read(frame_of(image, 7), 500.0)
    assert str(cam.message) == "same as before: dice 2"


@pytest.mark.parametrize(("lang", "read", "same", "idle"), [
    ("el", "ανάγνωση κάμερας 3: ζάρια 2", "ίδια με πριν: ζάρια 2",
     "ανάγνωση κάμερας 1: δεν υπάρχουν ζάρια για ανάγνωση τώρα"),
    ("pl", "odczyt kamery 3: kości: 2", "bez zmian: kości: 2", "odczyt kamery 1: teraz nie ma kości do odczytania"),
    ("hu", "3. kameraolvasás: 2 kocka", "ugyanaz, mint előbb: 2 kocka",
     "1. kameraolvasás: most nincs leolvasandó kocka")])
def test_a_game_read_for_its_dice_alone_says_the_dice_in_each_language(store, lang, read, same, idle):
    from companion import i18n
    from companion.camera.flow import Text

    assert i18n.localize(Text("camera read {read}: dice {dice}", read=3, dice=2), lang) == read
    assert i18n.localize(Text("same as before: dice {dice}", dice=2), lang) == same
    assert i18n.localize(Text("camera read {read}: no dice to read now", read=1), lang) == idle


def test_a_face_read_unsure_is_unreadable_in_the_phase_question(store):
    """Ann's strip: two Develop read surely (0.95), a Produce read at 0.3 and another at 0.55 (below 0.6, as a card
    identified below the camera's 0.6 is never built on): two unreadable, so Develop, not a tie going to Produce's
    count; the read kept with the event holds the faces as read."""
    from vision.roll_dice import RollDiceRead, RollDieObservation

    reader = FakeDiceReader([])
    reader.result = RollDiceRead(640, 240, (RollDieObservation("white", "develop", (20, 100, 30, 30), 0.95),
                                            RollDieObservation("white", "develop", (60, 100, 30, 30), 0.95),
                                            RollDieObservation("white", "produce", (100, 100, 30, 30), 0.3),
                                            RollDieObservation("white", "produce", (140, 100, 30, 30), 0.55),
                                            RollDieObservation("white", "produce", (180, 100, 30, 30), 0.6)), {})
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    read_twice(cam, np.full((240, 640, 3), 70, np.uint8))
    (q,) = cam.view()["questions"]
    assert q["text"] == "Ann selected Develop? (dice: Develop 2, Produce 1, 2 unreadable)"
    event = cam.confirm(q["id"])
    assert [d["face"] for d in event.payload["read"]["dice"]] == ["develop", "develop", "produce", "produce", "produce"]


class HeldWorker:
    """An executor whose reads run only when the test says (:meth:`run`): a read's timing under control."""

    def __init__(self):
        self.held = []

    def submit(self, fn, *args):
        from concurrent.futures import Future

        future = Future()
        self.held.append((future, fn, args))
        return future

    def run(self):
        for future, fn, args in self.held:
            future.set_result(fn(*args))
        self.held.clear()


def _begin_read(cam, worker, image, now):
    assert cam.due(now)
    cam.begin(frame_of(image, int(now)), now, None, worker)
    assert cam.pending


def test_a_read_begun_before_the_last_setup_is_read_again_as_the_strips_read(store):
    """Ann had reported her set-up, Bob not yet (p.2 Setup), when the still table's read began: no dice wanted. Bob's
    set-up lands while it runs; the read that ends is of the game as it was, so the table is planned again at once
    under the game as it stands and the dice on both strips are read (Ann: Develop 1, Bob: Explore 1), not a read of
    the set-up published in their place."""
    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30)), ("white", "explore", (340, 100, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    flow.session.undo("phone")  # Bob's set-up not reported yet
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    worker = HeldWorker()
    image = np.full((240, 640, 3), 70, np.uint8)
    cam.schedule(0.0)
    _begin_read(cam, worker, image, 0.0)
    flow.session.redo("phone")  # Bob reports his set-up while the read runs
    assert flow.engine_view()["players"][1]["faction"] is not None
    worker.run()
    assert cam.collect() == [] and cam.view()["questions"] == [] and cam.reads == 0
    _begin_read(cam, worker, image, 1.0)  # planned again at once, the dice wanted now
    worker.run()
    assert cam.collect() == []
    assert reader.calls == 1
    assert [q["text"] for q in cam.view()["questions"]] == ["Ann selected Develop? (dice: Develop 1)",
                                                           "Bob selected Explore? (dice: Explore 1)"]
    assert str(cam.message) == "camera read 1: dice 2" and not cam.due(2.0)


def test_a_read_begun_before_reveal_asks_no_selection_after_it(store):
    """The dice were read for the phase strips while both players were assigning (p.3 Assign); Ann and Bob reported
    their selections and Next revealed them (p.4 Reveal) while the read ran. The read asks nothing once it ends:
    after Reveal the phases are known, and a question "Ann selected Develop?" would record a selection in Reveal."""
    reader = FakeDiceReader([("white", "develop", (20, 100, 30, 30)), ("white", "explore", (340, 100, 30, 30))])
    flow = flow_of(store, "roll")
    setup_roll(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    worker = HeldWorker()
    image = np.full((240, 640, 3), 70, np.uint8)
    cam.schedule(0.0)
    _begin_read(cam, worker, image, 0.0)
    flow.report("Ann", "select", {"phase": "develop"})
    flow.report("Bob", "select", {"phase": "explore"})
    flow.next_phase()  # Reveal
    worker.run()
    assert cam.collect() == [] and cam.view()["questions"] == []
    _begin_read(cam, worker, image, 1.0)
    worker.run()
    cam.collect()
    assert cam.view()["questions"] == [] and reader.calls == 1
    assert flow.engine_view()["stage"] == "reveal" and not cam.due(2.0)
