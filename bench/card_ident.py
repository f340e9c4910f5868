"""Card identification alone: CPU ms per card for a new card and for a cold frame (issue 15: <= 1.5 ms a new card).

The crops are those a full-table read rectifies (:func:`vision.synth_full.full_table`, Roll for the Galaxy's 15
square tiles, Race for the Galaxy and Among the Stars, 40 cards each at 1280x720, seeded; decks enrolled from the
stand-in 'scans' as
``bench/full_table.py`` does). Timed with ``time.process_time`` (CPU time: the figure holds on a loaded machine),
single-threaded BLAS and OpenCV, the best of ``--rounds`` rounds:

* ``new card``: :meth:`vision.deck.DeckProfile.score_many` of one crop, each of the frame's crops in turn (what
  an incremental read costs when one card was played);
* ``cold frame``: ``score_many`` of all the frame's crops at once, per card;
* ``N at once`` (``--together``, default 4 and 10): ``score_many`` of the frame's crops N at a time, per card (what a
  read costs a card when N new cards are scored together: a few cards added between two reads);
* ``features``: :meth:`vision.deck.DeckProfile.turn_features` alone, per card.

``--stages``: a new card's CPU ms split into the steps of ``score_many`` of one crop (cards, not square tiles,
which are read by parity of turns first): ``features`` (its feature pass, both turns), ``coarse`` (every reference
at the centred shift, :meth:`~vision.deck.DeckProfile._coarse_many`), ``fine`` (the shortlist at every shift,
:meth:`~vision.deck.DeckProfile._fine_many`) and ``decide`` (best card and best other card,
:meth:`~vision.deck.DeckProfile._best_two`), each step timed over every crop on the previous step's output, and the
median number of (reference, turn) pairs the fine step searches. The steps timed one by one sum to less than
``new card`` (Race, one crop: 1.40-1.47 against 1.73-1.87 ms, 2026-12-05): each step timed over every crop in a
row finds its own tables, code and buffers in the caches, which a card going through every step before the next
does not. So the same steps are also timed ``in sequence``, card by card (:func:`sequence_ms`): their sum is the new
card's cost, split by step. The steps are also printed for the whole frame's crops scored at once (``cold
frame``), per card.

``--against DIR``: the same figures for the ``vision`` package of another checkout (e.g. a worktree of main),
loaded beside this one and timed interleaved round by round (their order swapped every round), with the share of
crops on which the two agree (card and turn), the largest difference of their distances and the median best distance
and margin of each. A checkout whose program does not read this one's deck format enrolls the same references with
its own program.

    python bench/card_ident.py
    python bench/card_ident.py --games race,among --stages
    git worktree add --detach /tmp/main-ref main && python bench/card_ident.py --against /tmp/main-ref
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded, as the figures say

import argparse
import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.full_table import GameReaders, read_all
from vision.deck import DeckProfile
from vision.inference import InferenceConfig
from vision.synth_full import full_table
from vision.synth_table import GAME_SHAPES, reference_images
from vision.table import calibrate

GAMES = ("roll", "race", "among")


def frame_crops(gr: GameReaders, game: str, seed: int) -> list[np.ndarray]:
    """The crops the cold read of one seeded full table identifies (the first ``score_many`` call's)."""
    calls: list[list[np.ndarray]] = []
    orig = DeckProfile.score_many

    def record(self, crops):
        if not calls:
            calls.append([c.copy() for c in crops])
        return orig(self, crops)

    table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
    frame = table.render(frame_seed=0)
    readers = gr.readers(game, calibrate(frame, table.layout))
    DeckProfile.score_many = record
    try:
        read_all(readers, frame)
    finally:
        DeckProfile.score_many = orig
    return calls[0] if calls else []


def load_vision(checkout: Path, name: str = "vision_against"):
    """The ``vision`` package of another checkout, imported as ``name`` (its modules import each other
    relatively); returns its ``deck`` module."""
    pkg = checkout / "vision"
    spec = importlib.util.spec_from_file_location(name, pkg / "__init__.py", submodule_search_locations=[str(pkg)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"{checkout}: no vision package")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return importlib.import_module(f"{name}.deck")


def against_deck(other, path: Path, game: str, ids: list[str]):
    """The other checkout's deck: the profile file ``path`` read by its program, or, when that program does not
    read this format (another deck format version), the same references enrolled by its own program."""
    pkg = other.__name__.rsplit(".", 1)[0]
    # the deck's file errors are vision.deck_file's, or vision.deck's in older trees
    deck_error = getattr(other, "DeckError", None) or importlib.import_module(f"{pkg}.deck_file").DeckError
    try:
        return other.DeckProfile.load(path)
    except deck_error:  # enrollment is vision.deck_enroll, or vision.deck in older trees
        build = getattr(other, "build_deck_from_images", None) or importlib.import_module(
            f"{pkg}.deck_enroll").build_deck_from_images
        return build(reference_images(ids, GAME_SHAPES[game], seed=7), name=game, kind="scan",
                     card_mm=GAME_SHAPES[game])


def cpu_ms(fn, n: int) -> float:
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) * 1000.0 / max(n, 1)


STAGES = ("features", "coarse", "fine", "decide")


def stage_ms(deck, crops: list[np.ndarray], together: int = 1) -> tuple[dict[str, float], float] | None:
    """(CPU ms per crop of each of :data:`STAGES` of scoring the crops ``together`` at a time (1: each alone), median
    pairs the fine step searches per crop) of a card deck (None for a deck read at one parity of turns first: square
    tiles)."""
    tried = deck.turns_to_try()
    if len(tried) == 4 and deck.config.parity_alone > 0:
        return None
    n = len(crops)
    groups = [crops[i:i + together] for i in range(0, n, together)]
    feats = [deck.turn_features_many(g, tried) for g in groups]
    coarse = [deck._coarse_many(f, tried=tried) for f in feats]
    pairs: list[int] = []
    search = deck.search()
    plain = search.fine_ncc_many

    def counted(queries, *a, **k):
        pairs.extend(len(q[1]) for q in queries)
        return plain(queries, *a, **k)

    search.fine_ncc_many = counted          # on this instance only: the deck's own search, counted
    try:
        dists = [deck._fine_many([(D.copy(), h) for D, h in co], f, tried) for co, f in zip(coarse, feats, strict=True)]
    finally:
        del search.fine_ncc_many
    # the best two cards of a group at once where the checkout can (older ones decide card by card)
    decide = getattr(deck, "_best_two_many", None) or (lambda Ds: [deck._best_two(D) for D in Ds])
    ms = {"features": cpu_ms(lambda: [deck.turn_features_many(g, tried) for g in groups], n),
          "coarse": cpu_ms(lambda: [deck._coarse_many(f, tried=tried) for f in feats], n),
          "fine": cpu_ms(lambda: [deck._fine_many([(D.copy(), h) for D, h in co], f, tried)
                                  for co, f in zip(coarse, feats, strict=True)], n),
          "decide": cpu_ms(lambda: [decide(Ds) for Ds in dists], n)}
    return ms, float(np.median(pairs)) if pairs else 0.0


def sequence_ms(deck, crops: list[np.ndarray]) -> dict[str, float] | None:
    """CPU ms per crop of each of :data:`STAGES` when each crop goes through every step before the next crop is
    begun (what a new card alone costs, split: each step reads what the steps before it left in the caches), or None
    for a deck read at one parity of turns first (square tiles). :func:`stage_ms` times each step over every crop
    in a row instead (each step then finds its own data, tables and code still in the caches)."""
    tried = deck.turns_to_try()
    if len(tried) == 4 and deck.config.parity_alone > 0:
        return None
    decide = getattr(deck, "_best_two_many", None) or (lambda Ds: [deck._best_two(D) for D in Ds])
    clock = time.process_time
    total = dict.fromkeys(STAGES, 0.0)
    for crop in crops:
        t0 = clock()
        feats = deck.turn_features_many([crop], tried)
        t1 = clock()
        coarse = deck._coarse_many(feats, tried=tried)
        t2 = clock()
        dists = deck._fine_many(coarse, feats, tried)
        t3 = clock()
        decide(dists)
        t4 = clock()
        for step, dt in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            total[step] += dt
    return {step: v * 1000.0 / max(len(crops), 1) for step, v in total.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seed", type=int, default=1, help="layout seed of the full tables")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout whose vision package is timed alongside")
    ap.add_argument("--stages", action="store_true", help="also split a new card's CPU time into its steps")
    ap.add_argument("--together", default="4,10",
                    help="comma-separated numbers of new cards scored at once (each a figure per card; '' for none)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    together = [int(v) for v in args.together.split(",") if v.strip()]
    other = load_vision(args.against.resolve()) if args.against else None
    work = tempfile.TemporaryDirectory(prefix="card_ident_")   # the enrollments, removed when the bench ends
    gr = GameReaders(Path(work.name), InferenceConfig("auto", 1))
    print(f"CPU ms per card (process_time, best of {args.rounds} rounds); load average {os.getloadavg()[0]:.1f}")
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        deck = gr.deck(game)
        crops = frame_crops(gr, game, args.seed)
        decks = {"this": deck}
        if other is not None:
            with tempfile.TemporaryDirectory() as tmp:   # the same profile file, read by each program
                path = deck.save(Path(tmp) / f"{game}.npz")
                decks = {"this": DeckProfile.load(path), "against": against_deck(other, path, game, gr.ids[game])}
        for d in decks.values():
            d.score_many(crops[:2])                      # caches and derived indexes, not timed
        n = len(crops)
        sizes = [m for m in together if 1 < m < n]
        res: dict[tuple[str, object], list[float]] = {(k, m): [] for k in decks
                                                      for m in ("new", "cold", "feat", *sizes)}
        steps: dict[tuple[str, str], list[tuple[dict[str, float], float] | None]] = {
            (k, m): [] for k in decks for m in ("new", "cold")}
        in_seq: dict[str, list[dict[str, float] | None]] = {k: [] for k in decks}
        for rnd in range(args.rounds):
            # the versions' order swapped from one round to the next (the one timed second reads warmer caches)
            for k, d in (list(decks.items()) if rnd % 2 == 0 else list(decks.items())[::-1]):
                res[(k, "new")].append(cpu_ms(lambda d=d, crops=crops: [d.score_many([c]) for c in crops], n))
                res[(k, "cold")].append(cpu_ms(lambda d=d, crops=crops: d.score_many(crops), n))
                for m in sizes:   # the frame's crops m at a time (the last group may be smaller)
                    res[(k, m)].append(cpu_ms(lambda d=d, m=m, crops=crops: [d.score_many(crops[i:i + m])
                                                                            for i in range(0, len(crops), m)], n))
                res[(k, "feat")].append(cpu_ms(lambda d=d, crops=crops: [d.turn_features(c) for c in crops], n))
                if args.stages:
                    steps[(k, "new")].append(stage_ms(d, crops))
                    steps[(k, "cold")].append(stage_ms(d, crops, n))
                    in_seq[k].append(sequence_ms(d, crops))
        print(f"== {game}: {n} crops, {len(deck.ref_ids)} references")
        for k in decks:
            print(f"  {k:8s} new card {min(res[(k, 'new')]):.2f} ms, "
                  + "".join(f"{m} at once {min(res[(k, m)]):.2f} ms a card, " for m in sizes)
                  + f"cold frame {min(res[(k, 'cold')]):.2f} ms a card, features {min(res[(k, 'feat')]):.2f} ms")
            for m, what in (("new", "a new card's"), ("cold", "a cold frame's")):
                got = steps[(k, m)]
                if args.stages and got and got[0] is None:
                    print(f"           {what} steps: not split (square tiles are read by parity of turns first)")
                elif args.stages:
                    best = {s: min(r[0][s] for r in got) for s in STAGES}   # type: ignore[index]
                    print(f"           {what} steps (ms a card): " + ", ".join(f"{s} {best[s]:.2f}" for s in STAGES)
                          + f" (sum {sum(best.values()):.2f}); pairs searched at every shift, median "
                          f"{got[0][1]:.0f}")   # type: ignore[index]
                if args.stages and m == "new" and in_seq[k] and in_seq[k][0] is not None:
                    best = {s: min(r[s] for r in in_seq[k]) for s in STAGES}   # type: ignore[index]
                    print("           a new card's steps in sequence, card by card (ms a card): "
                          + ", ".join(f"{s} {best[s]:.2f}" for s in STAGES) + f" (sum {sum(best.values()):.2f})")
        if other is not None:
            a, b = decks["this"].score_many(crops), decks["against"].score_many(crops)
            same = sum(x[0] == y[0] and x[3] == y[3] for x, y in zip(a, b, strict=True))
            dmax = max(max(abs(x[1] - y[1]), abs(x[2] - y[2])) for x, y in zip(a, b, strict=True))
            print(f"  card and turn agree on {same}/{n}; largest distance difference {dmax:.2g}; median best "
                  f"distance {np.median([x[1] for x in a]):.3f} (this) {np.median([y[1] for y in b]):.3f} (against), "
                  f"median margin {np.median([x[2] - x[1] for x in a]):.3f} {np.median([y[2] - y[1] for y in b]):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
