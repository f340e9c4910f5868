"""Lens distortion from the printed calibration sheet shown at a few angles (issue 5, table geometry).

A wide lens (the Camera Module 3 Wide, a cheap USB webcam) bends straight table edges near the
frame border, so a homography alone puts cards there a few millimetres off. Show the A4 sheet
(``companion print-mat``) to the camera at three or more different tilts; every view gives the
16 marker corners at known sheet millimetres (a plane, z = 0), and
:func:`cv2.calibrateCamera` fits the camera matrix and the radial/tangential distortion
(k1, k2, p1, p2, k3) to all views at once.

:func:`calibrate_lens` returns a :class:`LensCalibration`; :func:`vision.table.calibrate` takes it
(``lens=``) and then fits the table homography to *undistorted* marker corners, and the
calibration's ``to_mm`` / ``to_px`` undistort / distort on the way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import N_, VisionError
from .frames import validate_frame

__all__ = ["LensCalibration", "LensCalibrationFailed", "calibrate_lens"]


class LensCalibrationFailed(VisionError):
    """Too few usable views of the calibration sheet, or views too alike, to fit the lens (the message says which)."""


@dataclass(frozen=True)
class LensCalibration:
    """A camera's intrinsics and lens distortion (OpenCV's pinhole + Brown-Conrady model).

    Attributes:
        camera_matrix: float[3, 3] K (focal lengths and principal point, pixels).
        dist_coeffs: float[5] (k1, k2, p1, p2, k3), dimensionless.
        rms_px: RMS reprojection error of the fit over every corner of every view, pixels.
        image_size: (width, height) of the frames it was fitted on, pixels. Frames of another size
            need another calibration.
        views: number of sheet views used.
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    rms_px: float
    image_size: tuple[int, int]
    views: int

    def undistort_points(self, pts_px: np.ndarray) -> np.ndarray:
        """float[N, 2] distorted frame pixels -> float[N, 2] pixels of the ideal (undistorted) camera."""
        pts = np.asarray(pts_px, np.float64).reshape(-1, 1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        return cv2.undistortPoints(pts, self.camera_matrix, self.dist_coeffs, P=self.camera_matrix).reshape(-1, 2)

    def distort_points(self, pts_px: np.ndarray) -> np.ndarray:
        """float[N, 2] ideal (undistorted) pixels -> float[N, 2] pixels as the lens images them."""
        pts = np.asarray(pts_px, np.float64).reshape(-1, 2)
        if len(pts) == 0:
            return np.zeros((0, 2))
        K = self.camera_matrix
        rays = np.column_stack([(pts[:, 0] - K[0, 2]) / K[0, 0], (pts[:, 1] - K[1, 2]) / K[1, 1], np.ones(len(pts))])
        out, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), K, self.dist_coeffs)
        return out.reshape(-1, 2)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """``uint8[H, W, 3]`` BGR frame as the ideal camera would see it (same size and camera matrix).

        Raises:
            ValueError: the frame's size differs from :attr:`image_size`.
        """
        h, w = frame.shape[:2]
        if (w, h) != tuple(self.image_size):
            raise ValueError(f"lens calibrated for {self.image_size[0]}x{self.image_size[1]} frames, got {w}x{h}")
        return cv2.undistort(frame, self.camera_matrix, self.dist_coeffs)

    def to_json(self) -> dict:
        """``{"camera_matrix": [[3x3]], "dist_coeffs": [5], "rms_px", "image_size": [w, h], "views"}``."""
        return {"camera_matrix": np.asarray(self.camera_matrix).tolist(),
                "dist_coeffs": np.asarray(self.dist_coeffs).ravel().tolist(),
                "rms_px": self.rms_px, "image_size": list(self.image_size), "views": self.views}

    @classmethod
    def from_json(cls, d: dict) -> LensCalibration:
        """Inverse of :meth:`to_json`. Raises KeyError / ValueError on a malformed dict."""
        K = np.array(d["camera_matrix"], np.float64)
        dist = np.array(d["dist_coeffs"], np.float64).ravel()
        if K.shape != (3, 3) or dist.size not in (4, 5, 8):
            raise ValueError("lens calibration: camera_matrix must be 3x3 and dist_coeffs 4, 5 or 8 numbers")
        return cls(K, dist, float(d["rms_px"]), (int(d["image_size"][0]), int(d["image_size"][1])), int(d["views"]))


def calibrate_lens(frames: Sequence[np.ndarray], layout=None, config=None, min_views: int = 3,
                   max_rms_px: float = 2.0) -> LensCalibration:
    """Fit the lens from frames showing the calibration sheet at different tilts.

    Args:
        frames: ``uint8[H, W, 3]`` BGR frames, all the same size, each showing the sheet (all four
            markers seen is best; views with fewer than ``config.min_markers`` markers are skipped).
        layout: marker layout (default: the printed A4 sheet, :func:`vision.table.mat_layout`).
        config: :class:`vision.table.TableConfig`.
        min_views: usable views needed (3 or more different tilts constrain the focal length and k1, k2).
        max_rms_px: a fit worse than this is refused (a bent sheet, a marker from another sheet).

    Returns:
        The :class:`LensCalibration` (square pixels; k3 fixed at 0).

    Raises:
        BadFrame: a frame is not a BGR image.
        LensCalibrationFailed: frames of different sizes, too few usable views, or the fit is poor.
    """
    from .table import MIN_SIDE_PX, TableConfig, detect_markers, mat_layout  # here: vision.table imports this module

    c = config or TableConfig()
    layout = layout or mat_layout(c)
    obj: list[np.ndarray] = []
    img: list[np.ndarray] = []
    size: tuple[int, int] | None = None
    skipped: list[int] = []
    alike: list[int] = []
    views: list[list[int]] = []
    for k, frame in enumerate(frames):
        frame = validate_frame(frame, MIN_SIDE_PX)
        here = (frame.shape[1], frame.shape[0])
        if size is None:
            size = here
        elif here != size:
            raise LensCalibrationFailed.said(N_("frame {k} is {size}, the first was {first}: calibrate with frames of "
                                                "one camera mode"), k=k, size=f"{here[0]}x{here[1]}",
                                             first=f"{size[0]}x{size[1]}")
        seen = detect_markers(frame, c)
        ids = sorted(i for i in seen if i in layout.corners_mm)
        if len(ids) < max(2, c.min_markers):
            skipped.append(k)
            continue
        o = np.concatenate([layout.corners_mm[i] for i in ids])
        pts = np.concatenate([seen[i] for i in ids]).astype(np.float32)
        if any(_same_view(pts, ids, p, q, here) for p, q in zip(img, views, strict=True)):
            alike.append(k)  # the same view again (a photo given twice) constrains nothing new
            continue
        obj.append(np.column_stack([o, np.zeros(len(o))]).astype(np.float32))
        img.append(pts)
        views.append(ids)
    if len(obj) < min_views:
        template = (N_("usable views of the sheet: {count} (frames {skipped} showed too few markers; frames {alike} "
                       "repeat a view already given); need {need}: show the whole sheet at {need} or more different "
                       "tilts") if skipped and alike else
                    N_("usable views of the sheet: {count} (frames {skipped} showed too few markers); need {need}: "
                       "show the whole sheet at {need} or more different tilts") if skipped else
                    N_("usable views of the sheet: {count} (frames {alike} repeat a view already given); need "
                       "{need}: show the whole sheet at {need} or more different tilts") if alike else
                    N_("usable views of the sheet: {count}; need {need}: show the whole sheet at {need} or more "
                       "different tilts"))
        raise LensCalibrationFailed.said(template, count=len(obj), skipped=str(skipped), alike=str(alike),
                                         need=min_views)
    # k3 stays 0: with a few views of one A4 sheet it only trades off against k1 and makes the model
    # swing wildly outside the area the views covered
    flags = cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_FIX_K3
    K0 = np.array([[size[0], 0, size[0] / 2], [0, size[0], size[1] / 2], [0, 0, 1]], np.float64)
    rms, K, dist, _, _ = cv2.calibrateCamera(obj, img, size, K0, np.zeros(5),
                                             flags=flags | cv2.CALIB_USE_INTRINSIC_GUESS)
    if not np.isfinite(rms) or rms > max_rms_px:
        raise LensCalibrationFailed.said(N_("lens fit error {rms} px > {most} px: is the sheet flat, and from one "
                                            "print?"), rms=f"{rms:.2f}", most=f"{max_rms_px:g}")
    return LensCalibration(K, dist.ravel(), float(rms), size, len(obj))


#: Two views whose marker corners all lie within this fraction of the image diagonal are one view.
SAME_VIEW_FRAC = 0.005


def _same_view(pts: np.ndarray, ids: list[int], other: np.ndarray, other_ids: list[int],
               size: tuple[int, int]) -> bool:
    """Whether the corners ``pts`` (float32[4N, 2] px, markers ``ids``) are those of a view already given
    (``other``, ``other_ids``): the same markers, every corner within ``SAME_VIEW_FRAC`` of the diagonal of an
    image of ``size`` (w, h) px. A photo given twice adds no tilt, so it cannot fix the focal length."""
    if ids != other_ids:
        return False
    return float(np.max(np.linalg.norm(pts - other, axis=1))) < SAME_VIEW_FRAC * float(np.hypot(*size))
