"""Two versions of the hex reader side by side in one process: the cold hex read of Eclipse's whole table (as
``bench/full_table.py`` reads it) by CPU time, interleaved, against the baseline's CPU time.

Usage::

    git worktree add --detach /tmp/old-tree main
    python bench/hex_table_ab.py --old /tmp/old-tree --sizes 1280x720,2304x1296 --seeds 1,2 --rounds 2

The other tree's ``vision`` package is imported as ``vision_old``; each version reads with its own deck (the same
enrolled profile, loaded by each version's program) and calibration (each version's ``calibrate`` on the same
frame). Scenes: :func:`vision.synth_full.full_table` ('eclipse': 24 sector hexes and 8 combat dice), layout seeds
``--seeds``, frame seeds 0, 10, 20 (fresh sensor noise); each version reads every frame once untimed first, then
once per round, the two versions' order swapped from one round to the next.

Printed per size: the CPU ms of the baseline (a JPEG q95 ``imread`` + ``cvtColor`` of each frame, best of 5, median
over the frames), per version the median CPU ms of the hex read (``vision.hexes.read_hexes``) and its ratio to the
baseline, with the largest stage medians (CPU ms); whether the two versions read every frame the same (a SHA-256 of
every hex to the last bit: id, rotation, turn, axial cell, zone, confidence, centre and corners) and the same hexes
(each hex's id, rotation and axial cell), and the median of each frame's new over old CPU time.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import hashlib
import statistics
import sys
import tempfile
import time
import types
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.card_ident import load_vision  # noqa: E402
from bench.roll_table_ab import jpeg_cpu_ms  # noqa: E402


def hex_digest(hexes) -> str:
    """SHA-256 (first 16 hex digits) of every hex observation: id, rotation, turn, axial cell, zone, confidence,
    centres and corners to the last bit."""
    h = hashlib.sha256()
    for o in hexes:
        h.update(repr((o.id, o.rotation, float(o.rotation_deg), o.axial, o.zone, float(o.confidence),
                       tuple(map(float, o.center_px)), tuple(map(float, o.center_mm)))).encode())
        h.update(np.asarray(o.corners, np.float64).tobytes())
    return h.hexdigest()[:16]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="the other tree (its vision/ is read as vision_old)")
    ap.add_argument("--sizes", default="1280x720,2304x1296", help="comma-separated WxH")
    ap.add_argument("--seeds", default="1,2", help="layout seeds, comma-separated")
    ap.add_argument("--rounds", type=int, default=2, help="rounds, each version reading every frame once per round")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    old_deck = load_vision(args.old.resolve(), "vision_old")
    import vision_old.hexes as old_hexes
    import vision_old.table as old_table
    import vision_old.timing as old_timing

    import vision.timing
    from bench.full_table import GameReaders
    from vision.hexes import read_hexes
    from vision.inference import InferenceConfig
    from vision.synth_full import full_table
    from vision.table import calibrate

    for timing in (vision.timing, old_timing):   # stages in CPU ms of the reading thread (this bench)
        timing.time = types.SimpleNamespace(perf_counter=time.thread_time)
    readers = {"old": old_hexes.read_hexes, "new": read_hexes}
    print(f"old: {Path(old_hexes.__file__).parent}\nnew: {ROOT / 'vision' / 'hexes'}; CPU time (process_time), "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="hex_table_ab_") as tmp:
        work = Path(tmp)
        gr = GameReaders(work / "readers", InferenceConfig())
        gr.deck("eclipse").save(work / "eclipse.json")
        decks = {"old": old_deck.DeckProfile.load(work / "eclipse.json"), "new": gr.deck("eclipse")}
        for size in [tuple(int(v) for v in s.lower().split("x")) for s in args.sizes.split(",") if s.strip()]:
            scenes = []
            for seed in (int(s) for s in args.seeds.split(",")):
                table = full_table("eclipse", gr.ids["eclipse"], seed, size, gr.faces)
                first = table.render(frame_seed=0)
                cals = {"old": old_table.calibrate(first, table.layout), "new": calibrate(first, table.layout)}
                for f in (0, 10, 20):
                    scenes.append((table.render(frame_seed=f), cals))
            base = [jpeg_cpu_ms(frame, work) for frame, _ in scenes]
            for frame, cals in scenes:   # caches: not timed
                for v in ("old", "new"):
                    readers[v](frame, decks[v], cals[v])
            cpu: dict[str, list[list[float]]] = {v: [[] for _ in scenes] for v in ("old", "new")}
            stages: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in ("old", "new")}
            digest: dict[str, list[str]] = {v: [""] * len(scenes) for v in ("old", "new")}
            named: dict[str, list[tuple]] = {v: [()] * len(scenes) for v in ("old", "new")}
            for rnd in range(max(1, args.rounds)):
                for v in (("old", "new") if rnd % 2 == 0 else ("new", "old")):
                    for k, (frame, cals) in enumerate(scenes):
                        t0 = time.process_time()
                        r = readers[v](frame, decks[v], cals[v])
                        cpu[v][k].append(1000.0 * (time.process_time() - t0))
                        for name, ms in r.timings_ms.items():
                            stages[v][name].append(ms)
                        digest[v][k] = hex_digest(r.hexes)
                        named[v][k] = tuple(sorted((str(o.id), o.rotation, o.axial) for o in r.hexes))
            b = statistics.median(base)
            w, h = size
            print(f"== eclipse {w}x{h}: {len(scenes)} frames x {args.rounds} rounds; baseline {b:.2f} ms CPU")
            for v in ("old", "new"):
                med = statistics.median(ms for per in cpu[v] for ms in per)
                top = sorted(((statistics.median(x), n) for n, x in stages[v].items()), reverse=True)[:6]
                print(f"  {v}: hex read {med:.1f} ms = {med / b:.1f}x; stages: "
                      + ", ".join(f"{n} {ms:.1f}" for ms, n in top))
            ratio = statistics.median(n / o for per_n, per_o in zip(cpu["new"], cpu["old"], strict=True)
                                      for n, o in zip(per_n, per_o, strict=True))
            same = sum(a == b for a, b in zip(digest["old"], digest["new"], strict=True))
            alike = sum(a == b for a, b in zip(named["old"], named["new"], strict=True))
            print(f"  new / old per frame: median {ratio:.3f}; reads the same to the last bit: {same}/{len(scenes)}; "
                  f"the same hexes (id, rotation, axial cell): {alike}/{len(scenes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
