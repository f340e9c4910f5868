"""Among the Stars: credits beyond the 112 in the box.

The Hungarian rulebook (3 Setup) puts the credits in the Supply in the middle of the table and never says it runs out;
a Sheptas who discards every round holds more than the 112 credits in the box (4 years x 10 + 24 rounds x 4 = 136),
which the box kept during play while `companion score among` refused the same 136. Both now take it; only a count no
game gives (above 500, the score file's bound against typing slips) is refused from a file and warned about in play.

Totals worked by hand (rulebook 6 'Game end': 1 VP per 3 credits; Sheptas 1 per 2, at most 5 more).
"""

from __future__ import annotations

import json

from rules.core import Severity
from tests.test_among_game import Log, run
from tests.test_among_secret import every_round_discarded, totals
from tests.test_flow import start


def test_a_sheptas_holding_136_credits_is_scored_the_same_in_play_and_from_a_score_file(store, tmp_path):
    """Bálint (Sheptas) discards for 4 credits every round: 4 x 10 + 24 x 4 = 136 credits, more than the 112 in the
    box; the rulebook never limits the Supply, so the box says nothing and the score file takes it too. His credits:
    1 VP per 2 (68) at most 5 more than 1 per 3 (45 + 5 = 50). Ágnes (no race) 112 // 3 = 37."""
    from tests.test_scoring_inputs import score

    flow = start(store, "among", "Ágnes,Bálint", races=["", "Sheptas"])
    every_round_discarded(flow)
    state = flow.session.replay().state
    assert state.player("Bálint").credits == 136
    assert not [f for f in flow.session.replay().findings if "credits" in str(f.what)]
    assert totals(flow.view()["result"]["players"]) == {"Ágnes": 37, "Bálint": 50}
    position = {"players": [
        {"name": "Ágnes", "credits": 112, "vp": 0, "station": [{"card": "Main Reactor", "cell": [0, 0], "cubes": 2}]},
        {"name": "Bálint", "race": "Sheptas", "credits": 136, "vp": 0,
         "station": [{"card": "Main Reactor", "cell": [0, 0], "cubes": 2}]}]}
    path = tmp_path / "among.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    code, out, err = score("among", str(path), "--json")  # `companion score among FILE --json`
    assert code == 0, err
    assert totals(json.loads(out)["players"]) == {"Ágnes": 37, "Bálint": 50}


def test_credits_past_any_game_are_a_warning_during_play_as_the_score_file_refuses_them():
    """500 is the score file's bound against typing slips; a correction that takes a player past it is a warning
    (misread amount?), kept as reported; below it, nothing is said."""
    log = Log()
    log.add("credits_changed", "Ágnes", delta=480, reason="test")  # 10 + 480 = 490: nothing said
    assert not run(log, players=["Ágnes", "Bálint"]).findings
    log.add("credits_changed", "Ágnes", delta=20, reason="test")  # 510
    r = run(log, players=["Ágnes", "Bálint"])
    [warned] = r.findings
    assert warned.severity is Severity.WARNING and "510" in str(warned.what) and "500" in str(warned.what)
    assert r.state.player("Ágnes").credits == 510
