"""Among the Stars end-of-game scoring and whole-station checks from one JSON document.

Rulebook 6 'Game end' (digest §7), in this order, added to the VP already on the track:

1. objectives: each goes only to the single best player; a tie for best gives it to nobody;
2. the yellow-box (end-game) abilities of every location;
3. +1 VP per reactor (the Main Reactor included) with no cubes left;
4. +1 VP per 3 credits left (rounded down).

Worked example (rulebook 6): 63 on the track + 7 (yellow cards 4 + 1 + 2) + 3 (three built
reactors and the Main Reactor, one still holding cubes) + 1 (5 credits) + 5 (most red
locations, 6 against 5, 4 and fewer) + 0 (most credits tied at 5) = 79.

Tie-break (rulebook 6): more locations not counting reactors, then more credits; still
tied, a shared win.

Input (``schemas/among-score-input.schema.json``)::

    {"objectives": ["First Line of Defense", ...], "aggressive": false,
     "players": [{"name": "György", "race": "Humareen", "credits": 5, "vp": 63,
                  "station": [{"card": "Main Reactor", "cell": [0, 0], "cubes": 0},
                              {"card": "Turret", "cell": [1, 0], "year": 1}, ...]}]}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rules.among_the_stars.abilities import end_game_vp
from rules.among_the_stars.data import (
    COLOURS,
    Catalogue,
    Objective,
    UnknownCard,
    catalogue,
    shared_race,
)
from rules.among_the_stars.legality import Issue, check_station, issue_finding
from rules.among_the_stars.station import ORIGIN, Placed, Station
from rules.core import Finding, ScoreBreakdown, ScoreLine, Severity
from rules.names import term
from rules.scoring import Fields, ScoreInputError, check_distinct_names, field_path
from rules.text import N_, Listing, Text, plural

__all__ = [
    "ABILITIES",
    "CREDITS",
    "MAX_CREDITS",
    "MAX_VP",
    "OBJECTIVES",
    "RACE",
    "REACTORS",
    "TRACK",
    "PlayerPosition",
    "Position",
    "check_position",
    "SECRET_KEPT",
    "SECRET_ROUND",
    "check_secret_objective",
    "final_scores",
    "objective_awards",
    "parse_position",
    "parse_station",
    "score_position",
]

MAX_CREDITS = 500
"""A generous bound on a player's credits, as :data:`MAX_VP`: anything above is a typing slip. The credit
tokens in the box (digest §1: 32 x 1 and 16 x 5, 112 credits) are no limit: the rulebook (3 Setup) puts the
credits in the Supply and never says the Supply runs out, and a player alone passes 112 in a game played by the
rules (a Sheptas discarding every round of the aggressive mode: 4 x 10 + 27 x 4 = 148 credits). The box keeps no
other bound during play, and warns above this one (:meth:`rules.among_the_stars.game.AmongTheStarsGame`'s credits
correction)."""

MAX_VP = 500
"""A generous bound on VP before end-game scoring: at most 27 locations are built in a game
(4 years of 6 rounds, 7 in years 2-4 of Aggressive mode, digest §3), and no location scores
more than 7 printed + 8 ability VP at once (digest §13), about 400 VP; anything above 500 is
a typing slip, not a score."""

TRACK, OBJECTIVES, ABILITIES, RACE, REACTORS, CREDITS = (
    Text("VP track"), Text("objectives"), Text("end-game abilities"), Text("race"), Text("empty reactors"),
    Text("credits"),
)
"""Score categories, in the rulebook's order (6 'Game end')."""


class PlayerPosition:
    """One player at the end of the game: name, race id (or None), credits, VP on the track, station."""

    def __init__(self, name: str, race: str | None, credits: int, vp: int, station: Station,
                 secret_objective: Objective | None = None, secret_revealed: bool = False) -> None:
        self.name, self.race, self.credits, self.vp, self.station = name, race, credits, vp, station
        self.secret_objective = secret_objective
        self.secret_revealed = secret_revealed  # a secret Accelerated Construction revealed when met: VP on the track


class Position:
    """The whole table: players, objectives in play, aggressive mode."""

    def __init__(self, players: Sequence[PlayerPosition], objectives: Sequence[Objective],
                 aggressive: bool = False) -> None:
        self.players, self.objectives, self.aggressive = tuple(players), tuple(objectives), aggressive


# -- input ---------------------------------------------------------------------------------


def _lookup(fn, name: str, where: str, what: str):
    try:
        return fn(name)
    except UnknownCard as exc:
        raise ScoreInputError.coded(where, f"among.unknown_{what}", exc.suggestions, name=repr(name)) from None


def parse_station(items: Any, where: str, cat: Catalogue | None = None) -> Station:
    """A station from its JSON list, or :class:`ScoreInputError` naming the field and the problem.

    Checked here: each card known (close matches suggested), ``cell`` two whole numbers,
    one card per cell, exactly one Main Reactor and it at [0, 0], ``cubes`` on reactors
    only (required on them), ``year`` 1-4 on every other card.
    """
    cat = cat or catalogue()
    if not isinstance(items, list):
        raise ScoreInputError.coded(where, "among.station_list")
    cards: list[Placed] = []
    taken: dict[tuple[int, int], int] = {}
    years = cat.rules["years"]
    for k, raw in enumerate(items):
        here = field_path(where, k)
        f = Fields(raw, here).only("card", "cell", "cubes", "year", "face_down")
        card = _lookup(cat.card, f.str("card"), f.path("card"), "card")
        cell_raw = f.get("cell")
        if (not isinstance(cell_raw, list) or len(cell_raw) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell_raw)):
            raise ScoreInputError.coded(f.path("cell"), "among.cell", got=repr(cell_raw))
        cell = (cell_raw[0], cell_raw[1])
        if cell in taken:
            other = items[taken[cell]].get("card")
            raise ScoreInputError.coded(f.path("cell"), "among.cell_taken", cell=str(list(cell)), card=repr(other),
                                        other=field_path(where, taken[cell]))
        taken[cell] = k
        face_down = f.obj.get("face_down", False)
        if not isinstance(face_down, bool):
            raise ScoreInputError.coded(f.path("face_down"), "true_or_false")
        if face_down and not card.is_reactor:
            raise ScoreInputError.coded(f.path("face_down"), "among.face_down", card=repr(card.name))
        if card.is_reactor and not face_down:
            cubes = f.int("cubes", low=0, high=20)
        else:
            cubes = f.int("cubes", low=0, high=0, default=0) if f.has("cubes") else 0
        if card.is_main_reactor:
            year = f.int("year", low=0, high=0) if f.has("year") else 0
            if cell != ORIGIN:
                raise ScoreInputError.coded(f.path("cell"), "among.main_reactor_cell", card=card.name,
                                            cell=str(list(cell)))
        else:
            year = f.int("year", low=1, high=years)
        cards.append(Placed(card, cell, cubes=cubes, year=year, order=k, face_down=face_down))
    mains = [p for p in cards if p.card.is_main_reactor]
    if not mains:
        raise ScoreInputError.coded(where, "among.no_main_reactor")
    if len(mains) > 1:
        raise ScoreInputError.coded(where, "among.main_reactors", count=len(mains))
    return Station(tuple(cards))


SECRET_ROUND = (1, 1)
"""``(year, round)`` in which a Qualeen's secret objective is entered and may be changed: the setup's (rulebook
'Races', Qualeen race tile: "At setup draw 2 extra objectives, keep 1 secretly"). Once it is over the objective kept
is kept for good: a change would be a new pick made knowing who leads what."""

SECRET_KEPT = N_("a Qualeen keeps one secret objective from the setup (race tile: draw 2 extra objectives, keep 1 "
                 "secretly); after year 1, round 1 it is not changed")
"""Why a Qualeen's secret objective in force is not changed after :data:`SECRET_ROUND` (the engine's refusal and the
phone's withdraw button say it)."""


def check_secret_objective(objective: Objective, face_up: Collection[str], where: str) -> None:
    """Refuse ``objective`` as a Qualeen's secret objective when it is one of the objectives face up on the table
    (rulebook 'Races', Qualeen: at setup draw 2 extra objectives and keep 1 secretly). The one check of a secret
    objective entered on a Qualeen's phone (:meth:`rules.among_the_stars.game.AmongTheStarsGame`) and in a score
    file (:func:`parse_position`).

    Args:
        objective: the secret objective.
        face_up: the ids of the objectives face up on the table.
        where: the field that names the secret objective (``players[0].secret_objective``), for the error.

    Raises:
        ScoreInputError: code ``among.secret_face_up``, naming the objective as the players' edition prints it.
    """
    if objective.id in face_up:
        raise ScoreInputError.coded(where, "among.secret_face_up", objective=_objective_term(objective))


def parse_position(data: Any, cat: Catalogue | None = None) -> Position:
    """The table from the score/check input (see the module docstring), or :class:`ScoreInputError`."""
    cat = cat or catalogue()
    top = Fields(data, "").only("game", "objectives", "aggressive", "players")
    if top.has("game") and top.obj["game"] != "among":
        raise ScoreInputError.coded("game", "among.other_game", game=repr(top.obj["game"]))
    aggressive = top.obj.get("aggressive", False)
    if not isinstance(aggressive, bool):
        raise ScoreInputError.coded("aggressive", "true_or_false")
    objectives: list[Objective] = []
    raw_obj = top.obj.get("objectives", [])
    if not isinstance(raw_obj, list):
        raise ScoreInputError.coded("objectives", "among.objectives_list")
    for k, name in enumerate(raw_obj):
        where = field_path("objectives", k)
        if not isinstance(name, str):
            raise ScoreInputError.coded(where, "among.objective_name")
        obj = _lookup(cat.objective, name, where, "objective")
        if obj in objectives:
            raise ScoreInputError.coded(where, "among.objective_twice", objective=repr(obj.name))
        objectives.append(obj)
    players_raw = top.list("players")
    if not 1 <= len(players_raw) <= 4:
        raise ScoreInputError.coded("players", "among.player_count", count=len(players_raw))
    players: list[PlayerPosition] = []
    for k, raw in enumerate(players_raw):
        f = Fields(raw, field_path("players", k)).only("name", "race", "secret_objective", "secret_revealed", "credits",
                                                       "vp", "station")
        name = f.str("name")
        check_distinct_names([p.name for p in players] + [name])
        race = None
        if f.obj.get("race") is not None:
            race = _lookup(cat.race, f.str("race"), f.path("race"), "race")
            if shared_race([p.race for p in players] + [race]) is not None:
                raise ScoreInputError.coded(f.path("race"), "among.race_taken", race=cat.races[race]["name"])
        secret = None
        if f.obj.get("secret_objective") is not None:
            if race != "qualeen":
                raise ScoreInputError.coded(f.path("secret_objective"), "among.secret_objective")
            secret = _lookup(cat.objective, f.str("secret_objective"), f.path("secret_objective"), "objective")
            check_secret_objective(secret, [o.id for o in objectives], f.path("secret_objective"))
        vp = f.int("vp", low=0, high=MAX_VP)
        players.append(PlayerPosition(
            name=name, race=race, credits=f.int("credits", low=0, high=MAX_CREDITS), vp=vp,
            station=parse_station(f.get("station"), f.path("station"), cat), secret_objective=secret,
            secret_revealed=_secret_revealed(f, secret, vp, cat),
        ))
    return Position(players, objectives, aggressive)


def _secret_revealed(f: Fields, secret: Objective | None, vp: int, cat: Catalogue) -> bool:
    """A score file's ``secret_revealed``: whether a Qualeen's secret Accelerated Construction was revealed when met,
    its VP moved onto the track then (Hungarian FAQ, Qualeen: "this one objective is revealed when it is met - no need
    to wait for the end of the game"). Required when the track shows it met (``vp`` at its threshold or more): the
    file alone cannot tell whether its VP are on the track already. Below the threshold it may be left out (false).

    Raises:
        ScoreInputError: not true or false; given for another secret objective, or without one
            (``among.secret_revealed_other``); missing where the track shows it met (``among.secret_revealed_unsaid``).
    """
    where = f.path("secret_revealed")
    given = f.obj.get("secret_revealed")
    if given is not None and not isinstance(given, bool):
        raise ScoreInputError.coded(where, "true_or_false")
    accelerated = secret is not None and secret.kind == "accelerated"
    if given is not None and not accelerated:
        raise ScoreInputError.coded(where, "among.secret_revealed_other")
    threshold = cat.rules["accelerated_construction_threshold"]
    if given is None and accelerated and vp >= threshold:
        raise ScoreInputError.coded(where, "among.secret_revealed_unsaid", objective=_objective_term(secret),
                                    threshold=threshold, vp=vp, award=secret.vp)
    return bool(given)


# -- scoring --------------------------------------------------------------------------------


def _objective_value(obj: Objective, p: PlayerPosition) -> int:
    if obj.kind == "colour_majority":
        return p.station.count_colour(obj.colour or "")
    if obj.kind == "marvels":
        return p.station.non_reactor_locations()
    if obj.kind == "on_budget":
        return p.credits
    return 0


def objective_awards(obj: Objective, players: Sequence[PlayerPosition], *,
                     secret_holder: str | None = None) -> dict[str, int]:
    """VP each player gets from one objective: only a single best player scores (rulebook 6).

    Marvels in Space gives 2 per location of lead over the next best. Accelerated
    Construction is scored during play (already on the track): 0 here. ``secret_holder``
    (a Qualeen's secret objective) scores it even when tied for best.
    """
    awards = {p.name: 0 for p in players}
    if obj.kind == "accelerated" or not players:
        return awards
    values = {p.name: _objective_value(obj, p) for p in players}
    best = max(values.values())
    leaders = [n for n, v in values.items() if v == best]
    rest = sorted((v for n, v in values.items() if n not in leaders), reverse=True)
    second = rest[0] if rest else 0
    vp = obj.vp * (best - second) if obj.kind == "marvels" else obj.vp
    if secret_holder is not None:
        if secret_holder in leaders:
            if obj.kind == "marvels":  # tied for best: the lead is over the best other player
                others = [v for n, v in values.items() if n != secret_holder]
                vp = obj.vp * max(0, best - max(others, default=0))
            awards[secret_holder] = vp
        return awards
    if len(leaders) == 1:
        awards[leaders[0]] = vp
    return awards


def score_position(position: Position, cat: Catalogue | None = None) -> list[ScoreBreakdown]:
    """Every player's final score, category by category, with the tie-break (locations, credits)."""
    cat = cat or catalogue()
    players = position.players
    objective_vp = {p.name: 0 for p in players}
    details: dict[str, list[Text]] = {p.name: [] for p in players}
    for obj in position.objectives:
        for name, vp in objective_awards(obj, players).items():
            objective_vp[name] += vp
            if vp:
                details[name].append(Text("{card} +{vp}", card=_objective_term(obj), vp=vp))
    for p in players:
        if p.secret_objective is not None:
            vp, said = _secret_award(p, players, cat)
            objective_vp[p.name] += vp
            if said is not None:
                details[p.name].append(said)
    out = []
    for p in players:
        others = [q.station for q in players if q is not p]
        abilities = [(q, end_game_vp(p.station, q, others)) for q in p.station]
        ability_vp = sum(v for _, v in abilities)
        empty = sum(1 for r in p.station.reactors() if r.cubes == 0)
        credit_vp, credit_detail = _credit_vp(p, cat)
        race_vp, race_detail = _race_vp(p, cat)
        lines = (
            ScoreLine(TRACK, p.vp, Text("VP on the score board before end-game scoring")),
            ScoreLine(OBJECTIVES, objective_vp[p.name], Listing(details[p.name])),
            ScoreLine(ABILITIES, ability_vp,
                      Listing(Text("{card} +{vp}", card=q.card.word, vp=v) for q, v in abilities if v)),
            ScoreLine(RACE, race_vp, race_detail),
            ScoreLine(REACTORS, empty * cat.rules["empty_reactor_vp"],
                      plural("{n} reactor with no cubes", "{n} reactors with no cubes", empty)),
            ScoreLine(CREDITS, credit_vp, credit_detail),
        )
        out.append(ScoreBreakdown(p.name, lines, tiebreak=(p.station.non_reactor_locations(), p.credits)))
    return out


def _secret_award(p: PlayerPosition, players: Sequence[PlayerPosition], cat: Catalogue) -> tuple[int, Text | None]:
    """A Qualeen's secret objective at the end (rulebook 'Races', Qualeen: scored even when tied) and what its line
    says. A secret Accelerated Construction is revealed as soon as it is met (Hungarian FAQ) and scored then, as the
    face-up one is (digest §12: first to 50 VP): revealed, its VP are on the track already (0 now, said so); met
    (the track at its threshold) but not revealed, it is scored now; not met, 0. The box (its state's
    ``secret_revealed``) and a score file (``secret_revealed``) both come here."""
    obj = p.secret_objective
    assert obj is not None
    if obj.kind == "accelerated":
        if p.secret_revealed:
            return 0, Text("{objective} (secret): revealed when met, its {vp} VP on the VP track",
                           objective=_objective_term(obj), vp=obj.vp)
        vp = obj.vp if p.vp >= cat.rules["accelerated_construction_threshold"] else 0
    else:
        vp = objective_awards(obj, players, secret_holder=p.name)[p.name]
    return vp, Text("{objective} (secret) +{vp}", objective=_objective_term(obj), vp=vp) if vp else None


def _objective_term(obj: Objective) -> str:
    """An objective's name as the players' edition prints it (English where it gives none)."""
    return term("among_the_stars.objective", obj.id)


def _credit_vp(p: PlayerPosition, cat: Catalogue) -> tuple[int, Text]:
    """The credits' end-game VP and how they were counted: 1 VP per 3 credits left, rounded down (rulebook 6 Game
    End); the Sheptas 1 per 2 "instead of 3", the bonus "to a maximum of +5" (the Hungarian race text's fragments,
    ``race_params``): at most 5 VP more than the usual rate gives, never fewer (100 credits: 33 usual, 50 at 1 per
    2, so 38)."""
    usual = cat.rules["credits_per_vp"]
    per_vp = cat.race_param(p.race, "credits_per_vp", usual)
    credit_vp = p.credits // per_vp
    cap = cat.race_param(p.race, "credits_bonus_cap", None)
    if cap is None:
        return credit_vp, plural("{n} credit, 1 VP per {per}", "{n} credits, 1 VP per {per}", p.credits, per=per_vp)
    return min(credit_vp, p.credits // usual + cap), plural(
        "{n} credit, 1 VP per {per} (at most {cap} more than 1 per {usual})",
        "{n} credits, 1 VP per {per} (at most {cap} more than 1 per {usual})", p.credits, per=per_vp, cap=cap,
        usual=usual)


def _race_vp(p: PlayerPosition, cat: Catalogue) -> tuple[int, str]:
    """The race ability's end-game VP and how it was counted (rulebook 'Races'; Hungarian FAQ, Humareen: the
    least-built type among the types built at least once)."""
    if p.race == "humareen":
        race = term("among_the_stars.race", "humareen")
        counts = [p.station.count_colour(c) for c in COLOURS]
        built = [n for n in counts if n > 0]
        if not built:
            return 0, Text("{race}: no location of any type built", race=race)
        bonus = cat.race_param("humareen", "bonus", 1)
        cap = cat.race_param("humareen", "cap", 5)
        return min(cap, min(built) + bonus), plural("{race}: the least-built location type has {n} location",
                                                    "{race}: the least-built location type has {n} locations",
                                                    min(built), race=race)
    return 0, ""


def final_scores(data: Any) -> list[ScoreBreakdown]:
    """``companion score among FILE``: each player's breakdown (input errors raise :class:`ScoreInputError`)."""
    return score_position(parse_position(data))


def check_position(data: Any) -> list[Finding]:
    """``companion check among FILE``: every station's misplays, as findings.

    ERROR findings are the rules surely broken (none when every station is legal); WARNING ones
    what may be wrong: order inside a year the camera cannot know, cube counts that look misread.
    Each names ``player``, ``card``, ``cell`` and ``rule_kind`` (a rule id from
    :data:`rules.among_the_stars.legality.RULES`); ``rule`` is its rulebook citation.

    Raises:
        ScoreInputError: naming the field and the problem.
    """
    cat = catalogue()
    position = parse_position(data, cat)
    findings: list[Finding] = []
    for p in position.players:
        issues = check_station(p.station, race=p.race, credits=p.credits, aggressive=position.aggressive,
                               others=max(1, len(position.players) - 1), cat=cat)
        mr = p.station.main_reactor
        if mr is not None and (p.race == "vak") != mr.card.all_types:
            issues.insert(0, Issue("race", mr.name, ORIGIN,
                Text("the Vak Main Reactor belongs to a Vak player, and a Vak player uses it"),
                                   Severity.WARNING))
        findings.extend(issue_finding(i, p.name) for i in issues)
    errors = [f for f in findings if f.severity is Severity.ERROR]
    return errors + [f for f in findings if f.severity is not Severity.ERROR]
