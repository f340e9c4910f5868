"""Race for the Galaxy games the tests share, played through the box's own flow."""

from __future__ import annotations

from companion.flow import GameFlow
from companion.flows import FLOWS
from companion.player_names import parse_players


def finished_race(store) -> GameFlow:
    """A finished 2-player Race game in ``store`` (a :class:`companion.session.SessionStore`): Ann starts on Old
    Earth and Bob on Epsilon Eridani, Ann selects Consume: x2 VP and takes all 24 VP chips (the pool is 12 per
    player: Race for the Galaxy, Setup; the game ends at the end of the round the pool runs out: Game end), so the
    game ends that round with Ann the winner. Raises ``AssertionError`` if the flow does not end within 5 phases."""
    flow = GameFlow(store.start("race", FLOWS["race"].settings(parse_players("Ann,Bob"), {})), FLOWS["race"])
    flow.report("Ann", "start", {"card": "Old Earth"})
    flow.report("Bob", "start", {"card": "Epsilon Eridani"})
    flow.report("Ann", "select", {"action": "Consume: x2 VP"})
    flow.report("Bob", "select", {"action": "Produce"})
    flow.report("Ann", "vp", {"vp": 24})
    for _ in range(5):
        if flow.over():
            break
        flow.next_phase()
    assert flow.over()
    return flow
