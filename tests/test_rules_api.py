"""The typed game API every engine implements: progress, scores, check, findings and score output shapes.

Expected values are hand-worked from the rulebooks (cited per test), not taken from running the code.
"""

from __future__ import annotations

import json

from rules import (
    GAMES,
    CheckFormat,
    CheckingGame,
    Event,
    Finding,
    RankingGame,
    ScoreBreakdown,
    ScoreLine,
    Severity,
    Standings,
    replay,
)
from rules.among_the_stars import AMONG_GAME
from rules.race import RACE_GAME
from rules.roll import ROLL_GAME
from rules.scoring import scores_json


def log(*items):
    """Events from ``(kind, player, payload)`` triples, seq 1, 2, ..."""
    return [Event(seq=k, kind=kind, payload=payload, player=player, at=1000.0 + k)
            for k, (kind, player, payload) in enumerate(items, 1)]


def test_roll_progress_follows_the_round():
    # Roll for the Galaxy, p.3 Rounds: each round the players roll, assign (one phase selected each), reveal,
    # then the selected phases run in order I-V, then Manage Empire.
    settings = {"players": ["Ann", "Bob"], "tracking": "tableau"}
    start = ROLL_GAME.progress(replay(ROLL_GAME, settings, []).state)
    assert (start.round, start.round_label, start.stage, start.waiting,
            start.over) == (0, "Setup", "setup", ("Ann", "Bob"), False)
    selected = replay(ROLL_GAME, settings, log(("phase_selected", "Ann", {"phase": "develop"}))).state
    p = ROLL_GAME.progress(selected)
    assert (p.round, p.round_label, p.stage, p.waiting) == (1, "Round 1", "assign", ("Bob",))
    both = log(("phase_selected", "Ann", {"phase": "develop"}),
               ("phase_selected", "Bob", {"phase": "ship", "extra_white": "explore"}),
               ("reveal", None, {}), ("phase", None, {"phase": "explore"}))
    p = ROLL_GAME.progress(replay(ROLL_GAME, settings, both).state)
    assert (p.stage, p.waiting, p.last_round) == ("explore", (), False)


def test_race_progress_waits_for_action_cards_and_names_the_phase_stage():
    # Race for the Galaxy, the round: every player selects an action card secretly; the selected phases
    # run in order; then the end of the round.
    settings = {"players": ["Ann", "Bob"]}
    both = log(("action_chosen", None, {"player": "Ann", "actions": "develop"}),
               ("action_chosen", None, {"player": "Bob", "actions": "settle"}))
    p = RACE_GAME.progress(replay(RACE_GAME, settings, both[:1]).state)
    assert (p.round, p.stage, p.waiting) == (0, "setup", ("Bob",))
    p = RACE_GAME.progress(replay(RACE_GAME, settings, both).state)
    assert (p.round, p.round_label, p.stage, p.waiting) == (1, "Round 1", "phases", ())


def test_among_progress_counts_the_rounds_of_the_year():
    # Among the Stars rulebook, 4 Round overview: 4 years of 6 rounds; every player takes one action a round.
    settings = {"players": ["Ann", "Bob"]}
    p = AMONG_GAME.progress(replay(AMONG_GAME, settings, []).state)
    assert (p.round, p.rounds, p.round_label, p.stage,
            p.waiting) == (1, 6, "Year 1 of 4, round 1 of 6", "actions", ("Ann", "Bob"))
    acted = log(("card_discarded", "Ann", {}))
    assert AMONG_GAME.progress(replay(AMONG_GAME, settings, acted).state).waiting == ("Bob",)
    # aggressive mode (rulebook 7): years 2-4 have 7 rounds
    six = [Event(seq=k, kind="round_ended", payload={}) for k in range(1, 7)]
    p = AMONG_GAME.progress(replay(AMONG_GAME, {**settings, "aggressive": True}, six).state)
    assert (p.round, p.rounds, p.round_label) == (1, 7, "Year 2 of 4, round 1 of 7")


def test_among_checks_positions_through_the_protocol():
    assert isinstance(AMONG_GAME, CheckingGame)
    assert [name for name, g in GAMES.items() if isinstance(g, CheckingGame)] == ["among", "eclipse"]


def test_finding_json_keeps_its_keys_and_adds_the_new_ones_only_when_set():
    plain = Finding("what", "Ann", Severity.ERROR, "Roll for the Galaxy, p.6", 3)
    assert plain.to_json() == {"what": "what", "where": "Ann", "severity": "error", "rule": "Roll for the Galaxy, p.6",
                               "seq": 3}
    full = Finding("w", "x", Severity.WARNING, "r", None, player="Ann", card="Turret", cell=(1, 0), fix="move it",
                   rule_kind="adjacency")
    assert full.to_json() == {"what": "w", "where": "x", "severity": "warning", "rule": "r", "seq": None,
                              "player": "Ann",
                              "card": "Turret", "fix": "move it", "cell": [1, 0], "rule_kind": "adjacency"}


def test_check_format_prints_the_declared_rows():
    findings = [Finding("no wormhole", "hex 101", Severity.ERROR, "Eclipse, Explore",
                        rule_kind="no_wormhole_connection", fix="rotate it"),
                Finding("maybe", "hex 102", Severity.WARNING, "Eclipse, Explore", rule_kind="half")]
    printed, rest = CheckFormat().to_json(findings)
    assert printed == {"legal": False, "findings": [
        {"rule_kind": "no_wormhole_connection", "rule": "Eclipse, Explore",
         "message": "no wormhole", "fix": "rotate it"},
        {"rule_kind": "half", "rule": "Eclipse, Explore", "message": "maybe", "fix": None}]}
    assert rest == []
    printed, rest = AMONG_GAME.info.check_format.to_json(findings)
    assert list(printed) == ["findings"] and len(printed["findings"]) == 1 and rest == findings[1:]


class Teams:
    """A game whose winners are a team's members (what Eclipse's alliances need)."""

    class info:
        score_role_key = "species"

    def standings(self, breakdowns):
        return Standings(winners=("A", "B"), teams={"Nova": 33})


def test_scores_json_prints_roles_and_team_scores_for_a_game_that_declares_them():
    breakdowns = [ScoreBreakdown("A", (ScoreLine("hexes", 30),), role="Planta", team="Nova"),
                  ScoreBreakdown("B", (ScoreLine("hexes", 36),), role="Exiles", team="Nova"),
                  ScoreBreakdown("C", (ScoreLine("hexes", 32),), role="Magellan")]
    assert isinstance(Teams(), RankingGame)
    out = scores_json(breakdowns, Teams())
    assert list(out) == ["players", "team_scores", "winners"]
    assert out["players"][0] == {"name": "A", "species": "Planta", "total": 30, "breakdown": {"hexes": 30}}
    assert out["team_scores"] == {"Nova": 33} and out["winners"] == ["A", "B"]
    plain = scores_json(breakdowns, ROLL_GAME)
    assert list(plain) == ["players",
                           "winners"] and plain["winners"] == ["B"] and list(plain["players"][0]) == ["name", "total",
                                                                                                      "breakdown"]
    json.dumps(out)


# -- the one event helper ------------------------------------------------------------------------------

def test_event_context_reads_the_payload_checks_the_player_and_cites_in_one_format():
    import pytest

    from rules import BadEvent
    from rules.engine import EventContext

    ctx = EventContext(ROLL_GAME.info,
                       Event(seq=7, kind="tile_built", payload={"tile": "Space Piracy", "n": True, "vp": 2},
                             player="Ann"), players=("Ann", "Bob"))
    assert ctx.require("tile", str) == "Space Piracy" and ctx.player() == "Ann" and ctx.count("vp", minimum=1) == 2
    assert ctx.get("missing", 5) == 5
    with pytest.raises(BadEvent, match=r"event 7 \(tile_built\): 'dice': not given"):
        ctx.require("dice")
    with pytest.raises(BadEvent, match="'n' must be a whole number, got True"):  # JSON true is not 1
        ctx.require("n", int)
    with pytest.raises(BadEvent, match="'vp' must be a whole number 3 or more"):  # a field no form labels: its key
        ctx.count("vp", minimum=3)
    other = EventContext(ROLL_GAME.info, Event(seq=8, kind="vp_changed", payload={"player": "Zed"}),
                         players=("Ann", "Bob"))
    with pytest.raises(BadEvent, match="no player 'Zed'; players: Ann, Bob"):
        other.player()
    found = ctx.finding("too many", "Ann", Severity.ERROR, "p.6", card="Space Piracy", fix="take one back")
    assert found.rule == "Roll for the Galaxy, p.6" and found.seq == 7 and ctx.findings == [found]
    assert ROLL_GAME.info.cite("Roll for the Galaxy, p.8 End check") == "Roll for the Galaxy, p.8 End check"


def test_every_engine_dispatches_through_its_handler_table():
    for name, game in GAMES.items():
        assert game.event_kinds == frozenset(game.handlers), name
        assert all(callable(h) for h in game.handlers.values()), name
