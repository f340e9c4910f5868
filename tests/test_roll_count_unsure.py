"""Roll for the Galaxy's end-of-game dice count from the camera (p.8 Victory: the cost-6 bonuses that count dice by
colour and the tie-break, dice in the cup + credits): a die whose colour the camera reads less surely than the bar the
phase questions use (``SURE_FACE``, 0.6) is left out of the count with a note naming the colour it looks like, never
counted silently. Expectations worked by hand: the dice listed below, less the unsure ones."""

from __future__ import annotations

import numpy as np

from companion.camera import CameraFlow
from companion.flows.roll import ROLL_CAMERA
from companion.flows.roll_camera import SURE_FACE
from tests.camera_tables import read_twice
from tests.test_camera_flow import flow_of, halves, roll_to_the_end, setup_roll


def die(colour, face, x, y, confidence):
    return {"colour": colour, "face": face, "box": [x, y, 30, 30], "confidence": confidence}


class ReadsInTurn:
    """Stands in for the Roll dice reader: each call reads the next table (colour, face, box px, confidence 0-1)."""

    def __init__(self, *tables):
        from vision.roll_dice import RollDiceRead, RollDieObservation

        self.reads = [RollDiceRead(640, 240, tuple(RollDieObservation(*d) for d in t), {}) for t in tables]
        self.calls = 0

    def read(self, image):
        self.calls += 1
        return self.reads[min(self.calls, len(self.reads)) - 1]


def test_an_unsure_colour_is_left_out_of_both_steps_with_the_colour_it_looks_like(store):
    # Step 1, cups closed: Ann shows white and red read surely and a die that looks blue at 0.45; Bob two whites.
    # Step 2, cups emptied: Ann's cup adds a sure white and a die that looks green at 0.40 (the blue one stays unsure);
    # Bob's cup adds a sure white and a die that looks purple at 0.50.
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.9),
             ("blue", "ship", (100, 40, 30, 30), 0.45),
             ("white", "explore", (340, 40, 30, 30), 0.9), ("white", "settle", (380, 40, 30, 30), 0.9)]
    cups = [("white", "ship", (20, 140, 30, 30), 0.95), ("green", "settle", (60, 140, 30, 30), 0.40),
            ("white", "explore", (340, 140, 30, 30), 0.9), ("purple", "ship", (380, 140, 30, 30), 0.50)]
    reader = ReadsInTurn(first, first + cups)
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    cam = CameraFlow(flow, dice_reader=reader, zones=halves())
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    q_ann, q_bob = cam.view()["questions"]
    assert q_ann["text"] == ("Ann: 1 white, 1 red in citizenry and construction zone?; 1 die left out, its colour "
                             "unsure (it looks 1 blue): if it is, correct the count with Dice counted")
    # Bob's Alpha Centauri holds a brown good from setup (p.2): a good is not counted here
    assert q_bob["text"] == "Bob: 2 white in citizenry and construction zone (goods 1 brown not counted)?"
    ann = cam.confirm(q_ann["id"])
    assert ann.payload["citizenry"] == {"white": 1, "red": 1}
    assert ann.payload["read"]["unsure"] == {"blue": 1}
    assert len(ann.payload["read"]["dice"]) == 3  # the read is kept whole, for a later enrollment
    cam.confirm(q_bob["id"])
    read_twice(cam, image)
    q_ann, q_bob = cam.view()["questions"]
    # the blue-looking die was left out in step 1 and is not the cup's: only the green-looking one is said
    assert q_ann["text"] == ("Ann: 1 white in the cup?; 1 die left out, its colour unsure (it looks 1 green): "
                             "if it is, correct the count with Dice counted")
    assert q_bob["text"] == ("Bob: 1 white in the cup?; 1 die left out, its colour unsure (it looks 1 purple): "
                             "if it is, correct the count with Dice counted")
    assert cam.confirm(q_ann["id"]).payload["cup"] == {"white": 1}
    assert cam.confirm(q_bob["id"]).payload["cup"] == {"white": 1}


def test_the_bar_is_the_phase_questions_and_a_sure_die_counts_as_before(store):
    flow = flow_of(store, "roll")
    setup_roll(flow)
    view = flow.engine_view()
    view["stage"] = "over"
    at_bar = [die("red", "develop", 20, 40, SURE_FACE), die("red", "ship", 60, 40, 0.95)]
    [q] = ROLL_CAMERA.count_proposals({"Ann": at_bar}, view, "citizenry", {}, None)
    assert q.payload["citizenry"] == {"red": 2} and "unsure" not in q.payload["read"]
    below = [die("red", "develop", 20, 40, 0.59), die("red", "ship", 60, 40, 0.95), die("red", "ship", 100, 40, 0.2)]
    [q] = ROLL_CAMERA.count_proposals({"Ann": below}, view, "citizenry", {}, None)
    assert q.payload["citizenry"] == {"red": 1}
    assert q.text == ("Ann: 1 red in citizenry and construction zone?; 2 dice left out, their colours unsure (they "
                      "look 2 red): if they are, correct the count with Dice counted")


def test_an_unsure_die_that_is_a_recorded_good_is_not_said_twice(store):
    # Ann's green good on Old Earth (p.7 Produce) lies in her zone and reads unsure: goods are never counted here,
    # so nothing is left out of the count for it
    flow = flow_of(store, "roll")
    setup_roll(flow)
    view = flow.engine_view()
    view["stage"] = "over"
    view["players"][0]["goods"] = {"Old Earth": ["green"]}
    seen = [die("white", "explore", 20, 40, 0.95), die("green", "settle", 60, 40, 0.3)]
    [q] = ROLL_CAMERA.count_proposals({"Ann": seen}, view, "citizenry", {}, None)
    assert q.text == "Ann: 1 white in citizenry and construction zone (goods 1 green not counted)?"
    assert q.payload["citizenry"] == {"white": 1}


def test_every_language_says_the_left_out_dice(store):
    from companion import i18n

    flow = flow_of(store, "roll")
    setup_roll(flow)
    view = flow.engine_view()
    view["stage"] = "over"
    [q] = ROLL_CAMERA.count_proposals({"Ann": [die("blue", "ship", 20, 40, 0.3)]}, view, "citizenry", {}, None)
    english = i18n.say(q.text, "en")
    for lang in ("el", "pl", "hu"):
        said = i18n.say(q.text, lang)
        assert said != english and "left out" not in said and "unsure" not in said and "{" not in said, lang

