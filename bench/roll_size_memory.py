"""Why a Roll table's read at the remembered die size costs what it costs: which sizes not chosen the die-size memory
keeps, which of their faces the other-sizes step weighs and takes, and where.

Usage::

    python bench/roll_size_memory.py                 # the eight calibrated tables (layout seeds 1-8)
    python bench/roll_size_memory.py --seeds 5,6

Tables and frames: ``bench/roll_calibrated.py``'s (``bench/full_table.py --games roll --sizes 1280x720`` at each layout
seed, calibrated on its frame seed 0, read whole on the cold frames 0, 10, 20 by one reader that remembers the die size,
its memory cleared per table: the first frame searches the size, the next keep it while it holds).

Printed per frame: searched or kept, the size chosen and the sizes not chosen the memory keeps after it
(``RollDiceReader``'s ``_SizeMemory.also``); the CPU ms of the whole read, of cutting the top faces of the sizes not
chosen (all of a kept read's remembered sizes; a search cuts every size to choose one) and of the other-sizes stage
(matching the faces that could count); the die side the table's plane gives across the frame (the size model fitted to
the chosen faces, :func:`vision.roll_dice.shape.expected_sides`: how much a die's size really varies there); per size
not chosen, the faces the other-sizes step weighed (those a perfect match could add or swap in, matched) and how many of
them lie on a calibration marker's sheet, where no die is reported; and each face of another size the read took
(added or swapped in), its place, side and whether it lies on a sheet.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def seeds(text: str) -> list[int]:
    """``"1-8"`` or ``"1,3,5"`` as a list of layout seeds."""
    if "-" in text:
        lo, hi = (int(v) for v in text.split("-", 1))
        return list(range(lo, hi + 1))
    return [int(v) for v in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=seeds, default=seeds("1-8"), help="layout seeds, '1-8' (default) or '1,3,5'")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision
    import vision.roll_dice.reader as reader_module
    from bench.full_table import GameReaders, read_all
    from vision.inference import InferenceConfig
    from vision.roll_dice.assemble import die_weights
    from vision.roll_dice.shape import expected_sides
    from vision.synth_full import full_table
    from vision.table import calibrate
    print(f"measuring {Path(vision.__file__).parent}")

    log: dict = {}
    weighed_by_step = reader_module.other_size_faces_weighed
    cut_at_size = reader_module.RollDiceReader._tops_for
    other_sizes_step = reader_module.RollDiceReader._other_sizes
    could_count = reader_module.other_size_could

    def could(faces, *a, **k):
        out = could_count(faces, *a, **k)
        log.setdefault("could", []).append(int(np.count_nonzero(out)))
        return out

    def weighed(chosen, ncc, others, cfg):
        out = weighed_by_step(chosen, ncc, others, cfg)
        log["chosen"] = (chosen, ncc, cfg)   # weighed when printed, outside the step's time
        log["others"] = [faces.rects.copy() for faces, _ in others]
        log["taken"] = np.array([r for r in out[0].rects if not any(np.array_equal(r, q) for q in chosen.rects)])
        return out

    def tops_for(self, frame, fg, edges, found, cfg, timings, keep, size, *a, **k):
        t0 = time.process_time()
        try:
            return cut_at_size(self, frame, fg, edges, found, cfg, timings, keep, size, *a, **k)
        finally:
            log.setdefault("cut", []).append((float(size), (time.process_time() - t0) * 1000.0))

    def other_sizes(self, frame, cfg, chosen, *a, **k):
        t0 = time.process_time()
        try:
            out = other_sizes_step(self, frame, cfg, chosen, *a, **k)
        finally:
            log["step"] = (time.process_time() - t0) * 1000.0
        # the sizes asked which faces could count, in ``seen``'s order: those not chosen that found a face
        asked = [s for s, faces in a[3].items() if s != chosen and len(faces.rects)]
        log["sizes"] = [s for s, n in zip(asked, log.get("could", []), strict=False) if n]
        return out

    reader_module.other_size_faces_weighed = weighed
    reader_module.other_size_could = could
    reader_module.RollDiceReader._tops_for = tops_for
    reader_module.RollDiceReader._other_sizes = other_sizes
    with tempfile.TemporaryDirectory(prefix="roll_size_memory_") as tmp:
        gr = GameReaders(Path(tmp), InferenceConfig())
        for seed in args.seeds:
            table = full_table("roll", gr.ids["roll"], seed, (1280, 720), gr.faces)
            calibration = calibrate(table.render(frame_seed=0), table.layout)
            readers = gr.readers("roll", calibration)
            dice = gr.roll_dice()
            dice._memory = None
            for rep in range(3):
                log.clear()
                searched = dice._memory is None
                t0 = time.process_time()
                read_all(readers, table.render(frame_seed=10 * rep))
                cpu = (time.process_time() - t0) * 1000.0
                if "chosen" in log:
                    chosen, ncc, cfg = log["chosen"]
                    log["chosen"] = (chosen.rects, die_weights(chosen, ncc.reshape(len(chosen.rects), -1), cfg), cfg)
                _report(seed, 10 * rep, searched, dice._memory, cpu, log, calibration, expected_sides)
    return 0


def _report(seed: int, frame_seed: int, searched: bool, memory, cpu: float, log: dict, calibration,
            expected_sides) -> None:
    """Print one frame's lines (see the module's docstring)."""
    size = memory.size
    cut = sum(ms for s, ms in log.get("cut", []) if s != size)
    kept = ", ".join(f"{s:g}" for s in memory.also) or "none"
    print(f"table {seed} frame {frame_seed}: {'searched' if searched else 'kept'} at {size:g}, keeps {kept}; "
          f"read {cpu:.0f} ms CPU, other sizes cut {cut:.0f} ms, other-sizes step {log.get('step', 0.0):.0f} ms")
    if "chosen" not in log:
        print("  no face of another size could count")
        return
    rects, weights, cfg = log["chosen"]
    if len(rects):
        sides = np.sqrt(np.abs(rects[:, 2] * rects[:, 3]))
        plane = expected_sides(rects[:, :2], sides, weights, cfg)
        print(f"  die side the chosen faces' plane gives: {plane.min():.1f}-{plane.max():.1f} px")
    for s, other in zip(log["sizes"], log["others"], strict=True):
        sheet = int(calibration.on_marker(other[:, :2]).sum()) if len(other) else 0
        print(f"  {s:g}: faces weighed {len(other)}, on a marker's sheet {sheet}")
    for r in log["taken"]:
        on = bool(calibration.on_marker(r[None, :2])[0])
        print(f"  taken: ({r[0]:.0f}, {r[1]:.0f}) side {np.sqrt(abs(r[2] * r[3])):.1f} px"
              f"{' on a marker sheet' if on else ''}")


if __name__ == "__main__":
    raise SystemExit(main())
