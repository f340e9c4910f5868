"""bench/roll_dice.py's die-by-die listing (``--per-die``): every die a read misses, misreads or makes up is named
with its scene, truth, read and boxes, and a die read right is not listed; hand-made labels and reads."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_dice import Tally, match, score_scene  # noqa: E402 - after the cv2 skip
from vision.roll_dice import RollDiceRead, RollDieObservation  # noqa: E402
from vision.synth import DieLabel, Scene  # noqa: E402


def label(colour: str, face: str, x: int, y: int, side: int = 40) -> DieLabel:
    """A labelled die whose top face is the ``side`` px square at (x, y)."""
    quad = ((x, y), (x + side, y), (x + side, y + side), (x, y + side))
    return DieLabel(colour, face, (x, y, side, side), (x + side / 2, y + side / 2), quad)


def die(colour: str, face: str | None, x: int, y: int, confidence: float, side: int = 40) -> RollDieObservation:
    return RollDieObservation(colour, face, (x, y, side, side), confidence)


def scene_and_read() -> tuple[Scene, RollDiceRead]:
    """Three labelled dice on felt: a red settle read right, a blue ship read blue explore at 0.42, a white produce
    not found; and a false green die read on the table far from every label."""
    labels = [label("red", "settle", 100, 100), label("blue", "ship", 300, 100), label("white", "produce", 500, 300)]
    scene = Scene(np.zeros((480, 640, 3), np.uint8), tuple(labels), 1234,
                  {"table": "felt", "under": ["felt", "board", "felt"]})
    dice = (die("red", "settle", 102, 98, 0.97), die("blue", "explore", 298, 104, 0.42),
            die("green", "wild", 50, 400, 0.2))
    return scene, RollDiceRead(640, 480, dice, {}, None, 1.0)


def test_per_die_names_each_miss_misread_and_false_die_and_not_the_right_one(capsys):
    scene, read = scene_and_read()
    assert sorted(match(scene.dice, read.dice)) == [(0, 0), (1, 1)]      # the two found by their centres
    t = Tally("scenes", per_die=True)
    score_scene(t, scene, read, 1234, [], Path("x.png"), 10.0, 1.0)
    lines = [ln.strip() for ln in capsys.readouterr().out.splitlines() if ln.strip()]
    assert lines == [
        "[scenes] 1234 wrong blue/ship -> blue/explore conf 0.420 box (300, 100, 40, 40) read (298, 104, 40, 40) "
        "on board",
        "[scenes] 1234 miss  white/produce box (500, 300, 40, 40) on felt",
        "[scenes] 1234 false green/wild conf 0.200 box (50, 400, 40, 40) table felt",
    ]
    # the tallies are those of the listing: 2 of 3 found, 1 false, 2 colours and 1 face right
    assert (t.found, t.false, t.colour, t.face, t.labelled) == (2, 1, 2, 1, 3)


def test_without_per_die_nothing_is_listed(capsys):
    scene, read = scene_and_read()
    t = Tally("scenes")
    score_scene(t, scene, read, 1234, [], Path("x.png"), 10.0, 1.0)
    assert capsys.readouterr().out == ""
    assert (t.found, t.false) == (2, 1)
