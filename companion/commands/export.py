"""``companion export`` and ``companion sessions``: the games in a session database, out (a finished game as
JSON and a BG Stats play; the list of sessions)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE
from companion.commands.files import not_ours

log = logging.getLogger("companion")  # one logger for every command: the lines read as they always have

def cmd_export(args: argparse.Namespace) -> int:
    """``companion export``: 0 written; 1 unfinished game or cannot write; 2 nothing to write; 3 no session."""
    from companion.errors import SessionError
    from companion.flow import GameFlow, bgstats_url
    from companion.flows import FLOWS
    from companion.session import SessionStore

    if args.json is None and args.bgstats is None:
        print("companion export: say what to write: --json FILE and/or --bgstats FILE", file=sys.stderr)
        return EXIT_USAGE
    db = _chosen_db(args, "export")
    if db is None:
        return EXIT_USAGE
    if not Path(db).is_file():
        print(f"companion export: {_no_db(db, args)}", file=sys.stderr)
        return EXIT_DEVICE
    try:
        from companion.session import _check_is_sqlite

        _check_is_sqlite(Path(db))
        with SessionStore(db) as store:
            if args.session:
                session = store.get(args.session)
            else:
                info = next((i for i in store.list_sessions() if i.game in FLOWS), None)
                if info is None:
                    from companion.game_options import or_list

                    titles = or_list([spec.title for spec in FLOWS.values()])
                    print(f"companion export: no {titles} session in {db}", file=sys.stderr)
                    return EXIT_DEVICE
                session = store.get(info.id)
            if session.game.name not in FLOWS:
                print(f"companion export: session {session.id} is a {session.game.name!r} session; "
                      f"export takes {', '.join(FLOWS)}", file=sys.stderr)
                return EXIT_USAGE
            flow = GameFlow(session, FLOWS[session.game.name])
            if not flow.over() and not args.unfinished:
                print(f"companion export: session {session.id} has not ended ({flow.table().round_label}); "
                      "finish it at the table, or pass --unfinished", file=sys.stderr)
                return EXIT_INPUT
            game, play = flow.export_json(), flow.bgstats_play()
    except SessionError as exc:
        print(f"companion export: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    if args.json is not None and args.bgstats is not None and args.json.resolve() == args.bgstats.resolve():
        print("companion export: --json and --bgstats name the same file; give two files", file=sys.stderr)
        return EXIT_USAGE
    piped = any(str(out) == "-" for out in (args.json, args.bgstats))  # JSON on stdout; the rest on stderr
    status = sys.stderr if piped else sys.stdout
    for out, keys in ((args.json, {"format": "tabletop-companion/game"}), (args.bgstats, {"sourceName": ...})):
        problem = None if out is None or str(out) == "-" else not_ours(out, keys)
        if problem:
            print(f"companion export: {problem}", file=sys.stderr)
            return EXIT_INPUT
    try:
        for out, doc in ((args.json, game), (args.bgstats, play)):
            if out is None:
                continue
            text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
            if str(out) == "-":
                sys.stdout.write(text)
                continue
            out.write_text(text, encoding="utf-8")
            print(f"wrote {out}" + ("; open this link on a phone with BG Stats to add the play:" if doc is play else ""),
                  file=status)
        if args.bgstats is not None:
            if str(args.bgstats) == "-":
                print("open this link on a phone with BG Stats to add the play:", file=status)
            print(bgstats_url(play), file=status)
    except OSError as exc:
        print(f"companion export: cannot write: {exc}", file=sys.stderr)
        return EXIT_INPUT
    return EXIT_OK

def _chosen_db(args: argparse.Namespace, command: str) -> Path | None:
    """The database of ``export``/``sessions``: ``--db``, ``--demo`` (demo.sqlite3) or the box's;
    None (after printing why) when both ``--db`` and ``--demo`` are given."""
    from companion.paths import default_db_path

    if args.db is not None and args.demo:
        print(f"companion {command}: give --db DB or --demo, not both", file=sys.stderr)
        return None
    if args.demo:
        return default_db_path().with_name("demo.sqlite3")
    return args.db or default_db_path()

def _no_db(db: Path, args: argparse.Namespace) -> str:
    """The one line for a missing database, naming the box's and the demo's."""
    from companion.paths import default_db_path

    if args.db is not None:
        return f"no session database at {db}"
    box, demo = default_db_path(), default_db_path().with_name("demo.sqlite3")
    if args.demo:
        return f"no demo database at {demo} (`companion demo` makes it; the box's games are in {box})"
    return (f"no session database at {box}; games played with `companion demo` are in {demo} "
            f"(give --demo, or --db DB)")

def cmd_sessions(args: argparse.Namespace) -> int:
    """``companion sessions``: every session, newest first: id, game, players, started, finished.

    Exit codes: 0 listed (also when there are none); 2 --db and --demo; 3 no such database, or not one.
    """
    import time

    from companion.errors import SessionError
    from companion.flow import GameFlow
    from companion.flows import FLOWS
    from companion.session import SessionStore

    db = _chosen_db(args, "sessions")
    if db is None:
        return EXIT_USAGE
    if not Path(db).is_file():
        print(f"companion sessions: {_no_db(db, args)}", file=sys.stderr)
        return EXIT_DEVICE
    rows: list[dict[str, Any]] = []
    try:
        from companion.session import _check_is_sqlite

        _check_is_sqlite(Path(db))
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
        print(f"companion sessions: {exc}", file=sys.stderr)
        return EXIT_DEVICE
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return EXIT_OK
    if not rows:
        print(f"no sessions in {db}")
        return EXIT_OK
    print(f"{len(rows)} session{'s' if len(rows) != 1 else ''} in {db}, newest first:")
    for row in rows:
        started = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["started_at"]))
        finished = {True: "finished", False: "not finished", None: "-"}[row["finished"]]
        print(f"{row['id']}  {row['game']:<5}  {', '.join(row['players']) or '-'}  started {started}  {finished}  "
              f"{row['events']} events")
    return EXIT_OK
