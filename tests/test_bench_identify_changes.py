"""bench/identify_changes.py's arithmetic: seed lists and ranges read as typed, and each change's frames summed up
(hand-worked numbers)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.identify_changes import ChangeRead, parse_seeds, summary  # noqa: E402 - after the cv2 skip


def test_seeds_are_read_as_lists_ranges_or_both():
    assert parse_seeds("1,102,108") == [1, 102, 108]
    assert parse_seeds("2..5") == [2, 3, 4, 5]
    assert parse_seeds(" 1, 5..6 ,") == [1, 5, 6]
    assert parse_seeds("7..7") == [7]


@pytest.mark.parametrize("bad", ["5..2", "a", "1..b"])
def test_a_seed_that_is_no_number_or_a_backward_range_is_refused(bad):
    with pytest.raises(ValueError):
        parse_seeds(bad)


def test_each_change_is_summed_apart_and_a_frame_without_identify_counts_as_zero_ms():
    rows = [
        ChangeRead(1, "reroll", 2, 0.0, 0, 0, True),
        ChangeRead(1, "reroll", 3, 0.0, 0, 0, True),
        ChangeRead(1, "reroll", 4, 20.0, 3, 0, True),
        ChangeRead(1, "add_card", 2, 3.0, 1, 1, True),
        ChangeRead(1, "add_card", 3, 12.0, 3, 1, False),
        ChangeRead(1, "add_card", 4, 6.0, 2, 2, True),
    ]
    got = summary(rows)
    assert list(got) == ["reroll", "add_card"]
    # re-rolls: identify ran in one frame of three; the median of 0, 0 and 20 ms is 0
    assert got["reroll"] == {"frames": 3, "ran": 1, "median_ms": 0.0, "per_card_ms": None, "differ": 0}
    # cards played: 3, 12 and 6 ms; per card added 3/1, 12/1 and 6/2 = 3, 12, 3 -> median 3
    assert got["add_card"] == {"frames": 3, "ran": 3, "median_ms": 6.0, "per_card_ms": 3.0, "differ": 1}


def test_no_frames_give_no_summary():
    assert summary([]) == {}
