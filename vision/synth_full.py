"""Full tables: every component of a game on one table at once, seeded, rendered frame by frame.

:func:`full_table` lays out a whole game as a player sees it from the box (table mm, then the camera):

* ``"roll"``: Roll for the Galaxy, three players' rows of five tiles and 20 dice in the roll area;
* ``"race"``: Race for the Galaxy, four tableaux of ten cards (the far two facing the other side);
* ``"among"``: Among the Stars, four stations of ten locations around their Main Reactors;
* ``"eclipse"``: Eclipse, 24 sector hexes around the Galactic Center and eight combat dice beside the map.

:func:`dice_tray` lays out a dice tray alone: a few pip dice (white, ivory, red) seen close enough for the d6
reader, the table the box's d6 mode watches (``companion demo``), for frame sequences of rolls.

A :class:`FullTable` keeps its layout, its camera (homography table mm -> px, corner ArUco markers for
:func:`vision.table.calibrate`) and its light, and renders any set of :class:`Piece` on it with fresh
sensor noise per frame (``frame_seed``): two frames of the same pieces differ only by noise, as two camera
frames do. :func:`reroll` and :func:`add_card` give the pieces after one change (a die rolled again, a card
played), for reads of "what changed"; :mod:`vision.synth_motion` builds frame sequences (rolls, hands,
shadows) on the same tables.

Artwork is the stand-ins of :mod:`vision.synth_table` (cards, tiles, hexes) and :mod:`vision.synth` (Roll
dice faces). Combat dice are drawn as Eclipse's (Eclipse, Combat: yellow ion, orange plasma, red antimatter
dice): the 1 blank, 2-5 pips, the 6 (the face that always hits) the weapon's burst symbols, one per point of
damage (yellow 1, orange 2, red 4), so a reader has to learn them from an enrollment (``companion enroll
eclipse-dice``, :func:`write_combat_enrollment`) as the box does; a pip reader cannot read the 1 or the 6.

Sizes: a real combat die is about 16 mm; with the whole 24-hex map in view (about 1.3 m of table across the
frame) it would be about 1 % of the frame's width, a third of what any reader needs (README, "Camera height and
angle": a die must span at least 3 % of the view's width). The table is drawn as seen from the camera height
the README asks for where dice are read: a combat die spans about 3.5 % of the frame's width
(:data:`COMBAT_DIE_SHARE`), as a Roll die does (about 45 px at 1280x720). Everything random comes from
generators seeded by the caller.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from . import synth
from .mat import render_marker
from .synth_table import (
    ANCHOR,
    GAME_SHAPES,
    HEX_MM,
    hex_corners,
    hex_map_cells,
    paste_art,
    stand_in_card,
    stand_in_hex,
    station_places,
    table_texture,
    table_view,
    tableau_places,
    turn_matrix,
)
from .table import MarkerLayout, TableConfig

__all__ = ["COMBAT_DICE", "COMBAT_DIE_SHARE", "FULL_GAMES", "TRAY_DICE", "FullTable", "Piece", "add_card",
           "dice_tray", "full_table", "reroll", "write_combat_enrollment"]

#: Games :func:`full_table` lays out.
FULL_GAMES: tuple[str, ...] = ("roll", "race", "among", "eclipse")
#: Side of a Roll die (mm): a little larger than the real die, so it is ~45 px at 1280x720.
ROLL_DIE_MM = 23.0
#: A combat die's side as a share of the frame's width (see the module note: the README's camera height for
#: dice asks for at least 0.03).
COMBAT_DIE_SHARE = 0.035
#: Combat die colours (BGR body, BGR pips and bursts): ion cannons yellow, plasma orange, antimatter red.
COMBAT_DICE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "yellow": ((40, 205, 235), (30, 30, 30)),
    "orange": ((30, 130, 240), (30, 30, 30)),
    "red": ((45, 40, 200), (235, 235, 235)),
}
#: Burst symbols on a combat die's 6 (Eclipse, Combat: one per point of damage of a hit) and their centres
#: (fractions of the face side).
COMBAT_BURSTS: dict[str, tuple[tuple[float, float], ...]] = {
    "yellow": ((0.5, 0.5),),
    "orange": ((0.3, 0.3), (0.7, 0.7)),
    "red": ((0.29, 0.29), (0.71, 0.29), (0.29, 0.71), (0.71, 0.71)),
}
#: Pip dice of a dice tray (BGR body, BGR pips): the everyday d6 the d6 reader reads.
TRAY_DICE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((228, 230, 232), (25, 25, 25)),
    "ivory": ((196, 222, 236), (35, 35, 35)),
    "red": ((45, 40, 200), (235, 235, 235)),
}
#: Pip positions of a d6 face (fractions of the face side from its top-left).
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@dataclass(frozen=True)
class Piece:
    """One component on the table.

    Attributes:
        kind: ``"card"`` (cards and square tiles), ``"hex"`` (sector hex) or ``"die"``.
        id: the card or sector id; a die's ``"colour/face"`` (Roll) or ``"colour/value"`` (combat).
        centre_mm: centre on the table, mm (table frame of :class:`vision.table.MarkerLayout`).
        angle_deg: clockwise turn on the table, degrees (a card or hex's printed up from the table's up).
        size_mm: (width, height) of a card, (flat, flat) of a hex, (side, side) of a die, mm.
        player: index of the player whose tableau, station or roll it belongs to (None: shared).
        row, col: tableau row and column of a card (Race, Roll tiles), else None.
        cell: station cell (row, col offset from the player's Main Reactor) of an Among the Stars location.
        axial: axial (q, r) of a sector hex from the Galactic Center.
        rotation: 0-5, the hex's printed top edge at map edge ``rotation``.
        colour, face: a Roll die's colour and face; value: a combat die's pips (1-6).
    """

    kind: str
    id: str
    centre_mm: tuple[float, float]
    angle_deg: float
    size_mm: tuple[float, float]
    player: int | None = None
    row: int | None = None
    col: int | None = None
    cell: tuple[int, int] | None = None
    axial: tuple[int, int] | None = None
    rotation: int | None = None
    colour: str | None = None
    face: str | None = None
    value: int | None = None

    def corners_mm(self) -> np.ndarray:
        """float[K, 2] outline on the table, mm: a card's or die's 4 corners clockwise from its printed
        top-left, a hex's 6 corners clockwise from the top-left corner of its printed top edge."""
        R = turn_matrix(self.angle_deg)
        if self.kind == "hex":
            local = hex_corners(self.size_mm[0])
        else:
            w, h = self.size_mm
            local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        return local @ R.T + np.asarray(self.centre_mm)


Overlay = Callable[[np.ndarray], None]


class FullTable:
    """A laid-out game table with its camera and light; :meth:`render` draws frames of it.

    Attributes:
        game: one of :data:`FULL_GAMES`, or ``"d6"`` (:func:`dice_tray`).
        seed: the layout's seed.
        image_size: (width, height) of the frames, px.
        pieces: the components as laid out.
        layout: the corner ArUco markers (:func:`vision.table.calibrate` finds the camera from them).
        H: float[3, 3] table mm -> frame px.
        roll_area: (x0, y0, x1, y1) mm where dice may lie (None for games without dice).
    """

    def __init__(self, game: str, seed: int, image_size: tuple[int, int], pieces: Sequence[Piece],
                 layout: MarkerLayout, H: np.ndarray, roll_area: tuple[float, float, float, float] | None,
                 texture: np.ndarray, light_seed: int) -> None:
        self.game = game
        self.seed = seed
        self.image_size = (int(image_size[0]), int(image_size[1]))
        self.pieces = tuple(pieces)
        self.layout = layout
        self.H = np.asarray(H, np.float64)
        self.roll_area = roll_area
        self._texture = texture
        self._light_seed = light_seed
        self._gain: np.ndarray | None = None
        self._blur = 0.0
        self._noise = 0.0
        self._layers: dict[tuple[Piece, ...], np.ndarray] = {}

    # -- geometry ----------------------------------------------------------------------------------

    def to_px(self, pts_mm: np.ndarray) -> np.ndarray:
        """float[N, 2] table mm -> float[N, 2] frame px."""
        return cv2.perspectiveTransform(np.asarray(pts_mm, np.float64).reshape(-1, 1, 2), self.H).reshape(-1, 2)

    def polygon_px(self, piece: Piece) -> np.ndarray:
        """float[K, 2] outline of ``piece`` in frame px (a die: its top face)."""
        return self.to_px(piece.corners_mm())

    def box_px(self, piece: Piece) -> tuple[int, int, int, int]:
        """``(x, y, w, h)`` frame px around ``piece``."""
        p = self.polygon_px(piece)
        x0, y0 = np.floor(p.min(axis=0)).astype(int)
        x1, y1 = np.ceil(p.max(axis=0)).astype(int)
        return int(x0), int(y0), int(x1 - x0), int(y1 - y0)

    # -- drawing -----------------------------------------------------------------------------------

    def layer(self, pieces: Sequence[Piece]) -> np.ndarray:
        """uint8[H, W, 3] BGR: the table with ``pieces`` drawn in order, before light and noise (cached)."""
        key = tuple(pieces)
        img = self._layers.get(key)
        if img is None:
            img = self._texture.copy()
            for p in key:
                _draw_piece(img, p, self.H)
            if len(self._layers) >= 4:
                self._layers.pop(next(iter(self._layers)))
            self._layers[key] = img
        return img

    def render(self, pieces: Sequence[Piece] | None = None, frame_seed: int = 0, moving: Sequence[Piece] = (),
               overlays: Sequence[Overlay] = ()) -> np.ndarray:
        """One camera frame, ``uint8[H, W, 3]`` BGR.

        Args:
            pieces: what lies on the table (default: :attr:`pieces`); drawn once and cached.
            frame_seed: seeds this frame's sensor noise (the light is the table's own).
            moving: pieces drawn over ``pieces`` for this frame only (a die in the air, not cached).
            overlays: functions changing the lit float32 BGR frame in place before the noise (a hand,
                a passing shadow: :mod:`vision.synth_motion`).
        """
        img = self.layer(self.pieces if pieces is None else pieces)
        if moving:
            img = img.copy()
            for p in moving:
                _draw_piece(img, p, self.H)
        f = img.astype(np.float32) * self._light()
        for overlay in overlays:
            overlay(f)
        rng = np.random.default_rng([self.seed, int(frame_seed), 7])
        f += rng.standard_normal(f.shape, np.float32) * self._noise
        out = np.clip(f, 0, 255).astype(np.uint8)
        return cv2.GaussianBlur(out, (0, 0), self._blur) if self._blur > 0.05 else out

    def _light(self) -> np.ndarray:
        """float32[H, W, 3] gain of the table's light: a gradient, a colour cast and a soft static shadow."""
        if self._gain is None:
            rng = np.random.default_rng([self.seed, self._light_seed])
            w, h = self.image_size
            gx, gy = rng.uniform(-0.25, 0.25, 2)
            x = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
            y = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
            grad = (1.0 + gx * x + gy * y) * rng.uniform(0.85, 1.08)
            shade = np.zeros((h, w), np.float32)
            cv2.ellipse(shade, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                        (int(rng.uniform(0.1, 0.25) * w), int(rng.uniform(0.1, 0.25) * h)),
                        float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            shade = cv2.GaussianBlur(shade, (0, 0), 0.02 * w)
            gain = (grad * (1.0 - rng.uniform(0.1, 0.3) * shade))[:, :, None] * rng.uniform(0.93, 1.07, 3)
            self._gain = gain.astype(np.float32)
            self._blur = float(rng.uniform(0.3, 0.8))
            self._noise = float(rng.uniform(2.0, 4.0))
        return self._gain


def _draw_piece(img: np.ndarray, p: Piece, H: np.ndarray) -> None:
    """Draw ``p`` (its shadow, then the card, hex or die) on ``img`` (uint8 BGR, in place)."""
    corners = p.corners_mm()
    if p.kind == "die":
        _soft_shadow(img, _to_px(H, corners + np.array([0.2, 0.25]) * p.size_mm[0]), 0.35, 0.06)
        _draw_die(img, p, H)
        return
    _soft_shadow(img, _to_px(H, corners + np.array([1.2, 1.5])), 0.25, 0.01)
    if p.kind == "hex":
        art, alpha = stand_in_hex(p.id, p.size_mm[0], 3.0)
    else:
        art, alpha = _card_art(p.id, p.size_mm), None
    ah, aw = art.shape[:2]
    R = turn_matrix(p.angle_deg) * (p.size_mm[0] / aw if p.kind != "hex" else 1.0 / 3.0)
    t = np.asarray(p.centre_mm) - R @ np.array([aw / 2, ah / 2])
    A = np.array([[R[0, 0], R[0, 1], t[0]], [R[1, 0], R[1, 1], t[1]], [0, 0, 1]])
    paste_art(img, art, H @ A, alpha)


@lru_cache(maxsize=256)
def _card_art(card_id: str, size_mm: tuple[float, float]) -> np.ndarray:
    return stand_in_card(card_id, size_mm, 3.0)


def _to_px(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), H).reshape(-1, 2)


def _soft_shadow(img: np.ndarray, poly_px: np.ndarray, darkness: float, softness_frac: float) -> None:
    """Darken ``img`` by ``darkness`` under the pixel polygon, blurred by ``softness_frac`` of the frame
    width (in its bounding box only)."""
    h, w = img.shape[:2]
    sigma = max(1.0, softness_frac * w / 20.0)
    pad = int(3 * sigma) + 2
    x0, y0 = np.floor(poly_px.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(poly_px.max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(m, [np.round((poly_px - [x0, y0]) * 4).astype(np.int32)], 1.0, cv2.LINE_AA, shift=2)
    m = cv2.GaussianBlur(m, (0, 0), sigma)
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi.astype(np.float32) * (1.0 - darkness * m)[:, :, None]).astype(np.uint8)


def _draw_die(img: np.ndarray, p: Piece, H: np.ndarray) -> None:
    """A die's visible side band (seen a little from the side towards the frame's centre) and its top face."""
    h, w = img.shape[:2]
    base = _to_px(H, p.corners_mm())
    centre = base.mean(axis=0)
    lean = (centre - np.array([w / 2, h / 2])) / max(w, h) * 0.25 * np.linalg.norm(base[1] - base[0])
    top = base + lean                            # the top face, seen above the base
    body = _die_body(p)
    hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
    cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)], tuple(float(v) * 0.62 for v in body), cv2.LINE_AA,
                 shift=4)
    sprite, alpha = _die_sprite(p.colour, p.face, p.value)
    s = sprite.shape[0]
    src = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float32)
    M = cv2.getPerspectiveTransform(src, top.astype(np.float32))
    paste_art(img, sprite, M, alpha)


def _die_body(p: Piece) -> tuple[float, float, float]:
    return _body(p.colour, p.value)


def _pip_die(colour: str) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(BGR body, BGR pips) of a pip die: a combat die's or a tray die's."""
    return COMBAT_DICE.get(colour) or TRAY_DICE[colour]


def _body(colour: str, value: int | None) -> tuple[float, float, float]:
    if value is not None:
        return tuple(float(v) for v in _pip_die(colour)[0])
    return tuple(float(v) for v in synth.DIE_BGR[colour])


@lru_cache(maxsize=128)
def _die_sprite(colour: str, face: str | None, value: int | None) -> tuple[np.ndarray, np.ndarray]:
    """(uint8 BGR [S, S, 3], alpha uint8 [S, S]) of a die's top face: a Roll face or a pip face (the same
    in every process: seeded by the face's name)."""
    rng = np.random.default_rng(zlib.crc32(f"{colour}/{face}/{value}".encode()))
    body = np.array(_body(colour, value), np.float32)
    if value is None:
        sprite, alpha = synth.die_top_sprite(rng, colour, face, "A", body)
        return np.clip(sprite, 0, 255).astype(np.uint8), (alpha * 255).astype(np.uint8)
    s = synth.SPRITE
    sprite = np.empty((s, s, 3), np.uint8)
    sprite[:] = body.astype(np.uint8)
    ink = _pip_die(colour)[1]
    if face is None or 2 <= value <= 5:      # a pip die, or a combat die's 2-5
        for fx, fy in PIPS[value]:
            cv2.circle(sprite, (int(fx * s), int(fy * s)), int(0.09 * s), ink, -1, cv2.LINE_AA)
    elif value == 6:                         # a combat die's 6: its bursts; its 1 is blank
        bursts = COMBAT_BURSTS[colour]
        for fx, fy in bursts:
            _burst(sprite, (fx * s, fy * s), (0.36 if len(bursts) == 1 else 0.2) * s, ink)
    alpha = np.zeros((s, s), np.uint8)
    cv2.rectangle(alpha, (0, 0), (s - 1, s - 1), 255, -1)
    return sprite, alpha


def _burst(img: np.ndarray, centre: tuple[float, float], radius: float, colour: tuple[int, int, int]) -> None:
    """Draw an eight-pointed burst (a hit symbol) of outer ``radius`` px around ``centre`` (px) on ``img`` in place."""
    a = np.arange(16) * (math.pi / 8)
    r = np.where(np.arange(16) % 2 == 0, radius, 0.45 * radius)
    pts = np.stack([centre[0] + r * np.sin(a), centre[1] - r * np.cos(a)], axis=1)
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


# ----------------------------------------------------------------------------------------------- layouts


def _tiles_row(player: int, y: float, n: int, rng: np.random.Generator, size: tuple[float, float],
               ids: list[str]) -> list[Piece]:
    gap = rng.uniform(4, 10)
    return [Piece("card", ids[k], (k * (size[0] + gap) + rng.uniform(-1.5, 1.5), y + rng.uniform(-1.5, 1.5)),
                  float(rng.uniform(-3, 3)), size, player, 0, k) for k in range(n)]


def _dice_grid(n: int, area: tuple[float, float, float, float], side: float, rng: np.random.Generator,
               make: Callable[[np.random.Generator], dict]) -> list[Piece]:
    """``n`` dice on a jittered grid filling ``area`` (x0, y0, x1, y1 mm), random turns."""
    x0, y0, x1, y1 = area
    cols = max(1, int((x1 - x0) // (1.5 * side)))
    rows = max(1, math.ceil(n / cols))
    px, py = (x1 - x0) / cols, (y1 - y0) / rows
    cells = rng.permutation(rows * cols)[:n]
    out = []
    for c in sorted(cells):
        r, k = divmod(int(c), cols)
        jx, jy = rng.uniform(-0.12, 0.12, 2) * side
        out.append(Piece("die", "", (x0 + (k + 0.5) * px + jx, y0 + (r + 0.5) * py + jy), float(rng.uniform(0, 90)),
                         (side, side), **make(rng)))
    return [replace(p, id=f"{p.colour}/{p.face if p.value is None else p.value}") for p in out]


def _roll_die(faces_by_colour: Mapping[str, Sequence[str]]) -> Callable[[np.random.Generator], dict]:
    pool = [c for c in synth.COLOURS if c in faces_by_colour]
    w = np.array([synth.COLOUR_WEIGHTS[c] for c in pool], np.float64)

    def make(rng: np.random.Generator) -> dict:
        colour = pool[int(rng.choice(len(pool), p=w / w.sum()))]
        faces = list(faces_by_colour[colour])
        return {"colour": colour, "face": faces[int(rng.integers(len(faces)))]}
    return make


def _combat_die(rng: np.random.Generator) -> dict:
    value = int(rng.integers(1, 7))
    return {"colour": str(rng.choice(list(COMBAT_DICE), p=[0.5, 0.3, 0.2])), "value": value, "face": str(value)}


def _layout(game: str, card_ids: Sequence[str], rng: np.random.Generator, faces_by_colour: Mapping[str, Sequence[str]],
            die_mm: float = 36.0) -> tuple[list[Piece], tuple[float, float, float, float] | None]:
    """Pieces in layout mm (origin arbitrary) and the dice area; ``die_mm``: a combat die's side (Eclipse)."""
    ids = list(card_ids)
    if game == "roll":
        size = GAME_SHAPES["roll"]
        pieces = []
        for player in range(3):
            pieces += _tiles_row(player, player * (size[1] + rng.uniform(14, 22)), 5, rng, size,
                                 [str(v) for v in rng.choice(ids, 5, replace=len(ids) < 5)])
        x_end = max(p.centre_mm[0] for p in pieces) + size[0] / 2 + 25.0
        y_end = max(p.centre_mm[1] for p in pieces) + size[1] / 2
        area = (x_end, -size[1] / 2, x_end + 6.5 * ROLL_DIE_MM, y_end)
        return pieces + _dice_grid(20, area, ROLL_DIE_MM, rng, _roll_die(faces_by_colour)), area
    if game in ("race", "among"):
        size = GAME_SHAPES[game]
        groups = []
        for _ in range(4):
            if game == "race":
                places = tableau_places(10, rng, size)
                names = [str(v) for v in rng.choice(ids, 10, replace=len(ids) < 10)]
            else:
                places = station_places(10, rng, size)
                names = [ANCHOR] + [str(rng.choice([c for c in ids if c != ANCHOR])) for _ in range(9)]
            groups.append([(cx, cy, ang, r, c, cell, name)
                           for (cx, cy, ang, r, c, cell), name in zip(places, names, strict=True)])
        return _seat_groups(groups, size, 2 if game == "race" else 4), None
    if game == "eclipse":
        cells = hex_map_cells(24, rng)
        pool = [h for h in ids if h != "001"]
        names = ["001"]
        for q, r in cells[1:]:
            ring = (abs(q) + abs(r) + abs(q + r)) // 2
            left = [h for h in pool if h not in names] or pool
            names.append(str(rng.choice([h for h in left if h[:1] == str(ring)] or left)))
        pitch = HEX_MM + rng.uniform(0.0, 1.5)
        rp = pitch / math.sqrt(3.0)
        pieces = []
        for (q, r), name in zip(cells, names, strict=True):
            rot = int(rng.integers(0, 6))
            centre = (1.5 * rp * q + rng.uniform(-0.5, 0.5), pitch * (r + q / 2.0) + rng.uniform(-0.5, 0.5))
            pieces.append(Piece("hex", name, centre, 60.0 * rot + float(rng.uniform(-0.7, 0.7)), (HEX_MM, HEX_MM),
                                axial=(q, r), rotation=rot))
        xs = [p.centre_mm[0] for p in pieces]
        ys = [p.centre_mm[1] for p in pieces]
        x_end = max(xs) + HEX_MM / math.sqrt(3.0) + 30.0
        area = (x_end, min(ys), x_end + 3.2 * die_mm, max(ys))
        return pieces + _dice_grid(8, area, die_mm, rng, _combat_die), area
    raise ValueError(f"unknown game {game!r}; expected one of {FULL_GAMES}")


def _seat_groups(groups: list[list[tuple]], size: tuple[float, float], columns: int) -> list[Piece]:
    """Players' tableaux or stations side by side, ``columns`` to a row; the odd players' turned to face the
    far side of the table."""
    pieces = []
    half = np.array(size) / 2
    boxes = []
    for g in groups:
        P = np.array([[x, y] for x, y, *_ in g])
        boxes.append((P.min(axis=0) - half, P.max(axis=0) + half))
    cw = max(b[1][0] - b[0][0] for b in boxes) + size[0] + 30.0   # room for a card more
    ch = max(b[1][1] - b[0][1] for b in boxes) + 30.0
    for player, (g, (lo, hi)) in enumerate(zip(groups, boxes, strict=True)):
        turn = 180.0 if player % 2 else 0.0
        R = turn_matrix(turn)
        centre = (lo + hi) / 2
        slot = np.array([(player % columns) * cw, (player // columns) * ch])
        for x, y, ang, r, c, cell, name in g:
            p = R @ (np.array([x, y]) - centre) + slot
            pieces.append(Piece("card", name, (float(p[0]), float(p[1])), turn + ang, size, player, r, c,
                                None if cell is None else tuple(cell)))
    return pieces


def full_table(game: str, card_ids: Sequence[str], seed: int, image_size: tuple[int, int] = (1280, 720),
               faces_by_colour: Mapping[str, Sequence[str]] | None = None,
               config: TableConfig | None = None) -> FullTable:
    """Lay out a whole ``game`` (see the module note) and place the camera and the light.

    Args:
        game: one of :data:`FULL_GAMES`.
        card_ids: the ids cards (or sector hexes, for ``"eclipse"``) are drawn from; Among the Stars takes
            ``"main_reactor"`` as each station's anchor.
        seed: seeds the layout, the camera and the light.
        image_size: (width, height) of the frames, px.
        faces_by_colour: Roll dice faces per colour (default every face).
        config: the table's marker settings.

    Raises:
        ValueError: an unknown game.
    """
    tc = config or TableConfig()
    die_mm = 36.0
    for _ in range(3 if game == "eclipse" else 1):   # the combat dice's side follows the view, the view the dice
        rng = np.random.default_rng(seed)
        pieces, area = _layout(game, card_ids, rng, faces_by_colour or synth.ALL_FACES_BY_COLOUR, die_mm)
        pts = np.vstack([p.corners_mm() for p in pieces])
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        hi = hi + np.array([GAME_SHAPES["race"][0] * 0.5, 0.0])     # room at the ends of the rows
        W_mm, H_mm, off, layout, H, px_per_mm = table_view(lo, hi, image_size, True, rng, tc)
        die_mm = COMBAT_DIE_SHARE * image_size[0] / px_per_mm
    pieces = [replace(p, centre_mm=(p.centre_mm[0] + off[0], p.centre_mm[1] + off[1])) for p in pieces]
    if area is not None:
        area = (area[0] + off[0], area[1] + off[1], area[2] + off[0], area[3] + off[1])
    img = _table_image(W_mm, H_mm, layout, H, image_size, rng, tc)
    return FullTable(game, seed, image_size, pieces, layout, H, area, img, int(rng.integers(1 << 30)))


def _table_image(W_mm: float, H_mm: float, layout: MarkerLayout, H: np.ndarray, image_size: tuple[int, int],
                 rng: np.random.Generator, tc: TableConfig, markers: bool = True) -> np.ndarray:
    """uint8[H, W, 3] BGR: the bare table (cloth or wood) as the camera sees it, with the corner markers pasted
    (``markers``)."""
    iw, ih = image_size
    k = 2.0
    tex = table_texture(str(rng.choice(["cloth", "wood"])), int(W_mm * k), int(H_mm * k), rng)
    img = cv2.warpPerspective(tex, H @ np.diag([1 / k, 1 / k, 1.0]), (iw, ih), borderMode=cv2.BORDER_REFLECT)
    for mid, q in layout.corners_mm.items() if markers else ():
        mk = cv2.cvtColor(render_marker(mid, 120, tc), cv2.COLOR_GRAY2BGR)
        pad = 16
        mk = cv2.copyMakeBorder(mk, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        sc = float(np.linalg.norm(q[1] - q[0])) / 120
        paste_art(img, mk, H @ np.array([[sc, 0, q[0][0] - pad * sc], [0, sc, q[0][1] - pad * sc], [0, 0, 1]]))
    return img


def dice_tray(seed: int, dice: int = 6, image_size: tuple[int, int] = (1280, 720), side_mm: float = 18.0,
              config: TableConfig | None = None) -> FullTable:
    """A dice tray alone (``game`` ``"d6"``): ``dice`` pip dice (:data:`TRAY_DICE` colours, values 1-6, random turns)
    at least two sides apart in a 200 x 110 mm area, the camera close enough that a die is 40-65 px across at
    1280x720, on cloth or wood (no calibration sheet: the d6 mode reads in pixels; :attr:`FullTable.layout` still
    says where its markers would be).

    Raises:
        ValueError: ``dice`` is not 1-12.
    """
    if not 1 <= dice <= 12:
        raise ValueError(f"a tray holds 1-12 dice, got {dice}")
    colours = list(TRAY_DICE)

    def tray_die(rng: np.random.Generator) -> dict:
        colour, value = colours[int(rng.integers(len(colours)))], int(rng.integers(1, 7))
        return {"colour": colour, "value": value}
    return _tray(seed, dice, image_size, side_mm, config, tray_die)


def _tray(seed: int, dice: int, image_size: tuple[int, int], side_mm: float, config: TableConfig | None,
          make: Callable[[np.random.Generator], dict]) -> FullTable:
    """A tray of ``dice`` dice (``make(rng)``: a die's colour and value or face) as :func:`dice_tray` lays it."""
    rng = np.random.default_rng(seed)
    tc = config or TableConfig()
    area = (0.0, 0.0, 200.0, 110.0)
    centres: list[np.ndarray] = []
    while len(centres) < dice:
        c = rng.uniform([area[0] + side_mm, area[1] + side_mm], [area[2] - side_mm, area[3] - side_mm])
        if all(np.linalg.norm(c - o) >= 2.0 * side_mm for o in centres):
            centres.append(c)
    pieces = []
    for c in centres:
        kind = make(rng)
        name = f"{kind['colour']}/{kind['value'] if kind.get('value') is not None else kind['face']}"
        pieces.append(Piece("die", name, (float(c[0]), float(c[1])), float(rng.uniform(0, 90)),
                            (side_mm, side_mm), **kind))
    W_mm, H_mm, off, layout, H, _ = table_view(np.array(area[:2]), np.array(area[2:]), image_size, True, rng, tc)
    pieces = [replace(p, centre_mm=(p.centre_mm[0] + off[0], p.centre_mm[1] + off[1])) for p in pieces]
    tray = (area[0] + off[0], area[1] + off[1], area[2] + off[0], area[3] + off[1])
    img = _table_image(W_mm, H_mm, layout, H, image_size, rng, tc, markers=False)
    return FullTable("d6", seed, image_size, pieces, layout, H, tray, img, int(rng.integers(1 << 30)))


def write_combat_enrollment(out_dir, seed: int = 0, photos_per_pair: int = 1, dice_per_photo: int = 4,
                            image_size: tuple[int, int] = (1280, 720)) -> Path:
    """Photos of Eclipse's combat dice for ``companion enroll eclipse-dice``: ``out_dir/<colour>-<face>/photo_<k>.png``
    for every colour of :data:`COMBAT_DICE` and face 1-6, each a tray (:func:`dice_tray`'s table, camera and light)
    of ``dice_per_photo`` dice all showing that colour and face, seeded by ``seed``, the pair and ``k``.

    Returns ``out_dir`` as a Path.

    Raises:
        ValueError: ``dice_per_photo`` is not 1-12.
    """
    out = Path(out_dir)
    for pair, (colour, value) in enumerate((c, v) for c in COMBAT_DICE for v in range(1, 7)):
        folder = out / f"{colour}-{value}"
        folder.mkdir(parents=True, exist_ok=True)
        for k in range(photos_per_pair):
            tray = _tray(seed * 100000 + pair * 100 + k, dice_per_photo, image_size, 18.0, None,
                         lambda rng, c=colour, v=value: {"colour": c, "value": v, "face": str(v)})
            cv2.imwrite(str(folder / f"photo_{k}.png"), tray.render(frame_seed=k))
    return out


# ----------------------------------------------------------------------------------------------- changes


def _grown(p: Piece, by_mm: float) -> np.ndarray:
    c = np.asarray(p.centre_mm)
    q = p.corners_mm()
    d = q - c
    return (c + d * (1.0 + by_mm / np.linalg.norm(d, axis=1, keepdims=True))).astype(np.float32)


def _clear(p: Piece, others: Sequence[Piece], table: FullTable, gap_mm: float = 4.0) -> bool:
    """Whether ``p`` lies inside the frame, away from the markers, and ``gap_mm`` apart from every other piece."""
    poly = table.polygon_px(p)
    w, h = table.image_size
    if poly.min() < 2 or poly[:, 0].max() > w - 2 or poly[:, 1].max() > h - 2:
        return False
    mine = _grown(p, gap_mm)
    for q in table.layout.corners_mm.values():
        area, _ = cv2.intersectConvexConvex(mine, _square_around(q, 20.0))
        if area > 0:
            return False
    for o in others:
        area, _ = cv2.intersectConvexConvex(mine, o.corners_mm().astype(np.float32))
        if area > 0:
            return False
    return True


def _square_around(q: np.ndarray, pad: float) -> np.ndarray:
    lo, hi = q.min(axis=0) - pad, q.max(axis=0) + pad
    return np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]], np.float32)


def reroll(table: FullTable, pieces: Sequence[Piece], seed: int,
           faces_by_colour: Mapping[str, Sequence[str]] | None = None) -> tuple[list[Piece], Piece, Piece]:
    """One die rolled again: it lands within about two sides of where it was, on a new face and turn.

    Returns (the pieces after the roll, the die before, the die after).

    Raises:
        ValueError: there is no die on the table or no free place near any die.
    """
    rng = np.random.default_rng(seed)
    dice = [k for k, p in enumerate(pieces) if p.kind == "die"]
    if not dice:
        raise ValueError("no die on the table to roll")
    for k in rng.permutation(dice):
        old = pieces[int(k)]
        others = [p for j, p in enumerate(pieces) if j != int(k)]
        for _ in range(60):
            d = rng.uniform(0.6, 2.2) * old.size_mm[0]
            a = rng.uniform(0, 2 * math.pi)
            centre = (old.centre_mm[0] + d * math.cos(a), old.centre_mm[1] + d * math.sin(a))
            if old.value is not None:
                v = int(rng.integers(1, 7))
                face = {"value": v} if old.face is None else {"value": v, "face": str(v)}   # a combat die: both
            else:
                faces = list((faces_by_colour or synth.ALL_FACES_BY_COLOUR)[old.colour])
                face = {"face": faces[int(rng.integers(len(faces)))]}
            new = replace(old, centre_mm=centre, angle_deg=float(rng.uniform(0, 90)), **face)
            new = replace(new, id=f"{new.colour}/{new.face if new.value is None else new.value}")
            if _clear(new, others, table):
                out = list(pieces)
                out[int(k)] = new
                return out, old, new
    raise ValueError("no free place to roll a die to")


def add_card(table: FullTable, pieces: Sequence[Piece], card_ids: Sequence[str],
             seed: int) -> tuple[list[Piece], Piece]:
    """One card played: at the end of a player's tableau row (Race, Roll tiles) or next to a station's
    location (Among the Stars), in that player's orientation.

    Returns (the pieces with the card, the card).

    Raises:
        ValueError: no player has room for another card.
    """
    rng = np.random.default_rng(seed)
    cards = [p for p in pieces if p.kind == "card"]
    players = sorted({p.player for p in cards if p.player is not None})
    for player in rng.permutation(players):
        mine = [p for p in cards if p.player == player]
        R = turn_matrix(mine[0].angle_deg if table.game == "among" else round(mine[0].angle_deg / 180.0) * 180.0)
        w, h = mine[0].size_mm
        if table.game == "among":
            anchor = next((p for p in mine if p.cell == (0, 0)), mine[0])
            spots = [(c[0] + di, c[1] + dj) for p in mine if p.cell for c in [p.cell]
                     for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            taken = {p.cell for p in mine}
            cand = [(s, anchor, np.array([s[1] * (w + 0.8), s[0] * (h + 0.8)])) for s in dict.fromkeys(spots)
                    if s not in taken]
        else:
            rows = sorted({p.row for p in mine})
            cand = []
            for r in rows:
                last = max((p for p in mine if p.row == r), key=lambda p: p.col)
                first = min((p for p in mine if p.row == r), key=lambda p: p.col)
                pitch = (w + 6.0) if last is first else (
                    np.linalg.norm(np.subtract(last.centre_mm, first.centre_mm)) / max(1, last.col - first.col))
                cand.append(((r, last.col + 1), last, np.array([pitch, 0.0])))
                cand.append(((r, first.col - 1), first, np.array([-pitch, 0.0])))
        among = table.game == "among"
        for slot, ref, step in [cand[int(i)] for i in rng.permutation(len(cand))]:
            centre = np.asarray(ref.centre_mm) + R @ step
            new = Piece("card", str(rng.choice([c for c in card_ids if c != ANCHOR])),
                        (float(centre[0]), float(centre[1])), ref.angle_deg, (w, h), int(player),
                        None if among else slot[0], None if among else slot[1], tuple(slot) if among else None)
            if _clear(new, pieces, table, gap_mm=0.5):
                return [*pieces, new], new
    raise ValueError("no room for another card")
