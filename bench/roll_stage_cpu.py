"""CPU time per stage of the Roll dice reader, and its exact reads, for comparing two versions of the code.

Usage::

    python bench/roll_stage_cpu.py --out /tmp/new.pkl                          # this tree
    PYTHONPATH=/tmp/old-tree python bench/roll_stage_cpu.py --out /tmp/old.pkl  # another tree (e.g. main)
    python bench/roll_stage_cpu.py --compare /tmp/old.pkl /tmp/new.pkl          # are the reads the same?

Frames: the scenes of ``bench/roll_dice.py --n N --seed S --no-byler`` (both generators, seeds S..S+N-1, S 1000 by
default, read with the profiles enrolled as that bench does) and the full Roll table of ``bench/full_table.py --games
roll --sizes 1280x720`` (layout seed 1; frame seeds 0, 10, 20 cold, and the frames after a re-roll and after a card is
added, read cold too, through the adapter with the table's calibration), plus one window read.

Printed: each stage's CPU time (``time.process_time``, ms; the reader's stage timer is swapped for a CPU timer)
per frame, the mean over the scenes and over the three cold table frames, each frame's figure the median of
``--rounds`` reads. On a shared machine CPU time, unlike wall time, does not count the other processes' turns;
compare two versions back to back. ``--out`` keeps every die's colour, face, box and confidence per frame;
``--compare`` prints the frames whose reads differ (confidences to ``--tol``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import pickle
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT))  # appended: a tree on PYTHONPATH is the one measured

SHARED = Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))


def compare(old_path: str, new_path: str, tol: float) -> int:
    """Print the frames whose reads differ; 0 when none does."""
    a = pickle.load(open(old_path, "rb"))["reads"]
    b = pickle.load(open(new_path, "rb"))["reads"]
    bad = sorted(set(a) ^ set(b))
    for k in sorted(set(a) & set(b)):
        x, y = a[k], b[k]
        if len(x) != len(y) or any(p[:3] != q[:3] or abs(p[3] - q[3]) > tol for p, q in zip(x, y, strict=True)):
            bad.append(k)
            print(f"{k} differs:\n  {x}\n  {y}")
    print(f"{len(a) - len(bad)}/{len(a)} frames read the same ({sum(map(len, a.values()))} dice; confidences to {tol})")
    return 1 if bad else 0


def frames(n: int, work: Path, first: int = 1000) -> list[tuple[str, object, np.ndarray]]:
    """(name, read, frame) of every frame measured (see the module's docstring)."""
    from bench.full_table import GameReaders, change
    from vision import scenes, synth
    from vision.inference import InferenceConfig
    from vision.profiles import load_dice_faces
    from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile
    from vision.synth_full import full_table
    from vision.table import calibrate

    fbc = load_dice_faces(SHARED / "data" / "roll" / "dice.json")
    cfg = RollDiceConfig()
    r_syn = RollDiceReader(build_profile(synth.write_enrollment(work / "es", fbc, seed=7, symbol_set="A"),
                                         config=cfg), cfg)
    r_sc = {ed: RollDiceReader(build_profile(scenes.write_dice_enrollment(work / f"e_{ed}", fbc, seed=7, edition=ed),
                                             config=cfg), cfg) for ed in scenes.DiceSceneConfig().editions}
    keys = list(r_sc)
    jobs = []
    for k in range(n):
        seed, ed = first + k, keys[k % len(keys)]
        for name, img, reader in (
                (f"synth{seed}", synth.render_scene(seed, synth.SceneConfig(symbol_set="A"), fbc).image, r_syn),
                (f"scenes{seed}", scenes.render_dice_scene(seed, faces_by_colour=fbc, edition=ed).image, r_sc[ed])):
            path = work / f"{name}.png"
            cv2.imwrite(str(path), img)  # as bench/roll_dice.py reads them: through a PNG
            jobs.append((name, reader.read, cv2.imread(str(path))))
    gr = GameReaders(work / "tables", InferenceConfig())
    table = full_table("roll", gr.ids["roll"], 1, (1280, 720), gr.faces)
    adapter = gr.readers("roll", calibrate(table.render(frame_seed=0), table.layout))[0]
    changed = {kind: change(table, kind, gr.ids["roll"], gr.faces, 2) for kind in ("reroll", "add_card")}
    for rep in range(3):
        jobs.append((f"table{rep}", adapter.read, table.render(frame_seed=10 * rep)))
        for kind, pieces in changed.items():
            jobs.append((f"table{rep}_{kind}", adapter.read, table.render(pieces, frame_seed=10 * rep + 1)))
    jobs.append(("window", lambda f: adapter.reader.read_window(f, (300, 200, 400, 300)), table.render(frame_seed=0)))
    return jobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10, help="scenes per generator (default 10)")
    ap.add_argument("--seed", type=int, default=1000, help="first scene seed (default 1000, as bench/roll_dice.py)")
    ap.add_argument("--rounds", type=int, default=3, help="reads of each frame; its figure is their median")
    ap.add_argument("--out", help="write the reads and the figures here (pickle)")
    ap.add_argument("--compare", nargs=2, metavar=("OLD", "NEW"), help="compare two --out files and exit")
    ap.add_argument("--tol", type=float, default=0.0, help="confidence tolerance of --compare")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(*args.compare, args.tol)
    cv2.setNumThreads(1)
    import vision.roll_dice.reader as reader_module

    def cpu_stage(timings, name, fn, *a, **k):
        t0 = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            timings[name] = timings.get(name, 0.0) + (time.process_time() - t0) * 1000.0

    reader_module.timed_stage = cpu_stage  # the reader's stage timer, by CPU time
    print(f"measuring {reader_module.__file__}")
    with tempfile.TemporaryDirectory(prefix="roll_stage_cpu_") as tmp:
        jobs = frames(args.n, Path(tmp), args.seed)
        reads: dict[str, list] = {}
        per_frame: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for _ in range(max(1, args.rounds)):
            for name, read, frame in jobs:
                r = read(frame)
                reads[name] = [(d.colour, d.face, tuple(d.box), float(d.confidence)) for d in r.dice]
                for stage, ms in r.timings_ms.items():
                    per_frame[name][stage].append(ms)
    groups = {"scenes": [n for n, _, _ in jobs if n.startswith(("synth", "scenes"))],
              "table": [n for n, _, _ in jobs if n.startswith("table") and "_" not in n]}
    summary = {}
    for group, names in groups.items():
        stages: dict[str, float] = defaultdict(float)
        for n in names:
            for stage, ms in per_frame[n].items():
                stages[stage] += float(np.median(ms)) / len(names)
        summary[group] = dict(stages)
        print(f"[{group}] CPU ms per frame ({len(names)} frames, median of {args.rounds} reads): "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(stages.items(), key=lambda kv: -kv[1])))
    print(f"dice read: {sum(map(len, reads.values()))} in {len(reads)} frames")
    if args.out:
        with open(args.out, "wb") as f:
            pickle.dump({"reads": reads, "summary": summary}, f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
