"""One conformance test over every game's at-table flow (the companion side of ``test_game_conformance``).

Every flow in :data:`companion.flows.FLOWS`, plus the scratch game's (:data:`tests.scratch_pig.PIG_FLOW`,
one line in :data:`FLOW_REGISTRY`), must:

- read its declaration: name, title and BoardGameGeek id are the engine's ``info``; its columns use keys of
  their own (not the row's ``name``, ``seat``, ...); its withdrawable reports name its own forms;
- offer every option the game offers as a command-line flag, with the option's help, whose value the flow's
  settings take, and which another game's ``--game`` refuses;
- run the setup step at its player limits: the most players it seats start a game, one more is refused,
  one fewer than the least cannot start; colours come from the declaration;
- replay the golden playthroughs (``tests/playthroughs/<game>-*.jsonl``) through the flow, recorded in a
  session: at every step the view is plain JSON and says what the engine's progress says (round, stage,
  turn, last round, ending, over, who the table waits for), every form is well formed and each open one
  becomes an event kind the game handles, the events Next would record apply, the progress and scores the
  playthrough marks are those of the flow;
- give the export JSON and the BG Stats play record in the shapes of docs/contracts.md, with the result's
  breakdowns summing to their totals.

Adding a game's flow: register it (``companion.flows.FLOWS``); it joins every test here.
"""

from __future__ import annotations

import copy
import json
import urllib.parse
from typing import Any

import pytest

from companion.cli import _parser
from companion.errors import BadEntry
from companion.flow import GameFlow
from companion.flow_export import BGSTATS_URL
from companion.flow_spec import FIELD_KINDS, RESERVED_KEYS, FlowBase, parse_form
from companion.flows import FLOWS
from companion.game_options import flows_infos, game_flags, given_options, misplaced
from companion.player_names import parse_players
from companion.session import SessionStore
from companion.setup_flow import TableSetup
from rules import GAMES, BadEvent, Event, Progress, replay
from tests.scratch_pig import PIG_FLOW
from tests.test_game_conformance import NAMES, REGISTRY, load, playthroughs_of

FLOW_REGISTRY = {**FLOWS, PIG_FLOW.name: PIG_FLOW}
"""The flows under test: every registered flow, and the scratch game's (its one registry line)."""

ALL_PLAYTHROUGHS = [pytest.param(name, path, id=path.stem) for name in FLOW_REGISTRY for path in playthroughs_of(name)]

EXPORT_KEYS = {"format", "version", "game", "title", "bgg_id", "session", "started_at", "ended_at", "finished",
               "rounds",
               "players", "winners", "findings", "events"}
RESULT_PLAYER_KEYS = {"name", "seat", "colour", "role", "total", "breakdown", "categories", "tiebreak", "winner"}
BGSTATS_KEYS = {"sourceName", "sourcePlayId", "playDate", "durationMin", "game", "players", "comments"}
BGSTATS_GAME_KEYS = {"name", "bggId", "sourceGameId", "highestWins", "noPoints", "cooperative"}
BGSTATS_PLAYER_KEYS = {"name", "score", "winner", "seatOrder", "startPlayer", "role", "color"}
VIEW_KEYS = {"flow", "game", "title", "round", "round_label", "stage", "turn", "note", "phases", "pool", "pool_label",
             "columns", "players", "boards", "throws", "last_round", "ending", "over", "next", "forms", "open_forms",
             "choices_now", "choice_groups", "form_notes",
             "findings",
             "result", "export"}
FRAME = (320, 240)  # px: the frames the setup step makes its zones for


@pytest.fixture
def registry_store(tmp_path):
    """A SessionStore that also knows the scratch game (``games=REGISTRY``), unlike conftest's ``store``."""
    with SessionStore(tmp_path / "flows.sqlite3", games=REGISTRY) as s:
        yield s


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


# -- the declaration ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FLOW_REGISTRY)
def test_the_flow_reads_its_declaration(name):
    spec = FLOW_REGISTRY[name]
    info = REGISTRY[name].info
    assert isinstance(spec, FlowBase) and spec.game is REGISTRY[name]
    assert (spec.name, spec.title, spec.bgg_id, spec.info) == (name, info.title, info.bgg_id, info)
    assert spec.options == tuple(o for o in info.options if o.offered)
    keys = [c.key for c in spec.columns]
    assert keys and len(set(keys)) == len(keys) and not set(keys) & RESERVED_KEYS
    assert all(c.label for c in spec.columns)
    low = max(info.players[0], 1)
    view = REGISTRY[name].view(REGISTRY[name].initial_state({"players": list(NAMES[:low])}))
    form_ids = {f.id for f in spec.forms(view)}
    assert set(spec.report_forms.values()) <= form_ids
    # a hidden end-of-game entry's reports are named, so a phone's Undo during it finds the player's own entry
    assert {f.id for f in spec.forms(view) if f.private} <= set(spec.report_forms.values())
    assert set(spec.report_forms) <= REGISTRY[name].event_kinds


# -- the command line --------------------------------------------------------------------------------------


def _sample_value(option: Any, players: int) -> str | None:
    """A command-line value for ``option`` (None: a bool flag): the first allowed one; a per-player option
    gives it to the first seat and none to the others (``"Qualeen,"``)."""
    if option.kind == "bool":
        return None
    if option.kind == "int":
        return str(option.minimum if option.minimum is not None else option.default)
    if option.per_player:
        return ",".join([option.choices[0], *[""] * (players - 1)])
    return option.choices[0]


def _players_for(option: Any, info: Any) -> int:
    low, high = info.players
    return option.players[1] if option.players is not None else max(low, 2)


@pytest.mark.parametrize("name", FLOW_REGISTRY)
def test_every_offered_option_is_a_flag_with_its_help_that_the_flow_takes(name):
    spec = FLOW_REGISTRY[name]
    parser = _parser(FLOW_REGISTRY)
    run = next(a for a in parser._subparsers._group_actions[0].choices.items() if a[0] == "run")[1]  # noqa: SLF001
    helps = {flag: action.help for action in run._actions for flag in action.option_strings}  # noqa: SLF001
    game_choices = next(a.choices for a in run._actions if "--game" in a.option_strings)  # noqa: SLF001
    assert name in game_choices and "d6" in game_choices
    flags = {f.option.name: f for f in game_flags(flows_infos(FLOW_REGISTRY))}
    for option in spec.options:
        flag = flags[option.name]
        assert flag.flag in helps, f"{name} {option.name}: no {flag.flag} flag"
        assert "with --game " in helps[flag.flag] and name in helps[flag.flag].split(":")[0]
        assert option.help.replace("%", "%%") in helps[flag.flag]
        players = _players_for(option, spec.info)
        value = _sample_value(option, players)
        argv = ["run", "--game", name, "--players", ",".join(NAMES[:players]),
                flag.flag] + ([] if value is None else [value])
        args = parser.parse_args(argv)
        given = given_options(args, spec.info)
        assert set(given) == {option.name}
        assert misplaced(args, flows_infos(FLOW_REGISTRY), name) == []
        settings = spec.settings(parse_players(",".join(NAMES[:players]), spec.info.colours), given)
        REGISTRY[name].initial_state(_json(settings))  # the engine starts from what the flow stores
        for other in FLOW_REGISTRY:
            if other != name and option.name not in {o.name for o in FLOW_REGISTRY[other].options}:
                assert misplaced(parser.parse_args([*argv[:2], other, *argv[3:]]), flows_infos(FLOW_REGISTRY), other) \
                    == [flag.flag], f"{flag.flag} with --game {other}"
    with pytest.raises(BadEntry, match=f"{spec.title} takes no"):
        spec.settings(parse_players("Ann,Bob", spec.info.colours), {"no_such_option": True})


def test_options_that_are_not_offered_are_not_flags():
    """Roll's ``tracking`` (the flow decides it) and Race's dealt ``start_worlds`` are no command-line flags."""
    parser = _parser(FLOW_REGISTRY)
    offered = {o.name for info in flows_infos(FLOW_REGISTRY) for o in info.options if o.offered}
    hidden = [o for info in flows_infos(FLOW_REGISTRY) for o in info.options if not o.offered and o.name not in offered]
    assert hidden
    for option in hidden:
        with pytest.raises(SystemExit):
            parser.parse_args(["run", option.flag, "x"])


def test_every_registered_game_declares_options_one_flag_can_carry():
    """Every game's declaration (also one whose flow is still to come) makes flags without a clash."""
    game_flags([g.info for g in GAMES.values()])


# -- the setup step ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", FLOW_REGISTRY)
def test_the_setup_step_at_the_player_limits(registry_store, name):
    spec = FLOW_REGISTRY[name]
    low, high = spec.info.players
    setup = TableSetup(registry_store, spec, resume=False)
    assert setup.view()["colours"] == list(spec.info.colours)
    assert (setup.view()["min_players"], setup.view()["max_players"]) == (low, high)
    for k in range(high):
        setup.add_player(NAMES[k])
        assert (setup.why_not() == "") is (k + 1 >= low), k
    assert [p["colour"] for p in setup.view()["players"]] == list(spec.info.colours[:high])
    with pytest.raises(BadEntry, match=f"at most {high} players"):
        setup.add_player(NAMES[high])
    view = setup.view()
    assert _json(view) == view and view["next"]["enabled"] is True
    flow = setup.start(FRAME)
    assert flow.names == list(NAMES[:high]) and _json(flow.view()) == flow.view()
    fewer = TableSetup(registry_store, spec, resume=False)
    for k in range(low - 1):
        fewer.add_player(NAMES[k])
    assert fewer.why_not().startswith("add players") and fewer.view()["can_start"] is False
    with pytest.raises(BadEntry):
        fewer.start(FRAME)
    fewer.add_player(NAMES[low - 1])
    assert fewer.start(FRAME).names == list(NAMES[:low])


# -- golden playthroughs through the flow ------------------------------------------------------------------


def _sample_values(form: Any) -> dict[str, Any]:
    """A value for every field of ``form`` the phone sends (the first choice, the least number, cell [0, 0]): a field
    shown beside other choices of another field (``shown_for``) only with one of those."""
    out: dict[str, Any] = {}
    for f in form.fields:
        if f.kind == "choice":
            out[f.name] = f.choices[0]
        elif f.kind == "int":
            out[f.name] = f.minimum if f.minimum is not None else 0
        elif f.kind == "dice":
            out[f.name] = str(f.maximum if f.maximum is not None else 6)
        else:
            out[f.name] = [max(f.minimum or 0, 0), max(f.minimum or 0, 0)]
    return {name: value for name, value in out.items()
            if not (shown := next(f.shown_for for f in form.fields if f.name == name)) or out.get(shown[0]) in shown[1]}


def _check_forms(spec: Any, game: Any, state: Any, view: dict[str, Any], where: str) -> None:
    """Every form is well formed; each open one becomes an event the game applies or refuses as a BadEvent."""
    engine_view = game.view(state)
    forms = {f.id: f for f in spec.forms(engine_view)}
    assert [f["id"] for f in view["forms"]] == list(forms), where
    for form in forms.values():
        assert form.label and len({f.name for f in form.fields}) == len(form.fields), where
        for f in form.fields:
            assert f.kind in FIELD_KINDS and f.label, f"{where}: {form.id}.{f.name}"
            assert f.kind != "choice" or f.choices, f"{where}: {form.id}.{f.name} offers nothing to choose"
    for player, open_ids in view["open_forms"].items():
        assert set(open_ids) <= set(forms), where
        for form_id in open_ids:
            values = parse_form(forms[form_id], _sample_values(forms[form_id]))
            try:
                kind, payload = spec.report_event(form_id, values, player, engine_view)
            except BadEntry:
                continue  # the flow refused it with its reason (a tile onto a laid hex): no event to apply
            assert kind in game.event_kinds, f"{where}: {form_id} becomes {kind!r}, not an event of {game.name}"
            before = copy.deepcopy(state)
            try:
                game.apply(state, Event(seq=10 ** 6, kind=kind, payload=_json(payload), player=player, origin="phone"))
            except BadEvent:
                pass  # refused as a report can be (the phone says why); never another exception
            assert state == before, where


def _check_view(flow: GameFlow, game: Any, state: Any, where: str) -> dict[str, Any]:
    view = flow.view()
    assert _json(view) == view, f"{where}: the flow's view is not plain JSON"
    assert VIEW_KEYS <= set(view), f"{where}: {sorted(VIEW_KEYS - set(view))} missing"
    fields = {(f["id"], x["name"]): x for f in view["forms"] for x in f["fields"]}
    for player, grouped in view["choice_groups"].items():  # an order of a field's own choices, under labels
        for form, by_field in grouped.items():
            for name, order in by_field.items():
                offered = fields[form, name]["choices"]
                listed = [c for g in order["groups"] for c in g["choices"]]
                assert order["rest"] and all(g["label"] for g in order["groups"]), where
                assert set(listed) <= set(offered) and len(listed) == len(set(listed)), (where, player, form, name)
    progress: Progress = game.progress(state)
    assert (view["round"], view["stage"], view["turn"], view["ending"], view["over"]) == (
        progress.round, progress.stage, progress.turn, list(progress.ending), progress.over), where
    # the engine's label, or (while the next round's choices are made after a round ended) the next round's
    assert view["round_label"] == progress.round_label or (
        progress.round and view["round_label"].startswith(f"Round {progress.round + 1}")), where
    assert view["last_round"] == (progress.last_round and not progress.over), where
    assert [p["name"] for p in view["players"] if p["waiting"]] == [n for n in flow.names
                                                                    if n in progress.waiting], where
    keys = [c["key"] for c in view["columns"]]
    for row in view["players"]:
        assert {"name", "seat", "colour", "role", "tableau", "credits", "vp", "waiting", *keys} <= set(row), where
        assert row["colour"] in flow.spec.info.colours
    for board in view["boards"]:
        assert board["kind"] in ("grid", "hex") and all(len(c["at"]) == 2 for c in board["cells"]), where
        assert board["owner"] is None or board["owner"] in flow.names, where
    if view["next"]["enabled"]:
        planned = flow.spec.next_events(game.view(state), progress)
        assert planned and view["next"]["label"], where
        for kind, payload in planned:  # what Next would record, previewed on the state (never changed)
            assert kind in game.event_kinds, f"{where}: Next records {kind!r}"
            state, _ = game.apply(state, Event(seq=10 ** 6, kind=kind, payload=_json(payload), origin="touchscreen"))
    else:
        assert view["over"] or view["next"]["why"], f"{where}: Next is off without saying why"
    assert (view["result"] is not None) is view["over"] and (view["export"] is not None) is view["over"]
    return view


def _check_result(result: dict[str, Any], names: list[str]) -> None:
    assert [p["name"] for p in result["players"]] == names
    for p in result["players"]:
        assert RESULT_PLAYER_KEYS <= set(p)
        assert p["total"] == sum(p["breakdown"].values()) == sum(c["vp"] for c in p["categories"])
        assert p["winner"] is (p["name"] in result["winners"])
    assert set(result["winners"]) <= set(names) and result["winners"]


def _check_exports(flow: GameFlow, steps: int) -> None:
    exported = flow.export_json()
    teamed = "team_scores" in flow.result()  # a game that scores teams (Eclipse's alliances) exports their scores
    assert _json(exported) == exported and set(exported) == EXPORT_KEYS | ({"team_scores"} if teamed else set())
    info = flow.spec.info
    assert (exported["format"], exported["version"], exported["game"], exported["title"], exported["bgg_id"]) == (
        "tabletop-companion/game", 1, info.name, info.title, info.bgg_id)
    assert exported["finished"] is flow.over() and len(exported["events"]) == steps
    _check_result({"players": exported["players"], "winners": exported["winners"]}, flow.names)
    play = flow.bgstats_play()
    assert _json(play) == play and set(play) == BGSTATS_KEYS
    assert set(play["game"]) == BGSTATS_GAME_KEYS and play["game"]["bggId"] == info.bgg_id
    assert play["game"]["name"] == info.title and play["game"]["sourceGameId"] == f"tabletop-companion:{info.name}"
    assert [p["seatOrder"] for p in play["players"]] == list(range(1, len(flow.names) + 1))
    teams = {p["name"]: p["team"] for p in exported["players"] if p.get("team")}
    for p in play["players"]:
        assert set(p) == BGSTATS_PLAYER_KEYS | ({"team"} if p["name"] in teams else set())
        assert p.get("team") == teams.get(p["name"]) and p["startPlayer"] is (p["seatOrder"] == 1)
        assert p["winner"] is (flow.over() and p["name"] in exported["winners"])
    if flow.over():
        url = flow.view()["export"]["bgstats_url"]
        assert url.startswith(BGSTATS_URL) and json.loads(urllib.parse.unquote(url[len(BGSTATS_URL):])) == play


@pytest.mark.parametrize("name, path", ALL_PLAYTHROUGHS)
def test_golden_playthrough_through_the_flow(registry_store, name, path):
    spec, game = FLOW_REGISTRY[name], REGISTRY[name]
    play = load(path)
    session = registry_store.start(name, play.settings)
    flow = GameFlow(session, spec)
    assert flow.names == list(game.players(game.initial_state(play.settings)))
    _check_view(flow, game, session.replay().state, f"{path.name} before the first event")
    for step in play.steps:
        where = f"{path.name} line {step.line} ({step.event.kind})"
        e = step.event
        recorded = session.append(e.kind, e.payload, player=e.player, origin="cli")
        assert recorded.seq == e.seq, where
        state = session.replay().state
        view = _check_view(flow, game, state, where)
        _check_forms(spec, game, state, view, where)
        want = step.expect.get("progress", {})
        for key in ("round", "round_label", "stage", "turn", "over", "ending"):
            if key in want:
                assert view[key] == want[key], f"{where}: {key} {view[key]!r}, expected {want[key]!r}"
        if "scores" in step.expect:
            assert {p["name"]: p["total"] for p in flow.result()["players"]} == step.expect["scores"], where
    _check_result(flow.result(), flow.names)
    _check_exports(flow, len(play.steps))
    assert flow.stage_at(None) == flow.stage_at(session.last_seq)


@pytest.mark.parametrize("name", FLOW_REGISTRY)
def test_a_playthrough_plays_each_flow_game_to_its_end(name):
    """So the end-of-game view, result and exports above are checked on a finished game."""
    game = REGISTRY[name]
    ended = [p.name for p in playthroughs_of(name)
             if game.progress(replay(game, load(p).settings, load(p).events).state).over]
    assert ended, f"{name}: a playthrough in tests/playthroughs/{name}-*.jsonl plays the game to its end"


def test_the_flows_registry_lists_each_flow_once_under_its_game():
    assert len({id(spec) for spec in FLOWS.values()}) == len(FLOWS)
    assert all(name == spec.name and name in GAMES for name, spec in FLOWS.items())


@pytest.mark.parametrize("name", FLOW_REGISTRY)
def test_once_the_game_is_over_a_phone_cannot_withdraw_its_report_only_the_table_undo_reopens(
        registry_store, name):
    """After "Game over: the scores are final" a phone's own "Undo my last report" is refused with the same
    reason as a new report (every game: the flow is shared), twice over, and the totals stay; the table's
    Undo reopens the last round."""
    from companion.flow_reports import REPORTS_CLOSED

    game = REGISTRY[name]
    path = next(p for p in playthroughs_of(name)
                if game.progress(replay(game, load(p).settings, load(p).events).state).over)
    play = load(path)
    session = registry_store.start(name, play.settings)
    flow = GameFlow(session, FLOW_REGISTRY[name])
    for e in play.events:
        session.append(e.kind, e.payload, player=e.player, origin="cli")
    assert flow.over()
    final = {p["name"]: (p["total"], p["winner"]) for p in flow.result()["players"]}
    last = session.last_seq
    for player in flow.names * 2:  # every player, each twice: refused every time
        with pytest.raises(BadEntry) as refused:
            flow.undo_report(player)
        assert str(refused.value) == REPORTS_CLOSED
    assert session.last_seq == last and flow.over()
    assert {p["name"]: (p["total"], p["winner"]) for p in flow.result()["players"]} == final
    for _ in range(len(play.events)):  # the table's Undo, newest event first, until the last round reopens
        if not flow.over():
            break
        session.undo(origin="touchscreen")
    assert not flow.over()
