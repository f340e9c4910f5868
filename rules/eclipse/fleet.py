"""The combat helper's events: ship blueprints, a volley aimed, a volley rolled (its dice, which hit, the damage).

At the table a player says which ship type fires at which target (``volley_aimed``: the computers and shields that
count come from the blueprints the players reported, ``blueprint_set``, unless they are given), rolls, and the dice
are read by the camera or tapped in (``volley_rolled``): the engine says which dice hit and the damage
(:func:`rules.eclipse.combat.resolve_volley`). A die that cannot be (a face outside 1-6, a colour Eclipse has not)
is left out and asked about (``impossible_die``), never changed.

Rules: Eclipse, Combat (dice, computers and shields; a 6 always hits, a 1 always misses); Rise of the Ancients p.4
(Distortion Shield against missiles). A handler is ``handler(game, state, ctx) -> state`` (:mod:`rules.engine`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import Severity
from rules.eclipse import combat
from rules.eclipse.drives import DRIVES, JUMP_BESIDE_DRIVES
from rules.eclipse.refusals import ship_type
from rules.eclipse.state import EclipseState
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import ANCIENTS_WORD, CANNON_WORDS, MISSILE_WORDS, PART_WORDS, PHASE_WORDS, ship_word
from rules.engine import EventContext
from rules.refusals import not_one_of, whole
from rules.text import N_, Text

__all__ = ["ANCIENTS", "Blueprint", "MISSILE_COLOURS", "blueprint_set", "hit_on", "volley_aimed", "volley_rolled"]

ANCIENTS = "Ancients"
"""The target name of the Ancients' ships (and the GCDS, the Ancient Dreadnought)."""

MISSILE_COLOURS = ("yellow", "orange")
"""Missiles roll these dice: Flux Missiles yellow (Rise of the Ancients p.4), Plasma Missiles orange."""

MAX_PARTS = 12
"""At most this many of one part on a blueprint (a whole number a player reports is checked against it)."""

BLUEPRINTS = N_("Upgrade action (ship blueprints)")
STARBASE_JUMP = N_("Rise of the Ancients p.18, questions and answers (the Jump Drive is like every other drive and "
                   "is not placed on Starbases)")
"""The Greek rulebook's FAQ (p.18): "Ο Προωθητήρας Άλματος είναι σε κάθε περίπτωση σαν όλους τους άλλους
Προωθητήρες ... δεν μπορεί να τοποθετηθεί σε Αστροβάσεις" (the Jump Drive is in every respect like the other drives
... it cannot be placed on Starbases)."""


@dataclass(frozen=True)
class Blueprint:
    """One ship type's blueprint as the player reported it.

    Attributes:
        computers: the computer bonus (+1 Electron, +2 Positron, +3 Gluon: the sum of the parts).
        shields: the shields as a positive number (-1 Gauss is 1).
        hull: hull points.
        initiative: initiative (drives, computers and the printed bonus).
        cannons: dice per volley by colour (``{"yellow": 1}``: one Ion Cannon).
        missiles: missile dice by colour.
        movement: the Movement value, the drives' total (Nuclear Drive 1, Fusion 2, Tachyon 3), hexes per activation
            of a Move (:mod:`rules.eclipse.drives`); None when not reported (nothing is counted against it).
        jump_drive: it carries a Jump Drive (Rise of the Ancients p.8: one jump an activation beyond the Movement);
            None when not reported (a step the table marks as a jump is taken as one).
    """

    computers: int = 0
    shields: int = 0
    hull: int = 0
    initiative: int = 0
    cannons: Mapping[str, int] = field(default_factory=dict)
    missiles: Mapping[str, int] = field(default_factory=dict)
    movement: int | None = None
    jump_drive: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"computers", "shields", "hull", "initiative", "cannons": {colour: n}, "missiles": {colour: n},
        "movement": n or null, "jump_drive": true, false or null}``."""
        return {"computers": self.computers, "shields": self.shields, "hull": self.hull, "initiative": self.initiative,
                "cannons": dict(self.cannons), "missiles": dict(self.missiles), "movement": self.movement,
                "jump_drive": self.jump_drive}


def hit_on(computers: int, shields: int) -> int:
    """The least face that hits (2-6): ``6 - computers + shields``, never below 2 (a 1 always misses) nor above 6 (a 6
    always hits). Eclipse, Combat."""
    return min(6, max(2, 6 - computers + shields))


def _dice_counts(ctx: EventContext, key: str, colours: tuple[str, ...]) -> dict[str, int]:
    """``payload[key]``, ``{colour: n}``: a blueprint's cannons or missiles of each die colour, 0-:data:`MAX_PARTS`.

    Raises:
        BadEvent: not an object, a colour that weapon does not roll, or a count that is no whole number in range
            (each named as the blueprint form labels it).
    """
    raw = ctx.get(key, {}, dict)
    words = CANNON_WORDS if key == "cannons" else MISSILE_WORDS
    out: dict[str, int] = {}
    for colour, n in raw.items():
        if colour not in colours:
            raise not_one_of(ctx, colour, PART_WORDS[key], {c: words[c] for c in colours})
        n = whole(ctx, n, words[colour], 0, MAX_PARTS)
        if n:
            out[colour] = n
    return out


def _small(ctx: EventContext, key: str) -> int | None:
    """``payload[key]`` (a blueprint's or a volley's computers, shields, hull, initiative or Movement), 0-
    :data:`MAX_PARTS`, or None when absent.

    Raises:
        BadEvent: no whole number in range, named as the blueprint form labels the field.
    """
    value = ctx.payload.get(key)
    return None if value is None else whole(ctx, value, PART_WORDS[key], 0, MAX_PARTS)


def blueprint_set(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """``{"ship", "computers"?, "shields"?, "hull"?, "initiative"?, "cannons"?: {colour: n},
    "missiles"?: {colour: n}, "movement"?, "jump_drive"?}``: the player's blueprint of that ship type as it is now
    (after an Upgrade); what is left out is 0, but a Movement or a Jump Drive left out is not known (a Move's hexes are
    then not counted, a jump is taken as the table marks it).
    A Jump Drive beside other drives (Movement above 0) is allowed and said so, ``jump_beside_drives``, information
    (Rise of the Ancients p.8 and p.16, the examples; :data:`rules.eclipse.drives.JUMP_BESIDE_DRIVES`).
    A Starbase blueprint with a Movement above 0 is recorded with ``starbase_drives``, an error (Eclipse, Upgrade
    action: Starbase blueprints take no drives; :data:`rules.eclipse.drives.DRIVES`), and so is one with a Jump Drive
    alone (Movement 0; Rise of the Ancients p.18: the Jump Drive is like every other drive and is not placed on
    Starbases, :data:`STARBASE_JUMP`)."""
    name = ctx.player()
    ship = ship_type(ctx, "ship")
    blueprint = Blueprint(computers=_small(ctx, "computers") or 0, shields=_small(ctx, "shields") or 0,
                          hull=_small(ctx, "hull") or 0, initiative=_small(ctx, "initiative") or 0,
                          cannons=_dice_counts(ctx, "cannons", tuple(combat.DAMAGE)),
                          missiles=_dice_counts(ctx, "missiles", MISSILE_COLOURS), movement=_small(ctx, "movement"),
                          jump_drive=ctx.get("jump_drive", None, bool))
    if ship == "Starbase" and blueprint.movement:
        verdict = Verdict("starbase_drives", False, DRIVES,
                          Text("{player}'s Starbase blueprint has Movement {movement}, but a Starbase takes no drives",
                               player=name, movement=blueprint.movement),
                          Text("take the drives off the Starbase blueprint (Movement 0)"))
        ctx.add(verdict.finding(seq=ctx.event.seq, player=name, where=name))
    elif ship == "Starbase" and blueprint.jump_drive:  # a drive too: never on a Starbase (p.18)
        verdict = Verdict("starbase_drives", False, STARBASE_JUMP,
                          Text("{player}'s Starbase blueprint has a Jump Drive, but a Starbase takes no drives, the "
                               "Jump Drive neither", player=name),
                          Text("take the Jump Drive off the Starbase blueprint"))
        ctx.add(verdict.finding(seq=ctx.event.seq, player=name, where=name))
    elif blueprint.jump_drive and blueprint.movement:  # allowed: rules/eclipse/drives.py says why
        verdict = Verdict("jump_beside_drives", True, JUMP_BESIDE_DRIVES,
                          Text("{player}'s {ship} has a Jump Drive beside other drives (Movement {movement}): "
                               "allowed, as in the rulebook's examples (a Cruiser with the Jump Drive and a Fusion "
                               "Drive, p.8; the Syndicate's Cruisers with Jump Drives and Nuclear Drives, p.16): each "
                               "activation, its Movement and one jump", player=name, ship=ship_word(ship),
                               movement=blueprint.movement))
        ctx.add(verdict.finding(seq=ctx.event.seq, player=name, where=name))
    return replace(state, blueprints={**state.blueprints, (name, ship): blueprint})


def _target(ctx: EventContext, me: str) -> str | None:
    target = ctx.get("target", None, str)
    if target is None or target == ANCIENTS:
        return target
    if target == me or target not in ctx.players:
        raise ctx.bad(Text("the target must be another player or {ancients}, got {target}", ancients=ANCIENTS_WORD,
                           target=target))
    return target


def _label(player: str | None, ship: str | None, target: str | None, target_ship: str | None) -> str:
    if player:
        shooter = Text("{player}'s {ship}", player=player, ship=ship_word(ship)) if ship else \
            Text("{player}'s ships", player=player)
    else:
        shooter = ship_word(ship) or Text("a volley")
    if target is None:
        return shooter
    if target == ANCIENTS:
        aimed: str = Text("Ancients")
    else:
        aimed = Text("{player}'s {ship}", player=target, ship=ship_word(target_ship)) if target_ship else \
            Text("{player}'s ships", player=target)
    return Text("{shooter} at {target}", shooter=shooter, target=aimed)


def volley_aimed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """``{"ship", "target"?: player or "Ancients", "target_ship"?, "computers"?, "shields"?, "missiles"?: bool,
    "distortion_shield"?: bool}``: which ship type fires at whom, before the dice are rolled. Computers come from
    the firing ship's blueprint and shields from the target's, unless given (0 without a blueprint); the dice to
    roll are the blueprint's cannons (or missiles)."""
    name = ctx.player()
    ship = ship_type(ctx, "ship")
    target = _target(ctx, name)
    target_ship = ship_type(ctx, "target_ship", required=False)
    missiles = ctx.get("missiles", False, bool)
    own = state.blueprints.get((name, ship))
    theirs = state.blueprints.get((target, target_ship)) if target and target_ship else None
    computers = _small(ctx, "computers")
    shields = _small(ctx, "shields")
    computers = computers if computers is not None else (own.computers if own else 0)
    shields = shields if shields is not None else (theirs.shields if theirs else 0)
    roll = dict((own.missiles if missiles else own.cannons) if own else {})
    if state.rounds.phase != "combat":
        ctx.add(Verdict("combat_timing", True, combat.COMBAT,
                        Text("{player} fires in the {phase} phase; battles are fought in the Combat phase",
                                                           player=name,
                             phase=PHASE_WORDS.get(state.rounds.phase, state.rounds.phase)),
                        Text("check the phase"), warning=True)
                .finding(seq=ctx.event.seq, player=name, where=name))
    aim = {"player": name, "ship": ship, "target": target, "target_ship": target_ship, "computers": computers,
           "shields": shields, "missiles": missiles, "distortion_shield": ctx.get("distortion_shield", False, bool),
           "roll": roll, "label": _label(name, ship, target, target_ship)}
    hit = hit_on(computers, shields + (combat.DISTORTION_SHIELD_MALUS if missiles and aim["distortion_shield"] else 0))
    ctx.finding(Text("{volley}: a die hits on {hit} or more (computers +{computers}, shields -{shields})",
                     volley=aim["label"], hit=hit, computers=computers, shields=shields), name,
                Severity.INFO, combat.COMBAT, player=name, rule_kind="volley_aimed")
    return replace(state, aim=aim)


def volley_rolled(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """One ship type's volley against one target (:func:`rules.eclipse.combat.resolve_volley`): which dice hit and
    the damage, kept for the views; a die that cannot be is asked about, not changed. Without ``computers`` /
    ``shields`` the aimed volley's (``volley_aimed`` by the same player) count, else 0; ``ship``, ``target`` and
    ``target_ship`` (as ``volley_aimed``'s) name it when nothing was aimed. A volley naming a ship, target or target
    ship other than the aimed one's is a volley of its own: neither the aimed computers and shields nor its name
    are taken for it (Eclipse, Combat: each ship type fires at its own target)."""
    dice = ctx.require("dice", list)
    player = ctx.player() if (ctx.event.player or ctx.payload.get("player")) is not None else None
    aim = state.aim if state.aim is not None and state.aim.get("player") in (player, None) else None
    if aim is not None and player is not None:  # a volley that names another ship or target is not the one aimed
        named = {"ship": ship_type(ctx, "ship", required=False), "target": _target(ctx, player),
                 "target_ship": ship_type(ctx, "target_ship", required=False)}
        if any(value is not None and aim.get(key) != value for key, value in named.items()):
            aim = None
    computers = ctx.count("computers", ctx.payload["computers"]) if ctx.payload.get("computers") is not None \
        else (aim or {}).get("computers", 0)
    shields = ctx.count("shields", ctx.payload["shields"]) if ctx.payload.get("shields") is not None \
        else (aim or {}).get("shields", 0)
    missiles = ctx.get("missiles", (aim or {}).get("missiles", False), bool)
    distortion = ctx.get("distortion_shield", (aim or {}).get("distortion_shield", False), bool)
    volley = combat.resolve_volley(dice, computers, shields, missiles=missiles, distortion_shield=distortion)
    ctx.add(*(q.finding(seq=ctx.event.seq, player=player, where=player or "table") for q in volley.questions))
    label = (aim or {}).get("label") or _label(player, ship_type(ctx, "ship", required=False),
                                               _target(ctx, player) if player else None,
                                               ship_type(ctx, "target_ship", required=False))
    result = {**volley.to_json(), "computers": computers, "shields": shields, "missiles": missiles, "player": player,
              "label": label,
              "hit_on": hit_on(computers, shields + (combat.DISTORTION_SHIELD_MALUS if missiles and distortion else 0)),
              "questions": [q.message for q in volley.questions]}
    ctx.finding(Text("{volley}: {hits} of {count} dice hit, {damage} damage", volley=label, hits=volley.hits,
                     count=len(volley.results), damage=volley.damage), player or Text("combat"),
                Severity.INFO, combat.COMBAT, player=player, rule_kind="volley")
    return replace(state, volley=result, aim=None)
