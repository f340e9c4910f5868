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
only drive is a Jump Drive, Movement 0, one hex).

A Jump Drive beside other drives is allowed (:data:`JUMP_BESIDE_DRIVES`). The Greek text of p.8 says "Ο Προωθητήρας
άλματος δεν μπορεί να συνυπάρχει με άλλους προωθητήρες σε ένα Σκάφος" (it cannot be on a ship with other drives), and
the Greek FAQ of p.18 "Πρέπει να είναι ο μόνος Προωθητήρας του Σκάφους" (it must be the ship's only drive), yet the
rulebook's own examples put it beside other drives twice: p.8, "Το Καταδρομικό του Κόκκινου έχει τον Προωθητήρα
Άλματος και έναν Προωθητήρα Τήξης" (a Cruiser with the Jump Drive and a Fusion Drive moves 2 hexes and jumps in one
activation), and p.16, the Syndicate's Cruisers "έχουν Προωθητήρες Άλματος, επιπροσθέτως των Πυρηνικών Προωθητήρων"
(Jump Drives in addition to their Nuclear Drives). The same FAQ answer opens "the Jump Drive is in every respect like
the other drives", and the English rulebook (p.7) says it may be a ship's only drive: the Greek sentences read "may be
the only drive" as "must be". The examples, worked step by step, are the rule the box follows; a blueprint with both
gets a note saying so (``jump_beside_drives``, information), never a flag.

A step the table does not mark as the jump is taken as the jump when the ship has a Jump Drive not yet used in the
activation and the step needs it (no wormhole joins the hexes, or it is a hex beyond the Movement): no false flag.

Activations (Rise of the Ancients p.4, Ship activation: "the number of arrows on your Move action symbol is the
number of activations per Move"): a Move gives as many activations as its species' board shows
(:data:`rules.eclipse.data.MOVE_ACTIVATIONS`: Magellan, Exiles and the Enlightened 2, the Rho Indi Syndicate 4,
p.14-15; the base game's species are not counted, their boards not being in the sources), and a Move reaction, after
passing, one (:data:`REACTION_ACTIVATIONS`: UNCONFIRMED, so asked as a warning). One more activation than a species'
Move gives is flagged (``too_many_activations``, an error); a second one in a reaction is asked about (the same kind,
a warning). One ship may be activated again in
the same Move (p.8's example: the Magellan player's Cruiser, twice): the step that starts its next activation says so
(``again``), else it is taken as the same activation going on.

Interceptor Bay (Rise of the Ancients p.4, New ship parts: "each Interceptor Bay lets you move up to two non-pinned
Interceptors there with one single Ship activation"; after the activation one or more may leave the Bay and move on
their own with further activations; they leave the Bay at the end of the Move; p.16's example: a Dreadnought carries
two Interceptors through a Warp Portal): a step reported ``carried`` is an Interceptor riding in the Bay of the ship
whose activation is under way, so it starts no activation and is not counted against a Movement (:func:`carried`).
The box cannot count the Interceptors one Bay holds (ships of a type are alike and the blueprint's parts are not
reported), so two a Bay is said, not checked.

What the box knows: a Move's first step and each "one more step" name the hexes, and may name the ship type; a
blueprint reported with its Movement (``blueprint_set``'s ``movement``) gives that type's value. A step that goes on
from the hex where the last one ended, naming no other ship type and not marked ``again``, is the same ship's next
hex; any other step starts another activation (another ship, or the same one again). Nothing is counted against a
ship type whose Movement was not reported.

Pure: :func:`step` returns the activation after a step and the verdicts on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.eclipse.data import MOVE_ACTIVATIONS
from rules.eclipse.galaxy import Cell
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ship_word
from rules.text import N_, Text, plural

__all__ = ["ACTIVATIONS", "DRIVES", "JUMP_BESIDE_DRIVES", "JUMP_DRIVE", "REACTION_ACTIVATIONS", "Activation",
           "activations_allowed", "carried", "step"]

DRIVES = N_("Move action (a ship moves up to its Movement, its drives' total); Upgrade action (no drives on a "
            "Starbase)")
JUMP_DRIVE = N_("Rise of the Ancients p.8, Jump Drive (one jump an activation, to a neighbouring hex whatever its "
                "wormholes)")

JUMP_BESIDE_DRIVES = N_("Rise of the Ancients p.8 and p.16, Jump Drive (examples: a Jump Drive beside a Fusion "
                        "Drive, and beside Nuclear Drives)")
ACTIVATIONS = N_("Rise of the Ancients p.4, Ship activation (a Move gives as many activations as the arrows on "
                 "your Move action symbol); species boards p.14-15")
INTERCEPTOR_BAY = N_("Rise of the Ancients p.4, Interceptor Bay (up to two Interceptors ride with the ship's one "
                      "activation)")
REACTION = N_("Passing (a reaction: a weaker Upgrade, Build or Move, one activation)")
REACTION_ACTIVATIONS = 1
"""Ship activations in a Move reaction, taken after passing. UNCONFIRMED: the sources have a reaction only as a weaker
Upgrade, Build or Move (Eclipse, Action phase, Passing, from the first edition's summary cards); its exact limit, one
activation, is in no stored rulebook, and the Greek Rise of the Ancients rulebook says nothing of reactions. So a
reaction's second activation is a warning for the table to settle, never a misplay."""


def activations_allowed(species: str | None, *, reaction: bool) -> tuple[int, int] | None:
    """The ship activations one Move of a ``species`` player allows and the Rise of the Ancients page saying so
    (:data:`rules.eclipse.data.MOVE_ACTIVATIONS`), ``(1, 0)`` for a reaction (page 0: Passing, UNCONFIRMED:
    :data:`REACTION_ACTIVATIONS`), or None when the box does not know (a base game species, or none recorded): not
    counted."""
    if reaction:
        return REACTION_ACTIVATIONS, 0
    return MOVE_ACTIVATIONS.get(species or "")


@dataclass(frozen=True)
class Activation:
    """One ship's activation under way in a player's Move.

    Attributes:
        ship: the ship type moving (``"Interceptor"``, ...), or None when no step named it.
        at: the hex where its last step ended, or None before its first step (a Move reported without hexes).
        hexes: the hexes it has moved in this activation (its jump included).
        jumped: it has made its jump (Jump Drive) in this activation.
        number: which activation of the Move it is (1 for the Move's first).
        path: the hexes it has passed in this activation, the one it started from first (empty before its first
            step): where Interceptors riding in its Interceptor Bay may go (:func:`carried`).
    """

    ship: str | None = None
    at: Cell | None = None
    hexes: int = 0
    jumped: bool = False
    number: int = 1
    path: tuple[Cell, ...] = field(default=(), compare=False)  # where it went, not what the activation counts


def step(before: Activation | None, frm: Cell, to: Cell, *, ship: str | None, player: str,
         blueprints: Mapping[tuple[str, str], Any], same_move: bool, jump: bool = False,
         wormhole: bool = True, again: bool = False, species: str | None = None,
         reaction: bool = False) -> tuple[Activation, list[Verdict]]:
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
        again: the step starts another activation even where it goes on from the last one's hex (the same ship
            activated again in the Move, p.8's example).
        species: the player's species (None: not recorded), for the activations a Move gives
            (:func:`activations_allowed`).
        reaction: the Move is a reaction (the player has passed): one activation.

    Returns:
        The activation after the step (``jumped``: the step is, or may be, its jump), and ``starbase_moves`` (illegal:
        a Starbase never moves), ``second_jump`` (a second jump in one activation), ``jump_without_drive`` (a jump
        by a ship whose blueprint was reported without a Jump Drive), ``beyond_movement`` (illegal: more hexes than
        the ship's Movement, and its jump), ``too_many_activations`` (illegal: an activation beyond those a species'
        Move gives; a warning in a reaction, whose limit is unconfirmed; said once, at the step starting it), or no
        verdict.
    """
    going_on = (same_move and before is not None and before.at == frm and not (again and before.hexes)
                and (ship is None or before.ship is None or ship == before.ship))
    if going_on:
        assert before is not None
        now = Activation(ship or before.ship, to, before.hexes + 1, before.jumped, before.number,
                         before.path + (to,))
    else:
        unmoved = same_move and before is not None and before.at is None  # a Move reported with no hexes: its ship
        number = before.number + (0 if unmoved else 1) if same_move and before is not None else 1
        now = Activation(ship if ship is not None else (before.ship if unmoved and before else None), to, 1,
                         number=number, path=(frm, to))
    counted = _activation_verdicts(now, before, player=player, species=species, reaction=reaction)
    now, verdicts = _drive_verdicts(now, player=player, blueprints=blueprints, jump=jump, wormhole=wormhole,
                                    went_on=going_on)
    return now, [*counted, *verdicts]


def carried(before: Activation | None, frm: Cell, to: Cell, *, ship: str | None,
            player: str) -> tuple[Activation | None, list[Verdict]]:
    """One step of an Interceptor riding in an Interceptor Bay (Rise of the Ancients p.4: up to two non-pinned
    Interceptors move with the carrying ship's one activation): no activation of its own, nothing counted against a
    Movement, so the carrying ship's activation goes on unchanged (an Interceptor that leaves the Bay and moves on its
    own afterwards is an ordinary step: another activation).

    Args:
        before: ``player``'s activation under way (the carrying ship's), or None.
        frm, to: the step's hexes: the Interceptor goes where the carrying ship went, from one hex of its activation
            to a later one.
        ship: the ship type the step names (None: taken as an Interceptor).
        player: who reports the step.

    Returns:
        ``before`` unchanged and the verdicts: ``carried_not_interceptor`` (illegal: only Interceptors ride in an
        Interceptor Bay), ``carried_without_carrier`` (illegal: no ship of the Move has moved to carry it, or the one
        moving is an Interceptor itself), ``carried_off_path`` (illegal: the carrying ship did not go from ``frm`` to
        ``to`` in its activation), or none.
    """
    if ship is not None and ship != "Interceptor":
        return before, [Verdict("carried_not_interceptor", False, INTERCEPTOR_BAY,
                                Text("{player}'s {ship} is reported riding in an Interceptor Bay: only Interceptors "
                                     "ride in one", player=player, ship=ship_word(ship)),
                                Text("report it as a step of its own, or take the step back"))]
    if before is None or before.at is None or before.ship == "Interceptor":
        return before, [Verdict("carried_without_carrier", False, INTERCEPTOR_BAY,
                                Text("{player} reports an Interceptor riding in an Interceptor Bay, but no ship with "
                                     "a Bay has moved in this Move to carry it", player=player),
                                Text("report the carrying ship's step first, naming it, then the Interceptors"))]
    path = before.path
    if frm not in path or to not in path[path.index(frm) + 1:]:
        return before, [Verdict("carried_off_path", False, INTERCEPTOR_BAY,
                                Text("{player}'s Interceptor rides in an Interceptor Bay from ({q0}, {r0}) to ({q1}, "
                                     "{r1}), but the ship carrying it has not moved from the one to the other in "
                                     "this activation", player=player, q0=frm[0], r0=frm[1], q1=to[0], r1=to[1]),
                                Text("report the Interceptor on the carrying ship's hexes, or as a step of its own"))]
    return before, []


def _activation_verdicts(now: Activation, before: Activation | None, *, player: str, species: str | None,
                         reaction: bool) -> list[Verdict]:
    """``too_many_activations`` when ``now`` starts an activation beyond those the Move allows (said at the step
    starting it only; nothing when the box does not know how many: :func:`activations_allowed`)."""
    allowed = activations_allowed(species, reaction=reaction)
    if allowed is None or now.number <= allowed[0] or (before is not None and before.number == now.number):
        return []
    limit, page = allowed
    if page == 0:
        return [Verdict("too_many_activations", True, REACTION,  # a warning: REACTION_ACTIVATIONS is unconfirmed
                        Text("{player} has passed: a Move reaction is one activation (one ship moved once), and this "
                             "step starts activation {n}", player=player, n=now.number),
                        Text("take the step back; another ship moves with another reaction on a later turn"),
                        warning=True)]
    return [Verdict("too_many_activations", False, ACTIVATIONS,
                    plural("{player} plays {species}: one Move gives {limit} activation (Rise of the Ancients "
                           "p.{page}), and this step starts activation {n}",
                           "{player} plays {species}: one Move gives {limit} activations (Rise of the Ancients "
                           "p.{page}), and this step starts activation {n}", limit, player=player,
                           species=species, limit=limit, page=page, n=now.number),
                    Text("take the step back; move that ship with your next Move"))]


def _drive_verdicts(now: Activation, *, player: str, blueprints: Mapping[tuple[str, str], Any], jump: bool,
                    wormhole: bool, went_on: bool = False) -> tuple[Activation, list[Verdict]]:
    """The activation after the step (its jump settled) and the drives' verdicts on it (:func:`step`). ``went_on``:
    the step was taken as the last one's activation going on (from its hex, the same ship type, not marked
    ``again``): the box cannot tell that ship from the same one activated again (ships of a type are alike and a step
    names no single ship), so a ``beyond_movement`` then says how to report another activation."""
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
                                Text("if this is the same ship activated again, undo the step and report it as "
                                     "starting another activation of the same ship (Rise of the Ancients p.4, Ship "
                                     "activation); else take it back, or correct the Movement on the blueprint")
                                if went_on
                                else Text("take the step back, or correct the Movement on the blueprint")))
    return now, verdicts
