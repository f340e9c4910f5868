"""bench/identify_split.py's arithmetic: each step's CPU counted once when it calls itself, a failing step's time kept,
and a frame's cost per card split into the first look and what the weak cards add (hand-worked numbers)."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

pytest.importorskip("cv2")

from bench.identify_split import card_costs, timed  # noqa: E402 - after the cv2 skip


def busy(ms: float) -> None:
    """Spend about ``ms`` of this thread's CPU."""
    end = time.thread_time() + ms / 1000.0
    while time.thread_time() < end:
        pass


def test_a_step_calling_itself_is_counted_once_and_a_failing_step_still_counts():
    spent: dict[str, float] = defaultdict(float)

    def step(depth: int) -> int:
        busy(5.0)
        return depth if depth == 0 else wrapped(depth - 1)

    wrapped = timed(spent, "centring", step)
    assert wrapped(2) == 0
    # three calls of about 5 ms each, nested: about 15 ms once, not 15 + 10 + 5
    assert 14.0 <= spent["centring"] < 25.0

    def fails() -> None:
        busy(3.0)
        raise ValueError("no card")

    with pytest.raises(ValueError, match="no card"):
        timed(spent, "edge_fit", fails)()
    assert spent["edge_fit"] >= 2.9


def test_a_frame_s_cost_split_between_the_first_look_and_the_weak_cards():
    # 15 tiles, identify 30 ms, the first look 20 of which 2 reading one tile at every turn; 1 weak tile: it adds the
    # 10 ms after the first look and the 2 ms at every turn, 12 ms; the rest is 18 ms, 1.2 a tile
    ms = {"identify": 30.0, "first_look": 20.0, "every_turn": 2.0}
    per_card, first, rest, weak = card_costs(ms, 15, 1)
    assert per_card == pytest.approx(2.0)
    assert first == pytest.approx(20.0 / 15)
    assert rest == pytest.approx(1.2)
    assert weak == pytest.approx(12.0)
    # three weak tiles share it: 4 ms each; no weak tile: no extra per weak tile
    assert card_costs(ms, 15, 3)[3] == pytest.approx(4.0)
    assert card_costs({"identify": 15.0, "first_look": 15.0, "every_turn": 0.0}, 15, 0) == (1.0, 1.0, 1.0, None)
