"""Roll for the Galaxy at the table (issue 3): what differs from the shared flow.

Without the dice reader in the main loop, players report on their phones what they did
(``settings["tracking"] = "tableau"``: the engine follows tableaus, goods, VP chips and
credits, not the dice). Round (Roll for the Galaxy, p.3 Rounds): each player reports the phase
they selected; Next reveals, then runs the selected phases in order I-V (p.4), then Manage
Empire (p.8); when an end condition is met (p.8 End check: VP pool empty or a tableau of 12
tiles) the round is the last one and Next after Manage Empire ends the game.

The flow is put together from its parts, one module each: the report forms and which are open
(:mod:`companion.flows.roll_forms`), a report as the engine's event (:mod:`companion.flows.roll_reports`), what the
views draw (:mod:`companion.flows.roll_view`), the camera's questions (:mod:`companion.flows.roll_camera`) and the
round's names (:mod:`companion.flows.roll_names`); this module declares the game and its words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.flow_spec import Column, FlowBase
from companion.flows.roll_camera import SURE_FACE, RollCamera, too_many_dice  # noqa: F401
from companion.flows.roll_forms import (  # noqa: F401 (every name this module held stays importable from here)
    _GOODS_WORLDS,
    _PHASE_OF_FORM,
    _TILE_NAMES,
    COUNT_PLACES,
    MAX_VP_REPORT,
    RollForms,
    _goods_words,
    _ship_vp,
    _tiles_held,
)
from companion.flows.roll_names import _SHIP, PHASE_NAMES, ROMAN, STAGE_NAMES, _faction_label, _phase_named  # noqa: F401
from companion.flows.roll_reports import (  # noqa: F401
    RollReports,
    _check_box_dice,
    _held_elsewhere,
    _ship_counted,
    _vp_beyond,
)
from companion.flows.roll_view import RollView
from companion.i18n import Text, in_game, lazy
from rules.roll import ROLL_GAME
from rules.roll.data import catalogue

__all__ = ["ROLL_CAMERA", "ROLL_FLOW", "RollCamera", "RollFlow"]


class RollFlow(RollForms, RollReports, RollView, FlowBase):
    """Roll for the Galaxy's part of the flow (see the module doc). Name, title, BoardGameGeek id, 2-5
    players and the seat colours come from the declaration (``ROLL_GAME.info``; Roll for the Galaxy, p.1)."""

    game = ROLL_GAME
    fixed = {"tracking": "tableau"}
    columns = (Column("tableau", in_game("Roll for the Galaxy", "Tableau")), Column("credits", Text("Credits")),
               Column("vp", Text("VP")))
    """Players report their tableau on their phones; the dice are not followed (without the dice reader)."""
    report_forms = {"player_setup": "setup", "phase_selected": "select"}
    """Reports a phone may withdraw only while their form is open (setup before round 1, a phase until Reveal)."""
    camera = RollCamera()

    event_words = {"player_setup": lazy("Setup"), "phase_selected": lazy("Phase selected"),
                   "tile_built": lazy("Tile built"), "goods_placed": lazy("Good placed"),
                   "goods_shipped": lazy("Good shipped"), "vp_changed": lazy("VP chips taken"),
                   "credits_changed": lazy("Credits"), "reveal": lazy("Reveal"), "phase": lazy("the next phase"),
                   "game_end": lazy("End game"), "dice_counted": lazy("Dice counted"),
                   "die_removed": lazy("Die removed")}

    def event_label(self, kind: str, payload: Mapping[str, Any] | None = None) -> str:
        """A Next that started a phase is said as the phase, as the round's list shows it ("III Settle", "Manage
        Empire"; p.4 Phases), so an Undo says which phase it took back; other kinds as :attr:`event_words`."""
        phase = (payload or {}).get("phase") if kind == "phase" else None
        if phase in ROMAN:
            return Text("{number} {phase}", number=ROMAN[phase], phase=PHASE_NAMES[phase])
        if phase in PHASE_NAMES:
            return PHASE_NAMES[phase]
        return super().event_label(kind, payload)

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's faction tile (its side names) and home world."""
        p = next((q for q in view["players"] if q["name"] == player), None)
        if p is None or p["faction"] is None:
            return None
        faction = catalogue().faction(p["faction"])
        return f"{_faction_label(faction)}; {p['home_world']}"


ROLL_FLOW = RollFlow()
ROLL_CAMERA = ROLL_FLOW.camera
