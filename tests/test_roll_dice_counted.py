"""``dice_counted`` (Roll for the Galaxy, p.8 Victory): the dice the final scoring counts, from the camera's
count at the end of a game tracked without the dice (``"tracking": "tableau"``). Expectations worked by hand
from the rulebook: Galactic Exchange scores 1 VP per die colour owned, New Galactic Order 2 VP per 3 red
dice owned (rounded up), a purple die is only purple there (p.8, digest section 7), and ties go to dice in
the cup + credits (goods and the rest are not cup dice)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import BadEvent, Event, Severity, replay
from rules.roll import ROLL_GAME, Dice


def game(*extra: tuple[str, str | None, dict[str, Any]], tracking: str = "tableau"):
    log = [
        ("player_setup", "Ann", {"faction": 1, "home_world": "Old Earth", "development": "Advanced Logistics",
                                 "world": "Spice World"}),
        ("player_setup", "Bob", {"faction": 2, "home_world": "Alpha Centauri", "development": "Alien Research Team",
                                 "world": "Information Hub"}),
        ("phase_selected", "Ann", {"phase": "develop"}),
        ("phase_selected", "Bob", {"phase": "develop"}),
        ("reveal", None, {}),
        ("phase", None, {"phase": "develop"}),
        ("tile_built", "Ann", {"tile": "Galactic Exchange"}),
        ("tile_built", "Ann", {"tile": "New Galactic Order"}),
        ("credits_changed", "Ann", {"credits": 4}),
        *extra,
    ]
    events = [Event(seq=k + 1, kind=kind, payload=payload, player=player)
              for k, (kind, player, payload) in enumerate(log)]
    return replay(ROLL_GAME, {"players": ["Ann", "Bob"], "tracking": tracking}, events)


def lines(result, player="Ann"):
    b = next(b for b in ROLL_GAME.scores(result.state) if b.player == player)
    return {line.category: line.vp for line in b.lines}, b.tiebreak


COUNT = ("dice_counted", "Ann", {"cup": {"white": 3, "red": 2, "purple": 1, "blue": 1},
                                 "citizenry": {"white": 1, "red": 2, "green": 1}})


def test_the_count_feeds_the_cost6_bonuses_and_the_tiebreak():
    before, tb_before = lines(game())
    # p.2 Setup: 3 white dice in the cup, 2 white in the Citizenry, plus Hidden Fortress's red die and Old
    # Earth's purple die in the Citizenry: 3 colours; 1 red -> 2 x ceil(1 / 3) = 2; tie-break 3 + $4
    assert before["Galactic Exchange bonus"] == 3 and before["New Galactic Order bonus"] == 2
    assert tb_before == (3 + 4,)
    result = game(COUNT)
    after, tb_after = lines(result)
    # owned: white 4, red 4, purple 1, blue 1, green 1 -> 5 colours; red 4 -> 2 x ceil(4 / 3) = 4 VP
    assert after["Galactic Exchange bonus"] == 5
    assert after["New Galactic Order bonus"] == 4
    # tie-break: 7 dice in the cup + $4 (the citizenry's 4 dice are not in the cup)
    assert tb_after == (7 + 4,)
    ann = ROLL_GAME.view(result.state)["players"][0]
    assert ann["cup"] == {"white": 3, "red": 2, "purple": 1, "blue": 1}
    assert ann["citizenry"] == {"white": 1, "red": 2, "green": 1}


def test_a_purple_die_is_never_red_for_new_galactic_order():
    # 3 red + 1 purple: counted as red it would be 4 red -> 4 VP; purple stays purple (p.8) -> 2 VP
    result = game(("dice_counted", "Ann", {"cup": {"red": 3, "purple": 1}, "citizenry": {}}))
    assert lines(result)[0]["New Galactic Order bonus"] == 2


def test_goods_are_not_cup_dice_and_count_as_owned_colours():
    # a yellow good on Old Earth (set on the state: how it got there is goods_placed's business) is an owned
    # colour for Galactic Exchange, never a cup die for the tie-break
    state = game(COUNT).state
    from dataclasses import replace

    ann = state.player("Ann")
    with_good = state.with_player(replace(ann, goods=(("Old Earth", ("yellow",)),)))
    pos = with_good.player("Ann").end_position()
    assert pos.cup == Dice.of(white=3, red=2, purple=1, blue=1)
    b = next(b for b in ROLL_GAME.scores(with_good) if b.player == "Ann")
    assert b.tiebreak == (7 + 4,)  # the good is not a cup die
    assert {line.category: line.vp for line in b.lines}["Galactic Exchange bonus"] == 6  # + yellow


def test_a_place_left_out_is_kept_and_a_later_count_replaces_the_earlier():
    result = game(COUNT, ("dice_counted", "Ann", {"cup": {"white": 1}}))
    ann = ROLL_GAME.view(result.state)["players"][0]
    assert ann["cup"] == {"white": 1} and ann["citizenry"] == {"white": 1, "red": 2, "green": 1}
    assert lines(result)[1] == (1 + 4,)


def test_counting_before_the_end_is_said_but_kept():
    result = game(COUNT)
    infos = [f for f in result.findings if f.seq == len(result.applied) and f.severity is Severity.INFO]
    assert any("counted before the end of the game" in f.what and f.rule.endswith("p.8 Victory") for f in infos)


def test_full_tracking_says_when_the_count_differs_from_the_dice_followed():
    result = game(("dice_counted", "Ann", {"cup": {"white": 3}, "citizenry": {"white": 2, "red": 1, "purple": 1}}),
                  ("dice_counted", "Ann", {"cup": {"white": 4}}), tracking="full")
    warned = [f.what for f in result.findings if f.severity is Severity.WARNING and "counted" in f.what]
    # the first count matches setup's dice (3 white in the cup, 2 in the citizenry); the second does not
    assert warned == ["Ann's cup counted 4 white; the reports gave 3 white: the count is kept"]
    assert result.state.player("Ann").cup == Dice.of(white=4)


@pytest.mark.parametrize("payload, what", [
    ({}, "counted in the cup, the Citizenry or the construction zone"),
    ({"goods": {"blue": 1}}, "; got goods"),
    ({"cup": {"grey": 1}}, "grey"),
    ({"cup": {"white": -1}}, "the cup: white must be a whole number 0 or more"),
    ({"cup": [1, 2]}, "the cup must be dice counted by colour"),
])
def test_a_bad_count_is_refused(payload, what):
    with pytest.raises(BadEvent, match=what):
        game(("dice_counted", "Ann", payload))
