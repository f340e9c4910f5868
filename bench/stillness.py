"""Stillness: the cost of one frame's update, and when it reads on sequences of a table in play.

Usage::

    python bench/stillness.py                      # timing at 1280x720 and 2304x1296, 6 sequences
    python bench/stillness.py --sequences 12 --fps 30

1. Timing: the median wall time of ``StillnessDetector.update`` on frames of a whole Roll table (fresh
   noise every frame) at 1280x720 and 2304x1296 (the Pi camera's default size), and its ratio to a JPEG
   (quality 95) ``imread`` + ``cvtColor`` of the same frame (:mod:`bench.frame_timing`, interleaved).
2. Sequences (:func:`vision.synth_motion.play_sequence`, seeded): Roll tables with rolls, a hand hovering,
   shadows passing and a tile played, 640x360 at ``--fps``. Printed: false reads (a read while something
   moved or a hand was in view), missed settles (a changed layout at rest that was not read before the next
   event), reads of an unchanged layout (a shadow passed, a hand came and went), and the delay from the
   layout coming to rest to its read (median and 95th percentile, ms) -- for the default settings and with
   ``read_unchanged`` off.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import FrameTimer
from vision.motion import MotionConfig, StillnessDetector
from vision.synth_full import full_table
from vision.synth_motion import play_sequence

TILES = [f"tile_{k}" for k in range(1, 56)]
EVENTS = ["roll", "hover", "roll", "shadow", "card", "roll", "hover", "shadow", "roll"]


def time_updates(size: tuple[int, int], frames: int) -> FrameTimer:
    """Interleaved timing of ``update`` on ``frames`` frames of a Roll table at ``size``."""
    table = full_table("roll", TILES, 5, size)
    images = [table.render(frame_seed=k) for k in range(4)]
    detector = StillnessDetector()
    timer = FrameTimer()
    for k in range(frames):
        img = images[k % len(images)]
        timer.time(img, lambda f: detector.update(f, k / 30.0))
    return timer


def score(seq, config: MotionConfig) -> dict:
    """Reads of ``config`` on ``seq`` against its truth."""
    det = StillnessDetector(config)
    reads = []
    for i, f in enumerate(seq.frames):
        det.update(f.image, f.t)
        if det.became_still:
            reads.append(i)
    false = [i for i in reads if seq.frames[i].moving or seq.frames[i].hand or seq.frames[i].layout is None]
    bounds = [start for start, _, _ in seq.settles[1:]] + [len(seq.frames)]
    missed, delays, unchanged = 0, [], 0
    for (start, k, changed), _end in zip(seq.settles, bounds):
        # the layout rests from ``start`` until the next event begins
        nxt = next((e[1] for e in seq.events if e[1] >= start), len(seq.frames))
        got = [i for i in reads if start <= i < nxt]
        if changed:
            if got:
                delays.append((got[0] - start) / seq.fps * 1000.0)
            else:
                missed += 1
        elif got:
            unchanged += 1
    return {"reads": len(reads), "false": len(false), "missed": missed, "unchanged": unchanged, "delays": delays}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60, help="frames timed per size")
    ap.add_argument("--sequences", type=int, default=6, help="seeded sequences scored")
    ap.add_argument("--fps", type=float, default=15.0, help="frames per second of the sequences")
    ap.add_argument("--seed", type=int, default=100, help="first sequence seed")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for size in ((1280, 720), (2304, 1296)):
        timer = time_updates(size, args.frames)
        print(timer.summary_line(f"update per frame {size[0]}x{size[1]}"))
        timer.close()
    if args.sequences <= 0:
        return 0
    t0 = time.perf_counter()
    seqs = []
    for k in range(args.sequences):
        table = full_table("roll", TILES, args.seed + k, (640, 360))
        seqs.append(play_sequence(table, EVENTS, seed=args.seed + k, fps=args.fps, card_ids=TILES))
    n_frames = sum(len(s.frames) for s in seqs)
    changed = sum(ch for s in seqs for _, _, ch in s.settles)
    unchanged = sum(not ch for s in seqs for _, _, ch in s.settles)
    print(f"sequences: {len(seqs)} x {EVENTS} at {args.fps:g} fps, {n_frames} frames, {changed} changed layouts "
          f"at rest, {unchanged} unchanged [{time.perf_counter() - t0:.0f} s to render]")
    base = MotionConfig()
    configs = [("default", base)]
    if hasattr(base, "read_unchanged"):
        configs.append(("read_unchanged off", replace(base, read_unchanged=False)))
    for name, cfg in configs:
        tot = {"reads": 0, "false": 0, "missed": 0, "unchanged": 0, "delays": []}
        for s in seqs:
            r = score(s, cfg)
            for key in ("reads", "false", "missed", "unchanged"):
                tot[key] += r[key]
            tot["delays"] += r["delays"]
        d = sorted(tot["delays"])
        p95 = d[min(len(d) - 1, int(round(0.95 * (len(d) - 1))))] if d else float("nan")
        print(f"  {name:19s} (still {cfg.still_seconds:g} s / {getattr(cfg, 'still_frames', 1)} frames): reads {tot['reads']}, "
              f"false reads {tot['false']}, missed settles {tot['missed']}, reads of an unchanged layout "
              f"{tot['unchanged']}; rest -> read median {statistics.median(d) if d else float('nan'):.0f} ms, "
              f"p95 {p95:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
