"""Eclipse's reports as the engine's events (:mod:`companion.flows.eclipse`): a phone's form and values as a
``rules.eclipse.events`` kind and payload, a starting sector reported again as a correction, the end position's
payload back as its form's counts, and the refusals said before anything is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BadEntry
from companion.flows.eclipse_forms import SPECIES_FIELDS, TILE_STRUCTURES, _at, _player, _word
from companion.flows.eclipse_map import refuse_taken_space
from companion.flows.eclipse_position import position_payload, position_values
from companion.i18n import Text
from rules import Event
from rules.eclipse.combat import DAMAGE
from rules.eclipse.data import SHIP_TYPES, UnknownSector, catalogue
from rules.eclipse.fleet import MISSILE_COLOURS


class EclipseReports:
    """The reports part of :class:`companion.flows.eclipse.EclipseFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """A starting sector reported again by the same player corrects their earlier one (Eclipse, Setup: each player
        lays one starting sector): the newest report replaces it, its findings with it. An Ancient Homeworld (Rise of
        the Ancients p.8: on an empty start position, no player's) and every other report: None."""
        if form != "home" or not isinstance(values, Mapping) or not _starting_sector(values.get("sector")):
            return None
        for event in reversed(events):
            if event.kind == "hex_placed" and event.player == player and _starting_sector(event.payload.get("sector")):
                return event.seq
        return None

    # a flat table of the phones' forms, one short form -> event mapping each, read top to bottom
    def report_event(self, form: str, values: dict[str, Any], player: str,  # noqa: C901
                     view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """Form -> event (``rules.eclipse.events`` kinds); an action that says what it did on the map carries it
        (one report: ``action_taken`` with the hex, the disc, the step or the structure)."""
        if form in ("home", "explore"):
            refuse_taken_space(form, values["hex"], view, player,
                               form == "home" and _starting_sector(values.get("sector")))
        if form == "home":
            return "hex_placed", {"sector": str(values["sector"]).split(" ")[0], **_at(values["hex"]),
                                  "rotation": values["rotation"]}
        if form == "explore":
            sector = str(values["sector"]).split(" ")[0]
            payload: dict[str, Any] = {"action": "explore", "sector": sector, **_at(values["hex"]),
                                       "rotation": values["rotation"]}
            if values.get("from"):
                payload["from"] = _at(values["from"])
            return "action_taken", payload
        if form == "influence":
            payload = {"action": "influence"}
            if values.get("hex"):
                payload.update(_at(values["hex"]))
                if values.get("from"):
                    payload["from"] = _at(values["from"])
            return "action_taken", payload
        if form == "research":
            return "action_taken", {"action": "research", **({"tech": values["tech"]} if values.get("tech") else {})}
        if form == "upgrade":
            return "action_taken", {"action": "upgrade"}
        if form == "build":
            what = values["what"]
            if what in SHIP_TYPES:
                return "action_taken", {"action": "build", "ship": what}
            if not values.get("hex"):
                raise BadEntry(Text("Build: on which hex [q, r] is the {structure}?", structure=_word(what)))
            return "action_taken", {"action": "build", "structure": what.lower(), **_at(values["hex"])}
        if form == "move":
            if bool(values.get("from")) != bool(values.get("to")):
                raise BadEntry(Text("Move: give both hexes of the step (from and to), or neither"))
            if values.get("jump") == "yes" and not values.get("from"):  # p.8: the jump is a step; kept, not dropped
                raise BadEntry(Text("Move: a jump is a step to a neighbouring hex: give its hexes (from and to), or "
                                    "leave the jump blank"))
            payload = {"action": "move"}
            if values.get("from"):
                payload.update({"from": _at(values["from"]), "to": _at(values["to"])})
            if values.get("ship"):
                payload["ship"] = values["ship"]
            if values.get("jump") == "yes":
                payload["jump"] = True
            return "action_taken", payload
        if form == "step":
            if values.get("carried") == "yes" and values.get("again") == "yes":  # RotA p.4: a rider is no activation
                raise BadEntry(Text("Move: an Interceptor riding in an Interceptor Bay starts no activation: answer "
                                    "yes to riding in the Bay or to another activation of the same ship, not both "
                                    "(Rise of the Ancients p.4)"))
            step = {"from": _at(values["from"]), "to": _at(values["to"])}
            if values.get("ship"):
                step["ship"] = values["ship"]
            if values.get("jump") == "yes":
                step["jump"] = True
            if values.get("again") == "yes":  # p.8's example: one ship's second activation in the same Move
                step["again"] = True
            if values.get("carried") == "yes":  # RotA p.4: an Interceptor in an Interceptor Bay, no activation
                step["carried"] = True
            return "ship_moved", step
        if form == "pass":
            return "passed", {}
        if form == "relations":
            return "relations_formed", {"with": values["with"]}
        if form == "attack":
            return "relations_broken", {"with": values["with"]}
        if form == "alliance_found":
            return "alliance_founded", {"alliance": values["alliance"], "with": values["with"]}
        if form == "alliance_join":
            return "alliance_joined", {"alliance": values["alliance"]}
        if form == "alliance_leave":
            return "alliance_left", {"traitor_card": values.get("traitor_card") == "yes"}
        if form == "blueprint":
            return "blueprint_set", _blueprint(values)
        if form == "volley":
            return _volley(values)
        if form == "ancients":
            guardian = values["what"] == "Guardian"
            payload = {**_at(values["hex"]), "guardian": guardian}
            if not guardian:
                payload["count"] = values.get("count") or 1
            return "ancients_destroyed", payload
        if form == "disc":
            return "influence_placed", _at(values["hex"])
        if form == "disc_back":
            return "influence_removed", _at(values["hex"])
        if form == "structure":
            payload = {"structure": TILE_STRUCTURES[values["tile"]], **_at(values["hex"])}
            if values["tile"] == "Shrine":
                if not values.get("colour"):
                    raise BadEntry(Text("Tile laid: a Shrine's colour (money, science or materials) is missing"))
                payload["colour"] = values["colour"]
                if values.get("cost"):
                    payload["cost"] = int(values["cost"])
            return "structure_built", payload
        if form == "direction":
            return "direction_chosen", {"direction": values["direction"]}
        if form == "hive":
            payload = {**_at(values["hive"]), "die": values["die"]}
            if values.get("to"):
                payload["to"] = _at(values["to"])
            return "hive_rolled", payload
        if form == "position":
            _species_fields(values, player, view)
            return "position_reported", position_payload(values)
        raise BadEntry(Text("unknown report {form!r}", form=form))

    def entry_values(self, form: str, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        """The final position's payload as its form's counts (:func:`position_values`); other forms: nothing."""
        return position_values(payload) if form == "position" else {}


def _blueprint(values: Mapping[str, Any]) -> dict[str, Any]:
    """The blueprint form's values as ``blueprint_set``'s payload."""
    out: dict[str, Any] = {"ship": values["ship"]}
    for key in ("computers", "shields", "hull", "initiative", "movement"):
        if values.get(key) is not None:
            out[key] = values[key]
    if values.get("jump_drive"):
        out["jump_drive"] = values["jump_drive"] == "yes"
    out["cannons"] = {c: values[f"{c}_cannons"] for c in DAMAGE if values.get(f"{c}_cannons")}
    out["missiles"] = {c: values[f"{c}_missiles"] for c in MISSILE_COLOURS if values.get(f"{c}_missiles")}
    return out


def _volley(values: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``volley_rolled`` when faces were tapped in, else ``volley_aimed`` (the camera reads the dice)."""
    aim: dict[str, Any] = {"ship": values["ship"]}
    for key in ("target", "target_ship", "computers", "shields"):
        if values.get(key) is not None:
            aim[key] = values[key]
    if values.get("missiles"):
        aim["missiles"] = values["missiles"] == "yes"
    dice = [{"colour": c, "face": face} for c in DAMAGE for face in (values.get(c) or ())]
    if not dice:
        return "volley_aimed", aim
    rolled: dict[str, Any] = {"dice": dice}
    for key in ("ship", "target", "target_ship", "computers", "shields", "missiles"):
        if key in aim:
            rolled[key] = aim[key]
    return "volley_rolled", rolled


def _species_fields(values: Mapping[str, Any], player: str, view: Mapping[str, Any]) -> None:
    """Refuses a count above 0 in a field of the final position that only another species scores
    (:data:`SPECIES_FIELDS`; Rise of the Ancients p.14): Orbitals holding cubes count for the Exiles alone, Discoveries
    discarded or used as parts for Magellan alone. A blank or 0 is taken.

    Raises:
        BadEntry: naming the field, the species that scores it and ``player``'s species (or that none was noted at
            setup); nothing is recorded.
    """
    theirs = _player(view, player).get("species")
    for name, (species, label, _most) in SPECIES_FIELDS.items():
        if values.get(name) and theirs != species:
            if theirs:
                raise BadEntry(Text("Final position: {field}: only {species} players score it (Rise of the Ancients "
                                    "p.14); {player} plays {theirs}: leave it blank or 0",
                                    field=label, species=species, player=player, theirs=theirs))
            raise BadEntry(Text("Final position: {field}: only {species} players score it (Rise of the Ancients "
                                "p.14); {player} has no species noted at setup: leave it blank or 0",
                                field=label, species=species, player=player))



def _starting_sector(sector: Any) -> bool:
    """Whether ``sector`` (a tile's number, or its label "221 Procyon" as a phone sends it) is a player's starting
    sector (not an Ancient Homeworld)."""
    if not isinstance(sector, str) or not sector.split():
        return False
    try:
        return catalogue().sector(sector.split()[0]).kind == "starting_sector"
    except UnknownSector:
        return False

