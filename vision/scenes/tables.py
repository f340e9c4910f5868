"""Tables of the second scene generator, as reflectance (linear ``float32`` BGR, 0..1) drawn in table
millimetres at ``ppm`` pixels per mm: a gingham (checked) cloth, a printed playmat with art, wood planks,
felt, and printed player boards that lie on the table under the dice.

Every texture is a function of a ``numpy.random.Generator``, its size in pixels and ``ppm``, so a check, a
plank or a printed box has its real size in mm whatever the camera's resolution.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

__all__ = ["TABLE_KINDS", "felt", "gingham", "player_board", "playmat", "put_text", "rgb", "table_surface",
           "value_noise", "wood"]

#: Table surfaces this generator draws (player boards come on top of any of them).
TABLE_KINDS: tuple[str, ...] = ("gingham", "playmat", "wood", "felt")


def rgb(r: float, g: float, b: float) -> np.ndarray:
    """A reflectance given as linear R, G, B -> ``float32[3]`` in B, G, R order."""
    return np.array([b, g, r], np.float32)


def value_noise(rng: np.random.Generator, h: int, w: int, scale_px: float) -> np.ndarray:
    """``float32[h, w]`` smooth noise, zero mean, about unit spread, with features of ``scale_px`` pixels."""
    sh, sw = max(2, int(h / max(scale_px, 1.0)) + 3), max(2, int(w / max(scale_px, 1.0)) + 3)
    small = rng.standard_normal((sh, sw)).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return big / (float(big.std()) + 1e-6)


def put_text(img: np.ndarray, text: str, org: tuple[int, int], scale: float, colour, thickness: int) -> None:
    """``cv2.putText`` on a ``float32`` picture (in place): drawn as a coverage mask, then blended."""
    m = np.zeros(img.shape[:2], np.uint8)
    cv2.putText(m, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, 255, max(1, int(thickness)), cv2.LINE_AA)
    a = (m.astype(np.float32) / 255.0)[:, :, None]
    img[:] = img * (1 - a) + np.asarray(colour, np.float32)[None, None, :] * a


def _shade(img: np.ndarray, factor: np.ndarray) -> np.ndarray:
    return img * factor[:, :, None]


def felt(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A felt or baize cover: one colour, fibres and a little unevenness."""
    colours = [rgb(0.02, 0.13, 0.04), rgb(0.015, 0.02, 0.02), rgb(0.02, 0.03, 0.10), rgb(0.18, 0.02, 0.02),
               rgb(0.12, 0.12, 0.12), rgb(0.35, 0.30, 0.22), rgb(0.05, 0.10, 0.16)]
    base = colours[int(rng.integers(len(colours)))] * np.float32(rng.uniform(0.8, 1.25))
    fib = rng.standard_normal((h, w)).astype(np.float32)
    ang = rng.uniform(0, 180)
    k = max(3, int(1.2 * ppm) | 1)
    ker = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(math.radians(ang)) * c, math.sin(math.radians(ang)) * c
    cv2.line(ker, (int(c - dx), int(c - dy)), (int(c + dx), int(c + dy)), 1.0, 1)
    fib = cv2.filter2D(fib, -1, ker / ker.sum())
    shade = 1.0 + 0.10 * fib / (fib.std() + 1e-6) + 0.06 * value_noise(rng, h, w, 60 * ppm)
    return _shade(np.broadcast_to(base, (h, w, 3)).astype(np.float32), shade.astype(np.float32))


def gingham(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A checked cloth: white and a colour in bands of 5-25 mm both ways (one band = half strength, both =
    full), the cloth turned and a little wavy, with a weave and folds."""
    cols = [rgb(0.45, 0.03, 0.03), rgb(0.03, 0.08, 0.40), rgb(0.03, 0.25, 0.06), rgb(0.02, 0.02, 0.02),
            rgb(0.60, 0.45, 0.03), rgb(0.30, 0.05, 0.20)]
    colour = cols[int(rng.integers(len(cols)))]
    white = rgb(0.80, 0.80, 0.76) * np.float32(rng.uniform(0.85, 1.0))
    period = rng.uniform(10.0, 50.0) * ppm  # a full check (colour band + white band)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = math.radians(rng.uniform(0, 90))
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    wave = rng.uniform(0.0, 0.08) * period
    u = u + wave * value_noise(rng, h, w, 6 * period)
    v = v + wave * value_noise(rng, h, w, 6 * period)
    soft = max(0.4, 0.15 * ppm)

    def band(t: np.ndarray) -> np.ndarray:
        ph = np.mod(t, period) / period  # 0..1
        d = np.minimum(np.abs(ph - 0.25), np.abs(ph - 1.25))  # distance to the band centre, in periods
        return np.clip((0.25 - d) * period / soft + 0.5, 0.0, 1.0)

    bu, bv = band(u), band(v)
    strength = 0.5 * (bu + bv)  # one band crossing = half colour, both = full
    img = white[None, None, :] * (1.0 - strength[:, :, None]) + colour[None, None, :] * strength[:, :, None]
    weave = 1.0 + 0.05 * np.sin(u * 2 * math.pi / max(0.8 * ppm, 1.2)) * np.sin(v * 2 * math.pi / max(0.8 * ppm, 1.2))
    folds = 1.0 + 0.08 * value_noise(rng, h, w, 80 * ppm)
    return _shade(img.astype(np.float32), (weave * folds).astype(np.float32))


def wood(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """Wood planks 70-200 mm wide: growth rings of a log cut along its length (early wood light, late wood
    dark), pores along the grain, each plank its own log and tone, dark seams, a varnish unevenness."""
    tones = [(rgb(0.55, 0.36, 0.18), rgb(0.36, 0.20, 0.08)), (rgb(0.42, 0.26, 0.12), rgb(0.25, 0.13, 0.05)),
             (rgb(0.16, 0.08, 0.04), rgb(0.08, 0.04, 0.02)), (rgb(0.62, 0.56, 0.46), rgb(0.45, 0.38, 0.30)),
             (rgb(0.30, 0.14, 0.06), rgb(0.16, 0.07, 0.03))]
    light, dark = tones[int(rng.integers(len(tones)))]
    along_x = rng.random() < 0.5
    H, W = (h, w) if along_x else (w, h)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    plank_w = rng.uniform(70, 200) * ppm
    idx = np.floor((yy + rng.uniform(0, plank_w)) / plank_w).astype(np.int32)
    rings = np.zeros((H, W), np.float32)
    tone = np.ones((H, W), np.float32)
    for k in np.unique(idx):
        m = idx == k
        r = np.random.default_rng(int(rng.integers(1 << 31)))
        depth = r.uniform(40, 300) * ppm  # the log's axis below the cut
        spacing = max(r.uniform(1.5, 5.0) * ppm, 5.0)  # at least 5 px a ring: no aliasing
        y0 = r.uniform(-plank_w, plank_w)
        ys, xs = yy[m], xx[m]
        bend = 0.3 * plank_w * np.sin(xs / (r.uniform(300, 900) * ppm) + r.uniform(0, 6))
        d = np.sqrt((ys - (k * plank_w + y0) - bend) ** 2 + depth ** 2)
        rings[m] = np.mod(d / spacing, 1.0)
        tone[m] = r.uniform(0.85, 1.15)
    late = (0.5 + 0.5 * np.cos(2 * math.pi * (rings - 0.8))) ** 3  # dark late wood, smooth at the pixel scale
    img = light[None, None, :] * (1 - late[:, :, None]) + dark[None, None, :] * late[:, :, None]
    pores = cv2.GaussianBlur(rng.standard_normal((H, W)).astype(np.float32), (0, 0), 0.5)
    pores = cv2.blur(pores, (max(3, int(6 * ppm)) | 1, 1))
    seam = np.mod(yy + 0.0, plank_w)
    seams = np.clip(1.0 - np.minimum(seam, plank_w - seam) / max(0.6 * ppm, 1.0), 0, 1)
    shade = tone * (1.0 + 0.06 * pores / (pores.std() + 1e-6)) * (1.0 - 0.6 * seams)
    shade *= 1.0 + 0.05 * value_noise(rng, H, W, 120 * ppm)
    img = _shade(img.astype(np.float32), shade.astype(np.float32))
    if not along_x:
        img = np.ascontiguousarray(img.transpose(1, 0, 2))
    return img


def _nebula(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    base = rgb(*rng.uniform(0.005, 0.04, 3))
    img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    for _ in range(int(rng.integers(2, 5))):
        col = rgb(*rng.uniform(0.0, 0.35, 3))
        cloud = value_noise(rng, h, w, rng.uniform(40, 160) * ppm) + 0.5 * value_noise(rng, h, w, 15 * ppm)
        cloud = np.clip(cloud - rng.uniform(0.3, 1.2), 0, None) ** 1.5
        img += cloud[:, :, None] * col[None, None, :] * 0.5
    return img


def playmat(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    """A printed playmat: a space painting (clouds of colour, stars, planets with rings) with the printed
    play areas over it (framed panels, title bars, lines of text and small icons)."""
    img = _nebula(rng, h, w, ppm)
    n_stars = int(h * w / (ppm * ppm) / rng.uniform(40, 200))
    ys, xs = rng.integers(0, h, n_stars), rng.integers(0, w, n_stars)
    img[ys, xs] += rng.uniform(0.2, 1.0, (n_stars, 1)).astype(np.float32)
    img = cv2.GaussianBlur(img, (0, 0), 0.4 * ppm)
    for _ in range(int(rng.integers(1, 4))):  # planets
        r = rng.uniform(12, 70) * ppm
        c = (rng.uniform(0, w), rng.uniform(0, h))
        col = rgb(*rng.uniform(0.05, 0.7, 3))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = np.sqrt((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / r
        lit = np.clip(1.0 - ((xx - c[0] + 0.4 * r) ** 2 + (yy - c[1] + 0.4 * r) ** 2) / (2.2 * r * r), 0.15, 1.0)
        inside = np.clip((1.0 - d) * r / 1.5, 0, 1)
        img = img * (1 - inside[:, :, None]) + (col[None, None, :] * lit[:, :, None]) * inside[:, :, None]
        if rng.random() < 0.4:
            cv2.ellipse(img, (int(c[0]), int(c[1])), (int(1.8 * r), int(0.45 * r)), float(rng.uniform(-30, 30)),
                        0, 360, tuple(float(v) for v in col * 1.2), max(1, int(2 * ppm)), cv2.LINE_AA)
    line = tuple(float(v) for v in rgb(*rng.uniform(0.4, 0.9, 3)))
    for _ in range(int(rng.integers(2, 6))):  # framed play areas
        pw, ph = rng.uniform(60, 260) * ppm, rng.uniform(40, 140) * ppm
        x0, y0 = rng.uniform(-0.2 * w, w), rng.uniform(-0.2 * h, h)
        p0, p1 = (int(x0), int(y0)), (int(x0 + pw), int(y0 + ph))
        if rng.random() < 0.5:
            over = img[max(p0[1], 0):max(p1[1], 0), max(p0[0], 0):max(p1[0], 0)]
            over *= np.float32(rng.uniform(0.3, 0.7))
        cv2.rectangle(img, p0, p1, line, max(1, int(rng.uniform(0.6, 2.0) * ppm)), cv2.LINE_AA)
        bar_h = int(rng.uniform(5, 9) * ppm)
        cv2.rectangle(img, p0, (p1[0], p0[1] + bar_h), line, -1)
        tx = p0[0] + int(4 * ppm)
        while tx < p1[0] - 10 * ppm:  # text on the title bar and in the panel
            tw = int(rng.uniform(3, 14) * ppm)
            cv2.rectangle(img, (tx, p0[1] + bar_h // 3), (tx + tw, p0[1] + 2 * bar_h // 3), (0.02, 0.02, 0.02), -1)
            ty = p0[1] + bar_h + int(rng.uniform(4, 20) * ppm)
            if ty < p1[1] - 4 * ppm and rng.random() < 0.5:
                cv2.rectangle(img, (tx, ty), (tx + tw, ty + max(1, int(1.8 * ppm))), line, -1)
            tx += tw + int(rng.uniform(1.5, 4) * ppm)
    for _ in range(int(rng.integers(4, 16))):  # small printed icons
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(rng.uniform(2.5, 7.0) * ppm)
        col = tuple(float(v) for v in rgb(*rng.uniform(0.05, 0.9, 3)))
        kind = int(rng.integers(3))
        if kind == 0:
            cv2.circle(img, c, r, col, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = np.array([[c[0] + r * math.cos(t), c[1] + r * math.sin(t)] for t in np.arange(6) * math.pi / 3])
            cv2.fillPoly(img, [np.round(pts).astype(np.int32)], col, cv2.LINE_AA)
        else:
            cv2.rectangle(img, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), col, max(1, int(ppm)), cv2.LINE_AA)
    return np.clip(img, 0.0, 1.0).astype(np.float32)


def player_board(rng: np.random.Generator, w_mm: float, h_mm: float, ppm: float) -> np.ndarray:
    """A printed player board (``float32[h, w, 3]`` reflectance) of ``w_mm`` x ``h_mm``: a dark printed
    card with a track of numbered squares (as the credit track), framed areas with titles, phase icons and
    a light border."""
    w, h = max(8, int(w_mm * ppm)), max(8, int(h_mm * ppm))
    base = rgb(*rng.uniform(0.02, 0.12, 3))
    img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    img *= (1.0 + 0.15 * value_noise(rng, h, w, 50 * ppm))[:, :, None]
    ink = rgb(*rng.uniform(0.35, 0.85, 3))
    inkt = tuple(float(v) for v in ink)
    lw = max(1, int(0.8 * ppm))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), inkt, max(1, int(2.5 * ppm)))
    # the track: numbered squares along the top
    sq = rng.uniform(12, 19) * ppm
    n = max(3, int((w - 10 * ppm) // (sq + 2 * ppm)))
    for k in range(n):
        x0 = int(5 * ppm + k * (sq + 2 * ppm))
        y0 = int(5 * ppm)
        cv2.rectangle(img, (x0, y0), (int(x0 + sq), int(y0 + sq)), inkt, lw, cv2.LINE_AA)
        put_text(img, str(k), (int(x0 + 0.25 * sq), int(y0 + 0.75 * sq)), sq / 45.0, ink, lw)
    # framed areas with a title bar
    top = int(5 * ppm + sq + 6 * ppm)
    x = int(5 * ppm)
    while x < w - 30 * ppm:
        aw = int(rng.uniform(50, 120) * ppm)
        x1 = min(w - int(5 * ppm), x + aw)
        cv2.rectangle(img, (x, top), (x1, h - int(5 * ppm)), inkt, lw, cv2.LINE_AA)
        cv2.rectangle(img, (x, top), (x1, top + int(7 * ppm)), inkt, -1)
        tx = x + int(3 * ppm)
        while tx < x1 - 8 * ppm:
            tw = int(rng.uniform(2, 8) * ppm)
            cv2.rectangle(img, (tx, top + int(2 * ppm)), (tx + tw, top + int(5 * ppm)),
                          tuple(float(v) for v in base), -1)
            tx += tw + int(1.5 * ppm)
        for _ in range(int(rng.integers(0, 3))):  # phase icons printed in the area
            c = (int(rng.uniform(x + 8 * ppm, max(x + 9 * ppm, x1 - 8 * ppm))),
                 int(rng.uniform(top + 14 * ppm, max(top + 15 * ppm, h - 12 * ppm))))
            cv2.circle(img, c, int(rng.uniform(3, 6) * ppm), inkt, lw, cv2.LINE_AA)
        x = x1 + int(4 * ppm)
    return np.clip(img, 0.0, 1.0)


def table_surface(rng: np.random.Generator, kind: str, h: int, w: int, ppm: float) -> np.ndarray:
    """The table of ``kind`` (one of :data:`TABLE_KINDS`) as ``float32[h, w, 3]`` reflectance."""
    makers = {"gingham": gingham, "playmat": playmat, "wood": wood, "felt": felt}
    if kind not in makers:
        raise ValueError(f"unknown table kind {kind!r}; expected one of {sorted(makers)}")
    return makers[kind](rng, h, w, ppm)
