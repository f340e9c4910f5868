"""``companion check eclipse FILE``: one placement (an Explore, a Move step or an Influence) checked on a map.

Input (``schemas/eclipse-placement-input.schema.json``)::

    {"game": "eclipse", "kind": "placement", "action": "explore" | "move" | "influence",
     "map": [{"sector": "221", "q": 0, "r": -2, "rotation": 0, "warp_portal_token": true?}, ...],
     "from": {"q": 0, "r": -2},
     "explored": {"sector": "204", "q": 0, "r": -3, "rotation": 3},     explore only
     "to": {"q": 1, "r": -2},                                            move / influence only
     "player_techs": ["Wormhole Generator"],
     "expect": {...}, "worked": [...]}                                    ignored

``map`` is the table **before** the action. ``player_techs`` are the acting player's techs (known names
only, :data:`KNOWN_TECHS`: a misspelt one is refused with the closest); only Wormhole Generator (or the
Shrines of Freedom tile) changes a verdict here. The findings are
:mod:`rules.eclipse.placement`'s verdicts in their order, the deciding one first; ``legal`` is false when
one breaks a rule.
"""

from __future__ import annotations

from typing import Any

from rules.core import Finding
from rules.eclipse.data import RARE_TECHNOLOGIES, TECHNOLOGIES, Catalogue, catalogue
from rules.eclipse.galaxy import Cell, Galaxy, PlacedHex
from rules.eclipse.inputs import read_cell, read_choice, read_header, read_rotation, read_sector
from rules.eclipse.placement import check_explore, check_link
from rules.eclipse.verdict import Verdict
from rules.scoring import Fields, ScoreInputError, field_path
from rules.text import Text

__all__ = ["ACTIONS", "GENERATOR_TECHS", "PlacementCase", "check_placement", "parse_placement", "wormhole_generator"]

ACTIONS = ("explore", "move", "influence")
"""The actions a placement case checks."""

GENERATOR_TECHS = ("Wormhole Generator", "Shrines of Freedom")
"""What lets a player use half wormholes: the technology, or the Enlightened's Shrines of Freedom tile, which
gives all of its abilities (Rise of the Ancients p.15)."""

KNOWN_TECHS = (*TECHNOLOGIES, *RARE_TECHNOLOGIES, "Shrines of Freedom")
"""What ``player_techs`` may name: a technology, a Rare Technology or the Shrines of Freedom tile (a misspelt
name is refused with the closest known ones: a misspelt Wormhole Generator must not change the verdict)."""

KEYS = ("game", "kind", "action", "map", "from", "explored", "to", "player_techs")


def wormhole_generator(techs: list[str]) -> bool:
    """Whether ``techs`` hold Wormhole Generator or the Shrines of Freedom tile (case and spacing ignored)."""
    wanted = {" ".join(t.casefold().split()) for t in GENERATOR_TECHS}
    return any(" ".join(t.casefold().split()) in wanted for t in techs)


class PlacementCase:
    """A parsed placement case: the action, the map before it, the source, the new tile or target, the techs."""

    def __init__(self, action: str, galaxy: Galaxy, source: Cell, explored: PlacedHex | None, to: Cell | None,
                 techs: list[str]) -> None:
        self.action, self.galaxy, self.source = action, galaxy, source
        self.explored, self.to, self.techs = explored, to, techs


def _placed(raw: Any, where: str, cat: Catalogue, token: bool) -> PlacedHex:
    keys = ("sector", "q", "r", "rotation", "warp_portal_token") if token else ("sector", "q", "r", "rotation")
    f = Fields(raw, where).only(*keys)
    sector = read_sector(f.get("sector"), f.path("sector"), cat)
    cell = read_cell({"q": f.get("q"), "r": f.get("r")}, where)
    rotation = read_rotation(f.get("rotation"), f.path("rotation"))
    portal = f.obj.get("warp_portal_token", False)
    if not isinstance(portal, bool):
        raise ScoreInputError.coded(f.path("warp_portal_token"), "true_or_false")
    return PlacedHex(sector, cell, rotation, portal)


def parse_placement(data: Any, cat: Catalogue | None = None) -> PlacementCase:
    """A placement case from its JSON object.

    Raises:
        ScoreInputError: naming the field: an unknown key, a wrong ``game`` or ``kind``, an unknown sector, a
            rotation outside 0-5, an unknown technology in ``player_techs``, two map tiles at one position or one
            sector twice, ``from`` or ``to`` on no map tile, ``explored`` missing for an Explore (or given for a
            Move or Influence), ``to`` missing for a Move or Influence, or the same as ``from``.
    """
    cat = cat or catalogue()
    f = read_header(data, "placement", KEYS)
    action = f.get("action")
    if action not in ACTIONS:
        raise ScoreInputError.coded("action", "eclipse.action", actions=", ".join(ACTIONS), got=repr(action))
    hexes: list[PlacedHex] = []
    at: dict[Cell, int] = {}
    sectors: dict[str, int] = {}
    for k, raw in enumerate(f.list("map")):
        where = field_path("map", k)
        h = _placed(raw, where, cat, token=True)
        if h.cell in at:
            raise ScoreInputError.coded(where, "eclipse.two_tiles", cell=f"({h.cell[0]}, {h.cell[1]})",
                                        other=f"map[{at[h.cell]}]")
        if h.sector.id in sectors:
            raise ScoreInputError.coded(f"{where}.sector", "eclipse.sector_twice", sector=h.sector.id,
                                        other=f"map[{sectors[h.sector.id]}]")
        at[h.cell], sectors[h.sector.id] = k, k
        hexes.append(h)
    galaxy = Galaxy.of(hexes)
    source = read_cell(f.get("from"), "from")
    if galaxy.at(source) is None:
        raise ScoreInputError.coded("from", "eclipse.no_tile_from", cell=f"({source[0]}, {source[1]})")
    techs = [read_choice(tech, field_path("player_techs", k), KNOWN_TECHS, Text("technologies"))
             for k, tech in enumerate(f.list("player_techs"))]
    explored: PlacedHex | None = None
    to: Cell | None = None
    if action == "explore":
        explored = _placed(f.get("explored"), "explored", cat, token=False)
        if f.obj.get("to") is not None:
            raise ScoreInputError.coded("to", "eclipse.to_in_explore")
    else:
        if f.obj.get("explored") is not None:
            raise ScoreInputError.coded("explored", "eclipse.explored_in_other", action=action)
        to = read_cell(f.get("to"), "to")
        if galaxy.at(to) is None:
            raise ScoreInputError.coded("to", "eclipse.no_tile_to", cell=f"({to[0]}, {to[1]})", action=action)
        if to == source:
            raise ScoreInputError.coded("to", "eclipse.same_hex")
    return PlacementCase(action, galaxy, source, explored, to, list(techs))


def verdicts(case: PlacementCase) -> list[Verdict]:
    """The case's verdicts (:mod:`rules.eclipse.placement`), the deciding one first."""
    generator = wormhole_generator(case.techs)
    if case.explored is not None:
        return check_explore(case.galaxy, case.explored, case.source, wormhole_generator=generator)
    assert case.to is not None
    return check_link(case.galaxy, case.source, case.to, wormhole_generator=generator, action=case.action)


def check_placement(data: Any, cat: Catalogue | None = None) -> list[Finding]:
    """``companion check eclipse FILE``: the findings of one placement case (ERROR: a rule broken; INFO: the
    rule that makes it legal; WARNING: legal, worth asking).

    Raises:
        ScoreInputError: see :func:`parse_placement`.
    """
    case = parse_placement(data, cat)
    card = case.explored.sector.id if case.explored is not None else None
    cell = case.explored.cell if case.explored is not None else case.to
    return [v.finding(card=card, cell=cell, where=Text("hex ({q}, {r})", q=cell[0], r=cell[1])) for v in verdicts(case)]
