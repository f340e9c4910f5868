"""Benchmark of the Eclipse hex reader (issue 5, sector hexes).

Synthetic Eclipse maps of both generators side by side (``--generator synth|scenes|both``):
:func:`vision.synth_table.make_hex_scene` (20-30 hexes edge to edge around the Galactic Center with gaps,
random turns, perspective, shadows, glare, a hand, cloth/wood; a hex deck enrolled from stand-in 'scans')
and :func:`vision.scenes.hex_scene` (the same arrangement in its own artwork, tables, light and camera
models; the deck enrolled from photos taken with another camera, ``--enroll-camera``), of every sector in
``shared/data/eclipse/hexes.json`` (71 faces; a numbered stand-in list when the shared folder is absent).
Prints hexes found, identified, rotation right, axial right (per hex and whole maps all right), extra
detections, confident wrong, unreadable : wrong, per table and camera, and the median time per frame (single
thread: calibrate + read) at 1280x720 and at the HQ camera's 4056x3040, with its ratio to a JPEG (quality 95)
``cv2.imread`` + ``cv2.cvtColor`` of the same frame (:mod:`bench.frame_timing`, interleaved).
Rotation and axial are compared in the table's frame when the calibration markers were found; without them
the reader's up is the picture's, so a map is compared up to one 60-degree turn of the whole map round the
Galactic Center (:func:`map_turn`; maps read turned are counted).

    python bench/hex_reader.py                 # 30 maps + timing (~3-6 min on a busy 2-core machine)
    python bench/hex_reader.py --maps 8 --timing 3
    python bench/hex_reader.py --maps 20 --seed 2000 --timing 0   # another range of map seeds
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy

import argparse
import csv
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import BASELINE, time_against_jpeg
from vision import scenes
from vision.hexes import build_hex_deck_from_images, read_hexes
from vision.synth_table import hex_reference_images, make_hex_scene
from vision.table import calibrate

SHARED = Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))
HEX_DATA = SHARED / "data" / "eclipse" / "hexes.json"


def sector_ids() -> list[str]:
    """Sector ids of the Eclipse data (read as data), or a stand-in list of the same numbering."""
    if HEX_DATA.is_file():
        return [h["id"] for h in json.loads(HEX_DATA.read_text())["hexes"]]
    return ["001"] + [f"{ring}{k:02d}" for ring in (1, 2, 3) for k in range(1, 19)]


def match(labels, hexes) -> list[tuple[object, object | None]]:
    """Each label gets the nearest unmatched observation whose pixel centre lies inside the label's hexagon."""
    used: set[int] = set()
    out = []
    for lab in labels:
        poly = lab.corners_px.astype(np.float32).reshape(-1, 1, 2)
        best, bd = None, 1e18
        for k, h in enumerate(hexes):
            if k in used or cv2.pointPolygonTest(poly, (float(h.center_px[0]), float(h.center_px[1])), False) < 0:
                continue
            d = float(np.linalg.norm(np.array(h.center_px) - lab.corners_px.mean(axis=0)))
            if d < bd:
                best, bd = k, d
        if best is not None:
            used.add(best)
        out.append((lab, hexes[best] if best is not None else None))
    return out


def turned_cw(axial: tuple[int, int], k: int) -> tuple[int, int]:
    """Axial ``(q, r)`` (flat-top, y down) turned ``k`` steps of 60 degrees clockwise about (0, 0): one step
    takes the neighbour across edge j to the neighbour across edge j + 1 (``(q, r) -> (-r, q + r)``)."""
    q, r = axial
    for _ in range(k % 6):
        q, r = -r, q + r
    return q, r


def map_turn(pairs, calibrated: bool) -> int:
    """The turn k (0-5, steps of 60 degrees) between the reader's map frame and the scene's.

    With a calibration the reader knows the table's up: k = 0, compared strictly. Without one (the markers
    not found) its up is the picture's, which the camera may hold from any side of the table: a player
    reading the map sees the same map turned, so the labels are turned by the k (one per map) that agrees
    with most read hexes: rotation ``truth + k`` and axial ``turned_cw(truth, k)`` round the anchor."""
    if calibrated:
        return 0
    votes = Counter()
    for truth, h in pairs:
        if h is None:
            continue
        for k in range(6):
            votes[k] += int(h.rotation is not None and h.rotation == (truth.rotation + k) % 6)
            votes[k] += int(h.axial is not None and tuple(h.axial) == turned_cw(tuple(truth.axial), k))
    return max(range(6), key=lambda k: (votes[k], -k))


def eval_maps(n: int, deck, ids: list[str], rows: list[dict], seed0: int = 3000, textures: str = "own",
              generator: str = "synth") -> Counter:
    """Counts over ``n`` maps of ``generator`` (``synth``: :func:`vision.synth_table.make_hex_scene`;
    ``scenes``: :func:`vision.scenes.hex_scene`), also per table kind (``table:<kind>``) and camera."""
    tot = Counter()
    for k in range(n):
        if generator == "synth":
            sc = make_hex_scene(ids, seed=seed0 + k, textures=textures)
        else:
            sc = scenes.hex_scene(ids, seed=seed0 + k)
        try:
            cal = calibrate(sc.image, sc.layout)
        except Exception:  # noqa: BLE001 - counted
            cal = None
        r = read_hexes(sc.image, deck, calibration=cal)
        pairs = match(sc.hexes, list(r.hexes))
        k6 = map_turn(pairs, cal is not None)
        row = {"image": f"seed{seed0 + k}", "labels": len(pairs),
               "found": sum(h is not None for _, h in pairs),
               "identified": sum(h is not None and h.id == truth.id for truth, h in pairs),
               "wrong_conf_ge_0.9": sum(h is not None and h.id not in (None, truth.id) and h.confidence >= 0.9
                                        for truth, h in pairs),
               "rotation_ok": sum(h is not None and h.rotation == (truth.rotation + k6) % 6 for truth, h in pairs),
               "axial_ok": sum(h is not None and h.axial is not None
                               and tuple(h.axial) == turned_cw(tuple(truth.axial), k6) for truth, h in pairs),
               "map_turn": k6,
               "extra": len(r.hexes) - sum(h is not None for _, h in pairs),
               "unreadable": sum(h is not None and h.id is None for _, h in pairs),
               "wrong": sum(h is not None and h.id not in (None, truth.id) for truth, h in pairs),
               "calibrated": cal is not None, "generator": generator, "table": sc.meta.get("table", "?"),
               "camera": sc.meta.get("camera", "-"),
               **{f"ms_{kk}": round(v, 1) for kk, v in r.timings_ms.items()}}
        row["map_all_right"] = int(row["axial_ok"] == row["labels"] and row["extra"] == 0)
        rows.append(row)
        row["turned"] = int(k6 != 0)
        for key in ("labels", "found", "identified", "wrong_conf_ge_0.9", "rotation_ok", "axial_ok", "extra",
                    "map_all_right", "calibrated", "unreadable", "wrong", "turned"):
            tot[key] += int(row[key])
            tot[f"table:{row['table']}:{key}"] += int(row[key])
            tot[f"camera:{row['camera']}:{key}"] += int(row[key])
        tot["maps"] += 1
        tot[f"table:{row['table']}:maps"] += 1
        tot[f"camera:{row['camera']}:maps"] += 1
    return tot


def eval_timing(deck, ids: list[str], size: tuple[int, int], n: int) -> dict:
    """Calibrate + read a 24-hex map, ``n`` frames of ``size``; see :func:`bench.frame_timing.time_against_jpeg`."""
    scenes = [make_hex_scene(ids, seed=7000 + k, n_hexes=24, image_size=size) for k in range(n)]
    layouts = iter([sc.layout for sc in scenes])
    return time_against_jpeg((sc.image for sc in scenes),
                               lambda im: read_hexes(im, deck, calibration=calibrate(im, next(layouts))))


def pct(a: float, b: float) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--maps", type=int, default=30, help="synthetic Eclipse maps")
    ap.add_argument("--timing", type=int, default=5, help="frames per resolution for the timing (0: skip)")
    ap.add_argument("--seed", type=int, default=3000, help="first map seed (maps use seed, seed + 1, ...)")
    ap.add_argument("--textures", default="own", choices=["own", "shared"])
    ap.add_argument("--csv", type=Path, default=None, help="write one row per map here")
    ap.add_argument("--generator", default="both", choices=["synth", "scenes", "both"],
                    help="maps of vision.synth_table, of vision.scenes (its own artwork, tables, light and cameras), "
                         "or both side by side (default)")
    ap.add_argument("--enroll-camera", default="phone", choices=sorted(scenes.CAMERA_MODELS),
                    help="camera model the second generator's sectors are enrolled with")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    ids = sector_ids()
    rows: list[dict] = []
    gens = ("synth", "scenes") if args.generator == "both" else (args.generator,)
    deck = None
    for gen in gens:
        t = time.perf_counter()
        if gen == "synth":
            d = build_hex_deck_from_images(hex_reference_images(ids, seed=7), name="eclipse", kind="scan")
        else:
            d = build_hex_deck_from_images(scenes.camera_photos({h: scenes.hex_art(h) for h in ids}, args.enroll_camera,
                                                                seed=7), name="eclipse", kind="auto")
        deck = deck or d
        source = 'the Eclipse data' if HEX_DATA.is_file() else 'stand-in ids'
        print(f"[{gen}] deck: {len(d.card_ids)} sectors from {source}"
              + ("" if gen == "synth" else f", photos taken with the {args.enroll_camera} camera")
              + f" [{time.perf_counter() - t:.1f} s]")
        if args.maps <= 0:
            continue
        t = time.perf_counter()
        v = eval_maps(args.maps, d, ids, rows, seed0=args.seed, textures=args.textures, generator=gen)
        print(f"[{gen}] synthetic Eclipse maps (seeds {args.seed}-{args.seed + args.maps - 1}): {v['maps']} maps, "
              f"{v['labels']} hexes (calibrated {v['calibrated']}/{v['maps']}, read turned {v['turned']}); "
              f"found {pct(v['found'], v['labels'])}; identified {pct(v['identified'], v['labels'])}; "
              f"rotation right {pct(v['rotation_ok'], v['labels'])}; axial right {pct(v['axial_ok'], v['labels'])}; "
              f"maps with every axial right and no extra {v['map_all_right']}/{v['maps']}; "
              f"wrong with conf >= 0.9: {v['wrong_conf_ge_0.9']}; extra detections: {v['extra']}; "
              f"unreadable : wrong {v['unreadable']} : {v['wrong']}  [{time.perf_counter() - t:.1f} s]")
        for bucket in sorted({k.rsplit(":", 1)[0] for k in v if k.count(":") == 2}):
            b = {k.rsplit(":", 1)[1]: n for k, n in v.items() if k.startswith(bucket + ":")}
            print(f"[{gen}]   {bucket:15s}: {b['maps']} maps; found {pct(b['found'], b['labels'])}; identified "
                  f"{pct(b['identified'], b['labels'])}; wrong with conf >= 0.9: {b['wrong_conf_ge_0.9']}; extra "
                  f"{b['extra']}; unreadable : wrong {b['unreadable']} : {b['wrong']}; "
                  f"maps all right {b['map_all_right']}/{b['maps']}")
    if args.timing > 0:
        for size in ((1280, 720), (4056, 3040)):
            tm = eval_timing(deck, ids, size, args.timing)
            print(f"time per {size[0]}x{size[1]} frame (calibrate + read 24 hexes, 1 thread): median "
                  f"{tm['median_ms']:.0f} ms; {BASELINE} {tm['base_ms']:.2f} ms; ratio {tm['ratio']:.1f}x")
    if args.csv and rows:
        keys = sorted({k for r in rows for k in r}, key=lambda k: (k.startswith("ms_"), k))
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, keys)
            w.writeheader()
            w.writerows(rows)
        print(f"rows: {args.csv}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
