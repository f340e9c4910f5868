"""Roll for the Galaxy table state: frozen dataclasses the engine derives from the event log.

Roll for the Galaxy, p.2 Setup and digest section 4 ('Where dice go'): each player has a
tableau, a construction zone (two stacks, workers on their top tiles), a cup, a Citizenry,
dice on the phase strip, credits and VP chips; the table has the VP pool, the 10 VP set
aside and the bag.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from rules.roll.data import PHASES
from rules.roll.dice import Dice
from rules.roll.endgame import EndPosition

__all__ = ["ORDER", "VP_SET_ASIDE", "PlayerState", "RollState", "Stage"]

VP_SET_ASIDE = 10  # Roll for the Galaxy, p.2 Setup: another 10 VP set aside for the last round


class Stage(str, enum.Enum):
    """Where the round is (the stage): setup, then per round roll -> assign -> reveal -> phases I-V -> manage; over."""

    SETUP = "setup"
    ROLL = "roll"
    ASSIGN = "assign"
    REVEAL = "reveal"
    EXPLORE = "explore"
    DEVELOP = "develop"
    SETTLE = "settle"
    PRODUCE = "produce"
    SHIP = "ship"
    MANAGE = "manage"
    OVER = "over"


ORDER = [s.value for s in Stage]


@dataclass(frozen=True)
class PlayerState:
    """One player's empire (Roll for the Galaxy, p.2 Setup, digest section 4 'Where dice go').

    ``developments``/``worlds`` are the tableau (faction tile's and home world's sides
    included); ``built`` lists the game tiles built, in order. The construction zone is two
    stacks, top first, with ``dev_workers``/``world_workers`` on their top tiles.
    ``columns`` holds the workers assigned this round by phase, ``dictate`` the Dictate area.
    """

    name: str
    faction: int | None = None
    home_world: str | None = None
    developments: tuple[str, ...] = ()
    worlds: tuple[str, ...] = ()
    built: tuple[str, ...] = ()
    dev_stack: tuple[str, ...] = ()
    world_stack: tuple[str, ...] = ()
    dev_workers: Dice = field(default_factory=Dice)
    world_workers: Dice = field(default_factory=Dice)
    goods: tuple[tuple[str, tuple[str, ...]], ...] = ()
    cup: Dice = field(default_factory=Dice)
    citizenry: Dice = field(default_factory=Dice)
    columns: tuple[Dice, ...] = (Dice(),) * len(PHASES)
    dictate: Dice = field(default_factory=Dice)
    selected: str | None = None
    assigned: bool = False
    credits: int = 1
    vp_chips: int = 0
    ship_chips: int = 0  # VP chips reported (``vp_changed``) in this Ship phase
    ship_consumed: int = 0  # goods consumed for VP in this Ship phase
    ship_paid: int = 0  # VP in chips the box paid for this Ship phase's shipments (Consume, Galactic Bankers)
    removals_owed: tuple[str, ...] = ()  # tiles built whose "remove one of your dice" is not said yet (die_removed)

    @property
    def tile_count(self) -> int:
        """Tiles for the end check: the faction tile counts 2, so everyone starts at 3 (Roll for the Galaxy, p.12)."""
        return (2 if self.faction is not None else 0) + (1 if self.home_world else 0) + len(self.built)

    @property
    def tableau(self) -> tuple[str, ...]:
        return self.developments + self.worlds

    def goods_on(self, world: str) -> tuple[str, ...]:
        return dict(self.goods).get(world, ())

    @property
    def goods_dice(self) -> Dice:
        return Dice.from_list(c for _, cs in self.goods for c in cs)

    def column(self, phase: str) -> Dice:
        return self.columns[PHASES.index(phase)]

    def with_column(self, phase: str, dice: Dice) -> PlayerState:
        cols = list(self.columns)
        cols[PHASES.index(phase)] = dice
        return replace(self, columns=tuple(cols))

    def with_goods(self, world: str, colours: tuple[str, ...]) -> PlayerState:
        goods = dict(self.goods)
        if colours:
            goods[world] = colours
        else:
            goods.pop(world, None)
        return replace(self, goods=tuple((w, goods[w]) for w in self.worlds if w in goods))

    @property
    def workers(self) -> Dice:
        out = self.dictate
        for d in self.columns:
            out = out + d
        return out

    @property
    def owned_dice(self) -> Dice:
        """Every die the player has, wherever it is (digest section 9)."""
        return self.cup + self.citizenry + self.workers + self.dev_workers + self.world_workers + self.goods_dice

    def end_position(self) -> EndPosition:
        return EndPosition(
            name=self.name,
            vp_chips=self.vp_chips,
            credits=self.credits,
            developments=self.developments,
            worlds=self.worlds,
            goods=self.goods,
            cup=self.cup + self.workers,  # the strip is empty at scoring; anything left counts as cup
            citizenry=self.citizenry,
            construction_zone=self.dev_workers + self.world_workers,
            faction=self.faction,
        )


@dataclass(frozen=True)
class RollState:
    """The whole table: players, the round's stage and selected phases, the VP pool and the bag.

    ``vp_pool`` is what is left of the original pool (12 VP per player), ``vp_reserve`` of the
    10 VP set aside (Roll for the Galaxy, p.2 Setup). ``bag`` holds the ids of the game tiles in the bag,
    ``returned`` those under the Explore phase tile until the end of Explore (Roll for the Galaxy, p.5).
    """

    players: tuple[PlayerState, ...]
    stage: Stage = Stage.SETUP
    round: int = 0
    selected: tuple[str, ...] = ()
    extra_white: str | None = None
    vp_pool: int = 0
    vp_reserve: int = VP_SET_ASIDE
    bag: tuple[int, ...] = ()
    returned: tuple[int, ...] = ()
    ending: tuple[str, ...] = ()
    tracking: str = "full"  # settings "tracking" (rules.roll.events.TRACKING)

    def player(self, name: str) -> PlayerState:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, p: PlayerState) -> RollState:
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))
