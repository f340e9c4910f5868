"""Among the Stars' event kinds (the payload each carries) and the readers of a payload's cells and energy.

Every event reports what happened at the table (rulebook 4 'Round overview': each round every player does one of
the three actions with the card they revealed); the handlers live in :mod:`.actions`, :mod:`.corrections`,
:mod:`.objectives` and :mod:`.rounds`, and :data:`rules.among_the_stars.game.AMONG_GAME` maps each kind to one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.among_the_stars.station import Cell
from rules.core import BadEvent
from rules.engine import EventContext

__all__ = [
    "CARD_DISCARDED",
    "CONFLICT_PLAYED",
    "CREDITS_CHANGED",
    "LOCATION_BUILT",
    "REACTOR_BUILT",
    "ROUND_ENDED",
    "SECRET_OBJECTIVE_CHOSEN",
    "STATION_CLAIMED",
    "STATION_READ",
    "VP_CHANGED",
    "energy_payload",
    "read_cell",
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
STATION_CLAIMED = "station_claimed"
"""payload ``{"at": [x, y], "cards": [[card id, [i, j]], ...]}``: the players said the station whose Main Reactor the
camera sees at ``at`` (the reactor card's centre, camera frame px) is ``event.player``'s (rulebook 3 'Setup': each
player builds their own station from their own Main Reactor); ``cards``, optional, the cards the camera saw around
that reactor when it asked (named in the log). The state is unchanged: the camera gives that station to that player
from then on; Undo withdraws it like any event."""

SECRET_OBJECTIVE_CHOSEN = "secret_objective_chosen"
"""payload ``{"objective": name}``: a Qualeen player's secret objective (rulebook 'Races', Qualeen: at setup draw 2
extra objectives and keep 1 secretly), one not face up on the table; ``event.player`` keeps it. Entered on that
player's own phone and left out of :meth:`rules.among_the_stars.game.AmongTheStarsGame.public` until the game is
scored."""

def read_cell(value: Any, where: str) -> Cell:
    """``value`` (a payload's ``[i, j]``: the place in cards from the Main Reactor) as a cell ``(i, j)``.

    Raises:
        BadEvent: not two whole numbers (``where`` names the event and the key).
    """
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise BadEvent(f"{where}: a cell is [i, j], two whole numbers; got {value!r}")
    return (value[0], value[1])


def energy_payload(ctx: EventContext) -> dict[Cell, int] | None:
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
        src = read_cell(row.get("cell") if isinstance(row, Mapping) else None,
                        f"event {ctx.event.seq} energy[{k}].cell")
        n = row.get("cubes", 1)
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise BadEvent(f"event {ctx.event.seq} energy[{k}].cubes: a whole number of cubes, got {n!r}")
        payment[src] = payment.get(src, 0) + n
    return payment
