"""Setting up a game at the table: players, their colours and seats (player zones), then Start.

Issue 3 'Setup on the touchscreen or phone: players, their seats/colours' and issue 5 'Player
zones: at setup each player taps their seat on the touchscreen picture of the table (or the box
splits the table evenly)'. ``companion run/demo --game G`` without ``--players`` and without an open
game shows this step instead of the game:

- players are added on a phone (name, colour picked from a list) or on the touchscreen ("Add
  player": "Player 3" with the next free colour; a phone can rename by removing and adding);
- each player's seat is tapped on the touchscreen picture of the table (``setup_seat`` with the
  point in frame pixels; with a calibration it is kept in table mm), or "Split evenly"
  (:meth:`vision.table.Zones.even`) gives every player an equal sector, the first at the bottom edge; in a game whose
  camera finds each player's station from its cards (Among the Stars: :attr:`TableSetup.finds_stations`) "Split
  evenly" saves no zones: a station lying across an even split would be read as another player's, so the camera
  finds the stations and asks the table whose each one is (:mod:`companion.camera.station_seats`);
- each player may pick their entry of the game's per-player options on a phone (``setup_choice``: Eclipse's species
  on the double-sided player boards, Among the Stars' races), checked at once against the others' picks;
- the game's on/off options (Eclipse's Rise of the Ancients modules and the Alliances, Race's advanced 2-player
  game, Among the Stars' aggressive mode) are turned on or off on a phone (``setup_option``), so a game chosen on
  the box plays them as ``--alliances`` and the like do on the command line; Start checks them against the players
  (the alliances need 4 or more);
- Start (``setup_start``) records the session with the game's settings plus ``"zones"``
  (:meth:`vision.table.Zones.to_json`) and ``"seat_points"``, so a resumed game keeps them.
  Factions, home worlds, start worlds and races are then picked from lists on the phone, as in the
  game flow.

Actions (hub, all answered with :class:`companion.flow_actions.Outcome`): ``setup_player`` (``player``: the
name, ``colour``), ``setup_remove`` (``player``), ``setup_rename`` (``player``, ``name``: the new name; a phone renames
a "Player N" added on the touchscreen, which has no keyboard), ``setup_seat`` (``player``, ``point``: ``[x, y]`` frame
px), ``setup_choice`` (``player``, ``option``, ``value``: one of the option's choices, None for none),
``setup_option`` (``option``, ``value``: ``"on"``/``"off"`` or True/False), ``setup_even``, ``setup_start``.

The setup view (``view["game"]`` while setting up)::

    {"flow": "race", "game": "race", "title": "Race for the Galaxy", "setup": true,
     "players": [{"name", "seat", "colour", "seated": bool, "choices": {option: entry}}], "colours": [...],
     "choices": [{"option", "label", "choices": [...]}],
     "options": [{"option", "name": its name in a sentence ("the alliances module"), "label": its help line (what it
                  does, the rulebook's page), "on": bool | [names picked],
                  "choices": [names] for a list option (Among the Stars' objectives), else null}],
     "zones": "even" | "seats" | "stations" (no seats tapped in a game that finds the stations: no zones),
     "seat_points": {name: [x, y] frame px}, "min_players": 2, "max_players": 4,
     "can_start": bool, "why": "...", "note": "...", "round_label": "Setup", "phases": [], "forms": [],
     "open_forms": {}, "findings": [], "over": false, "next": {"label": "Start", "enabled": bool, "why"}}
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion import records
from companion.actions import SETUP_ACTIONS, Action, posted
from companion.errors import BadEntry, shown
from companion.flow import GameFlow
from companion.flow_actions import Outcome
from companion.i18n import AND, N_, Listing, Text, message_of
from companion.player_names import check_player_colour, check_player_name, colour_id
from companion.session import new_id
from companion.words import colour_word
from rules import Event
from vision.table import even_zones, zones_from_seats

log = logging.getLogger(__name__)


OPTION_HEADINGS = {"species": N_("Species"), "start_worlds": N_("Start worlds"), "races": N_("Races")}
OPTION_WORDS = {"species": N_("species"), "start_worlds": N_("start worlds"), "races": N_("races")}
OPTION_ONE = {"species": N_("species"), "start_worlds": N_("start world"), "races": N_("race")}
"""The per-player options' names as the setup page shows them (the games' options with ``per_player``): as a
heading, in a sentence, and one player's pick ("Ágnes: race Sheptas", Hungarian "faj", not "fajok")."""


def option_word(name: str, heading: bool = False, one: bool = False) -> Text:
    """A per-player option's name for the players (``"species"``; ``"Species"`` as a heading; ``one``: a single
    player's pick, ``"race"``), said in their language."""
    word = name.replace("_", " ")
    if heading:
        return Text(OPTION_HEADINGS.get(name, word.capitalize()))
    return Text((OPTION_ONE if one else OPTION_WORDS).get(name, word))


__all__ = ["SETUP_ACTIONS", "TableSetup"]


class TableSetup:
    """The setup step of one game before its session exists; durable: every change is a setup event.

    Each change (a player added, a colour, a rename, a seat tapped, the even split) is written to the
    session database (:mod:`companion.records`, ``setup_events``) before it shows, so a kill or a power
    cut during the setup loses nothing: the same command again resumes the open setup of the game with
    the same options, with its players, colours and seats. Start records the game's session with the
    setup's id, so the phones paired during the setup stay paired.

    Args:
        store: the :class:`companion.session.SessionStore` the game is started in.
        spec: the game's flow spec (``companion.flows.FLOWS[game]``).
        options: game options from the command line (the declaration's offered options, ``{name: value}``).
        calibration: the table calibration (seats and zones in table mm) or None (frame px).
        on_start: called with the new :class:`~companion.flow.GameFlow` once Start records it.
        resume: go on with the newest open setup of this game with the same options (False: a new one).

    Attributes:
        id: the setup's id (the session Start records takes it).
        version: the seq of the newest setup event (0 before the first).

    Raises:
        companion.errors.StorageError: the open setups cannot be read.
    """

    def __init__(self, store: Any, spec: Any, options: Mapping[str, Any] | None = None, calibration: Any = None,
                 on_start: Callable[[GameFlow], None] | None = None, resume: bool = True) -> None:
        self.store = store
        self.spec = spec
        self.options = dict(options or {})
        self.calibration = calibration
        self.on_start = on_start
        self.players: list[dict[str, str]] = []
        self.seats: dict[str, list[float]] = {}  # name -> [x, y] frame px as tapped
        self.split = "even"
        self.choices: dict[str, dict[str, str]] = {}  # per-player option -> player -> entry
        self.flow: GameFlow | None = None
        self.recorded: list[Event] = []  # the setup events of the action being handled
        self.version = 0
        self._kept = False  # its row is in the database
        now = time.time()
        found = records.open_setup(store, spec.name, self.options) if resume and store is not None else None
        self.id = found.id if found is not None else new_id(now)
        self.started_at = found.started_at if found is not None else now
        if found is not None:
            self._kept = True
            for event in records.setup_events(store, found.id):
                try:  # a row damaged on disk (hand-edited, another version's) is left out; the setup goes on
                    self._apply(event.kind, event.payload)
                except (KeyError, TypeError, ValueError, AttributeError) as exc:
                    log.warning("setup %s: damaged setup event %s (%s) left out: %r", self.id, event.seq, event.kind,
                                exc)
                self.version = event.seq
            log.info("setup %s of %s resumed: %s", self.id, spec.name, ", ".join(self.names) or "no players yet")

    @property
    def limits(self) -> tuple[int, int]:
        """``(min, max)`` players: the game's declaration (``game.info.players``, from its rulebook's box)."""
        return self.spec.info.players

    @property
    def colours(self) -> tuple[str, ...]:
        """The seat colours the game offers, in seat order (``game.info.colours``)."""
        return tuple(self.spec.info.colours)

    # -- events ----------------------------------------------------------------------------------------
    def _record(self, kind: str, payload: dict[str, Any], origin: str) -> None:
        """Write one setup event (with the setup's row the first time), then apply it."""
        if self.store is not None:
            with self.store.transaction(write=True, doing="recording the setup"):
                if not self._kept:
                    records.start_setup(self.store, records.SetupRecord(self.id, self.spec.name, self.options,
                                                                        self.started_at))
                event = records.append_setup_event(self.store, self.id, self.version + 1, kind, payload, origin)
            self._kept = True
        else:
            event = Event(seq=self.version + 1, kind=kind, payload=dict(payload), at=time.time(), origin=origin)
        self._apply(kind, event.payload)
        self.version = event.seq
        self.recorded.append(event)

    def _apply(self, kind: str, payload: Mapping[str, Any]) -> None:
        """One setup event's effect (checked when it was recorded; replayed as it is)."""
        name = payload.get("player")
        if kind == "player_added":
            self.players.append({"name": name, "colour": payload["colour"]})
        elif kind == "colour_changed":
            for p in self.players:
                if p["name"] == name:
                    p["colour"] = payload["colour"]
        elif kind == "player_removed":
            self.players = [p for p in self.players if p["name"] != name]
            self.seats.pop(name, None)
            for entries in self.choices.values():
                entries.pop(name, None)
        elif kind == "player_renamed":
            self._rename(name, payload["name"])
        elif kind == "choice_set":
            entries = self.choices.setdefault(payload["option"], {})
            if payload.get("value"):
                entries[name] = payload["value"]
            else:
                entries.pop(name, None)
        elif kind == "option_set":
            self._apply_option(payload)
        elif kind == "seat_set":
            self.seats[name] = [float(v) for v in payload["point"]]
            self.split = "seats"
        elif kind == "split_even":
            self.seats.clear()
            self.split = "even"
        else:
            log.warning("setup %s: unknown setup event %r left out", self.id, kind)

    def _apply_option(self, payload: Mapping[str, Any]) -> None:
        """An ``option_set`` event's effect: one of :attr:`table_options` on or off, or a list option's names.

        Raises:
            ValueError: a row no phone could have written (an option the game does not offer here, a value of
                another kind, a name not among the option's choices): kept, it would hold Start off for good, with no
                way to clear it from a phone.
        """
        found = next((o for o in self.table_options if o.name == payload.get("option")), None)
        value = payload.get("value")
        if found is not None and found.kind == "choices":
            ok = isinstance(value, list) and all(isinstance(v, str) and v in found.choices for v in value)
        else:
            ok = found is not None and isinstance(value, bool)
        if not ok:
            raise ValueError(f"option {payload.get('option')!r} set to {value!r}")
        self.options[found.name] = list(value) if found.kind == "choices" else value

    def _rename(self, old: Any, new: str) -> None:
        """A ``player_renamed`` event's effect: the player, their seat and their choices under the new name."""
        for p in self.players:
            if p["name"] == old:
                p["name"] = new
        if old in self.seats:
            self.seats[new] = self.seats.pop(old)
        for entries in self.choices.values():
            if old in entries:
                entries[new] = entries.pop(old)

    def memo(self) -> tuple[Any, ...]:
        """The in-memory setup (:meth:`restore` puts it back after a rolled-back write)."""
        return ([dict(p) for p in self.players], {k: list(v) for k, v in self.seats.items()}, self.split,
                self.version, self._kept, {k: dict(v) for k, v in self.choices.items()}, dict(self.options))

    def restore(self, memo: tuple[Any, ...]) -> None:
        """Back to :meth:`memo`'s state (the write that followed it was rolled back)."""
        players, seats, self.split, self.version, self._kept, choices, options = memo
        self.players, self.seats = [dict(p) for p in players], {k: list(v) for k, v in seats.items()}
        self.options = dict(options)
        self.choices = {k: dict(v) for k, v in choices.items()}

    # -- actions -------------------------------------------------------------------------------
    def add_player(self, name: Any, colour: Any = None, origin: str = "cli") -> str:
        """Add a player (or change a player's colour). Raises BadEntry: bad name (or one already playing,
        ignoring case, also the same player again without a new colour: it would take the first free colour in
        place of theirs), colour taken or unknown, too many. Same rule as ``--players``."""
        if isinstance(name, str) and name.strip() in self.names:
            name = name.strip()  # the same player again: a new colour
            current = next(p["colour"] for p in self.players if p["name"] == name)
            if colour in (None, "") or (isinstance(colour, str) and colour_id(colour, self.colours) == current):
                check_player_name(name, self.names)  # nothing to change (a second phone adding Ann): "already playing"
            colour = check_player_colour(colour, [p["colour"] for p in self.players if p["name"] != name], self.colours)
            self._record("colour_changed", {"player": name, "colour": colour}, origin)
            return Text("{player} is {colour}", player=name, colour=colour_word(colour))
        name = check_player_name(name, self.names)
        if len(self.players) >= self.limits[1]:
            raise BadEntry(Text("{title} is for at most {count} players", title=self.spec.title, count=self.limits[1]))
        colour = check_player_colour(colour, [p["colour"] for p in self.players], self.colours)
        self._record("player_added", {"player": name, "colour": colour}, origin)
        return Text("{player} joined ({colour}, seat {seat})", player=name, colour=colour_word(colour),
                    seat=len(self.players))

    @staticmethod
    def _check_named(name: Any) -> None:
        """Raise BadEntry when an action for one player names none (no ``player``, null or an empty name): said as
        that, not as "no player null"."""
        if name is None or (isinstance(name, str) and not name.strip()):
            raise BadEntry(Text("no player named: say which player this is for"))

    def remove_player(self, name: Any, origin: str = "cli") -> str:
        """Remove a player. Raises BadEntry for an unknown name."""
        self._check_named(name)
        if name not in self.names:
            raise BadEntry(Text("no player {player}", player=shown(name)))
        self._record("player_removed", {"player": name}, origin)
        return Text("{player} left", player=name)

    def rename_player(self, name: Any, new: Any, origin: str = "cli") -> str:
        """Rename a player, keeping colour, seat order and tapped seat. The touchscreen has no keyboard, so a
        player added there is "Player N" and renames themselves on a phone (``setup_rename``).

        Raises:
            BadEntry: unknown player, a bad new name (as :meth:`add_player`), or a name already taken.
        """
        self._check_named(name)
        if name not in self.names:
            raise BadEntry(Text("no player {player}", player=shown(name)))
        new = check_player_name(new, [n for n in self.names if n != name])
        self._record("player_renamed", {"player": name, "name": new}, origin)
        return Text("{player} is now {name}", player=name, name=new)

    @property
    def player_options(self) -> tuple[Any, ...]:
        """The per-player options the game offers (:class:`rules.Option` with choices: a species, a race)."""
        return tuple(o for o in self.spec.options if o.per_player and o.choices)

    def choose(self, name: Any, option: Any, value: Any, origin: str = "cli") -> str:
        """``name``'s entry of a per-player option (None or "" clears it), checked with the others' entries
        (:func:`rules.settings.check_entries`: one of the choices; Eclipse's double-sided boards, distinct races).

        Raises:
            BadEntry: unknown player or option, an unknown entry (with the closest names), an entry another player
                has already (named), or one that cannot go with the others' (the rule, in the game's words).
        """
        from rules import BadEvent
        from rules.settings import check_entries

        self._check_named(name)
        if name not in self.names:
            raise BadEntry(Text("no player {player}; add them first", player=shown(name)))
        found = next((o for o in self.player_options if o.name == option), None)
        if found is None:
            offered = (Listing([option_word(o.name) for o in self.player_options]) if self.player_options
                       else Text("none"))
            raise BadEntry(Text("{game} has no per-player option {option} (options: {offered})", game=self.spec.title,
                                option=shown(option), offered=offered))
        entries = dict(self.choices.get(found.name, {}))
        if value not in (None, "") and (found.distinct or found.components):
            try:
                picked = check_entries(self.spec.info, found, [value])[0]
            except BadEvent as exc:
                raise BadEntry(message_of(exc)) from None
            holder = next((n for n, v in entries.items() if n != name and v == picked), None)
            if holder is not None:  # one board, one race tile: said as whose it is, not as a count of boards
                raise BadEntry(Text("{player} has {value} already; pick another", player=holder, value=picked))
        if value in (None, ""):
            entries.pop(name, None)
        else:
            entries[name] = value
        try:
            checked = dict(
                zip(self.names, check_entries(self.spec.info, found, [entries.get(n) for n in self.names]), strict=True)
            )
        except BadEvent as exc:
            raise BadEntry(message_of(exc)) from None
        self._record("choice_set", {"player": name, "option": found.name, "value": checked[name] or None}, origin)
        if not checked[name]:  # said without "none": its gender would follow the option's in Greek (φυλή: καμία)
            return Text("{player}: {option}: none chosen", player=name, option=option_word(found.name, one=True))
        return Text("{player}: {option} {value}", player=name, option=option_word(found.name, one=True),
                    value=checked[name])

    @property
    def table_options(self) -> tuple[Any, ...]:
        """The game-wide options the game offers (:class:`rules.Option`, not per player): on/off ones (kind
        ``"bool"``: Eclipse's modules, Race's advanced 2-player game, Among the Stars' aggressive mode) and lists of
        names (kind ``"choices"``: Among the Stars' objectives)."""
        return tuple(o for o in self.spec.options if not o.per_player
                     and (o.kind == "bool" or (o.kind == "choices" and o.choices)))

    def option_on(self, option: Any) -> bool | list[str]:
        """The game-wide ``option`` (:class:`rules.Option`) as set, else its default: whether an on/off option is in
        play, or the names picked of a list option."""
        value = self.options.get(option.name, option.default)
        return list(value or ()) if option.kind == "choices" else bool(value)

    def set_option(self, option: Any, value: Any, origin: str = "cli") -> str:
        """Turn a game-wide option on or off, or give a list option its names (:attr:`table_options`). Whether it
        fits the players (the alliances need 4 or more, Race's advanced game 2, Among's objectives one per player) is
        checked at Start, when the players are known.

        Args:
            option: the option's name (``"alliances"``, ``"objectives"``).
            value: True or ``"on"``; False or ``"off"``; for a list option, the names (a list, or text separated by
                commas: :meth:`_set_names`).

        Raises:
            BadEntry: an option the game does not offer (naming those it does by their labels on the setup form), a
                value other than true/false or "on"/"off" (``"true"`` in quotes too: the refusal names what is
                taken), or a name that is not one of the option's choices.
        """
        found = next((o for o in self.table_options if o.name == option), None)
        if found is None:
            offered = (Listing([Text(o.label or o.name) for o in self.table_options]) if self.table_options
                       else Text("none"))  # as the setup form names them ("the hives module"), not their ids
            raise BadEntry(Text("{game} has no option {option} (options: {offered})", game=self.spec.title,
                                option=shown(option), offered=offered))
        if found.kind == "choices":
            return self._set_names(found, value, origin)
        on = {True: True, False: False, "on": True, "off": False}.get(value) if isinstance(value, (bool, str)) else None
        if on is None:
            raise BadEntry(Text('an option is on or off: send true or false (without quotes), or "on" or "off"; '
                                'got {value}', value=shown(value)))  # "true" in quotes: what is taken, named
        self._record("option_set", {"option": found.name, "value": on}, origin)
        return Text("{option}: in play", option=Text(found.label or found.name)) if on else \
            Text("{option}: not in play", option=Text(found.label or found.name))

    def _set_names(self, option: Any, value: Any, origin: str) -> str:
        """A list option's names (:meth:`set_option`): a list, or a phone's text with the names separated by commas
        ("" for none), each one of the option's choices (matched ignoring case and punctuation). How many the players
        need (Among the Stars: as many objectives as players, 2 with 2) is checked at Start.

        Raises:
            BadEntry: not a list or text, a name that is not one of the choices (with the closest), or a name twice.
        """
        from rules.core import BadSettings
        from rules.settings import match_choice

        if isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if not isinstance(value, list):
            raise BadEntry(Text("{option} is a list of names, got {value}", option=Text(option.label or option.name),
                                value=shown(value)))
        try:
            names = [match_choice(option, v, self.spec.title) for v in value]
        except BadSettings as exc:
            raise BadEntry(message_of(exc)) from None
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise BadEntry(Text("{names} named twice", names=Listing(twice)))
        self._record("option_set", {"option": option.name, "value": names}, origin)
        return Text("{option}: {names}", option=Text(option.label or option.name),
                    names=Listing(names, AND) if names else Text("none"))

    def seat(self, name: Any, point: Any, origin: str = "cli") -> str:
        """``name`` sits at ``point`` (``[x, y]`` frame px, where they tapped the table picture)."""
        self._check_named(name)
        if name not in self.names:
            raise BadEntry(Text("no player {player}; add them first", player=shown(name)))
        if (not isinstance(point, (list, tuple)) or len(point) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e6 and math.isfinite(v)
                           for v in point)):
            raise BadEntry(Text("a seat is a point [x, y] in the picture (px), got {point}", point=shown(point)))
        self._record("seat_set", {"player": name, "point": [float(point[0]), float(point[1])]}, origin)
        return Text("{player}'s seat is set", player=name)

    @property
    def finds_stations(self) -> bool:
        """Whether the game's camera finds each player's station from its cards on a table with no zones (Among the
        Stars: each station grows from its own Main Reactor, rulebook 3 'Setup')."""
        return callable(getattr(getattr(self.spec, "camera", None), "seats", None))

    def even(self, origin: str = "cli") -> str:
        """Split the table evenly (forget the tapped seats); in a game that finds the stations (:attr:`finds_stations`)
        no seats are set and the camera asks whose each station is."""
        self._record("split_even", {}, origin)
        if self.finds_stations:
            return Text("no seats set: the camera finds each station from its Main Reactor and asks the table whose "
                        "each one is (rulebook 3 'Setup': each player builds their own station)")
        return Text("the table is split evenly among the players")

    @property
    def names(self) -> list[str]:
        return [p["name"] for p in self.players]

    def why_not(self) -> str:
        """Why Start cannot be pressed now ("" when it can)."""
        low, high = self.limits
        if len(self.players) < low:
            return Text("add players: {title} needs {low}-{high}", title=self.spec.title, low=low, high=high)
        if self.split == "seats":
            unseated = [n for n in self.names if n not in self.seats]
            if unseated:
                return Text("tap the seat of {players} on the picture, or Split evenly", players=Listing(unseated))
        try:  # an option set before a player left (the alliances with 3): said now, not only when Start is tapped
            self._settings()
        except BadEntry as exc:
            return message_of(exc)
        except Exception:  # noqa: BLE001 - a fault in a game's checks must not stop every view; Start meets it again
            log.exception("setup %s: checking the settings before Start failed", self.id)
        return ""

    def _settings(self) -> dict[str, Any]:
        """The session settings Start records for the players and options now (``spec.settings``; about 0.1 ms).

        Raises:
            BadEntry: the game refuses them: an option for another player count, an option's entries for fewer
                players than now, and the game's own checks (:meth:`companion.flow_spec.FlowBase.settings` and
                ``check_setup``: Among the Stars' objectives as many as the players).
        """
        seats = [{"name": p["name"], "colour": p["colour"]} for p in self.players]
        options = dict(self.options)
        for option, entries in self.choices.items():  # the entries picked during the setup, in seat order
            if any(entries.get(n) for n in self.names):
                options[option] = [entries.get(n) or "" for n in self.names]
        settings = dict(self.spec.settings(seats, options))
        self.spec.check_setup(settings)
        return settings

    def zones(self, frame_size: tuple[int, int]) -> Any:
        """The player zones for frames of ``frame_size`` (px): tapped seats, or an even split."""
        if self.split == "seats" and self.seats:
            seats: dict[str, Sequence[float]] = dict(self.seats)
            if self.calibration is not None:
                import numpy as np

                seats = {k: self.calibration.to_mm(np.array([v], float))[0].tolist() for k, v in self.seats.items()}
            return zones_from_seats(seats, frame_size, self.calibration)
        return even_zones(self.names, frame_size, self.calibration)

    def start(self, frame_size: tuple[int, int] | None) -> GameFlow:
        """Record the session (settings + zones) and return its flow.

        Args:
            frame_size: ``(width, height)`` of the camera frames (px); None before the first frame
                (the zones are then made on the first read).

        Raises:
            BadEntry: too few players, a player without a seat, or the game's settings refuse them.
        """
        why = self.why_not()
        if why:
            raise BadEntry(why)
        settings = self._settings()
        if frame_size is not None and not (self.split == "even" and self.finds_stations):
            settings["zones"] = self.zones(frame_size).to_json()   # an even split of stations: none (module doc)
        if self.seats:
            settings["seat_points"] = dict(self.seats)
        with self.store.transaction(write=True, doing="starting the game"):
            session = self.store.start(self.spec.name, settings, session_id=self.id)
            if self._kept:
                records.end_setup(self.store, self.id)
        self.flow = GameFlow(session, self.spec)
        if self.on_start is not None:
            self.on_start(self.flow)
        return self.flow

    def handle(self, action: Mapping[str, Any], frame_size: tuple[int, int] | None = None) -> Outcome | None:
        """Carry out a setup action (see the module doc); None for other actions. The outcome's ``events``
        are the setup events recorded (Start records none: its session is new)."""
        act = posted(action)
        if act is None or act.action not in SETUP_ACTIONS:
            return None
        what, origin, p = act.action, act.origin, act.payload
        self.recorded = []
        try:
            if what is Action.SETUP_PLAYER:
                message = self.add_player(p.player, p.colour, origin)
            elif what is Action.SETUP_REMOVE:
                message = self.remove_player(p.player, origin)
            elif what is Action.SETUP_RENAME:
                message = self.rename_player(p.player, p.name, origin)
            elif what is Action.SETUP_CHOICE:
                message = self.choose(p.player, p.option, p.value, origin)
            elif what is Action.SETUP_OPTION:
                message = self.set_option(p.option, p.value, origin)
            elif what is Action.SETUP_SEAT:
                message = self.seat(p.player, p.point, origin)
            elif what is Action.SETUP_EVEN:
                message = self.even(origin)
            else:  # Start
                flow = self.start(frame_size)
                return Outcome([], Text("{title} started: {players} (session {session})", title=self.spec.title,
                                        players=Listing(flow.names), session=flow.session.id), changed=True)
        except BadEntry as exc:
            return Outcome([], "", message_of(exc))
        return Outcome(list(self.recorded), message)

    # -- view ------------------------------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """The setup view (shape in the module doc)."""
        why = self.why_not()
        low, high = self.limits
        return {
            "flow": self.spec.name,
            "game": self.spec.name,
            "title": self.spec.title,
            "setup": True,
            "players": [
                {
                    "name": p["name"],
                    "seat": k + 1,
                    "colour": p["colour"],
                    "seated": p["name"] in self.seats,
                    "choices": {o.name: self.choices.get(o.name, {}).get(p["name"]) for o in self.player_options},
                    "role": None,
                    "tableau": None,
                    "credits": None,
                    "vp": 0,
                    "waiting": False,
                }
                for k, p in enumerate(self.players)
            ],
            "choices": [
                {"option": o.name, "label": option_word(o.name, heading=True), "choices": list(o.choices)}
                for o in self.player_options
            ],
            "options": [{"option": o.name, "name": Text(o.label or o.name), "label": Text(o.help),
                         "on": self.option_on(o), "choices": list(o.choices) if o.kind == "choices" else None}
                        for o in self.table_options],
            "colours": list(self.colours),
            "colour_words": {c: colour_word(c) for c in self.colours},
            "zones": "stations" if self.split == "even" and self.finds_stations else self.split,
            "seat_points": {k: list(v) for k, v in self.seats.items()},
            "min_players": low,
            "max_players": high,
            "can_start": not why,
            "why": why,
            "note": Text(
                "Add players on your phone; tap each player's seat on the picture, or Split evenly; then Start"
            ),
            "round": 0,
            "round_label": Text("Setup"),
            "stage": "setup",
            "turn": None,
            "acting": [],
            "phases": [],
            "pool": None,
            "pool_label": "",
            # the columns of the table being set up (Eclipse's Ambassadors from 4 players; Alliance with its module)
            "columns": [c.to_json() for c in self.spec.columns_now(
                {"players": [{"name": n} for n in self.names], "modules": dict(self.options)})],
            "boards": [],
            "throws": [],
            "last_round": False,
            "ending": [],
            "over": False,
            "next": {"label": Text("Start"), "enabled": not why, "why": why},
            "forms": [], "open_forms": {}, "findings": [], "result": None, "export": None,
        }
