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

Event kinds (``payload`` keys; ``player`` is a player name):

- ``start_world`` ``{player, card}``: the start world dealt in setup (Alpha Centauri comes
  with its windfall good unless ``"good": false``).
- ``hand_counted`` ``{player, cards}``: cards in a player's hand, as counted at the table.
- ``actions_selected`` ``{choices: {player: action id or [ids]}}``: the revealed action
  cards; ids are those of game.json (``explore_5``, ``explore_1_1``, ``develop``,
  ``develop_2``, ``settle``, ``settle_2``, ``consume_trade``, ``consume_x2``, ``produce``).
- ``action_chosen`` ``{player, actions: action id or [ids]}``: one player's choice, reported
  on their own (phone); kept hidden until every player has chosen, then revealed together
  exactly as ``actions_selected`` (a player who chooses again before that replaces their choice).
- ``card_placed`` ``{player, card, good?, paid?, method?}``: a development (Develop) or a
  world (Settle) joins the tableau. ``good``: the windfall good placed with it (default:
  yes for windfall worlds). ``paid``: cards discarded to pay, when known. ``method`` for a
  military world: ``"conquer"`` or ``"pay"`` (Contact Specialist); without it, conquered, unless the
  player's Military falls short and their Contact Specialist may pay for that (non-Alien) world.
- ``card_discarded`` ``{player, card}``: a card leaves the tableau (New Military Tactics
  for +3 Military, Colony Ship for a free world).
- ``good_placed`` ``{player, world}`` / ``good_removed`` ``{player, world}``: a good put
  on a world (windfall, Produce) / consumed or sold.
- ``vp_changed`` ``{player, delta}``: VP chips taken, in the Consume phase, from the pool
  (never below 0) and then from the chips set aside (``vp_chips`` ``{player, vp}`` before issue 13).
- ``phase_done`` ``{phase?}``: the current phase is over.
- ``round_ended`` ``{hands?: {player: cards}}``: the round is over; hands after discarding (``round_end``
  before issue 13).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.consume import ask_chips_without_goods
from rules.core import LAST_ROUND, WHOLE_TABLE, Event, GameInfo, Option, Progress, Rename, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.names import term
from rules.race.cards import GOODS_QUALIFIER, Card, cards, facts
from rules.race.scoring import PlayerRecord, final_scores, score_player, vp_chips_in_box
from rules.race.state import (
    PhaseStep,
    Placed,
    PlayerState,
    RaceState,
    Stage,
    action_facts,
    active_cards,
    military_against,
    plan_phases,
    reduction,
    stage_word,
)
from rules.scoring import ScoreInputError
from rules.settings import check_settings
from rules.text import N_, Listing, Text, plural

__all__ = [
    "EVENT_KINDS",
    "RACE_GAME",
    "PhaseStep",
    "Placed",
    "PlayerState",
    "RaceGame",
    "RaceState",
    "Stage",
    "military_against",
    "plan_phases",
]

START_WORLD = "start_world"
START_WORLDS = N_("Setup: start worlds")
"""The rulebook section cited for the start worlds (Setup: one start world dealt face up to each player)."""
HAND_COUNTED = "hand_counted"
ACTIONS_SELECTED = "actions_selected"
ACTION_CHOSEN = "action_chosen"
CARD_PLACED = "card_placed"
CARD_DISCARDED = "card_discarded"
GOOD_PLACED = "good_placed"
GOOD_REMOVED = "good_removed"
VP_CHANGED = "vp_changed"
PHASE_DONE = "phase_done"
ROUND_ENDED = "round_ended"



def _put(state: RaceState, player: PlayerState) -> RaceState:
    """``state`` with ``player`` replacing the player of the same name."""
    return replace(state, players=tuple(player if p.name == player.name else p for p in state.players))


def _player(state: RaceState, ctx: EventContext, key: str = "player") -> PlayerState:
    """The event's player (``event.player``, else ``payload[key]``). Raises BadEvent for a name not at the table."""
    return state.player(ctx.player(key))


def _card(ctx: EventContext, key: str) -> Card:
    """The card named by ``payload[key]``. Raises BadEvent with the closest card names."""
    try:
        return cards().lookup(ctx.require(key), key)
    except ScoreInputError as error:
        raise ctx.bad(str(error)) from None


def _last_round(state: RaceState, ctx: EventContext, reason: str) -> RaceState:
    """An end condition is met: this round is the last one (end of game: it is played to its end)."""
    if reason in state.ending:
        return state
    if not state.ending:
        ctx.finding(Text("{reason}: this is the last round; it is played to its end",
                         reason=reason), WHOLE_TABLE, Severity.INFO, N_("end of game"),
                    rule_kind=LAST_ROUND)
    return replace(state, ending=(*state.ending, reason))


def _check_tableau_end(state: RaceState, ctx: EventContext, player: PlayerState) -> RaceState:
    """End of game: a tableau of 12 cards (rules/data/race/game.json ``tableau_end``) makes this the last round."""
    if len(player.tableau) >= facts()["tableau_end"]["value"]:
        return _last_round(state, ctx, Text("{player} has {count} cards in their tableau", player=player.name,
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


def _pays_for_military(player: PlayerState, phase_count: int) -> bool:
    """Whether ``player`` may pay for a military world in this Settle phase: a ``PAY_MILITARY`` power (Contact
    Specialist) in their tableau before the phase began (digest §4 III; §5 timing)."""
    return any(p.has("PAY_MILITARY") for c in active_cards(player, phase_count) for p in c.powers_in(3))


def _settle_method(player: PlayerState, card: Card, phase_count: int) -> str:
    """How a placed card was paid for when the report does not say (``card_placed`` without ``method``).

    A non-military card is paid for. A military world is conquered, unless the player's Military falls short of
    its defense while a Contact Specialist lets them pay for it instead (a non-Alien world, digest §4 III
    "Contact Specialist": two fully separate ways, conquest or payment): the table reported a legal placement,
    not a conquest that fails, so it is taken as paid (its price, defense - 1 cards, is checked when ``paid`` is
    given).

    Returns:
        ``"conquer"`` or ``"pay"``.
    """
    if not card.military:
        return "pay"
    short = military_against(player, card, phase_count) < (card.defense or 0)
    return "pay" if short and not card.is_alien and _pays_for_military(player, phase_count) else "conquer"


def _close_round(state: RaceState, ctx: EventContext, hands: Mapping[str, Any]) -> RaceState:
    """End of round: hands after discarding (hand limit 10), then the next selection or the end of the game.

    Only a hand counted this round is checked: a count from an earlier round was checked at that round's end, where
    the player discarded down to 10 (the round: discard down to 10 cards), so it says nothing of this round's hand."""
    for name, count in hands.items():
        try:
            player = state.player(name)
        except KeyError:
            raise ctx.bad(f"'hands' names no player {name!r}") from None
        state = _put(state, replace(player, hand=ctx.count(f"hands.{name}", count), hand_round=state.round))
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
        raise ctx.bad(f"'choices' must map players to action ids, got {raw!r}")
    actions = action_facts()
    picks = facts()["picks_per_round"]["advanced_2p" if state.advanced else "standard"]
    choices: dict[str, tuple[str, ...]] = {}
    for player in state.players:
        if player.name not in raw:
            raise ctx.bad(f"no action chosen by {player.name!r}")
        ids = raw[player.name]
        ids = [ids] if isinstance(ids, str) else ids
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ctx.bad(f"{player.name!r}: action ids must be a string or a list of strings, got {ids!r}")
        for i in ids:
            if i not in actions:
                raise ctx.bad(f"{player.name!r}: unknown action {i!r}; actions: {', '.join(actions)}")
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


def _check_paid(ctx: EventContext, where: str, card: Card, paid: int | None, due: int, rule: str) -> None:
    if paid is not None and paid < due:
        ctx.finding(plural("{card} costs {n} card here but {paid} were paid",
                           "{card} costs {n} cards here but {paid} were paid",
                           due, card=card.name, paid=paid), where, Severity.ERROR, rule)


def _windfall_source(state: RaceState, player: PlayerState, world: Card, step: PhaseStep) -> str | None:
    """An unused way to produce on windfall ``world`` now: a matching windfall power, else the Produce bonus."""
    wanted = {f"WINDFALL_{GOODS_QUALIFIER[world.goods]}", "WINDFALL_ANY"} if world.goods else set()
    for card in active_cards(player, state.phase_count):
        for power in card.powers_in(5):
            if wanted.intersection(power.code) and card.name not in player.produce_used:
                return card.name
    bonuses = sum(action_facts()[i].get("windfall_produce", 0) for i in step.bonus_for(player.name))
    if player.produce_used.count("bonus") < bonuses:
        return "bonus"
    return None


def _world(state: RaceState, ctx: EventContext) -> tuple[PlayerState, Card, int | None]:
    player, card = _player(state, ctx), _card(ctx, "world")
    return player, card, player.find(card.name)


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

    # -- setup and bookkeeping ----------------------------------------------------------------
    def _start_world(self, state: RaceState, ctx: EventContext) -> RaceState:
        """Setup 3: each player is dealt one start world face up, the first card of their tableau (Alpha
        Centauri comes with its windfall good unless ``"good": false``)."""
        player, card = _player(state, ctx), _card(ctx, "card")
        if state.stage is not Stage.SETUP:
            ctx.finding(Text("start world {card} dealt after setup",
                             card=card.name), player.name, Severity.WARNING, START_WORLDS)
        if card.start_world is None:
            ctx.finding(Text("{card} is not a start world", card=card.name), player.name, Severity.ERROR, START_WORLDS)
        if any(cards()[p.card].start_world is not None for p in player.tableau):
            ctx.finding(Text("{player} already has a start world",
                             player=player.name), player.name, Severity.ERROR, START_WORLDS)
        holders = [p.name for p in state.players if p.name != player.name and p.find(card.name) is not None]
        if card.start_world is not None and holders:
            ctx.finding(
                Text("{card} is already {holders}'s start world; there is one of each, dealt to one player: misread?",
                     card=card.name, holders=holders[0]),
                player.name,
                Severity.ERROR,
                N_("Setup: start worlds dealt one each"),
            )
        good = bool(ctx.payload.get("good", card.is_windfall))
        return _put(state, replace(player,
                                   tableau=(*player.tableau,
                                            Placed(card.name, good=good, placed_at=0, windfall_received=good))))

    def _hand_counted(self, state: RaceState, ctx: EventContext) -> RaceState:
        """Cards in a player's hand, as counted at the table."""
        player = replace(_player(state, ctx), hand=ctx.count("cards"), hand_round=state.round)
        if state.stage is Stage.SELECT and state.round:  # counted after round N ended: N's discard is behind it
            _check_hand(ctx, state, player)
        return _put(state, player)

    def _vp_changed(self, state: RaceState, ctx: EventContext) -> RaceState:
        """VP chips taken (``delta``): from the pool while it lasts, then from the chips set aside (end of game).

        VP chips are gained in the Consume phase: a take in any other phase is a WARNING (misreport
        or a late report). The pool never goes below 0; what it cannot pay comes from the set-aside
        chips (INFO), and more than the box holds is a WARNING. Chips taken in the Consume phase with no good
        consumed are asked about once the phase is over, whichever was reported first (:mod:`rules.consume`).
        """
        player = _player(state, ctx)
        vp = ctx.count("delta")
        where = Text("{player}: VP chips", player=player.name)
        step = state.current
        if vp and (step is None or step.phase != "consume"):
            now = step.label if step else stage_word(state.stage)
            ctx.finding(
                Text("{player} takes {vp} VP in chips outside the Consume phase (now: {now}); VP chips are gained by "
                     "consuming", player=player.name, vp=vp, now=now),
                where,
                Severity.WARNING,
                N_("Consume phase: VP chips"),
            )
        elif vp > 0:  # whether a good paid them is asked once the phase is over (_phase_done)
            player = replace(player, chips_taken=player.chips_taken + vp)
        state = _put(state, replace(player, vp_chips=player.vp_chips + vp))
        from_pool = min(vp, state.pool)
        extra = vp - from_pool
        state = replace(state, pool=state.pool - from_pool, set_aside_paid=state.set_aside_paid + extra)
        if extra:
            ctx.finding(
                Text("the VP pool had only {from_pool} VP left; {extra} VP of {player}'s {vp} come from the chips set "
                     "aside", from_pool=from_pool, extra=extra, player=player.name, vp=vp),
                where,
                Severity.INFO,
                N_("end of game: the VP pool runs out"),
            )
            set_aside = vp_chips_in_box() - facts()["vp_pool_per_player"]["value"] * len(state.players)
            if state.set_aside_paid > set_aside:
                ctx.finding(
                    Text("{paid} VP paid from the chips set aside, but only {set_aside} VP are set aside (the box "
                         "holds {box} VP of chips): misread amount?",
                         paid=state.set_aside_paid, set_aside=set_aside, box=vp_chips_in_box()),
                    where,
                    Severity.WARNING,
                    N_("components: 28 VP chips"),
                )
        if state.pool <= 0:
            state = _last_round(state, ctx, Text("the VP pool is empty (set-aside chips pay out until the round ends)"))
        return state

    # -- the round ----------------------------------------------------------------------------
    def _actions_selected(self, state: RaceState, ctx: EventContext) -> RaceState:
        """The round, select: the revealed action cards of every player (``{choices: {player: id or [ids]}}``)."""
        return _select(state, ctx, ctx.require("choices"))

    def _action_chosen(self, state: RaceState, ctx: EventContext) -> RaceState:
        """One player's action card(s), hidden until all have chosen; then revealed as ``actions_selected``
        (the round: select, secretly and face down until all reveal)."""
        player = _player(state, ctx)
        raw = ctx.require("actions")
        ids = [raw] if isinstance(raw, str) else raw
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ctx.bad(f"'actions' must be an action id or a list of ids, got {raw!r}")
        actions = action_facts()
        for i in ids:
            if i not in actions:
                raise ctx.bad(f"unknown action {i!r}; actions: {', '.join(actions)}")
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

    def _phase_done(self, state: RaceState, ctx: EventContext) -> RaceState:
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

    def _round_ended(self, state: RaceState, ctx: EventContext) -> RaceState:
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
            raise ctx.bad(f"'hands' must map players to card counts, got {hands!r}")
        return _close_round(state, ctx, hands)

    # -- placing and discarding cards ---------------------------------------------------------
    def _card_placed(self, state: RaceState, ctx: EventContext) -> RaceState:
        """II Develop / III Settle: a development or a world joins the tableau
        (``{player, card, good?, paid?, method?}``)."""
        player, card = _player(state, ctx), _card(ctx, "card")
        step = state.current
        phase = "develop" if card.is_development else "settle"
        rule = N_("Develop phase") if phase == "develop" else N_("Settle phase")
        where = f"{player.name}: {card.name}"
        if step is None or step.phase != phase:
            now = step.label if step else stage_word(state.stage)
            ctx.finding(Text("{card} placed outside the {phase} phase (now: {now})",
                             card=card.name, phase=term("race.phase", phase), now=now), where, Severity.WARNING, rule)
        elif player.placed_in_phase:
            ctx.finding(Text("{player} places a second card in one {label} phase (one per phase)",
                             player=player.name, label=step.label), where, Severity.ERROR, rule)
        in_play = sum(1 for p in state.players for c in p.tableau if c.card == card.name)
        if card.is_development and player.find(card.name) is not None:
            ctx.finding(Text("{player} already has {card}: a tableau holds one copy of each development",
                             player=player.name, card=card.name), where, Severity.ERROR, rule)
        elif in_play >= card.count:
            ctx.finding(plural("{card} is already in play, and the deck has only {count}: misread?",
                               "{card}: all {count} in the deck are already in play: misread?",
                               card.count, card=card.name, count=card.count), where,
                        Severity.WARNING, N_("components"))
        bonus = step.bonus_for(player.name) if step else ()
        paid = ctx.payload.get("paid")
        if paid is not None:
            paid = ctx.count("paid", paid)
        method = ctx.payload.get("method")
        if method is None:
            method = _settle_method(player, card, state.phase_count)
        if method not in ("conquer", "pay"):
            raise ctx.bad(f"'method' must be 'conquer' or 'pay', got {method!r}")
        if card.military and method == "conquer":
            military = military_against(player, card, state.phase_count)
            if military < (card.defense or 0):
                ctx.finding(
                    Text("{player} conquers {card} (defense {defense}) with only {military} Military",
                         player=player.name, card=card.name, defense=card.defense, military=military),
                    where,
                    Severity.ERROR,
                    N_("Settle phase: military worlds"),
                )
        elif card.military:
            if not _pays_for_military(player, state.phase_count):
                ctx.finding(Text("{player} pays for the military world {card} without Contact Specialist",
                                 player=player.name, card=card.name), where,
                            Severity.ERROR, N_("Settle phase: military worlds"))
            elif card.is_alien:
                ctx.finding(Text("Contact Specialist cannot pay for the Alien military world {card}",
                                 card=card.name), where,
                            Severity.ERROR, N_("Settle phase: Contact Specialist"))
            due = 0 if player.free_world else max(0,
                                                  (card.defense or 0) - 1 - reduction(player, card, state.phase_count))
            _check_paid(ctx, where, card, paid, due, rule)
        else:
            discount = sum(action_facts()[i].get("discount", 0) for i in bonus)
            free = player.free_world and card.is_world and card.goods != "alien"  # Colony Ship's text
            due = 0 if free else max(0, card.cost - reduction(player, card, state.phase_count) - discount)
            _check_paid(ctx, where, card, paid, due, rule)
        good = ctx.payload.get("good", card.is_windfall)
        if good and not card.is_windfall:
            ctx.finding(Text("{card} gets no good when placed (only windfall worlds do)",
                             card=card.name), where, Severity.ERROR,
                        N_("Settle phase: windfall worlds"))
        placed = Placed(card.name, good=bool(good), placed_at=state.phase_count, windfall_received=bool(good))
        player = replace(
            player,
            tableau=(*player.tableau, placed),
            placed_in_phase=player.placed_in_phase + 1,
            free_world=player.free_world and not card.is_world,
        )
        return _check_tableau_end(_put(state, player), ctx, player)

    def _card_discarded(self, state: RaceState, ctx: EventContext) -> RaceState:
        """A card leaves the tableau for its power (New Military Tactics: +3 Military; Colony Ship: a free world)."""
        player, card = _player(state, ctx), _card(ctx, "card")
        where = f"{player.name}: {card.name}"
        index = player.find(card.name)
        if index is None:
            ctx.finding(Text("{card} is not in {player}'s tableau",
                             card=card.name, player=player.name), where, Severity.ERROR, N_("card powers"))
            return state
        placed = player.tableau[index]
        step = state.current
        settle = step is not None and step.phase == "settle"
        gain_military = sum(p.value for p in card.powers_in(3) if p.has("DISCARD", "EXTRA_MILITARY"))
        free = any(p.has("DISCARD", "REDUCE_ZERO") for p in card.powers_in(3))
        if (gain_military or free) and not settle:
            ctx.finding(Text("{card} is discarded for its Settle power outside a Settle phase",
                             card=card.name), where, Severity.WARNING, N_("card powers"))
        if placed.placed_at >= state.phase_count and state.phase_count:
            ctx.finding(Text("{card} is used in the phase it was placed; its power works from the next phase",
                             card=card.name), where,
                        Severity.ERROR, N_("card powers: timing"))
        tableau = player.tableau[:index] + player.tableau[index + 1 :]
        return _put(state, replace(
            player,
            tableau=tableau,
            extra_military=player.extra_military + (gain_military if settle else 0),
            free_world=player.free_world or (free and settle),
        ))

    # -- goods --------------------------------------------------------------------------------
    def _good_placed(self, state: RaceState, ctx: EventContext) -> RaceState:
        """A good put on a world: a windfall world's when placed, a production world's in Produce (V Produce)."""
        player, card, index = _world(state, ctx)
        where = f"{player.name}: {card.name}"
        windfall_rule = "Settle phase: windfall worlds"
        if index is None:
            ctx.finding(Text("{card} is not in {player}'s tableau",
                             card=card.name, player=player.name), where, Severity.ERROR, N_("three uses of a card"))
            return state
        placed = player.tableau[index]
        step = state.current
        producing = step is not None and step.phase == "produce"
        used = player.produce_used
        if not (card.is_world and card.goods):
            # A world without a goods kind has no room for a good: nothing lies on it, nothing to consume or to
            # count at the tie-break (Race, three uses of a card: a good is a card face down on a world).
            ctx.finding(Text("{card} does not produce or hold goods",
                             card=card.name), where, Severity.ERROR, N_("three uses of a card"))
            return state
        if placed.good:
            ctx.finding(Text("{card} already holds a good; a world holds at most one",
                             card=card.name), where, Severity.ERROR, N_("Produce phase"))
        elif card.is_production:
            if not producing:
                ctx.finding(Text("{card} is a production world: it gets goods only in the Produce phase",
                                 card=card.name), where,
                            Severity.ERROR, N_("Produce phase"))
        elif card.is_windfall:
            first = (not placed.windfall_received and placed.placed_at == state.phase_count
                     and state.stage in (Stage.PHASES, Stage.SETUP))
            if first:
                placed = replace(placed, windfall_received=True)
            elif not producing or step is None:
                ctx.finding(Text("a windfall good added to {card} outside its first placement",
                                 card=card.name), where, Severity.ERROR, windfall_rule)
            else:
                source = _windfall_source(state, player, card, step)
                if source is None:
                    ctx.finding(
                        Text("{card} is a windfall world: it produces only with the Produce bonus or a windfall "
                             "power, and {player} has none left", card=card.name, player=player.name),
                        where,
                        Severity.ERROR,
                        N_("Produce phase: windfall worlds"),
                    )
                else:
                    used = (*used, source)
        tableau = player.tableau[:index] + (replace(placed, good=True),) + player.tableau[index + 1 :]
        return _put(state, replace(player, tableau=tableau, produce_used=used))

    def _good_removed(self, state: RaceState, ctx: EventContext) -> RaceState:
        """A good consumed or sold (IV Consume)."""
        player, card, index = _world(state, ctx)
        where = f"{player.name}: {card.name}"
        if index is None or not player.tableau[index].good:
            ctx.finding(Text("no good lies on {card} in {player}'s tableau",
                             card=card.name, player=player.name), where, Severity.ERROR, N_("Consume phase"))
            return state
        step = state.current
        if step is None or step.phase != "consume":
            ctx.finding(Text("a good on {card} is consumed or sold outside the Consume phase",
                             card=card.name), where, Severity.WARNING, N_("Consume phase"))
        tableau = player.tableau[:index] + (replace(player.tableau[index], good=False),) + player.tableau[index + 1 :]
        return _put(state, replace(player, tableau=tableau, consumed=player.consumed + 1))

    handlers = {
        START_WORLD: _start_world,
        HAND_COUNTED: _hand_counted,
        ACTIONS_SELECTED: _actions_selected,
        ACTION_CHOSEN: _action_chosen,
        CARD_PLACED: _card_placed,
        CARD_DISCARDED: _card_discarded,
        GOOD_PLACED: _good_placed,
        GOOD_REMOVED: _good_removed,
        VP_CHANGED: _vp_changed,
        PHASE_DONE: _phase_done,
        ROUND_ENDED: _round_ended,
    }

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
