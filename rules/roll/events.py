"""Roll for the Galaxy's event kinds (what each reports, with its payload) and the payload readers.

Every kind is one thing that happened at the table, as a player or the camera reports it; the
readers turn a payload's values into the engine's terms or raise :class:`rules.core.BadEvent`
naming the event and the key (through :class:`rules.engine.EventContext`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import EventContext
from rules.roll.data import COLOURS, FACES, PHASES, Catalogue
from rules.roll.dice import Dice
from rules.roll.state import PlayerState, RollState
from rules.scoring import closest_names

__all__ = [
    "ASSIGN", "CREDITS_CHANGED", "DICE_COUNTED", "DICE_COUNT_PLACES", "DICE_FROM", "DIE_REMOVED", "END_TILES",
    "EXPLORED", "GAME_END",
    "GOODS_PLACED", "GOODS_SHIPPED", "PHASE", "PHASE_SELECTED", "PLAYER_SETUP", "RECALL", "RECRUIT", "REVEAL", "ROLL",
    "STACKS", "TILE_BUILT", "TRACKING", "VP_CHANGED", "VP_PER_PLAYER", "read_colour", "read_dice_counts",
    "read_dice_list",
    "read_player", "read_tile", "tableau_only",
]

PLAYER_SETUP = "player_setup"
"""A player's starting tiles (Roll for the Galaxy, p.2 Setup). ``player``; payload ``{"faction": number or a side
name, "home_world": name, "development": game-tile development name, "world": game-tile world name}``."""

ROLL = "roll"
"""A player's roll as read (Roll for the Galaxy, p.3 Roll); starts a round.
payload ``{"dice": [{"colour", "face"}, ...]}``."""

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

DIE_REMOVED = "die_removed"
"""Which die a tile built without it said removes (Roll for the Galaxy, p.11 FAQ Immediate effects: "remove one of
your dice", any one, from anywhere, back to the supply). ``player``; payload ``{"source": the tile built, "remove":
{"colour", "from"}}``; only for a tile whose removal is still owed (``tile_built`` without ``remove``)."""

GOODS_PLACED = "goods_placed"
"""A producer becomes a good (Roll for the Galaxy, p.7 Produce). ``player``;
payload ``{"world": name, "colour": die colour}``."""

GOODS_SHIPPED = "goods_shipped"
"""A shipper ships a good (Roll for the Galaxy, p.7 Ship). ``player``; payload ``{"world", "good": colour,
"shipper": colour, "mode": "trade" | "consume", "power": name (extra shipper, no die), "bankers": bool}``."""

VP_CHANGED = "vp_changed"
"""VP chips taken from the pool for another reason (the same kind in every game: a player's VP change).
``player``; payload ``{"delta": n >= 1, "reason": str}``. Logs before issue 13 wrote ``vp_taken``
``{"vp": n}`` (:attr:`INFO.renames <rules.core.GameInfo.renames>`)."""

CREDITS_CHANGED = "credits_changed"
"""Credits reported or changed. ``player``; payload ``{"credits": new value}`` or ``{"delta": n}``, ``"reason"``."""

RECRUIT = "recruit"
"""Manage Empire, Recruit (Roll for the Galaxy, p.8). ``player``; payload ``{"dice": {colour: n}}`` moved
Citizenry -> cup at $1 each."""

RECALL = "recall"
"""Manage Empire, Recall (Roll for the Galaxy, p.8). ``player``; payload ``{"development": {colour: n},
"world": {colour: n}, "goods": [{"world", "colour"}]}`` back to the cup."""

GAME_END = "game_end"
"""The table declares the game over (Roll for the Galaxy, p.8 End check). payload ``{}``."""

DICE_COUNTED = "dice_counted"
"""A player's dice counted by colour for final scoring (Roll for the Galaxy, p.8 Victory: the cost-6
bonuses that count dice, and the tie-break 'dice in cup + credits'). ``player``; payload
``{"cup": {colour: n}, "citizenry": {colour: n}, "construction_zone": {colour: n}, "read": {...}}``, each place
optional (at least one; ``"read"``: what the camera saw, kept as it is): a place given replaces what the engine
holds there (the camera's count wins over what was followed, in either tracking mode); a place left out is
kept. ``"citizenry"`` may hold every die outside the cup and the goods when the construction zone is not
counted apart (both are owned dice outside the cup, so they score the same). Counting the cup or the citizenry
also clears the phase strip and the Dictate area, which are empty when the game is scored (digest section 7
'Owned dice').
Goods are not counted here: they are the ``goods_placed`` reports, and are never cup dice for the
tie-break. A purple die is counted as purple (p.8: purple matches other colours only when consuming)."""


VP_PER_PLAYER = 12  # Roll for the Galaxy, p.2 Setup: 12 VP per player in the pool
END_TILES = 12  # Roll for the Galaxy, p.8 End check: 12 or more tiles in a tableau
STACKS = ("development", "world")
TRACKING = ("full", "tableau")
"""``settings["tracking"]``: ``"full"`` (default) follows every die and the construction zone;
``"tableau"`` follows only what players report at the table without the dice (tiles built, goods,
VP chips, credits): worker, cup and construction-zone checks are skipped, and a built tile that
is not in the player's construction zone is taken from the bag; a good placed takes its die from the cup (else
the Citizenry) where the engine holds one, so the good shipped back to the Citizenry is the same die, not one more."""
DICE_FROM = ("cup", "citizenry", "development", "world", "goods", *PHASES)
DICE_COUNT_PLACES = ("cup", "citizenry", "construction_zone")
"""The places a ``dice_counted`` event may count (goods are the ``goods_placed`` reports)."""


# --- payload readers ---------------------------------------------------------------------


def tableau_only(state: RollState) -> bool:
    """``settings["tracking"] == "tableau"``: no die or worker is followed (:data:`TRACKING`)."""
    return state.tracking == "tableau"


def read_player(state: RollState, ctx: EventContext) -> PlayerState:
    """The event's player (``event.player``, else ``payload["player"]``).

    Raises BadEvent for a name not at the table."""
    return state.player(ctx.player())


def read_colour(ctx: EventContext, value: Any) -> str:
    """A die colour (Roll for the Galaxy, p.1 Components). Raises BadEvent naming the colours."""
    if value not in COLOURS:
        raise ctx.bad(f"{value!r} is not a die colour ({', '.join(COLOURS)})")
    return value


def read_tile(ctx: EventContext, cat: Catalogue, value: Any) -> str:
    """A tile side's name as the catalogue spells it. Raises BadEvent with the closest names."""
    name = cat.lookup(value) if isinstance(value, str) else None
    if name is None:
        hint = closest_names(str(value), cat.names)
        raise ctx.bad(f"unknown tile {value!r}" + (f"; did you mean {' or '.join(hint)}?" if hint else ""))
    return name


def read_dice_counts(ctx: EventContext, key: str) -> Dice:
    """``payload[key]`` as ``{colour: count >= 0}``. Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, Mapping):
        raise ctx.bad(f"{key!r} must be {{colour: count}}, got {raw!r}")
    for colour, n in raw.items():
        read_colour(ctx, colour)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ctx.bad(f"{key}.{colour} must be a count >= 0, got {n!r}")
    return Dice.of(raw)


def read_dice_list(ctx: EventContext, key: str, with_column: bool) -> list[Mapping[str, Any]]:
    """``payload[key]`` as a list of ``{colour, face}`` dice (and ``column`` when ``with_column``). Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, list):
        raise ctx.bad(f"{key!r} must be a list of dice")
    for d in raw:
        if not isinstance(d, Mapping):
            raise ctx.bad(f"each die must be {{colour, face}}, got {d!r}")
        read_colour(ctx, d.get("colour"))
        if d.get("face") not in FACES:
            raise ctx.bad(f"{d.get('face')!r} is not a face ({', '.join(FACES)})")
        if with_column and d.get("column") not in (*PHASES, "dictate"):
            raise ctx.bad(f"'column' must be a phase or 'dictate', got {d.get('column')!r}")
    return raw
