"""The flat-print test of the Roll dice reader (vision/roll_dice/raised.py): a die's top face has shaded edges of
its own colour (its bevel, its side faces), a check of a gingham or a board's numbered box has not. Hand-drawn
faces."""

from __future__ import annotations

import cv2
import numpy as np

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.raised import raised_edges

CFG = RollDiceConfig()
CLOTH_WHITE, CLOTH_BLUE = (200, 205, 205), (150, 40, 20)   # BGR
DIE_WHITE = (228, 232, 234)
C, SIDE = 200, 40                                          # the face's centre and side, px


def shade(bgr, f: float) -> tuple[int, int, int]:
    """The colour ``bgr`` at ``f`` of its light (the same chroma, darker)."""
    return tuple(int(round(v * f)) for v in bgr)


def gingham(size: int = 400, period: int = 80) -> np.ndarray:
    """A checked cloth: white, and blue bands both ways (a band alone half blue, two crossing full blue); the
    white checks are ``period / 2`` px squares, one of them centred on (C, C)."""
    t = (np.arange(size) - C + period // 4) % period
    band = (t >= period // 2).astype(np.float32)
    strength = 0.5 * (band[None, :] + band[:, None])
    white, blue = np.array(CLOTH_WHITE, np.float32), np.array(CLOTH_BLUE, np.float32)
    img = white * (1.0 - strength[..., None]) + blue * strength[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def white_die_on(table: np.ndarray) -> np.ndarray:
    """A white die on ``table`` at (C, C), seen a little from its upper left: its shadow, two side faces (its own
    white, in shade), its top with a bevel that loses the light at its edges, a dark symbol in the middle."""
    img = table.copy()
    h = SIDE // 2
    cv2.rectangle(img, (C - h + 8, C - h + 8), (C + h + 12, C + h + 12), shade(CLOTH_WHITE, 0.6), -1)   # shadow
    cv2.fillPoly(img, [np.array([[C + h, C - h], [C + h + 8, C - h + 6], [C + h + 8, C + h + 8],
                                 [C - h + 6, C + h + 8], [C - h, C + h]], np.int32)], shade(DIE_WHITE, 0.7))
    cv2.rectangle(img, (C - h, C - h), (C + h, C + h), shade(DIE_WHITE, 0.85), -1)        # the bevel's edge
    cv2.rectangle(img, (C - h + 3, C - h + 3), (C + h - 3, C + h - 3), DIE_WHITE, -1)     # the top
    cv2.circle(img, (C, C), 8, (40, 40, 40), 3, cv2.LINE_AA)                             # a symbol
    return img


def body(bgr) -> np.ndarray:
    return to_log(np.array([[bgr]], np.uint8), CFG)[0]


def test_a_die_shows_its_shaded_edges_and_a_check_of_the_cloth_does_not():
    """A white die lying on a white check of a gingham, and the white check alone: both are white squares of a die's
    size bounded by other colours, but the die's bevel and side faces are its own white in shade, while the check's
    edge is the cloth's half-blue band."""
    cloth = gingham()
    rect = np.array([[C, C, SIDE, SIDE, 0.0]])
    die = raised_edges(white_die_on(cloth), rect, body(DIE_WHITE), CFG)[0]
    check = raised_edges(cloth, rect, body(CLOTH_WHITE), CFG)[0]
    assert die >= 0.5
    assert check <= 0.1


def test_a_board_box_is_flat():
    """A numbered box of a player board: the board inside a light printed line, the same board beyond it."""
    board, ink = (40, 30, 25), (170, 200, 210)
    img = np.full((400, 400, 3), board, np.uint8)
    cv2.rectangle(img, (C - SIDE // 2, C - SIDE // 2), (C + SIDE // 2, C + SIDE // 2), ink, 2, cv2.LINE_AA)
    cv2.putText(img, "5", (C - 10, C + 11), cv2.FONT_HERSHEY_SIMPLEX, 0.9, ink, 2, cv2.LINE_AA)
    assert raised_edges(img, np.array([[C, C, SIDE - 2, SIDE - 2, 0.0]]), body(board), CFG)[0] <= 0.1


def test_the_measure_holds_under_any_light_level_and_turn():
    """Shade is a ratio of light: the same die under half the light, and turned, shows the same shaded edges."""
    img = white_die_on(gingham())
    rect = np.array([[C, C, SIDE, SIDE, 0.0]])
    bright = raised_edges(img, rect, body(DIE_WHITE), CFG)[0]
    dim_img = (img.astype(np.float32) * 0.5).round().astype(np.uint8)
    dim = raised_edges(dim_img, rect, body(shade(DIE_WHITE, 0.5)), CFG)[0]
    assert abs(dim - bright) <= 0.15
    turn = cv2.getRotationMatrix2D((C, C), 30.0, 1.0)
    turned = cv2.warpAffine(img, turn, (400, 400), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert raised_edges(turned, np.array([[C, C, SIDE, SIDE, 30.0]]), body(DIE_WHITE), CFG)[0] >= 0.5


def test_only_the_faces_asked_for_are_measured():
    img = white_die_on(gingham())
    rects = np.array([[C, C, SIDE, SIDE, 0.0]] * 2)
    bodies = np.concatenate([body(DIE_WHITE)] * 2)
    got = raised_edges(img, rects, bodies, CFG, np.array([False, True]))
    assert got[0] == -1.0 and got[1] >= 0.5
    assert raised_edges(img, np.zeros((0, 5)), np.zeros((0, 3)), CFG).shape == (0,)
