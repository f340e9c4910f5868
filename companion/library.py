"""The box's games for a whole evening: what the chooser offers, the games played before, and how each starts.

The main loop (:class:`companion.app.MainLoop`) moves between its modes with a :class:`Library`: the chooser
lists the d6 dice and every game with a flow (:data:`companion.flows.FLOWS`) plus the games left open; choosing
one starts the d6 reader on the latest dice session, or the game's setup (its open setup goes on); the history
lists past games with their winners and totals, opens one (its score breakdown) and exports it (the JSON record
and the BG Stats play, as ``companion export`` writes them, into ``<data dir>/exports/``). Where the box is (its
mode and game) is kept in the session database (:func:`companion.records.save_place`), so a restart comes back
to the game the table was playing, or to the chooser.

Nothing here draws or talks to phones: the modes' views carry what the library returns (plain JSON).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rules
from companion import records, summaries
from companion.errors import BadEntry, SessionError, StorageError, shown
from companion.i18n import Listing, Text, _, lazy, message_of, os_reason, say
from companion.paths import write_whole

if TYPE_CHECKING:
    from companion.app import MainLoop
    from companion.modes import Mode

__all__ = ["DICE", "Library", "export_documents"]

log = logging.getLogger(__name__)

DICE = "d6"
"""The chooser's dice entry (the d6 reader: every still table is a roll)."""

DICE_TITLE = lazy("Dice (d6)")

def export_documents(store: Any, session_id: str, flows: Mapping[str, Any] | None = None) -> tuple[dict, dict]:
    """``(game JSON, BG Stats play)`` of one game (``companion export``'s two documents), read from ``store``.

    Raises:
        BadEntry: no such game, or a session that is not a game with a flow.
        SessionError: the database cannot be read.
    """
    flow = Library(store, flows).game_flow(session_id)
    return flow.export_json(), flow.bgstats_play()


@dataclass
class Library:
    """The games of one session database, and how the loop's modes for them start.

    Args:
        store: the :class:`companion.session.SessionStore`.
        flows: the games with a flow (default :data:`companion.flows.FLOWS`).
        dice_reader: makes the d6 reader (``vision.D6Reader``; loading its model takes a moment, so only when the
            dice are chosen), or None: the chooser does not offer the dice.
        make_camera: the camera part of a game (``--deck``, ``--dice-profile``), or None: games are played from the
            phones.
        calibration: the table calibration the setups make zones with (None: frame px).
        exports: where ``export_game`` writes (default ``<data dir>/exports``).
        source: the camera's name, kept in a new d6 session's settings.
        box_settings: the settings screen's :class:`companion.box_settings.BoxSettings` (None: no settings screen).
    """

    store: Any
    flows: Mapping[str, Any] | None = None
    dice_reader: Callable[[], Any] | None = None
    make_camera: Callable[[Any], Any] | None = None
    calibration: Any = None
    exports: Path | None = None
    source: str = ""
    box_settings: Any = None
    _reader: Any = field(default=None, repr=False)
    _summaries: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict, repr=False)
    _kept: dict[str, tuple[str, dict[str, Any]]] | None = field(default=None, repr=False)
    _unkept: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.flows is None:
            from companion.flows import FLOWS

            self.flows = FLOWS

    # -- what the chooser offers ----------------------------------------------------------------------------
    def offered(self) -> list[dict[str, Any]]:
        """The chooser's games: ``[{"game", "title", "players": [min, max] | null}]``: the dice, then each flow."""
        out = []
        if self.dice_reader is not None:
            out.append({"game": DICE, "title": DICE_TITLE, "players": None})
        for name, spec in self.flows.items():
            low, high = spec.info.players
            out.append({"game": name, "title": spec.title, "players": [low, high]})
        return out

    def open_games(self, limit: int = 6) -> list[dict[str, Any]]:
        """Games that have not ended, newest first (:meth:`summary` of each), at most ``limit``: looked for among
        every game recorded, so a game left open before many others were played is still offered."""
        return [s for s in self.past_games() if not s["finished"]][:limit]

    def past_games(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The games recorded, newest first, each :meth:`summary` (d6 sessions are not games: left out); every
        one of them (the history lists every game played, a page at a time), or the newest ``limit``.

        Each summary is kept per session and event count, so only a game that changed is replayed again; a game
        that no longer replays is listed as unreadable, said once in the log, and not replayed again until it
        changes. A box just started takes a game's summary from the session database where one was kept for the
        game's record exactly as it stands and by this program (:mod:`companion.summaries`), and keeps there the
        summaries it had to replay for (at its next look outside a transaction, when an action's holds it now)."""
        out = []
        made: dict[str, tuple[str, dict[str, Any]]] = {}
        for info in self.store.list_sessions():
            if info.game not in self.flows:
                continue
            line = self._summaries.get((info.id, info.events))
            if line is None:
                line, digest = self._kept_summary(info)
                if line is not None:
                    self._summaries[(info.id, info.events)] = line
            if line is None:
                try:
                    line = self.summary(info.id, info.events)
                    if digest is not None:
                        made[info.id] = (digest, line)
                except (SessionError, BadEntry, ValueError) as exc:  # a game that no longer replays: listed as such
                    log.warning("%s", _("game {id} cannot be read for the history: {problem}").format(
                        id=info.id, problem=say(message_of(exc))))
                    line = {"session": info.id, "game": info.game, "title": self.flows[info.game].title,
                            "players": [], "started_at": info.started_at, "finished": True, "winners": [],
                            "round_label": "", "events": info.events, "unreadable": True}
                    self._summaries[(info.id, info.events)] = line
            out.append(line)
            if limit is not None and len(out) >= limit:
                break
        self._unkept.update(made)
        if self._unkept and not self.store.in_transaction:  # never inside an action's transaction: kept after it
            summaries.keep_summaries(self.store, self._unkept)
            self._unkept.clear()
        return out

    def _kept_summary(self, info: Any) -> tuple[dict[str, Any] | None, str | None]:
        """``(summary, digest)`` of game ``info`` (a :class:`companion.session.SessionInfo`) from the session
        database: the summary kept for it when its record's digest is the same now (else None), and the digest
        now (None where it cannot be read: the game is replayed and its summary not kept). The kept summaries are
        read once, at the first game looked for."""
        try:
            if self._kept is None:
                self._kept = summaries.kept_summaries(self.store)
            digest = summaries.game_digest(self.store, info.id)
        except (SessionError, StorageError) as exc:
            log.debug("the history's kept summaries not read (%s): the games are replayed", exc)
            self._kept = self._kept or {}
            return None, None
        kept = self._kept.pop(info.id, None)
        # its game and start must be the session row's own (a start damaged to NaN: the phones' JSON unreadable)
        if kept is None or kept[0] != digest or kept[1]["game"] != info.game \
                or kept[1]["started_at"] != info.started_at:
            return None, digest
        return {**kept[1], "title": self.flows[info.game].title}, digest

    def summary(self, session_id: str, events: int | None = None) -> dict[str, Any]:
        """One game in a line: ``{"session", "game", "title", "players": [{"name", "colour", "total", "winner"}],
        "started_at", "finished", "winners", "round_label", "events"}`` (cached per session and event count)."""
        key = (session_id, -1 if events is None else events)
        if events is not None and key in self._summaries:
            return self._summaries[key]
        from companion.flow import GameFlow

        session = self.store.get(session_id)
        flow = GameFlow(session, self.flows[session.game.name])
        result = flow.result()
        over = flow.over()  # a game not finished has no winner yet, whatever the scores stand at
        summary = {
            "session": session.id, "game": session.game.name, "title": flow.spec.title,
            "players": [{"name": p["name"], "colour": p["colour"], "total": p["total"],
                         "winner": bool(over and p["winner"])} for p in result["players"]],
            "started_at": session.started_at, "finished": over,
            "winners": result["winners"] if over else [], "round_label": flow.table().round_label,
            "events": session.last_seq,
        }
        if events is not None:
            self._summaries[key] = summary
        return summary

    def record(self, session_id: Any) -> dict[str, Any]:
        """One past game opened in the history: its :meth:`summary` plus ``"result"`` (the score breakdown, as
        the flow's view has it), ``"hidden"`` (a game not over whose totals leave out what players entered hidden: why,
        "final positions already entered stay hidden: they count once the game is scored"; else null),
        ``"bgstats_url"`` and ``"exported"`` (the names of the files already written in :meth:`export_folder`, or
        null: the view reaches phones, which are not told the box's folders).

        Raises:
            BadEntry: no such game.
        """
        from companion.flow_export import bgstats_url

        flow = self.game_flow(session_id)
        session = flow.session
        files = self.export_paths(session.id)
        return {**self.summary(session.id, session.last_seq), "result": flow.result(), "hidden": flow.hidden_left_out(),
                "bgstats_url": bgstats_url(flow.bgstats_play()),
                "exported": {k: v.name for k, v in files.items()} if all(p.is_file() for p in files.values()) else None}

    def has_game(self, session_id: Any) -> bool:
        """Whether ``session_id`` is a game recorded here that :meth:`game_flow` opens (a session of a game with a
        flow; not d6), read from its session row alone (the game is not replayed). A record that cannot be read
        counts as no game (:meth:`game_flow` then says why)."""
        if not isinstance(session_id, str):
            return False
        try:
            return self.store.get(session_id).game.name in self.flows
        except (SessionError, StorageError, rules.UnknownGame):
            return False

    def game_flow(self, session_id: Any) -> Any:
        """The :class:`companion.flow.GameFlow` of a game recorded here.

        Raises:
            BadEntry: not a session id, no such session, a session that is not a game with a flow (d6, a game this
                program does not know), or one whose settings or seats as stored cannot be read (changed outside
                the box: said with its id), or the database cannot be read (said).
        """
        from companion.errors import UnknownSession
        from companion.flow import GameFlow

        if not isinstance(session_id, str):
            raise BadEntry(Text("which game? give its session id"))
        try:
            session = self.store.get(session_id)
        except UnknownSession:
            raise BadEntry(Text("no game {id} in this box's record: pick one of the games listed under Games or "
                                "History", id=shown(session_id))) from None
        except rules.UnknownGame:
            raise BadEntry(Text("{id} is not a game with scores", id=shown(session_id))) from None
        except SessionError as exc:  # its settings as stored are no JSON this program reads; the file unreadable
            raise BadEntry(message_of(exc)) from None
        if session.game.name not in self.flows:
            raise BadEntry(Text("{id} is not a game with scores", id=shown(session_id)))
        try:
            return GameFlow(session, self.flows[session.game.name])
        except BadEntry as exc:  # its seats as kept: said with the game's id
            raise BadEntry(Text("game {id} cannot be read: {problem}", id=shown(session_id),
                                problem=message_of(exc))) from None

    # -- exports --------------------------------------------------------------------------------------------
    def export_folder(self) -> Path:
        """``exports/`` in the data folder (or the one given)."""
        if self.exports is None:
            from companion.paths import data_dir

            self.exports = data_dir() / "exports"
        return self.exports

    def export_paths(self, session_id: str) -> dict[str, Path]:
        """Where a game's two files go: ``{"json": <id>.json, "bgstats": <id>.bgstats.json}``."""
        folder = self.export_folder()
        return {"json": folder / f"{session_id}.json", "bgstats": folder / f"{session_id}.bgstats.json"}

    def saved(self, files: Mapping[str, str]) -> Text:
        """What the views say of an export just written: the files' names, not the box's folder (a phone that taps
        Export is told what was saved, not where the box keeps its data)."""
        return Text("saved on the box: {files}", files=Listing(Path(p).name for p in files.values()))

    def export(self, session_id: Any) -> dict[str, str]:
        """Write a game's JSON record and BG Stats play (``companion export``'s documents) into :meth:`export_folder`,
        each written whole and on the card before it is said saved (:func:`companion.paths.write_whole`); returns
        ``{"json": path, "bgstats": path}``.

        Raises:
            BadEntry: no such game, or the folder cannot be written (the message names it).
        """
        game, play = export_documents(self.store, session_id, self.flows)
        paths = self.export_paths(str(session_id))
        try:
            for path, doc in ((paths["json"], game), (paths["bgstats"], play)):
                write_whole(path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
        except OSError as exc:  # the folder for the box's log; the views (a phone among them) are told the reason
            log.warning("%s", _("cannot write the export in {folder}: {problem}").format(
                folder=paths["json"].parent, problem=say(os_reason(exc))))
            raise BadEntry(Text("cannot write the export on the box ({why})", why=os_reason(exc))) from None
        return {k: str(v) for k, v in paths.items()}

    # -- the modes ------------------------------------------------------------------------------------------
    def reader(self) -> Any:
        """The d6 reader, made on first use."""
        if self._reader is None:
            if self.dice_reader is None:
                raise BadEntry(Text("this box has no dice reader"))
            try:
                self._reader = self.dice_reader()
            except Exception as exc:  # a model that does not load: said, the chooser stays
                log.exception("the dice reader cannot load")
                raise BadEntry(
                    Text(
                        "the dice reader cannot load ({why}): reinstall the box (./setup.sh run)",
                        why=type(exc).__name__,
                    )
                ) from None
        return self._reader

    def dice_mode(self, loop: MainLoop) -> Mode:
        """The d6 dice on the latest open dice session (a new one when there is none)."""
        from companion.modes import DiceMode
        from rules.d6 import D6_GAME

        session = self.store.resume_latest(D6_GAME.name)
        if session is None:
            session = self.store.start(D6_GAME.name, {"source": self.source})
        return DiceMode(loop, self.reader(), session)

    def setup_mode(self, loop: MainLoop, game: Any) -> Mode:
        """The setup of ``game`` (its newest open setup goes on).

        Raises:
            BadEntry: not a game of the chooser.
        """
        from companion.modes import SetupMode
        from companion.setup_flow import TableSetup

        if not isinstance(game, str) or game not in self.flows:
            raise BadEntry(
                Text(
                    "{game} is not one of the box's games ({games})",
                    game=shown(game),
                    games=Listing([Text("Dice (d6)"), *(flow.title for flow in self.flows.values())]),  # as the chooser
                )
            )
        return SetupMode(loop, TableSetup(self.store, self.flows[game], {}, self.calibration), self.make_camera)

    def play_mode(self, loop: MainLoop, session_id: Any) -> Mode:
        """The game of ``session_id`` (its scores when it is over).

        Raises:
            BadEntry: no such game.
        """
        from companion.modes import PlayMode, ScoresMode

        flow = self.game_flow(session_id)
        camera = None
        if self.make_camera is not None:
            try:
                camera = self.make_camera(flow)
            except Exception:  # the game goes on from the phones
                log.exception("the camera part of %s could not start", flow.spec.title)
        return (ScoresMode if flow.over() else PlayMode)(loop, flow, camera)

    # -- where the box was ----------------------------------------------------------------------------------
    def place(self) -> dict[str, Any] | None:
        """Where the box was when it stopped (:func:`companion.records.load_place`), or None."""
        try:
            return records.load_place(self.store)
        except StorageError as exc:
            log.warning("%s", _("where the box was cannot be read ({problem}): it starts on the chooser").format(
                problem=say(message_of(exc))))
            return None

    def keep_place(self, place: Mapping[str, Any]) -> None:
        """Keep where the box is now (inside the action's transaction; a refusal is the action's)."""
        if self.store.read_only is None:
            records.save_place(self.store, place)

    def resumed(self, loop: MainLoop) -> Mode | None:
        """The mode the box comes back to from :meth:`place`: the game it was on (its setup, its play or scores,
        the dice), or None (the chooser). A place that no longer exists, or a kept place of a shape this program
        does not write (a game that is a list: changed outside the box), is None."""
        from companion.modes import ModeName

        place = self.place() or {}
        try:
            mode = place.get("mode")
            if mode in (ModeName.PLAY.value, ModeName.SCORES.value, ModeName.CALIBRATION.value) and place.get(
                "session"
            ):
                return self.play_mode(loop, place["session"])
            if mode == ModeName.SETUP.value and isinstance(place.get("game"), str) and place["game"] in self.flows:
                return self.setup_mode(loop, place["game"])
            if mode == ModeName.DICE.value and self.dice_reader is not None:
                return self.dice_mode(loop)
        except (BadEntry, SessionError) as exc:
            log.warning("%s", self._not_back(place, say(message_of(exc))))
        return None

    def _not_back(self, place: Mapping[str, Any], problem: str) -> str:
        """The log line, in the box's language, for a kept ``place`` the box cannot go back to because of
        ``problem``: the setup by its game's title, else the game by its id as ``companion sessions`` and the History
        list it (a value changed outside the box quoted as it is stored)."""
        from companion.modes import ModeName

        if place.get("mode") == ModeName.SETUP.value:
            game = place.get("game")
            title = self.flows[game].title if isinstance(game, str) and game in self.flows else shown(game)
            return _("the box cannot go back to the setup of {game} ({problem}): the chooser instead").format(
                game=say(title), problem=problem)
        session = place.get("session")
        plain = isinstance(session, str) and session.isprintable() and 0 < len(session) <= 64
        return _("the box cannot go back to game {session} ({problem}): the chooser instead").format(
            session=session if plain else say(shown(session)), problem=problem)
