"""The Roll table's dice on calibrated tables, die for die, for comparing two versions of the dice reader.

Usage::

    python bench/roll_calibrated.py --out /tmp/new.pkl                          # this tree
    PYTHONPATH=/tmp/old-tree python bench/roll_calibrated.py --out /tmp/old.pkl  # another tree (e.g. main)
    python bench/roll_calibrated.py --compare /tmp/old.pkl /tmp/new.pkl          # what moved?

Tables: ``bench/full_table.py --games roll --sizes 1280x720`` at the layout seeds ``--seeds`` (1-8 by default), each
calibrated on its frame seed 0 as the box calibrates, and read whole (dice and tiles, in ``bench/full_table.py``'s
order) on its cold frames 0, 10, 20 two ways: ``kept``, the box's way (one reader that remembers the die size, its
memory cleared per table, so a table's first frame searches the size and the next keep it while it holds), and
``searched`` (the memory cleared before every frame). The calibration's markers and their paper are what this bench
reads that ``bench/roll_dice.py``'s uncalibrated scenes never show.

Printed per way: found, right and false dice against the labels (``bench/full_table.py``'s ``what_was_read``) and the
CPU ms of the whole read (median over the frames). ``--out`` keeps every die's colour, face, box and confidence, the
light and the die size per frame; ``--compare`` prints the frames whose dice differ in colour, face or box, the
largest confidence change on the others, the largest change of the light (``RollDiceRead.light``) and the frames read
at another die size, and both files' totals.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # appended: a tree on PYTHONPATH is the one measured

WAYS = ("kept", "searched")
COUNTS = ("dice_found", "dice_right", "dice_false")


def seeds(text: str) -> list[int]:
    """``"1-8"`` or ``"1,3,5"`` as a list of layout seeds."""
    if "-" in text:
        lo, hi = (int(v) for v in text.split("-", 1))
        return list(range(lo, hi + 1))
    return [int(v) for v in text.split(",")]


def totals(reads: dict, way: str) -> dict[str, int]:
    """Found, right and false dice over the frames read ``way``."""
    return {c: sum(r["counts"][c] for k, r in reads.items() if k[0] == way) for c in COUNTS}


def compare(old_path: str, new_path: str) -> int:
    """Print what moved between two ``--out`` files (see the module's docstring); 0 when every die's colour, face and
    box is the same."""
    a = pickle.load(open(old_path, "rb"))
    b = pickle.load(open(new_path, "rb"))
    moved = 0
    for way in WAYS:
        keys = sorted(k for k in set(a) & set(b) if k[0] == way)
        same, conf, light = 0, 0.0, 0.0
        for k in keys:
            x, y = a[k], b[k]
            light = max(light, float(np.max(np.abs(np.subtract(x["light"], y["light"])))))
            if x["size"] != y["size"]:
                print(f"{k}: die size {x['size']} -> {y['size']}")
            dx, dy = sorted(x["dice"], key=str), sorted(y["dice"], key=str)
            if [d[:3] for d in dx] == [d[:3] for d in dy]:
                same += 1
                conf = max([conf] + [abs(p[3] - q[3]) for p, q in zip(dx, dy, strict=True)])
                continue
            moved += 1
            print(f"{k} differs: {x['counts']} -> {y['counts']}\n"
                  f"  only old: {[d for d in dx if d[:3] not in [e[:3] for e in dy]]}\n"
                  f"  only new: {[d for d in dy if d[:3] not in [e[:3] for e in dx]]}")
        print(f"[{way}] {same}/{len(keys)} frames with every die's colour, face and box the same; largest confidence "
              f"change there {conf:.3g}; largest light change {light:.3g}")
        print(f"[{way}] old {totals(a, way)}, new {totals(b, way)}")
    return 1 if moved else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds, default=seeds("1-8"), help="layout seeds, '1-8' (default) or '1,3,5'")
    ap.add_argument("--out", help="write the reads here (pickle)")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="compare two --out files and exit")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare)
    cv2.setNumThreads(1)
    import vision
    from bench.full_table import GameReaders, read_all, what_was_read
    from vision.inference import InferenceConfig
    from vision.readers import RollDiceAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate
    print(f"measuring {Path(vision.__file__).parent}")
    reads: dict[tuple[str, int, int], dict] = {}
    with tempfile.TemporaryDirectory(prefix="roll_calibrated_") as tmp:
        gr = GameReaders(Path(tmp), InferenceConfig())
        for seed in args.seeds:
            table = full_table("roll", gr.ids["roll"], seed, (1280, 720), gr.faces)
            readers = gr.readers("roll", calibrate(table.render(frame_seed=0), table.layout))
            for way in WAYS:
                gr.roll_dice()._memory = None
                for rep in range(3):
                    if way == "searched":
                        gr.roll_dice()._memory = None
                    t0 = time.process_time()
                    read = read_all(readers, table.render(frame_seed=10 * rep))
                    cpu = (time.process_time() - t0) * 1000.0
                    dice = next(s for r, s in zip(readers, read.sightings, strict=True)
                                if isinstance(r, RollDiceAdapter))
                    reads[way, seed, rep] = {
                        "dice": [(d.colour, d.face, tuple(d.box), float(d.confidence)) for d in dice.dice],
                        "light": tuple(map(float, dice.light)), "size": dice.die_size,
                        "counts": what_was_read(table, table.pieces, read), "cpu": cpu}
    for way in WAYS:
        cpu = statistics.median(r["cpu"] for k, r in reads.items() if k[0] == way)
        print(f"[{way}] {totals(reads, way)} over {sum(k[0] == way for k in reads)} frames; "
              f"whole read {cpu:.0f} ms CPU (median)")
    if args.out:
        with open(args.out, "wb") as f:
            pickle.dump(reads, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
