"""How fast the full Roll table's cold read could be if every die candidate that is no die were rejected for free before
its top face is cut: the bound on what an early rejection of non-dice can give (issue 15's 35x target).

Usage::

    python bench/roll_dice_floor.py --rounds 3

Scene: ``bench/full_table.py --games roll --sizes 1280x720`` (layout seed ``--seed``, 1 by default), its cold frames 0,
10 and 20, read as ``bench/roll_table_ab.py`` reads them (dice and tiles, the box's order; the dice reader remembers the
die size, so after a first read of each frame the reads are at the size it chose). Two ways, interleaved in one process:

* ``as built``: the reader told of the identified tiles' art (a candidate the art explains gets no top face);
* ``oracle``: the reader told instead that every box whose centre lies farther than ``--reach`` px outside each
  labelled die's top face is explained (:func:`off_dice`): every pile, candidate and top face off the dice (the tiles'
  print, the calibration markers, the cloth) is dropped where the art's are, at no cost, so only the dice are cut into
  top faces and matched. The art check's own cost goes with it.

The oracle's reads are not the reader's (the markers' faces no longer shape the size model or the light): what it
gives is the CPU floor of the per-die stages with no false candidate, not a read to compare.

Printed: the baseline (JPEG q95 ``imread`` + ``cvtColor`` of each frame, CPU ms, best of 5, median over the frames),
per way the median CPU ms of the whole read and its ratio to the baseline, the dice reader's stage medians (CPU ms;
stages under 0.5 ms left out) and the dice found per read. CPU time (``time.process_time``) does not count the other
processes' turns on a loaded machine.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

Box = tuple[float, float, float, float]


def off_dice(polygons: Sequence[np.ndarray], reach: float) -> Callable[[Sequence[Box]], list[bool]]:
    """The oracle's ``explained(boxes)``: per ``(x, y, w, h)`` frame-px box, True (explained: no die) when its centre
    lies farther than ``reach`` px outside every polygon of ``polygons`` (``float[K, 2]`` frame px, the labelled dice's
    top faces), False when it lies inside one or within ``reach`` px of its outline. Raises ``ValueError`` for a
    negative or non-finite ``reach``."""
    if not (np.isfinite(reach) and reach >= 0):
        raise ValueError(f"reach is a distance in px >= 0, got {reach!r}")
    quads = [np.asarray(p, np.float32).reshape(-1, 1, 2) for p in polygons]

    def explained(boxes: Sequence[Box]) -> list[bool]:
        out = []
        for x, y, w, h in boxes:
            centre = (float(x) + float(w) / 2.0, float(y) + float(h) / 2.0)
            out.append(not any(cv2.pointPolygonTest(q, centre, True) >= -reach for q in quads))
        return out

    return explained


def cpu_stage(timings: dict, name: str, fn, *args, **kwargs):
    """The dice reader's stage timer by CPU time (as ``bench/roll_stage_cpu.py`` swaps it in)."""
    t0 = time.process_time()
    try:
        return fn(*args, **kwargs)
    finally:
        timings[name] = timings.get(name, 0.0) + (time.process_time() - t0) * 1000.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds, each way reading every frame once per round")
    ap.add_argument("--seed", type=int, default=1, help="the table's layout seed (default 1, bench/full_table.py's)")
    ap.add_argument("--reach", type=float, default=8.0,
                    help="px a box's centre may lie outside a labelled die's top face and still be cut (default 8)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision.readers as readers_module
    import vision.roll_dice.reader as reader_module
    import vision.timing as timing
    from bench.full_table import GameReaders, read_all, what_was_read
    from bench.roll_table_ab import jpeg_cpu_ms
    from vision.inference import InferenceConfig
    from vision.synth_full import full_table
    from vision.table import calibrate

    reader_module.timed_stage = cpu_stage
    timing.time = SimpleNamespace(perf_counter=time.thread_time)   # the card reader's stages: CPU of its thread
    art = readers_module._art_explains
    with tempfile.TemporaryDirectory(prefix="roll_dice_floor_") as tmp:
        work = Path(tmp)
        gr = GameReaders(work / "readers", InferenceConfig())
        table = full_table("roll", gr.ids["roll"], args.seed, (1280, 720), gr.faces)
        readers = gr.readers("roll", calibrate(table.render(frame_seed=0), table.layout))
        frames = [table.render(frame_seed=s) for s in (0, 10, 20)]
        oracle = off_dice([table.polygon_px(p) for p in table.pieces if p.kind == "die"], args.reach)
        ways = {"as built": art, "oracle": lambda frame, cards, known: oracle}
        for frame in frames:   # the die size searched once, as the box's first read does
            read_all(readers, frame)
        cpu: dict[str, list[float]] = defaultdict(list)
        stages: dict[str, dict[str, list[float]]] = {w: defaultdict(list) for w in ways}
        found: dict[str, list[int]] = defaultdict(list)
        base = [jpeg_cpu_ms(frame, work) for frame in frames]
        try:
            for rnd in range(max(1, args.rounds)):
                for way in (list(ways) if rnd % 2 == 0 else list(ways)[::-1]):
                    readers_module._art_explains = ways[way]
                    for frame in frames:
                        t0 = time.process_time()
                        got = read_all(readers, frame)
                        cpu[way].append((time.process_time() - t0) * 1000.0)
                        for k, ms in got.timings_ms.items():
                            if k.startswith("roll_dice."):
                                stages[way][k[len("roll_dice."):]].append(ms)
                        found[way].append(what_was_read(table, table.pieces, got)["dice_found"])
        finally:
            readers_module._art_explains = art
        b = statistics.median(base)
        print(f"baseline JPEG q95 imread+cvtColor: {b:.2f} ms CPU (median of {len(base)} frames)")
        for way in ways:
            ms = statistics.median(cpu[way])
            top = sorted(((k, statistics.median(v)) for k, v in stages[way].items()), key=lambda kv: -kv[1])
            print(f"[{way}] cold read {ms:.1f} ms CPU = {ms / b:.1f}x (median of {len(cpu[way])}); dice found "
                  f"{found[way]}")
            print(f"[{way}] dice stages (CPU ms): " + ", ".join(f"{k} {v:.1f}" for k, v in top if v >= 0.5))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
