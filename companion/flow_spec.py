"""What a game's flow module declares (``companion/flows/``): forms, columns, boards, the round, settings.

A game at the table is its rules engine (``rules``) plus one flow module. The flow module is a
:class:`FlowBase` subclass: everything the box needs that the engine's declaration (``game.info``:
:class:`rules.GameInfo`) already says is read from it (name, title, BoardGameGeek id, player range, seat
colours, options and their checks); the module adds only what is about the table:

- the report forms a phone fills in (:class:`Form`, :class:`Field`; :func:`parse_form` checks a posted one;
  all three from :mod:`companion.flow_forms`, named here too so a flow module imports its API from one place); a
  game whose goods lie on worlds lists them with :func:`goods_choices` (:mod:`companion.flow_goods`);
- the columns each player's row shows (:class:`Column`: Roll's tableau, credits, VP; any game's resources);
- boards to draw (:class:`Board` of :class:`Cell`: a shared hex map, each player's grid);
- how the engine's view and progress read as a round at the table (:class:`TableRound`: phases, pool, note,
  what Next does) and which events Next records;
- each player's role (faction, start world, race) for the score screen and BG Stats.

:class:`companion.flow.GameFlow` does the rest, the same for every game.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from companion.errors import BadEntry
from companion.flow_forms import FIELD_KINDS, MAX_DICE, WHOLE_DIGITS, Field, Form, parse_form, whole_number
from companion.flow_goods import GoodsWords, GoodsWorld, goods_choices
from companion.i18n import Listing, Text, message_of
from rules import BadEvent, Event, GameInfo, Option, Progress, ScoreBreakdown
from rules.settings import check_settings

__all__ = [
    "BOARD_KINDS",
    "Board",
    "Cell",
    "Column",
    "FIELD_KINDS",
    "Field",
    "MAX_DICE",
    "FlowBase",
    "Form",
    "GameSpec",
    "GoodsWords",
    "GoodsWorld",
    "RESERVED_KEYS",
    "STANDARD_COLUMNS",
    "TableRound",
    "Throw",
    "ThrownDie",
    "WHOLE_DIGITS",
    "goods_choices",
    "parse_form",
    "whole_number",
]

@dataclass(frozen=True)
class Column:
    """One value each player's row shows (touchscreen and phones), declared by the game's flow.

    Attributes:
        key: the key in each player's row of the view (``"credits"``, ``"science"``); not one of
            :data:`RESERVED_KEYS`.
        label: the column's heading, in players' words (``"Credits"``).
    """

    key: str
    label: str

    def to_json(self) -> dict[str, str]:
        """``{"key", "label"}``."""
        return {"key": self.key, "label": self.label}


STANDARD_COLUMNS = (Column("tableau", Text("Tableau")), Column("credits", Text("Credits")), Column("vp", Text("VP")))
"""The columns of a flow that declares none: tiles or cards in the tableau, credits, VP."""

RESERVED_KEYS = frozenset({"name", "seat", "colour", "role", "waiting", "turn", "claimed"})
"""Keys of a player's row the flow itself fills (a :class:`Column` may not use them)."""

BOARD_KINDS = ("grid", "hex")
"""How a :class:`Board`'s cells are placed: ``grid`` ``[i, j]`` (i across, j down, as the game numbers its
cells: Among the Stars' station, the Main Reactor at [0, 0]) or ``hex`` axial ``[q, r]`` (flat-topped, y down,
the Galactic Center at [0, 0]: the glossary's "hex axial, rotation")."""


@dataclass(frozen=True)
class Cell:
    """One place on a :class:`Board` and what lies there.

    Attributes:
        at: ``(i, j)`` on a grid board, ``(q, r)`` axial on a hex board.
        label: what lies there, in players' words (``"Turret"``, ``"Sector 201"``).
        owner: the player it belongs to (whose influence disc, whose card), or None.
        rotation: a hex tile's rotation, 0-5 steps of 60 degrees clockwise, or None.
        detail: one more line (``"2 Ancients"``, ``"3 energy cubes"``), or "".
        empty: an empty place a tile may go (an Eclipse map space next to the hexes), drawn apart from the pieces.
    """

    at: tuple[int, int]
    label: str
    owner: str | None = None
    rotation: int | None = None
    detail: str = ""
    empty: bool = False

    def to_json(self) -> dict[str, Any]:
        """``{"at": [a, b], "label", "owner", "rotation", "detail", "empty"}``."""
        return {"at": [int(self.at[0]), int(self.at[1])], "label": self.label, "owner": self.owner,
                "rotation": self.rotation, "detail": self.detail, "empty": self.empty}


@dataclass(frozen=True)
class Board:
    """A map or a player's layout to draw (``view["boards"]``): a shared hex map, each player's station.

    Attributes:
        id: stable id in the view (``"map"``, ``"station-Ann"``).
        label: its heading (``"Ann's station"``).
        kind: one of :data:`BOARD_KINDS`.
        cells: what lies where, in the game's order.
        owner: the player whose own board it is, or None for the shared one.
        places: the free places a phone offers to tap on a grid, as the players name them (``{"i,j": words}``,
            Among the Stars: "1 right of the Main Reactor"), read aloud by a screen reader; {}: said as numbers.
    """

    id: str
    label: str
    kind: str
    cells: tuple[Cell, ...] = ()
    owner: str | None = None
    places: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in BOARD_KINDS:
            raise ValueError(f"board {self.id!r}: kind must be one of {', '.join(BOARD_KINDS)}, got {self.kind!r}")

    def to_json(self) -> dict[str, Any]:
        """``{"id", "label", "kind", "owner", "cells": [Cell.to_json()]}``, and ``"places"`` when there are any."""
        out = {"id": self.id, "label": self.label, "kind": self.kind, "owner": self.owner,
               "cells": [c.to_json() for c in self.cells]}
        if self.places:
            out["places"] = dict(self.places)
        return out


@dataclass(frozen=True)
class ThrownDie:
    """One die of a :class:`Throw`: its colour, the face it shows, and what it did.

    Attributes:
        colour: the die's colour (``"red"``), as the game names it.
        face: the face (``6``, ``"explore"``), or None when it could not be read.
        hit: True / False when the game judges it (an Eclipse hit or miss), None when it does not.
        note: a few words more (``"4 damage"``), or "".
    """

    colour: str
    face: int | str | None
    hit: bool | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"colour", "face", "hit", "note"}``."""
        return {"colour": self.colour, "face": self.face, "hit": self.hit, "note": self.note}


@dataclass(frozen=True)
class Throw:
    """Dice just rolled that the views show (``view["throws"]``): each die with what it did, and a summary (an
    Eclipse volley: which dice hit and the damage). A throw without dice says what is to be rolled.

    Attributes:
        id: stable id in the view (``"volley"``).
        label: what was thrown, in players' words (``"Ann's Cruiser at Bob's Dreadnought"``).
        dice: the dice, in the order read.
        summary: the outcome (``"2 hits: 5 damage"``), or what to do (``"roll 2 yellow dice"``).
        player: whose throw it is, or None.
    """

    id: str
    label: str
    dice: tuple[ThrownDie, ...] = ()
    summary: str = ""
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"id", "label", "player", "dice": [ThrownDie.to_json()], "summary"}``."""
        return {"id": self.id, "label": self.label, "player": self.player, "dice": [d.to_json() for d in self.dice],
                "summary": self.summary}


@dataclass
class TableRound:
    """How the game stands as a round at the table (what :meth:`GameSpec.table` returns): the engine's
    :class:`rules.Progress` plus what the flow adds.

    Attributes:
        progress: the engine's ``progress(state)`` (round, round label, stage, turn, last round, ending,
            over, waiting): read, never worked out again by the flow.
        phases: ``[{"label", "by": [players], "state": "done" | "current" | "next"}]`` in order.
        note: one line for the table (what happens now; pass direction).
        next_label: what the Next button does now (``"Reveal"``, ``"Settle"``, ``"End round"``).
        next_why: why Next cannot be pressed now ("" when it can).
        pool: VP chips left in the pool, or None for a game without one.
        pool_label: what the pool is called.
        players: per player ``{column key: value}`` (the flow's :attr:`GameSpec.columns`).
        label: what the table reads for the round when the table is already in the next one though the engine
            still counts the last ("" : the engine's :attr:`rules.Progress.round_label`): Race's action cards
            chosen after End round belong to the next round (Race for the Galaxy, Round: Action selection).
        next_confirm: what Next asks the table to confirm before it acts ("" : nothing): the first Next is refused
            with it, the next one with nothing recorded between carries it out (Among the Stars: a round ended
            before every player reported their action names who has not).
    """

    progress: Progress
    phases: list[dict[str, Any]]
    note: str
    next_label: str
    next_why: str = ""
    pool: int | None = None
    pool_label: str = Text("VP pool")
    players: dict[str, dict[str, Any]] = field(default_factory=dict)
    label: str = ""
    next_confirm: str = ""

    @property
    def round(self) -> int:
        """The round (:attr:`rules.Progress.round`)."""
        return self.progress.round

    @property
    def round_label(self) -> str:
        """``"Round 3"``, ``"Year 2 of 4, round 4 of 6"`` (:attr:`label`, else :attr:`rules.Progress.round_label`)."""
        return self.label or self.progress.round_label

    @property
    def stage(self) -> str:
        """The position in the round (:attr:`rules.Progress.stage`)."""
        return self.progress.stage

    @property
    def last_round(self) -> bool:
        """An end condition is met: this round is the last one."""
        return self.progress.last_round

    @property
    def ending(self) -> list[str]:
        """What ends the game, in players' words."""
        return list(self.progress.ending)

    @property
    def over(self) -> bool:
        """The game has ended; scores are final."""
        return self.progress.over

    @property
    def waiting(self) -> tuple[str, ...]:
        """The players the table waits for (:attr:`rules.Progress.waiting`)."""
        return self.progress.waiting


class GameSpec(Protocol):
    """What a game's flow module declares; :class:`companion.flow.GameFlow` does the rest.

    Subclass :class:`FlowBase`: it reads the declaration and gives the defaults. Methods take the engine's
    ``view(state)`` (the game's own facts: Roll's selected phases, Race's steps) and, where the table's
    position matters, its ``progress(state)``.

    Attributes:
        game: the rules engine (:class:`rules.Game`); ``game.info`` is the declaration.
        name, title, bgg_id: the declaration's (``info.name``, ``info.title``, ``info.bgg_id``).
        columns: what each player's row shows (:class:`Column`).
        report_forms: event kind -> the form that reports it, for the reports a phone may withdraw only
            while that form is open (:meth:`companion.flow.GameFlow.undo_report`): a setup once the first
            round started, a phase or action choice once revealed.
        kept_forms: the forms a player enters once and keeps (Among the Stars: a Qualeen's secret objective,
            kept from the setup): closed to that player while an entry of theirs on it is in force; their phone then
            withdraws it with a button of its own, which opens the form again, and their "Undo my last report"
            passes it by (:meth:`companion.flow.GameFlow.undo_report`). Their event kinds are in :attr:`report_forms`.
        camera_records: the event kinds the camera records by itself, no player answering (Among the Stars'
            ``station_read``: findings only, recorded again on the next read): every Undo passes them by, so it takes
            back what a player did, a camera answer too, however many reads came after it.
        camera: the camera part, or None.
    """

    name: str
    title: str
    bgg_id: int | None
    columns: tuple[Column, ...]
    report_forms: Mapping[str, str]
    kept_forms: frozenset[str]
    camera_records: frozenset[str]
    camera: Any

    @property
    def game(self) -> Any: ...

    @property
    def info(self) -> GameInfo: ...

    def settings(self, seats: list[dict[str, str]], options: Mapping[str, Any]) -> dict[str, Any]:
        """The session settings for these seats (``parse_players``) and options. Raises BadEntry."""
        ...

    def check_setup(self, settings: Mapping[str, Any]) -> None:
        """A setup's own checks of :meth:`settings`' answer before Start (:meth:`FlowBase.check_setup`)."""
        ...

    def forms(self, view: Mapping[str, Any]) -> tuple[Form, ...]:
        """Every report form of the game (choices from the game's data)."""
        ...

    def open_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """The ids of the forms ``player`` may fill in now."""
        ...

    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The choices the table leaves ``player`` in a form's field (:meth:`FlowBase.choices_now`)."""
        ...

    def entry_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """The hidden end-of-game entry forms open to ``player`` now (:meth:`FlowBase.entry_forms`), or []."""
        ...

    def choice_groups(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The choices a long list shows ``player`` first, under labels (:meth:`FlowBase.choice_groups`)."""
        ...

    def form_notes(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, Any]:
        """What a form says to ``player`` now under its fields (:meth:`FlowBase.form_notes`)."""
        ...

    def cell_choices(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The pieces of ``player``'s board a cell field offers, by another field's value
        (:meth:`FlowBase.cell_choices`)."""
        ...

    def outside_choices(self, form: Form, field: str, value: Any, player: str) -> str:
        """Why ``player`` may not report ``value`` in ``form``'s ``field`` now (:meth:`FlowBase.outside_choices`)."""
        ...

    def columns_now(self, view: Mapping[str, Any]) -> tuple[Column, ...]:
        """The columns each player's row shows at this table (:meth:`FlowBase.columns_now`)."""
        ...

    def kept_closed_why(self, form: str, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Why ``player``'s entry on a kept form can no longer be withdrawn now (empty: it can)."""
        ...

    def table(self, view: Mapping[str, Any], progress: Progress) -> TableRound:
        """The engine's view and progress read as a round at the table."""
        ...

    def uncounted_note(self, view: Mapping[str, Any], progress: Progress) -> Any:
        """The table's note where the camera does not count the dice (:meth:`FlowBase.uncounted_note`), or None."""
        ...

    def next_events(self, view: Mapping[str, Any], progress: Progress) -> list[tuple[str, dict[str, Any]]]:
        """The events the Next button records now, as ``(kind, payload)``; [] when it cannot move."""
        ...

    def report_event(
        self, form: str, values: dict[str, Any], player: str, view: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """The ``(kind, payload)`` a checked report becomes. Raises BadEntry."""
        ...

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """The seq of the report in force (``events``: the applied ones, oldest first) that a new report of ``form``
        (``values`` as the phone sent them, not checked yet) by ``player`` corrects, or None (a report of its own)."""
        ...

    def entry_values(self, form: str, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        """A hidden end-of-game entry's event ``payload`` as the values of its ``form``'s fields."""
        ...

    def scores(self, state: Any) -> list[ScoreBreakdown]:
        """Each player's score breakdown (final once the game is over)."""
        ...

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's faction / start world / race, for the score screen and BG Stats."""
        ...

    def boards(self, view: Mapping[str, Any], progress: Progress) -> Sequence[Board]:
        """The boards to draw now (``view["boards"]``); () for none."""
        ...

    def throws(self, view: Mapping[str, Any], progress: Progress) -> Sequence[Throw]:
        """The dice to show now (``view["throws"]``: a volley's hits); () for none."""
        ...


class FlowBase:
    """The part of every flow that the game's declaration already says (subclass it in ``companion/flows/``).

    A subclass sets :attr:`game` (the rules engine) and writes the table methods of :class:`GameSpec`
    (``forms``, ``open_forms``, ``table``, ``next_events``, ``report_event``); it may set :attr:`columns`,
    :attr:`report_forms` and :attr:`fixed`, and override :meth:`role`, :meth:`boards`, :meth:`throws`, :meth:`stored`.

    Attributes:
        game: the rules engine.
        columns: what each player's row shows (default :data:`STANDARD_COLUMNS`).
        report_forms, kept_forms, camera_records: see :class:`GameSpec`.
        fixed: settings the flow decides, not the players (Roll: ``{"tracking": "tableau"}``: players report
            their tableau; the dice are not followed).
        camera: the game's camera part (:class:`companion.camera.spec.CameraSpec`: the readers it uses and in
            which passes, its watchers, what a change becomes), or None: played from the phones only.
    """

    game: ClassVar[Any]
    columns: ClassVar[tuple[Column, ...]] = STANDARD_COLUMNS
    report_forms: ClassVar[Mapping[str, str]] = {}
    kept_forms: ClassVar[frozenset[str]] = frozenset()
    camera_records: ClassVar[frozenset[str]] = frozenset()
    fixed: ClassVar[Mapping[str, Any]] = {}
    camera: ClassVar[Any] = None
    hidden_note: ClassVar[Any] = Text("what players keep hidden counts once the game is over")
    """Said beside a standing of a game not over whose hidden entries are left out of it (:meth:`rules.core.Game.public`
    differs from the state): why a total may be less than a player expects."""
    event_words: ClassVar[Mapping[str, Any]] = {}
    """Event kind -> what players call it ("Phase selected", "Reveal"), for the messages that name an event
    (an Undo, a withdrawn report); a kind not listed is said in words made from its name."""

    def event_label(self, kind: str, payload: Mapping[str, Any] | None = None) -> str:
        """What players call an event of ``kind`` (:attr:`event_words`, else its name in words: "tile built");
        ``payload``, the event's, lets a flow say which one it was (Roll for the Galaxy's "III Settle" for the Next
        that started the Settle phase); the default ignores it."""
        label = self.event_words.get(kind)
        return label if label is not None else kind.replace("_", " ")

    def entry_values(self, form: str, payload: Mapping[str, Any]) -> Mapping[str, Any]:
        """A hidden end-of-game entry's event ``payload`` (a report of ``form``, one of :attr:`report_forms`) as the
        values of the form's fields, ``{field: value}``: what an entry entered again must not leave blank
        (:meth:`companion.flow.GameFlow.report`: it replaces the earlier one whole, and a phone that reloaded shows
        the form empty). Empty by default: nothing is compared."""
        return {}

    def corrects(self, form: str, values: Any, player: str, events: Sequence[Event]) -> int | None:
        """The seq of the report a new report of ``form`` by ``player`` corrects: it replaces it (the earlier one is
        withdrawn in the same breath, so the state and the findings follow the newest report). None by default:
        every report is one of its own; a flow names the reports a player makes once and may report again to fix
        (Eclipse's starting sector).

        Args:
            form: the form reported.
            values: the report's values as sent (not checked yet: the form is checked against the table without
                the report it corrects).
            player: who reports.
            events: the events in force, oldest first.
        """
        return None

    def entry_forms(self, view: Mapping[str, Any], progress: Progress, player: str) -> list[str]:
        """The forms of a hidden end-of-game entry open to ``player`` now (Eclipse, End of the game: each player's
        final position, reputation tiles face down), or [] outside such an entry: the ids of the open forms when
        every form open to ``player`` is private (:attr:`Form.private`), the table waiting for nothing but hidden
        entries. While they are open a phone's Undo withdraws only the player's own report on one of them
        (:meth:`companion.flow.GameFlow.undo_report`), never a report made before the rounds ended, and a report on
        one of them again replaces the player's earlier one; the private form's event kind must be named in
        :attr:`report_forms`. A flow overrides this where its entry differs."""
        open_now = self.open_forms(view, progress, player)
        private = {f.id for f in self.forms(view) if f.private}
        return list(open_now) if open_now and all(f in private for f in open_now) else []

    def choices_now(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The choices the table leaves ``player`` now in some fields of the open forms, narrower than the field's own
        (Eclipse's attack on a player you have relations with: only those players), as ``{form id: {field name:
        {"choices": [choice, ...], "none": what the form says instead of an empty list, "why" (optional): {choice
        left out: why it is refused, where the flow knows better than :meth:`outside_choices`}}}}``. The default
        narrows nothing: ``{}``."""
        return {}

    def choice_groups(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """What a long list of choices shows ``player`` first, the choices they most likely mean now (Roll for the
        Galaxy's Tile built: the tiles of their construction zone, then the side the phase builds; Race for the
        Galaxy's Card placed: the cards the phase places), as ``{form id: {field name: {"groups": [{"label": what
        the group is, "choices": [choice, ...]}, ...], "rest": the label of every other choice}}}``. The phone lists
        each group's choices that the field offers under its label, in the group's order, then the field's other
        choices in the field's order under ``rest``. An order only: every choice of the field can still be reported
        (:meth:`choices_now` narrows). The default groups nothing: ``{}``."""
        return {}

    def form_notes(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, Any]:
        """What a form says to ``player`` now, under its fields and before its :attr:`Form.hint`, where it depends on
        the table (Roll for the Galaxy's VP chips taken in V Ship: the chips a Consume has paid already, and that the
        number asked is the phase's total), as ``{form id: text}``. The default says nothing: ``{}``."""
        return {}

    def cell_choices(self, view: Mapping[str, Any], progress: Progress, player: str) -> dict[str, dict[str, Any]]:
        """The places of ``player``'s own board that a ``cell`` field of an open form offers, where they depend on the
        value of another field of the form (Among the Stars: the reactors that can pay a location's energy cube, by
        the place it is built at), as ``{form id: {field name: {"after": other field, "places": {"i,j": label},
        "by": {"i,j" (the other field's cell): ["i,j", ...] (the places offered there)}, "chosen": {"i,j" (the other
        field's cell): "i,j" (the place first picked)}}}}``. The phone shows such a field as a list of those places,
        ``chosen`` first picked, and only while the other field holds a cell listed in ``by``; else it leaves it out
        of what it sends (the box then chooses). These are no narrowing: the rules refuse a place that cannot be
        taken, with why. The default offers none: ``{}``."""
        return {}

    def columns_now(self, view: Mapping[str, Any]) -> tuple[Column, ...]:
        """The columns each player's row shows at this table, given the engine's ``view``: :attr:`columns`, less those
        the table does not play with (Eclipse's Ambassadors with 2 or 3 players). The default leaves out none."""
        return tuple(self.columns)

    def outside_choices(self, form: Form, field: str, value: Any, player: str) -> str:
        """Why ``player`` may not report ``value`` in ``form``'s field named ``field``: a value the field offers but
        :meth:`choices_now` leaves out (a phone's page older than the table, or a request made by hand), in the
        players' words; the report is refused, nothing recorded. A flow says the rule where it can."""
        label = next((f.label for f in form.fields if f.name == field), field)
        return Text("{form}: {field}: {value} cannot be chosen now", form=form.label, field=label, value=value)

    def uncounted_note(self, view: Mapping[str, Any], progress: Progress) -> Any:
        """The table's note (:attr:`TableRound.note`) on a box whose camera does not count the game's dice at the
        end (no camera, or no dice reader: :attr:`companion.flow.GameFlow.camera_counts` False), where it says
        something else than :meth:`table`'s; None (the default): the same note."""
        return None

    def closed_why(self, form: Form, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Why ``form`` is not open to ``player`` now, in the players' words (a flow says more where it can)."""
        if progress.over:
            return Text("the game is over: reports are closed (Undo first to reopen the last round)")
        return Text("{form} cannot be reported now ({round})", form=form.label, round=progress.round_label)

    def kept_closed_why(self, form: str, view: Mapping[str, Any], progress: Progress, player: str) -> str:
        """Why ``player``'s entry on ``form`` (one of :attr:`kept_forms`) can no longer be withdrawn now, in the
        players' words; empty while it can (the default: until the game is scored)."""
        return ""

    @property
    def info(self) -> GameInfo:
        """The game's declaration (``game.info``)."""
        return self.game.info

    @property
    def name(self) -> str:
        """The game's short id (``rules.GAMES``, ``--game``)."""
        return self.info.name

    @property
    def title(self) -> str:
        """The game's name for players."""
        return self.info.title

    @property
    def bgg_id(self) -> int | None:
        """BoardGameGeek id, for the BG Stats play record."""
        return self.info.bgg_id

    @property
    def options(self) -> tuple[Option, ...]:
        """The options players choose at the start (the declaration's ``offered`` ones): CLI flags, setup."""
        return tuple(o for o in self.info.options if o.offered)

    def settings(self, seats: list[dict[str, str]], options: Mapping[str, Any]) -> dict[str, Any]:
        """The session settings for these seats and options, checked by the game before anything is recorded.

        Args:
            seats: ``[{"name", "colour"}]`` in seat order (:func:`companion.player_names.parse_players`).
            options: the options given (command line, setup step): ``{option name: value}``, only those given
                (a ``choices`` option as a list of names; a per-player one in seat order, "" for none).

        Returns:
            ``{"players": names | [{"name", <player_key>: value}], "seats": seats, <option>: value, ...}``: every
            offered option (its default when not given; a per-player option with a ``player_key`` inside each
            player's entry), plus :attr:`fixed`; each value as :meth:`stored` writes it.

        Raises:
            BadEntry: an option the game does not offer ("Roll for the Galaxy takes no advanced"), or settings
                the game refuses (:func:`rules.settings.check_settings`, then the engine's own checks): the
                message names the problem ("the advanced game is for 2 players, not 3").
        """
        info = self.info
        offered = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(offered))
        if unknown:
            raise BadEntry(Text("{title} takes no {options}", title=info.title, options=Listing(unknown)))
        names = [s["name"] for s in seats]
        try:
            checked = check_settings(info, {**options, **self.fixed, "players": names})
        except BadEvent as exc:
            raise BadEntry(message_of(exc)) from None
        entries = any(o.per_player and o.player_key for o in offered.values())
        players: list[Any] = [{"name": n} for n in names] if entries else list(names)
        out: dict[str, Any] = {"players": players, "seats": [dict(s) for s in seats]}
        for option in offered.values():
            value = self.stored(option, checked[option.name])
            if option.per_player and option.player_key:
                for entry, v in zip(players, value, strict=True):
                    if v:
                        entry[option.player_key] = v
            else:
                out[option.name] = value
        out.update(self.fixed)
        try:
            self.game.initial_state(json.loads(json.dumps(out)))  # the engine's own checks (as a session starts)
        except BadEvent as exc:
            raise BadEntry(message_of(exc)) from None
        return out

    def check_setup(self, settings: Mapping[str, Any]) -> None:
        """What a game chosen on the box checks before its setup's Start beyond :meth:`settings` (``settings``: what
        :meth:`settings` returned): counts the players tick on a phone and can no longer see once a player leaves
        (Among the Stars' objectives). The default checks nothing.

        Raises:
            BadEntry: the setup's options do not fit its players, said with the rule.
        """

    def stored(self, option: Option, value: Any) -> Any:
        """How a checked option value is written into the settings (JSON): a tuple as a list, else as it is.
        A flow whose stored settings use the game data's ids instead of names overrides this."""
        return list(value) if isinstance(value, tuple) else value

    def scores(self, state: Any) -> list[ScoreBreakdown]:
        """The engine's ``scores(state)``: final once the game is over, else as the table stands."""
        return self.game.scores(state)

    def role(self, view: Mapping[str, Any], player: str) -> str | None:
        """The player's role (faction, race, species), or None (the default: the game has none)."""
        return None

    def boards(self, view: Mapping[str, Any], progress: Progress) -> Sequence[Board]:
        """The boards to draw now; none by default."""
        return ()

    def throws(self, view: Mapping[str, Any], progress: Progress) -> Sequence[Throw]:
        """The dice to show now; none by default."""
        return ()
