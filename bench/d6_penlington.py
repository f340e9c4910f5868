"""Score the d6 reader on the penlington webcam photos (white dice on wood, 640x480).

Usage::

    python bench/d6_penlington.py [--models DIR] [--csv out.csv]

Prints the figures of ``bench/d6_byler.py`` (boxes matched by IoU >= 0.5 or label centre inside the
reported box: these labels box only the pip pattern, so the centre rule does the matching) and,
because the labels are noisy (see the dataset README), the two more trustworthy figures:
images whose dice count is right, and images whose multiset of read values equals the labelled one.
Exit code 2 when the folder is absent.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.d6_byler import main as byler_main
from bench.d6_byler import parse_overrides, read_labels, shared_dir, yolo_pairs
from vision import D6Config, D6Reader
from vision.inference import RUNTIMES, InferenceConfig


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--dataset",
        type=Path,
        default=shared_dir() / "datasets" / "penlington_d6_webcam_valid",
    )
    ap.add_argument("--models", type=Path, default=None)
    ap.add_argument("--csv", type=Path, default=None)
    ap.add_argument("--runtime", default="auto", choices=RUNTIMES, help="inference runtime (default auto)")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="override a D6Config field, as in bench/d6_byler.py")
    args = ap.parse_args(argv)
    if not args.dataset.is_dir():
        print(
            f"SKIP: dataset folder {args.dataset} is absent (set --dataset or TABLETOP_SHARED)"
        )
        return 2
    passthrough = ["--dataset", str(args.dataset), "--no-timing"]
    if args.models:
        passthrough += ["--models", str(args.models)]
    if args.csv:
        passthrough += ["--csv", str(args.csv)]
    passthrough += ["--runtime", args.runtime] + [f"--set={item}" for item in args.set]
    byler_main(passthrough)
    overrides = parse_overrides(args.set)
    if args.models:
        overrides["models_dir"] = args.models
    reader = D6Reader(D6Config(inference=InferenceConfig(args.runtime, 1), **overrides))
    count_ok = multiset_ok = n = 0
    for img_path, lab_path in yolo_pairs(args.dataset):
        img = cv2.imread(str(img_path))
        labels = read_labels(lab_path, img.shape[1], img.shape[0])
        read = reader.read(img)
        n += 1
        count_ok += len(read.dice) == len(labels)
        multiset_ok += Counter(d.value for d in read.dice) == Counter(
            v for v, _ in labels
        )
    print(f"right dice count  {100.0 * count_ok / n:6.2f}%  ({count_ok}/{n}) images")
    print(
        f"right value set   {100.0 * multiset_ok / n:6.2f}%  ({multiset_ok}/{n}) images (multiset of values)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
