"""Every edge fit of the cards' second look, and what it did: which fits can change a read (issue 15: each fitted
outline scored costs about 2.3 ms of the identify stage).

The second look (:func:`vision.card_match.refine_identifications`) fits a weak card's card-sized place, once centred
and read surely, to its straight edges (:func:`vision.card_edges.edge_fitted`): each side moved to its strongest edge
within ``fit_frac`` of the card's short side; an outline whose side's strongest edge lies at the end of that reach is
refused unscored, the others are scored and kept when the deck reads them as the same card, closer. This bench wraps
that call and prints, for each place fitted: the read as given (card, distance, its margin to the best other card,
confidence by :meth:`vision.deck.DeckProfile.decide`), whether a side's edge lay at the end of the reach, how far the
fitted outline's farthest corner lies from the place (px), and whether the fit was kept, with the confidence it then
has. A fit that is refused (or not scored) changes nothing; a kept one moves the card's corners by that distance.

Scenes: :func:`vision.synth_full.full_table` at 1280x720, layout seeds ``--seeds``, frame seeds 0, 10, 20, read by
this tree's card reader as ``bench/card_table_ab.py`` reads them (calibrated from the table's corner markers, or with
``--no-calibration``); each table's frame seed 0 is read once first, as that bench does, and not printed.

    python bench/edge_fits.py --games race,roll --seeds 100,101,102
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import argparse
import dataclasses
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def fit_rows(deck, frame: np.ndarray, reads: list[tuple], out: list[tuple], cfg) -> list[dict]:
    """One row per read given to :func:`vision.card_edges.edge_fitted` (``reads``: (score, quad float[4, 2] px,
    crop); ``out``: what it returned; ``frame`` uint8[H, W, 3] BGR; ``cfg`` its RefineConfig): {id, d1, margin, conf,
    end (a side's strongest edge at the end of the reach), move (px: the fitted outline's farthest corner from the
    place; -1 when the sides meet nowhere), kept, new_conf (None unless kept)}."""
    import vision.card_edges as ce

    near = dataclasses.replace(cfg, search_frac=cfg.fit_frac, angles_deg=(-1.0, 0.0, 1.0))
    rows = []
    for read, got in zip(reads, out, strict=True):
        q = np.asarray(read[1], np.float64)
        offs, angles, P = ce.edge_profiles(None, q, near, ce._grey_gradients(frame, q, near))
        S, best_a = P.max(axis=1), P.argmax(axis=1)
        pk = S.argmax(axis=1)
        nq = ce.quads_from_sides([ce.side_frames(q)], offs[pk][None], angles[best_a[np.arange(4), pk]][None])[0]
        kept = got is not read
        rows.append({"id": read[0][0], "d1": read[0][1], "margin": read[0][2] - read[0][1],
                     "conf": deck.decide(read[0]).confidence, "end": bool(((pk == 0) | (pk == len(offs) - 1)).any()),
                     "move": float(np.linalg.norm(nq - q, axis=1).max()) if nq is not None else -1.0,
                     "kept": kept, "new_conf": deck.decide(got[0]).confidence if kept else None})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="race,roll", help="comma-separated, from race, among, roll (its tiles)")
    ap.add_argument("--seeds", default="100,101,102", help="layout seeds, comma-separated")
    ap.add_argument("--no-calibration", action="store_true", help="read as `companion read` reads an image")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    import vision.card_edges as ce
    import vision.card_match as cm
    from bench.full_table import GameReaders
    from vision.inference import InferenceConfig
    from vision.readers import CardsAdapter
    from vision.synth_full import full_table
    from vision.table import calibrate

    fitted = ce.edge_fitted
    rows: list[dict] = []
    where = {"label": None}

    def logged(deck, frame, reads, mirrored, cfg, crop_wh):
        out = fitted(deck, frame, reads, mirrored, cfg, crop_wh)
        if where["label"] is not None:
            rows.extend(dict(r, at=where["label"]) for r in fit_rows(deck, frame, reads, out, cfg))
        return out

    cm.edge_fitted = logged   # the second look calls it by this name
    with tempfile.TemporaryDirectory(prefix="edge_fits_") as tmp:
        gr = GameReaders(Path(tmp) / "readers", InferenceConfig())
        for game in [g.strip() for g in args.games.split(",") if g.strip()]:
            rows.clear()
            for seed in (int(s) for s in args.seeds.split(",")):
                table = full_table(game, gr.ids[game], seed, (1280, 720), gr.faces)
                first = table.render(frame_seed=0)
                cal = None if args.no_calibration else calibrate(first, table.layout)
                reader = next(r for r in gr.readers(game, cal) if isinstance(r, CardsAdapter))
                where["label"] = None
                reader.read(first)   # caches and the table's colours, as bench/card_table_ab.py
                for fs in (0, 10, 20):
                    where["label"] = f"{seed}/{fs}"
                    reader.read(table.render(frame_seed=fs))
            scored = [r for r in rows if not r["end"]]
            print(f"== {game}: seeds {args.seeds}, {'no calibration' if args.no_calibration else 'calibrated'}: "
                  f"{len(rows)} places fitted, {len(scored)} outlines scored, {sum(r['kept'] for r in scored)} kept")
            for r in sorted(rows, key=lambda r: (r["end"], r["margin"])):
                kept = f"kept, confidence {r['new_conf']:.5f}" if r["kept"] else ("at the end of the reach" if r["end"]
                                                                                  else "refused")
                print(f"  {r['at']:>7} {r['id']:<32} distance {r['d1']:.3f} margin {r['margin']:.3f} confidence "
                      f"{r['conf']:.5f}  farthest corner {r['move']:5.2f} px: {kept}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
