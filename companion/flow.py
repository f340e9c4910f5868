"""The at-table game flow, the same for every game: setup, Next, reports, undo, end, scores, export.

One :class:`GameFlow` drives every game; a game's flow module (``companion/flows/``, a
:class:`~companion.flow_spec.FlowBase`) only says what differs: the report forms, the columns each
player's row shows, the boards to draw, how the engine's view and progress read as a round (phases in
order, who selected each, the VP pool), which events the Next button records, and each player's role
for the play record. Name, title, BoardGameGeek id, player range, seat colours and options come from the
game's declaration (``game.info``); the round, stage, last round, ending, over and who the table waits
for come from the engine's ``progress(state)``.

Everything the flow does is an event in the session (``companion.session``), so undo, a power cut
and the export all work from the log. The flow is driven by the main loop only
(:func:`companion.flow_actions.handle_action`); views post actions through the :class:`~companion.hub.StateHub`.
The scores as they stand and the exports of a game (JSON, BG Stats) are :mod:`companion.flow_export`'s, called by
the methods of the same names.
A player's reports and their withdrawal are :mod:`companion.flow_reports`' (mixed into :class:`GameFlow`); the actions
from the hub and what each did (:class:`companion.flow_actions.Outcome`) are :mod:`companion.flow_actions`'.

The flow's view (``view["game"]`` of the published view for these games)::

    {"flow": "roll", "game": "roll", "title": "Roll for the Galaxy", "round": 3,
     "round_label": "Round 3", "stage": "develop", "turn": null | "Ann", "acting": ["Ann", ...], "note": "...",
     "phases": [{"label": "Develop", "by": ["Ann"], "state": "done" | "current" | "next" | "unselected"}],
     "pool": 14 | null, "pool_label": "VP pool",
     "columns": [{"key": "tableau", "label": "Tableau"}, ...],
     "players": [{"name", "seat", "colour", "role", "tableau", "credits", "vp", "waiting": bool, <column key>: ...}],
     "boards": [Board.to_json()...], "throws": [Throw.to_json()...],
     "last_round": false, "ending": ["..."], "over": false,
     "next": {"label": "Settle", "enabled": true, "why": "", "asked": "" | what the last Next asks to confirm},
     "forms": [Form.to_json()...], "open_forms": {"Ann": ["tile", ...]},
     "choices_now": {"Ann": {form id: {field name: {"choices": [...], "none": "..."}}}},
     "choice_groups": {"Ann": {form id: {field name: {"groups": [{"label", "choices": [...]}], "rest": "..."}}}},
     "form_notes": {"Ann": {form id: "what the form says to Ann now"}},
     "cell_choices": {"Ann": {form id: {field name: {"after": field, "places": {"i,j": label}, "by": {"i,j": ["i,j"]},
                                                     "chosen": {"i,j": "i,j"}}}}},
     "undo": {"Ann": {"label": null | what the phone's Undo does now, "shown": bool}} (:meth:`GameFlow.undo_label`),
     "withdraw": {"Ann": [{"form": id, "label": "Withdraw my entry: …"}]} (:meth:`GameFlow.kept_entries`),
     "findings": [{"what", "where", "severity", "rule", "seq", "todo"}],
     "result": null | {"players": [...], "winners": [...], "team_scores"?: {team: VP}},
     "export": null | {"bgstats_url": "bgstats://..."}}
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import rules
from companion import flow_export, records
from companion.errors import BadEntry, SessionError
from companion.flow_export import bgstats_url
from companion.flow_reports import FlowReports
from companion.flow_spec import GameSpec, TableRound
from companion.i18n import AND, Listing, Text
from companion.player_names import kept_seats
from rules import LAST_ROUND, BadEvent, Event, Finding, Progress, UnknownEvent

log = logging.getLogger(__name__)

__all__ = [
    "GameFlow",
    "ALL_FINDINGS",
    "NEWEST_FINDINGS",
]

TODO = {
    "error": Text("put it right at the table, or Undo the report"),
    "warning": Text("check with the players; Undo if it was a slip"),
    "info": "",
}
"""What to do about a finding, by severity (shown under it on both views)."""

NEWEST_FINDINGS = 6
"""The findings every state push carries (the newest first; ``findings_total`` says how many the game has)."""
ALL_FINDINGS = "all_findings"
"""The view's key holding every finding of the game, newest first: kept in the box's snapshot and sent only when a
phone asks for it (``GET /api/findings``; :func:`companion.webstream.state_json` leaves it out of every push)."""

class GameFlow(FlowReports):
    """The shared at-table flow over one session: setup, advancing, reports, undo, end, scores, export.

    Args:
        session: a :class:`companion.session_log.Session` of ``spec.name``.
        spec: the game's flow module (``companion.flows.FLOWS[name]``).

    Raises:
        ValueError: the session is of another game.
        BadEntry: its seats or players as kept are none this program reads (a name it refuses, a shape it does not
            know: kept by another version, or changed in the file).
    """

    def __init__(self, session: Any, spec: GameSpec) -> None:
        if session.game.name != spec.name:
            raise ValueError(f"session {session.id} is a {session.game.name!r} game, not {spec.name!r}")
        self.session = session
        self.spec = spec
        # the Next confirmation asked: (the newest event's seq, its words), kept with the game so a restart resumes it
        self._asked: tuple[int, str] | None = self._kept_asked()
        self.camera_counts = False
        """Whether the box's camera counts the dice at the end of the game (its camera part has a count pass:
        Roll's dice reader); set by the main loop's play mode. False: played from the phones, whose forms count
        them (:meth:`companion.flow_spec.FlowBase.uncounted_note` says so)."""
        self.seats: list[dict[str, str]] = _kept_seats(session.settings, spec.info.colours)

    # -- reading -----------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s["name"] for s in self.seats]

    def engine_view(self) -> dict[str, Any]:
        """The rules engine's ``view(state)`` of the session as it stands."""
        return self.session.game.view(self.session.replay().state)

    def progress(self) -> Progress:
        """The rules engine's ``progress(state)`` of the session as it stands."""
        return self.session.game.progress(self.session.replay().state)

    def _now(self, state: Any = None) -> tuple[dict[str, Any], Progress]:
        """The engine's view and progress of ``state`` (None: the session as it stands)."""
        state = self.session.replay().state if state is None else state
        return self.session.game.view(state), self.session.game.progress(state)

    def table(self) -> TableRound:
        """The round as the touchscreen shows it (see :class:`TableRound`)."""
        return self._table(*self._now())

    def _table(self, ev: Mapping[str, Any], progress: Progress) -> TableRound:
        """The game's :meth:`GameSpec.table` of the table as it stands, with the last look at hidden entries: a Next
        that would score the game while a player has entered nothing on a private form open to them (Eclipse's final
        position, a Qualeen's secret objective) asks the table first (:attr:`TableRound.next_confirm`, after the
        game's own question)."""
        t = self.spec.table(ev, progress)
        missing = self.hidden_missing(ev, progress)
        if missing:
            asks = [Text("{names}: nothing entered yet ({form}); press {next} again to score the game without it, "
                         "or enter it on the phone first", names=Listing(names, AND), form=label, next=Text("Next"))
                    for label, names in missing.items()]
            t.next_confirm = Listing([*([t.next_confirm] if t.next_confirm else []), *asks], " ")
        return t

    def hidden_missing(self, ev: Mapping[str, Any], progress: Progress) -> dict[str, list[str]]:
        """The players who have entered nothing on a private form open to them (:attr:`Form.private`: a hidden entry,
        its event kind named in ``spec.report_forms``), by the form's label, when the Next the table would press now
        scores the game; ``{}`` otherwise (the game goes on, or every hidden entry is in). Looked at only in the last
        round or while the table waits for hidden entries alone (:meth:`FlowBase.entry_forms`)."""
        if progress.over:
            return {}
        private = {f.id: f.label for f in self.spec.forms(ev) if f.private}
        opened = {n: [f for f in self.spec.open_forms(ev, progress, n) if f in private] for n in self.names}
        if not any(opened.values()):
            return {}
        if not progress.last_round and not any(self.spec.entry_forms(ev, progress, n) for n, f in opened.items() if f):
            return {}
        applied = set(self.session.replay().applied)
        entered = {(e.player, self.spec.report_forms.get(e.kind)) for e in self.session.events() if e.seq in applied}
        missing: dict[str, list[str]] = {}
        for name, forms in opened.items():
            for form in forms:
                if (name, form) not in entered:
                    missing.setdefault(private[form], []).append(name)
        planned = self.spec.next_events(ev, progress)
        if not missing or not planned:
            return {}
        game, state, seq = self.session.game, self.session.replay().state, self.session.last_seq
        try:
            for k, (kind, payload) in enumerate(planned, 1):
                state, _ = game.apply(state, Event(seq + k, kind, dict(payload), time.time(), None, "touchscreen"))
        except (BadEvent, UnknownEvent):
            return {}
        return missing if game.progress(state).over else {}

    def over(self) -> bool:
        """Whether the game has ended (``progress.over``)."""
        return self.progress().over

    def stage_at(self, seq: int | None) -> tuple[str, str, str | None]:
        """``(round label, stage, the current phase's label or None)`` as the log stood after event ``seq``
        (None: now): where the table was, as the version rule compares it."""
        if seq is None:
            t = self.table()
        else:
            events = [e for e in self.session.events() if e.seq <= seq]
            t = self.spec.table(*self._now(rules.replay(self.session.game, self.session.settings, events).state))
        return t.round_label, t.stage, next((p.get("label") for p in t.phases if p.get("state") == "current"), None)

    def preview(self, events: Sequence[tuple[str, Mapping[str, Any], str | None]],
                withdraw: Collection[int] = ()) -> list[list[Finding]]:
        """What the rules engine would find if ``events`` were recorded now, one after another: the engine's
        ``apply`` on a copy of the state (nothing is recorded, the session is not changed).

        Args:
            events: ``(kind, payload, player)`` of each event, in order.
            withdraw: seqs of events in force to leave out first, as an undo of each would.

        Returns:
            The findings each event raises (an event the engine refuses outright raises none here: recording it
            says why).
        """
        game, seq, out = self.session.game, self.session.last_seq, []
        if withdraw:
            undos = [Event(seq + k, rules.UNDO, {"seq": s}) for k, s in enumerate(withdraw, 1)]
            state = rules.replay(game, self.session.settings, [*self.session.events(), *undos]).state
            seq += len(undos)
        else:
            state = self.session.replay().state
        for k, (kind, payload, player) in enumerate(events, 1):
            try:
                state, found = game.apply(state, Event(seq + k, kind, dict(payload), time.time(), player, "camera"))
            except (BadEvent, UnknownEvent):
                found = []
            out.append(list(found))
        return out

    def findings(self, limit: int | None = NEWEST_FINDINGS) -> list[dict[str, Any]]:
        """The newest findings first (at most ``limit``; None: every one of the game), each with ``todo``: what to do
        about it. A finding
        raised again (same what, where, rule, card and cell: Among the Stars' ``station_read`` re-checks the
        whole station on every camera read) is listed once, at its newest; the same rule broken again by
        another card or cell (a second and a third build in one round) is listed each time. A finding whose place is
        a player its sentence already names has an empty ``where`` (the name is said once). Once the game is over,
        the note that this round is the last (:data:`rules.LAST_ROUND`) is not listed: the result says it ended. A
        note asking the table for something it has given since (the game's ``settled(state, finding)``, where it has
        one: Roll's "say which (Die removed)" once the die is said) is not listed either."""
        replayed = self.session.replay()
        found: Sequence[Finding] = replayed.findings
        over = self.session.game.progress(replayed.state).over
        settled = getattr(self.session.game, "settled", None)
        if settled is not None:
            found = [f for f in found if not settled(replayed.state, f)]
        out: list[dict[str, Any]] = []
        seen: set[tuple[Any, ...]] = set()
        for f in list(found)[::-1]:  # each finding once: every camera read of a station re-checks it
            key = (f.what, f.where, f.rule, f.card, f.cell)
            if key in seen or (over and f.rule_kind == LAST_ROUND):
                continue
            seen.add(key)
            row = {**f.to_json(), "todo": TODO.get(f.severity.value, "")}
            if said_in(f.where, f.what, self.names):  # "Ann took no action ..." not again "(Ann)": said once
                row["where"] = ""
            out.append(row)
            if limit is not None and len(out) >= limit:
                break
        return out

    def result(self) -> dict[str, Any]:
        """Scores as they stand (:func:`companion.flow_export.result`: its shape, the winners, what is left out)."""
        return flow_export.result(self)

    def hidden_left_out(self) -> Any:
        """Why this game's standing leaves something out (the flow's ``hidden_note``: Eclipse's final positions
        already entered, Among the Stars' Qualeen secret objective, count once the game is scored), or None: the game
        is over, or nothing entered is hidden (:meth:`rules.core.Game.public` gives the state as it is)."""
        if self.over():
            return None
        state = self.session.replay().state
        if self.session.game.public(state) == state:
            return None
        return getattr(self.spec, "hidden_note", None) or Text("what players keep hidden counts once the game is over")

    def private_form(self, form_id: Any) -> bool:
        """Whether ``form_id`` is a private report (:attr:`companion.flow_spec.Form.private`): only the
        phone that claimed the seat may send it."""
        return any(f.id == form_id and f.private for f in self.spec.forms(self.engine_view()))

    def view(self) -> dict[str, Any]:
        """The flow's view dict (shape in the module doc)."""
        ev, progress = self._now()
        t = self._table(ev, progress)
        notes = self.findings(limit=None)
        columns = self.spec.columns_now(ev)
        players = []
        for k, s in enumerate(self.seats):
            row = t.players.get(s["name"], {})
            shown_values = {c.key: row.get(c.key) for c in columns}
            players.append(
                {
                    "name": s["name"],
                    "seat": k + 1,
                    "colour": s["colour"],
                    "role": self.spec.role(ev, s["name"]),
                    "tableau": row.get("tableau"),
                    "credits": row.get("credits"),
                    "vp": row.get("vp", 0),
                    **{key: v for key, v in shown_values.items() if key not in ("tableau", "credits", "vp")},
                    "waiting": s["name"] in t.waiting,
                }
            )
        can_next = bool(self.spec.next_events(ev, progress)) if not t.over else False
        labels = {f.id: f.label for f in self.spec.forms(ev)}
        return {
            "flow": self.spec.name,
            "game": self.spec.name,
            "title": self.spec.title,
            "round": t.round,
            "round_label": t.round_label,
            "stage": t.stage,
            "turn": progress.turn,
            "acting": list(progress.acting) or ([progress.turn] if progress.turn else []),
            "note": (None if self.camera_counts else self.spec.uncounted_note(ev, progress)) or t.note,
            "phases": t.phases,
            "pool": t.pool,
            "pool_label": t.pool_label,
            "columns": [c.to_json() for c in columns],
            "players": players,
            "boards": [b.to_json() for b in self.spec.boards(ev, progress)],
            "throws": [t.to_json() for t in self.spec.throws(ev, progress)],
            "last_round": t.last_round and not t.over,
            "ending": t.ending,
            "over": t.over,
            "next": {"label": t.next_label, "enabled": can_next, "why": "" if can_next else t.next_why,
                     "asked": self._asked_now(t) or ""},
            "forms": [f.to_json() for f in self.spec.forms(ev)],
            "open_forms": {name: self.open_forms(ev, progress, name) for name in self.names},
            "choices_now": {name: _shown(self.spec.choices_now(ev, progress, name)) for name in self.names},
            "choice_groups": {name: self.spec.choice_groups(ev, progress, name) for name in self.names},
            "form_notes": {name: self.spec.form_notes(ev, progress, name) for name in self.names},
            "cell_choices": {name: self.spec.cell_choices(ev, progress, name) for name in self.names},
            "undo": {name: self.undo_label(ev, progress, name) for name in self.names},
            "withdraw": {name: [] if t.over else [{"form": form, "label": Text("Withdraw my entry: {form}",
                                                                                form=labels[form])}
                                                  for form in self.kept_entries(name)
                                                  if not self.spec.kept_closed_why(form, ev, progress, name)]
                         for name in self.names},
            "findings": notes[:NEWEST_FINDINGS],
            "findings_total": len(notes),
            ALL_FINDINGS: notes,
            "result": self.result() if t.over else None,
            "export": {"bgstats_url": bgstats_url(self.bgstats_play())} if t.over else None,
        }

    def _asked_now(self, t: TableRound) -> str | None:
        """The confirmation the last Next asked (:attr:`TableRound.next_confirm`) while it still stands: nothing
        recorded since and the same players missing; else None."""
        if t.next_confirm and self._asked == (self.session.last_seq, str(t.next_confirm)):
            return t.next_confirm
        return None

    def _kept_asked(self) -> tuple[int, str] | None:
        """The Next question kept in the session database (:func:`companion.records.load_asked`), or None (none kept,
        or the storage cannot be read: the table is asked again)."""
        try:
            return records.load_asked(self.session.store, self.session.id)
        except SessionError as exc:
            log.warning("the question Next asked could not be read (%s): Next asks again", exc)
            return None

    def keep_asked(self) -> None:
        """Keep the question Next asked (or that none stands) in the session database, so a restart between the two
        presses ends the round on the second press, as it would have without the restart.

        Raises:
            StorageError: the storage refused (the question stands in memory: only a restart asks again).
        """
        records.save_asked(self.session.store, self.session.id, self._asked)

    # -- acting ------------------------------------------------------------------------
    def next_phase(self, origin: str = "touchscreen", confirm: bool = False) -> list[Event]:
        """Record what the Next button means now (reveal, the next phase, end of round, end of game).

        Returns:
            The events recorded.

        Where the table must confirm first (:attr:`companion.flow_spec.TableRound.next_confirm`: players who have not
        reported), the first Next is refused with what it would skip, and the next Next with nothing recorded in
        between carries it out. From a phone (``origin`` ``"phone"``) that next Next must carry ``confirm`` (its page
        showed the question): two phones tapping at once send the second tap before its page could show it, and
        that tap is refused with the same question.

        Raises:
            BadEntry: nothing can move now (the message says what the table is waiting for), or Next asks to be
                pressed again to confirm (the message says what it skips).
        """
        ev, progress = self._now()
        t = self._table(ev, progress)
        planned = [] if t.over else self.spec.next_events(ev, progress)
        if not planned:
            raise BadEntry(Text("the game is over") if t.over else (t.next_why or Text("nothing to advance now")))
        if t.next_confirm and (self._asked_now(t) is None or (origin == "phone" and confirm is not True)):
            self._asked = (self.session.last_seq, str(t.next_confirm))
            try:  # inside an action's transaction this is rolled back with it: the desk keeps it again (Outcome.kept)
                self.keep_asked()
            except SessionError as exc:
                log.warning("the question Next asked was not kept (%s): a restart asks again", exc)
            raise BadEntry(t.next_confirm)
        with self.session.store.transaction(write=True, doing="recording Next"):  # all of Next, or none of it
            events = [self.session.append(kind, payload, origin=origin) for kind, payload in planned]
            if self._asked is not None:
                self._asked = None
                self.keep_asked()
        return events

    def describe(self, event: Event) -> str:
        """An event in the players' words ("Ann: Phase selected", "Reveal"): what a message about it says
        (never its kind or number)."""
        what = self.spec.event_label(event.kind, event.payload)
        return Text("{player}: {what}", player=event.player, what=what) if event.player else what

    # -- export ------------------------------------------------------------------------
    def export_json(self) -> dict[str, Any]:
        """The finished game as one JSON document (:func:`companion.flow_export.export_json`)."""
        return flow_export.export_json(self)

    def bgstats_play(self, tz: Any = None) -> dict[str, Any]:
        """The play record for BG Stats' "push plays" import (:func:`companion.flow_export.bgstats_play`)."""
        return flow_export.bgstats_play(self, tz)


def _shown(narrowed: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """:meth:`companion.flow_spec.FlowBase.choices_now` as the phones get it: each field's ``choices`` and ``none``
    (a refusal's ``why`` is said only when a value left out is sent)."""
    return {form: {field: {k: v for k, v in left.items() if k != "why"} for field, left in fields.items()}
            for form, fields in narrowed.items()}


def _kept_seats(settings: Mapping[str, Any], colours: Sequence[str]) -> list[dict[str, str]]:
    """A stored game's seats (``settings["seats"]``: ``[{"name", "colour"}]``), or made from its players' names
    (``settings["players"]``: names, or ``{"name"}`` each: :func:`kept_seats`).

    Raises:
        BadEntry: either is of a shape this program does not read (a number, a seat with no name: changed in the
            file), or a name :func:`kept_seats` refuses.
    """
    seats, players = settings.get("seats") or [], settings.get("players") or []
    named = (isinstance(seats, list) and isinstance(players, list)
             and all(isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("colour"), str)
                     for s in seats)
             and all(isinstance(p, str) or isinstance(p, dict) and isinstance(p.get("name"), str) for p in players))
    if not named:
        raise BadEntry(Text("its seats as kept are not players this program reads (changed outside the box?)"))
    if seats:
        return [dict(s) for s in seats]
    return kept_seats([p if isinstance(p, str) else p["name"] for p in players], colours)


def said_in(where: str, what: str, names: Collection[str]) -> bool:
    """Whether the place ``where`` of a finding is one of the players ``names`` that its sentence ``what`` already
    names as a whole word ("Ann took no action in year 1, round 1" at "Ann": yes; at "An": no)."""
    if not where or where not in names:
        return False
    return re.search(rf"(?<!\w){re.escape(where)}(?!\w)", str(what)) is not None
