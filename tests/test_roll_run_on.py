"""The run-on measure of bench/roll_run_on.py: a die's top face is a square of its own, each
edge ending at its corners; a numbered box of a player board shares its lines with the boxes beside it, so along its
sides the edge goes on past both corners. Hand-drawn scenes: a row of printed boxes on a board, and a die standing on
the same board (its side faces in shade, its shadow) with nothing beside it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

cv2 = pytest.importorskip("cv2")

from bench.roll_run_on import edge_run_on, halved, side_run_on  # noqa: E402 - after the path
from vision.roll_dice import RollDiceConfig  # noqa: E402

CFG = RollDiceConfig()
C, SIDE = 200, 44                                           # the face's centre and side, px
BOARD = (150, 185, 205)                                     # a player board's cream print, BGR
LINE = (70, 60, 55)                                         # the track's dark line
DIE = (40, 40, 200)                                         # a red die's body, BGR


def board(seed: int = 0) -> np.ndarray:
    """A plain board: its cream print with a camera's noise."""
    rng = np.random.default_rng(seed)
    img = np.zeros((400, 400, 3), np.float32) + np.array(BOARD, np.float32)
    img += rng.normal(0.0, 2.0, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def track(seed: int = 0) -> np.ndarray:
    """A board with a track of numbered boxes a die's side wide across it: two long lines above and below the row,
    and a short line between each pair of boxes, the box at (C, C) with a digit in its middle."""
    img = board(seed)
    h = SIDE // 2
    cv2.line(img, (0, C - h), (399, C - h), LINE, 3)
    cv2.line(img, (0, C + h), (399, C + h), LINE, 3)
    for x in range(C - h - 4 * SIDE, 400, SIDE):
        cv2.line(img, (x, C - h), (x, C + h), LINE, 3)
    cv2.putText(img, "3", (C - 8, C + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.8, LINE, 2, cv2.LINE_AA)
    return img


def die_on(table: np.ndarray) -> np.ndarray:
    """A red die at (C, C) on ``table``: its shadow, its side faces in shade (seen a little from one side), its top
    with a darker bevel, the symbol (a ring and a dot) in the middle."""
    h = SIDE // 2
    alpha = np.zeros(table.shape[:2], np.float32)
    cv2.rectangle(alpha, (C - h + 6, C - h + 6), (C + h + 9, C + h + 9), 0.55, -1)           # shadow
    out = (table.astype(np.float32) * (1.0 - alpha[..., None])).astype(np.uint8)
    shade = tuple(int(v * 0.6) for v in DIE)
    cv2.fillPoly(out, [np.array([[C + h, C - h], [C + h + 6, C - h + 5], [C + h + 6, C + h + 6],
                                 [C - h + 5, C + h + 6], [C - h, C + h]], np.int32)], shade, cv2.LINE_AA)
    cv2.rectangle(out, (C - h, C - h), (C + h, C + h), tuple(int(v * 0.85) for v in DIE), -1)
    cv2.rectangle(out, (C - h + 3, C - h + 3), (C + h - 3, C + h - 3), DIE, -1)
    cv2.circle(out, (C, C), 9, (235, 235, 235), 3, cv2.LINE_AA)
    cv2.circle(out, (C, C), 2, (235, 235, 235), -1, cv2.LINE_AA)
    return out


RECT = np.array([[C, C, SIDE, SIDE, 0.0]])


def test_a_box_of_a_track_runs_on_past_its_corners():
    # the long lines above and below the box go on past both corners as strongly as along it: those two sides run
    # on about fully; the short lines between the boxes stop at the long ones, so the face's second side is ~1
    sides = side_run_on(track(), RECT, CFG)[0]
    assert np.sort(sides)[-2] > 0.7
    assert edge_run_on(track(), RECT, CFG)[0] > 0.7


def test_a_die_alone_on_the_board_stops_at_its_corners():
    # beyond each corner, along an edge's line, lies the plain board (or the die's shadow, which has its own edges
    # elsewhere): no side of the die's top runs on
    got = edge_run_on(die_on(board()), RECT, CFG)[0]
    assert 0.0 <= got < 0.25


def test_no_faces_give_no_measures():
    assert edge_run_on(track(), np.zeros((0, 5)), CFG).shape == (0,)
    assert side_run_on(track(), np.zeros((0, 5)), CFG).shape == (0, 4)


def test_a_plain_symbol_keeps_its_die_score_whatever_its_edges():
    # ramp 0.5-1.0: a run-on of 1.0 scales the score by 1 - 1 x (1 - plain); plain is 0 at NCC 0.8 and below, 1 at
    # 0.95 and above, 0.5 at 0.875 (the score kept at 0.5: halved)
    run = np.array([1.0, 1.0, 1.0, 0.75, 0.4])
    best = np.array([0.6, 0.95, 0.875, 0.6, 0.6])
    # run-on 0.75 on the ramp is 0.5: kept 0.5, halved; 0.4 is under the ramp: kept whole
    assert halved(run, best, 0.5, 1.0).tolist() == [True, False, True, True, False]


@pytest.mark.parametrize("turn", [0.0, 25.0])
def test_the_measure_follows_the_face_turned(turn):
    # the same track turned with its box: the rect turned alike sees the same lines
    img = track()
    m = cv2.getRotationMatrix2D((C, C), turn, 1.0)
    turned = cv2.warpAffine(img, m, (400, 400), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    rect = np.array([[C, C, SIDE, SIDE, -turn]])
    assert edge_run_on(turned, rect, CFG)[0] > 0.6
