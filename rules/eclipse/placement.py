"""Placement rules of the Eclipse map: each check returns :class:`rules.eclipse.verdict.Verdict` records,
in the order checked. The deciding verdict comes first; a legal placement still gets one (``full_wormhole``,
``warp_portal_adjacency``, ...) so tools see why.

Explore (:func:`check_explore`), in this order:

1. ``ring_mismatch`` (illegal): the tile's stack (``hexes.json`` ``ring``) is not the ring of its space.
   Checked first; a hard rule.
2. ``space_taken``, ``sector_on_map``, ``not_in_stack`` (illegal): the space already holds a hex, the
   tile already lies elsewhere, a starting sector is never in a stack (an Ancient Homeworld in ring II is
   a warning only: the Hidden Worlds variant shuffles them into the Middle stack).
3. ``not_adjacent`` (illegal): the explorer's hex is not next to the new space.
4. ``full_wormhole`` (legal): a full wormhole joins the new tile and the explorer's hex.
5. ``half_wormhole_with_generator`` (legal) / ``half_wormhole_without_generator`` (illegal): only a
   half wormhole, with or without Wormhole Generator (or the Shrines of Freedom tile).
6. ``no_wormhole_connection`` (illegal): neither touching edge carries a half-circle.

Move and Influence (:func:`check_link`): ``warp_portal_adjacency`` (legal: both are portal hexes),
else ``full_wormhole`` / ``half_wormhole_with_generator`` (legal), else ``not_adjacent`` (illegal).

The other placement rules: starting sectors for the player count (:func:`check_start_sector`), an
influence disc on a hex that holds another disc or Ancients (:func:`check_influence_target`),
Shrines (:func:`check_shrines`) and the one-per-hex rules for Orbitals, the Shellworld and the portal
tokens (:func:`check_structure`).

The wormhole rule is a soft one at the table: the box reports it, the players decide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.eclipse.data import Sector
from rules.eclipse.galaxy import (
    Cell,
    Galaxy,
    Link,
    PlacedHex,
    edge_between,
    link,
    neighbour,
    ring,
    rotations_with_full_wormhole,
)
from rules.eclipse.verdict import Verdict
from rules.eclipse.words import RESOURCE_WORDS, ship_word, structure_word
from rules.text import N_, OR, Listing, Text, plural

__all__ = [
    "EXPLORE_KINDS",
    "LINK_KINDS",
    "OUTER_STACK_BEYOND_RING_III",
    "RING_NAMES",
    "STRUCTURES",
    "check_explore",
    "check_influence_target",
    "check_link",
    "check_shrines",
    "check_start_sector",
    "check_structure",
    "home_ring",
    "stack_ring",
]

EXPLORE_KINDS = (
    "ring_mismatch", "space_taken", "sector_on_map", "not_in_stack", "not_adjacent", "full_wormhole",
    "half_wormhole_with_generator", "half_wormhole_without_generator", "no_wormhole_connection",
)
"""The rule kinds of an Explore, in the order they are checked."""

LINK_KINDS = ("warp_portal_adjacency", "full_wormhole", "half_wormhole_with_generator", "not_adjacent")
"""The rule kinds of a Move or Influence step, in the order they are checked."""

RING_NAMES = {0: Text("the Galactic Center"), 1: Text("Inner (I)"), 2: Text("Middle (II)"), 3: Text("Outer (III)")}
"""The stacks' names, as printed on the tiles' backs."""

ROMAN = {0: "0", 1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}
"""Rings as players number them."""


def _ring(n: int) -> str:
    return Text("ring {ring}", ring=ROMAN.get(n, n))

OUTER_STACK_BEYOND_RING_III = True
"""A space beyond ring III takes an Outer (III) tile. UNCONFIRMED for the first edition (no stored rulebook
says it); it only matters past ring III, where no start position lies."""

STRUCTURES = ("orbital", "monolith", "shellworld", "warp_portal", "ancient_warp_portal", "ancient_orbital", "shrine")
"""What may be built or laid on a hex besides discs and ships: Orbitals, Monoliths, the Shellworld tile, the
Warp Portal development token, the Ancient Warp Portal and Ancient Orbital discoveries, Shrines."""

EXPLORE = N_("Explore action (wormholes and hex stacks)")
GENERATOR = N_("Wormhole Generator technology; Rise of the Ancients p.15 Shrines of Freedom")
PORTALS = N_("Rise of the Ancients p.8 Warp Portals")
MOVE = N_("Move and Influence actions (wormholes); Rise of the Ancients p.8 Warp Portals")
SETUP = N_("Setup (starting sectors); Rise of the Ancients p.6 Ancient Homeworlds, p.12 7-9 player game")
HIDDEN_WORLDS = N_("Rise of the Ancients p.9 Hidden Worlds variant")
ANCIENTS = N_("Influence action (Ancients and the GCDS); Rise of the Ancients p.6-7 Ancient Homeworlds and Hives")
SHRINES = N_("Rise of the Ancients p.15 Shrines")
ONE_PER_HEX = N_("Rise of the Ancients p.5 Developments, p.8 New Discoveries, p.18 FAQ (one Orbital per hex)")


def stack_ring(cell: Cell) -> int:
    """The stack a space at ``cell`` takes its tile from: its ring (Outer beyond ring III,
    :data:`OUTER_STACK_BEYOND_RING_III`)."""
    r = ring(*cell)
    return min(r, 3) if OUTER_STACK_BEYOND_RING_III else r


def _at(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _rotation_fix(sector: Sector, placed: PlacedHex, sources: Sequence[PlacedHex]) -> str | None:
    """"rotate it N steps clockwise so its wormhole faces yours", for the fewest steps over ``sources``."""
    best: int | None = None
    for src in sources:
        for k in rotations_with_full_wormhole(sector, placed.cell, src):
            n = (k - placed.rotation) % 6
            if n and (best is None or n < best):
                best = n
    if best is None:
        return None
    return plural("rotate it {n} step clockwise so its wormhole faces yours",
                  "rotate it {n} steps clockwise so its wormhole faces yours", best)


def check_explore(galaxy: Galaxy, placed: PlacedHex, source: Cell | None = None, *,
                  wormhole_generator: bool = False, hidden_worlds: bool = False) -> list[Verdict]:
    """The verdicts on exploring ``placed`` into ``galaxy`` (the map before it), in the module's order.

    Args:
        galaxy: the map before the tile was laid.
        placed: the new tile, its position and rotation.
        source: the explorer's hex (their disc or ship is there); None: any explored neighbour may be it
            (a camera read that does not know who explored from where).
        wormhole_generator: the explorer has Wormhole Generator or the Shrines of Freedom tile.
        hidden_worlds: the Hidden Worlds variant is played (Ancient Homeworlds in the Middle stack).

    Returns:
        The deciding verdict first (then a warning, if any: an Ancient Homeworld explored); a hard failure
        stops the checks that would follow it. A space that holds a hex, or a tile already on the map, is said
        before the tile's stack (a tile of another ring laid on a player's home is "the space already holds" it).

    Raises:
        ValueError: ``source`` names a space with no hex.
    """
    sector, cell = placed.sector, placed.cell
    out: list[Verdict] = []
    want = stack_ring(cell)
    if sector.ring != want and want == 0:  # ring 0 has no stack: the Galactic Center lies there from setup
        return [Verdict("ring_mismatch", False, EXPLORE,
                        Text("the space at {cell} holds the Galactic Center from setup; no tile is explored into it",
                             cell=_at(cell)),
                        Text("explore an empty space next to your hex"))]
    if sector.ring != want and sector.ring == 0:
        return [Verdict("ring_mismatch", False, EXPLORE,
                        Text("{sector} lies at (0, 0) from setup; it is never explored", sector=sector.label),
                        Text("take it back and draw from the {stack} stack", stack=RING_NAMES.get(want, want)))]
    here = galaxy.at(cell)  # a space already explored (a start tile too), before its stack: nothing is laid over it
    if here is not None:
        return [Verdict("space_taken", False, EXPLORE,
                        Text("the space at {cell} already holds {sector}", cell=_at(cell), sector=here.sector.label),
                        Text("explore an empty space next to your hex"))]
    elsewhere = galaxy.find(sector.id)
    if elsewhere is not None:
        return [Verdict("sector_on_map", False, EXPLORE,
                        Text("{sector} already lies at {cell}; each tile is in the game once",
                             sector=sector.label, cell=_at(elsewhere.cell)),
                        Text("check the tile's number: one of the two reads is wrong"))]
    if sector.ring != want:
        return [Verdict(
            "ring_mismatch", False, EXPLORE,
            Text("{sector} is a tile of the {stack} stack, but the space at {cell} is in {ring}: it takes a tile from "
                 "the {wanted} stack",
                 sector=sector.label, stack=RING_NAMES.get(sector.ring, sector.ring), cell=_at(cell),
                 ring=_ring(ring(*cell)),
                 wanted=RING_NAMES.get(want, want)),
            Text("take it back and draw from the {stack} stack", stack=RING_NAMES.get(want, want)))]
    if sector.kind == "starting_sector":
        return [Verdict("not_in_stack", False, SETUP,
                        Text("{sector} is a starting sector: it is laid at setup, never explored", sector=sector.label),
                        Text("take it back and draw from the stack of the space's ring"))]
    if sector.kind == "ancient_homeworld" and not hidden_worlds:
        out.append(Verdict("not_in_stack", True, HIDDEN_WORLDS,
                           Text("{sector} is an Ancient Homeworld: only the Hidden Worlds variant puts it in the "
                                "Middle stack",
                                sector=sector.label),
                           Text("without that variant, it belongs in an empty start position"), warning=True))
    return [_explore_link(galaxy, placed, source, wormhole_generator), *out]  # the deciding verdict first


def _explore_link(galaxy: Galaxy, placed: PlacedHex, source: Cell | None, wormhole_generator: bool) -> Verdict:
    """The deciding verdict of an Explore once the tile may lie there: its wormhole towards the explorer's hex."""
    sector, cell = placed.sector, placed.cell
    if source is not None:
        src = galaxy.at(source)
        if src is None:
            raise ValueError(f"no hex at {_at(source)} on the map to explore from")
        if edge_between(source, cell) is None:
            return Verdict("not_adjacent", False, EXPLORE,
                           Text("the space at {cell} is not next to the explorer's hex {sector} at {source}",
                                cell=_at(cell), sector=src.sector.label, source=_at(source)),
                           Text("explore a space next to a hex where you have a disc or a ship"))
        sources = [src]
    else:
        sources = [h for _, h in galaxy.neighbours(cell)]
        if not sources:
            return Verdict("not_adjacent", False, EXPLORE, Text("the space at {cell} is next to no explored hex",
                                                                cell=_at(cell)),
                           Text("explore a space next to a hex where you have a disc or a ship"))
    links = [(src, link(placed, src)) for src in sources]
    full = [src for src, how in links if how is Link.FULL]
    half = [src for src, how in links if how is Link.HALF]
    if full:
        return Verdict("full_wormhole", True, EXPLORE,
                       Text("{sector} at {cell} makes a full wormhole with {other}",
                            sector=sector.label, cell=_at(cell), other=full[0].sector.label))
    fix = _rotation_fix(sector, placed, sources)
    if half and wormhole_generator:
        return Verdict("half_wormhole_with_generator", True, GENERATOR,
                       Text("{sector} at {cell} makes only a half wormhole with {other}; Wormhole Generator lets the "
                            "explorer use it", sector=sector.label, cell=_at(cell), other=half[0].sector.label))
    if half:
        return Verdict("half_wormhole_without_generator", False, GENERATOR,
                       Text("{sector} at {cell} makes only a half wormhole with {other}: without Wormhole Generator "
                            "(or the Shrines of Freedom tile) a new hex needs a full wormhole",
                            sector=sector.label, cell=_at(cell), other=half[0].sector.label),
                       fix or Text("only Wormhole Generator makes this hex reachable: "
                                   "place it elsewhere or discard it"))
    return Verdict("no_wormhole_connection", False, EXPLORE,
                   Text("{sector} at {cell} has no wormhole towards {others}, and that hex has none towards it",
                        sector=sector.label, cell=_at(cell),
                        others=Listing((s.sector.label for s in sources), OR)),
                   fix or Text("no rotation connects it: place it elsewhere or discard it"))


def check_link(galaxy: Galaxy, frm: Cell, to: Cell, *, wormhole_generator: bool = False,
               action: str = "move") -> list[Verdict]:
    """The verdict on one Move step or Influence from ``frm`` to ``to`` (both on the map).

    Both portal hexes: ``warp_portal_adjacency`` (Rise of the Ancients p.8: all portal hexes are adjacent,
    as if joined by full wormholes). Otherwise the hexes must be neighbours joined by a full wormhole, or by
    a half wormhole with Wormhole Generator; else ``not_adjacent``.

    Raises:
        ValueError: ``frm`` or ``to`` holds no hex.
    """
    a, b = galaxy.at(frm), galaxy.at(to)
    for cell, h in ((frm, a), (to, b)):
        if h is None:
            raise ValueError(f"no hex at {_at(cell)} on the map")
    assert a is not None and b is not None
    what = Text("an influence disc") if action == "influence" else Text("a ship")
    if a.portal and b.portal:
        return [Verdict("warp_portal_adjacency", True, PORTALS,
                        Text("{sector} and {other} are both portal hexes: adjacent through the Warp Portals",
                             sector=a.sector.label, other=b.sector.label))]
    how = link(a, b)
    if how is Link.FULL:
        return [Verdict("full_wormhole", True, MOVE, Text("{sector} and {other} are joined by a full wormhole",
                                                          sector=a.sector.label, other=b.sector.label))]
    if how is Link.HALF and wormhole_generator:
        return [Verdict("half_wormhole_with_generator", True, GENERATOR,
                        Text("{sector} and {other} share a half wormhole; Wormhole Generator lets {what} through",
                             sector=a.sector.label, other=b.sector.label, what=what))]
    if edge_between(frm, to) is None:
        names = dict(sector=a.sector.label, cell=_at(frm), other=b.sector.label, other_cell=_at(to))
        why = (Text("{sector} at {cell} and {other} at {other_cell} are not neighbours",
                    **names) if not (a.portal or b.portal)
               else Text("{sector} at {cell} and {other} at {other_cell} are not neighbours and only one of them is a "
                         "portal "
                         "hex", **names))
    elif how is Link.HALF:
        why = Text("{sector} and {other} share only a half wormhole (it needs Wormhole Generator)",
                   sector=a.sector.label,
                   other=b.sector.label)
    else:
        why = Text("no wormhole joins {sector} and {other}", sector=a.sector.label, other=b.sector.label)
    return [Verdict("not_adjacent", False, MOVE,
                    Text("{what} cannot go from {cell} to {other_cell}: {why}", what=what, cell=_at(frm),
                         other_cell=_at(to), why=why),
                    Text("go through hexes joined by full wormholes, or between portal hexes"))]


def home_ring(players: int) -> int:
    """The ring of the start positions: II with 2-6 players, III with 7-9 (Rise of the Ancients p.12)."""
    return 3 if players >= 7 else 2


def check_start_sector(placed: PlacedHex, players: int, species: str | None = None) -> list[Verdict]:
    """A start-position tile at setup: its ring for the player count, the species it belongs to, and its
    orientation. With 7-9 players at least one of its wormholes must face a Middle (II) space (Rise of the Ancients
    p.12, set-up: any orientation, as long as one wormhole connects to a Middle hex): ``starting_sector``, illegal.
    With 2-6 players the rulebook shows only the start positions (no orientation is stated); a starting sector with
    no wormhole towards the next ring in (Inner (I) from a ring II position) gets ``home_facing_out``, a warning:
    nothing can be explored, moved or influenced from it towards the centre. Ancient Homeworlds fill the empty start
    positions with fewer than 6 players (p.6; the 9-player layout for 7-8 players, p.12). Empty list: no objection
    (a tile that is no start tile gets none).
    """
    sector, cell = placed.sector, placed.cell
    out: list[Verdict] = []
    if not sector.home:
        return out
    want = home_ring(players) if sector.kind == "starting_sector" else 2 if players < 7 else 3
    if ring(*cell) != want:
        out.append(Verdict("starting_sector", False, SETUP,
                           Text("{sector} lies in {ring}; with {players} players the start positions are in {wanted}",
                                sector=sector.label, ring=_ring(ring(*cell)), players=players, wanted=_ring(want)),
                           Text("move it to a start position in {ring}", ring=_ring(want))))
    if sector.kind == "ancient_homeworld" and players in (6, 9):
        out.append(Verdict("starting_sector", False, SETUP,
                           Text("{sector}: Ancient Homeworlds fill empty start positions, and with {players} players "
                                "there are none",
                                sector=sector.label, players=players), Text("take it out of the game")))
    if species and sector.kind == "starting_sector" and sector.species != species:
        out.append(Verdict("starting_sector", False, SETUP,
                           Text("{sector} is the {species} starting sector, not {other}'s",
                                sector=sector.label, species=sector.species, other=species),
                           Text("turn the tile over or take the species' own starting sector")))
    if sector.kind == "starting_sector" and players >= 7:
        faces = [neighbour(cell, e) for e in placed.wormholes]
        if not any(ring(*c) == 2 for c in faces):
            out.append(Verdict("starting_sector", False, SETUP,
                               Text("{sector}: no wormhole faces a Middle (II) space; with 7-9 players at least one "
                                    "must", sector=sector.label),
                               Text("rotate it so a wormhole faces the Middle ring")))
    elif sector.kind == "starting_sector" and ring(*cell) >= 1 and not _faces_inwards(placed):
        out.append(Verdict("home_facing_out", True, SETUP,
                           Text("{sector} has no wormhole facing {stack}, towards the centre: no Explore, Move or "
                                "Influence can go that way from it. The rulebook's set-up (Rise of the Ancients p.12) "
                                "asks, with 7-9 players, that at least one wormhole of a starting sector connect "
                                "towards the centre; for {players} players it shows only the start positions",
                                sector=sector.label, stack=RING_NAMES.get(ring(*cell) - 1, ring(*cell) - 1),
                                players=players),
                           _inward_fix(placed), warning=True))
    return out


def _faces_inwards(placed: PlacedHex) -> bool:
    """Whether one of ``placed``'s wormholes faces a space one ring nearer the Galactic Center."""
    inner = ring(*placed.cell) - 1
    return any(ring(*neighbour(placed.cell, e)) == inner for e in placed.wormholes)


def _inward_fix(placed: PlacedHex) -> str:
    """"rotate it N steps clockwise so a wormhole faces the centre", for the fewest steps (a starting sector has
    wormholes on four of its six edges, so some turn always does)."""
    for n in range(1, 6):
        if _faces_inwards(PlacedHex(placed.sector, placed.cell, (placed.rotation + n) % 6)):
            return plural("rotate it {n} step clockwise so a wormhole faces the centre",
                          "rotate it {n} steps clockwise so a wormhole faces the centre", n)
    return Text("lay another starting sector's face, with a wormhole towards the centre")


def check_influence_target(galaxy: Galaxy, cell: Cell, player: str, *, owners: Mapping[Cell, str],
                           ancients: Mapping[Cell, int], guardians: Mapping[Cell, str],
                           draco: bool = False) -> list[Verdict]:
    """An influence disc placed on ``cell`` by ``player``: the hex exists, holds no other disc, and holds no
    Ancients, Ancient Cruiser, GCDS or Ancient Dreadnought. The Descendants of Draco may share a hex with
    basic Ancients, never with a guardian (Rise of the Ancients p.6-7).

    Args:
        owners: cell -> the player whose disc is there.
        ancients: cell -> basic Ancient ships left there.
        guardians: cell -> a guardian still there (``"GCDS"``, ``"Ancient Dreadnought"``, ``"Ancient Cruiser"``).
    """
    h = galaxy.at(cell)
    if h is None:
        return [Verdict("unexplored", False, ANCIENTS,
                        Text("no hex at {cell}: an influence disc goes on an explored hex", cell=_at(cell)),
                        Text("explore the space first"))]
    out: list[Verdict] = []
    owner = owners.get(cell)
    if owner is not None and owner != player:
        out.append(Verdict("hex_controlled", False, ANCIENTS,
            Text("{sector} already holds {owner}'s influence disc; a hex holds one disc",
                 sector=h.sector.label, owner=owner), Text("remove the other disc first (only combat does that)")))
    guardian = ship_word(guardians.get(cell))
    if guardian:
        out.append(Verdict("ancients_present", False, ANCIENTS,
                           Text("{sector} still holds the {guardian}: no influence disc until it is destroyed",
                                sector=h.sector.label, guardian=guardian),
                           Text("destroy the {guardian} first", guardian=guardian)))
    left = ancients.get(cell, 0)
    if left and not draco:
        out.append(Verdict("ancients_present", False, ANCIENTS,
                           plural("{sector} still holds {n} Ancient ship: no influence disc while they remain",
                                  "{sector} still holds {n} Ancient ships: no influence disc while they remain",
                                  left, sector=h.sector.label), Text("destroy the Ancients first")))
    return out


def _shrine_matching(colours: Sequence[str], planets: Sequence[str]) -> bool:
    """Whether every Shrine colour gets its own planet of that colour or a grey one (bipartite matching)."""
    match: dict[int, int] = {}

    def place(s: int, seen: set[int]) -> bool:
        for p, planet in enumerate(planets):
            if p in seen or planet not in (colours[s], "grey"):
                continue
            seen.add(p)
            if p not in match or place(match[p], seen):
                match[p] = s
                return True
        return False

    return all(place(s, set()) for s in range(len(colours)))


def check_shrines(placed: PlacedHex, colours: Sequence[str]) -> list[Verdict]:
    """Shrines of the given colours (``money``, ``science``, ``materials``) on the hex ``placed``: each next to
    a planet of its colour or a grey one, at most one Shrine per planet (Rise of the Ancients p.15). The
    Exiles' printed Orbital and the Shellworld are not planets."""
    planets = [p.type for p in placed.sector.planets if p.type != "orbital"]
    out: list[Verdict] = []
    for colour in colours:
        if colour not in planets and "grey" not in planets:
            out.append(Verdict("shrine_colour", False, SHRINES,
                               Text("a {resource} Shrine on {sector}: the hex has no {resource} or grey planet",
                                    resource=RESOURCE_WORDS.get(colour, colour), sector=placed.sector.label),
                               Text("a Shrine sits next to a planet of its own colour, or a grey one")))
    if not out and not _shrine_matching(list(colours), planets):
        out.append(Verdict("shrine_per_planet", False, SHRINES,
                           Text("{count} Shrines ({resources}) on {sector}: its planets cannot each hold only one",
                                count=len(colours), resources=Listing(RESOURCE_WORDS.get(c, c) for c in colours),
                                sector=placed.sector.label), Text("one Shrine per planet: take the last one back")))
    return out


def check_structure(galaxy: Galaxy, cell: Cell, structure: str, *, here: Sequence[str], on_map: Iterable[str],
                    controlled: bool) -> list[Verdict]:
    """Building or laying ``structure`` (:data:`STRUCTURES`) on the hex at ``cell``.

    One Orbital per hex (the Exiles' printed Orbital and the Ancient Orbital count; Rise of the Ancients
    p.18); one Shellworld and one Warp Portal token in the game (p.5, unique Developments); Orbitals,
    Monoliths, the Shellworld, the Warp Portal token and Shrines go on a hex the player controls (the
    discoveries lie where they were found, p.8).

    Args:
        here: the structures already on that hex.
        on_map: every structure already on the map.
        controlled: the hex holds the builder's influence disc.
    """
    h = galaxy.at(cell)
    if h is None:
        return [Verdict("unexplored", False, ONE_PER_HEX, Text("no hex at {cell}",
                                                               cell=_at(cell)), Text("build on an explored hex"))]
    out: list[Verdict] = []
    orbitals = ("orbital", "ancient_orbital")
    if structure in orbitals and (h.sector.printed_orbital or any(s in orbitals for s in here)):
        out.append(Verdict("one_orbital_per_hex", False, ONE_PER_HEX,
                           Text("{sector} already has an Orbital; a hex holds one", sector=h.sector.label),
                           Text("keep the discovery as 2 VP instead (Magellan), or build elsewhere")))
    if structure in ("shellworld", "warp_portal", "ancient_warp_portal") and structure in set(on_map):
        out.append(Verdict("one_in_the_game", False, ONE_PER_HEX,
            Text("there is one {structure} tile, and it already lies on the map",
                 structure=structure_word(structure)), Text("check which hex it is on")))
    if structure not in ("ancient_warp_portal", "ancient_orbital") and not controlled:
        out.append(Verdict("not_controlled", False, ONE_PER_HEX,
                           Text("{structure} on {sector}, a hex the builder does not control",
                                structure=structure_word(structure), sector=h.sector.label),
                           Text("build only in hexes holding your influence disc")))
    return out
