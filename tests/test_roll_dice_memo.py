"""The per-face measures of a read's ink kept once measured (:mod:`vision.roll_dice.memo`): the die weights and the
spreads of the faces' middles and strokes are the same numbers, to the bit, whether kept or measured afresh, and a kept
measure is never given for another array or for ink that may change."""

from __future__ import annotations

import gc
from dataclasses import replace

import numpy as np
import pytest

from tests.roll_dice_small import FACES_BY_COLOUR
from tests.roll_dice_small import SCENE as SMALL_SCENE
from vision import synth
from vision.roll_dice import RollDiceConfig, TopFaces
from vision.roll_dice.assemble import die_weights, size_evidence
from vision.roll_dice.memo import InkMemo, frozen
from vision.roll_dice.reader import detect_tops
from vision.roll_dice.shape import _middle_spread, _stroke_spread, middle_spread, stroke_spread


@pytest.fixture(scope="module")
def tops() -> TopFaces:
    """The top faces the detector cuts on a generated table of 8-10 dice (640x360, dice of 38-44 px)."""
    scene = synth.render_scene(511, replace(SMALL_SCENE, n_dice=(8, 10)), faces_by_colour=FACES_BY_COLOUR)
    got = detect_tops(scene.image, RollDiceConfig())
    assert len(got.rects) >= 8
    return got


def _fresh(tops: TopFaces) -> TopFaces:
    """The same faces with a writeable copy of their ink: measured afresh every time."""
    return TopFaces(tops.rects, tops.scores, tops.ink.copy(), tops.body, tops.evidence)


def test_the_top_faces_ink_cannot_change_and_stays_so_when_faces_are_taken(tops):
    assert frozen(tops.ink)
    with pytest.raises(ValueError):
        tops.ink[0, 0, 0, 0] = 1.0
    idx = np.array([2, 0, 1])
    part = tops.take(idx)
    assert frozen(part.ink)
    np.testing.assert_array_equal(part.ink, tops.ink[idx])
    assert frozen(tops.take(slice(1, 3)).ink)            # a view of frozen ink is copied, not shared
    loose = _fresh(tops).take(idx)
    assert loose.ink.flags.writeable                      # writeable ink is taken as before


def test_kept_spreads_and_die_weights_are_the_measured_numbers(tops):
    cfg = RollDiceConfig()
    rng = np.random.default_rng(5)
    ncc = rng.uniform(0.2, 0.95, (len(tops.rects), 12)).astype(np.float32)
    fresh = _fresh(tops)
    for _ in range(3):                                    # the first measures, the others are kept
        np.testing.assert_array_equal(middle_spread(tops.ink, cfg), _middle_spread(fresh.ink, cfg))
        np.testing.assert_array_equal(stroke_spread(tops.ink, cfg), _stroke_spread(fresh.ink, cfg))
        np.testing.assert_array_equal(die_weights(tops, ncc, cfg), die_weights(fresh, ncc, cfg))
        assert size_evidence(tops, ncc, cfg) == size_evidence(fresh, ncc, cfg)
    idx = np.array([3, 1])
    np.testing.assert_array_equal(die_weights(tops.take(idx), ncc[idx], cfg), die_weights(fresh, ncc, cfg)[idx])
    # other settings are measured with those settings, not given the kept numbers
    wide = RollDiceConfig(stroke_sigma=2 * RollDiceConfig().stroke_sigma)
    np.testing.assert_array_equal(stroke_spread(tops.ink, wide), _stroke_spread(fresh.ink, wide))
    assert not np.array_equal(stroke_spread(tops.ink, wide), stroke_spread(tops.ink, cfg))


def test_a_kept_measure_comes_back_a_copy_and_is_measured_once():
    memo, calls = InkMemo(), []

    def total(x: np.ndarray) -> np.ndarray:
        calls.append(1)
        return x.reshape(len(x), -1).sum(1)

    ink = np.arange(24, dtype=np.float32).reshape(3, 2, 2, 2).copy()   # owning its pixels
    ink.setflags(write=False)
    first = memo.of(ink, "sum", total)
    first[:] = -1.0                                       # the caller's copy: the kept numbers do not change
    np.testing.assert_array_equal(memo.of(ink, "sum", total), [28.0, 92.0, 156.0])   # 0+...+7, 8+...+15, 16+...+23
    assert len(calls) == 1
    memo.of(ink, "other", total)                          # another key is another measure
    assert len(calls) == 2


def test_writeable_ink_and_views_are_measured_every_time():
    memo, calls = InkMemo(), []

    def total(x: np.ndarray) -> np.ndarray:
        calls.append(1)
        return x.reshape(len(x), -1).sum(1)

    ink = np.ones((2, 2, 2, 2), np.float32)
    assert memo.of(ink, "sum", total).tolist() == [8.0, 8.0]
    ink[1] = 2.0                                          # it may change: never kept
    assert memo.of(ink, "sum", total).tolist() == [8.0, 16.0]
    ink.setflags(write=False)
    view = ink[:1]
    assert not frozen(view)                               # a view shares another array's pixels
    memo.of(view, "sum", total)
    memo.of(view, "sum", total)
    assert len(calls) == 4


def test_an_array_in_the_memory_of_one_gone_is_measured_afresh():
    memo = InkMemo(size=2)
    for value in (1.0, 2.0, 3.0, 4.0):                    # each gone before the next: ids are often reused
        ink = np.full((2, 2, 3, 3), value, np.float32)
        ink.setflags(write=False)
        assert memo.of(ink, "sum", lambda x: x.reshape(len(x), -1).sum(1)).tolist() == [18 * value] * 2
        del ink
        gc.collect()


def test_a_memo_keeps_at_least_one_measure():
    with pytest.raises(ValueError, match="at least one"):
        InkMemo(size=0)
