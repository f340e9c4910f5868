"""Eclipse end-game scoring: every row of the scoring table, the winner, and alliances.

One player's total (the rows, in the table's order; rulebook sources in :data:`ROW_SOURCES`)::

    row 1   reputation tiles (and one on Diplomatic Fleet): face value
    row 2   Ambassador tiles received: +1 each
    row 3   controlled hexes: printed VP
    row 4   Discovery tiles kept VP side up: +2 each
    row 5   Monoliths in controlled hexes: +3 each
    row 6   each tech track: 0-3 tiles 0, 4 -> 1, 5 -> 2, 6 -> 3, 7 -> 5
    row 7   Traitor card: -2 (Rho Indi Syndicate: 0)
    row 8   Descendants of Draco: +1 per Ancient ship on the board      UNCONFIRMED (DRACO_VP_PER_ANCIENT)
    row 9   Planta: +1 per controlled hex                                UNCONFIRMED (PLANTA_VP_PER_HEX)
    row 10  Ancient Cruisers destroyed: +1 each
    row 11  Ancient Dreadnought destroyed: +1
    row 12  Ancient Monument: +3
    row 13  Artifact Link: +1 per Artifact in controlled hexes (the Ancient Orbital carries one)
    row 14  Shellworld: +5 if its hex is controlled
    row 15  Warp Portal development: +1 if its hex is controlled
    row 16  Ancient Warp Portal discovery: +2 if its hex is controlled
    row 17  Alliance tile: face up +2, Traitor side -3
    row 18  Shrines of Enlightenment tile (Enlightened of Lyra): +3
    row 19  Enlightened of Lyra: +1 per Shrine in controlled hexes
    row 20  Exiles: +1 per own Orbital holding a cube
    row 21  Magellan: +1 per Discovery tile discarded or used as a ship part

Rows 8 and 9 are Second Dawn's rules; no first-edition source was found. The engine's scores use
them through one constant each (:data:`DRACO_VP_PER_ANCIENT`, :data:`PLANTA_VP_PER_HEX`; the line says
UNCONFIRMED), and the score file leaves them out (:data:`FILE_ROWS`): it has no count of Ancients on the
board, and its hand-worked totals are the other rows' sum.

Winner (Rise of the Ancients p.11): the contestants are each alliance (its face-up members, scoring
``floor(sum of their totals / members)``) and every player who is not a face-up member (a player on the
Traitor side scores alone). Most VP wins; a tie goes to the most resources (Money + Science + Materials;
an alliance ``floor(sum / members)``); still tied, a shared win. A winning alliance's members all win.
The rulebook's example: members 26, 44, 30 -> 100 / 3 -> 33, against 32, 31 and 30: the alliance wins.

Input: ``schemas/eclipse-score-input.schema.json`` (:func:`parse_score` checks what a schema cannot).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import ScoreBreakdown, ScoreLine, Standings
from rules.eclipse.data import (
    ALLIANCE_NAMES,
    BOARDS,
    DEVELOPMENTS,
    RESOURCES,
    RISE_SPECIES,
    SPECIES,
    TECH_TRACKS,
    Catalogue,
    Sector,
    catalogue,
)
from rules.eclipse.inputs import read_choice, read_header, read_sector, read_sector_or_null
from rules.eclipse.reputation import bag
from rules.eclipse.words import component_word
from rules.scoring import Fields, ScoreInputError, check_distinct_names, check_int, field_path
from rules.settings import components_conflict
from rules.text import AND, Listing, Text

__all__ = [
    "DRACO_VP_PER_ANCIENT",
    "FILE_ROWS",
    "PLANTA_VP_PER_HEX",
    "ROWS",
    "ROW_SOURCES",
    "TRACK_VP",
    "PlayerPosition",
    "Position",
    "final_scores",
    "parse_player",
    "parse_score",
    "score_player",
    "score_position",
    "standings",
]

DRACO_VP_PER_ANCIENT = 1
"""Row 8: the Descendants of Draco score this per Ancient ship left on the board (Hive Ancients included;
Ancient Cruisers on Ancient Homeworlds and the Ancient Dreadnought give nothing, Rise of the Ancients p.6-7).
UNCONFIRMED for the first edition: Second Dawn's rule. Left out of the score file (:data:`FILE_ROWS`)."""

PLANTA_VP_PER_HEX = 1
"""Row 9: Planta score this per controlled hex, on top of the hex's VP. UNCONFIRMED for the first edition:
Second Dawn's rule. Left out of the score file (:data:`FILE_ROWS`)."""

TRACK_VP = {4: 1, 5: 2, 6: 3, 7: 5}
"""Row 6: VP of a tech track by its tiles (0-3 tiles score 0)."""

ROWS = (
    (1, Text("reputation")), (2, Text("ambassadors")), (3, Text("hexes")), (4, Text("discoveries")),
    (5, Text("monoliths")), (6, Text("technology tracks")), (7, Text("traitor")), (8, Text("Ancients on the board")),
    (9, Text("Planta hexes")), (10, Text("Ancient Cruisers")), (11, Text("Ancient Dreadnought")),
    (12, component_word("Ancient Monument")), (13, component_word("Artifact Link")), (14, component_word("Shellworld")),
    (15, component_word("Warp Portal")), (16, component_word("Ancient Warp Portal")), (17, Text("alliance tile")),
    (18, Text("Shrines of Enlightenment")), (19, Text("Shrines")), (20, Text("Orbitals")),
    (21, Text("Magellan discoveries")),
)
"""Every row of the scoring table: ``(number, breakdown category)``; a row a Development or Discovery scores is named
as the tile is everywhere else (:func:`rules.eclipse.words.component_word`)."""

FILE_ROWS = frozenset(n for n, _ in ROWS) - {8, 9}
"""The rows the score file's totals hold: all but 8 and 9 (UNCONFIRMED; the file has no field for row 8)."""

ROW_SOURCES = {
    1: Text("reputation tiles, face value (Rise of the Ancients p.{page} {development} holds one)", page=5,
            development=component_word("Diplomatic Fleet")),
    2: Text("Ambassador tiles received"),
    3: Text("controlled hexes' printed VP"),
    4: Text("Discovery tiles kept as VP (Rise of the Ancients p.{page})", page=14),
    5: Text("Monoliths in controlled hexes"),
    6: Text("tech tracks: 4 tiles 1, 5 tiles 2, 6 tiles 3, 7 tiles 5 (Rise of the Ancients p.{page}: Rare Technologies "
            "count)", page=4),
    7: Text("Traitor card; the {species} lose nothing (Rise of the Ancients p.{page})", species="Rho Indi Syndicate",
            page=15),
    # rows 8 and 9: the species boards' rules as Second Dawn prints them; no first-edition text of them was found
    # (Rise of the Ancients p.6-7 names the Ancients that give Draco nothing, so the row itself is first edition)
    8: Text("{species}: 1 VP for each Ancient ship left on the board, not the Ancient Dreadnought nor an Ancient "
            "Cruiser on an Ancient Homeworld (species board; Rise of the Ancients p.{page})",
            species="Descendants of Draco", page=6),
    9: Text("{species}: 1 VP for each controlled hex, on top of its printed VP (species board)", species="Planta"),
    10: Text("{ships} destroyed (Rise of the Ancients p.{page})", ships=Text("Ancient Cruisers"), page=6),
    11: Text("{ships} destroyed (Rise of the Ancients p.{page})", ships=Text("Ancient Dreadnought"), page=6),
    12: Text("{tile} (Rise of the Ancients p.{page})", tile=component_word("Ancient Monument"), page=5),
    13: Text("{development}: Artifacts in controlled hexes (Rise of the Ancients p.{page}, p.{other_page} {discovery})",
             development=component_word("Artifact Link"), page=5, other_page=8,
             discovery=component_word("Ancient Orbital")),
    14: Text("{tile} in a controlled hex (Rise of the Ancients p.{page})", tile=component_word("Shellworld"), page=5),
    15: Text("{tile} token in a controlled hex (Rise of the Ancients p.{page})", tile=component_word("Warp Portal"),
             page=5),
    16: Text("{tile} in a controlled hex (Rise of the Ancients p.{page})", tile=component_word("Ancient Warp Portal"),
             page=8),
    17: Text("Alliance tile: face up +2, Traitor side -3 (Rise of the Ancients p.{page})", page=11),
    18: Text("{tile} tile (Rise of the Ancients p.{page})", tile=Text("Shrines of Enlightenment"), page=15),
    19: Text("Shrines in controlled hexes (Rise of the Ancients p.{page})", page=15),
    20: Text("{species}: Orbitals holding a cube (Rise of the Ancients p.{page})", species="Exiles", page=14),
    21: Text("{species}: Discoveries discarded or used as ship parts (Rise of the Ancients p.{page})",
             species="Magellan", page=14),
}
"""Where each row comes from, as the breakdown line's detail says it: a :class:`Text` (the English is what tools
read; the phones say it in their language), a Development or Discovery named as everywhere else
(:func:`rules.eclipse.words.component_word`), a species by its printed name."""

ALLIANCES_MAX = 3
"""Alliances in the box (Rise of the Ancients p.10: Nova, Vortex and a third), each of 3 tiles (9 Alliance tiles,
p.3)."""
ALLIANCE_TILES = 3
ALLIANCE_SIDES = ("face", "traitor")
ALLIANCE_MIN_PLAYERS = 4
"""Alliances are not used with 2 or 3 players (Rise of the Ancients p.10)."""
BASE_MAX_PLAYERS = 6
"""The base game seats 2-6 players; Rise of the Ancients brings the pieces for up to nine (p.3: "επιτρέποντας μέχρι
και εννέα παίκτες")."""
ALLIANCE_THIRD_MEMBER_PLAYERS = 6
"""With 4 and 5 players an alliance has at most 2 members; from 6 players a third may join (Rise of the Ancients
p.10: "Σε παιχνίδι τεσσάρων και πέντε παικτών, μόνο δύο παίκτες μπορούν να ανήκουν στην ίδια Συμμαχία")."""
ANCIENT_CRUISERS = 8
"""Ancient Cruiser tiles in the box (Rise of the Ancients p.3)."""
SHRINES = 9
"""Shrine tiles in the box (Rise of the Ancients p.3)."""
REPUTATION_TILES = 12 + 9 + 7 + 4 + 9
"""Every reputation tile in the box: the base bag's 32 and Rise of the Ancients' 9 for 7-9 players."""

PLAYER_KEYS = (
    "name", "species", "resources", "reputation", "ambassadors_received", "controlled_hexes",
    "discoveries_kept_as_vp", "monoliths", "tech_tracks", "traitor", "ancient_cruisers_destroyed",
    "ancient_dreadnought_destroyed", "developments", "warp_portal_hex", "shellworld_hex",
    "ancient_warp_portal_hex", "shrines_controlled", "shrines_of_enlightenment_tile", "orbitals_with_cubes",
    "magellan_discoveries_discarded_or_used", "alliance", "alliance_tile_side",
)
"""Every field of a player object in the score file (all required)."""

PLAYER_OPTIONAL_KEYS = ("reputation_slots",)
"""A player's optional fields: ``reputation_slots``, the spaces of the reputation track printed on the player's
species board (Eclipse, reputation tiles: each tile kept goes on a space of the track, whose spaces also take the
Ambassador tiles received; a full track keeps a new tile only in place of one). The count differs by species and is
printed on the boards, not in the rulebooks' text, so the file says it when the table wants it checked."""

REPUTATION_SLOTS_MOST = 9
"""The most reputation spaces a ``reputation_slots`` may say (a larger number is a typing slip)."""

TOP_KEYS = ("game", "kind", "rise_of_the_ancients", "alliances_in_play", "ancient_orbital_hex", "players", "setup")
SETUP_KEYS = ("modules", "players")
"""The optional ``setup`` object of the score file: ``modules``, the Rise of the Ancients modules the game was set up
with (:data:`rules.eclipse.state.MODULES`; Rise of the Ancients p.2: a game uses all, some or none), and ``players``,
the number of players at the table (2-9; the file may list fewer)."""

MODULE_FIELDS = (("ancient_cruisers_destroyed", "ancient_homeworlds"), ("ancient_dreadnought_destroyed",
                 "galactic_center"), ("developments", "developments"), ("ancient_warp_portal_hex", "warp_portals"),
                 ("alliance", "alliances"))
"""A player's score-file field and the module it needs (:data:`MODULE_ROWS`: Ancient Cruisers guard the Ancient
Homeworlds, p.6; the Ancient Dreadnought the Galactic Center, p.6; Developments, p.5; the Ancient Warp Portal, p.8;
Alliances, p.10-11)."""

HEX_MODULES = {"ancient_homeworld": "ancient_homeworlds", "ancient_hive": "hives", "warp_sector": "warp_portals"}
"""A sector kind (:attr:`rules.eclipse.data.Sector.kind`) that only a module brings into the game, and that module
(Rise of the Ancients p.6, Ancient Homeworlds; p.7, Ancient Hives; p.8, Warp Portals: the Portal sectors are shuffled
into the stacks only with it): a controlled hex of one where ``setup.modules`` leaves it out is refused."""


@dataclass(frozen=True)
class PlayerPosition:
    """One player at the end of the game, as the score file (or the engine) gives it.

    Hex fields are :class:`rules.eclipse.data.Sector` records; ``ancients_on_board`` is row 8's count
    (None: unknown, the row is not scored), ``planta_hexes`` whether row 9 is scored. ``held_by_ancients``: hexes
    holding the player's disc that are not in ``controlled_hexes`` because Ancients still hold them (the engine's
    :meth:`rules.eclipse.state.EclipseState.held_by_ancients`; not in the score file): row 3's line names them.
    """

    name: str
    species: str
    resources: Mapping[str, int] = field(default_factory=lambda: {r: 0 for r in RESOURCES})
    reputation: tuple[int, ...] = ()
    ambassadors_received: int = 0
    controlled_hexes: tuple[Sector, ...] = ()
    discoveries_kept_as_vp: int = 0
    monoliths: int = 0
    tech_tracks: Mapping[str, int] = field(default_factory=lambda: {t: 0 for t in TECH_TRACKS})
    traitor: bool = False
    ancient_cruisers_destroyed: int = 0
    ancient_dreadnought_destroyed: bool = False
    developments: tuple[str, ...] = ()
    warp_portal_hex: Sector | None = None
    shellworld_hex: Sector | None = None
    ancient_warp_portal_hex: Sector | None = None
    shrines_controlled: int = 0
    shrines_of_enlightenment_tile: bool = False
    orbitals_with_cubes: int = 0
    magellan_discoveries_discarded_or_used: int = 0
    alliance: str | None = None
    alliance_tile_side: str | None = None
    ancients_on_board: int | None = None
    held_by_ancients: tuple[Sector, ...] = ()

    @property
    def resources_total(self) -> int:
        """Money + Science + Materials in storage (the tie-break)."""
        return sum(self.resources.values())


@dataclass(frozen=True)
class Position:
    """The table at the end: the players, the alliances formed, where the Ancient Orbital lies, RotA in play."""

    players: tuple[PlayerPosition, ...]
    alliances: tuple[str, ...] = ()
    ancient_orbital_hex: Sector | None = None
    rise_of_the_ancients: bool = True
    modules: Mapping[str, bool] | None = None
    """The Rise of the Ancients modules in play (:data:`rules.eclipse.state.MODULES` -> in play), or None where the
    set-up is not known (a score file without ``setup.modules``): then every row of the expansion is listed."""
    seats: int | None = None
    """The players at the table, where more than :attr:`players` (a score file's ``setup.players``); None: as many."""

    @property
    def player_count(self) -> int:
        """The players at the table: :attr:`seats`, or the positions given."""
        return self.seats if self.seats is not None else len(self.players)


MODULE_ROWS = {10: "ancient_homeworlds", 11: "galactic_center", 12: "developments", 13: "developments",
               14: "developments", 15: "developments", 16: "warp_portals", 17: "alliances"}
"""The rows a Rise of the Ancients module brings (p.2: a game uses all, some or none): Ancient Cruisers guard the
Ancient Homeworlds (p.6), the Ancient Dreadnought the Galactic Center (p.6), the Developments module's tiles (p.5),
the Ancient Warp Portal with the Warp Portals (p.8), the Alliance tiles (p.10-11). A row whose module is not in play
is left out of the scores unless a player scored it (nothing is hidden: the totals are the same)."""


def score_player(p: PlayerPosition, ancient_orbital_hex: Sector | None = None, *, rise: bool = True,
                 rows: frozenset[int] | None = None) -> ScoreBreakdown:
    """One player's breakdown, one line per row that applies (its detail names the row's rule).

    Rows 1-7 always; rows 10-17 with Rise of the Ancients; 18-19 for the Enlightened of Lyra, 20 for the
    Exiles, 21 for Magellan; row 8 for the Descendants of Draco when ``ancients_on_board`` is known, row 9 for
    Planta; ``rows`` limits them (the score file: :data:`FILE_ROWS`).
    """
    controlled = {s.id for s in p.controlled_hexes}
    species = p.species
    vp: dict[int, int] = {
        1: sum(p.reputation),
        2: p.ambassadors_received,
        3: sum(s.vp for s in p.controlled_hexes),
        4: 2 * p.discoveries_kept_as_vp,
        5: 3 * p.monoliths,
        6: sum(TRACK_VP.get(p.tech_tracks.get(t, 0), 0) for t in TECH_TRACKS),
        7: -2 if p.traitor and species != "Rho Indi Syndicate" else 0,
    }
    if species == "Descendants of Draco" and p.ancients_on_board is not None:
        vp[8] = DRACO_VP_PER_ANCIENT * p.ancients_on_board
    if species == "Planta":
        vp[9] = PLANTA_VP_PER_HEX * len(p.controlled_hexes)
    if rise:
        artifacts = sum(s.artifacts for s in p.controlled_hexes)
        if ancient_orbital_hex is not None and ancient_orbital_hex.id in controlled:
            artifacts += 1
        vp.update({
            10: p.ancient_cruisers_destroyed,
            11: 1 if p.ancient_dreadnought_destroyed else 0,
            12: 3 if "Ancient Monument" in p.developments else 0,
            13: artifacts if "Artifact Link" in p.developments else 0,
            14: 5 if p.shellworld_hex is not None and p.shellworld_hex.id in controlled else 0,
            15: 1 if p.warp_portal_hex is not None and p.warp_portal_hex.id in controlled else 0,
            16: 2 if p.ancient_warp_portal_hex is not None and p.ancient_warp_portal_hex.id in controlled else 0,
            17: {"face": 2, "traitor": -3}.get(p.alliance_tile_side or "", 0),
        })
        if species == "Enlightened of Lyra":
            vp[18] = 3 if p.shrines_of_enlightenment_tile else 0
            vp[19] = p.shrines_controlled
        if species == "Exiles":
            vp[20] = p.orbitals_with_cubes
        if species == "Magellan":
            vp[21] = p.magellan_discoveries_discarded_or_used
    names = dict(ROWS)
    sources = dict(ROW_SOURCES)
    if p.held_by_ancients:
        sources[3] = Text("{detail}, without hexes Ancients still hold ({sectors}): no influence disc goes there while "
                          "they remain (Rise of the Ancients p.{page})", detail=ROW_SOURCES[3],
                          sectors=Listing((s.label for s in p.held_by_ancients), AND), page=6)
    lines = tuple(ScoreLine(names[n], vp[n], sources[n])
                  for n, _ in ROWS if n in vp and (rows is None or n in rows))
    team = p.alliance if p.alliance_tile_side == "face" else None
    return ScoreBreakdown(p.name, lines, tiebreak=(p.resources_total,), role=species or None, team=team)


def score_position(position: Position, rows: frozenset[int] | None = None) -> list[ScoreBreakdown]:
    """Every player's breakdown, in the position's order (see :func:`score_player`). Rows nobody can score in this
    game are left out when every player has 0 in them (so no total changes): with fewer players than diplomatic
    relations need (:data:`rules.eclipse.diplomacy.DIPLOMACY_MIN_PLAYERS`) rows 2 (Ambassadors) and 7 (Traitor); a
    Rise of the Ancients module's rows (:data:`MODULE_ROWS`) when the position's set-up leaves the module out."""
    from rules.eclipse.diplomacy import DIPLOMACY_MIN_PLAYERS  # diplomacy -> state -> endgame: imported here

    absent: set[int] = set()
    if position.player_count < DIPLOMACY_MIN_PLAYERS:
        absent |= {2, 7}
    if position.modules is not None:
        absent |= {n for n, module in MODULE_ROWS.items() if not position.modules.get(module)}
    scored = [score_player(p, position.ancient_orbital_hex, rise=position.rise_of_the_ancients, rows=rows)
              for p in position.players]
    if not absent:
        return scored
    names = dict(ROWS)
    held = {n for n in absent for b in scored for line in b.lines if line.category == names[n] and line.vp}
    if {2, 7} <= absent and any(p.ambassadors_received or p.traitor for p in position.players):
        held |= {2, 7}  # a position that holds one (a score file may) keeps both rows
    left_out = absent - held
    if not left_out:
        return scored
    kept = (rows if rows is not None else frozenset(n for n, _ in ROWS)) - left_out
    return [score_player(p, position.ancient_orbital_hex, rise=position.rise_of_the_ancients, rows=kept)
            for p in position.players]


def standings(breakdowns: Sequence[ScoreBreakdown]) -> Standings:
    """The winners and the alliances' scores (Rise of the Ancients p.11).

    An alliance (the breakdowns whose ``team`` names it) scores ``floor(sum of totals / members)`` and breaks
    ties with ``floor(sum of resources / members)``; every other player is a contestant alone, with their
    resources (``tiebreak[0]``). The highest score wins, then the most resources; contestants still tied
    share the win. Winners are given in the breakdowns' order; ``teams`` is ``{}`` without alliances.
    """
    teams: dict[str, list[ScoreBreakdown]] = {}
    contestants: list[tuple[tuple[int, int], list[str]]] = []
    for b in breakdowns:
        if b.team is not None:
            teams.setdefault(b.team, []).append(b)
        else:
            contestants.append(((b.total, b.tiebreak[0] if b.tiebreak else 0), [b.player]))
    scores: dict[str, int] = {}
    for team, members in teams.items():
        n = len(members)
        scores[team] = sum(m.total for m in members) // n
        resources = sum(m.tiebreak[0] if m.tiebreak else 0 for m in members) // n
        contestants.append(((scores[team], resources), [m.player for m in members]))
    if not contestants:
        return Standings(winners=(), teams=scores)
    best = max(key for key, _ in contestants)
    won = {name for key, names in contestants if key == best for name in names}
    return Standings(winners=tuple(b.player for b in breakdowns if b.player in won), teams=scores)


# -- the score file ------------------------------------------------------------------------------------


def _bool(f: Fields, key: str) -> bool:
    value = f.get(key)
    if not isinstance(value, bool):
        raise ScoreInputError.coded(f.path(key), "true_or_false_got", got=repr(value))
    return value


def parse_player(raw: Any, where: str, rise: bool, alliances: Sequence[str],
                 cat: Catalogue | None = None) -> PlayerPosition:
    """One player object of the score file (every field of :data:`PLAYER_KEYS` present), checked alone.

    Raises:
        ScoreInputError: naming the field (``players[1].tech_tracks.grid``).
    """
    cat = cat or catalogue()
    f = Fields(raw, where).only(*PLAYER_KEYS, *PLAYER_OPTIONAL_KEYS)
    for key in PLAYER_KEYS:
        f.get(key)  # every field is present (fields that do not apply are 0, false, [] or null)
    name = f.str("name")
    species = read_choice(f.get("species"), f.path("species"), SPECIES, Text("species"))
    if species in RISE_SPECIES and not rise:
        raise ScoreInputError.coded(f.path("species"), "eclipse.rise_species", species=species)
    res = f.object("resources").only(*RESOURCES)
    resources = {r: res.int(r, low=0) for r in RESOURCES}
    rep_raw = f.list("reputation")
    if len(rep_raw) > REPUTATION_TILES:
        raise ScoreInputError.coded(f.path("reputation"), "eclipse.reputation_tiles", count=len(rep_raw),
                                    most=REPUTATION_TILES)
    reputation = tuple(check_int(v, field_path(f.path("reputation"), k), low=1, high=4) for k, v in enumerate(rep_raw))
    hexes = _read_hexes(f, rise, cat)
    tracks_f = f.object("tech_tracks").only(*TECH_TRACKS)
    tracks = {t: tracks_f.int(t, low=0, high=7) for t in TECH_TRACKS}
    developments = _read_developments(f, rise)
    tokens: dict[str, Sector | None] = {}
    for key, development in (("warp_portal_hex", "Warp Portal"), ("shellworld_hex", "Shellworld")):
        tokens[key] = read_sector_or_null(f.get(key), f.path(key), cat)
        if tokens[key] is not None and development not in developments:
            raise ScoreInputError.coded(f.path(key), "eclipse.token_without_development",
                                        tile=component_word(development))
    ancient_portal = read_sector_or_null(f.get("ancient_warp_portal_hex"), f.path("ancient_warp_portal_hex"), cat)
    alliance, side = _read_alliance(f, alliances)
    _check_reputation_slots(f, reputation, f.int("ambassadors_received", low=0), developments)
    position = PlayerPosition(
        name=name, species=species, resources=resources, reputation=reputation,
        ambassadors_received=f.int("ambassadors_received", low=0), controlled_hexes=tuple(hexes),
        discoveries_kept_as_vp=f.int("discoveries_kept_as_vp", low=0), monoliths=f.int("monoliths", low=0),
        tech_tracks=tracks, traitor=_bool(f, "traitor"),
        ancient_cruisers_destroyed=f.int("ancient_cruisers_destroyed", low=0, high=ANCIENT_CRUISERS),
        ancient_dreadnought_destroyed=_bool(f, "ancient_dreadnought_destroyed"), developments=tuple(developments),
        warp_portal_hex=tokens["warp_portal_hex"], shellworld_hex=tokens["shellworld_hex"],
        ancient_warp_portal_hex=ancient_portal, shrines_controlled=f.int("shrines_controlled", low=0, high=SHRINES),
        shrines_of_enlightenment_tile=_bool(f, "shrines_of_enlightenment_tile"),
        orbitals_with_cubes=f.int("orbitals_with_cubes", low=0),
        magellan_discoveries_discarded_or_used=f.int("magellan_discoveries_discarded_or_used", low=0),
        alliance=alliance, alliance_tile_side=side,
    )
    if not rise:
        for key in ("ancient_cruisers_destroyed", "ancient_dreadnought_destroyed", "ancient_warp_portal_hex",
                    "shrines_controlled", "shrines_of_enlightenment_tile", "orbitals_with_cubes",
                    "magellan_discoveries_discarded_or_used"):
            if getattr(position, key) not in (0, False, None):
                raise ScoreInputError.coded(f.path(key), "eclipse.rise_count")
    return position


def _read_hexes(f: Fields, rise: bool, cat: Catalogue) -> list[Sector]:
    """A player's ``controlled_hexes``: each sector once, a Rise of the Ancients tile only with the module."""
    hexes: list[Sector] = []
    seen: set[str] = set()
    for k, value in enumerate(f.list("controlled_hexes")):
        here = field_path(f.path("controlled_hexes"), k)
        sector = read_sector(value, here, cat)
        if sector.id in seen:
            raise ScoreInputError.coded(here, "eclipse.hex_twice", hex=sector.id)
        if sector.rise and not rise:
            raise ScoreInputError.coded(here, "eclipse.rise_hex", hex=sector.label)
        hexes.append(sector)
        seen.add(sector.id)
    return hexes


def _read_developments(f: Fields, rise: bool) -> list[str]:
    """A player's ``developments``: each Development tile once, only with Rise of the Ancients."""
    developments: list[str] = []
    for k, value in enumerate(f.list("developments")):
        here = field_path(f.path("developments"), k)
        dev = read_choice(value, here, DEVELOPMENTS, Text("Development tiles"))
        if dev in developments:
            raise ScoreInputError.coded(here, "eclipse.development_twice", development=component_word(dev))
        developments.append(dev)
    if developments and not rise:
        raise ScoreInputError.coded(f.path("developments"), "eclipse.rise_developments")
    return developments


def _read_alliance(f: Fields, alliances: Sequence[str]) -> tuple[Any, Any]:
    """A player's ``(alliance, alliance_tile_side)``: an alliance in play (spelt as listed there) with a side, or
    both null."""
    alliance = f.get("alliance")
    side = f.get("alliance_tile_side")
    if alliance is not None:
        folded = {" ".join(a.casefold().split()): a for a in alliances}
        if isinstance(alliance, str):
            alliance = folded.get(" ".join(alliance.casefold().split()), alliance)
        if not isinstance(alliance, str) or alliance not in alliances:
            raise ScoreInputError.coded(f.path("alliance"), "eclipse.alliance_not_in_play",
                                        alliances=", ".join(alliances) or Text("none"), got=repr(alliance))
        if side not in ALLIANCE_SIDES:
            raise ScoreInputError.coded(f.path("alliance_tile_side"), "eclipse.alliance_side", got=repr(side))
    elif side is not None:
        raise ScoreInputError.coded(f.path("alliance_tile_side"), "eclipse.no_alliance_side", got=repr(side))
    return alliance, side


def _one_holder(players: Sequence[PlayerPosition], key: str, what: Text) -> None:
    """Refuse two players holding a component the box has once (the Traitor card, the Ancient Dreadnought)."""
    holders = [k for k, p in enumerate(players) if getattr(p, key)]
    if len(holders) > 1:
        raise ScoreInputError.coded(f"players[{holders[1]}].{key}", "eclipse.one_holder",
                                    holder=f"players[{holders[0]}]", what=what)


def parse_score(data: Any, cat: Catalogue | None = None) -> Position:
    """A score case from its JSON object (``schemas/eclipse-score-input.schema.json``).

    Raises:
        ScoreInputError: naming the field: an unknown or missing key, a wrong ``game`` or ``kind``, an unknown
            species, sector or Development, a number out of range, two players with one name (ignoring case)
            or on one player board's two sides, a hex controlled by two players, a unique tile (Development,
            Traitor card, Ancient Dreadnought) held twice, an alliance not in ``alliances_in_play`` or with
            more members than its 3 tiles, alliances with 2-3 players, Rise of the Ancients content with
            ``rise_of_the_ancients`` false, more reputation tiles of a value than the bag holds.
    """
    cat = cat or catalogue()
    f = read_header(data, "score", TOP_KEYS)
    rise = _bool(f, "rise_of_the_ancients")
    raw_alliances = f.list("alliances_in_play")
    alliances: list[str] = []
    for k, a in enumerate(raw_alliances):
        here = field_path("alliances_in_play", k)
        a = read_choice(a, here, ALLIANCE_NAMES, Text("alliances"))
        if a in alliances:
            raise ScoreInputError.coded(here, "listed_twice", name=repr(a))
        alliances.append(a)
    if len(alliances) > ALLIANCES_MAX:
        raise ScoreInputError.coded("alliances_in_play", "eclipse.alliance_count", count=len(alliances),
                                    most=ALLIANCES_MAX)
    if alliances and not rise:
        raise ScoreInputError.coded("alliances_in_play", "eclipse.rise_alliances")
    orbital = read_sector_or_null(f.get("ancient_orbital_hex"), "ancient_orbital_hex", cat)
    if orbital is not None and not rise:
        raise ScoreInputError.coded("ancient_orbital_hex", "eclipse.rise_orbital")
    raw_players = f.list("players")
    if not 1 <= len(raw_players) <= 9:
        raise ScoreInputError.coded("players", "eclipse.player_count", count=len(raw_players))
    players = [parse_player(raw, field_path("players", k), rise, alliances, cat) for k, raw in enumerate(raw_players)]
    modules, seats = _read_setup(f, rise, len(players))
    check_distinct_names([p.name for p in players])
    conflict = components_conflict([p.species for p in players], BOARDS)
    if conflict is not None:
        last = max(k for k, p in enumerate(players) if p.species in conflict[0])
        chose = [p.species for p in players if p.species in conflict[0]]  # every player on those species
        raise ScoreInputError.coded(f"players[{last}].species", "eclipse.boards",
                                    species=Listing(dict.fromkeys(chose), AND), count=len(chose), boards=conflict[1])
    _check_held_once(players)
    count = seats if seats is not None else len(players)
    if not rise and count > BASE_MAX_PLAYERS:
        raise ScoreInputError.coded("setup.players" if seats is not None else "players", "eclipse.rise_seats",
                                    count=count)
    _check_bag(players, count)
    _one_holder(players, "traitor", Text("the Traitor card"))
    _one_holder(players, "ancient_dreadnought_destroyed", Text("the Ancient Dreadnought tile"))
    if alliances and count < ALLIANCE_MIN_PLAYERS:
        raise ScoreInputError.coded("alliances_in_play", "eclipse.alliances_few_players", count=count)
    if modules is not None:
        _check_modules(modules, alliances, players)
    pairs_only = count < ALLIANCE_THIRD_MEMBER_PLAYERS
    for a in alliances:
        holders = [k for k, p in enumerate(players) if p.alliance == a]
        if pairs_only and len(holders) > 2:  # p.10: with 4 or 5 players, two members
            raise ScoreInputError.coded(f"players[{holders[2]}].alliance", "eclipse.alliance_members",
                                        count=len(holders), alliance=a, players=count)
        if len(holders) > ALLIANCE_TILES:
            raise ScoreInputError.coded(f"players[{holders[ALLIANCE_TILES]}].alliance", "eclipse.alliance_tiles",
                                        count=len(holders), alliance=a, most=ALLIANCE_TILES)
    return Position(tuple(players), tuple(alliances), orbital, rise, modules, seats)


def _read_setup(f: Fields, rise: bool, listed: int) -> tuple[dict[str, bool] | None, int | None]:
    """The score file's optional ``setup`` (:data:`SETUP_KEYS`): ``(modules -> in play, or None when not said;
    the players at the table, or None when not said)``.

    Raises:
        ScoreInputError: naming the field: ``setup`` not an object or with another key, a module name unknown or
            listed twice, modules with ``rise_of_the_ancients`` false, ``players`` not a whole number from 2 to 9
            or fewer than the players listed.
    """
    from rules.eclipse.state import MODULES  # state -> endgame: imported here

    if not f.has("setup"):
        return None, None
    setup = f.object("setup").only(*SETUP_KEYS)
    modules: dict[str, bool] | None = None
    if setup.has("modules"):
        named: list[str] = []
        for k, value in enumerate(setup.list("modules")):
            here = field_path(setup.path("modules"), k)
            module = read_choice(value, here, MODULES, Text("modules"))
            if module in named:
                raise ScoreInputError.coded(here, "listed_twice", name=repr(module))
            named.append(module)
        if named and not rise:
            raise ScoreInputError.coded(setup.path("modules"), "eclipse.rise_modules")
        modules = {m: m in named for m in MODULES}
    seats = None
    if setup.has("players"):
        seats = setup.int("players", low=2, high=9)
        if seats < listed:
            raise ScoreInputError.coded(setup.path("players"), "eclipse.setup_players", count=seats, listed=listed)
    return modules, seats


def _check_modules(modules: Mapping[str, bool], alliances: Sequence[str], players: Sequence[PlayerPosition]) -> None:
    """Refuse a module's content where ``setup.modules`` leaves the module out (:data:`MODULE_FIELDS`; a controlled
    hex only that module brings, :data:`HEX_MODULES`), naming the first field holding it."""
    if alliances and not modules["alliances"]:
        raise ScoreInputError.coded("alliances_in_play", "eclipse.module_off", module="alliances")
    for k, p in enumerate(players):
        for key, module in MODULE_FIELDS:
            if not modules[module] and getattr(p, key) not in (0, False, None, ()):
                raise ScoreInputError.coded(f"players[{k}].{key}", "eclipse.module_off", module=module)
        for j, sector in enumerate(p.controlled_hexes):
            module = HEX_MODULES.get(sector.kind)
            if module is not None and not modules[module]:
                raise ScoreInputError.coded(f"players[{k}].controlled_hexes[{j}]", "eclipse.module_off", module=module)


def _check_bag(players: Sequence[PlayerPosition], seats: int) -> None:
    """Refuse more reputation tiles of a value, over the players in order, than the game's bag holds at ``seats``
    players (the base bag 12x1, 9x2, 7x3, 4x4 VP; Rise of the Ancients p.12 adds tiles for 7-9 players:
    :func:`rules.eclipse.reputation.bag`), naming the first player whose tiles go over."""
    in_bag = bag(seats)
    seen: Counter[int] = Counter()
    for k, p in enumerate(players):
        seen.update(p.reputation)
        for vp in sorted(set(p.reputation)):
            if seen[vp] > in_bag[vp]:
                raise ScoreInputError.coded(f"players[{k}].reputation", "eclipse.reputation_bag", vp=vp,
                                            count=seen[vp], most=in_bag[vp])


def _check_held_once(players: Sequence[PlayerPosition]) -> None:
    """Refuse a hex controlled by two players, or a Development tile held by two."""
    owner: dict[str, int] = {}
    for k, p in enumerate(players):
        for j, s in enumerate(p.controlled_hexes):
            if s.id in owner:
                raise ScoreInputError.coded(f"players[{k}].controlled_hexes[{j}]", "eclipse.hex_held_twice",
                                            hex=s.id, other=f"players[{owner[s.id]}]")
            owner[s.id] = k
    held: dict[str, int] = {}
    for k, p in enumerate(players):
        for j, dev in enumerate(p.developments):
            if dev in held:
                raise ScoreInputError.coded(f"players[{k}].developments[{j}]", "eclipse.development_held_twice",
                                            other=f"players[{held[dev]}]", development=component_word(dev))
            held[dev] = k


def _check_reputation_slots(f: Fields, reputation: tuple[int, ...], ambassadors: int,
                            developments: Sequence[str]) -> None:
    """Refuse more reputation and Ambassador tiles than the player's reputation track has spaces for, when the file
    says the spaces (``reputation_slots``, :data:`PLAYER_OPTIONAL_KEYS`): each tile kept takes a space of the track
    (Eclipse, reputation tiles); Diplomatic Fleet holds one more, an Ambassador or a reputation tile (Rise of the
    Ancients p.5).

    Raises:
        ScoreInputError: ``reputation_slots`` not a whole number 1-9; more tiles than spaces, at ``reputation``.
    """
    if not f.has("reputation_slots"):
        return
    slots = f.int("reputation_slots", low=1, high=REPUTATION_SLOTS_MOST)
    fleet = "Diplomatic Fleet" in developments
    if len(reputation) + ambassadors > slots + fleet:
        code = "eclipse.reputation_slots_fleet" if fleet else "eclipse.reputation_slots"
        raise ScoreInputError.coded(f.path("reputation"), code, tiles=len(reputation), ambassadors=ambassadors,
                                    slots=slots, most=slots + fleet, development=component_word("Diplomatic Fleet"))


def final_scores(data: Any) -> list[ScoreBreakdown]:
    """``companion score eclipse FILE``: each player's breakdown of rows 1-7 and 10-21 (:data:`FILE_ROWS`),
    in the file's order, with the species as the role and the face-up alliance as the team. With a ``setup``
    (:data:`SETUP_KEYS`) only the rows that apply are listed: a module's rows with the module, Ambassadors and the
    Traitor card with 4 players or more (:func:`score_position`); without one, every row, as before.

    Raises:
        ScoreInputError: see :func:`parse_score`.
    """
    return score_position(parse_score(data), FILE_ROWS)
