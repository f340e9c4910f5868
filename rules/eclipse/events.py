"""The Eclipse event kinds and their payloads (what the camera and the players report).

Positions are axial ``{"q", "r"}`` objects (see :mod:`rules.eclipse.galaxy`); ``event.player`` is the
player who acts (or ``payload["player"]``).
"""

from __future__ import annotations

from typing import Any

from rules.eclipse.galaxy import Cell
from rules.eclipse.words import CELL_WORDS
from rules.engine import EventContext
from rules.text import Text

__all__ = [
    "ACTION_TAKEN",
    "ALLIANCE_FOUNDED",
    "ALLIANCE_JOINED",
    "ALLIANCE_LEFT",
    "ANCIENTS_DESTROYED",
    "BLUEPRINT_SET",
    "DIRECTION_CHOSEN",
    "GAME_ENDED",
    "HEX_PLACED",
    "HIVE_ROLLED",
    "INFLUENCE_PLACED",
    "INFLUENCE_REMOVED",
    "PASSED",
    "PHASE_ENDED",
    "POSITION_REPORTED",
    "RELATIONS_BROKEN",
    "RELATIONS_FORMED",
    "SHIP_MOVED",
    "STRUCTURE_BUILT",
    "VOLLEY_AIMED",
    "VOLLEY_ROLLED",
    "cell",
    "optional_cell",
]

ACTION_TAKEN = "action_taken"
"""``{"action": explore|influence|research|upgrade|build|move, "tech"?: name, ...}``: the player's action (or,
after passing, reaction). ``tech`` names what Research bought: a technology, a Rare Technology or a
Development (Developments count for scoring). An action may carry what it did on the map, applied as its own
event would be (one report, withdrawn as one): Explore ``"sector", "q", "r", "rotation", "from"?`` (as
``hex_placed``), Influence ``"q", "r", "from"?`` (as ``influence_placed``), Move ``"from", "to"`` (one step, as
``ship_moved``), Build ``"structure": orbital|monolith, "q", "r"`` (as ``structure_built``) or ``"ship"`` (a ship
type: nothing on the map is followed)."""
PASSED = "passed"
"""``{}``: the player passes (again, after passing: no reaction this turn)."""
PHASE_ENDED = "phase_ended"
"""``{}``: the current phase is over (Combat, Upkeep, Cleanup; the Action phase ends when all have passed)."""
DIRECTION_CHOSEN = "direction_chosen"
"""``{"direction": "clockwise" | "counter-clockwise"}``: the Turn Order card's holder chooses, end of Cleanup."""
HEX_PLACED = "hex_placed"
"""``{"sector": "204", "q", "r", "rotation": 0-5, "from"?: {"q", "r"}}``: a sector tile laid (explored, or a
start tile at setup); ``from`` is the explorer's hex when known."""
INFLUENCE_PLACED = "influence_placed"
"""``{"q", "r", "from"?: {"q", "r"}}``: the player's influence disc on a hex (``from``: where it came from)."""
INFLUENCE_REMOVED = "influence_removed"
"""``{"q", "r"}``: the disc on that hex goes back (bankruptcy, population wiped out, moved away)."""
SHIP_MOVED = "ship_moved"
"""``{"from": {"q", "r"}, "to": {"q", "r"}, "ship"?, "jump"?: true, "again"?: true, "carried"?: true}``: one step of
one ship's move (``jump``: the ship's jump with a Jump Drive, Rise of the Ancients p.8; a Move's own step may carry it
too; ``again``: the same ship's next activation; ``carried``: an Interceptor riding in an Interceptor Bay, p.4)."""
ANCIENTS_DESTROYED = "ancients_destroyed"
"""``{"q", "r", "count"?: n, "guardian"?: bool}``: the player destroyed ``count`` basic Ancients there, or its
guardian (the GCDS, the Ancient Dreadnought, an Ancient Cruiser)."""
HIVE_ROLLED = "hive_rolled"
"""``{"q", "r", "die": 1-6, "to"?: {"q", "r"}}``: a Hive's roll at the end of Cleanup; ``to`` is the explored
hex beyond the wormhole with that number (the players read it off the tile), where one Ancient moves."""
STRUCTURE_BUILT = "structure_built"
"""``{"q", "r", "structure": orbital|monolith|shellworld|warp_portal|ancient_warp_portal|ancient_orbital|shrine,
"colour"?: money|science|materials}``: something built or laid on a hex (a Shrine has a colour)."""
BLUEPRINT_SET = "blueprint_set"
"""``{"ship": Interceptor|Cruiser|Dreadnought|Starbase, "computers"?, "shields"?, "hull"?, "initiative"?,
"cannons"?: {colour: n}, "missiles"?: {colour: n}}``: the player's blueprint of that ship type as it is now."""
VOLLEY_AIMED = "volley_aimed"
"""``{"ship", "target"?: player or "Ancients", "target_ship"?, "computers"?, "shields"?, "missiles"?: bool,
"distortion_shield"?: bool}``: a ship type fires at a target; the dice are rolled next (read by the camera or
tapped in). Computers and shields come from the blueprints unless given."""
VOLLEY_ROLLED = "volley_rolled"
"""``{"dice": [{"colour": yellow|orange|red, "face": 1-6}], "computers"?: n, "shields"?: n, "missiles"?: bool,
"distortion_shield"?: bool}``: one ship type's volley against one target: which dice hit, the damage (the
aimed volley's computers and shields when they are left out)."""
RELATIONS_FORMED = "relations_formed"
"""``{"with": player}``: the player and ``with`` exchange Ambassadors (diplomatic relations)."""
RELATIONS_BROKEN = "relations_broken"
"""``{"with": player}``: the player attacks ``with``: the Ambassadors go back, the player takes the Traitor card."""
ALLIANCE_FOUNDED = "alliance_founded"
"""``{"alliance": name, "with": player}``: the player and ``with`` found an alliance, tiles face up."""
ALLIANCE_JOINED = "alliance_joined"
"""``{"alliance": name}``: the player joins an alliance as its third member (6 or more players)."""
ALLIANCE_LEFT = "alliance_left"
"""``{"traitor_card"?: bool}``: the player turns their Alliance tile to its Traitor side; ``traitor_card``:
their ships shared a hex with a former ally's, so they also take the Traitor card."""
POSITION_REPORTED = "position_reported"
"""The player's end-of-game position, hidden information included: any fields of the score file's player
object but ``name`` and ``species`` (``reputation``, ``tech_tracks``, ``resources``, ...); what the player
reports replaces what the box followed."""
GAME_ENDED = "game_ended"
"""``{}``: the table stops waiting for reports; the game is scored as reported."""


def cell(ctx: EventContext, key: str | None = None) -> Cell:
    """``payload[key]`` (an ``{"q", "r"}`` object) or, without ``key``, the payload's own ``q`` and ``r``.

    Raises:
        BadEvent: missing, or not two whole numbers (the hex named as the form labels it: "From hex [q, r]: q must
            be a whole number, got '2'").
    """
    raw = ctx.payload if key is None else ctx.require(key, dict)
    q, r = raw.get("q"), raw.get("r")
    for name, value in (("q", q), ("r", r)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ctx.bad(Text("{what}: {coordinate} must be a whole number, got {value}",
                               what=CELL_WORDS.get(key, key), coordinate=name, value=repr(value)))
    return (q, r)


def optional_cell(ctx: EventContext, key: str) -> Cell | None:
    """:func:`cell` of ``payload[key]``, or None when it is absent or null."""
    return None if ctx.payload.get(key) is None else cell(ctx, key)


def direction(value: Any) -> bool | None:
    """``"clockwise"`` -> True, ``"counter-clockwise"`` (or ``"counterclockwise"``) -> False, else None."""
    if value == "clockwise":
        return True
    if value in ("counter-clockwise", "counterclockwise", "anticlockwise"):
        return False
    return None
