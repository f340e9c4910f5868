"""Two versions' card identification of whole frames side by side in one process: the frame's scores and the second
look at its weak cards (:func:`vision.cards.identify_and_refine`) by CPU time, frame by frame, interleaved.

Usage::

    git worktree add --detach /tmp/old-tree main
    python bench/card_identify_ab.py --old /tmp/old-tree --games roll --seeds 1,2,5,6 --rounds 8

The inputs are those the card reader (this tree's) hands its identification on the cold reads of the full tables of
``bench/full_table.py`` (:func:`vision.synth_full.full_table` at 1280x720, layout seeds ``--seeds``, frame seeds 0,
10, 20): the frame, the places found, their crops, the top-down view and which places are the detector's second
look's. Each version identifies them with its own program and its own copy of the deck (the same enrolled profile
file), inside its own feature store (:func:`vision.card_features.reusing_features`, as a read does); once untimed
first (caches), then every frame once per round, the two versions' order swapped from one round to the next.
Single-threaded BLAS and OpenCV; CPU time (``time.process_time``: the figure holds on a loaded machine, the load
printed).

Printed per game: each frame's median CPU ms old -> new, their sums and the median of the frames' new/old, and
whether both versions read every frame alike (card, quarter turns, confidence to 4 decimals, corners within 0.5 px).
A whole read's other stages are those of ``bench/card_table_ab.py``; this bench isolates the identification, whose
cost on the Roll table sits mostly in a few frames (a tile beside a die read weakly).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def captured(gr, game: str, seeds: list[int]) -> list[tuple]:
    """The arguments of every :func:`vision.cards.identify_and_refine` call of the cold reads of ``game``'s full
    tables (layout ``seeds``, frame seeds 0, 10, 20): (frame, quads, crops, mirror, top_view, loose) each."""
    import vision.cards as cards
    from vision.readers import CardsAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate

    got: list[tuple] = []
    real = cards.identify_and_refine

    def keep(deck, frame, quads, crops, mirror, top_view=None, loose=()):
        got.append((frame.copy(), [np.array(q) for q in quads], [c.copy() for c in crops], mirror, top_view,
                    tuple(loose)))
        return real(deck, frame, quads, crops, mirror, top_view, loose)

    cards.identify_and_refine = keep
    try:
        for seed in seeds:
            table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
            reader = next(r for r in gr.readers(game, calibrate(table.render(frame_seed=0), table.layout))
                          if isinstance(r, CardsAdapter))
            for fs in (0, 10, 20):
                reader.read(table.render(frame_seed=fs))
    finally:
        cards.identify_and_refine = real
    return got


def identify(version: tuple, a: tuple):
    """One version's (identify_and_refine, reusing_features, deck) identification of one captured frame ``a``."""
    fn, store, deck = version
    with store():
        return fn(deck, a[0], list(a[1]), list(a[2]), a[3], a[4], a[5])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="the other tree (its vision/ is read as vision_old)")
    ap.add_argument("--games", default="roll,race,among", help="comma-separated, from roll, race, among")
    ap.add_argument("--seeds", default="1,2,3", help="layout seeds, comma-separated")
    ap.add_argument("--rounds", type=int, default=6, help="rounds, each version identifying every frame once per round")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from bench.card_ident import load_vision

    load_vision(args.old.resolve(), "vision_old")
    import vision_old.card_features as old_features
    import vision_old.cards as old_cards
    import vision_old.deck as old_deck

    import vision.card_features as new_features
    import vision.cards as new_cards
    from bench.full_table import GameReaders
    from vision.deck import DeckProfile
    from vision.inference import InferenceConfig

    print(f"old: {Path(old_cards.__file__).parent}\nnew: {ROOT / 'vision'}; CPU time (process_time), "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="card_identify_ab_") as tmp:
        work = Path(tmp)
        gr = GameReaders(work / "readers", InferenceConfig())
        for game in [g.strip() for g in args.games.split(",") if g.strip()]:
            seeds = [int(s) for s in args.seeds.split(",")]
            frames = captured(gr, game, seeds)
            gr.deck(game).save(work / f"{game}.json")
            versions = {"old": (old_cards.identify_and_refine, old_features.reusing_features,
                                old_deck.DeckProfile.load(work / f"{game}.json")),
                        "new": (new_cards.identify_and_refine, new_features.reusing_features,
                                DeckProfile.load(work / f"{game}.json"))}

            for v in versions:       # caches and derived indexes: not timed
                for a in frames:
                    identify(versions[v], a)
            ms: dict[str, list[list[float]]] = {v: [[] for _ in frames] for v in versions}
            reads: dict[str, list] = {v: [] for v in versions}
            for rnd in range(max(1, args.rounds)):
                for v in (("old", "new") if rnd % 2 == 0 else ("new", "old")):
                    for i, a in enumerate(frames):
                        t0 = time.process_time()
                        out, quads, _ = identify(versions[v], a)
                        ms[v][i].append((time.process_time() - t0) * 1000.0)
                        if rnd == 0:
                            reads[v].append(([(r.card_id, r.turns, round(r.confidence, 4)) for r, _ in out],
                                             [np.asarray(q, np.float64) for q in quads]))
            alike = all(o[0] == n[0] and all(np.abs(p - q).max() <= 0.5 for p, q in zip(o[1], n[1], strict=True))
                        for o, n in zip(reads["old"], reads["new"], strict=True))
            old = [statistics.median(x) for x in ms["old"]]
            new = [statistics.median(x) for x in ms["new"]]
            print(f"== {game}: seeds {args.seeds}, {len(frames)} frames, {args.rounds} rounds; identification CPU ms "
                  f"(median of the rounds), frame by frame old -> new:")
            print("  " + ", ".join(f"{a:.1f} -> {b:.1f}" for a, b in zip(old, new, strict=True)))
            print(f"  sum {sum(old):.1f} -> {sum(new):.1f} ms; new / old, frame by frame: median "
                  f"{statistics.median([b / a for a, b in zip(old, new, strict=True)]):.3f}; "
                  f"every frame read alike: {alike}; load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
