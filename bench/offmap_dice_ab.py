"""Two versions of Eclipse's combat dice read beside the map, side by side in one process: what each finds and reads
on many seeded tables, and its CPU time, interleaved, against the baseline's CPU time.

Usage::

    git worktree add --detach /tmp/old-tree main
    python bench/offmap_dice_ab.py --old /tmp/old-tree --seeds 1-12 --sizes 1280x720,2304x1296

Scenes: :func:`vision.synth_full.full_table` ('eclipse': 24 sector hexes and 8 combat dice), layout seeds
``--seeds``, with the dice where the generator lays them (``beside``: a block right of the map) and laid again by
this bench (``--placements``): ``edge``, every die 0.5-3 mm off a hex of the map's rim (touching it, within the
painted margin's reach); ``far``, every die at least two hexes from the map, anywhere on the table; ``mixed``, half
of each. Each die keeps its colour, face and side; every place lies inside the frame, off the markers' paper and
4 mm (``edge``: 0.5 mm from a hex) from every other piece. Only the first scene generator draws combat dice (the
second draws the map alone).

Each version reads with its own program (the other tree's ``vision`` imported as ``vision_old``): the same enrolled
combat dice profile, each version's calibration of the table, and the same hexes (this tree's hex read of the frame,
so that only the dice read differs): :class:`vision.hexes.OffMapDice` over the Roll dice reader with the combat dice
profile, remembering the die size as the box does (its memory emptied at each table's first frame). Per table:
frame seeds 0, 10 (fresh sensor noise), then one die rolled again (:func:`vision.synth_full.reroll`) read as the box
reads a change (``read_changes`` given the change boxes of the two frames, :func:`vision.motion.change_boxes`).
Each version reads every frame once per round (``--rounds``), the versions' order swapped from one round to the next.

Printed per size and placement, per version: dice found, faces right (colour and face), false dice (reported where
no die lies), confident wrong (a wrong or false die at confidence >= 0.9), over every frame read; the median CPU ms
of the cold reads and of the reads after the re-roll, and their ratios to the baseline (a JPEG q95 ``imread`` +
``cvtColor`` of each frame, best of 5, median over the frames); the largest stage medians (CPU ms); per frame, how
many of the two versions' reads are the same to the last bit (each die's colour, face, value, confidence, box), and
the same dice (colour, face, box, confidence to 0.01, in any order), and the median of each frame's new over old CPU
time. ``--per-die``: every die one version finds or reads and the other
does not.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import math
import statistics
import sys
import tempfile
import time
import types
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.card_ident import load_vision  # noqa: E402
from bench.roll_table_ab import jpeg_cpu_ms  # noqa: E402

PLACEMENTS = ("beside", "edge", "far", "mixed")
CONFIDENT = 0.9


def parse_seeds(text: str) -> list[int]:
    """``"1-4,9"`` -> [1, 2, 3, 4, 9]."""
    out: list[int] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        lo, _, hi = part.partition("-")
        out += list(range(int(lo), int(hi) + 1)) if hi else [int(lo)]
    return out


def _quad(centre, side: float, angle: float) -> np.ndarray:
    a = math.radians(angle)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    h = side / 2.0
    return (np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ r.T + np.asarray(centre)).astype(np.float32)


def _grown(q: np.ndarray, by: float) -> np.ndarray:
    c = q.mean(axis=0)
    d = q - c
    return (c + d * (1.0 + by / np.linalg.norm(d, axis=1, keepdims=True))).astype(np.float32)


def _free(table, quad_mm: np.ndarray, others: list[np.ndarray], gap: float) -> bool:
    """Whether a die's top face ``quad_mm`` lies in the frame (2 px in), off the markers' paper (20 mm round each),
    and ``gap`` mm from each of ``others`` (float32[K, 2] mm outlines)."""
    px = table.to_px(quad_mm)
    w, h = table.image_size
    if px.min() < 2 or px[:, 0].max() > w - 2 or px[:, 1].max() > h - 2:
        return False
    mine = _grown(quad_mm, gap)
    for q in table.layout.corners_mm.values():
        lo, hi = q.min(axis=0) - 20.0, q.max(axis=0) + 20.0
        sheet = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]], np.float32)
        if cv2.intersectConvexConvex(mine, sheet)[0] > 0:
            return False
    return all(cv2.intersectConvexConvex(mine, o)[0] <= 0 for o in others)


def place_dice(table, placement: str, seed: int):
    """The table's pieces with its dice laid again by ``placement`` (see the module doc); None when no such place
    could be found for every die."""
    if placement == "beside":
        return list(table.pieces)
    rng = np.random.default_rng([seed, PLACEMENTS.index(placement)])
    hexes = [p for p in table.pieces if p.kind == "hex"]
    dice = [p for p in table.pieces if p.kind == "die"]
    outlines = [p.corners_mm().astype(np.float32) for p in hexes]
    w, h = table.image_size
    view = cv2.perspectiveTransform(np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64),
                                    np.linalg.inv(table.H)).reshape(-1, 2)
    lo, hi = view.min(axis=0), view.max(axis=0)     # table mm the frame sees (about)
    flat = hexes[0].size_mm[0]
    laid: list = []
    for k, die in enumerate(dice):
        near = placement == "edge" or (placement == "mixed" and k % 2 == 0)
        side = die.size_mm[0]
        for _ in range(400):
            angle = float(rng.uniform(0, 90))
            if near:
                h = hexes[int(rng.integers(len(hexes)))]
                a = rng.uniform(0, 2 * math.pi)
                reach = flat / 2.0 + side * (0.5 + 0.2 * rng.random()) + rng.uniform(0.5, 3.0)
                c = (h.centre_mm[0] + reach * math.cos(a), h.centre_mm[1] + reach * math.sin(a))
                q = _quad(c, side, angle)
                # 0.5 mm from every hex, and within 3 mm of one (the map's rim)
                if min(_gap(q, o) for o in outlines) > 3.0:
                    continue
                gap = 0.5
            else:
                c = (rng.uniform(lo[0], hi[0]), rng.uniform(lo[1], hi[1]))
                q = _quad(c, side, angle)
                if min(_gap(q, o) for o in outlines) < 2.0 * flat:
                    continue
                gap = 4.0
            others = outlines + [p.corners_mm().astype(np.float32) for p in laid]
            if _free(table, q, others, gap):
                laid.append(replace(die, centre_mm=(float(c[0]), float(c[1])), angle_deg=angle))
                break
        else:
            return None
    return hexes + laid


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    """mm between two convex outlines (0 where they overlap)."""
    if cv2.intersectConvexConvex(a, b)[0] > 0:
        return 0.0
    pa = a.reshape(-1, 1, 2)
    pb = b.reshape(-1, 1, 2)
    return float(min(min(abs(cv2.pointPolygonTest(pb, (float(x), float(y)), True)) for x, y in a),
                     min(abs(cv2.pointPolygonTest(pa, (float(x), float(y)), True)) for x, y in b)))


def score(table, pieces, dice) -> dict[str, int]:
    """found, right (colour and face), false, confident wrong (wrong or false at >= ``CONFIDENT``) of ``dice``
    against the die ``pieces``."""
    labels = [p for p in pieces if p.kind == "die"]
    polys = [table.polygon_px(p).astype(np.float32).reshape(-1, 1, 2) for p in labels]
    out = {"dice": len(labels), "found": 0, "right": 0, "false": 0, "confident_wrong": 0}
    used: set[int] = set()
    for p, poly in zip(labels, polys, strict=True):
        for k, d in enumerate(dice):
            c = (d.box[0] + d.box[2] / 2.0, d.box[1] + d.box[3] / 2.0)
            if k not in used and cv2.pointPolygonTest(poly, c, False) >= 0:
                used.add(k)
                out["found"] += 1
                ok = (d.colour, d.face) == (p.colour, p.face)
                out["right"] += int(ok)
                out["confident_wrong"] += int(not ok and d.confidence >= CONFIDENT)
                break
    for k, d in enumerate(dice):
        if k not in used:
            c = (d.box[0] + d.box[2] / 2.0, d.box[1] + d.box[3] / 2.0)
            if all(cv2.pointPolygonTest(q, c, False) < 0 for q in polys):
                out["false"] += 1
                out["confident_wrong"] += int(d.confidence >= CONFIDENT)
    return out


def digest(dice) -> tuple:
    return tuple((d.colour, d.face, d.value, float(d.confidence), tuple(map(float, d.box))) for d in dice)


def build_scenes(gr, deck, size, placement: str, seeds: list[int], cal_of) -> list[dict]:
    """Per table seed: the table, its pieces laid by ``placement``, each version's calibration (``cal_of[v](frame,
    layout)``), frames 0 and 10 with this tree's hexes of each, and after one die rolled again the frame, its hexes
    and the change boxes (a table with no room for its dice laid so is left out, and said)."""
    from vision.motion import change_boxes
    from vision.readers import HexesAdapter
    from vision.synth_full import full_table, reroll

    scenes = []
    for seed in seeds:
        table = full_table("eclipse", gr.ids["eclipse"], seed, size, gr.faces)
        pieces = place_dice(table, placement, seed)
        if pieces is None:
            print(f"  (table {seed}: no room to lay the dice {placement}; left out)")
            continue
        first = table.render(pieces, frame_seed=0)
        cals = {v: cal(first, table.layout) for v, cal in cal_of.items()}
        hexes_of = HexesAdapter(deck, cals["new"]).read
        frames = [table.render(pieces, frame_seed=f) for f in (0, 10)]
        scene = {"table": table, "pieces": pieces, "cals": cals, "frames": frames,
                 "hexes": [hexes_of(f).hexes for f in frames]}
        try:
            after, _, _ = reroll(table, pieces, seed + 1)
        except ValueError:
            after = None
        if after is not None:
            f2 = table.render(after, frame_seed=11)
            scene.update(after=after, frame2=f2, boxes=change_boxes(frames[1], f2), hexes2=hexes_of(f2).hexes)
        scenes.append(scene)
    return scenes


class Tally:
    """One version's counts, CPU ms and stage ms over a size and placement's scenes, and its reads per frame."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)
        self.cold: list[float] = []
        self.change: list[float] = []
        self.stages: dict[str, list[float]] = defaultdict(list)
        self.reads: dict[tuple, tuple] = {}

    def add(self, key: str, ms: float, sighting, table, pieces, frame_key: tuple, scored: bool, timed: bool) -> None:
        if timed:
            (self.cold if key == "cold" else self.change).append(ms)
            for n, x in sighting.timings_ms.items():
                self.stages[f"{key}.{n}"].append(x)
        self.reads[frame_key] = digest(sighting.dice)
        if scored:
            prefix = "" if key == "cold" else "reroll_"
            for n, x in score(table, pieces, sighting.dice).items():
                self.counts[prefix + n] += x

    def lines(self, name: str, base: float) -> list[str]:
        c = self.counts
        cm = statistics.median(self.cold) if self.cold else float("nan")
        rm = statistics.median(self.change) if self.change else float("nan")
        top = sorted(((statistics.median(x), n) for n, x in self.stages.items()), reverse=True)[:9]
        return [f"  {name}: cold frames: found {c['found']}/{c['dice']}, right {c['right']}, false {c['false']}, "
                f"confident wrong {c['confident_wrong']}; after a re-roll: found {c['reroll_found']}/"
                f"{c['reroll_dice']}, right {c['reroll_right']}, false {c['reroll_false']}, confident wrong "
                f"{c['reroll_confident_wrong']}",
                f"       cold {cm:.1f} ms = {cm / base:.1f}x, re-roll {rm:.1f} ms = {rm / base:.1f}x; stages: "
                + ", ".join(f"{n} {ms:.1f}" for ms, n in top)]


def read_scenes(scenes: list[dict], make_reader, reader_of: dict, tally: Tally, scored: bool) -> None:
    """One version reads every scene: its reader's size memory emptied at each table (a new session: the first frame
    searches the die size, not timed), frames 0 and 10 as cold reads, then the frame after the re-roll as a change."""
    for k, s in enumerate(scenes):
        reader_of["dice"]._memory = None   # a new table, as a new session: its dice' size searched once
        reader = make_reader(s)
        last = None
        for j, (frame, hexes) in enumerate(zip(s["frames"], s["hexes"], strict=True)):
            t0 = time.process_time()
            last = reader.read(frame, hexes)
            tally.add("cold", 1000.0 * (time.process_time() - t0), last, s["table"], s["pieces"], (k, j), scored,
                      j > 0)
        if "frame2" in s:
            t0 = time.process_time()
            got = reader.read_changes(s["frame2"], last, s["boxes"], s["hexes2"])
            tally.add("reroll", 1000.0 * (time.process_time() - t0), got, s["table"], s["after"], (k, "reroll"),
                      scored, True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, type=Path, help="the other tree (its vision/ is read as vision_old)")
    ap.add_argument("--sizes", default="1280x720,2304x1296", help="comma-separated WxH")
    ap.add_argument("--seeds", default="1-6", help="layout seeds: '1-6' or '1,3,9'")
    ap.add_argument("--placements", default=",".join(PLACEMENTS), help="comma-separated, from " + ", ".join(PLACEMENTS))
    ap.add_argument("--rounds", type=int, default=1, help="rounds, each version reading every frame once per round")
    ap.add_argument("--per-die", action="store_true", help="list every frame where the two versions' reads differ")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    load_vision(args.old.resolve(), "vision_old")
    import vision_old.hexes as old_hexes
    import vision_old.readers as old_readers
    import vision_old.roll_dice as old_roll
    import vision_old.table as old_table
    import vision_old.timing as old_timing

    import vision.timing
    from bench.full_table import GameReaders
    from vision import hexes as new_hexes
    from vision import readers as new_readers
    from vision import roll_dice as new_roll
    from vision import table as new_table
    from vision.inference import InferenceConfig
    from vision.synth_full import COMBAT_DICE, write_combat_enrollment

    for timing in (vision.timing, old_timing):   # stages in CPU ms
        timing.time = types.SimpleNamespace(perf_counter=time.process_time)
    mods = {"old": (old_hexes, old_readers, old_roll, old_table), "new": (new_hexes, new_readers, new_roll, new_table)}
    print(f"old: {Path(old_roll.__file__).parent}\nnew: {ROOT / 'vision' / 'roll_dice'}; CPU time (process_time), "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="offmap_dice_ab_") as tmp:
        work = Path(tmp)
        gr = GameReaders(work / "readers", InferenceConfig())
        folder = write_combat_enrollment(work / "combat", seed=7)
        pairs = [(c, str(v)) for c in COMBAT_DICE for v in range(1, 7)]
        readers = {}
        for v, (hx, rd, roll, _) in mods.items():
            cfg = roll.RollDiceConfig()
            dice = roll.RollDiceReader(roll.build_profile(folder, allowed=pairs, config=cfg, dice_set="eclipse"), cfg,
                                       remember_size=True)
            readers[v] = {"dice": dice, "make": lambda s, v=v, hx=hx, rd=rd, dice=dice: hx.OffMapDice(
                rd.RollDiceAdapter(dice, calibration=s["cals"][v]))}
        cal_of = {v: m[3].calibrate for v, m in mods.items()}
        for size in [tuple(int(x) for x in s.lower().split("x")) for s in args.sizes.split(",") if s.strip()]:
            for placement in (p.strip() for p in args.placements.split(",") if p.strip()):
                scenes = build_scenes(gr, gr.deck("eclipse"), size, placement, parse_seeds(args.seeds), cal_of)
                if scenes:
                    compare(scenes, readers, size, placement, args, work)
    return 0


def compare(scenes: list[dict], readers: dict, size, placement: str, args, work: Path) -> None:
    """Both versions read ``scenes`` ``args.rounds`` times, alternately; the figures printed (see the module doc)."""
    base = statistics.median(jpeg_cpu_ms(s["frames"][0], work) for s in scenes)
    tallies = {v: Tally() for v in readers}
    for rnd in range(max(1, args.rounds)):
        for v in (("old", "new") if rnd % 2 == 0 else ("new", "old")):
            read_scenes(scenes, readers[v]["make"], readers[v], tallies[v], rnd == 0)
    w, h = size
    print(f"== {w}x{h} dice {placement}: {len(scenes)} tables, {args.rounds} round(s); "
          f"baseline {base:.2f} ms CPU; load average {os.getloadavg()[0]:.1f}")
    for v, t in tallies.items():
        print("\n".join(t.lines(v, base)))
    old, new = tallies["old"], tallies["new"]
    ratios = [n / o for n, o in zip(new.cold, old.cold, strict=True)]
    rr = [n / o for n, o in zip(new.change, old.change, strict=True)]
    same = sum(new.reads[k] == old.reads[k] for k in old.reads)
    alike = sum(_rounded(new.reads[k]) == _rounded(old.reads[k]) for k in old.reads)
    print(f"  new / old per frame: cold {statistics.median(ratios):.3f}, re-roll "
          f"{statistics.median(rr) if rr else float('nan'):.3f}; reads the same to the last bit: "
          f"{same}/{len(old.reads)}, the same dice (colour, face, box, confidence to 0.01): {alike}/{len(old.reads)}")
    if args.per_die:
        for key, dig in old.reads.items():
            if new.reads[key] != dig:
                print(f"    table {scenes[key[0]]['table'].seed} frame {key[1]}: old {_short(dig)}\n"
                      f"{' ' * 20}new {_short(new.reads[key])}")


def _rounded(dig: tuple) -> list:
    """A frame's dice (:func:`digest`) with confidences to 0.01, in a fixed order."""
    return sorted(((c, f, v, round(conf, 2), b) for c, f, v, conf, b in dig), key=repr)   # a face may be None


def _short(dig: tuple) -> str:
    return "; ".join(f"{c}/{f} {conf:.2f} @({b[0]:.0f},{b[1]:.0f})" for c, f, _, conf, b in dig)


if __name__ == "__main__":
    raise SystemExit(main())
