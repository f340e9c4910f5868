"""What are the Roll dice reader's false dice? Reads scenes of the second generator (:mod:`vision.scenes`) as
``bench/roll_dice.py`` does and writes, for every reported die that matches no label, a crop of the frame round it
and one CSV row of the evidence the reader weighed (issue 16: false dice on patterned tables).

Usage::

    python bench/roll_false_dice.py --n 10 --out /tmp/false_dice            # seeds 1000..1009, enroll seed 7
    python bench/roll_false_dice.py --n 10 --seed 5000 --enroll-seed 13 --out /tmp/false_dice_5000

Written to ``--out``: ``F_<seed>_<k>_<table>.png`` (a false die, 3 sides round its top face, scaled x3),
``T_<seed>_<k>_<table>.png`` for the dice of the first two scenes (to compare), ``dice.csv`` (one row per reported
die: seed, table, false, near (distance to the nearest labelled die in sides of this face: below 1.3 a side face,
shadow or box beside a real die), colour, face, confidence, candidate score, best template NCC, die-likeness,
rim / outline / ink evidence, pattern NCC along one axis and along two (lattice), surface returns, square outline
(:func:`vision.roll_dice.outline.square_outline`), die weight, side px). Printed: false dice by table, beside a die
or not, and the percentiles of each figure for the real and the false dice. Each scene is the reader's own read
(:meth:`vision.roll_dice.RollDiceReader.read`, every stage of it), followed through its stages as
``bench/roll_false_tally.py`` follows it (:func:`bench.roll_missed_dice.traced_scenes`), so the false dice are those
a read reports and the figures are those of the faces they were read from (:func:`dice_evidence`).
"""

from __future__ import annotations

import csv
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_dice import match  # noqa: E402 - after sys.path
from bench.roll_missed_dice import Trace, scene_arguments, traced_scenes  # noqa: E402
from vision.profiles import load_dice_faces  # noqa: E402
from vision.roll_dice import RollDiceConfig, rect_box  # noqa: E402
from vision.roll_dice.outline import square_outline  # noqa: E402
from vision.roll_dice.shape import die_likeness, pattern_axes, pattern_repeats, surface_returns  # noqa: E402

FIGURES = ("confidence", "score", "ncc", "likeness", "rim", "outline", "ink", "pattern", "lattice", "surface",
           "square", "weight", "side")


def face_of(box: tuple[float, float, float, float], trace: Trace) -> int | None:
    """The index into ``trace.rects`` of the top face a reported die of box ``box`` (x, y, w, h px) was read from: the
    face whose box (:func:`vision.roll_dice.rect_box`) is ``box``, else (a die the reader recentred) the face the
    decision kept whose centre lies nearest the box's centre; None when the trace has no face. Raises nothing."""
    rects = np.asarray(trace.rects, np.float64).reshape(-1, 5)
    if not len(rects):
        return None
    want = tuple(int(v) for v in box)
    boxes = [rect_box(r) for r in rects]
    if want in boxes:
        return boxes.index(want)
    kept = sorted(trace.kept[-1][1]) if trace.kept else list(range(len(rects)))
    if not kept:
        kept = list(range(len(rects)))
    centre = np.array([box[0] + box[2] / 2.0, box[1] + box[3] / 2.0])
    return kept[int(np.argmin(np.hypot(*(rects[kept, :2] - centre).T)))]


def dice_evidence(frame: np.ndarray, read, trace: Trace, cfg: RollDiceConfig) -> list[dict]:
    """The evidence of each die ``read`` reports on ``frame`` (``uint8[H, W, 3]`` BGR), from the ``trace`` of that
    read (the reader's own read, followed through its stages by :func:`bench.roll_missed_dice.follow`). One dict per
    reported die, in the read's order: its observation under ``"die"``, its top face's rect (``"rect"``, float[5]
    frame px) and the figures of :data:`FIGURES`: ``score`` the candidate score and ``rim``/``outline``/``ink`` the
    evidence of the top face as the face match read it, ``weight`` its die weight after the last lowering stage (what
    the decision weighed), ``pattern``/``lattice``/``surface``/``square`` measured again on that face (-1 where not
    measured), ``side`` px. A die no face of the trace gives is left out (none in a normal read)."""
    tops = trace.tops
    faces = [face_of(d.box, trace) for d in read.dice]
    if tops is None or not read.dice:
        return []
    ncc = np.asarray(trace.ncc, np.float64).reshape(len(trace.rects), -1)
    todo = np.zeros(len(trace.rects), bool)
    todo[[i for i in faces if i is not None]] = True
    weight = trace.weights[-1][1]
    pattern = pattern_repeats(frame, tops.rects, cfg, todo)
    lattice = pattern_axes(frame, tops.rects, cfg, todo, colour=cfg.repeat_axes_colour)[:, 1]
    surface = surface_returns(frame, tops.rects, tops.body, cfg, todo)
    square = square_outline(frame, tops.rects, cfg, todo)
    likeness = die_likeness(tops.evidence, cfg)
    out = []
    for d, i in zip(read.dice, faces, strict=True):
        if i is None:
            continue
        r = trace.rects[i]
        rim, outline, ink = (float(v) for v in tops.evidence[i])
        out.append({"die": d, "rect": r, "confidence": d.confidence, "score": float(tops.scores[i]),
                    "ncc": float(ncc[i].max()) if ncc.size else 0.0, "likeness": float(likeness[i]), "rim": rim,
                    "outline": outline, "ink": ink, "pattern": float(pattern[i]),
                    "lattice": float(lattice[i]), "surface": float(surface[i]), "square": float(square[i]),
                    "weight": float(weight[i]),
                    "side": float(np.sqrt(r[2] * r[3]))})
    return out


def crop(frame: np.ndarray, rect: np.ndarray) -> np.ndarray:
    """The frame within 1.5 sides of a top face's centre, scaled x3 (nearest: pixels stay visible)."""
    s = float(np.sqrt(rect[2] * rect[3]))
    cx, cy, h = float(rect[0]), float(rect[1]), 1.5 * s
    x0, y0 = int(max(0, cx - h)), int(max(0, cy - h))
    c = frame[y0:int(cy + h), x0:int(cx + h)]
    return cv2.resize(c, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)


def main(argv=None) -> int:
    ap = scene_arguments(__doc__.split("\n")[0])
    ap.set_defaults(n=10)
    ap.add_argument("--out", required=True, help="folder for the crops and dice.csv")
    args = ap.parse_args(argv)
    args.symbols = "A"  # readers_for's argument for the first generator; unused here
    cv2.setNumThreads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fbc = load_dice_faces(args.dice_json)
    cfg = RollDiceConfig()
    rows: list[dict] = []
    for seed, sc, _reader, dice_read, trace in traced_scenes(args, cfg, fbc):
        k = seed - args.seed
        frame = sc.image
        read = dice_evidence(frame, dice_read, trace, cfg)
        matched = {j for _, j in match(sc.dice, [r["die"] for r in read])}
        labels = np.array([lab.centre for lab in sc.dice], np.float64).reshape(-1, 2)
        table = sc.meta.get("table", "?")
        for j, r in enumerate(read):
            false = j not in matched
            near = float(np.hypot(*(labels - r["rect"][:2]).T).min() / r["side"]) if len(labels) else float("inf")
            rows.append({"seed": seed, "table": table, "false": int(false), "near": round(near, 2),
                         "colour": r["die"].colour, "face": r["die"].face,
                         **{f: round(float(r[f]), 3) for f in FIGURES}})
            if false or k < 2:
                cv2.imwrite(str(out / f"{'F' if false else 'T'}_{seed}_{j}_{table}.png"), crop(frame, r["rect"]))
        print(f"scene {seed} {table}: dice {len(sc.dice)}, reported {len(read)}, false {len(read) - len(matched)}")
    with open(out / "dice.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["seed"])
        w.writeheader()
        w.writerows(rows)
    false = [r for r in rows if r["false"]]
    print("false dice by table and place: " + ", ".join(
        f"{t} {p} {k}" for (t, p), k in sorted(Counter(
            (r["table"], "beside a die" if r["near"] < 1.3 else "apart") for r in false).items())))
    for name, group in (("real", [r for r in rows if not r["false"]]), ("false", false)):
        if group:
            print(f"{name} dice ({len(group)}), percentiles 5/25/50/75/95:")
            for f in FIGURES:
                v = np.percentile([r[f] for r in group], [5, 25, 50, 75, 95])
                print(f"  {f:11}" + " ".join(f"{x:7.2f}" for x in v))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
