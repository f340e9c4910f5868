"""Among the Stars as a :class:`rules.core.Game`: years, rounds, the three actions, scoring.

Facts (rulebook 4 'Round overview', numbers in the data file's ``game_rules``): 4 years
of 6 rounds (7 in years 2-4 of aggressive mode); each year every player takes 10
credits (Zehuti: exactly 13) and hands pass left or right by year; each round every
player does exactly one action with the card they revealed: build it, build a Power
Reactor (1 credit, 2 cubes), or discard it for 3 credits (Sheptas 4, Zehuti 0). Effects
on other players wait until everyone's action is done (rulebook 'Player order'), so they
are resolved by ``round_ended``. After the last round of a year the stations are
corrected (rulebook 5 'Round end'); after year 4 the game is scored (rulebook 6).

The box cannot see hands, so drafting is not modelled: events report what was revealed
and done. With 2 players two virtual seats sit between them (rulebook 8); they only
shape the passing, shown in :meth:`AmongTheStarsGame.view`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rules.among_the_stars.abilities import Interaction, immediate
from rules.among_the_stars.choices import choice_count, choices_paid, energy_chosen, energy_paid, reactor_beside
from rules.among_the_stars.data import (
    MAIN_REACTOR,
    POWER_REACTOR,
    TITLE,
    VAK_MAIN_REACTOR,
    Catalogue,
    UnknownCard,
    catalogue,
)
from rules.among_the_stars.endgame import (
    MAX_CREDITS,
    SECRET_KEPT,
    SECRET_ROUND,
    PlayerPosition,
    Position,
    check_position,
    check_secret_objective,
    final_scores,
    parse_station,
    score_position,
)
from rules.among_the_stars.legality import (
    Issue,
    auto_payment,
    check_placement,
    check_station,
    correct_station,
    energy_reach,
    fix_for,
    issue_finding,
    rule_citation,
)
from rules.among_the_stars.station import ORIGIN, Cell, Placed, Station
from rules.core import BadEvent, CheckFormat, Finding, GameInfo, Option, Progress, Rename, ScoreBreakdown, Severity
from rules.engine import EventContext, GameBase
from rules.names import term
from rules.scoring import ScoreInputError
from rules.settings import check_settings
from rules.text import N_, Listing, Text, plural

__all__ = [
    "AMONG_GAME",
    "CARD_DISCARDED",
    "CONFLICT_PLAYED",
    "CREDITS_CHANGED",
    "LOCATION_BUILT",
    "REACTOR_BUILT",
    "ROUND_ENDED",
    "SECRET_OBJECTIVE_CHOSEN",
    "STATION_READ",
    "VP_CHANGED",
    "AmongPlayer",
    "AmongState",
    "AmongTheStarsGame",
    "objectives_dealt",
]

LOCATION_BUILT = "location_built"
"""payload ``{"card": name, "cell": [i, j], "energy": [{"cell": [i, j], "cubes": n}, ...],
"choices": {...}}``; ``event.player`` builds. Choices of interactive cards: ``gift_to``
(Embassy Offices), ``take`` {player: credits} (Market Place), ``bids`` {player: 0-3}
(Galactic Research Facility), ``paid`` {player: bool} (School of Alien Cultures),
``escrow`` n (Business Offices: refused above the credits left after its cost), ``reactor`` [i, j] (Solar
Panels: a reactor beside it, else refused), ``extra_cubes`` n (Shield Generator: cubes taken beyond its cost when
``energy`` is not given; refused above what the reactors within reach hold beyond its cost), ``energy`` [[i, j], ...]
(any card: the reactor each energy cube comes from, the builder's choice; the cubes not named come from the nearest
reactors; refused when a cell is no reactor within distance 2 holding that many cubes, naming it)."""
REACTOR_BUILT = "reactor_built"
"""payload ``{"cell": [i, j], "card": discarded name (optional)}``."""
CARD_DISCARDED = "card_discarded"
"""payload ``{"card": name (optional)}``: the discard-for-credits action."""
CONFLICT_PLAYED = "conflict_played"
"""payload ``{"target": player, "counts": colour or "power_reactors"}`` (Dispute, aggressive mode)."""
ROUND_ENDED = "round_ended"
"""payload ``{}``: every player has acted; resolve interactions, then the next round (or year)."""
VP_CHANGED = "vp_changed"
"""payload ``{"delta": n, "reason": str}``: a player's correction of the VP track (never below 0);
``vp_adjusted`` before issue 13."""
CREDITS_CHANGED = "credits_changed"
"""payload ``{"delta": n, "reason": str}``: a correction of a player's credits; ``credits_adjusted`` before issue 13."""
STATION_READ = "station_read"
"""payload ``{"station": [...]}`` in the score-input shape: a camera read of ``event.player``'s
station, checked as a whole (findings only; the state keeps the engine's station)."""

SECRET_OBJECTIVE_CHOSEN = "secret_objective_chosen"
"""payload ``{"objective": name}``: a Qualeen player's secret objective (rulebook 'Races', Qualeen: at setup draw 2
extra objectives and keep 1 secretly), one not face up on the table; ``event.player`` keeps it. Entered on that
player's own phone and left out of :meth:`AmongTheStarsGame.public` until the game is scored."""

VIRTUAL = ("virtual player 1", "virtual player 2")
_VIRTUAL = {
    "left": N_("2 players: leave your hand beside the virtual player on the left, take its hand, shuffle, put {count} "
               "card face up on the virtual discard pile, pass the rest to your opponent"),
    "right": N_("2 players: leave your hand beside the virtual player on the right, take its hand, shuffle, "
                "put {count} card face up on the virtual discard pile, pass the rest to your opponent"),
}
"""The 2-player reminder (rulebook 8), by the year's pass direction."""

RACE_REMINDERS = {
    "qualeen": Text("Qualeen: a secret objective scores even when tied; reveal Accelerated Construction when met"),
    "minireen": Text("Minireen: once this year you may build from the discard pile instead of your drafted card"),
    "sisssaurians": Text("Sisssaurians: once this year draw 5 unused specials, then remove 5 specials from your hand"),
    "garrn_athak_nok": Text("Garrn Athak Nok: once this year look at a hand and swap one card"),
    "zehuti": Text("Zehuti: exactly 13 credits each year, no carry-over; discarding gives nothing"),
    "sheptas": Text("Sheptas: discarding gives 4 credits; at the end 1 VP per 2 credits instead of 3 (at most 5 more)"),
}


@dataclass(frozen=True)
class AmongPlayer:
    """One real player: credits, VP on the track, station, credits parked on Business Offices, last round acted."""

    name: str
    race: str | None
    credits: int
    vp: int
    station: Station
    escrow: int = 0
    acted: tuple[int, int] = (0, 0)  # (year, round) of the last action
    secret_objective: str | None = None  # a Qualeen's secret objective (its id), hidden until the game is scored
    secret_revealed: bool = False  # a secret Accelerated Construction met and revealed (Hungarian FAQ, Qualeen)


@dataclass(frozen=True)
class AmongState:
    """The table: players in seat order, year and round, objectives, pending interactions, final scores."""

    players: tuple[AmongPlayer, ...]
    objectives: tuple[str, ...] = ()
    aggressive: bool = False
    year: int = 1
    round: int = 1
    reactors_left: int = 16
    pending: tuple[Interaction, ...] = ()
    accelerated_done: bool = False
    over: bool = False
    scores: tuple[ScoreBreakdown, ...] = ()

    def player(self, name: str) -> AmongPlayer:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def with_player(self, p: AmongPlayer) -> AmongState:
        return replace(self, players=tuple(p if q.name == p.name else q for q in self.players))


def objectives_dealt(players: int) -> int:
    """How many objectives are laid face up for ``players`` players: as many as there are players (Among the Stars
    rulebook, 3 Setup), 2 with 2 players (8 2-player rules; ``two_player_objectives`` in the game data). A first game
    may play none (3 Setup 7: optional)."""
    return int(catalogue().rules["two_player_objectives"]) if players == 2 else players


def _cell(value: Any, where: str) -> Cell:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise BadEvent(f"{where}: a cell is [i, j], two whole numbers; got {value!r}")
    return (value[0], value[1])


INFO = GameInfo(
    name="among",
    title=TITLE,
    bgg_id=121408,
    players=(2, 4),  # Among the Stars rulebook, 1 Components: 4 Main Reactors, a game for 2-4 players
    options=(
        Option(
            "races", "choices", default=(), per_player=True, player_key="race", label=Text("each player's race"),
            choices=tuple(r["name"] for r in catalogue().races.values()),
            distinct=N_("two players play the race {value}: the box has one tile per race "
                        "(Among the Stars rulebook, Setup 7)"),
            help=Text("one race per player, in seat order; none for a first game (Among the Stars rulebook, 3 Setup: "
                 "each player takes a race tile)"),
        ),
        Option(
            "objectives", "choices", default=(), label=Text("the objectives"),
            choices=tuple(o.name for o in catalogue().objectives.values()),
            help=Text("the objectives in play: as many as players, 2 with 2 players (Among the Stars rulebook, 3 Setup "
                 "and 8 2-player rules)"),
        ),
        Option(
            "aggressive", "bool", default=False, label=Text("the aggressive mode"),
            help=Text("the aggressive mode: Conflict cards from year 2, 7 rounds in years 2-4 (Among the Stars "
                 "rulebook, 7 Aggressive mode)"),
        ),
    ),
    score_input="json",
    rulebook="Among the Stars rulebook, Hungarian edition",
    score_rule=N_("rulebook 6 'Game end'"),
    tiebreak=N_("locations without reactors, then credits"),  # rulebook 6: more locations (reactors not), credits
    renames=(
        Rename("vp_adjusted", "vp_changed", since="issue 13"),
        Rename("credits_adjusted", "credits_changed", since="issue 13"),
    ),
    check_format=CheckFormat(
        row=(("player", "player"), ("card", "card"), ("cell", "cell"), ("rule", "rule_kind"), ("message", "what")),
        legal=False, listed=(Severity.ERROR,),
    ),
)
"""Among the Stars' declaration (:class:`rules.core.GameInfo`)."""


def _energy_payload(ctx: EventContext) -> dict[Cell, int] | None:
    """A build's ``energy`` (``[{"cell": [i, j], "cubes": n}]``: what a camera or a hand-made event says was paid) as
    ``{reactor cell: cubes}``, or None when not given (a wrong source is a finding of the placement check, not a
    refusal).

    Raises:
        BadEvent: ``energy`` not a list, a row without a cell, or cubes that are not a whole number of 0 or more.
    """
    rows = ctx.payload.get("energy")
    if rows is None:
        return None
    if not isinstance(rows, (list, tuple)):
        raise BadEvent(f"event {ctx.event.seq} energy: a list of {{\"cell\": [i, j], \"cubes\": n}}, got {rows!r}")
    payment: dict[Cell, int] = {}
    for k, row in enumerate(rows):
        src = _cell(row.get("cell") if isinstance(row, Mapping) else None, f"event {ctx.event.seq} energy[{k}].cell")
        n = row.get("cubes", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BadEvent(f"event {ctx.event.seq} energy[{k}].cubes: a whole number of cubes, got {n!r}")
        payment[src] = payment.get(src, 0) + n
    return payment


class AmongTheStarsGame(GameBase):
    """Among the Stars (Artipia Games, 2012), base game, 2-4 players, as a :class:`rules.core.Game`."""

    info = INFO

    def __init__(self, cat: Catalogue | None = None) -> None:
        self._cat = cat

    @property
    def cat(self) -> Catalogue:
        return self._cat or catalogue()

    # -- score / check commands -----------------------------------------------------------
    @staticmethod
    def final_scores(data: Any) -> list[ScoreBreakdown]:
        """``companion score among FILE``; see :func:`rules.among_the_stars.endgame.final_scores`."""
        return final_scores(data)

    @staticmethod
    def check(data: Any) -> list[Finding]:
        """``companion check among FILE``: errors first, then warnings; see
        :func:`rules.among_the_stars.endgame.check_position`."""
        return check_position(data)

    # -- facts ------------------------------------------------------------------------------
    def rounds_in_year(self, state: AmongState, year: int | None = None) -> int:
        year = state.year if year is None else year
        r = self.cat.rules
        return r["aggressive_rounds_per_year"] if state.aggressive and year >= 2 else r["rounds_per_year"]

    def pass_direction(self, year: int) -> str:
        """``"left"`` or ``"right"`` (data ``game_rules.pass_direction``; single source)."""
        return self.cat.rules["pass_direction"][str(year)]

    def seats(self, state: AmongState) -> list[str]:
        """Seats around the table; with 2 players a virtual player sits on each side (rulebook 8)."""
        names = [p.name for p in state.players]
        if len(names) == 2:
            return [names[0], VIRTUAL[0], names[1], VIRTUAL[1]]
        return names

    def _income(self, p: AmongPlayer) -> AmongPlayer:
        r = self.cat.rules
        base = self.cat.race_param(p.race, "year_credits", r["credits_per_year"])
        carry = self.cat.race_param(p.race, "carry_over", True)
        banks = sum(1 for q in p.station if not q.face_down and q.card.params.get("kind") == "yearly_income")
        return replace(p, credits=(p.credits if carry else 0) + base + banks)

    # -- state --------------------------------------------------------------------------------
    def initial_state(self, settings: Mapping[str, Any]) -> AmongState:
        """Year 1, round 1, each player with a Main Reactor (2 cubes) and the first year's credits.

        settings: ``{"players": [name or {"name", "race"}], "objectives": [names], "aggressive": bool}``
        (races may also come as ``"races"``: one per player in seat order).

        Raises:
            BadSettings: fewer than 2 or more than 4 players, an unknown race or objective, a race twice.
        """
        cat = self.cat
        checked = check_settings(self.info, settings)
        players = []
        for name, race_name in zip(checked.players, checked["races"], strict=True):
            race = cat.race(race_name) if race_name else None
            main = cat.cards[VAK_MAIN_REACTOR if race == "vak" else MAIN_REACTOR]
            station = Station((Placed(main, ORIGIN, cubes=main.start_cubes, year=0, order=0),))
            players.append(self._income(AmongPlayer(name, race, 0, 0, station)))
        objectives = tuple(cat.objective(name).id for name in checked["objectives"])
        return AmongState(players=tuple(players), objectives=objectives, aggressive=checked["aggressive"],
                          reactors_left=cat.cards[POWER_REACTOR].copies)

    def before(self, state: AmongState, ctx: EventContext) -> bool:
        """Once the game is scored, an event changes nothing (a camera read is still checked)."""
        if state.over and ctx.event.kind != STATION_READ:
            ctx.finding(Text("the game is over; this event changes nothing"), Text("event {seq}", seq=ctx.event.seq),
                        Severity.WARNING,
                        N_("rulebook 6 'Game end'"))
            return False
        return True

    def _acted(self, state: AmongState, p: AmongPlayer, ctx: EventContext, card: str | None = None,
               cell: Cell | None = None) -> AmongPlayer:
        """``p`` has taken this round's action (rulebook 4 'Round overview': exactly one action a round); every
        extra action is a finding of its own, naming what was built where (``card``, ``cell``) when known."""
        now = (state.year, state.round)
        if p.acted == now:
            ctx.finding(Text("{player} already took an action in year {year}, round {round}",
                             player=p.name, year=state.year, round=state.round), p.name,
                        Severity.WARNING, N_("rulebook 4 'Round overview': exactly one action a round"), player=p.name,
                        card=card, cell=cell)
        return replace(p, acted=now)

    # -- actions --------------------------------------------------------------------------------
    def _build_location(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Rulebook 4 'Build a location': a location card at a cell, paid in credits and energy cubes."""
        cat = self.cat
        p = state.player(ctx.player())
        event = ctx.event
        name = ctx.payload.get("card")
        if not isinstance(name, str):
            raise ctx.bad("'card' must be a card name")
        try:
            card = cat.card(name)
        except UnknownCard as exc:
            raise ctx.bad(f"unknown card {name!r}; did you mean {' or '.join(exc.suggestions) or '?'}") from None
        if card.is_reactor:
            raise ctx.bad(f"{card.name} is not built with {LOCATION_BUILT}; use {REACTOR_BUILT}")
        cell = _cell(ctx.payload.get("cell"), f"event {event.seq} cell")
        payment = _energy_payload(ctx)
        choices = ctx.payload.get("choices") or {}
        if not isinstance(choices, Mapping):
            raise ctx.bad("'choices' must be an object of the card's choices")
        extra, escrow = (choice_count(choices, key, ctx) for key in ("extra_cubes", "escrow"))
        if choices.get("energy") is not None:  # the reactors the builder chose (rulebook FAQ: any in reach)
            if payment is not None:
                raise ctx.bad("give the reactors paying the energy once: 'energy' or 'choices.energy'")
            payment = energy_chosen(p.station, card, cell, choices["energy"], card.cost_energy + extra,
                                    cat.rules["energy_range"], ctx)
        p = self._acted(state, p, ctx, card.name, cell)
        issues = check_placement(p.station, card, cell, credits=p.credits, payment=payment, cat=cat)
        fix = fix_for(issues, p.station, card, cell, credits=p.credits, cat=cat)
        ctx.add(*(issue_finding(i, p.name, event.seq, fix) for i in issues))
        if any(i.rule == "cell_taken" for i in issues):
            return state.with_player(p)
        station = p.station
        if payment is None and (card.cost_energy or extra):
            placed_now = station.with_card(Placed(card, cell, order=station.next_order))
            payment = auto_payment(placed_now, cell, card.cost_energy + extra, cat.rules["energy_range"])
        paid = 0
        for src, n in (payment or {}).items():
            r = station.at(src)
            if r is not None and r.is_reactor:
                took = min(n, r.cubes)
                paid += took
                station = station.with_cubes(src, r.cubes - took)
        credits = max(0, p.credits - card.cost_credits)
        choices_paid(card.word, extra, max(0, paid - card.cost_energy), escrow, credits, ctx)
        if choices.get("energy") is not None and payment:  # the table sees where the builder's cubes came from
            ctx.finding(energy_paid(card.word, station, payment), p.name, Severity.INFO,
                        N_("rulebook 4 'Build a location': the energy is paid from reactors within distance 2, any "
                           "of them (FAQ)"), player=p.name, card=card.name, cell=cell)
        flags = tuple(sorted({i.rule for i in issues if i.severity is Severity.ERROR}))
        placed = Placed(card, cell, year=state.year, order=station.next_order, cubes_spent=paid, flags=flags)
        station = station.with_card(placed)
        reactor_beside(station, card.word, cell, choices.get("reactor"), ctx)
        imm = immediate(station, placed, year=state.year, years=cat.rules["years"], paid=paid, credits=credits,
                        choices=choices, builder=p.name)
        for c, n in imm.cubes.items():
            station = station.with_cubes(c, station.at(c).cubes + n)
        station = station.replaced(replace(placed, vp_earned=imm.vp))
        p = replace(p, station=station, credits=credits + imm.credits, vp=p.vp + imm.vp, escrow=p.escrow + imm.escrow)
        if imm.note:
            ctx.finding(Text("{card}: {note}", card=card.word, note=imm.note), p.name, Severity.INFO,
                        Text("card text ({card})", card=card.word), player=p.name, card=card.name)
        return replace(state.with_player(p), pending=state.pending + imm.interactions)

    def _build_reactor(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Rulebook 4 'Build a Power Reactor': 1 credit, a reactor with 2 cubes, while the deck lasts."""
        cat = self.cat
        p = state.player(ctx.player())
        card = cat.cards[POWER_REACTOR]
        cell = _cell(ctx.payload.get("cell"), f"event {ctx.event.seq} cell")
        p = self._acted(state, p, ctx, card.name, cell)
        issues = check_placement(p.station, card, cell, credits=p.credits, cat=cat)
        fix = fix_for(issues, p.station, card, cell, credits=p.credits, cat=cat)  # where it goes, not the deck
        if state.reactors_left <= 0:
            issues.append(Issue("reactor_deck", card.name, cell,
                Text("the Power Reactor deck is empty; this action is not available")))
        ctx.add(*(issue_finding(i, p.name, ctx.event.seq, "" if i.rule == "reactor_deck" else fix) for i in issues))
        if any(i.rule == "cell_taken" for i in issues):
            return state.with_player(p)
        flags = tuple(sorted({i.rule for i in issues if i.severity is Severity.ERROR}))
        placed = Placed(card, cell, cubes=card.start_cubes, year=state.year, order=p.station.next_order, vp_earned=0,
                        flags=flags)
        p = replace(p, station=p.station.with_card(placed), credits=max(0, p.credits - card.cost_credits))
        return replace(state.with_player(p), reactors_left=max(0, state.reactors_left - 1))

    def _discard(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Rulebook 4 'Discard a card for credits': 3 credits (Sheptas 4, Zehuti 0)."""
        p = self._acted(state, state.player(ctx.player()), ctx)
        gain = self.cat.race_param(p.race, "discard_credits", self.cat.rules["discard_credits"])
        return state.with_player(replace(p, credits=p.credits + gain))

    def _conflict(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Dispute: compare counts of one kind with a target; the lead (max 3) moves VP, after the round's actions."""
        cat = self.cat
        p = self._acted(state, state.player(ctx.player()), ctx)
        rule = N_("rulebook 7 'Aggressive mode'")
        if not state.aggressive or state.year < 2:
            ctx.finding(Text("Conflict cards are only in the deck in years 2-4 of aggressive mode"), p.name,
                        Severity.WARNING, rule)
        cost = cat.conflict["cost_credits"]
        if p.credits < cost:
            ctx.finding(Text("{player} cannot pay the {cost} credit for the Conflict card",
                             player=p.name, cost=cost), p.name, Severity.ERROR, rule)
        target_name = ctx.payload.get("target")
        counts = ctx.payload.get("counts")
        try:
            target = state.player(target_name)
        except KeyError:
            raise ctx.bad(f"Dispute target {target_name!r} is not a player") from None
        if counts not in (*cat.conflict["variants_known"],):
            raise ctx.bad(f"'counts' must be one of {', '.join(cat.conflict['variants_known'])}, got {counts!r}")

        def count(s: Station) -> int:
            return len(s.reactors()) if counts == "power_reactors" else s.count_colour(counts)

        lead = min(cat.conflict["max_vp"], count(p.station) - count(target.station))
        pending = state.pending
        if lead > 0 and target.name != p.name:
            pending += (Interaction(p.name, "vp", lead, "Dispute", source=p.name),
                        Interaction(target.name, "vp", -lead, "Dispute", source=p.name))
        p = replace(p, credits=max(0, p.credits - cost))
        return replace(state.with_player(p), pending=pending)

    def _delta(self, ctx: EventContext) -> int:
        return ctx.require("delta", int)

    def _vp_changed(self, state: AmongState, ctx: EventContext) -> AmongState:
        """A correction of the VP track; the score stops at 0 (rulebook 5 'Round end': no score drops below 0)."""
        p = state.player(ctx.player())
        delta = self._delta(ctx)
        if p.vp + delta < 0:  # legal, but visible: the loss stops at 0
            ctx.finding(
                Text("{player} loses {loss} VP with only {vp}; the score stops at 0 ({lost} VP of the loss are not "
                     "taken)", player=p.name, loss=-delta, vp=p.vp, lost=-delta - p.vp),
                p.name, Severity.INFO, N_("rulebook 5 'Round end': score floor, no score drops below 0"))
        return state.with_player(replace(p, vp=max(0, p.vp + delta)))

    def _credits_changed(self, state: AmongState, ctx: EventContext) -> AmongState:
        """A correction of a player's credits, never below 0 (rulebook 4 'The three actions'). The 112 credits in the
        box are no limit (the rulebook never says the Supply runs out): a warning only above
        :data:`rules.among_the_stars.endgame.MAX_CREDITS`, the bound ``companion score among`` keeps."""
        p = state.player(ctx.player())
        delta = self._delta(ctx)
        if p.credits + delta < 0:
            ctx.finding(
                plural("{player} has {credits} credit and cannot lose {loss}: credits never go below 0 (recorded as 0; "
                       "{missing} missing; misread amount?)",
                       "{player} has {credits} credits and cannot lose {loss}: credits never go below 0 "
                       "(recorded as 0; {missing} missing; misread amount?)",
                       p.credits, player=p.name, credits=p.credits, loss=-delta, missing=-delta - p.credits),
                p.name, Severity.WARNING,
                N_("rulebook 4 'The three actions': a player pays only with credits they have"))
        if p.credits + delta > MAX_CREDITS:  # the score file's bound: no game gives that many (a typing slip?)
            ctx.finding(Text("{player} now has {credits} credits, more than {most}: no game gives that many "
                             "(misread amount?)", player=p.name, credits=p.credits + delta, most=MAX_CREDITS),
                        p.name, Severity.WARNING, N_("rulebook 6 'Game end'"), player=p.name)
        return state.with_player(replace(p, credits=max(0, p.credits + delta)))

    def _secret_objective(self, state: AmongState, ctx: EventContext) -> AmongState:
        """A Qualeen player's secret objective (rulebook 'Races', Qualeen: at setup draw 2 extra objectives and keep 1
        secretly; it scores at game end even when tied): one of the objectives not face up on the table. In year 1's
        first round (:data:`SECRET_ROUND`) a second one replaces the first (a slip corrected: the player keeps one);
        after it, the objective in force is kept for good and a change is refused (:data:`SECRET_KEPT`). No finding
        names it (findings are shown to the whole table); a first one entered after year 1's first round is a
        warning naming the round only (chosen at setup: a late one may have been picked knowing who leads what).

        Raises:
            BadEvent: the player does not play the Qualeen, an unknown objective, one face up on the table, or a
                change after year 1's first round.
        """
        cat = self.cat
        p = state.player(ctx.player())
        if p.race != "qualeen":
            raise ctx.bad(Text("only a Qualeen player keeps a secret objective"))
        name = ctx.require("objective", str)
        try:
            obj = cat.objective(name)
        except UnknownCard as exc:
            raise ctx.bad(f"unknown objective {name!r}; did you mean {' or '.join(exc.suggestions) or '?'}") from None
        try:
            check_secret_objective(obj, state.objectives, "objective")
        except ScoreInputError as exc:
            raise ctx.bad(exc.problem) from None
        if p.secret_objective is not None and (state.year, state.round) != SECRET_ROUND:
            raise ctx.bad(Text("{player} has a secret objective in force: {why}", player=p.name,
                               why=Text(SECRET_KEPT)))
        if (state.year, state.round) != SECRET_ROUND:  # kept from the setup: entered later, the table is told
            ctx.finding(Text("{player} entered a secret objective in year {year}, round {round}: a Qualeen keeps one "
                             "from the setup, so it is entered in the first round", player=p.name, year=state.year,
                             round=state.round),
                        p.name, Severity.WARNING, N_("Qualeen race tile"), player=p.name)
        return self._accelerated_secret(state.with_player(replace(p, secret_objective=obj.id, secret_revealed=False)),
                                        ctx)

    def _station_read(self, state: AmongState, ctx: EventContext) -> AmongState:
        """A camera read of a player's station, checked as a whole (findings only; the state keeps the engine's
        station)."""
        p = state.player(ctx.player())
        try:
            station = parse_station(ctx.payload.get("station"), f"event {ctx.event.seq} station", self.cat)
        except ScoreInputError as exc:
            raise BadEvent(str(exc)) from None
        issues = check_station(station, race=p.race, credits=p.credits, aggressive=state.aggressive,
                               others=len(state.players) - 1, cat=self.cat)
        ctx.add(*(issue_finding(i, p.name, ctx.event.seq) for i in issues))
        return state

    # -- round and year -------------------------------------------------------------------------
    def _resolve(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Pending effects on other players, highest VP first, then most credits, then seat order (rulebook 'Player
        order'). A Galactic Research Facility's bids are paid from what each bidder has then
        (:meth:`_bids_paid`)."""
        if not state.pending:
            return state
        rank = {p.name: (-p.vp, -p.credits, k) for k, p in enumerate(state.players)}
        order = sorted(range(len(state.pending)),
                       key=lambda k: (rank.get(state.pending[k].source, (0, 0, len(rank))), k))
        bids = [k for k in order if state.pending[k].what == "bid"]
        paid: dict[int, int] = {}  # a bid's place in ``state.pending`` -> credits paid
        for k in order:
            it = state.pending[k]
            try:
                who = state.player(it.target)
            except KeyError:
                continue  # a virtual player or a name not at the table: nothing to do
            if it.what == "bid":
                paid[k] = min(who.credits, it.delta)
                state = state.with_player(replace(who, credits=who.credits - paid[k], vp=who.vp + paid[k]))
            elif it.what == "vp":
                state = state.with_player(replace(who, vp=max(0, who.vp + it.delta)))
            elif it.transfer_to:
                moved = min(who.credits, -it.delta)
                state = state.with_player(replace(who, credits=who.credits - moved))
                to = state.player(it.transfer_to)
                state = state.with_player(replace(to, credits=to.credits + moved))
            else:
                state = state.with_player(replace(who, credits=max(0, who.credits + it.delta)))
        return self._bids_paid(replace(state, pending=()), [(state.pending[k], paid.get(k, 0)) for k in bids], ctx)

    def _bids_paid(self, state: AmongState, bids: list[tuple[Interaction, int]], ctx: EventContext) -> AmongState:
        """What a Galactic Research Facility's bids came to once paid (``bids``: each bid and the credits paid; card
        text: each other player secretly pays 0-3 credits and gains that many VP; you gain the highest amount paid +
        1). A bidder pays what they have, at most the bid, and gains as many VP as they paid. The builder scored the
        highest bid + 1 when building; where the highest payment falls short of it, the builder keeps the highest
        payment + 1 and loses the rest, and so does the card's VP earned. The rulebook says nothing of a bid larger
        than the bidder's credits; each shortfall is said as a finding citing the card."""
        cat = self.cat
        cited = N_("card text (Galactic Research Facility): you gain the highest amount paid + 1; the rulebook says "
                   "nothing of a bid over the bidder's credits")
        for it, paid in bids:
            if paid < it.delta:
                ctx.finding(Text("{card}: {player} bid {bid} credits and has {paid} at the end of the round: pays "
                                 "{paid}, +{paid} VP", card=cat.card(it.reason).word, player=it.target, bid=it.delta,
                                 paid=paid),
                            it.target, Severity.INFO, cited, player=it.target, card=it.reason)
        for source, cell in dict.fromkeys((it.source, it.cell) for it, _ in bids):
            mine = [(it, paid) for it, paid in bids if (it.source, it.cell) == (source, cell)]
            bid, got = max(it.delta for it, _ in mine), max(paid for _, paid in mine)
            if got >= bid:
                continue
            builder = state.player(source)
            placed = builder.station.at(cell) if cell is not None else None
            station = builder.station
            if placed is not None and placed.vp_earned is not None:
                station = station.replaced(replace(placed, vp_earned=max(0, placed.vp_earned - (bid - got))))
            state = state.with_player(replace(builder, vp=max(0, builder.vp - (bid - got)), station=station))
            ctx.finding(Text("{card}: the highest payment is {paid}, not the {bid} bid: {player} gains {paid} + 1 "
                             "= {vp} VP, {lost} less than scored when it was built",
                             card=cat.card(mine[0][0].reason).word, paid=got, bid=bid, player=source, vp=got + 1,
                             lost=bid - got),
                        source, Severity.INFO, cited, player=source, card=mine[0][0].reason, cell=cell)
        return state

    def _round_ended(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Every player has acted: effects on others resolve, then the next round, or the end of the year."""
        for p in state.players:
            if p.acted != (state.year, state.round):
                ctx.finding(Text("{player} took no action in year {year}, round {round}",
                                 player=p.name, year=state.year, round=state.round), p.name,
                            Severity.WARNING, N_("rulebook 4 'Round overview': every player does one action"))
        state = self._accelerated(self._resolve(state, ctx), ctx)
        if state.round < self.rounds_in_year(state):
            return replace(state, round=state.round + 1)
        return self._year_ended(state, ctx)

    def _accelerated(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Objective Accelerated Construction: the first player alone to reach its VP scores it at once. A Qualeen
        holding it secretly reveals it as soon as it is met (Hungarian FAQ, Qualeen) and scores it even when tied
        (rulebook 'Races', Qualeen)."""
        cat = self.cat
        state = self._accelerated_secret(state, ctx)
        if state.accelerated_done or "accelerated_construction" not in state.objectives:
            return state
        threshold = cat.rules["accelerated_construction_threshold"]
        over = [p for p in state.players if p.vp >= threshold]
        if not over:
            return state
        best = max(p.vp for p in over)
        top = [p for p in over if p.vp == best]
        obj = cat.objectives["accelerated_construction"]
        if len(top) > 1:
            ctx.finding(Text("{objective}: {players} reached {best} VP together; nobody scores it",
                             objective=term("among_the_stars.objective", obj.id), players=Listing(p.name for p in top),
                             best=best),
                        Text("objectives"), Severity.INFO, N_("objective card (Accelerated Construction)"))
            return replace(state, accelerated_done=True)
        winner = replace(top[0], vp=top[0].vp + obj.vp)
        ctx.finding(Text("{objective}: {player} is first to {threshold} VP, +{vp} VP",
                         objective=term("among_the_stars.objective", obj.id), player=winner.name, threshold=threshold,
                         vp=obj.vp), winner.name, Severity.INFO,
                    N_("objective card (Accelerated Construction)"))
        return replace(state.with_player(winner), accelerated_done=True)

    def _accelerated_secret(self, state: AmongState, ctx: EventContext) -> AmongState:
        """A Qualeen's secret Accelerated Construction met (the track at its VP or more): revealed at once (Hungarian
        FAQ, Qualeen: "this one objective is revealed when it is met") and scored, even when another player is as far
        (rulebook 'Races', Qualeen)."""
        cat = self.cat
        obj = cat.objectives["accelerated_construction"]
        threshold = cat.rules["accelerated_construction_threshold"]
        for p in state.players:
            if p.secret_objective == obj.id and not p.secret_revealed and p.vp >= threshold:
                ctx.finding(Text("{objective}: {player} reveals it as their secret objective, met at {threshold} VP, "
                                 "+{vp} VP", objective=term("among_the_stars.objective", obj.id), player=p.name,
                                 threshold=threshold, vp=obj.vp), p.name, Severity.INFO,
                            N_("Qualeen race tile and FAQ"), player=p.name)
                state = state.with_player(replace(p, vp=p.vp + obj.vp, secret_revealed=True))
        return state

    def _year_ended(self, state: AmongState, ctx: EventContext) -> AmongState:
        """Rulebook 5 'Round end': each station corrected; then the next year's income, or the game's end
        (rulebook 6)."""
        cat = self.cat
        for p in state.players:
            fix = correct_station(p.station, p.vp, state.year, exact_order=True, check_credits=False,
                                  race=p.race, aggressive=state.aggressive, cat=cat)
            for placed, cost in fix.removed:
                why = next((i for i in fix.issues if i.cell == placed.cell), None)
                said = dict(year=state.year, card=placed.word, i=placed.cell[0], j=placed.cell[1], vp=cost)
                removed = (Text("end of year {year}: {card} removed from [{i}, {j}], -{vp} VP "
                                "(a face-down Power Reactor fills the gap)", **said) if placed.cell in fix.fillers else
                           Text("end of year {year}: {card} removed from [{i}, {j}], -{vp} VP", **said))
                ctx.add(Finding(
                    removed,
                    p.name, Severity.ERROR, rule_citation(why.rule if why else "round_end"), ctx.event.seq,
                    player=p.name, card=placed.name, cell=tuple(placed.cell),
                    rule_kind=why.rule if why else "round_end"))
            p = replace(p, station=fix.station, vp=fix.vp_after, credits=p.credits + p.escrow, escrow=0)
            state = state.with_player(p)
        if state.year >= cat.rules["years"]:
            final = replace(state, over=True)
            return replace(final, scores=tuple(self._score_now(final)))
        state = replace(state, year=state.year + 1, round=1)
        return replace(state, players=tuple(self._income(p) for p in state.players))

    handlers = {
        LOCATION_BUILT: _build_location,
        REACTOR_BUILT: _build_reactor,
        CARD_DISCARDED: _discard,
        CONFLICT_PLAYED: _conflict,
        ROUND_ENDED: _round_ended,
        VP_CHANGED: _vp_changed,
        CREDITS_CHANGED: _credits_changed,
        STATION_READ: _station_read,
        SECRET_OBJECTIVE_CHOSEN: _secret_objective,
    }

    def scores(self, state: AmongState) -> list[ScoreBreakdown]:
        """Each player's score (rulebook 6 'Game end'): the final scores once the game is over, else
        the table as it stands scored as if it ended now."""
        if state.over:
            return list(state.scores)
        return self._score_now(state)

    def public(self, state: AmongState) -> AmongState:
        """``state`` without a Qualeen's secret objective not yet revealed (rulebook 'Races', Qualeen: kept secretly
        until game end; entered on the player's own phone) until the game is over and scored; once it is, the state
        itself. A secret Accelerated Construction met is revealed at once (Hungarian FAQ) and stays."""
        if state.over or not any(p.secret_objective and not p.secret_revealed for p in state.players):
            return state
        return replace(state, players=tuple(p if p.secret_revealed else replace(p, secret_objective=None)
                                            for p in state.players))

    def progress(self, state: AmongState) -> Progress:
        """Year and round (rulebook 4 'Round overview': 4 years of 6 rounds, 7 in years 2-4 of the
        aggressive mode); the stage is ``"actions"`` (every player does one action, then the round
        ends) or ``"over"``; the players who have not acted this round are waited for."""
        years = self.cat.rules["years"]
        rounds = self.rounds_in_year(state)
        last = not state.over and state.year == years and state.round == rounds
        return Progress(
            round=state.round, round_label=Text("Year {year} of {years}, round {round} of {rounds}",
                                                year=state.year, years=years, round=state.round, rounds=rounds),
            stage="over" if state.over else "actions", last_round=last,
            ending=(Text("round {round} of year {year} is the last round",
                         round=rounds, year=years),) if last else (), over=state.over,
            rounds=rounds,
            waiting=() if state.over else tuple(p.name for p in state.players if p.acted != (state.year, state.round)),
        )

    def _score_now(self, state: AmongState) -> list[ScoreBreakdown]:
        """The table scored as it stands (rulebook 6)."""
        cat = self.cat
        position = Position(
            [PlayerPosition(p.name, p.race, p.credits, p.vp, p.station,
                            cat.objectives[p.secret_objective] if p.secret_objective else None, p.secret_revealed)
             for p in state.players],
            [cat.objectives[o] for o in state.objectives], state.aggressive,
        )
        return score_position(position, cat)

    def view(self, state: AmongState) -> dict[str, Any]:
        """``{"game", "year", "round", "rounds", "pass_direction", "seats", "players": [...], "objectives",
        "aggressive", "pending", "reminders", "over", "scores"}``; each player's ``energy_reach`` lists, for each free
        place next to their station, the reactors holding cubes that can pay a location's energy there, nearest first
        (:func:`rules.among_the_stars.legality.energy_reach`)."""
        cat = self.cat
        two = len(state.players) == 2
        reminders = [RACE_REMINDERS[p.race] for p in state.players if p.race in RACE_REMINDERS]
        wanted = objectives_dealt(len(state.players))
        if state.objectives and len(state.objectives) != wanted:
            reminders.append(Text("setup: {wanted} objectives are dealt for {players} players; {count} are in play",
                                  wanted=wanted, players=len(state.players), count=len(state.objectives)))
        if two:
            reminders.append(Text(_VIRTUAL[self.pass_direction(state.year)],
                                  count=cat.rules['virtual_discard_per_round']))
        return {
            "game": self.name,
            "year": state.year,
            "round": state.round,
            "rounds": self.rounds_in_year(state),
            "pass_direction": self.pass_direction(state.year),
            "seats": self.seats(state),
            "players": [
                {"name": p.name, "race": p.race, "credits": p.credits, "vp": p.vp, "escrow": p.escrow,
                 "station": p.station.to_json(), "locations": p.station.non_reactor_locations(),
                 "energy_reach": [{"cell": list(c), "reactors": [
                     {"card": r.name, "cell": list(r.cell), "cubes": r.cubes} for r in sources]}
                     for c, sources in energy_reach(p.station, cat.rules["energy_range"]).items()]}
                for p in state.players
            ],
            "objectives": [cat.objectives[o].name for o in state.objectives],
            "aggressive": state.aggressive,
            "reactors_left": state.reactors_left,
            "pending": [{"target": i.target, "what": i.what, "delta": i.delta,
                         "reason": i.reason} for i in state.pending],
            "reminders": reminders,
            "over": state.over,
            "scores": [b.to_json() for b in state.scores],
        }


AMONG_GAME = AmongTheStarsGame()
