"""The camera's nadir from the dice sizes (vision/roll_dice/nadir.py), and the second read's square away from it
(vision/roll_dice/recentre.py): a box fitted to a die's top and the side face that hangs from it towards the nadir
is tried again on the top.

The geometry is checked against hand-worked numbers and against a pinhole camera of the second scene generator
(:func:`vision.scenes.camera.look_at`): where its dice's top faces are drawn, and where their bottom faces lie.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.nadir import nadir_point, towards_top
from vision.roll_dice.recentre import recentre_boxes
from vision.scenes.camera import look_at


def test_the_nadir_of_a_hand_worked_size_slope():
    # A 1000 x 600 picture, focal length 0.8 x 1000 = 800 px, the camera tilted with tan(t) = 0.25 towards the
    # picture's bottom: a die's side grows by 3/2 tan(t) / f = 3 / 6400 of the centre's per px down (a top face's
    # side goes as the inverse depth to the power 3/2), the nadir lies f tan(t) = 200 px below the centre, at
    # (500, 500).
    centres = np.array([[100.0, 100.0], [900.0, 120.0], [500.0, 300.0], [300.0, 550.0]])
    sides = 50.0 * (1.0 + (centres[:, 1] - 300.0) * 3.0 / 6400.0)
    nadir, tilt = nadir_point(centres, sides, (600, 1000), 0.8)
    assert np.allclose(nadir, (500.0, 500.0)) and math.isclose(tilt, math.atan(0.25))
    # a die at (500, 100), 400 px above the nadir: its side faces hang straight down, 400 cos(t) / 800 of a side
    unit, reach = towards_top(np.array([[500.0, 100.0]]), nadir, tilt, 0.8, 1000)
    assert np.allclose(unit, [[0.0, -1.0]]) and math.isclose(reach[0], 0.5 / math.sqrt(1.0 + 0.25 ** 2))


def test_no_size_slope_puts_the_nadir_at_the_centre():
    centre = (640.0, 360.0)
    for centres, sides in ((np.array([[10.0, 10.0], [20.0, 20.0]]), np.array([40.0, 44.0])),      # two faces
                           (np.array([[0.0, 0.0], [10.0, 10.0], [30.0, 30.0]]), np.array([40.0, 41.0, 43.0])),  # a line
                           (np.array([[0.0, 0.0], [500.0, 40.0], [90.0, 600.0]]), np.full(3, 40.0))):  # one size
        nadir, tilt = nadir_point(centres, sides, (720, 1280), 0.8)
        assert np.allclose(nadir, centre) and tilt == 0.0
    unit, reach = towards_top(np.array([centre]), np.array(centre), 0.0, 0.8, 1280)
    assert np.array_equal(unit, [[0.0, 0.0]]) and reach[0] == 0.0


def test_the_nadir_and_the_side_faces_of_a_tilted_pinhole_camera():
    # A camera 600 mm from the table, tilted 20 degrees, focal length 0.8 x 1280 px (a 64 degree field of view);
    # dice of 16 mm over the table (up is -z). Their top faces' sides measured in the picture give the nadir, where
    # the camera's straight-down direction is drawn; each die's bottom face lies from its top towards it.
    w, h, s, focal = 1280, 720, 16.0, 0.8
    cam = look_at(np.zeros(3), 600.0, 20.0, 90.0, 0.0, math.degrees(2 * math.atan(0.5 / focal)), (w, h))
    down = cam.K @ cam.R[:, 2]
    truth = down[:2] / down[2]
    assert math.isclose(np.hypot(*(truth - (w / 2, h / 2))), focal * w * math.tan(math.radians(20.0)), rel_tol=1e-6)
    xs, ys = np.meshgrid(np.linspace(-150, 150, 5), np.linspace(-80, 80, 4))
    square = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) * s
    tops, bottoms, sides = [], [], []
    for x, y in zip(xs.ravel(), ys.ravel(), strict=True):
        top = cam.project(np.column_stack([square + (x, y), np.full(4, -s)]), distort=False)
        bottom = cam.project(np.column_stack([square + (x, y), np.zeros(4)]), distort=False)
        tops.append(top.mean(0))
        bottoms.append(bottom.mean(0))
        sides.append(math.sqrt(cv2.contourArea(top.astype(np.float32))))
    tops, bottoms, sides = np.array(tops), np.array(bottoms), np.array(sides)
    nadir, tilt = nadir_point(tops, sides, (h, w), focal)
    assert np.hypot(*(nadir - truth)) < 0.05 * np.hypot(*(truth - (w / 2, h / 2)))
    assert abs(math.degrees(tilt) - 20.0) < 1.5
    unit, reach = towards_top(tops, nadir, tilt, focal, w)
    hang = bottoms - tops                                       # from each top face to its bottom face, px
    along = -(hang * unit).sum(1) / np.hypot(hang[:, 0], hang[:, 1])
    assert along.min() > math.cos(math.radians(3.0))           # the side faces hang towards the nadir
    assert np.allclose(reach, np.hypot(hang[:, 0], hang[:, 1]) / sides, rtol=0.15)


def test_a_box_on_the_top_and_its_side_face_is_tried_again_on_the_top():
    # A die seen from aside: its red top (40 px) and, below it, a side face of the same red 24 px tall, on a grey
    # table: one outline. The read box lies on the outline's middle, 12 px below the
    # top's centre, at the side a die has there; the nadir lies below, the side faces reach 0.6 of a side.
    cfg = replace(RollDiceConfig(), recentre_scales=(1.0,), recentre_wide_shifts=())
    frame = np.full((180, 200, 3), 90, np.uint8)
    frame[40:80, 80:120] = (45, 45, 210)                       # the top, centred at (99.5, 59.5)
    frame[80:104, 80:120] = (45, 45, 210)                      # the side face, lit alike
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    body = to_log(np.array([[(45, 45, 210)]], np.uint8), cfg)[0, 0]
    box = np.array([99.5, 71.5, 40.0, 40.0, 0.0])
    away = (np.array([0.0, -1.0]), 0.6)
    plain = recentre_boxes(frame, box, body, 40.0, cfg)
    boxes = recentre_boxes(frame, box, body, 40.0, cfg, away)
    assert np.array_equal(boxes[:len(plain)], plain) and len(boxes) == len(plain) + 1
    assert np.hypot(plain[:, 0] - 99.5, plain[:, 1] - 59.5).min() > 6.0
    assert np.hypot(boxes[-1, 0] - 99.5, boxes[-1, 1] - 59.5) < 3.0 and abs(boxes[-1, 2] - 40.0) <= 4.0
    # no reach (a die at the nadir, or beneath a camera overhead): no square added
    assert np.array_equal(recentre_boxes(frame, box, body, 40.0, cfg, (np.array([0.0, -1.0]), 0.1)), plain)
    # off: none either
    assert np.array_equal(recentre_boxes(frame, box, body, 40.0, replace(cfg, recentre_nadir_shifts=()), away), plain)
