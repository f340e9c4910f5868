"""Score the d6 reader against YOLO-labelled photos (default: shared/datasets/byler_d6_dice/train).

Usage::

    python bench/d6_byler.py                          # shipped model on all byler photos
    python bench/d6_byler.py --folds /tmp/d6_folds    # cross-validated: each fold model on its held-out photos
    python bench/d6_byler.py --dataset ../shared/datasets/penlington_d6_webcam_valid --csv /tmp/pen.csv

Matching (per image, greedy, one-to-one): a reported die and a labelled die are a pair when their
boxes overlap with IoU >= 0.5 OR the label's centre lies inside the reported box (this second rule
lets labels that box only the pip pattern, as in penlington, count). Pairs are taken by decreasing
IoU, then by increasing centre distance.

Printed figures:
    dice found      matched labels / labels (recall)
    false dice      reported dice matching no label / reported dice
    value accuracy  found dice whose reported value equals the label / found dice
                    (an unreadable die, value None, counts as not right; shown separately too)
    fully correct   images where every label is found with the right value and no false die is reported
    by label        (with ``--dice-csv``) for each labelled value 1..6: found, right, unreadable, and the wrong
                    values read; the CSV holds one row per labelled die (its value, the value read or
                    "unreadable" or "missed", confidence, box side in px) and one per false die
    16 dice         (unless ``--no-timing``) the read of a 1280x720 frame holding 15-18 dice: each byler photo
                    with 15-18 labelled dice scaled to 720x720 in the middle of a 1280x720 frame (the sides
                    filled with the photo's border colour), read 3 times; median ms, per-stage medians and
                    their ratio to the same JPEG baseline
    latency         median ms of ``D6Reader.read`` per image, and its ratio to the median ms of a JPEG
                    (quality 95) ``cv2.imread`` + ``cv2.cvtColor`` of the same image at the same size
                    (:mod:`bench.frame_timing`, timed interleaved with the reads)

Exit codes: 0 done, 2 dataset folder absent (skipped).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: single-threaded BLAS, as the box sets it

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.frame_timing import BASELINE, FrameTimer
from vision import D6Config, D6Reader, DiceRead, annotate
from vision.inference import RUNTIMES, InferenceConfig, set_opencv_threads

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
STAGES = ("validate", "prepare", "detect", "decode", "crop", "classify", "assemble", "coarse")


def shared_dir() -> Path:
    """``shared/`` beside the repository (``../shared``), or ``$TABLETOP_SHARED``."""
    return Path(os.environ.get("TABLETOP_SHARED", ROOT.parent / "shared"))


def default_dataset() -> Path:
    return shared_dir() / "datasets" / "byler_d6_dice" / "train"


def yolo_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(image, label) paths of a YOLO folder (``images/`` + ``labels/``, or side by side), by name."""
    img_dir = folder / "images" if (folder / "images").is_dir() else folder
    lab_dir = folder / "labels" if (folder / "labels").is_dir() else folder
    return [
        (p, lab_dir / (p.stem + ".txt"))
        for p in sorted(img_dir.iterdir())
        if p.suffix.lower() in IMAGE_SUFFIXES
    ]


def read_labels(
    path: Path, width: int, height: int
) -> list[tuple[int, tuple[float, float, float, float]]]:
    """YOLO ``class cx cy w h`` lines -> [(value 1..6, (x, y, w, h) px)]."""
    out = []
    if path.is_file():
        for line in path.read_text().splitlines():
            p = line.split()
            if len(p) >= 5:
                c, cx, cy, w, h = int(float(p[0])), *(float(v) for v in p[1:5])
                out.append(
                    (
                        c + 1,
                        (
                            (cx - w / 2) * width,
                            (cy - h / 2) * height,
                            w * width,
                            h * height,
                        ),
                    )
                )
    return out


def iou(a, b) -> float:
    ax0, ay0, aw, ah = a
    bx0, by0, bw, bh = b
    ix = max(0.0, min(ax0 + aw, bx0 + bw) - max(ax0, bx0))
    iy = max(0.0, min(ay0 + ah, by0 + bh) - max(ay0, by0))
    inter = ix * iy
    union = aw * ah + bw * bh - inter
    return inter / union if union > 0 else 0.0


def match(pred_boxes, label_boxes, min_iou: float = 0.5) -> list[tuple[int, int]]:
    """One-to-one (pred index, label index) pairs: IoU >= min_iou or label centre inside the predicted box."""
    cands = []
    for i, p in enumerate(pred_boxes):
        px, py, pw, ph = p
        for j, lb in enumerate(label_boxes):
            lx, ly = lb[0] + lb[2] / 2, lb[1] + lb[3] / 2
            o = iou(p, lb)
            inside = px <= lx <= px + pw and py <= ly <= py + ph
            if o >= min_iou or inside:
                d = ((px + pw / 2 - lx) ** 2 + (py + ph / 2 - ly) ** 2) ** 0.5
                cands.append((-o, d, i, j))
    cands.sort()
    used_p, used_l, pairs = set(), set(), []
    for _, _, i, j in cands:
        if i not in used_p and j not in used_l:
            used_p.add(i)
            used_l.add(j)
            pairs.append((i, j))
    return pairs


@dataclass
class Tally:
    labels: int = 0
    reported: int = 0
    found: int = 0
    false: int = 0
    right: int = 0
    unreadable: int = 0
    images: int = 0
    fully_correct: int = 0
    read_ms: list = field(default_factory=list)
    load_ms: list = field(default_factory=list)

    def add_image(self, read: DiceRead, labels, read_ms: float, load_ms: float,
                  dice_rows: list | None = None, name: str = "", tag: str = "") -> dict:
        preds = list(read.dice)
        pairs = match([d.box for d in preds], [b for _, b in labels])
        if dice_rows is not None:
            dice_rows.extend(die_rows(preds, labels, pairs, name, tag))
        right = sum(1 for i, j in pairs if preds[i].value == labels[j][0])
        unread = sum(1 for i, _ in pairs if preds[i].value is None)
        false = len(preds) - len(pairs)
        ok = right == len(labels) and false == 0
        self.labels += len(labels)
        self.reported += len(preds)
        self.found += len(pairs)
        self.false += false
        self.right += right
        self.unreadable += unread
        self.images += 1
        self.fully_correct += int(ok)
        self.read_ms.append(read_ms)
        self.load_ms.append(load_ms)
        return {
            "labels": len(labels),
            "reported": len(preds),
            "found": len(pairs),
            "false": false,
            "right": right,
            "unreadable": unread,
            "fully_correct": int(ok),
        }

    def report(self, title: str) -> str:
        def pct(a: int, b: int) -> str:
            return f"{100.0 * a / b:6.2f}%  ({a}/{b})" if b else "   n/a"

        med_read = statistics.median(self.read_ms) if self.read_ms else float("nan")
        med_load = statistics.median(self.load_ms) if self.load_ms else float("nan")
        lines = [
            f"== {title}",
            f"images            {self.images}, labelled dice {self.labels}, reported dice {self.reported}",
            f"dice found        {pct(self.found, self.labels)}   target >= 98%",
            f"false dice        {pct(self.false, self.reported)}   target <= 1%",
            f"value accuracy    {pct(self.right, self.found)}   target >= 97% (of found dice)",
            f"  unreadable      {pct(self.unreadable, self.found)}",
            f"  wrong value     {pct(self.found - self.right - self.unreadable, self.found)}",
            f"fully correct     {pct(self.fully_correct, self.images)} images",
            (
                f"latency           median {med_read:.1f} ms/image = {med_read / med_load:.1f}x {BASELINE} "
                f"({med_load:.2f} ms)"
            ),
        ]
        return "\n".join(lines)


def die_rows(preds, labels, pairs, name: str, tag: str) -> list[dict]:
    """One row per labelled die and per false die of one image.

    Args:
        preds: the reported ``DieObservation``s; labels: ``[(value 1..6, (x, y, w, h))]``;
        pairs: ``(pred index, label index)`` from :func:`match`; name, tag: image file and models.
    Returns: dicts with ``image``, ``models``, ``label`` (1..6, or "" for a false die), ``read`` (1..6,
    "unreadable", "missed" or, for a false die, the value reported), ``confidence`` (0..1, "" when missed)
    and ``side_px`` (the longer side of the label's box, else of the reported box).
    """
    by_label = {j: i for i, j in pairs}
    rows = []
    for j, (value, box) in enumerate(labels):
        i = by_label.get(j)
        die = preds[i] if i is not None else None
        rows.append({
            "image": name, "models": tag, "label": value,
            "read": "missed" if die is None else ("unreadable" if die.value is None else die.value),
            "confidence": "" if die is None else round(float(die.confidence), 3),
            "side_px": round(max(box[2], box[3]), 1),
        })
    matched = set(by_label.values())
    for i, die in enumerate(preds):
        if i not in matched:
            rows.append({
                "image": name, "models": tag, "label": "",
                "read": "unreadable" if die.value is None else die.value,
                "confidence": round(float(die.confidence), 3),
                "side_px": max(die.box[2], die.box[3]),
            })
    return rows


def by_label_report(dice_rows: list[dict]) -> str:
    """Per labelled value 1..6: labelled, found, right, unreadable and the wrong values read (value x count)."""
    lines = ["by label          value: labelled, found, right, unreadable, wrong (read as value x count)"]
    for value in range(1, 7):
        rows = [r for r in dice_rows if r["label"] == value]
        found = [r for r in rows if r["read"] != "missed"]
        right = sum(1 for r in found if r["read"] == value)
        unread = sum(1 for r in found if r["read"] == "unreadable")
        wrong: dict = {}
        for r in found:
            if r["read"] not in (value, "unreadable"):
                wrong[r["read"]] = wrong.get(r["read"], 0) + 1
        said = ", ".join(f"{v} x{n}" for v, n in sorted(wrong.items())) or "-"
        lines.append(f"  {value}: {len(rows)}, {len(found)}, {right}, {unread}, {sum(wrong.values())} ({said})")
    return "\n".join(lines)


def run(
    reader: D6Reader,
    pairs,
    tally: Tally,
    rows: list,
    annotated: Path | None,
    tag: str = "",
    dice_rows: list | None = None,
) -> None:
    timer = FrameTimer()
    for img_path, lab_path in pairs:
        img = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
        if img is None:
            print(f"skip unreadable image {img_path}", file=sys.stderr)
            continue
        load_ms = timer.baseline(img)
        labels = read_labels(lab_path, img.shape[1], img.shape[0])
        t = time.perf_counter()
        read = reader.read(img)
        read_ms = (time.perf_counter() - t) * 1000.0
        row = {
            "image": img_path.name,
            "models": tag,
            **tally.add_image(read, labels, read_ms, load_ms, dice_rows, img_path.name, tag),
            "read_ms": round(read_ms, 2),
            "jpeg_q95_decode_ms": round(load_ms, 2),
        }
        row.update({f"{s}_ms": round(read.timings_ms.get(s, 0.0), 3) for s in STAGES})
        rows.append(row)
        if annotated is not None:
            annotated.mkdir(parents=True, exist_ok=True)
            out = annotate(img, read)
            for value, (x, y, w, h) in labels:
                cv2.putText(
                    out,
                    str(value),
                    (int(x + w), int(y + h)),
                    cv2.FONT_HERSHEY_SIMPLEX,
                    0.4,
                    (255, 0, 255),
                    1,
                )
            cv2.imwrite(str(annotated / (img_path.stem + ".png")), out)
    timer.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--dataset",
        type=Path,
        default=None,
        help="YOLO folder (default: byler_d6_dice/train in shared/)",
    )
    ap.add_argument(
        "--models",
        type=Path,
        default=None,
        help="folder with the ONNX models (default: vision/models)",
    )
    ap.add_argument(
        "--folds",
        type=Path,
        default=None,
        help="folder of fold model folders (each with d6_models.json listing its held-out photos): "
        "print cross-validated figures",
    )
    ap.add_argument(
        "--csv",
        type=Path,
        default=None,
        help="write one row per image with per-stage timings",
    )
    ap.add_argument(
        "--dice-csv",
        type=Path,
        default=None,
        help="write one row per labelled die and per false die, and print the reads by labelled value",
    )
    ap.add_argument(
        "--annotated",
        type=Path,
        default=None,
        help="write annotated images into this folder",
    )
    ap.add_argument(
        "--limit", type=int, default=0, help="score only the first N images"
    )
    ap.add_argument(
        "--runtime", default="auto", choices=RUNTIMES, help="inference runtime of the two models (default auto)"
    )
    ap.add_argument(
        "--threads", type=int, default=1,
        help="threads of the inference runtime and of OpenCV (default 1; 0: the machine's cores, at most 4)",
    )
    ap.add_argument(
        "--no-timing", action="store_true", help="skip the timing of 16 dice at 1280x720"
    )
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="override a D6Config field for this run, e.g. --set value_threshold=0.7",
    )
    args = ap.parse_args(argv)
    overrides = parse_overrides(args.set)
    overrides["inference"] = InferenceConfig(args.runtime, args.threads)
    set_opencv_threads(args.threads)

    dataset = args.dataset or default_dataset()
    if not dataset.is_dir():
        print(
            f"SKIP: dataset folder {dataset} is absent (set --dataset or TABLETOP_SHARED)"
        )
        return 2
    pairs = yolo_pairs(dataset)
    if args.limit:
        pairs = pairs[: args.limit]
    rows: list[dict] = []
    dice_rows: list[dict] | None = [] if args.dice_csv else None
    if args.folds:
        tally = Tally()
        for fold_dir in sorted(
            p for p in args.folds.iterdir() if (p / "d6_models.json").is_file()
        ):
            held = set(
                json.loads((fold_dir / "d6_models.json").read_text()).get("held_out")
                or []
            )
            fold_pairs = [pr for pr in pairs if pr[0].name in held]
            fold_tally = Tally()
            reader = D6Reader(D6Config(models_dir=fold_dir, **overrides))
            run(reader, fold_pairs, fold_tally, rows, args.annotated, fold_dir.name, dice_rows)
            print(
                fold_tally.report(f"{fold_dir.name}: {len(fold_pairs)} held-out photos")
            )
            run_into(tally, fold_tally)
        print(tally.report(f"cross-validated over {args.folds} on {dataset}"))
    else:
        config = (
            D6Config(models_dir=args.models, **overrides)
            if args.models
            else D6Config(**overrides)
        )
        reader = D6Reader(config)
        tally = Tally()
        run(reader, pairs, tally, rows, args.annotated, str(config.models_dir), dice_rows)
        print(tally.report(f"{dataset} with models in {config.models_dir} ({reader.runtime}, "
                           f"{args.threads} thread(s))"))
    if dice_rows is not None:
        print(by_label_report(dice_rows))
        write_csv(args.dice_csv, dice_rows)
    if not args.no_timing:
        print_sixteen_dice(D6Reader(D6Config(**overrides)), yolo_pairs(dataset))
    if args.csv:
        write_csv(args.csv, rows)
    return 0


def write_csv(path: Path, rows: list[dict]) -> None:
    """Write ``rows`` (dicts with the same keys) to ``path`` with a header line, and say so."""
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0].keys()) if rows else ["image"])
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} rows to {path}")


def parse_overrides(items: list[str]) -> dict:
    """``["field=value", ...]`` -> D6Config keyword arguments, converted to the field's default type
    (a tuple field takes comma-separated numbers, e.g. ``patch_angles=0,45``)."""
    defaults = D6Config()
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if not hasattr(defaults, name) or name == "inference":
            raise SystemExit(f"unknown D6Config field {name!r}")
        default = getattr(defaults, name)
        if isinstance(default, tuple):
            out[name] = tuple(float(v) for v in value.split(",") if v.strip())
        else:
            out[name] = type(default)(value)
    return out


def sixteen_dice_frames(pairs) -> list[np.ndarray]:
    """1280x720 frames of the photos with 15-18 labelled dice: each photo scaled to 720 px high in the middle,
    the sides filled with the median colour of its border."""
    out = []
    for img_path, lab_path in pairs:
        n = len(read_labels(lab_path, 1, 1))
        if not 15 <= n <= 18:
            continue
        img = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        h, w = img.shape[:2]
        s = 720.0 / h
        img = cv2.resize(img, (round(w * s), 720), interpolation=cv2.INTER_LINEAR)
        border = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
        frame = np.empty((720, 1280, 3), np.uint8)
        frame[:] = np.median(border, axis=0).astype(np.uint8)
        x0 = (1280 - img.shape[1]) // 2
        frame[:, x0:x0 + img.shape[1]] = img[:, : 1280 - x0]
        out.append(frame)
    return out


def print_sixteen_dice(reader: D6Reader, pairs, reps: int = 3) -> None:
    """Time ``reader`` on :func:`sixteen_dice_frames` against the JPEG baseline (interleaved) and print it."""
    frames = sixteen_dice_frames(pairs)
    if not frames:
        print("16 dice            skipped: no photo with 15-18 labelled dice")
        return
    found = []
    with FrameTimer() as timer:
        for _ in range(reps):
            for frame in frames:
                found.append(len(timer.time(frame, reader.read).dice))
        print(timer.summary_line(f"16 dice at 1280x720 ({len(frames)} photos x {reps}, "
                                 f"{statistics.median(found):.0f} dice read per frame)"))
        print("  stages (median ms, x baseline): " + timer.stages_line())


def run_into(total: Tally, part: Tally) -> None:
    """Add the counts of ``part`` into ``total``."""
    for name in (
        "labels",
        "reported",
        "found",
        "false",
        "right",
        "unreadable",
        "images",
        "fully_correct",
    ):
        setattr(total, name, getattr(total, name) + getattr(part, name))
    total.read_ms.extend(part.read_ms)
    total.load_ms.extend(part.load_ms)


if __name__ == "__main__":
    raise SystemExit(main())
