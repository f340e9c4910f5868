"""Eclipse's map reports checked before anything is recorded: a tile reported onto a space that already holds a hex.

A report that cannot be a legal placement is refused with its reason and nothing is recorded (a tile already on the
map elsewhere is refused by the form itself, :attr:`companion.flow_forms.Field.unavailable`); reports that may be
legal are recorded and the engine's findings say what is doubtful (``rules.eclipse.placement``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.errors import BadEntry
from companion.i18n import Text
from rules.eclipse.data import catalogue

__all__ = ["refuse_taken_space"]


def refuse_taken_space(form: str, cell: Any, view: Mapping[str, Any], player: str, replaces_own: bool) -> None:
    """Refuse a tile reported onto a space of the map that already holds a hex: nothing is recorded.

    Eclipse rulebook, Explore action: the new hex is placed on an empty space next to a hex where the player has a
    disc or a ship; Setup: each starting sector goes on an empty start position. A tile reported onto a laid hex
    (a start tile, the Galactic Center) cannot be a legal placement, as a tile already on the map elsewhere cannot
    (the form's ``unavailable``), so both are refused with the reason rather than recorded with a finding.

    Args:
        form: ``"home"`` (a starting sector or Ancient Homeworld at setup) or ``"explore"``.
        cell: the reported hex ``[q, r]`` (two ints, as the form's cell field gives it).
        view: the game's view; its ``"map"`` lists the laid hexes (``sector``, ``q``, ``r``, ``owner``).
        player: who reports.
        replaces_own: the report is a starting sector that corrects the player's own earlier one
            (:meth:`companion.flows.eclipse.EclipseFlow.corrects`): their own starting sector's space is not taken
            (the tile is laid again there, turned or renumbered).

    Raises:
        BadEntry: naming the space, the tile already on it and the rule (the place is said as "[q, r]").
    """
    at = {"q": int(cell[0]), "r": int(cell[1])}
    here = next((h for h in view.get("map", ()) if h.get("q") == at["q"] and h.get("r") == at["r"]), None)
    if here is None or (replaces_own and here.get("owner") == player):
        return
    laid = catalogue().sector(str(here["sector"])).label
    where = f"[{at['q']}, {at['r']}]"
    if form == "home":
        raise BadEntry(Text("Setup: the space at {cell} already holds {sector}; a starting sector or Ancient "
                            "Homeworld goes on an empty start position", cell=where, sector=laid))
    raise BadEntry(Text("Explore: the space at {cell} already holds {sector}; a new hex goes on an empty space next "
                        "to your hex (Explore action)", cell=where, sector=laid))
