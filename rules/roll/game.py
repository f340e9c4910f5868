"""Roll for the Galaxy as a :class:`rules.core.Game`: the state the table reports, checked.

The engine never rolls or decides for the players. Each event reports what happened at
the table (a roll read by the camera, an assignment, a tile built, a good shipped...);
:meth:`RollGame.apply` returns the new state and *findings* for what breaks a rule. A
finding never stops the game: the state still follows the report, and the players decide
(an ``undo`` event withdraws a wrong report).

Page numbers ("p.N") are those of the rulebook (Greek edition, Red Meeple v.3,
``shared/seeds/000_1d34022fb175a604.txt``); "digest section N" is the English digest
``shared/rules/roll-for-the-galaxy.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core import GameInfo, Option, Progress, Rename, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.settings import check_settings
from rules.roll.data import COLOURS, FACES, PHASES, Catalogue, Development, World, catalogue
from rules.roll.dice import Dice
from rules.roll.endgame import MAX_CREDITS, final_scores, good_capacity, score_positions
from rules.roll.powers import Reminder, adjusted_cost, reassign_budget, reminders_for
from rules.roll.state import ORDER, PlayerState, RollState, Stage
from rules.scoring import ceil_div, closest_names

__all__ = [
    "ASSIGN",
    "CREDITS_CHANGED",
    "DICE_COUNTED",
    "EVENT_KINDS",
    "EXPLORED",
    "GAME_END",
    "GOODS_PLACED",
    "GOODS_SHIPPED",
    "PHASE",
    "PHASE_SELECTED",
    "PLAYER_SETUP",
    "TRACKING",
    "RECALL",
    "RECRUIT",
    "REVEAL",
    "ROLL",
    "ROLL_GAME",
    "TILE_BUILT",
    "VP_CHANGED",
    "PlayerState",
    "RollGame",
    "RollState",
    "Stage",
]

# --- Event kinds -------------------------------------------------------------------------

PLAYER_SETUP = "player_setup"
"""A player's starting tiles (Roll for the Galaxy, p.2 Setup). ``player``; payload ``{"faction": number or a side
name, "home_world": name, "development": game-tile development name, "world": game-tile world name}``."""

ROLL = "roll"
"""A player's roll as read (Roll for the Galaxy, p.3 Roll); starts a round. payload ``{"dice": [{"colour", "face"}, ...]}``."""

ASSIGN = "assign"
"""A player's layout after Assign (Roll for the Galaxy, p.3 Assign). payload ``{"dice": [{"colour", "face", "column",
"selected": bool}]}``; ``column`` is a phase or ``"dictate"``; the one die with ``selected``
true is the phase-selection die and sits in the phase it selects."""

PHASE_SELECTED = "phase_selected"
"""A player's phase selection as reported without the dice (Roll for the Galaxy, p.3 Assign: each player
selects exactly one phase). ``player``; payload ``{"phase": phase, "extra_white": face (optional; 2-player
game: the extra white die, p.4 Reveal, reported by either player)}``. Starts a round after setup or Manage
Empire, like ``assign``; the dice stay where they were (use ``assign`` when the dice are read)."""

REVEAL = "reveal"
"""Screens off (Roll for the Galaxy, p.4 Reveal). payload ``{"extra_white": face or null}``: the extra white die of a
2-player game."""

PHASE = "phase"
"""The table moves on to a phase: payload ``{"phase": "explore" | ... | "ship" | "manage"}``.
Ends the phase in progress (its end-of-phase powers pay, unused workers go back)."""

EXPLORED = "explored"
"""An explorer's action (Roll for the Galaxy, p.5 Explore). ``player``; payload ``{"action": "stock" | "scout",
"colour": explorer colour, "returned": [tile names], "tiles": [{"tile", "stack": "development" |
"world", "top": bool}], "power": name (an extra explorer from a power: no die used)}``."""

TILE_BUILT = "tile_built"
"""A development or world completed (Roll for the Galaxy, p.6). ``player``; payload ``{"tile": name, "dice": {colour: n}
(the workers that completed it), "to_cup": {colour: n}, "remove": {"colour", "from"}}``."""

GOODS_PLACED = "goods_placed"
"""A producer becomes a good (Roll for the Galaxy, p.7 Produce). ``player``; payload ``{"world": name, "colour": die colour}``."""

GOODS_SHIPPED = "goods_shipped"
"""A shipper ships a good (Roll for the Galaxy, p.7 Ship). ``player``; payload ``{"world", "good": colour, "shipper": colour,
"mode": "trade" | "consume", "power": name (extra shipper, no die), "bankers": bool}``."""

VP_CHANGED = "vp_changed"
"""VP chips taken from the pool for another reason (the same kind in every game: a player's VP change).
``player``; payload ``{"delta": n >= 1, "reason": str}``. Logs before issue 13 wrote ``vp_taken``
``{"vp": n}`` (:attr:`INFO.renames <rules.core.GameInfo.renames>`)."""

CREDITS_CHANGED = "credits_changed"
"""Credits reported or changed. ``player``; payload ``{"credits": new value}`` or ``{"delta": n}``, ``"reason"``."""

RECRUIT = "recruit"
"""Manage Empire, Recruit (Roll for the Galaxy, p.8). ``player``; payload ``{"dice": {colour: n}}`` moved Citizenry -> cup at $1 each."""

RECALL = "recall"
"""Manage Empire, Recall (Roll for the Galaxy, p.8). ``player``; payload ``{"development": {colour: n}, "world": {colour: n},
"goods": [{"world", "colour"}]}`` back to the cup."""

GAME_END = "game_end"
"""The table declares the game over (Roll for the Galaxy, p.8 End check). payload ``{}``."""

DICE_COUNTED = "dice_counted"
"""A player's dice counted by colour for final scoring (Roll for the Galaxy, p.8 Victory: the cost-6
bonuses that count dice, and the tie-break 'dice in cup + credits'). ``player``; payload
``{"cup": {colour: n}, "citizenry": {colour: n}, "construction_zone": {colour: n}, "read": {...}}``, each place
optional (at least one; ``"read"``: what the camera saw, kept as it is): a place given replaces what the engine holds there (the camera's count wins over what was
followed, in either tracking mode); a place left out is kept. ``"citizenry"`` may hold every die
outside the cup and the goods when the construction zone is not counted apart (both are owned dice
outside the cup, so they score the same). Counting the cup or the citizenry also clears the phase
strip and the Dictate area, which are empty when the game is scored (digest section 7 'Owned dice').
Goods are not counted here: they are the ``goods_placed`` reports, and are never cup dice for the
tie-break. A purple die is counted as purple (p.8: purple matches other colours only when consuming)."""


VP_PER_PLAYER = 12  # Roll for the Galaxy, p.2 Setup: 12 VP per player in the pool
END_TILES = 12  # Roll for the Galaxy, p.8 End check: 12 or more tiles in a tableau
STACKS = ("development", "world")
TRACKING = ("full", "tableau")
"""``settings["tracking"]``: ``"full"`` (default) follows every die and the construction zone;
``"tableau"`` follows only what players report at the table without the dice (tiles built, goods,
VP chips, credits): worker, cup and construction-zone checks are skipped, and a built tile that
is not in the player's construction zone is taken from the bag."""
DICE_FROM = ("cup", "citizenry", "development", "world", "goods", *PHASES)
DICE_COUNT_PLACES = ("cup", "citizenry", "construction_zone")
"""The places a ``dice_counted`` event may count (goods are the ``goods_placed`` reports)."""


# --- The game ----------------------------------------------------------------------------


INFO = GameInfo(
    name="roll",
    title="Roll for the Galaxy",
    bgg_id=132531,
    players=(2, 5),  # Roll for the Galaxy, p.1: a game for 2-5 players
    options=(
        Option(
            "tracking", "choice", default="full", choices=TRACKING, offered=False,
            help="what the box follows: full (every die, the construction zone and the workers; Roll for the "
                 "Galaxy, p.3-8) or tableau (tiles built, goods, VP chips and credits as players report them)",
        ),
    ),
    score_input="json",
    rulebook="Roll for the Galaxy rulebook, Greek edition (Red Meeple translation v.3)",
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

    # -- protocol --

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
            "reminders": [r.to_json() for r in self.reminders(state, "assign" if stage in ("roll", "assign") else stage)],
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
            round=state.round, round_label=f"Round {state.round}" if state.round else "Setup", stage=stage.value,
            last_round=bool(state.ending), ending=state.ending, over=stage is Stage.OVER,
            waiting=waiting,
        )

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """Score an end-of-game input (``companion score roll FILE``); see :func:`rules.roll.endgame.final_scores`."""
        return final_scores(data, self.cat)

    def reminders(self, state: RollState, phase: str | None = None) -> list[Reminder]:
        """Reminders of the powers the engine does not apply, for ``phase`` (all phases if None)."""
        out: list[Reminder] = []
        for p in state.players:
            out.extend(reminders_for(p.name, p.developments, self.cat, phase))
        return out

    # -- setup --

    def _on_player_setup(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.2 Setup: faction tile and home world face up; 3 white dice in the cup, 2 in the
        Citizenry, plus the dice shown on the faction and home worlds; $1 ($8 with Doomed World);
        one development and one world from the bag in the construction zone."""
        p = _player(state, ctx)
        if state.stage != Stage.SETUP:
            ctx.finding(f"{p.name}'s setup reported after the game started", p.name, Severity.ERROR, "p.2 Setup")
        if p.faction is not None:
            ctx.finding(
                f"{p.name} was already set up; the new setup replaces it", p.name, Severity.WARNING, "p.2 Setup"
            )
        cat = self.cat
        raw_faction = ctx.require("faction")
        try:
            faction = cat.faction(raw_faction)
        except KeyError:
            raise ctx.bad(f"unknown faction {raw_faction!r}") from None
        home = cat.worlds.get(_tile_name(ctx, self.cat, ctx.require("home_world")))
        if home is None or not home.home:
            raise ctx.bad(f"{ctx.payload['home_world']!r} is not a home world")
        dev = cat.developments.get(_tile_name(ctx, self.cat, ctx.require("development")))
        world = cat.worlds.get(_tile_name(ctx, self.cat, ctx.require("world")))
        if dev is None or dev.name not in cat.tile_of:
            raise ctx.bad(f"{ctx.payload['development']!r} is not the development side of a game tile")
        if world is None or world.name not in cat.tile_of:
            raise ctx.bad(f"{ctx.payload['world']!r} is not the world side of a game tile")
        for q in state.players:
            if q.name == p.name:
                continue
            if q.faction == faction.number:
                ctx.finding(
                    f"{q.name} already has faction tile {faction.names[0]}", p.name, Severity.ERROR, "p.1 Components"
                )
            if q.home_world == home.name:
                ctx.finding(f"{q.name} already has home world {home.name}", p.name, Severity.ERROR, "p.1 Components")
        if cat.tile_of[dev.name] == cat.tile_of[world.name]:
            ctx.finding(
                f"{dev.name} and {world.name} are the two sides of one tile; setup draws two tiles",
                p.name,
                Severity.ERROR,
                "p.2 Setup",
            )
        bag = list(state.bag)
        for tid, name in ((cat.tile_of[dev.name], dev.name), (cat.tile_of[world.name], world.name)):
            if tid in bag:
                bag.remove(tid)
            else:
                ctx.finding(
                    f"{name}'s tile is not in the bag (another player has it)", p.name, Severity.ERROR, "p.1 Components"
                )
        # Start from a clean player so a repeated setup replaces the first.
        p = PlayerState(name=p.name, faction=faction.number, home_world=home.name)
        devs = (faction.development.name,) if faction.development else ()
        worlds = tuple(w.name for w in faction.worlds) + (home.name,)
        p = replace(
            p,
            developments=devs,
            worlds=worlds,
            dev_stack=(dev.name,),
            world_stack=(world.name,),
            cup=Dice.of(white=3),
            citizenry=Dice.of(white=2),
            credits=home.effect.starting_credits or 1,
        )
        for w in (*faction.worlds, home):  # dice given only at setup (Roll for the Galaxy, p.2 'Important points')
            p = _gain_dice(p, w)
        return replace(state.with_player(p), bag=tuple(bag))

    # -- roll, assign, reveal --

    def _on_roll(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.3 Roll: each player rolls the dice in their cup. Starts a round after setup or Manage Empire."""
        if state.stage in (Stage.SETUP, Stage.MANAGE, Stage.OVER):
            state = self._start_round(state, ctx)
        p = _player(state, ctx)
        if state.stage not in (Stage.ROLL, Stage.ASSIGN):
            ctx.finding(f"a roll reported during {state.stage.value}", p.name, Severity.WARNING, "p.3 Rounds")
        dice = _dice_list(ctx, "dice", with_column=False)
        rolled = Dice.from_list(d["colour"] for d in dice)
        for d in dice:
            _check_face(ctx, self.cat, p.name, d["colour"], d["face"])
        _check_owned(ctx, p, rolled, p.cup + p.workers, "in the cup", "p.3 Roll")
        return state

    def _start_round(self, state: RollState, ctx: EventContext) -> RollState:
        if state.stage == Stage.OVER or (state.stage == Stage.MANAGE and state.ending):
            ctx.finding(
                f"the game ended after round {state.round} ({'; '.join(state.ending)})",
                "table",
                Severity.ERROR,
                "p.8 End check",
            )
        if state.stage == Stage.SETUP:
            for p in state.players:
                if p.faction is None:
                    ctx.finding(
                        f"{p.name} has no setup reported (faction, home world, construction zone)",
                        p.name,
                        Severity.WARNING,
                        "p.2 Setup",
                    )
        players = []
        for p in state.players:
            # Workers left on the strip go back to the cup; the 0 -> 1 credit bump (Roll for the Galaxy, p.8) if missed.
            p = replace(
                p,
                cup=p.cup + p.workers,
                columns=(Dice(),) * len(PHASES),
                dictate=Dice(),
                selected=None,
                assigned=False,
                credits=max(p.credits, 1) if state.stage == Stage.MANAGE else p.credits,
            )
            players.append(p)
        return replace(
            state, players=tuple(players), stage=Stage.ROLL, round=state.round + 1, selected=(), extra_white=None
        )

    def _on_assign(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.3 Assign: every die in a column; exactly one phase-selection die; Dictate and
        Reassign powers move other workers (each power once; digest section 9 checks)."""
        if state.stage == Stage.SETUP or state.stage == Stage.MANAGE:
            state = self._start_round(state, ctx)
        p = _player(state, ctx)
        if state.stage not in (Stage.ROLL, Stage.ASSIGN):
            ctx.finding(f"an assignment reported during {state.stage.value}", p.name, Severity.WARNING, "p.3 Rounds")
        dice = _dice_list(ctx, "dice", with_column=True)
        columns = {ph: Dice() for ph in PHASES}
        dictate = Dice()
        selections = []
        moves = 0
        for d in dice:
            colour, face, column = d["colour"], d["face"], d["column"]
            _check_face(ctx, self.cat, p.name, colour, face)
            if d.get("selected"):
                selections.append(d)
                if column == "dictate":
                    ctx.finding(
                        f"{p.name}'s phase-selection die is in the Dictate area", p.name, Severity.ERROR, "p.3 Assign"
                    )
            elif column != "dictate" and face not in (column, "wild"):
                moves += 1  # an off-face worker must have been Reassigned (Roll for the Galaxy, p.3 Assign)
            if column == "dictate":
                dictate = dictate.add(colour)
            else:
                columns[column] = columns[column].add(colour)
        if not selections:
            ctx.finding(
                f"{p.name} selected no phase; each player selects exactly one", p.name, Severity.ERROR, "p.3 Assign"
            )
        elif len(selections) > 1:
            phases = ", ".join(s["column"] for s in selections)
            ctx.finding(
                f"{p.name} reported {len(selections)} phase selections ({phases}); each player selects exactly one",
                p.name,
                Severity.ERROR,
                "p.3 Assign",
            )
        if dictate.total > 1 and "Backup Planning" not in p.developments:
            ctx.finding(
                f"{p.name} has {dictate.total} dice in the Dictate area; only one without Backup Planning",
                p.name,
                Severity.ERROR,
                "p.3 Assign",
            )
        budget = reassign_budget(p.developments, dictate.total, _alone_most_blue(state, p, self.cat), self.cat)
        if moves > budget:
            ctx.finding(
                f"{p.name} has {moves} workers in columns their faces do not show, but Dictate and "
                f"Reassign powers can move at most {budget}",
                p.name,
                Severity.WARNING,
                "p.3 Assign",
            )
        assigned = dictate
        for col in columns.values():
            assigned = assigned + col
        available = p.cup + p.workers
        _check_owned(ctx, p, assigned, available, "in the cup", "p.3 Assign")
        if assigned.total < available.total and available.covers(assigned):
            ctx.finding(
                f"{available.total - assigned.total} of {p.name}'s dice were not reported on the strip; "
                "every die is placed before Reveal",
                p.name,
                Severity.WARNING,
                "p.3 Assign",
            )
        p = replace(
            p,
            cup=available - assigned,
            columns=tuple(columns[ph] for ph in PHASES),
            dictate=dictate,
            selected=selections[0]["column"] if len(selections) == 1 else None,
            assigned=True,
        )
        return replace(state.with_player(p), stage=Stage.ASSIGN)

    def _on_phase_selected(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.3 Assign: each player selects exactly one phase (here reported without the
        dice); a second selection by the same player in a round replaces the first. 2 players: the extra
        white die (p.4 Reveal) may come with it."""
        if state.stage in (Stage.SETUP, Stage.MANAGE, Stage.OVER):
            state = self._start_round(state, ctx)
        p = _player(state, ctx)
        if state.stage not in (Stage.ROLL, Stage.ASSIGN):
            ctx.finding(f"a phase selection reported during {state.stage.value}", p.name, Severity.WARNING, "p.3 Rounds")
        phase = ctx.require("phase")
        if phase not in PHASES:
            raise ctx.bad(f"'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
        extra = ctx.payload.get("extra_white")
        if extra is not None:
            if extra not in FACES:
                raise ctx.bad(f"'extra_white' must be a face ({', '.join(FACES)}) or null, got {extra!r}")
            state = replace(state, extra_white=extra)
        if p.selected is not None and p.assigned:
            ctx.finding(
                f"{p.name} changed their phase selection from {p.selected} to {phase}", p.name, Severity.INFO, "p.3 Assign"
            )
        p = replace(p, selected=phase, assigned=True)
        return replace(state.with_player(p), stage=Stage.ASSIGN)

    def _on_reveal(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.4 Reveal: the selected phases happen; in a 2-player game an extra white die adds
        its phase (it never shows Wild). Dictated dice and workers of phases that do not
        happen return to the cup."""
        if state.stage not in (Stage.ROLL, Stage.ASSIGN):
            ctx.finding(f"Reveal reported during {state.stage.value}", "table", Severity.WARNING, "p.3 Rounds")
        selected = set()
        for p in state.players:
            if not p.assigned:
                ctx.finding(f"no assignment reported for {p.name}", p.name, Severity.WARNING, "p.4 Reveal")
            if p.selected:
                selected.add(p.selected)
        extra = ctx.payload["extra_white"] if "extra_white" in ctx.payload else state.extra_white
        if extra is not None and extra not in FACES:
            raise ctx.bad(f"'extra_white' must be a face ({', '.join(FACES)}) or null, got {extra!r}")
        if len(state.players) == 2:
            if extra is None:
                ctx.finding("2 players: the extra white die was not reported", "table", Severity.WARNING, "p.4 Reveal")
            elif extra not in self.cat.dice["white"].faces:
                ctx.finding(
                    f"the extra white die cannot show {extra} (a white die has no {extra} face)",
                    "table",
                    Severity.WARNING,
                    "p.4 Reveal",
                )
                extra = None
            else:
                selected.add(extra)
        elif extra is not None:
            ctx.finding(
                f"an extra white die is rolled only with 2 players, not {len(state.players)}; ignored",
                "table",
                Severity.WARNING,
                "p.4 Reveal",
            )
            extra = None
        players = []
        for p in state.players:
            back = p.dictate
            for ph in PHASES:
                if ph not in selected:
                    back = back + p.column(ph)
                    p = p.with_column(ph, Dice())
            players.append(replace(p, cup=p.cup + back, dictate=Dice()))
        order = tuple(ph for ph in PHASES if ph in selected)
        return replace(state, players=tuple(players), stage=Stage.REVEAL, selected=order, extra_white=extra)

    # -- phases --

    def _on_phase(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.4 Phases: only the selected phases run, in order I-V, then Manage Empire (Roll for the Galaxy, p.8).

        Ending a phase pays its end-of-phase powers and sends unused workers back (Roll for the Galaxy, p.4):
        developers/settlers stay on the top tile of a non-empty stack, others go to the cup.
        """
        target = ctx.require("phase")
        if target not in (*PHASES, "manage"):
            raise ctx.bad(f"'phase' must be one of {', '.join((*PHASES, 'manage'))}, got {target!r}")
        current = state.stage
        if current.value in PHASES:
            state = self._end_phase(state, current.value, ctx)
        elif current not in (Stage.REVEAL, Stage.ASSIGN, Stage.ROLL):
            ctx.finding(f"phase {target} reported during {current.value}", "table", Severity.WARNING, "p.3 Rounds")
        if target != "manage" and target not in state.selected:
            ctx.finding(
                f"phase {target} was not selected this round (selected: {', '.join(state.selected) or 'none'})",
                "table",
                Severity.ERROR,
                "p.4 Phases: only the selected phases run",
            )
        if ORDER.index(target) <= ORDER.index(current.value) and current.value in (*PHASES, "manage"):
            ctx.finding(
                f"phase {target} after {current.value}: phases run once each, in order I-V",
                "table",
                Severity.ERROR,
                "p.4 Phases",
            )
        skipped = [ph for ph in state.selected if ORDER.index(current.value) < ORDER.index(ph) < ORDER.index(target)]
        if skipped:
            ctx.finding(f"selected phase(s) {', '.join(skipped)} skipped", "table", Severity.WARNING, "p.4 Phases")
        return replace(state, stage=Stage(target))

    def _end_phase(self, state: RollState, phase: str, ctx: EventContext) -> RollState:
        cat = self.cat
        players = []
        for p in state.players:
            left = p.column(phase)
            p = p.with_column(phase, Dice())
            if phase == "develop" and p.dev_stack:
                p = replace(p, dev_workers=p.dev_workers + left)
            elif phase == "settle" and p.world_stack:
                p = replace(p, world_workers=p.world_workers + left)
            else:
                p = replace(p, cup=p.cup + left)
            players.append(p)
        state = replace(state, players=tuple(players))
        if phase == "explore":  # Roll for the Galaxy, p.5: returned tiles go back in the bag at the end of Explore
            state = replace(state, bag=state.bag + state.returned, returned=())
        for p in state.players:
            state = self._end_of_phase_powers(state, state.player(p.name), phase, ctx, cat)
        return state

    def _end_of_phase_powers(
        self, state: RollState, p: PlayerState, phase: str, ctx: EventContext, cat: Catalogue
    ) -> RollState:
        """End-of-phase powers that pay credits or VP (tile texts in rules/data/roll/tiles.json;
        p.11 FAQ 'round up' for Space Piracy: 3 red dice pay $2)."""
        owned = set(p.developments)
        gain: list[tuple[str, int]] = []
        vp = 0
        if (
            phase in ("explore", "produce")
            and "Technology Unions" in owned
            and _alone_most(state, p, lambda q: len(q.developments))
        ):
            gain.append(("Technology Unions", 1))
        if phase == "develop":
            if "Galactic Investors" in owned:
                gain.append(("Galactic Investors", 2))
            if "Galactic Religion" in owned:
                gain.append(("Galactic Religion", p.citizenry["blue"]))
        if phase == "settle" and "Robot Surveyors" in owned:
            gain.append(("Robot Surveyors", 2))
        if phase == "produce":
            on = [(cat.worlds[w], cs) for w, cs in p.goods]
            if "Consumer Markets" in owned:
                gain.append(("Consumer Markets", sum(len(cs) for w, cs in on if w.colour == "blue")))
            if "Genetics Lab" in owned:
                gain.append(("Genetics Lab", 2 * sum(cs.count("green") for _, cs in on)))
            if "Merchant Guild" in owned:
                gain.append(("Merchant Guild", 2))
            if "Mining League" in owned:
                gain.append(("Mining League", sum(len(cs) for w, cs in on if w.colour == "brown")))
        if phase == "ship":
            if "Free Trade Association" in owned:
                gain.append(("Free Trade Association", 2))
            if "Space Piracy" in owned:
                gain.append(("Space Piracy", ceil_div(p.citizenry["red"], 2)))
            if "Space Tourism" in owned:
                gain.append(("Space Tourism", 1 + (1 if _owns_all_top_worlds(state, p, cat) else 0)))
            if "Galactic Salon" in owned:
                vp += 1
        for source, amount in gain:
            if amount:
                p = _credit(ctx, p, amount, source)
        state = state.with_player(p)
        if vp:
            state = _take_vp(state, p.name, vp, "Galactic Salon", ctx)
        return state

    def _on_explored(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.5 Explore: Stock +$2 (+$4 with Alien Archaeology and a yellow explorer), or Scout:
        return any construction-zone tiles, draw one more than returned, place each at the
        bottom of the stack of the chosen side (on top only with Improved Reconnaissance)."""
        p = _player(state, ctx)
        _check_stage(ctx, state, Stage.EXPLORE, p.name, "an explorer's action", "p.5 Explore")
        action = ctx.require("action")
        colour = _colour(ctx, ctx.require("colour"))
        p = _use_worker(ctx, p, "explore", colour, ctx.payload.get("power"), tableau_only=_tableau_only(state))
        if action == "stock":
            amount = 4 if colour == "yellow" and "Alien Archaeology" in p.developments else 2
            return state.with_player(_credit(ctx, p, amount, "Stock"))
        if action != "scout":
            raise ctx.bad(f"'action' must be 'stock' or 'scout', got {action!r}")
        cat = self.cat
        returned = [_tile_name(ctx, self.cat, n) for n in ctx.payload.get("returned", [])]
        dev_stack, world_stack = list(p.dev_stack), list(p.world_stack)
        back = list(state.returned)
        for name in returned:
            if name in dev_stack:
                dev_stack.remove(name)
            elif name in world_stack:
                world_stack.remove(name)
            else:
                ctx.finding(f"{name} is not in {p.name}'s construction zone", p.name, Severity.ERROR, "p.5 Explore")
                continue
            back.append(cat.tile_of[name])
        tiles = ctx.payload.get("tiles", [])
        if not isinstance(tiles, list):
            raise ctx.bad("'tiles' must be a list of {tile, stack}")
        if len(tiles) != len(returned) + 1:
            ctx.finding(
                f"{p.name} scouted {len(tiles)} tiles after returning {len(returned)}; a Scout draws one more than returned",
                p.name,
                Severity.WARNING,
                "p.5 Explore",
            )
        bag = list(state.bag)
        for t in tiles:
            if not isinstance(t, Mapping):
                raise ctx.bad("each of 'tiles' must be {tile, stack}")
            name = _tile_name(ctx, self.cat, t.get("tile"))
            stack = t.get("stack") or ("development" if name in cat.developments else "world")
            if name not in cat.tile_of:
                raise ctx.bad(f"{name!r} is not a side of a game tile")
            side_is_dev = name in cat.developments
            if (stack == "development") != side_is_dev:
                ctx.finding(
                    f"{name} is a {'development' if side_is_dev else 'world'}, placed in the {stack} stack",
                    p.name,
                    Severity.ERROR,
                    "p.5 Explore",
                )
            tid = cat.tile_of[name]
            if tid in bag:
                bag.remove(tid)
            elif tid in back:
                back.remove(tid)
            else:
                ctx.finding(f"{name}'s tile is not in the bag", p.name, Severity.ERROR, "p.1 Components")
            target = dev_stack if side_is_dev else world_stack
            if t.get("top"):
                if "Improved Reconnaissance" not in p.developments:
                    ctx.finding(
                        f"{name} placed on top: scouted tiles go at the bottom without Improved Reconnaissance",
                        p.name,
                        Severity.WARNING,
                        "p.5 Explore",
                    )
                target.insert(0, name)
            else:
                target.append(name)
        p = replace(p, dev_stack=tuple(dev_stack), world_stack=tuple(world_stack))
        return replace(state.with_player(p), bag=tuple(bag), returned=tuple(back))

    def _on_tile_built(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.6 Develop / Settle: the top tile completes when its workers equal its cost after
        discounts; it joins the tableau and its workers go to the Citizenry. A world's
        immediate effect applies once (dice, credits, remove a die). Triggered powers pay."""
        cat = self.cat
        p = _player(state, ctx)
        name = _tile_name(ctx, self.cat, ctx.require("tile"))
        is_dev = name in cat.developments
        if name not in cat.tile_of:
            raise ctx.bad(f"{name!r} is not a side of a game tile (faction and home tiles start in the tableau)")
        tile: Development | World = cat.developments[name] if is_dev else cat.worlds[name]
        phase, stack_name = ("develop", "development") if is_dev else ("settle", "world")
        _check_stage(ctx, state, Stage(phase), p.name, f"{name} built", "p.6")
        if _tableau_only(state):
            state, p = self._tile_from_zone_or_bag(state, p, name, is_dev, ctx)
            if name in p.tableau:
                ctx.finding(f"{name} is already in {p.name}'s tableau", p.name, Severity.ERROR, "p.6")
                return state
            if is_dev:
                p = replace(p, developments=p.developments + (name,))
            else:
                p = replace(p, worlds=p.worlds + (name,))
            return self._completed(state, replace(p, built=p.built + (name,)), tile, name, is_dev, ctx)
        stack = p.dev_stack if is_dev else p.world_stack
        if name not in stack:
            ctx.finding(f"{name} is not in {p.name}'s {stack_name} stack", p.name, Severity.ERROR, "p.6")
        elif stack[0] != name:
            ctx.finding(
                f"{name} is not the top of {p.name}'s {stack_name} stack (top: {stack[0]})",
                p.name,
                Severity.ERROR,
                "p.6: workers go on the top tile",
            )
        if name in p.tableau:
            ctx.finding(f"{name} is already in {p.name}'s tableau", p.name, Severity.ERROR, "p.6")
            return state
        need = adjusted_cost(tile, p.developments, cat)
        on_tile = p.dev_workers if is_dev else p.world_workers
        column = p.column(phase)
        used = _dice_counts(ctx, "dice") if "dice" in ctx.payload else None
        if used is None:
            used = _take_any(on_tile + column, need)
        if used.total != need:
            ctx.finding(
                f"{name} needs {need} {'developers' if is_dev else 'settlers'} for {p.name} (cost {tile.cost}"
                f"{' after discounts' if need != tile.cost else ''}), reported {used.total}",
                p.name,
                Severity.WARNING,
                "p.6 and p.10 FAQ (discounts are mandatory)",
            )
        from_tile = _take_from(on_tile, used)
        from_column = used - from_tile
        _check_owned(ctx, p, from_column, column, f"left in the {phase} column or on the tile", "p.6")
        column = column - from_column
        rest_on_tile = on_tile - from_tile
        to_cup = _dice_counts(ctx, "to_cup") if "to_cup" in ctx.payload else Dice()
        self._check_to_cup(ctx, p, tile, used, to_cup)
        to_cup = _take_from(used, to_cup)
        stack = tuple(s for s in stack if s != name)
        p = p.with_column(phase, column)
        if is_dev:
            p = replace(
                p, dev_stack=stack, dev_workers=rest_on_tile if stack else Dice(), developments=p.developments + (name,)
            )
        else:
            p = replace(
                p, world_stack=stack, world_workers=rest_on_tile if stack else Dice(), worlds=p.worlds + (name,)
            )
        if stack == () and rest_on_tile.total:
            p = replace(p, cup=p.cup + rest_on_tile)
        p = replace(p, built=p.built + (name,), citizenry=p.citizenry + (used - to_cup), cup=p.cup + to_cup)
        return self._completed(state, p, tile, name, is_dev, ctx)

    def _tile_from_zone_or_bag(
        self, state: RollState, p: PlayerState, name: str, is_dev: bool, ctx: EventContext
    ) -> tuple[RollState, PlayerState]:
        """Tableau tracking: a built tile leaves the player's construction zone, else the bag
        (Roll for the Galaxy, p.1 Components: each tile exists once)."""
        stack = p.dev_stack if is_dev else p.world_stack
        if name in stack:
            rest = tuple(s for s in stack if s != name)
            return state, replace(p, **({"dev_stack": rest} if is_dev else {"world_stack": rest}))
        tid = self.cat.tile_of[name]
        if tid in state.bag:
            bag = list(state.bag)
            bag.remove(tid)
            return replace(state, bag=tuple(bag)), p
        if name not in p.tableau:
            ctx.finding(
                f"{name}'s tile is neither in {p.name}'s construction zone nor in the bag (another player has it)",
                p.name,
                Severity.ERROR,
                "p.1 Components",
            )
        return state, p

    def _completed(
        self, state: RollState, p: PlayerState, tile: Development | World, name: str, is_dev: bool, ctx: EventContext
    ) -> RollState:
        """A tile joined ``p``'s tableau: its immediate effect and the triggered powers of tiles already owned."""
        # Immediate effects (Roll for the Galaxy, p.6 'Completing a world'; p.11 FAQ 'Immediate effects').
        if isinstance(tile, World):
            p = _gain_dice(p, tile)
            if tile.effect.credits:
                p = _credit(ctx, p, tile.effect.credits, name)
            if tile.effect.remove_die:
                p = _remove_die(ctx, p, name)
        else:
            gains = {"Conscription": ("red", 2, 0), "Information Tech": ("blue", 2, 0), "Space Marines": ("red", 1, 1)}
            if name in gains:
                colour, n, money = gains[name]
                p = _remove_die(ctx, p, name)
                p = replace(p, cup=p.cup.add(colour, n))
                if money:
                    p = _credit(ctx, p, money, name)
        # Triggered powers of tiles already owned (Roll for the Galaxy, p.11 FAQ: Public Works pays for each later development).
        owned = set(p.developments) - {name}
        if is_dev and "Public Works" in owned:
            p = _credit(ctx, p, 1, "Public Works")
        if "Galactic Recycling" in owned:
            p = _credit(ctx, p, 1, "Galactic Recycling")
        if not is_dev and "Terraforming Robots" in owned:
            p = _credit(ctx, p, 2 if isinstance(tile, World) and tile.colour == "brown" else 1, "Terraforming Robots")
        return state.with_player(p)

    def _check_to_cup(self, ctx: EventContext, p: PlayerState, tile: Development | World, used: Dice, to_cup: Dice) -> None:
        """Galactic Federation (1-2 developers of a later development), Galactic Exchange (1-2
        settlers) and New Galactic Order (red settlers) send completing dice to the cup
        (digest section 4, 'Where dice go')."""
        if not to_cup.total:
            return
        owned = set(p.developments)
        if isinstance(tile, Development):
            allowed = min(2, used.total) if "Galactic Federation" in owned else 0
        else:
            allowed = min(2, used.total) if "Galactic Exchange" in owned else 0
            if "New Galactic Order" in owned:
                allowed = max(
                    allowed, used["red"] + (min(2, used.total - used["red"]) if "Galactic Exchange" in owned else 0)
                )
        if to_cup.total > allowed or not used.covers(to_cup):
            ctx.finding(
                f"{p.name} sent {to_cup.describe()} to the cup after building {tile.name}; "
                f"their powers allow {allowed} (the rest go to the Citizenry)",
                p.name,
                Severity.ERROR,
                "p.4 Phases: workers that finish go to the Citizenry",
            )

    def _on_goods_placed(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.7 Produce: a producer becomes a good on a non-gray world of the player's with room:
        1 good per world, 2 with Galactic Reserves."""
        p = _player(state, ctx)
        _check_stage(ctx, state, Stage.PRODUCE, p.name, "a good produced", "p.7 Produce")
        world = _tile_name(ctx, self.cat, ctx.require("world"))
        colour = _colour(ctx, ctx.require("colour"))
        if world not in self.cat.worlds:
            raise ctx.bad(f"{world!r} is not a world")
        where = f"{p.name}: {world}"
        fits = True
        if world not in p.worlds:
            ctx.finding(f"{world} is not in {p.name}'s tableau", where, Severity.ERROR, "p.7 Produce")
            fits = False
        if not self.cat.worlds[world].holds_goods:
            ctx.finding(
                f"a good on {world}, a gray world: gray worlds hold no goods", where, Severity.ERROR, "p.7 Produce"
            )
            fits = False
        capacity = good_capacity(p.developments)
        now = p.goods_on(world)
        if len(now) + 1 > capacity:
            why = "with" if capacity == 2 else "without"
            ctx.finding(
                f"{len(now) + 1} goods on {world}: a world holds {capacity} {why} Galactic Reserves",
                where,
                Severity.ERROR,
                "p.7 Produce",
            )
            fits = False
        if _tableau_only(state):  # no dice followed: the good is as reported, if it fits
            return state.with_player(p.with_goods(world, now + (colour,)) if fits else p)
        before = p.owned_dice
        p = _use_worker(ctx, p, "produce", colour, None, to_citizenry=False, tableau_only=_tableau_only(state))
        if p.owned_dice != before:  # the producer's die left the strip (or the cup)
            # Roll for the Galaxy, p.7: a producer with nowhere to go returns to the cup; the state never holds an
            # impossible good (the finding tells the table).
            p = p.with_goods(world, now + (colour,)) if fits else replace(p, cup=p.cup.add(colour))
        return state.with_player(p)

    def _on_goods_shipped(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.7 Ship: Trade pays by the world's colour (blue $3, brown $4, green $5, yellow $6);
        Consume gives 1 VP, +1 if the good's colour matches the world, +1 if the shipper's does
        (purple matches every world; Wild faces count for nothing). Both dice go to the Citizenry."""
        cat = self.cat
        p = _player(state, ctx)
        _check_stage(ctx, state, Stage.SHIP, p.name, "a good shipped", "p.7 Ship")
        world_name = _tile_name(ctx, self.cat, ctx.require("world"))
        world = cat.worlds.get(world_name)
        if world is None:
            raise ctx.bad(f"{world_name!r} is not a world")
        mode = ctx.require("mode")
        if mode not in ("trade", "consume"):
            raise ctx.bad(f"'mode' must be 'trade' or 'consume', got {mode!r}")
        now = list(p.goods_on(world.name))
        good = ctx.payload.get("good") or (now[0] if len(now) == 1 else None)
        if good is None:
            raise ctx.bad(f"say which good ('good': colour) is shipped from {world.name}")
        good = _colour(ctx, good)
        if good in now:
            now.remove(good)
            p = p.with_goods(world.name, tuple(now))
            p = replace(p, citizenry=p.citizenry.add(good))
        else:
            ctx.finding(f"{p.name} has no {good} good on {world.name}", p.name, Severity.ERROR, "p.7 Ship")
        power = ctx.payload.get("power")
        shipper = _colour(ctx, ctx.require("shipper"))
        p = _use_worker(ctx, p, "ship", shipper, power, tableau_only=_tableau_only(state))
        owned = set(p.developments)
        if mode == "trade":
            price = world.trade_price or 0
            gains = [("Trade", price)]
            if "Export Duties" in owned:
                gains.append(("Export Duties", 1))
            if "Galactic Demand" in owned and world.colour == "blue":
                gains.append(("Galactic Demand", 2))
            if "Jumpdrive Research" in owned and world.colour == "brown":
                gains.append(("Jumpdrive Research", 1))
            if not price:
                ctx.finding(f"{world.name} is gray: nothing to Trade", p.name, Severity.ERROR, "p.7 Ship")
            for source, n in gains:
                p = _credit(ctx, p, n, source)
            state = state.with_player(p)
            if ctx.payload.get("bankers"):
                if "Galactic Bankers" not in owned:
                    ctx.finding(f"{p.name} has no Galactic Bankers", p.name, Severity.ERROR, "Galactic Bankers")
                elif p.credits < 1:
                    ctx.finding(
                        f"{p.name} cannot pay $1 for Galactic Bankers", p.name, Severity.ERROR, "Galactic Bankers"
                    )
                else:
                    state = state.with_player(replace(p, credits=p.credits - 1))
                    state = _take_vp(state, p.name, 1, "Galactic Bankers", ctx)
            return state
        match = lambda colour: colour == "purple" or colour == world.colour
        vp = 1 + (1 if match(good) else 0) + (1 if match(shipper) else 0)
        if "Galactic Renaissance" in owned:
            vp += 1
        if "Minor Research Labs" in owned and world.colour in ("green", "yellow"):
            vp += 1
        if "Space Refineries" in owned and world.colour == "brown":
            vp += 1
        money = [
            ("New Economy", 2 if "New Economy" in owned else 0),
            ("Trade Levies", 1 if "Trade Levies" in owned else 0),
        ]
        if "Mining Industry" in owned and world.colour == "brown":
            money.append(("Mining Industry", 1))
        for source, n in money:
            if n:
                p = _credit(ctx, p, n, source)
        return _take_vp(state.with_player(p), p.name, vp, "Consume", ctx)

    def _on_vp_changed(self, state: RollState, ctx: EventContext) -> RollState:
        """VP chips from the pool (``delta``: 1 or more); when the original pool runs out the 10 set-aside VP
        are added and the game ends after this round (Roll for the Galaxy, p.7 Ship)."""
        p = _player(state, ctx)
        vp = ctx.count("delta", minimum=1)
        return _take_vp(state, p.name, vp, str(ctx.payload.get("reason", "reported")), ctx)

    def _on_credits_changed(self, state: RollState, ctx: EventContext) -> RollState:
        """Credits run $0-$10; anything over $10 is lost (Roll for the Galaxy, p.4 Phases)."""
        p = _player(state, ctx)
        if "credits" in ctx.payload:
            value = ctx.payload["credits"]
            if not isinstance(value, int) or isinstance(value, bool):
                raise ctx.bad(f"'credits' must be a whole number, got {value!r}")
            if value > MAX_CREDITS:
                ctx.finding(
                    f"{p.name}'s credits reported as ${value}; credits never pass $10 (set to $10)",
                    p.name,
                    Severity.ERROR,
                    "p.4 Phases: nobody can pass $10",
                )
            if value < 0:
                ctx.finding(
                    f"{p.name}'s credits reported as ${value}; credits run $0-$10 (set to $0)",
                    p.name,
                    Severity.ERROR,
                    "p.8 Manage Empire",
                )
            return state.with_player(replace(p, credits=min(MAX_CREDITS, max(0, value))))
        delta = ctx.require("delta")
        if not isinstance(delta, int) or isinstance(delta, bool):
            raise ctx.bad(f"'delta' must be a whole number, got {delta!r}")
        if p.credits + delta < 0:
            ctx.finding(f"{p.name} cannot pay ${-delta} with ${p.credits}", p.name, Severity.ERROR, "p.8 Manage Empire")
            return state.with_player(replace(p, credits=0))
        return state.with_player(_credit(ctx, p, delta, str(ctx.payload.get("reason", "reported"))))

    def _on_recruit(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.8 Recruit: Citizenry -> cup at $1 a die, mandatory until the Citizenry is empty or
        credits run out; afterwards $0 becomes $1."""
        p = _player(state, ctx)
        _check_stage(ctx, state, Stage.MANAGE, p.name, "recruiting", "p.8 Manage Empire")
        dice = _dice_counts(ctx, "dice")
        _check_owned(ctx, p, dice, p.citizenry, "in the Citizenry", "p.8 Recruit")
        moved = _take_from(p.citizenry, dice)
        if dice.total > p.credits:
            ctx.finding(
                f"{p.name} recruited {dice.total} dice with ${p.credits}; each costs $1",
                p.name,
                Severity.ERROR,
                "p.8 Recruit",
            )
        must = min(p.credits, p.citizenry.total)
        if dice.total < must:
            ctx.finding(
                f"{p.name} recruited {dice.total} dice but must recruit {must} (recruiting is mandatory "
                "while credits and Citizenry dice remain)",
                p.name,
                Severity.WARNING,
                "p.8 Recruit and p.10 FAQ",
            )
        credits = max(0, p.credits - moved.total)
        if credits == 0:
            credits = 1  # Roll for the Galaxy, p.8: after recruiting, $0 becomes $1 (the arrow on the mat)
        p = replace(p, citizenry=p.citizenry - moved, cup=p.cup + moved, credits=credits)
        return state.with_player(p)

    def _on_recall(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.8 Recall (free, optional, only in Manage Empire): construction-zone dice and goods to the cup."""
        p = _player(state, ctx)
        _check_stage(
            ctx, state, Stage.MANAGE, p.name, "a recall", "p.8 Manage Empire; p.10 FAQ (recall only in Manage Empire)"
        )
        for stack, attr in (("development", "dev_workers"), ("world", "world_workers")):
            if stack in ctx.payload:
                dice = _dice_counts(ctx, stack)
                have = getattr(p, attr)
                _check_owned(ctx, p, dice, have, f"on the {stack} stack", "p.8 Recall")
                moved = _take_from(have, dice)
                p = replace(p, **{attr: have - moved}, cup=p.cup + moved)
        goods = ctx.payload.get("goods", [])
        if not isinstance(goods, list):
            raise ctx.bad("'goods' must be a list of {world, colour}")
        for g in goods:
            if not isinstance(g, Mapping):
                raise ctx.bad("each of 'goods' must be {world, colour}")
            world = _tile_name(ctx, self.cat, g.get("world"))
            colour = _colour(ctx, g.get("colour"))
            now = list(p.goods_on(world))
            if colour not in now:
                ctx.finding(f"{p.name} has no {colour} good on {world}", p.name, Severity.ERROR, "p.8 Recall")
                continue
            now.remove(colour)
            p = replace(p.with_goods(world, tuple(now)), cup=p.cup.add(colour))
        return state.with_player(p)

    def _on_game_end(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.8 End check: the game ends after the round in which the VP pool empties or a
        tableau reaches 12 tiles; the round in progress finishes first."""
        if not state.ending:
            ctx.finding(
                "the game was declared over, but the VP pool is not empty and no tableau has 12 tiles",
                "table",
                Severity.ERROR,
                "p.8 End check",
            )
        if state.stage not in (Stage.MANAGE, Stage.OVER):
            ctx.finding(
                f"the game was declared over during {state.stage.value}; the round in progress finishes first",
                "table",
                Severity.WARNING,
                "p.3 Rounds: finish the current round",
            )
        return replace(state, stage=Stage.OVER)

    def _on_dice_counted(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.8 Victory: the dice the final scoring counts (see :data:`DICE_COUNTED`).

        A count taken before the end is triggered is kept but said (INFO): the dice still move until
        the last Manage Empire. In full tracking, a count that differs from the dice followed is said
        (WARNING, with both counts) and the count is kept.

        Raises:
            BadEvent: no place given, a place that is not ``{colour: count >= 0}``, an unknown colour.
        """
        p = _player(state, ctx)
        places = [k for k in DICE_COUNT_PLACES if k in ctx.payload]
        unknown = sorted(str(k) for k in ctx.payload if k not in (*DICE_COUNT_PLACES, "read"))
        if unknown or not places:
            raise ctx.bad(f"'dice_counted' takes {', '.join(DICE_COUNT_PLACES)} ({{colour: n}} each)"
                          + (f", not {', '.join(unknown)}" if unknown else ""))
        counted = {k: _dice_counts(ctx, k) for k in places}
        if not state.ending and state.stage != Stage.OVER:
            ctx.finding(f"{p.name}'s dice were counted before the end of the game; count again after the last "
                        "Manage Empire", p.name, Severity.INFO, "p.8 Victory")
        held = {"cup": p.cup + p.workers, "citizenry": p.citizenry, "construction_zone": p.dev_workers + p.world_workers}
        if not _tableau_only(state):
            if "construction_zone" not in counted and "citizenry" in counted:
                held["citizenry"] = held["citizenry"] + held["construction_zone"]  # counted together
            for k, dice in counted.items():
                if dice != held[k]:
                    ctx.finding(f"{p.name}'s {k.replace('_', ' ')} counted {dice.describe()}; the reports gave "
                                f"{held[k].describe()}: the count is kept", p.name, Severity.WARNING, "p.8 Victory")
        new = p
        if "cup" in counted:
            new = replace(new, cup=counted["cup"])
        if "citizenry" in counted:
            new = replace(new, citizenry=counted["citizenry"])
            if "construction_zone" not in counted:  # counted with the citizenry
                new = replace(new, dev_workers=Dice(), world_workers=Dice())
        if "construction_zone" in counted:
            new = replace(new, dev_workers=counted["construction_zone"], world_workers=Dice())
        if "cup" in counted or "citizenry" in counted:
            new = replace(new, columns=(Dice(),) * len(PHASES), dictate=Dice())
        return state.with_player(new)

    def after(self, state: RollState, ctx: EventContext) -> RollState:
        """After every event: the end check (:meth:`_check_end`)."""
        return self._check_end(state, ctx)

    def _check_end(self, state: RollState, ctx: EventContext) -> RollState:
        """Roll for the Galaxy, p.8 End check: VP pool exhausted, or 12+ tiles in a tableau (faction tile counts 2)."""
        reasons = list(state.ending)
        if state.vp_pool <= 0 and state.stage != Stage.SETUP and "VP pool exhausted" not in reasons:
            reasons.append("VP pool exhausted")
        for p in state.players:
            why = f"{p.name} has {p.tile_count} tiles"
            if p.tile_count >= END_TILES and not any(r.startswith(f"{p.name} has") for r in reasons):
                reasons.append(why)
        if len(reasons) != len(state.ending):
            new = reasons[len(state.ending) :]
            ctx.finding(
                f"end of game triggered ({'; '.join(new)}): this is the last round",
                "table",
                Severity.INFO,
                "p.8 End check",
            )
            state = replace(state, ending=tuple(reasons))
        return state

    handlers = {
        PLAYER_SETUP: _on_player_setup,
        ROLL: _on_roll,
        ASSIGN: _on_assign,
        PHASE_SELECTED: _on_phase_selected,
        REVEAL: _on_reveal,
        PHASE: _on_phase,
        EXPLORED: _on_explored,
        TILE_BUILT: _on_tile_built,
        GOODS_PLACED: _on_goods_placed,
        GOODS_SHIPPED: _on_goods_shipped,
        VP_CHANGED: _on_vp_changed,
        CREDITS_CHANGED: _on_credits_changed,
        RECRUIT: _on_recruit,
        RECALL: _on_recall,
        GAME_END: _on_game_end,
        DICE_COUNTED: _on_dice_counted,
    }


ROLL_GAME = RollGame()
EVENT_KINDS = ROLL_GAME.event_kinds
"""Every Roll for the Galaxy event kind (the keys of :attr:`RollGame.handlers`)."""


# --- helpers -----------------------------------------------------------------------------


def _tableau_only(state: RollState) -> bool:
    """``settings["tracking"] == "tableau"``: no die or worker is followed (:data:`TRACKING`)."""
    return state.tracking == "tableau"


def _player(state: RollState, ctx: EventContext) -> PlayerState:
    """The event's player (``event.player``, else ``payload["player"]``). Raises BadEvent for a name not at the table."""
    return state.player(ctx.player())


def _colour(ctx: EventContext, value: Any) -> str:
    """A die colour (Roll for the Galaxy, p.1 Components). Raises BadEvent naming the colours."""
    if value not in COLOURS:
        raise ctx.bad(f"{value!r} is not a die colour ({', '.join(COLOURS)})")
    return value


def _tile_name(ctx: EventContext, cat: Catalogue, value: Any) -> str:
    """A tile side's name as the catalogue spells it. Raises BadEvent with the closest names."""
    name = cat.lookup(value) if isinstance(value, str) else None
    if name is None:
        hint = closest_names(str(value), cat.names)
        raise ctx.bad(f"unknown tile {value!r}" + (f"; did you mean {' or '.join(hint)}?" if hint else ""))
    return name


def _dice_counts(ctx: EventContext, key: str) -> Dice:
    """``payload[key]`` as ``{colour: count >= 0}``. Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, Mapping):
        raise ctx.bad(f"{key!r} must be {{colour: count}}, got {raw!r}")
    for colour, n in raw.items():
        _colour(ctx, colour)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ctx.bad(f"{key}.{colour} must be a count >= 0, got {n!r}")
    return Dice.of(raw)


def _dice_list(ctx: EventContext, key: str, with_column: bool) -> list[Mapping[str, Any]]:
    """``payload[key]`` as a list of ``{colour, face}`` dice (and ``column`` when ``with_column``). Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, list):
        raise ctx.bad(f"{key!r} must be a list of dice")
    for d in raw:
        if not isinstance(d, Mapping):
            raise ctx.bad(f"each die must be {{colour, face}}, got {d!r}")
        _colour(ctx, d.get("colour"))
        if d.get("face") not in FACES:
            raise ctx.bad(f"{d.get('face')!r} is not a face ({', '.join(FACES)})")
        if with_column and d.get("column") not in (*PHASES, "dictate"):
            raise ctx.bad(f"'column' must be a phase or 'dictate', got {d.get('column')!r}")
    return raw


def _check_face(ctx: EventContext, cat: Catalogue, player: str, colour: str, face: str) -> None:
    """Every die of a colour has the same six faces (Roll for the Galaxy, p.12 'Dice faces and
    distribution'; the faces themselves: digest section 2, in dice.json). One finding per
    impossible colour+face pair in an event, however many dice show it."""
    if face in cat.dice[colour].faces:
        return
    what = f"a {colour} die has no {face} face (probably a misread colour)"
    if any(f.what == what and f.where == player for f in ctx.findings):
        return
    ctx.finding(what, player, Severity.WARNING, "p.12 Dice faces and distribution")


def _check_owned(ctx: EventContext, p: PlayerState, reported: Dice, have: Dice, where: str, section: str) -> None:
    for colour in COLOURS:
        if reported[colour] > have[colour]:
            ctx.finding(
                f"{reported[colour]} {colour} dice reported for {p.name}, but {p.name} has only "
                f"{have[colour]} {where} ({p.owned_dice[colour]} {colour} owned in all)",
                p.name,
                Severity.ERROR,
                section,
            )


def _check_stage(ctx: EventContext, state: RollState, stage: Stage, player: str, what: str, section: str) -> None:
    """``what`` belongs to ``stage`` (and, for a phase, to a phase selected this round: p.4 Phases)."""
    if state.stage != stage:
        ctx.finding(f"{what} reported during {state.stage.value}, not {stage.value}", player, Severity.WARNING, section)
    elif stage.value in PHASES and stage.value not in state.selected:
        ctx.finding(f"{what}: {stage.value} was not selected this round", player, Severity.ERROR, "p.4 Phases")


def _credit(ctx: EventContext, p: PlayerState, amount: int, source: str) -> PlayerState:
    """Add credits, capped at $10: anything over is lost (Roll for the Galaxy, p.4 Phases)."""
    total = p.credits + amount
    if total > MAX_CREDITS:
        ctx.finding(
            f"{p.name} reaches ${total} with {source}; credits stop at $10 and ${total - MAX_CREDITS} is lost",
            p.name,
            Severity.INFO,
            "p.4 Phases: nobody can pass $10",
        )
    return replace(p, credits=max(0, min(MAX_CREDITS, total)))


def _take_vp(state: RollState, name: str, vp: int, source: str, ctx: EventContext) -> RollState:
    """VP chips from the pool; then from the 10 set aside (Roll for the Galaxy, p.7 Ship)."""
    from_pool = min(vp, state.vp_pool)
    rest = vp - from_pool
    from_reserve = min(rest, state.vp_reserve)
    if rest > from_reserve:
        ctx.finding(
            f"the VP chips ran out: {rest - from_reserve} VP for {name} ({source}) taken from the box",
            name,
            Severity.INFO,
            "p.7 Ship",
        )
    p = state.player(name)
    return replace(
        state.with_player(replace(p, vp_chips=p.vp_chips + vp)),
        vp_pool=state.vp_pool - from_pool,
        vp_reserve=state.vp_reserve - from_reserve,
    )


def _gain_dice(p: PlayerState, world: World) -> PlayerState:
    """A world's dice: to the Citizenry, the cup, or as a good on that world (Roll for the Galaxy, p.2, p.6)."""
    for colour, to in world.effect.gain_dice:
        if to == "citizenry":
            p = replace(p, citizenry=p.citizenry.add(colour))
        elif to == "cup":
            p = replace(p, cup=p.cup.add(colour))
        else:
            p = p.with_goods(world.name, p.goods_on(world.name) + (colour,))
    return p


def _remove_die(ctx: EventContext, p: PlayerState, source: str) -> PlayerState:
    """'Remove a die': any one of the player's dice, from anywhere, back to the supply (Roll for the Galaxy, p.11 FAQ)."""
    spec = ctx.payload.get("remove")
    if not isinstance(spec, Mapping):
        ctx.finding(
            f"{source}: {p.name} removes one of their dice; say which ('remove': {{colour, from}})",
            p.name,
            Severity.INFO,
            "p.11 FAQ Immediate effects",
        )
        return p
    colour = _colour(ctx, spec.get("colour"))
    place = spec.get("from", "citizenry")
    if place not in DICE_FROM:
        raise ctx.bad(f"'remove.from' must be one of {', '.join(DICE_FROM)}, got {place!r}")
    one = Dice.of({colour: 1})
    if place == "goods":
        for world, cs in p.goods:
            if colour in cs:
                left = list(cs)
                left.remove(colour)
                return p.with_goods(world, tuple(left))
    elif place in PHASES:
        if p.column(place)[colour]:
            return p.with_column(place, p.column(place) - one)
    else:
        attr = str({"development": "dev_workers", "world": "world_workers"}.get(place, place))
        if getattr(p, attr)[colour]:
            return replace(p, **{attr: getattr(p, attr) - one})
    ctx.finding(
        f"{p.name} has no {colour} die in {place} to remove", p.name, Severity.ERROR, "p.11 FAQ Immediate effects"
    )
    return p


def _use_worker(
    ctx: EventContext, p: PlayerState, phase: str, colour: str, power: Any, to_citizenry: bool = True,
    tableau_only: bool = False,
) -> PlayerState:
    """A worker of ``colour`` from the phase's column acts; it goes to the Citizenry (Roll for the Galaxy, p.4).

    An extra worker granted by a power (``power``: e.g. Space Docks) uses no die. With
    ``"tracking": "tableau"`` (``tableau_only``) no die is followed, so nothing moves."""
    if tableau_only:
        return p
    if power:
        if power not in p.developments:
            ctx.finding(f"{p.name} has no {power} for an extra worker", p.name, Severity.ERROR, "p.6")
        return p
    col = p.column(phase)
    if col[colour]:
        p = p.with_column(phase, col.add(colour, -1))
    else:
        ctx.finding(f"{p.name} has no {colour} worker left in the {phase} column", p.name, Severity.ERROR, "p.4 Phases")
        if not p.cup[colour]:
            return p  # nothing to move: the die is not counted twice
        p = replace(p, cup=p.cup.add(colour, -1))  # most likely a worker the report missed
    return replace(p, citizenry=p.citizenry.add(colour)) if to_citizenry else p


def _take_from(have: Dice, want: Dice) -> Dice:
    """The part of ``want`` that ``have`` holds, colour by colour."""
    return Dice(tuple(min(a, b) for a, b in zip(have.counts, want.counts)))


def _take_any(have: Dice, n: int) -> Dice:
    """``n`` dice from ``have`` (colours in ``COLOURS`` order), when the report names no colours."""
    out = []
    for count in have.counts:
        take = min(count, n)
        out.append(take)
        n -= take
    return Dice(tuple(out))


def _alone_most(state: RollState, p: PlayerState, measure) -> bool:
    mine = measure(p)
    return mine > 0 and all(measure(q) < mine for q in state.players if q.name != p.name)


def _alone_most_blue(state: RollState, p: PlayerState, cat: Catalogue) -> bool:
    """Mad Scientists: alone with the most blue worlds (nobody having one is not a tie, p.11 FAQ)."""
    return _alone_most(state, p, lambda q: sum(1 for w in q.worlds if cat.worlds[w].colour == "blue"))


def _owns_all_top_worlds(state: RollState, p: PlayerState, cat: Catalogue) -> bool:
    """Space Tourism: the highest printed-cost world(s) across all tableaus are all the player's (Roll for the Galaxy, p.11 FAQ)."""
    everyone = [(cat.worlds[w].cost, q.name) for q in state.players for w in q.worlds]
    if not everyone:
        return False
    top = max(c for c, _ in everyone)
    return all(name == p.name for c, name in everyone if c == top)


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
    }
