"""Roll for the Galaxy: the table moves every phase shares and the checks on them.

Credits (capped at $10, p.4), VP chips from the pool (p.7 Ship), workers leaving a phase column
(p.4), dice gained or removed (p.2, p.6, p.11 FAQ), and the checks that a reported die is one the
player has (p.3) with a face its colour has (p.12). The reports ``vp_changed`` and
``credits_changed`` (any time in the game) are handled here too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rules.core import Severity
from rules.engine import EventContext
from rules.refusals import not_one_of, wrong_kind
from rules.roll.data import COLOURS, PHASES, Catalogue, World
from rules.roll.dice import Dice
from rules.roll.endgame import MAX_CREDITS
from rules.roll.events import DICE_FROM, read_colour, read_player
from rules.roll.state import PlayerState, RollState, Stage
from rules.roll.words import colour_word, face_word, phase_word, place_word, stage_word
from rules.text import N_, Text

if TYPE_CHECKING:
    from rules.roll.game import RollGame

__all__ = [
    "SHIP_CHIPS_RULE", "alone_most", "alone_most_blue", "check_face", "check_owned", "check_stage", "credit",
    "gain_dice", "on_credits_changed", "on_vp_changed", "owns_all_top_worlds", "remove_die", "ship_phase", "take_any",
    "take_from", "take_ship_vp", "take_vp", "use_worker",
]


def check_face(ctx: EventContext, cat: Catalogue, player: str, colour: str, face: str) -> None:
    """Every die of a colour has the same six faces (Roll for the Galaxy, p.12 'Dice faces and
    distribution'; the faces themselves: digest section 2, in dice.json). One finding per
    impossible colour+face pair in an event, however many dice show it."""
    if face in cat.dice[colour].faces:
        return
    what = Text("a {colour} die has no {face} face (probably a misread colour)",
                colour=colour_word(colour), face=face_word(face))
    if any(f.what == what and f.where == player for f in ctx.findings):
        return
    ctx.finding(what, player, Severity.WARNING, N_("p.12 Dice faces and distribution"))


def check_owned(ctx: EventContext, p: PlayerState, reported: Dice, have: Dice, where: str, section: str) -> None:
    for colour in COLOURS:
        if reported[colour] > have[colour]:
            ctx.finding(
                Text("{reported} {colour} dice reported for {player}, but {player} has only {have} {where} ({owned} "
                     "{colour} owned in all)",
                     reported=reported[colour], colour=colour_word(colour), player=p.name, have=have[colour],
                     where=where,
                     owned=p.owned_dice[colour]),
                p.name,
                Severity.ERROR,
                section,
            )


def check_stage(ctx: EventContext, state: RollState, stage: Stage, player: str, what: str, section: str) -> None:
    """``what`` belongs to ``stage`` (and, for a phase, to a phase selected this round: p.4 Phases)."""
    if state.stage != stage:
        ctx.finding(Text("{what} reported during {stage}, not {expected}",
                         what=what, stage=stage_word(state.stage), expected=stage_word(stage)), player,
                    Severity.WARNING, section)
    elif stage.value in PHASES and stage.value not in state.selected:
        ctx.finding(Text("{what}: {phase} was not selected this round",
                         what=what, phase=stage_word(stage)), player, Severity.ERROR, N_("p.4 Phases"))


def credit(ctx: EventContext, p: PlayerState, amount: int, source: str) -> PlayerState:
    """Add credits, capped at $10: anything over is lost (Roll for the Galaxy, p.4 Phases)."""
    total = p.credits + amount
    if total > MAX_CREDITS:
        ctx.finding(
            Text("{player} reaches ${total} with {source}; credits stop at $10 and ${lost} is lost",
                 player=p.name, total=total, source=source, lost=total - MAX_CREDITS),
            p.name,
            Severity.INFO,
            N_("p.4 Phases: nobody can pass $10"),
        )
    return replace(p, credits=max(0, min(MAX_CREDITS, total)))


def take_vp(state: RollState, name: str, vp: int, source: str, ctx: EventContext) -> RollState:
    """VP chips from the pool; then from the 10 set aside (Roll for the Galaxy, p.7 Ship)."""
    from_pool = min(vp, state.vp_pool)
    rest = vp - from_pool
    from_reserve = min(rest, state.vp_reserve)
    if rest > from_reserve:
        ctx.finding(
            Text("the VP chips ran out: {vp} VP for {player} ({source}) taken from the box",
                 vp=rest - from_reserve, player=name, source=source),
            name,
            Severity.INFO,
            N_("p.7 Ship"),
        )
    p = state.player(name)
    return replace(
        state.with_player(replace(p, vp_chips=p.vp_chips + vp)),
        vp_pool=state.vp_pool - from_pool,
        vp_reserve=state.vp_reserve - from_reserve,
    )


SHIP_CHIPS_RULE = N_("p.7 Ship: a shipper that consumes a good gives VP chips")
"""The rule cited wherever the box reckons a Ship phase's VP chips (Roll for the Galaxy, p.7 Ship)."""


def ship_phase() -> Text:
    """The Ship phase as the table names it in a message: "V Ship" (Roll for the Galaxy, p.7)."""
    return Text("{number} {phase}", number="V", phase=phase_word("ship"))


def take_ship_vp(state: RollState, name: str, vp: int, source: str, ctx: EventContext, *, reported: bool) -> RollState:
    """VP chips of the Ship phase, counted once however the table reports them (Roll for the Galaxy, p.7 Ship).

    A Consume (or a Galactic Bankers trade) pays its VP chips as the box reckons them from the shipment's report;
    the player, who takes those chips from the pool as the shipper consumes, may report them on the phone as well,
    before or after the shipment. In one Ship phase a player's reported chips and the VP their shipments paid are
    the same chips as far as they go: only what one side has beyond the other is taken from the pool. A report is
    the phase's total so far; a shipment reported after it is counted within it, and the table is told the total to
    report if the report did not hold the shipment's chips (a power's chips reported first: 5 reported, then a
    Consume paying 2, counts 5 and says "report ... 7"), so whatever the order no chip is lost or counted twice.

    Args:
        state: the game in its Ship phase (elsewhere ``vp`` is simply taken, :func:`take_vp`).
        name: the player.
        vp: VP in chips, 1 or more: reported (``reported=True``, ``vp_changed``) or paid by a shipment.
        source: why, as the VP line says it.
        ctx: the report's context; an INFO finding tells the table what was counted once.
        reported: whether ``vp`` is the player's chips report rather than a shipment's pay.
    """
    if state.stage is not Stage.SHIP:
        return take_vp(state, name, vp, source, ctx)
    p = state.player(name)
    paid, chips = p.ship_paid + (0 if reported else vp), p.ship_chips + (vp if reported else 0)
    once = min(paid, chips) - min(p.ship_paid, p.ship_chips)
    state = state.with_player(replace(p, ship_paid=paid, ship_chips=chips))
    if once and not reported:  # a shipment after a report: the player may have reported other chips (a power's)
        # if none of this shipment's chips were among those reported, the phase's total is the reported total (every
        # chip of the phase so far) and this shipment's whole pay: reported 1, a Consume of 2 -> 3
        if once == vp:
            text = Text("{player}: the {vp} VP in chips a good consumed paid in {phase} are counted within the "
                        "{reported} VP in chips reported before it; if they were not among those, report the "
                        "phase's total in VP chips taken: {total}", player=name, vp=once, reported=chips,
                        phase=ship_phase(), total=chips + vp)
        else:  # the Consume paid more than the report still held: some of its chips are taken now
            text = Text("{player}: a good consumed in {phase} paid {paid} VP in chips: {vp} counted within the "
                        "{reported} VP in chips reported before it, {more} taken now; if none of them were among "
                        "those, report the phase's total in VP chips taken: {total}", player=name, paid=vp, vp=once,
                        reported=chips, more=vp - once, phase=ship_phase(), total=chips + vp)
        ctx.finding(text, name, Severity.INFO, SHIP_CHIPS_RULE)
    elif once:
        ctx.finding(Text("{player}: {vp} VP in chips both reported and paid by a shipment in {phase}, counted once",
                         player=name, vp=once, phase=ship_phase()),
                    name, Severity.INFO, SHIP_CHIPS_RULE)
    return take_vp(state, name, vp - once, source, ctx) if vp > once else state


def gain_dice(p: PlayerState, world: World) -> PlayerState:
    """A world's dice: to the Citizenry, the cup, or as a good on that world (Roll for the Galaxy, p.2, p.6)."""
    for colour, to in world.effect.gain_dice:
        if to == "citizenry":
            p = replace(p, citizenry=p.citizenry.add(colour))
        elif to == "cup":
            p = replace(p, cup=p.cup.add(colour))
        else:
            p = p.with_goods(world.name, p.goods_on(world.name) + (colour,))
    return p


REMOVAL_OWED = "removal_owed"
"""The ``rule_kind`` of the note asking which die a tile built removes ("say which (Die removed)"): it holds while the
tile's removal is owed, and :meth:`rules.roll.game.RollGame.settled` says when it no longer is."""


def remove_die(ctx: EventContext, p: PlayerState, source: str) -> PlayerState:
    """'Remove a die': any one of the player's dice, from anywhere, back to the supply (Roll for the Galaxy, p.11
    FAQ)."""
    spec = ctx.payload.get("remove")
    if not isinstance(spec, Mapping):  # owed until a die_removed says which (the phone's Die removed)
        ctx.finding(
            Text("{source}: {player} removes one of their dice; say which (Die removed)", source=source,
                 player=p.name),
            p.name,
            Severity.INFO,
            N_("p.11 FAQ Immediate effects"),
            player=p.name,
            card=source,
            rule_kind=REMOVAL_OWED,
        )
        return replace(p, removals_owed=p.removals_owed + (source,))
    colour = read_colour(ctx, spec.get("colour"))
    place = spec.get("from", "citizenry")
    if place not in DICE_FROM:
        raise not_one_of(ctx, place, Text("Removed from"), {k: place_word(k) for k in DICE_FROM})
    one = Dice.of({colour: 1})
    if place == "goods":
        for world, cs in p.goods:
            if colour in cs:
                left = list(cs)
                left.remove(colour)
                return p.with_goods(world, tuple(left))
    elif place in PHASES:
        if p.column(place)[colour]:
            return p.with_column(place, p.column(place) - one)
    else:
        attr = str({"development": "dev_workers", "world": "world_workers"}.get(place, place))
        if getattr(p, attr)[colour]:
            return replace(p, **{attr: getattr(p, attr) - one})
    ctx.finding(
        Text("{player} has no {colour} die in {place} to remove",
             player=p.name, colour=colour_word(colour), place=place_word(place)), p.name, Severity.ERROR,
             N_("p.11 FAQ Immediate effects")
    )
    return p


def use_worker(
    ctx: EventContext, p: PlayerState, phase: str, colour: str, power: Any, to_citizenry: bool = True,
    tableau_only: bool = False,
) -> PlayerState:
    """A worker of ``colour`` from the phase's column acts; it goes to the Citizenry (Roll for the Galaxy, p.4).

    An extra worker granted by a power (``power``: e.g. Space Docks) uses no die. With
    ``"tracking": "tableau"`` (``tableau_only``) no die is followed, so nothing moves."""
    if tableau_only:
        return p
    if power:
        if power not in p.developments:
            ctx.finding(Text("{player} has no {power} for an extra worker",
                             player=p.name, power=power), p.name, Severity.ERROR, N_("p.6"))
        return p
    col = p.column(phase)
    if col[colour]:
        p = p.with_column(phase, col.add(colour, -1))
    else:
        ctx.finding(Text("{player} has no {colour} worker left in the {phase} column",
                         player=p.name, colour=colour_word(colour), phase=phase_word(phase)), p.name, Severity.ERROR,
                    N_("p.4 Phases"))
        if not p.cup[colour]:
            return p  # nothing to move: the die is not counted twice
        p = replace(p, cup=p.cup.add(colour, -1))  # most likely a worker the report missed
    return replace(p, citizenry=p.citizenry.add(colour)) if to_citizenry else p


def take_from(have: Dice, want: Dice) -> Dice:
    """The part of ``want`` that ``have`` holds, colour by colour."""
    return Dice(tuple(min(a, b) for a, b in zip(have.counts, want.counts, strict=True)))


def take_any(have: Dice, n: int) -> Dice:
    """``n`` dice from ``have`` (colours in ``COLOURS`` order), when the report names no colours."""
    out = []
    for count in have.counts:
        take = min(count, n)
        out.append(take)
        n -= take
    return Dice(tuple(out))


def alone_most(state: RollState, p: PlayerState, measure) -> bool:
    mine = measure(p)
    return mine > 0 and all(measure(q) < mine for q in state.players if q.name != p.name)


def alone_most_blue(state: RollState, p: PlayerState, cat: Catalogue) -> bool:
    """Mad Scientists: alone with the most blue worlds (nobody having one is not a tie, p.11 FAQ)."""
    return alone_most(state, p, lambda q: sum(1 for w in q.worlds if cat.worlds[w].colour == "blue"))


def owns_all_top_worlds(state: RollState, p: PlayerState, cat: Catalogue) -> bool:
    """Space Tourism: the highest printed-cost world(s) across all tableaus are all the player's (Roll for the
    Galaxy, p.11 FAQ)."""
    everyone = [(cat.worlds[w].cost, q.name) for q in state.players for w in q.worlds]
    if not everyone:
        return False
    top = max(c for c, _ in everyone)
    return all(name == p.name for c, name in everyone if c == top)


def on_vp_changed(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """VP chips from the pool (``delta``: 1 or more); when the original pool runs out the 10 set-aside VP
    are added and the game ends after this round (Roll for the Galaxy, p.7 Ship). In a Ship phase, the chips the
    player's shipments already paid are not taken twice (:func:`take_ship_vp`)."""
    p = read_player(state, ctx)
    vp = ctx.count("delta", minimum=1)
    # In Ship, chips a shipment paid are not taken again; whether a good paid the rest is asked once the phase's
    # reports are in (rules.roll.phases)
    return take_ship_vp(state, p.name, vp, _reason(ctx), ctx, reported=True)


def on_credits_changed(game: RollGame, state: RollState, ctx: EventContext) -> RollState:
    """Credits run $0-$10; anything over $10 is lost (Roll for the Galaxy, p.4 Phases)."""
    p = read_player(state, ctx)
    if "credits" in ctx.payload:
        value = ctx.payload["credits"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise wrong_kind(ctx, value, ctx.word("credits"), int)
        if value > MAX_CREDITS:
            ctx.finding(
                Text("{player}'s credits reported as ${value}; credits never pass $10 (set to $10)",
                     player=p.name, value=value),
                p.name,
                Severity.ERROR,
                N_("p.4 Phases: nobody can pass $10"),
            )
        if value < 0:
            ctx.finding(
                Text("{player}'s credits reported as ${value}; credits run $0-$10 (set to $0)",
                     player=p.name, value=value),
                p.name,
                Severity.ERROR,
                N_("p.8 Manage Empire"),
            )
        return state.with_player(replace(p, credits=min(MAX_CREDITS, max(0, value))))
    delta = ctx.require("delta")
    if not isinstance(delta, int) or isinstance(delta, bool):
        raise wrong_kind(ctx, delta, ctx.word("delta"), int)
    if p.credits + delta < 0:
        ctx.finding(Text("{player} cannot pay ${cost} with ${credits}",
                         player=p.name, cost=-delta, credits=p.credits), p.name, Severity.ERROR,
                    N_("p.8 Manage Empire"))
        return state.with_player(replace(p, credits=0))
    return state.with_player(credit(ctx, p, delta, _reason(ctx)))


def _reason(ctx: EventContext) -> str:
    """Why VP or credits changed: the report's ``reason`` (said in the player's language when it is a message of the
    box's catalog, e.g. "reported on the phone"), else "reported"."""
    reason = ctx.payload.get("reason")
    return Text(str(reason)) if reason else Text("reported")
