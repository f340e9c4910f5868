"""One conformance test over every registered game (as OpenSpiel's api_test runs over every game).

Every game in :data:`rules.GAMES`, plus the scratch game of the test suite (:mod:`tests.scratch_pig`, one
line in :data:`REGISTRY`), must:

- declare itself consistently (``info``: name, players, colours, options with help, score input);
- accept settings at its player-count limits and refuse them just outside (``BadSettings``);
- handle every event kind it declares: an event of that kind is applied or refused as a ``BadEvent``,
  never another exception; an unknown kind is an ``UnknownEvent``;
- pass its golden playthroughs (``tests/playthroughs/<game>-*.jsonl``, format below): at every step
  ``apply`` leaves the state it was given as it was (deep-compared), the view survives a JSON round
  trip, progress is typed and consistent, every finding cites its rule as "<game title>, <section>",
  the findings, progress and scores marked on a step are those hand-worked in the file;
- replay deterministically (step by step = ``replay`` = ``replay`` again), and undo and undo of the
  undo round-trip;
- reach its end (``progress.over``) in a playthrough (a game for no players, d6, never ends);
- give score breakdowns whose categories sum to the total, in the ``companion score --json`` shape too,
  for the states of the playthroughs and for its score inputs (the playthroughs' ``score_input`` lines
  and the examples of ``schemas/<game>-score-input.schema.json``);
- a :class:`rules.CheckingGame` checks its ``check_input`` lines to the marked rule kinds and prints
  them in the shape its ``info.check_format`` declares, and reads the examples of the schema its check
  file follows (``schemas/<game>-<info.check_format.schema>.schema.json``).

Playthrough format: JSON Lines, one object a line.

- first line: ``{"settings": {...}, "comment": "..."}``;
- an event: ``{"kind", "player"?, "payload"?, "comment": "<rulebook page or section it follows>",
  "findings"?: ["warning: <words>", ...], "expect"?: {"progress": {<Progress.to_json() keys>},
  "scores": {player: total}}}``; events are numbered 1, 2, ... in file order (``undo`` names that
  number). An event without ``"findings"`` must raise no WARNING or ERROR finding; with it, its
  WARNING and ERROR findings are those listed, in order (``<words>`` a part of ``Finding.what``);
- ``{"score_input": {...}, "expect": {"totals": {player: VP}, "winners": [...]}, "comment"}``: an
  end-of-game input and its hand-worked scores (``final_scores``);
- ``{"check_input": {...}, "expect": {"legal": bool, "rule_kinds": [...]}, "comment"}``: a position for
  ``check`` and the rule kinds of its ERROR findings, in order.

Adding a game: register it (``rules.games.GAMES``) and add its playthroughs; it joins every test here.
The companion side (the flows, the setup step, the command-line options, export and BG Stats shapes) is
``tests/test_flow_conformance.py``: it replays these playthroughs through every flow of
``companion.flows.FLOWS``.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from rules import (
    GAMES,
    BadEvent,
    BadSettings,
    CheckingGame,
    Event,
    Progress,
    ScoreBreakdown,
    Severity,
    UnknownEvent,
    effective_events,
    replay,
)
from rules.scoring import scores_json
from tests.scratch_pig import PIG_GAME

REGISTRY = {**GAMES, PIG_GAME.name: PIG_GAME}
"""The games under test: every registered game, and the scratch game (its one registry line)."""

HERE = Path(__file__).resolve().parent
PLAYTHROUGHS = HERE / "playthroughs"
SCHEMAS = HERE.parent / "schemas"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim")


@dataclass
class Step:
    """One event line of a playthrough."""

    line: int
    event: Event
    comment: str
    findings: list[str] | None
    expect: dict[str, Any]


@dataclass
class Playthrough:
    path: Path
    settings: dict[str, Any]
    steps: list[Step] = field(default_factory=list)
    score_cases: list[dict[str, Any]] = field(default_factory=list)
    check_cases: list[dict[str, Any]] = field(default_factory=list)

    @property
    def events(self) -> list[Event]:
        return [s.event for s in self.steps]


def load(path: Path) -> Playthrough:
    """A playthrough file (the format in the module docstring)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    head, rest = rows[0], rows[1:]
    assert "settings" in head, f"{path.name}: the first line holds the settings"
    out = Playthrough(path, head["settings"])
    for n, row in enumerate(rest, start=2):
        assert row.get("comment"), f"{path.name} line {n}: every line says which rule it follows"
        if "score_input" in row:
            out.score_cases.append(row)
        elif "check_input" in row:
            out.check_cases.append(row)
        else:
            seq = len(out.steps) + 1
            event = Event(seq=seq, kind=row["kind"], payload=row.get("payload", {}), player=row.get("player"),
                          at=1000.0 + seq, origin="cli")
            out.steps.append(Step(n, event, row["comment"], row.get("findings"), row.get("expect", {})))
    return out


def playthroughs_of(name: str) -> list[Path]:
    return sorted(PLAYTHROUGHS.glob(f"{name}-*.jsonl"))


ALL_PLAYTHROUGHS = [pytest.param(name, path, id=path.stem) for name in REGISTRY for path in playthroughs_of(name)]


def settings_for(game: Any, players: int) -> dict[str, Any]:
    return {"players": list(NAMES[:players])} if game.info.players[1] else {}


def _citation_ok(game: Any, finding: Any) -> None:
    title = game.info.title
    assert finding.rule.startswith(f"{title}, "), f"{finding.rule!r} does not cite as '{title}, <section>'"
    for word in ("digest", "(seed)", "issue "):
        assert word not in finding.rule, f"{finding.rule!r}: players read the rulebook's words, not the project's"


def _progress_ok(progress: Any, players: tuple[str, ...]) -> None:
    assert isinstance(progress, Progress)
    assert progress.round >= 0 and progress.round_label and progress.stage
    assert progress.over == (progress.stage == "over"), "stage 'over' exactly when the game is over"
    assert progress.turn is None or progress.turn in players
    assert all(p in players for p in progress.waiting)
    assert not progress.over or not progress.waiting
    json.loads(json.dumps(progress.to_json()))


def _scores_ok(game: Any, breakdowns: list[ScoreBreakdown]) -> None:
    for b in breakdowns:
        assert b.total == sum(line.vp for line in b.lines)
        as_json = b.to_json()
        assert as_json["total"] == sum(c["vp"] for c in as_json["categories"])
    printed = json.loads(json.dumps(scores_json(breakdowns, game)))
    for p in printed["players"]:
        assert p["total"] == sum(p["breakdown"].values()), "the printed breakdown sums to the total"
    assert set(printed["winners"]) <= {b.player for b in breakdowns}
    if breakdowns:
        assert printed["winners"], "someone wins a scored game"


# -- the declaration and the settings ----------------------------------------------------------------


@pytest.mark.parametrize("name", REGISTRY)
def test_the_declaration_is_consistent(name):
    game = REGISTRY[name]
    info = game.info
    assert game.name == info.name == name and game.title == info.title
    low, high = info.players
    assert 0 <= low <= high <= len(info.colours) and len(set(info.colours)) == len(info.colours)
    for option in info.options:
        assert option.help, f"{name} {option.name}: the help says what it is and where the rule comes from"
    if info.score_input is not None:
        assert callable(game.final_scores)
    assert isinstance(game.event_kinds, frozenset) and game.event_kinds and "undo" not in game.event_kinds
    assert playthroughs_of(name), f"{name}: at least one golden playthrough in tests/playthroughs/{name}-*.jsonl"


@pytest.mark.parametrize("name", REGISTRY)
def test_settings_at_the_player_limits_and_just_outside(name):
    game = REGISTRY[name]
    low, high = game.info.players
    if high == 0:  # a game that keeps no players: names are accepted and not counted
        game.initial_state({})
        game.initial_state({"players": list(NAMES[:3])})
        return
    for n in (low, high):
        state = game.initial_state(settings_for(game, n))
        assert tuple(game.progress(state).waiting) == () or set(game.progress(state).waiting) <= set(NAMES[:n])
    for n in (low - 1, high + 1):
        if n < 0:
            continue
        with pytest.raises(BadSettings, match=f"{game.info.player_range} players"):
            game.initial_state(settings_for(game, n))
    with pytest.raises(BadSettings, match="must differ"):
        game.initial_state({"players": ["Ann", "Ann", *NAMES[2:low]]})
    for option in game.info.options:  # a value of no declared kind is refused, naming the option
        with pytest.raises(BadSettings, match=option.label or option.name):
            game.initial_state({**settings_for(game, low), option.name: 2.5})


@pytest.mark.parametrize("name", REGISTRY)
def test_every_declared_event_kind_is_handled(name):
    game = REGISTRY[name]
    low = max(game.info.players[0], 2) if game.info.players[1] else 0
    state = game.initial_state(settings_for(game, low))
    before = copy.deepcopy(state)
    player = NAMES[0] if low else None
    for kind in sorted(game.event_kinds):
        for payload, who in (({}, None), ({}, player), ({"player": player}, None), ({"player": player, "value": 1}, player)):
            try:
                new, findings = game.apply(state, Event(seq=1, kind=kind, payload=payload, player=who))
            except BadEvent:
                continue
            assert isinstance(findings, list)
            json.loads(json.dumps(game.view(new)))
        assert state == before, f"{name} {kind}: apply changed the state it was given"
    with pytest.raises(UnknownEvent, match=name):
        game.apply(state, Event(seq=1, kind="no_such_kind", payload={}))


# -- golden playthroughs --------------------------------------------------------------------------------


def _replayed(game: Any, play: Playthrough) -> list[tuple[Any, list[Any]]]:
    """Apply the playthrough step by step, checking every step; the (state, findings) after each."""
    state = game.initial_state(play.settings)
    players = tuple(game.players(state)) if hasattr(game, "players") else ()
    out = []
    for k, step in enumerate(play.steps):
        where = f"{play.path.name} line {step.line} ({step.event.kind}: {step.comment})"
        if step.event.kind == "undo":  # the log so far with the undo, through the core as a session replays it
            state, findings = replay(game, play.settings, play.events[: k + 1]).state, []
            out.append((state, findings))
        else:
            before = copy.deepcopy(state)
            state_after, findings = game.apply(state, step.event)
            assert state == before, f"{where}: apply changed the state it was given"
            state = state_after
            out.append((state, findings))
        view = game.view(state)
        assert json.loads(json.dumps(view)) == view, f"{where}: the view is not plain JSON"
        progress = game.progress(state)
        _progress_ok(progress, players or tuple(NAMES))
        for f in findings:
            _citation_ok(game, f)
        raised = [f"{f.severity.value}: {f.what}" for f in findings if f.severity in (Severity.WARNING, Severity.ERROR)]
        expected = step.findings or []
        assert len(raised) == len(expected) and all(e.split(": ", 1)[0] == r.split(": ", 1)[0] and e.split(": ", 1)[1] in r
                                                    for e, r in zip(expected, raised)), f"{where}: findings {raised}, expected {expected}"
        if "progress" in step.expect:
            got = progress.to_json()
            want = step.expect["progress"]
            assert {k: got[k] for k in want} == want, f"{where}: progress {got}"
        if "scores" in step.expect:
            got = {b.player: b.total for b in game.scores(state)}
            assert got == step.expect["scores"], f"{where}: scores {got}"
        _scores_ok(game, game.scores(state))
    return out


@pytest.mark.parametrize("name, path", ALL_PLAYTHROUGHS)
def test_golden_playthrough(name, path):
    game = REGISTRY[name]
    play = load(path)
    steps = _replayed(game, play)
    final = steps[-1][0] if steps else game.initial_state(play.settings)
    # replay is deterministic and agrees with the step-by-step application
    once, twice = replay(game, play.settings, play.events), replay(game, play.settings, play.events)
    assert once == twice and once.state == final


@pytest.mark.parametrize("name, path", ALL_PLAYTHROUGHS)
def test_undo_and_undo_of_the_undo_round_trip(name, path):
    game = REGISTRY[name]
    play = load(path)
    kept, _ = effective_events(play.events)  # the events in force (the playthrough's own undos resolved)
    full = replay(game, play.settings, play.events)
    last = play.events[-1].seq
    for target in sorted({kept[0].seq, kept[len(kept) // 2].seq, kept[-1].seq}):
        undo = Event(seq=last + 1, kind="undo", payload={"seq": target})
        redo = Event(seq=last + 2, kind="undo", payload={"seq": last + 1})
        try:
            expected = replay(game, play.settings, [e for e in kept if e.seq != target]).state
        except BadEvent:  # a later event needs the one withdrawn: the undo is refused the same way
            with pytest.raises(BadEvent):
                replay(game, play.settings, [*play.events, undo])
            continue
        assert replay(game, play.settings, [*play.events, undo]).state == expected, f"undo of event {target}"
        assert replay(game, play.settings, [*play.events, undo, redo]).state == full.state, f"undo of the undo of {target}"


@pytest.mark.parametrize("name", REGISTRY)
def test_the_game_ends(name):
    game = REGISTRY[name]
    if game.info.players[1] == 0:
        pytest.skip(f"{game.title} keeps no players and never ends")
    ended = []
    for path in playthroughs_of(name):
        play = load(path)
        state = replay(game, play.settings, play.events).state
        if game.progress(state).over:
            ended.append(path.name)
            assert game.progress(state).stage == "over"
    assert ended, f"{name}: a playthrough plays to the end of the game (progress.over)"


# -- end-of-game inputs and position checks ------------------------------------------------------------------


def _score_inputs(name: str) -> list[tuple[str, Any, dict[str, Any]]]:
    cases = [(f"{p.name} line", case["score_input"], case.get("expect", {})) for p in playthroughs_of(name)
             for case in load(p).score_cases]
    schema = SCHEMAS / f"{name}-score-input.schema.json"
    if schema.exists():
        for k, example in enumerate(json.loads(schema.read_text(encoding="utf-8")).get("examples", [])):
            cases.append((f"{schema.name} example {k}", example, {}))
    return cases


@pytest.mark.parametrize("name", REGISTRY)
def test_score_inputs_score_as_hand_worked(name):
    game = REGISTRY[name]
    cases = _score_inputs(name)
    if game.info.score_input is None:
        assert not cases, f"{name} declares no score input but a playthrough gives one"
        return
    assert any(expect for _, _, expect in cases), f"{name}: a playthrough holds a hand-worked score_input case"
    for where, data, expect in cases:
        breakdowns = game.final_scores(data)
        _scores_ok(game, breakdowns)
        if "totals" in expect:
            assert {b.player: b.total for b in breakdowns} == expect["totals"], where
        if "winners" in expect:
            assert sorted(scores_json(breakdowns, game)["winners"]) == sorted(expect["winners"]), where


@pytest.mark.parametrize("name", REGISTRY)
def test_checking_games_check_as_hand_worked(name):
    game = REGISTRY[name]
    cases = [case for p in playthroughs_of(name) for case in load(p).check_cases]
    if not isinstance(game, CheckingGame):
        assert not cases, f"{name} does not check positions but a playthrough gives a check_input"
        return
    assert cases, f"{name}: a playthrough holds a check_input case"
    for case in cases:
        findings = game.check(case["check_input"])
        for f in findings:
            _citation_ok(game, f)
        errors = [f.rule_kind for f in findings if f.severity is Severity.ERROR]
        assert errors == case["expect"]["rule_kinds"], case["comment"]
        printed, rest = game.info.check_format.to_json(findings)
        assert json.loads(json.dumps(printed)) == printed
        keys = [key for key, _ in game.info.check_format.row]
        assert all(list(row) == keys for row in printed["findings"])
        assert len(printed["findings"]) + len(rest) == len(findings)
        if game.info.check_format.legal:
            assert printed["legal"] is case["expect"]["legal"]
        assert (not errors) is case["expect"]["legal"]
    schema = SCHEMAS / f"{name}-{game.info.check_format.schema}.schema.json"
    assert schema.exists(), f"{name}: the file its check reads is described in {schema.name}"
    for example in json.loads(schema.read_text(encoding="utf-8")).get("examples", []):
        for f in game.check(example):  # the schema's own examples are read without a refusal
            _citation_ok(game, f)
