"""Die artwork of the second scene generator: its own drawing of the six Roll for the Galaxy faces, from
what each phase's worker does in the rulebook (not the publisher's artwork, and not the first generator's
stand-ins), and dice "editions": each colour's body and the colour its symbols are printed in, dark ink on
a light body or light ink on a coloured one.

* explore -- the explorer scouts: an eye (almond outline, iris and pupil);
* develop -- the scientist develops technology: a gear wheel;
* settle -- the settler colonises a world: a globe with a flag on its pole;
* produce -- the producer makes a good: a crate, with a mark of its own on each colour (the rulebook's aid
  for colour-blind players: the Produce symbol differs on every colour);
* ship -- the shipper carries goods away: a rocket;
* wild -- any phase: a four-pointed star with a ring of dots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .tables import rgb

__all__ = ["COLOURS", "EDITIONS", "FACES", "Edition", "symbol"]

COLOURS: tuple[str, ...] = ("white", "red", "purple", "blue", "brown", "green", "yellow")
FACES: tuple[str, ...] = ("explore", "develop", "settle", "produce", "ship", "wild")

_S = 256  # drawing canvas, pixels


def _fill(img: np.ndarray, pts, value: float = 1.0) -> None:
    cv2.fillPoly(img, [np.round(np.asarray(pts, np.float64) * 16).astype(np.int32)], value, cv2.LINE_AA, shift=4)


def _eye(img: np.ndarray) -> None:
    t = np.linspace(0, math.pi, 40)
    upper = np.stack([128 + 100 * np.cos(t), 128 - 62 * np.sin(t)], 1)
    lower = np.stack([128 - 100 * np.cos(t), 128 + 62 * np.sin(t)], 1)
    _fill(img, np.vstack([upper, lower]))
    t2 = np.linspace(0, math.pi, 40)
    iu = np.stack([128 + 78 * np.cos(t2), 128 - 42 * np.sin(t2)], 1)
    il = np.stack([128 - 78 * np.cos(t2), 128 + 42 * np.sin(t2)], 1)
    _fill(img, np.vstack([iu, il]), 0.0)
    cv2.circle(img, (128, 128), 38, 1.0, -1, cv2.LINE_AA)
    cv2.circle(img, (143, 114), 11, 0.0, -1, cv2.LINE_AA)


def _gear(img: np.ndarray) -> None:
    teeth = 9
    pts = []
    for k in range(teeth * 4):
        a = 2 * math.pi * k / (teeth * 4)
        r = 104 if (k % 4) in (1, 2) else 78
        pts.append((128 + r * math.cos(a), 128 + r * math.sin(a)))
    _fill(img, pts)
    cv2.circle(img, (128, 128), 36, 0.0, -1, cv2.LINE_AA)


def _globe(img: np.ndarray) -> None:
    c = (122, 146)
    cv2.circle(img, c, 74, 1.0, -1, cv2.LINE_AA)
    cv2.ellipse(img, c, (30, 74), 0, 0, 360, 0.0, 9, cv2.LINE_AA)
    cv2.line(img, (c[0] - 74, c[1]), (c[0] + 74, c[1]), 0.0, 9, cv2.LINE_AA)
    cv2.line(img, (c[0], c[1] - 74), (c[0], c[1] - 118), 1.0, 9, cv2.LINE_AA)
    _fill(img, [(c[0] + 4, c[1] - 120), (c[0] + 82, c[1] - 104), (c[0] + 4, c[1] - 86)])


def _crate(img: np.ndarray, k: int) -> None:
    cv2.rectangle(img, (52, 52), (204, 204), 1.0, 20, cv2.LINE_AA)
    c = (128, 128)
    if k == 0:    # white: a dot
        cv2.circle(img, c, 30, 1.0, -1, cv2.LINE_AA)
    elif k == 1:  # red: a cross
        cv2.line(img, (92, 92), (164, 164), 1.0, 20, cv2.LINE_AA)
        cv2.line(img, (164, 92), (92, 164), 1.0, 20, cv2.LINE_AA)
    elif k == 2:  # purple: two bars
        cv2.rectangle(img, (92, 84), (112, 172), 1.0, -1)
        cv2.rectangle(img, (144, 84), (164, 172), 1.0, -1)
    elif k == 3:  # blue: a wave
        xs = np.linspace(84, 172, 30)
        cv2.polylines(img, [np.round(np.stack([xs, 128 + 22 * np.sin((xs - 84) / 88 * 2 * math.pi)], 1) * 16)
                            .astype(np.int32)], False, 1.0, 18, cv2.LINE_AA, shift=4)
    elif k == 4:  # brown: a triangle pointing down
        _fill(img, [(86, 94), (170, 94), (128, 166)])
    elif k == 5:  # green: a ring
        cv2.circle(img, c, 32, 1.0, 14, cv2.LINE_AA)
    else:         # yellow: a small diamond
        _fill(img, [(128, 84), (172, 128), (128, 172), (84, 128)])


def _rocket(img: np.ndarray) -> None:
    body = [(0, -112), (26, -70), (26, 50), (-26, 50), (-26, -70)]
    fins = [[(26, 10), (62, 62), (26, 50)], [(-26, 10), (-62, 62), (-26, 50)]]
    flame = [(-16, 58), (16, 58), (0, 108)]
    a = math.radians(45)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def place(p):
        return np.asarray(p, np.float64) @ rot.T + [128, 128]

    _fill(img, place(body))
    for f in fins:
        _fill(img, place(f))
    _fill(img, place(flame))
    w = place([(0, -40)])[0]
    cv2.circle(img, (int(w[0]), int(w[1])), 13, 0.0, -1, cv2.LINE_AA)


def _star(img: np.ndarray) -> None:
    pts = []
    for k in range(8):
        a = math.pi / 4 * k - math.pi / 2
        r = 100 if k % 2 == 0 else 30
        pts.append((128 + r * math.cos(a), 128 + r * math.sin(a)))
    _fill(img, pts)
    for k in range(4):
        a = math.pi / 4 + math.pi / 2 * k
        cv2.circle(img, (int(128 + 74 * math.cos(a)), int(128 + 74 * math.sin(a))), 12, 1.0, -1, cv2.LINE_AA)


def symbol(face: str, colour: str, size: int = _S) -> np.ndarray:
    """Ink coverage ``float32[size, size]`` 0..1 of ``face`` as printed on a die of ``colour`` (the
    symbol upright, filling about 80% of the square)."""
    if face not in FACES:
        raise ValueError(f"unknown face {face!r}; expected one of {FACES}")
    img = np.zeros((_S, _S), np.float32)
    if face == "explore":
        _eye(img)
    elif face == "develop":
        _gear(img)
    elif face == "settle":
        _globe(img)
    elif face == "produce":
        _crate(img, COLOURS.index(colour) if colour in COLOURS else 0)
    elif face == "ship":
        _rocket(img)
    else:
        _star(img)
    img = np.clip(img, 0.0, 1.0)
    if size != _S:
        img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    return img


@dataclass(frozen=True)
class Edition:
    """A printing of the dice: each colour's body and ink reflectance (linear, B, G, R).

    Attributes:
        name: e.g. ``"light-ink"``.
        body: colour -> body reflectance ``float32[3]``.
        ink: colour -> ink reflectance ``float32[3]``.
        gloss: (min, max) strength of a die's glare spot.
    """

    name: str
    body: dict
    ink: dict
    gloss: tuple[float, float] = (0.4, 1.5)

    def polarity(self, colour: str) -> int:
        """-1 when ``colour``'s symbols are darker than its body (dark ink), +1 when lighter."""
        return -1 if float(self.ink[colour].mean()) < float(self.body[colour].mean()) else 1


_BODY = {
    "white": rgb(0.80, 0.80, 0.77), "red": rgb(0.50, 0.035, 0.03), "purple": rgb(0.24, 0.05, 0.33),
    "blue": rgb(0.05, 0.36, 0.68), "brown": rgb(0.17, 0.075, 0.03), "green": rgb(0.04, 0.28, 0.07),
    "yellow": rgb(0.78, 0.58, 0.03),
}
_DARK, _LIGHT = rgb(0.025, 0.025, 0.03), rgb(0.82, 0.80, 0.72)

#: Two printings: coloured dice with light (cream) symbols, and most dice with dark symbols.
EDITIONS: dict[str, Edition] = {
    "light-ink": Edition("light-ink", dict(_BODY), {
        "white": _DARK, "red": _LIGHT, "purple": _LIGHT, "blue": _LIGHT, "brown": _LIGHT, "green": _LIGHT,
        "yellow": _DARK}),
    "dark-ink": Edition("dark-ink", {**_BODY, "red": rgb(0.60, 0.06, 0.04), "green": rgb(0.07, 0.38, 0.10),
                                     "purple": rgb(0.30, 0.08, 0.42)}, {
        "white": _DARK, "red": _DARK, "purple": _LIGHT, "blue": _DARK, "brown": _LIGHT, "green": _DARK,
        "yellow": _DARK}),
}
