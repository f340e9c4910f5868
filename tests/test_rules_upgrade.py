"""Logs written with the names of before issue 13 replay, once upgraded, to the same state as today's names.

The renames (``GameInfo.renames``): Roll ``vp_taken {vp}`` -> ``vp_changed {delta}``; Race ``vp_chips {vp}`` ->
``vp_changed {delta}`` and ``round_end`` -> ``round_ended``; Among the Stars ``vp_adjusted`` -> ``vp_changed`` and
``credits_adjusted`` -> ``credits_changed``. The session database's migration calls :func:`rules.upgrade_event`.
"""

from __future__ import annotations

import pytest

from rules import GAMES, Event, UnknownEvent, replay, upgrade_event, upgrade_events


def events(*items):
    """``(kind, player, payload)`` -> Events seq 1, 2, ..."""
    return [Event(seq=k, kind=kind, payload=payload, player=player, at=1000.0 + k)
            for k, (kind, player, payload) in enumerate(items, 1)]


@pytest.mark.parametrize("game, old, new", [
    ("roll", ("vp_taken", {"vp": 3, "reason": "Galactic Bankers"}),
     ("vp_changed", {"delta": 3, "reason": "Galactic Bankers"})),
    ("race", ("vp_chips", {"player": "Ann", "vp": 2}), ("vp_changed", {"player": "Ann", "delta": 2})),
    ("race", ("round_end", {"hands": {"Ann": 10}}), ("round_ended", {"hands": {"Ann": 10}})),
    ("among", ("vp_adjusted", {"delta": -4, "reason": "x"}), ("vp_changed", {"delta": -4, "reason": "x"})),
    ("among", ("credits_adjusted", {"delta": 2}), ("credits_changed", {"delta": 2})),
])
def test_each_declared_rename(game, old, new):
    payload = dict(old[1])
    assert upgrade_event(game, old[0], payload) == new
    assert payload == old[1]  # pure: the stored payload is not changed
    assert upgrade_event(game, *new) == new  # today's names come back as they are


def test_kinds_that_did_not_change_and_unknown_games_pass_through():
    assert upgrade_event("roll", "tile_built", {"tile": "Space Piracy"}) == ("tile_built", {"tile": "Space Piracy"})
    assert upgrade_event("race", "card_discarded", {"card": "x"}) == ("card_discarded", {"card": "x"})
    assert upgrade_event("chess", "vp_taken", {"vp": 1}) == ("vp_taken", {"vp": 1})
    # the same old name in another game is not that game's rename
    assert upgrade_event("among", "round_end", {}) == ("round_end", {})


def test_old_names_are_not_today_s_kinds():
    # a log that was not migrated is refused with the kind named, never misread
    with pytest.raises(UnknownEvent, match="vp_taken"):
        replay(GAMES["roll"], {"players": ["Ann", "Bob"]}, events(("vp_taken", "Ann", {"vp": 1})))


def test_a_roll_log_with_the_old_names_replays_to_the_same_state():
    # Roll for the Galaxy, p.2 Setup: 2 players -> a 24 VP pool; p.7 Ship: VP chips come from the pool,
    # p.8 End check: an empty pool makes the round the last one. Ann takes 20 then 4: pool 0, Ann 24 VP.
    settings = {"players": ["Ann", "Bob"], "tracking": "tableau"}
    old = events(("phase_selected", "Ann", {"phase": "ship"}), ("vp_taken", "Ann", {"vp": 20, "reason": "consume"}),
                 ("vp_taken", "Ann", {"vp": 4, "reason": "consume"}), ("undo", None, {"seq": 3}),
                 ("undo", None, {"seq": 4}))
    new = events(("phase_selected", "Ann", {"phase": "ship"}),
                 ("vp_changed", "Ann", {"delta": 20, "reason": "consume"}),
                 ("vp_changed", "Ann", {"delta": 4, "reason": "consume"}), ("undo", None, {"seq": 3}),
                 ("undo", None, {"seq": 4}))
    game = GAMES["roll"]
    upgraded = replay(game, settings, upgrade_events("roll", old))
    assert upgraded == replay(game, settings, new)
    assert (upgraded.state.vp_pool, upgraded.state.player("Ann").vp_chips,
            upgraded.state.ending) == (0, 24, ("VP pool exhausted",))


def test_a_race_log_with_the_old_names_replays_to_the_same_state():
    # Race for the Galaxy: 2 players -> 24 VP in the pool (setup 1). Ann chooses Consume x2, Bob Produce;
    # Ann takes 5 VP chips (pool 19), then the phases close and the round ends (hands 4 and 6).
    settings = {"players": ["Ann", "Bob"]}
    common = [("start_world", None, {"player": "Ann", "card": "Old Earth"}),
              ("start_world", None, {"player": "Bob", "card": "Epsilon Eridani"}),
              ("actions_selected", None, {"choices": {"Ann": "consume_x2", "Bob": "produce"}})]
    old = events(*common, ("vp_chips", None, {"player": "Ann", "vp": 5}), ("phase_done", None, {}),
                 ("phase_done", None, {}),
                 ("round_end", None, {"hands": {"Ann": 4, "Bob": 6}}))
    new = events(*common, ("vp_changed", None, {"player": "Ann", "delta": 5}), ("phase_done", None, {}),
                 ("phase_done", None, {}),
                 ("round_ended", None, {"hands": {"Ann": 4, "Bob": 6}}))
    game = GAMES["race"]
    upgraded = replay(game, settings, upgrade_events("race", old))
    assert upgraded == replay(game, settings, new)
    state = upgraded.state
    assert (state.pool, state.player("Ann").vp_chips, state.stage.value,
            state.player("Bob").hand) == (19, 5, "select", 6)


def test_an_among_log_with_the_old_names_replays_to_the_same_state():
    # Among the Stars rulebook 4: 10 credits each year; a VP track correction of +6 then -2 leaves 4;
    # a credits correction of -3 leaves 7.
    settings = {"players": ["Ann", "Bob"]}
    old = events(("vp_adjusted", "Ann", {"delta": 6, "reason": "x"}),
                 ("vp_adjusted", "Ann", {"delta": -2, "reason": "x"}),
                 ("credits_adjusted", "Ann", {"delta": -3, "reason": "x"}))
    new = events(("vp_changed", "Ann", {"delta": 6, "reason": "x"}),
                 ("vp_changed", "Ann", {"delta": -2, "reason": "x"}),
                 ("credits_changed", "Ann", {"delta": -3, "reason": "x"}))
    game = GAMES["among"]
    upgraded = replay(game, settings, upgrade_events("among", old))
    assert upgraded == replay(game, settings, new)
    assert (upgraded.state.player("Ann").vp, upgraded.state.player("Ann").credits) == (4, 7)
