"""Eclipse's final position (End of the game: the scoring table) between the phone's form and its event.

The form counts reputation tiles by value and gives resources, tech track tiles and the Discoveries kept as VP, field
by field; ``position_reported`` holds them as the score file does (:mod:`rules.eclipse.endgame`): ``reputation`` a
list of tile values, ``resources`` and ``tech_tracks`` objects, one key per count. Pure functions of dicts; the values
have been checked by the form (whole numbers in its ranges) before they come here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.eclipse.data import RESOURCES, TECH_TRACKS

__all__ = ["COUNTS", "REPUTATION_VALUES", "position_payload", "position_values"]

REPUTATION_VALUES = (1, 2, 3, 4)
"""The reputation tiles' values: the form has a count field ``reputation_<value>`` for each."""
COUNTS = (("discoveries", "discoveries_kept_as_vp"), ("orbitals_with_cubes", "orbitals_with_cubes"),
          ("magellan", "magellan_discoveries_discarded_or_used"), ("reputation_slots", "reputation_slots"))
"""The form's single counts and their payload keys (Discoveries kept as VP; the Exiles' Orbitals holding cubes and
Magellan's Discoveries discarded or used, Rise of the Ancients p.14; the spaces of the player's reputation track,
which the tiles kept and the Ambassadors received must fit, Eclipse, reputation tiles)."""


def position_payload(values: Mapping[str, Any]) -> dict[str, Any]:
    """The end position form's ``values`` as ``position_reported``'s payload (score-file field names; blanks left
    out: what the box followed counts for them; a group's blank beside a value given is 0)."""
    out: dict[str, Any] = {"reputation": [v for v in REPUTATION_VALUES
                                          for _ in range(values.get(f"reputation_{v}") or 0)]}
    if any(values.get(r) is not None for r in RESOURCES):
        out["resources"] = {r: values.get(r) or 0 for r in RESOURCES}
    if any(values.get(t) is not None for t in TECH_TRACKS):
        out["tech_tracks"] = {t: values.get(t) or 0 for t in TECH_TRACKS}
    for key, field in COUNTS:
        if values.get(key) is not None:
            out[field] = values[key]
    return out


def position_values(payload: Mapping[str, Any]) -> dict[str, int]:
    """A recorded ``position_reported`` payload as the form's values, ``{field: count}`` (the inverse of
    :func:`position_payload` up to blanks: a count it left blank comes back as 0 or absent). What a log holds that
    is not a count (a hand-edited file) is left out."""
    def count(value: Any) -> int | None:
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    tiles = payload.get("reputation")
    tiles = tiles if isinstance(tiles, (list, tuple)) else ()
    out = {f"reputation_{v}": sum(1 for t in tiles if count(t) == v) for v in REPUTATION_VALUES}
    for key, names in (("resources", RESOURCES), ("tech_tracks", TECH_TRACKS)):
        group = payload.get(key)
        if isinstance(group, Mapping):
            out.update({n: group[n] for n in names if count(group.get(n)) is not None})
    out.update({key: payload[field] for key, field in COUNTS if count(payload.get(field)) is not None})
    return out
