"""What do the Roll dice reader's false dice sit on, and how did they get through? Reads scenes of the second generator
(:mod:`vision.scenes`) as ``bench/roll_dice.py`` does, follows each read through the reader's stages as
``bench/roll_missed_dice.py`` does (:func:`bench.roll_missed_dice.follow`), and names, for every reported die that
matches no label, what it sits on and which of the not-dice stages saw it (issue 16: false dice on normal tables).

Usage::

    python bench/roll_false_tally.py --n 20 --seed 1000          # seeds 1000..1019, enroll seed 7
    python bench/roll_false_tally.py --n 20 --seed 1020 --tally-only

One line per false die (its scene seed, colour/face read, confidence, box, what it sits on, how it got through) and a
tally by each at the end.

What it sits on (:func:`sits_on`), in this order:

    a die's neighbour   at least ``NEIGHBOUR_SHARE`` of its box lies in a labelled die's box: a side face, a box half
                        on a die, a check or a printed box pressed against a die
    board print         its middle lies on a player board (the scene's ``meta["boards"]``: a numbered box, a track line)
    pattern             a checked cloth (gingham)
    playmat art         a printed playmat
    wood grain, felt    the other tables

How it got through (:func:`got_through`), from its die weight (:func:`vision.roll_dice.assemble.die_weights`) after the
face match and after each lowering stage (``unsized``, ``surface``, ``outline``, ``sides``, ``hanging``,
``side_print``, ``texture``): ``unseen`` when no stage lowered it, else ``lowered <stage>`` for the stage that lowered
it most (weight before -> after, still at least ``min_confidence``); ``added`` for a face the lowering stages never
weighed (none in a normal read). The dropping stages (``boxed``, ``own_side``, ``on_other``, ``blank``) let every false
die through by definition: they keep what they do not drop.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_dice import _box, lies_on, match  # noqa: E402 - after sys.path
from bench.roll_missed_dice import Trace, scene_arguments, traced_scenes  # noqa: E402
from vision.profiles import load_dice_faces  # noqa: E402
from vision.roll_dice import RollDiceConfig, rect_box  # noqa: E402

#: A false die with at least this share of its box (x, y, w, h) inside a labelled die's box is that die's neighbour (a
#: side face, a box half on the die, a check or a printed box pressed against it).
NEIGHBOUR_SHARE = 0.1
#: What each table of :data:`vision.scenes.tables.TABLE_KINDS` is, as the tally names it.
TABLE_NAMES = {"gingham": "pattern", "playmat": "playmat art", "wood": "wood grain", "felt": "felt"}


def sits_on(box: tuple[float, float, float, float], label_boxes: list[tuple[float, float, float, float]],
            under: str) -> str:
    """What a false die of box ``box`` (x, y, w, h px) sits on: ``"a die's neighbour"`` when at least
    :data:`NEIGHBOUR_SHARE` of its area lies inside one of ``label_boxes`` (the labelled dice's boxes, x, y, w, h px),
    else ``"board print"`` when ``under`` (:func:`bench.roll_dice.lies_on` of the box) is ``"board"``, else the table's
    name (:data:`TABLE_NAMES`; an unknown table as given). Raises nothing; an empty box is no die's neighbour."""
    x, y, w, h = (float(v) for v in box)
    area = w * h
    for lx, ly, lw, lh in label_boxes:
        ix = min(x + w, float(lx) + float(lw)) - max(x, float(lx))
        iy = min(y + h, float(ly) + float(lh)) - max(y, float(ly))
        if area > 0 and ix > 0 and iy > 0 and ix * iy >= NEIGHBOUR_SHARE * area:
            return "a die's neighbour"
    if under == "board":
        return "board print"
    return TABLE_NAMES.get(under, under)


def got_through(box: tuple[float, float, float, float], trace: Trace) -> tuple[str, str]:
    """(how, detail) a false die of box ``box`` (x, y, w, h px, as reported) got through the lowering stages of one
    read's ``trace``: its face is the one of ``trace.rects`` whose box (:func:`vision.roll_dice.rect_box`) is ``box``;
    ``("unseen", "die weight W")`` when no stage lowered its die weight, ``("lowered <stage>", "W0 -> W1")`` for the
    stage that lowered it most (by ratio), ``("added", "")`` when no face of the trace has that box. Raises nothing."""
    boxes = [rect_box(r) for r in np.asarray(trace.rects, np.float64).reshape(-1, 5)]
    want = tuple(int(v) for v in box)
    if want not in boxes or not trace.weights:
        return "added", ""
    i = boxes.index(want)
    first = float(trace.weights[0][1][i])
    worst, ratio, before, after = "", 1.0, first, first
    prev = first
    for stage, w in trace.weights[1:]:
        now = float(w[i])
        r = now / prev if prev > 0 else 1.0
        if r < ratio - 1e-9:
            worst, ratio, before, after = stage, r, prev, now
        prev = now
    if not worst:
        return "unseen", f"die weight {first:.2f}"
    return f"lowered {worst}", f"{before:.2f} -> {after:.2f}"


def main(argv=None) -> int:
    ap = scene_arguments(__doc__.split("\n")[0])
    ap.add_argument("--tally-only", action="store_true", help="print the tallies only")
    args = ap.parse_args(argv)
    args.symbols = "A"
    cfg = RollDiceConfig()
    fbc = load_dice_faces(args.dice_json)
    on_count: Counter = Counter()
    how_count: Counter = Counter()
    reported = 0
    for seed, sc, _reader, read, trace in traced_scenes(args, cfg, fbc):
        reported += len(read.dice)
        matched = {j for _, j in match(sc.dice, read.dice)}
        for j, die in enumerate(read.dice):
            if j in matched:
                continue
            on = sits_on(die.box, [lab.box for lab in sc.dice], lies_on(die.box, sc.meta))
            how, detail = got_through(die.box, trace)
            on_count[on] += 1
            how_count[how] += 1
            if not args.tally_only:
                print(f"  {seed} false {die.colour}/{die.face} {die.confidence:.2f} box {_box(die.box)} on {on}: "
                      f"{how}" + (f" ({detail})" if detail else ""), flush=True)
    false = sum(on_count.values())
    print(f"scenes {args.n} (seeds {args.seed}..{args.seed + args.n - 1}), reported {reported}, false {false}")
    print("  sits on: " + ", ".join(f"{k} {v}" for k, v in on_count.most_common()))
    print("  got through: " + ", ".join(f"{k} {v}" for k, v in how_count.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
