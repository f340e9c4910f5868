"""Eclipse's report forms as the phones get them (:mod:`companion.flows.eclipse`): the forms and their fields, which
are open to a player now, the choices the table leaves them and why a form is closed. The fields' words (dice colours,
storage, track tiles, the species' own fields) and the small field builders the reports share live here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.flow_spec import Field, Form
from companion.flows.eclipse_turns import may_step, passed_already, turn_closed_why, waits_for_marker
from companion.i18n import N_, Text
from rules import Progress
from rules.eclipse.combat import DAMAGE
from rules.eclipse.data import (
    ALLIANCE_NAMES,
    DEVELOPMENTS,
    RARE_TECHNOLOGIES,
    RESOURCES,
    SHIP_TYPES,
    TECH_TRACKS,
    catalogue,
)
from rules.eclipse.diplomacy import DIPLOMACY_MIN_PLAYERS
from rules.eclipse.endgame import REPUTATION_SLOTS_MOST
from rules.eclipse.fleet import ANCIENTS, MISSILE_COLOURS
from rules.eclipse.mapcheck import GENERATOR_TECHS
from rules.eclipse.rounds import ACTIONS, REACTIONS
from rules.eclipse.words import (
    ANCIENTS_WORD,
    CANNON_WORDS,
    MISSILE_WORDS,
    PART_WORDS,
    RESOURCE_WORDS,
    SHIP_WORDS,
    component_word,
    structure_word,
)

MAP_REACH = 5
"""How far from the Galactic Center a hex position may be reported (rings; the 9-player map reaches ring IV)."""
YES_NO = ("yes", "no")
DIE_KIND = {"yellow": "ion", "orange": "plasma", "red": "antimatter"}
YES_NO_LABELS = (N_("yes"), N_("no"))
BUILDS = (*SHIP_TYPES, "Orbital", "Monolith")
SHIP_LABELS = tuple(SHIP_WORDS[s] for s in SHIP_TYPES)
"""The ship fields' choices as players read them (a phone posts the English name)."""
ALLIANCE_LABELS = (N_("Nova"), N_("Vortex"), N_("Radiance"))
"""The alliances (:data:`rules.eclipse.data.ALLIANCE_NAMES`) as players read them: the Greek rulebook's ΝΟΒΑ, ΔΙΝΗ and
ΛΑΜΨΗ (Rise of the Ancients p.10); Polish and Hungarian keep the English, no rulebook of theirs being in the sources
(a phone posts the English name)."""
TILES = ("Shellworld", "Warp Portal", "Ancient Warp Portal", "Ancient Orbital", "Shrine")
"""What a player lays on a hex without a Build (a Development's tile, a Discovery, a Shrine of the Enlightened)."""
TILE_LABELS = tuple(structure_word("shrine") if t == "Shrine" else component_word(t) for t in TILES)
"""The tiles as players read them: a Development's or Discovery's name as their rulebook gives it (a phone posts the
English)."""
TILE_STRUCTURES = {"Shellworld": "shellworld", "Warp Portal": "warp_portal",
                   "Ancient Warp Portal": "ancient_warp_portal",
                   "Ancient Orbital": "ancient_orbital", "Shrine": "shrine"}
RESEARCHED = (GENERATOR_TECHS[0], *RARE_TECHNOLOGIES, *DEVELOPMENTS)
"""What Research may name (the box follows these: Wormhole Generator's half wormholes, the unique Rare
Technologies, the Developments that score); any other technology is left out (its track count is reported at
the end)."""
RESEARCHED_LABELS = tuple(component_word(t) for t in RESEARCHED)
"""What Research may name as players read it: the Greek rulebook's names (Rise of the Ancients p.4, p.5, p.20)."""
ALWAYS = ("blueprint", "relations", "structure", "disc", "disc_back")
"""Forms open in every phase while the game runs."""
DIPLOMACY_FORMS = ("relations", "attack")
"""Reports about diplomatic relations: closed with 2 or 3 players, where relations are not used."""


def _diplomacy(view: Mapping[str, Any]) -> bool:
    """Whether diplomatic relations are used at this table (4 or more players)."""
    return len(view.get("players") or ()) >= DIPLOMACY_MIN_PLAYERS


CANNONS, MISSILES = CANNON_WORDS, MISSILE_WORDS  # the rules' words, which a refusal of the same field says too
ROLLED = {"yellow": Text("Yellow dice rolled (e.g. 6 4 2)"), "orange": Text("Orange dice rolled (e.g. 6 4 2)"),
          "red": Text("Red dice rolled (e.g. 6 4 2)")}
STORAGE = {"money": Text("Money in storage"), "science": Text("Science in storage"),
           "materials": Text("Materials in storage")}
TRACK_TILES = {"military": Text("Military track tiles"), "grid": Text("Grid track tiles"),
               "nano": Text("Nano track tiles")}
"""The blueprint's, volley's and end position's fields per die colour, resource and technology track."""
SPECIES_FIELDS = {"orbitals_with_cubes": ("Exiles", Text("Exiles: Orbitals holding your cubes"), 12),
                  "magellan": ("Magellan", Text("Magellan: Discoveries discarded or used as parts"), 9)}
"""The end position's fields one species alone scores, as ``{field: (species, label, most)}`` (Rise of the Ancients
p.14, the species sheets; scoring rows 20 and 21): the final position offers each only at a table where someone
plays that species, and refuses a count in it from anyone else (it would score 0)."""
JUMP_FIELD = Field("jump", Text("A jump (Jump Drive)"), choices=YES_NO, labels=tuple(Text(w) for w in YES_NO_LABELS),
                   optional=True)
"""A Move's step made with the Jump Drive (Rise of the Ancients p.8: once an activation, to a neighbouring hex whatever
its wormholes, beyond the Movement)."""
AGAIN_FIELD = Field("again", Text("Starts another activation of the same ship"), choices=YES_NO,
                    labels=tuple(Text(w) for w in YES_NO_LABELS), optional=True)
"""A Move's further step that starts the same ship's next activation (Rise of the Ancients p.4, Ship activation; p.8's
example: the Magellan player's Cruiser activated twice in one Move); left blank, a step going on from where the last
ended is the same activation. Counted against the activations the Move gives (:mod:`rules.eclipse.drives`)."""
CARRIED_FIELD = Field("carried", Text("An Interceptor riding in an Interceptor Bay (no activation)"), choices=YES_NO,
                      labels=tuple(Text(w) for w in YES_NO_LABELS), optional=True)
"""A Move's further step of an Interceptor carried in the Interceptor Bay of the ship whose activation is under way
(Rise of the Ancients p.4, Interceptor Bay: up to two Interceptors move with that ship's one activation): it is no
activation and counts against no Movement (:func:`rules.eclipse.drives.carried`)."""
STRUCTURE_WORDS = {"orbital": N_("orbital"), "monolith": N_("monolith"), "shrine": N_("shrine")}
"""The pieces built or laid on a hex, as words in a sentence; a Development's or Discovery's tile is said by its name
(:func:`rules.eclipse.words.structure_word`), as on the score rows and in the findings."""


def _words(words: tuple[str, ...]) -> tuple[Text, ...]:
    return tuple(Text(w) for w in words)


def _structure_word(structure: str) -> str:
    return Text(STRUCTURE_WORDS[structure]) if structure in STRUCTURE_WORDS else structure_word(structure)


def _word(what: str) -> str:
    return _structure_word(what.lower().replace(" ", "_"))


def _cell(name: str, label: Text, optional: bool = False) -> Field:
    return Field(name, label, kind="cell", minimum=-MAP_REACH, maximum=MAP_REACH, optional=optional)


def _count(name: str, label: Text, maximum: int, optional: bool = True, minimum: int = 0) -> Field:
    return Field(name, label, kind="int", minimum=minimum, maximum=maximum, optional=optional)


def _at(cell: Any) -> dict[str, int]:
    return {"q": int(cell[0]), "r": int(cell[1])}


def _player(view: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return next((p for p in view["players"] if p["name"] == name), {})


def _allies_offered(players: Sequence[Mapping[str, Any]], player: str) -> dict[str, Any]:
    """The Alliance founded form's "With" choices for ``player``: the other players ``player`` has diplomatic
    relations with, neither of the two holding an Alliance tile yet (Rise of the Ancients p.10: "two players with
    diplomatic relations between them may found an alliance"; "each player may be a member of one alliance only"), in
    seat order, as :meth:`EclipseForms.choices_now` gives them, with why each player left out is refused. The Traitor
    card's holder is offered like anyone: the card stops new relations (Eclipse 1.2, Diplomacy), not an alliance with
    a player the holder still has relations with (p.10 asks only for relations)."""
    me = next((p for p in players if p.get("name") == player), {})
    mine = set(me.get("relations") or ())
    others = [p for p in players if p.get("name") != player]
    if me.get("alliance"):
        none = Text("you hold an Alliance tile already: each player is a member of one alliance only (Rise of the "
                    "Ancients p.10)")
        return {"choices": [], "none": none, "why": {p["name"]: none for p in others}}
    why: dict[str, Any] = {}
    for p in others:
        if p["name"] not in mine:
            why[p["name"]] = Text("you have no diplomatic relations with {other}: an alliance is founded by two "
                                  "players with diplomatic relations (Rise of the Ancients p.10)", other=p["name"])
        elif p.get("alliance"):
            why[p["name"]] = Text("{other} holds an Alliance tile already: each player is a member of one alliance "
                                  "only (Rise of the Ancients p.10)", other=p["name"])
    free = [p["name"] for p in others if p["name"] not in why]
    none = Text("an alliance is founded with a player you have diplomatic relations with, neither of you in an "
                "alliance yet (Rise of the Ancients p.10): no one now")
    return {"choices": free, "none": "" if free else none, "why": why}


class EclipseForms:
    """The forms part of :class:`companion.flows.eclipse.EclipseFlow` (a mixin before
    :class:`companion.flow_spec.FlowBase`)."""

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """The starting sectors laid at setup, the actions (Explore, Influence, Research, Upgrade, Build, Move, Pass),
        diplomacy and alliances, the combat helper (a blueprint; a volley fired), Ancients destroyed, discs placed or
        taken back, tiles laid, the Turn Order card's direction, a Hive's roll, and the private end position (a field
        one species alone scores only where someone plays it: :data:`SPECIES_FIELDS`). Sector choices are the tiles
        not on the map yet, spelt "204 Vega"."""
        cat = catalogue()
        laid = {h["sector"] for h in view.get("map", ())}
        explorable = tuple(
            s.label for s in cat.sectors.values() if s.kind != "starting_sector" and s.id != "001" and s.id not in laid
        ) or (N_("no tile left"),)
        names = tuple(p["name"] for p in view["players"])
        played = {p.get("species") for p in view["players"]}
        dice = {"kind": "dice", "minimum": 1, "maximum": 6, "optional": True}
        homes = tuple(s.label for s in cat.sectors.values() if s.home and s.id not in laid) or (N_("no tile left"),)
        on_map = tuple((cat.sector(h["sector"]).label,
                        Text("{sector} is already on the map at {cell}", sector=cat.sector(h["sector"]).label,
                             cell=f"[{h['q']}, {h['r']}]")) for h in view.get("map", ()))
        return (
            Form(
                "home",
                Text("Starting sector laid (setup)"),
                (
                    Field("sector", Text("Starting sector or Ancient Homeworld"), choices=homes, unavailable=on_map),
                    _cell("hex", Text("Hex [q, r]")),
                    Field("rotation", Text("Rotation (steps clockwise, 0-5)"), kind="int", minimum=0, maximum=5),
                ),
            ),
            Form(
                "explore",
                Text("Explore"),
                (
                    Field("sector", Text("Sector laid"), choices=explorable, unavailable=on_map),
                    _cell("hex", Text("Hex [q, r] where it lies")),
                    Field("rotation", Text("Rotation (steps clockwise, 0-5)"), kind="int", minimum=0, maximum=5),
                    _cell("from", Text("From hex [q, r] (your disc or ship)"), optional=True),
                ),
            ),
            Form(
                "influence",
                Text("Influence"),
                (
                    _cell("hex", Text("Disc placed on hex [q, r]"), optional=True),
                    _cell("from", Text("From hex [q, r]"), optional=True),
                ),
            ),
            Form(
                "research",
                Text("Research"),
                (Field("tech", Text("Technology (if it is one of these)"), choices=RESEARCHED, optional=True,
                       labels=RESEARCHED_LABELS),),
            ),
            Form("upgrade", Text("Upgrade"), ()),
            Form(
                "build",
                Text("Build"),
                (
                    Field("what", Text("Built"), choices=BUILDS,
                          # a choice's name as the ships' are, capitalised: 'Krążownik', 'Orbital', 'Monolit'
                          labels=(*SHIP_LABELS, *(structure_word(b.lower()) for b in BUILDS[len(SHIP_TYPES):]))),
                    _cell("hex", Text("On hex [q, r] (orbital, monolith)"), optional=True),
                ),
            ),
            Form(
                "move",
                Text("Move"),
                (
                    _cell("from", Text("From hex [q, r]"), optional=True),
                    _cell("to", Text("To hex [q, r]"), optional=True),
                    Field("ship", Text("Ship"), choices=SHIP_TYPES, optional=True, labels=SHIP_LABELS),
                    JUMP_FIELD,
                ),
            ),
            Form("step", Text("Move: one more step (same Move)"), (  # a further step: no action of its own
                _cell("from", Text("From hex [q, r]")), _cell("to", Text("To hex [q, r]")),
                Field("ship", Text("Ship"), choices=SHIP_TYPES, optional=True, labels=SHIP_LABELS), JUMP_FIELD,
                AGAIN_FIELD, CARRIED_FIELD)),
            Form("pass", Text("Pass"), ()),
            Form(
                "relations",
                Text("Diplomatic relations (Ambassadors exchanged)"),
                (Field("with", Text("With"), choices=names, others=True),),
            ),
            Form(
                "attack",
                Text("Attacked a player you have relations with"),
                (Field("with", Text("Whom"), choices=names, others=True),),
            ),
            Form(
                "alliance_found",
                Text("Alliance founded"),
                (
                    Field("alliance", Text("Alliance"), choices=ALLIANCE_NAMES, labels=_words(ALLIANCE_LABELS)),
                    Field("with", Text("With"), choices=names, others=True),
                ),
            ),
            Form(
                "alliance_join", Text("Alliance joined"),
                (Field("alliance", Text("Alliance"), choices=ALLIANCE_NAMES, labels=_words(ALLIANCE_LABELS)),)
            ),
            Form(
                "alliance_leave",
                Text("Alliance left (tile to its Traitor side)"),
                (
                    Field(
                        "traitor_card",
                        Text("Ships shared a hex with a former ally (Traitor card)"),
                        choices=YES_NO,
                        labels=_words(YES_NO_LABELS),
                        optional=True,
                    ),
                ),
            ),
            Form(
                "blueprint",
                Text("Ship blueprint (after an Upgrade)"),
                (
                    Field("ship", Text("Ship"), choices=SHIP_TYPES, labels=SHIP_LABELS),
                    _count("computers", PART_WORDS["computers"], 9),
                    _count("shields", PART_WORDS["shields"], 9),
                    _count("hull", PART_WORDS["hull"], 9),
                    _count("initiative", PART_WORDS["initiative"], 12),
                    _count("movement", PART_WORDS["movement"], 9),
                    Field("jump_drive", Text("Has a Jump Drive"), choices=YES_NO, labels=_words(YES_NO_LABELS),
                          optional=True),
                    *(_count(f"{c}_cannons", CANNONS[c], 6) for c in DAMAGE),
                    *(_count(f"{c}_missiles", MISSILES[c], 6) for c in MISSILE_COLOURS),
                ),
            ),
            Form(
                "volley",
                Text("Combat: fire a volley (dice left blank: the camera reads them)"),
                (
                    Field("ship", Text("Firing ship"), choices=SHIP_TYPES, labels=SHIP_LABELS),
                    Field("target", Text("At"), choices=(*names, ANCIENTS), optional=True,
                          labels=(*names, ANCIENTS_WORD), others=True),  # never the firing player
                    Field("target_ship", Text("Target ship"), choices=SHIP_TYPES, optional=True, labels=SHIP_LABELS),
                    _count("computers", Text("Computers (blank: the blueprint's)"), 9),
                    _count("shields", Text("Target's shields (blank: its blueprint's)"), 9),
                    Field("missiles", Text("Missiles"), choices=YES_NO, labels=_words(YES_NO_LABELS), optional=True),
                    *(Field(c, ROLLED[c], **dice) for c in DAMAGE),
                ),
            ),
            Form(
                "ancients",
                Text("Ancients destroyed"),
                (
                    _cell("hex", Text("Hex [q, r]")),
                    Field(
                        "what",
                        Text("Destroyed"),
                        choices=("Ancient ships", "Guardian"),
                        labels=_words((N_("Ancient ships"), N_("Guardian"))),
                    ),
                    _count("count", Text("How many Ancient ships"), 3, minimum=1),
                ),
            ),
            Form("disc", Text("Influence disc placed (after combat)"), (_cell("hex", Text("Hex [q, r]")),)),
            Form("disc_back", Text("Influence disc taken back"), (_cell("hex", Text("Hex [q, r]")),)),
            Form("structure", Text("Tile laid on a hex"), (
                Field("tile", Text("Tile"), choices=TILES, labels=TILE_LABELS), _cell("hex", Text("Hex [q, r]")),
                Field("colour", Text("Shrine's colour"), choices=RESOURCES, optional=True,
                      labels=tuple(RESOURCE_WORDS[r] for r in RESOURCES)),
                Field("cost", Text("Shrine's cost"), choices=("2", "4", "6"), optional=True))),
            Form("direction", Text("Turn Order card: next round's direction"),
                 (Field("direction", Text("Direction"), choices=("clockwise", "counter-clockwise"),
                        labels=_words((N_("clockwise"), N_("counter-clockwise")))),)),
            Form("hive", Text("Ancient Hive rolled"), (_cell("hive", Text("Hive's hex [q, r]")),
                                                 Field("die", Text("Die"), kind="int", minimum=1, maximum=6),
                                                 _cell("to", Text("Hex beyond that wormhole [q, r]"), optional=True))),
            Form("position", Text("Final position"), (
                *(_count(f"reputation_{v}", Text("Reputation tiles worth {value}", value=v), 8) for v in (1, 2, 3, 4)),
                _count("reputation_slots", Text("Spaces on your reputation track (optional: checked against your "
                                                "tiles)"), REPUTATION_SLOTS_MOST, minimum=1),
                *(_count(r, STORAGE[r], 99) for r in RESOURCES),
                *(_count(t, TRACK_TILES[t], 7) for t in TECH_TRACKS),
                _count("discoveries", Text("Discoveries kept as VP"), 9),
                *(_count(name, label, most) for name, (species, label, most) in SPECIES_FIELDS.items()
                  if species in played)), private=True),
        )

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """Round 1's Action phase: the starting sectors laid at setup. Action phase: the six actions and Pass (after
        passing: the reactions Upgrade, Build and Move; no second Pass, Eclipse 1.2 Passing),
        diplomacy and alliances; Combat: the combat helper, Ancients destroyed, attacks; Cleanup: the Turn Order
        card's holder chooses, Hives roll; while reporting: the private end position. Blueprints, tiles laid and
        discs placed or taken back in every phase. With 2 or 3 players no diplomatic relations, so neither can a
        player you have them with be attacked (:data:`rules.eclipse.diplomacy.DIPLOMACY_MIN_PLAYERS`)."""
        out = self._open_forms(view, progress, player)
        if not _diplomacy(view):
            out = [f for f in out if f not in DIPLOMACY_FORMS]
        return out

    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """An attack on a player you have relations with (Eclipse, Diplomacy: who attacks a player they exchanged
        Ambassadors with returns them and takes the Traitor card) offers only those players, in seat order; with
        none, the form says so instead of a list. New relations offer only the players you have none with yet (one
        pair of Ambassadors a pair of players: the two players' phones both reporting one relation recorded it twice,
        with an error), and never the Traitor card's holder, nor anyone to its holder (Eclipse 1.2, Diplomacy: the
        holder makes no new relations; a report of one is refused saying so, nothing recorded). An alliance founded
        offers the players you have relations with, neither of you holding an Alliance tile (Rise of the Ancients
        p.10; :func:`_allies_offered`), the Traitor card's holder too. ``{}`` where relations are not used (2 or 3
        players)."""
        if not _diplomacy(view):
            return {}
        players = view.get("players") or ()
        mine = next((p.get("relations") or () for p in players if p.get("name") == player), ())
        seats = [p["name"] for p in players if p.get("name") in mine]
        traitor = next((p["name"] for p in players if p.get("traitor")), None)
        free = [p["name"] for p in players
                if p.get("name") not in (*mine, player) and traitor not in (player, p["name"])]
        why = {other: Text("you already have diplomatic relations with {other}: a relation is recorded once, whichever "
                           "of the two reports it (Eclipse 1.2, Diplomacy: one pair of Ambassadors a pair of players)",
                           other=other) for other in seats}
        none = Text("you have diplomatic relations with every other player already")
        if traitor == player:  # Eclipse 1.2, Diplomacy: the Traitor card's holder makes no new relations
            none = Text("you hold the Traitor card and make no new diplomatic relations (Eclipse 1.2, Diplomacy)")
            why.update({p["name"]: none for p in players if p["name"] not in (*mine, player)})
        elif traitor is not None and traitor not in mine:
            why[traitor] = Text("{other} holds the Traitor card and makes no new diplomatic relations (Eclipse 1.2, "
                                "Diplomacy)", other=traitor)
            if not free:
                none = why[traitor]
        return {"attack": {"with": {
            "choices": seats,
            "none": Text("you have diplomatic relations with no one yet: only an attack on a player you exchanged "
                         "Ambassadors with is reported here"),
        }}, "relations": {"with": {"choices": free, "none": none, "why": why}},
            "alliance_found": {"with": _allies_offered(players, player)}}

    def outside_choices(self, form: Form, field: str, value: Any, player: str) -> str:
        """An attack reported on a player ``player`` has no relations with (the phones offer only those: a page older
        than the table, or a request made by hand): refused with the rule (Eclipse 1.2, Diplomacy: attacking a player
        you exchanged Ambassadors with returns them and takes the Traitor card; attacking anyone else is no report)."""
        if form.id == "attack" and field == "with":
            return Text("you have no diplomatic relations with {other}: only an attack on a player you exchanged "
                        "Ambassadors with is reported here (the Ambassadors go back and the attacker takes the Traitor "
                        "card: Eclipse 1.2, Diplomacy)", other=value)
        return super().outside_choices(form, field, value, player)

    def closed_why(self, form: Form, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Why ``form`` is closed: relations and attacks with 2 or 3 players say that relations are not used (Eclipse,
        Diplomacy; Second Dawn: 4 or more players); Explore, Influence or Research after passing, that only reactions
        are left (Eclipse 1.2, Passing), one more step of a Move without that Move (Move action), a pass again out of
        turn, as the rules say it (:func:`companion.flows.eclipse_turns.turn_closed_why`); else
        :meth:`FlowBase.closed_why`."""
        if form.id in DIPLOMACY_FORMS and not _diplomacy(view) and not progress.over:
            return Text("diplomatic relations are not used with {count} players", count=len(view.get("players") or ()))
        why = turn_closed_why(form.id, view, progress, player)
        if why is not None:
            return why
        return super().closed_why(form, view, progress, player)

    def _open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        stage = progress.stage
        if progress.over:
            return []
        if stage == "reporting":
            return ["position"]
        out: list[str] = ["home"] if progress.round == 1 and stage == "action" else []
        if stage == "action":
            passed = player in view.get("passed", ())
            if not passed:
                out += list(ACTIONS)
            elif not waits_for_marker(view, progress, player):  # simultaneous play: a marker is a passed player's turn
                out += [a for a in ACTIONS if a in REACTIONS]
            if may_step(view, progress, player):  # one more step of the Move that is this player's latest action
                out.append("step")
            out += ["attack"] if passed_already(view, progress, player) else ["pass", "attack"]
            if view.get("modules", {}).get("alliances"):
                out += ["alliance_found", "alliance_join", "alliance_leave"]
        elif stage == "combat":
            out += ["volley", "ancients", "attack"]
        elif stage == "cleanup":
            if view.get("turn_order_card") == player:
                out.append("direction")
            if view.get("modules", {}).get("hives"):
                out.append("hive")
        return out + list(ALWAYS)
