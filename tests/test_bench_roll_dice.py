"""bench/roll_dice.py's die-by-die listing (``--per-die``): every die a read misses, misreads or makes up is named
with its scene, truth, read and boxes, and a die read right is not listed; hand-made labels and reads."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

cv2 = pytest.importorskip("cv2")

from bench.roll_dice import Tally, lies_on, match, score_scene, stage_names, stages_line  # noqa: E402 - after cv2
from vision.roll_dice import RollDiceRead, RollDieObservation  # noqa: E402
from vision.scenes import DiceSceneConfig, render_dice_scene  # noqa: E402
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
        "[scenes] 1234 false green/wild conf 0.200 box (50, 400, 40, 40) on felt",
    ]
    # the tallies are those of the listing: 2 of 3 found, 1 false, 2 colours and 1 face right
    assert (t.found, t.false, t.colour, t.face, t.labelled) == (2, 1, 2, 1, 3)


def test_without_per_die_nothing_is_listed(capsys):
    scene, read = scene_and_read()
    t = Tally("scenes")
    score_scene(t, scene, read, 1234, [], Path("x.png"), 10.0, 1.0)
    assert capsys.readouterr().out == ""
    assert (t.found, t.false) == (2, 1)


def test_a_false_die_on_a_player_board_is_said_on_the_board_and_one_beside_it_on_the_table(capsys):
    """A false die's box on a printed player board was said to lie on the table ('table felt'): its centre inside a
    board's outline of the scene's meta says 'board'; beside the board, and in a scene without boards, the table."""
    scene, read = scene_and_read()
    board = [[20, 360], [200, 360], [200, 470], [20, 470]]  # around the false green die's box centre (70, 420)
    on_board = Scene(scene.image, scene.dice, scene.seed, {**scene.meta, "boards": [board]})
    beside = Scene(scene.image, scene.dice, scene.seed, {**scene.meta, "boards": [[[x + 200, y] for x, y in board]]})
    lines = {}
    for name, sc in (("on", on_board), ("beside", beside), ("none", scene)):
        t = Tally("scenes", per_die=True)
        score_scene(t, sc, read, 1234, [], Path("x.png"), 10.0, 1.0)
        lines[name] = [ln.strip() for ln in capsys.readouterr().out.splitlines() if " false " in ln]
        assert (t.found, t.false, t.per_background["felt"]["false"]) == (2, 1, 1)  # the tallies do not move
    assert lines["on"] == ["[scenes] 1234 false green/wild conf 0.200 box (50, 400, 40, 40) on board"]
    assert lines["beside"] == lines["none"] == [
        "[scenes] 1234 false green/wild conf 0.200 box (50, 400, 40, 40) on felt"]
    # the centre decides, edges included; a synth scene's meta has a table and no boards
    assert lies_on((180, 440, 40, 40), {"table": "wood", "boards": [board]}) == "board"  # centre (200, 460): the edge
    assert lies_on((181, 440, 40, 40), {"table": "wood", "boards": [board]}) == "wood"
    assert lies_on((0, 0, 10, 10), {}) == "?"


def test_the_scene_generator_records_each_player_boards_outline_where_its_dice_lie_on_it():
    """vision.scenes' meta names each player board's outline in picture pixels: the dice it says lie on a board
    (meta["under"], from the dice's table positions) have their top face's centre on an outline, within a die's
    width (the top face is a die's height above the board), and the others are not deep inside one."""
    seen_board = seen_table = 0
    for seed in (1, 7, 11, 42):
        sc = render_dice_scene(seed, DiceSceneConfig(boards=1.0))
        outlines = [np.asarray(o, np.float32).reshape(-1, 1, 2) for o in sc.meta["boards"]]
        assert outlines and all(len(o) >= 4 for o in outlines), seed
        die = sc.meta["die_px"]
        for lab, under in zip(sc.dice, sc.meta["under"], strict=True):
            depth = max(cv2.pointPolygonTest(o, lab.centre, True) for o in outlines)  # > 0 inside, px
            if under == "board":
                assert depth > -die, (seed, lab, depth)
                seen_board += 1
            else:
                assert under == sc.meta["table"] and depth < die, (seed, lab, depth)
                seen_table += 1
    assert seen_board and seen_table
    assert render_dice_scene(3, DiceSceneConfig(boards=0.0)).meta["boards"] == []


def test_the_stage_medians_list_every_stage_the_reads_timed_in_the_order_they_ran():
    """The per-stage line comes from the reads' own timings: ``own_side`` (which a fixed list once left out) and a
    stage no list names are printed; a stage only one read ran sits after the stage it followed there and counts
    0 ms for the read that skipped it. Medians worked by hand: validate (1, 3) -> 2.0, foreground (2, 4) -> 3.0,
    unsized (0, 1) -> 0.5, own_side (3, 5) -> 4.0, a_new_stage (0.25, 0) -> 0.125, printed 0.1."""
    scene, read = scene_and_read()
    t = Tally("scenes")
    first = {"validate": 1.0, "foreground": 2.0, "own_side": 3.0, "a_new_stage": 0.25}
    second = {"validate": 3.0, "foreground": 4.0, "unsized": 1.0, "own_side": 5.0}
    rows: list[dict] = []
    for timings in (first, second):
        got = type(read)(read.width, read.height, read.dice, timings, read.light, read.die_size)
        score_scene(t, scene, got, 1234, rows, Path("x.png"), 10.0, 1.0)
    assert stage_names(t.timings) == ["validate", "foreground", "unsized", "own_side", "a_new_stage"]
    assert stages_line(t.timings) == "validate 2.0, foreground 3.0, unsized 0.5, own_side 4.0, a_new_stage 0.1"
    # the CSV's columns: the scene's figures, then every stage's ms (a row without a stage is filled with 0)
    columns = stage_names(rows)
    assert columns[-5:] == ["validate_ms", "foreground_ms", "unsized_ms", "own_side_ms", "a_new_stage_ms"]
    assert columns[0] == "generator" and "read_ms" in columns
    assert stages_line([]) == "" and stage_names([]) == []
