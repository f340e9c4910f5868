"""Seeded synthetic table scenes with exact labels (OpenCV + numpy only).

Draws Roll for the Galaxy style dice (seven colours, six phase faces) with *stand-in* symbols the
project designs itself (two visibly different symbol sets, ``"A"`` and ``"B"``; the real artwork
belongs to the publisher), on varied tables (wood, cloth, player mat), in perspective, with
shadows, glare, blur, noise, white-balance shifts and JPEG compression.

The drawing of the table is split into named, reusable functions so a later table reader (cards,
hexes) can build its own scenes from them:

* textures:   :func:`wood_texture`, :func:`cloth_texture`, :func:`mat_texture`, :func:`table_texture`
* geometry:   :func:`perspective_homography`, :func:`warp_points`, :func:`warp_plane`
* objects:    :func:`cast_shadow`, :func:`paste_sprite`
* light:      :func:`light_gains`, :func:`apply_lighting`, :func:`add_glare`, :func:`add_specular`
* camera:     :func:`camera_degrade` (blur, noise, JPEG)

Everything random draws from a ``numpy.random.Generator`` passed in; a scene is a pure function of
its seed and :class:`SceneConfig`.

Entry points: :func:`render_scene` (one labelled scene), :func:`write_scenes` (a folder of scenes with
``labels.json``), :func:`write_enrollment` (``DIR/<colour>-<face>/`` photos for enrollment).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

COLOURS: tuple[str, ...] = ("white", "red", "purple", "blue", "brown", "green", "yellow")
FACES: tuple[str, ...] = ("explore", "develop", "settle", "produce", "ship", "wild")
SYMBOL_SETS: tuple[str, ...] = ("A", "B")
TABLE_KINDS: tuple[str, ...] = ("wood", "cloth", "mat")

#: Nominal die body colours (BGR, under neutral light), before per-die jitter.
DIE_BGR: dict[str, tuple[int, int, int]] = {
    "white": (232, 234, 230),
    "red": (48, 38, 196),
    "purple": (150, 48, 112),
    "blue": (214, 168, 52),
    "brown": (36, 62, 104),
    "green": (64, 160, 58),
    "yellow": (40, 206, 238),
}
#: Symbol ink colour per die colour (BGR).
INK_BGR: dict[str, tuple[int, int, int]] = {
    "white": (40, 36, 34),
    "red": (238, 238, 236),
    "purple": (238, 236, 236),
    "blue": (44, 34, 28),
    "brown": (226, 232, 236),
    "green": (32, 34, 30),
    "yellow": (40, 36, 34),
}
#: Relative abundance of each colour in the game (dice per colour), used to draw scene colours.
COLOUR_WEIGHTS: dict[str, int] = {"white": 25, "red": 22, "purple": 9, "blue": 20, "brown": 14, "green": 12,
                                  "yellow": 9}

#: Faces of each colour when the caller passes none: every face (the caller normally passes the
#: game's faces, read from ``shared/data/roll/dice.json`` with :func:`vision.profiles.load_dice_faces`).
ALL_FACES_BY_COLOUR: dict[str, tuple[str, ...]] = {c: FACES for c in COLOURS}


@dataclass(frozen=True)
class SceneConfig:
    """Every knob of a synthetic scene, with its default range.

    Attributes:
        width, height: output image size.
        n_dice: (min, max) dice per scene.
        die_side: (min, max) die side in table-plane pixels (output side is ~0.9 of it).
        symbol_set: ``"A"`` or ``"B"``.
        tables: table kinds to draw from.
        touching: probability that a die is placed touching an earlier one.
        tilt: perspective strength (corner jitter as a fraction of the image size).
        parallax: height of a die's visible side band, as a fraction of its distance to the image centre.
        warm_cool: (min, max) colour temperature mix, -1 = cool (bluish), +1 = warm (orange).
        exposure: (min, max) overall gain.
        shadow: (min, max) shadow darkness (0 = none, 1 = black).
        glare: (min, max) peak of the broad table sheen, 0..255 units.
        specular: probability that a die gets a small glare spot.
        blur_sigma: (min, max) Gaussian blur sigma in output pixels.
        noise_sigma: (min, max) sensor noise sigma.
        jpeg_quality: (min, max) JPEG quality.
        colour_jitter: per-die body colour jitter (sigma, 0..255 units).
    """

    width: int = 1280
    height: int = 720
    n_dice: tuple[int, int] = (10, 30)
    die_side: tuple[float, float] = (46.0, 66.0)
    symbol_set: str = "A"
    tables: tuple[str, ...] = TABLE_KINDS
    touching: float = 0.3
    tilt: float = 0.05
    parallax: float = 0.10
    warm_cool: tuple[float, float] = (-1.0, 1.0)
    exposure: tuple[float, float] = (0.8, 1.12)
    shadow: tuple[float, float] = (0.15, 0.35)
    glare: tuple[float, float] = (0.0, 40.0)
    specular: float = 0.25
    blur_sigma: tuple[float, float] = (0.0, 1.2)
    noise_sigma: tuple[float, float] = (1.0, 5.0)
    jpeg_quality: tuple[int, int] = (55, 95)
    colour_jitter: float = 6.0


@dataclass(frozen=True)
class DieLabel:
    """Ground truth of one die: colour, face, top-face quad, its box ``[x, y, w, h]`` and centre (output pixels)."""

    colour: str
    face: str
    box: tuple[int, int, int, int]
    centre: tuple[float, float]
    quad: tuple[tuple[float, float], ...]

    def to_json(self) -> dict:
        return {
            "colour": self.colour,
            "face": self.face,
            "box": [int(v) for v in self.box],
            "centre": [round(float(v), 2) for v in self.centre],
            "quad": [[round(float(x), 2), round(float(y), 2)] for x, y in self.quad],
        }


@dataclass(frozen=True)
class Scene:
    """A rendered scene: the BGR image (after JPEG) and its labels."""

    image: np.ndarray
    dice: tuple[DieLabel, ...]
    seed: int
    meta: dict = field(default_factory=dict)

    def labels_json(self) -> dict:
        return {"seed": self.seed, "width": int(self.image.shape[1]), "height": int(self.image.shape[0]),
                "meta": self.meta, "dice": [d.to_json() for d in self.dice]}


# --------------------------------------------------------------------------------------------
# Table textures
# --------------------------------------------------------------------------------------------

def smooth_noise(rng: np.random.Generator, h: int, w: int, scale: float) -> np.ndarray:
    """Float32 ``[h, w]`` value noise in about [-1, 1] with features of ``scale`` pixels."""
    sh, sw = max(2, int(h / scale) + 2), max(2, int(w / scale) + 2)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (np.abs(big).max() + 1e-6)


def wood_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A wooden table: planks with grain, in light-to-medium browns. Returns float32 BGR ``[h, w, 3]`` 0..255."""
    base = np.array([rng.uniform(95, 140), rng.uniform(150, 185), rng.uniform(195, 230)], np.float32)
    vertical = rng.random() < 0.5
    hh, ww = (w, h) if vertical else (h, w)
    y = np.arange(hh, dtype=np.float32)[:, None]
    warp = smooth_noise(rng, hh, ww, 180) * rng.uniform(8, 25)
    freq = rng.uniform(0.15, 0.35)
    grain = np.sin((y + warp) * freq) * 0.5 + 0.5 * smooth_noise(rng, hh, ww, 6)
    grain = grain * rng.uniform(0.04, 0.09) + smooth_noise(rng, hh, ww, 90) * 0.06
    plank = rng.uniform(140, 260)
    seams = (np.abs(((y + rng.uniform(0, plank)) % plank) - 1.0) < 1.2).astype(np.float32)
    shade = 1.0 + grain - 0.25 * seams
    # each plank its own tone
    idx = ((y + 0.0) // plank).astype(np.int64) % 7
    tones = 1.0 + rng.uniform(-0.07, 0.07, 7).astype(np.float32)
    shade = shade * tones[idx]
    img = base[None, None, :] * shade[:, :, None]
    if vertical:
        img = img.transpose(1, 0, 2)
    return np.ascontiguousarray(np.clip(img, 0, 255), dtype=np.float32)


CLOTH_BGR: tuple[tuple[int, int, int], ...] = (
    (60, 110, 40),    # green felt
    (110, 60, 30),    # dark blue
    (120, 120, 120),  # grey
    (50, 40, 110),    # burgundy
    (170, 175, 180),  # light grey
    (30, 30, 32),     # black
)


def cloth_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A cloth or felt table cover: a weave and fine fibres. Returns float32 BGR ``[h, w, 3]`` 0..255."""
    base = np.array(CLOTH_BGR[rng.integers(len(CLOTH_BGR))], np.float32) * rng.uniform(0.85, 1.15)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(3.0, 6.0)
    weave = np.sin(xx * 2 * np.pi / period) * np.sin(yy * 2 * np.pi / period) * 0.04
    fibres = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8) * 0.10
    folds = smooth_noise(rng, h, w, 250) * 0.08
    shade = 1.0 + weave + fibres + folds
    img = base[None, None, :] * shade[:, :, None] + 6.0
    return np.clip(img, 0, 255).astype(np.float32)


def mat_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A printed player mat: dark space background, stars, boxed areas and text-like bars.

    Returns float32 BGR ``[h, w, 3]`` 0..255.
    """
    base = np.array([rng.uniform(50, 90), rng.uniform(30, 55), rng.uniform(20, 40)], np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img *= (1.0 + 0.25 * smooth_noise(rng, h, w, 300))[:, :, None]
    stars = rng.random((h, w)) < 0.0015
    img[stars] += rng.uniform(40, 120)
    line = tuple(float(v) for v in base * rng.uniform(1.8, 2.6))
    for _ in range(int(rng.integers(3, 8))):
        x0, y0 = int(rng.integers(0, max(w - 100, 1))), int(rng.integers(0, max(h - 60, 1)))
        x1, y1 = x0 + int(rng.integers(120, 500)), y0 + int(rng.integers(80, 300))
        cv2.rectangle(img, (x0, y0), (x1, y1), line, int(rng.integers(2, 4)), cv2.LINE_AA)
    for _ in range(int(rng.integers(10, 30))):
        x0, y0 = int(rng.integers(0, max(w - 60, 1))), int(rng.integers(0, max(h - 10, 1)))
        cv2.rectangle(img, (x0, y0), (x0 + int(rng.integers(20, 90)), y0 + int(rng.integers(3, 6))), line, -1)
    img += cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 1.0)[:, :, None] * 3
    return np.clip(img, 0, 255).astype(np.float32)


def table_texture(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    """Dispatch to :func:`wood_texture`, :func:`cloth_texture` or :func:`mat_texture`."""
    makers = {"wood": wood_texture, "cloth": cloth_texture, "mat": mat_texture}
    if kind not in makers:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {sorted(makers)}")
    return makers[kind](rng, h, w)


# --------------------------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------------------------

def perspective_homography(rng: np.random.Generator, plane_size: tuple[int, int], out_size: tuple[int, int],
                           tilt: float, coverage: float = 0.9) -> np.ndarray:
    """Homography (3x3 float64) from a table plane of ``plane_size`` (w, h) to an image of ``out_size``.

    The image sees a jittered quad of the plane (``coverage`` of it, corners moved by up to ``tilt``
    of the plane size, plus a random trapezoid for a camera looking a little forward).
    """
    pw, ph = plane_size
    ow, oh = out_size
    qw, qh = pw * coverage, ph * coverage
    cx, cy = pw / 2, ph / 2
    quad = np.array([[cx - qw / 2, cy - qh / 2], [cx + qw / 2, cy - qh / 2],
                     [cx + qw / 2, cy + qh / 2], [cx - qw / 2, cy + qh / 2]], np.float64)
    keystone = rng.uniform(-tilt, tilt) * pw
    quad[0, 0] -= keystone
    quad[1, 0] += keystone
    quad += rng.uniform(-tilt, tilt, quad.shape) * np.array([pw, ph]) * 0.5
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float64)
    return cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32)).astype(np.float64)


def warp_points(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply homography ``hom`` to ``float[N, 2]`` points."""
    pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, hom).reshape(-1, 2)


def warp_plane(plane: np.ndarray, hom: np.ndarray, out_size: tuple[int, int]) -> np.ndarray:
    """Warp a table-plane image to the camera image (``out_size`` = (w, h)), linear interpolation."""
    return cv2.warpPerspective(plane, hom, out_size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def square_corners(cx: float, cy: float, side: float, angle: float) -> np.ndarray:
    """Corners ``float[4, 2]`` of a square of ``side`` centred on (cx, cy), turned by ``angle`` radians."""
    c, s = math.cos(angle), math.sin(angle)
    half = side / 2
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    rot = np.array([[c, -s], [s, c]])
    return local @ rot.T + np.array([cx, cy])


# --------------------------------------------------------------------------------------------
# Objects: shadows and sprites
# --------------------------------------------------------------------------------------------

def cast_shadow(plane: np.ndarray, polygon: np.ndarray, offset: tuple[float, float], darkness: float,
                softness: float) -> None:
    """Darken ``plane`` (float32 BGR, in place) under ``polygon`` moved by ``offset``, with a soft edge."""
    h, w = plane.shape[:2]
    pts = np.asarray(polygon, np.float64) + np.asarray(offset)
    x0, y0 = np.floor(pts.min(0) - 3 * softness - 2).astype(int)
    x1, y1 = np.ceil(pts.max(0) + 3 * softness + 2).astype(int)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((pts - [x0, y0]) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    if softness > 0:
        mask = cv2.GaussianBlur(mask, (0, 0), softness)
    plane[y0:y1, x0:x1] *= (1.0 - darkness * mask)[:, :, None]


def paste_sprite(plane: np.ndarray, sprite: np.ndarray, alpha: np.ndarray, affine: np.ndarray) -> None:
    """Alpha-blend ``sprite`` (float32 ``[s, s, 3]``) into ``plane`` (in place) through a 2x3 ``affine``."""
    h, w = plane.shape[:2]
    s = sprite.shape[0]
    corners = np.array([[0, 0, 1], [s, 0, 1], [s, s, 1], [0, s, 1]], np.float64) @ affine.T
    x0, y0 = np.floor(corners.min(0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    m = affine.copy()
    m[:, 2] -= [x0, y0]
    size = (x1 - x0, y1 - y0)
    col = cv2.warpAffine(sprite, m, size,
                         flags=cv2.INTER_AREA if affine[0, 0] ** 2 + affine[0, 1] ** 2 < 1 else cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR)[:, :, None]
    roi = plane[y0:y1, x0:x1]
    roi[:] = roi * (1.0 - a) + col * a


# --------------------------------------------------------------------------------------------
# Stand-in symbols
# --------------------------------------------------------------------------------------------

def _poly(img, pts, thick=-1):
    p = np.round(np.asarray(pts, np.float64) * 16).astype(np.int32)
    if thick < 0:
        cv2.fillPoly(img, [p], 255, cv2.LINE_AA, shift=4)
    else:
        cv2.polylines(img, [p], True, 255, thick, cv2.LINE_AA, shift=4)


def _produce_mark_a(img: np.ndarray, k: int) -> None:
    """Colour-specific inner mark of set A's Produce symbol (k = colour index 0..6)."""
    c = (64, 64)
    if k == 0:
        cv2.circle(img, c, 9, 0, -1, cv2.LINE_AA)
    elif k == 1:
        cv2.rectangle(img, (48, 59), (80, 69), 0, -1)
    elif k == 2:
        cv2.rectangle(img, (59, 48), (69, 80), 0, -1)
    elif k == 3:
        cv2.rectangle(img, (48, 60), (80, 68), 0, -1)
        cv2.rectangle(img, (60, 48), (68, 80), 0, -1)
    elif k == 4:
        cv2.rectangle(img, (54, 54), (74, 74), 0, -1)
        cv2.rectangle(img, (60, 60), (68, 68), 255, -1)
    elif k == 5:
        _poly(img, [(64, 48), (80, 76), (48, 76)])
        cv2.fillPoly(img, [np.array([[64, 48], [80, 76], [48, 76]], np.int32)], 0, cv2.LINE_AA)
    else:
        cv2.circle(img, (56, 64), 5, 0, -1, cv2.LINE_AA)
        cv2.circle(img, (72, 64), 5, 0, -1, cv2.LINE_AA)


def symbol_mask(symbol_set: str, face: str, colour: str, size: int = 128) -> np.ndarray:
    """Ink coverage ``float32[size, size]`` in 0..1 of a stand-in face symbol.

    Set ``"A"`` ("glyphs"): explore = magnifier, develop = triangle outline, settle = ringed planet,
    produce = diamond with a colour-specific mark, ship = double chevron, wild = asterisk.
    Set ``"B"`` ("blocks"): explore = three bars, develop = plus, settle = half disc on a line,
    produce = hexagon with a colour-specific cut-out, ship = two slanted bars, wild = bullseye.
    """
    if face not in FACES:
        raise ValueError(f"unknown face {face!r}")
    k = COLOURS.index(colour) if colour in COLOURS else 0
    img = np.zeros((128, 128), np.uint8)
    if symbol_set == "A":
        _glyph_a(img, face, k)
    elif symbol_set == "B":
        _glyph_b(img, face, k)
    else:
        raise ValueError(f"unknown symbol set {symbol_set!r}; expected one of {SYMBOL_SETS}")
    m = img.astype(np.float32) / 255.0
    if size != 128:
        m = cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA)
    return m


def _glyph_a(img: np.ndarray, face: str, k: int) -> None:
    """Set ``"A"`` ("glyphs") of :func:`symbol_mask`, drawn in ``img`` (uint8[128, 128]); ``k``: the colour's index."""
    if face == "explore":
        cv2.circle(img, (54, 54), 28, 255, 10, cv2.LINE_AA)
        cv2.line(img, (76, 76), (104, 104), 255, 14, cv2.LINE_AA)
    elif face == "develop":
        _poly(img, [(64, 18), (108, 100), (20, 100)], 11)
    elif face == "settle":
        cv2.circle(img, (64, 64), 24, 255, -1, cv2.LINE_AA)
        cv2.ellipse(img, (64, 64), (50, 14), -20, 0, 360, 255, 6, cv2.LINE_AA)
    elif face == "produce":
        _poly(img, [(64, 14), (114, 64), (64, 114), (14, 64)])
        _produce_mark_a(img, k)
    elif face == "ship":
        for dx in (0, 34):
            cv2.polylines(img, [np.array([[26 + dx, 26], [60 + dx, 64], [26 + dx, 102]], np.int32)], False,
                          255, 12, cv2.LINE_AA)
    else:  # wild
        for a in range(4):
            t = a * math.pi / 4
            dx, dy = 46 * math.cos(t), 46 * math.sin(t)
            cv2.line(img, (int(64 - dx), int(64 - dy)), (int(64 + dx), int(64 + dy)), 255, 11, cv2.LINE_AA)


def _glyph_b(img: np.ndarray, face: str, k: int) -> None:
    """Set ``"B"`` ("blocks") of :func:`symbol_mask`, drawn in ``img`` (uint8[128, 128]); ``k``: the colour's index."""
    if face == "explore":
        for i, ln in enumerate((88, 64, 40)):
            cv2.rectangle(img, (20, 24 + 32 * i), (20 + ln, 40 + 32 * i), 255, -1)
    elif face == "develop":
        cv2.rectangle(img, (54, 16), (74, 112), 255, -1)
        cv2.rectangle(img, (16, 54), (112, 74), 255, -1)
    elif face == "settle":
        cv2.ellipse(img, (64, 78), (42, 42), 0, 180, 360, 255, -1, cv2.LINE_AA)
        cv2.rectangle(img, (14, 88), (114, 100), 255, -1)
    elif face == "produce":
        hexa = [(64 + 50 * math.cos(a), 64 + 50 * math.sin(a)) for a in np.arange(6) * math.pi / 3]
        _poly(img, hexa)
        ang = k * math.pi / 7
        p = np.array([[64 + 26 * math.cos(ang + s), 64 + 26 * math.sin(ang + s)] for s in (0, 2.4, 3.9)])
        cv2.fillPoly(img, [np.round(p).astype(np.int32)], 0, cv2.LINE_AA)
    elif face == "ship":
        for dx in (0, 40):
            _poly(img, [(22 + dx, 108), (44 + dx, 108), (84 + dx - 10, 20), (62 + dx - 10, 20)])
    else:  # wild
        cv2.circle(img, (64, 64), 46, 255, 10, cv2.LINE_AA)
        cv2.circle(img, (64, 64), 22, 255, 10, cv2.LINE_AA)
        cv2.circle(img, (64, 64), 5, 255, -1, cv2.LINE_AA)


SPRITE = 96  # top-face sprite side in pixels


def die_top_sprite(rng: np.random.Generator, colour: str, face: str, symbol_set: str,
                   body_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Top face of a die as (float32 BGR ``[S, S, 3]``, alpha ``[S, S]``): a rounded square with a bevel and the
    symbol."""
    s = SPRITE
    alpha = np.zeros((s, s), np.float32)
    r = 12
    cv2.rectangle(alpha, (r, 0), (s - 1 - r, s - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (s - 1, s - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (s - 1 - r, r), (r, s - 1 - r), (s - 1 - r, s - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    dist = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    bevel = np.clip(dist / 7.0, 0, 1) * 0.22 + 0.78  # rounded edges fall off
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32) / s
    grad = 1.0 + 0.05 * (xx - 0.5) * rng.uniform(-1, 1) + 0.05 * (yy - 0.5) * rng.uniform(-1, 1)
    img = body_bgr[None, None, :] * (bevel * grad)[:, :, None]
    inner = int(s * rng.uniform(0.60, 0.70))
    sym = symbol_mask(symbol_set, face, colour, inner)
    ink = np.array(INK_BGR[colour], np.float32)
    off = (s - inner) // 2
    region = img[off:off + inner, off:off + inner]
    region[:] = region * (1 - sym[:, :, None]) + ink * sym[:, :, None]
    return img.astype(np.float32), alpha


# --------------------------------------------------------------------------------------------
# Light and camera
# --------------------------------------------------------------------------------------------

def light_gains(warm_cool: float, tint: float = 0.0) -> np.ndarray:
    """Per-channel BGR gains of an illuminant: ``warm_cool`` -1 (cool, bluish) .. +1 (warm, orange); ``tint``
    green/magenta."""
    t = float(np.clip(warm_cool, -1, 1))
    if t >= 0:
        g = np.array([1.0 - 0.34 * t, 1.0 - 0.12 * t, 1.0], np.float32)
    else:
        g = np.array([1.0, 1.0 + 0.04 * t, 1.0 + 0.20 * t], np.float32)
    g[1] *= 1.0 + tint
    return g / g.max()


def apply_lighting(img: np.ndarray, gains: np.ndarray, exposure: float,
                   gradient: np.ndarray | None = None) -> np.ndarray:
    """Multiply a float32 BGR image by illuminant ``gains``, ``exposure`` and an optional ``[h, w]`` light falloff."""
    out = img * (gains * exposure)[None, None, :]
    if gradient is not None:
        out *= gradient[:, :, None]
    return out


def light_falloff(rng: np.random.Generator, h: int, w: int, strength: float) -> np.ndarray:
    """A lamp's falloff ``float32[h, w]``: 1 at a random bright point, down to ``1 - strength`` far away."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / math.hypot(w, h)
    return (1.0 - strength * d).astype(np.float32)


def add_glare(rng: np.random.Generator, img: np.ndarray, peak: float, colour: np.ndarray, n: int = 1,
              sigma: tuple[float, float] = (120.0, 260.0)) -> None:
    """Add ``n`` broad soft sheen spots (Gaussian, ``peak`` at centre) of the light ``colour`` to ``img`` in place."""
    h, w = img.shape[:2]
    for _ in range(n):
        sg = rng.uniform(*sigma)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        xs = np.exp(-((np.arange(w, dtype=np.float32) - cx) ** 2) / (2 * sg * sg))
        ys = np.exp(-((np.arange(h, dtype=np.float32) - cy) ** 2) / (2 * sg * sg))
        img += (ys[:, None] * xs[None, :])[:, :, None] * (peak * colour)[None, None, :]


def add_specular(img: np.ndarray, centre: tuple[float, float], radius: float, peak: float, colour: np.ndarray) -> None:
    """Add a small specular highlight (glare spot on a shiny die) to ``img`` in place."""
    h, w = img.shape[:2]
    r = int(math.ceil(radius * 3))
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0, x1, y1 = max(cx - r, 0), max(cy - r, 0), min(cx + r + 1, w), min(cy + r + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    g = np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * radius * radius))
    img[y0:y1, x0:x1] += g[:, :, None] * (peak * colour)[None, None, :]


def camera_degrade(rng: np.random.Generator, img: np.ndarray, blur_sigma: float, noise_sigma: float,
                   jpeg_quality: int) -> np.ndarray:
    """Blur, sensor noise and a JPEG round trip of a float32 BGR image; returns uint8 BGR."""
    if blur_sigma > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), blur_sigma)
    if noise_sigma > 0:
        img = img + rng.standard_normal(img.shape).astype(np.float32) * noise_sigma
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
    if not ok:  # pragma: no cover
        return out
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


# --------------------------------------------------------------------------------------------
# Scenes
# --------------------------------------------------------------------------------------------

def _place_dice(rng: np.random.Generator, n: int, side: float, region: np.ndarray, touching: float,
                inside) -> list[tuple[float, float, float]]:
    """Positions (cx, cy, angle) in the plane for up to ``n`` dice that do not overlap."""
    placed: list[tuple[float, float, float]] = []
    x0, y0, x1, y1 = region
    tries = 0
    while len(placed) < n and tries < n * 200:
        tries += 1
        parent = None
        if placed and rng.random() < touching:
            parent = int(rng.integers(len(placed)))
            pcx, pcy, pang = placed[parent]
            k = int(rng.integers(4))
            d = side * rng.uniform(1.0, 1.04)
            a = pang + k * math.pi / 2
            cx, cy, ang = pcx + d * math.cos(a), pcy + d * math.sin(a), pang + rng.uniform(-0.04, 0.04)
            # slide along the touching side a little
            slide = rng.uniform(-0.3, 0.3) * side
            cx += slide * math.cos(a + math.pi / 2)
            cy += slide * math.sin(a + math.pi / 2)
        else:
            cx, cy, ang = rng.uniform(x0, x1), rng.uniform(y0, y1), rng.uniform(0, 2 * math.pi)
        if not inside(cx, cy):
            continue
        ok = True
        for j, (qx, qy, _) in enumerate(placed):
            dist = math.hypot(cx - qx, cy - qy)
            need = side * 0.99 if j == parent else side * 1.45
            if dist < need:
                ok = False
                break
        if ok:
            placed.append((cx, cy, ang))
    return placed


def _pick_colour_face(rng: np.random.Generator, faces_by_colour: Mapping[str, Sequence[str]],
                      colours: Sequence[str] | None) -> tuple[str, str]:
    pool = list(colours) if colours else list(faces_by_colour)
    w = np.array([COLOUR_WEIGHTS.get(c, 10) for c in pool], np.float64)
    colour = pool[int(rng.choice(len(pool), p=w / w.sum()))]
    faces = list(faces_by_colour[colour])
    return colour, faces[int(rng.integers(len(faces)))]


def render_scene(seed: int, config: SceneConfig = SceneConfig(),
                 faces_by_colour: Mapping[str, Sequence[str]] | None = None,
                 dice: Sequence[tuple[str, str]] | None = None,
                 table: str | None = None, die_angle: float | None = None) -> Scene:
    """Render one labelled scene, a pure function of its arguments.

    Args:
        seed: seeds every random choice.
        config: ranges of every effect.
        faces_by_colour: faces each colour may show (face lists may repeat faces, as on the real dice);
            default every face for every colour.
        dice: force these (colour, face) pairs instead of random ones (count then = len(dice)).
        table: force a table kind.
        die_angle: turn every die by this many degrees on the table (default: random per die).
    """
    rng = np.random.default_rng(seed)
    fbc = dict(faces_by_colour) if faces_by_colour else dict(ALL_FACES_BY_COLOUR)
    ow, oh = config.width, config.height
    pw, ph = int(ow * 1.25), int(oh * 1.25)
    kind = table or config.tables[int(rng.integers(len(config.tables)))]
    plane = table_texture(rng, kind, ph, pw)
    hom = perspective_homography(rng, (pw, ph), (ow, oh), config.tilt)
    inv = np.linalg.inv(hom)
    side = rng.uniform(*config.die_side)
    margin = side * 0.9

    def inside(cx, cy):
        p = warp_points(hom, [[cx, cy]])[0]
        return margin < p[0] < ow - margin and margin < p[1] < oh - margin

    corners_out = warp_points(inv, [[0, 0], [ow, 0], [ow, oh], [0, oh]])
    region = np.array([*corners_out.min(0), *corners_out.max(0)])
    n = len(dice) if dice is not None else int(rng.integers(config.n_dice[0], config.n_dice[1] + 1))
    spots = _place_dice(rng, n, side, region, config.touching, inside)
    if die_angle is not None:
        spots = [(cx, cy, math.radians(die_angle)) for cx, cy, _ in spots]
    if dice is not None and len(spots) < len(dice):
        raise ValueError(f"could only place {len(spots)} of {len(dice)} dice")

    warm = rng.uniform(*config.warm_cool)
    gains = light_gains(warm, rng.uniform(-0.04, 0.04))
    light_dir = rng.uniform(0, 2 * math.pi)
    shadow_dark = rng.uniform(*config.shadow)
    cam = np.array([pw / 2, ph / 2]) + rng.uniform(-0.1, 0.1, 2) * [pw, ph]
    labels = []
    speculars = []
    for cx, cy, ang in spots:  # shadows first, so no shadow falls on a die top
        cast_shadow(plane, square_corners(cx, cy, side, ang),
                    (side * 0.18 * math.cos(light_dir), side * 0.18 * math.sin(light_dir)), shadow_dark, side * 0.08)
    for i, (cx, cy, ang) in enumerate(spots):
        colour, face = dice[i] if dice is not None else _pick_colour_face(rng, fbc, None)
        body = np.array(DIE_BGR[colour], np.float32) + rng.normal(0, config.colour_jitter, 3).astype(np.float32)
        base = square_corners(cx, cy, side, ang)
        shift = (np.array([cx, cy]) - cam) * config.parallax * side / 60.0 * 0.3
        top = base + shift
        hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
        side_col = tuple(float(v) for v in body * rng.uniform(0.55, 0.7))
        cv2.fillPoly(plane, [np.round(hull * 16).astype(np.int32)], side_col, cv2.LINE_AA, shift=4)
        sprite, alpha = die_top_sprite(rng, colour, face, config.symbol_set, body)
        sc = side / SPRITE
        c, s = math.cos(ang) * sc, math.sin(ang) * sc
        affine = np.array([[c, -s, 0.0], [s, c, 0.0]])
        tcx, tcy = top.mean(0)
        affine[:, 2] = [tcx, tcy] - affine[:, :2] @ [SPRITE / 2, SPRITE / 2]
        paste_sprite(plane, sprite, alpha, affine)
        if rng.random() < config.specular:
            speculars.append((top.mean(0) + rng.uniform(-0.25, 0.25, 2) * side, side * rng.uniform(0.06, 0.14)))
        quad = warp_points(hom, top)
        x0, y0 = quad.min(0)
        x1, y1 = quad.max(0)
        labels.append(DieLabel(colour, face, (int(round(x0)), int(round(y0)), int(round(x1 - x0)), int(round(y1 - y0))),
                               tuple(warp_points(hom, [top.mean(0)])[0]), tuple(map(tuple, quad))))
    for centre, radius in speculars:
        add_specular(plane, tuple(centre), radius, rng.uniform(60, 140), np.ones(3, np.float32))
    img = warp_plane(plane, hom, (ow, oh))
    falloff = light_falloff(rng, oh, ow, rng.uniform(0.0, 0.35))
    exposure = rng.uniform(*config.exposure)
    img = apply_lighting(img, gains, exposure, falloff)
    add_glare(rng, img, rng.uniform(*config.glare), gains, n=int(rng.integers(0, 3)))
    img = camera_degrade(rng, img, rng.uniform(*config.blur_sigma), rng.uniform(*config.noise_sigma),
                         int(rng.integers(config.jpeg_quality[0], config.jpeg_quality[1] + 1)))
    meta = {"table": kind, "warm_cool": round(float(warm), 3), "symbol_set": config.symbol_set,
            "die_side": round(float(side), 1)}
    return Scene(img, tuple(labels), seed, meta)


def write_scenes(out_dir: str | Path, seeds: Iterable[int], config: SceneConfig = SceneConfig(),
                 faces_by_colour: Mapping[str, Sequence[str]] | None = None) -> Path:
    """Write ``scene_<seed>.jpg`` per seed and one ``labels.json`` (``{"scenes": {name: labels}}``) to ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    labels = {}
    for seed in seeds:
        sc = render_scene(int(seed), config, faces_by_colour)
        name = f"scene_{int(seed)}.png"
        cv2.imwrite(str(out / name), sc.image)  # already JPEG-degraded; PNG keeps it exact
        labels[name] = sc.labels_json()
    (out / "labels.json").write_text(json.dumps({"scenes": labels}, indent=1))
    return out


#: Enrollment photos: same box, same lamp, so a narrower range of light than play scenes.
ENROLL_CONFIG = SceneConfig(n_dice=(6, 6), touching=0.0, warm_cool=(-0.2, 0.2), exposure=(0.95, 1.05),
                            glare=(0.0, 10.0), specular=0.0, blur_sigma=(0.0, 0.6), noise_sigma=(1.0, 2.5),
                            jpeg_quality=(85, 95), tables=("cloth", "wood", "mat"))


def write_enrollment(out_dir: str | Path, faces_by_colour: Mapping[str, Sequence[str]], seed: int = 0,
                     symbol_set: str = "A", photos_per_pair: int = 1, dice_per_photo: int = 6,
                     config: SceneConfig = ENROLL_CONFIG) -> Path:
    """Write ``out_dir/<colour>-<face>/photo_<k>.png`` for every pair in ``faces_by_colour``.

    Every die in a photo shows that colour and face. Seeds are ``seed * 100000 + pair * 100 + k``,
    so use enrollment seeds disjoint from the scene seeds of an evaluation.
    """
    cfg = replace(config, symbol_set=symbol_set)
    return write_pair_photos(out_dir, faces_by_colour, seed, photos_per_pair,
                             lambda s_, pair: render_scene(s_, cfg, dice=[pair] * dice_per_photo).image)


def write_pair_photos(out_dir: str | Path, faces_by_colour: Mapping[str, Sequence[str]], seed: int,
                      photos_per_pair: int, render: Callable[[int, tuple[str, str]], np.ndarray]) -> Path:
    """The enrollment folders a scene generator writes: ``out_dir/<colour>-<face>/photo_<k>.png`` for every
    (colour, face) pair of ``faces_by_colour`` in :data:`COLOURS` x :data:`FACES` order, each photo
    ``render(scene_seed, (colour, face))`` (uint8[H, W, 3] BGR) with ``scene_seed = seed * 100000 + pair * 100 + k``
    (``pair`` counts the pairs written). Returns ``out_dir`` as a Path."""
    out = Path(out_dir)
    pair_index = 0
    for colour in COLOURS:
        if colour not in faces_by_colour:
            continue
        for face in FACES:
            if face not in faces_by_colour[colour]:
                continue
            folder = out / f"{colour}-{face}"
            folder.mkdir(parents=True, exist_ok=True)
            for k in range(photos_per_pair):
                image = render(seed * 100000 + pair_index * 100 + k, (colour, face))
                cv2.imwrite(str(folder / f"photo_{k}.png"), image)
            pair_index += 1
    return out
