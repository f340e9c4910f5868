"""Roll for the Galaxy's end-of-game dice count in two steps (p.8 Victory: the cost-6 bonuses count dice by colour,
the tie-break counts the dice in the cup): a die read surely in the first step (cups closed) and less surely in the
cup step, lying where it lay, is the same die: its colour was sure once in this count, so it does not make a sure die
the cup added of that colour be left out (before, that die was left out with a note: one die undercounted until a
player corrected it). A die that is unsure where no sure die lay is still left out and named. Counts worked by hand
from the dice listed."""

from __future__ import annotations

import numpy as np

from companion.camera import CameraFlow
from companion.flows.roll_camera import sure_before
from tests.test_camera_flow import flow_of, halves, read_twice, roll_to_the_end
from tests.test_roll_count_unsure import ReadsInTurn

FIRST = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.9),
         ("white", "explore", (340, 40, 30, 30), 0.9)]
"""Step 1, cups closed: Ann a white and a red, Bob a white, all read surely."""


def counted_cup(store, second):
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    cam = CameraFlow(flow, dice_reader=ReadsInTurn(FIRST, second), zones=halves())
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    for q in cam.view()["questions"]:
        cam.confirm(q["id"])
    read_twice(cam, image)
    return cam, [q for q in cam.view()["questions"] if q["player"] == "Ann"]


def test_a_die_sure_in_the_first_step_and_unsure_in_the_cup_step_leaves_the_cups_dice_counted(store):
    # Step 2: Ann's red lies 2 px from where it lay, now read at 0.45; her cup adds a sure red and a sure white. Her
    # cup holds 1 red and 1 white: 2 red now less 1 red before.
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (62, 41, 30, 30), 0.45),
              ("red", "ship", (60, 140, 30, 30), 0.9), ("white", "ship", (20, 140, 30, 30), 0.95),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    cam, [q_ann] = counted_cup(store, second)
    assert q_ann["text"] == "Ann: 1 white, 1 red in the cup?"
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {"white": 1, "red": 1} and "unsure" not in event.payload["read"]


def test_an_unsure_die_where_no_sure_die_lay_is_still_left_out(store):
    # Ann's red was bumped 40 px (more than half a die): the camera cannot say it is the die read surely, so of her
    # 2 reds now 1 is unsure: her cup's red is left out and named, as before
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (100, 40, 30, 30), 0.45),
              ("red", "ship", (60, 140, 30, 30), 0.9), ("white", "explore", (340, 40, 30, 30), 0.9)]
    _cam, [q_ann] = counted_cup(store, second)
    assert q_ann["text"] == ("Ann: none in the cup?; 1 die left out, its colour unsure (it looks 1 red): if it is, "
                             "correct the count with Dice counted")


def test_a_die_of_another_colour_or_with_no_place_is_not_vouched_for():
    before = [{"colour": "red", "box": [60, 40, 30, 30], "confidence": 0.9},
              {"colour": "blue", "box": [200, 40, 30, 30], "confidence": 0.5}]
    assert sure_before({"colour": "red", "box": [70, 50, 30, 30], "confidence": 0.4}, before)      # 10 px away
    assert not sure_before({"colour": "red", "box": [80, 40, 30, 30], "confidence": 0.4}, before)  # 20 px: > 15
    assert not sure_before({"colour": "green", "box": [60, 40, 30, 30], "confidence": 0.4}, before)
    assert not sure_before({"colour": "blue", "box": [200, 40, 30, 30], "confidence": 0.4}, before)  # unsure then too
    assert not sure_before({"colour": "red", "confidence": 0.4}, before)
    assert not sure_before({"colour": "red", "box": "60,40", "confidence": 0.4}, before)
