"""Placement legality: one placement as it happens, a whole station at once, and the
end-of-year correction.

Every problem is an :class:`Issue` naming the card, the cell and the rule (``rule`` is an
id from :data:`RULES`; :func:`rule_citation` gives the rulebook section). Severity
ERROR means the rule is surely broken; WARNING means it may be (a camera read does not
know the build order inside one year, so a check that depends on it is a warning).

Whole-station checks work from what a camera sees plus each card's build year: the
station at the end of year *y* is exactly the cards with ``year <= y``; cards built in
an earlier year were surely there before a card of year *y*; cards of the same year may
or may not have been. With ``exact_order`` (the engine, which knows the build order) the
``order`` field decides instead.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.among_the_stars.data import POWER_REACTOR, TITLE, CardDef, Catalogue, catalogue
from rules.among_the_stars.station import Cell, Placed, Station, neighbour_cells, reactor_named, station_place
from rules.core import Finding, Severity, citation
from rules.text import N_, Listing, Text, plural

__all__ = [
    "RULES",
    "Correction",
    "cell_text",
    "Issue",
    "auto_payment",
    "check_placement",
    "check_station",
    "correct_station",
    "energy_reach",
    "energy_sources",
    "fix_for",
    "issue_finding",
    "legal_cells",
    "rule_citation",
]

RULES: dict[str, str] = {
    "main_reactor": N_("rulebook 3 'Setup': every station starts from its Main Reactor"),
    "cell_taken": N_("rulebook 4 'Build a location': a card goes on an empty place next to the station"),
    "adjacency": N_("rulebook 4 'Build a location': built only edge-adjacent to a built location "
                    "(diagonal is not adjacent)"),
    "energy_range": N_("rulebook 4 'Build a location': energy paid from a reactor within distance 2 "
                       "of the new location"),
    "energy_cubes": N_("rulebook 4 'Build a location': the energy cost is paid with cubes from reactors in range"),
    "energy_source": N_("rulebook 4 'Build a location': energy comes from the Main Reactor or a Power Reactor"),
    "reactor_cubes": N_("rulebook 4 'Build a Power Reactor': a reactor starts with 2 cubes; "
                        "only Backup Reactor and Solar Panels add more"),
    "max_per_station": N_("rulebook 10 'Location cards': the MAX box limits copies in one station"),
    "fighter_launch_bay": N_("card text (Fighter Launch Bay): may not be built within distance 3 of the Main Reactor"),
    "solar_panels": N_("card text (Solar Panels): must be built adjacent to a Power Reactor (the Main Reactor counts)"),
    "observation_dome": N_("card text (Observation Dome): no card may be built adjacent to it"),
    "credits": N_("rulebook 4 'Build a location': a card whose cost cannot be paid may not be built"),
    "rounds": N_("rulebook 4 'Round overview': one card per round, 6 rounds a year (7 in aggressive years 2-4)"),
    "box_copies": N_("rulebook 2 'Components': no more copies than the box holds"),
    "reactor_deck": N_("rulebook 4 'Build a Power Reactor': not available when the Power Reactor deck is empty"),
    "race": N_("race tile (Vak): the Vak player uses the Vak Main Reactor"),
    "round_end": N_("rulebook 5 'Round end': at the end of each year the stations are checked and corrected"),
}
"""Rule id -> the rulebook section behind it (cited as ``"Among the Stars, <section>"``)."""


def rule_citation(rule: str) -> str:
    """The rule citation of a rule id: ``"Among the Stars, <rulebook section>"``."""
    return citation(TITLE, RULES.get(rule, rule))


@dataclass(frozen=True)
class Issue:
    """One problem with one card: ``rule`` id, the card's name and cell, a message, a severity."""

    rule: str
    card: str
    cell: Cell
    message: str
    severity: Severity = Severity.ERROR

    def to_json(self, player: str | None = None) -> dict:
        """``{"player", "card", "cell": [i, j], "rule", "message"}`` (the check command's row)."""
        return {"player": player, "card": self.card, "cell": list(self.cell), "rule": self.rule,
                "message": self.message}


def issue_finding(issue: Issue, player: str, seq: int | None = None, fix: str = "") -> Finding:
    """``issue`` in ``player``'s station as a :class:`rules.core.Finding` (``rule_kind`` the rule id,
    ``rule`` its citation, ``where`` "player: card at [i, j]"); ``fix`` (:func:`fix_for`) goes on an ERROR."""
    return Finding(issue.message, Text("{player}: {card} ({cell})",
                                       player=player, card=issue.card, cell=cell_text(issue.cell)), issue.severity,
                   rule_citation(issue.rule), seq, player=player, card=issue.card, cell=tuple(issue.cell),
                   fix=fix if fix and issue.severity is Severity.ERROR else None, rule_kind=issue.rule)


def cell_text(cell: Cell) -> Text:
    """A station's place as the table reads it in findings and refusals, from the player's Main Reactor:
    ``(1, 0)`` -> ``"1 below the Main Reactor"`` (:func:`rules.among_the_stars.station.station_place`)."""
    return station_place(cell)


# -- one placement ----------------------------------------------------------------------


def check_placement(
    station: Station,
    card: CardDef,
    cell: Cell,
    *,
    credits: int | None = None,
    payment: Mapping[Cell, int] | None = None,
    cat: Catalogue | None = None,
) -> list[Issue]:
    """Problems with building ``card`` at ``cell`` in ``station`` now.

    Args:
        credits: the player's credits before paying (None: not checked).
        payment: cubes taken from each reactor cell for the energy cost; None checks only
            that reactors in range hold enough cubes.
    """
    cat = cat or catalogue()
    rng = cat.rules["energy_range"]
    name, issues = card.name, []

    def add(rule: str, message: str, severity: Severity = Severity.ERROR) -> None:
        issues.append(Issue(rule, name, cell, message, severity))

    if station.at(cell) is not None:
        add("cell_taken", Text("{card}: the place {cell} already holds {other}",
                               card=card.word, cell=cell_text(cell), other=station.at(cell).word))
        return issues
    neighbours = station.neighbours(cell)
    if not neighbours:
        add("adjacency", Text("{card} ({cell}) shares no edge with the station (diagonal does not count)",
                              card=card.word, cell=cell_text(cell)))
    for n in neighbours:
        if n.card.placement_rule and n.card.placement_rule.get("kind") == "blocks_adjacent_builds" and not n.face_down:
            add("observation_dome", Text("{card} ({cell}) is next to the {dome} ({other_cell}), which allows no "
                                         "card beside it",
                                         card=card.word, cell=cell_text(cell), dome=n.word,
                                         other_cell=cell_text(n.cell)))
    after = station.with_card(Placed(card, cell, year=0, order=station.next_order))
    issues.extend(_own_placement_rule(after, after.at(cell), after.cells))
    if card.max_per_station is not None and station.count_kind(card.kind) + 1 > card.max_per_station:
        add("max_per_station", Text("{card}: a station may hold at most {most}, this would be number {count}",
                                    card=card.word, most=card.max_per_station, count=station.count_kind(card.kind) + 1))
    cost = card.cost_credits
    if credits is not None and cost > credits:
        add("credits", Text("{card} costs {cost} credits; the player has {credits}",
                            card=card.word, cost=cost, credits=credits))
    if card.cost_energy or payment:
        issues.extend(_check_payment(after, card, cell, payment, rng))
    return issues


def _check_payment(after: Station, card: CardDef, cell: Cell, payment: Mapping[Cell, int] | None,
                   rng: int) -> list[Issue]:
    name, issues = card.name, []
    dist = after.distances(cell)
    if payment is None:
        in_range = [r for r in after.reactors() if r.cell != cell and dist.get(r.cell, rng + 1) <= rng]
        if sum(r.cubes for r in in_range) < card.cost_energy:
            have = sum(r.cubes for r in in_range)
            issues.append(Issue("energy_range", name, cell,
                Text("{card} ({cell}) needs {energy} energy; reactors within distance {rng} of it hold {have}",
                     card=card.word, energy=card.cost_energy, rng=rng, cell=cell_text(cell), have=have)))
        return issues
    paid = 0
    for src, n in payment.items():
        if n <= 0:
            continue
        paid += n
        r = after.at(src)
        if r is None or not r.is_reactor:
            issues.append(Issue("energy_source", name, cell, (
                Text("{card}: energy taken from the place {cell}, which is empty, not a reactor",
                     card=card.word, cell=cell_text(src)) if r is None
                else Text("{card}: energy taken from the card {cell}, which is the {other}, not a reactor",
                          card=card.word, cell=cell_text(src), other=r.word))))
            continue
        d = dist.get(src)
        if d is None or d > rng:
            far = Text("not joined to it") if d is None else Text("at distance {distance}", distance=d)
            issues.append(Issue("energy_range", name, cell,
                Text("{card} ({cell}): energy paid from the {reactor}, {far} (most {rng})",
                     card=card.word, cell=cell_text(cell), reactor=reactor_named(r.word, src), far=far, rng=rng)))
        if r.cubes < n:
            issues.append(Issue("energy_cubes", name, cell,
                plural("{card}: {n} cube taken from the {reactor}, which holds {cubes}",
                       "{card}: {n} cubes taken from the {reactor}, which holds {cubes}",
                       n, card=card.word, reactor=reactor_named(r.word, src), cubes=r.cubes)))
    if paid < card.cost_energy:
        issues.append(Issue("energy_cubes", name, cell, Text("{card} needs {energy} energy; {paid} paid",
                                                             card=card.word, energy=card.cost_energy, paid=paid)))
    elif paid > card.cost_energy and card.params.get("kind") != "extra_energy_bonus":
        issues.append(Issue("energy_cubes", name, cell, Text("{card} needs {energy} energy; {paid} paid (extra cubes "
                                                             "are lost)",
                                                             card=card.word, energy=card.cost_energy, paid=paid),
                            Severity.WARNING))
    return issues


def energy_sources(after: Station, cell: Cell, rng: int = 2) -> list[Placed]:
    """The reactors that can pay the energy of a location built at ``cell``: those holding a cube within distance
    ``rng`` of it, the distance counted through built cards with the new card placed (rulebook 4 'Build a location';
    FAQ: cubes may come from several reactors, wherever they are in range). ``after`` already holds the new card.
    Nearest first, then build order: the order the box takes them in when the players do not say
    (:func:`auto_payment`)."""
    dist = after.distances(cell)
    return sorted((r for r in after.reactors() if r.cell != cell and r.cubes > 0 and dist.get(r.cell, rng + 1) <= rng),
                  key=lambda r: (dist[r.cell], r.order))


def energy_reach(station: Station, rng: int = 2) -> dict[Cell, list[Placed]]:
    """For each empty cell edge-adjacent to ``station``: :func:`energy_sources` of a location built there (the
    station's reactors as they stand), leaving out the cells no reactor with a cube reaches. Cells in row, then
    column order."""
    free = sorted({c for p in station for c in neighbour_cells(p.cell) if station.at(c) is None})
    out: dict[Cell, list[Placed]] = {}
    for c in free:
        after = station.with_card(Placed(station.cards[0].card, c, order=station.next_order))
        sources = energy_sources(after, c, rng)
        if sources:
            out[c] = sources
    return out


def auto_payment(after: Station, cell: Cell, cost: int, rng: int = 2) -> dict[Cell, int]:
    """Cubes to take for ``cost`` energy when the players did not say: nearest reactors first, then build order
    (:func:`energy_sources`).

    ``after`` already holds the new card at ``cell``. May pay less than ``cost`` when the
    reactors in range hold too few cubes (the placement check reports that).
    """
    payment: dict[Cell, int] = {}
    for r in energy_sources(after, cell, rng):
        if cost <= 0:
            break
        take = min(r.cubes, cost)
        if take:
            payment[r.cell] = take
            cost -= take
    return payment


def _own_placement_rule(station: Station, p: Placed, before: Iterable[Cell],
                        maybe: Iterable[Cell] | None = None) -> list[Issue]:
    """The card's own placement rule, checked on the station as it was when ``p`` was built.

    ``before``: cells surely built before ``p``; ``maybe``: cells that may have been (same
    year, order unknown; defaults to ``before``). ERROR when the rule is broken even on
    the smallest possible station, WARNING when only some build orders break it.
    """
    rule = p.card.placement_rule or {}
    kind = rule.get("kind")
    issues: list[Issue] = []
    before = set(before) | {p.cell}
    maybe = before if maybe is None else set(maybe) | {p.cell}
    if kind == "min_distance_from":
        limit = rule["forbidden_if_distance_lte"]
        mr = station.main_reactor
        if mr is None:
            return issues
        sure = station.distances(p.cell, before).get(mr.cell)
        could = station.distances(p.cell, maybe).get(mr.cell)
        if sure is not None and sure <= limit:
            issues.append(Issue("fighter_launch_bay", p.name, p.cell,
                plural("{card} ({cell}) is {n} step from the Main Reactor; it must be more than {limit}",
                       "{card} ({cell}) is {n} steps from the Main Reactor; it must be more than {limit}",
                       sure, card=p.word, cell=cell_text(p.cell), limit=limit)))
        elif could is not None and could <= limit:
            issues.append(Issue("fighter_launch_bay", p.name, p.cell,
                plural("{card} ({cell}) may have been built {n} step from the Main Reactor (depends on the build "
                       "order in year {year}); it must be more than {limit}",
                       "{card} ({cell}) may have been built {n} steps from the Main Reactor (depends on the build "
                       "order in year {year}); it must be more than {limit}",
                       could, card=p.word, cell=cell_text(p.cell), year=p.year, limit=limit), Severity.WARNING))
    elif kind == "must_be_adjacent_to":
        near = [n for n in station.neighbours(p.cell) if n.is_reactor]
        if not any(n.cell in before for n in near):
            if any(n.cell in maybe for n in near):
                issues.append(Issue("solar_panels", p.name, p.cell,
                    Text("{card} ({cell}): the reactor beside it was built in the same year; check it was there first",
                         card=p.word, cell=cell_text(p.cell)), Severity.WARNING))
            else:
                issues.append(Issue("solar_panels", p.name, p.cell,
                    Text("{card} ({cell}) is not beside a Power Reactor or the Main Reactor when built",
                         card=p.word, cell=cell_text(p.cell))))
    return issues


# -- whole station -----------------------------------------------------------------------


def check_station(
    station: Station,
    *,
    race: str | None = None,
    credits: int | None = None,
    aggressive: bool = False,
    others: int = 3,
    exact_order: bool = False,
    check_credits: bool = True,
    cat: Catalogue | None = None,
) -> list[Issue]:
    """Every problem in a built station (as a camera sees it, with build years).

    Args:
        race: the owner's race id (credits: Zehuti/Sheptas income).
        credits: the owner's credits now (checked against what could have been kept).
        aggressive: aggressive mode (7 rounds in years 2-4).
        others: number of other players (School of Alien Cultures income bound).
        exact_order: ``order`` is the true build order (engine); otherwise only years are known.
        check_credits: include the credit-cost bound (off in the engine, which counts credits).
    """
    cat = cat or catalogue()
    issues: list[Issue] = []
    mr = station.main_reactor
    if mr is None:
        return [Issue("main_reactor", "Main Reactor", (0, 0),
            Text("the station has no Main Reactor"))]  # the card: its English name
    built = [p for p in station if p is not mr]

    # A face-down filler stands where a removed card once was: a path cell from the start.
    def before(p: Placed) -> set[Cell]:
        if exact_order:
            return {q.cell for q in station if q.order < p.order or q is mr or q.face_down}
        return {q.cell for q in station if q.year < p.year or q is mr or q.face_down}

    def maybe(p: Placed) -> set[Cell]:
        if exact_order:
            return before(p)
        return {q.cell for q in station if (q.year <= p.year or q is mr or q.face_down) and q is not p}

    # adjacency: the station at every moment is connected to the Main Reactor
    for p in built:
        if p.face_down:
            continue
        reach = station.connected_to_main(maybe(p) | {p.cell})
        if p.cell not in reach:
            when = Text("when it was built") if exact_order else Text("at the end of year {year}", year=p.year)
            issues.append(Issue("adjacency", p.name, p.cell,
                Text("{card} ({cell}) was not edge-adjacent to the station {when}",
                     card=p.word, cell=cell_text(p.cell), when=when)))
    issues.extend(_dome_issues(station, built, mr, exact_order))
    # the card's own placement rule, at build time
    for p in built:
        if not p.face_down:
            issues.extend(_own_placement_rule(station, p, before(p), maybe(p)))
    issues.extend(_copies_issues(built, cat))
    issues.extend(_energy_issues(station, built, maybe, cat))
    issues.extend(_round_issues(built, aggressive, cat))
    if check_credits:
        issues.extend(_credit_issues(station, built, race, credits, aggressive, others, cat))
    return issues


def _dome_issues(station: Station, built: list[Placed], mr: Placed, exact_order: bool) -> list[Issue]:
    """Observation Dome: nothing built beside it afterwards (a card the same year: a warning)."""
    issues: list[Issue] = []
    for d in built:
        if d.face_down or (d.card.placement_rule or {}).get("kind") != "blocks_adjacent_builds":
            continue
        for n in station.neighbours(d.cell):
            if n is mr or n.face_down:
                continue
            if (n.order > d.order) if exact_order else (n.year > d.year):
                issues.append(Issue("observation_dome", n.name, n.cell,
                    Text("{card} ({cell}) was built beside the {dome} ({other_cell}), which allows no card beside it",
                         card=n.word, cell=cell_text(n.cell), dome=d.word, other_cell=cell_text(d.cell))))
            elif not exact_order and n.year == d.year:
                issues.append(Issue("observation_dome", n.name, n.cell,
                    Text("{card} ({cell}) is beside the {dome} built the same year; legal only if it came first",
                         card=n.word, cell=cell_text(n.cell), dome=d.word), Severity.WARNING))
    return issues


def _copies_issues(built: list[Placed], cat: Catalogue) -> list[Issue]:
    """MAX per station, and no more copies than the box holds: the later copies are the misplaced ones."""
    issues: list[Issue] = []
    by_kind: dict[str, list[Placed]] = defaultdict(list)
    for p in built:
        if not p.face_down:
            by_kind[p.card.kind].append(p)
    for kind, cards in by_kind.items():
        limit = cards[0].card.max_per_station
        ranked = sorted(cards, key=lambda q: (q.year, q.order))
        if limit is not None and len(cards) > limit:
            for extra in ranked[limit:]:
                issues.append(Issue("max_per_station", extra.name, extra.cell,
                    Text("{card}: a station may hold at most {limit}; this station has {count}",
                         card=extra.word, limit=limit, count=len(cards))))
        in_box = sum(c.copies for c in cat.cards.values() if c.kind == kind)
        if len(cards) > in_box:
            for extra in ranked[in_box:]:
                issues.append(Issue("box_copies", extra.name, extra.cell,
                    Text("{card}: the box holds {in_box}, this station shows {count}; a misread?",
                         card=extra.word, in_box=in_box, count=len(cards)), Severity.WARNING))
    return issues


def _energy_issues(station: Station, built: list[Placed], maybe, cat: Catalogue) -> list[Issue]:
    rng = cat.rules["energy_range"]
    issues: list[Issue] = []
    reactors = station.reactors()
    mr = station.main_reactor
    # cubes each reactor could have held: start + Backup Reactor (Main Reactor) + Solar Panels (an adjacent reactor)
    capacity = {r.cell: r.card.start_cubes for r in reactors}
    capacity[mr.cell] += sum(p.card.params["cubes"] for p in built
                             if not p.face_down and p.card.params.get("kind") == "add_cube_main_reactor")
    for s in built:
        if s.face_down or s.card.params.get("kind") != "add_cube_adjacent_reactor":
            continue
        near = [n for n in station.neighbours(s.cell) if n.is_reactor]
        if near:  # give the cube to the neighbour that most needs it to explain its cubes
            best = max(near, key=lambda n: n.cubes - capacity[n.cell])
            capacity[best.cell] += s.card.params["cubes"]
    supply: dict[Cell, int] = {}
    for r in reactors:
        if r.cubes > capacity[r.cell]:
            issues.append(Issue("reactor_cubes", r.name, r.cell,
                Text("the {reactor} shows {cubes} cubes; it can have held at most {capacity}",
                     reactor=reactor_named(r.word, r.cell), cubes=r.cubes, capacity=capacity[r.cell]),
                                Severity.WARNING))
        supply[r.cell] = max(0, capacity[r.cell] - r.cubes)
    demands: list[tuple[Placed, int, set[Cell]]] = []
    for p in sorted(built, key=lambda q: (q.year, q.order)):
        need = 0 if p.face_down else p.card.cost_energy
        if need <= 0:
            continue
        cells = maybe(p) | {p.cell}
        dist = station.distances(p.cell, cells)
        sources = {r.cell for r in reactors if r.cell in cells and r.cell != p.cell and dist.get(r.cell,
                                                                                                 rng + 1) <= rng}
        if not sources:
            issues.append(Issue("energy_range", p.name, p.cell,
                Text("{card} ({cell}) needs {need} energy but no reactor was within distance {rng} when it was built",
                     card=p.word, cell=cell_text(p.cell), need=need, rng=rng)))
            continue
        trial = [*demands, (p, need, sources)]
        if _max_flow(trial, supply) < sum(n for _, n, _ in trial):
            have = sum(supply[c] for c in sources)
            issues.append(Issue("energy_cubes", p.name, p.cell,
                Text("{card} ({cell}) needs {need} energy; the cubes gone from reactors within distance {rng} "
                     "({have}) do not cover it and the cards before it",
                     card=p.word, cell=cell_text(p.cell), need=need, rng=rng, have=have)))
            continue
        demands = trial
    return issues


def _max_flow(demands: list[tuple[Placed, int, set[Cell]]], supply: Mapping[Cell, int]) -> int:
    """Largest number of cubes the demands can draw, each only from its own sources (augmenting paths)."""
    n = len(demands)
    used = {c: 0 for c in supply}
    got = [0] * n
    take: list[dict[Cell, int]] = [defaultdict(int) for _ in range(n)]
    total = 0
    while True:
        # BFS from demands with room to reactors with cubes left, through reassignments
        parent: dict = {}
        queue = [("d", i) for i in range(n) if got[i] < demands[i][1]]
        for node in queue:
            parent[node] = None
        found = None
        k = 0
        while k < len(queue) and found is None:
            node = queue[k]
            k += 1
            if node[0] == "d":
                for c in demands[node[1]][2]:
                    nxt = ("r", c)
                    if nxt not in parent:
                        parent[nxt] = node
                        if used[c] < supply[c]:
                            found = nxt
                            break
                        queue.append(nxt)
            else:
                for i in range(n):
                    nxt = ("d", i)
                    if nxt not in parent and take[i][node[1]] > 0:
                        parent[nxt] = node
                        queue.append(nxt)
        if found is None:
            return total
        used[found[1]] += 1
        node = found
        while parent[node] is not None:
            prev = parent[node]
            if prev[0] == "d":
                take[prev[1]][node[1]] += 1
            else:
                take[node[1]][prev[1]] -= 1
            node = prev
        got[node[1]] += 1
        total += 1


def _rounds(year: int, aggressive: bool, cat: Catalogue) -> int:
    if aggressive and year >= 2:
        return cat.rules["aggressive_rounds_per_year"]
    return cat.rules["rounds_per_year"]


def _round_issues(built: list[Placed], aggressive: bool, cat: Catalogue) -> list[Issue]:
    issues = []
    by_year: dict[int, list[Placed]] = defaultdict(list)
    for p in built:
        if not p.face_down:
            by_year[p.year].append(p)
    for year, cards in sorted(by_year.items()):
        limit = _rounds(year, aggressive, cat)
        for extra in sorted(cards, key=lambda q: q.order)[limit:]:
            issues.append(Issue("rounds", extra.name, extra.cell,
                Text("{count} cards built in year {year}, which has {limit} rounds; {card} ({cell}) is one too many",
                     count=len(cards), year=year, limit=limit, card=extra.word, cell=cell_text(extra.cell))))
    return issues


def _credit_gain_bound(station: Station, p: Placed, others: int) -> int:
    """Most credits ``p``'s immediate ability can have given when built (from the final station)."""
    kind = p.card.params.get("kind")
    if kind == "credits_per_adjacent_colour":
        return sum(1 for n in station.neighbours(p.cell) if n.has_colour(p.card.params["colour"]))
    if kind == "credits_per_reactor":
        return min(p.card.params["max_credits"], len(station.reactors()))
    if kind == "take_credits":
        return p.card.params["total"]
    if kind == "pay_or_lose":
        return others * p.card.params["pay_credits"]
    return 0


def _credit_issues(station: Station, built: list[Placed], race: str | None, credits: int | None, aggressive: bool,
                   others: int, cat: Catalogue) -> list[Issue]:
    """Each year's costs against the most credits the player can have had (an upper bound)."""
    issues: list[Issue] = []
    r = cat.rules
    carry = 0
    year_credits = cat.race_param(race, "year_credits", r["credits_per_year"])
    discard = cat.race_param(race, "discard_credits", r["discard_credits"])
    carries = cat.race_param(race, "carry_over", True)
    reactor_cost = cat.cards[POWER_REACTOR].cost_credits
    for year in range(1, r["years"] + 1):
        cards = sorted((p for p in built if p.year == year and not p.face_down), key=lambda q: q.order)
        banks = sum(1 for p in built if p.year < year and p.card.params.get("kind") == "yearly_income")
        income = year_credits + banks + discard * max(0, _rounds(year, aggressive, cat) - len(cards))
        income += sum(_credit_gain_bound(station, p, others) for p in cards)
        have = (carry if carries else 0) + income
        spent = 0
        for p in cards:
            cost = reactor_cost if p.card.id == POWER_REACTOR else p.card.cost_credits
            spent += cost
            if spent > have:
                issues.append(Issue("credits", p.name, p.cell,
                    Text("year {year}: the cards built cost {spent} credits by {card}, more than the {have} the "
                         "player can have had", year=year, spent=spent, card=p.word, have=have)))
                spent -= cost  # report each card that does not fit once
        carry = have - spent
    if credits is not None and credits > carry:
        issues.append(Issue("credits", "credits", (0, 0), Text("{credits} credits left, more than the {carry} the "
                                                               "player can have kept",
                                                               credits=credits, carry=carry), Severity.WARNING))
    return issues


# -- end-of-year correction --------------------------------------------------------------


@dataclass(frozen=True)
class Correction:
    """The result of :func:`correct_station`.

    Attributes:
        station: the legal station (fillers included).
        removed: the cards taken away, in removal order, with the VP each cost.
        fillers: cells that got a face-down Power Reactor to rejoin a split station.
        vp_before, vp_after: the player's VP; never below 0.
        issues: the errors that caused the removals.
    """

    station: Station
    removed: tuple[tuple[Placed, int], ...]
    fillers: tuple[Cell, ...]
    vp_before: int
    vp_after: int
    issues: tuple[Issue, ...]

    @property
    def vp_lost(self) -> int:
        return self.vp_before - self.vp_after


def correct_station(
    station: Station,
    vp: int,
    year: int,
    *,
    exact_order: bool = False,
    check_credits: bool = True,
    race: str | None = None,
    aggressive: bool = False,
    cat: Catalogue | None = None,
) -> Correction:
    """Rulebook 5 'Round end': remove misplaced location cards until the station is legal.

    Each removed card costs the VP it earned when built, or its printed VP + 3 when that
    is unknown; no score drops below 0 (rulebook FAQ). The latest-built flagged card goes
    first, then the station is checked again. If a removal splits the station, its cell
    gets a face-down Power Reactor (year ``year``), which joins paths but is no location.
    Cards flagged by the engine at build time (``Placed.flags``) count as misplaced.
    """
    cat = cat or catalogue()
    extra = cat.rules["misplay_extra_penalty"]
    removed: list[tuple[Placed, int]] = []
    fillers: list[Cell] = []
    seen: list[Issue] = []
    now = vp
    for _ in range(len(station) + 1):
        issues = [i for i in check_station(station, race=race, aggressive=aggressive, exact_order=exact_order,
                                           check_credits=check_credits, cat=cat) if i.severity is Severity.ERROR]
        flagged_cells = {i.cell for i in issues}
        flagged_cells |= {p.cell for p in station if p.flags}
        candidates = [p for p in station if p.cell in flagged_cells and not p.card.is_main_reactor and not p.face_down]
        if not candidates:
            break
        worst = max(candidates, key=lambda q: (q.year, q.order))
        seen.extend(i for i in issues if i.cell == worst.cell)
        if worst.flags and not any(i.cell == worst.cell for i in issues):
            seen.extend(Issue(f, worst.name, worst.cell, Text("{card} ({cell}) broke this rule when built",
                                                              card=worst.word,
                                                              cell=cell_text(worst.cell))) for f in worst.flags)
        cost = worst.vp_earned if worst.vp_earned is not None else worst.card.vp + extra
        now = max(0, now - cost)
        removed.append((worst, cost))
        joined = station.connected_to_main()
        smaller = station.without(worst.cell)
        if worst.cell in joined and (joined - {worst.cell}) - smaller.connected_to_main():
            filler = Placed(cat.cards[POWER_REACTOR], worst.cell, cubes=0, year=year, order=worst.order, face_down=True,
                            vp_earned=0)
            smaller = Station(tuple(filler if p.cell == worst.cell else p for p in station.cards))
            fillers.append(worst.cell)
        station = smaller
    return Correction(station, tuple(removed), tuple(fillers), vp, now, tuple(seen))


# -- how to fix a misplay ------------------------------------------------------------------


def legal_cells(station: Station, card: CardDef, *, credits: int | None = None,
                cat: Catalogue | None = None) -> list[Cell]:
    """Empty cells where ``card`` could be built in ``station`` now with no ERROR issue.

    Candidates are the empty cells edge-adjacent to the station (Among the Stars rulebook, 4 'Build a
    location'); each is checked with :func:`check_placement` (energy in range, the card's own
    placement rule, Observation Dome, MAX). ``credits`` None skips the cost check. Sorted by
    distance from the Main Reactor cell (0, 0), then row, then column. Empty when the card
    cannot be built anywhere (the MAX reached, too few credits, no energy in range of any
    free cell).
    """
    cat = cat or catalogue()
    free = {c for p in station for c in neighbour_cells(p.cell) if station.at(c) is None}
    ok = [c for c in free
          if not any(i.severity is Severity.ERROR for i in check_placement(station, card, c, credits=credits, cat=cat))]
    return sorted(ok, key=lambda c: (abs(c[0]) + abs(c[1]), c[0], c[1]))


_TAKE_BACK = {
    "max_per_station": Text("take it back: this station already holds the most copies allowed; discard it for credits "
                            "instead"),
    "box_copies": Text("check the card: the box does not hold that many copies (a misread?)"),
    "credits": Text("take it back: it costs more credits than you have; discard it for credits instead"),
    "rounds": Text("take it back: only one card is built each round"),
}


def fix_for(issues: Iterable[Issue], station: Station, card: CardDef, cell: Cell, *,
            credits: int | None = None, near: int = 3, cat: Catalogue | None = None) -> str:
    """One sentence telling the player how to undo the misplay of ``card`` at ``cell``.

    ``station`` is the station *before* the card was placed; ``issues`` the problems
    :func:`check_placement` found. When moving the card would help (adjacency, Observation
    Dome, Fighter Launch Bay distance, Solar Panels beside a reactor, energy range), the
    ``near`` legal cells closest to ``cell`` are named (from :func:`legal_cells`); when no cell
    would do, or the problem is not where it lies (MAX, credits), the card goes back to the
    hand (Among the Stars rulebook, 4 'Discard a card for credits' is the action left). Empty string
    when ``issues`` holds no ERROR.
    """
    errors = [i for i in issues if i.severity is Severity.ERROR]
    if not errors:
        return ""
    for i in errors:
        if i.rule in _TAKE_BACK:
            return _TAKE_BACK[i.rule]
    cells = legal_cells(station, card, credits=credits, cat=cat)
    if not cells:
        return Text("take it back: no free cell of this station allows it now; discard it for credits or build a "
                    "Power Reactor instead")
    cells.sort(key=lambda c: (abs(c[0] - cell[0]) + abs(c[1] - cell[1]), c[0], c[1]))
    named = Listing(cell_text(c) for c in cells[:near])
    if len(cells[:near]) > 1:
        return Text("move it to one of these places: {cells}", cells=named)
    return Text("move it {cells}", cells=named)
