"""What the camera proposes: a change seen, as the event it records once a player confirms it with one tap.

Nothing the camera sees changes the game by itself: every change is a :class:`Proposal` ("Ann built Customs at
[0, 1]?"), asked as a :class:`Question` until a player confirms or dismisses it; what one read of a player's zone
gives is an :class:`Observed`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.kept_words import from_kept, to_kept

__all__ = ["MAX_QUESTION_ID", "Observed", "PLAYER_CHOICE", "Proposal", "Question", "READ"]

MAX_QUESTION_ID = 2**31
"""Question ids stay below this (a phone's JavaScript holds integers exactly only up to 2**53; the kept
``next_id`` is held to the same bound): a kept question with a larger id is a damaged row."""


READ = "read"
"""The payload key of the record of the read that proposed a change (Roll's ``phase_selected`` and ``dice_counted``,
Eclipse's ``volley_rolled``: ``{"image": path, "dice": [...], ...}``), kept with the event so a corrected read can be
enrolled later; it names the read, not the change (:attr:`Proposal.change`)."""
PLAYER_CHOICE = "player"
"""A :attr:`Proposal.choice_key` saying the choices are players and the one picked is the event's ``player`` (Among the
Stars' "whose station is this?"): such a question has no answer of its own (:attr:`Proposal.player` is ""), so it is
answered only by picking one, each choice one tap; a phone may pick only a player whose seat no other phone holds."""


@dataclass(frozen=True)
class Proposal:
    """A change the camera saw, as the event it records when a player confirms it.

    Attributes:
        player: whose empire it concerns (the event's ``player``).
        text: the one-tap question, e.g. ``"Ann built Customs at [0, 1]?"``.
        kind: the event kind recorded on confirm (``location_built``, ``card_placed``...).
        payload: the event's payload.
        choices: other answers a player may pick instead (Roll: the phases); the picked one replaces
            ``payload[choice_key]``.
        choice_key: the payload key a choice replaces, or :data:`PLAYER_CHOICE` (the choice is the event's player).
        proposed: the camera's own answer among ``choices`` (None without choices).
        labels: each choice as players read it (a phase in their edition's words), in ``choices``' order; ()
            shows the choices as they are. What a player picks is the choice, never its label.
        cell: where on a board the change lies (a hex's ``(q, r)``), for the misplays about it; None: the payload's
            ``cell`` (a station's ``[i, j]``), if any.
    """

    player: str
    text: str
    kind: str
    payload: Mapping[str, Any]
    choices: tuple[str, ...] = ()
    choice_key: str | None = None
    proposed: str | None = None
    labels: tuple[str, ...] = ()
    cell: tuple[int, int] | None = None

    @property
    def place(self) -> list[int] | None:
        """Where the change lies (``[a, b]``): :attr:`cell`, else the payload's ``cell``, else None."""
        cell = self.cell if self.cell is not None else self.payload.get("cell")
        return None if cell is None else [int(v) for v in cell]

    @property
    def choose_player(self) -> bool:
        """Whether the answer picks the event's player among :attr:`choices` (:data:`PLAYER_CHOICE`)."""
        return self.choice_key == PLAYER_CHOICE

    @property
    def key(self) -> str:
        """Identity of the change: the same change is asked about once while it waits."""
        return json.dumps([self.player, self.kind, self.payload], sort_keys=True, default=str)

    @property
    def change(self) -> str:
        """The change proposed, whichever read proposed it: :attr:`key` without the payload's :data:`READ` record
        (what names the read itself: its picture's path, each die's box and confidence as measured), with the
        question's words. Two reads of dice that did not move propose the same change (Roll's "Ann selected
        Develop? (dice: Develop 2)", Eclipse's volley) although their ``read`` records differ; dice read otherwise
        give other words or another payload."""
        payload = {k: v for k, v in self.payload.items() if k != READ}
        return json.dumps([self.player, self.kind, payload, str(self.text)], sort_keys=True, default=str)


@dataclass
class Observed:
    """What one accepted read of one player's zone gives.

    Attributes:
        proposals: questions to ask.
        misplays: what the rules engine finds wrong with the cards this read added, shown at once
            (:func:`companion.camera.preview.misplays`: ``{"player", "card", "cell", "rule", "source", "message",
            "fix", "severity"}``); replace the player's previous misplays. None: the previous ones stay.
        log: events recorded at once (``(kind, payload)``, e.g. Among the Stars' ``station_read``).
        notes: sentences for the players (a card recorded but not seen, one to straighten).
        withdraw: waiting questions (by :attr:`Proposal.key`) this read makes stale (a card moved).
    """

    proposals: list[Proposal] = field(default_factory=list)
    misplays: list[dict[str, Any]] | None = None
    log: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    withdraw: list[str] = field(default_factory=list)


@dataclass
class Question:
    """A waiting :class:`Proposal` with its id (what ``camera_confirm`` / ``camera_dismiss`` name).

    Attributes:
        zone: the player's zone (or the shared map) whose read proposed it; None for a question of a dice pass
            (a Roll phase, the end-of-game count), which is never remembered once dismissed.
    """

    id: int
    proposal: Proposal
    asked_at: float
    choice: str | None = None
    error: Any = None
    zone: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"id", "player", "text", "kind", "payload", "choices", "labels", "proposed", "choice", "error",
        "choose_player"}`` (``labels``: each choice as shown; ``choose_player``: each choice is a player, one tap
        each, and there is no Confirm: :data:`PLAYER_CHOICE`)."""
        p = self.proposal
        return {"id": self.id, "player": p.player, "text": p.text, "kind": p.kind, "payload": dict(p.payload),
                "choices": list(p.choices), "labels": list(p.labels or p.choices), "proposed": p.proposed,
                "choice": self.choice, "error": self.error, "choose_player": p.choose_player}

    def to_kept(self) -> dict[str, Any]:
        """The question as JSON kept with the game (:func:`companion.records.save_questions`), its words as
        :func:`companion.kept_words.to_kept` keeps them: :meth:`from_kept` asks it again after a restart."""
        p = self.proposal
        return {"id": self.id, "player": p.player, "text": to_kept(p.text), "kind": p.kind,
                "payload": json.loads(json.dumps(dict(p.payload), default=str)), "choices": list(p.choices),
                "choice_key": p.choice_key, "proposed": p.proposed, "labels": [to_kept(w) for w in p.labels],
                "cell": None if p.cell is None else [int(v) for v in p.cell], "zone": self.zone,
                "asked_at": float(self.asked_at)}

    @classmethod
    def from_kept(cls, kept: Any) -> Question:
        """The question :meth:`to_kept` kept (its error, if any, is not: the table answers it afresh).

        Raises:
            ValueError: ``kept`` is of another shape (a damaged row), or its id is not in 1 ..
                :data:`MAX_QUESTION_ID` - 1.
        """
        if not isinstance(kept, Mapping):
            raise ValueError("a kept question is not an object")
        qid, player, kind, payload = kept.get("id"), kept.get("player"), kept.get("kind"), kept.get("payload")
        choices, key, proposed = kept.get("choices", []), kept.get("choice_key"), kept.get("proposed")
        cell, zone, at = kept.get("cell"), kept.get("zone"), kept.get("asked_at", 0.0)
        if type(qid) is not int or not 1 <= qid < MAX_QUESTION_ID or not isinstance(player, str) or \
                not isinstance(kind, str) or not isinstance(payload, Mapping) or not isinstance(choices, list) or \
                not all(isinstance(c, str) for c in choices) or not (key is None or isinstance(key, str)) or \
                not (proposed is None or isinstance(proposed, str)) or not (zone is None or isinstance(zone, str)) or \
                isinstance(at, bool) or not isinstance(at, (int, float)):
            raise ValueError("a kept question of another shape")
        if cell is not None and (not isinstance(cell, list) or len(cell) != 2 or
                                 not all(type(v) is int for v in cell)):
            raise ValueError("a kept question's cell of another shape")
        text = from_kept(kept.get("text"))
        labels = kept.get("labels", [])
        if not isinstance(text, str) or not text or not isinstance(labels, list):
            raise ValueError("a kept question's words of another shape")
        said = tuple(from_kept(w) for w in labels)
        if said and len(said) != len(choices):
            raise ValueError("a kept question's labels do not fit its choices")
        proposal = Proposal(player, text, kind, dict(payload), tuple(choices), key, proposed, said,
                            None if cell is None else (cell[0], cell[1]))
        return cls(qid, proposal, float(at), zone=zone)
