"""Benchmark of the table reader (issue 5, cards and square tiles).

1. Real photos: enroll a SET deck from ``set_cards_tableau/card_crops_labelled_sample`` (the 2 crops per card)
   and read the 6 board photos: cards found, row/column right (webcam boards: row-major labels; phone
   boards: the label order is not the pixel order, so only the 5x3 / 3x3 grid shape is checked and ids
   are compared as a multiset), identified, and wrong ids with confidence >= 0.9.
2. Synthetic tables of both generators side by side (``--generator synth|scenes|both``): :mod:`vision.synth_table`
   (Race and Roll tableaus of 3-14 cards and Among the Stars stations of 6-25 locations, decks enrolled from
   stand-in 'scans') and :mod:`vision.scenes` (the same layouts in its own artwork, tables, light and camera
   models, decks enrolled from photos taken with another camera, ``--enroll-camera``); found / identified /
   rows+cols / cells / confident wrong / extra detections / unreadable : wrong / fully right images, per game,
   per table and per camera.
3. Median time per 1280x720 frame and per 4056x3040 frame (the HQ camera's full resolution; single
   thread) and its ratio to a JPEG (quality 95) ``cv2.imread`` + ``cv2.cvtColor`` of the same frame
   (:mod:`bench.frame_timing`, interleaved).

One row per image (with per-stage timings) goes to ``--csv`` when given.

    python bench/table_reader.py                 # full run (~2-4 min on 1 core)
    python bench/table_reader.py --synth 30      # fewer synthetic scenes
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: no BLAS thread oversubscription on the Pi

import argparse
import csv
import json
import os
import re
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import BASELINE, time_against_jpeg
from vision import scenes
from vision.cards import CardsConfig, decide_mirror, read_cards
from vision.deck_enroll import build_deck, build_deck_from_images
from vision.synth_table import GAME_SHAPES, make_scene, reference_images
from vision.table import calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))
SET_DIR = SHARED / "datasets" / "set_cards_tableau"


# ----------------------------------------------------------------------------------------------- SET


def set_label_to_id(line: str) -> str:
    """'2 green striped squiggles' / '1 red open oval' -> the crop folder name '2-green-striped-squiggles'."""
    n, colour, shading, shape = line.split()[:4]
    shading = {"hatched": "striped", "open": "empty", "filled": "solid"}.get(shading, shading)
    shape = shape.rstrip("s")
    return f"{n}-{colour}-{shading}-{shape}{'s' if int(n) > 1 else ''}"


def eval_set(rows_out: list[dict], mirror: str = "decide", closed: bool = False) -> dict:
    """``closed``: the deck never answers 'not in the deck' (every board card is in it). ``mirror="decide"``:
    decided once per camera (the board file name's prefix, ``webcam_`` / ``phone_``) on its first board whose
    cards tell (:func:`vision.cards.decide_mirror`), then each board read with that camera's ``"on"``/``"off"``."""
    deck = build_deck(SET_DIR / "card_crops_labelled_sample", name="set")
    if closed:
        deck.config = replace(deck.config, unknown_distance=1e9, unknown_distance_max=1e9)
    per_camera: dict[str, str] = {}
    tot = found = ok = wrong_hi = rc_ok = null = 0
    for img_path in sorted((SET_DIR / "boards").iterdir()):
        if img_path.suffix.lower() not in (".png", ".jpg"):
            continue
        labels = [set_label_to_id(line) for line in img_path.with_suffix(".txt").read_text().splitlines()
                  if line.strip()]
        frame = cv2.imread(str(img_path))
        camera = img_path.name.split("_")[0]
        if mirror == "decide" and camera not in per_camera:
            check = decide_mirror(frame, deck)
            if check.mirrored is not None:
                per_camera[camera] = "on" if check.mirrored else "off"
        cfg = CardsConfig(mirror=per_camera.get(camera, "off") if mirror == "decide" else mirror)
        r = read_cards(frame, deck, config=cfg)
        tot += len(labels)
        found += min(len(r.cards), len(labels))
        n_ok = n_wrong_hi = n_rc = 0
        if img_path.name.startswith("webcam"):
            ncols = 4
            for k, (c, lab) in enumerate(zip(r.cards, labels, strict=False)):
                good = c.id == lab
                n_ok += good
                n_wrong_hi += (not good) and c.id is not None and c.confidence >= 0.9
                n_rc += (c.row, c.col) == divmod(k, ncols)
        else:
            ncols = 3
            left = Counter(labels)
            for k, c in enumerate(r.cards):
                if c.id is not None and left[c.id] > 0:
                    left[c.id] -= 1
                    n_ok += 1
                else:
                    n_wrong_hi += c.id is not None and c.confidence >= 0.9
                n_rc += (c.row, c.col) == divmod(k, ncols)
        ok += n_ok
        null += sum(c.id is None for c in r.cards)
        wrong_hi += n_wrong_hi
        rc_ok += n_rc
        rows_out.append({"set": "set_boards_closed" if closed else "set_boards", "image": img_path.name,
                         "mirror": cfg.mirror,
                         "labels": len(labels), "found": len(r.cards),
                         "identified": n_ok, "wrong_conf_ge_0.9": n_wrong_hi, "rowcol_ok": n_rc,
                         **{f"ms_{k}": round(v, 2) for k, v in r.timings_ms.items()}})
    return {"cards": tot, "found": found, "identified": ok, "wrong_conf_ge_0.9": wrong_hi, "rowcol_ok": rc_ok,
            "null": null, "decided": per_camera}


# ----------------------------------------------------------------------------------------------- synthetic


def game_ids() -> dict[str, list[str]]:
    """Card ids from the games' data files in the project (read as data; vision never imports rules)."""
    data = ROOT / "rules" / "data"

    def slug(s: str) -> str:
        return re.sub(r"[^a-z0-9]+", "_", s.lower()).strip("_")

    race = sorted({slug(c["name"]) for c in json.loads((data / "race" / "cards.json").read_text())["cards"]})
    roll = [f"tile_{t['id']}" for t in json.loads((data / "roll" / "tiles.json").read_text())["game_tiles"]]
    ats = json.loads((data / "among_the_stars" / "cards.json").read_text())
    among = ["main_reactor"] + [loc["id"] for loc in ats["locations"]]
    return {"race": race, "roll": roll, "among": among}


def match_labels(labels, cards) -> list[tuple[object, object | None]]:
    """Greedy one-to-one: each label gets the unmatched card whose pixel centre is nearest and inside it."""
    used: set[int] = set()
    out = []
    for lab in labels:
        poly = lab.corners_px.astype(np.float32).reshape(-1, 1, 2)
        best, bd = None, 1e18
        for k, c in enumerate(cards):
            if k in used:
                continue
            p = (float(c.center_px[0]), float(c.center_px[1]))
            if cv2.pointPolygonTest(poly, p, False) < 0:
                continue
            d = float(np.linalg.norm(np.array(p) - lab.corners_px.mean(axis=0)))
            if d < bd:
                best, bd = k, d
        if best is not None:
            used.add(best)
        out.append((lab, cards[best] if best is not None else None))
    return out


def synth_decks(generator: str, ids: dict[str, list[str]], enroll_camera: str = "phone") -> dict:
    """The decks a generator's tables are read with: ``synth``, from ``vision.synth_table``'s stand-in scans;
    ``scenes``, from photos of ``vision.scenes``' own card artwork taken with ``enroll_camera`` (the table
    is then seen by other camera models)."""
    if generator == "synth":
        return {g: build_deck_from_images(reference_images(ids[g], GAME_SHAPES[g], seed=7), name=g, kind="scan",
                                          card_mm=GAME_SHAPES[g]) for g in ids}
    return {g: build_deck_from_images(scenes.camera_photos({c: scenes.card_art(c, GAME_SHAPES[g]) for c in ids[g]},
                                                           enroll_camera, seed=7), name=g, kind="auto",
                                      card_mm=GAME_SHAPES[g]) for g in ids}


def eval_synth(n_scenes: int, rows_out: list[dict], seed0: int = 1000, textures: str = "own",
               generator: str = "synth", enroll_camera: str = "phone") -> dict:
    """Counts per game (and ``"all"``), per table kind (``"table:<kind>"``) and per camera
    (``"camera:<model>"``, second generator) over ``n_scenes`` tables of ``generator``."""
    ids = game_ids()
    decks = synth_decks(generator, ids, enroll_camera)
    totals = Counter()
    per_game = {g: Counter() for g in ids}
    per: dict[str, Counter] = {}
    games = ["race", "roll", "among"]
    for k in range(n_scenes):
        g = games[k % 3]
        if generator == "synth":
            sc = make_scene(g, ids[g], seed=seed0 + k, textures=textures)
        else:
            sc = scenes.card_scene(g, ids[g], seed=seed0 + k)
        try:
            cal = calibrate(sc.image, sc.layout)
        except Exception:  # noqa: BLE001 - counted as a failed calibration
            cal = None
        cfg = CardsConfig(anchor_id="main_reactor" if g == "among" else None)
        r = read_cards(sc.image, decks[g], calibration=cal, config=cfg)
        pairs = match_labels(sc.cards, list(r.cards))
        n = len(pairs)
        fnd = sum(c is not None for _, c in pairs)
        idok = sum(c is not None and c.id == truth.id for truth, c in pairs)
        wrong_hi = sum(c is not None and c.id not in (None, truth.id) and c.confidence >= 0.9 for truth, c in pairs)
        unread = sum(c is not None and c.id is None for _, c in pairs)
        wrong = sum(c is not None and c.id not in (None, truth.id) for truth, c in pairs)
        if g == "among":
            layout_ok = sum(c is not None and c.cell is not None and tuple(c.cell) == tuple(truth.cell)
                            for truth, c in pairs)
        else:
            layout_ok = sum(c is not None and (c.row, c.col) == (truth.row, truth.col) for truth, c in pairs)
        extra = len(r.cards) - fnd
        row = {"generator": generator, "set": f"synth_{g}", "image": f"seed{seed0 + k}", "labels": n, "found": fnd,
               "identified": idok, "wrong_conf_ge_0.9": wrong_hi, "layout_ok": layout_ok, "extra": extra,
               "calibrated": cal is not None, "unreadable": unread, "wrong": wrong,
               "full": int(idok == n and extra == 0), "table": sc.meta.get("table", "?"),
               "camera": sc.meta.get("camera", "-"),
               **{f"ms_{kk}": round(v, 2) for kk, v in r.timings_ms.items()}}
        rows_out.append(row)
        keys = ("labels", "found", "identified", "wrong_conf_ge_0.9", "layout_ok", "extra", "unreadable", "wrong",
                "full")
        for key in keys:
            totals[key] += row[key]
            per_game[g][key] += row[key]
            for bucket in (f"table:{row['table']}", f"camera:{row['camera']}"):
                per.setdefault(bucket, Counter())[key] += row[key]
        for bucket in ("all", g, f"table:{row['table']}", f"camera:{row['camera']}"):
            (totals if bucket == "all" else per_game[g] if bucket == g else per[bucket])["scenes"] += 1
        totals["calibrated"] += cal is not None
    return {"all": dict(totals), **{g: dict(v) for g, v in per_game.items()},
            **{k: dict(v) for k, v in sorted(per.items())}}


# ----------------------------------------------------------------------------------------------- timing


def eval_timing(n: int = 9, size: tuple[int, int] = (1280, 720)) -> dict:
    """Calibrate + read 10 Race cards, ``n`` frames of ``size`` (W, H) px; see
    :func:`bench.frame_timing.time_against_jpeg`."""
    ids = game_ids()
    deck = build_deck_from_images(reference_images(ids["race"], GAME_SHAPES["race"], seed=7), name="race",
                                  card_mm=GAME_SHAPES["race"])
    scenes = [make_scene("race", ids["race"], seed=5000 + k, n_cards=10, image_size=size) for k in range(n)]
    layouts = iter([sc.layout for sc in scenes])
    return time_against_jpeg((sc.image for sc in scenes),
                               lambda im: read_cards(im, deck, calibration=calibrate(im, next(layouts))))


def pct(a: float, b: float) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synth", type=int, default=90, help="synthetic scenes (split over race/roll/among)")
    ap.add_argument("--seed", type=int, default=1000,
                    help="seed of the first synthetic scene (others: 2000, 3000, ... for scenes no one tuned on)")
    ap.add_argument("--no-set", action="store_true", help="skip the SET photos")
    ap.add_argument("--no-timing", action="store_true", help="skip the timing run")
    ap.add_argument("--csv", type=Path, default=None, help="write one row per image here")
    ap.add_argument("--textures", default="own", choices=["own", "shared"],
                    help="synthetic table textures: this generator's cloth/wood, or vision.synth's wood/cloth/mat")
    ap.add_argument("--mirror", default="decide", choices=["decide", "off", "on", "auto"],
                    help="mirror setting for the SET boards (decide: once per camera, on its first board)")
    ap.add_argument("--generator", default="both", choices=["synth", "scenes", "both"],
                    help="synthetic tables: vision.synth_table, vision.scenes (its own artwork, tables, light and "
                         "cameras), or both side by side (default)")
    ap.add_argument("--enroll-camera", default="phone", choices=sorted(scenes.CAMERA_MODELS),
                    help="camera model the second generator's decks are enrolled with (the tables are seen by others)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    rows: list[dict] = []
    if SET_DIR.is_dir() and not args.no_set:
        for closed in (False, True):
            t = time.perf_counter()
            s = eval_set(rows, args.mirror, closed)
            what = "closed set, 'not in deck' off" if closed else "default 'not in deck' thresholds"
            how = args.mirror if args.mirror != "decide" else "decided once per camera " + (
                ", ".join(f"{k}: {v}" for k, v in sorted(s["decided"].items())) or "(undecided: off)")
            print(f"SET boards (real photos, mirror={how}, {what}): {s['cards']} cards; "
                  f"found {pct(s['found'], s['cards'])}; row/col right {pct(s['rowcol_ok'], s['cards'])}; "
                  f"identified {pct(s['identified'], s['cards'])} ({s['identified']}/{s['cards']}, null {s['null']}); "
                  f"wrong with confidence >= 0.9: {s['wrong_conf_ge_0.9']}  [{time.perf_counter() - t:.1f} s]")
    elif not args.no_set:
        print(f"SET boards: skipped ({SET_DIR} not found; set TABLETOP_SHARED)")
    if args.synth > 0:
        gens = ("synth", "scenes") if args.generator == "both" else (args.generator,)
        for gen in gens:
            t = time.perf_counter()
            r = eval_synth(args.synth, rows, seed0=args.seed, textures=args.textures, generator=gen,
                           enroll_camera=args.enroll_camera)
            print(f"synthetic tables [{gen}]: " + (f"textures={args.textures}" if gen == "synth" else
                  f"vision.scenes, decks enrolled from photos taken with the {args.enroll_camera} camera"))
            for g in [k for k in r if k in ("all", "race", "roll", "among") or ":" in k]:
                v = r[g]
                what = "cells" if g == "among" else ("rows/cols" if g in ("race", "roll") else "rows/cols or cells")
                unread_wrong = f"{v.get('unreadable', 0)} : {v.get('wrong', 0)}"
                print(f"[{gen}] {g:15s}: {v['scenes']} scenes, {v['labels']} cards; "
                      f"found {pct(v['found'], v['labels'])}; "
                      f"identified {pct(v['identified'], v['labels'])}; "
                      f"{what} right {pct(v['layout_ok'], v['labels'])}; "
                      f"wrong with conf >= 0.9: {v['wrong_conf_ge_0.9']}; extra detections: {v['extra']}; "
                      f"unreadable : wrong {unread_wrong}; fully right images {v.get('full', 0)}/{v['scenes']}"
                      + (f"; calibrated {v['calibrated']}/{v['scenes']}" if g == "all" else ""))
            print(f"  [{time.perf_counter() - t:.1f} s]")
    if args.csv:   # the rows of the accuracy runs, written before (and without) the timing run
        keys = sorted({k for r in rows for k in r}, key=lambda k: (k.startswith("ms_"), k))
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, keys)
            w.writeheader()
            w.writerows(rows)
        print(f"rows: {args.csv}")
    if args.no_timing:
        return 0
    for size, n in (((1280, 720), 9), ((4056, 3040), 3)):  # the HQ camera's full resolution too
        tm = eval_timing(n, size)
        print(f"time per {size[0]}x{size[1]} frame (calibrate + read 10 cards, 1 thread): median "
              f"{tm['median_ms']:.1f} ms; {BASELINE} {tm['base_ms']:.2f} ms; ratio {tm['ratio']:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
