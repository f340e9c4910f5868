"""Race for the Galaxy as a :class:`rules.core.Game`: rounds, phases, tableaux, goods, VP pool.

The state is what the table shows, derived by replaying events: each player's tableau
(with the goods lying on worlds), VP chips, last reported hand size, the action cards
chosen this round, the VP pool, and where the round is (which of the selected phases).
Game facts (phases, action cards, pool size, limits) come from ``rules/data/race/game.json``
and card facts from ``cards.json``; nothing about a card is written in this module.

A round (digest §3): ``actions_selected`` (simultaneous selection, revealed together)
schedules only the selected phases in order I Explore, II Develop, III Settle, IV Consume,
V Produce; in the advanced 2-player game (``settings["advanced"]``) a player who chose
both Develop (or both Settle) cards gets a second such phase. ``phase_done`` closes the
current phase; ``round_end`` closes the round (hand limit 10, end of game check).

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
  military world: ``"conquer"`` (default) or ``"pay"`` (Contact Specialist).
- ``card_discarded`` ``{player, card}``: a card leaves the tableau (New Military Tactics
  for +3 Military, Colony Ship for a free world).
- ``good_placed`` ``{player, world}`` / ``good_removed`` ``{player, world}``: a good put
  on a world (windfall, Produce) / consumed or sold.
- ``vp_chips`` ``{player, vp}``: VP chips taken, in the Consume phase, from the pool
  (never below 0) and then from the chips set aside.
- ``phase_done`` ``{phase?}``: the current phase is over.
- ``round_end`` ``{hands?: {player: cards}}``: the round is over; hands after discarding.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.core import BadEvent, Event, Finding, GameInfo, Option, Progress, ScoreBreakdown, Severity, UnknownEvent
from rules.engine import GameBase
from rules.settings import check_settings
from rules.race.cards import GOODS_QUALIFIER, Card, cards, facts
from rules.race.scoring import PlayerRecord, final_scores, score_player, vp_chips_in_box
from rules.scoring import ScoreInputError

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
HAND_COUNTED = "hand_counted"
ACTIONS_SELECTED = "actions_selected"
ACTION_CHOSEN = "action_chosen"
CARD_PLACED = "card_placed"
CARD_DISCARDED = "card_discarded"
GOOD_PLACED = "good_placed"
GOOD_REMOVED = "good_removed"
VP_CHIPS = "vp_chips"
PHASE_DONE = "phase_done"
ROUND_END = "round_end"
EVENT_KINDS = frozenset(
    {START_WORLD, HAND_COUNTED, ACTIONS_SELECTED, ACTION_CHOSEN, CARD_PLACED, CARD_DISCARDED, GOOD_PLACED, GOOD_REMOVED, VP_CHIPS, PHASE_DONE, ROUND_END}
)

RULE = "Race for the Galaxy, {}"
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V"}


class Stage(enum.Enum):
    """Where the game is."""

    SETUP = "setup"  # start worlds dealt, hands kept; before the first selection
    PHASES = "phases"  # playing the selected phases of a round
    ROUND_END = "round_end"  # all selected phases done; discard to the hand limit
    SELECT = "select"  # between rounds: players choose action cards
    OVER = "over"  # the final round has ended


@dataclass(frozen=True)
class PhaseStep:
    """One phase played in a round: ``phase`` id (``"develop"``), and who gets its bonus with which card(s)."""

    phase: str
    bonus: tuple[tuple[str, tuple[str, ...]], ...]  # (player, action ids giving the bonus in this step)
    second: bool = False  # the second Develop/Settle phase of the advanced 2-player game

    def bonus_for(self, player: str) -> tuple[str, ...]:
        """The action ids whose bonus ``player`` gets in this step (empty: action only)."""
        return dict(self.bonus).get(player, ())

    @property
    def label(self) -> str:
        """``"II Develop"``, ``"III Settle (second)"``."""
        phase = _phase(self.phase)
        return f"{ROMAN[phase['number']]} {phase['name']}" + (" (second)" if self.second else "")


@dataclass(frozen=True)
class Placed:
    """A card in a tableau: its name, whether a good lies on it, and the phase it was placed in.

    ``placed_at`` counts phases played since the start (0 = setup); a card's powers work
    from the phase after the one it was placed in (digest §5). ``windfall_received``: the
    world has had the windfall good it gets once, when placed.
    """

    card: str
    good: bool = False
    placed_at: int = 0
    windfall_received: bool = False


@dataclass(frozen=True)
class PlayerState:
    """One player: tableau, VP chips, hand (last count reported; None before one), chosen actions."""

    name: str
    tableau: tuple[Placed, ...] = ()
    chips: int = 0
    hand: int | None = None
    actions: tuple[str, ...] = ()
    placed_in_phase: int = 0  # cards placed in the current phase
    extra_military: int = 0  # from discarded New Military Tactics, until the end of this Settle phase
    free_world: bool = False  # discarded Colony Ship: the next world this Settle phase is free
    produce_used: tuple[str, ...] = ()  # windfall-production sources used this Produce phase

    def find(self, card: str) -> int | None:
        """Index of ``card`` in the tableau, or None."""
        return next((i for i, p in enumerate(self.tableau) if p.card == card), None)

    @property
    def goods(self) -> int:
        """Goods lying on this player's worlds."""
        return sum(1 for p in self.tableau if p.good)


@dataclass(frozen=True)
class RaceState:
    """The whole table. ``pool``: VP left of the 12-per-player pool (never below 0);
    ``set_aside_paid``: VP paid from the set-aside 10s and leftover chips once it ran dry (digest §6)."""

    players: tuple[PlayerState, ...]
    pool: int
    set_aside_paid: int = 0
    advanced: bool = False
    stage: Stage = Stage.SETUP
    round: int = 0
    steps: tuple[PhaseStep, ...] = ()
    step: int = 0  # index into steps while stage is PHASES
    phase_count: int = 0  # phases played since the start (what Placed.placed_at counts)
    ending: tuple[str, ...] = ()  # why this round is the last one (empty: it is not)
    chosen: tuple[tuple[str, tuple[str, ...]], ...] = ()  # action_chosen reports not yet revealed (player, ids)

    def player(self, name: str) -> PlayerState:
        """The player called ``name`` (KeyError if none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def current(self) -> PhaseStep | None:
        """The phase being played, or None outside the phases of a round."""
        if self.stage is Stage.PHASES and self.step < len(self.steps):
            return self.steps[self.step]
        return None


def _phase(phase_id: str) -> Mapping[str, Any]:
    return next(p for p in facts()["phases"] if p["id"] == phase_id)


def _actions() -> dict[str, Mapping[str, Any]]:
    return {a["id"]: a for a in facts()["actions"]}


def plan_phases(choices: Mapping[str, tuple[str, ...]], advanced: bool = False) -> tuple[PhaseStep, ...]:
    """The phases a round plays, in order, for the players' chosen action ids.

    A phase nobody chose is skipped; a phase chosen by several players is played once and
    each chooser gets the bonus (digest §3). Advanced 2-player game: a player who chose
    both cards of a doubled phase (``second_of``) adds a second such phase in which only
    they get the bonus; a player who chose it once gets the bonus in the first only.
    """
    actions = _actions()
    steps: list[PhaseStep] = []
    for phase in facts()["phases"]:
        picked = {p: tuple(a for a in ids if actions[a]["phase"] == phase["id"]) for p, ids in choices.items()}
        picked = {p: ids for p, ids in picked.items() if ids}
        if not picked:
            continue
        doubled = advanced and any(actions[a].get("second_of") for ids in picked.values() for a in ids)
        if not doubled:
            steps.append(PhaseStep(phase["id"], tuple(picked.items())))
            continue
        steps.append(PhaseStep(phase["id"], tuple((p, ids[:1]) for p, ids in picked.items())))
        twice = tuple((p, ids[1:2]) for p, ids in picked.items() if len(ids) > 1)
        if twice:
            steps.append(PhaseStep(phase["id"], twice, second=True))
    return tuple(steps)


def _active(player: PlayerState, phase_count: int) -> list[Card]:
    """Cards whose powers work now: placed before the current phase began (digest §5)."""
    deck = cards()
    return [deck[p.card] for p in player.tableau if p.placed_at < phase_count]


def military_against(player: PlayerState, world: Card, phase_count: int) -> int:
    """``player``'s Military against ``world`` in the current Settle phase (digest §4 III).

    Every phase-III ``EXTRA_MILITARY`` power of a card placed before this phase counts,
    negative ones included; powers qualified ``ALIEN``, ``RARE`` or ``AGAINST_REBEL``
    count only against such a world; plus Military from New Military Tactics discarded
    this phase. Contact Specialist's payment never adds to Military.
    """
    total = player.extra_military
    for card in _active(player, phase_count):
        for power in card.powers_in(3):
            if "EXTRA_MILITARY" not in power.code or "DISCARD" in power.code:
                continue
            if "ALIEN" in power.code and not world.is_alien:
                continue
            if "RARE" in power.code and world.goods != "rare":
                continue
            if "AGAINST_REBEL" in power.code and not (world.is_rebel and world.military):
                continue
            total += power.value
    return total


def _reduction(player: PlayerState, card: Card, phase_count: int) -> int:
    """Cost reduction from ``REDUCE`` powers for placing ``card`` (II for developments, III for worlds)."""
    phase = 2 if card.is_development else 3
    total = 0
    for c in _active(player, phase_count):
        for power in c.powers_in(phase):
            if power.code[0] != "REDUCE":
                continue
            qualifiers = power.code[1:]
            if "ALIEN" in qualifiers and not card.is_alien:
                continue
            if any(q in qualifiers for q in ("NOVELTY", "RARE", "GENE")) and GOODS_QUALIFIER.get(card.goods or "") not in qualifiers:
                continue
            total += power.value
    return total


class _Apply:
    """One event's application: the event, the state being built, and the findings raised."""

    def __init__(self, state: RaceState, event: Event) -> None:
        self.state = state
        self.event = event
        self.findings: list[Finding] = []

    def find(self, what: str, where: str, severity: Severity, rule: str) -> None:
        self.findings.append(Finding(what=what, where=where, severity=severity, rule=RULE.format(rule), seq=self.event.seq))

    def bad(self, problem: str) -> BadEvent:
        return BadEvent(f"event {self.event.seq} ({self.event.kind}): {problem}")

    def payload(self, key: str) -> Any:
        if key not in self.event.payload:
            raise self.bad(f"payload has no {key!r}")
        return self.event.payload[key]

    def player(self, key: str = "player") -> PlayerState:
        name = self.event.payload.get(key, self.event.player)
        try:
            return self.state.player(name)
        except KeyError:
            raise self.bad(f"no player {name!r}; players: {', '.join(p.name for p in self.state.players)}") from None

    def card(self, key: str) -> Card:
        try:
            return cards().lookup(self.payload(key), key)
        except ScoreInputError as error:
            raise self.bad(str(error)) from None

    def count(self, key: str, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise self.bad(f"{key!r} must be a whole number 0 or more, got {value!r}")
        return value

    def put(self, player: PlayerState) -> None:
        self.state = replace(self.state, players=tuple(player if p.name == player.name else p for p in self.state.players))

    def last_round(self, reason: str) -> None:
        if reason in self.state.ending:
            return
        if not self.state.ending:
            self.find(f"{reason}: this is the last round; it is played to its end", "table", Severity.INFO, "end of game (digest §6)")
        self.state = replace(self.state, ending=(*self.state.ending, reason))

    def check_tableau_end(self, player: PlayerState) -> None:
        if len(player.tableau) >= facts()["tableau_end"]["value"]:
            self.last_round(f"{player.name} has {len(player.tableau)} cards in their tableau")


INFO = GameInfo(
    name="race",
    title="Race for the Galaxy",
    bgg_id=28143,
    players=(facts()["players"]["min"], facts()["players"]["max"]),  # the box: 2-4 players (rules/data/race/game.json)
    options=(
        Option(
            "advanced", "bool", default=False, players=(2, 2), label="the advanced game",
            help="the advanced 2-player game: each player chooses two action cards a round from nine "
                 "(Race for the Galaxy rulebook, Advanced 2-player game)",
        ),
        Option(
            "start_worlds", "choices", default=(), per_player=True, offered=False, label="the start worlds",
            choices=tuple(c.name for c in cards().start_worlds),
            distinct="start world {value!r} dealt to several players; each start world exists once "
                     "(Race for the Galaxy, setup 3: start worlds dealt one each)",
            help="the start world dealt to each player, when known at the start (Race for the Galaxy, setup 3)",
        ),
    ),
    score_input="jsonl-games",  # one game per JSON document: one game object, or JSON Lines with one game per line
    rulebook="Race for the Galaxy rulebook, Polish edition",
)
"""Race for the Galaxy's declaration (:class:`rules.core.GameInfo`)."""


class RaceGame(GameBase):
    """Race for the Galaxy (base game, 2-4 players) as a :class:`rules.core.Game`."""

    info = INFO
    event_kinds = EVENT_KINDS

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
        dealt = [(n, card) for n, card in zip(names, checked["start_worlds"]) if card]
        for seq, (player, card) in enumerate(dealt, start=1):
            state, _ = self.apply(state, Event(seq=-seq, kind=START_WORLD, payload={"player": player, "card": card}))
        return state

    def apply(self, state: RaceState, event: Event) -> tuple[RaceState, list[Finding]]:
        """The state after ``event`` and the misplays it shows (see the module doc for kinds).

        Raises:
            UnknownEvent: not a Race event kind.
            BadEvent: unknown player, unknown card (with close names), malformed payload.
        """
        if event.kind not in EVENT_KINDS:
            raise UnknownEvent(f"event {event.seq}: game 'race' has no event kind {event.kind!r}")
        a = _Apply(state, event)
        if state.stage is Stage.OVER:
            a.find("the game is over; this event is recorded but belongs to no round", f"event {event.seq}", Severity.WARNING, "end of game (digest §6)")
        getattr(self, "_" + event.kind)(a)
        return a.state, a.findings

    # -- setup and bookkeeping ----------------------------------------------------------------
    def _start_world(self, a: _Apply) -> None:
        player, card = a.player(), a.card("card")
        if a.state.stage is not Stage.SETUP:
            a.find(f"start world {card.name} dealt after setup", player.name, Severity.WARNING, "setup 3 (seed)")
        if card.start_world is None:
            a.find(f"{card.name} is not a start world", player.name, Severity.ERROR, "setup 3 (seed)")
        if any(cards()[p.card].start_world is not None for p in player.tableau):
            a.find(f"{player.name} already has a start world", player.name, Severity.ERROR, "setup 3 (seed)")
        holders = [p.name for p in a.state.players if p.name != player.name and p.find(card.name) is not None]
        if card.start_world is not None and holders:
            a.find(
                f"{card.name} is already {holders[0]}'s start world; there is one of each, dealt to one player: misread?",
                player.name,
                Severity.ERROR,
                "setup 3: start worlds dealt one each (rulebook; digest §2)",
            )
        good = bool(a.event.payload.get("good", card.is_windfall))
        a.put(replace(player, tableau=(*player.tableau, Placed(card.name, good=good, placed_at=0, windfall_received=good))))

    def _hand_counted(self, a: _Apply) -> None:
        player = a.player()
        a.put(replace(player, hand=a.count("cards", a.payload("cards"))))

    def _vp_chips(self, a: _Apply) -> None:
        """VP chips taken: from the pool while it lasts, then from the chips set aside (digest §6).

        VP chips are gained in the Consume phase (digest §4 IV): a take in any other phase is
        a WARNING (misreport or a late report). The pool never goes below 0; what it cannot
        pay comes from the set-aside chips (INFO), and more than the box holds is a WARNING.
        """
        player = a.player()
        vp = a.count("vp", a.payload("vp"))
        where = f"{player.name}: VP chips"
        step = a.state.current
        if vp and (step is None or step.phase != "consume"):
            now = step.label if step else a.state.stage.value
            a.find(
                f"{player.name} takes {vp} VP in chips outside the Consume phase (now: {now}); VP chips are gained by consuming",
                where,
                Severity.WARNING,
                "Consume phase: VP chips (digest §4 IV)",
            )
        a.put(replace(player, chips=player.chips + vp))
        from_pool = min(vp, a.state.pool)
        extra = vp - from_pool
        a.state = replace(a.state, pool=a.state.pool - from_pool, set_aside_paid=a.state.set_aside_paid + extra)
        if extra:
            a.find(
                f"the VP pool had only {from_pool} VP left; {extra} VP of {player.name}'s {vp} come from the chips set aside",
                where,
                Severity.INFO,
                "end of game: the VP pool runs out (digest §2, §6)",
            )
            set_aside = vp_chips_in_box() - facts()["vp_pool_per_player"]["value"] * len(a.state.players)
            if a.state.set_aside_paid > set_aside:
                a.find(
                    f"{a.state.set_aside_paid} VP paid from the chips set aside, but only {set_aside} VP are set aside "
                    f"(the box holds {vp_chips_in_box()} VP of chips): misread amount?",
                    where,
                    Severity.WARNING,
                    "components: 28 VP chips (rulebook; digest §1)",
                )
        if a.state.pool <= 0:
            a.last_round("the VP pool is empty (set-aside chips pay out until the round ends)")

    # -- the round ----------------------------------------------------------------------------
    def _actions_selected(self, a: _Apply) -> None:
        state = a.state
        if state.stage is Stage.PHASES:
            left = ", ".join(s.label for s in state.steps[state.step :])
            a.find(f"round {state.round} still had phases to play ({left}); they are skipped", "table", Severity.WARNING, "the round (digest §3)")
            self._close_round(a, hands={})
        elif state.stage is Stage.ROUND_END:
            self._close_round(a, hands={})
        if a.state.stage is Stage.OVER and state.stage is not Stage.OVER:
            a.find("the game is over; this selection starts a round after the last one", "table", Severity.WARNING, "end of game (digest §6)")
        raw = a.payload("choices")
        if not isinstance(raw, Mapping):
            raise a.bad(f"'choices' must map players to action ids, got {raw!r}")
        actions = _actions()
        picks = facts()["picks_per_round"]["advanced_2p" if a.state.advanced else "standard"]
        choices: dict[str, tuple[str, ...]] = {}
        for player in a.state.players:
            if player.name not in raw:
                raise a.bad(f"no action chosen by {player.name!r}")
            ids = raw[player.name]
            ids = [ids] if isinstance(ids, str) else ids
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                raise a.bad(f"{player.name!r}: action ids must be a string or a list of strings, got {ids!r}")
            for i in ids:
                if i not in actions:
                    raise a.bad(f"{player.name!r}: unknown action {i!r}; actions: {', '.join(actions)}")
            unique = tuple(dict.fromkeys(ids))
            if len(unique) != len(ids):
                a.find(f"{player.name} chose the same action card twice", player.name, Severity.ERROR, "advanced 2-player game (digest §3)")
            if len(unique) != picks and len(unique) == len(ids):
                a.find(f"{player.name} chose {len(unique)} action card{'s' if len(unique) != 1 else ''}; "
                       f"each round every player chooses {picks}", player.name, Severity.ERROR, "the round: select (rulebook; digest §3)")
            for i in unique:
                if actions[i]["advanced_only"] and not a.state.advanced:
                    a.find(f"{player.name} chose {actions[i]['card']}, which is only in the advanced 2-player game", player.name, Severity.ERROR, "advanced 2-player game (digest §3)")
            order = list(actions)
            choices[player.name] = tuple(sorted(unique, key=order.index))
        steps = plan_phases(choices, a.state.advanced)
        a.state = replace(
            a.state,
            players=tuple(replace(p, actions=choices[p.name]) for p in a.state.players),
            stage=Stage.PHASES if steps else Stage.ROUND_END,
            round=a.state.round + 1,
            steps=steps,
            step=0,
            phase_count=a.state.phase_count + (1 if steps else 0),
        )
        self._reset_phase(a)

    def _action_chosen(self, a: _Apply) -> None:
        """One player's action card(s), hidden until all have chosen; then revealed as ``actions_selected``
        (simultaneous selection, digest §3)."""
        player = a.player()
        raw = a.payload("actions")
        ids = [raw] if isinstance(raw, str) else raw
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise a.bad(f"'actions' must be an action id or a list of ids, got {raw!r}")
        actions = _actions()
        for i in ids:
            if i not in actions:
                raise a.bad(f"unknown action {i!r}; actions: {', '.join(actions)}")
        chosen = dict(a.state.chosen)
        if player.name in chosen:  # a corrected mis-tap: the card is still face down, so the new pick counts
            a.find(
                f"{player.name} chose again before the reveal; the new choice replaces the earlier one",
                player.name,
                Severity.INFO,
                "the round: select, secretly and face down until all reveal (rulebook; digest §3)",
            )
        chosen[player.name] = tuple(ids)
        if any(p.name not in chosen for p in a.state.players):
            a.state = replace(a.state, chosen=tuple(chosen.items()))
            return
        a.state = replace(a.state, chosen=())
        a.event = replace(a.event, payload={"choices": {name: list(ids) for name, ids in chosen.items()}})
        self._actions_selected(a)

    def _reset_phase(self, a: _Apply) -> None:
        a.state = replace(
            a.state,
            players=tuple(replace(p, placed_in_phase=0, extra_military=0, free_world=False, produce_used=()) for p in a.state.players),
        )

    def _phase_done(self, a: _Apply) -> None:
        state = a.state
        step = state.current
        if step is None:
            a.find("no phase is being played", "table", Severity.WARNING, "the round (digest §3)")
            return
        named = a.event.payload.get("phase")
        if named is not None and named != step.phase:
            a.find(f"phase {named!r} reported done, but the phase being played is {step.label}", "table", Severity.WARNING, "the round (digest §3)")
        more = state.step + 1 < len(state.steps)
        a.state = replace(
            state,
            step=state.step + 1,
            stage=Stage.PHASES if more else Stage.ROUND_END,
            phase_count=state.phase_count + (1 if more else 0),
        )
        self._reset_phase(a)

    def _round_end(self, a: _Apply) -> None:
        state = a.state
        if state.stage is Stage.PHASES:
            left = ", ".join(s.label for s in state.steps[state.step :])
            a.find(f"round {state.round} ended before these phases were played: {left}", "table", Severity.WARNING, "the round (digest §3)")
        elif state.stage is not Stage.ROUND_END:
            a.find("no round is being played", "table", Severity.WARNING, "the round (digest §3)")
            return
        hands = a.event.payload.get("hands") or {}
        if not isinstance(hands, Mapping):
            raise a.bad(f"'hands' must map players to card counts, got {hands!r}")
        self._close_round(a, hands)

    def _close_round(self, a: _Apply, hands: Mapping[str, Any]) -> None:
        limit = facts()["hand_limit"]["value"]
        for name, count in hands.items():
            try:
                player = a.state.player(name)
            except KeyError:
                raise a.bad(f"'hands' names no player {name!r}") from None
            a.put(replace(player, hand=a.count(f"hands.{name}", count)))
        for player in a.state.players:
            if player.hand is not None and player.hand > limit:
                a.find(
                    f"{player.name} ends round {a.state.round} with {player.hand} cards in hand; discard down to {limit}",
                    player.name,
                    Severity.ERROR,
                    "end of round: hand limit (rulebook; digest §3)",
                )
        over = bool(a.state.ending)
        if over:
            a.find(f"game over after round {a.state.round}: {'; '.join(a.state.ending)}", "table", Severity.INFO, "end of game (digest §6)")
        a.state = replace(
            a.state,
            stage=Stage.OVER if over else Stage.SELECT,
            players=tuple(replace(p, actions=()) for p in a.state.players),
        )

    # -- placing and discarding cards ---------------------------------------------------------
    def _card_placed(self, a: _Apply) -> None:
        player, card = a.player(), a.card("card")
        step = a.state.current
        phase = "develop" if card.is_development else "settle"
        rule = f"{_phase(phase)['name']} phase (rulebook; digest §4 {ROMAN[_phase(phase)['number']]})"
        where = f"{player.name}: {card.name}"
        if step is None or step.phase != phase:
            now = step.label if step else a.state.stage.value
            a.find(f"{card.name} placed outside the {_phase(phase)['name']} phase (now: {now})", where, Severity.WARNING, rule)
        elif player.placed_in_phase:
            a.find(f"{player.name} places a second card in one {step.label} phase (one per phase)", where, Severity.ERROR, rule)
        in_play = sum(1 for p in a.state.players for c in p.tableau if c.card == card.name)
        if card.is_development and player.find(card.name) is not None:
            a.find(f"{player.name} already has {card.name}: a tableau holds one copy of each development", where, Severity.ERROR, rule)
        elif in_play >= card.count:
            a.find(f"{card.name} is already in play {in_play} time(s) and the deck has {card.count}: misread?", where, Severity.WARNING, "components (seed)")
        bonus = step.bonus_for(player.name) if step else ()
        paid = a.event.payload.get("paid")
        if paid is not None:
            paid = a.count("paid", paid)
        method = a.event.payload.get("method", "conquer" if card.military else "pay")
        if method not in ("conquer", "pay"):
            raise a.bad(f"'method' must be 'conquer' or 'pay', got {method!r}")
        if card.military and method == "conquer":
            military = military_against(player, card, a.state.phase_count)
            if military < (card.defense or 0):
                a.find(
                    f"{player.name} conquers {card.name} (defense {card.defense}) with only {military} Military",
                    where,
                    Severity.ERROR,
                    "Settle phase: military worlds (rulebook; digest §4 III)",
                )
        elif card.military:
            contact = any(p.has("PAY_MILITARY") for c in _active(player, a.state.phase_count) for p in c.powers_in(3))
            if not contact:
                a.find(f"{player.name} pays for the military world {card.name} without Contact Specialist", where, Severity.ERROR, "Settle phase: military worlds (rulebook; digest §4 III)")
            elif card.is_alien:
                a.find(f"Contact Specialist cannot pay for the Alien military world {card.name}", where, Severity.ERROR, "Settle phase: Contact Specialist (rulebook; digest §4 III)")
            due = 0 if player.free_world else max(0, (card.defense or 0) - 1 - _reduction(player, card, a.state.phase_count))
            self._check_paid(a, where, card, paid, due, rule)
        else:
            discount = sum(_actions()[i].get("discount", 0) for i in bonus)
            free = player.free_world and card.is_world and card.goods != "alien"  # Colony Ship's text
            due = 0 if free else max(0, card.cost - _reduction(player, card, a.state.phase_count) - discount)
            self._check_paid(a, where, card, paid, due, rule)
        good = a.event.payload.get("good", card.is_windfall)
        if good and not card.is_windfall:
            a.find(f"{card.name} gets no good when placed (only windfall worlds do)", where, Severity.ERROR, "Settle phase: windfall worlds (rulebook; digest §4 III)")
        placed = Placed(card.name, good=bool(good), placed_at=a.state.phase_count, windfall_received=bool(good))
        player = replace(
            player,
            tableau=(*player.tableau, placed),
            placed_in_phase=player.placed_in_phase + 1,
            free_world=player.free_world and not card.is_world,
        )
        a.put(player)
        a.check_tableau_end(player)

    def _check_paid(self, a: _Apply, where: str, card: Card, paid: int | None, due: int, rule: str) -> None:
        if paid is not None and paid < due:
            a.find(f"{card.name} costs {due} card(s) here but {paid} were paid", where, Severity.ERROR, rule)

    def _card_discarded(self, a: _Apply) -> None:
        player, card = a.player(), a.card("card")
        where = f"{player.name}: {card.name}"
        index = player.find(card.name)
        if index is None:
            a.find(f"{card.name} is not in {player.name}'s tableau", where, Severity.ERROR, "card powers (rulebook; digest §5)")
            return
        placed = player.tableau[index]
        step = a.state.current
        settle = step is not None and step.phase == "settle"
        gain_military = sum(p.value for p in card.powers_in(3) if p.has("DISCARD", "EXTRA_MILITARY"))
        free = any(p.has("DISCARD", "REDUCE_ZERO") for p in card.powers_in(3))
        if (gain_military or free) and not settle:
            a.find(f"{card.name} is discarded for its Settle power outside a Settle phase", where, Severity.WARNING, "card powers (rulebook; digest §5)")
        if placed.placed_at >= a.state.phase_count and a.state.phase_count:
            a.find(f"{card.name} is used in the phase it was placed; its power works from the next phase", where, Severity.ERROR, "card powers: timing (rulebook; digest §5)")
        tableau = player.tableau[:index] + player.tableau[index + 1 :]
        a.put(
            replace(
                player,
                tableau=tableau,
                extra_military=player.extra_military + (gain_military if settle else 0),
                free_world=player.free_world or (free and settle),
            )
        )

    # -- goods --------------------------------------------------------------------------------
    def _world(self, a: _Apply) -> tuple[PlayerState, Card, int | None]:
        player, card = a.player(), a.card("world")
        return player, card, player.find(card.name)

    def _good_placed(self, a: _Apply) -> None:
        player, card, index = self._world(a)
        where = f"{player.name}: {card.name}"
        windfall_rule = "Settle phase: windfall worlds (rulebook; digest §4 III)"
        if index is None:
            a.find(f"{card.name} is not in {player.name}'s tableau", where, Severity.ERROR, "three uses of a card (seed)")
            return
        placed = player.tableau[index]
        step = a.state.current
        producing = step is not None and step.phase == "produce"
        used = player.produce_used
        if not (card.is_world and card.goods):
            a.find(f"{card.name} does not produce or hold goods", where, Severity.ERROR, "three uses of a card (rulebook; digest §4 V)")
        elif placed.good:
            a.find(f"{card.name} already holds a good; a world holds at most one", where, Severity.ERROR, "Produce phase (digest §4 V)")
        elif card.is_production:
            if not producing:
                a.find(f"{card.name} is a production world: it gets goods only in the Produce phase", where, Severity.ERROR, "Produce phase (digest §4 V)")
        elif card.is_windfall:
            first = not placed.windfall_received and placed.placed_at == a.state.phase_count and a.state.stage in (Stage.PHASES, Stage.SETUP)
            if first:
                placed = replace(placed, windfall_received=True)
            elif not producing or step is None:
                a.find(f"a windfall good added to {card.name} outside its first placement", where, Severity.ERROR, windfall_rule)
            else:
                source = self._windfall_source(a, player, card, step)
                if source is None:
                    a.find(
                        f"{card.name} is a windfall world: it produces only with the Produce bonus or a windfall power, and {player.name} has none left",
                        where,
                        Severity.ERROR,
                        "Produce phase: windfall worlds (digest §4 V)",
                    )
                else:
                    used = (*used, source)
        tableau = player.tableau[:index] + (replace(placed, good=True),) + player.tableau[index + 1 :]
        a.put(replace(player, tableau=tableau, produce_used=used))

    def _windfall_source(self, a: _Apply, player: PlayerState, world: Card, step: PhaseStep) -> str | None:
        """An unused way to produce on windfall ``world`` now: a matching windfall power, else the Produce bonus."""
        wanted = {f"WINDFALL_{GOODS_QUALIFIER[world.goods]}", "WINDFALL_ANY"} if world.goods else set()
        for card in _active(player, a.state.phase_count):
            for power in card.powers_in(5):
                if wanted.intersection(power.code) and card.name not in player.produce_used:
                    return card.name
        bonuses = sum(_actions()[i].get("windfall_produce", 0) for i in step.bonus_for(player.name))
        if player.produce_used.count("bonus") < bonuses:
            return "bonus"
        return None

    def _good_removed(self, a: _Apply) -> None:
        player, card, index = self._world(a)
        where = f"{player.name}: {card.name}"
        if index is None or not player.tableau[index].good:
            a.find(f"no good lies on {card.name} in {player.name}'s tableau", where, Severity.ERROR, "Consume phase (digest §4 IV)")
            return
        step = a.state.current
        if step is None or step.phase != "consume":
            a.find(f"a good on {card.name} is consumed or sold outside the Consume phase", where, Severity.WARNING, "Consume phase (digest §4 IV)")
        tableau = player.tableau[:index] + (replace(player.tableau[index], good=False),) + player.tableau[index + 1 :]
        a.put(replace(player, tableau=tableau))

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
                    "chips": p.chips,
                    "hand": p.hand,
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
            round=state.round, round_label=f"Round {state.round}" if state.round else "Setup", stage=state.stage.value,
            last_round=bool(state.ending), ending=state.ending, over=state.stage is Stage.OVER,
            waiting=tuple(p.name for p in state.players if p.name not in chosen) if choosing else (),
        )

    def scores(self, state: RaceState) -> list[ScoreBreakdown]:
        """Each player's score as the table stands (the final score once the game is over)."""
        deck = cards()
        return [
            score_player(PlayerRecord(p.name, p.chips, tuple(deck[c.card] for c in p.tableau), p.goods, p.hand or 0))
            for p in state.players
        ]

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """Score one end-of-game record (one line of the oracle file); see :func:`rules.race.scoring.final_scores`."""
        return final_scores(data)


RACE_GAME = RaceGame()
