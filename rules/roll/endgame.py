"""Roll for the Galaxy final scoring: VP chips + tableau costs + cost-6 bonuses, and the tie-break.

Roll for the Galaxy, rulebook p.8 "Victory" (digest section 7): a player's score is
the VP chips, plus the printed cost of every tile in the tableau (both numbers of the
faction tile; nothing in the construction zone), plus the end-game bonus of each cost-6
development, fractions rounded up. Ties go to the most dice in the cup plus credits;
players still tied share the win.

The same :func:`score_position` serves the engine (:meth:`RollGame.scores`) and the
``companion score roll FILE`` command (:func:`final_scores` on the file's JSON).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core import ScoreBreakdown, ScoreLine
from rules.names import term
from rules.roll.data import COLOURS, Catalogue, catalogue
from rules.roll.dice import Dice
from rules.scoring import Fields, ScoreInputError, ceil_div, check_distinct_names, check_int, closest_names
from rules.text import Listing, Text, in_game, plural

__all__ = [
    "COST6_BONUSES",
    "MAX_CREDITS",
    "MAX_VP_CHIPS",
    "EndPosition",
    "final_scores",
    "good_capacity",
    "parse_score_input",
    "score_position",
    "score_positions",
]

MAX_CREDITS = 10
"""Credits run $0-$10 (Roll for the Galaxy, p.4 Phases: 'nobody can pass $10')."""

MAX_VP_CHIPS = 20 * 1 + 8 * 5 + 5 * 10
"""110 VP: every VP chip in the box (digest Components: 20 x 1, 8 x 5, 5 x 10). The pool is
12 VP per player plus 10 set aside for the final round; no player (nor the table) can hold
more than the box has."""


@dataclass(frozen=True)
class EndPosition:
    """One player's position at the end of the game, as needed for scoring.

    ``developments`` and ``worlds`` are the tableau's side names (the faction tile's and
    the home world's included); ``goods`` maps a world to the die colours on it;
    ``cup``/``citizenry``/``construction_zone`` are dice counts.
    """

    name: str
    vp_chips: int
    credits: int
    developments: tuple[str, ...]
    worlds: tuple[str, ...]
    goods: tuple[tuple[str, tuple[str, ...]], ...] = ()
    cup: Dice = field(default_factory=Dice)
    citizenry: Dice = field(default_factory=Dice)
    construction_zone: Dice = field(default_factory=Dice)
    faction: int | None = None  # the faction tile's number, if the tableau has one

    @property
    def goods_dice(self) -> Dice:
        return Dice.from_list(c for _, colours in self.goods for c in colours)

    @property
    def owned_dice(self) -> Dice:
        """Cup + Citizenry + construction zone + goods (Roll for the Galaxy, digest section 7
        'Owned dice', from BGA finalScoring(); the phase strip is empty at scoring)."""
        return self.cup + self.citizenry + self.construction_zone + self.goods_dice


def _devs(p: EndPosition, cat: Catalogue):
    return [cat.developments[n] for n in p.developments]


def _worlds(p: EndPosition, cat: Catalogue):
    return [cat.worlds[n] for n in p.worlds]


# --- Cost-6 development bonuses (Roll for the Galaxy, p.8 Victory; digest section 7 table) ---
# Each returns (VP, detail). "Rounded up" per rulebook p.11 FAQ ("treat any part as a whole").


def _free_trade_association(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    cost = sum(w.cost for w in _worlds(p, cat) if w.colour == "blue")
    return ceil_div(cost, 2), Text("{cost} cost of blue worlds / 2, rounded up", cost=cost)


def _galactic_bankers(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    n = len(p.developments)
    return n, plural("{n} development", "{n} developments", n)


def _galactic_exchange(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    # A purple die counts only as purple here (rulebook p.11 FAQ: purple matches other
    # colours only when Consuming, never in end-game powers).
    colours = p.owned_dice.colours
    owned = Listing(term("roll.colour", c) for c in colours) if colours else Text("none")
    return len(colours), plural("{n} die colour owned ({colours})", "{n} die colours owned ({colours})", len(colours),
                                colours=owned)


def _galactic_federation(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    cost = sum(d.cost for d in _devs(p, cat))
    return ceil_div(cost, 3), Text("{cost} cost of developments / 3, rounded up", cost=cost)


def _galactic_renaissance(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    n = 0
    while (n + 1) * (n + 2) // 2 <= p.vp_chips:  # 1, 3, 6, 10, 15... VP in chips
        n += 1
    return n, plural("{chips} VP in chips reaches step {n} of 1/3/6/10/15...",
                     "{chips} VP in chips reaches step {n} of 1/3/6/10/15...", p.vp_chips, chips=p.vp_chips, n=n)


def _galactic_reserves(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    n = p.goods_dice.total
    return n, plural("{n} good on worlds", "{n} goods on worlds", n)


def _mining_league(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    n = sum(1 for w in _worlds(p, cat) if w.colour == "brown")
    return 2 * n, plural("2 x {n} brown world", "2 x {n} brown worlds", n)


def _new_economy(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    n = sum(1 for d in _devs(p, cat) if not d.is_reassign)
    return n, plural("{n} development without a Reassign power", "{n} developments without a Reassign power", n)


def _new_galactic_order(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    # A purple die is not a red die here either (rulebook p.11 FAQ).
    red = p.owned_dice["red"]
    return 2 * ceil_div(red, 3), plural("2 x ({n} red die owned / 3, rounded up)",
                                        "2 x ({n} red dice owned / 3, rounded up)", red)


def _system_diversification(p: EndPosition, cat: Catalogue) -> tuple[int, str]:
    cost = sum(d.cost for d in _devs(p, cat) if d.is_reassign)
    return ceil_div(cost, 2), Text("{cost} cost of Reassign developments / 2, rounded up", cost=cost)


COST6_BONUSES: Mapping[str, Callable[[EndPosition, Catalogue], tuple[int, Any]]] = {
    "Free Trade Association": _free_trade_association,
    "Galactic Bankers": _galactic_bankers,
    "Galactic Exchange": _galactic_exchange,
    "Galactic Federation": _galactic_federation,
    "Galactic Renaissance": _galactic_renaissance,
    "Galactic Reserves": _galactic_reserves,
    "Mining League": _mining_league,
    "New Economy": _new_economy,
    "New Galactic Order": _new_galactic_order,
    "System Diversification": _system_diversification,
}
"""End-game bonus of every cost-6 development, by name."""


def score_position(p: EndPosition, cat: Catalogue | None = None) -> ScoreBreakdown:
    """One player's final score (Roll for the Galaxy, p.8 Victory).

    Lines: ``VP chips``, ``developments`` (printed costs), ``worlds`` (printed costs), then
    ``<development> bonus`` for each cost-6 development in the tableau. The tie-break is
    dice in the cup + credits (goods and construction-zone dice are not in the cup).
    """
    cat = cat or catalogue()
    devs, worlds = _devs(p, cat), _worlds(p, cat)
    lines = [
        ScoreLine(Text("VP chips"), p.vp_chips, plural("{n} VP in chips", "{n} VP in chips", p.vp_chips)),
        ScoreLine(in_game("Roll for the Galaxy", "developments"), sum(d.cost for d in devs),
                  " + ".join(f"{d.name} {d.cost}" for d in devs)),
        ScoreLine(Text("worlds"), sum(w.cost for w in worlds), " + ".join(f"{w.name} {w.cost}" for w in worlds)),
    ]
    for d in devs:
        if d.name in COST6_BONUSES:
            vp, detail = COST6_BONUSES[d.name](p, cat)
            lines.append(ScoreLine(Text("{development} bonus", development=d.name), vp, detail))
    return ScoreBreakdown(player=p.name, lines=tuple(lines), tiebreak=(p.cup.total + p.credits,))


def score_positions(positions: Sequence[EndPosition], cat: Catalogue | None = None) -> list[ScoreBreakdown]:
    """:func:`score_position` for each player, in order."""
    return [score_position(p, cat) for p in positions]


def good_capacity(developments: Sequence[str]) -> int:
    """Goods a non-gray world holds: 1, or 2 with Galactic Reserves (Roll for the Galaxy, p.7 Produce)."""
    return 2 if "Galactic Reserves" in developments else 1


# --- The score command's input ---------------------------------------------------------

DICE_PLACES = ("cup", "citizenry", "construction_zone")


def parse_score_input(data: Any, cat: Catalogue | None = None) -> list[EndPosition]:
    """Check a score input (see ``schemas/roll-score-input.schema.json``) and read its players.

    Accepts ``{"players": [...]}`` (or the bare list of players).

    Raises:
        ScoreInputError: naming the field and the problem (closest names for an unknown tile).
    """
    cat = cat or catalogue()
    if isinstance(data, list):
        players, where = data, "players"
    else:
        players = Fields(data, "").only("game", "players").list("players")
        where = "players"
    if not 1 <= len(players) <= 5:
        raise ScoreInputError.coded(where, "roll.player_count", count=len(players))
    positions = [_parse_player(obj, f"{where}[{i}]", cat) for i, obj in enumerate(players)]
    check_distinct_names([p.name for p in positions], where)
    held = sum(p.vp_chips for p in positions)
    if held > MAX_VP_CHIPS:
        raise ScoreInputError.coded(where, "vp_chips_in_box", held=held, most=MAX_VP_CHIPS,
                                    chips=Text("20 x 1, 8 x 5 and 5 x 10 VP chips"))
    _check_shared_components(positions, where, cat)
    return positions


def _parse_player(obj: Any, where: str, cat: Catalogue) -> EndPosition:
    f = Fields(obj, where).only("name", "vp_chips", "credits", "tableau", "goods", "dice")
    name = f.str("name")
    vp_chips = f.int("vp_chips", low=0, high=MAX_VP_CHIPS)
    credits = f.int("credits", low=0, high=MAX_CREDITS)
    names = f.list("tableau")
    developments: list[str] = []
    worlds: list[str] = []
    faction: int | None = None
    home: str | None = None
    tiles_seen: dict[int, str] = {}
    listed: dict[str, int] = {}
    for i, raw in enumerate(names):
        path = f"{f.path('tableau')}[{i}]"
        if not isinstance(raw, str):
            raise ScoreInputError.coded(path, "roll.tile_name")
        tile = cat.lookup(raw)
        if tile is None:
            raise ScoreInputError.coded(path, "roll.unknown_tile", closest_names(raw, cat.names), tile=repr(raw))
        if tile in listed:
            raise ScoreInputError.coded(path, "roll.tile_twice", tile=repr(tile), index=listed[tile])
        listed[tile] = i
        if tile in cat.faction_of:
            number = cat.faction_of[tile]
            if faction is not None and faction != number:
                other = cat.faction(faction).names
                raise ScoreInputError.coded(path, "roll.two_factions", tile=repr(tile), other=repr(other[0]))
            faction = number
            continue  # the whole faction tile is added below, both numbers (Roll for the Galaxy, p.8 Victory)
        if tile in cat.tile_of:
            tid = cat.tile_of[tile]
            if tid in tiles_seen:
                raise ScoreInputError.coded(path, "roll.two_sides", tile=repr(tile), other=repr(tiles_seen[tid]))
            tiles_seen[tid] = tile
        elif cat.worlds[tile].home:
            if home is not None:
                raise ScoreInputError.coded(path, "roll.second_home", tile=repr(tile), home=repr(home))
            home = tile
        (developments if tile in cat.developments else worlds).append(tile)
    if faction is not None:
        ft = cat.faction(faction)
        developments[:0] = [ft.development.name] if ft.development else []
        worlds[:0] = [w.name for w in ft.worlds]
    goods = _parse_goods(f, worlds, developments, cat)
    dice = f.object("dice").only(*DICE_PLACES)
    places = {}
    for place in DICE_PLACES:
        places[place] = _parse_dice(dice.object(place, default={}))
    return EndPosition(
        name=name,
        vp_chips=vp_chips,
        credits=credits,
        developments=tuple(developments),
        worlds=tuple(worlds),
        goods=goods,
        cup=places["cup"],
        citizenry=places["citizenry"],
        construction_zone=places["construction_zone"],
        faction=faction,
    )


def _colour(raw: Any, path: str) -> str:
    """A die colour as a file types it, in any case and with spaces around (``"WHITE"``, ``" Red"``) -> the colour as
    the game names it (``"white"``; Roll for the Galaxy, p.1 Components), as tile names ignore case.

    Raises:
        ScoreInputError: not a colour of the game, with the closest colours.
    """
    colour = raw.strip().casefold() if isinstance(raw, str) else None
    if colour not in COLOURS:
        raise ScoreInputError.coded(path, "unknown_die_colour", closest_names(str(raw).strip(), COLOURS),
                                    colour=repr(raw), colours=", ".join(COLOURS))
    return colour


def _parse_dice(f: Fields) -> Dice:
    """``{colour: count >= 0}`` of one place (the cup, the citizenry, the construction zone); a colour in any case.

    Raises:
        ScoreInputError: an unknown colour, a count that is not a whole number >= 0, one colour given twice in two
            spellings (``"white"`` and ``"WHITE"``).
    """
    counts: dict[str, int] = {}
    for raw, n in f.obj.items():
        colour = _colour(raw, f.path(raw))
        if colour in counts:
            raise ScoreInputError.coded(f.path(raw), "listed_twice", name=repr(colour))
        counts[colour] = check_int(n, f.path(raw), low=0)
    return Dice.of(counts)


def _parse_goods(f: Fields, worlds: list[str], developments: list[str], cat: Catalogue) -> tuple:
    goods = f.object("goods", default={})
    capacity = good_capacity(developments)
    out = []
    for raw_world, colours in goods.obj.items():
        path = goods.path(raw_world)
        world = cat.lookup(raw_world)
        if world is None:
            raise ScoreInputError.coded(path, "roll.unknown_world", closest_names(raw_world, cat.worlds),
                                        world=repr(raw_world))
        if world not in cat.worlds:
            raise ScoreInputError.coded(path, "roll.goods_on_development", world=repr(world))
        if world not in worlds:
            raise ScoreInputError.coded(path, "roll.world_not_in_tableau", world=repr(world))
        if not isinstance(colours, list):
            raise ScoreInputError.coded(path, "roll.goods_list")
        colours = [_colour(c, f"{path}[{i}]") for i, c in enumerate(colours)]
        if colours and not cat.worlds[world].holds_goods:
            # Roll for the Galaxy, p.7 Produce: goods go on non-gray worlds only.
            raise ScoreInputError.coded(path, "roll.gray_world", world=repr(world))
        if len(colours) > capacity:
            # Roll for the Galaxy, p.7 Produce: 1 good per world, 2 with Galactic Reserves.
            code = "roll.goods_with_reserves" if capacity == 2 else "roll.goods_without_reserves"
            raise ScoreInputError.coded(path, code, count=len(colours), world=repr(world), most=capacity)
        if colours:
            out.append((world, tuple(colours)))
    return tuple(out)


def _check_shared_components(positions: Sequence[EndPosition], where: str, cat: Catalogue) -> None:
    """Each tile exists once and each colour has a fixed number of dice (Roll for the Galaxy, p.1 Components)."""
    owner: dict[str, int] = {}
    for i, p in enumerate(positions):
        for name in (*p.developments, *p.worlds):
            key = f"tile {cat.tile_of[name]}" if name in cat.tile_of else name
            if key in owner and owner[key] != i:
                raise ScoreInputError.coded(f"{where}[{i}].tableau", "roll.tile_owned_twice", tile=repr(name),
                                            player=repr(positions[owner[key]].name))
            owner[key] = i
    total = Dice()
    for p in positions:
        total = total + p.owned_dice
    for colour in COLOURS:
        if total[colour] > cat.dice[colour].count:
            raise ScoreInputError.coded(where, "roll.dice_count", count=total[colour], colour=colour,
                                        most=cat.dice[colour].count)


def final_scores(data: Any, cat: Catalogue | None = None) -> list[ScoreBreakdown]:
    """Score an end-of-game input (the ``companion score roll`` file's JSON).

    Raises:
        ScoreInputError: the input is invalid (field path and problem in the message).
    """
    cat = cat or catalogue()
    return score_positions(parse_score_input(data, cat), cat)
