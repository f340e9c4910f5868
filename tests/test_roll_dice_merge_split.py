"""The Roll dice candidate stage's fragment merge and pile split (:mod:`vision.roll_dice.candidates`).

A die's top face is cut into fragments by its own symbol's strokes; :func:`merge_fragments` joins them back while the
union still fits in ``merge_fit`` x the die side. It settles most fragments at once and walks only those with another
within reach: here it is checked against a plain walk of the rule over every fragment (hand-built masks, and masks of
scattered fragments), pixel for pixel. A pile of touching dice is split by k-means from seeded starts
(:func:`split_blob`): two reads of one frame give the same candidates, in any thread."""

from __future__ import annotations

import threading
from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.roll_dice_small import ENROLL, FACES_BY_COLOUR, SCENE
from vision import synth
from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
from vision.roll_dice.candidates import find_candidates, merge_fragments, split_blob

CONFIG = RollDiceConfig()
SIDE = 20.0  # a face core's side, work px


def reference_merge(labels: np.ndarray, side: float, config: RollDiceConfig) -> list[np.ndarray]:
    """The merge rule walked plainly over every fragment: fragments of at least ``fragment_min_frac`` x a die's area,
    the largest first (equals in label order), each one's pixels row-major; each fragment not yet in a group starts one;
    a fragment of ``merge_max_frac`` x a die's area or more takes none; otherwise the group takes, one at a time, the
    first fragment after the one it took last whose centre lies within ``side`` of the group's centre (its pixels'
    mean) and whose union with the group has a minimal rectangle of sides at most ``merge_fit`` x ``side``."""
    n = int(labels.max()) + 1
    pts, centres = [], []
    for i in range(1, n):
        ys, xs = np.nonzero(labels == i)
        p = np.stack([xs, ys], axis=1).astype(np.float32)
        if len(p) >= config.fragment_min_frac * side * side:
            pts.append(p)
            centres.append(p.mean(0))
    order = sorted(range(len(pts)), key=lambda i: -len(pts[i]))
    pts = [pts[i] for i in order]
    centres = [centres[i] for i in order]
    taken = [False] * len(pts)
    groups = []
    for k in range(len(pts)):
        if taken[k]:
            continue
        taken[k] = True
        group = pts[k]
        if len(group) < config.merge_max_frac * side * side:
            start, middle = 0, centres[k]
            while True:
                for c in range(start, len(pts)):
                    if taken[c] or np.hypot(centres[c][0] - middle[0], centres[c][1] - middle[1]) > side:
                        continue
                    (_, _), (rw, rh), _ = cv2.minAreaRect(np.concatenate([group, pts[c]]))
                    if max(rw, rh) <= config.merge_fit * side:
                        group = np.concatenate([group, pts[c]])
                        taken[c] = True
                        start = c + 1
                        break
                else:
                    break
                middle = group.mean(0)
        groups.append(group)
    return groups


def merged(mask: np.ndarray, side: float = SIDE, config: RollDiceConfig = CONFIG) -> list[np.ndarray]:
    """:func:`merge_fragments` of the 4-connected parts of ``mask`` (``uint8`` 0/255), as the candidate stage
    calls it."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    return merge_fragments(labels, stats, side, config)


def same_groups(got: list[np.ndarray], want: list[np.ndarray]) -> bool:
    """The same groups in the same order, pixel for pixel (and the same dtype)."""
    return len(got) == len(want) and all(g.dtype == w.dtype and np.array_equal(g, w)
                                         for g, w in zip(got, want, strict=True))


def face_with_cross(mask: np.ndarray, x: int, y: int, side: int = 20, stroke: int = 2) -> None:
    """Draw, in place, a die's face core of ``side`` px at (``x``, ``y``), cut into four by a symbol's cross of
    ``stroke`` px through its middle."""
    mask[y:y + side, x:x + side] = 255
    mid = side // 2 - stroke // 2
    mask[y + mid:y + mid + stroke, x:x + side] = 0
    mask[y:y + side, x + mid:x + mid + stroke] = 0


def test_a_face_cut_by_its_cross_is_one_group_again():
    """Four 9x9 quarters of one 20 px face (a 2 px cross between them) are one group of 4 x 81 = 324 pixels."""
    mask = np.zeros((80, 80), np.uint8)
    face_with_cross(mask, 30, 30)
    got = merged(mask)
    assert [len(g) for g in got] == [324]
    assert same_groups(got, reference_merge(cv2.connectedComponents(mask, connectivity=4)[1], SIDE, CONFIG))


def test_two_touching_faces_stay_two_dice():
    """Two such faces 2 px apart: the eight quarters span 42 px, over 1.15 x 20 = 23 px, so two groups of 324."""
    mask = np.zeros((80, 120), np.uint8)
    face_with_cross(mask, 30, 30)
    face_with_cross(mask, 52, 30)
    got = merged(mask)
    assert sorted(len(g) for g in got) == [324, 324]
    xs = sorted(float(g[:, 0].mean()) for g in got)
    assert xs == [39.5, 61.5]          # each face's own middle: 30 + 9.5 and 52 + 9.5
    assert same_groups(got, reference_merge(cv2.connectedComponents(mask, connectivity=4)[1], SIDE, CONFIG))


def test_a_large_fragment_takes_no_other():
    """A 19x19 fragment (361 px, over 0.8 x 400 = 320) beside a 9x9 one within a side: neither joins, the large one
    first; a lone 6x6 fragment far off is a group of its own; a 2x2 speck (4 px, under 0.03 x 400 = 12) is no group."""
    mask = np.zeros((100, 100), np.uint8)
    mask[10:29, 10:29] = 255
    mask[10:19, 31:40] = 255
    mask[70:76, 70:76] = 255
    mask[50:52, 90:92] = 255
    got = merged(mask)
    assert [len(g) for g in got] == [361, 81, 36]


def test_fragments_join_in_order_and_the_centre_moves():
    """A row of three 9x9 fragments 2 px apart along x (centres 11 px apart): the first (the largest, 9x10) takes the
    second; the group's centre moves between them, and the third, 22 px from the first's centre, is then within a
    side but their union (31 px) does not fit in 23 px: it starts a group of its own."""
    mask = np.zeros((40, 60), np.uint8)
    mask[10:20, 10:19] = 255    # 90 px, the largest: first
    mask[10:19, 21:30] = 255    # 81 px
    mask[10:19, 32:41] = 255    # 81 px
    got = merged(mask)
    assert [len(g) for g in got] == [171, 81]
    assert same_groups(got, reference_merge(cv2.connectedComponents(mask, connectivity=4)[1], SIDE, CONFIG))


@pytest.mark.parametrize("seed", range(12))
def test_scattered_fragments_merge_as_the_plain_walk(seed: int):
    """Faces cut by crosses, some touching, and loose specks and bars of every size over a 160x240 mask, at three
    die sides: the groups equal the plain walk's, pixel for pixel and in order."""
    rng = np.random.default_rng(seed)
    mask = np.zeros((160, 240), np.uint8)
    for _ in range(int(rng.integers(3, 9))):
        face_with_cross(mask, int(rng.integers(0, 215)), int(rng.integers(0, 135)), int(rng.integers(14, 24)),
                        int(rng.integers(1, 4)))
    for _ in range(int(rng.integers(10, 40))):
        x, y = int(rng.integers(0, 235)), int(rng.integers(0, 155))
        mask[y:y + int(rng.integers(1, 12)), x:x + int(rng.integers(1, 12))] = 255
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    for side in (14.0, 20.0, 27.0):
        assert same_groups(merge_fragments(labels, stats, side, CONFIG), reference_merge(labels, side, CONFIG))


def test_no_fragment_gives_no_group():
    assert merged(np.zeros((30, 30), np.uint8)) == []


def pile_mask() -> tuple[np.ndarray, np.ndarray]:
    """(foreground, colour edges) ``uint8[120, 200]``: two 24 px dice side by side with no edge between them (one core
    of two dice areas, a pile) and a lone die."""
    mask = np.zeros((120, 200), np.uint8)
    mask[40:64, 30:78] = 255
    mask[40:64, 120:144] = 255
    edges = np.zeros_like(mask)
    cv2.rectangle(edges, (29, 39), (78, 64), 255, 1)
    cv2.rectangle(edges, (119, 39), (144, 64), 255, 1)
    return mask, edges


def test_a_pile_splits_the_same_every_time_and_in_any_thread():
    """The pile of two dice gives two candidates, each about a die's side; the lone die one; the same rects to the bit
    read again, after other random draws, and read in another thread."""
    mask, edges = pile_mask()
    work = np.zeros((120, 200, 3), np.uint8)
    first = find_candidates(work, mask, 1.0, CONFIG, 24.0, edges)
    assert len(first.rects) == 3
    cv2.setRNGSeed(12345)
    cv2.randu(np.zeros((10, 10), np.float32), 0, 1)
    again = find_candidates(work, mask, 1.0, CONFIG, 24.0, edges)
    got: list = []
    t = threading.Thread(target=lambda: got.append(find_candidates(work, mask, 1.0, CONFIG, 24.0, edges)))
    t.start()
    t.join()
    for other in (again, got[0]):
        assert np.array_equal(first.rects, other.rects) and np.array_equal(first.scores, other.scores)
    xs = sorted(first.rects[:, 0].tolist())
    # the pile's halves are half its 48 px apart, about its middle (53.5) as the lone die is about its own (131.5)
    assert abs((xs[1] - xs[0]) - 24.0) <= 2.0
    assert abs((xs[0] + xs[1]) / 2 - 53.5 - (xs[2] - 131.5)) <= 0.5


def test_split_blob_parts():
    """Two 10x10 squares of points 20 px apart split into those squares, the same for one seed every time; one part or
    too few points a part: the points as they are."""
    a = np.stack(np.meshgrid(np.arange(10), np.arange(10)), -1).reshape(-1, 2).astype(np.float32)
    points = np.concatenate([a, a + [20, 0]]).astype(np.float32)
    parts = split_blob(points, 2, seed=5)
    assert sorted(len(p) for p in parts) == [100, 100]
    assert sorted(float(p[:, 0].mean()) for p in parts) == [4.5, 24.5]
    again = split_blob(points, 2, seed=5, attempts=1)
    assert all(np.array_equal(p, q) for p, q in zip(parts, split_blob(points, 2, seed=5), strict=True))
    assert sorted(len(p) for p in again) == [100, 100]
    assert split_blob(points, 1)[0] is points
    assert len(split_blob(points[:7], 2)) == 1


def test_two_reads_of_one_frame_read_the_same_dice(tmp_path):
    """A scene with touching dice (so piles are split) read twice by a reader that keeps no die size: the same dice,
    colours, faces, boxes and confidences."""
    synth.write_enrollment(tmp_path, FACES_BY_COLOUR, seed=3, symbol_set="A", dice_per_photo=3, config=ENROLL)
    reader = RollDiceReader(build_profile(tmp_path))
    scene = synth.render_scene(21, replace(SCENE, n_dice=(8, 8), touching=0.6), FACES_BY_COLOUR)
    one, two = reader.read(scene.image), reader.read(scene.image)
    assert len(one.dice) >= 4

    def said(read):
        return [(d.colour, d.face, np.round(np.asarray(d.box, float), 6).tolist(), round(float(d.confidence), 9))
                for d in read.dice]
    assert said(one) == said(two)
