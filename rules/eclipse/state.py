"""The Eclipse table as the engine follows it, and the end-of-game position built from it.

Frozen records, replaced and never changed (``dataclasses.replace``); mappings are copied on write.
The position (:func:`position`) is what the box followed (hexes controlled, structures, relations,
alliances, Ancients destroyed, Developments researched) overlaid with what each player reported at the
end (hidden information: reputation tiles, tech tracks, resources...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from rules.eclipse.data import RESOURCES, RISE_SPECIES, TECH_TRACKS
from rules.eclipse.endgame import PlayerPosition, Position, parse_player
from rules.eclipse.galaxy import Cell, Galaxy
from rules.eclipse.rounds import Rounds
from rules.scoring import ScoreInputError

__all__ = ["MODULES", "EclipsePlayer", "EclipseState", "Structure", "derived_report", "player_position", "position",
           "shrine_tiles"]

MODULES = ("ancient_homeworlds", "hives", "warp_portals", "developments", "alliances", "rare_technologies",
           "galactic_center")
"""The Rise of the Ancients modules a game may use (Rise of the Ancients p.2: use all, some or none)."""

NEUTRAL_SPECIES = "Terran Directorate"
"""A species with no scoring row of its own, to score a player whose species was not recorded."""


@dataclass(frozen=True)
class Structure:
    """Something built or laid on a hex: ``kind`` (``rules.eclipse.placement.STRUCTURES``), its builder (or
    finder), a Shrine's colour and cost (2, 4 or 6), and the round it was built in."""

    kind: str
    builder: str
    colour: str | None = None
    cost: int | None = None
    round: int = 0

    def to_json(self) -> dict[str, Any]:
        """``{"structure", "player"}``, plus a Shrine's ``"colour"`` and ``"cost"``."""
        out: dict[str, Any] = {"structure": self.kind, "player": self.builder}
        if self.colour:
            out["colour"] = self.colour
        if self.cost:
            out["cost"] = self.cost
        return out


@dataclass(frozen=True)
class EclipsePlayer:
    """One player: seat facts and what the box followed of their empire.

    Attributes:
        relations: the players they exchanged Ambassadors with (each holds the other's Ambassador).
        traitor: holds the Traitor card.
        alliance, alliance_side: the alliance whose tile they hold and its side (``face``, ``traitor``).
        left_alliance: turned their tile to its Traitor side (can never join again).
        ancient_cruisers, dreadnought: Ancient Cruisers destroyed, the Ancient Dreadnought destroyed.
        report: the fields they reported at the end (score-file names), or None.
    """

    name: str
    species: str | None = None
    techs: tuple[str, ...] = ()
    developments: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()
    traitor: bool = False
    alliance: str | None = None
    alliance_side: str | None = None
    left_alliance: bool = False
    ancient_cruisers: int = 0
    dreadnought: bool = False
    report: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class EclipseState:
    """The table: players in seat order, modules, rounds, the map and what lies on it.

    Attributes:
        modules: module name (:data:`MODULES`) -> in play.
        owners: hex position -> the player whose influence disc is there.
        ancients: hex position -> basic Ancient ships left there (Hive Ancients too).
        guardians: hex position -> ``"GCDS"``, ``"Ancient Dreadnought"`` or ``"Ancient Cruiser"`` still there.
        discs_over_ancients: hex position -> the player whose influence disc went on it while Ancients or a guardian
            held it (an error finding; kept as reported, like every play that breaks a rule). While they still hold it,
            the hex is not theirs at the end (:func:`derived_report`): no disc may go there until they are destroyed
            (Rise of the Ancients p.6-7; rules digest 3.7). A disc that was there first, when a Hive's Ancient moves
            in, is not listed: it stays until Combat removes it.
        structures: hex position -> what was built or laid there.
        alliances: the alliances founded, in order.
        volley: the last volley's result (the combat helper), or None.
        aim: the volley aimed and not rolled yet (``volley_aimed``: who fires what at whom, the computers and
            shields that count, the dice to roll), or None.
        blueprints: ``(player, ship type)`` -> the :class:`rules.eclipse.fleet.Blueprint` reported.
        activations: player -> the :class:`rules.eclipse.drives.Activation` of their Move under way (one ship's
            hexes, counted against its Movement).
        ended: the table stopped waiting for reports (``game_ended``: Next).
        hidden_worlds: the Hidden Worlds variant is played (Rise of the Ancients p.9).
        confirm_scores: the game is over only once the table ends it (``game_ended``), every final position in
            or not, so the last player to enter theirs can still withdraw or correct it; False (a log recorded
            before the setting): the last position entered ends the game.
    """

    players: tuple[EclipsePlayer, ...]
    modules: Mapping[str, bool]
    rounds: Rounds
    galaxy: Galaxy
    owners: Mapping[Cell, str] = field(default_factory=dict)
    ancients: Mapping[Cell, int] = field(default_factory=dict)
    guardians: Mapping[Cell, str] = field(default_factory=dict)
    discs_over_ancients: Mapping[Cell, str] = field(default_factory=dict)
    structures: Mapping[Cell, tuple[Structure, ...]] = field(default_factory=dict)
    alliances: tuple[str, ...] = ()
    volley: Mapping[str, Any] | None = None
    aim: Mapping[str, Any] | None = None
    blueprints: Mapping[tuple[str, str], Any] = field(default_factory=dict)
    activations: Mapping[str, Any] = field(default_factory=dict)
    ended: bool = False
    hidden_worlds: bool = False
    confirm_scores: bool = False

    def player(self, name: str) -> EclipsePlayer:
        """The player called ``name`` (KeyError when none)."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, p: EclipsePlayer) -> EclipseState:
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))

    @property
    def rise(self) -> bool:
        """Rise of the Ancients is in play: a module, or a species of it."""
        return any(self.modules.values()) or any(p.species in RISE_SPECIES for p in self.players)

    @property
    def reporting(self) -> bool:
        """The rounds are over and the table waits for end-of-game reports (with :attr:`confirm_scores`, until it
        ends the game, every report in or not)."""
        return self.rounds.over and not self.ended and (self.confirm_scores
                                                        or any(p.report is None for p in self.players))

    @property
    def over(self) -> bool:
        """The game has ended and is scored: the rounds are over, and the table ended it (``game_ended``) or, without
        :attr:`confirm_scores`, every player reported."""
        return self.rounds.over and (self.ended or (not self.confirm_scores
                                                    and all(p.report is not None for p in self.players)))

    def controlled(self, name: str) -> list[Cell]:
        """The hexes holding ``name``'s influence disc."""
        return [c for c, owner in self.owners.items() if owner == name]

    def held_by_ancients(self, name: str) -> list[Cell]:
        """The hexes holding ``name``'s disc that went on while Ancients or a guardian held them, and still do
        (:attr:`discs_over_ancients`): not theirs at the end."""
        return [c for c, who in self.discs_over_ancients.items()
                if who == name and self.owners.get(c) == name and (self.ancients.get(c, 0) or c in self.guardians)]

    def structures_of(self, kind: str) -> list[tuple[Cell, Structure]]:
        """Every structure of ``kind`` on the map, with its hex."""
        return [(c, s) for c, items in self.structures.items() for s in items if s.kind == kind]


def _sector_at(state: EclipseState, c: Cell | None) -> str | None:
    h = state.galaxy.at(c) if c is not None else None
    return h.sector.id if h is not None else None


def derived_report(state: EclipseState, p: EclipsePlayer) -> dict[str, Any]:
    """What the box followed of ``p``'s end position, in the score file's player fields (0 or empty for what
    only the player knows). A hex whose disc went on while Ancients or a guardian held it, and they still do
    (:meth:`EclipseState.held_by_ancients`), is not theirs: no disc goes there until the Ancients are destroyed
    (Rise of the Ancients p.6-7), so it scores nothing, nor anything in it."""
    mine = set(state.controlled(p.name)) - set(state.held_by_ancients(p.name))

    def token(kind: str) -> str | None:
        return next((_sector_at(state, c) for c, s in state.structures_of(kind) if s.builder == p.name), None)

    return {
        "resources": {r: 0 for r in RESOURCES},
        "reputation": [],
        "ambassadors_received": len(p.relations),
        "controlled_hexes": [h for h in (_sector_at(state, c) for c in sorted(mine)) if h is not None],
        "discoveries_kept_as_vp": 0,
        "monoliths": sum(1 for c, _ in state.structures_of("monolith") if c in mine),
        "tech_tracks": {t: 0 for t in TECH_TRACKS},
        "traitor": p.traitor,
        "ancient_cruisers_destroyed": p.ancient_cruisers,
        "ancient_dreadnought_destroyed": p.dreadnought,
        "developments": list(p.developments),
        "warp_portal_hex": token("warp_portal"),
        "shellworld_hex": token("shellworld"),
        "ancient_warp_portal_hex": token("ancient_warp_portal"),
        "shrines_controlled": sum(1 for c, _ in state.structures_of("shrine") if c in mine),
        "shrines_of_enlightenment_tile": shrine_tiles(state, p.name).get(6, 0) >= 3,
        "orbitals_with_cubes": 0,
        "magellan_discoveries_discarded_or_used": 0,
        "alliance": p.alliance,
        "alliance_tile_side": p.alliance_side,
    }


def player_position(state: EclipseState, p: EclipsePlayer, report: Mapping[str, Any] | None = None,
                    where: str = "report") -> PlayerPosition:
    """``p``'s end position: :func:`derived_report` overlaid with their report (or ``report``), checked as the
    score file checks a player.

    Raises:
        ScoreInputError: a reported field out of range (naming it).
    """
    merged = {**derived_report(state, p), **dict((p.report or {}) if report is None else report)}
    merged.update(name=p.name, species=p.species or NEUTRAL_SPECIES)
    pos = parse_player(merged, where, True, state.alliances)
    if p.species is None:
        pos = replace(pos, species="")
    if p.species == "Descendants of Draco":
        pos = replace(pos, ancients_on_board=sum(state.ancients.values()))
    held = tuple(h.sector for h in (state.galaxy.at(c) for c in sorted(state.held_by_ancients(p.name))) if h)
    return replace(pos, held_by_ancients=held) if held else pos


def shrine_tiles(state: EclipseState, name: str) -> dict[int, int]:
    """Shrines ``name`` built, by cost (2, 4, 6): three of one cost give its bonus tile (Rise of the Ancients
    p.15: Freedom acts as Wormhole Generator, Prosperity an extra disc, Enlightenment +3 VP)."""
    out: dict[int, int] = {}
    for _, s in state.structures_of("shrine"):
        if s.builder == name and s.cost:
            out[s.cost] = out.get(s.cost, 0) + 1
    return out


def position(state: EclipseState) -> Position:
    """The whole table's end position (the players in seat order). A report that no longer fits what the box
    followed (a token laid after it) is set aside for that player: their followed position counts."""
    orbital = next((c for c, _ in state.structures_of("ancient_orbital")), None)
    h = state.galaxy.at(orbital) if orbital is not None else None
    players = []
    for p in state.players:
        try:
            players.append(player_position(state, p))
        except ScoreInputError:
            players.append(player_position(state, p, report={}))
    return Position(tuple(players), state.alliances, h.sector if h is not None else None, state.rise,
                    modules=dict(state.modules))
