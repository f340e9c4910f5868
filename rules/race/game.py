"""Race for the Galaxy as a :class:`rules.core.Game`: rounds, phases, tableaux, goods, VP pool.

The state is what the table shows, derived by replaying events: each player's tableau
(with the goods lying on worlds), VP chips, last reported hand size, the action cards
chosen this round, the VP pool, and where the round is (which of the selected phases); the
state's dataclasses and the round and power facts are in :mod:`rules.race.state`.
Game facts (phases, action cards, pool size, limits) come from ``rules/data/race/game.json``
and card facts from ``cards.json``; nothing about a card is written in this module.

A round (digest §3): ``actions_selected`` (simultaneous selection, revealed together)
schedules only the selected phases in order I Explore, II Develop, III Settle, IV Consume,
V Produce; in the advanced 2-player game (``settings["advanced"]``) a player who chose
both Develop (or both Settle) cards gets a second such phase. ``phase_done`` closes the
current phase; ``round_ended`` closes the round (hand limit 10, end of game check).

This module holds the declaration, the state API and the handler table; the rules live one module per idea:
:mod:`.events` (the event kinds and their payloads), :mod:`.state` (the table), :mod:`.tableau` (start worlds,
II Develop and III Settle, a card discarded for its power), :mod:`.goods` (goods put on worlds, consumed or sold),
:mod:`.vp_pool` (VP chips from the pool, then the chips set aside) and :mod:`.rounds` (the selection, the phases,
the end of round and of the game). Every name this module offered before is still importable from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import WHOLE_TABLE, Event, GameInfo, Option, Progress, Rename, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.race.cards import cards, facts
from rules.race.events import (
    ACTION_CHOSEN,
    ACTIONS_SELECTED,
    CARD_DISCARDED,
    CARD_PLACED,
    GOOD_PLACED,
    GOOD_REMOVED,
    HAND_COUNTED,
    PHASE_DONE,
    ROUND_ENDED,
    START_WORLD,
    VP_CHANGED,
)
from rules.race.goods import on_good_placed, on_good_removed
from rules.race.rounds import on_action_chosen, on_actions_selected, on_hand_counted, on_phase_done, on_round_ended
from rules.race.scoring import PlayerRecord, final_scores, score_player
from rules.race.state import (
    PhaseStep,
    Placed,
    PlayerState,
    RaceState,
    Stage,
    military_against,
    plan_phases,
)
from rules.race.tableau import START_WORLDS, on_card_discarded, on_card_placed, on_start_world
from rules.race.vp_pool import on_vp_changed
from rules.race.words import FIELD_WORDS
from rules.settings import check_settings
from rules.text import N_, Text

__all__ = [
    "ACTIONS_SELECTED",
    "ACTION_CHOSEN",
    "CARD_DISCARDED",
    "CARD_PLACED",
    "EVENT_KINDS",
    "GOOD_PLACED",
    "GOOD_REMOVED",
    "HAND_COUNTED",
    "INFO",
    "PHASE_DONE",
    "RACE_GAME",
    "ROUND_ENDED",
    "START_WORLD",
    "START_WORLDS",
    "VP_CHANGED",
    "PhaseStep",
    "Placed",
    "PlayerState",
    "RaceGame",
    "RaceState",
    "Stage",
    "military_against",
    "plan_phases",
]


INFO = GameInfo(
    name="race",
    title="Race for the Galaxy",
    bgg_id=28143,
    players=(facts()["players"]["min"], facts()["players"]["max"]),  # the box: 2-4 players (rules/data/race/game.json)
    options=(
        Option(
            "advanced", "bool", default=False, players=(2, 2), label=Text("the advanced game"),
            help=Text("the advanced 2-player game: each player chooses two action cards a round from nine "
                      "(Race for the Galaxy rulebook, Advanced 2-player game)"),
        ),
        Option(
            "start_worlds", "choices", default=(), per_player=True, offered=False, label=Text("the start worlds"),
            choices=tuple(c.name for c in cards().start_worlds),
            distinct=N_("start world {value!r} dealt to several players; each start world exists once "
                        "(Race for the Galaxy, Setup: start worlds dealt one each)"),
            help=Text("the start world dealt to each player, when known at the start (Race for the Galaxy, Setup: "
                      "start worlds)"),
        ),
    ),
    score_input="jsonl-games",  # one game per JSON document: one game object, or JSON Lines with one game per line
    rulebook="Race for the Galaxy rulebook, Polish edition",
    score_rule=N_("end of game"),
    tiebreak=N_("cards in hand + goods"),  # end of game: the most cards in hand + goods on worlds
    renames=(
        Rename("vp_chips", "vp_changed", keys=(("vp", "delta"),), since="issue 13"),
        Rename("round_end", "round_ended", since="issue 13"),
    ),
)
"""Race for the Galaxy's declaration (:class:`rules.core.GameInfo`)."""


class RaceGame(GameBase):
    """Race for the Galaxy (base game, 2-4 players) as a :class:`rules.core.Game`."""

    info = INFO
    field_words = FIELD_WORDS

    def initial_state(self, settings: Mapping[str, Any]) -> RaceState:
        """The table before any event.

        Settings: ``players`` (2-4 names, in seat order), ``advanced`` (the advanced 2-player
        game, default false), ``start_worlds`` (optional ``{player: card}`` or a list in seat order, as if dealt).

        Raises:
            BadSettings: bad player list, advanced with other than 2 players, an unknown start world,
                one start world dealt twice.
        """
        checked = check_settings(self.info, settings)
        names = checked.players
        state = RaceState(
            players=tuple(PlayerState(name=n) for n in names),
            pool=facts()["vp_pool_per_player"]["value"] * len(names),
            advanced=checked["advanced"],
        )
        dealt = [(n, card) for n, card in zip(names, checked["start_worlds"], strict=True) if card]
        for seq, (player, card) in enumerate(dealt, start=1):
            state, _ = self.apply(state, Event(seq=-seq, kind=START_WORLD, payload={"player": player, "card": card}))
        return state

    def before(self, state: RaceState, ctx: EventContext) -> bool:
        """Once the game is over, an event is still applied but said (WARNING): it belongs to no round."""
        if state.stage is Stage.OVER:
            ctx.finding(Text("the game is over; this event is recorded but belongs to no round"),
                        ctx.event.player or WHOLE_TABLE, Severity.WARNING, N_("end of game"))
        return True

    handlers = {
        START_WORLD: on_start_world,
        HAND_COUNTED: on_hand_counted,
        ACTIONS_SELECTED: on_actions_selected,
        ACTION_CHOSEN: on_action_chosen,
        CARD_PLACED: on_card_placed,
        CARD_DISCARDED: on_card_discarded,
        GOOD_PLACED: on_good_placed,
        GOOD_REMOVED: on_good_removed,
        VP_CHANGED: on_vp_changed,
        PHASE_DONE: on_phase_done,
        ROUND_ENDED: on_round_ended,
    }
    """Event kind -> handler ``(game, state, ctx) -> state``, one module per idea: :mod:`.tableau` (start worlds,
    Develop and Settle, a card discarded for its power), :mod:`.goods` (goods), :mod:`.vp_pool` (VP chips),
    :mod:`.rounds` (hands counted, the selection, the phases, the end of round)."""

    # -- views and scores ---------------------------------------------------------------------
    def view(self, state: RaceState) -> dict[str, Any]:
        """JSON summary: stage, round, phases (current marked), VP pool, players with tableau and score so far."""
        scores = {b.player: b.total for b in self.scores(state)}
        return {
            "game": self.name,
            "stage": state.stage.value,
            "round": state.round,
            "advanced": state.advanced,
            "phases": [s.label for s in state.steps],
            "steps": [
                {"phase": s.phase, "label": s.label, "second": s.second, "bonus": {p: list(ids) for p, ids in s.bonus}}
                for s in state.steps
            ],
            "step": state.step if state.stage is Stage.PHASES else None,
            "chosen": [name for name, _ in state.chosen],
            "current_phase": state.current.label if state.current else None,
            "vp_pool": state.pool,
            "vp_set_aside_paid": state.set_aside_paid,
            "last_round": bool(state.ending),
            "ending": list(state.ending),
            "players": [
                {
                    "name": p.name,
                    "chips": p.vp_chips,  # the score input's name (final_scores reads this view)
                    "hand": p.hand,
                    "hand_round": p.hand_round,  # the round of that count (0: none yet)
                    "actions": list(p.actions),
                    "tableau": [{"card": c.card, "goods": int(c.good)} for c in p.tableau],
                    "tableau_size": len(p.tableau),
                    "score": scores[p.name],
                }
                for p in state.players
            ],
        }

    def progress(self, state: RaceState) -> Progress:
        """Round and stage (the round: select, then the selected phases in order I-V, then the end of
        round); the last round once the VP pool is empty or a tableau has 12 cards (end of game).
        Waiting: while action cards are chosen, the players who have not chosen yet."""
        chosen = {name for name, _ in state.chosen}
        choosing = state.stage in (Stage.SETUP, Stage.SELECT)
        return Progress(
            round=state.round, round_label=Text("Round {round}",
                                                round=state.round) if state.round else Text("Setup"),
                                                stage=state.stage.value,
            last_round=bool(state.ending), ending=state.ending, over=state.stage is Stage.OVER,
            waiting=tuple(p.name for p in state.players if p.name not in chosen) if choosing else (),
        )

    def scores(self, state: RaceState) -> list[ScoreBreakdown]:
        """Each player's score as the table stands (the final score once the game is over)."""
        deck = cards()
        return [
            score_player(PlayerRecord(p.name, p.vp_chips, tuple(deck[c.card] for c in p.tableau), p.goods, p.hand or 0))
            for p in state.players
        ]

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """Score one end-of-game record (one line of the oracle file); see :func:`rules.race.scoring.final_scores`."""
        return final_scores(data)


RACE_GAME = RaceGame()
EVENT_KINDS = RACE_GAME.event_kinds
"""Every Race for the Galaxy event kind (the keys of :attr:`RaceGame.handlers`)."""
