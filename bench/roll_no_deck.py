"""Roll dice on a table the box knows nothing of: no calibration, no tile deck (a game played with a dice profile).

Usage::

    python bench/roll_no_deck.py                       # layout seeds 1-6 at 960x540
    python bench/roll_no_deck.py --seeds 1-12 --size 1280x720

Tables: ``vision.synth_full.full_table("roll")`` (three rows of five tiles, 20 dice, the four corner markers) at the
layout ``--seeds``, frame seed 0, read as ``companion run --game roll --dice-profile P`` reads them when no
``--deck`` and no calibration is given: the dice adapter the box builds (:class:`vision.readers.RollDiceAdapter`, the
reader keeping its die size, a fresh reader per table), with no card read and so no art check. Two ways:

* ``untold``: the adapter as before (``unknown_cards=False``): every die the reader reports;
* ``box``: as the box now builds it for a game whose tiles no deck identifies (``unknown_cards=1.0``: Roll's square
  tiles): a die read below ``SURE_DIE`` on a card the card detector finds without a deck is left out
  (:func:`vision.readers.off_unknown_cards`).

Printed per table and in total: the dice on the table, the dice reported, found (a report centred on a die, one per
die), right (colour and face), false (centred on no die, or a second report of one die), and the CPU ms of the stage
``unknown_cards``. The profile is enrolled from ``vision.synth.write_enrollment`` photos (seed 7), as
``bench/full_table.py`` enrolls it.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.roll_calibrated import seeds  # noqa: E402
from bench.table_reader import game_ids  # noqa: E402
from vision import synth  # noqa: E402
from vision.profiles import load_dice_faces  # noqa: E402
from vision.readers import RollDiceAdapter  # noqa: E402
from vision.roll_dice import RollDiceReader, build_profile  # noqa: E402
from vision.synth_full import full_table  # noqa: E402

WAYS = ("untold", "box")
COUNTS = ("dice", "reported", "found", "right", "false")


def score(table, dice) -> dict[str, int]:
    """Counts of ``dice`` (observations with ``box``, ``colour``, ``face``) against ``table``'s labelled dice."""
    pieces = [p for p in table.pieces if p.kind == "die"]
    polys = [table.polygon_px(p).astype(np.float32) for p in pieces]
    hit: set[int] = set()
    out = {"dice": len(pieces), "reported": len(dice), "found": 0, "right": 0, "false": 0}
    for d in dice:
        x, y, w, h = d.box
        c = (float(x + w / 2), float(y + h / 2))
        k = next((i for i, q in enumerate(polys) if cv2.pointPolygonTest(q, c, False) >= 0), None)
        if k is None or k in hit:
            out["false"] += 1
            continue
        hit.add(k)
        out["found"] += 1
        out["right"] += int((d.colour, d.face) == (pieces[k].colour, pieces[k].face))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=seeds, default=seeds("1-6"), help="layout seeds, 1-6 or 1,3,5 (default 1-6)")
    ap.add_argument("--size", default="960x540", help="frame size WxH (default 960x540, the play-through's)")
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.lower().split("x"))
    faces = load_dice_faces(ROOT / "rules" / "data" / "roll" / "dice.json")
    with tempfile.TemporaryDirectory(prefix="roll-no-deck-") as tmp:
        profile = build_profile(synth.write_enrollment(Path(tmp) / "enroll", faces, seed=7, symbol_set="A"))
    totals = {w: dict.fromkeys(COUNTS, 0) for w in WAYS}
    cpu: list[float] = []
    for seed in args.seeds:
        table = full_table("roll", game_ids()["roll"], seed, image_size=size, faces_by_colour=faces)
        frame = table.render(frame_seed=0)
        line = [f"seed {seed:3d}"]
        for way in WAYS:
            adapter = RollDiceAdapter(RollDiceReader(profile, remember_size=True),
                                      unknown_cards=1.0 if way == "box" else None)
            seen = adapter.read(frame)
            c = score(table, seen.dice)
            if way == "box":
                cpu.append(seen.timings_ms.get("unknown_cards", 0.0))
            for k in COUNTS:
                totals[way][k] += c[k]
            line.append(f"{way}: reported {c['reported']:2d} found {c['found']:2d}/{c['dice']} right {c['right']:2d} "
                        f"false {c['false']:2d}")
        print("  ".join(line), flush=True)
    for way in WAYS:
        t = totals[way]
        print(f"{way:7s} total: dice {t['dice']} reported {t['reported']} found {t['found']} right {t['right']} "
              f"false {t['false']}")
    print(f"stage unknown_cards: median {np.median(cpu):.0f} ms" if cpu else "")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
