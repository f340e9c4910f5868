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
or not, and the percentiles of each figure for the real and the false dice. The die size is searched as the reader
searches it (not measured on the frame's blobs), so the false dice are those a read reports.
"""

from __future__ import annotations

import argparse
import csv
import functools
import sys
import tempfile
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_dice import match, readers_for, shared_dir
from vision import scenes
from vision.profiles import load_dice_faces
from vision.roll_dice import RollDiceConfig, RollDiceReader
from vision.roll_dice.assemble import assemble, die_weights, symbol_weights
from vision.roll_dice.candidates import edge_map
from vision.roll_dice.foreground import foreground
from vision.roll_dice.outline import square_outline
from vision.roll_dice.reader import _cnn_boxes, _not_flat_art, _not_printed, _not_side, _not_vouched
from vision.roll_dice.shape import die_likeness, pattern_axes, pattern_repeats, surface_returns
from vision.roll_dice.tops import rect_box

FIGURES = ("confidence", "score", "ncc", "likeness", "rim", "outline", "ink", "pattern", "lattice", "surface",
           "square", "weight", "side")


def read_with_evidence(reader: RollDiceReader, frame: np.ndarray, cfg: RollDiceConfig) -> list[dict]:
    """The reader's stages on ``frame`` (``uint8[H, W, 3]`` BGR), as :meth:`RollDiceReader.read` runs them (the die
    size searched as the read searches it, not the size measured on the frame's blobs), with the evidence of each
    reported die: one dict per die (its observation under ``"die"``, its rect, figures)."""
    timings: dict[str, float] = {}
    fg = foreground(frame, cfg)
    found = _cnn_boxes(frame, reader._cnn, cfg)
    edges = edge_map(fg[0], cfg)
    tops_at = functools.partial(reader._tops_for, frame, fg, edges, found, cfg, timings, None)
    evidence, _, tops, ncc = reader._search(tops_at, fg, edges, cfg, timings, {}, frame)
    tops = _not_vouched(tops, ncc, evidence, cfg)
    weight = die_weights(tops, ncc, cfg)
    pattern = pattern_repeats(frame, tops.rects, cfg, weight >= cfg.min_confidence)
    lattice = pattern_axes(frame, tops.rects, cfg, weight >= cfg.min_confidence, colour=cfg.repeat_axes_colour)[:, 1]
    surface = surface_returns(frame, tops.rects, tops.body, cfg, weight >= cfg.min_confidence)
    square = square_outline(frame, tops.rects, cfg, weight >= cfg.min_confidence)
    kept = _not_side(frame, _not_flat_art(frame, _not_printed(frame, tops, ncc, cfg)[0], ncc, cfg), ncc, cfg)
    _, colour_p = reader._colours(kept.body, symbol_weights(kept, ncc, cfg), cfg, None)
    dice = assemble(kept, colour_p, ncc, reader.profile, cfg, reader._template_pol)
    boxes = [rect_box(r) for r in kept.rects]
    likeness = die_likeness(tops.evidence, cfg)
    out = []
    for d in dice:
        i = boxes.index(d.box)
        r = tops.rects[i]
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
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=10, help="scenes (default 10)")
    ap.add_argument("--seed", type=int, default=1000, help="first scene seed (default 1000)")
    ap.add_argument("--enroll-seed", type=int, default=7, help="enrollment seed (scene seeds stay disjoint)")
    ap.add_argument("--dice-json", default=str(shared_dir() / "data" / "roll" / "dice.json"))
    ap.add_argument("--out", required=True, help="folder for the crops and dice.csv")
    args = ap.parse_args(argv)
    args.symbols = "A"  # readers_for's argument for the first generator; unused here
    cv2.setNumThreads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fbc = load_dice_faces(args.dice_json)
    cfg = RollDiceConfig()
    work = tempfile.TemporaryDirectory(prefix="roll_false_")   # the enrollments, removed when the bench ends
    readers = readers_for("scenes", Path(work.name), fbc, args, cfg)
    keys = list(readers)
    rows: list[dict] = []
    for k in range(args.n):
        seed = args.seed + k
        key = keys[k % len(keys)]
        sc = scenes.render_dice_scene(seed, faces_by_colour=fbc, edition=key)
        ok, jpg = cv2.imencode(".png", sc.image)
        frame = cv2.imdecode(jpg, cv2.IMREAD_COLOR)  # as the bench reads it: a written and read picture
        read = read_with_evidence(readers[key], frame, cfg)
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
