"""How small may a d6 be in the camera's frame and still be read? The figure behind the README's camera height.

Usage::

    python bench/die_size.py                                   # the bundled demo photos in a 2304x1296 frame
    python bench/die_size.py --photos ../shared/datasets/penlington_d6_webcam_valid/images --frame 1280x720

Each photo is first read at its own size; those dice (their values, and the median side of their boxes,
px) are the reference. Then the photo is shrunk (``cv2.INTER_AREA``, as a camera further away sees it) so
that median side is ``S`` px, pasted in the middle of a frame of ``--frame`` size filled with the photo's
edge colour (a table), and read again. Printed per ``S``: dice whose value is read as at full size (a
multiset match per photo, so a die counts once), dice reported with a value, the die's share of the frame's
width, and its side in the detector's input (the reader resizes every frame so its longer side is
``D6Config.input_long_side`` px: what counts is the share of the frame, not the frame's pixels).

A photo too large for the frame at a size is left out of that size (its count is printed). Exit code 2
when no photo has a die read at full size.
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

from vision import D6Config, D6Reader  # noqa: E402

DEMO_PHOTOS = ROOT / "companion" / "demo" / "photos"
SUFFIXES = (".jpg", ".jpeg", ".png")


def size(text: str) -> tuple[int, int]:
    """argparse type: ``WIDTHxHEIGHT`` in px."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give WIDTHxHEIGHT in px, e.g. 2304x1296") from None
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 64x64 px")
    return w, h


def values(reader: D6Reader, frame: np.ndarray) -> list[int]:
    """The values of the dice read in ``frame`` (uint8[H, W, 3] BGR); unreadable dice left out."""
    return [d.value for d in reader.read(frame).dice if d.value is not None]


def on_table(photo: np.ndarray, scale: float, frame: tuple[int, int]) -> np.ndarray | None:
    """``photo`` shrunk by ``scale`` in the middle of a ``frame`` (W, H) px filled with its edge colour, or
    None when it does not fit."""
    small = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    w, h = frame
    sh, sw = small.shape[:2]
    if sh > h or sw > w:
        return None
    edge = np.concatenate([photo[0], photo[-1], photo[:, 0], photo[:, -1]])
    canvas = np.empty((h, w, 3), np.uint8)
    canvas[:] = np.median(edge, axis=0).astype(np.uint8)
    y, x = (h - sh) // 2, (w - sw) // 2
    canvas[y:y + sh, x:x + sw] = small
    return canvas


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=Path, default=DEMO_PHOTOS,
                    help="folder of d6 photos (default: the bundled demo photos)")
    ap.add_argument("--frame", type=size, default=(2304, 1296),
                    help="camera frame, WxH px (default 2304x1296, the Pi camera's)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[20, 30, 40, 50, 60, 70, 80],
                    help="die sides to try, px in the frame")
    args = ap.parse_args(argv)

    config = D6Config()
    reader = D6Reader(config)
    photos = sorted(p for p in args.photos.iterdir() if p.suffix.lower() in SUFFIXES) if args.photos.is_dir() else []
    reference = []
    for path in photos:
        photo = cv2.imread(str(path))
        if photo is None:
            continue
        read = [d for d in reader.read(photo).dice if d.value is not None]
        if read:
            side = float(np.median([max(d.box[2], d.box[3]) for d in read]))
            reference.append((photo, Counter(d.value for d in read), side))
    if not reference:
        print(f"no die read in any photo of {args.photos}", file=sys.stderr)
        return 2
    w, h = args.frame
    total = sum(sum(c.values()) for _, c, _ in reference)
    print(f"{len(reference)} photos, {total} dice read at full size (median side "
          f"{np.median([s for _, _, s in reference]):.0f} px); frame {w}x{h}, "
          f"detector input {config.input_long_side} px")
    for side in args.sizes:
        right = reported = dice = left_out = 0
        for photo, counts, full_side in reference:
            frame = on_table(photo, side / full_side, args.frame)
            if frame is None:
                left_out += 1
                continue
            got = Counter(values(reader, frame))
            dice += sum(counts.values())
            right += sum((counts & got).values())
            reported += sum(got.values())
        share = side / w
        note = f"  ({left_out} photos too large, left out)" if left_out else ""
        rate = f"{right / dice:5.1%}" if dice else "  -  "
        print(f"die {side:3d} px = {share:5.1%} of the width = "
              f"{side * config.input_long_side / max(w, h):4.1f} px at the "
              f"detector: {right:3d}/{dice:3d} read as at full size ({rate}), {reported:3d} reported{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
