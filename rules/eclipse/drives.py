"""A ship's hexes in one activation of a Move, counted against its drives.

The rules (Eclipse, Move action; Rise of the Ancients p.4, Ship activation): a Move is several activations, each
moving one ship hex by hex, at most as many hexes as its Movement value, the total of the drives on its blueprint
(Nuclear Drive 1, Fusion Drive 2, Tachyon Drive 3, as printed on the tiles). A Starbase has no drives and never moves
(Upgrade action: Starbase blueprints take no drives).

What the box knows: a Move's first step and each "one more step" name the hexes, and may name the ship type; a
blueprint reported with its Movement (``blueprint_set``'s ``movement``) gives that type's value. A step that goes on
from the hex where the last one ended, naming no other ship type, is the same ship's next hex; any other step starts
another activation (another ship). Nothing is counted against a ship type whose Movement was not reported.

Pure: :func:`step` returns the activation after a step and the verdicts on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.eclipse.galaxy import Cell
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ship_word
from rules.text import N_, Text, plural

__all__ = ["DRIVES", "Activation", "step"]

DRIVES = N_("Move action (a ship moves up to its Movement, its drives' total); Upgrade action (no drives on a "
            "Starbase)")


@dataclass(frozen=True)
class Activation:
    """One ship's activation under way in a player's Move.

    Attributes:
        ship: the ship type moving (``"Interceptor"``, ...), or None when no step named it.
        at: the hex where its last step ended, or None before its first step (a Move reported without hexes).
        hexes: the hexes it has moved in this activation.
    """

    ship: str | None = None
    at: Cell | None = None
    hexes: int = 0


def step(before: Activation | None, frm: Cell, to: Cell, *, ship: str | None, player: str,
         blueprints: Mapping[tuple[str, str], Any], same_move: bool) -> tuple[Activation, list[Verdict]]:
    """One step of a ship from ``frm`` to ``to`` by ``player``: the activation it belongs to and the verdicts.

    Args:
        before: the player's activation under way (None: none).
        ship: the ship type the step names, or None.
        blueprints: ``(player, ship type)`` -> a blueprint with ``movement`` (int, or None: not reported).
        same_move: the step belongs to the Move under way (:func:`rules.eclipse.rounds.may_step`); False for a Move's
            own first step and for a step with no Move (each starts a new activation).

    Returns:
        The activation after the step, and ``starbase_moves`` (illegal: a Starbase never moves) or
        ``beyond_movement`` (illegal: more hexes than the ship's Movement), or no verdict.
    """
    going_on = (same_move and before is not None and before.at == frm
                and (ship is None or before.ship is None or ship == before.ship))
    if going_on:
        assert before is not None
        now = Activation(ship or before.ship, to, before.hexes + 1)
    else:
        now = Activation(ship if ship is not None else (before.ship if same_move and before and before.at is None
                                                        else None), to, 1)
    if now.ship is None:
        return now, []
    if now.ship == "Starbase":
        return now, [Verdict("starbase_moves", False, DRIVES,
                             Text("{player} moves a {ship}: a Starbase has no drives and never moves", player=player,
                                  ship=ship_word("Starbase")), Text("take the step back"))]
    blueprint = blueprints.get((player, now.ship))
    movement = getattr(blueprint, "movement", None)
    if movement is not None and now.hexes > movement:
        return now, [Verdict("beyond_movement", False, DRIVES,
                             plural("{player}'s {ship} moves {n} hex in one activation, but its drives give it "
                                    "Movement {movement}",
                                    "{player}'s {ship} moves {n} hexes in one activation, but its drives give it "
                                    "Movement {movement}", now.hexes, player=player, ship=ship_word(now.ship),
                                    movement=movement),
                             Text("take the step back, or correct the Movement on the blueprint"))]
    return now, []
