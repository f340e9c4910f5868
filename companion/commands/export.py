"""``companion export`` and ``companion sessions``: the games in a session database, out (a finished game as
JSON and a BG Stats play; the list of sessions)."""

from __future__ import annotations

import argparse
import logging
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE
from companion.commands.files import folder_problem, not_ours
from companion.i18n import _, kept_as_written, ngettext, os_reason, say
from companion.paths import BY_UMASK, write_whole
from companion.webstream import json_text

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have

def cmd_export(args: argparse.Namespace) -> int:  # noqa: C901 - the command's checks and outputs, each a flat step
    """``companion export``: 0 written; 1 unfinished game or cannot write; 2 nothing to write, or ``--json`` or
    ``--bgstats`` names a folder (a bad command line, said before the database is opened); 3 no session."""
    from companion.errors import BadEntry, SessionError, UnknownSession
    from companion.flow import GameFlow
    from companion.flow_export import bgstats_url, play_date_problem
    from companion.flows import FLOWS
    from companion.i18n import Text, message_of
    from companion.session import SessionStore

    if args.json is None and args.bgstats is None:
        print(_("companion export: say what to write: --json FILE and/or --bgstats FILE"), file=sys.stderr)
        return EXIT_USAGE
    for option, out in (("--json", args.json), ("--bgstats", args.bgstats)):
        if out is not None and str(out) != "-" and (problem := folder_problem(out, option)) is not None:
            print(_("companion export: {problem}").format(problem=problem), file=sys.stderr)
            return EXIT_USAGE
    db = _chosen_db(args, "export")
    if db is None:
        return EXIT_USAGE
    if not _holds_a_database(Path(db)):
        print(_("companion export: {problem}").format(problem=_no_db(db, args)), file=sys.stderr)
        return EXIT_DEVICE
    try:
        from companion.database import check_is_sqlite

        check_is_sqlite(Path(db))
        with SessionStore(db) as store:
            if args.session:
                try:
                    session = store.get(args.session)
                except UnknownSession:  # the listing of this database: `companion sessions` alone lists the box's
                    where = "--demo" if args.demo else "" if args.db is None else f"--db {shlex.quote(str(db))}"
                    print(_("companion export: no session {session} in {db}; `{listing}` lists its ids").format(
                        session=repr(args.session), db=db, listing=f"companion sessions {where}".strip()),
                        file=sys.stderr)
                    return EXIT_DEVICE
            else:
                info = next((i for i in store.list_sessions() if i.game in FLOWS), None)
                if info is None:
                    from companion.game_options import or_list

                    titles = or_list([spec.title for spec in FLOWS.values()])
                    print(
                        _("companion export: no {titles} session in {db}").format(titles=titles, db=db), file=sys.stderr
                    )
                    return EXIT_DEVICE
                session = store.get(info.id)
            if session.game.name not in FLOWS:
                print(
                    _("companion export: session {id} is a {game!r} session; export takes {games}").format(
                        id=session.id, game=session.game.name, games=', '.join(FLOWS)
                    ),
                    file=sys.stderr,
                )
                return EXIT_USAGE
            try:
                flow = GameFlow(session, FLOWS[session.game.name])
            except BadEntry as exc:  # its players as kept no longer pass (kept by another version, or edited by hand)
                print(_("companion export: {problem}").format(problem=say(Text(
                    "session {session} in {path} keeps a player name this program refuses: {problem}",
                    session=session.id, path=str(db), problem=message_of(exc)))),
                    file=sys.stderr)
                return EXIT_INPUT
            finished = None  # the newest finished game, taken when the newest game has not ended
            if not args.session and not args.unfinished and not flow.over():
                finished = _newest_finished(store, FLOWS)
            took = None  # which game was taken instead of the newest, said before the export
            if finished is not None:
                newest, newest_round = session, say(flow.table().round_label)
                session, flow = finished
                took = _(
                    "the newest game, session {newest}, has not ended ({round_label}); exporting the newest finished "
                    "game, session {id} ({title}); --session ID picks another, --unfinished takes the newest"
                ).format(newest=newest.id, round_label=newest_round, id=session.id,
                         title=say(FLOWS[session.game.name].title))
            if not flow.over() and not args.unfinished:
                print(
                    _(
                        "companion export: session {id} has not ended ({round_label}); finish it at the table, or pass "
                        "--unfinished"
                    ).format(id=session.id, round_label=say(flow.table().round_label)),
                    file=sys.stderr,
                )
                return EXIT_INPUT
            game, play = flow.export_json(), flow.bgstats_play()
            undated = play_date_problem(flow) if args.bgstats is not None else None
    except SessionError as exc:
        print(_("companion export: {problem}").format(problem=say(_database_problem(exc, args))), file=sys.stderr)
        return EXIT_DEVICE
    if args.json is not None and args.bgstats is not None and args.json.resolve() == args.bgstats.resolve():
        print(_("companion export: --json and --bgstats name the same file; give two files"), file=sys.stderr)
        return EXIT_USAGE
    piped = any(str(out) == "-" for out in (args.json, args.bgstats))  # JSON on stdout; the rest on stderr
    status = sys.stderr if piped else sys.stdout
    if took is not None:
        print(took, file=status)
    if undated is not None:  # a start time changed by hand: said, and the rest exported
        print(_("companion export: {problem}").format(problem=say(undated)), file=sys.stderr)
    for out, keys in ((args.json, {"format": "tabletop-companion/game"}), (args.bgstats, {"sourceName": ...})):
        problem = None if out is None or str(out) == "-" else not_ours(out, keys)
        if problem:
            print(_("companion export: {problem}").format(problem=problem), file=sys.stderr)
            return EXIT_INPUT
    out = None
    try:
        for out, doc in ((args.json, game), (args.bgstats, play)):
            if out is None:
                continue
            text = json_text(doc, indent=2) + "\n"  # valid JSON whatever a database changed by hand holds
            if str(out) == "-":
                sys.stdout.write(text)
                continue
            # whole or not at all: a full card keeps the export already there (written again over last evening's);
            # its bits as a plain write gives them (the owner's umask; an export written again keeps its own)
            write_whole(out, text, mode=BY_UMASK, make_folder=False)
            if doc is play:
                print(_("wrote {path}; open this link on a phone with BG Stats to add the play:").format(path=out),
                      file=status)
            else:
                print(_("wrote {path}").format(path=out), file=status)
        if args.bgstats is not None:
            if str(args.bgstats) == "-":
                print(_("open this link on a phone with BG Stats to add the play:"), file=status)
            print(bgstats_url(play), file=status)
    except OSError as exc:  # the system's reason for the file asked for, as calibrate and print-mat say it
        print(_("companion export: cannot write {path}: {problem}").format(
            path="-" if out is None else out, problem=say(os_reason(exc))), file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK

def _newest_finished(store: Any, flows: Mapping[str, Any]) -> tuple[Any, Any] | None:
    """``(session, GameFlow)`` of the newest finished game with a flow in ``store``, or None when none has ended.

    Raises:
        SessionError: the database cannot be read.
    """
    from companion.errors import BadEntry
    from companion.flow import GameFlow

    for info in store.list_sessions():  # newest first
        if info.game not in flows:
            continue
        session = store.get(info.id)
        try:
            flow = GameFlow(session, flows[info.game])
        except BadEntry:  # its players as kept no longer pass: not a game to export
            continue
        if flow.over():
            return session, flow
    return None


def _chosen_db(args: argparse.Namespace, command: str) -> Path | None:
    """The database of ``export``/``sessions``: ``--db``, ``--demo`` (:func:`~companion.paths.demo_db_path`) or the
    box's; None (after printing why) when both ``--db`` and ``--demo`` are given."""
    from companion.paths import default_db_path, demo_db_path

    if args.db is not None and args.demo:
        print(_("companion {command}: give --db DB or --demo, not both").format(command=command), file=sys.stderr)
        return None
    if args.demo:
        return demo_db_path()
    return args.db or default_db_path()

def _database_problem(exc: Exception, args: argparse.Namespace) -> Any:
    """What to say of ``exc``, raised reading the database :func:`_chosen_db` chose: a file that is no game record
    is worded for who named it (``--db``; else the demo's or the box's own record, to be moved away)."""
    from companion.errors import NotASessionDatabase

    if isinstance(exc, NotASessionDatabase):
        return exc.said_for(None if args.db is not None else "demo" if args.demo else "box")
    return exc


def _holds_a_database(db: Path) -> bool:
    """Whether ``db`` is a file with something in it: an empty file (a name touched, a photo copied as nothing) is
    no database, and the commands that only read (``export``, ``sessions``) must not make it one."""
    return db.is_file() and db.stat().st_size > 0

def _no_db(db: Path, args: argparse.Namespace) -> str:
    """The one line for a missing database, naming the box's and the demo's (a folder or an empty file given as the
    database is named as one: "no database at" a path that is there would send the owner looking for it)."""
    from companion.paths import default_db_path, demo_db_path

    if db.is_dir():
        return _("{path} is a folder: give --db the session database file in it").format(path=db)
    if db.is_file():  # there, but nothing in it: "no database at" a file that is there would puzzle
        return _("{path} is an empty file, not a session database: no game was recorded in it").format(path=db)
    if args.db is not None:
        return _("no session database at {path}").format(path=db)
    box, demo = default_db_path(), demo_db_path()
    if args.demo:
        return _("no demo database at {demo} (`companion demo` makes it; the box's games are in {box})").format(
            demo=demo, box=box)
    return _("no session database at {box}; games played with `companion demo` are in {demo} (give --demo, or --db "
             "DB)").format(box=box, demo=demo)

def cmd_sessions(args: argparse.Namespace) -> int:
    """``companion sessions``: every session, newest first: id, game, players, started, finished.

    Exit codes: 0 listed (also when there are none); 2 --db and --demo; 3 no such database, or not one.
    """
    import time

    from companion.errors import SessionError
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.session import SessionStore
    from companion.timestamps import shown, usable

    db = _chosen_db(args, "sessions")
    if db is None:
        return EXIT_USAGE
    if not _holds_a_database(Path(db)):
        print(_("companion sessions: {problem}").format(problem=_no_db(db, args)), file=sys.stderr)
        return EXIT_DEVICE
    rows: list[dict[str, Any]] = []
    try:
        from companion.database import check_is_sqlite

        check_is_sqlite(Path(db))
        with SessionStore(db) as store:
            for info in store.list_sessions():
                players: list[str] = []
                finished: bool | None = None
                if info.game in FLOWS:
                    try:
                        session = store.get(info.id)
                        players = [str(p.get("name") if isinstance(p, dict) else p)
                                   for p in session.settings.get("seats") or session.settings.get("players") or []]
                        finished = GameFlow(session, FLOWS[info.game]).over()
                    except Exception as exc:  # noqa: BLE001 -- a session this version cannot replay is still listed
                        log.debug("session %s: %s", info.id, exc)
                rows.append({"id": info.id, "game": info.game, "players": players, "started_at": info.started_at,
                             "finished": finished, "events": info.events})
    except SessionError as exc:
        print(_("companion sessions: {problem}").format(problem=say(_database_problem(exc, args))), file=sys.stderr)
        return EXIT_DEVICE
    if args.json:
        for row in rows:
            print(json_text(row))
        return EXIT_OK
    if not rows:
        print(_("no sessions in {db}").format(db=db))
        return EXIT_OK
    print(ngettext("{n} session in {db}, newest first:", "{n} sessions in {db}, newest first:", len(rows)).format(
        n=len(rows), db=db))
    for row in rows:
        seconds = usable(row["started_at"])  # a start changed by hand (Infinity, a text) is quoted, not a traceback
        started = (time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds)) if seconds is not None
                   else _("no valid time ({value})").format(value=shown(row["started_at"])))
        finished = {True: _("finished"), False: _("not finished"), None: "-"}[row["finished"]]
        events = ngettext("{n} event", "{n} events", row["events"]).format(n=row["events"])
        print(_("{id}  {game:<5}  {players}  started {started}  {finished}  {events}").format(
            id=row["id"], game=row["game"], players=kept_as_written(", ".join(row["players"])) or "-", started=started,
            finished=finished, events=events))
    return EXIT_OK
