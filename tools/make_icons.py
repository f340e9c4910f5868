"""Render the phone page's home-screen icons (companion/static/icons/*.png) with OpenCV.

    .venv/bin/python tools/make_icons.py            # writes the PNGs the web manifest lists

The icon is a white die showing five on the page's dark background (#12151a), drawn at 4x and
shrunk (anti-aliased edges). The "maskable" variants keep the die inside the central 80% circle that
Android may crop to (https://web.dev/articles/maskable-icon); the "any" ones fill more of the square.
Run again after changing the drawing; the PNGs are committed (small), so the box needs no build step.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

OUT = Path(__file__).resolve().parents[1] / "companion" / "static" / "icons"

BACKGROUND = (0x1A, 0x15, 0x12)  # BGR of #12151a, the page's theme colour
DIE = (0xF2, 0xF2, 0xF2)
PIP = (0x1A, 0x15, 0x12)
ACCENT = (0x2E, 0x4D, 0x1D)  # the "live" green of phone.css, as the die's shadow

ICONS = (
    ("icon-192.png", 192, 0.70),
    ("icon-512.png", 512, 0.70),
    ("maskable-192.png", 192, 0.52),
    ("maskable-512.png", 512, 0.52),
    ("apple-touch-icon.png", 180, 0.66),
)
"""(file, side px, die side as a fraction of the icon)."""


def _rounded_square(image: np.ndarray, x0: int, y0: int, side: int, radius: int, colour) -> None:
    x1, y1 = x0 + side, y0 + side
    cv2.rectangle(image, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
    cv2.rectangle(image, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius), (x0 + radius, y1 - radius),
                   (x1 - radius, y1 - radius)):
        cv2.circle(image, (cx, cy), radius, colour, -1, cv2.LINE_AA)


def render(side: int, die_fraction: float, scale: int = 4) -> np.ndarray:
    """The icon, ``uint8[side, side, 3]`` BGR."""
    big = side * scale
    image = np.full((big, big, 3), BACKGROUND, np.uint8)
    die = int(big * die_fraction)
    x0 = y0 = (big - die) // 2
    shadow = max(2, die // 18)
    radius = die // 6
    _rounded_square(image, x0 + shadow, y0 + shadow, die, radius, ACCENT)
    _rounded_square(image, x0, y0, die, radius, DIE)
    pip = die // 10
    for fx, fy in ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)):
        cv2.circle(image, (x0 + int(die * fx), y0 + int(die * fy)), pip, PIP, -1, cv2.LINE_AA)
    return cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, side, fraction in ICONS:
        path = OUT / name
        if not cv2.imwrite(str(path), render(side, fraction), [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            print(f"cannot write {path}", file=sys.stderr)
            return 1
        print(f"wrote {path} ({side}x{side}, {path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
