"""Roll for the Galaxy as a :class:`rules.core.Game`: the declaration, the state API and the handler table.

The engine never rolls or decides for the players. Each event reports what happened at
the table (a roll read by the camera, an assignment, a tile built, a good shipped...);
:meth:`RollGame.apply` returns the new state and *findings* for what breaks a rule. A
finding never stops the game: the state still follows the report, and the players decide
(an ``undo`` event withdraws a wrong report).

The rules live one module per part of the round, each holding its events' handlers:
:mod:`.events` (the event kinds and payload readers), :mod:`.setup` (p.2), :mod:`.assign`
(p.3-4 Roll, Assign, Reveal), :mod:`.phases` (p.4), :mod:`.explore` (p.5), :mod:`.build`
(p.6 Develop, Settle), :mod:`.goods` (p.7 Produce, Ship), :mod:`.manage` (p.8 Manage Empire,
End check) and :mod:`.moves` (what every phase shares: credits, VP chips, workers, dice).

Page numbers ("p.N") are those of the rulebook (Greek edition, Red Meeple v.3,
``shared/seeds/000_1d34022fb175a604.txt``); "digest section N" is the English digest
``shared/rules/roll-for-the-galaxy.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Finding, GameInfo, Option, Progress, Rename, ScoreBreakdown
from rules.engine import EventContext, GameBase
from rules.roll import assign, build, explore, goods, manage, moves, phases, setup
from rules.roll.data import PHASES, Catalogue, catalogue
from rules.roll.endgame import final_scores, score_positions
from rules.roll.events import (
    ASSIGN,
    CREDITS_CHANGED,
    DICE_COUNTED,
    DIE_REMOVED,
    EXPLORED,
    GAME_END,
    GOODS_PLACED,
    GOODS_SHIPPED,
    PHASE,
    PHASE_SELECTED,
    PLAYER_SETUP,
    RECALL,
    RECRUIT,
    REVEAL,
    ROLL,
    TILE_BUILT,
    TRACKING,
    VP_CHANGED,
    VP_PER_PLAYER,
)
from rules.roll.powers import Reminder, reminders_for
from rules.roll.state import PlayerState, RollState, Stage
from rules.roll.words import FIELD_WORDS
from rules.settings import check_settings
from rules.text import N_, Text

__all__ = ["EVENT_KINDS", "INFO", "ROLL_GAME", "RollGame"]


INFO = GameInfo(
    name="roll",
    title="Roll for the Galaxy",
    bgg_id=132531,
    players=(2, 5),  # Roll for the Galaxy, p.1: a game for 2-5 players
    options=(
        Option(
            "tracking", "choice", default="full", choices=TRACKING, offered=False,
            help=Text("what the box follows: full (every die, the construction zone and the workers; Roll for the "
                 "Galaxy, p.3-8) or tableau (tiles built, goods, VP chips and credits as players report them)"),
        ),
    ),
    score_input="json",
    rulebook="Roll for the Galaxy rulebook, Greek edition (Red Meeple translation v.3)",
    score_rule=N_("p.8 Victory"),
    tiebreak=N_("dice in cup + credits"),  # p.8 Victory: dice in the cup (not the construction zone) + credits
    renames=(Rename("vp_taken", "vp_changed", keys=(("vp", "delta"),), since="issue 13"),),
)
"""Roll for the Galaxy's declaration (:class:`rules.core.GameInfo`)."""


class RollGame(GameBase):
    """Roll for the Galaxy: declaration plus a pure state transition (``apply``), ``view``, ``progress``, ``scores``."""

    info = INFO

    def __init__(self, cat: Catalogue | None = None) -> None:
        self._cat = cat

    @property
    def cat(self) -> Catalogue:
        return self._cat or catalogue()

    def initial_state(self, settings: Mapping[str, Any]) -> RollState:
        """The table before setup: ``settings["players"]`` lists 2-5 player names (Roll for the Galaxy, p.2 Setup);
        ``settings["tracking"]`` is ``"full"`` (default) or ``"tableau"`` (:data:`TRACKING`).

        The VP pool holds 12 VP per player, and 10 more are set aside (Roll for the Galaxy, p.2 Setup).

        Raises:
            BadSettings: no players list, duplicate names, not 2-5 players, an unknown tracking.
        """
        checked = check_settings(self.info, settings)
        return RollState(
            tracking=checked["tracking"],
            players=tuple(PlayerState(name=n) for n in checked.players),
            vp_pool=VP_PER_PLAYER * len(checked.players),
            bag=tuple(t.id for t in self.cat.game_tiles),
        )

    def view(self, state: RollState) -> dict[str, Any]:
        """JSON summary for the touchscreen and the phone: stage, round, pool, bag, ending, players, reminders."""
        stage = state.stage.value
        return {
            "game": self.name,
            "stage": stage,
            "round": state.round,
            "selected": list(state.selected),
            "extra_white": state.extra_white,
            "vp_pool": state.vp_pool,
            "tracking": state.tracking,
            "vp_reserve": state.vp_reserve,
            "bag": len(state.bag),
            "last_round": bool(state.ending),
            "ending": list(state.ending),
            "players": [_player_json(p) for p in state.players],
            # Reassign powers are used right after the roll, so roll and assign show them.
            "reminders": [r.to_json() for r in self.reminders(state,
                                                              "assign" if stage in ("roll", "assign") else stage)],
        }

    def scores(self, state: RollState) -> list[ScoreBreakdown]:
        """Each player's score as the table stands (Roll for the Galaxy, p.8 Victory), in seat order; final
        once the game is over and the dice are counted."""
        return score_positions([p.end_position() for p in state.players], self.cat)

    def progress(self, state: RollState) -> Progress:
        """Round and stage (Roll for the Galaxy, p.3 Rounds: roll, assign, reveal, the selected phases I-V,
        Manage Empire); the last round once an end condition is met (p.8 End check). Waiting: before the
        first round, the players whose setup is not reported; while assigning, those with no phase selected."""
        stage = state.stage
        if stage is Stage.SETUP:
            waiting = tuple(p.name for p in state.players if p.faction is None)
        elif stage in (Stage.ROLL, Stage.ASSIGN):
            waiting = tuple(p.name for p in state.players if not p.selected)
        else:
            waiting = ()
        return Progress(
            round=state.round, round_label=Text("Round {round}",
                                                round=state.round) if state.round else Text("Setup"), stage=stage.value,
            last_round=bool(state.ending), ending=state.ending, over=stage is Stage.OVER,
            waiting=waiting,
        )

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """Score an end-of-game input (``companion score roll FILE``); see :func:`rules.roll.endgame.final_scores`."""
        return final_scores(data, self.cat)

    def settled(self, state: RollState, finding: Finding) -> bool:
        """Whether ``finding`` asked the table for something it has given since, in ``state``: the note "say which
        (Die removed)" once the tile's removed die is said (Roll for the Galaxy, p.11 FAQ, Immediate effects: the
        tile removes one die, once). Undo of that Die removed makes the note hold again. Every other finding: False.
        """
        if finding.rule_kind != moves.REMOVAL_OWED:
            return False
        owner = next((p for p in state.players if p.name == finding.player), None)
        return owner is not None and finding.card not in owner.removals_owed

    def reminders(self, state: RollState, phase: str | None = None) -> list[Reminder]:
        """Reminders of the powers the engine does not apply, for ``phase`` (all phases if None)."""
        out: list[Reminder] = []
        for p in state.players:
            out.extend(reminders_for(p.name, p.developments, self.cat, phase))
        return out

    def after(self, state: RollState, ctx: EventContext) -> RollState:
        """After every event: the end check (Roll for the Galaxy, p.8 End check)."""
        return manage.check_end(self, state, ctx)

    field_words = FIELD_WORDS
    handlers = {
        PLAYER_SETUP: setup.on_player_setup,
        ROLL: assign.on_roll,
        ASSIGN: assign.on_assign,
        PHASE_SELECTED: assign.on_phase_selected,
        REVEAL: assign.on_reveal,
        PHASE: phases.on_phase,
        EXPLORED: explore.on_explored,
        TILE_BUILT: build.on_tile_built,
        DIE_REMOVED: build.on_die_removed,
        GOODS_PLACED: goods.on_goods_placed,
        GOODS_SHIPPED: goods.on_goods_shipped,
        VP_CHANGED: moves.on_vp_changed,
        CREDITS_CHANGED: moves.on_credits_changed,
        RECRUIT: manage.on_recruit,
        RECALL: manage.on_recall,
        GAME_END: manage.on_game_end,
        DICE_COUNTED: manage.on_dice_counted,
    }
    """Event kind -> handler ``(game, state, ctx) -> state``, one module per part of the round."""


ROLL_GAME = RollGame()
EVENT_KINDS = ROLL_GAME.event_kinds
"""Every Roll for the Galaxy event kind (the keys of :attr:`RollGame.handlers`)."""


def _player_json(p: PlayerState) -> dict[str, Any]:
    return {
        "name": p.name,
        "faction": p.faction,
        "home_world": p.home_world,
        "developments": list(p.developments),
        "worlds": list(p.worlds),
        "tiles": p.tile_count,
        "construction_zone": {
            "development": list(p.dev_stack),
            "world": list(p.world_stack),
            "development_workers": p.dev_workers.to_json(),
            "world_workers": p.world_workers.to_json(),
        },
        "goods": {w: list(cs) for w, cs in p.goods},
        "cup": p.cup.to_json(),
        "citizenry": p.citizenry.to_json(),
        "columns": {ph: p.column(ph).to_json() for ph in PHASES},
        "dictate": p.dictate.to_json(),
        "selected": p.selected,
        "credits": p.credits,
        "vp_chips": p.vp_chips,
        # this Ship phase's VP in chips (p.7 Ship), counted once: what the shipments paid and what was reported
        "ship_vp": {"paid": p.ship_paid, "reported": p.ship_chips},
        "removals_owed": list(p.removals_owed),  # tiles built whose removed die is not said yet (p.11 FAQ)
    }
