"""The card reader's cold read of the full tables, stage by stage in CPU ms, and a digest of what it read.

The tables of ``bench/full_table.py`` (:func:`vision.synth_full.full_table`, seeded, 1280x720, decks enrolled from
the stand-in 'scans'), the card reader alone (no dice beside it), single-threaded BLAS and OpenCV. Each stage
(``reader.stage`` of :func:`vision.cards.read_cards`) is timed in CPU time of the reading thread
(``time.thread_time``: the figure holds on a loaded machine), median over every frame of every seed; ``read`` is
the whole read. The digest is a SHA-256 of every card read (id, rotation, confidence, corners, row, column, cell,
zone, to the last bit): two checkouts whose digests agree read every card the same.

``--code DIR`` times the ``vision`` package of another checkout (e.g. a worktree of main) with these benches:

    python bench/card_stages.py --games roll,race,among --seeds 1,2,3
    git worktree add --detach /tmp/main-ref main
    python bench/card_stages.py --code /tmp/main-ref
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded, as the figures say

import argparse
import hashlib
import sys
import tempfile
import time
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="roll,race,among", help="comma-separated, from roll, race, among")
    ap.add_argument("--seeds", default="1,2,3", help="layout seeds, comma-separated")
    ap.add_argument("--reps", type=int, default=3, help="frames per table (each with fresh sensor noise)")
    ap.add_argument("--code", type=Path, default=ROOT, help="the checkout whose vision package reads")
    args = ap.parse_args(argv)
    sys.path[:0] = [str(args.code.resolve()), str(ROOT)]   # its vision; this checkout's benches
    import cv2
    import numpy as np

    import vision
    import vision.timing
    from bench.full_table import GameReaders
    from vision.inference import InferenceConfig
    from vision.readers import CardsAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate

    cv2.setNumThreads(1)
    vision.timing.time = types.SimpleNamespace(perf_counter=time.thread_time)   # stages in CPU ms (this bench)
    print(f"vision: {Path(vision.__file__).parent}; CPU ms of the reading thread, medians; "
          f"load average {os.getloadavg()[0]:.1f}")
    work = tempfile.TemporaryDirectory(prefix="card_stages_")   # the enrollments, removed when the bench ends
    gr = GameReaders(Path(work.name), InferenceConfig("auto", 1))
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        stages: dict[str, list[float]] = {}
        digest = hashlib.sha256()
        cards = 0
        for seed in (int(s) for s in args.seeds.split(",")):
            table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
            cal = calibrate(table.render(frame_seed=0), table.layout)
            reader = next(r for r in gr.readers(game, cal) if isinstance(r, CardsAdapter))
            frames = [table.render(frame_seed=10 * rep) for rep in range(args.reps)]
            reader.read(frames[0])                       # caches and derived indexes, not timed
            for frame in frames:
                t0 = time.thread_time()
                s = reader.read(frame)
                stages.setdefault("read", []).append((time.thread_time() - t0) * 1000.0)
                for k, v in s.timings_ms.items():
                    stages.setdefault(k, []).append(v)
                for c in s.cards:
                    cards += 1
                    digest.update(repr((c.id, float(c.rotation_deg), float(c.confidence), c.row, c.col, c.cell,
                                        c.zone)).encode())
                    digest.update(np.asarray(c.corners, np.float64).tobytes())
        med = {k: float(np.median(v)) for k, v in stages.items()}
        print(f"== {game}: {cards} cards read, digest {digest.hexdigest()[:16]}")
        print("  " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(med.items(), key=lambda kv: -kv[1]) if v >= 0.5))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
