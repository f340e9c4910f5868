"""The flow's actions from the hub (Next, a report, a withdrawn report) and what each did: :class:`Outcome`
and its statuses, which every answer of the box carries (the phones get them as HTTP statuses)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.actions import Action, posted
from companion.errors import BadEntry, MovedOn
from companion.i18n import Text, message_of
from rules import Event

if TYPE_CHECKING:
    from companion.flow import GameFlow

__all__ = ["BAD_INPUT", "FAULT", "NOT_ALLOWED", "OK", "STALE", "STORAGE", "Outcome", "handle_action"]

OK, BAD_INPUT, NOT_ALLOWED, STALE, FAULT, STORAGE = 200, 400, 403, 409, 500, 503
"""The statuses of an answer (``Outcome.status``; the phone view answers with them): 200 written (or nothing
to do), 400 bad input, 403 not allowed (not this phone's seat, touchscreen only), 409 made against an old
state version, 500 an unexpected fault in the box, 503 the storage is failing. Only 200 records anything."""


@dataclass
class Outcome:
    """What one handled action did: events recorded, a message for the views, or the error.

    Attributes:
        events: the events recorded (durable once the loop answers).
        message: for the views (the status line).
        error: None, or what was refused and why (nothing was recorded).
        status: :data:`OK` ... :data:`STORAGE`; None is worked out: 200 without ``error``, else 400.
        version: the log's last seq after the action (set by the loop when it answers).
        changed: something was written besides ``events`` (a seat claim, a new join secret).
        recorded: the seqs answered when they are not ``events`` (a key's first answer given again).
        detail: what the box's log says instead of ``message`` (None: the message).
        kept: a write that stands though the action is refused (the question a Next asked, so a restart resumes
            it), run by the desk in a transaction of its own after the refusal's is rolled back; None: nothing.
    """

    events: list[Event] = field(default_factory=list)
    message: str = ""
    error: str | None = None
    status: int | None = None
    version: int | None = None
    changed: bool = False
    recorded: list[int] | None = None
    detail: str | None = None
    kept: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.status is None:
            self.status = OK if self.error is None else BAD_INPUT

    @classmethod
    def refused(cls, status: int, error: str, version: int | None = None) -> Outcome:
        """A refusal: nothing recorded, ``error`` says why."""
        return cls([], "", error, status, version)

    @property
    def wrote(self) -> bool:
        """Whether the action wrote anything (events, a claim, a secret)."""
        return bool(self.events) or self.changed

    def to_json(self) -> dict[str, Any]:
        """The answer (keys :data:`companion.hub.ANSWER_KEYS`): ``{"recorded": [seqs], "message", "error",
        "status", "version"}``."""
        seqs = self.recorded if self.recorded is not None else [e.seq for e in self.events]
        return {"recorded": list(seqs), "message": self.message, "error": self.error,
                "status": self.status, "version": self.version}


def handle_action(flow: GameFlow, action: Mapping[str, Any]) -> Outcome | None:
    """Carry out one hub action for the flow (called by the main loop, the one owner of the state).

    Actions: ``next_phase`` (``confirm``: :class:`companion.actions.NextPress`); ``report`` with ``player``,
    ``form``, ``values``; ``undo_report`` with ``player``. Other actions return None (the loop handles them).

    Returns:
        What was done; ``error`` holds the message of a refused action (nothing recorded).
    """
    act = posted(action)
    if act is None:
        return None
    what, origin, p = act.action, act.origin, act.payload
    try:
        if what is Action.NEXT_PHASE:
            events = flow.next_phase(origin, confirm=p.confirm is True)
            if flow.over():  # the scores screen and the phones say the game ended, not the last round's note
                return Outcome(events, Text("{title}: game over", title=flow.spec.title))
            table = flow.table()
            now = next((ph["label"] for ph in table.phases if ph.get("state") == "current"), None) or table.note
            if now and (str(now) in (str(v) for v in getattr(table.round_label, "params", {}).values())
                        or str(now).lower() in str(table.round_label).lower()):
                # the round's label names the phase already (Eclipse: 'Round 1 of 9, Upkeep phase'), or the round
                # (Among the Stars: 'Year 1 of 4, round 2 of 6', whose strip's tile is 'Round 2')
                now = None
            return Outcome(
                events, Text("{round}: {now}", round=table.round_label, now=now) if now else table.round_label
            )
        if what is Action.REPORT:
            event = flow.report(p.player, p.form, p.values, origin)
            return Outcome([event], Text("{what} recorded", what=flow.describe(event)),
                           detail=f"event {event.seq} ({event.kind})")
        if what is Action.UNDO_REPORT:
            undo = flow.undo_report(p.player, origin, p.form)
            if undo is None:
                return Outcome([], Text("{player} has no report to undo", player=p.player))
            withdrawn = next((e for e in flow.session.events() if e.seq == undo.payload["seq"]), None)
            what = flow.spec.event_label(withdrawn.kind, withdrawn.payload) if withdrawn is not None else Text("report")
            return Outcome([undo], Text("{player}'s report withdrawn: {what}", player=p.player, what=what),
                           detail=f"{p.player}: report #{undo.payload['seq']} undone (event {undo.seq})")
    except BadEntry as exc:  # the table moved past a well-formed entry: 409, as a stale tap; else bad input
        return Outcome([], "", message_of(exc), STALE if isinstance(exc, MovedOn) else None,
                       kept=flow.keep_asked if what is Action.NEXT_PHASE else None)
    return None
