"""The handlers of the map's events: hexes laid, influence discs, ship steps, Ancients, Hives, structures.

Each handler is ``handler(game, state, ctx) -> state`` (:mod:`rules.engine`). The rules are
:mod:`rules.eclipse.placement`'s (its verdicts become findings citing their rulebook section). A report the
table cannot be in (a hex on a taken space, a disc on a hex holding another's) leaves the state as it was; a
rule broken by what is on the table (a tile in the wrong ring, a disc beside surviving Ancients) is recorded as
reported, with its finding: the players decide.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from rules.core import WHOLE_TABLE
from rules.eclipse import drives
from rules.eclipse.data import UnknownSector, catalogue
from rules.eclipse.events import SHIP_MOVED, cell, optional_cell
from rules.eclipse.galaxy import Cell, PlacedHex, edge_between
from rules.eclipse.mapcheck import wormhole_generator
from rules.eclipse.placement import (
    STRUCTURES,
    check_explore,
    check_influence_target,
    check_link,
    check_shrines,
    check_start_sector,
    check_structure,
)
from rules.eclipse.refusals import ship_type
from rules.eclipse.rounds import may_step, step_verdicts
from rules.eclipse.state import EclipsePlayer, EclipseState, Structure, shrine_tiles
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import MODULE_WORDS, PHASE_WORDS, RESOURCE_WORDS, component_word, structure_word
from rules.engine import EventContext
from rules.refusals import not_one_of
from rules.text import N_, OR, Listing, Text

__all__ = [
    "ancients_destroyed",
    "has_generator",
    "hex_placed",
    "hive_rolled",
    "influence_placed",
    "influence_removed",
    "ship_moved",
    "structure_built",
]

MODULE_OF_KIND = {"ancient_hive": "hives", "warp_sector": "warp_portals", "ancient_homeworld": "ancient_homeworlds"}
"""The Rise of the Ancients module that puts each kind of tile in the game (p.6-8)."""
SHRINE_COLOURS = ("money", "science", "materials")
SHRINE_COSTS = (2, 4, 6)
SHRINE_TILES = 9
ANCIENT_CRUISERS = 8
MODULES = N_("Rise of the Ancients p.2 (the modules in play)")
HIVES = N_("Rise of the Ancients p.7 Ancient Hives")
SHRINES = N_("Rise of the Ancients p.15 Shrines")
DEVELOPMENT = N_("Rise of the Ancients p.5 Developments")
ANCIENTS = N_("Combat (Ancients); Rise of the Ancients p.6 Ancient Cruisers and Dreadnought")
DISC_BACK = N_("Influence action; Combat (population destroyed)")


def _acting(ctx: EventContext) -> str | None:
    """The player the event names, if any (checked against the table)."""
    if ctx.event.player is None and ctx.payload.get("player") is None:
        return None
    return ctx.player()


def _add(ctx: EventContext, verdicts: Iterable[Verdict], *, player: str | None = None, card: str | None = None,
         at: Cell | None = None) -> None:
    where = Text("hex ({q}, {r})", q=at[0], r=at[1]) if at is not None else (player or WHOLE_TABLE)
    ctx.add(*(v.finding(seq=ctx.event.seq, player=player, card=card, cell=at, where=where) for v in verdicts))


def has_generator(state: EclipseState, name: str | None) -> bool:
    """Whether ``name`` may use half wormholes: Wormhole Generator researched, or the Shrines of Freedom tile
    (three cost-2 Shrines, Rise of the Ancients p.15)."""
    if name is None:
        return False
    return wormhole_generator(list(state.player(name).techs)) or shrine_tiles(state, name).get(2, 0) >= 3


def _rotation(ctx: EventContext) -> int:
    rotation = ctx.require("rotation", int)
    if not 0 <= rotation <= 5:
        raise ctx.bad(Text("the rotation is 0-5 clockwise steps, got {rotation}", rotation=rotation))
    return rotation


def hex_placed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """A sector tile laid: a start tile at setup (:func:`check_start_sector`), else an explored hex
    (:func:`check_explore`). The tile's Ancients, Ancient Cruiser or Hive come with it."""
    sector_id = ctx.require("sector", str)
    try:
        sector = catalogue().sector(sector_id)
    except UnknownSector as exc:
        problem = Text("no sector {sector} in Eclipse or Rise of the Ancients", sector=repr(sector_id))
        if exc.suggestions:
            problem = Text("{problem}; did you mean {names}?", problem=problem, names=Listing(exc.suggestions, OR))
        raise ctx.bad(problem) from None
    at = cell(ctx)
    placed = PlacedHex(sector, at, _rotation(ctx))
    player = _acting(ctx)
    module = MODULE_OF_KIND.get(sector.kind)
    hidden = sector.kind == "ancient_homeworld" and state.hidden_worlds
    if module is not None and not state.modules.get(module) and not hidden:
        _add(ctx, [Verdict("module_not_in_play", True, MODULES,
            Text("{sector} belongs to {module}, which is not in play",
                 sector=sector.label, module=MODULE_WORDS.get(module, module)),
                           Text("take it out of the stack, or add the module"), warning=True)],
             player=player, card=sector.id, at=at)
    explored = sector.kind == "ancient_homeworld" and state.hidden_worlds  # shuffled into the Middle stack (p.9)
    if sector.home and not explored:
        return _place_home(state, ctx, placed, player)
    source = optional_cell(ctx, "from")
    if source is not None and state.galaxy.at(source) is None:
        _add(ctx, [Verdict("unexplored", True, N_("Explore action (wormholes and hex stacks)"),
                           Text("no hex at ({q}, {r}) to explore from; checked against every neighbour",
                                q=source[0], r=source[1]),
                           Text("check the explorer's hex"), warning=True)], player=player, card=sector.id, at=at)
        source = None
    verdicts = check_explore(state.galaxy, placed, source, wormhole_generator=has_generator(state, player),
                             hidden_worlds=state.hidden_worlds)
    _add(ctx, verdicts, player=player, card=sector.id, at=at)
    if any(v.rule_kind in ("space_taken", "sector_on_map") for v in verdicts) or state.galaxy.at(at) is not None:
        return state  # never laid over a hex (the Galactic Center too): the map keeps it, the finding says why
    return _laid(state, placed)


def _laid(state: EclipseState, placed: PlacedHex) -> EclipseState:
    """The map with ``placed`` and what the tile brings: its Ancients, an Ancient Homeworld's Cruiser."""
    sector = placed.sector
    state = replace(state, galaxy=state.galaxy.with_hex(placed))
    if sector.ancients:
        state = replace(state, ancients={**state.ancients, placed.cell: sector.ancients})
    if sector.kind == "ancient_homeworld":
        state = replace(state, guardians={**state.guardians, placed.cell: "Ancient Cruiser"})
    return state


def _place_home(state: EclipseState, ctx: EventContext, placed: PlacedHex, player: str | None) -> EclipseState:
    """A start tile: its ring for the player count, its species, one starting sector per player; the owner's disc
    goes on it (Setup)."""
    sector = placed.sector
    owner = player
    if owner is None and sector.kind == "starting_sector":
        owner = next((p.name for p in state.players if p.species == sector.species), None)
    species = state.player(owner).species if owner is not None else None
    verdicts = check_start_sector(placed, len(state.players), species)
    if state.galaxy.at(placed.cell) is not None:
        verdicts.insert(0, Verdict("space_taken", False, N_("Setup (starting sectors)"),
            Text("the space at {cell} already holds {sector}",
                 cell=placed.cell, sector=state.galaxy.at(placed.cell).sector.label),
                                   Text("use an empty start position")))
    elif state.galaxy.find(sector.id) is not None:
        verdicts.insert(0, Verdict("sector_on_map", False, N_("Setup (starting sectors)"),
                                   Text("{sector} already lies on the map",
                                        sector=sector.label), Text("check the tile's number")))
    mine = [c for c, who in state.owners.items() if who == owner and state.galaxy.at(c) is not None
            and state.galaxy.at(c).sector.kind == "starting_sector"] if owner is not None else []
    if mine and sector.kind == "starting_sector":
        first = state.galaxy.at(mine[0])
        verdicts.insert(0, Verdict("starting_sector", False, N_("Setup (starting sectors)"),
                                   Text("{player} already has a starting sector: {sector} at {cell}; each player lays "
                                        "one", player=owner, sector=first.sector.label,
                                        cell=f"[{mine[0][0]}, {mine[0][1]}]"), Text("take this tile back")))
    _add(ctx, verdicts, player=owner, card=sector.id, at=placed.cell)
    if any(v.rule_kind in ("space_taken", "sector_on_map") for v in verdicts):
        return state
    state = _laid(state, placed)
    if owner is not None and sector.kind == "starting_sector":
        state = replace(state, owners={**state.owners, placed.cell: owner})
    return state


def influence_placed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """An influence disc on a hex (Influence action, or after Combat): no other disc, no Ancients or guardian
    left (Draco may share with basic Ancients); with ``from``, the two hexes are adjacent (wormholes, portals).
    A disc over Ancients is kept with its error, and listed in ``discs_over_ancients``: while they remain, the hex
    does not score for it (:func:`rules.eclipse.state.derived_report`)."""
    name = ctx.player()
    at = cell(ctx)
    me = state.player(name)
    verdicts = check_influence_target(state.galaxy, at, name, owners=state.owners, ancients=state.ancients,
                                      guardians=state.guardians, draco=me.species == "Descendants of Draco")
    source = optional_cell(ctx, "from")
    if source is not None and not any(v.rule_kind == "unexplored" for v in verdicts) and source != at:
        verdicts += _link(state, source, at, name, "influence")
    h = state.galaxy.at(at)
    _add(ctx, verdicts, player=name, card=h.sector.id if h else None, at=at)
    if any(v.rule_kind in ("unexplored", "hex_controlled") for v in verdicts):
        return state
    over = {c: who for c, who in state.discs_over_ancients.items() if c != at}
    if any(v.rule_kind == "ancients_present" for v in verdicts):
        over[at] = name
    return replace(state, owners={**state.owners, at: name}, discs_over_ancients=over)


def _link(state: EclipseState, frm: Cell, to: Cell, name: str, action: str) -> list[Verdict]:
    for c in (frm, to):
        if state.galaxy.at(c) is None:
            return [Verdict("unexplored", False, N_("Move and Influence actions (wormholes)"),
                            Text("no hex at ({q}, {r})", q=c[0], r=c[1]),
                            Text("move and influence only between explored hexes"))]
    return check_link(state.galaxy, frm, to, wormhole_generator=has_generator(state, name), action=action)


def influence_removed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """The disc on a hex goes back to its owner's track.

    A player takes back their own discs (Eclipse 1.2 Influence action: place or move influence discs; 1.6 Upkeep:
    remove discs when unable to pay); another player's disc leaves a hex only in the Combat phase, when its
    population is destroyed (1.5 Combat: ships attack enemy population). A player's report of another player's disc
    in any other phase is an ERROR ``not_your_disc`` and the disc stays, so its owner keeps the hex; the table's
    report (no player) is applied in any phase."""
    at = cell(ctx)
    if at not in state.owners:
        _add(ctx, [Verdict("no_disc", True, N_("Influence action"),
                           Text("no influence disc on ({q}, {r}) to remove", q=at[0], r=at[1]),
                           Text("check the hex"), warning=True)], at=at)
        return state
    by, owner = ctx.event.player, state.owners[at]
    if by is not None and by != owner and state.rounds.phase != "combat":
        _add(ctx, [Verdict("not_your_disc", False, DISC_BACK,
                           Text("{player} reports {owner}'s influence disc on ({q}, {r}) taken back: a player takes "
                                "back only their own discs; another player's disc leaves a hex only in the Combat "
                                "phase, when its population is destroyed", player=by, owner=owner, q=at[0], r=at[1]),
                           Text("{owner}'s disc stays: undo the report, or report it in the Combat phase once the "
                                "population is destroyed", owner=owner))], player=by, at=at)
        return state
    return replace(state, owners={c: o for c, o in state.owners.items() if c != at},
                   discs_over_ancients={c: o for c, o in state.discs_over_ancients.items() if c != at})


def move_started(ctx: EventContext) -> drives.Activation:
    """A Move reported without hexes: an activation of the ship type it names (if any) with no step yet."""
    return drives.Activation(ship_type(ctx, required=False))


def ship_moved(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """One ship's step from hex to hex (Move action): adjacent through a wormhole or between portal hexes. Reported on
    its own (``ship_moved``, one more step of a Move), it belongs to the Move its player took as their latest action
    (:func:`rules.eclipse.rounds.step_verdicts`: Move action; Rise of the Ancients p.4, Ship activation); one
    without it is recorded with a ``step_without_move`` finding. The ship's hexes in one activation are counted
    against its Movement (:func:`rules.eclipse.drives.step`: ``"ship"`` names its type; a blueprint reported with its
    Movement gives the value; a Starbase never moves), and its activations against those the Move gives (a reaction,
    by a player who has passed, one; a Rise of the Ancients species its board's: :func:`rules.eclipse.drives.step`;
    ``"again"``: the step starts another activation of the same ship; ``"carried"``: an Interceptor riding in the Bay
    of the ship whose activation is under way, no activation: :func:`rules.eclipse.drives.carried`, Rise of the
    Ancients p.4); the step is recorded whatever the verdict (the table decides).
    """
    name = ctx.player()
    frm, to = cell(ctx, "from"), cell(ctx, "to")
    if frm == to:  # Eclipse, Move action: a ship moves from hex to hex through wormholes
        raise ctx.bad(Text("a step from hex {cell} to the same hex: a ship moves to a neighbouring hex (Eclipse, Move "
                           "action)", cell=f"[{frm[0]}, {frm[1]}]"))
    ship = ship_type(ctx, required=False)
    further = ctx.event.kind == SHIP_MOVED
    if further:
        _add(ctx, step_verdicts(state.rounds, name), player=name, at=to)
    link = _link(state, frm, to, name, "move")
    wormhole = all(v.legal for v in link)
    jump = ctx.get("jump", False, bool)
    if further and ctx.get("carried", False, bool):  # an Interceptor in a Bay: no activation (RotA p.4)
        _add(ctx, link, player=name, at=to)
        under_way = state.activations.get(name) if may_step(state.rounds, name) else None
        kept, verdicts = drives.carried(under_way, frm, to, ship=ship, player=name)
        _add(ctx, verdicts, player=name, at=to)
        return state if kept is None else replace(state, activations={**state.activations, name: kept})
    now, verdicts = drives.step(state.activations.get(name) if further else None, frm, to, ship=ship, player=name,
                                blueprints=state.blueprints, same_move=further and may_step(state.rounds, name),
                                jump=jump, wormhole=wormhole, again=ctx.get("again", False, bool),
                                species=state.player(name).species, reaction=name in state.rounds.passed)
    before = state.activations.get(name) if further else None
    jumps_here = now.jumped and not (before is not None and before.jumped and now.hexes > 1)
    if not wormhole and jumps_here and state.galaxy.at(frm) and state.galaxy.at(to) and edge_between(frm, to):
        link = [Verdict("jump", True, drives.JUMP_DRIVE, Text("a jump (Jump Drive) to a neighbouring hex"))]
    _add(ctx, link, player=name, at=to)
    _add(ctx, verdicts, player=name, at=to)
    return replace(state, activations={**state.activations, name: now})


def ancients_destroyed(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Ancients destroyed in a hex (by the player named): ``count`` basic Ancients, or its guardian. An Ancient
    Cruiser is kept face down (+1 VP), the Ancient Dreadnought too (+1 VP); the GCDS gives none."""
    name = ctx.player()
    at = cell(ctx)
    p = state.player(name)
    if ctx.get("guardian", False, bool):
        guardian = state.guardians.get(at)
        if guardian is None:
            _add(ctx, [Verdict("no_ancients", False, ANCIENTS,
                Text("no GCDS, Ancient Dreadnought or Ancient Cruiser at ({q}, {r})",
                     q=at[0], r=at[1]), Text("check the hex"))], player=name, at=at)
            return state
        if guardian == "Ancient Cruiser":
            if p.ancient_cruisers >= ANCIENT_CRUISERS:
                _add(ctx, [Verdict("no_ancients", False, ANCIENTS,
                    Text("{player} already keeps all {count} Ancient Cruiser tiles",
                         player=name, count=ANCIENT_CRUISERS), Text("check the count"))], player=name, at=at)
                return state
            p = replace(p, ancient_cruisers=p.ancient_cruisers + 1)
        elif guardian == "Ancient Dreadnought":
            p = replace(p, dreadnought=True)
        state = replace(state, guardians={c: g for c, g in state.guardians.items() if c != at})
        return state.with_player(p)
    count = ctx.count("count", ctx.payload.get("count", 1), minimum=1)
    left = state.ancients.get(at, 0)
    if count > left:
        _add(ctx, [Verdict("no_ancients", False, ANCIENTS, Text("{count} Ancients destroyed at ({q}, {r}), where "
                                                                "{left} were left",
                                                                count=count, q=at[0], r=at[1], left=left),
                           Text("check the count"))], player=name, at=at)
        count = left
    ancients = {c: n for c, n in state.ancients.items() if c != at}
    if left - count:
        ancients[at] = left - count
    return replace(state, ancients=ancients)


def hive_rolled(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """A Hive's roll at the end of Cleanup (Rise of the Ancients p.7): if an explored hex lies beyond the
    wormhole with that number, one Ancient moves there (half wormholes suffice: Ancients have Wormhole
    Generators). The die-to-edge numbers are printed on the tile; the players name the hex (``to``)."""
    at = cell(ctx)
    h = state.galaxy.at(at)
    die = ctx.payload.get("die")
    if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
        _add(ctx, [Verdict("impossible_die", True, HIVES,
                           Text("the Hive's die read as {die!r}; a die shows 1-6", die=die),
                                  Text("read it again"), warning=True)], at=at)
        return state
    if h is None or h.sector.kind != "ancient_hive":
        _add(ctx, [Verdict("not_a_hive", False, HIVES, Text("no Ancient Hive at ({q}, {r})", q=at[0], r=at[1]),
                           Text("roll for each Hive on "
                           "the map"))], at=at)
        return state
    verdicts: list[Verdict] = []
    if state.rounds.phase != "cleanup":
        verdicts.append(Verdict("hive_timing", True, HIVES,
            Text("the Hives roll at the end of Cleanup, not in the {phase} phase",
                 phase=PHASE_WORDS.get(state.rounds.phase, state.rounds.phase)), Text("roll when Cleanup ends"),
                                warning=True))
    to = optional_cell(ctx, "to")
    if to is None:
        _add(ctx, verdicts, card=h.sector.id, at=at)
        return state
    if edge_between(at, to) is None or state.galaxy.at(to) is None:
        verdicts.append(Verdict("not_adjacent", False, HIVES,
            Text("({q}, {r}) is not an explored hex next to the Hive", q=to[0], r=to[1]),
                                Text("an Ancient moves only to the explored hex beyond the rolled wormhole")))
        _add(ctx, verdicts, card=h.sector.id, at=at)
        return state
    left = state.ancients.get(at, 0)
    if not left:
        verdicts.append(Verdict("no_ancients", False, HIVES,
            Text("no Ancients left in {sector} to move", sector=h.sector.label), Text("nothing moves")))
        _add(ctx, verdicts, card=h.sector.id, at=at)
        return state
    _add(ctx, verdicts, card=h.sector.id, at=at)
    ancients = {**state.ancients, to: state.ancients.get(to, 0) + 1}
    if left > 1:
        ancients[at] = left - 1
    else:
        del ancients[at]
    return replace(state, ancients=ancients)


def _structure_payload(ctx: EventContext) -> tuple[str, str | None, int | None]:
    kind = ctx.require("structure", str)
    if kind not in STRUCTURES:
        raise not_one_of(ctx, kind, Text("Tile"), {k: structure_word(k) for k in STRUCTURES})
    colour = cost = None
    if kind == "shrine":
        colour = ctx.require("colour", str)
        if colour not in SHRINE_COLOURS:
            raise ctx.bad(Text("a Shrine's colour is one of {colours}, got {colour}",
                               colours=Listing([RESOURCE_WORDS[c] for c in SHRINE_COLOURS]), colour=colour))
        cost = ctx.get("cost", None, int)
        if cost is not None and cost not in SHRINE_COSTS:
            # Rise of the Ancients p.15 (Enlightened of Lyra): Shrines of Freedom cost 2, of Prosperity 4, of
            # Enlightenment 6
            raise ctx.bad(Text("{what} is 2, 4 or 6 (Rise of the Ancients p.15), got {value}",
                               what=Text("Shrine's cost"), value=cost))
    return kind, colour, cost


def structure_built(game: Any, state: EclipseState, ctx: EventContext) -> EclipseState:
    """Something built or laid on a hex (:data:`rules.eclipse.placement.STRUCTURES`): the one-per-hex rules, a
    hex the builder controls, Shrines by the Enlightened at the start of Upkeep next to matching planets."""
    name = ctx.player()
    at = cell(ctx)
    kind, colour, cost = _structure_payload(ctx)
    here = state.structures.get(at, ())
    verdicts = check_structure(state.galaxy, at, kind, here=[s.kind for s in here],
                               on_map=[s.kind for items in state.structures.values() for s in items],
                               controlled=state.owners.get(at) == name)
    h = state.galaxy.at(at)
    me = state.player(name)
    if h is not None and kind == "shrine":
        verdicts += _shrine_rules(state, me, [s.colour or "" for s in here if s.kind == "shrine"] + [colour or ""], h)
    if h is not None and kind in ("shellworld", "warp_portal"):
        development = "Shellworld" if kind == "shellworld" else "Warp Portal"
        holder = next((p.name for p in state.players if development in p.developments), None)
        if holder not in (None, name):
            verdicts.append(Verdict("one_in_the_game", False, DEVELOPMENT,
                Text("{holder} owns the {development} Development", holder=holder,
                     development=component_word(development)),
                                    Text("only its owner lays its tile")))
        elif holder is None:
            verdicts.append(Verdict("development_missing", True, DEVELOPMENT,
                Text("{player} lays the {development} tile without a {development} Development recorded; it is "
                     "recorded now", player=name, development=component_word(development)), Text("record the research"),
                                    warning=True))
            me = replace(me, developments=me.developments + (development,))
    _add(ctx, verdicts, player=name, card=h.sector.id if h else None, at=at)
    if h is None or any(v.rule_kind in ("one_orbital_per_hex", "one_in_the_game", "shrine_tiles") for v in verdicts):
        return state
    state = state.with_player(me)
    built = Structure(kind, name, colour, cost, state.rounds.round)
    state = replace(state, structures={**state.structures, at: here + (built,)})
    if kind in ("warp_portal", "ancient_warp_portal"):
        state = replace(state, galaxy=state.galaxy.with_portal_token(at))
    return state


def _shrine_rules(state: EclipseState, me: EclipsePlayer, colours: list[str], h: PlacedHex) -> list[Verdict]:
    out: list[Verdict] = []
    if me.species != "Enlightened of Lyra":
        out.append(Verdict("shrine_builder", False, SHRINES,
            Text("{player} builds a Shrine; only the Enlightened of Lyra do", player=me.name),
                           Text("take it back")))
    if len(state.structures_of("shrine")) >= SHRINE_TILES:
        out.append(Verdict("shrine_tiles", False, SHRINES, Text("all {count} Shrine tiles are already built",
                                                                count=SHRINE_TILES),
                           Text("check the Shrines on the map")))
    if state.rounds.phase != "upkeep":
        out.append(Verdict("shrine_timing", True, SHRINES, Text("Shrines are built at the start of Upkeep, not in the "
                                                                "{phase} phase",
                                                                phase=PHASE_WORDS.get(state.rounds.phase,
                                                                                      state.rounds.phase)),
                           Text("build it when Upkeep starts"), warning=True))
    if any(s.builder == me.name and s.round == state.rounds.round for _, s in state.structures_of("shrine")):
        out.append(Verdict("one_shrine_per_upkeep", False, SHRINES,
            Text("{player} already built a Shrine this round; one at the start of each Upkeep",
                 player=me.name), Text("take it back")))
    return out + check_shrines(h, colours)
