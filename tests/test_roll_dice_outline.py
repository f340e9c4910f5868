"""The flat-art test of the Roll dice reader (vision/roll_dice/outline.py): a die's top face is a square whose four
sides each show a straight edge, whatever the table; a symbol-like blot printed on a playmat's painting has none round
it. Hand-drawn scenes: a painting of soft colour clouds with printed strokes over it, a dark symbol printed flat on
it, and a die carrying the same symbol on the same painting."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.foreground import to_log
from vision.roll_dice.observations import TopFaces
from vision.roll_dice.outline import square_outline
from vision.roll_dice.raised import raised_edges
from vision.roll_dice.reader import _not_flat_art
from vision.roll_dice.shape import SurroundingLogs

CFG = RollDiceConfig()
C, SIDE = 200, 44                                           # the face's centre and side, px
DIE_WHITE = (226, 230, 233)                                 # BGR


def painting(seed: int, size: int = 400) -> np.ndarray:
    """A playmat's painting: a dark ground with soft clouds of colour (a few hues, gradients over several die sides),
    sensor-like noise, and printed strokes (lines and a ring of a pale ink) crossing it away from the middle."""
    rng = np.random.default_rng(seed)
    img = np.zeros((size, size, 3), np.float32) + rng.uniform(15, 35, 3)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    for _ in range(4):
        cx, cy, r = rng.uniform(0, size), rng.uniform(0, size), rng.uniform(60, 160)
        cloud = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        img += cloud[..., None] * rng.uniform(20, 120, 3)
    img += rng.normal(0, 2.0, img.shape)
    ink = tuple(float(v) for v in rng.uniform(150, 220, 3))
    cv2.line(img, (0, 60), (size, 110), ink, 3, cv2.LINE_AA)
    cv2.ellipse(img, (300, 300), (80, 25), 20, 0, 360, ink, 3, cv2.LINE_AA)
    return np.clip(img, 0, 255).astype(np.uint8)


def symbol(img: np.ndarray, colour=(40, 40, 40)) -> None:
    """A die's symbol (a ring and a dot, the size a die prints it) at (C, C)."""
    cv2.circle(img, (C, C), 9, colour, 3, cv2.LINE_AA)
    cv2.circle(img, (C, C), 2, colour, -1, cv2.LINE_AA)


def printed_symbol(seed: int, corner: bool = False) -> np.ndarray:
    """The symbol printed flat on the painting, in a light patch of it (as a playmat's icon would be); with
    ``corner``, in the corner of a printed panel's frame (two straight lines passing a die's half side from it)."""
    img = painting(seed).astype(np.float32)
    yy, xx = np.mgrid[0:400, 0:400].astype(np.float32)
    glow = np.exp(-((xx - C) ** 2 + (yy - C) ** 2) / (2 * 45.0 ** 2))           # a soft light cloud round it
    img += glow[..., None] * np.array([110.0, 120.0, 125.0])
    img = np.clip(img, 0, 255).astype(np.uint8)
    if corner:
        cv2.line(img, (C - SIDE // 2 - 2, C - SIDE // 2 - 2), (399, C - SIDE // 2 - 2), (90, 200, 220), 3)
        cv2.line(img, (C - SIDE // 2 - 2, C - SIDE // 2 - 2), (C - SIDE // 2 - 2, 399), (90, 200, 220), 3)
    symbol(img)
    return img


def die_on(table: np.ndarray, turn: float = 0.0) -> np.ndarray:
    """A white die at (C, C) on ``table``, turned ``turn`` degrees: its shadow, its side faces in shade (seen a little
    from one side), its top with a bevel losing the light towards the edges, the symbol in the middle."""
    die = np.zeros_like(table)
    alpha = np.zeros(table.shape[:2], np.float32)
    h = SIDE // 2
    shade = tuple(int(v * 0.62) for v in DIE_WHITE)
    cv2.rectangle(alpha, (C - h + 6, C - h + 6), (C + h + 9, C + h + 9), 0.55, -1)           # shadow
    out = (table.astype(np.float32) * (1.0 - alpha[..., None])).astype(np.uint8)
    cv2.fillPoly(out, [np.array([[C + h, C - h], [C + h + 6, C - h + 5], [C + h + 6, C + h + 6],
                                 [C - h + 5, C + h + 6], [C - h, C + h]], np.int32)], shade, cv2.LINE_AA)
    cv2.rectangle(die, (C - h, C - h), (C + h, C + h), tuple(int(v * 0.85) for v in DIE_WHITE), -1)
    cv2.rectangle(die, (C - h + 3, C - h + 3), (C + h - 3, C + h - 3), DIE_WHITE, -1)
    symbol(die)
    mask = np.zeros(table.shape[:2], np.uint8)
    cv2.rectangle(mask, (C - h, C - h), (C + h, C + h), 255, -1)
    out[mask > 0] = die[mask > 0]
    if turn:
        m = cv2.getRotationMatrix2D((C, C), turn, 1.0)
        turned = cv2.warpAffine(out, m, out.shape[1::-1], flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        keep = cv2.warpAffine(np.full(mask.shape, 255, np.uint8), m, mask.shape[::-1]) > 0
        out = np.where(keep[..., None], turned, table)
    return out


def rect(turn: float = 0.0) -> np.ndarray:
    return np.array([[C, C, SIDE, SIDE, turn]], np.float64)


def test_a_symbol_printed_on_a_painting_shows_no_square_and_a_die_on_it_does():
    """The same symbol, printed flat on the painting or on a die lying on the same painting: the die's top is
    bounded by a straight edge on every side, the printed symbol by nothing (the painting runs on), or by two lines
    only where it lies in the corner of a printed frame."""
    for seed in (1, 2, 3):
        flat = square_outline(printed_symbol(seed), rect(), CFG)[0]
        framed = square_outline(printed_symbol(seed, corner=True), rect(), CFG)[0]
        die = square_outline(die_on(painting(seed)), rect(), CFG)[0]
        assert flat <= 0.2, seed
        assert framed <= 0.2, seed
        assert die >= 0.9, seed


def test_the_outline_holds_under_dim_light_and_for_a_face_found_turned_from_its_die():
    """A step of the channels' logs is a ratio of light: a quarter of the light gives the same outline. A face found
    turned 15-45 degrees from its die (or the die turned under it) still finds the die's four sides."""
    img = die_on(painting(4))
    dim = (img.astype(np.float32) * 0.25).round().astype(np.uint8)
    assert square_outline(dim, rect(), CFG)[0] >= 0.9
    for turn in (15.0, 20.0, 45.0):
        assert square_outline(die_on(painting(4), turn=turn), rect(), CFG)[0] >= 0.9, turn


def test_a_check_of_cloth_with_edges_on_two_sides_only_is_no_square():
    """A pale stripe across a dark ground (a printed bar, a band of a cloth): straight edges on two sides of the
    face, none along the stripe: three sides at least are asked for."""
    img = np.full((400, 400, 3), 30, np.uint8)
    cv2.rectangle(img, (0, C - SIDE // 2), (399, C + SIDE // 2), (200, 205, 210), -1)
    symbol(img)
    assert square_outline(img, rect(), CFG)[0] <= 0.2


def test_only_the_faces_asked_for_are_measured():
    img = die_on(painting(5))
    got = square_outline(img, np.concatenate([rect(), rect()]), CFG, np.array([False, True]))
    assert got[0] == -1.0 and got[1] >= 0.9
    assert square_outline(img, np.zeros((0, 5)), CFG).shape == (0,)


def test_the_surroundings_cut_for_the_raised_edge_test_are_the_outline_tests_own():
    # one read's kept surroundings: the raised-edge test cuts the first face's, the outline test reuses it and cuts
    # the second's; both measure what they measure alone
    img = die_on(painting(5))
    rects = np.concatenate([rect(), rect(20.0)])
    bodies = np.repeat(to_log(np.array([[DIE_WHITE]], np.uint8), CFG)[0], 2, 0)
    logs = SurroundingLogs(img, CFG)
    first = np.array([True, False])
    assert np.array_equal(raised_edges(img, rects, bodies, CFG, first, logs), raised_edges(img, rects, bodies, CFG,
                                                                                           first))
    assert np.array_equal(square_outline(img, rects, CFG, None, logs), square_outline(img, rects, CFG))
    # kept for another frame: refused, not measured on the wrong pixels
    with pytest.raises(ValueError, match="another frame"):
        square_outline(img.copy(), rects, CFG, None, logs)


def _faces(n: int) -> TopFaces:
    """``n`` top faces at (C, C) with die score 1 (no ink or shape evidence: their die weight is their score)."""
    return TopFaces(np.repeat(rect(), n, 0), np.ones(n), None, np.zeros((n, 3)), None)


def test_the_reader_lowers_a_flat_symbol_and_keeps_the_die_on_the_same_art():
    """The reader's hook: a face matching a symbol at NCC 0.6 (as a blot of art does) is dropped below the reader's
    confidence where it shows no square, kept whole where it is a die; a near-perfect symbol match is kept anyway."""
    seed = 6
    fair = np.array([[0.6]])
    flat = _not_flat_art(printed_symbol(seed), _faces(1), fair, CFG)
    die = _not_flat_art(die_on(painting(seed)), _faces(1), fair, CFG)
    assert flat.scores[0] < CFG.min_confidence
    assert die.scores[0] >= 0.9
    plain = _not_flat_art(printed_symbol(seed), _faces(1), np.array([[0.97]]), CFG)
    assert plain.scores[0] == 1.0
