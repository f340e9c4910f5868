"""Roll for the Galaxy's reports as the engine's events (:mod:`companion.flows.roll`): a phone's form and values as a
``rules.roll.game`` kind and payload, a setup reported again as a correction (p.2 Setup), VP chips in V Ship as the
phase's total (p.7 Ship), and a dice count refused before anything is recorded when it holds more dice of a colour
than the box (p.1 Components, p.8 Victory).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BadEntry
from companion.flows.roll_forms import _ship_vp
from companion.flows.roll_names import _SHIP, _faction_label
from companion.flows.roll_remove import removed_event
from companion.i18n import N_, Text
from rules import Event
from rules.roll.data import COLOURS, catalogue
from rules.roll.dice import Dice
from rules.roll.words import colour_word


def _held_elsewhere(view: Mapping[str, Any], player: str, place: str) -> Dice:
    """The dice ``player`` has now in the count's other place (``place`` is ``"cup"`` or ``"citizenry"``, as the
    phone's form counts them), as the engine holds them: reported by an earlier count, else followed from the
    reports. The cup holds any dice left on the phase strip or in the Dictate area (the strip is empty at scoring,
    p.8 Victory); the citizenry is counted with the construction zone's workers."""
    me = next((p for p in view.get("players", ()) if p.get("name") == player), {})
    if place == "citizenry":
        held = Dice.of(me.get("cup")) + Dice.of(me.get("dictate"))
        for column in (me.get("columns") or {}).values():
            held = held + Dice.of(column)
        return held
    zone = me.get("construction_zone") or {}
    return (Dice.of(me.get("citizenry")) + Dice.of(zone.get("development_workers"))
            + Dice.of(zone.get("world_workers")))


def _check_box_dice(place: str, counted: Mapping[str, int], elsewhere: Dice) -> None:
    """Refuse a phone's dice count whose cup and citizenry together hold more dice of a colour than the game has.

    Args:
        place: ``"cup"`` or ``"citizenry"`` (the citizenry with the construction zone), the place counted now.
        counted: ``{colour: n}``, the dice counted there.
        elsewhere: the player's dice now in the other place (:func:`_held_elsewhere`).

    The limit is the box's dice of each colour (rulebook p.1 Components; the digest's §2 Dice table and
    ``rules/data/roll/dice.json``: 25 white, 22 red, 9 purple, 20 blue, 14 brown, 12 green, 9 yellow), not a
    per-player limit: a player's dice come from the setup's white dice, their faction tile and home world (p.2
    Setup) and whatever their tiles take from the shared supply later, so no smaller number per player is knowable
    from the rules.

    Raises:
        BadEntry: "purple: 9 in the cup and 9 in the citizenry is 18; the game has 9", for the first colour over.
    """
    dice = catalogue().dice
    for colour in COLOURS:
        if colour not in dice:
            continue
        here, there = counted.get(colour, 0), elsewhere[colour]
        cup, citizenry = (here, there) if place == "cup" else (there, here)
        if cup + citizenry > dice[colour].count:
            raise BadEntry(Text("{colour}: {cup} in the cup and {citizenry} in the citizenry is {total}; the game has "
                                "{box}", colour=colour_word(colour), cup=cup, citizenry=citizenry,
                                total=cup + citizenry, box=dice[colour].count))

def _ship_counted(view: Mapping[str, Any], player: str) -> int:
    """The VP in chips counted for ``player`` in this Ship phase so far: what their shipments paid and what they
    reported are the same chips as far as they go (p.7 Ship; :func:`rules.roll.moves.take_ship_vp`), so the larger
    of the two (:func:`_ship_vp`)."""
    return max(_ship_vp(view, player))


def _vp_beyond(view: Mapping[str, Any], player: str, said: int) -> int:
    """The ``delta`` of a VP chips report of ``said`` chips (1 or more) by ``player``: outside the Ship phase the
    chips taken now, ``said``; in V Ship the phase's total, those its Consumes paid included (p.7 Ship: a shipper that
    consumes a good gives 1-3 VP chips, which the player takes from the pool as it is shipped), so the chips already
    reported in the phase are taken off: the rules count the reports of one Ship phase and its shipments' pay
    against each other (:func:`rules.roll.moves.take_ship_vp`).

    Worked by hand: Ann's Consume paid 3 VP; she took 30 more from a power and reports 33: delta 33, taken
    max(3, 33) - 3 = 30 more. A later report of 35 in the same phase: delta 35 - 33 = 2.

    Raises:
        BadEntry: in V Ship, ``said`` not more than the chips counted for the player so far (:func:`_ship_counted`),
            unless it is exactly what their shipments paid beyond their reports (the Consume's chips reported too,
            counted once), naming both numbers: "VP chips taken: 30 is not more than the 33 VP in chips already
            counted for you in V Ship; there the number is the phase's total ...". Nothing is recorded.
    """
    if view.get("stage") != "ship":
        return said
    paid, reported = _ship_vp(view, player)
    counted = max(paid, reported)
    if said < counted or said <= reported:
        raise BadEntry(Text("{form}: {said} is not more than the {counted} VP in chips already counted for you in "
                            "{phase}; there the number is the phase's total, the chips of the goods you consumed "
                            "included: report {counted} + the chips you took besides (p.7 Ship)",
                            form=Text("VP chips taken"), said=said, counted=counted, phase=_SHIP))
    return said - reported


class RollReports:
    """The reports part of :class:`companion.flows.roll.RollFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """A setup reported again by the same player corrects their earlier one (p.2 Setup: each player takes one
        faction tile, one home world and two tiles): the newest report replaces it, its findings with it, so a slip
        put right no longer shows as an error nor as a second setup. Every other report: None."""
        if form != "setup":
            return None
        return next((e.seq for e in reversed(events) if e.kind == "player_setup" and e.player == player), None)
    def report_event(
        self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.roll.game`` kinds)."""
        if form == "setup":
            faction = next(f.number for f in catalogue().factions if _faction_label(f) == values["faction"])
            return "player_setup", {"faction": faction, "home_world": values["home_world"],
                                    "development": values["development"], "world": values["world"]}
        if form == "select":
            payload = {"phase": values["phase"]}
            if values.get("extra_white"):
                payload["extra_white"] = values["extra_white"]
            return "phase_selected", payload
        if form == "tile":
            return "tile_built", {"tile": values["tile"]}
        if form == "good":
            return "goods_placed", {"world": values["world"], "colour": values["colour"]}
        if form == "ship":
            return "goods_shipped", dict(values)
        if form == "vp":
            delta = _vp_beyond(view, player, values["vp"])
            return "vp_changed", {"delta": delta, "reason": N_("reported on the phone")}
        if form == "credits":
            return "credits_changed", {"credits": values["credits"], "reason": N_("reported on the phone")}
        if form == "remove":
            return removed_event(values, player, view)
        if form == "count":  # a colour left blank: none of it there
            counted = {c: values[c] for c in COLOURS if values.get(c)}
            _check_box_dice(values["place"], counted, _held_elsewhere(view, player, values["place"]))
            return "dice_counted", {values["place"]: counted}
        raise BadEntry(Text("unknown report {form!r}", form=form))
