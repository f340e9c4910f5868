"""Who an action from a phone concerns: the answers said to the posting phone only (never on the status line every
view shows), the setup actions that change one seat, and the actions whose ``player`` names a player of the game.
The main loop (:class:`companion.app.MainLoop`) routes each action and its answer by them."""

from __future__ import annotations

from companion.actions import SEAT_ACTIONS, Action
from companion.flow_actions import BAD_INPUT, NOT_ALLOWED, STALE

__all__ = ["NAMES_A_PLAYER", "NOTHING_DONE_TO_THE_PHONE", "REFUSED_TO_THE_PHONE", "SETUP_SEATS", "TO_THE_PHONE"]

TO_THE_PHONE = frozenset({Action.CLAIM_SEAT, Action.OWNER_ASK})
"""Actions whose answer speaks to the phone that posted it ("Bob's seat is claimed by this phone", or why it was
refused): it goes in that phone's answer only, never on the status line every view shows."""

REFUSED_TO_THE_PHONE = frozenset({BAD_INPUT, NOT_ALLOWED, STALE})
"""Refusals of a phone's tap (bad input, not its seat, made against an old screen): nothing was recorded, so the
table has nothing to see; why goes in that phone's answer only. A fault or failing storage still goes on the
status line: everyone at the table needs to know."""

NOTHING_DONE_TO_THE_PHONE = frozenset({Action.UNDO, Action.UNDO_REPORT})
"""A phone's Undo that finds nothing to withdraw ("Ann has no report to undo", "nothing to undo"): nothing was
written, so, like a refusal, it is said to that phone only; an Undo that withdraws something is the table's news."""

SETUP_SEATS = frozenset({Action.SETUP_PLAYER, Action.SETUP_REMOVE, Action.SETUP_RENAME, Action.SETUP_CHOICE,
                         Action.SETUP_SEAT})
"""Setup actions that change one player (their seat's phone may post them)."""
NAMES_A_PLAYER = SEAT_ACTIONS | {Action.RELEASE_SEAT, Action.SETUP_REMOVE, Action.SETUP_RENAME, Action.SETUP_CHOICE,
                                 Action.SETUP_SEAT}
"""Actions whose ``player`` names a player of the game (a phone's ``"ann"`` is ``"Ann"``:
:func:`companion.player_names.named_player`); not ``setup_player``, whose name is a new player's unless spelled
exactly as one there (then: a new colour)."""
