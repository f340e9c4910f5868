"""Where a table read's identify stage spends its CPU time, tile by tile: the first look at every card, and what the
weak cards cost beyond it (issue 15: a new card identified in <= 1.5 ms).

The identify stage of :func:`vision.cards.read_cards` (:func:`vision.cards.identify_and_refine`) reads every card of
a frame together (the first look, :func:`vision.cards._frame_scores`), then gives the weakly read cards a second look
(:func:`vision.card_match.refine_identifications`). A card that reads well costs its share of the first look only; a
weak card also costs, in the first look, its read at the other parity of turns and at every turn (square tiles,
:meth:`vision.deck.DeckProfile._distances_by_parity`), and in the second look its card-sized place
(``card_match._resized``), its centring (:func:`vision.card_centre.centred_many`, of which the centring shifts
:func:`vision.card_centre.matched_shifts`), its edge fit (:func:`vision.card_edges.edge_fitted`), its outlines from
the edges and the deck's search of the places around it (``card_match._best_outline``, ``card_match._search_place``)
and the evened light (:func:`vision.card_light.evened_scores`).

Scenes: :func:`vision.synth_full.full_table` at 1280x720, layout seeds ``--seeds``, frame seeds 0, 10, 20, read by
this tree's card reader as ``bench/card_table_ab.py`` reads them (calibrated from the table's corner markers, or with
``--no-calibration`` as ``companion read`` reads an image). Each frame is read once untimed, then ``--rounds`` times.
CPU time of the reading thread (``time.thread_time``), each step's own wrapper; the identify stage as the reader
times it, with its clock swapped for the same CPU clock.

Printed per game and frame (medians over the rounds, ms): identify; the first look; of it, the reads at every turn;
each step of the second look; the cards, those read weakly by the first look (a card whose first read
:func:`vision.card_match.refine_identifications` would look at again: not in the deck, or below ``weak_conf`` and
farther than ``weak_distance`` x the deck's threshold; with no card size known, not a place read beyond the deck's
absolute bar, :func:`vision.card_match.no_card_here`, where the tree has it) and those read at every turn. Then per
game: identify per card, the first look per card, and identify less what the weak cards cost beyond the first look
(the reads at every turn, the second look) per card read well, and that extra per weak card.

    python bench/identify_split.py --games roll --seeds 1,102,108 --rounds 5
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import statistics
import sys
import tempfile
import time
import types
from collections import defaultdict
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STEPS = ("first_look", "every_turn", "resized", "centring", "centring_shifts", "edge_fit", "outlines",
         "deck_search", "evened")
"""The steps timed, in the order printed (see the module's docstring)."""


INSIDE = {"identify": True, "first_look": False}
"""Whether the reader is in its identify stage (the steps are timed only there: the same steps also read a row's
pieces in the ``rows`` stage with no calibration) and in the first look (set by :func:`instrument`)."""


def timed(spent: dict[str, float], key: str, fn):
    """``fn`` wrapped: each call's CPU ms of this thread added to ``spent[key]`` while :data:`INSIDE` says the identify
    stage (a call inside another call of the same key is counted once)."""
    depth = [0]

    def call(*args, **kwargs):
        depth[0] += 1
        t0 = time.thread_time()
        try:
            return fn(*args, **kwargs)
        finally:
            depth[0] -= 1
            if depth[0] == 0 and INSIDE["identify"]:
                spent[key] += (time.thread_time() - t0) * 1000.0

    return call


def instrument(spent: dict[str, float], counts: dict[str, int]) -> None:
    """Wrap the identify stage's steps of this tree's ``vision`` (module attributes, as each caller looks them up)
    so that their CPU ms go to ``spent`` and the weak cards and reads at every turn are counted in ``counts``."""
    import vision.card_centre as card_centre
    import vision.card_match as card_match
    import vision.cards as cards
    import vision.deck as deck

    stage = cards.timed_stage

    def in_stage(timings, name, fn, *args, **kwargs):
        INSIDE["identify"] = name == "identify"
        try:
            return stage(timings, name, fn, *args, **kwargs)
        finally:
            INSIDE["identify"] = True

    cards.timed_stage = in_stage
    first = timed(spent, "first_look", cards._frame_scores)

    def first_look(*args, **kwargs):
        INSIDE["first_look"] = True
        try:
            return first(*args, **kwargs)
        finally:
            INSIDE["first_look"] = False

    cards._frame_scores = first_look
    at = deck.DeckProfile._distances_at
    at_timed = timed(spent, "every_turn", at)

    def every(self, tried, feats):
        # a square tile no parity of turns read closely, in the first look (a card deck reads every card so)
        if not (INSIDE["first_look"] and len(tried) == 4):
            return at(self, tried, feats)
        if INSIDE["identify"]:
            counts["every_turn"] += len(feats)
        return at_timed(self, tried, feats)

    deck.DeckProfile._distances_at = every
    refine = cards.refine_identifications

    def refine_counted(deck_, frame, quads, crops, scores, mirrored, cfg=None, view=None, loose=()):
        if not INSIDE["identify"]:
            return refine(deck_, frame, quads, crops, scores, mirrored, cfg, view, loose)
        c = cfg or card_match.RefineConfig()
        far = c.weak_distance * deck_.config.unknown_distance
        # a place read beyond the deck's absolute bar with no card size known gets no second look (where the tree has
        # that decision: card_match.no_card_here)
        no_card = getattr(card_match, "no_card_here", lambda *a: False)
        for r in deck_.decide_frame(scores):
            counts["weak"] += not (r.card_id is not None and (r.confidence >= c.weak_conf or r.distance <= far)
                                   or no_card(deck_, r.distance, view, c))
        counts["cards"] += len(scores)
        return refine(deck_, frame, quads, crops, scores, mirrored, cfg, view, loose)

    cards.refine_identifications = refine_counted
    card_match._resized = timed(spent, "resized", card_match._resized)
    card_match.centred_many = timed(spent, "centring", card_match.centred_many)
    card_match.centred = timed(spent, "centring", card_match.centred)
    card_centre.matched_shifts = timed(spent, "centring_shifts", card_centre.matched_shifts)
    card_match.edge_fitted = timed(spent, "edge_fit", card_match.edge_fitted)
    card_match._best_outline = timed(spent, "outlines", card_match._best_outline)
    card_match.candidate_quads = timed(spent, "outlines", card_match.candidate_quads)
    card_match._search_place = timed(spent, "deck_search", card_match._search_place)
    cards.evened_scores = timed(spent, "evened", cards.evened_scores)


def card_costs(ms: dict[str, float], cards: int, weak: int) -> tuple[float, float, float, float | None]:
    """(identify per card, the first look per card, identify less the weak cards' extra per card, that extra per weak
    card or None when no card was weak) of one frame's step medians ``ms`` (CPU ms: ``identify``, ``first_look``,
    ``every_turn``) with ``cards`` cards (> 0), ``weak`` of them read weakly by the first look. The weak cards' extra is
    what the identify stage spends after the first look (the second look, the evened light, the frame's decision) and
    the first look's reads at every turn (only tiles no parity of turns reads closely get one)."""
    extra = ms["identify"] - ms["first_look"] + ms["every_turn"]
    return (ms["identify"] / cards, ms["first_look"] / cards, (ms["identify"] - extra) / cards,
            extra / weak if weak else None)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="roll", help="comma-separated, from race, among, roll (its tiles)")
    ap.add_argument("--seeds", default="1,102,108", help="layout seeds, comma-separated")
    ap.add_argument("--rounds", type=int, default=5, help="timed reads of every frame")
    ap.add_argument("--no-calibration", action="store_true",
                    help="read every table as `companion read` does with no calibration")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision.timing

    vision.timing.time = types.SimpleNamespace(perf_counter=time.thread_time)   # the stages in CPU ms of this thread
    spent: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    instrument(spent, counts)

    from bench.full_table import GameReaders
    from vision.inference import InferenceConfig
    from vision.readers import CardsAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate

    print(f"tree: {ROOT}; CPU ms of the reading thread, medians over {args.rounds} rounds; load average "
          f"{os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="identify_split_") as tmp:
        gr = GameReaders(Path(tmp) / "readers", InferenceConfig())
        for game in [g.strip() for g in args.games.split(",") if g.strip()]:
            print(f"== {game} ({'no calibration' if args.no_calibration else 'calibrated'})")
            print("  frame    identify  first (every turn)  " + "  ".join(s for s in STEPS[2:])
                  + "   cards weak every")
            per_card, first_card, good_card, weak_extra = [], [], [], []
            for seed in (int(s) for s in args.seeds.split(",")):
                table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
                frames = [table.render(frame_seed=f) for f in (0, 10, 20)]
                cal = None if args.no_calibration else calibrate(frames[0], table.layout)
                reader = next(r for r in gr.readers(game, cal) if isinstance(r, CardsAdapter))
                reader.read(frames[0])   # caches and the table's colours: not timed
                for fs, frame in zip((0, 10, 20), frames, strict=True):
                    got: dict[str, list[float]] = defaultdict(list)
                    for _ in range(max(1, args.rounds)):
                        spent.clear()
                        counts.clear()
                        read = reader.read(frame)
                        got["identify"].append(read.timings_ms.get("identify", 0.0))
                        for k in STEPS:
                            got[k].append(spent.get(k, 0.0))
                    m = {k: statistics.median(v) for k, v in got.items()}
                    n, weak, every = counts["cards"], counts["weak"], counts["every_turn"]
                    print(f"  {seed:>3}/{fs:<2} {m['identify']:8.1f}  {m['first_look']:5.1f} ({m['every_turn']:4.1f})"
                          + "".join(f"  {m[s]:{len(s)}.1f}" for s in STEPS[2:]) + f"   {n:5d} {weak:4d} {every:5d}")
                    if not n:
                        continue
                    a, b, c, d = card_costs(m, n, weak)
                    per_card.append(a)
                    first_card.append(b)
                    good_card.append(c)
                    if d is not None:
                        weak_extra.append(d)
            if per_card:
                good = statistics.median(good_card)
                print(f"  identify {statistics.median(per_card):.2f} ms a card (median of the frames), the first look "
                      f"{statistics.median(first_card):.2f}; without the weak cards' extra {good:.2f}"
                      + (f"; a weak card's extra {statistics.median(weak_extra):.2f} ms" if weak_extra else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
