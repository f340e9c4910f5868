"""Where does the Roll dice reader lose the dice it misses? Reads scenes of the second generator (:mod:`vision.scenes`)
as ``bench/roll_dice.py`` does and follows every labelled die no reported die matches through the reader's stages, to
the first stage that loses it (issue 16: dice missed on unseen tables).

Usage::

    python bench/roll_missed_dice.py --n 20 --seed 1000          # seeds 1000..1019, enroll seed 7
    python bench/roll_missed_dice.py --n 20 --seed 1020 --causes-only
    python bench/roll_missed_dice.py --n 20 --seed 1040 --scales 1,1.15,1.3,1.45,1.6   # weak symbols by face side
    python bench/roll_missed_dice.py --n 20 --seed 1020 --factors   # weak symbols: the factors of each die weight
    python bench/roll_missed_dice.py --n 30 --seed 1000 --classes --crops /tmp/misses   # missed dice by class

One line per missed die (its scene seed, truth, label box, what it lies on) with where it was lost, and a tally by
cause at the end; with ``--factors``, each weak symbol's near faces with the factors of their die weight
(:func:`weight_factors`), the one keeping each under ``min_confidence`` first (:func:`limiting_factor`), and a tally
of those. A top face is "near" a die when its centre lies inside the die's label box or the label's centre
inside the face's box (the bench's own matching rule). Causes, in the order of the stages:

    no face         no top face near the die at any die size tried (no candidate there)
    other size      top faces near it only at a die size not chosen, none of them added
    weak symbol     faces near it at the size chosen (or added), but none weighs ``min_confidence`` as a die once its
                    symbol is matched (:func:`vision.roll_dice.assemble.die_weights`): the symbol matches too weakly
    lowered <stage> a face near it weighed enough after the face match, and stage <stage> (``unsized``, ``surface``,
                    ``outline``, ``sides``, ``hanging``, ``side_print``, ``texture``) lowered the last of them under it
    not kept        still weighing enough, but the decision (:func:`vision.roll_dice.assemble.assemble_indexed`: one
                    die a place, an unknown colour) kept none near it
    dropped <stage> kept by the decision and left out by ``boxed``, ``own_side``, ``on_other`` or ``blank``
    reported off    a die is reported near it but the bench matched that die to another label (or its box misses)

With ``--classes``, each missed die also gets where it lies (:func:`situation`: merged with a neighbour's reported
die, touching a neighbour, across a player board's edge, at the frame's edge, or in the open) and the tallies are
printed as tables by stage and situation, by colour and by what it lies on (:func:`class_table`); ``--crops DIR``
saves each missed die's surroundings as a PNG (its top face outlined green, reported dice red, 2x).

The reader is followed through its stage timer (:func:`vision.timing.timed_stage`, as :mod:`bench.roll_stage_cpu`
does) and the faces found at each size through its per-size top-face cut; the read itself is not changed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.roll_dice.reader as reader_module  # noqa: E402 - after sys.path
from bench.roll_dice import _box, inside, match, readers_for, shared_dir  # noqa: E402
from vision import scenes  # noqa: E402
from vision.profiles import load_dice_faces  # noqa: E402
from vision.roll_dice import RollDiceConfig, RollDiceReader, rect_box  # noqa: E402
from vision.roll_dice.assemble import die_weights  # noqa: E402

#: The stages that lower a face's die score, in the order the reader runs them.
LOWERING = ("unsized", "surface", "outline", "sides", "hanging", "side_print", "texture")
#: The stages that leave out a die the decision kept, in the order the reader runs them.
DROPPING = ("boxed", "own_side", "on_other", "blank")


@dataclass
class Trace:
    """What one read did, stage by stage: the top faces' rects (``float[M, 5]`` frame px) found at each die size tried
    (``sizes``), the size chosen, the faces read on from there (``rects``, ``float[N, 5]``: the size chosen's and those
    added from other sizes), each one's die weight after the face match and after each lowering stage (``weights``:
    ``(stage, float[N])`` in order, the first named ``faces``), the faces the decision kept and each dropping stage left
    (``kept``: ``(stage, set of face indices)``, but ``blank``: a die it leaves out is no box of ``dice``), and the
    boxes reported (``dice``, ``(x, y, w, h)`` px), the top faces read on (``tops``, :class:`vision.roll_dice.
    observations.TopFaces`, None until matched), their NCC (``ncc``, ``float[N, K]``) and which of them the recut added
    (``recut``, ``bool[N]``: its score scaled by the ramp ``recut_match_ramp`` of its NCC)."""

    sizes: dict[float, np.ndarray] = field(default_factory=dict)
    chosen: float | None = None
    rects: np.ndarray = field(default_factory=lambda: np.zeros((0, 5)))
    weights: list[tuple[str, np.ndarray]] = field(default_factory=list)
    kept: list[tuple[str, set[int]]] = field(default_factory=list)
    dice: list[tuple[float, float, float, float]] = field(default_factory=list)
    tops: object = None
    ncc: object = None
    recut: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))


def near(rects: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """``bool[N]``: which of ``rects`` (``float[N, 5]`` frame px) lie on the die of label box ``box`` (x, y, w, h px):
    the rect's centre inside the box, or the box's centre inside the rect's box (:func:`rect_box`)."""
    rects = np.asarray(rects, np.float64).reshape(-1, 5)
    centre = (box[0] + box[2] / 2.0, box[1] + box[3] / 2.0)
    return np.array([inside((r[0], r[1]), box) or inside(centre, rect_box(r)) for r in rects], bool)


def lost_where(box: tuple[float, float, float, float], trace: Trace, least: float) -> tuple[str, str]:
    """(cause, detail) of a labelled die of box ``box`` (x, y, w, h px) that no reported die matched, from one read's
    ``trace``: the first stage that loses it (the causes of this module's docstring); ``least``: the die weight a read
    reports (``min_confidence``). Raises nothing."""
    mine = near(trace.rects, box)
    if not mine.any():
        other = [s for s, r in trace.sizes.items() if s != trace.chosen and near(r, box).any()]
        if not other:
            return "no face", f"sizes tried {sorted(trace.sizes)}"
        return "other size", f"faces at {sorted(other)}, size chosen {trace.chosen}"
    idx = np.flatnonzero(mine)
    first = trace.weights[0][1][idx] if trace.weights else np.zeros(len(idx))
    if not (first >= least).any():
        return "weak symbol", f"die weight at most {float(first.max()):.2f}"
    for stage, w in trace.weights[1:]:
        if not (w[idx] >= least).any():
            return f"lowered {stage}", f"die weight {float(first.max()):.2f} -> {float(w[idx].max()):.2f}"
    held = set(idx.tolist())
    for stage, kept in trace.kept:
        if not held & kept:
            return ("not kept", "") if stage == "assemble" else (f"dropped {stage}", "")
    centre = (box[0] + box[2] / 2.0, box[1] + box[3] / 2.0)
    if not any(inside(centre, d) or inside((d[0] + d[2] / 2.0, d[1] + d[3] / 2.0), box) for d in trace.dice):
        return "dropped blank", ""
    return "reported off", ""


def symbol_at_scales(reader: RollDiceReader, frame: np.ndarray, trace: Trace, box: tuple[float, float, float, float],
                     truth: tuple[str, str], scales: tuple[float, ...],
                     cfg: RollDiceConfig) -> list[tuple[float, float]]:
    """For a die of label box ``box`` (x, y, w, h px) and label ``truth`` (colour, face): its own symbol's best NCC
    (and the best of any template) over the faces near it, each looked at again (:func:`vision.roll_dice.faces.
    relocate_faces`, the reader's second look) at one side scale of ``scales`` alone (x the side the read gave the
    face): ``[(own, best)]`` in the order of ``scales``, NaN where no face lies near or the profile has no such
    template. Tells a symbol that matches weakly because its face was cut at the wrong side from one that matches
    weakly at any side. Raises nothing."""
    from dataclasses import replace

    from vision.roll_dice.faces import relocate_faces

    pairs = list(reader.profile.template_pairs)
    idx = np.flatnonzero(near(trace.rects, box))
    if trace.tops is None or not len(idx) or tuple(truth) not in pairs:
        return [(float("nan"), float("nan"))] * len(scales)
    own = pairs.index(tuple(truth))
    zero = np.zeros((len(trace.rects), len(pairs)), np.float32)
    out = []
    for s in scales:
        one = replace(cfg, relocate_scales=(float(s),), relocate_below=2.0, relocate_gain=-2.0)  # always looked at
        todo = np.zeros(len(trace.rects), bool)
        todo[idx] = True
        got, _ = relocate_faces(frame, trace.tops, zero, None, reader.turned_templates, one, todo,
                                reader._template_pol)
        out.append((float(got[idx, own].max()), float(got[idx].max())))
    return out


#: The factors of a die weight (:func:`weight_factors`) that multiply it, in the order :func:`limiting_factor` names a
#: tie: the candidate score (``recut gate`` where the recut lowered it by its NCC), the symbol-or-shape evidence, the
#: plain-symbol gate, the printed middle and the printed strokes.
MULTIPLYING = ("score", "evidence", "plain", "middle", "stroke")


def weight_factors(tops, ncc: np.ndarray, cfg: RollDiceConfig, idx: np.ndarray,
                   recut: np.ndarray | None = None) -> list[dict[str, float]]:
    """The factors of :func:`vision.roll_dice.assemble.die_weights` for the top faces ``idx`` of ``tops`` (N faces,
    their NCC ``float[N, K]``), one dict a face: the multiplying factors of :data:`MULTIPLYING` (each 0..1: ``score``
    the candidate score; ``evidence`` the strongest of the symbol match with the shape's support, the strong match
    alone and the shape alone; ``plain`` 1 or 0; ``middle`` and ``stroke`` the ramps of the middle's and the strokes'
    spreads) and what they are made of (``ncc`` the best NCC, ``shape`` the die-likeness, ``middle_spread`` and
    ``stroke_spread`` in log units, ``side`` px), ``weight`` (their product, the die weight) and ``recut_gate``: for a
    face the recut added (``recut``, ``bool[N]``), the ramp ``recut_match_ramp`` of its NCC, by which the recut scaled
    its score (NaN for another face). Raises nothing."""
    from vision.roll_dice.assemble import _ramp
    from vision.roll_dice.shape import die_likeness, middle_spread, stroke_spread

    n = len(tops.rects)
    best = ncc.max(1) if ncc.size else np.zeros(n)
    shape = die_likeness(tops.evidence, cfg) if tops.evidence is not None else np.ones(n)
    mid = middle_spread(tops.ink, cfg) if tops.ink is not None else np.full(n, np.inf)
    stroke = stroke_spread(tops.ink, cfg) if tops.ink is not None else np.full(n, np.inf)
    weight = die_weights(tops, ncc, cfg)
    recut = np.zeros(n, bool) if recut is None else np.asarray(recut, bool)
    out = []
    for i in idx:
        symbol = float(_ramp(best[i], cfg.match_ramp)) * (1.0 - cfg.shape_support + cfg.shape_support * shape[i])
        gate = (float(_ramp(best[i], cfg.recut_match_ramp)) if recut[i] and cfg.recut_match_ramp is not None
                else float("nan"))
        out.append({"score": float(tops.scores[i]),
                    "evidence": max(symbol, float(_ramp(best[i], cfg.strong_match_ramp)),
                                    cfg.shape_only * float(shape[i])),
                    "plain": float((best[i] >= cfg.symbol_min) or (shape[i] >= cfg.shape_alone)),
                    "middle": float(_ramp(mid[i], cfg.middle_ramp)) if tops.ink is not None else 1.0,
                    "stroke": float(_ramp(stroke[i], cfg.stroke_ramp)) if tops.ink is not None else 1.0,
                    "ncc": float(best[i]), "shape": float(shape[i]), "middle_spread": float(mid[i]),
                    "stroke_spread": float(stroke[i]), "side": float(np.sqrt(abs(tops.rects[i][2] * tops.rects[i][3]))),
                    "weight": float(weight[i]), "recut_gate": gate})
    return out


def limiting_factor(factors: dict[str, float], least: float) -> str:
    """The factor of one face's :func:`weight_factors` that keeps its die weight under ``least`` (``min_confidence``):
    the smallest multiplying factor (:data:`MULTIPLYING`), named ``recut gate`` when it is the score of a face the
    recut scaled under the ramp of its NCC (the gate, not the candidate, lowered it); "none" when the weight reaches
    ``least``. Raises ``KeyError`` for a dict without the factors."""
    if factors["weight"] >= least:
        return "none"
    name = min(MULTIPLYING, key=lambda k: factors[k])
    gate = factors.get("recut_gate", float("nan"))
    if name == "score" and gate == gate and gate <= factors["score"] + 1e-9:
        return "recut gate"
    return name


def follow(reader: RollDiceReader, frame: np.ndarray, cfg: RollDiceConfig) -> tuple[object, Trace]:
    """(the read, its :class:`Trace`) of ``frame`` (``uint8[H, W, 3]`` BGR) by ``reader``, followed through the
    reader's stage timer and its per-size top-face cut; the read is the reader's own."""
    trace = Trace()
    state: dict = {}
    timer = reader_module.timed_stage
    cut = reader._tops_for

    def tops_for(*args, **kwargs):
        tops = cut(*args, **kwargs)
        trace.sizes[float(args[7])] = np.asarray(tops.rects, np.float64).reshape(-1, 5)
        return tops

    def stage(timings, name, fn, *args, **kwargs):
        out = timer(timings, name, fn, *args, **kwargs)
        if name == "other_sizes":
            tops, ncc = out[0], out[1]
            state["ncc"] = ncc.reshape(len(tops.rects), -1)
            trace.rects = np.asarray(tops.rects, np.float64).reshape(-1, 5)
            trace.tops = tops
            trace.ncc = state["ncc"]
            added = {r.tobytes() for r in state.get("recut", ())}
            trace.recut = np.array([r.tobytes() in added for r in trace.rects], bool)
            trace.weights = [("faces", die_weights(tops, state["ncc"], cfg))]
        elif name == "recut":   # the faces the recut added follow the look's own (RollDiceReader._recut)
            look, tops = args[5][2], out[0]
            state["recut"] = np.asarray(tops.rects, np.float64).reshape(-1, 5)[len(look.rects):]
        elif name in LOWERING:
            tops = out[0] if isinstance(out, tuple) else out
            trace.weights.append((name, die_weights(tops, state["ncc"], cfg)))
        elif name == "assemble":
            trace.kept.append((name, {i for i, _ in out}))
            state["kept"] = list(out)
        elif name in DROPPING[:-1]:
            trace.kept.append((name, {i for i, _ in out[0]}))
        return out

    reader._tops_for = tops_for
    reader_module.timed_stage = stage
    try:
        read = reader.read(frame)
    finally:
        reader_module.timed_stage = timer
        del reader._tops_for
    trace.chosen = float(read.die_size) if read.die_size is not None else None
    trace.dice = [d.box for d in read.dice]
    return read, trace


def scene_arguments(description: str) -> argparse.ArgumentParser:
    """The command line every traced-scenes bench shares: --n scenes from --seed, enrolled with --enroll-seed."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--n", type=int, default=20, help="scenes (default 20)")
    ap.add_argument("--seed", type=int, default=1000, help="first scene seed (default 1000)")
    ap.add_argument("--enroll-seed", type=int, default=7, help="enrollment seed (scene seeds stay disjoint)")
    ap.add_argument("--dice-json", default=str(shared_dir() / "data" / "roll" / "dice.json"))
    return ap


def traced_scenes(args: argparse.Namespace, cfg: RollDiceConfig, fbc: dict):
    """Each second-generator scene of ``args`` (seeds ``args.seed`` .. ``args.seed + args.n - 1``) rendered and read
    by :func:`follow`, the readers enrolled once in a temporary folder.

    Yields:
        ``(seed, scene, reader, read, trace)`` per scene, in seed order.
    """
    with tempfile.TemporaryDirectory(prefix="roll_traced_") as tmp:
        readers = readers_for("scenes", Path(tmp), fbc, args, cfg)
        keys = list(readers)
        for k in range(args.n):
            seed = args.seed + k
            key = keys[k % len(keys)]
            sc = scenes.render_dice_scene(seed, faces_by_colour=fbc, edition=key)
            read, trace = follow(readers[key], sc.image, cfg)
            yield seed, sc, readers[key], read, trace


#: Where a missed die lies, in the order :func:`situation` names the first that holds.
SITUATIONS = ("merged", "touching", "board edge", "frame edge", "open")


def quad_side(quad) -> float:
    """The mean edge length (px) of a die's top-face ``quad`` (``[(x, y)] * 4`` picture px). Raises nothing."""
    q = np.asarray(quad, np.float64).reshape(-1, 2)
    return float(np.mean(np.hypot(*(np.roll(q, -1, 0) - q).T)))


def quad_gap(a, b) -> float:
    """The gap (px) between two convex top-face quads (``[(x, y)] * 4`` picture px): the shortest distance from a
    corner of one to the other's outline, 0 when they overlap. Raises nothing."""
    pa = np.asarray(a, np.float32).reshape(-1, 1, 2)
    pb = np.asarray(b, np.float32).reshape(-1, 1, 2)
    gaps = [cv2.pointPolygonTest(pb, (float(x), float(y)), True) for x, y in pa.reshape(-1, 2)]
    gaps += [cv2.pointPolygonTest(pa, (float(x), float(y)), True) for x, y in pb.reshape(-1, 2)]
    if max(gaps) >= 0:   # a corner of one inside the other
        return 0.0
    return float(-max(gaps))


def situation(i: int, labels, dice_boxes, matched: dict[int, int], meta: dict, frame_size: tuple[int, int],
              touch: float = 0.15, edge: float = 0.6) -> str:
    """Where missed labelled die ``i`` of ``labels`` (:class:`vision.synth.DieLabel`, picture px) lies, the first of
    :data:`SITUATIONS` that holds:

    - ``merged``: a reported die's box (``dice_boxes``, ``(x, y, w, h)`` px) holds its centre but the bench matched that
      die to another label (``matched``: label index -> die index): two dice read as one;
    - ``touching``: another labelled die's top face lies within ``touch`` x its side (:func:`quad_gap`);
    - ``board edge``: a player board's outline (``meta["boards"]``, ``[[x, y], ...]`` px) passes within ``edge`` x
      its side of its centre (half on, half off a board);
    - ``frame edge``: its centre lies within one side of the frame's border (``frame_size``: (width, height) px);
    - ``open``: none of these.

    Raises ``IndexError`` for an ``i`` outside ``labels``."""
    lab = labels[i]
    side = quad_side(lab.quad)
    cx, cy = lab.centre
    others = {j for k, j in matched.items() if k != i}
    for j, (x, y, w, h) in enumerate(dice_boxes):
        if j in others and inside(lab.centre, (x, y, w, h)):
            return "merged"
    if any(quad_gap(lab.quad, o.quad) <= touch * side for k, o in enumerate(labels) if k != i):
        return "touching"
    for outline in meta.get("boards") or []:
        poly = np.asarray(outline, np.float32).reshape(-1, 1, 2)
        if len(poly) >= 3 and abs(cv2.pointPolygonTest(poly, (float(cx), float(cy)), True)) <= edge * side:
            return "board edge"
    width, height = frame_size
    if min(cx, cy, width - cx, height - cy) <= side:
        return "frame edge"
    return "open"


def class_table(rows: list[tuple[str, str]], title: str) -> list[str]:
    """The lines of one tally table: ``rows`` as (row name, column name) pairs, one per missed die, counted with a
    total a row and a column, rows by their total (largest first), columns likewise. Raises nothing."""
    count = Counter(rows)
    row_total = Counter(r for r, _ in rows)
    col_total = Counter(c for _, c in rows)
    cols = [c for c, _ in col_total.most_common()]
    width = max([len(title)] + [len(r) for r in row_total] + [5])
    lines = [f"{title:{width}} " + " ".join(f"{c:>10}" for c in cols) + f" {'total':>6}"]
    for r, total in row_total.most_common():
        lines.append(f"{r:{width}} " + " ".join(f"{count[(r, c)]:>10}" for c in cols) + f" {total:>6}")
    lines.append(f"{'total':{width}} " + " ".join(f"{col_total[c]:>10}" for c in cols) + f" {len(rows):>6}")
    return lines


def save_crop(folder: Path, name: str, image: np.ndarray, lab, dice_boxes) -> Path:
    """Writes ``folder/name.png``: the part of ``image`` (``uint8[H, W, 3]`` BGR) within two sides of labelled die
    ``lab``'s centre, shown 2x, its top face outlined green and every reported die's box red. Returns the path; raises
    ``OSError`` when the folder cannot be written."""
    side = quad_side(lab.quad)
    h, w = image.shape[:2]
    cx, cy = lab.centre
    x0, y0 = max(0, int(cx - 2 * side)), max(0, int(cy - 2 * side))
    x1, y1 = min(w, int(cx + 2 * side) + 1), min(h, int(cy + 2 * side) + 1)
    crop = cv2.resize(image[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    quad = ((np.asarray(lab.quad, np.float64) - (x0, y0)) * 2).round().astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(crop, [quad], True, (0, 255, 0), 1)
    for x, y, bw, bh in dice_boxes:
        p = (int(round((x - x0) * 2)), int(round((y - y0) * 2)))
        cv2.rectangle(crop, p, (p[0] + int(round(bw * 2)), p[1] + int(round(bh * 2))), (0, 0, 255), 1)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    if not cv2.imwrite(str(path), crop):
        raise OSError(f"could not write {path}")
    return path


def main(argv=None) -> int:
    ap = scene_arguments(__doc__.split("\n")[0])
    ap.add_argument("--causes-only", action="store_true", help="print the tally by cause only")
    ap.add_argument("--factors", action="store_true", help="each weak-symbol die's near faces: the factors of its "
                    "die weight (candidate score, NCC, die-likeness and its evidence, middle and stroke spreads)")
    ap.add_argument("--scales", default="", help="side scales (e.g. 1,1.15,1.3,1.45,1.6): each weak-symbol die's own "
                    "symbol NCC (and the best template's) after a second look at each scale alone")
    ap.add_argument("--classes", action="store_true", help="also where each missed die lies (merged, touching, "
                    "board edge, frame edge, open) and tables by stage and situation, colour and surface")
    ap.add_argument("--crops", default="", help="folder for a PNG of each missed die's surroundings")
    args = ap.parse_args(argv)
    args.symbols = "A"
    scales = tuple(float(v) for v in args.scales.split(",") if v.strip())
    cfg = RollDiceConfig()
    fbc = load_dice_faces(args.dice_json)
    causes: Counter = Counter()
    limits: Counter = Counter()
    labelled = 0
    rows: list[dict[str, str]] = []
    for seed, sc, reader, read, trace in traced_scenes(args, cfg, fbc):
        labelled += len(sc.dice)
        matched = dict(match(sc.dice, read.dice))
        found = set(matched)
        boxes = [d.box for d in read.dice]
        under = sc.meta.get("under") or [sc.meta.get("table", "?")] * len(sc.dice)
        for i, lab in enumerate(sc.dice):
            if i in found:
                continue
            cause, detail = lost_where(lab.box, trace, cfg.min_confidence)
            causes[cause] += 1
            where = ""
            if args.classes:
                place = situation(i, sc.dice, boxes, matched, sc.meta, (sc.image.shape[1], sc.image.shape[0]))
                rows.append({"stage": cause, "situation": place, "colour": lab.colour, "on": str(under[i])})
                where = f" [{place}]"
            if args.crops:
                save_crop(Path(args.crops), f"{seed}-{i:02d}-{lab.colour}-{cause.replace(' ', '_')}", sc.image, lab,
                          boxes)
            if not args.causes_only:
                print(f"  {seed} miss  {lab.colour}/{lab.face} box {_box(lab.box)} on {under[i]}: {cause}"
                      + (f" ({detail})" if detail else "") + where, flush=True)
            if args.factors and cause == "weak symbol" and trace.tops is not None:
                idx = np.flatnonzero(near(trace.rects, lab.box))
                ncc = np.asarray(trace.ncc, np.float64).reshape(len(trace.rects), -1)
                got = weight_factors(trace.tops, ncc, cfg, idx, trace.recut)
                surest = max(got, key=lambda f: f["weight"])
                limits[limiting_factor(surest, cfg.min_confidence)] += 1
                for f in got:
                    print(f"      {limiting_factor(f, cfg.min_confidence):10} "
                          + " ".join(f"{k} {v:.2f}" for k, v in f.items() if v == v), flush=True)
            if scales and cause == "weak symbol":
                got = symbol_at_scales(reader, sc.image, trace, lab.box, (lab.colour, lab.face), scales, cfg)
                print("      own/best NCC by side scale: " + ", ".join(
                    f"x{s:g} {o:.2f}/{b:.2f}" for s, (o, b) in zip(scales, got, strict=True)), flush=True)
    print(f"scenes {args.n} (seeds {args.seed}..{args.seed + args.n - 1}), labelled dice {labelled}, "
          f"missed {sum(causes.values())}")
    for cause, count in causes.most_common():
        print(f"  {cause:22} {count}")
    if rows:
        for row, col in (("stage", "situation"), ("colour", "stage"), ("on", "stage"), ("on", "situation")):
            print("\n".join(class_table([(r[row], r[col]) for r in rows], f"{row} x {col}")))
    if limits:
        print("weak symbols by the factor that keeps the surest face near each under min_confidence:")
        for name, count in limits.most_common():
            print(f"  {name:22} {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
