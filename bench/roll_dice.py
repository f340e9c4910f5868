"""Score the Roll for the Galaxy dice reader on held-out synthetic scenes (and, optionally, real d6 photos).

Usage::

    python bench/roll_dice.py                       # 60 scenes, symbol set A, seed 1000
    python bench/roll_dice.py --n 80 --seed 5000 --symbols B --csv /tmp/roll.csv
    python bench/roll_dice.py --no-byler            # skip the byler real d6 photos (scored by default)

Protocol: an enrollment folder is drawn with seeds from ``--enroll-seed`` (disjoint from the scene
seeds ``--seed .. --seed+n-1``), a profile is built from it, then every scene is read.

Matching (per scene, greedy one-to-one by distance): a reported die matches a labelled die when
the label's centre lies inside the reported box or the reported box centre lies inside the label's box.

Printed figures:
    dice found        matched labels / labels
    false dice        reported dice matching no label
    colour right      matched dice with the right colour / matched dice
    face right        matched dice with the right face / matched dice (face None counts as wrong)
    confident wrong   matched dice with confidence >= 0.9 and a wrong colour or face (+ false dice >= 0.9)
    confusion         colour confusion matrix (rows = truth, columns = read), and the most frequent
                      (truth colour/face -> read colour/face) errors
    byler real d6     share of the labelled dice of ``shared/datasets/byler_d6_dice/train`` the reader's
                      die detector (``RollDiceReader.detect``: classical + CNN candidates) finds; skipped
                      with the reason when the folder is absent
    latency           median ms of ``RollDiceReader.read`` per frame and its ratio to the median ms of a
                      JPEG (quality 95) ``cv2.imread`` + ``cv2.cvtColor`` of the same frame (timed interleaved,
                      :mod:`bench.frame_timing`), and the median per stage
With ``--csv`` one row per image (found, colour/face right, per-stage ms) is written.
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
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import BASELINE, FrameTimer
from vision import synth
from vision.inference import RUNTIMES, InferenceConfig
from vision.profiles import load_dice_faces
from vision.roll_dice import RollDiceConfig, RollDiceReader, build_profile, rect_box

STAGES = ("validate", "foreground", "candidates", "cnn", "tops", "dedupe", "colours", "faces", "assemble")


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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=60, help="number of scenes (default 60, ~1,200 dice)")
    ap.add_argument("--seed", type=int, default=1000, help="first scene seed (default 1000)")
    ap.add_argument("--enroll-seed", type=int, default=7, help="enrollment seed (scene seeds stay disjoint)")
    ap.add_argument("--symbols", default="A", choices=synth.SYMBOL_SETS, help="stand-in symbol set")
    ap.add_argument("--dice-json", default=str(shared_dir() / "data" / "roll" / "dice.json"))
    ap.add_argument("--csv", help="write one row per scene here")
    ap.add_argument("--no-byler", dest="byler", action="store_false",
                    help="skip scoring the detector on the byler real d6 photos")
    ap.add_argument("--keep", action="store_true", help="keep the temporary enrollment folder and scenes")
    ap.add_argument("--runtime", default="auto", choices=RUNTIMES, help="inference runtime of the CNN candidates")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)

    fbc = load_dice_faces(args.dice_json)
    cfg = RollDiceConfig(inference=InferenceConfig(args.runtime, threads=1))
    work = Path(tempfile.mkdtemp(prefix="roll_bench_"))
    t0 = time.perf_counter()
    synth.write_enrollment(work / "enroll", fbc, seed=args.enroll_seed, symbol_set=args.symbols)
    profile = build_profile(work / "enroll", config=cfg)
    print(f"enrolled {sum(profile.dice_seen.values())} dice over {len(profile.template_pairs)} pairs "
          f"in {time.perf_counter() - t0:.1f}s (symbol set {args.symbols}, enroll seed {args.enroll_seed})")
    reader = RollDiceReader(profile, cfg)
    colours = list(synth.COLOURS)
    conf_m = np.zeros((len(colours), len(colours) + 1), np.int64)  # last column: not found
    n_lab = n_found = n_false = n_col = n_face = n_cw = n_none = 0
    errors: Counter = Counter()
    read_ms, base_ms, stage_ms = [], [], {s: [] for s in STAGES}
    rows = []
    scene_cfg = synth.SceneConfig(symbol_set=args.symbols)
    timer = FrameTimer()
    for k in range(args.n):
        seed = args.seed + k
        sc = synth.render_scene(seed, scene_cfg, fbc)
        path = work / f"scene_{seed}.png"
        cv2.imwrite(str(path), sc.image)
        frame = cv2.imread(str(path))
        base_ms.append(timer.baseline(frame))
        t = time.perf_counter()
        rd = reader.read(frame)
        read_ms.append((time.perf_counter() - t) * 1000)
        for s in STAGES:
            stage_ms[s].append(rd.timings_ms.get(s, 0.0))
        m = match(sc.dice, rd.dice)
        matched_l = {i for i, _ in m}
        matched_d = {j for _, j in m}
        col_ok = face_ok = 0
        for i, j in m:
            lab, d = sc.dice[i], rd.dice[j]
            conf_m[colours.index(lab.colour), colours.index(d.colour) if d.colour in colours else -1] += 1
            cok, fok = d.colour == lab.colour, d.face == lab.face
            col_ok += cok
            face_ok += fok
            n_none += d.face is None
            if not (cok and fok):
                errors[(f"{lab.colour}/{lab.face}", f"{d.colour}/{d.face}")] += 1
            if d.confidence >= 0.9 and not (cok and fok):
                n_cw += 1
                print(f"  confident wrong: scene {seed} truth {lab.colour}/{lab.face} read {d.colour}/{d.face} "
                      f"conf {d.confidence:.3f} box {d.box}")
        for i, lab in enumerate(sc.dice):
            if i not in matched_l:
                conf_m[colours.index(lab.colour), -1] += 1
        false = [d for j, d in enumerate(rd.dice) if j not in matched_d]
        n_cw += sum(d.confidence >= 0.9 for d in false)
        n_lab += len(sc.dice)
        n_found += len(m)
        n_false += len(false)
        n_col += col_ok
        n_face += face_ok
        rows.append({"image": path.name, "table": sc.meta["table"], "warm_cool": sc.meta["warm_cool"],
                     "dice": len(sc.dice), "found": len(m), "false": len(false), "colour_right": col_ok,
                     "face_right": face_ok, "read_ms": round(read_ms[-1], 2), "jpeg_q95_decode_ms": round(base_ms[-1], 2),
                     **{f"{s}_ms": round(rd.timings_ms.get(s, 0.0), 2) for s in STAGES}})
    nm = max(n_found, 1)
    print(f"scenes {args.n} (seeds {args.seed}..{args.seed + args.n - 1}), labelled dice {n_lab}")
    print(f"dice found      {n_found}/{n_lab} = {100 * n_found / max(n_lab, 1):.2f}%   false dice {n_false}")
    print(f"colour right    {n_col}/{n_found} = {100 * n_col / nm:.2f}%")
    print(f"face right      {n_face}/{n_found} = {100 * n_face / nm:.2f}%   (face None: {n_none})")
    print(f"confident wrong {n_cw}  (confidence >= 0.9 and wrong colour or face, incl. false dice)")
    print("colour confusion (rows truth, columns read; '-' = not found):")
    print("          " + " ".join(f"{c[:6]:>6}" for c in colours) + "      -")
    for a, c in enumerate(colours):
        print(f"  {c:>7} " + " ".join(f"{v:6d}" for v in conf_m[a]))
    if errors:
        print("most frequent errors (truth -> read): " + ", ".join(
            f"{t} -> {r} x{k}" for (t, r), k in errors.most_common(8)))
    med, base = statistics.median(read_ms), statistics.median(base_ms)
    timer.close()
    print(f"latency         median {med:.1f} ms/frame (1280x720), {BASELINE} {base:.2f} ms, ratio {med / base:.1f}x")
    print("  stages (median ms): " + ", ".join(f"{s} {statistics.median(v):.1f}" for s, v in stage_ms.items()))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.DictWriter(f, fieldnames=list(rows[0]))
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
            print(f"byler real d6   found {found}/{total} = {100 * found / max(total, 1):.2f}%  (detections {dets})")
        else:
            print(f"byler real d6   skipped: {folder} absent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
