"""A player's reports at the table: record one (checked against the forms open to them now), correct one,
withdraw one, and what their phone's Undo and withdraw buttons do. A part of :class:`companion.flow.GameFlow`,
which holds the ``session``, the game's flow module ``spec`` and the seats' ``names``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import rules
from companion.errors import BadEntry, MovedOn, shown
from companion.flow_spec import Form, GameSpec, parse_form
from companion.i18n import AND, N_, Listing, Text, message_of
from rules import BadEvent, Event, Progress, UnknownEvent

__all__ = ["REPORTS_CLOSED", "FlowReports"]

REPORTS_CLOSED = N_("the game is over: reports are closed (Undo first to reopen the last round)")
"""Why a phone's report or its own withdrawal is refused once the scores are final (every game: only the
table's Undo reopens the last round)."""


class FlowReports:
    """The players' reports (mixed into :class:`companion.flow.GameFlow`, which sets ``session`` (a
    :class:`companion.session_log.Session`), ``spec`` (:class:`companion.flow_spec.GameSpec`), ``names`` and
    ``_now``: the engine's view and progress of a state)."""

    session: Any
    spec: GameSpec
    names: list[str]
    _now: Callable[..., tuple[dict[str, Any], Progress]]

    def report(self, player: Any, form_id: Any, values: Any, origin: str = "phone") -> Event:
        """Record a player's report about their own empire.

        Args:
            player: the reporting player's name (their seat).
            form_id: one of the game's form ids.
            values: ``{field: value}``, checked by :func:`parse_form`.
            origin: ``"phone"``, ``"touchscreen"``, ``"cli"``.

        Returns:
            The recorded event (findings about it are in the next :meth:`companion.flow.GameFlow.view`). A report
            that corrects an earlier one of the player's (``spec.corrects``: Eclipse's starting sector reported
            again) replaces it: an undo of the earlier report is recorded with it, so the map and the findings
            follow the newest report.

        Raises:
            BadEntry: unknown player or form, a form not open now, a bad value, a value the table does not leave
                the player now (:meth:`companion.flow_spec.FlowBase.choices_now`), or the rules cannot apply it; the
                message names the problem and nothing is recorded.
        """
        if not isinstance(player, str) or player not in self.names:
            raise BadEntry(Text("unknown player {player}; players: {players}", player=shown(player),
                                players=Listing(self.names)))
        corrected = self._corrected(form_id, values, player)
        if corrected is None:
            ev, progress = self._now()
        else:  # the form as it stands without the report it corrects (its own tile is free again)
            undo = Event(self.session.last_seq + 1, rules.UNDO, {"seq": corrected})
            ev, progress = self._now(rules.replay(self.session.game, self.session.settings,
                                                  [*self.session.events(), undo]).state)
        forms = {f.id: f for f in self.spec.forms(ev)}
        if not isinstance(form_id, str) or form_id not in forms:
            raise BadEntry(Text("unknown report {form}; reports: {forms}", form=shown(form_id),  # as on the phone
                                forms=Listing([f.label for f in forms.values()])))
        if progress.over:
            raise MovedOn(Text(REPORTS_CLOSED))
        if form_id in self.kept_entries(player):  # kept from the setup: withdrawn first, on its own button
            why = self.spec.kept_closed_why(form_id, ev, progress, player)
            if why:  # kept for good now: no button withdraws it
                raise MovedOn(Text("{form}: {player} has an entry in force already: {why}", form=forms[form_id].label,
                                   player=player, why=why))
            raise MovedOn(Text("{form}: {player} has an entry in force already; withdraw it first (“{button}”), then "
                               "enter another", form=forms[form_id].label, player=player,
                               button=Text("Withdraw my entry: {form}", form=forms[form_id].label)))
        if form_id not in self.spec.open_forms(ev, progress, player):
            raise MovedOn(self.spec.closed_why(forms[form_id], ev, progress, player))
        checked = parse_form(forms[form_id], values)
        _refuse_self_choice(forms[form_id], checked, player)
        for name, narrowed in self.spec.choices_now(ev, progress, player).get(form_id, {}).items():
            if name in checked and checked[name] not in narrowed.get("choices", ()):
                why = (narrowed.get("why") or {}).get(checked[name])
                raise BadEntry(why or self.spec.outside_choices(forms[form_id], name, checked[name], player))
        if corrected is not None:
            self._keeps_entry(forms[form_id], checked, corrected, player)
        kind, payload = self.spec.report_event(form_id, checked, player, ev)
        try:
            if corrected is not None:  # the earlier report withdrawn and this one recorded: both or neither
                return self.session.replace(corrected, kind, payload, player=player, origin=origin)
            return self.session.append(kind, payload, player=player, origin=origin)
        except (BadEvent, UnknownEvent) as exc:  # the rules' reason, never the event's kind or the session's id
            raise BadEntry(Text("{form}: {problem}", form=forms[form_id].label,
                                problem=getattr(exc, "problem", None) or message_of(exc))) from exc

    def _keeps_entry(self, form: Form, checked: Mapping[str, Any], corrected: int, player: str) -> None:
        """Refuse a hidden end-of-game entry entered again (it replaces ``corrected``, the player's entry in force,
        whole) that leaves blank a field the earlier entry gave a value other than 0 (``spec.entry_values``): a
        phone that reloaded shows the form empty, so a correction of one field would drop the rest without a word.

        Raises:
            BadEntry: naming the fields left blank, and the way to start afresh (withdraw the entry first).
        """
        earlier = next((e for e in self.session.events() if e.seq == corrected), None)
        if earlier is None or self.spec.report_forms.get(earlier.kind) != form.id:
            return
        gave = self.spec.entry_values(form.id, earlier.payload)
        labels = [f.label for f in form.fields if gave.get(f.name) and checked.get(f.name) is None]
        if labels:
            raise BadEntry(Text("{form}: {player}'s entry in force has {fields}, and this one leaves them blank: "
                                "enter them again (0 for none), or withdraw the entry first (“{button}”) to start "
                                "afresh", form=form.label, player=player, fields=Listing(labels, AND),
                                button=Text("Withdraw my entry: {form}", form=form.label)))

    def _corrected(self, form_id: Any, values: Any, player: str) -> int | None:
        """The seq of ``player``'s report in force that this report of ``form_id`` replaces (``spec.corrects``)."""
        if not isinstance(form_id, str):
            return None
        applied = set(self.session.replay().applied)
        events = [e for e in self.session.events() if e.seq in applied]
        corrected = self.spec.corrects(form_id, values, player, events)
        if corrected is None and form_id in self.spec.entry_forms(*self._now(), player):
            # a hidden end-of-game entry entered again replaces the player's earlier one: one entry in force,
            # which their Undo then withdraws whole
            return next((e.seq for e in reversed(events) if e.player == player
                         and self.spec.report_forms.get(e.kind) == form_id), None)
        return corrected

    def _entries(self, ev: Mapping[str, Any], progress: Progress, player: str) -> tuple[list[str], list[Event]]:
        """The hidden end-of-game entry forms open to ``player`` now (:meth:`companion.flow_spec.FlowBase.entry_forms`)
        and ``player``'s reports in force on them, oldest first; ``([], [])`` outside such an entry."""
        forms = self.spec.entry_forms(ev, progress, player)
        if not forms:
            return [], []
        applied = set(self.session.replay().applied)
        return forms, [e for e in self.session.events() if e.seq in applied and e.player == player
                       and self.spec.report_forms.get(e.kind) in forms]

    def undo_label(self, ev: Mapping[str, Any], progress: Progress, player: str) -> dict[str, Any]:
        """What ``player``'s phone's Undo does now: ``{"label": Text or None, "shown": bool}``. Outside a hidden
        end-of-game entry the label is None (the page's own "Undo my last report") and the button shown; during one
        it names the entry it withdraws ("Withdraw my entry: Final position"), shown only once the player has one in
        force (:meth:`undo_report` reaches no further back)."""
        forms, mine = self._entries(ev, progress, player)
        if not forms:
            return {"label": None, "shown": True}
        labels = {f.id: f.label for f in self.spec.forms(ev)}
        return {"label": Text("Withdraw my entry: {form}", form=labels.get(forms[0], forms[0])), "shown": bool(mine)}

    def kept_entries(self, player: str) -> dict[str, Event]:
        """``player``'s entries in force on the forms a player keeps one of (``spec.kept_forms``: a Qualeen's secret
        objective), by form id: each such form is closed to them until its entry is withdrawn."""
        if not self.spec.kept_forms:
            return {}
        applied = set(self.session.replay().applied)
        kept = self.spec.kept_forms
        return {self.spec.report_forms[e.kind]: e for e in self.session.events()
                if e.seq in applied and e.player == player and self.spec.report_forms.get(e.kind) in kept}

    def open_forms(self, ev: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """The forms open to ``player`` now: ``spec.open_forms`` but a form they keep one entry on and have one in
        force (:meth:`kept_entries`)."""
        kept = self.kept_entries(player)
        return [f for f in self.spec.open_forms(ev, progress, player) if f not in kept]

    def undo_report(self, player: Any, origin: str = "phone", form: Any = None) -> Event | None:
        """Withdraw ``player``'s newest report still in force (an ``undo`` event; nothing is deleted); with ``form``, a
        form they keep one entry on (``spec.kept_forms``), their entry on it, which opens the form again. Without it
        such an entry is passed by: it has its own button.

        Returns:
            The undo event, or None when the player has no report in force.

        Raises:
            BadEntry: unknown player; ``form`` not a form a player keeps one entry on; :class:`MovedOn` (a
                :class:`BadEntry`, answered 409) when the player has no entry in force on ``form`` (none kept, or
                withdrawn already) or kept for good now (``spec.kept_closed_why``: a Qualeen's secret objective once
                year 1's first round is over), or when the game is over (the same refusal as a new report's: only
                the table's Undo reopens the last round) or the report's form (``spec.report_forms``) is closed
                now (a setup after the first round started, a choice already revealed); or, during a hidden
                end-of-game entry (:meth:`companion.flow_spec.FlowBase.entry_forms`: Eclipse's final positions),
                the player has no entry in force: a report made before the rounds ended is never withdrawn then
                (it would reopen the last round, which only the table's Undo does).
        """
        if not isinstance(player, str) or player not in self.names:
            raise BadEntry(Text("unknown player {player}; players: {players}", player=shown(player),
                                players=Listing(self.names)))
        ev, progress = self._now()
        if progress.over:  # the scores are final: only the table's Undo reopens the last round
            raise MovedOn(Text(REPORTS_CLOSED))
        if form is not None:
            if not isinstance(form, str) or form not in self.spec.kept_forms:
                raise BadEntry(Text("{form} is no entry a player keeps: “{button}” withdraws the newest report",
                                    form=shown(form), button=Text("Undo my last report")))
            kept = self.kept_entries(player).get(form)
            if kept is None:  # none kept (no Qualeen), or withdrawn already: a tap from a page not yet redrawn
                raise MovedOn(Text("{player} has no entry on {form} to withdraw; nothing was recorded", player=player,
                                   form=next((f.label for f in self.spec.forms(ev) if f.id == form), form)))
            why = self.spec.kept_closed_why(form, ev, progress, player)
            if why:  # kept for good now (a Qualeen's secret objective once the setup's round is over)
                raise MovedOn(Text("{player}'s entry on {form} can no longer be withdrawn: {why}; nothing was recorded",
                                   player=player, form=next((f.label for f in self.spec.forms(ev) if f.id == form),
                                                            form), why=why))
            return self.session.append("undo", {"seq": kept.seq}, player=player, origin=origin)
        forms, mine = self._entries(ev, progress, player)
        if forms and not mine:
            label = next((f.label for f in self.spec.forms(ev) if f.id == forms[0]), forms[0])
            raise BadEntry(Text("{player} has entered nothing to withdraw ({form}): the last round is over, and only "
                                "the table's Undo reopens it (the touchscreen's, or “Undo the table's last entry” on "
                                "a phone)", player=player, form=label))
        if not forms:
            applied = set(self.session.replay().applied)
            mine = [e for e in self.session.events() if e.seq in applied and e.player == player
                    and e.kind not in self.spec.camera_records  # a camera read is no report: an answer is
                    and self.spec.report_forms.get(e.kind) not in self.spec.kept_forms]
        if not mine:
            return None
        form = self.spec.report_forms.get(mine[-1].kind)
        if form is not None and form not in self.spec.open_forms(ev, progress, player):
            # its form is closed now: withdrawn, it could not be reported again (a setup once the first
            # round started, a phase or action choice once revealed)
            closed = (
                next(f for f in self.spec.forms(ev) if f.id == form)
                if form in {f.id for f in self.spec.forms(ev)}
                else None
            )
            label = closed.label if closed is not None else self.spec.event_label(mine[-1].kind)
            why = self.spec.closed_why(closed, ev, progress, player) if closed is not None else ""
            raise MovedOn(Text("{player}'s report ({what}) can no longer be withdrawn: it could not be reported again "
                               "now ({why}); the table's Undo takes back the newest event (the touchscreen's, or "
                               "“Undo the table's last entry” on a phone)",
                               player=player, what=label, why=why or progress.round_label))
        return self.session.append("undo", {"seq": mine[-1].seq}, player=player, origin=origin)


def _refuse_self_choice(form: Any, checked: dict[str, Any], player: str) -> None:
    """Refuse ``player`` named in a field of ``form`` that takes another player (``others``), when that field is
    in play: a field shown for some choices of another field (``shown_for``: Among the Stars' Embassy Offices' player,
    shown while the Embassy Offices is the card built) is left to the game to refuse when another choice was made
    (the Alien Temple asks for no player: "leave it empty when you build Alien Temple").

    Raises:
        BadEntry: the player named themselves, naming the form, the field and the players they may choose.
    """
    for f in form.fields:
        if f.shown_for and checked.get(f.shown_for[0]) not in f.shown_for[1]:
            continue  # another card's field (Embassy Offices' with an Alien Temple built): the game says so
        if f.others and checked.get(f.name) == player:
            raise BadEntry(Text("{form}: {field}: you cannot choose yourself ({player}); choose another player: "
                                "{players}",
                                form=form.label, field=f.label, player=player,
                                players=Listing([n for n in f.choices if n != player])))
