"""Synthetic tables of cards and square tiles with exact labels (seeded; numpy + OpenCV only).

Scenes: a cloth or wood table with four ArUco corner markers (:func:`vision.table.corner_layout`), cards
with stand-in artwork for the layouts of the four games' card parts -- Roll for the Galaxy tiles and Race
for the Galaxy tableaus (3-14 cards in rows) and Among the Stars stations (up to 25 locations on an
edge-adjacent grid around the Main Reactor, with gaps) -- seen through a random perspective, with a
lighting gradient, soft shadows, glare, a hand partly over one card, noise and blur.

Every random choice comes from one ``numpy.random.Generator`` seeded by the caller.
Labels per card: id, ordered pixel corners, centre in table mm, row/col (tableaus) or cell (stations).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .mat import render_marker
from .table import MarkerLayout, TableConfig, corner_layout

__all__ = ["GAME_SHAPES", "HEX_MM", "CardLabel", "HexLabel", "Scene", "drop_shadow", "hex_corners", "hex_map_cells",
           "random_card_layout",
           "random_hex_map", "hex_reference_images", "make_hex_scene", "make_scene", "paste_art", "reference_images",
           "stand_in_card",
           "stand_in_hex", "station_places", "table_view", "tableau_places", "turn_matrix"]

#: card size (short, long) in mm per game layout.
GAME_SHAPES = {"race": (63.0, 88.0), "roll": (50.0, 50.0), "among": (63.0, 88.0)}
ANCHOR = "main_reactor"


@dataclass(frozen=True)
class CardLabel:
    id: str
    corners_px: np.ndarray          # float[4, 2] TL, TR, BR, BL of the card as it reads
    center_mm: tuple[float, float]
    row: int | None = None
    col: int | None = None
    cell: tuple[int, int] | None = None
    occluded: float = 0.0           # fraction of the card covered by the hand (approx.)


@dataclass(frozen=True)
class Scene:
    image: np.ndarray
    cards: list[CardLabel]
    layout: MarkerLayout
    H: np.ndarray                   # table mm -> pixels
    game: str
    seed: int
    meta: dict = field(default_factory=dict)
    hexes: list = field(default_factory=list)   # HexLabel per sector hex (Eclipse scenes), else empty


# ----------------------------------------------------------------------------------------------- artwork


def _id_rng(card_id: str) -> np.random.Generator:
    return np.random.default_rng(int.from_bytes(hashlib.sha256(card_id.encode()).digest()[:8], "little"))


def stand_in_card(card_id: str, size_mm: tuple[float, float], px_per_mm: float = 4.0) -> np.ndarray:
    """Deterministic stand-in artwork for ``card_id`` (portrait, BGR): coloured frame, title bar with
    'text' blocks, a picture of random shapes, an icon row and a thin dark die-cut rim."""
    r = _id_rng(card_id)
    w, h = int(round(size_mm[0] * px_per_mm)), int(round(size_mm[1] * px_per_mm))
    frame_col = tuple(int(v) for v in r.integers(40, 220, 3))
    img = np.full((h, w, 3), frame_col, np.uint8)
    m = int(0.07 * w)
    paper = tuple(int(v) for v in r.integers(190, 250, 3))
    cv2.rectangle(img, (m, m), (w - m, h - m), paper, -1)
    # title bar + text blocks
    th = int(0.12 * h)
    cv2.rectangle(img, (m, m), (w - m, m + th), tuple(int(v) for v in r.integers(0, 120, 3)), -1)
    x = m + 4
    while x < w - m - 10:
        bw = int(r.integers(6, 24))
        cv2.rectangle(img, (x, m + th // 3), (min(x + bw, w - m - 4), m + 2 * th // 3), (235, 235, 235), -1)
        x += bw + int(r.integers(3, 8))
    # picture
    py0, py1 = m + th + 4, int(0.72 * h)
    pic = img[py0:py1, m + 4:w - m - 4]
    pic[:] = tuple(int(v) for v in r.integers(30, 230, 3))
    ph, pw = pic.shape[:2]
    for _ in range(int(r.integers(4, 9))):
        col = tuple(int(v) for v in r.integers(0, 256, 3))
        kind = int(r.integers(0, 3))
        cx, cy = int(r.integers(0, pw)), int(r.integers(0, ph))
        if kind == 0:
            cv2.circle(pic, (cx, cy), int(r.integers(ph // 10, ph // 3)), col, -1, cv2.LINE_AA)
        elif kind == 1:
            pts = np.stack([r.integers(0, pw, 5), r.integers(0, ph, 5)], axis=1).astype(np.int32)
            cv2.fillPoly(pic, [pts], col, cv2.LINE_AA)
        else:
            cv2.ellipse(pic, (cx, cy), (int(r.integers(5, pw // 2)), int(r.integers(5, ph // 4))),
                        float(r.integers(0, 180)), 0, 360, col, -1, cv2.LINE_AA)
    # icon row
    n_icons = int(r.integers(1, 5))
    for k in range(n_icons):
        cx = int(m + (k + 0.5) * (w - 2 * m) / n_icons)
        cv2.circle(img, (cx, int(0.84 * h)), int(0.06 * w), tuple(int(v) for v in r.integers(0, 256, 3)), -1,
                   cv2.LINE_AA)
    # a number in a corner (cost/VP) makes the top distinguishable from the bottom
    cv2.putText(img, str(int(r.integers(0, 10))), (m + 2, m + th - 4), cv2.FONT_HERSHEY_SIMPLEX, th / 30.0,
                (255, 255, 255), max(1, th // 12), cv2.LINE_AA)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (25, 25, 25), max(1, int(0.6 * px_per_mm)))
    return img


def reference_images(card_ids: list[str], size_mm: tuple[float, float], seed: int = 0) -> dict[str, list[np.ndarray]]:
    """Enrollment 'scans': per card a clean render and a slightly blurred, colour-shifted copy."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {}
    for cid in card_ids:
        clean = stand_in_card(cid, size_mm, 3.0)
        gain = rng.uniform(0.9, 1.1, 3)
        shifted = np.clip(cv2.GaussianBlur(clean, (0, 0), 1.0).astype(np.float32) * gain, 0, 255).astype(np.uint8)
        out[cid] = [clean, shifted]
    return out


# ----------------------------------------------------------------------------------------------- textures


try:  # the project's scene generator (vision/synth.py) owns the shared table textures when present
    from .synth import table_texture as _shared_texture
except ImportError:  # pragma: no cover - synth.py not in this checkout
    _shared_texture = None


def table_texture(kind: str, w: int, h: int, rng: np.random.Generator, shared: bool = False) -> np.ndarray:
    """Table texture uint8[h, w, 3]: with ``shared``, ``vision.synth``'s wood/cloth/mat (when that module
    is present); else this module's own cloth (felt colour, weave, noise) or wood (grain stripes)."""
    if shared and _shared_texture is not None:
        return np.clip(_shared_texture(rng, kind, h, w), 0, 255).astype(np.uint8)
    if kind == "mat":
        kind = "cloth"
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "cloth":
        base = np.array(rng.choice([[40, 90, 30], [90, 40, 20], [30, 30, 30], [30, 30, 90], [70, 70, 70]]), np.float32)
        weave = 6.0 * np.sin(xx * 1.7) * np.sin(yy * 1.7)
        noise = cv2.GaussianBlur(rng.normal(0, 10, (h, w)).astype(np.float32), (0, 0), 1.5)
        img = base[None, None, :] + (weave + noise)[..., None]
    else:
        base = np.array([40, 80, 130], np.float32) * rng.uniform(0.6, 1.2)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25) * 400
        grain = np.sin((yy + warp) * rng.uniform(0.08, 0.2)) * 18 + np.sin((yy + warp) * 0.9) * 5
        noise = rng.normal(0, 4, (h, w)).astype(np.float32)
        img = base[None, None, :] * (1 + (grain + noise)[..., None] / 100.0)
    return np.clip(img, 0, 255).astype(np.uint8)


# ----------------------------------------------------------------------------------------------- layouts


def tableau_places(n: int, rng: np.random.Generator,
                   size: tuple[float, float]) -> list[tuple[float, float, float, int, int, None]]:
    """Cards in rows (up to 7 per row), gaps of a few mm: (cx, cy, angle, row, col, cell)."""
    per_row = int(rng.integers(3, 8))
    w, h = size
    gap_x, gap_y = rng.uniform(4, 14), rng.uniform(8, 20)
    out = []
    for k in range(n):
        r, c = divmod(k, per_row)
        cx = c * (w + gap_x) + rng.uniform(-2, 2)
        cy = r * (h + gap_y) + rng.uniform(-2, 2)
        out.append((cx, cy, rng.uniform(-4, 4), r, c, None))
    return out


def station_places(n: int, rng: np.random.Generator,
                   size: tuple[float, float]) -> list[tuple[float, float, float, int, int, tuple]]:
    """A connected station of ``n`` cells grown from (0, 0), cards touching edge to edge (0-1.5 mm gaps)."""
    cells = [(0, 0)]
    occupied = {(0, 0)}
    while len(cells) < n:
        i, j = cells[int(rng.integers(0, len(cells)))]
        di, dj = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(0, 4))]
        c = (i + di, j + dj)
        if c not in occupied and abs(c[0]) <= 3 and abs(c[1]) <= 4:
            occupied.add(c)
            cells.append(c)
    w, h = size
    pitch_x, pitch_y = w + rng.uniform(0.0, 1.5), h + rng.uniform(0.0, 1.5)
    return [(j * pitch_x + rng.uniform(-1, 1), i * pitch_y + rng.uniform(-1, 1),
             rng.uniform(-1.5, 1.5), None, None, (i, j))
            for i, j in cells]


# ----------------------------------------------------------------------------------------------- the scene


def turn_matrix(deg: float) -> np.ndarray:
    """float[2, 2] rotation by ``deg`` degrees (clockwise on screen, y down)."""
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def table_view(lo: np.ndarray, hi: np.ndarray, image_size: tuple[int, int], effects: bool,
                rng: np.random.Generator,
                tc: TableConfig) -> tuple[float, float, np.ndarray, MarkerLayout, np.ndarray, float]:
    """The table around components spanning ``lo``..``hi`` (mm) with a 75 mm margin, stretched to the image's
    aspect: (width mm, height mm, offset mm of the components, corner-marker layout, homography table mm ->
    image px, its scale in px per mm before the keystone). The camera sees the table filling ~86% of the image,
    with a random keystone when ``effects``."""
    margin = 75.0
    W_mm = float(hi[0] - lo[0] + 2 * margin)
    H_mm = float(hi[1] - lo[1] + 2 * margin)
    iw, ih = image_size
    if W_mm / H_mm < iw / ih:
        W_mm = H_mm * iw / ih
    else:
        H_mm = W_mm * ih / iw
    off = np.array([W_mm, H_mm]) / 2 - (lo + hi) / 2
    layout = corner_layout(W_mm, H_mm, 40.0, tc.mat_marker_ids)
    s = 0.86 * min(iw / W_mm, ih / H_mm)
    src = np.array([[0, 0], [W_mm, 0], [W_mm, H_mm], [0, H_mm]], np.float32)
    c0 = np.array([iw, ih]) / 2 - np.array([W_mm, H_mm]) * s / 2
    dst = (src * s + c0).astype(np.float32)
    if effects:
        dst += rng.uniform(-0.035, 0.035, (4, 2)).astype(np.float32) * np.array([iw, ih], np.float32)
    return W_mm, H_mm, off, layout, cv2.getPerspectiveTransform(src, dst).astype(np.float64), s


def random_card_layout(
        game: str, card_ids: Sequence[str], rng: np.random.Generator, n_cards: int | None = None,
) -> tuple[list[tuple[float, float, float, int, int, tuple | None]], list[str]]:
    """A random layout of ``game``'s cards or tiles in table mm: for "among" a station of ``n_cards`` (default
    6-25) round the Main Reactor (``ANCHOR`` at cell (0, 0), the others drawn from ``card_ids``, repeats
    allowed), else a tableau of ``n_cards`` (default 3-14) drawn without repeats while there are enough.
    Returns ``(places, ids)`` as :func:`station_places` / :func:`tableau_places` give them, one id per place."""
    size = GAME_SHAPES[game]
    if game == "among":
        n = n_cards or int(rng.integers(6, 26))
        places = station_places(n, rng, size)
        return places, [ANCHOR] + [str(rng.choice([c for c in card_ids if c != ANCHOR])) for _ in range(n - 1)]
    n = n_cards or int(rng.integers(3, 15))
    places = tableau_places(n, rng, size)
    return places, [str(v) for v in rng.choice(card_ids, n, replace=len(card_ids) < n)]


def make_scene(game: str, card_ids: list[str], seed: int, n_cards: int | None = None,
               image_size: tuple[int, int] = (1280, 720),
               effects: bool = True, config: TableConfig | None = None, textures: str = "own") -> Scene:
    """One synthetic table photo of ``game`` ("race", "roll" or "among") drawing ids from ``card_ids``.

    For "among" the anchor ``main_reactor`` is placed at cell (0, 0) and other ids are drawn (repeats
    allowed) from ``card_ids``. ``textures="shared"`` draws the table with :mod:`vision.synth`'s textures
    (wood, cloth, light play mat) instead of this module's own cloth/wood.
    """
    rng = np.random.default_rng(seed)
    tc = config or TableConfig()
    size = GAME_SHAPES[game]
    places, ids = random_card_layout(game, card_ids, rng, n_cards)
    # the whole layout turned (stations face any seat), then its extent -> table area with a margin
    rot_all = float(rng.choice([0, 90, 180, 270])) if game == "among" else 0.0
    R_all = turn_matrix(rot_all)
    P = np.array([R_all @ np.array([p[0], p[1]]) for p in places])
    half = np.abs(R_all) @ (np.array(size) / 2)
    lo, hi = P.min(axis=0) - half, P.max(axis=0) + half
    W_mm, H_mm, off, layout, H, s = table_view(lo, hi, image_size, effects, rng, tc)
    iw, ih = image_size
    # table texture drawn at 2 px/mm then warped
    k = 2.0
    if textures == "shared":
        tex = table_texture(str(rng.choice(["cloth", "wood", "mat"])), int(W_mm * k), int(H_mm * k), rng, True)
    else:
        tex = table_texture(str(rng.choice(["cloth", "wood"])), int(W_mm * k), int(H_mm * k), rng)
    Sk = np.diag([1 / k, 1 / k, 1.0])
    img = cv2.warpPerspective(tex, H @ Sk, (iw, ih), borderMode=cv2.BORDER_REFLECT)
    # markers (white quiet zone around each)
    for mid, q in layout.corners_mm.items():
        side_px = 120
        mk = cv2.cvtColor(render_marker(mid, side_px, tc), cv2.COLOR_GRAY2BGR)
        pad = 16
        mk = cv2.copyMakeBorder(mk, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        side_mm = float(np.linalg.norm(q[1] - q[0]))
        sc = side_mm / side_px
        A = np.array([[sc, 0, q[0][0] - pad * sc], [0, sc, q[0][1] - pad * sc], [0, 0, 1]])
        paste_art(img, mk, H @ A)
    # cards
    labels = []
    px_per_mm_card = 3.0
    for (_cx, _cy, ang, r_, c_, cell), cid, p_rot in zip(places, ids, P, strict=True):
        art = stand_in_card(cid, size, px_per_mm_card)
        ch, cw = art.shape[:2]
        centre = p_rot + off
        Rm = turn_matrix(rot_all + ang) / px_per_mm_card
        t = centre - Rm @ np.array([cw / 2, ch / 2])
        A = np.array([[Rm[0, 0], Rm[0, 1], t[0]], [Rm[1, 0], Rm[1, 1], t[1]], [0, 0, 1]])
        # soft drop shadow
        corners_mm = (A @ np.array([[0, 0, 1], [cw, 0, 1], [cw, ch, 1], [0, ch, 1]], np.float64).T).T[:, :2]
        if effects:
            drop_shadow(img, corners_mm + np.array([1.2, 1.5]), H, 0.75)
        paste_art(img, art, H @ A)
        cpx = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), H).reshape(-1, 2)
        labels.append(CardLabel(cid, cpx, (float(centre[0]), float(centre[1])), r_, c_, cell))
    meta = {}
    if effects:
        img, meta = _effects(img, labels, rng)
        labels = [CardLabel(label.id, label.corners_px, label.center_mm, label.row, label.col, label.cell,
                            meta.get("occluded", {}).get(k, 0.0)) for k, label in enumerate(labels)]
    return Scene(img, labels, layout, H, game, seed, meta)


def paste_art(img: np.ndarray, art: np.ndarray, M: np.ndarray, alpha: np.ndarray | None = None) -> None:
    """Composite ``art`` into ``img`` through the homography ``M`` (art px -> img px), within its bounding box;
    ``alpha`` (uint8[h, w], 255 = opaque) shapes it, default the whole rectangle."""
    h, w = img.shape[:2]
    ah, aw = art.shape[:2]
    box = cv2.perspectiveTransform(np.array([[[0, 0]], [[aw, 0]], [[aw, ah]], [[0, ah]]], np.float64), M).reshape(4, 2)
    x0, y0 = np.floor(box.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ M
    warped = cv2.warpPerspective(art, T, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA)
    if alpha is None:
        alpha = np.full(art.shape[:2], 255, np.uint8)
    mask = cv2.warpPerspective(alpha, T, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    a = (mask.astype(np.float32) / 255.0)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi.astype(np.float32) * (1 - a) + warped.astype(np.float32) * a).astype(np.uint8)


def drop_shadow(img: np.ndarray, corners_mm: np.ndarray, H: np.ndarray, depth: float) -> None:
    """Darken ``img`` (uint8 BGR, in place) to ``depth`` (0..1 of the light left) under the polygon
    ``corners_mm`` (table mm, mapped by ``H`` to pixels), with a soft edge."""
    px = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), H).reshape(-1, 2)
    m = np.zeros(img.shape[:2], np.float32)
    cv2.fillPoly(m, [px.astype(np.int32)], 1.0)
    m = cv2.GaussianBlur(m, (0, 0), 2.5)
    img[:] = (img.astype(np.float32) * (1 - (1 - depth) * m[..., None])).astype(np.uint8)


def _effects(img: np.ndarray, labels: list[CardLabel], rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # lighting gradient
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1.0 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    f *= light[..., None] * rng.uniform(0.8, 1.1)
    # colour cast
    f *= rng.uniform(0.92, 1.08, 3)[None, None, :]
    # a soft cast shadow (lamp, head) over part of the table
    if rng.random() < 0.6:
        m = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        cv2.ellipse(m, (int(cx), int(cy)), (int(rng.uniform(0.1, 0.3) * w), int(rng.uniform(0.1, 0.3) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 25)
        f *= (1 - rng.uniform(0.2, 0.4) * m)[..., None]
    # glare spot
    if rng.random() < 0.6:
        m = np.zeros((h, w), np.float32)
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        cv2.ellipse(m, (int(cx), int(cy)), (int(rng.uniform(20, 60)), int(rng.uniform(10, 35))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 12)
        f += (rng.uniform(60, 110) * m)[..., None]
    meta: dict = {}
    # a hand (skin-coloured blob with an arm to the nearest image edge) over part of one card
    if labels and rng.random() < 0.5:
        # the card nearest an image edge; the arm comes from that edge, fingertips 10-25 % into the card
        dists = []
        for label in labels:
            c = label.corners_px.mean(axis=0)
            dists.append(min(c[1], h - c[1], c[0], w - c[0]))
        k = int(np.argsort(dists)[int(rng.integers(0, min(3, len(labels))))])
        q = labels[k].corners_px
        c = q.mean(axis=0)
        e = int(np.argmin([c[1], h - c[1], c[0], w - c[0]]))
        edge_pt = [np.array([c[0], -50.0]), np.array([c[0], h + 50.0]), np.array([-50.0, c[1]]),
                   np.array([w + 50.0, c[1]])][e]
        d = edge_pt - c
        d /= np.linalg.norm(d)
        side = float(np.linalg.norm(q[1] - q[0]))
        ext = float(max((q - c) @ d))
        tip = c + d * (ext - side * rng.uniform(0.1, 0.25))
        skin = np.array([rng.uniform(90, 140), rng.uniform(130, 170), rng.uniform(170, 220)], np.float32)
        m = np.zeros((h, w), np.uint8)
        thick = int(side * rng.uniform(0.35, 0.5))
        cv2.line(m, tuple(tip.astype(int)), tuple(edge_pt.astype(int)), 255, thick)
        cv2.circle(m, tuple(tip.astype(int)), thick // 2, 255, -1)
        card = np.zeros((h, w), np.uint8)
        cv2.fillPoly(card, [q.astype(np.int32)], 255)
        meta["occluded"] = {}
        for j, label in enumerate(labels):
            cm = np.zeros((h, w), np.uint8)
            cv2.fillPoly(cm, [label.corners_px.astype(np.int32)], 255)
            inter = np.count_nonzero(cm & m)
            if inter:
                meta["occluded"][j] = inter / max(1, np.count_nonzero(cm))
        mf = cv2.GaussianBlur(m.astype(np.float32) / 255.0, (0, 0), 2)[..., None]
        shade = 0.8 + 0.2 * cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 8)[..., None]
        f = f * (1 - mf) + skin[None, None, :] * shade * mf
    # noise and blur
    f += rng.normal(0, rng.uniform(2, 6), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    sig = rng.uniform(0.3, 1.0)
    out = cv2.GaussianBlur(out, (0, 0), sig)
    return out, meta


# ----------------------------------------------------------------------------------------------- Eclipse hex maps

#: flat-to-flat width of a stand-in sector hex in mm (a physical Eclipse sector is about this size).
HEX_MM = 110.0

# flat-top hexagon corners, clockwise on screen (y down) from the top-left: angles in degrees from +x
_HEX_CORNER_DEG = (240.0, 300.0, 0.0, 60.0, 120.0, 180.0)
# axial (q, r) neighbour across edge j (edge j from corner j to j + 1: 12, 2, 4, 6, 8, 10 o'clock)
_HEX_NEIGHBOURS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))


@dataclass(frozen=True)
class HexLabel:
    id: str
    corners_px: np.ndarray          # float[6, 2] clockwise from the tile's printed top-left corner
    center_mm: tuple[float, float]
    axial: tuple[int, int]          # [q, r] from the Galactic Center (flat-top, see vision.hexes)
    rotation: int                   # 0-5: the printed top edge lies at clock 2 * rotation of the map
    occluded: float = 0.0


def hex_corners(flat: float) -> np.ndarray:
    """float[6, 2] corners of a flat-top hexagon of flat-to-flat width ``flat`` around (0, 0)."""
    R = flat / math.sqrt(3.0)
    a = np.radians(_HEX_CORNER_DEG)
    return np.stack([R * np.cos(a), R * np.sin(a)], axis=1)


def stand_in_hex(hex_id: str, flat_mm: float = HEX_MM, px_per_mm: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """Deterministic stand-in artwork of sector ``hex_id`` in printed orientation (flat top edge up):
    (BGR uint8[F, 2R, 3], alpha uint8[F, 2R]) with F = flat-to-flat and R = corner radius, in pixels.

    Space background, stars, planets, wormhole half-circles on some edges, a dark die-cut rim and the
    sector number printed under the top edge (which makes every tile's six turns look different)."""
    r = _id_rng("hex:" + hex_id)
    F = flat_mm * px_per_mm
    R = F / math.sqrt(3.0)
    w, h = int(round(2 * R)), int(round(F))
    c = np.array([w / 2.0, h / 2.0])
    poly = (hex_corners(F) + c).astype(np.float32)
    bg = np.array(r.integers(25, 200, 3), np.float64)
    img = np.empty((h, w, 3), np.uint8)
    yy = np.linspace(0, 1, h)[:, None, None]
    img[:] = np.clip(bg * (0.8 + 0.4 * yy), 0, 255).astype(np.uint8)
    for _ in range(int(r.integers(20, 60))):   # stars
        p = (int(r.integers(0, w)), int(r.integers(0, h)))
        cv2.circle(img, p, int(r.integers(1, 3)), tuple(int(v) for v in r.integers(170, 256, 3)), -1, cv2.LINE_AA)
    for _ in range(int(r.integers(1, 4))):     # planets, kept inside the hexagon
        rad = int(r.integers(int(0.08 * F), int(0.17 * F)))
        ang, dist = r.uniform(0, 2 * math.pi), r.uniform(0, 0.45 * F - rad)
        p = (int(c[0] + dist * math.cos(ang)), int(c[1] + dist * math.sin(ang)))
        col = tuple(int(v) for v in r.integers(0, 256, 3))
        cv2.circle(img, p, rad, col, -1, cv2.LINE_AA)
        cv2.circle(img, p, rad, tuple(int(v * 0.5) for v in col), max(1, int(0.01 * F)), cv2.LINE_AA)
    for j in range(6):                         # wormhole half-circles on some edges
        if r.random() < 0.5:
            m = (poly[j] + poly[(j + 1) % 6]) / 2
            cv2.circle(img, (int(m[0]), int(m[1])), int(0.11 * F), (30, 30, 30), -1, cv2.LINE_AA)
            cv2.circle(img, (int(m[0]), int(m[1])), int(0.075 * F), (235, 235, 235), -1, cv2.LINE_AA)
    # the sector number under the top edge, on a light plate
    text = str(hex_id)[:4]
    scale = F / 160.0
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(F / 45)))
    x0, y0 = int(c[0] - tw / 2), int(0.06 * F + th + 0.04 * F)
    cv2.rectangle(img, (x0 - 4, y0 - th - 6), (x0 + tw + 4, y0 + 6), (225, 235, 240), -1)
    cv2.putText(img, text, (x0, y0), cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20), max(1, int(F / 45)), cv2.LINE_AA)
    alpha = np.zeros((h, w), np.uint8)
    cv2.fillPoly(alpha, [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    cv2.polylines(img, [np.round(poly * 16).astype(np.int32)], True, (20, 20, 20), max(1, int(0.6 * px_per_mm)),
                  cv2.LINE_AA, shift=4)
    return img, alpha


def hex_reference_images(hex_ids: list[str], flat_mm: float = HEX_MM, seed: int = 0) -> dict[str, list[np.ndarray]]:
    """Enrollment 'scans' of stand-in hexes, printed top edge up on white paper: per id a clean render and
    a slightly blurred, colour-shifted copy (each image is the hexagon's bounding box)."""
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {}
    for hid in hex_ids:
        art, alpha = stand_in_hex(hid, flat_mm, 3.0)
        a = (alpha.astype(np.float32) / 255.0)[..., None]
        clean = (art.astype(np.float32) * a + 255.0 * (1 - a)).astype(np.uint8)
        gain = rng.uniform(0.9, 1.1, 3)
        shifted = np.clip(cv2.GaussianBlur(clean, (0, 0), 1.0).astype(np.float32) * gain, 0, 255).astype(np.uint8)
        out[hid] = [clean, shifted]
    return out


def hex_map_cells(n: int, rng: np.random.Generator, max_ring: int = 3) -> list[tuple[int, int]]:
    """``n`` axial cells grown from (0, 0) (each new one next to a placed one), within ``max_ring``."""
    cells = [(0, 0)]
    seen = {(0, 0)}
    n = min(n, 1 + 3 * max_ring * (max_ring + 1))
    while len(cells) < n:
        q, r_ = cells[int(rng.integers(0, len(cells)))]
        dq, dr = _HEX_NEIGHBOURS[int(rng.integers(0, 6))]
        c = (q + dq, r_ + dr)
        if c not in seen and (abs(c[0]) + abs(c[1]) + abs(c[0] + c[1])) // 2 <= max_ring:
            seen.add(c)
            cells.append(c)
    return cells


def random_hex_map(hex_ids: Sequence[str], rng: np.random.Generator, n_hexes: int | None = None,
                   anchor: str = "001") -> tuple[list[tuple[int, int]], list[str], list[int]]:
    """A random Eclipse map: ``n_hexes`` (default 20-30) axial cells from :func:`hex_map_cells`, the ``anchor``
    at (0, 0) and an id per other cell (a hex at ring k draws from the ids whose first character is k when any
    are left, else from every id; no id repeats while there are enough), and a rotation 0-5 per cell.
    Returns ``(cells, ids, rotations)``, one entry per hex."""
    n = n_hexes or int(rng.integers(20, 31))
    cells = hex_map_cells(n, rng)
    pool = [h for h in hex_ids if h != anchor]
    ids = [anchor]
    for q, r_ in cells[1:]:
        ring = (abs(q) + abs(r_) + abs(q + r_)) // 2
        left = [h for h in pool if h not in ids] or pool
        by_ring = [h for h in left if h[:1] == str(ring)]
        ids.append(str(rng.choice(by_ring or left)))
    return cells, ids, [int(rng.integers(0, 6)) for _ in cells]


def make_hex_scene(hex_ids: list[str], seed: int, n_hexes: int | None = None, image_size: tuple[int, int] = (1280, 720),
                   effects: bool = True, config: TableConfig | None = None, textures: str = "own",
                   hex_mm: float = HEX_MM, anchor: str = "001", max_angle: float = 20.0,
                   tiles: Sequence[tuple[str, tuple[int, int], int]] | None = None) -> Scene:
    """One synthetic Eclipse map: ``n_hexes`` (default 20-30) sector hexes edge to edge around the Galactic
    Center (``anchor``, axial (0, 0)) within ring III, with gaps; every hex turned by a random multiple of
    60 degrees, the whole map turned by up to ``max_angle`` degrees on the table, 0-1.5 mm seams and
    sub-degree jitter between tiles; cloth or wood table, corner ArUco markers, perspective and (with
    ``effects``) light gradient, shadows, glare, a hand over one hex, noise and blur.

    Ids: when an id's first character is a ring digit (Eclipse numbering: 1xx ring I, 2xx ring II, 3xx
    ring III) a hex at ring k draws from ring k's ids when any are left, else from every id; no id repeats
    while there are enough. Labels: :class:`HexLabel` per hex in ``Scene.hexes`` (``Scene.cards`` is empty).

    ``tiles``: a given map instead, ``(id, (q, r), rotation)`` per hex (the anchor at (0, 0) among them): the same map
    read twice, one hex more the second time, as a table where a hex was just explored (``seed`` still draws the
    table, the light and the map's turn).
    """
    rng = np.random.default_rng(seed)
    tc = config or TableConfig()
    if tiles is not None:
        ids = [str(t[0]) for t in tiles]
        cells = [(int(t[1][0]), int(t[1][1])) for t in tiles]
        rots = [int(t[2]) % 6 for t in tiles]
    else:
        cells, ids, rots = random_hex_map(hex_ids, rng, n_hexes, anchor)
    map_angle = float(rng.uniform(-max_angle, max_angle))
    F = hex_mm
    R = F / math.sqrt(3.0)
    gap = float(rng.uniform(0.0, 1.5))
    Fp = F + gap                       # lattice pitch across flats
    Rp = Fp / math.sqrt(3.0)
    Rm = turn_matrix(map_angle)
    P = np.array([Rm @ np.array([1.5 * Rp * q, Fp * (r_ + q / 2.0)]) for q, r_ in cells])
    P += rng.uniform(-0.5, 0.5, P.shape)
    lo, hi = P.min(axis=0) - R, P.max(axis=0) + R
    W_mm, H_mm, off, layout, H, s = table_view(lo, hi, image_size, effects, rng, tc)
    iw, ih = image_size
    k = 2.0
    kind = str(rng.choice(["cloth", "wood", "mat"] if textures == "shared" else ["cloth", "wood"]))
    tex = table_texture(kind, int(W_mm * k), int(H_mm * k), rng, textures == "shared")
    img = cv2.warpPerspective(tex, H @ np.diag([1 / k, 1 / k, 1.0]), (iw, ih), borderMode=cv2.BORDER_REFLECT)
    for mid, q in layout.corners_mm.items():
        side_px = 120
        mk = cv2.cvtColor(render_marker(mid, side_px, tc), cv2.COLOR_GRAY2BGR)
        pad = 16
        mk = cv2.copyMakeBorder(mk, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        sc = float(np.linalg.norm(q[1] - q[0])) / side_px
        paste_art(img, mk, H @ np.array([[sc, 0, q[0][0] - pad * sc], [0, sc, q[0][1] - pad * sc], [0, 0, 1]]))
    # shadows first (under every tile), then the tiles
    ppm = max(3.0, 1.5 * s)  # art px per mm: finer than the image
    placed = []
    for (q, r_), hid, rot, p in zip(cells, ids, rots, P, strict=True):
        ang = map_angle + 60.0 * rot + float(rng.uniform(-0.7, 0.7))
        centre = p + off
        corners_mm = (turn_matrix(ang) @ hex_corners(F).T).T + centre
        placed.append((hid, rot, (q, r_), centre, ang, corners_mm))
        if effects:
            drop_shadow(img, corners_mm + np.array([1.2, 1.5]), H, 0.75)
    labels = []
    for hid, rot, ax, centre, ang, corners_mm in placed:
        art, alpha = stand_in_hex(hid, F, ppm)
        ah, aw = art.shape[:2]
        Rr = turn_matrix(ang) / ppm
        t = centre - Rr @ np.array([aw / 2, ah / 2])
        A = np.array([[Rr[0, 0], Rr[0, 1], t[0]], [Rr[1, 0], Rr[1, 1], t[1]], [0, 0, 1]])
        paste_art(img, art, H @ A, alpha)
        cpx = cv2.perspectiveTransform(corners_mm.reshape(-1, 1, 2), H).reshape(6, 2)
        labels.append(HexLabel(hid, cpx, (float(centre[0]), float(centre[1])), ax, rot))
    meta: dict = {"map_angle": map_angle, "hex_mm": F, "seam_mm": gap}
    if effects:
        img, m2 = _effects(img, labels, rng)
        meta.update(m2)
        occ = m2.get("occluded", {})
        labels = [HexLabel(label.id, label.corners_px, label.center_mm, label.axial, label.rotation, occ.get(j, 0.0))
                  for j, label in enumerate(labels)]
    return Scene(img, [], layout, H, "eclipse", seed, meta, labels)
