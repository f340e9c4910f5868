"""Two versions of the Roll dice reader side by side in one process: the whole Roll table read (dice and tiles, as
``bench/full_table.py`` reads it) by CPU time, interleaved, against the baseline's CPU time.

Usage::

    git worktree add --detach /tmp/old-tree main
    python bench/roll_table_ab.py --old /tmp/old-tree --rounds 4

On a machine other processes load, wall time swings by tens of percent from one run to the next (the baseline's
own decode with it); CPU time (``time.process_time``) of two versions read alternately in one process does not
count the other processes' turns. The other tree's ``vision`` package is imported as ``vision_old`` (a link in a
temporary folder: the dice reader's modules import each other relatively), its :class:`RollDiceReader` built with
the same enrolled profile and put in this tree's dice adapter; the tiles are read by this tree's card reader for
both, in each version's order (``--old-order``, by default the new one's: ``bench/full_table.py``'s ``ORDER``). Scene:
``bench/full_table.py --games roll --sizes 1280x720`` (layout seed ``--seed``, 1 by default, as that bench's; the
layout seeds 2-8 are ``bench/roll_calibrated.py``'s other tables; frame seeds 0, 10, 20 and the
frames after a re-roll and after a tile is added, read as the box reads a change). With ``--old-tiles`` the other
tree's card reader reads the old version's tiles (its own program reading the same enrolled deck, its own
calibration), so that a change to the card reader is compared too.

Printed: the CPU ms of the baseline (a JPEG q95 ``imread`` + ``cvtColor`` of each frame, best of 5), and per
version the median CPU ms and ratio of the cold read, the read after the re-roll and after the tile; per version
the dice reader's stage medians of the cold reads (wall ms inside the read, as the reader times them; with
``--stage-cpu``, CPU ms: both versions' stage timer swapped for a CPU timer, as ``bench/roll_stage_cpu.py`` does,
so that on a loaded machine the stages compare as the totals do); the tiles' stage medians of the cold reads (the
card reader's own stages; with ``--stage-cpu`` CPU ms of the reading thread, as ``bench/card_table_ab.py`` times
them); and whether both versions read every frame the same in every round (found, right, false per kind; pieces a
change read agrees on), each read they differ on, and the frames a version read differently from one round to
another (the dice reader's die-size memory).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import inspect
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, fields, replace
from pathlib import Path
from types import SimpleNamespace

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def jpeg_cpu_ms(frame, folder: Path, reps: int = 5) -> float:
    """Best CPU ms of ``reps`` JPEG (quality 95) ``imread`` + ``cvtColor`` of ``frame`` (the baseline, by CPU)."""
    path = folder / "frame.jpg"
    if not cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 95]):
        raise OSError(f"cannot write {path}")
    best = float("inf")
    for _ in range(reps):
        t0 = time.process_time()
        cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        best = min(best, time.process_time() - t0)
    return best * 1000.0


def cpu_stage(timings: dict, name: str, fn, *args, **kwargs):
    """The readers' stage timer (:func:`vision.timing.timed_stage`) by CPU time: ``fn(*args, **kwargs)``, its CPU ms
    added to ``timings[name]``."""
    t0 = time.process_time()
    try:
        return fn(*args, **kwargs)
    finally:
        timings[name] = timings.get(name, 0.0) + (time.process_time() - t0) * 1000.0


class OtherReader:
    """The other tree's :class:`RollDiceReader` as this tree's dice adapter calls it (a tree from before the reads
    carried their die size: ``die_size`` None; a window's ``size`` or ``explained``, a full read's ``explained``,
    ``window`` or ``aside`` (the calibration markers' squares), passed on only where the other reader takes them); all
    else passed through."""

    def __init__(self, reader):
        self.reader = reader

    def __getattr__(self, name: str):
        return getattr(self.reader, name)

    def read(self, frame, white=None, explained=None, window=None, aside=None):
        known = inspect.signature(self.reader.read).parameters
        extra = {k: v for k, v in (("explained", explained), ("window", window), ("aside", aside))
                 if v is not None and k in known}
        return self._sized(self.reader.read(frame, white=white, **extra))

    def read_window(self, frame, box, light=None, wanted=None, size=None, explained=None):
        known = inspect.signature(self.reader.read_window).parameters
        extra = {k: v for k, v in (("size", size), ("explained", explained)) if k in known}
        return self._sized(self.reader.read_window(frame, box, light, wanted, **extra))

    @staticmethod
    def _sized(read):
        return read if hasattr(read, "die_size") else SimpleNamespace(**vars(read), die_size=None)


def other_cards(adapter):
    """The other tree's card adapter ``adapter`` as this tree's :class:`vision.readers.CardsAdapter` (the readers of
    ``bench/full_table.py`` are told apart by that class): its deck, calibration and thresholds, each read (whole,
    first look, changes) by the other tree's program, told of the polygons this one is told of (``explained``), its
    sightings handed on as this tree's :class:`vision.Sighting` (the box's order of a read after a change looks at
    their class)."""
    from vision.observations import Sighting
    from vision.readers import CardsAdapter

    def ours(seen):
        return Sighting(**{f.name: getattr(seen, f.name) for f in fields(Sighting) if hasattr(seen, f.name)})

    @dataclass(frozen=True, eq=False)
    class OtherCards(CardsAdapter):
        other: object = None

        def _told(self):
            return replace(self.other, explained=tuple(self.explained)) if self.explained else self.other

        def read(self, frame):
            return ours(self._told().read(frame))

        def read_first(self, frame):
            seen, due = self._told().read_first(frame)
            if len(inspect.signature(due).parameters) < 2:   # a tree whose second look is told of no die read
                return ours(seen), lambda more, dice=(): due(more)
            return ours(seen), due

        def read_changes(self, frame, previous, boxes):
            return ours(self._told().read_changes(frame, previous, boxes))

    return OtherCards(adapter.deck, adapter.calibration, config=adapter.config, other=adapter)


def read_name(seed: int, kind: str | None = None, rnd: int | None = None) -> str:
    """A read in words: the frame of ``seed``, after the change ``kind`` (None: the cold read), in round ``rnd``
    (0-based; None: any round): ``read_name(10, "reroll", 1)`` -> ``"round 2 frame seed 10 after reroll"``."""
    said = ("" if rnd is None else f"round {rnd + 1} ") + f"frame seed {seed}"
    return said if kind is None else f"{said} after {kind}"


def sameness_lines(seen: dict[tuple, object]) -> list[str]:
    """Whether both versions read every frame the same in every round, as printed lines. ``seen``: ``(version,
    round, frame seed[, change])`` -> what that read made of the table (found, right, false per kind; for a read
    after a change, the pieces it agrees with a cold read on). Each round is compared, not only the last: the dice
    reader remembers die sizes from one read to the next (``remember_size``), so a later round may read a frame at
    another size than an earlier one. The lines: the verdict with the number of reads compared, each read the
    versions differ on (both sides), and for each version the frames it read differently from one round to another
    (its size memory at work, not a difference between the versions)."""
    pairs = sorted(k[1:] for k in seen if k[0] == "old" and ("new", *k[1:]) in seen)
    differ = [k for k in pairs if seen[("old", *k)] != seen[("new", *k)]]
    missing = sorted({k[1:] for k in seen} - set(pairs))
    same = bool(pairs) and not differ and not missing
    lines = [f"both versions read every frame the same in every round: {same} ({len(pairs) - len(differ)} of "
             f"{len(pairs)} reads over {len({k[0] for k in pairs})} rounds)"]
    lines += [f"  {read_name(*k[1:], rnd=k[0])}: old {seen[('old', *k)]}, new {seen[('new', *k)]}" for k in differ]
    lines += [f"  {read_name(*k[1:], rnd=k[0])}: read by one version only" for k in missing]
    for v in ("old", "new"):
        frames = sorted({k[2:] for k in seen if k[0] == v})
        moved = [f for f in frames if len({repr(seen[k]) for k in seen if k[0] == v and k[2:] == f}) > 1]
        if moved:
            lines.append(f"[{v}] read differently from one round to another: "
                         + ", ".join(read_name(*f) for f in moved))
    cold = [k for k in sorted(seen) if k[0] == "new" and len(k) == 3 and k[2] == 0]
    if cold:
        lines.append(f"cold read of frame seed 0 (new, round {cold[-1][1] + 1}): {seen[cold[-1]]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    from bench.full_table import ORDER
    from vision.dice_and_cards import ORDERS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the other tree (its vision/ is read as vision_old)")
    ap.add_argument("--rounds", type=int, default=4, help="rounds, each version reading every frame once per round")
    ap.add_argument("--old-order", default=ORDER, choices=ORDERS,
                    help=f"the order the old version reads the dice and the tiles of a frame in (default: {ORDER!r}, "
                         "bench/full_table.py's ORDER, the order the new version reads in, so that the two versions of "
                         "the readers are compared, not two orders; 'explained', the dice first, for a tree from "
                         "before 'tiles_first')")
    ap.add_argument("--seed", type=int, default=1, help="the table's layout seed (default 1, bench/full_table.py's)")
    ap.add_argument("--stage-cpu", action="store_true",
                    help="time the dice reader's stages by CPU (time.process_time) in both versions, not by wall, and "
                         "the card reader's by CPU of the reading thread (time.thread_time)")
    ap.add_argument("--old-tiles", action="store_true",
                    help="the old version's tiles read by the other tree's card reader (default: this tree's reads "
                         "the tiles for both versions)")
    args = ap.parse_args(argv)
    old_vision = Path(args.old).resolve() / "vision"
    if not (old_vision / "roll_dice" / "reader.py").is_file():
        ap.error(f"{old_vision} holds no Roll dice reader")
    cv2.setNumThreads(1)
    with tempfile.TemporaryDirectory(prefix="roll_table_ab_") as tmp:
        work = Path(tmp)
        (work / "pkg").mkdir()
        (work / "pkg" / "vision_old").symlink_to(old_vision, target_is_directory=True)
        sys.path.insert(0, str(work / "pkg"))
        import vision_old.profiles as old_profiles
        import vision_old.roll_dice.reader as old_reader

        if args.stage_cpu:
            import vision_old.timing as old_timing

            import vision.roll_dice.reader as new_reader
            import vision.timing as new_timing

            old_reader.timed_stage = new_reader.timed_stage = cpu_stage
            for timing in (new_timing, old_timing):   # the card reader's stages: CPU of the reading thread
                timing.time = SimpleNamespace(perf_counter=time.thread_time)

        from bench.full_table import GameReaders, agreement, change, read_after_change, read_all, what_was_read
        from vision.inference import InferenceConfig
        from vision.synth_full import full_table
        from vision.table import calibrate

        gr = GameReaders(work / "readers", InferenceConfig())
        table = full_table("roll", gr.ids["roll"], args.seed, (1280, 720), gr.faces)
        readers = gr.readers("roll", calibrate(table.render(frame_seed=0), table.layout))
        readers[0].reader.profile.save(work / "profile.json")
        # the old reader built as this tree's is (the box's one fixed camera: remember_size), where it knows it
        same = {k: getattr(readers[0].reader, k) for k in ("remember_size",)
                if k in inspect.signature(old_reader.RollDiceReader).parameters}
        old = old_reader.RollDiceReader(old_profiles.DiceProfile.load(work / "profile.json"), **same)
        versions = {"old": [replace(readers[0], reader=OtherReader(old)), *readers[1:]], "new": readers}
        if args.old_tiles:   # the other tree's card reader, with the same deck file and thresholds, its calibration
            import vision_old.cards as old_cards
            import vision_old.deck as old_deck
            import vision_old.readers as old_readers
            import vision_old.table as old_table

            tiles = readers[1]
            tiles.deck.save(work / "tiles.json")
            known = {f.name for f in fields(old_cards.CardsConfig)}
            versions["old"][1] = other_cards(old_readers.CardsAdapter(
                old_deck.DeckProfile.load(work / "tiles.json"),
                old_table.calibrate(table.render(frame_seed=0), table.layout),
                config=old_cards.CardsConfig(**{k: v for k, v in vars(tiles.config).items() if k in known})))
        order = {"old": args.old_order, "new": None}
        print(f"old: {old_reader.__file__}\nnew: {readers[0].reader.__class__.__module__} in {ROOT}")
        changed = {kind: change(table, kind, gr.ids["roll"], gr.faces, 2) for kind in ("reroll", "add_card")}
        cpu = {v: defaultdict(list) for v in versions}
        stages = {v: defaultdict(list) for v in versions}
        seen: dict[tuple, object] = {}
        base = []
        for rnd in range(max(1, args.rounds)):
            for v in (("old", "new") if rnd % 2 == 0 else ("new", "old")):
                for seed in (0, 10, 20):
                    frame = table.render(frame_seed=seed)
                    if v == "old":
                        base.append(jpeg_cpu_ms(frame, work))
                    t0 = time.process_time()
                    cold = read_all(versions[v], frame, order[v])
                    cpu[v]["cold"].append((time.process_time() - t0) * 1000.0)
                    for k, ms in cold.timings_ms.items():
                        if k.startswith(("roll_dice.", "cards.")):
                            stages[v][k].append(ms)
                    seen[v, rnd, seed] = what_was_read(table, table.pieces, cold)
                    for kind, pieces in changed.items():
                        after = table.render(pieces, frame_seed=seed + 1)
                        t0 = time.process_time()
                        got = read_after_change(versions[v], after, cold, frame, order[v])
                        cpu[v][kind].append((time.process_time() - t0) * 1000.0)
                        seen[v, rnd, seed, kind] = agreement(table, pieces, got,
                                                             read_all(versions[v], after, order[v]))
        b = statistics.median(base)
        print(f"baseline JPEG q95 imread+cvtColor: {b:.2f} ms CPU (median of {len(base)} frames)")
        for v in versions:
            print(f"[{v}] CPU, median of {len(cpu[v]['cold'])}: " + ", ".join(
                f"{k} {statistics.median(x):.1f} ms = {statistics.median(x) / b:.1f}x" for k, x in cpu[v].items()))
            top = sorted(((k, statistics.median(x)) for k, x in stages[v].items()), key=lambda kv: -kv[1])
            clock = "CPU" if args.stage_cpu else "wall"
            print(f"[{v}] dice stages of the cold reads ({clock} ms): "
                  + ", ".join(f"{k[10:]} {x:.1f}" for k, x in top if k.startswith("roll_dice.")))
            print(f"[{v}] tiles stages of the cold reads ({clock} ms): "
                  + ", ".join(f"{k[6:]} {x:.1f}" for k, x in top if k.startswith("cards.") and x >= 0.5))
        for line in sameness_lines(seen):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
