"""Race for the Galaxy table state: frozen dataclasses the engine derives from the event log, and the
facts the rounds and the card powers need (which phases a round plays, Military, cost reductions).

A round (the round: select, reveal, the selected phases in order I-V, end of round): a phase nobody
chose is skipped, a phase chosen by several players is played once and each chooser gets the
bonus; the advanced 2-player game doubles Develop and Settle for a player who chose both cards.
A card's powers work from the phase after the one it was placed in (card powers: timing).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.names import term
from rules.race.cards import GOODS_QUALIFIER, Card, cards, facts
from rules.text import Text

__all__ = ["ROMAN", "STAGE_WORDS", "PhaseStep", "Placed", "PlayerState", "RaceState", "Stage", "active_cards",
           "military_against",
           "plan_phases", "put", "reduction", "stage_word"]

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
        """``"II Develop"``, ``"III Settle (second)"`` (a :class:`rules.text.Text`: the phase as the players' edition
        names it)."""
        number, phase = ROMAN[phase_facts(self.phase)["number"]], term("race.phase", self.phase)
        if self.second:
            return Text("{number} {phase} (second)", number=number, phase=phase)
        return Text("{number} {phase}", number=number, phase=phase)


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
    vp_chips: int = 0
    hand: int | None = None
    hand_round: int = 0  # the round of that count (0: none yet)
    actions: tuple[str, ...] = ()
    placed_in_phase: int = 0  # cards placed in the current phase
    extra_military: int = 0  # from discarded New Military Tactics, until the end of this Settle phase
    free_world: bool = False  # discarded Colony Ship: the next world this Settle phase is free
    produce_used: tuple[str, ...] = ()  # windfall-production sources used this Produce phase
    consumed: int = 0  # goods consumed or sold this Consume phase
    chips_taken: int = 0  # VP chips taken this Consume phase

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


def put(state: RaceState, player: PlayerState) -> RaceState:
    """``state`` with ``player`` replacing the player of the same name."""
    return replace(state, players=tuple(player if p.name == player.name else p for p in state.players))


def phase_facts(phase_id: str) -> Mapping[str, Any]:
    return next(p for p in facts()["phases"] if p["id"] == phase_id)


def action_facts() -> dict[str, Mapping[str, Any]]:
    return {a["id"]: a for a in facts()["actions"]}


def plan_phases(choices: Mapping[str, tuple[str, ...]], advanced: bool = False) -> tuple[PhaseStep, ...]:
    """The phases a round plays, in order, for the players' chosen action ids.

    A phase nobody chose is skipped; a phase chosen by several players is played once and
    each chooser gets the bonus (digest §3). Advanced 2-player game: a player who chose
    both cards of a doubled phase (``second_of``) adds a second such phase in which only
    they get the bonus; a player who chose it once gets the bonus in the first only.
    """
    actions = action_facts()
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


def active_cards(player: PlayerState, phase_count: int) -> list[Card]:
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
    for card in active_cards(player, phase_count):
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


def reduction(player: PlayerState, card: Card, phase_count: int) -> int:
    """Cost reduction from ``REDUCE`` powers for placing ``card`` (II for developments, III for worlds)."""
    phase = 2 if card.is_development else 3
    total = 0
    for c in active_cards(player, phase_count):
        for power in c.powers_in(phase):
            if power.code[0] != "REDUCE":
                continue
            qualifiers = power.code[1:]
            if "ALIEN" in qualifiers and not card.is_alien:
                continue
            if any(q in qualifiers for q in ("NOVELTY", "RARE",
                                             "GENE")) and GOODS_QUALIFIER.get(card.goods or "") not in qualifiers:
                continue
            total += power.value
    return total


STAGE_WORDS = {"setup": Text("setup"), "phases": Text("the phases"), "round_end": Text("the end of the round"),
               "select": Text("the action card selection"), "over": Text("the end of the game")}
"""Where the game is (a :class:`Stage`), in the players' words."""


def stage_word(stage: Stage) -> str:
    """Where the game is (a :class:`Stage`), in the players' words (for messages)."""
    return STAGE_WORDS[stage.value]
