"""How long the box's first look at its history takes with many games recorded: the chooser's open games and the
history list both come from :meth:`companion.library.Library.past_games`, which a box just started has never run.

Usage::

    python bench/history_scan.py                     # 200 games, 5 starts
    python bench/history_scan.py --games 500 --starts 7

A session database is filled with ``--games`` games: the golden playthroughs of Among the Stars, Eclipse, Race and
Roll (``tests/playthroughs``, 21-130 events each) recorded once through the session log, then copied row for row
under new session ids. Each start opens the file as the box does (a new :class:`companion.session.SessionStore`
and a new :class:`companion.library.Library`) and times its first ``past_games()`` (CPU seconds of this process,
and wall seconds), then a second one (the same box later: its summaries held in memory). Starts are interleaved
with a start on a copy of the same file that has no summaries kept (``--cold``: what every start cost before the
box kept its summaries), so both see the same machine load. Printed: medians and each start's figures in ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PLAYTHROUGHS = ("among-four-years", "eclipse-rise-of-the-ancients", "race-three-rounds", "roll-three-rounds")


def fill(path: Path, games: int) -> None:
    """``games`` games in a new session database at ``path``: each playthrough recorded once, then copied."""
    from companion.session import SessionStore

    with SessionStore(path) as store:
        firsts = []
        for name in PLAYTHROUGHS:
            rows = [json.loads(line) for line in (ROOT / "tests" / "playthroughs" / f"{name}.jsonl")
                    .read_text(encoding="utf-8").splitlines() if line.strip()]
            session = store.start(name.split("-")[0], rows[0]["settings"])
            with store.transaction(write=True, doing="filling the bench") as conn:
                for seq, row in enumerate((r for r in rows[1:] if "kind" in r), start=1):
                    conn.execute("INSERT INTO events (session_id, seq, kind, payload, at, player, origin)"
                                 " VALUES (?, ?, ?, ?, ?, ?, 'cli')",
                                 (session.id, seq, row["kind"], json.dumps(row.get("payload", {})), 1000.0 + seq,
                                  row.get("player")))
            firsts.append(session.id)
        with store.transaction(write=True, doing="filling the bench") as conn:
            for n in range(len(firsts), games):
                source, new = firsts[n % len(firsts)], f"20260101-{n:06d}-bench{n:04d}"
                conn.execute("INSERT INTO sessions (id, game, settings, started_at, ended_at) SELECT ?, game,"
                             " settings, started_at + ?, ended_at FROM sessions WHERE id = ?", (new, n, source))
                conn.execute("INSERT INTO events (session_id, seq, kind, payload, at, player, origin) SELECT ?, seq,"
                             " kind, payload, at, player, origin FROM events WHERE session_id = ?", (new, source))


def start(path: Path) -> tuple[float, float, float, int]:
    """One box start on ``path``: (first scan CPU s, first scan wall s, second scan CPU s, games listed)."""
    from companion.library import Library
    from companion.session import SessionStore

    with SessionStore(path) as store:
        library = Library(store)
        cpu, wall = time.process_time(), time.perf_counter()
        listed = library.past_games()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        again = time.process_time()
        assert library.past_games() == listed
        again = time.process_time() - again
    return cpu, wall, again, len(listed)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games recorded (default 200)")
    ap.add_argument("--starts", type=int, default=5, help="box starts timed (default 5)")
    ap.add_argument("--no-cold", dest="cold", action="store_false",
                    help="do not interleave starts on a copy with no summaries kept")
    args = ap.parse_args(argv)
    import logging

    logging.disable(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="history-scan-") as folder:
        kept = Path(folder) / "kept.sqlite3"
        fill(kept, args.games)
        pristine = Path(folder) / "pristine.sqlite3"
        shutil.copyfile(kept, pristine)
        start(kept)  # the first start ever on this file: it keeps the summaries where the box does
        runs: dict[str, list[tuple[float, float, float, int]]] = {"kept": [], "cold": []}
        for _ in range(args.starts):
            runs["kept"].append(start(kept))
            if args.cold:
                cold = Path(folder) / "cold.sqlite3"
                shutil.copyfile(pristine, cold)
                runs["cold"].append(start(cold))
        print(f"{args.games} games recorded; first past_games() after a start (CPU ms, wall ms), then a second call")
        for name, found in runs.items():
            if not found:
                continue
            listed = {r[3] for r in found}
            print(f"{name:>5}: first CPU median {1000 * statistics.median(r[0] for r in found):8.1f} ms"
                  f"  wall median {1000 * statistics.median(r[1] for r in found):8.1f} ms"
                  f"  second CPU median {1000 * statistics.median(r[2] for r in found):6.1f} ms"
                  f"  games listed {sorted(listed)}")
            print("       each start (CPU ms): " + " ".join(f"{1000 * r[0]:.1f}" for r in found))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
