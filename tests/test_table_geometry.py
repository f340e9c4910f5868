"""Table geometry (issue 5): calibration sheet, homography round trip, moved markers, zones, bad frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import BadFrame
from vision.mat import render_mat, write_mat
from vision.table import (
    CalibrationFailed,
    MarkersMoved,
    TableCalibration,
    Zones,
    apply_homography,
    calibrate,
    check_markers,
    detect_markers,
    even_zones,
    markers_where_they_were,
    mat_layout,
    zones_from_seats,
    zones_of,
)

DPI = 100
PX_PER_MM = DPI / 25.4


def sheet_frame(H_sheetpx_to_frame: np.ndarray, size=(1280, 960)) -> np.ndarray:
    """The A4 sheet (rendered at DPI) warped into a grey-cloth frame by a known homography."""
    sheet = cv2.cvtColor(render_mat(DPI), cv2.COLOR_GRAY2BGR)
    frame = np.full((size[1], size[0], 3), (60, 90, 50), np.uint8)
    warped = cv2.warpPerspective(sheet, H_sheetpx_to_frame, size)
    mask = cv2.warpPerspective(np.full(sheet.shape[:2], 255, np.uint8), H_sheetpx_to_frame, size)
    frame[mask > 0] = warped[mask > 0]
    return frame


def known_h(tilt: float = 0.0, shift=(0.0, 0.0)) -> np.ndarray:
    """Sheet px -> frame px: the sheet at ~0.8 of its DPI size with a perspective tilt."""
    sheet_h, sheet_w = render_mat(DPI).shape
    src = np.float32([[0, 0], [sheet_w, 0], [sheet_w, sheet_h], [0, sheet_h]])
    dst = np.float32([[300 + tilt, 80], [960 - tilt, 100], [1000, 880], [260, 860]]) + np.float32(shift)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def test_calibration_round_trip_recovers_the_homography():
    Hs = known_h(tilt=60.0)
    frame = sheet_frame(Hs)
    cal = calibrate(frame, mat_layout())
    # ground truth: table mm -> sheet px (scale) -> frame px
    H_true = Hs @ np.diag([PX_PER_MM, PX_PER_MM, 1.0])
    pts_mm = np.array([[0, 0], [210, 0], [210, 297], [0, 297], [105, 150], [30, 250]], np.float64)
    got = cal.to_px(pts_mm)
    want = cv2.perspectiveTransform(pts_mm.reshape(-1, 1, 2), H_true).reshape(-1, 2)
    assert np.abs(got - want).max() < 2.0, np.abs(got - want).max()
    back = cal.to_mm(got)
    assert np.abs(back - pts_mm).max() < 1e-6
    assert cal.reprojection_px < 1.0
    # mm per pixel at the sheet centre: ~ 297 mm over ~ 780 px
    centre_px = tuple(cal.to_px(np.array([[105.0, 148.5]]))[0])
    assert 0.3 < cal.mm_per_px(centre_px) < 0.5
    # JSON round trip
    again = TableCalibration.from_json(cal.to_json())
    assert np.allclose(again.H, cal.H)


def test_markers_moved_is_reported():
    frame = sheet_frame(known_h())
    cal = calibrate(frame, mat_layout())
    assert check_markers(frame, cal).ok
    moved = sheet_frame(known_h(shift=(12.0, 5.0)))
    check = check_markers(moved, cal)
    assert set(check.moved) == {0, 1, 2, 3}
    with pytest.raises(MarkersMoved, match="moved"):
        check_markers(moved, cal, raise_on_move=True)
    # a hand over one marker is 'missing', not 'moved'
    hidden = frame.copy()
    q = cal.markers_px[0]
    x0, y0 = q.min(axis=0).astype(int) - 5
    x1, y1 = q.max(axis=0).astype(int) + 5
    hidden[y0:y1, x0:x1] = (120, 150, 200)
    c2 = check_markers(hidden, cal)
    assert c2.ok and 0 in c2.missing


def test_markers_are_looked_for_where_they_were_first():
    frame = sheet_frame(known_h(tilt=40.0))
    cal = calibrate(frame, mat_layout())
    # a marker's own window gives the corners the whole frame gives it
    for shift in ((0.0, 0.0), (12.0, 5.0)):
        f = sheet_frame(known_h(tilt=40.0, shift=shift))
        near, everywhere = markers_where_they_were(f, cal), detect_markers(f)
        assert near is not None and set(near) == {0, 1, 2, 3}
        for i, q in near.items():
            assert np.abs(q - everywhere[i]).max() < 0.01
    # the sheet moved by more than a marker's side: no marker in its window, the whole frame finds them moved
    far = sheet_frame(known_h(tilt=40.0, shift=(-200.0, 40.0)))
    assert markers_where_they_were(far, cal) is None
    check = check_markers(far, cal)
    assert set(check.moved) == {0, 1, 2, 3} and not check.missing
    assert all(abs(d - np.hypot(200.0, 40.0)) < 30.0 for d in check.shift_px.values())


def test_top_down_view_and_marker_cover():
    cal = calibrate(sheet_frame(known_h(tilt=60.0)), mat_layout())
    # the top-down image at 2 px/mm with its origin at table (-10, -20) mm: a table point p lands on 2 (p - origin)
    M = cal.top_down(np.array([-10.0, -20.0]), 2.0)
    pts_mm = np.array([[0.0, 0.0], [105.0, 148.5], [210.0, 297.0]])
    got = apply_homography(M, cal.to_px(pts_mm))
    assert np.abs(got - 2.0 * (pts_mm - [-10.0, -20.0])).max() < 1e-6
    # the 1280 x 960 frame sees the whole sheet and more: its footprint holds the sheet, within 2 m of it
    lo, hi = cal.footprint_mm(1280, 960)
    assert (lo < 0).all() and (hi > [210.0, 297.0]).all()
    assert (lo >= -2000.0).all() and (hi <= [2210.0, 2297.0]).all()
    # a card quad over marker 0 (the sheet's top-left, 12-52 mm) covers it; one in the sheet's middle does not
    over = cal.to_px(np.array([[5.0, 5.0], [60.0, 5.0], [60.0, 60.0], [5.0, 60.0]]))
    middle = cal.to_px(np.array([[70.0, 100.0], [140.0, 100.0], [140.0, 200.0], [70.0, 200.0]]))
    assert cal.covers_marker(over) and not cal.covers_marker(middle)


def test_zones_of_pieces_in_mm_and_px():
    zones_mm = Zones.even(["south", "north"], 1000.0, 600.0)
    centres_mm = np.array([[500.0, 550.0], [500.0, 50.0]])
    quads_px = [np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float) + [490, 40],   # pixel centre (495, 45)
                np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float) + [490, 540]]  # (495, 545)
    # calibrated: mm zones at the mm centres
    assert zones_of(zones_mm, centres_mm, quads_px, mm_estimated=False) == ["south", "north"]
    # mm only estimated: looked up at the pixel centres
    assert zones_of(zones_mm, centres_mm, quads_px, mm_estimated=True) == ["north", "south"]
    assert zones_of(None, centres_mm, quads_px, mm_estimated=False) == [None, None]


def test_calibration_needs_markers():
    with pytest.raises(CalibrationFailed, match="need at least"):
        calibrate(np.full((480, 640, 3), 90, np.uint8))


def test_write_mat_png_and_pdf(tmp_path):
    png = write_mat(tmp_path / "mat.png", dpi=100)
    img = cv2.imread(str(png))
    assert img is not None and img.shape[:2] == (1169, 827)
    assert set(detect_markers(img)) == {0, 1, 2, 3}
    pdf = write_mat(tmp_path / "mat.pdf", dpi=100)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"/MediaBox [0 0 595.276 841.890]" in data


def test_even_zones_and_polygons():
    z2 = Zones.even(["south", "north"], 1000.0, 600.0)
    assert z2.zone_of((500, 550)) == "south"
    assert z2.zone_of((500, 50)) == "north"
    z4 = Zones.even(4, 1000.0, 1000.0)
    assert z4.zone_of((500, 950)) == "player1"      # bottom
    assert z4.zone_of((50, 500)) == "player2"       # left (clockwise on screen from the bottom)
    assert z4.zone_of((500, 50)) == "player3"
    assert z4.zone_of((950, 500)) == "player4"
    assert z4.zone_of((5000, 5000)) is None
    given = Zones({"me": np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)})
    assert given.zone_of((5, 5)) == "me" and given.zone_of((15, 5)) is None
    assert Zones.from_json(z4.to_json()).zone_of((500, 950)) == "player1"


def test_zones_even_and_from_tapped_seats():
    # 2 players, no calibration, a 200 x 100 px frame: Zones.even gives the bottom and top halves.
    z = even_zones(["Ann", "Bob"], (200, 100))
    assert (z.units, z.zone_of((100, 90)), z.zone_of((100, 10))) == ("px", "Ann", "Bob")
    # Seats tapped at the left and right edges: the nearest seat owns each point, split at x = 100.
    z = zones_from_seats({"Ann": (0, 50), "Bob": (200, 50)}, (200, 100))
    assert (z.zone_of((40, 10)), z.zone_of((160, 90)), z.zone_of((99, 50)),
            z.zone_of((101, 50))) == ("Ann", "Bob", "Ann", "Bob")
    with pytest.raises(ValueError, match="same seat"):
        zones_from_seats({"Ann": (0, 50), "Bob": (0, 50)}, (200, 100))


def test_even_zones_in_table_mm_with_a_calibration():
    cal = calibrate(sheet_frame(known_h(tilt=60.0)), mat_layout())
    z = even_zones(["Ann", "Bob"], (1280, 960), cal)
    assert z.units == "mm"
    # the first player sits at the frame's bottom edge, the second at its top (seen on the table)
    bottom, top = cal.to_mm(np.array([[640.0, 950.0], [640.0, 10.0]]))
    assert (z.zone_of(bottom), z.zone_of(top)) == ("Ann", "Bob")
    # seats tapped in mm: the nearest seat owns each point
    seats = zones_from_seats({"Ann": (105.0, 0.0), "Bob": (105.0, 297.0)}, (1280, 960), cal)
    assert seats.units == "mm"
    assert (seats.zone_of((105.0, 100.0)), seats.zone_of((105.0, 200.0))) == ("Ann", "Bob")


@pytest.mark.parametrize("bad", [None, "frame", np.zeros((0, 0, 3), np.uint8), np.zeros((50, 50), np.uint8),
                                 np.zeros((50, 50, 3), np.float32)])
def test_bad_frames(bad):
    from vision.cards import read_cards

    with pytest.raises(BadFrame):
        calibrate(bad)
    with pytest.raises(BadFrame):
        read_cards(bad)
