"""A Roll die's colour is its body, not what it lies on: a read whose box's rim lies on the table is no surer than
the body inside its box makes its colour (:mod:`vision.roll_dice.body_doubt`). Hand-built frames: a red die with a
cream symbol on a brown playmat, read through a box that fits it and through one a fifth larger."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.body_doubt import capped_by_body_doubt, inner_bodies
from vision.roll_dice.colours import colour_posteriors
from vision.roll_dice.foreground import to_log
from vision.roll_dice.observations import RollDieObservation, TopFaces
from vision.roll_dice.tops import body_colour, rim_weights, upright_patch

CFG = RollDiceConfig()
COLOURS = ("white", "red", "brown", "yellow")
BGR = {"white": (215, 220, 220), "red": (25, 30, 170), "brown": (75, 100, 115), "yellow": (20, 150, 200)}
PROTOS = to_log(np.array([[BGR[c] for c in COLOURS]], np.uint8), CFG)[0].astype(np.float64)
LIGHT = np.array([0.0, 0.0, 0.0, 1.0])
SIDE = 50.0


def red_die_on_brown_mat() -> np.ndarray:
    """``uint8[200, 200, 3]`` BGR: a red die's top face (SIDE px, centred at (100, 100)) with a cream symbol in its
    middle, on a brown playmat."""
    frame = np.full((200, 200, 3), BGR["brown"], np.uint8)
    frame[75:125, 75:125] = BGR["red"]
    cv2.circle(frame, (100, 100), 11, (200, 215, 225), -1)
    return frame


def rim_body(frame: np.ndarray, rect: np.ndarray) -> np.ndarray:
    """The body the reader's top face measures on ``rect``'s rim (as :func:`vision.roll_dice.tops.ink_maps`)."""
    size = 48
    patch = upright_patch(frame, rect[0], rect[1], float(rect[2]), float(rect[4]), size, 0)
    return body_colour(to_log(patch, CFG), weights=rim_weights(size, float(size))).astype(np.float64)


def read(colour: str, rect: np.ndarray, confidence: float = 0.95) -> RollDieObservation:
    x, y = int(rect[0] - rect[2] / 2), int(rect[1] - rect[3] / 2)
    return RollDieObservation(colour, "develop", (x, y, int(rect[2]), int(rect[3])), confidence)


def tops_of(rects: np.ndarray) -> TopFaces:
    n = len(rects)
    return TopFaces(np.asarray(rects, np.float64), np.ones(n), np.zeros((n, 2, 4, 4), np.float32), np.zeros((n, 3)))


def test_a_box_larger_than_the_die_measures_the_mat_and_is_then_not_sure():
    """The box a fifth larger than the die: its rim is the brown mat, so the body measured there is brown (the read
    the reader made, at a colour posterior near 1), while the squares inside the box are the red die: the brown read
    keeps under 0.1."""
    frame = red_die_on_brown_mat()
    big = np.array([100.0, 100.0, 1.25 * SIDE, 1.25 * SIDE, 0.0])
    rim = colour_posteriors(rim_body(frame, big)[None], PROTOS, LIGHT, CFG)[0]
    assert COLOURS[int(rim.argmax())] == "brown" and rim.max() > 0.9     # the premise: the rim's body is the mat's
    inner = colour_posteriors(inner_bodies(frame, big, CFG), PROTOS, LIGHT, CFG)
    assert [COLOURS[int(k)] for k in inner.argmax(1)].count("red") >= 3
    (out,) = capped_by_body_doubt(frame, tops_of(big[None]), [(0, read("brown", big))], [read("brown", big)],
                                  PROTOS, COLOURS, LIGHT, CFG)
    assert out.confidence < 0.1
    assert (out.colour, out.face, out.box) == ("brown", "develop", read("brown", big).box)   # only the confidence


def test_a_box_that_fits_the_die_keeps_its_confidence():
    """The box on the die itself: every square inside it is red, the symbol in the middle does not move the median,
    and the red read keeps its confidence."""
    frame = red_die_on_brown_mat()
    fit = np.array([100.0, 100.0, SIDE, SIDE, 0.0])
    (out,) = capped_by_body_doubt(frame, tops_of(fit[None]), [(0, read("red", fit))], [read("red", fit)],
                                  PROTOS, COLOURS, LIGHT, CFG)
    assert out.confidence == 0.95


def test_a_box_slid_half_onto_the_mat_is_not_sure_of_the_mats_colour():
    """A box the die's size slid a third of a side off it: the brown read it would make is not sure."""
    frame = red_die_on_brown_mat()
    slid = np.array([100.0 + SIDE / 3, 100.0, SIDE, SIDE, 0.0])
    (out,) = capped_by_body_doubt(frame, tops_of(slid[None]), [(0, read("brown", slid))], [read("brown", slid)],
                                  PROTOS, COLOURS, LIGHT, CFG)
    assert out.confidence < 0.5


def test_turned_off_the_reads_are_as_they_were():
    frame = red_die_on_brown_mat()
    big = np.array([100.0, 100.0, 1.25 * SIDE, 1.25 * SIDE, 0.0])
    obs = read("brown", big)
    out = capped_by_body_doubt(frame, tops_of(big[None]), [(0, obs)], [obs], PROTOS, COLOURS, LIGHT,
                               replace(CFG, body_doubt_scale=None))
    assert out == (obs,)
    assert capped_by_body_doubt(frame, tops_of(np.zeros((0, 5))), [], [], PROTOS, COLOURS, LIGHT, CFG) == ()
