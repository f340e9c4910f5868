"""Lens distortion from the calibration sheet at a few tilts (issue 5, table geometry).

The views are rendered through a known camera (K, k1, k2): the printed sheet is warped onto the
table at a known pose, then bent by the known distortion. The fit must find that lens again, and
table millimetres read near the frame edge must come out right with it (and worse without it).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import BadFrame
from vision.lens import LensCalibration, LensCalibrationFailed, calibrate_lens
from vision.mat import render_mat
from vision.table import A4_MM, CalibrationFailed, TableCalibration, calibrate

W, H = 1280, 720
K = np.array([[820.0, 0, 652.0], [0, 820.0, 355.0], [0, 0, 1]])
DIST = np.array([-0.28, 0.09, 0.0, 0.0, 0.0])
DPI = 100
PX_PER_MM = DPI / 25.4


def _pose(rx_deg: float, ry_deg: float, t: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    R, _ = cv2.Rodrigues(np.radians([rx_deg, ry_deg, 0.0]))
    return R, np.array(t, np.float64)


def _plane_to_ideal_px(R: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Homography table mm (z = 0) -> ideal image pixels."""
    return K @ np.column_stack([R[:, 0], R[:, 1], t])


def _distort_image(ideal: np.ndarray) -> np.ndarray:
    ys, xs = np.mgrid[0:H, 0:W].astype(np.float64)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    src = cv2.undistortPoints(pts, K, DIST, P=K).reshape(H, W, 2).astype(np.float32)
    return cv2.remap(ideal, src[..., 0], src[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _distort_points(pts: np.ndarray) -> np.ndarray:
    rays = np.column_stack([(pts[:, 0] - K[0, 2]) / K[0, 0], (pts[:, 1] - K[1, 2]) / K[1, 1], np.ones(len(pts))])
    out, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), K, DIST)
    return out.reshape(-1, 2)


def _view(R: np.ndarray, t: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    sheet = render_mat(dpi=DPI)
    if sheet.ndim == 2:
        sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR)
    S = np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0])  # sheet px -> mm
    Hs = _plane_to_ideal_px(R, t) @ S
    table = np.full((H, W, 3), (60, 90, 120), np.uint8)
    table = cv2.add(table, rng.integers(0, 20, (H, W, 3), dtype=np.uint8))
    ideal = cv2.warpPerspective(sheet, Hs, (W, H), dst=table, borderMode=cv2.BORDER_TRANSPARENT)
    return _distort_image(ideal)


POSES = [
    _pose(0, 0, (-105, -150, 520)),      # flat, centred
    _pose(25, 0, (-105, -150, 560)),
    _pose(-25, 10, (-105, -150, 560)),
    _pose(10, 30, (-60, -150, 600)),
    _pose(-15, -30, (-160, -150, 600)),
    _pose(0, 0, (-330, -200, 560)),      # towards the left edge, where the lens bends most
    _pose(0, 0, (130, -100, 560)),       # towards the right edge
    _pose(8, -8, (-440, -250, 600)),     # the four corners of the view
    _pose(-8, 8, (230, -250, 600)),
    _pose(8, 8, (-440, -60, 600)),
    _pose(-8, -8, (230, -60, 600)),
]


@pytest.fixture(scope="module")
def views() -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    return [_view(R, t, rng) for R, t in POSES]


@pytest.fixture(scope="module")
def lens(views) -> LensCalibration:
    return calibrate_lens(views)


def test_fit_finds_the_lens(lens, tmp_path) -> None:
    assert lens.views == len(POSES)
    assert lens.rms_px < 1.0
    assert lens.image_size == (W, H)
    assert abs(lens.camera_matrix[0, 0] - K[0, 0]) / K[0, 0] < 0.05
    # the coefficients trade off against each other, so compare what they do. Over a grid reaching
    # 40 px from the frame's edges, the lens moves points by up to ~100 px; the fitted model takes
    # them back to within 8% of that, and to within 1 px in the middle 60% of the frame.
    gx, gy = np.meshgrid(np.linspace(40, W - 40, 9), np.linspace(30, H - 30, 6))
    ideal = np.column_stack([gx.ravel(), gy.ravel()])
    bent = _distort_points(ideal)
    moved = np.linalg.norm(bent - ideal, axis=1)
    back = np.linalg.norm(lens.undistort_points(bent) - ideal, axis=1)
    assert back.max() < 0.08 * moved.max(), (back.max(), moved.max())
    middle = (np.abs(ideal[:, 0] - W / 2) < 0.3 * W) & (np.abs(ideal[:, 1] - H / 2) < 0.3 * H)
    assert back[middle].max() < 1.0
    assert np.linalg.norm(lens.distort_points(ideal[middle]) - bent[middle], axis=1).max() < 1.0
    again = LensCalibration.from_json(lens.to_json())
    assert np.allclose(again.camera_matrix, lens.camera_matrix) and again.views == lens.views


def test_table_mm_near_the_edge_is_right_with_the_lens(views, lens) -> None:
    R, t = POSES[0]
    truth_mm = np.array([[-230.0, -30.0], [440.0, 330.0], [-230.0, 330.0], [440.0, -30.0], [105.0, 148.5]])
    ideal_px = cv2.perspectiveTransform(truth_mm.reshape(-1, 1, 2), _plane_to_ideal_px(R, t)).reshape(-1, 2)
    seen_px = _distort_points(ideal_px)
    assert (seen_px >= 0).all() and (seen_px[:, 0] < W).all() and (seen_px[:, 1] < H).all()
    with_lens = calibrate(views[0], lens=lens)
    without = calibrate(views[0])
    err_with = np.linalg.norm(with_lens.to_mm(seen_px) - truth_mm, axis=1)
    err_without = np.linalg.norm(without.to_mm(seen_px) - truth_mm, axis=1)
    assert err_with.max() < 3.0, err_with
    assert err_without.max() > 3 * err_with.max(), (err_without, err_with)
    # and back: table mm -> the camera's own pixels
    assert np.abs(with_lens.to_px(truth_mm) - seen_px).max() < 2.0
    # the lens survives a JSON round trip of the table calibration
    again = TableCalibration.from_json(with_lens.to_json())
    assert np.allclose(again.to_mm(seen_px), with_lens.to_mm(seen_px))


def test_too_few_views_is_refused(views) -> None:
    with pytest.raises(LensCalibrationFailed, match="usable view"):
        calibrate_lens(views[:2])
    blank = np.full((H, W, 3), 128, np.uint8)
    with pytest.raises(LensCalibrationFailed, match=r"frames \[1, 2\]"):
        calibrate_lens([views[0], blank, blank, views[1]])


def test_frames_of_another_size_are_refused(views, lens) -> None:
    small = cv2.resize(views[1], (640, 360))
    with pytest.raises(LensCalibrationFailed, match="640x360"):
        calibrate_lens([views[0], small, views[2]])
    with pytest.raises(CalibrationFailed, match="1280x720"):
        calibrate(small, lens=lens)
    with pytest.raises(ValueError, match="1280x720"):
        lens.undistort(small)


def test_one_photo_given_three_times_is_one_view(views) -> None:
    # one view cannot fix the focal length: the copies of it are named, not fitted as three tilts
    with pytest.raises(LensCalibrationFailed, match=r"usable views of the sheet: 1 .*frames \[1, 2\] repeat a view"):
        calibrate_lens([views[1], views[1].copy(), views[1].copy()])
    lens = calibrate_lens([views[1], views[1].copy(), *views[2:5]])
    assert lens.views == 4


def test_corrupt_frame_is_refused() -> None:
    with pytest.raises(BadFrame):
        calibrate_lens([np.zeros((0, 0, 3), np.uint8)] * 3)


def test_sheet_size_is_a4() -> None:
    assert A4_MM == (210.0, 297.0)
