"""``bench/edge_fits.py``'s rows: what each edge fit of the second look did, on a drawn two-card table."""

from __future__ import annotations

import numpy as np
import pytest

from bench.edge_fits import fit_rows
from tests.test_card_edges import _read, _two_cards_on_a_dark_table
from vision.card_edges import edge_fitted
from vision.card_match import RefineConfig


def test_each_fit_is_told_by_where_its_edges_lie_and_whether_it_was_kept():
    # "a" read 3 px right and 2 px low of its card: its sides' edges lie within the fit's reach (5 % of its 96 px short
    # side, 4.8 px), the fitted outline's farthest corner about sqrt(3^2 + 2^2) = 3.6 px from the place, kept and read
    # closer; "b" read 8 px right of its card: its left and right sides' strongest edges at the end of the reach
    deck, frame, at = _two_cards_on_a_dark_table()
    reads = [_read(deck, frame, at["a"] + np.array([3.0, 2.0])), _read(deck, frame, at["b"] + np.array([8.0, 0.0]))]
    cfg = RefineConfig()
    out = edge_fitted(deck, frame, reads, False, cfg, (96, 150))
    a, b = fit_rows(deck, frame, reads, out, cfg)
    assert (a["id"], a["end"], a["kept"]) == ("a", False, True)
    assert a["move"] == pytest.approx(np.hypot(3.0, 2.0), abs=1.0)
    assert a["margin"] == pytest.approx(reads[0][0][2] - reads[0][0][1])
    assert a["new_conf"] >= a["conf"] - 1e-6
    assert (b["id"], b["end"], b["kept"], b["new_conf"]) == ("b", True, False, None)
