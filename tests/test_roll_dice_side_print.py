"""The printed side-face test of the Roll dice reader (:mod:`vision.roll_dice.side_print`), on hand-drawn layouts: a
die seen from a camera whose nadir lies below the picture shows, under its top, the side face turned to the camera,
its symbol squashed to the side face's depth. A box read over that side face is the die's side face: the side face
stretched back to a square matches the symbol better than the box does. A second die lying against the first
there shows its own top, whole: stretched from a strip a fraction of a side deep it is a drawn-out piece of its
symbol, which the die's own square matches better."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.roll_dice.config import RollDiceConfig
from vision.roll_dice.faces import match_faces, rotated_templates, template_of
from vision.roll_dice.foreground import to_log
from vision.roll_dice.side_print import side_face_patch, side_prints
from vision.roll_dice.tops import ink_maps

CFG = RollDiceConfig()
SIDE = 40
TOP = (40, 40, 200)          # a red die's top, lit (BGR)
SHADED = (30, 30, 160)       # its side face, turned from the lamp
INK = (230, 230, 230)        # light symbols
TABLE = (110, 140, 120)
BLUE = (150, 60, 30)
J = (200.0, 160.0)           # the surer die's top centre: its top spans x 180-220, y 140-180


def _plus(img: np.ndarray, cx: float, cy: float, sx: float, sy: float, colour=INK) -> None:
    """A plus sign 24 px across and 6 px thick at (cx, cy), scaled by ``sx`` across and ``sy`` down."""
    x0, x1 = int(round(cx - 12 * sx)), int(round(cx + 12 * sx))
    y0, y1 = int(round(cy - 12 * sy)), int(round(cy + 12 * sy))
    cv2.rectangle(img, (x0, int(round(cy - 3 * sy))), (x1 - 1, int(round(cy + 3 * sy)) - 1), colour, -1)
    cv2.rectangle(img, (int(round(cx - 3 * sx)), y0), (int(round(cx + 3 * sx)) - 1, y1 - 1), colour, -1)


def _die_top(img: np.ndarray, cx: float, cy: float, body=TOP) -> None:
    cv2.rectangle(img, (int(cx - SIDE / 2), int(cy - SIDE / 2)), (int(cx + SIDE / 2) - 1, int(cy + SIDE / 2) - 1),
                  body, -1)
    _plus(img, cx, cy, 1.0, 1.0)


def _side_face(img: np.ndarray, cx: float, cy: float, depth: float) -> None:
    """The side face below a top centred (cx, cy), ``depth`` sides deep, its plus squashed to that depth."""
    top = int(cy + SIDE / 2)
    cv2.rectangle(img, (int(cx - SIDE / 2), top), (int(cx + SIDE / 2) - 1, top + int(depth * SIDE) - 1), SHADED, -1)
    _plus(img, cx, top + depth * SIDE / 2, 1.0, depth)


def _matcher():
    """Best NCC of ink patches against one template: the plus on a red top, cut as the reader cuts a top."""
    img = np.full((100, 100, 3), TABLE, np.uint8)
    _die_top(img, 50.0, 50.0)
    q = CFG.patch + 2 * CFG.patch_margin
    patch = cv2.resize(img[50 - 20 - 4:50 + 20 + 5, 50 - 20 - 4:50 + 20 + 5], (q, q), interpolation=cv2.INTER_AREA)
    ink, _ = ink_maps(patch[None], CFG)
    tpl = rotated_templates(template_of(ink[0], CFG)[None], CFG)
    return lambda inks: match_faces(inks, tpl, CFG).max(1)


def _log(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0, 0].astype(np.float64)


def _prints(frame: np.ndarray, y_box: float, body=TOP, reach: float = 0.5, surety=(1.0, 1.0),
            best=(0.9, 0.5), x_box: float = J[0], cfg: RollDiceConfig = CFG) -> np.ndarray:
    """``side_prints`` of the die at ``J`` and a box at (``x_box``, ``y_box``), both ``SIDE`` px squares, the
    camera's nadir straight below (each face's unit vector from the nadir (0, -1)), the side faces ``reach`` deep."""
    rects = np.array([[*J, SIDE, SIDE, 0.0], [x_box, y_box, SIDE, SIDE, 0.0]])
    bodies = np.array([_log(TOP), _log(body)])
    away = np.array([[0.0, -1.0], [0.0, -1.0]])
    return side_prints(frame, rects, bodies, np.array(surety), np.array(best), away, np.full(2, reach), _matcher(),
                       cfg)


def _side_scene() -> np.ndarray:
    img = np.full((400, 400, 3), TABLE, np.uint8)
    _die_top(img, *J)
    _side_face(img, *J, 0.5)
    return img


def _touching_scene() -> np.ndarray:
    # a second red die against the first towards the nadir: its top at y 178-218 hides the first one's side face
    img = np.full((400, 400, 3), TABLE, np.uint8)
    _die_top(img, *J)
    _die_top(img, J[0], J[1] + 38.0)
    _side_face(img, J[0], J[1] + 38.0, 0.5)
    return img


def test_the_side_face_is_cut_below_the_edge_facing_the_nadir_without_mirroring():
    frame = np.full((400, 400, 3), TABLE, np.uint8)
    frame[180:200, 180:200] = (0, 0, 0)        # the side face's left half (as the camera sees it) black
    frame[180:200, 200:220] = (255, 255, 255)
    m, p = CFG.patch_margin, CFG.patch
    rect = np.array([*J, SIDE, SIDE, 0.0])
    got = side_face_patch(frame, rect, np.array([0.0, 20.0]), np.array([200.0, 190.0]), CFG)
    # patch px (m + 7, m + 7) samples frame (180 + 7 x 40/28, 180 + 7 x 20/28) = (190, 185): the black half
    assert got.shape == (p + 2 * m, p + 2 * m, 3)
    assert got[m + 7, m + 7].tolist() == [0, 0, 0]
    assert got[m + 7, m + p - 7].tolist() == [255, 255, 255]
    # seen from below (the nadir above), the face under the top edge comes turned a half turn, not mirrored
    frame2 = np.full((400, 400, 3), TABLE, np.uint8)
    frame2[120:140, 180:200] = (0, 0, 0)
    frame2[120:140, 200:220] = (255, 255, 255)
    up = side_face_patch(frame2, rect, np.array([0.0, -20.0]), np.array([200.0, 130.0]), CFG)
    assert up[m + 7, m + 7].tolist() == [255, 255, 255]
    assert up[m + 7, m + p - 7].tolist() == [0, 0, 0]
    assert side_face_patch(frame, rect, np.array([0.0, 0.0]), np.array([200.0, 190.0]), CFG) is None


def test_a_box_over_a_die_s_printed_side_face_is_that_side_face():
    # the box at y 190 covers the top's lower half and the side face (y 180-200) with its plus squashed to half
    # height: cut 0.45-0.55 sides deep and stretched, the side face shows the plus (NCC 0.88 and 0.95); the box's own
    # match is 0.5, and the strip cut a whole side deep (side face and table) shows a half-height plus (0.27): the
    # gain, 0.95 - 0.5, is past the ramp (0.03, 0.07)
    assert _prints(_side_scene(), 190.0).tolist() == [0.0, 1.0]


def test_a_second_die_against_the_first_is_not_its_side_face():
    # 38 px (0.95 side) towards the nadir: cut 0.25-0.55 sides deep the strip is the upper part of the second die's
    # top, drawn out (NCC 0.49-0.68); cut a whole side deep it is that top, plus and all (0.97)
    assert _prints(_touching_scene(), 198.0, best=(0.9, 0.85)).tolist() == [0.0, 0.0]


def test_what_keeps_a_box_out_of_the_test():
    frame = _side_scene()
    assert _prints(frame, 190.0, body=BLUE).tolist() == [0.0, 0.0]              # another colour: another die
    assert _prints(frame, 190.0, reach=0.1).tolist() == [0.0, 0.0]             # near the nadir: no side face shows
    assert _prints(frame, 190.0, surety=(0.5, 0.9)).tolist() == [0.0, 0.0]     # the box is the surer die
    assert _prints(frame, 190.0, best=(0.5, 0.9)).tolist() == [0.0, 0.0]       # the box has the better top
    assert _prints(frame, 130.0).tolist() == [0.0, 0.0]                        # away from the nadir
    assert _prints(frame, 180.0, x_box=230.0).tolist() == [0.0, 0.0]           # aside: cosine 20/36 = 0.56
    assert _prints(frame, 202.0).tolist() == [0.0, 0.0]                        # 42 px: 1.05 sides apart
    assert _prints(frame, 190.0, cfg=replace(CFG, side_print_ramp=None)).tolist() == [0.0, 0.0]
    assert side_prints(frame, np.zeros((0, 5)), np.zeros((0, 3)), np.zeros(0), np.zeros(0), np.zeros((0, 2)),
                       np.zeros(0), _matcher(), CFG).shape == (0,)


def test_the_gain_on_its_ramp():
    # the same side face, the box's own match raised until the gain is within the ramp (0.03, 0.07)
    frame = _side_scene()
    rects = np.array([[*J, SIDE, SIDE, 0.0]])
    cut = [side_face_patch(frame, rects[0], np.array([0.0, r * SIDE]), np.array([200.0, 190.0]), CFG)
           for r in (*CFG.side_print_reaches, 1.0)]
    got = _matcher()(ink_maps(np.stack(cut), CFG)[0])
    squashed = float(got[:-1].max())
    assert squashed > float(got[-1]) + 0.1
    own = squashed - 0.05                                                     # gain 0.05: halfway
    assert _prints(frame, 190.0, best=(0.99, own))[1] == pytest.approx(0.5, abs=1e-4)
