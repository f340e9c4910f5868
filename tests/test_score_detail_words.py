"""A score breakdown's detail (``"33 VP in chips"``) is said in the players' language, with its plural form."""

from __future__ import annotations

from companion.i18n import localize
from rules.race import final_scores as race_scores
from rules.roll.endgame import final_scores
from tests.test_race_scoring import FILLER, game
from tests.test_roll_scoring import player


def _chips_detail(breakdown) -> str:
    return next(line.detail for line in breakdown.lines if line.category == "VP chips")


def test_roll_chips_detail_is_translated() -> None:
    [b] = final_scores({"players": [player(vp_chips=33)]})
    assert _chips_detail(b) == "33 VP in chips"
    assert localize(_chips_detail(b), "pl") == "33 PZ w żetonach"
    assert localize(_chips_detail(b), "el") == "33 ΠΝ σε δείκτες"
    assert localize(_chips_detail(b), "hu") == "33 GYP zsetonokban"


def test_race_chips_detail_is_translated() -> None:
    one, many = race_scores(game(["Old Earth"], FILLER, chips=(1, 5)))
    assert localize(_chips_detail(one), "pl") == "1 PZ w żetonach"
    assert localize(_chips_detail(many), "hu") == "5 GYP zsetonokban"


def test_galactic_renaissance_detail_is_translated() -> None:
    # Roll p.8: Galactic Renaissance gives 1/2/3/4 VP at 1/3/6/10 VP in chips: 7 chips reach step 3
    [b] = final_scores({"players": [player(vp_chips=7, tableau=["Galactic Renaissance"])]})
    detail = next(line.detail for line in b.lines if "Renaissance" in line.category)
    assert localize(detail, "pl") == "7 PZ w żetonach to stopień 3 z 1/3/6/10/15..."
