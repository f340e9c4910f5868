"""Diagnose the cards the table reader misses on synthetic tables (issue 16): one line per missed card.

Each card of each scene is classified as

* ``not_found``: no reported card has its centre inside the card's true outline;
* ``unreadable``: found, id None;
* ``wrong``: found, another card's id (``conf`` tells whether it was a confident wrong read);

with the scene's table, camera, light (kelvin), the card's short side in px, how well the reported outline fits
the true one (intersection over union, ``iou``), the card's visible fraction (the other cards lying over it), and
what the deck makes of the crop of the TRUE outline (``truth_id`` / ``truth_d``: the best card and its distance;
a miss whose true outline reads right is a detection or outline fault, one whose true outline reads wrong an
identification fault). A summary by class and by table/camera follows.

    python tools/card_misses.py --generator scenes --seed 1000 --n 21
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.table_reader import game_ids, match_labels, synth_decks  # noqa: E402
from vision import scenes  # noqa: E402
from vision.card_detect import crop_size  # noqa: E402
from vision.cards import CardsConfig, read_cards  # noqa: E402
from vision.quads import order_quad, quad_size, rectify  # noqa: E402
from vision.synth_table import make_scene  # noqa: E402
from vision.table import calibrate  # noqa: E402


def iou(a: np.ndarray, b: np.ndarray) -> float:
    pa = order_quad(np.asarray(a, np.float64)).astype(np.float32)
    pb = order_quad(np.asarray(b, np.float64)).astype(np.float32)
    inter = float(cv2.intersectConvexConvex(pa, pb)[0])
    union = float(cv2.contourArea(pa)) + float(cv2.contourArea(pb)) - inter
    return inter / union if union > 0 else 0.0


def visible(k: int, labels: list) -> float:
    """Fraction of card k's area not under a card laid after it (the generators paste in label order)."""
    poly = order_quad(labels[k].corners_px.astype(np.float64)).astype(np.float32)
    area = float(cv2.contourArea(poly))
    cover = 0.0
    for j in range(k + 1, len(labels)):
        other = order_quad(labels[j].corners_px.astype(np.float64)).astype(np.float32)
        cover += float(cv2.intersectConvexConvex(poly, other)[0])
    return max(0.0, 1.0 - cover / area) if area > 0 else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generator", default="scenes", choices=["synth", "scenes"])
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--n", type=int, default=21)
    ap.add_argument("--enroll-camera", default="phone")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    ids = game_ids()
    decks = synth_decks(args.generator, ids, args.enroll_camera)
    games = ["race", "roll", "among"]
    classes: Counter = Counter()
    by: dict[str, Counter] = {}
    extra = 0
    for k in range(args.n):
        g = games[k % 3]
        seed = args.seed + k
        sc = (make_scene(g, ids[g], seed=seed) if args.generator == "synth"
              else scenes.card_scene(g, ids[g], seed=seed))
        try:
            cal = calibrate(sc.image, sc.layout)
        except Exception:  # noqa: BLE001 - a failed calibration is read without one
            cal = None
        deck = decks[g]
        r = read_cards(sc.image, deck, calibration=cal,
                       config=CardsConfig(anchor_id="main_reactor" if g == "among" else None))
        pairs = match_labels(sc.cards, list(r.cards))
        extra += len(r.cards) - sum(c is not None for _, c in pairs)
        cw, ch = crop_size(CardsConfig(), deck.aspect)
        for j, (lab, c) in enumerate(pairs):
            if c is not None and c.id == lab.id:
                classes["right"] += 1
                continue
            cls = "not_found" if c is None else ("unreadable" if c.id is None else "wrong")
            classes[cls] += 1
            tq = order_quad(lab.corners_px.astype(np.float64))
            tid, td = deck.score(rectify(sc.image, tq, cw, ch))[:2]
            meta = sc.meta
            for key in (f"class:{cls}", f"table:{meta.get('table')}", f"camera:{meta.get('camera')}"):
                by.setdefault(key, Counter())[cls] += 1
            print(f"{g:5s} seed {seed} {cls:10s} card {lab.id:28s} table {meta.get('table')!s:10s} "
                  f"camera {meta.get('camera')!s:8s} K {meta.get('kelvin')!s:5s} "
                  f"blur {meta.get('motion_blur_px', '-')!s:4s} jpg {meta.get('jpeg', '-')!s:3s} "
                  f"short {min(quad_size(tq)):5.0f}px vis {visible(j, sc.cards):.2f} "
                  f"iou {iou(c.corners, tq) if c is not None else 0.0:.2f} "
                  f"read {c.id if c is not None else '-'}@{c.confidence if c is not None else 0:.2f} "
                  f"truth {'OK' if tid == lab.id else tid}@{td:.3f} unk {deck.config.unknown_distance:.3f}"
                  f" cal {cal is not None}")
    tot = sum(classes.values())
    print(f"cards {tot}; " + "; ".join(f"{k} {v}" for k, v in sorted(classes.items())) + f"; extra {extra}")
    for key, v in sorted(by.items()):
        print(f"  {key:24s} " + ", ".join(f"{k} {n}" for k, n in sorted(v.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
