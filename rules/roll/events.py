"""Roll for the Galaxy's event kinds (what each reports, with its payload) and the payload readers.

Every kind is one thing that happened at the table, as a player or the camera reports it; the
readers turn a payload's values into the engine's terms or raise :class:`rules.core.BadEvent`
naming the event and the key (through :class:`rules.engine.EventContext`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine import EventContext
from rules.refusals import not_one_of, whole, wrong_kind
from rules.roll.data import COLOURS, FACES, PHASES, Catalogue
from rules.roll.dice import Dice
from rules.roll.state import PlayerState, RollState
from rules.roll.words import colour_word, face_word, phase_word
from rules.scoring import closest_names
from rules.text import OR, Listing, Text

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
DICE_BY_COLOUR = Text("dice counted by colour")
DICE_LIST = Text("a list of dice")
DIE = Text("a die (its colour and face)")
SCOUTED = Text("a list of tiles, each with its stack")
GAME_TILE = Text("a side of a game tile (faction and home tiles start in the tableau)")
A_WORLD = Text("a world")
GOODS_LIST = Text("a list of goods, each with its world and colour")
"""What a payload's dice, tiles and goods fields hold, in the players' words (a refusal says what was expected)."""


# --- payload readers ---------------------------------------------------------------------


def tableau_only(state: RollState) -> bool:
    """``settings["tracking"] == "tableau"``: no die or worker is followed (:data:`TRACKING`)."""
    return state.tracking == "tableau"


def read_player(state: RollState, ctx: EventContext) -> PlayerState:
    """The event's player (``event.player``, else ``payload["player"]``).

    Raises BadEvent for a name not at the table."""
    return state.player(ctx.player())


def read_colour(ctx: EventContext, value: Any, word: str | None = None) -> str:
    """A die colour (Roll for the Galaxy, p.1 Components) in the field named ``word`` (the Die colour when not
    given). Raises BadEvent naming the colours in the players' words."""
    if value not in COLOURS:
        raise not_one_of(ctx, value, word or ctx.word("colour"), {c: colour_word(c) for c in COLOURS})
    return value


def read_tile(ctx: EventContext, cat: Catalogue, value: Any, key: str = "tile") -> str:
    """A tile side's name as the catalogue spells it (Roll for the Galaxy, p.1 Components: each game tile has a
    development side and a world side), the field ``key``. Raises BadEvent naming the field and the closest names."""
    name = cat.lookup(value) if isinstance(value, str) else None
    if name is None:
        hint = closest_names(str(value), cat.names)
        if hint:
            raise ctx.bad(Text("{what}: no tile is named {value}; did you mean {names}?", what=ctx.word(key),
                               value=repr(value), names=Listing(hint, OR)))
        raise ctx.bad(Text("{what}: no tile is named {value}", what=ctx.word(key), value=repr(value)))
    return name


def read_dice_counts(ctx: EventContext, key: str) -> Dice:
    """``payload[key]`` as ``{colour: count >= 0}``. Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, Mapping):
        raise wrong_kind(ctx, raw, ctx.word(key), DICE_BY_COLOUR)
    for colour, n in raw.items():
        read_colour(ctx, colour, ctx.word(key))
        whole(ctx, n, Listing([ctx.word(key), colour_word(colour)], ": "), 0)
    return Dice.of(raw)


def read_dice_list(ctx: EventContext, key: str, with_column: bool) -> list[Mapping[str, Any]]:
    """``payload[key]`` as a list of ``{colour, face}`` dice (and ``column`` when ``with_column``). Raises BadEvent."""
    raw = ctx.require(key)
    if not isinstance(raw, list):
        raise wrong_kind(ctx, raw, ctx.word(key), DICE_LIST)
    for d in raw:
        if not isinstance(d, Mapping):
            raise wrong_kind(ctx, d, ctx.word(key), DIE)
        read_colour(ctx, d.get("colour"))
        if d.get("face") not in FACES:
            raise not_one_of(ctx, d.get("face"), Text("Face"), {f: face_word(f) for f in FACES})
        if with_column and d.get("column") not in (*PHASES, "dictate"):  # p.3 Assign; p.4 Dictate
            raise not_one_of(ctx, d.get("column"), Text("Column"),
                             {**{p: phase_word(p) for p in PHASES}, "dictate": Text("Dictate")})
    return raw
