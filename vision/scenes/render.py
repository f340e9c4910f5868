"""Shared drawing steps of the second scene generator: a camera drawn from a camera model, a table drawn
in table millimetres and seen through the camera, flat things laid on it, and the camera's development of
the linear picture (lens distortion, lamp colour, noise, white balance, tone curve, JPEG).

The steps are separate functions so the dice, card and hex scenes share them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .camera import (
    CAMERA_MODELS,
    Camera,
    CameraModel,
    add_motion_blur,
    add_sensor_noise,
    jpeg_round_trip,
    look_at,
    vignette,
)
from .light import Lighting, develop, soft_spot

__all__ = ["TableCanvas", "draw_camera", "finish", "paste_flat", "table_canvas", "warp_face"]


def draw_camera(rng: np.random.Generator, model: CameraModel, size: tuple[int, int], px_per_mm: float,
                tilt: tuple[float, float], target: tuple[float, float] = (0.0, 0.0)) -> Camera:
    """A camera of ``model`` over table point ``target`` (mm) seeing ``px_per_mm`` image pixels per table mm
    there, its axis ``tilt`` (min, max) degrees off the vertical, standing off in any direction."""
    hfov = float(rng.uniform(*model.hfov))
    f = (size[0] / 2.0) / math.tan(math.radians(hfov) / 2.0)
    t = float(rng.uniform(*tilt))
    distance = f / px_per_mm * math.cos(math.radians(t))
    return look_at(np.array([target[0], target[1], 0.0]), distance, t, float(rng.uniform(0, 360)),
                   float(rng.uniform(-6, 6)), hfov, size, float(rng.uniform(*model.k1)), float(rng.uniform(*model.k2)))


@dataclass
class TableCanvas:
    """The table under the camera as a picture in table mm: ``albedo`` and ``light`` (``float32[h, w, 3]`` and
    ``[h, w]``) at ``ppm`` px per mm, pixel (0, 0) at table point ``origin`` (mm)."""

    albedo: np.ndarray
    light: np.ndarray
    ppm: float
    origin: np.ndarray

    def to_px(self, pts_mm: np.ndarray) -> np.ndarray:
        """Table mm ``float[N, 2]`` -> canvas pixels."""
        return (np.asarray(pts_mm, np.float64) - self.origin) * self.ppm

    def to_mm_matrix(self) -> np.ndarray:
        """``float[3, 3]``: canvas pixels -> table mm."""
        return np.array([[1 / self.ppm, 0, self.origin[0]], [0, 1 / self.ppm, self.origin[1]], [0, 0, 1.0]])


def table_canvas(cam: Camera, max_side: int = 2600, margin: float = 0.05) -> tuple[np.ndarray, np.ndarray, float]:
    """(origin mm ``float[2]``, size (w, h) px, ppm): the canvas that covers what ``cam`` (an undistorted
    camera, :meth:`Camera.padded`) sees of the table, with a ``margin``, as fine as the nearest part of the
    picture (capped at ``max_side`` pixels)."""
    foot = cam.table_footprint()
    lo, hi = foot.min(0), foot.max(0)
    pad = (hi - lo) * margin
    lo, hi = lo - pad, hi + pad
    need = max(cam.px_per_mm(np.array([p[0], p[1], 0.0])) for p in foot) * 1.1
    ppm = float(min(need, max_side / max(hi - lo)))
    size = np.ceil((hi - lo) * ppm).astype(int) + 1
    return lo, size, ppm


def paste_flat(canvas: TableCanvas, art: np.ndarray, centre_mm: tuple[float, float], angle_deg: float,
               art_ppm: float, alpha: np.ndarray | None = None, shadow: float = 0.0) -> np.ndarray:
    """Lay ``art`` (reflectance ``float32[h, w, 3]`` at ``art_ppm`` px per mm) flat on the canvas, centred on
    ``centre_mm``, turned by ``angle_deg``; with ``shadow`` > 0 a soft contact shadow under it first.
    Returns the four corners in table mm ``float[4, 2]`` (top-left, top-right, bottom-right, bottom-left)."""
    h, w = art.shape[:2]
    a = math.radians(angle_deg)
    s = canvas.ppm / art_ppm
    R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) * s
    c = canvas.to_px(np.array([centre_mm]))[0]
    t = c - R @ np.array([w / 2.0, h / 2.0])
    M = np.hstack([R, t.reshape(2, 1)]).astype(np.float64)
    size = (canvas.albedo.shape[1], canvas.albedo.shape[0])
    corners_px = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ R.T + t
    corners_mm = corners_px / canvas.ppm + canvas.origin
    x0, y0 = np.floor(corners_px.min(0)).astype(int) - 4
    x1, y1 = np.ceil(corners_px.max(0)).astype(int) + 4
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, size[0]), min(y1, size[1])
    if x1 <= x0 or y1 <= y0:
        return corners_mm
    M[:, 2] -= [x0, y0]
    roi = (x1 - x0, y1 - y0)
    a_src = np.ones((h, w), np.float32) if alpha is None else alpha.astype(np.float32)
    al = cv2.warpAffine(a_src, M, roi, flags=cv2.INTER_LINEAR)
    if shadow > 0:
        sh = cv2.GaussianBlur(al, (0, 0), max(0.8 * canvas.ppm, 0.5))
        sh = np.roll(sh, (int(0.6 * canvas.ppm), int(0.6 * canvas.ppm)), (0, 1))
        canvas.light[y0:y1, x0:x1] *= 1.0 - shadow * sh
    col = cv2.warpAffine(art, M, roi, flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    sub = canvas.albedo[y0:y1, x0:x1]
    sub[:] = sub * (1 - al[:, :, None]) + col * al[:, :, None]
    return corners_mm


def warp_face(img: np.ndarray, tile: np.ndarray, alpha: np.ndarray, quad_px: np.ndarray) -> None:
    """Composite a square ``tile`` (``float32[T, T, 3]``, corners in the order of ``quad_px``) onto ``img``
    (in place) through the homography that takes the tile's corners to ``quad_px`` (``float[4, 2]``)."""
    t = tile.shape[0]
    src = np.array([[0, 0], [t, 0], [t, t], [0, t]], np.float32)
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad_px.min(0)).astype(int) - 2
    x1, y1 = np.ceil(quad_px.max(0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    H = cv2.getPerspectiveTransform(src, (quad_px - [x0, y0]).astype(np.float32))
    roi = (x1 - x0, y1 - y0)
    col = cv2.warpPerspective(tile, H, roi, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    al = cv2.warpPerspective(alpha, H, roi, flags=cv2.INTER_LINEAR)[:, :, None]
    sub = img[y0:y1, x0:x1]
    sub[:] = sub * (1 - al) + col * al


def see_table(canvas: TableCanvas, cam: Camera, levels: int = 4) -> np.ndarray:
    """The table as the (undistorted) camera sees it: linear ``float32[H, W, 3]`` radiance (reflectance x
    light). The canvas is as fine as the nearest part of the picture, so the far parts are taken from
    coarser copies of it (a mip-map: each pixel blends the two levels around its own scale), without moire."""
    rad = canvas.albedo * canvas.light[:, :, None]
    H = cam.plane_homography(0.0) @ canvas.to_mm_matrix()  # canvas px -> picture px
    w, h = cam.size
    Hi = np.linalg.inv(H)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    den = Hi[2, 0] * xx + Hi[2, 1] * yy + Hi[2, 2]
    # canvas px per picture px: sqrt of the Jacobian determinant of picture -> canvas
    scale = np.sqrt(np.abs(np.linalg.det(Hi)) / np.abs(den) ** 3)
    lod = np.clip(np.log2(np.maximum(scale, 1e-6)), 0, levels - 1).astype(np.float32)
    out = np.zeros((h, w, 3), np.float32)
    level = rad
    for k in range(levels):
        S = np.diag([2.0 ** k, 2.0 ** k, 1.0])  # level px -> canvas px
        img = cv2.warpPerspective(level, H @ S, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        wgt = np.clip(1.0 - np.abs(lod - k), 0.0, 1.0)
        out += img * wgt[:, :, None]
        if k + 1 < levels:
            if min(level.shape[:2]) < 4:
                break
            level = cv2.pyrDown(level)
    return out


def finish(rng: np.random.Generator, linear: np.ndarray, cam: Camera, model: CameraModel, light: Lighting,
           sheen: float = 0.0, head_shadow: bool = False, pad: int = 0) -> tuple[np.ndarray, dict]:
    """The camera's picture of a linear ``float32[H + 2 pad, W + 2 pad, 3]`` scene (undistorted, seen by
    ``cam.padded(pad)``, before the lamp's colour): broad sheen and a head's shadow, the lens's distortion
    and vignetting, the lamp's colour, the sensor's colour response, motion blur and noise, the white
    balance, exposure and tone curve, sharpening, JPEG. Returns (``uint8[H, W, 3]`` BGR, what was drawn)."""
    img = linear
    h, w = img.shape[:2]
    if head_shadow:
        spot = soft_spot((h, w), (rng.uniform(0, w), rng.uniform(0, h)), (rng.uniform(0.1, 0.3) * w,
                         rng.uniform(0.1, 0.3) * h), rng.uniform(0, 180))
        img = img * (1.0 - rng.uniform(0.25, 0.5) * spot)[:, :, None]
    if sheen > 0:
        spot = soft_spot((h, w), (rng.uniform(0, w), rng.uniform(0, h)), (rng.uniform(0.08, 0.25) * w,
                         rng.uniform(0.05, 0.2) * h), rng.uniform(0, 180))
        img = img + (sheen * spot)[:, :, None]
    mx, my = cam.distortion_map()
    img = cv2.remap(img, mx + pad, my + pad, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    h, w = img.shape[:2]
    img = img * vignette(cam.size, float(rng.uniform(*model.vignetting)))[:, :, None]
    img = img * light.lamp[None, None, :]
    cm = np.eye(3, dtype=np.float32) + rng.normal(0, model.colour_matrix, (3, 3)).astype(np.float32)
    cm /= cm.sum(1, keepdims=True)
    img = (img.reshape(-1, 3) @ cm.T).reshape(h, w, 3)
    blur = 0.0
    if rng.random() < model.motion:
        blur = float(rng.uniform(1.0, model.motion_px))
        img = add_motion_blur(img, blur, float(rng.uniform(0, 180)))
    img = add_sensor_noise(rng, img * (light.wb_gains * light.exposure)[None, None, :],
                           float(rng.uniform(*model.shot_noise)), float(rng.uniform(*model.read_noise)))
    img = img / (light.wb_gains * light.exposure)[None, None, :]
    out = develop(img.astype(np.float32), light)
    amount = float(rng.uniform(*model.sharpen))
    if amount > 0.02:
        soft = cv2.GaussianBlur(out, (0, 0), 1.2)
        out = cv2.addWeighted(out, 1 + amount, soft, -amount, 0)
    q = int(rng.integers(model.jpeg[0], model.jpeg[1] + 1))
    out = jpeg_round_trip(out, q)
    return out, {"camera": model.name, "motion_blur_px": round(blur, 1), "jpeg": q}


def camera_model(name: str) -> CameraModel:
    """The :data:`CAMERA_MODELS` entry ``name`` (ValueError naming the choices otherwise)."""
    if name not in CAMERA_MODELS:
        raise ValueError(f"unknown camera model {name!r}; expected one of {sorted(CAMERA_MODELS)}")
    return CAMERA_MODELS[name]
