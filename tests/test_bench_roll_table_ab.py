"""bench/roll_table_ab.py's verdict on whether two versions of the readers read every frame the same: every round is
compared (the dice reader's die-size memory can read a frame differently in a later round), not only the last;
hand-made reads."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.roll_table_ab import read_name, sameness_lines  # noqa: E402 - after the cv2 skip

A = {"dice": 20, "dice_found": 19, "dice_right": 18, "dice_false": 1}
B = {"dice": 20, "dice_found": 20, "dice_right": 19, "dice_false": 1}


def rounds(old: list, new: list) -> dict:
    """``seen`` for two rounds of the cold reads of frame seeds 0 and 10 and the read after a re-roll of seed 0."""
    seen: dict[tuple, object] = {}
    for v, reads in (("old", old), ("new", new)):
        for rnd, (cold0, cold10, reroll) in enumerate(reads):
            seen[v, rnd, 0], seen[v, rnd, 10], seen[v, rnd, 0, "reroll"] = cold0, cold10, reroll
    return seen


def test_a_difference_in_an_earlier_round_is_found_though_the_last_round_agrees():
    seen = rounds(old=[(A, A, (15, 15)), (B, A, (15, 15))], new=[(B, A, (15, 15)), (B, A, (15, 15))])
    lines = sameness_lines(seen)
    assert lines[0] == "both versions read every frame the same in every round: False (5 of 6 reads over 2 rounds)"
    assert lines[1] == f"  round 1 frame seed 0: old {A}, new {B}"
    # the old version read frame seed 0 differently in round 2 than in round 1: its size memory, said apart
    assert lines[2] == "[old] read differently from one round to another: frame seed 0"
    assert lines[-1] == f"cold read of frame seed 0 (new, round 2): {B}"


def test_the_same_reads_in_every_round_say_so_and_a_change_read_is_compared_too():
    same = rounds(old=[(A, B, (15, 15))] * 3, new=[(A, B, (15, 15))] * 3)
    assert sameness_lines(same) == [
        "both versions read every frame the same in every round: True (9 of 9 reads over 3 rounds)",
        f"cold read of frame seed 0 (new, round 3): {A}",
    ]
    changed = rounds(old=[(A, B, (15, 15))] * 2, new=[(A, B, (15, 15)), (A, B, (14, 15))])
    lines = sameness_lines(changed)
    assert lines[0].startswith("both versions read every frame the same in every round: False (5 of 6")
    assert lines[1] == "  round 2 frame seed 0 after reroll: old (15, 15), new (14, 15)"
    assert lines[2] == "[new] read differently from one round to another: frame seed 0 after reroll"


def test_a_read_only_one_version_made_is_no_sameness():
    seen = rounds(old=[(A, B, (15, 15))], new=[(A, B, (15, 15))])
    del seen["old", 0, 10]
    lines = sameness_lines(seen)
    assert lines[0] == "both versions read every frame the same in every round: False (2 of 2 reads over 1 rounds)"
    assert lines[1] == "  round 1 frame seed 10: read by one version only"
    assert sameness_lines({})[0].startswith("both versions read every frame the same in every round: False (0 of 0")
    assert read_name(20) == "frame seed 20" and read_name(10, "add_card", 3) == "round 4 frame seed 10 after add_card"
