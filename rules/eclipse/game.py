"""Eclipse with Rise of the Ancients as a :class:`rules.core.Game`: the declaration, the state API, the handlers.

The engine never decides for the players: each event reports what happened at the table (an action, a
pass, a hex laid, a disc placed, a volley rolled, an alliance founded, a final position), and
:meth:`EclipseGame.apply` returns the new state and the findings of the rules it breaks. The rules live one
module per idea: :mod:`.rounds` (turns and phases), :mod:`.map_events` with :mod:`.placement` and
:mod:`.galaxy` (the map), :mod:`.combat` (dice), :mod:`.diplomacy` (relations and alliances),
:mod:`.endgame` (scoring), :mod:`.mapcheck` (``companion check eclipse``).

Sources: the Greek Rise of the Ancients rulebook (pages cited as "Rise of the Ancients p.N") and the
first-edition rules as the base-game sections name them (Explore action, Combat, ...).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rules.core import (
    WHOLE_TABLE,
    BadSettings,
    CheckFormat,
    Finding,
    GameInfo,
    Option,
    Progress,
    ScoreBreakdown,
    Severity,
    Standings,
)
from rules.eclipse import diplomacy, fleet, map_events, reputation, rounds
from rules.eclipse.data import BOARDS, COLOURS, DEVELOPMENTS, RARE_TECHNOLOGIES, ROUNDS, SPECIES, TITLE, catalogue
from rules.eclipse.endgame import (
    PLAYER_KEYS,
    PLAYER_OPTIONAL_KEYS,
    PlayerPosition,
    final_scores,
    score_position,
    standings,
)
from rules.eclipse.events import (
    ACTION_TAKEN,
    ALLIANCE_FOUNDED,
    ALLIANCE_JOINED,
    ALLIANCE_LEFT,
    ANCIENTS_DESTROYED,
    BLUEPRINT_SET,
    DIRECTION_CHOSEN,
    GAME_ENDED,
    HEX_PLACED,
    HIVE_ROLLED,
    INFLUENCE_PLACED,
    INFLUENCE_REMOVED,
    PASSED,
    PHASE_ENDED,
    POSITION_REPORTED,
    RELATIONS_BROKEN,
    RELATIONS_FORMED,
    SHIP_MOVED,
    STRUCTURE_BUILT,
    VOLLEY_AIMED,
    VOLLEY_ROLLED,
    direction,
)
from rules.eclipse.galaxy import CENTRE, Galaxy, PlacedHex
from rules.eclipse.mapcheck import check_placement
from rules.eclipse.placement import STRUCTURES
from rules.eclipse.state import MODULES, EclipsePlayer, EclipseState, player_position, position
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ACTION_WORDS, MODULE_WORDS, PHASE_WORDS, boards_refusal, component_word, structure_word
from rules.engine import EventContext, GameBase
from rules.scoring import ScoreInputError
from rules.settings import check_settings
from rules.text import AND, N_, OR, Listing, Text

__all__ = ["ECLIPSE_GAME", "INFO", "EclipseGame"]

_MODULE_HELP = {
    "ancient_homeworlds": Text("Ancient Homeworlds fill the empty start positions with fewer than 6 players, each "
                               "guarded by an Ancient Cruiser (Rise of the Ancients p.6; the 9-player layout with "
                               "7-8 players, p.12)"),
    "hives": Text("the two Ancient Hives are shuffled into the Middle and Outer stacks; their Ancients move at the "
                  "end of Cleanup (Rise of the Ancients p.7)"),
    "warp_portals": Text("the three warp sectors are shuffled into the stacks; all portal hexes are adjacent "
                         "(Rise of the Ancients p.8)"),
    "developments": Text("Development tiles on display, bought with Research (Rise of the Ancients p.5)"),
    "alliances": Text("players may found alliances that score together (Rise of the Ancients p.10-11; 4 or more "
                      "players)"),
    "rare_technologies": Text("the Rare Technology tiles go into the tech bag (Rise of the Ancients p.4)"),
    "galactic_center": Text("the Ancient Dreadnought replaces the GCDS in the Galactic Center (Rise of the Ancients "
                            "p.6)"),
}

INFO = GameInfo(
    name="eclipse",
    title=TITLE,
    bgg_id=72125,
    players=(2, 9),  # Rise of the Ancients p.2: up to nine players; the base game 2-6
    colours=COLOURS,
    options=(
        Option(
            "species", "choices", default=(), per_player=True, player_key="species",
            label=Text("each player's species"),
            choices=SPECIES, components=BOARDS, components_refusal=boards_refusal,
            distinct=N_("{value}: each needs a player board of its own, and only {components} carry them "
                        "(each board is double-sided and one player plays it; Rise of the Ancients p.3: Magellan is "
                        "on the back of the three new boards)"),
            help=Text("one species per player, in seat order (Eclipse setup; Rise of the Ancients p.14-15 adds "
                      "Magellan, the Exiles, the Rho Indi Syndicate and the Enlightened of Lyra)"),
        ),
        *(Option(m, "bool", default=False, label=MODULE_WORDS[m], help=_MODULE_HELP[m],
                 players=(2, 8) if m == "ancient_homeworlds" else (4, 9) if m == "alliances" else None)
          for m in MODULES),
        Option("turn_order_card", "bool", default=False, label=Text("the Turn Order variant"),
               help=Text("the second player to pass takes the Turn Order card and chooses the next round's direction "
                    "(Rise of the Ancients p.9)")),
        Option("simultaneous", "bool", default=False, players=(7, 9), label=Text("simultaneous play"),
               help=Text("two players act at once with the First and Second Action markers "
                         "(Rise of the Ancients p.13)")),
        Option("hidden_worlds", "bool", default=False, label=Text("the Hidden Worlds variant"),
               help=Text("Ancient Homeworlds are shuffled into the Middle stack and explored (Rise of the Ancients "
                         "p.9)")),
        Option("last_round_upkeep", "bool", default=rounds.LAST_ROUND_UPKEEP,
               label=Text("round 9's Upkeep and Cleanup"),
               # whether round 9 plays them is not in a stored first-edition text (rounds.LAST_ROUND_UPKEEP)
               help=Text("play Upkeep and Cleanup of round 9 before scoring; they change no VP, only the resources "
                         "that break a tie (End of the game)")),
        # the flow's (companion.flows.eclipse): a game played on the box is scored when the table says so
        # (``game_ended``) once every final position is in, not on the last one entered; off for logs before it
        Option("confirm_scores", "bool", default=False, offered=False,
               help=Text("the game is scored when the table presses “Score the game” once every final position is "
                         "in, so each player can still correct their own (End of the game)")),
    ),
    score_input="json",
    rulebook="Eclipse, first edition (Lautapelit.fi 2011), with Rise of the Ancients (2012): Greek rulebook "
             "translation by N. Christakis",
    score_role_key="species",
    score_rule=N_("End of the game: the scoring table"),
    tiebreak=N_("resources: Money + Science + Materials"),  # End of the game: the most resources in storage
    check_format=CheckFormat(schema="placement-input"),
    input_error_exit=2,
)
"""Eclipse's declaration (:class:`rules.core.GameInfo`)."""

ROUND = N_("Game round (Action, Combat, Upkeep, Cleanup)")
RESEARCH = N_("Research action; Rise of the Ancients p.4 Rare Technologies, p.5 Developments")
REPORT_KEYS = tuple(k for k in (*PLAYER_KEYS, *PLAYER_OPTIONAL_KEYS) if k not in ("name", "species"))
PHASE_NAMES = PHASE_WORDS
BUILT = ("orbital", "monolith")
"""What a Build action's payload may put on the map (Eclipse, Build action: ships, Orbitals and Monoliths are built;
Shellworlds, Warp Portals, the Ancients' discoveries and Shrines are laid by their own rules)."""


def _say(ctx: EventContext, verdicts: Sequence[Verdict], player: str | None) -> None:
    ctx.add(*(v.finding(seq=ctx.event.seq, player=player, where=player or WHOLE_TABLE) for v in verdicts))


def _check_reputation(state: EclipseState, ctx: EventContext, pos: PlayerPosition) -> None:
    """A report's reputation tiles against the bag (:mod:`rules.eclipse.reputation`): the
    reporter's findings, then the table's when every report together holds more of a value than the bag."""
    in_bag = reputation.bag(len(state.players))
    _say(ctx, reputation.hand_verdicts(pos.name, pos.reputation, in_bag), pos.name)
    hands = [pos.reputation] + [_reported_tiles(p.report) for p in state.players if p.name != pos.name]
    _say(ctx, reputation.table_verdicts(hands, pos.reputation, in_bag), None)


def _position_problem(exc: ScoreInputError, name: str) -> Text | str:
    """A final position's refusal as its player reads it: the problem (a :class:`rules.text.Text`, said in each
    player's language) after the field it is about, without the player's name the score file's path starts with
    (``Ann.reputation`` -> "reputation"; the reputation tiles' field in words)."""
    if exc.suggestions or not isinstance(exc.problem, Text):
        return exc.args[0]
    field = exc.field.removeprefix(name).lstrip(".")
    if field == "reputation":
        return Text("{field}: {problem}", field=Text("reputation"), problem=exc.problem)
    return Text("{field}: {problem}", field=field, problem=exc.problem) if field else exc.problem


def _reported_tiles(report: Mapping[str, Any] | None) -> tuple[int, ...]:
    """The reputation tiles of a stored report (checked when it was reported): their values 1-4."""
    raw = (report or {}).get("reputation")
    if not isinstance(raw, (list, tuple)):
        return ()
    return tuple(v for v in raw if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 4)


def _rounds_play(state: EclipseState, ctx: EventContext, name: str, play: Any, *args: Any) -> EclipseState:
    """``play(rounds, name, *args)`` (a function of :mod:`rules.eclipse.rounds`) applied: its verdicts said."""
    new, verdicts = play(state.rounds, name, *args)
    _say(ctx, verdicts, name)
    return replace(state, rounds=new)


class EclipseGame(GameBase):
    """Eclipse (first edition) with Rise of the Ancients, 2-9 players, as a :class:`rules.core.Game`, a
    :class:`rules.core.CheckingGame` (``check``) and a :class:`rules.core.RankingGame` (alliances)."""

    info = INFO

    # -- score and check commands ------------------------------------------------------------------
    @staticmethod
    def final_scores(data: Any) -> list[ScoreBreakdown]:
        """``companion score eclipse FILE``; see :func:`rules.eclipse.endgame.final_scores`."""
        return final_scores(data)

    @staticmethod
    def check(data: Any) -> list[Finding]:
        """``companion check eclipse FILE``; see :func:`rules.eclipse.mapcheck.check_placement`."""
        return check_placement(data)

    @staticmethod
    def standings(breakdowns: Sequence[ScoreBreakdown]) -> Standings:
        """Winners with alliances (Rise of the Ancients p.11); see :func:`rules.eclipse.endgame.standings`."""
        return standings(breakdowns)

    # -- state ---------------------------------------------------------------------------------------
    def initial_state(self, settings: Mapping[str, Any]) -> EclipseState:
        """Round 1's Action phase, the seat-order first player to start; the Galactic Center at ``(0, 0)`` with
        the GCDS (or the Ancient Dreadnought).

        settings: ``{"players": [name or {"name", "species"}], "species": [...]?, "<module>": bool, ...}``.

        Raises:
            BadSettings: 2-9 players, species on one board's two sides, an option for another player count.
        """
        checked = check_settings(self.info, settings)
        n = len(checked.players)
        if checked["ancient_homeworlds"] and n == 6:
            raise BadSettings(Text("the ancient homeworlds module is for fewer than 6 players, or 7-8 "
                                   "(Rise of the Ancients p.6, p.12): with 6 there is no empty start position"))
        players = tuple(EclipsePlayer(name, species or None)
                        for name, species in zip(checked.players, checked["species"], strict=True))
        modules = {m: bool(checked[m]) for m in MODULES}
        guardian = "Ancient Dreadnought" if modules["galactic_center"] else "GCDS"
        centre = PlacedHex(catalogue().sector("001"), CENTRE, 0)
        return EclipseState(
            players=players, modules=modules,
            rounds=rounds.start(checked.players, turn_order_card=checked["turn_order_card"],
                                simultaneous=checked["simultaneous"], last_round_upkeep=checked["last_round_upkeep"]),
            galaxy=Galaxy.of([centre]), guardians={CENTRE: guardian}, hidden_worlds=checked["hidden_worlds"],
            confirm_scores=checked["confirm_scores"],
        )

    def before(self, state: EclipseState, ctx: EventContext) -> bool:
        """Once the game is over, only a corrected report still counts."""
        if state.over and ctx.event.kind != POSITION_REPORTED:
            ctx.finding(Text("the game is over; this event changes nothing"), ctx.event.player or WHOLE_TABLE,
                        Severity.WARNING, ROUND)
            return False
        return True

    # -- rounds --------------------------------------------------------------------------------------
    def _action(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """An action on the player's turn (:func:`rules.eclipse.rounds.act`); Research records what it bought; an
        Explore, Influence, Move or Build that says what it did on the map applies it (:data:`ACTION_TAKEN`)."""
        name = ctx.player()
        action = ctx.require("action", str)
        if action not in rounds.ACTIONS:  # Eclipse, Action phase: a turn is one of the six actions, or a pass
            raise ctx.bad(Text("the action is one of the six: {actions} (Eclipse, Action phase); got {value}",
                               actions=Listing([ACTION_WORDS[a] for a in rounds.ACTIONS], OR), value=repr(action)))
        on_map = self._on_map(action, ctx)
        state = _rounds_play(state, ctx, name, rounds.act, action)
        if action == "move" and on_map is None:  # a Move with no hexes yet: its ship's first step starts the count
            state = replace(state, activations={**state.activations,
                                                name: map_events.move_started(ctx)})
        if on_map is not None:
            state = on_map(self, state, ctx)
        tech = ctx.get("tech", None, str)
        if tech is None or action != "research":
            return state
        return self._researched(state, ctx, name, tech)

    @staticmethod
    def _on_map(action: str, ctx: EventContext) -> Any:
        """The map handler an action's payload asks for (None: the action says nothing about the map)."""
        p = ctx.payload
        if action == "explore" and p.get("sector") is not None:
            return map_events.hex_placed
        if action == "influence" and p.get("q") is not None:
            return map_events.influence_placed
        if action == "move" and p.get("to") is not None:
            return map_events.ship_moved
        if action == "build" and p.get("structure") is not None:
            if p["structure"] not in BUILT:  # Eclipse, Build action: ships, Orbitals and Monoliths are built
                laid = [structure_word(k) for k in STRUCTURES if k not in BUILT]
                built = (structure_word(p["structure"]) if p["structure"] in STRUCTURES
                         else repr(p["structure"]))
                raise ctx.bad(Text("a Build puts an Orbital or a Monolith on the map (Eclipse, Build action), not "
                                   "{structure}; {laid} are laid on a hex, not built", structure=built,
                                   laid=Listing(laid, AND)))
            return map_events.structure_built
        return None

    def _researched(self, state: EclipseState, ctx: EventContext, name: str, tech: str) -> EclipseState:
        """What Research bought: a Development (unique; its module in play), a Rare Technology (one of each), or a
        tech."""
        me = state.player(name)
        if tech in DEVELOPMENTS:
            holder = next((p.name for p in state.players if tech in p.developments), None)
            if holder is not None:
                _say(ctx, [Verdict("unique_tile", False, RESEARCH,
                    Text("{holder} already owns the {tech} Development; each is unique",
                         holder=holder, tech=component_word(tech)), Text("choose another"))], name)
                return state
            if not state.modules.get("developments"):
                _say(ctx, [Verdict("module_not_in_play", True, RESEARCH, Text("the Developments module is not in play"),
                                   Text("add the module"), warning=True)], name)
            return state.with_player(replace(me, developments=me.developments + (tech,)))
        if tech in RARE_TECHNOLOGIES:
            holder = next((p.name for p in state.players if tech in p.techs), None)
            if holder is not None:
                _say(ctx, [Verdict("unique_tile", False, RESEARCH,
                    Text("{holder} already has {tech}; there is one tile of each Rare Technology",
                         holder=holder, tech=component_word(tech)), Text("choose another"))], name)
                return state
        return state.with_player(replace(me, techs=me.techs + (tech,)))

    def _passed(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """A pass (:func:`rules.eclipse.rounds.pass_turn`)."""
        return _rounds_play(state, ctx, ctx.player(), rounds.pass_turn)

    def _phase_ended(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """The phase is over (:func:`rules.eclipse.rounds.end_phase`); a new round clears the volley shown."""
        new, verdicts = rounds.end_phase(state.rounds)
        _say(ctx, verdicts, None)
        volley = None if new.round != state.rounds.round else state.volley
        return replace(state, rounds=new, volley=volley)

    def _direction(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """The Turn Order card's choice (:func:`rules.eclipse.rounds.choose_direction`)."""
        name = ctx.player()
        clockwise = direction(ctx.payload.get("direction"))
        if clockwise is None:
            raise ctx.bad(Text("{what}: the Turn Order card's holder chooses clockwise or counter-clockwise (Rise of "
                               "the Ancients p.9), got {value}", what=Text("Direction"),
                               value=repr(ctx.payload.get("direction"))))
        return _rounds_play(state, ctx, name, rounds.choose_direction, clockwise)

    # -- the end -------------------------------------------------------------------------------------
    def _reported(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """A player's end-of-game position, hidden information included (checked as the score file checks it)."""
        name = ctx.player()
        report = {k: v for k, v in ctx.payload.items() if k != "player"}
        unknown = [k for k in report if k not in REPORT_KEYS]
        if unknown:
            raise ctx.bad(Text("{field} is not a field of a player's position (fields: {fields})",
                               field=repr(unknown[0]), fields=", ".join(REPORT_KEYS)))
        try:
            pos = player_position(state, state.player(name), report=report, where=name)
        except ScoreInputError as exc:
            raise ctx.bad(_position_problem(exc, name)) from None
        _check_reputation(state, ctx, pos)
        if not state.rounds.over:
            ctx.finding(Text("{player} reports their final position before round {round} is over; it is kept for the "
                             "end", player=name, round=ROUNDS),
                        name, Severity.INFO, ROUND, player=name)
        return state.with_player(replace(state.player(name), report=report))

    def _game_ended(self, state: EclipseState, ctx: EventContext) -> EclipseState:
        """The table stops waiting for reports (and, before round 9 is over, ends the game where it stands)."""
        if not state.rounds.over:
            ctx.finding(Text("the game ends in round {round}, before round {last} is over",
                             round=state.rounds.round, last=ROUNDS), WHOLE_TABLE,
                        Severity.WARNING, ROUND)
        return replace(state, ended=True, rounds=replace(state.rounds, phase="end"))

    handlers = {
        ACTION_TAKEN: _action,
        PASSED: _passed,
        PHASE_ENDED: _phase_ended,
        DIRECTION_CHOSEN: _direction,
        HEX_PLACED: map_events.hex_placed,
        INFLUENCE_PLACED: map_events.influence_placed,
        INFLUENCE_REMOVED: map_events.influence_removed,
        SHIP_MOVED: map_events.ship_moved,
        ANCIENTS_DESTROYED: map_events.ancients_destroyed,
        HIVE_ROLLED: map_events.hive_rolled,
        STRUCTURE_BUILT: map_events.structure_built,
        BLUEPRINT_SET: fleet.blueprint_set,
        VOLLEY_AIMED: fleet.volley_aimed,
        VOLLEY_ROLLED: fleet.volley_rolled,
        RELATIONS_FORMED: diplomacy.relations_formed,
        RELATIONS_BROKEN: diplomacy.relations_broken,
        ALLIANCE_FOUNDED: diplomacy.alliance_founded,
        ALLIANCE_JOINED: diplomacy.alliance_joined,
        ALLIANCE_LEFT: diplomacy.alliance_left,
        POSITION_REPORTED: _reported,
        GAME_ENDED: _game_ended,
    }

    # -- reading the state ---------------------------------------------------------------------------
    def scores(self, state: EclipseState) -> list[ScoreBreakdown]:
        """Each player's score as the table stands, in seat order (final once the game is over): every row of
        the scoring table, rows 8-9 included (UNCONFIRMED; see :mod:`rules.eclipse.endgame`)."""
        return score_position(position(state))

    def public(self, state: EclipseState) -> EclipseState:
        """``state`` without the final positions the players entered (Eclipse, End of the game: reputation tiles are
        kept face down, and the positions are entered on each player's own phone) until the game is over and scored;
        once it is, the state itself."""
        if state.over:
            return state
        return replace(state, players=tuple(replace(p, report=None) for p in state.players))

    def progress(self, state: EclipseState) -> Progress:
        """Round 1-9 and phase (stage ``action``, ``combat``, ``upkeep``, ``cleanup``), whose turn (the Action
        phase) and everyone who may act now (``acting``: two Action marker holders in simultaneous play, Rise of the
        Ancients p.13), the last round (9); after it the stage ``reporting`` while players enter their hidden
        information, then ``over``. Waiting: in the Action phase, the players who have not passed; while
        reporting, those who have not reported (none once all have, where the table scores the game itself:
        :attr:`rules.eclipse.state.EclipseState.confirm_scores`)."""
        r = state.rounds
        if state.over:
            return Progress(round=r.round, round_label=Text("Round {round} of {rounds}: game over",
                                                            round=r.round, rounds=ROUNDS), stage="over",
                            over=True, rounds=ROUNDS)
        if state.reporting:
            return Progress(round=r.round, round_label=Text("Game end: final positions"), stage="reporting",
                            rounds=ROUNDS,
                            waiting=tuple(p.name for p in state.players if p.report is None))
        last = r.round == ROUNDS
        return Progress(round=r.round, round_label=Text("Round {round} of {rounds}, {phase} phase",
                                                        round=r.round, rounds=ROUNDS, phase=PHASE_NAMES[r.phase]),
                        stage=r.phase, turn=r.current, acting=r.holders, last_round=last,
                        ending=(Text("round {round} is the last round", round=ROUNDS),) if last else (), rounds=ROUNDS,
                        waiting=r.waiting)

    def view(self, state: EclipseState) -> dict[str, Any]:
        """``{"game", "round", "rounds", "phase", "stage", "start_player", "turn", "direction", "passed",
        "next_start_player", "turn_order_card", "markers", "moving", "last_round", "last_round_upkeep", "modules",
        "hidden_worlds", "players": [...], "map": [...], "alliances", "volley", "aim", "blueprints", "over",
        "scores"}``; each map hex carries its ``owner``, ``ancients``, ``guardian`` and ``structures``;
        ``blueprints`` is ``{player: {ship type: Blueprint.to_json()}}``.
        A player's ``score`` is the public part only (their reported end position is hidden until the game is over)."""
        progress = self.progress(state)
        owners = state.owners
        hexes = []
        for h in state.galaxy.to_json():
            c = (h["q"], h["r"])
            hexes.append({**h, "owner": owners.get(c), "ancients": state.ancients.get(c, 0),
                          "guardian": state.guardians.get(c),
                          "structures": [s.to_json() for s in state.structures.get(c, ())]})
        scores = {b.player: b.total for b in self.scores(self.public(state))}
        return {
            "game": self.name,
            **state.rounds.to_json(),
            "rounds": ROUNDS,
            "last_round_upkeep": state.rounds.last_round_upkeep,
            "stage": progress.stage,
            "last_round": progress.last_round,
            "modules": dict(state.modules),
            "hidden_worlds": state.hidden_worlds,
            "players": [
                {"name": p.name, "species": p.species, "passed": p.name in state.rounds.passed,
                 "controlled_hexes": len(state.controlled(p.name)), "relations": list(p.relations),
                 "traitor": p.traitor, "alliance": p.alliance, "alliance_tile_side": p.alliance_side,
                 "developments": list(p.developments), "techs": list(p.techs), "reported": p.report is not None,
                 "score": scores.get(p.name)}
                for p in state.players
            ],
            "map": hexes,
            "alliances": list(state.alliances),
            "volley": dict(state.volley) if state.volley is not None else None,
            "aim": dict(state.aim) if state.aim is not None else None,
            "blueprints": {p.name: {ship: b.to_json() for (who, ship), b in state.blueprints.items() if who == p.name}
                           for p in state.players},
            "over": state.over,
            "scores": [b.to_json() for b in self.scores(state)] if state.over else [],
        }


ECLIPSE_GAME = EclipseGame()
