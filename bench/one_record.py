"""One roll, one record: rolls recorded by the box's real loop against the rolls made, on frame sequences of what a
table does between rolls.

Usage::

    python bench/one_record.py                     # 3 sequences at 640x360, 15 fps
    python bench/one_record.py --sequences 6 --size 1280x720

Each sequence (:func:`vision.synth_motion.play_sequence` on :func:`vision.synth_full.dice_tray`, seeded) strings
rolls (some dice, or one die re-rolled) with what must never be a roll: an arm sweeping over dice that do not
change, a hand resting over the tray for 2.3-2.7 s, the camera's white balance stepping by 20-30 % and the light
by 8 %, a hand hovering, a shadow passing. On top of it the bench taps "Read now" during some rests (the GPIO
button, the phone's button) and restarts the box during others (a new loop on the same database, the session
resumed as ``companion run`` resumes it). Frames go through the loop ``companion run`` builds for the d6 dice
(:class:`companion.app.MainLoop`, the real :class:`vision.D6Reader`) one by one, none lost.

Printed per sequence and in all: rolls made (layouts that came to rest changed), rolls recorded (``dice_read``
events), reads recorded from frames with a hand in view or something moving (target 0), records of an unchanged
layout (a sweep, a hand, the light, a tap, a restart: target 0), missed rolls, Read-now taps that recorded a new
event (target 0), restarts that recorded the dice again (target 0), and records whose values are right.
Target (issue 16): rolls recorded = rolls made.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import itertools
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.table_loop import SequenceCamera, settle_windows, table_stillness, tray_sequence

EVENTS = ["roll", "sweep", "hand_rest", "white_balance", "light", "reroll", "hover", "shadow", "roll", "sweep",
          "light", "white_balance", "reroll", "hand_rest", "roll"]
TAP_AFTER = (2, 6, 10, 14)
"""Read now is tapped in the middle of the rest after these events (0-based)."""
RESTART_AFTER = (4, 8, 12)
"""The box restarts in the middle of the rest after these events."""


def run(seq, reader, db: Path) -> dict:
    """Play ``seq`` through the loop with the taps and restarts; count the records against its truth."""
    from companion.app import MainLoop
    from companion.hub import StateHub
    from companion.session import SessionStore

    windows = settle_windows(seq)  # window j + 1 is the rest after event j
    taps = [(windows[j + 1][0] + windows[j + 1][1]) // 2 for j in TAP_AFTER if j + 1 < len(windows)]
    restarts = [(windows[j + 1][0] + windows[j + 1][1]) // 2 for j in RESTART_AFTER if j + 1 < len(windows)]
    cuts = [0] + restarts + [len(seq.frames)]
    images = [f.image for f in seq.frames]
    with SessionStore(db) as store:
        for a, b in itertools.pairwise(cuts):
            session = store.resume_latest("d6") or store.start("d6", {"source": "sequence"})
            hub = StateHub()
            source = SequenceCamera(images, a, b, seq.fps)
            loop = MainLoop(source=source, reader=reader, session=session, hub=hub, stillness=table_stillness(),
                            stop_at_end=True, sleep=lambda s: None)
            for tap in [t for t in taps if a <= t < b]:
                loop.run(max_frames=tap - a)
                hub.post_action("read_now", origin="button")
            loop.run()
        session = store.resume_latest("d6")
        undone = set(session.replay().undone) if session is not None else set()
        reads = [(int(e.payload["frame"]), e.payload["values"]) for e in (session.events() if session else [])
                 if e.kind == "dice_read" and e.seq not in undone]
    frames = seq.frames
    made = sum(ch for _, _, _, ch in windows)
    hand = [f for f, _ in reads if frames[f].hand or frames[f].moving or frames[f].layout is None]
    unchanged = missed = right = 0
    for start, end, k, changed in windows:
        got = [v for f, v in reads if start <= f < end]
        truth = sorted(p.value for p in seq.layouts[k] if p.kind == "die")
        right += sum(sorted(x or 0 for x in v) == truth for v in got)
        if changed:
            unchanged += max(0, len(got) - 1)
            missed += not got
        else:
            unchanged += len(got)
    def rest_end(k: int) -> int:
        return next(end for start, end, _, _ in windows if start <= k < end)

    tapped = sum(any(t <= f < rest_end(t) for f, _ in reads) for t in taps)
    restarted = sum(any(r <= f < rest_end(r) for f, _ in reads) for r in restarts)
    return {"made": made, "recorded": len(reads), "hand": len(hand), "unchanged": unchanged, "missed": missed,
            "right": right, "taps": len(taps), "tapped": tapped, "restarts": len(restarts), "restarted": restarted,
            "frames": len(frames)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sequences", type=int, default=3, help="seeded sequences played")
    ap.add_argument("--fps", type=float, default=15.0, help="frames per second")
    ap.add_argument("--size", default="640x360", help="frame size, WxH")
    ap.add_argument("--seed", type=int, default=500, help="first sequence seed")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    from vision import D6Reader

    size = tuple(int(v) for v in args.size.lower().split("x"))
    reader = D6Reader()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; d6 reader on {reader.runtime}")
    keys = ("made", "recorded", "hand", "unchanged", "missed", "right", "taps", "tapped", "restarts", "restarted",
            "frames")
    tot = dict.fromkeys(keys, 0)
    with tempfile.TemporaryDirectory(prefix="bench_one_record_") as tmp:
        for k in range(args.sequences):
            t0 = time.perf_counter()
            seq = tray_sequence(args.seed + k, EVENTS, size, args.fps)
            rendered = time.perf_counter() - t0
            r = run(seq, reader, Path(tmp) / f"s{k}.sqlite3")
            for key in keys:
                tot[key] += r[key]
            print(f"  sequence {args.seed + k}: {r['frames']} frames [{rendered:.0f} s to render]: rolls made "
                  f"{r['made']}, recorded {r['recorded']}; from frames with a hand {r['hand']}, of an unchanged layout "
                  f"{r['unchanged']}, missed {r['missed']}, taps recorded {r['tapped']}/{r['taps']}, restarts "
                  f"recorded {r['restarted']}/{r['restarts']}, right values {r['right']}/{r['recorded']}")
    print(f"sequences: {args.sequences} x {EVENTS} at {args.fps:g} fps {size[0]}x{size[1]}, Read now after events "
          f"{list(TAP_AFTER)}, restarts after {list(RESTART_AFTER)}")
    print(f"  rolls made {tot['made']}, rolls recorded {tot['recorded']} (target: equal)")
    print(f"  reads from frames with a hand or motion {tot['hand']} (target 0); records of an unchanged layout "
          f"{tot['unchanged']}; missed rolls {tot['missed']}")
    print(f"  Read now taps that recorded a new event {tot['tapped']}/{tot['taps']}; restarts that recorded the dice "
          f"again {tot['restarted']}/{tot['restarts']}; records with the right values {tot['right']}/{tot['recorded']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
