"""The at-table game flow shared by Roll for the Galaxy, Race for the Galaxy and Among the Stars.

One :class:`GameFlow` drives every game; a small per-game :class:`GameSpec` (``companion/flows/``)
only says what differs: the setup and report forms, how the game's ``view`` reads as a round
(phases in order, who selected each, the current one, the VP pool, the LAST ROUND condition),
which events the Next button records, and each player's role for the play record.

Everything the flow does is an event in the session (``companion.session``), so undo, a power cut
and the export all work from the log. The flow is driven by the main loop only
(:func:`handle_action`); views post actions through the :class:`~companion.hub.StateHub`.

The flow's view (``view["game"]`` of the published view for these games)::

    {"flow": "roll", "game": "roll", "title": "Roll for the Galaxy", "round": 3,
     "round_label": "Round 3", "stage": "develop", "note": "...",
     "phases": [{"label": "Develop", "by": ["Ann"], "state": "done" | "current" | "next"}],
     "pool": 14 | null, "pool_label": "VP pool",
     "players": [{"name", "seat", "colour", "role", "tableau", "credits", "vp", "waiting": bool}],
     "last_round": false, "ending": ["..."], "over": false,
     "next": {"label": "Settle", "enabled": true, "why": ""},
     "forms": [Form.to_json()...], "open_forms": {"Ann": ["tile", ...]},
     "findings": [{"what", "where", "severity", "rule", "seq", "todo"}],
     "result": null | {"players": [...], "winners": [...]},
     "export": null | {"bgstats_url": "bgstats://..."}}
"""

from __future__ import annotations

import json
import re
import unicodedata
import urllib.parse
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Mapping, Protocol, Sequence

import rules
from companion.errors import BadEntry, shown
from rules import BadEvent, Event, Finding, ScoreBreakdown, UnknownEvent
from rules.scoring import closest_names, winners

__all__ = [
    "BGSTATS_URL",
    "COLOURS",
    "Field",
    "Form",
    "GameFlow",
    "GameSpec",
    "TableRound",
    "bgstats_url",
    "handle_action",
    "parse_form",
    "parse_players",
    "whole_number",
]

COLOURS = ("red", "blue", "green", "yellow", "purple")
"""Seat colours in seat order, when the players do not name their own."""

BGSTATS_URL = "bgstats://app.bgstatsapp.com/addPlay.html?data="
"""BG Stats' "push plays" URL: the play record, JSON, URL-encoded after ``data=``."""

TODO = {
    "error": "put it right at the table, or Undo the report",
    "warning": "check with the players; Undo if it was a slip",
    "info": "",
}
"""What to do about a finding, by severity (shown under it on both views)."""

MAX_NAME = 40  # characters of a player's name


@dataclass(frozen=True)
class Field:
    """One input of a report form.

    Attributes:
        name: the key in the posted ``values``.
        label: what the phone shows.
        kind: ``"choice"`` (one of ``choices``), ``"int"`` (whole number ``minimum``..``maximum``)
            or ``"cell"`` (``[i, j]``, two whole numbers ``minimum``..``maximum``).
        optional: may be left out (then it is None).
    """

    name: str
    label: str
    kind: str = "choice"
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"name", "label", "kind", "choices", "min", "max", "optional"}``."""
        return {"name": self.name, "label": self.label, "kind": self.kind, "choices": list(self.choices),
                "min": self.minimum, "max": self.maximum, "optional": self.optional}


@dataclass(frozen=True)
class Form:
    """A report a player makes about their own empire (``id`` is what the phone posts)."""

    id: str
    label: str
    fields: tuple[Field, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"id", "label", "fields": [Field.to_json()]}``."""
        return {"id": self.id, "label": self.label, "fields": [f.to_json() for f in self.fields]}


WHOLE_DIGITS = 9
"""Digits a whole number typed on a phone may have (every count in these games is far smaller)."""
_WHOLE = re.compile(r"[+-]?[0-9]{1,%d}" % WHOLE_DIGITS)  # ASCII digits only: not "²", "①", "٣"


def whole_number(value: Any, what: str) -> int:
    """``value`` as a whole number: an ``int`` (not a bool) or a string of at most :data:`WHOLE_DIGITS`
    ASCII digits with an optional sign (``"+3"``, ``" -2 "``).

    Raises:
        BadEntry: ``"{what} must be a whole number ..."``, naming what was given (cut short).
    """
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
        return int(value.strip())
    raise BadEntry(f"{what} must be a whole number (digits 0-9, at most {WHOLE_DIGITS}), got {shown(value)}")


def _in_range(n: int, f: "Field") -> bool:
    return (f.minimum is None or n >= f.minimum) and (f.maximum is None or n <= f.maximum)


def parse_form(form: Form, values: Any) -> dict[str, Any]:
    """The checked values of a posted report: choices in the catalogue's spelling, ints in range.

    Args:
        form: the form reported.
        values: the posted ``{field name: value}``.

    Returns:
        ``{field name: value}`` for every field (None for an optional field left out).

    Raises:
        BadEntry: not an object, an unknown field, a missing field, a choice not in the list (with
            the closest names), a number that is not whole or out of range. Nothing is recorded.
    """
    if not isinstance(values, Mapping):
        raise BadEntry(f"{form.label}: 'values' must be an object of field: value, got {type(values).__name__}")
    known = {f.name for f in form.fields}
    extra = sorted(str(k) for k in values if k not in known)
    if extra:
        raise BadEntry(f"{form.label}: unknown field {shown(extra[0])}; fields: {', '.join(sorted(known)) or 'none'}")
    out: dict[str, Any] = {}
    for f in form.fields:
        value = values.get(f.name)
        if value is None or value == "":
            if not f.optional:
                raise BadEntry(f"{form.label}: {f.label} is missing")
            out[f.name] = None
            continue
        what = f"{form.label}: {f.label}"
        if f.kind == "choice":
            if not isinstance(value, str):
                raise BadEntry(f"{what} must be one of the listed names, got {shown(value)}")
            match = next((c for c in f.choices if c == value), None)
            match = match or next((c for c in f.choices if c.casefold() == value.strip().casefold()), None)
            if match is None:
                hint = closest_names(value[:80], f.choices)  # a 16 KiB string is not compared letter by letter
                raise BadEntry(f"{what}: unknown {f.label.lower()} {shown(value, 43)}"
                               + (f"; did you mean {' or '.join(hint)}?" if hint else ""))
            out[f.name] = match
        elif f.kind == "int":
            n = whole_number(value, what)
            if not _in_range(n, f):
                raise BadEntry(f"{what} must be {f.minimum}-{f.maximum}, got {shown(n)}")
            out[f.name] = n
        elif f.kind == "cell":
            if not isinstance(value, (list, tuple)) or len(value) != 2:
                raise BadEntry(f"{what} must be a cell [i, j], got {shown(value)}")
            cell = [whole_number(v, what) for v in value]
            if not all(_in_range(v, f) for v in cell):
                raise BadEntry(f"{what}: each coordinate must be {f.minimum}-{f.maximum}, got {shown(cell)}")
            out[f.name] = cell
        else:  # pragma: no cover - a spec bug
            raise ValueError(f"unknown field kind {f.kind!r}")
    return out


def check_player_name(name: Any, others: Sequence[str] = ()) -> str:
    """The one rule for a player's name (the CLI's ``--players`` and the setup step alike): not
    empty, at most :data:`MAX_NAME` characters, no ``,`` or ``:``, no control or format characters
    (Unicode category C: NUL, right-to-left overrides, ...), and not the name of one of
    ``others`` ignoring case ("Ann" and "ann" are the same player). Returns the stripped name.

    Raises:
        BadEntry: one line naming the problem.
    """
    if not isinstance(name, str) or not name.strip():
        raise BadEntry("a player name is empty: give the player's name")
    name = unicodedata.normalize("NFC", name.strip())  # "Zoe" + combining diaeresis is "Zoë"
    if len(name) > MAX_NAME or "," in name or ":" in name:
        raise BadEntry(f"{name[:20]!r}: a name is at most {MAX_NAME} characters, without ',' or ':'")
    if any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise BadEntry(f"{name[:20]!r}: a name may not hold control or invisible formatting characters")
    same = next((o for o in others if unicodedata.normalize("NFC", o).casefold() == name.casefold()), None)
    if same is not None:
        said = repr(name) if same == name else f"{name!r} (as {same!r})"
        raise BadEntry(f"{said} is already playing; names must differ (ignoring case)")
    return name


def check_player_colour(colour: Any, taken: Sequence[str] = ()) -> str:
    """The one rule for a seat colour: one of :data:`COLOURS` (any case) that nobody in ``taken``
    has; None or "" picks the first free one. Returns the colour in lower case.

    Raises:
        BadEntry: an unknown colour, a colour taken, or no colour left.
    """
    free = [c for c in COLOURS if c not in taken]
    if colour in (None, ""):
        if not free:
            raise BadEntry(f"no colour left: there are {len(COLOURS)} ({', '.join(COLOURS)})")
        return free[0]
    if not isinstance(colour, str) or colour.strip().lower() not in COLOURS:
        raise BadEntry(f"colour {shown(colour, 22)} is not one of {', '.join(COLOURS)}")
    colour = colour.strip().lower()
    if colour in taken:
        raise BadEntry(f"{colour} is taken; free colours: {', '.join(free) or 'none'}")
    return colour


def parse_players(text: str, colours: Sequence[str] = COLOURS) -> list[dict[str, str]]:
    """``"Ann,Bob:green"`` -> ``[{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "green"}]``.

    Seats follow the order given (seat 1 starts). A player without ``:colour`` gets the first
    seat colour of :data:`COLOURS` nobody named. Names and colours follow the same rule as the
    setup step on the phone (:func:`check_player_name`, :func:`check_player_colour`).

    Raises:
        BadEntry: ``--players: `` and the problem: an empty, too long or repeated name (ignoring
            case), an unknown or repeated colour, more players than colours.
    """
    del colours  # the seat colours are always COLOURS (one list for the CLI and the phones)
    seats: list[dict[str, str]] = []
    try:
        for part in text.split(","):
            name, _, colour = part.strip().partition(":")
            name = check_player_name(name, [s["name"] for s in seats])
            if colour.strip():
                colour = check_player_colour(colour, [s["colour"] for s in seats])
            seats.append({"name": name, "colour": colour.strip()})
        for s in seats:
            if not s["colour"]:
                s["colour"] = check_player_colour(None, [t["colour"] for t in seats])
    except BadEntry as exc:
        raise BadEntry(f"--players {text[:60]!r}: {exc}") from None
    return seats


@dataclass
class TableRound:
    """How a game's view reads as a round at the table (what :meth:`GameSpec.table` returns).

    Attributes:
        round: the round number (Among the Stars: the round in the year).
        round_label: e.g. ``"Round 3"``, ``"Year 2, round 4 of 6"``.
        stage: the engine's step or stage (``"develop"``, ``"select"``...).
        phases: ``[{"label", "by": [players], "state": "done" | "current" | "next"}]`` in order.
        note: one line for the table (what happens now; pass direction).
        pool: VP chips left in the pool, or None for a game without one.
        players: per player ``{"tableau": n | None, "credits": n | None, "vp": n, "waiting": bool}``.
        last_round: an end condition is met: this round is the last one.
        ending: why (sentences).
        over: the game has ended; scores are final.
        next_label: what the Next button does now (``"Reveal"``, ``"Settle"``, ``"End round"``).
        next_why: why Next cannot be pressed now ("" when it can).
    """

    round: int
    round_label: str
    stage: str
    phases: list[dict[str, Any]]
    note: str
    pool: int | None
    players: dict[str, dict[str, Any]]
    last_round: bool
    ending: list[str]
    over: bool
    next_label: str
    next_why: str = ""
    pool_label: str = "VP pool"


class GameSpec(Protocol):
    """What a game's flow module declares; :class:`GameFlow` does the rest.

    Attributes:
        name: the game's short id (``rules.GAMES``).
        title: the game's name for players.
        bgg_id: BoardGameGeek id, for the BG Stats play record.
        game: the rules engine (:class:`rules.Game`).
        report_forms: (optional) event kind -> the form that reports it, for the reports a phone may
            withdraw only while that form is open (:meth:`GameFlow.undo_report`): a setup once the first
            round started, a phase or action choice once revealed.
    """

    name: str
    title: str
    bgg_id: int

    @property
    def game(self) -> Any: ...

    def settings(self, seats: list[dict[str, str]], options: Mapping[str, Any]) -> dict[str, Any]:
        """The session settings for these seats (``parse_players``) and options. Raises BadEntry."""
        ...

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Every report form of the game (choices from the game's data)."""
        ...

    def open_forms(self, view: Mapping[str, Any], player: str) -> list[str]:
        """The ids of the forms ``player`` may fill in now."""
        ...

    def table(self, view: Mapping[str, Any]) -> TableRound:
        """The engine's ``view(state)`` read as a round at the table."""
        ...

    def next_events(self, view: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The events the Next button records now, as ``(kind, payload)``; [] when it cannot move."""
        ...

    def report_event(self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The ``(kind, payload)`` a checked report becomes. Raises BadEntry."""
        ...

    def scores(self, state: Any) -> list[ScoreBreakdown]:
        """Each player's score breakdown (final once the game is over)."""
        ...

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's faction / start world / race, for the score screen and BG Stats."""
        ...


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
    """

    events: list[Event] = field(default_factory=list)
    message: str = ""
    error: str | None = None
    status: int | None = None
    version: int | None = None
    changed: bool = False
    recorded: list[int] | None = None
    detail: str | None = None

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


class GameFlow:
    """The shared at-table flow over one session: setup, advancing, reports, undo, end, scores, export.

    Args:
        session: a :class:`companion.session.Session` of ``spec.name``.
        spec: the game's flow module (``companion.flows.FLOWS[name]``).

    Raises:
        ValueError: the session is of another game.
    """

    def __init__(self, session: Any, spec: GameSpec) -> None:
        if session.game.name != spec.name:
            raise ValueError(f"session {session.id} is a {session.game.name!r} game, not {spec.name!r}")
        self.session = session
        self.spec = spec
        self.seats: list[dict[str, str]] = list(session.settings.get("seats") or [])
        if not self.seats:
            names = [p if isinstance(p, str) else p["name"] for p in session.settings.get("players", [])]
            self.seats = parse_players(",".join(names)) if names else []

    # -- reading -----------------------------------------------------------------------
    @property
    def names(self) -> list[str]:
        """Player names in seat order."""
        return [s["name"] for s in self.seats]

    def engine_view(self) -> dict[str, Any]:
        """The rules engine's ``view(state)`` of the session as it stands."""
        return self.session.game.view(self.session.replay().state)

    def table(self) -> TableRound:
        """The round as the touchscreen shows it (see :class:`TableRound`)."""
        return self.spec.table(self.engine_view())

    def over(self) -> bool:
        """Whether the game has ended."""
        return self.table().over

    def stage_at(self, seq: int | None) -> tuple[int, str, str | None]:
        """``(round, stage, the current phase's label or None)`` as the log stood after event ``seq`` (None:
        now): where the table was, as the version rule compares it."""
        if seq is None:
            t = self.table()
        else:
            events = [e for e in self.session.events() if e.seq <= seq]
            state = rules.replay(self.session.game, self.session.settings, events).state
            t = self.spec.table(self.session.game.view(state))
        return t.round, t.stage, next((p.get("label") for p in t.phases if p.get("state") == "current"), None)

    def findings(self, limit: int = 6) -> list[dict[str, Any]]:
        """The newest findings first (at most ``limit``), each with ``todo``: what to do about it. A finding
        raised again (same what, where and rule: Among the Stars' ``station_read`` re-checks the whole
        station on every camera read) is listed once, at its newest."""
        found: Sequence[Finding] = self.session.replay().findings
        out: list[dict[str, Any]] = []
        seen: set[tuple[str, str, str]] = set()
        for f in list(found)[::-1]:  # each finding once: every camera read of a station re-checks it
            key = (f.what, f.where, f.rule)
            if key in seen:
                continue
            seen.add(key)
            out.append({**f.to_json(), "todo": TODO.get(f.severity.value, "")})
            if len(out) >= limit:
                break
        return out

    def result(self) -> dict[str, Any]:
        """Scores as they stand: ``{"players": [{"name", "seat", "colour", "role", "total",
        "breakdown": {category: VP}, "categories": [{"category", "vp", "detail"}], "tiebreak",
        "winner"}], "winners": [names]}`` (players in seat order)."""
        view = self.engine_view()
        breakdowns = self.spec.scores(self.session.replay().state)
        won = winners(breakdowns)
        seat = {s["name"]: (k + 1, s["colour"]) for k, s in enumerate(self.seats)}
        players = []
        for b in breakdowns:
            players.append({
                "name": b.player,
                "seat": seat.get(b.player, (0, ""))[0],
                "colour": seat.get(b.player, (0, ""))[1],
                "role": self.spec.role(view, b.player),
                "total": b.total,
                "breakdown": {line.category: line.vp for line in b.lines},
                "categories": [{"category": line.category, "vp": line.vp, "detail": line.detail} for line in b.lines],
                "tiebreak": list(b.tiebreak),
                "winner": b.player in won,
            })
        return {"players": players, "winners": won}

    def view(self) -> dict[str, Any]:
        """The flow's view dict (shape in the module doc)."""
        ev = self.engine_view()
        t = self.spec.table(ev)
        players = []
        for k, s in enumerate(self.seats):
            row = t.players.get(s["name"], {})
            players.append({"name": s["name"], "seat": k + 1, "colour": s["colour"], "role": self.spec.role(ev, s["name"]),
                            "tableau": row.get("tableau"), "credits": row.get("credits"), "vp": row.get("vp", 0),
                            "waiting": bool(row.get("waiting"))})
        can_next = bool(self.spec.next_events(ev)) if not t.over else False
        return {
            "flow": self.spec.name,
            "game": self.spec.name,
            "title": self.spec.title,
            "round": t.round,
            "round_label": t.round_label,
            "stage": t.stage,
            "note": t.note,
            "phases": t.phases,
            "pool": t.pool,
            "pool_label": t.pool_label,
            "players": players,
            "last_round": t.last_round and not t.over,
            "ending": t.ending,
            "over": t.over,
            "next": {"label": t.next_label, "enabled": can_next, "why": "" if can_next else t.next_why},
            "forms": [f.to_json() for f in self.spec.forms(ev)],
            "open_forms": {name: self.spec.open_forms(ev, name) for name in self.names},
            "findings": self.findings(),
            "result": self.result() if t.over else None,
            "export": {"bgstats_url": bgstats_url(self.bgstats_play())} if t.over else None,
        }

    # -- acting ------------------------------------------------------------------------
    def next_phase(self, origin: str = "touchscreen") -> list[Event]:
        """Record what the Next button means now (reveal, the next phase, end of round, end of game).

        Returns:
            The events recorded.

        Raises:
            BadEntry: nothing can move now (the message says what the table is waiting for).
        """
        ev = self.engine_view()
        t = self.spec.table(ev)
        planned = [] if t.over else self.spec.next_events(ev)
        if not planned:
            raise BadEntry("the game is over" if t.over else (t.next_why or "nothing to advance now"))
        with self.session.store.transaction(write=True, doing="recording Next"):  # all of Next, or none of it
            return [self.session.append(kind, payload, origin=origin) for kind, payload in planned]

    def report(self, player: Any, form_id: Any, values: Any, origin: str = "phone") -> Event:
        """Record a player's report about their own empire.

        Args:
            player: the reporting player's name (their seat).
            form_id: one of the game's form ids.
            values: ``{field: value}``, checked by :func:`parse_form`.
            origin: ``"phone"``, ``"touchscreen"``, ``"cli"``.

        Returns:
            The recorded event (findings about it are in the next :meth:`view`).

        Raises:
            BadEntry: unknown player or form, a form not open now, a bad value, or the rules cannot
                apply it; the message names the problem and nothing is recorded.
        """
        if not isinstance(player, str) or player not in self.names:
            raise BadEntry(f"unknown player {shown(player)}; players: {', '.join(self.names)}")
        ev = self.engine_view()
        forms = {f.id: f for f in self.spec.forms(ev)}
        if not isinstance(form_id, str) or form_id not in forms:
            raise BadEntry(f"unknown report {shown(form_id)}; reports: {', '.join(forms)}")
        if self.spec.table(ev).over:
            raise BadEntry("the game is over: reports are closed (Undo first to reopen the last round)")
        if form_id not in self.spec.open_forms(ev, player):
            raise BadEntry(f"{forms[form_id].label} cannot be reported now ({self.spec.table(ev).round_label}, "
                           f"{self.spec.table(ev).stage})")
        checked = parse_form(forms[form_id], values)
        kind, payload = self.spec.report_event(form_id, checked, player, ev)
        try:
            return self.session.append(kind, payload, player=player, origin=origin)
        except (BadEvent, UnknownEvent) as exc:
            raise BadEntry(f"{forms[form_id].label}: {exc}") from exc

    def undo_report(self, player: Any, origin: str = "phone") -> Event | None:
        """Withdraw ``player``'s newest report still in force (an ``undo`` event; nothing is deleted).

        Returns:
            The undo event, or None when the player has no report in force.

        Raises:
            BadEntry: unknown player, or the report's form (``spec.report_forms``) is closed now (a setup
                after the first round started, a choice already revealed).
        """
        if not isinstance(player, str) or player not in self.names:
            raise BadEntry(f"unknown player {shown(player)}; players: {', '.join(self.names)}")
        applied = set(self.session.replay().applied)
        mine = [e for e in self.session.events() if e.seq in applied and e.player == player]
        if not mine:
            return None
        form = getattr(self.spec, "report_forms", {}).get(mine[-1].kind)
        ev = self.engine_view()
        if form is not None and form not in self.spec.open_forms(ev, player):
            # its form is closed now: withdrawn, it could not be reported again (a setup once the first
            # round started, a phase or action choice once revealed)
            t = self.spec.table(ev)
            label = {f.id: f.label for f in self.spec.forms(ev)}.get(form, form)
            raise BadEntry(f"{player}'s {label.lower()} report can no longer be withdrawn ({t.round_label}, {t.stage}): "
                           "it could not be reported again now; the touchscreen's Undo takes back the newest event")
        return self.session.append("undo", {"seq": mine[-1].seq}, player=player, origin=origin)

    # -- export ------------------------------------------------------------------------
    def export_json(self) -> dict[str, Any]:
        """The finished game: ``{"format": "tabletop-companion/game", "version": 1, "game", "title",
        "bgg_id", "session", "started_at", "ended_at" (Unix s), "finished", "rounds", "players":
        [result players], "winners", "findings": [...], "events": [Event.to_json()]}``."""
        events = self.session.events()
        t = self.table()
        return {
            "format": "tabletop-companion/game",
            "version": 1,
            "game": self.spec.name,
            "title": self.spec.title,
            "bgg_id": self.spec.bgg_id,
            "session": self.session.id,
            "started_at": self.session.started_at,
            "ended_at": events[-1].at if events else self.session.started_at,
            "finished": t.over,
            "rounds": t.round,
            **self.result(),
            "findings": [f.to_json() for f in self.session.replay().findings],
            "events": [e.to_json() for e in events],
        }

    def bgstats_play(self, tz: Any = None) -> dict[str, Any]:
        """The play record for BG Stats' "push plays" import.

        Shape: ``{"sourceName", "sourcePlayId", "playDate": "YYYY-MM-DD HH:MM:SS" (local time of
        the first event), "durationMin", "game": {"name", "bggId", "sourceGameId", "highestWins":
        true, "noPoints": false, "cooperative": false}, "players": [{"name", "score", "winner",
        "seatOrder" (1-based), "startPlayer", "role", "color"}], "comments"}``.

        Field names follow BG Stats' public "push plays" description as we remember it; only
        ``highestWins``/``noPoints``/``cooperative`` could be checked against a BG Stats export
        found with the search tool. ``sourcePlayId`` and ``color`` are our additions that BG Stats
        is expected to ignore if unknown; ``playDate`` is local time (BG Stats takes no zone). A game
        not finished (``export --unfinished``) has no winner.
        """
        started = self.session.started_at
        events = self.session.events()
        ended = events[-1].at if events else started
        result = self.result()
        over = self.over()
        return {
            "sourceName": "tabletop-companion",
            "sourcePlayId": self.session.id,
            "playDate": datetime.fromtimestamp(started, tz).strftime("%Y-%m-%d %H:%M:%S"),
            "durationMin": max(1, round((ended - started) / 60)),
            "game": {"name": self.spec.title, "bggId": self.spec.bgg_id, "sourceGameId": f"tabletop-companion:{self.spec.name}",
                     "highestWins": True, "noPoints": False, "cooperative": False},
            "players": [
                {"name": p["name"], "score": p["total"], "winner": over and p["winner"], "seatOrder": p["seat"],
                 "startPlayer": p["seat"] == 1, "role": p["role"] or "", "color": p["colour"]}
                for p in result["players"]
            ],
            "comments": f"Recorded at the table by tabletop-companion (session {self.session.id}).",
        }


def bgstats_url(play: Mapping[str, Any]) -> str:
    """The ``bgstats://`` link that opens BG Stats with ``play`` (:meth:`GameFlow.bgstats_play`)."""
    return BGSTATS_URL + urllib.parse.quote(json.dumps(play, separators=(",", ":"), ensure_ascii=False), safe="")


def handle_action(flow: GameFlow, action: Mapping[str, Any]) -> Outcome | None:
    """Carry out one hub action for the flow (called by the main loop, the one owner of the state).

    Actions: ``next_phase``; ``report`` with ``player``, ``form``, ``values``; ``undo_report`` with
    ``player``. Other actions return None (the loop handles them).

    Returns:
        What was done; ``error`` holds the message of a refused action (nothing recorded).
    """
    name, origin = action.get("action"), str(action.get("origin") or "cli")
    try:
        if name == "next_phase":
            events = flow.next_phase(origin)
            return Outcome(events, f"{flow.table().round_label}: {flow.table().stage}")
        if name == "report":
            event = flow.report(action.get("player"), action.get("form"), action.get("values"), origin)
            return Outcome([event], f"{event.player}: {event.kind.replace('_', ' ')} recorded (#{event.seq})")
        if name == "undo_report":
            undo = flow.undo_report(action.get("player"), origin)
            if undo is None:
                return Outcome([], f"{action.get('player')} has no report to undo")
            return Outcome([undo], f"{action.get('player')}: report #{undo.payload['seq']} undone")
    except BadEntry as exc:
        return Outcome([], "", str(exc))
    return None

