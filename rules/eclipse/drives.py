"""A ship's hexes in one activation of a Move, counted against its drives.

The rules (Eclipse, Move action; Rise of the Ancients p.4, Ship activation): a Move is several activations, each
moving one ship hex by hex, at most as many hexes as its Movement value, the total of the drives on its blueprint
(Nuclear Drive 1, Fusion Drive 2, Tachyon Drive 3, as printed on the tiles). A Starbase has no drives and never moves
(Upgrade action: Starbase blueprints take no drives).

A Jump Drive (Rise of the Ancients p.8, New Discoveries) is a move beyond the drives: once per activation, the ship
moves to any neighbouring hex whatever its wormholes ("μπορείτε να μετακινήσετε το Σκάφος σε οποιοδήποτε γειτονικό
εξάγωνο, άσχετα με το τι Σκουληκότρυπες υπάρχουν ... μια φορά ανά ενεργοποίηση Σκάφους"), and a ship activated again in
the same Move jumps again. Its own example has Cruisers with Nuclear Drives move one hex and jump one more, so the jump
is not counted in the Movement: a ship with a Jump Drive moves its Movement plus one hex an activation (a ship whose
only drive is a Jump Drive, Movement 0, one hex). The Greek text also says the Jump Drive "cannot be on a ship with
other drives", which its own example contradicts (the English rulebook, p.7, has it as possibly a ship's only drive):
UNCONFIRMED, so a Jump Drive beside other drives is never flagged. A step the table does not mark as the jump is taken
as the jump when the ship has a Jump Drive not yet used in the activation and the step needs it (no wormhole joins the
hexes, or it is a hex beyond the Movement): no false flag.

What the box knows: a Move's first step and each "one more step" name the hexes, and may name the ship type; a
blueprint reported with its Movement (``blueprint_set``'s ``movement``) gives that type's value. A step that goes on
from the hex where the last one ended, naming no other ship type, is the same ship's next hex; any other step starts
another activation (another ship). Nothing is counted against a ship type whose Movement was not reported.

Pure: :func:`step` returns the activation after a step and the verdicts on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.eclipse.galaxy import Cell
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ship_word
from rules.text import N_, Text, plural

__all__ = ["DRIVES", "JUMP_DRIVE", "Activation", "step"]

DRIVES = N_("Move action (a ship moves up to its Movement, its drives' total); Upgrade action (no drives on a "
            "Starbase)")
JUMP_DRIVE = N_("Rise of the Ancients p.8, Jump Drive (one jump an activation, to a neighbouring hex whatever its "
                "wormholes)")


@dataclass(frozen=True)
class Activation:
    """One ship's activation under way in a player's Move.

    Attributes:
        ship: the ship type moving (``"Interceptor"``, ...), or None when no step named it.
        at: the hex where its last step ended, or None before its first step (a Move reported without hexes).
        hexes: the hexes it has moved in this activation (its jump included).
        jumped: it has made its jump (Jump Drive) in this activation.
    """

    ship: str | None = None
    at: Cell | None = None
    hexes: int = 0
    jumped: bool = False


def step(before: Activation | None, frm: Cell, to: Cell, *, ship: str | None, player: str,
         blueprints: Mapping[tuple[str, str], Any], same_move: bool, jump: bool = False,
         wormhole: bool = True) -> tuple[Activation, list[Verdict]]:
    """One step of a ship from ``frm`` to ``to`` by ``player``: the activation it belongs to and the verdicts.

    Args:
        before: the player's activation under way (None: none).
        ship: the ship type the step names, or None.
        blueprints: ``(player, ship type)`` -> a blueprint with ``movement`` (int, or None: not reported) and
            ``jump_drive`` (True, False, or None: not reported).
        same_move: the step belongs to the Move under way (:func:`rules.eclipse.rounds.may_step`); False for a Move's
            own first step and for a step with no Move (each starts a new activation).
        jump: the table marks the step as the ship's jump (Jump Drive).
        wormhole: the hexes are joined for an ordinary step (a wormhole, Wormhole Generator, portals); False: only a
            jump takes the ship there.

    Returns:
        The activation after the step (``jumped``: the step is, or may be, its jump), and ``starbase_moves`` (illegal:
        a Starbase never moves), ``second_jump`` (a second jump in one activation), ``jump_without_drive`` (a jump
        by a ship whose blueprint was reported without a Jump Drive) or ``beyond_movement`` (illegal: more hexes than
        the ship's Movement, and its jump), or no verdict.
    """
    going_on = (same_move and before is not None and before.at == frm
                and (ship is None or before.ship is None or ship == before.ship))
    if going_on:
        assert before is not None
        now = Activation(ship or before.ship, to, before.hexes + 1, before.jumped)
    else:
        now = Activation(ship if ship is not None else (before.ship if same_move and before and before.at is None
                                                        else None), to, 1)
    blueprint = blueprints.get((player, now.ship)) if now.ship is not None else None
    movement = getattr(blueprint, "movement", None)
    jump_drive = getattr(blueprint, "jump_drive", None)
    verdicts: list[Verdict] = []
    jumped_before = now.jumped
    beyond = movement is not None and now.hexes > movement
    if not now.jumped and jump_drive is not False and (jump or (jump_drive and (not wormhole or beyond))):
        now = replace(now, jumped=True)  # this step is the activation's jump (a ship without one makes none)
    if now.ship is None:  # which ship goes on from the hex is not known: nothing is counted
        return now, verdicts
    if jump and jumped_before:
        verdicts.append(Verdict("second_jump", False, JUMP_DRIVE,
                                Text("{player}'s {ship} jumps a second time in one activation: a Jump Drive is used "
                                     "once an activation", player=player, ship=ship_word(now.ship)),
                                Text("take the step back")))
    if now.ship == "Starbase":
        return now, [Verdict("starbase_moves", False, DRIVES,
                             Text("{player} moves a {ship}: a Starbase has no drives and never moves", player=player,
                                  ship=ship_word("Starbase")), Text("take the step back"))]
    if jump and jump_drive is False:
        verdicts.append(Verdict("jump_without_drive", False, JUMP_DRIVE,
                                Text("{player}'s {ship} jumps, but its blueprint has no Jump Drive", player=player,
                                     ship=ship_word(now.ship)),
                                Text("take the step back, or correct the blueprint")))
    if movement is not None and now.hexes > movement + (1 if now.jumped else 0):
        verdicts.append(Verdict("beyond_movement", False, DRIVES,
                                plural("{player}'s {ship} moves {n} hex in one activation, but its drives give it "
                                       "Movement {movement}",
                                       "{player}'s {ship} moves {n} hexes in one activation, but its drives give it "
                                       "Movement {movement}", now.hexes, player=player, ship=ship_word(now.ship),
                                       movement=movement),
                                Text("take the step back, or correct the Movement on the blueprint")))
    return now, verdicts
