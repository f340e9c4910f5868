"""Helper process for the kill test in tests/test_session.py (not a test module).

Usage: ``python tests/_session_worker.py DB SESSION_ID [--limit N]``

Appends events to the session as fast as it can and, after each append has returned
(so the event is committed), prints its seq on its own line and flushes stdout. It
resumes from the session's last seq, so it can be started again after being killed.
Every event is a pure function of its seq (:func:`planned`), so the test can rebuild
exactly what was recorded.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

AT0 = 1_700_000_000.0
"""Event ``at`` is ``AT0 + seq`` (Unix seconds), so rebuilt events compare equal."""


def planned(seq: int) -> tuple[str, dict[str, Any], str]:
    """``(kind, payload, origin)`` of the event the worker records as ``seq``.

    Every 5th event undoes the one before it (a camera read); every 7th read has an
    unreadable die; reads have 1-4 dice.
    """
    if seq % 5 == 0:
        return "undo", {"seq": seq - 1}, "button"
    values: list[int | None] = [(seq * 7 + k * 3) % 6 + 1 for k in range(1 + seq % 4)]
    if seq % 7 == 0:
        values[0] = None
    return "dice_read", {"values": values, "image": None}, "camera"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("session_id")
    parser.add_argument("--limit", type=int, default=100_000, help="stop after this many events (a safety net)")
    args = parser.parse_args(argv)

    from companion.session import SessionStore

    with SessionStore(args.db) as store:
        session = store.get(args.session_id)
        for _ in range(args.limit):
            seq = session.last_seq + 1
            kind, payload, origin = planned(seq)
            if kind == "undo":
                event = session.undo(origin=origin, at=AT0 + seq)  # the newest event in force is seq - 1
            else:
                event = session.append(kind, payload, origin=origin, at=AT0 + seq)
            if event is None or (event.seq, event.kind, dict(event.payload)) != (seq, kind, payload):
                print(f"worker: recorded {event!r}, planned {(seq, kind, payload)!r}", file=sys.stderr)
                return 2
            print(event.seq, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
