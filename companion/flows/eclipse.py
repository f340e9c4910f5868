"""Eclipse with Rise of the Ancients at the table (issue 14): what differs from the shared flow.

Nine rounds of Action, Combat, Upkeep and Cleanup (Eclipse, Game round). In the Action phase each player, on
their turn, reports the action they took on their phone (Explore with the sector laid, its position and rotation;
Influence; Research with what it bought; Upgrade; Build; Move) or passes; after passing only a reaction (Upgrade,
Build, Move) on their own turns, and a turn with no reaction goes by when the next player acts. The phase ends
once everyone has passed; the first to pass starts the next round.
Next ends Combat, Upkeep and Cleanup. In Combat the combat helper says which dice hit and the damage: a player taps
the ship type that fires and its target (computers and shields from the blueprints they reported), rolls, and the
camera reads the dice (or the player taps the faces in). After round 9 every player enters their hidden end
position (reputation tiles, resources, tech tracks...) on their own phone; then the game is scored with every row
of the scoring table, the alliances' team scores and the winners.

The map is drawn as a hex board with the empty spaces next to it (their ``[q, r]`` is what the Explore form asks
for); with a hex deck (``--deck``) the camera reads it whenever the table is still and asks about each newly
explored hex, with the engine's misplay and its fix shown at once (:mod:`companion.flows.eclipse_camera`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.errors import BadEntry
from companion.flow_spec import Board, Cell, Column, Field, FlowBase, Form, TableRound, Throw, ThrownDie
from companion.flows.eclipse_camera import ECLIPSE_CAMERA, colour_word
from companion.flows.eclipse_map import refuse_taken_space
from companion.flows.eclipse_position import position_payload, position_values
from companion.flows.eclipse_turns import may_step, passed_already, turn_closed_why
from companion.i18n import N_, Listing, Text, lazy, plural
from rules import Event, Progress
from rules.eclipse import ECLIPSE_GAME, events
from rules.eclipse.combat import DAMAGE
from rules.eclipse.data import (
    ALLIANCE_NAMES,
    DEVELOPMENTS,
    RARE_TECHNOLOGIES,
    RESOURCES,
    ROUNDS,
    SHIP_TYPES,
    TECH_TRACKS,
    UnknownSector,
    catalogue,
)
from rules.eclipse.diplomacy import DIPLOMACY_MIN_PLAYERS
from rules.eclipse.fleet import ANCIENTS, MISSILE_COLOURS, hit_on
from rules.eclipse.galaxy import STEP, ring
from rules.eclipse.mapcheck import GENERATOR_TECHS
from rules.eclipse.rounds import ACTIONS, REACTIONS
from rules.eclipse.words import (
    ACTION_WORDS,
    ANCIENTS_WORD,
    RESOURCE_WORDS,
    SHIP_WORDS,
    component_word,
    ship_word,
    structure_word,
)

__all__ = ["ECLIPSE_FLOW", "EclipseFlow", "MAP_REACH"]

MAP_REACH = 5
"""How far from the Galactic Center a hex position may be reported (rings; the 9-player map reaches ring IV)."""
PHASES = ("action", "combat", "upkeep", "cleanup")
PHASE_LABELS = {"action": N_("Action"), "combat": N_("Combat"), "upkeep": N_("Upkeep"), "cleanup": N_("Cleanup")}
YES_NO = ("yes", "no")
DIE_KIND = {"yellow": "ion", "orange": "plasma", "red": "antimatter"}
YES_NO_LABELS = (N_("yes"), N_("no"))
BUILDS = (*SHIP_TYPES, "Orbital", "Monolith")
SHIP_LABELS = tuple(SHIP_WORDS[s] for s in SHIP_TYPES)
"""The ship fields' choices as players read them (a phone posts the English name)."""
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


CANNONS = {"yellow": Text("Ion cannons (yellow dice)"), "orange": Text("Plasma cannons (orange dice)"),
           "red": Text("Antimatter cannons (red dice)")}
MISSILES = {"yellow": Text("Ion missiles (yellow dice)"), "orange": Text("Plasma missiles (orange dice)"),
            "red": Text("Antimatter missiles (red dice)")}
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


class EclipseFlow(FlowBase):
    """Eclipse's part of the flow (see the module doc). Name, title, BoardGameGeek id (72125), 2-9 players, the nine
    seat colours, the species per seat (on the double-sided player boards) and the Rise of the Ancients modules come
    from the declaration (``ECLIPSE_GAME.info``)."""

    game = ECLIPSE_GAME
    hidden_note = Text("final positions already entered stay hidden: they count once the game is scored")
    report_forms = {events.POSITION_REPORTED: "position"}  # the hidden final position (FlowBase.entry_forms)
    fixed = {"confirm_scores": True}
    """A game on the box is scored by Next ("Score the game") once every final position is in, not on the last one
    entered: until then each player may still withdraw or correct theirs (:attr:`FlowBase.entry_forms`)."""
    event_words = {  # every kind of rules.eclipse.events: what "recorded" and "withdrawn" say, in the players' words
        events.ACTION_TAKEN: lazy("Action"), events.PASSED: lazy("Pass"), events.PHASE_ENDED: lazy("the next phase"),
        events.DIRECTION_CHOSEN: lazy("Turn Order card: next round's direction"),
        events.HEX_PLACED: lazy("Sector laid"), events.INFLUENCE_PLACED: lazy("Influence disc placed (after combat)"),
        events.INFLUENCE_REMOVED: lazy("Influence disc taken back"), events.SHIP_MOVED: lazy("Move"),
        events.ANCIENTS_DESTROYED: lazy("Ancients destroyed"), events.HIVE_ROLLED: lazy("Ancient Hive rolled"),
        events.STRUCTURE_BUILT: lazy("Tile laid on a hex"),
        events.BLUEPRINT_SET: lazy("Ship blueprint (after an Upgrade)"), events.VOLLEY_AIMED: lazy("Volley aimed"),
        events.VOLLEY_ROLLED: lazy("Combat dice rolled"),
        events.RELATIONS_FORMED: lazy("Diplomatic relations (Ambassadors exchanged)"),
        events.RELATIONS_BROKEN: lazy("Attacked a player you have relations with"),
        events.ALLIANCE_FOUNDED: lazy("Alliance founded"), events.ALLIANCE_JOINED: lazy("Alliance joined"),
        events.ALLIANCE_LEFT: lazy("Alliance left (tile to its Traitor side)"),
        events.POSITION_REPORTED: lazy("Final position"), events.GAME_ENDED: lazy("End game"),
    }
    columns = (
        Column("hexes", Text("Hexes")),
        Column("ambassadors", Text("Ambassadors")),
        Column("alliance", Text("Alliance")),
    )
    camera = ECLIPSE_CAMERA

    def event_label(self, kind: str, payload: Mapping[str, Any] | None = None) -> str:
        """An action (or reaction) said as the action taken, as the rulebook names it (1.2 Action phase: Explore,
        Influence, Research, Upgrade, Build, Move), so "recorded" and "withdrawn" name it; a player's starting sector
        as laid at setup (Setup: each player lays one), not as a sector explored; other kinds as :attr:`event_words`."""
        action = (payload or {}).get("action") if kind == events.ACTION_TAKEN else None
        if action in ACTION_WORDS:
            return ACTION_WORDS[action]
        if kind == events.HEX_PLACED and _starting_sector((payload or {}).get("sector")):
            return Text("Starting sector laid (setup)")  # Setup: each player lays their starting sector
        return super().event_label(kind, payload)

    # -- forms -----------------------------------------------------------------------------------------
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
                ),
            ),
            Form("step", Text("Move: one more step (same Move)"), (  # a further step: no action of its own
                _cell("from", Text("From hex [q, r]")), _cell("to", Text("To hex [q, r]")),
                Field("ship", Text("Ship"), choices=SHIP_TYPES, optional=True, labels=SHIP_LABELS))),
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
                    Field("alliance", Text("Alliance"), choices=ALLIANCE_NAMES),
                    Field("with", Text("With"), choices=names, others=True),
                ),
            ),
            Form(
                "alliance_join", Text("Alliance joined"), (Field("alliance", Text("Alliance"), choices=ALLIANCE_NAMES),)
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
                    _count("computers", Text("Computers (+)"), 9),
                    _count("shields", Text("Shields (-)"), 9),
                    _count("hull", Text("Hull"), 9),
                    _count("initiative", Text("Initiative"), 12),
                    _count("movement", Text("Movement (the drives' total)"), 9),
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
        with an error). ``{}`` where relations are not used (2 or 3 players)."""
        if not _diplomacy(view):
            return {}
        mine = next((p.get("relations") or () for p in view.get("players") or () if p.get("name") == player), ())
        seats = [p["name"] for p in view.get("players") or () if p.get("name") in mine]
        free = [p["name"] for p in view.get("players") or () if p.get("name") not in (*mine, player)]
        return {"attack": {"with": {
            "choices": seats,
            "none": Text("you have diplomatic relations with no one yet: only an attack on a player you exchanged "
                         "Ambassadors with is reported here"),
        }}, "relations": {"with": {
            "choices": free,
            "none": Text("you have diplomatic relations with every other player already"),
            "why": {other: Text("you already have diplomatic relations with {other}: a relation is recorded once, "
                                "whichever of the two reports it (Eclipse 1.2, Diplomacy: one pair of Ambassadors a "
                                "pair of players)", other=other) for other in seats},
        }}}

    def columns_now(self, view: Mapping[str, Any]) -> tuple[Column, ...]:
        """Hexes always; Ambassadors only where diplomatic relations are used (4 or more players, Eclipse 1.2
        Diplomacy) and Alliance only with the Alliances module (Rise of the Ancients p.10-11): a 2-player table read
        'Ambassadors 0' and 'Alliance –' for rules it does not play, in a table too wide for a 360 px phone."""
        out = [c for c in self.columns if c.key == "hexes"]
        if _diplomacy(view):
            out += [c for c in self.columns if c.key == "ambassadors"]
        if (view.get("modules") or {}).get("alliances"):
            out += [c for c in self.columns if c.key == "alliance"]
        return tuple(out)

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
            out += [a for a in ACTIONS if a in REACTIONS] if passed else list(ACTIONS)
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
            payload = {"action": "move"}
            if values.get("from"):
                payload.update({"from": _at(values["from"]), "to": _at(values["to"])})
            if values.get("ship"):
                payload["ship"] = values["ship"]
            return "action_taken", payload
        if form == "step":
            step = {"from": _at(values["from"]), "to": _at(values["to"])}
            return "ship_moved", {**step, "ship": values["ship"]} if values.get("ship") else step
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

    # -- the round -------------------------------------------------------------------------------------
    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """Action / Combat / Upkeep / Cleanup (the current one highlighted; under Action who has passed), whose
        turn, the next round's start player, the Turn Order card; each player's hexes, Ambassadors, alliance."""
        stage, over = progress.stage, progress.over
        here = PHASES.index(stage) if stage in PHASES else len(PHASES)
        phases = [{"label": Text(PHASE_LABELS[ph]),
                   "by": list(view.get("passed", ())) if ph == "action" and stage == "action" else [],
                   "state": "done" if over or k < here else ("current" if k == here else "next")}
                  for k, ph in enumerate(PHASES)]
        rows = {}
        for p in view["players"]:
            side = p.get("alliance_tile_side")
            alliance = p.get("alliance") and (Text("{alliance} (traitor)", alliance=p["alliance"]) if side == "traitor"
                                               else p["alliance"])
            rows[p["name"]] = {"hexes": p["controlled_hexes"], "ambassadors": len(p.get("relations", ())),
                               "alliance": alliance or None, "vp": None}
        note, label, why = self._note(view, progress)
        # a final position missing when Next scores the game: the shared flow asks (companion.flow.GameFlow._table)
        return TableRound(progress, phases, note, label, why, pool=None, players=rows)

    def _note(self, view: Mapping[str, Any], progress: Progress) -> tuple[str, str, str]:
        """(note, Next's label, why Next cannot be pressed)."""
        stage, rnd = progress.stage, progress.round
        last = rnd >= ROUNDS
        if progress.over:
            return Text("Game over: the scores are final"), Text("Game over"), Text("the game is over")
        if stage == "reporting":
            if not progress.waiting:  # every position in: a last look before the table scores the game
                return (Text("every final position is in; each player may still withdraw or correct theirs on their "
                             "phone until the table presses {next}", next=Text("Score the game")),
                        Text("Score the game"), "")
            missing = Listing(progress.waiting)
            return (
                Text(
                    "each player enters their final position on their own phone (hidden); waiting for "
                    "{players}. Next scores now, without the missing ones",
                    players=missing,
                ),
                Text("Score now"),
                "",
            )
        if stage == "action":
            markers = view.get("markers")
            if markers and markers.get("first_waits"):
                turn = Text("First Action: {first} (waiting: {second} acts first), Second Action: {second}",
                            first=markers["first"], second=markers["second"])
            elif markers and markers.get("second_waits"):
                turn = Text("First Action: {first}, Second Action: {second} (waiting: {first} acts first)",
                            first=markers["first"], second=markers["second"])
            elif markers:
                turn = Text("First Action: {first}, Second Action: {second}", first=markers["first"],
                            second=markers["second"])
            else:
                direction = view.get("direction", "clockwise")
                turn = (
                    Text("{player}'s turn (counter-clockwise)", player=progress.turn)
                    if direction == "counter-clockwise"
                    else Text("{player}'s turn (clockwise)", player=progress.turn)
                )
            passed = view.get("passed") or []
            bits = [turn]
            if view.get("may_react"):  # their turns come first; with no reaction they go by (Eclipse 1.2, Passing)
                bits.append(Text("{players} passed and may react first (Upgrade, Build or Move)",
                                 players=Listing(view["may_react"])))
            if passed:
                bits.append(Text("passed: {players}; next round starts: {player}", players=Listing(passed),
                                 player=view.get("next_start_player")))
            bits.append(Text("report your action on your phone, or Pass"))
            waiting = Listing(progress.waiting)
            return (Listing(bits, " - "), Text("Combat"),
                    Text("the Action phase ends when everyone has passed (waiting for {players})", players=waiting))
        if stage == "combat":
            end = last and not view.get("last_round_upkeep", True)
            return (Text("Combat: fight each battle; Fire a volley on your phone to see which dice hit"),
                    Text("End game") if end else Text("Upkeep"), "")
        if stage == "upkeep":
            return (
                Text("Upkeep: pay for your influence discs; take back the discs you cannot pay for"),
                Text("Cleanup"),
                "",
            )
        holder = view.get("turn_order_card")
        note = (Text("Cleanup: discs back, new technologies; {player} holds the Turn Order card and chooses the "
                     "direction", player=holder) if holder else Text("Cleanup: discs back, new technologies"))
        return note, Text("End game") if last else Text("Round {round}", round=rnd + 1), ""

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """The end of Combat, Upkeep or Cleanup (``phase_ended``); while the players report their end positions,
        the end of the game (``game_ended``). The Action phase ends by itself when the last player passes."""
        if progress.over or progress.stage == "action":
            return []
        if progress.stage == "reporting":
            return [("game_ended", {})]
        return [("phase_ended", {})]

    # -- what the views draw ---------------------------------------------------------------------------
    def boards(self, view: Mapping[str, Any], progress: Progress) -> tuple[Board, ...]:
        """The galaxy as a hex board: each explored hex (its sector, its ``[q, r]``, who controls it, Ancients,
        guardian, what is built), and the empty spaces next to it with their ``[q, r]`` (where Explore may lay a
        hex)."""
        cells = []
        taken = set()
        for h in view.get("map", ()):
            at = (int(h["q"]), int(h["r"]))
            taken.add(at)
            extra = []
            if h.get("guardian"):
                extra.append(ship_word(h["guardian"]))
            if h.get("ancients"):
                extra.append(plural("{n} Ancient", "{n} Ancients", int(h["ancients"]), n=h["ancients"]))
            extra += [_structure_word(s["structure"]) for s in h.get("structures", ())]
            detail = Listing([f"[{at[0]}, {at[1]}]", *extra], " · ")
            cells.append(Cell(at, h["sector"], h.get("owner"), int(h["rotation"]), detail))
        spaces = sorted({(q + dq, r + dr) for q, r in taken for dq, dr in STEP.values()} - taken,
                        key=lambda c: (ring(*c), c))
        cells += [Cell(c, f"[{c[0]}, {c[1]}]", None, None, Text("empty space"), empty=True)
                  for c in spaces if ring(*c) <= MAP_REACH]
        return (Board("map", Text("The galaxy"), "hex", tuple(cells)),)

    def throws(self, view: Mapping[str, Any], progress: Progress) -> tuple[Throw, ...]:
        """The combat helper: the volley aimed (what to roll) or the last volley rolled (which dice hit, the damage)."""
        aim, volley = view.get("aim"), view.get("volley")
        if aim is not None:
            roll = Listing(
                [Text("{n} {colour}", n=n, colour=colour_word(c)) for c, n in (aim.get("roll") or {}).items()]
            )
            hit = hit_on(aim["computers"], aim["shields"])
            what = Text("roll {dice} dice", dice=roll) if roll.items else Text("roll the ship type's dice")
            return (Throw("volley", aim["label"], (), Text("{what}: a die hits on {hit} or more (the camera reads them "
                          "on a still table, or tap the faces in)", what=what, hit=hit), aim.get("player")),)
        if volley is not None:
            dice = tuple(
                ThrownDie(
                    d["colour"],
                    d["face"],
                    d["hit"],
                    Text("{damage} damage", damage=d["damage"]) if d["hit"] else Text("miss"),
                )
                for d in volley["dice"]
            )
            summary: Any = plural(
                "{n} hit: {damage} damage (hits on {hit} or more)",
                "{n} hits: {damage} damage (hits on {hit} or more)",
                int(volley["hits"]),
                n=volley["hits"],
                damage=volley["damage"],
                hit=volley.get("hit_on", hit_on(volley["computers"], volley["shields"])),
            )
            if volley.get("questions"):
                summary = Listing([summary, *volley["questions"]], "; ")
            return (Throw("volley", volley.get("label") or Text("Volley"), dice, summary, volley.get("player")),)
        return ()

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's species."""
        return _player(view, player).get("species")


def _blueprint(values: Mapping[str, Any]) -> dict[str, Any]:
    """The blueprint form's values as ``blueprint_set``'s payload."""
    out: dict[str, Any] = {"ship": values["ship"]}
    for key in ("computers", "shields", "hull", "initiative", "movement"):
        if values.get(key) is not None:
            out[key] = values[key]
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


ECLIPSE_FLOW = EclipseFlow()


def _starting_sector(sector: Any) -> bool:
    """Whether ``sector`` (a tile's number, or its label "221 Procyon" as a phone sends it) is a player's starting
    sector (not an Ancient Homeworld)."""
    if not isinstance(sector, str) or not sector.split():
        return False
    try:
        return catalogue().sector(sector.split()[0]).kind == "starting_sector"
    except UnknownSector:
        return False

