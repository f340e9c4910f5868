"""The players' answers to the camera's questions: confirm (record the question's event, or a corrected choice),
dismiss, and the ``camera_confirm`` / ``camera_dismiss`` actions. A part of :class:`companion.camera.CameraFlow`,
which holds the ``questions`` (:class:`companion.camera.questions.Question`, oldest first), the ``misplays`` per
player shown on the camera panel, and the game ``flow``."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from companion.actions import Action, posted
from companion.camera.questions import MAX_QUESTION_ID, Question
from companion.errors import BadEntry, shown
from companion.i18n import Listing, Text, message_of
from rules import BadEvent, Event, UnknownEvent

__all__ = ["CameraAnswers", "NotWaiting"]

log = logging.getLogger("companion.camera.flow")

MAX_KEPT = 20
"""Kept questions asked again after a restart at most (the camera's own ``MAX_QUESTIONS``)."""
ANSWERS_KEPT = 32
"""How many answered questions are remembered to tell a later answer to one of them that it came too late."""


class NotWaiting(BadEntry):
    """An answer to a camera question that no longer waits (answered on another view, or gone): the table moved on
    since the phone showed it, so it is refused as any tap on a screen grown stale is (HTTP 409, the current state
    with it), not as a malformed answer (400)."""


class CameraAnswers:
    """Answers to the camera's questions (mixed into :class:`companion.camera.CameraFlow`, which sets
    ``questions: list[Question]``, ``misplays: dict[str, list[dict]]`` and ``flow``)."""

    questions: list[Question]
    _next_id: int
    answered: dict[int, tuple[Any, Any]]
    misplays: dict[str, list[dict[str, Any]]]
    dismissed: dict[str, str]
    flow: Any

    def _question(self, qid: Any) -> Question:
        from companion.flow_spec import whole_number

        wanted = whole_number(qid, Text("camera question id"))
        q = next((q for q in self.questions if q.id == wanted), None)
        if q is None:
            if wanted in self.answered:
                question, verdict = self.answered[wanted]
                raise NotWaiting(Text("“{question}” was already answered ({verdict}): this answer was not recorded",
                                    question=question, verdict=verdict))
            raise NotWaiting(
                Text("camera question {id} is no longer waiting (answered on another view?)", id=shown(wanted))
            )
        return q

    def confirm(self, qid: Any, choice: Any = None, origin: str = "touchscreen") -> Event:
        """Record the question's event (``origin="camera"``) and drop the question.

        Args:
            qid: the question's id.
            choice: one of the question's ``choices`` instead of the camera's answer (a correction); for a question
                whose choices are players (:attr:`Proposal.choose_player`), the player the event is recorded for.
            origin: the view that answered (logged).

        Raises:
            companion.errors.BadEntry: no such question, a choice not offered (or none, where a player must be
                picked), or the rules refuse the event (the question stays, with the error).
        """
        q = self._question(qid)
        p = q.proposal
        payload = json.loads(json.dumps(dict(p.payload)))
        player = p.player
        if p.choose_player:   # "whose station is this?": the player picked is the event's (no answer of its own)
            if choice in (None, ""):
                raise BadEntry(Text("“{question}”: tap the player it belongs to ({answers})", question=p.text,
                                    answers=Listing(p.labels or p.choices)))
            if choice not in p.choices:
                raise BadEntry(Text("“{question}”: {choice} is not one of the players it may belong to; tap one of "
                                    "them ({answers})", question=p.text, choice=shown(choice, 32),
                                    answers=Listing(p.labels or p.choices)))
            player, choice = choice, None
            self._one_station_each(p, player)
        if choice not in (None, ""):
            if choice not in p.choices or p.choice_key is None:
                if not p.choices or p.choice_key is None:
                    raise BadEntry(Text("“{question}” takes no other answer than Confirm or Dismiss", question=p.text))
                raise BadEntry(
                    Text(
                        "{choice} is not an answer to “{question}”; answers: {answers}",
                        choice=shown(choice, 32),
                        question=p.text,
                        answers=Listing(p.labels or p.choices),
                    )
                )
            payload[p.choice_key] = choice
            if isinstance(payload.get("read"), dict):
                payload["read"]["corrected"] = choice != p.proposed
        try:
            event = self.flow.session.append(p.kind, payload, player=player, origin="camera")
        except (BadEvent, UnknownEvent) as exc:  # the rules' reason, never the event's kind or the session's id
            q.error = getattr(exc, "problem", None) or message_of(exc)  # said in each reader's language
            raise BadEntry(Text("{question} {problem}", question=p.text, problem=q.error)) from exc
        self.questions.remove(q)
        self.keep_questions()  # with the event, in the action's transaction
        self._answered(q, Text("{what} recorded", what=self.flow.describe(event)))
        log.info("camera question %d confirmed on the %s: %s (#%d)", q.id, origin, p.text, event.seq)
        return event

    def _one_station_each(self, p: Any, player: str) -> None:
        """Refuse a "whose station is this?" answer giving ``player`` a second station while an answer giving them
        another is in force: each player builds one station, from their own Main Reactor (Among the Stars rulebook,
        3 'Setup'); the answer in force is undone first (the table's Undo, or their phone's "Undo my last report").

        Raises:
            companion.errors.BadEntry: naming the player and how to take the earlier answer back."""
        from companion.camera.station_ask import claims_in_force
        from rules.among_the_stars.events import STATION_CLAIMED

        if p.kind != STATION_CLAIMED:
            return
        held = claims_in_force(self.flow.session).get(player)
        at = p.payload.get("at")
        if held is not None and [*held] != at:
            raise BadEntry(Text("{player} has a station already (an answer in force): each player builds one station "
                                "(rulebook 3 'Setup'). If that answer was wrong, undo it first (“{undo}” on the "
                                "touchscreen, or “{mine}” on {player}'s phone), then answer “{question}”",
                                player=player, undo=Text("Undo"), mine=Text("Undo my last report"), question=p.text))

    def dismiss(self, qid: Any, origin: str = "touchscreen") -> Question:
        """Drop the question; nothing is recorded. A question of a zone's read is not asked again while that zone's
        reads keep proposing the same change (``dismissed``). Raises BadEntry for no such question."""
        q = self._question(qid)
        self.questions.remove(q)
        self.keep_questions()
        if q.zone is not None:
            self.dismissed[q.proposal.key] = q.zone
        self._answered(q, Text("dismissed"))
        log.info("camera question %d dismissed on the %s: %s", q.id, origin, q.proposal.text)
        return q

    def _answered(self, q: Question, verdict: Any) -> None:
        """The players answered ``q`` (``verdict``: what the answer did, said to a later answer to it): it is kept
        among the last :data:`ANSWERS_KEPT` answered, and its card's misplays leave the camera panel (the rules'
        findings keep them)."""
        self.answered[q.id] = (q.proposal.text, verdict)
        while len(self.answered) > ANSWERS_KEPT:
            del self.answered[next(iter(self.answered))]
        p = q.proposal
        cell = p.place or []
        card = p.payload.get("card")
        kept = [m for m in self.misplays.get(p.player, [])
                if not (m.get("cell") == cell and (card is None or m.get("card") == card))]
        self.misplays[p.player] = kept

    def resume_questions(self) -> None:
        """Ask again the questions kept with the game (:meth:`keep_questions`) when the box restarted while they
        waited: the same ids and words, on the touchscreen and the phones. A kept question that no longer fits the
        game (a player no longer in it, the game over) or of another shape (a damaged row) is dropped with a log
        line; a storage that cannot be read asks none. Sets ``_next_id`` past the kept ones."""
        from companion import records
        from companion.errors import SessionError

        session = self.flow.session
        try:
            kept = records.load_questions(session.store, session.id)
        except SessionError as exc:
            log.warning("the camera's questions could not be read (%s): the camera asks again", exc)
            return
        if kept is None:
            return
        rows = kept.get("questions")
        next_id = kept.get("next_id")
        if not isinstance(rows, list):
            log.warning("the camera's kept questions are damaged: dropped, the camera asks again")
            return
        over = self.flow.over()
        for row in rows:
            try:
                q = Question.from_kept(row)
            except ValueError as exc:
                log.warning("a kept camera question is damaged (%s): dropped", exc)
                continue
            if over or (q.proposal.player not in self.flow.names and not q.proposal.choose_player) or \
                    any(w.id == q.id or w.proposal.key == q.proposal.key for w in self.questions):
                log.info("a kept camera question no longer applies (%s): dropped", q.proposal.text)
                continue
            self.questions.append(q)
        self.questions = self.questions[-MAX_KEPT:]
        top = max((q.id for q in self.questions), default=0)
        kept_next = next_id if type(next_id) is int and next_id < MAX_QUESTION_ID else 1
        self._next_id = max(self._next_id, top + 1, kept_next)
        if self.questions:
            log.info("%d camera question(s) kept across the restart asked again", len(self.questions))

    def keep_questions(self) -> None:
        """Keep the questions waiting with the game in the session database (in the caller's transaction when there
        is one), so a restart asks them again (:meth:`resume_questions`); a storage that refuses only loses them
        at a restart (logged)."""
        from companion import records
        from companion.errors import SessionError

        session = self.flow.session
        if getattr(session.store, "read_only", None) is not None:
            return
        try:
            records.save_questions(session.store, session.id, [q.to_kept() for q in self.questions], self._next_id)
        except SessionError as exc:
            log.warning("the camera's questions were not kept (%s): a restart asks again", exc)

    def player_of(self, qid: Any, choice: Any = None) -> str | None:
        """The player waiting question ``qid`` is about (None: no such question, or a bad id); for a question whose
        answer picks the player (:attr:`Proposal.choose_player`), the player ``choice`` picks (None: none of its
        choices), so a phone answers only for a seat no other phone holds."""
        if isinstance(qid, bool) or not isinstance(qid, (int, str)):
            return None
        try:
            p = self._question(qid).proposal
        except ValueError:
            return None
        if p.choose_player:
            return choice if isinstance(choice, str) and choice in p.choices else None
        return p.player

    def memo(self) -> tuple[Any, ...]:
        """The questions, misplays and answered questions (:meth:`restore` puts them back when an answer's write is
        rolled back)."""
        return list(self.questions), {k: list(v) for k, v in self.misplays.items()}, dict(self.answered)

    def restore(self, memo: tuple[Any, ...]) -> None:
        """Back to :meth:`memo`'s questions, misplays and answered questions."""
        questions, misplays, answered = memo
        self.questions, self.misplays = list(questions), {k: list(v) for k, v in misplays.items()}
        self.answered = dict(answered)

    def handle(self, action: Mapping[str, Any]) -> Any:
        """``camera_confirm`` (``id``, optional ``choice``) / ``camera_dismiss`` (``id``) ->
        :class:`companion.flow_actions.Outcome`; other actions -> None. An answer to a question no longer waiting is
        refused with :data:`companion.flow_actions.STALE` (409), any other refused answer with 400."""
        from companion.flow_actions import STALE, Outcome

        act = posted(action)
        if act is None:
            return None
        try:
            if act.action is Action.CAMERA_CONFIRM:
                event = self.confirm(act.payload.id, act.payload.choice, act.origin)
                return Outcome([event], Text("{what} recorded from the camera", what=self.flow.describe(event)),
                               detail=f"event {event.seq} ({event.kind}) from the camera")
            if act.action is Action.CAMERA_DISMISS:
                q = self.dismiss(act.payload.id, act.origin)
                return Outcome([], Text("dismissed: {question}", question=q.proposal.text))
        except NotWaiting as exc:
            return Outcome([], "", message_of(exc), status=STALE)
        except BadEntry as exc:
            return Outcome([], "", message_of(exc))
        return None
