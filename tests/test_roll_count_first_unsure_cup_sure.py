"""Roll for the Galaxy's end-of-game dice count in two steps (p.8 Victory: the cost-6 bonuses count dice by colour,
the tie-break counts the dice in the cup): a die the first step (cups closed) read unsure and left out, read surely in
the cup step lying where it lay, is counted once, where it lies: the cup step's question gives the first count made
whole and its Confirm records it with the cup's. Before, the cup step took it off the cup as a die the first count
had counted, so it was counted nowhere (and when its colour was misread at first, the cup got its colour in place of
a die the cup brought). Counts worked by hand from the dice listed."""

from __future__ import annotations

import numpy as np
import pytest

from companion import i18n
from companion.camera import CameraFlow
from companion.flows.roll_camera import same_place, sure_now
from tests.test_camera_flow import flow_of, halves, read_twice, roll_to_the_end
from tests.test_roll_count_unsure import ReadsInTurn


def counted(store, first, second):
    """The two steps read and Ann's and Bob's questions of the first confirmed; Ann's cup question."""
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    cam = CameraFlow(flow, dice_reader=ReadsInTurn(first, second), zones=halves())
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    firsts = {q["player"]: cam.confirm(q["id"]) for q in cam.view()["questions"]}
    read_twice(cam, image)
    [q_ann] = [q for q in cam.view()["questions"] if q["player"] == "Ann"]
    return flow, cam, firsts, q_ann


def test_a_die_unsure_in_the_first_step_and_sure_in_the_cup_step_is_counted_once_in_citizenry(store):
    # Step 1, cups closed: Ann a white read surely and a die that looks red at 0.45 (left out: she has 1 white);
    # Bob a white. Step 2: Ann's red lies 1 px from where it lay, now read at 0.9; her cup adds a white and a red.
    # Ann's dice: 2 white and 2 red, of which 1 white and 1 red in the cup, 1 white and 1 red in her citizenry.
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
             ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (61, 41, 30, 30), 0.9),
              ("white", "ship", (20, 140, 30, 30), 0.95), ("red", "ship", (60, 140, 30, 30), 0.9),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    flow, cam, firsts, q_ann = counted(store, first, second)
    assert firsts["Ann"].payload["citizenry"] == {"white": 1}  # the red left out, named in the question
    assert q_ann["text"] == ("Ann: 1 white, 1 red in the cup?; 1 die the first count left out lies where it lay and "
                             "reads surely now (1 red): citizenry and construction zone 1 white, 1 red")
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {"white": 1, "red": 1}  # the cup breaks ties: only what the cup brought
    assert event.payload["citizenry"] == {"white": 1, "red": 1}
    assert "unsure" not in event.payload["read"]
    ann = next(p for p in flow.engine_view()["players"] if p["name"] == "Ann")
    assert ann["cup"] == {"white": 1, "red": 1} and ann["citizenry"] == {"white": 1, "red": 1}  # 2 red in all


def test_a_die_misread_at_first_counts_by_its_sure_colour_and_the_cup_keeps_its_own(store):
    # Step 1: Ann's second die looks blue at 0.40 (left out). Step 2: where it lay it reads green at 0.85; her cup
    # brings a blue. Before, the cup was 2 blue + 1 green + 1 white seen less 1 blue + 1 white before: it counted the
    # green in the cup and lost the cup's blue. Her cup holds 1 blue; her citizenry 1 white and 1 green.
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("blue", "develop", (60, 40, 30, 30), 0.40),
             ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("green", "develop", (60, 40, 30, 30), 0.85),
              ("blue", "ship", (60, 140, 30, 30), 0.9), ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, q_ann = counted(store, first, second)
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {"blue": 1}
    assert event.payload["citizenry"] == {"white": 1, "green": 1}


def test_a_die_that_moved_is_counted_once_by_its_colour_and_the_question_says_so(store):
    # Ann's unsure red was moved 40 px (more than half a die) and reads surely there: the camera cannot tell it by its
    # place, but by its colour: one unsure red then, none now, one sure red more. It is the first count's (her cup
    # brought none), counted once in citizenry; before, it was counted nowhere (tests/test_roll_count_moved_die.py)
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
             ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (100, 40, 30, 30), 0.9),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, q_ann = counted(store, first, second)
    assert q_ann["text"].startswith("Ann: none in the cup?; 1 die the first count left out, its colour unsure, was "
                                    "moved and reads surely now (1 red)")
    event = cam.confirm(q_ann["id"])
    assert event.payload["cup"] == {} and event.payload["citizenry"] == {"white": 1, "red": 1}


def test_each_die_left_out_stands_for_one_die_now():
    earlier = [{"colour": "red", "box": [60, 40, 30, 30], "confidence": 0.45},
               {"colour": "white", "box": [20, 40, 30, 30], "confidence": 0.95},
               {"colour": None, "box": [200, 40, 30, 30], "confidence": 0.1}]
    now = [{"colour": "red", "box": [70, 50, 30, 30], "confidence": 0.9},     # 10 px from the red: that die
           {"colour": "red", "box": [62, 42, 30, 30], "confidence": 0.9},     # a second die there: no die left for it
           {"colour": "white", "box": [20, 40, 30, 30], "confidence": 0.95},  # sure before too: no die left out
           {"colour": "blue", "box": [200, 40, 30, 30], "confidence": 0.8},   # its colour unknown before
           {"colour": "blue", "box": [300, 40, 30, 30], "confidence": 0.3}]   # unsure now: not vouched for
    pairs = sure_now(now, earlier)
    assert [(a["box"], b["box"]) for a, b in pairs] == [([70, 50, 30, 30], [60, 40, 30, 30]),
                                                        ([200, 40, 30, 30], [200, 40, 30, 30])]
    assert same_place({"box": [0, 0, 30, 30]}, {"box": [15, 15, 30, 30]})       # half a die: 15 px
    assert not same_place({"box": [0, 0, 30, 30]}, {"box": [16, 0, 30, 30]})
    assert not same_place({"box": [0, 0, 30, 30]}, {"box": ["a", 0, 30, 30]})  # no place


WHOLE = {"el": "Πολίτες και ζώνη κατασκευών", "pl": "obywatele i strefa budowy", "hu": "polgárság és építési terület"}
"""Each language's words for "citizenry and construction zone" in the first count made whole."""


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_first_count_made_whole_is_said_in_each_players_language(store, lang):
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
             ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.9),
              ("white", "explore", (340, 40, 30, 30), 0.9)]
    _flow, cam, _firsts, _q = counted(store, first, second)
    [shown] = [q for q in i18n.localize(cam.view(), lang)["questions"] if q["player"] == "Ann"]
    said = str(shown["text"])
    assert WHOLE[lang] in said and "first count" not in said and "surely" not in said, said


def test_the_first_steps_question_left_open_is_replaced_by_the_count_made_whole(store):
    # the table did not answer the first step before emptying the cups: Ann's first question (1 white, the red left
    # out) would undo her cup question's count made whole if confirmed after it, so it is withdrawn; Bob's stays
    first = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.45),
             ("white", "explore", (340, 40, 30, 30), 0.9)]
    second = [("white", "explore", (20, 40, 30, 30), 0.95), ("red", "develop", (60, 40, 30, 30), 0.9),
              ("red", "ship", (60, 140, 30, 30), 0.9), ("white", "explore", (340, 40, 30, 30), 0.9)]
    flow = flow_of(store, "roll")
    roll_to_the_end(flow)
    cam = CameraFlow(flow, dice_reader=ReadsInTurn(first, second), zones=halves())
    image = np.full((240, 640, 3), 70, np.uint8)
    read_twice(cam, image)
    [first_ann] = [q["id"] for q in cam.view()["questions"] if q["player"] == "Ann"]
    read_twice(cam, image)
    asked = cam.view()["questions"]
    assert [q["player"] for q in asked] == ["Bob", "Ann", "Bob"]   # Bob: his first step and his cup
    assert first_ann not in [q["id"] for q in asked]
    [cup] = [q for q in asked if q["player"] == "Ann"]
    event = cam.confirm(cup["id"])
    assert event.payload["cup"] == {"red": 1} and event.payload["citizenry"] == {"white": 1, "red": 1}
    before = flow.session.last_seq
    with pytest.raises(Exception) as told:  # a phone answering the withdrawn question late records nothing
        cam.confirm(first_ann)
    assert "replaced" in str(told.value) and flow.session.last_seq == before
