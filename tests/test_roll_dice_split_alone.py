"""Two touching Roll dice read again as two through the reader's other-sizes stage, and the faces gathered for that
serving that alone (vision/roll_dice/splits.py, :meth:`RollDiceReader._other_sizes`). Roll for the Galaxy, "Roll"
(p.4): every die rolled is read on its own, and two dice's tops never overlap. Drawn dice on a drawn cloth, the faces
the size chosen cut there made by hand; the symbol match is given by hand (a stand-in matcher: no profile is enrolled),
so what is checked is where the faces are cut and which of them the stage keeps."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

import vision.roll_dice.reader as reader_module
from tests.test_roll_dice_touching_split import CFG, PAIR, faces, ncc
from vision.roll_dice.observations import Candidates
from vision.roll_dice.reader import RollDiceReader
from vision.roll_dice.sizes import other_size_faces_weighed
from vision.roll_dice.splits import smaller_cuts
from vision.roll_dice.tops import extract_tops

OFF = replace(CFG, other_size_split_overlap=None)   # the split off: the stage as it was without it

WHITE, BLUE, CLOTH = (235, 235, 235), (200, 60, 30), (40, 110, 40)   # BGR
# the drawn pair's faces are PAIR: two dice of 40 px touching at x = 320 (tops x 280-320 and 320-360, rows
# 180-220), centres (300, 200) and (340, 200), cut at 56 px (1.4 x): 16 px of each face lies on the other die


def drawn(bodies: list[tuple[int, int, int]], x0s: tuple[int, ...] = (280, 320)) -> np.ndarray:
    """A 640 x 400 green cloth with a die of side 40 px at each of ``x0s`` (left edge, rows 180-220), each of its body
    colour from ``bodies`` with a cross 3 px wide in its middle (dark on white, light on a colour), a 1 px grey seam
    down its left edge."""
    frame = np.zeros((400, 640, 3), np.uint8)
    frame[:] = CLOTH
    for x0, body in zip(x0s, bodies, strict=True):
        frame[180:220, x0:x0 + 40] = body
        frame[180:220, x0] = (150, 150, 150)
        ink = (30, 30, 30) if body == WHITE else (235, 235, 235)
        for a, b in (((x0 + 10, 190), (x0 + 30, 210)), ((x0 + 10, 210), (x0 + 30, 190))):
            cv2.line(frame, a, b, ink, 3)
    return frame


def stage(best: float) -> tuple[RollDiceReader, list[np.ndarray]]:
    """A reader whose matcher gives every face it is handed the best NCC ``best`` (no profile), and the rects of each
    call to it, in order."""
    reader = object.__new__(RollDiceReader)
    calls: list[np.ndarray] = []

    def match(frame, tops, cfg, bar=-np.inf, aside=None):
        calls.append(tops.rects.copy())
        return ncc([best] * len(tops.rects)), tops

    reader._match = match
    return reader, calls


def same(a: tuple, b: tuple) -> bool:
    """Whether two outcomes of the stage (faces, NCC, sizes named) are the same to the bit."""
    return (np.array_equal(a[0].rects, b[0].rects) and np.array_equal(a[0].scores, b[0].scores)
            and np.array_equal(a[1], b[1]) and a[2] == b[2])


def test_a_white_and_a_blue_die_touching_are_read_as_two():
    """The 56 px faces (best NCC 0.7) are cut again at 0.8: 44.8 px, centres moved 5.6 px apart to 294.4 and 345.6;
    the top-face stage fits each cut to its own die (the white die's top ends where the blue one's begins), the two
    match better (0.9), lie 40 px apart (within 40 x 1.1) and take both places: two faces at the dice's own
    centres, their side the dice's 40 px less the fitted rim (2-3 px). The cuts are no size tried: no size is named."""
    frame = drawn([WHITE, BLUE])
    reader, calls = stage(0.9)
    pair = faces(PAIR)
    got, got_ncc, named = reader._other_sizes(frame, CFG, 0.84, 1.0, pair, ncc([0.7, 0.7]), {0.84: pair}, {})
    assert len(calls) == 1 and len(calls[0]) == 2   # matched: the two cuts only, fitted to their dice
    assert len(got.rects) == 2 and named == ()
    for r, cx in zip(sorted(got.rects.tolist()), (300.0, 340.0), strict=True):
        assert abs(r[0] - cx) <= 1.0 and abs(r[1] - 200.0) <= 1.0
        assert 36.0 <= np.sqrt(r[2] * r[3]) <= 40.0
    assert got_ncc.max(1).tolist() == [0.9, 0.9]
    # a cut matching no better than the face it lies under (0.7 against 0.7) is a piece of a die: the pair stays
    reader, _ = stage(0.7)
    kept = reader._other_sizes(frame, CFG, 0.84, 1.0, faces(PAIR), ncc([0.7, 0.7]), {0.84: faces(PAIR)}, {})
    assert np.array_equal(kept[0].rects, np.asarray(PAIR))


def test_a_pair_left_whole_reads_as_with_the_split_off():
    """Two white dice with a faint seam: the top-face stage fits each 44.8 px cut over the seam onto the other die
    (41-42 px wide along the row, overlapping each other by about 6 px), so the two are not clear of each other and
    the pair is not split. The cuts match their symbol far better (0.95) than the faces of the pair (0.45, die weight
    about 0.4): weighed as the faces of another size, one of them would take a face's place, changing the read
    though no pair was split. They serve the split alone: the stage reads as with the split off."""
    frame = drawn([WHITE, WHITE])
    chosen, chosen_ncc = faces(PAIR), ncc([0.45, 0.45])
    rects, of = smaller_cuts(chosen, np.ones(2), 0.8, CFG)
    cut = extract_tops(frame, Candidates(rects, np.ones(2), 1.0), CFG)
    swapped = other_size_faces_weighed(chosen, chosen_ncc, [(cut, ncc([0.95, 0.95]))], CFG)[0]
    assert not np.array_equal(swapped.rects, chosen.rects)   # what the cuts would do among the other sizes' faces
    on, on_calls = stage(0.95)
    off, off_calls = stage(0.95)
    got = on._other_sizes(frame, CFG, 0.84, 1.0, chosen, chosen_ncc, {0.84: chosen}, {})
    assert same(got, off._other_sizes(frame, OFF, 0.84, 1.0, chosen, chosen_ncc, {0.84: chosen}, {}))
    assert np.array_equal(got[0].rects, chosen.rects) and got[2] == ()
    assert len(on_calls) == 1 and off_calls == []   # the cuts were matched, and left out


def test_a_frame_with_no_overlapping_faces_reads_as_before(monkeypatch):
    """Two dice 30 px apart (tops x 280-320 and 350-390), each with its own 40 px face; a face of another size
    (0.67, 32 px) lies inside the left one and a 40 px face of it where the size chosen has none (the lone blue die at
    x 500-540). No two faces overlap: nothing is cut or split, the other sizes' faces are matched and weighed exactly as
    with the split off (the same faces handed to the matcher and to the weighing), and the read is the same to the
    bit: the lone die added from size 0.67, named."""
    frame = drawn([WHITE, BLUE, BLUE], (280, 350, 500))
    chosen = faces([[300.0, 200.0, 40.0, 40.0, 0.0], [370.0, 200.0, 40.0, 40.0, 0.0]])
    other = faces([[300.0, 200.0, 32.0, 32.0, 0.0], [520.0, 200.0, 40.0, 40.0, 0.0]])
    seen = {0.84: chosen, 0.67: other}
    weighed: list[list[np.ndarray]] = []
    real = reader_module.other_size_faces_weighed

    def spy(chosen, ncc, others, cfg):
        weighed.append([f.rects.copy() for f, _ in others])
        return real(chosen, ncc, others, cfg)

    monkeypatch.setattr(reader_module, "other_size_faces_weighed", spy)
    on, on_calls = stage(0.9)
    off, off_calls = stage(0.9)
    got = on._other_sizes(frame, CFG, 0.84, 1.0, chosen, ncc([0.8, 0.8]), seen, {})
    assert same(got, off._other_sizes(frame, OFF, 0.84, 1.0, chosen, ncc([0.8, 0.8]), seen, {}))
    assert len(on_calls) == len(off_calls) == 1 and np.array_equal(on_calls[0], off_calls[0])
    assert len(weighed) == 2 and all(np.array_equal(a, b) for a, b in zip(*weighed, strict=True))
    assert len(got[0].rects) == 3 and np.array_equal(got[0].rects[2], other.rects[1]) and got[2] == (0.67,)
