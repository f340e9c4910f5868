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

The flow is put together from its parts, one module each: the report forms and which are open
(:mod:`companion.flows.eclipse_forms`), a report as the engine's event (:mod:`companion.flows.eclipse_reports`) and
what the views draw (:mod:`companion.flows.eclipse_view`); this module declares the game and its words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.flow_spec import Column, FlowBase
from companion.flows.eclipse_camera import ECLIPSE_CAMERA
from companion.flows.eclipse_forms import (  # noqa: F401 (every name this module held stays importable from here)
    ALWAYS,
    BUILDS,
    CANNONS,
    DIE_KIND,
    DIPLOMACY_FORMS,
    MAP_REACH,
    MISSILES,
    RESEARCHED,
    RESEARCHED_LABELS,
    ROLLED,
    SHIP_LABELS,
    SPECIES_FIELDS,
    STORAGE,
    STRUCTURE_WORDS,
    TILE_LABELS,
    TILE_STRUCTURES,
    TILES,
    TRACK_TILES,
    YES_NO,
    YES_NO_LABELS,
    EclipseForms,
    _at,
    _cell,
    _count,
    _diplomacy,
    _player,
    _structure_word,
    _word,
    _words,
)
from companion.flows.eclipse_reports import (  # noqa: F401
    EclipseReports,
    _blueprint,
    _species_fields,
    _starting_sector,
    _volley,
)
from companion.flows.eclipse_view import PHASE_LABELS, PHASES, EclipseView  # noqa: F401
from companion.i18n import Text, lazy
from rules.eclipse import ECLIPSE_GAME, events
from rules.eclipse.words import ACTION_WORDS

__all__ = ["ECLIPSE_FLOW", "EclipseFlow", "MAP_REACH"]


class EclipseFlow(EclipseForms, EclipseReports, EclipseView, FlowBase):
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

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's species."""
        return _player(view, player).get("species")


ECLIPSE_FLOW = EclipseFlow()
