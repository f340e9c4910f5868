"""The pile split of the Roll dice candidate stage with the k-means runs the reader makes (``split_attempts``).

A pile of touching dice of one colour, whose shared edge was too faint to cut, is split by k-means
(:func:`vision.roll_dice.candidates.split_blob`). Here each hand-built pile is pixels of whole squares (a die's top
face core, 18-24 work px), touching side by side, in an L, in a row, in a block and turned; the plain reference is each
pixel given to the square it was drawn in. The split with the reader's runs must give those squares (to a row of
pixels on a shared edge), as the split with three runs does, and the same parts for one seed every time."""

from __future__ import annotations

import numpy as np
import pytest

from vision.roll_dice import RollDiceConfig
from vision.roll_dice.candidates import split_blob

CONFIG = RollDiceConfig()


def square(x0: float, y0: float, side: int, angle: float = 0.0) -> np.ndarray:
    """Pixels ``float32[side*side, 2]`` (x, y) of a square of ``side`` px whose corner is at (x0, y0), turned by
    ``angle`` degrees about that corner (rounded to whole pixels, as a mask's pixels are)."""
    g = np.stack(np.meshgrid(np.arange(side), np.arange(side)), -1).reshape(-1, 2).astype(np.float64)
    t = np.deg2rad(angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return np.round(g @ rot.T + [x0, y0]).astype(np.float32)


def pile(squares: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(the pile's pixels ``float32[N, 2]``, each pixel's square ``int[N]``), one pixel once (a pixel two turned squares
    share is the first's)."""
    pts = np.concatenate(squares)
    owner = np.repeat(np.arange(len(squares)), [len(s) for s in squares])
    _, first = np.unique(pts, axis=0, return_index=True)
    first = np.sort(first)
    return pts[first], owner[first]


def same_parts(parts: list[np.ndarray], points: np.ndarray, owner: np.ndarray, overlap: float = 0.85) -> bool:
    """Whether ``parts`` are the squares, in any order: as many parts as squares, each square's pixels and one part's
    overlapping by at least ``overlap`` of their union (k-means stops within 0.1 px of its centres, so a row of pixels
    near the middle between two centres may go to either), that part's centre within 1.5 px of the square's."""
    if len(parts) != len(np.unique(owner)):
        return False
    got = [set(map(tuple, p.tolist())) for p in parts]
    for i in np.unique(owner):
        want = set(map(tuple, points[owner == i].tolist()))
        best = max(range(len(got)), key=lambda j: len(want & got[j]))
        if len(want & got[best]) < overlap * len(want | got[best]):
            return False
        if np.hypot(*(points[owner == i].mean(0) - parts[best].mean(0))) > 1.5:
            return False
    return True


PILES = {
    "two side by side, 20 px": [square(0, 0, 20), square(20, 0, 20)],
    "two one above the other, 24 px": [square(5, 3, 24), square(5, 27, 24)],
    "three in a row, 18 px": [square(0, 0, 18), square(18, 0, 18), square(36, 0, 18)],
    "three in an L, 20 px": [square(0, 0, 20), square(20, 0, 20), square(0, 20, 20)],
    "four in a block, 18 px": [square(0, 0, 18), square(18, 0, 18), square(0, 18, 18), square(18, 18, 18)],
    "two turned by 30 degrees, 22 px": [square(30, 10, 22, 30.0), square(30 + 22 * np.cos(np.pi / 6),
                                                                       10 + 22 * np.sin(np.pi / 6), 22, 30.0)],
    "two offset by half a side, 20 px": [square(0, 0, 20), square(20, 10, 20)],
}


@pytest.mark.parametrize("name", sorted(PILES))
def test_a_pile_splits_into_its_dice_with_the_readers_runs(name: str):
    points, owner = pile(PILES[name])
    k = len(PILES[name])
    for seed in (0, 7, 41):
        parts = split_blob(points, k, seed=seed, attempts=CONFIG.split_attempts)
        assert same_parts(parts, points, owner), f"{name}, seed {seed}: parts of {sorted(map(len, parts))} px"
        three = split_blob(points, k, seed=seed, attempts=3)
        assert same_parts(three, points, owner)
        again = split_blob(points, k, seed=seed, attempts=CONFIG.split_attempts)
        assert all(np.array_equal(p, q) for p, q in zip(parts, again, strict=True))


def test_the_runs_are_a_few_and_at_least_one():
    """The reader makes at least one run and no more than three (three was the most it ever made)."""
    assert 1 <= CONFIG.split_attempts <= 3
