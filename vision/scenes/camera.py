"""Cameras of the second scene generator: a pinhole camera in 3-D over the table (height, tilt, turn), radial
lens distortion, and the sensor's faults (motion blur, shot and read noise, vignetting, JPEG).

Units: table coordinates in mm (x, y on the table top as a top-down picture of it shows them, z into the
table, so a point ``h`` mm above the table has z = -h and both frames are right-handed with image y down);
image coordinates in pixels. The camera looks at a point of the table from ``distance`` mm with its optical
axis ``tilt`` degrees off the vertical. Everything random is drawn from a ``numpy.random.Generator`` passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["Camera", "CameraModel", "CAMERA_MODELS", "add_motion_blur", "add_sensor_noise", "jpeg_round_trip",
           "look_at", "vignette"]


@dataclass(frozen=True)
class CameraModel:
    """What a kind of camera does to a picture, as ranges drawn per scene.

    Attributes:
        name: e.g. ``"pi-hq"``.
        hfov: (min, max) horizontal field of view, degrees.
        k1, k2: (min, max) radial distortion coefficients (barrel < 0 < pincushion) in normalised coordinates.
        read_noise: (min, max) sensor read noise, sigma in linear units (0..1 full scale).
        shot_noise: (min, max) shot noise scale: sigma = scale * sqrt(signal), linear units.
        jpeg: (min, max) JPEG quality.
        motion: probability of a motion blur; its length is up to ``motion_px`` pixels.
        motion_px: longest motion blur streak, pixels.
        vignetting: (min, max) darkening at the image corners (0 = none).
        colour_matrix: spread of the sensor's colour response off the identity (per-entry sigma).
        sharpen: (min, max) unsharp-mask amount of the camera's own processing.
    """

    name: str
    hfov: tuple[float, float] = (55.0, 70.0)
    k1: tuple[float, float] = (-0.12, 0.04)
    k2: tuple[float, float] = (-0.02, 0.03)
    read_noise: tuple[float, float] = (0.002, 0.008)
    shot_noise: tuple[float, float] = (0.004, 0.015)
    jpeg: tuple[int, int] = (60, 95)
    motion: float = 0.15
    motion_px: float = 4.0
    vignetting: tuple[float, float] = (0.0, 0.3)
    colour_matrix: float = 0.03
    sharpen: tuple[float, float] = (0.0, 0.4)


#: Kinds of camera a table box may carry (the Pi cameras, a USB webcam, a phone held over the table).
CAMERA_MODELS: dict[str, CameraModel] = {
    "pi-hq": CameraModel("pi-hq", hfov=(48.0, 62.0), k1=(-0.06, 0.02), k2=(-0.01, 0.01), read_noise=(0.001, 0.004),
                         shot_noise=(0.003, 0.008), jpeg=(80, 95), motion=0.1, vignetting=(0.0, 0.15),
                         colour_matrix=0.02, sharpen=(0.0, 0.2)),
    "pi-wide": CameraModel("pi-wide", hfov=(66.0, 78.0), k1=(-0.22, -0.08), k2=(0.0, 0.05), read_noise=(0.003, 0.01),
                           shot_noise=(0.006, 0.018), jpeg=(60, 90), vignetting=(0.15, 0.4)),
    "webcam": CameraModel("webcam", hfov=(58.0, 72.0), k1=(-0.10, 0.02), read_noise=(0.004, 0.012),
                          shot_noise=(0.008, 0.02), jpeg=(45, 80), motion=0.25, motion_px=6.0, colour_matrix=0.05,
                          sharpen=(0.2, 0.8)),
    "phone": CameraModel("phone", hfov=(62.0, 72.0), k1=(-0.03, 0.03), k2=(-0.01, 0.01), read_noise=(0.001, 0.005),
                         shot_noise=(0.003, 0.01), jpeg=(75, 95), motion=0.2, vignetting=(0.0, 0.2),
                         colour_matrix=0.04, sharpen=(0.3, 1.0)),
}


@dataclass(frozen=True)
class Camera:
    """A pinhole camera with radial distortion.

    Attributes:
        K: ``float[3, 3]`` intrinsics (pixels).
        R: ``float[3, 3]`` rotation table -> camera.
        t: ``float[3]`` translation table -> camera (mm).
        k1, k2: radial distortion of normalised image coordinates: ``x_d = x (1 + k1 r^2 + k2 r^4)``.
        size: (width, height) pixels.
    """

    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    k1: float
    k2: float
    size: tuple[int, int]

    @property
    def centre(self) -> np.ndarray:
        """Camera centre in table mm ``float[3]``."""
        return -self.R.T @ self.t

    def project(self, pts: np.ndarray, distort: bool = True) -> np.ndarray:
        """``float[N, 3]`` table points (mm) -> ``float[N, 2]`` pixels (distorted unless ``distort`` is False)."""
        p = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        xy = p[:, :2] / p[:, 2:3]
        if distort:
            xy = self._distort(xy)
        return xy * [self.K[0, 0], self.K[1, 1]] + [self.K[0, 2], self.K[1, 2]]

    def in_picture(self, pts: np.ndarray) -> np.ndarray:
        """``bool[N]``: which table points (``float[N, 3]`` mm) the picture shows where :meth:`project` puts them:
        in front of the camera and nearer its axis than the radius where the lens model folds back. The distorted
        radius ``r (1 + k1 r^2 + k2 r^4)`` of an undistorted radius ``r`` grows while its slope
        ``1 + 3 k1 r^2 + 5 k2 r^4`` is positive; past that (about 1.2 for a strong barrel, k1 = -0.22) it shrinks
        again, so :meth:`project` maps a point far off the axis back into the frame, though the picture
        (:meth:`distortion_map`, which inverts the model on the near side of the fold) never shows it there. Without
        distortion every point in front of the camera is on the near side. Raises nothing."""
        p = np.asarray(pts, np.float64).reshape(-1, 3) @ self.R.T + self.t
        front = p[:, 2] > 1e-9
        xy = p[:, :2] / np.where(front, p[:, 2], 1.0)[:, None]
        r2 = (xy ** 2).sum(1)
        return front & (1.0 + 3.0 * self.k1 * r2 + 5.0 * self.k2 * r2 * r2 > 0.0)

    def _distort(self, xy: np.ndarray) -> np.ndarray:
        r2 = (xy ** 2).sum(1, keepdims=True)
        return xy * (1.0 + self.k1 * r2 + self.k2 * r2 * r2)

    def plane_homography(self, height: float = 0.0) -> np.ndarray:
        """Homography ``float[3, 3]`` from table (x, y) mm on the plane ``height`` mm above the table top to
        undistorted pixels."""
        P = self.K @ np.hstack([self.R, self.t.reshape(3, 1)])
        return np.column_stack([P[:, 0], P[:, 1], -P[:, 2] * height + P[:, 3]])

    def px_per_mm(self, pt: np.ndarray) -> float:
        """Image pixels per table mm at table point ``pt`` (``float[3]``), undistorted."""
        p = np.asarray(pt, np.float64)
        a = self.project(np.array([p - [0.5, 0, 0], p + [0.5, 0, 0], p - [0, 0.5, 0], p + [0, 0.5, 0]]), False)
        return float(np.sqrt(np.linalg.norm(a[1] - a[0]) * np.linalg.norm(a[3] - a[2])))

    def distortion_map(self) -> tuple[np.ndarray, np.ndarray]:
        """(map_x, map_y) ``float32[H, W]``: for each pixel of the distorted picture, where it lies in the
        undistorted one (for ``cv2.remap``); the inverse of the radial model by fixed-point iteration."""
        w, h = self.size
        fx, fy, cx, cy = self.K[0, 0], self.K[1, 1], self.K[0, 2], self.K[1, 2]
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        xd, yd = (xx - cx) / fx, (yy - cy) / fy
        xu, yu = xd.copy(), yd.copy()
        for _ in range(8):
            r2 = xu * xu + yu * yu
            f = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
            xu, yu = xd / f, yd / f
        return (xu * fx + cx).astype(np.float32), (yu * fy + cy).astype(np.float32)

    def padded(self, pad: int) -> Camera:
        """The same camera seeing ``pad`` more pixels on every side, without distortion: the picture the
        lens distortion (:meth:`distortion_map` shifted by ``pad``) is taken from."""
        K = self.K.copy()
        K[0, 2] += pad
        K[1, 2] += pad
        return Camera(K, self.R, self.t, 0.0, 0.0, (self.size[0] + 2 * pad, self.size[1] + 2 * pad))

    def distortion_pad(self) -> int:
        """Pixels beyond the picture's edges its distorted corners see (the :meth:`padded` margin needed)."""
        mx, my = self.distortion_map()
        w, h = self.size
        over = max(0.0, -float(mx.min()), float(mx.max()) - w, -float(my.min()), float(my.max()) - h)
        return int(math.ceil(over)) + 2

    def table_footprint(self) -> np.ndarray:
        """``float[4, 2]`` table mm seen at the four image corners (undistorted rays onto z = 0)."""
        w, h = self.size
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        Hinv = np.linalg.inv(self.plane_homography(0.0))
        p = np.column_stack([corners, np.ones(4)]) @ Hinv.T
        return p[:, :2] / p[:, 2:3]


def look_at(target: np.ndarray, distance: float, tilt_deg: float, heading_deg: float, roll_deg: float,
            hfov_deg: float, size: tuple[int, int], k1: float = 0.0, k2: float = 0.0) -> Camera:
    """A camera ``distance`` mm from table point ``target`` (mm, z = 0), its axis ``tilt_deg`` off the
    vertical, standing off towards ``heading_deg`` on the table (that side of the table is at the bottom of
    the picture), turned ``roll_deg`` about its axis, with horizontal field of view ``hfov_deg`` on an image
    of ``size`` (w, h) pixels."""
    w, h = size
    f = (w / 2.0) / math.tan(math.radians(hfov_deg) / 2.0)
    K = np.array([[f, 0, w / 2.0], [0, f, h / 2.0], [0, 0, 1.0]])
    t_r, h_r = math.radians(tilt_deg), math.radians(heading_deg)
    back = np.array([math.sin(t_r) * math.cos(h_r), math.sin(t_r) * math.sin(h_r), -math.cos(t_r)])
    centre = np.asarray(target, np.float64) + distance * back
    z_axis = -back  # the optical axis points from the camera into the table
    down_hint = np.array([math.cos(h_r), math.sin(h_r), 0.0])  # the near side of the table is at the bottom
    x_axis = np.cross(down_hint, z_axis)
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(z_axis, x_axis)
    R = np.stack([x_axis, y_axis, z_axis])
    r = math.radians(roll_deg)
    Rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1.0]])
    R = Rz @ R
    return Camera(K, R, -R @ centre, float(k1), float(k2), (int(w), int(h)))


def vignette(size: tuple[int, int], strength: float) -> np.ndarray:
    """``float32[H, W]`` light falloff of the lens: 1 at the centre, ``1 - strength`` at the corners (cos^4-like)."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    return (1.0 - strength * r2 ** 1.5).astype(np.float32)


def add_motion_blur(img: np.ndarray, length: float, angle_deg: float) -> np.ndarray:
    """A straight streak of ``length`` pixels at ``angle_deg`` (the camera or the table shook)."""
    if length < 1.0:
        return img
    k = int(math.ceil(length)) | 1
    ker = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(math.radians(angle_deg)) * length / 2, math.sin(math.radians(angle_deg)) * length / 2
    cv2.line(ker, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1,
             cv2.LINE_AA)
    ker /= max(float(ker.sum()), 1e-6)
    return cv2.filter2D(img, -1, ker, borderType=cv2.BORDER_REFLECT)


def add_sensor_noise(rng: np.random.Generator, img: np.ndarray, shot: float, read: float) -> np.ndarray:
    """Linear ``float32`` image plus shot noise (sigma = ``shot`` x sqrt(signal)) and read noise (``read``),
    the noise a little smoothed and correlated between channels as a demosaiced sensor's is."""
    sig = np.sqrt(np.maximum(img, 0.0)) * shot + read
    n = rng.standard_normal(img.shape).astype(np.float32)
    n = 0.6 * n + 0.4 * n.mean(axis=2, keepdims=True)
    n = cv2.GaussianBlur(n, (0, 0), 0.6)
    return img + n * sig


def jpeg_round_trip(img: np.ndarray, quality: int) -> np.ndarray:
    """A ``uint8`` BGR picture through a JPEG encoder and decoder at ``quality``."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img
