"""The shared core every game module builds on: events, findings, score breakdowns, replay.

Nothing here does I/O. A game session is an append-only list of :class:`Event`; the
current state of a game is always *derived* by replaying those events through the
game's :meth:`Game.apply`. Undo is itself an event (kind ``"undo"``), never a deletion,
so a log that survived a power cut replays to exactly the state the table had.

Glossary (one term per idea across the codebase):

- *event*: one thing that happened at the table, observed by the camera or reported by
  a player (``kind`` + ``payload``), numbered by ``seq`` in the order it was recorded.
- *finding*: a misplay or an illegal state the rules spotted (what, where, severity, and
  the rulebook rule it breaks). Findings never stop the game; players decide.
- *score breakdown*: one player's VP by category, with its total.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from rules.text import Text

__all__ = [
    "RulesError",
    "UnknownEvent",
    "BadEvent",
    "Severity",
    "Event",
    "Finding",
    "ScoreLine",
    "ScoreBreakdown",
    "Game",
    "GameInfo",
    "Option",
    "Progress",
    "CheckingGame",
    "RankingGame",
    "Standings",
    "Rename",
    "CheckFormat",
    "SCORE_INPUTS",
    "SEAT_COLOURS",
    "OPTION_KINDS",
    "BadSettings",
    "Replay",
    "citation",
    "effective_events",
    "replay",
    "UNDO",
]

UNDO = "undo"
"""Event kind that withdraws an earlier event: ``payload = {"seq": <seq of the event>}``.
Undoing an undo restores the event it withdrew (redo)."""


class RulesError(Exception):
    """Base class of every error raised by the ``rules`` room."""


class UnknownEvent(RulesError, ValueError):
    """An event kind the game does not know. The message names the kind and the game."""


class BadEvent(RulesError, ValueError):
    """An event whose payload cannot be applied at all (missing key, wrong type).

    Plausible-but-wrong reports (an impossible die face, too many credits) are *not*
    errors: games answer them with a :class:`Finding` so nothing recorded is lost.

    Attributes:
        problem: what is wrong in the players' words, without the event's number and kind or the session
            (``"'with' must be another player (Bob, Cy), got 'Ann'"``); the message when none was given.
    """

    def __init__(self, message: str = "", problem: str | None = None) -> None:
        super().__init__(message)
        self.problem = problem if problem is not None else message


class BadSettings(BadEvent):
    """Settings a game cannot start from (a player count it is not for, an unknown option value).

    The message names the setting and what is allowed, e.g. ``"Race for the Galaxy is for 2-4
    players, got 5"``. A :class:`BadEvent` (and so a ``RulesError`` and a ``ValueError``): code that
    caught ``BadEvent`` for refused settings before this class existed still does.
    """


class Severity(enum.Enum):
    """How much a finding matters at the table."""

    INFO = "info"  # worth knowing, nothing wrong
    WARNING = "warning"  # probably a misread or a slip; ask the players
    ERROR = "error"  # breaks a rule; the rulebook says what to do


@dataclass(frozen=True)
class Event:
    """One recorded happening at the table.

    Attributes:
        seq: position in the session's log, 1-based, strictly increasing.
        kind: what happened, e.g. ``"dice_read"``, ``"undo"``; each game lists its kinds.
        payload: JSON-compatible details of the event (plain dicts, lists, str, int, float, None).
        at: wall-clock time it was recorded, Unix seconds.
        player: the seat/name it concerns, or None for the whole table.
        origin: who reported it: ``"camera"``, ``"touchscreen"``, ``"phone"``, ``"button"``, ``"cli"``.
    """

    seq: int
    kind: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    at: float = 0.0
    player: str | None = None
    origin: str = "cli"

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict of this event (same keys as the attributes)."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "payload": dict(self.payload),
            "at": self.at,
            "player": self.player,
            "origin": self.origin,
        }


WHOLE_TABLE = Text("the whole table")
"""The ``where`` of a finding that concerns everyone at the table rather than one player, card or hex (the last
round, a phase run out of order): shown after the finding as ``"<what> — <where>"``, so each language says it
in words that read on after a dash ("az egész asztalra vonatkozik", not a bare "asztal")."""

LAST_ROUND = "last_round"
"""The ``rule_kind`` of the finding that says an end condition is met and this round is the last (Roll for the
Galaxy p.8 End check; Race for the Galaxy, end of game): news while the round is played, and no longer once the
game is over, when the result takes its place."""

@dataclass(frozen=True)
class Finding:
    """A misplay or illegal state the rules spotted.

    Attributes:
        what: one sentence a player understands, naming the problem.
        where: the place it concerns (player, tile, cell, hex, event seq), free text.
        severity: see :class:`Severity`.
        rule: the rulebook rule it breaks, in one format for every game:
            ``"<game title>, <rulebook section>"`` (:meth:`GameInfo.cite`).
        seq: the event that raised it, when there is one.
        player: the player it concerns, when it concerns one (``companion check``'s ``player``).
        card: the card, tile or hex it concerns (a name or sector id), when there is one.
        cell: where that card lies (a station cell ``(i, j)``, a hex ``(q, r)``), when there is one.
        fix: what the players can do about it, in their words ("rotate it 2 steps clockwise").
        rule_kind: a short stable id of the rule broken (``"adjacency"``, ``"ring_mismatch"``), for
            tools that sort findings; "" when the game gives none.
    """

    what: str
    where: str
    severity: Severity
    rule: str
    seq: int | None = None
    player: str | None = None
    card: str | None = None
    cell: tuple[int, ...] | None = None
    fix: str | None = None
    rule_kind: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible dict: ``{"what", "where", "severity", "rule", "seq"}``, plus ``"player"``,
        ``"card"``, ``"cell"`` (a list), ``"fix"`` and ``"rule_kind"`` when they are set."""
        out: dict[str, Any] = {
            "what": self.what,
            "where": self.where,
            "severity": self.severity.value,
            "rule": self.rule,
            "seq": self.seq,
        }
        for key in ("player", "card", "fix"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.cell is not None:
            out["cell"] = list(self.cell)
        if self.rule_kind:
            out["rule_kind"] = self.rule_kind
        return out


@dataclass(frozen=True)
class ScoreLine:
    """One category of a player's score: ``category`` (e.g. ``"VP chips"``), ``vp`` (VP), ``detail``."""

    category: str
    vp: int
    detail: str = ""


@dataclass(frozen=True)
class ScoreBreakdown:
    """One player's final score, category by category (VP).

    ``total`` is always the sum of the lines, so a breakdown can never disagree with itself.
    ``tiebreak`` holds the game's tie-break values in rulebook order (compared left to right).
    """

    player: str
    lines: tuple[ScoreLine, ...]
    tiebreak: tuple[int, ...] = ()
    role: str | None = None
    """The player's role in the game (faction, start world, race, species), when the score input or the
    state names one; ``companion score --json`` prints it under :attr:`GameInfo.score_role_key`."""
    team: str | None = None
    """The team the player scores with (an Eclipse alliance's face-up members), else None."""

    @property
    def total(self) -> int:
        """Sum of all lines, VP."""
        return sum(line.vp for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        """``{"player", "total", "categories": [{"category", "vp", "detail"}], "tiebreak"}``, plus ``"role"``
        and ``"team"`` when they are set."""
        out: dict[str, Any] = {
            "player": self.player,
            "total": self.total,
            "categories": [
                {"category": line.category, "vp": line.vp, "detail": line.detail} for line in self.lines
            ],
            "tiebreak": list(self.tiebreak),
        }
        if self.role is not None:
            out["role"] = self.role
        if self.team is not None:
            out["team"] = self.team
        return out


@dataclass(frozen=True)
class Standings:
    """Who won, and each team's score where a game scores teams (:class:`RankingGame`).

    Attributes:
        winners: the winning players' names, in seat order (several: a shared win, or a winning team).
        teams: team -> VP, in the game's order; None for a game without teams (``companion score --json``
            then prints no ``"team_scores"``), ``{}`` for a team game where no team formed.
    """

    winners: tuple[str, ...]
    teams: Mapping[str, int] | None = None


OPTION_KINDS = ("bool", "int", "choice", "choices")
"""What an :class:`Option` holds: a flag, a whole number, one name from ``choices``, or a list of names."""


@dataclass(frozen=True)
class Option:
    """One game option, declared once: the CLI flag, the setup step and the settings check derive from it.

    :func:`rules.settings.check_settings` checks a session's settings against these declarations.

    Attributes:
        name: the settings key and the CLI flag (``"races"`` -> ``--races``; ``_`` becomes ``-``).
        kind: one of :data:`OPTION_KINDS`.
        default: the value when the option is not given (``False``, ``0``, ``None`` or ``()``).
        choices: the allowed names for ``"choice"`` / ``"choices"`` (the game data's spelling). A value
            matches a choice ignoring case, spaces and punctuation (``"garrn_athak_nok"`` is
            ``"Garrn Athak Nok"``); the checked settings hold the choice as spelt here.
        help: one line for ``--help`` and the setup step, citing the rulebook where the option comes from.
        per_player: a ``"choices"`` option with one entry per player in seat order (Among the Stars'
            races); ``""`` leaves a seat without one. Given as a list in seat order, a
            ``{player: value}`` object, or inside each player's entry under :attr:`player_key`.
        minimum, maximum: bounds of an ``"int"``, or of the number of entries of a ``"choices"``.
        players: the player counts the option is allowed with (Race's advanced game: ``(2, 2)``), or None.
        label: the option in players' words, for messages (``"the advanced game"``); the name if "".
        offered: the command line and the setup step offer it; False for a setting the game's flow
            decides (Roll's ``tracking``) or that comes from elsewhere (Race's dealt ``start_worlds``).
        player_key: for a per-player option, the key in a player's entry of ``settings["players"]``
            (``{"name": "Ann", "race": "Sheptas"}``: ``"race"``), or None.
        distinct: for a per-player option whose entries no two players may share (one race tile, one
            start world each): the refusal, in players' words with its rulebook citation, ``{value}``
            standing for the entry; "" when players may share entries. With :attr:`components`, ``{value}``
            stands for the entries that do not fit (joined with "and") and ``{components}`` for how many
            components carry them.
        components: for a per-player option whose entries are printed on shared components (Eclipse's
            double-sided player boards: a species on each side, Magellan on the back of three): each tuple
            is one component's sides. Every player takes a component of their own, so the entries must fit
            on distinct components (:func:`rules.settings.components_conflict`); an entry on no listed
            component is a component of its own. Empty: each entry is its own component (:attr:`distinct`).
        components_refusal: with :attr:`components`, the refusal said instead of :attr:`distinct`, made from the
            entries of every player on the entries that do not fit (in seat order, repeats kept) and how many
            components carry them: a sentence
            whose counts agree ("2 players chose Planta, and only 1 player board shows it").
    """

    name: str
    kind: str
    default: Any = None
    choices: tuple[str, ...] = ()
    help: str = ""
    per_player: bool = False
    minimum: int | None = None
    maximum: int | None = None
    players: tuple[int, int] | None = None
    label: str = ""
    offered: bool = True
    player_key: str | None = None
    distinct: str = ""
    components: tuple[tuple[str, ...], ...] = ()
    components_refusal: Callable[[tuple[str, ...], int], str] | None = None

    def __post_init__(self) -> None:
        if self.components and not (self.per_player and self.distinct):
            raise ValueError(f"option {self.name!r}: components are for a per-player option "
                             "with its 'distinct' refusal")
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name!r}: kind must be one of {', '.join(OPTION_KINDS)}, got {self.kind!r}")
        if self.per_player and self.kind != "choices":
            raise ValueError(f"option {self.name!r}: a per-player option is a 'choices' option")

    @property
    def flag(self) -> str:
        """The command-line flag, ``--`` + the name with ``-`` for ``_``."""
        return "--" + self.name.replace("_", "-")

    @property
    def what(self) -> str:
        """The option in players' words (:attr:`label`, else the quoted name)."""
        return self.label or repr(self.name)


@dataclass(frozen=True)
class Rename:
    """A stored event kind or payload key that changed name, declared on the game (:attr:`GameInfo.renames`).

    :func:`rules.upgrade_event` applies a game's renames to an event written by an older version, so
    a log recorded with the old names replays to the same state.

    Attributes:
        kind: the event kind as stored by older versions.
        to: the kind it is now ("" when only payload keys changed).
        keys: ``(old key, new key)`` pairs of the payload.
        since: when it changed, for the reader (``"issue 13"``).
    """

    kind: str
    to: str = ""
    keys: tuple[tuple[str, str], ...] = ()
    since: str = ""

    def apply(self, kind: str, payload: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """``(kind, payload)`` after this rename (a new dict; unchanged when ``kind`` is not :attr:`kind`).
        A payload that already has a new key keeps it (the old key is then dropped)."""
        out = dict(payload)
        if kind != self.kind:
            return kind, out
        for old, new in self.keys:
            if old in out:
                value = out.pop(old)
                out.setdefault(new, value)
        return self.to or kind, out


@dataclass(frozen=True)
class CheckFormat:
    """How ``companion check GAME FILE --json`` prints a game's findings (:meth:`CheckingGame.check`).

    Attributes:
        row: ``(JSON key, Finding attribute)`` pairs, in order: one finding's object. ``cell`` prints as
            a list; ``severity`` as its value.
        legal: print ``"legal": bool`` (no ERROR finding) before ``"findings"``.
        listed: the severities that go into ``"findings"``; the others go to stderr as warnings.
        schema: the JSON Schema the checked file follows, ``schemas/<game>-<schema>.schema.json``: the score
            input's (``"score-input"``, Among the Stars checks the same file it scores) or one of its own
            (Eclipse's ``"placement-input"``).
    """

    row: tuple[tuple[str, str], ...] = (("rule_kind", "rule_kind"), ("rule", "rule"), ("message", "what"),
                                        ("fix", "fix"))
    legal: bool = True
    listed: tuple[Severity, ...] = (Severity.ERROR, Severity.WARNING, Severity.INFO)
    schema: str = "score-input"

    def to_json(self, findings: Iterable[Finding]) -> tuple[dict[str, Any], list[Finding]]:
        """The printed object and the findings left for stderr."""
        findings = list(findings)
        rows = []
        for f in findings:
            if f.severity not in self.listed:
                continue
            row: dict[str, Any] = {}
            for key, attr in self.row:
                value = getattr(f, attr)
                row[key] = list(value) if attr == "cell" and value is not None else (
                    value.value if isinstance(value, Severity) else value)
            rows.append(row)
        out: dict[str, Any] = {}
        if self.legal:
            out["legal"] = not any(f.severity is Severity.ERROR for f in findings)
        out["findings"] = rows
        return out, [f for f in findings if f.severity not in self.listed]


SCORE_INPUTS = ("json", "jsonl-games")
""":attr:`GameInfo.score_input` values: one JSON document, or one game per JSON document (a file holding
one game, or JSON Lines with one game per line, each scored on its own)."""

SEAT_COLOURS = ("red", "blue", "green", "yellow", "purple")
"""The seat colours offered when a game declares none of its own."""


def citation(title: str, section: str) -> str:
    """A rule citation in the one format every finding uses: ``"<game title>, <rulebook section>"``
    (``"Roll for the Galaxy, p.8 End check"``); a section already cited that way is kept as it is. A
    :class:`rules.text.Text`: the section is said in the player's language (mark it ``N_("p.8 End check")``
    where it is written); the title is the game's name as printed on the box."""
    if section.startswith(f"{title}, "):
        return section
    return Text("{title}, {section}", title=title, section=section if isinstance(section, Text) else Text(section))


@dataclass(frozen=True)
class GameInfo:
    """A game's facts, declared once on its engine (``game.info``); nothing else lists them.

    Player limits, the seat colours offered, the CLI options and their checks, the help texts, the
    setup step and the export (BoardGameGeek id) all read this.

    Attributes:
        name: short id used on the command line and in the session log (``"roll"``).
        title: the game's name for players (``"Roll for the Galaxy"``); findings cite it.
        bgg_id: BoardGameGeek id (the BG Stats play record), or None (d6).
        players: ``(min, max)`` players, from the rulebook's box. ``(0, 0)``: the game keeps no players
            (d6): a session may still name who is at the table; the names are not counted or used.
        colours: the seat colours the game offers, in seat order.
        options: the game's options (see :class:`Option`).
        score_input: the format ``companion score GAME FILE`` reads (:data:`SCORE_INPUTS`), or None
            (no end-of-game input: the game cannot be scored from a file).
        rulebook: the rulebook the citations refer to (its title and edition).
        renames: stored event kinds and payload keys that changed name (:class:`Rename`).
        score_role_key: the key under which ``companion score --json`` prints each player's
            :attr:`ScoreBreakdown.role` (Eclipse: ``"species"``), or None (not printed).
        check_format: the ``companion check --json`` shape of a :class:`CheckingGame`.
        input_error_exit: the exit code of ``companion score|check`` for a file it cannot read (missing, not
            JSON, a field wrong): 1, or what the tools that read the game's results expect (Eclipse's: 2).
        score_rule: the rulebook section the end-game scoring follows (mark it ``N_("p.8 Victory")``): the score
            screens cite it (:meth:`cite`) under each breakdown; "" when the game has no final scoring (d6).
        tiebreak: what :attr:`ScoreBreakdown.tiebreak` counts, in the order its values are compared, as the rulebook
            words it (mark it ``N_("dice in cup + credits")``): the score screens label the tie-break row with it;
            "" when the game has none.
    """

    name: str
    title: str
    bgg_id: int | None
    players: tuple[int, int]
    colours: tuple[str, ...] = SEAT_COLOURS
    options: tuple[Option, ...] = ()
    score_input: str | None = None
    rulebook: str = ""
    renames: tuple[Rename, ...] = ()
    score_role_key: str | None = None
    check_format: CheckFormat = field(default_factory=CheckFormat)
    input_error_exit: int = 1
    score_rule: str = ""
    tiebreak: str = ""

    def __post_init__(self) -> None:
        if self.input_error_exit not in (1, 2):
            raise ValueError(f"{self.title}: input_error_exit is 1 or 2 (0 means success), got {self.input_error_exit}")
        low, high = self.players
        if not 0 <= low <= high:
            raise ValueError(f"{self.title}: players must be (min, max) with 0 <= min <= max, got {self.players}")
        if high > len(self.colours):
            raise ValueError(f"{self.title}: {high} players need {high} seat colours, {len(self.colours)} declared")
        if self.score_input is not None and self.score_input not in SCORE_INPUTS:
            raise ValueError(f"{self.title}: score_input must be one of {', '.join(SCORE_INPUTS)} or None")
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.title}: an option is declared twice ({', '.join(names)})")

    def option(self, name: str) -> Option:
        """The option called ``name``. Raises KeyError (naming the game's options) when there is none."""
        for opt in self.options:
            if opt.name == name:
                return opt
        names = ", ".join(o.name for o in self.options) or "none"
        raise KeyError(f"{self.title} has no option {name!r}; options: {names}")

    def check_player_count(self, count: int) -> None:
        """Refuses ``count`` players when the game is not for that many (:attr:`players`, the rulebook's box); a
        game that keeps no players (``(0, 0)``, d6) takes any count. The one count check: settings and the command
        line's ``--players`` (before seat colours are given out) both call it.

        Raises:
            BadSettings: ``"Race for the Galaxy is for 2-4 players, got 5"``.
        """
        low, high = self.players
        if high and not low <= count <= high:
            raise BadSettings(Text("{title} is for {range} players, got {count}", title=self.title,
                                   range=self.player_range, count=count))

    @property
    def player_range(self) -> str:
        """``"2-5"``, or ``"2"`` when the game is for one count only."""
        low, high = self.players
        return str(low) if low == high else f"{low}-{high}"

    def cite(self, section: str) -> str:
        """A rule citation in the one format findings use: ``"<title>, <rulebook section>"`` (:func:`citation`)."""
        return citation(self.title, section)


@dataclass(frozen=True)
class Progress:
    """Where a game stands, typed (flows read this, never the view dict's keys).

    Attributes:
        round: the round (Roll, Race), the round of the year (Among the Stars) or the game round (Eclipse),
            1-based; 0 before the first.
        round_label: what players read, e.g. ``"Round 3"``, ``"Year 2 of 4, round 4 of 6"``; ``"Setup"`` before
            the first.
        stage: the position in the round in the game's own terms (``"setup"``, ``"develop"``,
            ``"action"``, ``"over"``); one word per position, ``"over"`` once the game has ended.
        turn: whose turn it is, when the game has turns (Eclipse's action phase), else None.
        last_round: an end condition is met and this is the last round.
        ending: what ends the game, in players' words (``["VP pool exhausted"]``), empty before.
        over: the game has ended (scores are final).
        rounds: how many rounds this stretch has when that is fixed in advance (Among the Stars: the
            rounds of this year; Eclipse: 9), else None (an end condition decides).
        waiting: the players the table waits for before it can move on (a phase selection, an action
            card, an action this round), in seat order.
        acting: every player who may act now when the game has turns (Eclipse: the turn's player and the passed
            players who may react before them; in simultaneous play both Action marker holders but one who waits to
            hand it on, Rise of the Ancients p.13), in play order; empty when :attr:`turn` says it all.
    """

    round: int
    round_label: str
    stage: str
    turn: str | None = None
    last_round: bool = False
    ending: tuple[str, ...] = ()
    over: bool = False
    rounds: int | None = None
    waiting: tuple[str, ...] = ()
    acting: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"round", "round_label", "stage", "turn", "last_round", "ending": [...], "over", "rounds",
        "waiting": [...], "acting": [...]}``."""
        return {"round": self.round, "round_label": self.round_label, "stage": self.stage, "turn": self.turn,
                "last_round": self.last_round, "ending": list(self.ending), "over": self.over,
                "rounds": self.rounds, "waiting": list(self.waiting), "acting": list(self.acting)}


S = TypeVar("S")


class Game(Protocol[S]):
    """What every game module declares: its facts once (:attr:`info`), plus a small pure state API.

    As OpenSpiel's games are: a declaration and a state with a fixed handful of methods. The app reads a
    game only through this protocol (and :class:`CheckingGame` where a game checks positions).

    Attributes:
        info: the game's facts (:class:`GameInfo`).
        name: ``info.name`` (the session log stores it).
        title: ``info.title``.
        event_kinds: every event kind :meth:`apply` accepts (besides ``"undo"``).
    """

    info: GameInfo
    name: str
    title: str
    event_kinds: frozenset[str]

    def initial_state(self, settings: Mapping[str, Any]) -> S:
        """The state before any event, from the session's settings (players, options).

        Raises:
            BadSettings: settings the game cannot start from (player count, option values).
        """
        ...

    def apply(self, state: S, event: Event) -> tuple[S, list[Finding]]:
        """The state after ``event`` and the findings it raised. Must not mutate ``state``.

        Raises:
            UnknownEvent: ``event.kind`` is not in :attr:`event_kinds`.
            BadEvent: the payload cannot be applied at all.
        """
        ...

    def view(self, state: S) -> dict[str, Any]:
        """JSON-compatible summary of ``state`` for the touchscreen and the phone view."""
        ...

    def progress(self, state: S) -> Progress:
        """Where the game stands (round, stage, whose turn, last round, over)."""
        ...

    def scores(self, state: S) -> list[ScoreBreakdown]:
        """Each player's score as the game stands (final once ``progress(state).over``), in seat order."""
        ...

    def public(self, state: S) -> S:
        """``state`` as every player may see it now: information a player keeps hidden until the rules reveal it left
        out (the state itself when the game hides nothing that scores). A standing shown before the game is over is
        ``scores(public(state))``."""
        ...

    def final_scores(self, data: Any) -> list[ScoreBreakdown]:
        """Score an end-of-game position given as parsed JSON (``companion score GAME FILE``, in the format
        :attr:`GameInfo.score_input` names).

        Raises:
            RulesError: a ``ScoreInputError`` naming the field and the problem; a game whose
                ``info.score_input`` is None has no end-of-game input and always raises.
        """
        ...


@runtime_checkable
class CheckingGame(Protocol):
    """A game that checks a position for misplays (``companion check GAME FILE``): recognised by this
    protocol (``isinstance(game, CheckingGame)``), never by ``getattr``. Its findings print in the
    shape :attr:`GameInfo.check_format` declares."""

    def check(self, data: Any) -> list[Finding]:
        """The findings of a position given as parsed JSON (no ERROR finding: legal).

        Raises:
            RulesError: a ``ScoreInputError`` naming the field and the problem.
        """
        ...


@runtime_checkable
class RankingGame(Protocol):
    """A game whose winners are not simply "most VP, then the tie-break values" (teams, alliances):
    recognised by this protocol; other games rank with :func:`rules.scoring.winners`."""

    def standings(self, breakdowns: Sequence[ScoreBreakdown]) -> Standings:
        """The winners (and team scores) of these final scores."""
        ...


@dataclass(frozen=True)
class Replay(Generic[S]):
    """Result of :func:`replay`: the derived state, every finding, and which events counted."""

    state: S
    findings: tuple[Finding, ...]
    applied: tuple[int, ...]  # seqs of the events that were applied, in order
    undone: tuple[int, ...]  # seqs withdrawn by undo events


def effective_events(events: Iterable[Event]) -> tuple[list[Event], set[int]]:
    """Resolve undo events: the events still in force, and the seqs that were withdrawn.

    An ``"undo"`` event withdraws the event named by ``payload["seq"]``; undoing an undo
    restores what it withdrew. Undo events themselves are never in the returned list.

    Raises:
        BadEvent: an undo names no integer seq, a seq not earlier in the log, or itself.
    """
    ordered = sorted(events, key=lambda e: e.seq)
    by_seq = {e.seq: e for e in ordered}
    withdrawn: set[int] = set()
    # Walk undos from the newest back: an undo that is itself withdrawn has no effect.
    for event in reversed(ordered):
        if event.kind != UNDO:
            continue
        if event.seq in withdrawn:
            continue
        target = event.payload.get("seq")
        if not isinstance(target, int) or isinstance(target, bool):
            raise BadEvent(f"undo event {event.seq} names no integer 'seq' (got {target!r})")
        if target >= event.seq or target not in by_seq:
            raise BadEvent(f"undo event {event.seq} names seq {target}, which is not an earlier event")
        withdrawn.add(target)
    kept = [e for e in ordered if e.kind != UNDO and e.seq not in withdrawn]
    undone = {s for s in withdrawn if by_seq[s].kind != UNDO}
    return kept, undone


def replay(game: Game[S], settings: Mapping[str, Any], events: Iterable[Event]) -> Replay[S]:
    """Derive a game's state from its settings and its event log.

    Args:
        game: the game module's :class:`Game`.
        settings: the session's settings (players, options), passed to ``initial_state``.
        events: the log, in any order (sorted by ``seq`` here); may contain undo events.

    Raises:
        UnknownEvent, BadEvent: from the game, naming the event's seq.
    """
    kept, undone = effective_events(events)
    state = game.initial_state(settings)
    findings: list[Finding] = []
    applied: list[int] = []
    for event in kept:
        if event.kind not in game.event_kinds:
            raise UnknownEvent(f"event {event.seq}: game {game.name!r} has no event kind {event.kind!r}")
        state, raised = game.apply(state, event)
        findings.extend(raised)
        applied.append(event.seq)
    return Replay(state=state, findings=tuple(findings), applied=tuple(applied), undone=tuple(sorted(undone)))
