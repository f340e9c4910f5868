"""Two versions of the card reader side by side in one process: the cold read of Race for the Galaxy's and Among the
Stars' whole tables (as ``bench/full_table.py`` reads them) by CPU time, interleaved, against the baseline's CPU time.

Usage::

    git worktree add --detach /tmp/old-tree main
    python bench/card_table_ab.py --old /tmp/old-tree --games race,among --seeds 1,2,3 --rounds 2

On a machine other processes load, wall time swings by tens of percent from one run to the next (the baseline's
own decode with it); CPU time (``time.process_time``) of two versions read alternately in one process does not
count the other processes' turns. The other tree's ``vision`` package is imported as ``vision_old`` (its modules
import each other relatively); each version reads with its own card adapter, deck (the same enrolled profile,
loaded by each version's program) and calibration (each version's ``calibrate`` on the same frame). Scenes:
:func:`vision.synth_full.full_table` at 1280x720 (4 tableaux or stations, 40 cards), layout seeds ``--seeds``,
frame seeds 0, 10, 20 (fresh sensor noise); each reader reads its table once untimed first (caches and the
table's colours, as ``bench/card_stages.py``), then every frame once per round, the two versions' order swapped
from one round to the next.

Printed: the CPU ms of the baseline (a JPEG q95 ``imread`` + ``cvtColor`` of each frame, best of 5, median over the
frames), and per game and version the median CPU ms of the cold read and its ratio to the baseline, with the
largest stage medians (CPU ms of the reading thread, ``time.thread_time``); per game whether the two versions read
every frame the same (a SHA-256 of every card read to the last bit, as ``bench/card_stages.py``; when they differ, how:
cards paired by place, their ids, turns, the largest corner distance and confidence difference; then the same of the
cards each names apart from the places each reads 'not in the deck', whose corners follow no card's turn, with how far
apart the centres of those places are; then every card whose read differs beyond ``--corner-tol`` px of its corners or
``--conf-tol`` of its confidence, or whose id or standing against the scene's labels (right, '?', named wrong)
changed), and what each
found and identified against the scenes' labels; and the median of each frame's new over old CPU time (the same
frame, the same round) and the sum of the second look's stage medians (``loose_*``) of each. With ``--per-frame``,
also one line per frame (layout seed/frame seed): each version's CPU ms (median over the rounds) and its ratio to the
baseline, the cards each read, and the new version's stages of that frame: which layouts cost most, and in what.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import dataclasses
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
from bench.identify_changes import parse_seeds  # noqa: E402
from bench.roll_table_ab import jpeg_cpu_ms  # noqa: E402


def card_digest(cards) -> str:
    """SHA-256 (first 16 hex digits) of every card read: id, rotation, confidence, row, column, cell, zone and
    corners to the last bit."""
    h = hashlib.sha256()
    for c in cards:
        h.update(repr((c.id, float(c.rotation_deg), float(c.confidence), c.row, c.col, c.cell, c.zone)).encode())
        h.update(np.asarray(c.corners, np.float64).tobytes())
    return h.hexdigest()[:16]


SURE = 0.6
"""The camera's bar (``companion.camera.flow``'s ``min_confidence``): a card identified below it is never built on."""


def wrong_names(table, cards) -> dict[str, int]:
    """Cards named (an id) that are not the card under their centre (another card's id, or no card there), all and
    at or above :data:`SURE`; and the cards read below :data:`SURE` or with no id (``unsure``). ``cards``: the
    reader's card observations (``id``, ``confidence``, ``center_px``)."""
    from bench.full_table import _inside

    polys = table_labels(table)
    out = {"named_wrong": 0, "sure_wrong": 0, "unsure": 0}
    for c in cards:
        if c.id is None or float(c.confidence) < SURE:
            out["unsure"] += 1
        if c.id is None:
            continue
        under = next((pid for pid, q in polys if _inside(q, c.center_px)), None)
        if under != c.id:
            out["named_wrong"] += 1
            out["sure_wrong"] += int(float(c.confidence) >= SURE)
    return out


def calibrations(none: bool, frame, layout, new_calibrate, old_calibrate) -> tuple:
    """(new, old) calibration of the table in ``frame`` from its corner markers (``layout``), each version's own
    ``calibrate``; (None, None) when ``none`` (``--no-calibration``: read as ``companion read`` reads an image with
    no calibration)."""
    if none:
        return None, None
    return new_calibrate(frame, layout), old_calibrate(frame, layout)


def compare_reads(old: list, new: list) -> dict[str, float]:
    """How two reads of the same frames differ, card by card (each old card paired with the new card whose centre is
    nearest): per frame lists of cards (``id``, ``rotation_deg``, ``confidence``, ``corners`` float[4, 2] px).
    Returns {cards, unpaired (cards of either read with no card of the other at the same place, or counts that
    differ), ids (pairs of different ids), turns (pairs read at another quarter turn: rotations more than 45 degrees
    apart), corner_px (the largest distance of a corner to its pair's), conf (the largest confidence difference),
    higher, lower (pairs of the same id whose new confidence is higher, lower), drop (the largest fall of a pair's
    confidence, 0 when none fell)}."""
    out = {"cards": 0, "unpaired": 0, "ids": 0, "turns": 0, "corner_px": 0.0, "conf": 0.0, "higher": 0, "lower": 0,
           "drop": 0.0}
    for a, b in zip(old, new, strict=True):
        out["cards"] += len(a)
        out["unpaired"] += abs(len(a) - len(b))
        if not a or not b:
            continue
        cb = np.array([np.asarray(c.corners, np.float64).mean(axis=0) for c in b])
        for c in a:
            corners = np.asarray(c.corners, np.float64)
            j = int(np.argmin(np.linalg.norm(cb - corners.mean(axis=0), axis=1)))
            d = b[j]
            err = float(np.linalg.norm(np.asarray(d.corners, np.float64) - corners, axis=1).max())
            if err > 0.25 * float(np.linalg.norm(corners[1] - corners[0])):
                out["unpaired"] += 1
                continue
            out["ids"] += c.id != d.id
            out["turns"] += abs((float(c.rotation_deg) - float(d.rotation_deg) + 180.0) % 360.0 - 180.0) > 45.0
            out["corner_px"] = max(out["corner_px"], err)
            out["conf"] = max(out["conf"], abs(float(c.confidence) - float(d.confidence)))
            if c.id == d.id:
                out["higher"] += float(d.confidence) > float(c.confidence)
                out["lower"] += float(d.confidence) < float(c.confidence)
                out["drop"] = max(out["drop"], float(c.confidence) - float(d.confidence))
    return out


def split_reads(old: list, new: list) -> tuple[dict[str, float], dict[str, float]]:
    """:func:`compare_reads` of the cards each read names (an id) and, apart, of the places each reads 'not in the
    deck' (id None): per frame lists of cards as there. A place not in the deck has no card's turn, so its corners
    follow the turn of whichever card it looked most like; for those the largest distance between the centres of
    paired places is added (``centre_px``: each old place paired with the new place whose centre is nearest)."""
    named = compare_reads([[c for c in a if c.id is not None] for a in old],
                          [[c for c in b if c.id is not None] for b in new])
    a_none = [[c for c in a if c.id is None] for a in old]
    b_none = [[c for c in b if c.id is None] for b in new]
    unknown = compare_reads(a_none, b_none)
    unknown["centre_px"] = 0.0
    for a, b in zip(a_none, b_none, strict=True):
        if not a or not b:
            continue
        cb = np.array([np.asarray(c.corners, np.float64).mean(axis=0) for c in b])
        for c in a:
            d = np.linalg.norm(cb - np.asarray(c.corners, np.float64).mean(axis=0), axis=1)
            unknown["centre_px"] = max(unknown["centre_px"], float(d.min()))
    return named, unknown


def card_status(labels: list[tuple[str, np.ndarray]], card) -> str:
    """How a card read stands against the scene's labels ``labels`` ((piece id, its outline float[k, 2] px) of every
    card piece): ``"?"`` (no id: 'not in the deck'), ``"right"`` (the id of the piece under its centre) or ``"wrong"``
    (another piece's id, or no piece there)."""
    from bench.full_table import _inside

    if card.id is None:
        return "?"
    centre = np.asarray(card.corners, np.float64).mean(axis=0)
    under = next((pid for pid, q in labels if _inside(q, centre)), None)
    return "right" if under == card.id else "wrong"


def _corner_gap(a, b) -> float:
    """px: the largest distance between the corners of two reads of one place, corner by corner for a card named by
    both (its corners follow its turn); for a place either reads 'not in the deck' (corners in the turn of whichever
    card it looked most like) the least over the 4 turns of the other's corners."""
    ca, cb = np.asarray(a.corners, np.float64), np.asarray(b.corners, np.float64)
    rolls = (0,) if a.id is not None and b.id is not None else range(4)
    return min(float(np.linalg.norm(np.roll(cb, r, axis=0) - ca, axis=1).max()) for r in rolls)


def read_changes(old: list, new: list, labels: list[list[tuple[str, np.ndarray]]], corner_px: float = 0.25,
                 conf: float = 0.01) -> tuple[int, list[str]]:
    """(cards compared, one line per difference) between two reads of the same frames: per frame lists of cards
    (``id``, ``confidence``, ``corners`` float[4, 2] px), ``labels`` each frame's (piece id, outline) of
    :func:`card_status`. Each old card is paired with the new card whose centre is nearest, within a quarter of its
    short side; a difference is a card of either read with no pair, or a pair whose ids or :func:`card_status`
    differ, whose corners lie more than ``corner_px`` apart (:func:`_corner_gap`) or whose confidences differ by more
    than ``conf``."""
    lines: list[str] = []
    total = 0
    for i, (a, b, lab) in enumerate(zip(old, new, labels, strict=True)):
        total += len(a)
        centres = np.array([np.asarray(c.corners, np.float64).mean(axis=0) for c in b]).reshape(-1, 2)
        paired: set[int] = set()
        for c in a:
            corners = np.asarray(c.corners, np.float64)
            centre = corners.mean(axis=0)
            short = min(float(np.linalg.norm(corners[1] - corners[0])), float(np.linalg.norm(corners[2] - corners[1])))
            where = f"frame {i} card at ({centre[0]:.0f}, {centre[1]:.0f})"
            gaps = np.linalg.norm(centres - centre, axis=1) if len(b) else np.array([])
            j = int(np.argmin(gaps)) if len(gaps) else -1
            if j < 0 or gaps[j] > 0.25 * short or j in paired:
                lines.append(f"{where}: {c.id} ({card_status(lab, c)}) has no new card at its place")
                continue
            paired.add(j)
            d = b[j]
            sa, sb = card_status(lab, c), card_status(lab, d)
            gap, dc = _corner_gap(c, d), abs(float(d.confidence) - float(c.confidence))
            if c.id != d.id or sa != sb or gap > corner_px or dc > conf:
                lines.append(f"{where}: {c.id} ({sa}, {float(c.confidence):.4f}) -> {d.id} ({sb}, "
                             f"{float(d.confidence):.4f}), corners {gap:.3f} px apart")
        lines.extend(f"frame {i} card at ({centres[j][0]:.0f}, {centres[j][1]:.0f}): {d.id} "
                     f"({card_status(lab, d)}) only in the new read" for j, d in enumerate(b) if j not in paired)
    return total, lines


def table_labels(table) -> list[tuple[str, np.ndarray]]:
    """(piece id, outline float[k, 2] px) of every card or tile piece of a :func:`vision.synth_full.full_table`
    scene (its dice left out)."""
    return [(p.id, table.polygon_px(p)) for p in table.pieces if p.kind != "die"]


def print_per_frame(seeds: list[int], per_cpu: dict, per_stages: dict, cards: dict, base_ms: float) -> None:
    """Print one line per frame, in reading order (layout seeds of ``seeds``, frame seeds 0, 10, 20 each): each
    version's median CPU ms over the rounds and its ratio to ``base_ms`` (the baseline's median CPU ms), the number
    of cards each read, and the new version's stages of its first-round read that take 0.5 ms or more (CPU ms of the
    reading thread), largest first. ``per_cpu[v][i]``: list of ms; ``per_stages[v][i]``: {stage: ms};
    ``cards[v][i]``: the cards read."""
    labels = [(s, f) for s in seeds for f in (0, 10, 20)]
    print("  per frame (layout seed/frame seed: old ms = x baseline, new ms = x baseline, cards old/new; "
          "new stages ms)")
    for i, (seed, fs) in enumerate(labels):
        o, n = statistics.median(per_cpu["old"][i]), statistics.median(per_cpu["new"][i])
        top = sorted(per_stages["new"][i].items(), key=lambda kv: -kv[1])
        print(f"    {seed:>3}/{fs:<2} old {o:6.1f} = {o / base_ms:5.1f}x  new {n:6.1f} = {n / base_ms:5.1f}x  "
              f"cards {len(cards['old'][i])}/{len(cards['new'][i])}; "
              + ", ".join(f"{k} {x:.1f}" for k, x in top if x >= 0.5))


def print_differences(cards: dict[str, list], labels: list[list[tuple[str, np.ndarray]]], corner_tol: float,
                      conf_tol: float) -> None:
    """Print how the two versions' reads (``cards[v]``: per frame the cards read) differ: :func:`compare_reads`,
    :func:`split_reads`, then every card :func:`read_changes` finds beyond the tolerances (``labels``: each frame's
    :func:`table_labels`)."""
    d = compare_reads(cards["old"], cards["new"])
    print(f"  reads: {d['cards']} cards, unpaired {d['unpaired']}, other ids {d['ids']}, other turns "
          f"{d['turns']}, corners within {d['corner_px']:.3f} px, confidences within {d['conf']:.4f} "
          f"(same id: higher {d['higher']}, lower {d['lower']}, the largest fall {d['drop']:.4f})")
    named, unknown = split_reads(cards["old"], cards["new"])
    print(f"    of them named: {named['cards']} cards, unpaired {named['unpaired']}, other ids "
          f"{named['ids']}, other turns {named['turns']}, corners within {named['corner_px']:.3f} px; "
          f"read 'not in the deck': {unknown['cards']} places, unpaired {unknown['unpaired']}, "
          f"centres within {unknown['centre_px']:.3f} px")
    total, changed = read_changes(cards["old"], cards["new"], labels, corner_tol, conf_tol)
    print(f"  reads within tolerances (the same id and right/?/wrong, corners within {corner_tol} px, "
          f"confidences within {conf_tol}): {'ALL' if not changed else 'NOT ALL'} of {total} cards; "
          f"{len(changed)} differences" + (":" if changed else ""))
    for line in changed:
        print(f"    {line}")


def arguments(argv: list[str] | None) -> tuple[argparse.Namespace, list[int]]:
    """The command line and its layout seeds (``--seeds``: a list and ranges, :func:`parse_seeds`); a malformed seed
    list ends the run with a usage error naming it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="the other tree (its vision/ is read as vision_old)")
    ap.add_argument("--games", default="race,among", help="comma-separated, from race, among, roll (its tiles)")
    ap.add_argument("--seeds", default="1,2,3", help="layout seeds, comma-separated, ranges as a..b (100..109)")
    ap.add_argument("--rounds", type=int, default=2, help="rounds, each version reading every frame once per round")
    ap.add_argument("--per-frame", action="store_true",
                    help="also list every frame (layout seed, frame seed): each version's CPU ms and ratio to the "
                         "baseline (median over rounds), the cards read and the new version's largest stages")
    ap.add_argument("--no-calibration", action="store_true",
                    help="read every table as `companion read` does with no calibration (pixels, the card size "
                         "from the frame); the table's corner markers stay in view")
    ap.add_argument("--corner-tol", type=float, default=0.25,
                    help="px: when the digests differ, list every card whose corners moved more than this (or whose "
                         "id, right/?/wrong or confidence changed)")
    ap.add_argument("--conf-tol", type=float, default=0.01, help="confidences that differ by more than this are listed")
    args = ap.parse_args(argv)
    try:
        seeds = parse_seeds(args.seeds)
    except ValueError as e:
        ap.error(f"--seeds: {e}")
    return args, seeds


def main(argv: list[str] | None = None) -> int:
    args, seeds = arguments(argv)
    cv2.setNumThreads(1)
    load_vision(args.old.resolve(), "vision_old")
    import vision_old.cards as old_cards
    import vision_old.deck as old_deck
    import vision_old.readers as old_readers
    import vision_old.table as old_table
    import vision_old.timing as old_timing

    import vision.timing
    for timing in (vision.timing, old_timing):   # stages in CPU ms of the reading thread (this bench)
        timing.time = types.SimpleNamespace(perf_counter=time.thread_time)

    from bench.full_table import GameReaders, TableRead, what_was_read
    from vision.inference import InferenceConfig
    from vision.readers import CardsAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate

    print(f"old: {Path(old_cards.__file__).parent}\nnew: {ROOT / 'vision'}; CPU time (process_time), "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="card_table_ab_") as tmp:
        work = Path(tmp)
        gr = GameReaders(work / "readers", InferenceConfig())
        for game in [g.strip() for g in args.games.split(",") if g.strip()]:
            gr.deck(game).save(work / f"{game}.json")
            olddeck = old_deck.DeckProfile.load(work / f"{game}.json")
            tables = []
            for seed in seeds:
                table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
                first = table.render(frame_seed=0)
                cal, old_cal = calibrations(args.no_calibration, first, table.layout, calibrate, old_table.calibrate)
                new = next(r for r in gr.readers(game, cal) if isinstance(r, CardsAdapter))
                # the same thresholds, where the other version has them
                known = {f.name for f in dataclasses.fields(old_cards.CardsConfig)}
                old = old_readers.CardsAdapter(olddeck, old_cal,
                                               config=old_cards.CardsConfig(**{k: v for k, v in vars(new.config).items()
                                                                               if k in known}))
                frames = [table.render(frame_seed=f) for f in (0, 10, 20)]
                for r in (old, new):
                    r.read(frames[0])   # caches, derived indexes and the table's colours: not timed
                tables.append((table, {"old": old, "new": new}, frames))
            base = [jpeg_cpu_ms(f, work) for _, _, frames in tables for f in frames]
            cpu: dict[str, list[float]] = defaultdict(list)
            stages: dict[str, dict[str, list[float]]] = {v: defaultdict(list) for v in ("old", "new")}
            digest = {v: hashlib.sha256() for v in ("old", "new")}
            found: dict[str, dict[str, int]] = {v: defaultdict(int) for v in ("old", "new")}
            cards: dict[str, list] = {"old": [], "new": []}
            # per frame (index in reading order): each version's CPU ms per round and its stage ms of the first round
            per_cpu: dict[str, dict[int, list[float]]] = {v: defaultdict(list) for v in ("old", "new")}
            per_stages: dict[str, dict[int, dict[str, float]]] = {"old": {}, "new": {}}
            for rnd in range(max(1, args.rounds)):
                for v in (("old", "new") if rnd % 2 == 0 else ("new", "old")):
                    i = 0
                    for table, readers, frames in tables:
                        for frame in frames:
                            t0 = time.process_time()
                            s = readers[v].read(frame)
                            cpu[v].append((time.process_time() - t0) * 1000.0)
                            per_cpu[v][i].append(cpu[v][-1])
                            for k, ms in s.timings_ms.items():
                                stages[v][k].append(ms)
                            if rnd == 0:
                                per_stages[v][i] = dict(s.timings_ms)
                                digest[v].update(card_digest(s.cards).encode())
                                cards[v].append(list(s.cards))
                                for k, n in (what_was_read(table, table.pieces, TableRead((s,)))
                                             | wrong_names(table, s.cards)).items():
                                    found[v][k] += n
                            i += 1
            b = statistics.median(base)
            print(f"== {game}: seeds {args.seeds}, {len(base)} frames; baseline JPEG q95 imread+cvtColor "
                  f"{b:.2f} ms CPU (median)")
            if args.per_frame:
                print_per_frame(seeds, per_cpu, per_stages, cards, b)
            for v in ("old", "new"):
                m = statistics.median(cpu[v])
                top = sorted(((k, statistics.median(x)) for k, x in stages[v].items()), key=lambda kv: -kv[1])
                print(f"  [{v}] cold read {m:.1f} ms CPU = {m / b:.1f}x (median of {len(cpu[v])}; "
                      f"max {max(cpu[v]) / b:.1f}x); read {dict(found[v])}")
                print(f"  [{v}] stages (ms): " + ", ".join(f"{k} {x:.1f}" for k, x in top if x >= 0.5))
            a, n = digest["old"].hexdigest()[:16], digest["new"].hexdigest()[:16]
            print(f"  digests old {a} new {n}: {'the same' if a == n else 'DIFFERENT'}")
            if a != n:
                print_differences(cards, [table_labels(table) for table, _, frames in tables for _ in frames],
                                  args.corner_tol, args.conf_tol)
            # each frame's new read over its old read of the same round (the load drifts less within a pair)
            pair = [y / x for x, y in zip(cpu["old"], cpu["new"], strict=True)]
            loose = {v: sum(statistics.median(x) for k, x in stages[v].items() if k.startswith("loose_"))
                     for v in ("old", "new")}
            print(f"  new / old, frame by frame: median {statistics.median(pair):.3f}; the second look's stages "
                  f"(loose_*, medians of the frames that have them) {loose['old']:.1f} -> {loose['new']:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
