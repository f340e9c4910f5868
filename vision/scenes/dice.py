"""Roll for the Galaxy dice scenes of the second generator: dice as rounded cubes in 3-D (each face shaded
by the lamp, its bevel catching or losing the light, the top face and the visible sides printed with this
generator's own symbols), thrown in groups on a table (gingham, playmat, wood, felt) with player boards,
tiles and chips under and among them, seen by a camera model (tilt, lens distortion, noise, JPEG, motion
blur) under a lamp of 2700-6500 K with the camera's white-balance error, exposure and tone curve, hard or
soft shadows and glare spots.

Labels have the first generator's form (:class:`vision.synth.DieLabel` in a :class:`vision.synth.Scene`),
so every bench reads both generators the same way; ``Scene.meta["under"]`` adds what each die lies on.
Entry points: :func:`render_dice_scene` and :func:`write_dice_enrollment` (``DIR/<colour>-<face>/`` photos).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ..synth import DieLabel, Scene, write_pair_photos
from .artwork import COLOURS, EDITIONS, FACES, Edition, symbol
from .camera import Camera
from .light import Lighting, LightRanges, draw_lighting, shadow_mask
from .render import TableCanvas, camera_model, draw_camera, finish, paste_flat, see_table, table_canvas, warp_face
from .tables import TABLE_KINDS, player_board, put_text, rgb, table_surface, value_noise

__all__ = ["DiceSceneConfig", "ENROLL_SCENE", "render_dice_scene", "write_dice_enrollment"]

#: Dice per colour in the game (Roll for the Galaxy rulebook, components), to draw scene colours.
COLOUR_COUNTS: dict[str, int] = {"white": 25, "red": 22, "purple": 9, "blue": 20, "brown": 14, "green": 12, "yellow": 9}


@dataclass(frozen=True)
class DiceSceneConfig:
    """Ranges of a dice scene.

    Attributes:
        width, height: picture size, pixels.
        n_dice: (min, max) dice in the scene.
        die_mm: (min, max) die side, mm.
        die_px: (min, max) die side in pixels at the picture's centre (sets the camera's distance).
        tilt: (min, max) camera axis off the vertical, degrees.
        cameras: camera models to draw from (:data:`vision.scenes.camera.CAMERA_MODELS`).
        tables: table kinds to draw from (:data:`vision.scenes.tables.TABLE_KINDS`).
        boards: probability of each of up to two player boards on the table.
        clutter: probability of flat tiles and chips on the table.
        touching: probability that a die lands against another.
        groups: (min, max) groups the dice are thrown in.
        bevel: (min, max) edge rounding as a fraction of the side.
        ink_scale: (min, max) symbol size as a fraction of the face.
        light: the light's ranges.
        editions: dice printings to draw from (:data:`vision.scenes.artwork.EDITIONS`).
    """

    width: int = 1280
    height: int = 720
    n_dice: tuple[int, int] = (10, 30)
    die_mm: tuple[float, float] = (15.5, 17.0)
    die_px: tuple[float, float] = (34.0, 58.0)
    tilt: tuple[float, float] = (0.0, 28.0)
    cameras: tuple[str, ...] = ("pi-hq", "pi-wide", "webcam", "phone")
    tables: tuple[str, ...] = TABLE_KINDS
    boards: float = 0.35
    clutter: float = 0.3
    touching: float = 0.3
    groups: tuple[int, int] = (1, 4)
    bevel: tuple[float, float] = (0.08, 0.18)
    ink_scale: tuple[float, float] = (0.62, 0.84)
    light: LightRanges = field(default_factory=LightRanges)
    editions: tuple[str, ...] = ("light-ink", "dark-ink")


#: Enrollment photos: the owner's own dice on a plain table under one lamp, the camera nearly overhead.
ENROLL_SCENE = DiceSceneConfig(n_dice=(6, 6), tilt=(0.0, 8.0), tables=("felt", "wood"), boards=0.0, clutter=0.0,
                               touching=0.0, groups=(1, 1), light=LightRanges(kelvin=(3800.0, 5600.0),
                               wb_correction=(0.85, 1.0), wb_error=0.03, exposure=(0.9, 1.1), contrast=(0.0, 0.15),
                               elevation=(55.0, 85.0), falloff=(0.0, 0.1), sheen=(0.0, 0.0), glare_spots=0.0,
                               head_shadow=0.0), cameras=("pi-hq",))


def _pick(rng: np.random.Generator, faces_by_colour: Mapping[str, Sequence[str]]) -> tuple[str, str]:
    pool = [c for c in COLOURS if c in faces_by_colour] or list(faces_by_colour)
    w = np.array([COLOUR_COUNTS.get(c, 10) for c in pool], np.float64)
    colour = pool[int(rng.choice(len(pool), p=w / w.sum()))]
    faces = list(faces_by_colour[colour])
    return colour, faces[int(rng.integers(len(faces)))]


def _cube(cx: float, cy: float, angle: float, side: float, base: float = 0.0) -> dict[str, np.ndarray]:
    """Corners ``float[4, 3]`` of a die's top and four sides (table mm, z into the table), each ordered
    so the face's own picture is upright: top-left, top-right, bottom-right, bottom-left."""
    c, s = math.cos(angle), math.sin(angle)
    u, v = np.array([c, s, 0.0]) * side / 2, np.array([-s, c, 0.0]) * side / 2
    o = np.array([cx, cy, -base])
    up = np.array([0.0, 0.0, -side])
    b = [o - u - v, o + u - v, o + u + v, o - u + v]  # base corners, clockwise seen from above
    t = [p + up for p in b]
    faces = {"top": np.array([t[0], t[1], t[2], t[3]])}
    for k in range(4):  # side k between base corners k and k+1, seen from outside: its top edge first
        p, q = b[k], b[(k + 1) % 4]
        faces[f"side{k}"] = np.array([q + up, p + up, p, q])
    return faces


def _normal(quad: np.ndarray) -> np.ndarray:
    """Outward unit normal of a face whose corners run top-left, top-right, bottom-right, bottom-left as
    seen from outside (image-like axes: right x down points into the die)."""
    n = -np.cross(quad[1] - quad[0], quad[3] - quad[0])
    return n / (np.linalg.norm(n) + 1e-12)


def _face_tile(rng: np.random.Generator, quad: np.ndarray, body: np.ndarray, ink: np.ndarray,
               ink_mask: np.ndarray | None, light: Lighting, bevel: float, tile: int, glare: float,
               occlusion: float) -> tuple[np.ndarray, np.ndarray]:
    """One face of a die as (radiance ``float32[T, T, 3]`` before the lamp's colour, alpha ``[T, T]``): the
    body and the printed symbol, lit per pixel through the face's normal bent over the rounded edges."""
    n = _normal(quad)
    uu = (quad[1] - quad[0]) / np.linalg.norm(quad[1] - quad[0])
    vv = (quad[3] - quad[0]) / np.linalg.norm(quad[3] - quad[0])
    b = max(bevel * tile, 1.0)
    g = (np.arange(tile, dtype=np.float32) + 0.5)
    # how far each pixel is into the bevel towards each edge (0 = flat, 1 = at the edge)
    ox = np.clip((g - (tile - b)) / b, 0, 1) - np.clip((b - g) / b, 0, 1)
    oy = ox.copy()
    OX, OY = np.meshgrid(ox, oy)
    bend = np.sqrt(np.clip(1.0 - 0.5 * (OX ** 2 + OY ** 2), 0.0, 1.0))
    nx = OX[..., None] * uu + OY[..., None] * vv + bend[..., None] * n
    nx /= np.linalg.norm(nx, axis=2, keepdims=True)
    lit = light.ambient + (1.0 - light.ambient) * np.clip(nx @ light.direction, 0.0, None)
    alb = np.broadcast_to(body, (tile, tile, 3)).astype(np.float32).copy()
    alb *= (1.0 + 0.03 * value_noise(rng, tile, tile, tile / 3))[:, :, None]
    if ink_mask is not None:
        alb = alb * (1 - ink_mask[:, :, None]) + ink[None, None, :] * ink_mask[:, :, None]
    if occlusion > 0:  # a side face darkens towards the table
        alb *= (1.0 - occlusion * (g / tile) ** 2)[:, None, None]
    rad = alb * lit[:, :, None].astype(np.float32)
    if glare > 0:
        c = rng.uniform(0.25, 0.75, 2) * tile
        sg = rng.uniform(0.04, 0.10) * tile
        yy, xx = np.mgrid[0:tile, 0:tile].astype(np.float32)
        spot = np.exp(-((xx - c[0]) ** 2 + (yy - c[1]) ** 2 * rng.uniform(0.5, 2.0)) / (2 * sg * sg))
        rad += (glare * spot)[:, :, None]
    alpha = np.zeros((tile, tile), np.float32)
    r = max(int(round(b * 0.9)), 1)
    cv2.rectangle(alpha, (r, 0), (tile - 1 - r, tile - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, r), (tile - 1, tile - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (tile - 1 - r, r), (r, tile - 1 - r), (tile - 1 - r, tile - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 1.0, -1, cv2.LINE_AA)
    return rad.astype(np.float32), alpha


def _printed(rng: np.random.Generator, face: str, colour: str, tile: int, scale: float) -> np.ndarray:
    """Ink mask ``float32[T, T]`` of a symbol as printed on one die: its size, a small offset and turn,
    the stroke a little fatter or thinner, some wear."""
    inner = max(8, int(round(tile * scale)))
    m = symbol(face, colour, inner)
    out = np.zeros((tile, tile), np.float32)
    o = (tile - inner) // 2
    out[o:o + inner, o:o + inner] = m
    A = cv2.getRotationMatrix2D((tile / 2, tile / 2), float(rng.uniform(-4, 4)), 1.0)
    A[:, 2] += rng.uniform(-0.03, 0.03, 2) * tile
    out = cv2.warpAffine(out, A, (tile, tile), flags=cv2.INTER_LINEAR)
    thr = float(rng.uniform(0.35, 0.65))  # fatter or thinner strokes
    out = np.clip((cv2.GaussianBlur(out, (0, 0), 0.8) - thr) * 4.0 + 0.5, 0, 1)
    if rng.random() < 0.3:  # worn print
        wear = value_noise(rng, tile, tile, tile / 12) > rng.uniform(1.2, 2.0)
        out[wear] *= 0.3
    return out.astype(np.float32)


def _place(rng: np.random.Generator, n: int, side: float, inside, centres: list[np.ndarray], spread: float,
           touching: float) -> list[tuple[float, float, float]]:
    """Up to ``n`` die spots (x mm, y mm, angle rad) thrown around the group ``centres``; none overlapping."""
    spots: list[tuple[float, float, float]] = []
    tries = 0
    while len(spots) < n and tries < n * 300:
        tries += 1
        parent = None
        if spots and rng.random() < touching:
            parent = int(rng.integers(len(spots)))
            px, py, pa = spots[parent]
            k = int(rng.integers(4))
            a = pa + k * math.pi / 2
            d = side * rng.uniform(1.0, 1.05)
            sl = rng.uniform(-0.35, 0.35) * side
            x = px + d * math.cos(a) - sl * math.sin(a)
            y = py + d * math.sin(a) + sl * math.cos(a)
            ang = pa + rng.uniform(-0.05, 0.05)
        else:
            c = centres[int(rng.integers(len(centres)))]
            x, y = c + rng.normal(0, spread, 2)
            ang = rng.uniform(0, math.pi / 2)
        if not inside(x, y):
            continue
        ok = True
        for j, (qx, qy, _) in enumerate(spots):
            need = side * 1.0 if j == parent else side * 1.5
            if math.hypot(x - qx, y - qy) < need:
                ok = False
                break
        if ok:
            spots.append((float(x), float(y), float(ang)))
    return spots


def _clutter(rng: np.random.Generator, canvas: TableCanvas, spots_mm: np.ndarray, avoid: float) -> None:
    """Flat things players leave on a Roll table: square game tiles (about 40 mm, printed both sides) and
    round victory point chips, away from the die spots."""
    lo = canvas.origin
    hi = lo + np.array(canvas.albedo.shape[1::-1]) / canvas.ppm
    for _ in range(int(rng.integers(1, 5))):
        for _ in range(20):
            p = rng.uniform(lo, hi)
            if not len(spots_mm) or np.min(np.hypot(*(spots_mm - p).T)) > avoid:
                break
        else:
            continue
        art_ppm = 4.0
        if rng.random() < 0.6:
            side = rng.uniform(36, 42)
            n = int(side * art_ppm)
            art = np.empty((n, n, 3), np.float32)
            art[:] = rgb(*rng.uniform(0.05, 0.6, 3))
            art *= (1 + 0.3 * value_noise(rng, n, n, n / 4))[:, :, None]
            cv2.circle(art, (int(n * rng.uniform(0.3, 0.7)), int(n * rng.uniform(0.3, 0.7))), int(n * 0.22),
                       tuple(float(v) for v in rgb(*rng.uniform(0.1, 0.9, 3))), -1, cv2.LINE_AA)
            cv2.rectangle(art, (0, 0), (n - 1, n - 1), (0.05, 0.05, 0.05), max(1, int(1.5 * art_ppm)))
            paste_flat(canvas, np.clip(art, 0, 1), tuple(p), rng.uniform(0, 90), art_ppm, shadow=0.3)
        else:
            d = rng.uniform(18, 26)
            n = int(d * art_ppm)
            art = np.empty((n, n, 3), np.float32)
            art[:] = rgb(*rng.uniform(0.3, 0.8, 3))
            alpha = np.zeros((n, n), np.float32)
            cv2.circle(alpha, (n // 2, n // 2), n // 2 - 1, 1.0, -1, cv2.LINE_AA)
            put_text(art, str(int(rng.choice([1, 5, 10]))), (n // 4, int(n * 0.68)), n / 60.0, (0.05, 0.05, 0.05),
                     max(1, n // 20))
            paste_flat(canvas, art, tuple(p), rng.uniform(0, 360), art_ppm, alpha, shadow=0.3)


def _lay_boards(rng: np.random.Generator, canvas: TableCanvas, foot: np.ndarray, chance: float) -> list[np.ndarray]:
    """Lay up to two player boards on ``canvas``, each with probability ``chance``, near the corners of the
    camera's table footprint ``foot`` (``float[4, 2]`` mm). Returns each board's corners (``float[4, 2]`` mm)."""
    boards: list[np.ndarray] = []
    for _ in range(2):
        if rng.random() < chance:
            bw, bh = rng.uniform(200, 280), rng.uniform(100, 150)
            art = player_board(rng, bw, bh, 4.0)
            c = foot[int(rng.integers(4))] * rng.uniform(0.2, 0.6) + foot.mean(0) * 0.0
            corners = paste_flat(canvas, art, tuple(c), rng.uniform(-25, 25) + 90 * int(rng.integers(2)), 4.0,
                                 shadow=0.35)
            boards.append(corners)
    return boards


def board_outline(cam: Camera, corners: np.ndarray, per_edge: int = 8) -> list[list[float]]:
    """A board's outline in picture pixels: its corners (``float[4, 2]`` mm on the table top) with
    ``per_edge - 1`` points between each pair, projected through ``cam`` with its lens distortion (so a long
    edge bends as the picture bends it). Returns ``[[x, y], ...]`` (``4 * per_edge`` points, px, 0.1 px
    rounded), which may reach outside the picture where the board does. Draws nothing random."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    t = np.arange(per_edge, dtype=np.float64)[:, None] / per_edge
    ring = np.vstack([c[k] + (c[(k + 1) % 4] - c[k]) * t for k in range(4)])
    px = cam.project(np.column_stack([ring, np.zeros(len(ring))]))
    return [[round(float(x), 1), round(float(y), 1)] for x, y in px]


def render_dice_scene(seed: int, config: DiceSceneConfig = DiceSceneConfig(),
                      faces_by_colour: Mapping[str, Sequence[str]] | None = None,
                      dice: Sequence[tuple[str, str]] | None = None, table: str | None = None,
                      edition: str | None = None, camera: str | None = None) -> Scene:
    """One labelled dice scene, a pure function of its arguments.

    Args:
        seed: seeds every random choice.
        config: the scene's ranges.
        faces_by_colour: each colour's six faces (``shared/data/roll/dice.json`` through
            :func:`vision.profiles.load_dice_faces`); default every face on every colour.
        dice: these (colour, face) pairs instead of random ones.
        table, edition, camera: force a table kind, a dice printing, a camera model.

    Returns:
        :class:`vision.synth.Scene` whose ``dice`` are :class:`vision.synth.DieLabel` (top face quad, box
        and centre in picture pixels) and whose ``meta`` has ``table``, ``under`` (what each die lies on),
        ``boards`` (each printed player board's outline in picture pixels, :func:`board_outline`; ``[]``
        when none lies on the table; a playmat is the whole table, said by ``table``), ``edition``,
        ``camera``, ``kelvin``, ``tilt`` and ``die_px``. Only the dice the picture shows are labelled: a die
        whose top lies past the lens model's fold (:meth:`vision.scenes.camera.Camera.in_picture`) is not
        where its projection falls in the frame (the picture there shows what lies nearer the axis).

    Raises:
        ValueError: an unknown table, edition or camera, or forced dice that do not fit.
    """
    rng = np.random.default_rng(seed)
    fbc = {c: tuple(f) for c, f in (faces_by_colour or {c: FACES for c in COLOURS}).items()}
    ed_name = edition or config.editions[int(rng.integers(len(config.editions)))]
    if ed_name not in EDITIONS:
        raise ValueError(f"unknown dice edition {ed_name!r}; expected one of {sorted(EDITIONS)}")
    ed: Edition = EDITIONS[ed_name]
    model = camera_model(camera or config.cameras[int(rng.integers(len(config.cameras)))])
    kind = table or config.tables[int(rng.integers(len(config.tables)))]
    size = (int(config.width), int(config.height))
    side = float(rng.uniform(*config.die_mm))
    die_px = float(rng.uniform(*config.die_px))
    cam = draw_camera(rng, model, size, die_px / side, config.tilt)
    light = draw_lighting(rng, config.light)
    pad = cam.distortion_pad()
    view = cam.padded(pad)  # the undistorted picture the lens distortion is taken from
    origin, csize, ppm = table_canvas(view)
    canvas = TableCanvas(table_surface(rng, kind, int(csize[1]), int(csize[0]), ppm),
                         np.ones((int(csize[1]), int(csize[0])), np.float32), ppm, origin)
    foot = cam.table_footprint()
    boards = _lay_boards(rng, canvas, foot, config.boards)

    margin = 0.9 * die_px

    def inside(x: float, y: float) -> bool:
        p = cam.project(np.array([[x, y, -side]]))[0]
        return margin < p[0] < size[0] - margin and margin < p[1] < size[1] - margin

    n = len(dice) if dice is not None else int(rng.integers(config.n_dice[0], config.n_dice[1] + 1))
    n_groups = int(rng.integers(config.groups[0], config.groups[1] + 1))
    centres = [foot.mean(0) + (rng.uniform(0.15, 0.85, 2) - 0.5) * (foot.max(0) - foot.min(0)) * 0.8
               for _ in range(n_groups)]
    for b in boards:  # some dice thrown onto a board
        if rng.random() < 0.6:
            centres.append(b.mean(0))
    spread = float(np.ptp(foot, 0).min()) * rng.uniform(0.12, 0.3)
    spots = _place(rng, n, side, inside, centres, spread, config.touching)
    if dice is not None and len(spots) < len(dice):
        raise ValueError(f"could only place {len(spots)} of {len(dice)} dice")
    spots_mm = np.array([[x, y] for x, y, _ in spots]).reshape(-1, 2)
    if rng.random() < config.clutter:
        _clutter(rng, canvas, spots_mm, avoid=3.0 * side)

    # shadows of the dice on the table, then the table as the camera sees it
    reach = side / math.tan(math.radians(light.elevation))
    away = -np.array([math.cos(math.radians(light.azimuth)), math.sin(math.radians(light.azimuth))]) * reach
    polys, contact = [], []
    for x, y, a in spots:
        base = _cube(x, y, a, side)["top"][:, :2]
        polys.append(cv2.convexHull(canvas.to_px(np.vstack([base, base + away])).astype(np.float32)).reshape(-1, 2))
        contact.append(canvas.to_px(base + (base - [x, y]) * 0.08))
    cshape = canvas.light.shape
    shade = shadow_mask(cshape, polys, light.softness * ppm)
    occl = shadow_mask(cshape, contact, 1.2 * ppm)
    direct = (1.0 - light.ambient) * math.sin(math.radians(light.elevation))
    lamp_spot = 1.0 - rng.uniform(*config.light.falloff) * np.clip(value_noise(rng, *cshape, 300 * ppm) * 0.5 + 0.5,
                                                                   0, 1)
    canvas.light *= ((light.ambient + direct * (1.0 - shade)) * (1.0 - 0.35 * occl) * lamp_spot).astype(np.float32)
    img = see_table(canvas, view)

    # the dice, farthest from the camera first
    order = np.argsort([-np.linalg.norm(cam.centre - [x, y, -side / 2]) for x, y, _ in spots])
    eye = cam.centre
    labels: list[DieLabel | None] = [None] * len(spots)
    under: list[str] = [kind] * len(spots)
    tile = 96
    for i in order:
        x, y, a = spots[i]
        colour, face = dice[i] if dice is not None else _pick(rng, fbc)
        body = ed.body[colour] * np.exp(rng.normal(0, 0.04, 3)).astype(np.float32)
        ink = ed.ink[colour]
        bevel = float(rng.uniform(*config.bevel))
        faces = _cube(x, y, a, side)
        others = [f for f in fbc[colour] if f != face] or [face]
        gloss = float(rng.uniform(*ed.gloss)) if rng.random() < config.light.glare_spots else 0.0
        scale = float(rng.uniform(*config.ink_scale))
        turn = int(rng.integers(4))
        for name, quad in faces.items():
            if np.dot(_normal(quad), eye - quad.mean(0)) <= 0:
                continue  # facing away from the camera
            top = name == "top"
            mask = _printed(rng, face if top else others[int(rng.integers(len(others)))], colour, tile, scale)
            if top:
                mask = np.ascontiguousarray(np.rot90(mask, turn))
            rad, alpha = _face_tile(rng, quad, body, ink, mask, light, bevel, tile, gloss if top else 0.0,
                                    0.0 if top else 0.25)
            warp_face(img, rad, alpha, view.project(quad, distort=False))
        top = faces["top"]
        if not cam.in_picture(top).all():
            continue  # past the lens model's fold: projected into the frame, but not seen there
        q = cam.project(top)
        x0, y0 = q.min(0)
        x1, y1 = q.max(0)
        c = cam.project(top.mean(0, keepdims=True))[0]
        labels[i] = DieLabel(colour, face, (int(round(x0)), int(round(y0)), int(round(x1 - x0)), int(round(y1 - y0))),
                             (float(c[0]), float(c[1])), tuple((float(p[0]), float(p[1])) for p in q))
        for b in boards:
            if cv2.pointPolygonTest(b.astype(np.float32).reshape(-1, 1, 2), (x, y), False) >= 0:
                under[i] = "board"
    out, cam_meta = finish(rng, img, cam, model, light, sheen=float(rng.uniform(*config.light.sheen)),
                           head_shadow=bool(rng.random() < config.light.head_shadow), pad=pad)
    under = [u for u, lab in zip(under, labels, strict=True) if lab is not None]
    meta = {"table": kind, "under": under, "boards": [board_outline(cam, b) for b in boards], "edition": ed_name,
            "kelvin": round(light.kelvin),
            "tilt": round(math.degrees(math.acos(max(-1.0, min(1.0, float(cam.R[2, 2]))))), 1),
            "die_px": round(die_px, 1), "generator": "scenes", **cam_meta}
    return Scene(out, tuple(lab for lab in labels if lab is not None), int(seed), meta)


def write_dice_enrollment(out_dir: str | Path, faces_by_colour: Mapping[str, Sequence[str]], seed: int = 0,
                          edition: str = "light-ink", photos_per_pair: int = 1, dice_per_photo: int = 6,
                          config: DiceSceneConfig = ENROLL_SCENE) -> Path:
    """Write ``out_dir/<colour>-<face>/photo_<k>.png`` for every (colour, face) pair of ``faces_by_colour``:
    the owner's dice of ``edition``, every die of a photo showing that pair. Seeds are ``seed * 100000 +
    pair * 100 + k``: keep them apart from the seeds of an evaluation."""
    cfg = replace(config, n_dice=(dice_per_photo, dice_per_photo))
    return write_pair_photos(out_dir, faces_by_colour, seed, photos_per_pair,
                             lambda s_, pair: render_dice_scene(s_, cfg, dice=[pair] * dice_per_photo,
                                                                edition=edition).image)
