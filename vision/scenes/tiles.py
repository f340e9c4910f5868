"""Card, tile and hex scenes of the second generator: its own stand-in artwork for the cards of Race for
the Galaxy, Roll for the Galaxy tiles, Among the Stars locations and Eclipse sector hexes, laid on its
tables (gingham, playmat, wood, felt) with the calibration markers at the table's corners, lit by its lamp
and seen by its camera models (:mod:`.camera`, :mod:`.light`, :mod:`.render`).

The owner enrolls a deck from photos of single cards taken with one camera (:func:`camera_photos`); the
table is then read with another (``camera=``): that is "cards from any camera".

Labels have the first table generator's form (:class:`vision.synth_table.CardLabel`,
:class:`vision.synth_table.HexLabel` in a :class:`vision.synth_table.Scene`), and its layout conventions
(tableau rows and columns, station cells, axial hex coordinates and turns), so the benches score both alike.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..mat import render_marker
from ..synth_table import (
    GAME_SHAPES,
    HEX_MM,
    CardLabel,
    HexLabel,
    Scene,
    hex_corners,
    random_card_layout,
    random_hex_map,
)
from ..table import TableConfig, corner_layout
from .camera import Camera, look_at
from .light import LightRanges, draw_lighting
from .render import TableCanvas, camera_model, finish, paste_flat, see_table, table_canvas
from .tables import TABLE_KINDS, put_text, rgb, table_surface, value_noise

__all__ = ["TileSceneConfig", "camera_photos", "card_art", "card_scene", "hex_art", "hex_scene"]


@dataclass(frozen=True)
class TileSceneConfig:
    """Ranges of a card or hex scene.

    Attributes:
        tilt: (min, max) camera axis off the vertical, degrees.
        turn: the camera's turn about its axis away from the table's sides, degrees (+-).
        fill: share of the picture's shorter side the table area (components + margin) spans.
        tables: table kinds to draw from.
        cameras: camera models to draw from.
        light: the light's ranges (no glare spots: cards are matte).
        margin_mm: table around the components, mm (the corner markers lie in it).
    """

    tilt: tuple[float, float] = (0.0, 20.0)
    turn: float = 8.0
    fill: float = 0.9
    tables: tuple[str, ...] = TABLE_KINDS
    cameras: tuple[str, ...] = ("pi-hq", "pi-wide", "webcam")
    light: LightRanges = field(default_factory=lambda: LightRanges(glare_spots=0.0, sheen=(0.0, 0.15),
                                                                   kelvin=(2900.0, 6500.0)))
    margin_mm: float = 75.0


def _id_rng(key: str) -> np.random.Generator:
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little"))


def _rounded(h: int, w: int, r: float) -> np.ndarray:
    a = np.zeros((h, w), np.float32)
    r = max(1, int(r))
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 1.0, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(a, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return a


def card_art(card_id: str, size_mm: tuple[float, float], ppm: float = 4.0) -> tuple[np.ndarray, np.ndarray]:
    """Stand-in artwork of ``card_id`` (reflectance ``float32[h, w, 3]``, alpha with rounded corners), portrait:
    a two-colour gradient ground, a large emblem (rings, rays and a polygon), a cost disc with a number in
    the top-left corner, a name band at the bottom with "text", a victory-point hexagon bottom-right and a
    light border. Deterministic per id."""
    r = _id_rng("card:" + card_id)
    w, h = int(round(size_mm[0] * ppm)), int(round(size_mm[1] * ppm))
    c0, c1 = rgb(*r.uniform(0.05, 0.8, 3)), rgb(*r.uniform(0.05, 0.8, 3))
    t = np.linspace(0, 1, h, dtype=np.float32)[:, None, None]
    img = (c0 * (1 - t) + c1 * t).astype(np.float32) * np.ones((1, w, 1), np.float32)
    img *= (1.0 + 0.12 * value_noise(r, h, w, w / 3))[:, :, None]
    cx, cy = w / 2 + r.uniform(-0.1, 0.1) * w, h * r.uniform(0.38, 0.5)
    for _k in range(int(r.integers(2, 5))):  # rings
        col = tuple(float(v) for v in rgb(*r.uniform(0.0, 1.0, 3)))
        cv2.circle(img, (int(cx), int(cy)), int(w * r.uniform(0.12, 0.42)), col, max(1, int(r.uniform(1, 4) * ppm)),
                   cv2.LINE_AA)
    n_rays = int(r.integers(0, 9))
    for k in range(n_rays):  # rays
        a = 2 * math.pi * k / max(n_rays, 1) + r.uniform(0, 1)
        col = tuple(float(v) for v in rgb(*r.uniform(0.2, 1.0, 3)))
        cv2.line(img, (int(cx), int(cy)), (int(cx + math.cos(a) * w * 0.45), int(cy + math.sin(a) * w * 0.45)), col,
                 max(1, int(ppm)), cv2.LINE_AA)
    k = int(r.integers(3, 8))
    rad = w * r.uniform(0.12, 0.25)
    pts = np.array([[cx + rad * math.cos(2 * math.pi * i / k + 0.3), cy + rad * math.sin(2 * math.pi * i / k + 0.3)]
                    for i in range(k)])
    cv2.fillPoly(img, [np.round(pts).astype(np.int32)], tuple(float(v) for v in rgb(*r.uniform(0.0, 1.0, 3))),
                 cv2.LINE_AA)
    # cost disc top-left with a number
    cr = int(0.11 * w)
    cv2.circle(img, (int(0.16 * w), int(0.16 * w)), cr, (0.85, 0.85, 0.85), -1, cv2.LINE_AA)
    put_text(img, str(int(r.integers(0, 10))), (int(0.16 * w - cr * 0.45), int(0.16 * w + cr * 0.5)), cr / 14.0,
             (0.03, 0.03, 0.03), max(1, cr // 6))
    # name band at the bottom with text, a VP hexagon bottom-right
    by = int(0.8 * h)
    cv2.rectangle(img, (0, by), (w, int(0.93 * h)), tuple(float(v) for v in rgb(*r.uniform(0.0, 0.3, 3))), -1)
    x = int(0.06 * w)
    while x < 0.7 * w:
        tw = int(r.uniform(2, 7) * ppm)
        cv2.rectangle(img, (x, int(by + 0.03 * h)), (x + tw, int(by + 0.07 * h)), (0.85, 0.85, 0.85), -1)
        x += tw + int(1.5 * ppm)
    hx, hy, hr = 0.84 * w, 0.86 * h, 0.1 * w
    hexa = np.array([[hx + hr * math.cos(a), hy + hr * math.sin(a)] for a in np.arange(6) * math.pi / 3])
    cv2.fillPoly(img, [np.round(hexa).astype(np.int32)], (0.1, 0.55, 0.8), cv2.LINE_AA)
    put_text(img, str(int(r.integers(0, 7))), (int(hx - hr * 0.4), int(hy + hr * 0.45)), hr / 14.0, (0.95, 0.95, 0.95),
             max(1, int(hr / 6)))
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (0.9, 0.9, 0.88), max(1, int(1.2 * ppm)))
    return np.clip(img, 0.0, 1.0), _rounded(h, w, 2.5 * ppm)


def hex_art(hex_id: str, flat_mm: float = HEX_MM, ppm: float = 3.0) -> tuple[np.ndarray, np.ndarray]:
    """Stand-in artwork of Eclipse sector ``hex_id`` (reflectance, alpha) in printed orientation (flat top
    edge up): a radial nebula, planets with rings and population squares, wormhole gates as coloured half
    discs on some edges, ancient ships as triangles, and the sector number in a disc under the top edge."""
    r = _id_rng("hex:" + hex_id)
    F = flat_mm * ppm
    R = F / math.sqrt(3.0)
    w, h = int(round(2 * R)), int(round(F))
    c = np.array([w / 2.0, h / 2.0])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.sqrt((xx - c[0]) ** 2 + (yy - c[1]) ** 2) / (F / 2)
    inner, outer = rgb(*r.uniform(0.05, 0.5, 3)), rgb(*r.uniform(0.0, 0.15, 3))
    img = inner * np.clip(1 - d, 0, 1)[:, :, None] + outer * np.clip(d, 0, 1)[:, :, None]
    img = img.astype(np.float32) * (1.0 + 0.2 * value_noise(r, h, w, F / 6))[:, :, None]
    corners = (hex_corners(F) + c).astype(np.float32)
    for _ in range(int(r.integers(1, 4))):  # planets
        rad = r.uniform(0.07, 0.14) * F
        a, dist = r.uniform(0, 2 * math.pi), r.uniform(0.0, 0.42 * F - rad)
        p = (int(c[0] + dist * math.cos(a)), int(c[1] + 0.1 * F + dist * math.sin(a)))
        col = tuple(float(v) for v in rgb(*r.uniform(0.1, 0.9, 3)))
        cv2.circle(img, p, int(rad), col, -1, cv2.LINE_AA)
        if r.random() < 0.5:
            cv2.ellipse(img, p, (int(rad * 1.6), int(rad * 0.4)), float(r.uniform(-30, 30)), 0, 360, col,
                        max(1, int(ppm)), cv2.LINE_AA)
        for k in range(int(r.integers(0, 3))):
            s = int(0.035 * F)
            q = (p[0] - int(rad) + k * 2 * s, p[1] + int(rad) + 2)
            cv2.rectangle(img, q, (q[0] + s, q[1] + s), (0.9, 0.9, 0.9), -1)
    for j in range(6):  # wormhole gates
        if r.random() < 0.5:
            m = (corners[j] + corners[(j + 1) % 6]) / 2
            cv2.circle(img, (int(m[0]), int(m[1])), int(0.09 * F), (0.75, 0.45, 0.1), -1, cv2.LINE_AA)
    for _ in range(int(r.integers(0, 3))):  # ancient ships
        p = c + r.uniform(-0.25, 0.25, 2) * F
        tri = np.array([p + [0, -0.05 * F], p + [0.045 * F, 0.04 * F], p + [-0.045 * F, 0.04 * F]])
        cv2.fillPoly(img, [np.round(tri).astype(np.int32)], (0.1, 0.1, 0.7), cv2.LINE_AA)
    text = str(hex_id)[:4]
    cy = int(0.17 * F)
    cv2.circle(img, (int(c[0]), cy), int(0.1 * F), (0.92, 0.9, 0.85), -1, cv2.LINE_AA)
    scale = F / 230.0
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(F / 70)))
    put_text(img, text, (int(c[0] - tw / 2), int(cy + th / 2)), scale, (0.03, 0.03, 0.03), max(1, int(F / 70)))
    alpha = np.zeros((h, w), np.float32)
    cv2.fillPoly(alpha, [np.round(corners * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    cv2.polylines(img, [np.round(corners * 16).astype(np.int32)], True, (0.05, 0.05, 0.05), max(1, int(0.8 * ppm)),
                  cv2.LINE_AA, shift=4)
    return np.clip(img, 0.0, 1.0).astype(np.float32), alpha


def camera_photos(arts: dict[str, tuple[np.ndarray, np.ndarray]], camera: str = "phone", seed: int = 0,
                  photos: int = 2) -> dict[str, list[np.ndarray]]:
    """Enrollment photos of single cards or tiles (id -> ``photos`` BGR pictures) taken flat with the camera
    model ``camera`` on a white sheet under a daylight lamp: that camera's colour response, white balance,
    tone curve, noise, sharpening and JPEG -- not the table camera's."""
    model = camera_model(camera)
    rng = np.random.default_rng(seed)
    out: dict[str, list[np.ndarray]] = {}
    for cid, (art, alpha) in arts.items():
        ims = []
        for _ in range(photos):
            h, w = art.shape[:2]
            pad = int(0.06 * max(h, w))
            sheet = np.full((h + 2 * pad, w + 2 * pad, 3), 0.85, np.float32)
            a = alpha[:, :, None]
            sub = sheet[pad:pad + h, pad:pad + w]
            sub[:] = sub * (1 - a) + art * a
            light = draw_lighting(rng, LightRanges(kelvin=(4500.0, 6500.0), wb_correction=(0.8, 1.0),
                                                   exposure=(0.9, 1.1), contrast=(0.0, 0.2), head_shadow=0.0))
            cam = look_at(np.zeros(3), 300.0, 0.0, 90.0, 0.0, 60.0, (sheet.shape[1], sheet.shape[0]))
            cam = Camera(cam.K, cam.R, cam.t, 0.0, 0.0, cam.size)  # a flat photo: no lens distortion here
            bgr, _ = finish(rng, sheet * float(rng.uniform(0.85, 1.0)), cam, model, light)
            ims.append(bgr)
        out[cid] = ims
    return out


def _view(rng: np.random.Generator, lo: np.ndarray, hi: np.ndarray, size: tuple[int, int], cfg: TileSceneConfig,
          model_name: str) -> tuple[Camera, float, float]:
    """A camera over the table area ``lo``..``hi`` (mm) seeing all of it: from one of the table's four sides
    (turned up to ``cfg.turn``), at ``cfg.tilt``, its distance set so the area spans ``cfg.fill`` of the picture."""
    model = camera_model(model_name)
    W, H = (hi - lo)
    side = int(rng.integers(4))
    turn = float(rng.uniform(-cfg.turn, cfg.turn))
    heading = 90.0 * side + turn
    across, along = (W, H) if side % 2 == 1 else (H, W)  # extents across and down the picture (90: upright)
    c, s = abs(math.cos(math.radians(turn))), abs(math.sin(math.radians(turn)))
    across, along = across * c + along * s, across * s + along * c
    tilt = float(rng.uniform(*cfg.tilt))
    hfov = float(rng.uniform(*model.hfov))
    f = (size[0] / 2.0) / math.tan(math.radians(hfov) / 2.0)
    ppm = cfg.fill * min(size[0] / across, size[1] / along) / (1.0 + 0.6 * math.sin(math.radians(tilt)))
    distance = f / ppm
    target = np.array([(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, 0.0])
    cam = look_at(target, distance, tilt, heading, float(rng.uniform(-2, 2)), hfov, size,
                  float(rng.uniform(*model.k1)), float(rng.uniform(*model.k2)))
    return cam, ppm, heading


def _lay_table(rng: np.random.Generator, cam: Camera, kind: str, W_mm: float, H_mm: float, tc: TableConfig):
    """The table canvas under ``cam`` with the corner markers of a W x H mm area on white paper."""
    pad = cam.distortion_pad()
    view = cam.padded(pad)
    origin, csize, ppm = table_canvas(view)
    canvas = TableCanvas(table_surface(rng, kind, int(csize[1]), int(csize[0]), ppm),
                         np.ones((int(csize[1]), int(csize[0])), np.float32), ppm, origin)
    layout = corner_layout(W_mm, H_mm, 40.0, tc.mat_marker_ids)
    for mid, q in layout.corners_mm.items():
        side_px = 120
        mk = render_marker(mid, side_px, tc).astype(np.float32) / 255.0
        quiet = 16
        mk = cv2.copyMakeBorder(mk, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=1.0)
        mk = np.repeat(mk[:, :, None], 3, axis=2) * 0.88 + 0.02  # printed on paper: black ink, white paper
        side_mm = float(np.linalg.norm(q[1] - q[0]))
        centre = q.mean(0)
        ang = math.degrees(math.atan2(q[1][1] - q[0][1], q[1][0] - q[0][0]))
        paste_flat(canvas, mk, (float(centre[0]), float(centre[1])), ang, side_px / side_mm, shadow=0.1)
    return canvas, view, pad, layout


def _finish_scene(rng, canvas, view, cam, pad, model_name, cfg):
    light = draw_lighting(rng, cfg.light)
    canvas.light *= np.float32(light.ambient + (1 - light.ambient) * math.sin(math.radians(light.elevation)))
    falloff = rng.uniform(*cfg.light.falloff)  # drawn before the noise (the seeded order)
    lamp_noise = value_noise(rng, *canvas.light.shape, 300 * canvas.ppm)
    canvas.light *= (1.0 - falloff * np.clip(lamp_noise * 0.5 + 0.5, 0, 1)).astype(np.float32)
    img = see_table(canvas, view)
    return finish(rng, img, cam, camera_model(model_name), light, sheen=float(rng.uniform(*cfg.light.sheen)),
                  head_shadow=bool(rng.random() < cfg.light.head_shadow), pad=pad), light


def card_scene(game: str, card_ids: list[str], seed: int, n_cards: int | None = None,
               image_size: tuple[int, int] = (1280, 720), camera: str | None = None,
               config: TileSceneConfig = TileSceneConfig(), table_config: TableConfig | None = None) -> Scene:
    """One table of ``game`` ("race", "roll" or "among") with cards drawn from ``card_ids`` (Among the Stars:
    the Main Reactor at cell (0, 0) and a station round it), laid as the first generator lays them, seen by
    ``camera`` (default: drawn from ``config.cameras``). Raises ValueError for an unknown game or camera."""
    if game not in GAME_SHAPES:
        raise ValueError(f"unknown game {game!r}; expected one of {sorted(GAME_SHAPES)}")
    rng = np.random.default_rng(seed)
    tc = table_config or TableConfig()
    size = GAME_SHAPES[game]
    places, ids = random_card_layout(game, card_ids, rng, n_cards)
    P = np.array([[p[0], p[1]] for p in places], np.float64)
    half = np.array(size) / 2
    lo, hi = P.min(0) - half - config.margin_mm, P.max(0) + half + config.margin_mm
    off = -lo  # table frame: the marker area from (0, 0) to (W, H)
    W_mm, H_mm = float(hi[0] - lo[0]), float(hi[1] - lo[1])
    model_name = camera or config.cameras[int(rng.integers(len(config.cameras)))]
    cam, _, heading = _view(rng, np.zeros(2), np.array([W_mm, H_mm]), image_size, config, model_name)
    kind = config.tables[int(rng.integers(len(config.tables)))]
    canvas, view, pad, layout = _lay_table(rng, cam, kind, W_mm, H_mm, tc)
    labels = []
    art_ppm = 4.0
    for (cx, cy, ang, r_, c_, cell), cid in zip(places, ids, strict=True):
        art, alpha = card_art(cid, size, art_ppm)
        centre = (float(cx + off[0]), float(cy + off[1]))
        corners_mm = paste_flat(canvas, art, centre, float(ang), art_ppm, alpha, shadow=0.35)
        corners_px = cam.project(np.column_stack([corners_mm, np.zeros(4)]))
        labels.append(CardLabel(cid, corners_px, centre, r_, c_, cell))
    (img, cam_meta), light = _finish_scene(rng, canvas, view, cam, pad, model_name, config)
    meta = {"table": kind, "kelvin": round(light.kelvin), "heading": round(heading, 1), "generator": "scenes",
            **cam_meta}
    return Scene(img, labels, layout, cam.plane_homography(0.0), game, int(seed), meta)


def hex_scene(hex_ids: list[str], seed: int, n_hexes: int | None = None, image_size: tuple[int, int] = (1280, 720),
              camera: str | None = None, config: TileSceneConfig = TileSceneConfig(),
              table_config: TableConfig | None = None, hex_mm: float = HEX_MM, anchor: str = "001",
              max_angle: float = 20.0) -> Scene:
    """One Eclipse map of ``n_hexes`` (default 20-30) sector hexes round the Galactic Center (``anchor`` at
    axial (0, 0)), as the first generator arranges them (ring by ring ids, turns of 60 degrees, the map
    turned by up to ``max_angle``, 0-1.5 mm seams), in this generator's artwork, table, light and camera."""
    rng = np.random.default_rng(seed)
    tc = table_config or TableConfig()
    cells, ids, rots = random_hex_map(hex_ids, rng, n_hexes, anchor)
    map_angle = float(rng.uniform(-max_angle, max_angle))
    F = hex_mm
    R = F / math.sqrt(3.0)
    gap = float(rng.uniform(0.0, 1.5))
    Fp = F + gap
    Rp = Fp / math.sqrt(3.0)
    a = math.radians(map_angle)
    Rm = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    P = (np.array([Rm @ np.array([1.5 * Rp * q, Fp * (r_ + q / 2.0)]) for q, r_ in cells])
         + rng.uniform(-0.5, 0.5, (len(cells), 2)))
    lo, hi = P.min(0) - R - config.margin_mm, P.max(0) + R + config.margin_mm
    off = -lo
    W_mm, H_mm = float(hi[0] - lo[0]), float(hi[1] - lo[1])
    model_name = camera or config.cameras[int(rng.integers(len(config.cameras)))]
    cam, _, heading = _view(rng, np.zeros(2), np.array([W_mm, H_mm]), image_size, config, model_name)
    kind = config.tables[int(rng.integers(len(config.tables)))]
    canvas, view, pad, layout = _lay_table(rng, cam, kind, W_mm, H_mm, tc)
    labels = []
    art_ppm = 3.0
    for (q, r_), hid, rot, p in zip(cells, ids, rots, P, strict=True):
        ang = map_angle + 60.0 * rot + float(rng.uniform(-0.7, 0.7))
        art, alpha = hex_art(hid, F, art_ppm)
        centre = (float(p[0] + off[0]), float(p[1] + off[1]))
        paste_flat(canvas, art, centre, ang, art_ppm, alpha, shadow=0.35)
        t = math.radians(ang)
        corners_mm = (np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]) @ hex_corners(F).T).T + centre
        cpx = cam.project(np.column_stack([corners_mm, np.zeros(6)]))
        labels.append(HexLabel(hid, cpx, centre, (q, r_), rot))
    (img, cam_meta), light = _finish_scene(rng, canvas, view, cam, pad, model_name, config)
    meta = {"table": kind, "kelvin": round(light.kelvin), "heading": round(heading, 1), "map_angle": map_angle,
            "hex_mm": F, "seam_mm": gap, "generator": "scenes", **cam_meta}
    return Scene(img, [], layout, cam.plane_homography(0.0), "eclipse", int(seed), meta, labels)
