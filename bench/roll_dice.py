"""Score the Roll for the Galaxy dice reader on held-out scenes of both scene generators, side by side
(and, optionally, its die detector on real d6 photos).

Usage::

    python bench/roll_dice.py                       # 60 scenes of each generator, seed 1000, + byler photos
    python bench/roll_dice.py --n 80 --seed 5000 --symbols B --csv /tmp/roll.csv
    python bench/roll_dice.py --generator scenes    # one generator only (synth | scenes | both)
    python bench/roll_dice.py --no-byler            # skip the byler real d6 photos (scored by default)
    python bench/roll_dice.py --generator scenes --n 20 --per-die   # + every missed, misread and false die

Generators: ``synth`` is :mod:`vision.synth` (stand-in symbol set ``--symbols``); ``scenes`` is the second,
independent generator :mod:`vision.scenes` (its own artwork in two printings, light ink on coloured dice
and dark ink; scene k shows printing k mod 2 and is read with the profile enrolled from that printing).

Protocol: per generator (and printing) an enrollment folder is drawn with seeds from ``--enroll-seed``
(disjoint from the scene seeds ``--seed .. --seed+n-1``), a profile is built from it, then every scene is read.

Matching (per scene, greedy one-to-one by distance): a reported die matches a labelled die when
the label's centre lies inside the reported box or the reported box centre lies inside the label's box.

Printed figures, one column per generator:
    dice found          matched labels / labels
    false dice          reported dice matching no label (and their share of the reported dice)
    colour right        matched dice with the right colour / matched dice
    face right          matched dice with the right face / matched dice (face None counts as wrong)
    confident wrong     matched dice with confidence >= 0.9 and a wrong colour or face (+ false dice >= 0.9)
    unreadable : wrong  matched dice reported without a face (colour right) : matched dice read wrong
                        (a wrong colour, or a wrong face that is not None)
    fully right images  scenes whose every die is found with its colour and face, and no false die
    per colour          found / colour right / face right, by the true colour
    per background      found / colour right / face right by what the die lies on, false dice by table
    confusion           colour confusion matrix (rows = truth, columns = read), and the most frequent
                        (truth colour/face -> read colour/face) errors
    latency             median ms of ``RollDiceReader.read`` per frame and its ratio to the median ms of a
                        JPEG (quality 95) ``cv2.imread`` + ``cv2.cvtColor`` of the same frame (timed
                        interleaved, :mod:`bench.frame_timing`), and the median per stage
    byler real d6       share of the labelled dice of ``shared/datasets/byler_d6_dice/train`` the reader's
                        die detector (``RollDiceReader.detect``: classical + CNN candidates) finds, and its
                        detections that match no label; skipped with the reason when the folder is absent
With ``--per-die`` every die that is not read right is listed as it is scored: ``miss`` (a labelled die no reported
die matches: its truth, box and what it lies on), ``wrong`` (truth -> read colour/face, confidence, the label's box and
the reported box) and ``false`` (a reported die matching no label, and what its box lies on: ``board`` when its
centre is inside a player board's outline of the scene's ``meta["boards"]``, else the table), each with its scene
seed; for tracing a reader's errors die by die on tuning seeds.
With ``--csv`` one row per image (generator, found, colour/face right, per-stage ms) is written.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import BASELINE, FrameTimer
from vision import scenes, synth
from vision.inference import RUNTIMES, InferenceConfig
from vision.profiles import load_dice_faces
from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile, rect_box

GENERATORS = ("synth", "scenes")
COLOURS = synth.COLOURS


def shared_dir() -> Path:
    return Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))


def inside(pt, box) -> bool:
    x, y, w, h = box
    return x <= pt[0] <= x + w and y <= pt[1] <= y + h


def match(labels, dice):
    """Greedy one-to-one matches [(label index, die index)] by centre distance."""
    pairs = []
    for i, lab in enumerate(labels):
        for j, d in enumerate(dice):
            x, y, w, h = d.box
            dc = (x + w / 2, y + h / 2)
            if inside(lab.centre, d.box) or inside(dc, lab.box):
                pairs.append((np.hypot(dc[0] - lab.centre[0], dc[1] - lab.centre[1]), i, j))
    pairs.sort()
    used_l, used_d, out = set(), set(), []
    for _, i, j in pairs:
        if i not in used_l and j not in used_d:
            used_l.add(i)
            used_d.add(j)
            out.append((i, j))
    return out


def byler_recall(folder: Path, reader: RollDiceReader) -> tuple[int, int, int]:
    """(labels found, labels, detections) of the reader's die detector alone (``reader.detect``:
    classical + CNN candidates, top faces, duplicates dropped) on YOLO-labelled photos."""
    img_dir = folder / "images"
    lab_dir = folder / "labels"
    found = total = dets = 0
    for p in sorted(img_dir.iterdir()):
        img = cv2.imread(str(p))
        if img is None:
            continue
        h, w = img.shape[:2]
        labs = []
        lp = lab_dir / (p.stem + ".txt")
        if lp.is_file():
            for line in lp.read_text().splitlines():
                v = line.split()
                if len(v) >= 5:
                    cx, cy, bw, bh = (float(x) for x in v[1:5])
                    labs.append(((cx * w, cy * h), ((cx - bw / 2) * w, (cy - bh / 2) * h, bw * w, bh * h)))
        tops = reader.detect(img)
        boxes = [rect_box(r) for r in tops.rects]
        dets += len(boxes)
        total += len(labs)
        used = set()
        for c, lb in labs:
            for j, b in enumerate(boxes):
                bc = (b[0] + b[2] / 2, b[1] + b[3] / 2)
                if j not in used and (inside(c, b) or inside(bc, lb)):
                    used.add(j)
                    found += 1
                    break
    return found, total, dets


@dataclass
class Tally:
    """One generator's counts over its scenes."""

    name: str
    labelled: int = 0
    found: int = 0
    false: int = 0
    reported: int = 0
    colour: int = 0
    face: int = 0
    confident_wrong: int = 0
    unreadable: int = 0
    wrong: int = 0
    images: int = 0
    full: int = 0
    per_colour: dict = field(default_factory=lambda: defaultdict(Counter))
    per_background: dict = field(default_factory=lambda: defaultdict(Counter))
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((len(COLOURS), len(COLOURS) + 1), np.int64))
    errors: Counter = field(default_factory=Counter)
    read_ms: list = field(default_factory=list)
    base_ms: list = field(default_factory=list)
    timings: list = field(default_factory=list)   # each read's ``timings_ms``, as the reader names its stages
    enrolled: str = ""
    per_die: bool = False


def score_scene(t: Tally, sc, rd, seed: int, rows: list, path: Path, read_ms: float, base_ms: float) -> None:
    """Add one read scene to the tally (and a CSV row)."""
    t.read_ms.append(read_ms)
    t.base_ms.append(base_ms)
    t.timings.append(dict(rd.timings_ms))
    m = match(sc.dice, rd.dice)
    matched_l = {i for i, _ in m}
    matched_d = {j for _, j in m}
    under = sc.meta.get("under") or [sc.meta.get("table", "?")] * len(sc.dice)
    col_ok = face_ok = 0
    for i, lab in enumerate(sc.dice):
        t.per_colour[lab.colour]["labelled"] += 1
        t.per_background[under[i]]["labelled"] += 1
    for i, j in m:
        lab, d = sc.dice[i], rd.dice[j]
        t.confusion[COLOURS.index(lab.colour), COLOURS.index(d.colour) if d.colour in COLOURS else -1] += 1
        cok, fok = d.colour == lab.colour, d.face == lab.face
        col_ok += cok
        face_ok += fok
        for bucket in (t.per_colour[lab.colour], t.per_background[under[i]]):
            bucket["found"] += 1
            bucket["colour"] += cok
            bucket["face"] += fok
        if cok and d.face is None:
            t.unreadable += 1
        elif not (cok and fok):
            t.wrong += 1
        if not (cok and fok):
            t.errors[(f"{lab.colour}/{lab.face}", f"{d.colour}/{d.face}")] += 1
        if d.confidence >= 0.9 and not (cok and fok):
            t.confident_wrong += 1
            print(f"  [{t.name}] confident wrong: scene {seed} truth {lab.colour}/{lab.face} read {d.colour}/{d.face} "
                  f"conf {d.confidence:.3f} box {d.box}")
    for i, lab in enumerate(sc.dice):
        if i not in matched_l:
            t.confusion[COLOURS.index(lab.colour), -1] += 1
    false = [d for j, d in enumerate(rd.dice) if j not in matched_d]
    if t.per_die:
        print_per_die(t.name, seed, sc, rd, m, under, false)
    for d in false:
        if d.confidence >= 0.9:
            t.confident_wrong += 1
            print(f"  [{t.name}] confident false die: scene {seed} read {d.colour}/{d.face} "
                  f"conf {d.confidence:.3f} box {d.box}")
    t.per_background[sc.meta.get("table", "?")]["false"] += len(false)
    t.labelled += len(sc.dice)
    t.found += len(m)
    t.false += len(false)
    t.reported += len(rd.dice)
    t.colour += col_ok
    t.face += face_ok
    t.images += 1
    t.full += int(len(m) == len(sc.dice) == col_ok == face_ok and not false)
    rows.append({"generator": t.name, "image": path.name, "table": sc.meta.get("table"), "dice": len(sc.dice),
                 "found": len(m), "false": len(false), "colour_right": col_ok, "face_right": face_ok,
                 "read_ms": round(read_ms, 2), "jpeg_q95_decode_ms": round(base_ms, 2),
                 **{f"{s}_ms": round(ms, 2) for s, ms in rd.timings_ms.items()}})


def stage_names(timings: Iterable[Mapping[str, float]]) -> list[str]:
    """Every name in ``timings`` (each a read's ``timings_ms``: the reader's own stage names, as
    :func:`vision.timing.timed_stage` records them in the order they ran), each once, in the order the reads ran
    them: a stage only some reads run (``unsized``, ``recut``) goes after the stage it followed there. A stage the
    reader gains is listed without a list here to keep up to date."""
    order: list[str] = []
    for t in timings:
        after = -1
        for name in t:
            if name not in order:
                order.insert(after + 1, name)
            after = order.index(name)
    return order


def stages_line(timings: list[Mapping[str, float]]) -> str:
    """``"validate 1.2, foreground 3.4, ..."``: the median ms of each stage of :func:`stage_names` over the reads
    ``timings`` (a read that did not run a stage counts 0 ms for it); empty without reads."""
    return ", ".join(f"{s} {statistics.median(t.get(s, 0.0) for t in timings):.1f}" for s in stage_names(timings))


def _box(b) -> str:
    return "(" + ", ".join(str(round(float(v))) for v in b) + ")"


def lies_on(box, meta: dict) -> str:
    """What a reported die's ``box`` (x, y, w, h picture px) lies on: ``"board"`` when the box's centre is inside
    (or on the edge of) one of ``meta["boards"]`` (each player board's outline, ``[[x, y], ...]`` px, as
    :func:`vision.scenes.dice.board_outline` records it), else ``meta["table"]`` (``"?"`` without one). A scene
    without ``boards`` in its meta (:mod:`vision.synth`) says its table."""
    x, y, w, h = (float(v) for v in box)
    centre = (x + w / 2, y + h / 2)
    for outline in meta.get("boards") or []:
        poly = np.asarray(outline, np.float32).reshape(-1, 1, 2)
        if len(poly) >= 3 and cv2.pointPolygonTest(poly, centre, False) >= 0:
            return "board"
    return str(meta.get("table", "?"))


def print_per_die(name: str, seed: int, sc, rd, m: list[tuple[int, int]], under: list, false: list) -> None:
    """One line per labelled die not found (``miss``) or read with a wrong colour or face (``wrong``), and per
    reported die matching no label (``false``), of one scene (``--per-die``)."""
    read = dict(m)
    for i, lab in enumerate(sc.dice):
        if i not in read:
            print(f"  [{name}] {seed} miss  {lab.colour}/{lab.face} box {_box(lab.box)} on {under[i]}")
            continue
        d = rd.dice[read[i]]
        if d.colour != lab.colour or d.face != lab.face:
            print(f"  [{name}] {seed} wrong {lab.colour}/{lab.face} -> {d.colour}/{d.face} conf {d.confidence:.3f} "
                  f"box {_box(lab.box)} read {_box(d.box)} on {under[i]}")
    for d in false:
        print(f"  [{name}] {seed} false {d.colour}/{d.face} conf {d.confidence:.3f} box {_box(d.box)} "
              f"on {lies_on(d.box, sc.meta)}")


def readers_for(generator: str, work: Path, fbc, args, cfg: RollDiceConfig) -> dict[str, RollDiceReader]:
    """The readers a generator's scenes are read with, by printing (one profile per enrollment folder)."""
    out = {}
    if generator == "synth":
        folders = {args.symbols: synth.write_enrollment(work / "enroll_synth", fbc, seed=args.enroll_seed,
                                                        symbol_set=args.symbols)}
    else:
        folders = {ed: scenes.write_dice_enrollment(work / f"enroll_{ed}", fbc, seed=args.enroll_seed, edition=ed)
                   for ed in scenes.DiceSceneConfig().editions}
    for key, folder in folders.items():
        t0 = time.perf_counter()
        profile = build_profile(folder, config=cfg)
        print(f"[{generator}] enrolled {sum(profile.dice_seen.values())} dice over {len(profile.template_pairs)} pairs "
              f"in {time.perf_counter() - t0:.1f}s ({'symbol set' if generator == 'synth' else 'printing'} {key}, "
              f"enroll seed {args.enroll_seed})")
        out[key] = RollDiceReader(profile, cfg)
    return out


def run_generator(generator: str, work: Path, fbc, args, cfg: RollDiceConfig,
                  rows: list) -> tuple[Tally, RollDiceReader]:
    readers = readers_for(generator, work, fbc, args, cfg)
    keys = list(readers)
    t = Tally(generator, enrolled=", ".join(keys), per_die=args.per_die)
    scene_cfg = synth.SceneConfig(symbol_set=args.symbols)
    timer = FrameTimer()
    for k in range(args.n):
        seed = args.seed + k
        key = keys[k % len(keys)]
        if generator == "synth":
            sc = synth.render_scene(seed, scene_cfg, fbc)
        else:
            sc = scenes.render_dice_scene(seed, faces_by_colour=fbc, edition=key)
        path = work / f"{generator}_{seed}.png"
        cv2.imwrite(str(path), sc.image)
        frame = cv2.imread(str(path))
        base = timer.baseline(frame)
        t0 = time.perf_counter()
        rd = readers[key].read(frame)
        score_scene(t, sc, rd, seed, rows, path, (time.perf_counter() - t0) * 1000, base)
    timer.close()
    return t, readers[keys[0]]


def pct(a: float, b: float) -> str:
    return f"{100.0 * a / b:.2f}%" if b else "n/a"


def print_side_by_side(tallies: list[Tally], args) -> None:
    w = 30
    head = "".join(f"{t.name + ' (' + t.enrolled + ')':>{w}}" for t in tallies)
    print(f"scenes {args.n} per generator (seeds {args.seed}..{args.seed + args.n - 1})")
    print(f"{'':22}{head}")

    def line(label: str, cells: list[str]) -> None:
        print(f"{label:22}" + "".join(f"{c:>{w}}" for c in cells))

    line("labelled dice", [str(t.labelled) for t in tallies])
    line("dice found", [f"{t.found}/{t.labelled} = {pct(t.found, t.labelled)}" for t in tallies])
    line("false dice", [f"{t.false} ({pct(t.false, t.reported)} of reported)" for t in tallies])
    line("colour right", [f"{t.colour}/{t.found} = {pct(t.colour, t.found)}" for t in tallies])
    line("face right", [f"{t.face}/{t.found} = {pct(t.face, t.found)}" for t in tallies])
    line("confident wrong", [str(t.confident_wrong) for t in tallies])
    line("unreadable : wrong", [f"{t.unreadable} : {t.wrong}" + (f" ({t.unreadable / t.wrong:.1f})" if t.wrong else "")
                                for t in tallies])
    line("fully right images", [f"{t.full}/{t.images}" for t in tallies])
    print("per colour: found / colour right / face right")
    for c in COLOURS:
        cells = []
        for t in tallies:
            b = t.per_colour.get(c, Counter())
            cells.append(f"{pct(b['found'], b['labelled'])} / {pct(b['colour'], b['found'])} / "
                         f"{pct(b['face'], b['found'])}"
                         if b["labelled"] else "-")
        line(f"  {c}", cells)
    print("per background: found / colour right / face right (dice) ; false dice on that table")
    for bg in sorted({k for t in tallies for k in t.per_background}):
        cells = []
        for t in tallies:
            b = t.per_background.get(bg, Counter())
            cells.append(f"{pct(b['found'], b['labelled'])} / {pct(b['colour'], b['found'])} / "
                         f"{pct(b['face'], b['found'])} ; {b['false']}" if (b["labelled"] or b["false"]) else "-")
        line(f"  {bg}", cells)
    for t in tallies:
        print(f"[{t.name}] colour confusion (rows truth, columns read; '-' = not found):")
        print("          " + " ".join(f"{c[:6]:>6}" for c in COLOURS) + "      -")
        for a, c in enumerate(COLOURS):
            print(f"  {c:>7} " + " ".join(f"{v:6d}" for v in t.confusion[a]))
        if t.errors:
            print(f"[{t.name}] most frequent errors (truth -> read): " + ", ".join(
                f"{a} -> {b} x{k}" for (a, b), k in t.errors.most_common(8)))
        med, base = statistics.median(t.read_ms), statistics.median(t.base_ms)
        print(f"[{t.name}] latency median {med:.1f} ms/frame (1280x720), {BASELINE} {base:.2f} ms, "
              f"ratio {med / base:.1f}x")
        print("  stages (median ms): " + stages_line(t.timings))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=60, help="scenes per generator (default 60, ~1,200 dice)")
    ap.add_argument("--seed", type=int, default=1000, help="first scene seed (default 1000)")
    ap.add_argument("--enroll-seed", type=int, default=7, help="enrollment seed (scene seeds stay disjoint)")
    ap.add_argument("--generator", default="both", choices=(*GENERATORS, "both"),
                    help="scene generator: synth (vision.synth), scenes (vision.scenes) or both (default)")
    ap.add_argument("--symbols", default="A", choices=synth.SYMBOL_SETS, help="synth's stand-in symbol set")
    ap.add_argument("--dice-json", default=str(shared_dir() / "data" / "roll" / "dice.json"))
    ap.add_argument("--csv", help="write one row per scene here")
    ap.add_argument("--no-byler", dest="byler", action="store_false",
                    help="skip scoring the detector on the byler real d6 photos")
    ap.add_argument("--per-die", action="store_true",
                    help="list every missed, misread and false die as it is scored (for tracing on tuning seeds)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary enrollment folders and scenes")
    ap.add_argument("--runtime", default="auto", choices=RUNTIMES, help="inference runtime of the CNN candidates")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)

    fbc = load_dice_faces(args.dice_json)
    cfg = RollDiceConfig(inference=InferenceConfig(args.runtime, threads=1))
    work = Path(tempfile.mkdtemp(prefix="roll_bench_"))
    gens = GENERATORS if args.generator == "both" else (args.generator,)
    rows: list[dict] = []
    tallies, reader = [], None
    for g in gens:
        t, r = run_generator(g, work, fbc, args, cfg, rows)
        tallies.append(t)
        reader = reader or r
    print_side_by_side(tallies, args)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=stage_names(rows), restval=0.0)   # a stage a read skipped: 0 ms
            wr.writeheader()
            wr.writerows(rows)
        print(f"wrote {args.csv}")
    if args.keep:
        print(f"kept {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    if args.byler:
        folder = shared_dir() / "datasets" / "byler_d6_dice" / "train"
        if folder.is_dir():
            found, total, dets = byler_recall(folder, reader)
            print(f"byler real d6   found {found}/{total} = {100 * found / max(total, 1):.2f}%  (detections {dets}, "
                  f"matching no label {dets - found})")
        else:
            print(f"byler real d6   skipped: {folder} absent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
