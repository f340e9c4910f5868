"""Race for the Galaxy's round (the round: select, reveal, the selected phases in order I-V, end of round) and the
end of game: the action cards chosen and revealed, each phase closed, the hand limit at the end of round, and the
last round once the VP pool is empty or a tableau holds 12 cards (end of game: the round is played to its end).

Each ``on_*`` is a handler ``(game, state, ctx) -> state`` of :data:`rules.race.game.RACE_GAME`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.consume import ask_chips_without_goods
from rules.core import LAST_ROUND, WHOLE_TABLE, Severity
from rules.engine import EventContext
from rules.names import term
from rules.race.cards import facts
from rules.race.events import player_of
from rules.race.state import PlayerState, RaceState, Stage, action_facts, active_cards, plan_phases, put
from rules.refusals import missing, not_one_of, whole, wrong_kind
from rules.text import N_, Listing, Text, plural

if TYPE_CHECKING:
    from rules.race.game import RaceGame

__all__ = [
    "check_tableau_end",
    "last_round",
    "on_action_chosen",
    "on_actions_selected",
    "on_hand_counted",
    "on_phase_done",
    "on_round_ended",
]


def last_round(state: RaceState, ctx: EventContext, reason: str) -> RaceState:
    """An end condition is met: this round is the last one (end of game: it is played to its end)."""
    if reason in state.ending:
        return state
    if not state.ending:
        ctx.finding(Text("{reason}: this is the last round; it is played to its end",
                         reason=reason), WHOLE_TABLE, Severity.INFO, N_("end of game"),
                    rule_kind=LAST_ROUND)
    return replace(state, ending=(*state.ending, reason))


def check_tableau_end(state: RaceState, ctx: EventContext, player: PlayerState) -> RaceState:
    """End of game: a tableau of 12 cards (rules/data/race/game.json ``tableau_end``) makes this the last round."""
    if len(player.tableau) >= facts()["tableau_end"]["value"]:
        return last_round(state, ctx, Text("{player} has {count} cards in their tableau", player=player.name,
                                           count=len(player.tableau)))
    return state


def _reset_phase(state: RaceState) -> RaceState:
    """A new phase: nobody has placed a card in it, and this phase's one-off powers are unused."""
    return replace(
        state,
        players=tuple(replace(p, placed_in_phase=0, extra_military=0, free_world=False,
                              produce_used=(), consumed=0, chips_taken=0) for p in state.players),
    )


def _vp_without_goods(player: PlayerState, phase_count: int) -> bool:
    """Whether a consume power of ``player``'s gives VP for something other than goods: cards discarded from hand
    (``DISCARD_HAND`` with ``GET_VP``: Deficit Spending, Merchant World), placed before this phase (digest §4 IV)."""
    return any(p.has("DISCARD_HAND", "GET_VP") for c in active_cards(player, phase_count) for p in c.powers_in(4))


def _close_round(state: RaceState, ctx: EventContext, hands: Mapping[str, Any]) -> RaceState:
    """End of round: hands after discarding (hand limit 10), then the next selection or the end of the game.

    Only a hand counted this round is checked: a count from an earlier round was checked at that round's end, where
    the player discarded down to 10 (the round: discard down to 10 cards), so it says nothing of this round's hand."""
    for name, count in hands.items():
        try:
            player = state.player(name)
        except KeyError:
            raise ctx.bad(Text("no player {player}; players: {players}", player=repr(name),
                               players=", ".join(p.name for p in state.players))) from None
        counted = whole(ctx, count, Text("{player}: {what}", player=name, what=ctx.word("hands")), 0)
        state = put(state, replace(player, hand=counted, hand_round=state.round))
    for player in state.players:
        if player.hand_round == state.round:
            _check_hand(ctx, state, player)
    over = bool(state.ending)
    if over:
        ctx.finding(Text("game over after round {round}: {why}",
                         round=state.round, why=Listing(state.ending, "; ")), WHOLE_TABLE, Severity.INFO,
                    N_("end of game"))
    return replace(
        state,
        stage=Stage.OVER if over else Stage.SELECT,
        players=tuple(replace(p, actions=()) for p in state.players),
    )


def _check_hand(ctx: EventContext, state: RaceState, player: PlayerState) -> None:
    """The hand limit on ``player``'s hand as last counted, taken as the hand that ends round ``state.round`` (the
    round: discard down to 10 cards at its end)."""
    limit = facts()["hand_limit"]["value"]
    if player.hand is not None and player.hand > limit:
        ctx.finding(
            Text("{player} ends round {round} with {hand} cards in hand; discard down to {limit}",
                 player=player.name, round=state.round, hand=player.hand, limit=limit),
            player.name,
            Severity.ERROR,
            N_("end of round: hand limit"),
        )


def _action_ids(ctx: EventContext, raw: Any, word: str, actions: Mapping[str, Any]) -> list[str]:
    """The action cards ``raw`` names (one id or a list of ids), the field named ``word``.

    Raises:
        BadEvent: neither text nor a list of text, or an id no action card has (the round: select; the cards named
            as the players' edition prints them).
    """
    ids = [raw] if isinstance(raw, str) else raw
    if not isinstance(ids, list):
        raise wrong_kind(ctx, raw, word, (str, list))
    for i in ids:
        if not isinstance(i, str):
            raise wrong_kind(ctx, i, word, str)
        if i not in actions:
            raise not_one_of(ctx, i, word, {a: term("race.action", a) for a in actions})
    return ids


def _select(state: RaceState, ctx: EventContext, raw: Any) -> RaceState:
    """The revealed action cards (``{player: id or [ids]}``) start a round: the phases it plays (the round: select)."""
    before = state
    if state.stage is Stage.PHASES:
        left = Listing(s.label for s in state.steps[state.step :])
        ctx.finding(Text("round {round} still had phases to play ({left}); they are skipped",
                         round=state.round, left=left), WHOLE_TABLE, Severity.WARNING, N_("the round"))
        state = _close_round(state, ctx, hands={})
    elif state.stage is Stage.ROUND_END:
        state = _close_round(state, ctx, hands={})
    if state.stage is Stage.OVER and before.stage is not Stage.OVER:
        ctx.finding(Text("the game is over; this selection starts a round after the last one"), WHOLE_TABLE,
                    Severity.WARNING, N_("end of game"))
    if not isinstance(raw, Mapping):
        raise wrong_kind(ctx, raw, ctx.word("choices"), Mapping)
    actions = action_facts()
    picks = facts()["picks_per_round"]["advanced_2p" if state.advanced else "standard"]
    choices: dict[str, tuple[str, ...]] = {}
    for player in state.players:
        word = Text("{player}: {what}", player=player.name, what=ctx.word("choices"))
        if player.name not in raw:
            raise missing(ctx, word)
        ids = _action_ids(ctx, raw[player.name], word, actions)
        unique = tuple(dict.fromkeys(ids))
        if len(unique) != len(ids):
            ctx.finding(Text("{player} chose the same action card twice",
                             player=player.name), player.name, Severity.ERROR, N_("advanced 2-player game"))
        if len(unique) != picks and len(unique) == len(ids):
            ctx.finding(plural("{player} chose {n} action card; each round every player chooses {picks}",
                               "{player} chose {n} action cards; each round every player chooses {picks}",
                               len(unique), player=player.name, picks=picks), player.name, Severity.ERROR,
                        N_("the round: select"))
        for i in unique:
            if actions[i]["advanced_only"] and not state.advanced:
                ctx.finding(Text("{player} chose {card}, which is only in the advanced 2-player game",
                                 player=player.name, card=term("race.action", i)),
                            player.name, Severity.ERROR, N_("advanced 2-player game"))
        order = list(actions)
        choices[player.name] = tuple(sorted(unique, key=order.index))
    steps = plan_phases(choices, state.advanced)
    state = replace(
        state,
        players=tuple(replace(p, actions=choices[p.name]) for p in state.players),
        stage=Stage.PHASES if steps else Stage.ROUND_END,
        round=state.round + 1,
        steps=steps,
        step=0,
        phase_count=state.phase_count + (1 if steps else 0),
    )
    return _reset_phase(state)


def on_hand_counted(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """Cards in a player's hand, as counted at the table."""
    player = replace(player_of(state, ctx), hand=ctx.count("cards"), hand_round=state.round)
    if state.stage is Stage.SELECT and state.round:  # counted after round N ended: N's discard is behind it
        _check_hand(ctx, state, player)
    return put(state, player)


def on_actions_selected(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """The round, select: the revealed action cards of every player (``{choices: {player: id or [ids]}}``)."""
    return _select(state, ctx, ctx.require("choices"))


def on_action_chosen(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """One player's action card(s), hidden until all have chosen; then revealed as ``actions_selected``
    (the round: select, secretly and face down until all reveal)."""
    player = player_of(state, ctx)
    ids = _action_ids(ctx, ctx.require("actions"), ctx.word("actions"), action_facts())
    chosen = dict(state.chosen)
    if player.name in chosen:  # a corrected mis-tap: the card is still face down, so the new pick counts
        ctx.finding(
            Text("{player} chose again before the reveal; the new choice replaces the earlier one",
                 player=player.name),
            player.name,
            Severity.INFO,
            N_("the round: select, secretly and face down until all reveal"),
        )
    chosen[player.name] = tuple(ids)
    if any(p.name not in chosen for p in state.players):
        return replace(state, chosen=tuple(chosen.items()))
    state = replace(state, chosen=())
    return _select(state, ctx, {name: list(ids) for name, ids in chosen.items()})


def on_phase_done(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """The phase being played is over (``{phase?}``: the phase the table thinks it closes)."""
    step = state.current
    if step is None:
        ctx.finding(Text("no phase is being played"), WHOLE_TABLE, Severity.WARNING, N_("the round"))
        return state
    named = ctx.payload.get("phase")
    if named is not None and named != step.phase:
        ctx.finding(Text("phase {named} reported done, but the phase being played is {label}",
                         named=term("race.phase", named), label=step.label), WHOLE_TABLE,
                    Severity.WARNING, N_("the round"))
    if step.phase == "consume":  # every report of the phase is in: chips no good paid for are asked about
        ask_chips_without_goods(ctx, [(p.name, p.chips_taken) for p in state.players if not p.consumed
                                      and not _vp_without_goods(p, state.phase_count)], step.label,
                                N_("Consume phase: VP chips come from consume powers (goods, or cards from hand "
                                   "as Deficit Spending)"))
    more = state.step + 1 < len(state.steps)
    state = replace(
        state,
        step=state.step + 1,
        stage=Stage.PHASES if more else Stage.ROUND_END,
        phase_count=state.phase_count + (1 if more else 0),
    )
    return _reset_phase(state)


def on_round_ended(game: RaceGame, state: RaceState, ctx: EventContext) -> RaceState:
    """End of round (``{hands?: {player: cards}}``: hands after discarding)."""
    if state.stage is Stage.PHASES:
        left = Listing(s.label for s in state.steps[state.step :])
        ctx.finding(Text("round {round} ended before these phases were played: {left}",
                         round=state.round, left=left), WHOLE_TABLE, Severity.WARNING, N_("the round"))
    elif state.stage is not Stage.ROUND_END:
        ctx.finding(Text("no round is being played"), WHOLE_TABLE, Severity.WARNING, N_("the round"))
        return state
    hands = ctx.payload.get("hands") or {}
    if not isinstance(hands, Mapping):
        raise wrong_kind(ctx, hands, ctx.word("hands"), Mapping)
    return _close_round(state, ctx, hands)
