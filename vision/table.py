"""Table geometry: ArUco markers, the table-plane homography, mm per pixel, moved-marker check, player zones
(even sectors, or from the seats players tapped).

Glossary: *table frame* = millimetres on the table plane, x to the right and y towards the camera's
bottom edge as seen on the printed sheet (origin = top-left of the marker layout); *layout* = where
each ArUco marker's four corners lie in the table frame; *calibration* = the homography
table-mm -> frame pixels found from the markers seen in one frame.

Every step is a pure function of ``(config, frame or data)``; thresholds live in :class:`TableConfig`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .errors import N_, VisionError
from .frames import validate_frame
from .lens import LensCalibration

__all__ = [
    "A4_MM",
    "MIN_SIDE_PX",
    "CalibrationFailed",
    "MarkerCheck",
    "MarkerLayout",
    "MarkersMoved",
    "TableCalibration",
    "TableConfig",
    "Zones",
    "apply_homography",
    "calibrate",
    "check_markers",
    "corner_layout",
    "detect_markers",
    "markers_looked_harder",
    "even_zones",
    "markers_where_they_were",
    "reprojection_limit",
    "mat_layout",
    "zones_from_seats",
    "zones_of",
]

A4_MM = (210.0, 297.0)
#: Smallest frame side (px) the table readers (markers, cards, hexes) accept: a smaller image holds
#: no readable marker or card. Passed to :func:`vision.frames.validate_frame`.
MIN_SIDE_PX = 16


class CalibrationFailed(VisionError):
    """Not enough calibration markers were seen to compute the table homography, or they do not fit the layout (the
    message says which).

    Attributes:
        area: when the markers did not fit the layout but four markers ids 0-3 were seen: the play area
            ``(width mm, height mm, marker side mm, reprojection px)`` of four separate corner markers
            (:func:`corner_layout`) that fits them best (:func:`corner_area`), else None.
    """

    area: tuple[float, float, float, float] | None = None


class MarkersMoved(VisionError):
    """The calibration markers moved since calibration (the camera or the sheet was bumped); recalibrate."""

    def __init__(self, message: str, check: MarkerCheck):
        super().__init__(message)
        self.check = check


@dataclass(frozen=True)
class TableConfig:
    """Thresholds of the table geometry stages.

    Attributes:
        aruco_dictionary: OpenCV predefined ArUco dictionary used for table markers (and card stickers).
        mat_marker_ids: ids of the four markers on the printed A4 sheet, clockwise from top-left.
        mat_marker_mm: printed side of each sheet marker in millimetres.
        mat_margin_mm: distance from the sheet edge to each marker's outer edge.
        min_markers: at least this many layout markers must be seen to calibrate (1 marker = 4 points
            is enough for a homography but is fragile; 2 is the default).
        max_reprojection_frac: calibration is refused if the mean corner reprojection error exceeds this fraction of
            the markers' mean side in the frame (px), or :attr:`min_reprojection_px` if that is more. A layout that
            does not match the table misplaces the corners by a share of the markers' size whatever the camera's
            resolution or the table's size in the frame (full Roll tables, seeds 1-3 at 960x540, 1280x720 and
            2304x1296: the true layout 0.11-0.68 % of the side; markers said 45 mm where they are 40 about 10 %,
            said 50 about 20 %; the area 5 % too wide 2.1-2.5 %, both sides 3.2-3.6 %), where a fixed 4 px let
            markers said 45 mm pass where the table is small in the frame (640x360, markers 35 px wide: 3.7 px) and
            refused the area 5 % too large both ways on a large frame (2304x1296, markers 128 px wide: 4.6 px).
        min_reprojection_px: the least error ever refused (px): corner detection's own noise on small markers.
        moved_tolerance_px: a marker whose corners moved by more than this (mean, pixels) counts as moved.
        moved_tolerance_frac: ... or by more than this fraction of its side, whichever is larger.
        sharpen, sharpen_sigma: the unsharp mask of calibration's second look for markers
            (:func:`markers_looked_harder`): gain and Gaussian sigma (px).
    """

    aruco_dictionary: int = cv2.aruco.DICT_4X4_50
    mat_marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    mat_marker_mm: float = 40.0
    mat_margin_mm: float = 12.0
    min_markers: int = 2
    max_reprojection_frac: float = 0.05
    min_reprojection_px: float = 1.0
    moved_tolerance_px: float = 3.0
    moved_tolerance_frac: float = 0.06
    sharpen: float = 1.0
    sharpen_sigma: float = 1.5


# ----------------------------------------------------------------------------------------------- layout


@dataclass(frozen=True)
class MarkerLayout:
    """Where each marker lies on the table plane.

    Attributes:
        corners_mm: marker id -> float[4, 2] corners in table mm, in ArUco order
            (top-left, top-right, bottom-right, bottom-left of the printed marker).
        width_mm, height_mm: extent of the play area this layout describes (for zones and drawing).
    """

    corners_mm: dict[int, np.ndarray]
    width_mm: float
    height_mm: float


def _square(x: float, y: float, side: float) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float64)


def mat_layout(config: TableConfig | None = None) -> MarkerLayout:
    """The marker layout of the printed A4 calibration sheet (portrait, origin at the sheet's top-left)."""
    c = config or TableConfig()
    w, h = A4_MM
    s, m = c.mat_marker_mm, c.mat_margin_mm
    pos = [(m, m), (w - m - s, m), (w - m - s, h - m - s), (m, h - m - s)]
    return MarkerLayout({i: _square(x, y, s) for i, (x, y) in zip(c.mat_marker_ids, pos, strict=True)}, w, h)


def corner_layout(width_mm: float, height_mm: float, marker_mm: float = 50.0,
                  ids: tuple[int, int, int, int] = (0, 1, 2, 3)) -> MarkerLayout:
    """Four separate markers laid at the corners of a ``width_mm`` x ``height_mm`` play area
    (each marker's outer corner on the area's corner), clockwise from top-left."""
    s = marker_mm
    pos = [(0, 0), (width_mm - s, 0), (width_mm - s, height_mm - s), (0, height_mm - s)]
    return MarkerLayout({i: _square(x, y, s) for i, (x, y) in zip(ids, pos, strict=True)}, width_mm, height_mm)


# ----------------------------------------------------------------------------------------------- markers


def aruco_detector(config: TableConfig) -> cv2.aruco.ArucoDetector:
    """An ArUco detector for ``config.aruco_dictionary`` with sub-pixel corner refinement."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(config.aruco_dictionary), params)


def detect_markers(frame: np.ndarray, config: TableConfig | None = None) -> dict[int, np.ndarray]:
    """All ArUco markers of the configured dictionary in ``frame``: id -> float[4, 2] pixel corners.

    When an id is seen twice the larger marker wins.
    """
    c = config or TableConfig()
    frame = validate_frame(frame, MIN_SIDE_PX)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    corners, ids, _ = aruco_detector(c).detectMarkers(gray)
    out: dict[int, np.ndarray] = {}
    if ids is None:
        return out
    for q, i in zip(corners, ids.ravel(), strict=True):
        q = q.reshape(4, 2).astype(np.float64)
        if int(i) in out and cv2.contourArea(out[int(i)].astype(np.float32)) >= cv2.contourArea(q.astype(np.float32)):
            continue
        out[int(i)] = q
    return out


# ----------------------------------------------------------------------------------------------- calibration


MARKER_SHEET_MARGIN = 0.25
"""The white paper round a printed marker taken as part of it, as a share of the marker's side on each side:
a marker needs a white quiet zone round it to be found (the A4 mat prints 12 mm round 40 mm markers,
:func:`mat_layout`)."""


@dataclass(frozen=True)
class TableCalibration:
    """Table plane <-> frame pixels from one frame's markers.

    Attributes:
        H: float[3, 3] homography, table mm -> frame pixels.
        markers_px: id -> float[4, 2] pixel corners seen when calibrating (for the moved check).
        layout: the marker layout used.
        reprojection_px: mean corner reprojection error in pixels.
        frame_size: (width, height) of the calibration frame.
        lens: the camera's lens distortion (:func:`vision.lens.calibrate_lens`), or None for an ideal
            lens. With it, ``H`` maps table mm to *undistorted* pixels and :meth:`to_px` / :meth:`to_mm`
            distort / undistort, so both still speak the camera's own frame pixels.
    """

    H: np.ndarray
    markers_px: dict[int, np.ndarray]
    layout: MarkerLayout
    reprojection_px: float
    frame_size: tuple[int, int]
    lens: LensCalibration | None = None

    @property
    def H_inv(self) -> np.ndarray:
        """float[3, 3] frame pixels -> table mm."""
        return np.linalg.inv(self.H)

    def to_px(self, pts_mm: np.ndarray) -> np.ndarray:
        """float[N, 2] table mm -> float[N, 2] frame pixels."""
        px = apply_homography(self.H, pts_mm)
        return px if self.lens is None else self.lens.distort_points(px)

    def to_mm(self, pts_px: np.ndarray) -> np.ndarray:
        """float[N, 2] frame pixels -> float[N, 2] table mm."""
        if self.lens is not None:
            pts_px = self.lens.undistort_points(pts_px)
        return apply_homography(self.H_inv, pts_px)

    def mm_per_px(self, at_px: tuple[float, float] | None = None) -> float:
        """Millimetres per pixel at ``at_px`` (default: the frame centre): sqrt of the local area scale."""
        if at_px is None:
            at_px = (self.frame_size[0] / 2.0, self.frame_size[1] / 2.0)
        x, y = at_px
        d = 1.0
        p = self.to_mm(np.array([[x, y], [x + d, y], [x, y + d]], np.float64))
        jx, jy = p[1] - p[0], p[2] - p[0]
        return float(math.sqrt(abs(jx[0] * jy[1] - jx[1] * jy[0])))

    def marker_centres_px(self) -> list[tuple[float, float]]:
        """The frame-px centres :meth:`covers_marker` tests: of each marker seen at calibration, then of each
        marker where the layout puts it."""
        centres = [m.mean(axis=0) for m in self.markers_px.values()]
        centres += [self.to_px(m.mean(axis=0, keepdims=True))[0] for m in self.layout.corners_mm.values()]
        return [(float(c[0]), float(c[1])) for c in centres]

    def covers_marker(self, polygon_px: np.ndarray, centres: list[tuple[float, float]] | None = None) -> bool:
        """Whether the polygon (float[N, 2] frame px, e.g. a card's quad) holds a calibration marker:
        one seen at calibration, or where the layout puts one (a marker not seen at calibration).
        ``centres``: :meth:`marker_centres_px` when the caller tests many polygons (computed here otherwise)."""
        poly = np.asarray(polygon_px).astype(np.float32).reshape(-1, 1, 2)
        return any(cv2.pointPolygonTest(poly, c, False) >= 0
                   for c in (self.marker_centres_px() if centres is None else centres))

    def on_marker(self, points_px: np.ndarray, frame_size: tuple[int, int] | None = None,
                  margin: float = MARKER_SHEET_MARGIN) -> np.ndarray:
        """bool[N]: whether each point (float[N, 2] px of a frame of ``frame_size`` (width, height), default the
        calibration frame's) lies on a calibration marker seen at calibration or on the white paper round it
        (the marker's quad grown about its centre by ``margin`` of its side on every side). A marker is no game
        component: a die or card "seen" there is the marker's own print."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 2)
        out = np.zeros(len(pts), bool)
        if not len(pts) or not self.markers_px:
            return out
        fw, fh = self.frame_size if frame_size is None else frame_size
        scale = np.array([fw / float(self.frame_size[0]), fh / float(self.frame_size[1])])
        for quad in self.markers_px.values():
            q = np.asarray(quad, np.float64).reshape(4, 2) * scale
            centre = q.mean(axis=0)
            grown = (centre + (q - centre) * (1.0 + 2.0 * margin)).astype(np.float32).reshape(-1, 1, 2)
            out |= np.array([cv2.pointPolygonTest(grown, (float(x), float(y)), False) >= 0 for x, y in pts])
        return out

    def footprint_mm(self, width: int, height: int, reach_mm: float = 2000.0) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi): float[2] corners (table mm) of the axis-aligned box around a ``width`` x ``height`` px
        frame's footprint on the table, clipped to ``reach_mm`` around the marker layout (a camera
        looking at the horizon sees no table)."""
        corners = self.to_mm(np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64))
        lay = self.layout
        lo = np.maximum(corners.min(axis=0), [-reach_mm, -reach_mm])
        hi = np.minimum(corners.max(axis=0), [lay.width_mm + reach_mm, lay.height_mm + reach_mm])
        return lo, hi

    def top_down(self, origin_mm: np.ndarray, px_per_mm: float) -> np.ndarray:
        """float[3, 3]: frame px (undistorted, with a lens) -> px of a top-down image of the table whose
        pixel (0, 0) is at ``origin_mm`` and whose scale is ``px_per_mm``."""
        s = px_per_mm
        S = np.array([[s, 0, -origin_mm[0] * s], [0, s, -origin_mm[1] * s], [0, 0, 1]], np.float64)
        return S @ self.H_inv

    def window(self, x: int, y: int, width: int, height: int) -> TableCalibration | None:
        """The calibration of a window of the frame (``x``, ``y``: its top-left, px; ``width`` x ``height``):
        the same table, the window's pixels; None with a lens calibration (its model is of the whole frame)."""
        if self.lens is not None:
            return None
        T = np.array([[1.0, 0.0, -x], [0.0, 1.0, -y], [0.0, 0.0, 1.0]])
        return TableCalibration(T @ self.H, {k: v - np.array([x, y], np.float64) for k, v in self.markers_px.items()},
                                self.layout, self.reprojection_px, (int(width), int(height)))

    def to_json(self) -> dict:
        return {
            "H": np.asarray(self.H).tolist(),
            "markers_px": {str(k): v.tolist() for k, v in self.markers_px.items()},
            "layout": {"corners_mm": {str(k): v.tolist() for k, v in self.layout.corners_mm.items()},
                       "width_mm": self.layout.width_mm, "height_mm": self.layout.height_mm},
            "reprojection_px": self.reprojection_px,
            "frame_size": list(self.frame_size),
            "lens": None if self.lens is None else self.lens.to_json(),
        }

    @classmethod
    def from_json(cls, d: dict) -> TableCalibration:
        lay = d["layout"]
        layout = MarkerLayout({int(k): np.array(v, np.float64) for k, v in lay["corners_mm"].items()},
                              float(lay["width_mm"]), float(lay["height_mm"]))
        return cls(np.array(d["H"], np.float64), {int(k): np.array(v, np.float64) for k, v in d["markers_px"].items()},
                   layout, float(d["reprojection_px"]), tuple(d["frame_size"]),
                   LensCalibration.from_json(d["lens"]) if d.get("lens") else None)


def apply_homography(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """float[N, 2] points mapped by the 3x3 homography ``H`` (``cv2.perspectiveTransform``, float64)."""
    pts = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, np.asarray(H, np.float64)).reshape(-1, 2)


def homography_from_markers(seen: dict[int, np.ndarray], layout: MarkerLayout,
                            config: TableConfig) -> tuple[np.ndarray, float, list[int]]:
    """Fit table-mm -> pixel homography to the corners of the layout markers in ``seen``.

    Returns (H, mean reprojection error px, ids used). Raises CalibrationFailed.
    """
    ids = sorted(i for i in seen if i in layout.corners_mm)
    if len(ids) < max(1, config.min_markers):
        markers = ", ".join(f"#{i}" for i in sorted(layout.corners_mm))  # "#0, #1": as the table check names them
        if not ids:
            raise CalibrationFailed.said(
                N_("saw no calibration marker but need at least {needed} of {markers} (is the sheet in view, flat "
                   "and well lit?)"), needed=config.min_markers, markers=markers)
        raise CalibrationFailed.said(
            N_("saw calibration markers {seen} but need at least {needed} of {markers} (is the sheet in view, flat "
               "and well lit?)"), seen=", ".join(f"#{i}" for i in ids), needed=config.min_markers, markers=markers)
    src = np.concatenate([layout.corners_mm[i] for i in ids])
    dst = np.concatenate([seen[i] for i in ids])
    H, _ = cv2.findHomography(src, dst, 0)
    if H is None:
        raise CalibrationFailed("homography fit failed (markers degenerate?)")
    err = float(np.mean(np.linalg.norm(apply_homography(H, src) - dst, axis=1)))
    limit = reprojection_limit([seen[i] for i in ids], config)
    if err > limit:
        failed = CalibrationFailed.said(
            N_("the markers do not fit the layout: reprojection error {error:.1f} px > {limit:g} px (a marker from "
               "another sheet, or markers laid out otherwise?)"), error=err, limit=round(limit, 2))
        side = float(np.mean([np.linalg.norm(np.diff(q, axis=0, append=q[:1]), axis=1).mean()
                              for q in layout.corners_mm.values()]))
        area = corner_area(seen, side, config.mat_marker_ids)
        failed.area = area if area is not None and area[3] <= limit else None
        raise failed
    return H, err, ids


def reprojection_limit(quads: Sequence[np.ndarray], config: TableConfig | None = None) -> float:
    """The largest mean corner reprojection error (px) a calibration on markers seen as ``quads`` (float[4, 2] frame
    px each) is saved with: :attr:`TableConfig.max_reprojection_frac` of their mean side in px, at least
    :attr:`TableConfig.min_reprojection_px` (40 mm markers 40 px wide: 2 px; 120 px wide: 6 px; 16 px wide: 1 px).

    Raises:
        ValueError: no quad given.
    """
    c = config or TableConfig()
    if not len(quads):
        raise ValueError("reprojection_limit needs at least one marker")
    side = float(np.mean([np.linalg.norm(np.diff(np.asarray(q, np.float64).reshape(4, 2), axis=0,
                                                         append=np.asarray(q, np.float64).reshape(4, 2)[:1]),
                                         axis=1).mean() for q in quads]))
    return max(c.min_reprojection_px, c.max_reprojection_frac * side)


def corner_area(seen: dict[int, np.ndarray], marker_mm: float,
                ids: tuple[int, int, int, int] = (0, 1, 2, 3)) -> tuple[float, float, float, float] | None:
    """The play area of four separate corner markers (:func:`corner_layout`: ``ids`` clockwise from the top-left,
    each ``marker_mm`` wide, their outer corners on the area's corners) that best fits the markers ``seen`` (id ->
    float[4, 2] frame px, ArUco corner order): ``(width mm, height mm, marker_mm, mean reprojection px)``, or None
    when one of ``ids`` is not seen or nothing fits. A photo fixes the area in marker sides only: with markers of
    another side, the width and height scale alike.

    Starts from marker ``ids[0]``'s own homography (its outer corners mapped to mm), then moves width and height by
    shrinking log steps while the fit over all 16 corners improves."""
    if marker_mm <= 0 or not all(i in seen for i in ids):
        return None
    dst = np.concatenate([np.asarray(seen[i], np.float64).reshape(4, 2) for i in ids])

    def error(w: float, h: float) -> float:
        lay = corner_layout(w, h, marker_mm, ids)
        src = np.concatenate([lay.corners_mm[i] for i in ids])
        H, _ = cv2.findHomography(src, dst, 0)
        return math.inf if H is None else float(np.mean(np.linalg.norm(apply_homography(H, src) - dst, axis=1)))

    H0, _ = cv2.findHomography(_square(0.0, 0.0, marker_mm), dst[:4], 0)
    if H0 is None:
        return None
    far = apply_homography(np.linalg.inv(H0), np.array([dst[4 + 1], dst[12 + 3]]))   # the area's TR and BL corners
    w, h = max(float(far[0][0]), 2.5 * marker_mm), max(float(far[1][1]), 2.5 * marker_mm)
    best, step = error(w, h), 0.25
    while step > 1e-4:
        tries = [(w * math.exp(a * step), h * math.exp(b * step)) for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        scored = [(error(cw, ch), cw, ch) for cw, ch in tries if min(cw, ch) > 2.0 * marker_mm]
        top = min(scored, default=(math.inf, w, h))
        if top[0] < best:
            best, w, h = top
        else:
            step /= 2
    return (w, h, float(marker_mm), best) if math.isfinite(best) else None


def calibrate(frame: np.ndarray, layout: MarkerLayout | None = None, config: TableConfig | None = None,
              lens: LensCalibration | None = None) -> TableCalibration:
    """Find the layout's markers in ``frame`` and return the table calibration.

    ``lens``: the camera's lens distortion (:func:`vision.lens.calibrate_lens`); the homography is then
    fitted to the undistorted marker corners.

    Raises:
        BadFrame: the frame is not a BGR image.
        CalibrationFailed: too few markers, they do not fit the layout, or ``lens`` was fitted on frames
            of another size.
    """
    c = config or TableConfig()
    layout = layout or mat_layout(c)
    frame = validate_frame(frame, MIN_SIDE_PX)
    size = (frame.shape[1], frame.shape[0])
    if lens is not None and tuple(lens.image_size) != size:
        raise CalibrationFailed(f"the lens calibration is for {lens.image_size[0]}x{lens.image_size[1]} frames, "
                                f"this frame is {size[0]}x{size[1]}: calibrate the lens in this camera mode")
    seen = detect_markers(frame, c)
    if not set(layout.corners_mm) <= set(seen):   # a blurred or compressed frame's small markers: look again
        seen = {**markers_looked_harder(frame, c), **seen}
    fit = seen if lens is None else {i: lens.undistort_points(q) for i, q in seen.items()}
    H, err, ids = homography_from_markers(fit, layout, c)
    return TableCalibration(H, {i: seen[i] for i in ids}, layout, err, size, lens)


def markers_looked_harder(frame: np.ndarray, config: TableConfig | None = None) -> dict[int, np.ndarray]:
    """The ArUco markers of ``frame`` (uint8 BGR) found on sharpened and enlarged copies of it: id -> float[4, 2]
    corners in the frame's pixels (as :func:`detect_markers`; an id found by several looks: the first look's).

    A small marker with a narrow quiet zone, softened by a camera's motion blur or a strong JPEG, loses its white
    border to the cloth around it and is not found in the frame as it is. The looks, in order: an unsharp mask
    (the frame plus ``sharpen`` x its detail above a Gaussian of ``sharpen_sigma`` px), the frame enlarged 2x
    (bicubic), and the sharpened frame enlarged 2x. For calibration only (once at set-up): it costs about three
    detections more."""
    c = config or TableConfig()
    frame = validate_frame(frame, MIN_SIDE_PX)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detail = cv2.GaussianBlur(gray, (0, 0), c.sharpen_sigma)
    sharp = cv2.addWeighted(gray, 1.0 + c.sharpen, detail, -c.sharpen, 0)
    detector = aruco_detector(c)
    out: dict[int, np.ndarray] = {}
    for img, scale in ((sharp, 1), (gray, 2), (sharp, 2)):
        if scale != 1:
            img = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        corners, ids, _ = detector.detectMarkers(img)
        if ids is None:
            continue
        for q, i in zip(corners, ids.ravel(), strict=True):
            # pixel centres: x in the enlarged image is (x + 0.5) * scale - 0.5 in the frame's
            out.setdefault(int(i), (q.reshape(4, 2).astype(np.float64) + 0.5) / scale - 0.5)
    return out


@dataclass(frozen=True)
class MarkerCheck:
    """Result of re-checking the calibration markers in a later frame.

    Attributes:
        moved: ids whose corners moved beyond tolerance.
        missing: ids not seen in this frame (hidden by a hand or a card; not counted as moved).
        shift_px: id -> mean corner displacement in pixels, for every id seen.
    """

    moved: tuple[int, ...]
    missing: tuple[int, ...]
    shift_px: dict[int, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.moved


MARKER_WINDOW = 1.0
""":func:`markers_where_they_were` looks for a marker this many of its sides round where it was at calibration: room
for its white quiet zone and for a move well beyond the moved check's tolerance."""


def markers_where_they_were(frame: np.ndarray, calibration: TableCalibration,
                            config: TableConfig | None = None) -> dict[int, np.ndarray] | None:
    """Each marker of ``calibration`` found in a window round its corners at calibration (``MARKER_WINDOW`` of its
    side on every side; ``frame`` uint8 BGR): id -> float[4, 2] frame pixel corners, or None when one of them is
    not in its window (hidden, or moved further: then only the whole frame, :func:`detect_markers`, tells).

    The detector reads a window as it reads the frame round the marker (its thresholds and corner refinement are
    local), so a marker found in its window has the corners the whole frame's detection gives it; four windows of
    about 3 x 3 sides are a small part of a table frame (about a tenth of the detection's time at 1280x720)."""
    c = config or TableConfig()
    if not calibration.markers_px:
        return None
    detector = aruco_detector(c)
    h, w = frame.shape[:2]
    out: dict[int, np.ndarray] = {}
    for i, ref in calibration.markers_px.items():
        ref = np.asarray(ref, np.float64).reshape(4, 2)
        pad = MARKER_WINDOW * float(np.mean(np.linalg.norm(ref - np.roll(ref, 1, axis=0), axis=1)))
        x0, y0 = (int(max(0, np.floor(v - pad))) for v in ref.min(axis=0))
        x1, y1 = int(min(w, np.ceil(ref[:, 0].max() + pad))), int(min(h, np.ceil(ref[:, 1].max() + pad)))
        if x1 - x0 < 8 or y1 - y0 < 8:
            return None
        corners, ids, _ = detector.detectMarkers(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY))
        found = [q.reshape(4, 2).astype(np.float64) for q, j in zip(corners, ids.ravel() if ids is not None else [],
                                                                    strict=True) if int(j) == int(i)]
        if not found:
            return None
        best = max(found, key=lambda q: cv2.contourArea(q.astype(np.float32)))
        out[int(i)] = best + np.array([x0, y0], np.float64)
    return out


def check_markers(frame: np.ndarray, calibration: TableCalibration, config: TableConfig | None = None,
                  raise_on_move: bool = False) -> MarkerCheck:
    """Compare the markers in ``frame`` with the ones seen at calibration.

    Raises:
        MarkersMoved: when ``raise_on_move`` and at least one marker moved (the message names them).
    """
    c = config or TableConfig()
    frame = validate_frame(frame, MIN_SIDE_PX)
    seen = markers_where_they_were(frame, calibration, c)
    if seen is None:   # one is hidden or moved away: the whole frame says where each is (or that it is gone)
        seen = detect_markers(frame, c)
    moved, missing, shift = [], [], {}
    for i, ref in calibration.markers_px.items():
        if i not in seen:
            missing.append(i)
            continue
        d = float(np.mean(np.linalg.norm(seen[i] - ref, axis=1)))
        shift[i] = d
        side = float(np.mean(np.linalg.norm(ref - np.roll(ref, 1, axis=0), axis=1)))
        if d > max(c.moved_tolerance_px, c.moved_tolerance_frac * side):
            moved.append(i)
    check = MarkerCheck(tuple(moved), tuple(missing), shift)
    if raise_on_move and moved:
        detail = ", ".join(f"#{i} by {shift[i]:.1f} px" for i in moved)
        raise MarkersMoved(f"calibration markers moved since calibration ({detail}): recalibrate", check)
    return check


# ----------------------------------------------------------------------------------------------- zones


@dataclass(frozen=True)
class Zones:
    """Player zones as named polygons in table mm (or pixels when there is no calibration).

    Attributes:
        polygons: zone name -> float[N, 2] polygon.
        units: ``"mm"`` or ``"px"``: the frame the polygons are in.
    """

    polygons: dict[str, np.ndarray]
    units: str = "mm"

    @classmethod
    def even(cls, names: list[str] | int, width: float, height: float, units: str = "mm") -> Zones:
        """Split a ``width`` x ``height`` table evenly among players seated around it.

        Zones are angular sectors around the table centre, the first centred on the bottom edge
        (the side nearest the box's screen) and the rest following clockwise as seen from above.
        Two players get the bottom and top halves.
        """
        if isinstance(names, int):
            names = [f"player{i + 1}" for i in range(names)]
        n = len(names)
        if n < 1:
            raise ValueError("need at least one zone name")
        cx, cy = width / 2.0, height / 2.0
        R = 2.0 * (width + height)
        rect = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        polys: dict[str, np.ndarray] = {}
        for k, name in enumerate(names):
            if n == 1:
                polys[name] = rect.astype(np.float64)
                continue
            # angles in image coordinates (y down): bottom = +90 deg; clockwise on screen = increasing angle
            a0 = math.radians(90.0 + (k - 0.5) * 360.0 / n)
            a1 = math.radians(90.0 + (k + 0.5) * 360.0 / n)
            steps = max(2, int(math.ceil((a1 - a0) / math.radians(10))))
            arc = [(cx + R * math.cos(a0 + (a1 - a0) * t / steps), cy + R * math.sin(a0 + (a1 - a0) * t / steps))
                   for t in range(steps + 1)]
            sector = np.array([(cx, cy)] + arc, np.float32)
            _, inter = cv2.intersectConvexConvex(rect, sector)
            polys[name] = (inter.reshape(-1, 2).astype(np.float64) if inter is not None else np.zeros((0, 2)))
        return cls(polys, units)

    def zone_of(self, point: tuple[float, float] | np.ndarray) -> str | None:
        """Name of the zone containing ``point`` (same units as the zones), or None."""
        p = (float(point[0]), float(point[1]))
        for name, poly in self.polygons.items():
            if len(poly) >= 3 and cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), p, False) >= 0:
                return name
        return None

    def to_json(self) -> dict:
        return {"units": self.units, "polygons": {k: np.asarray(v).tolist() for k, v in self.polygons.items()}}

    @classmethod
    def from_json(cls, d: dict) -> Zones:
        return cls({k: np.array(v, np.float64) for k, v in d["polygons"].items()}, d.get("units", "mm"))


def zones_of(zones: Zones | None, centres_mm: np.ndarray, polygons_px: list[np.ndarray],
             mm_estimated: bool) -> list[str | None]:
    """The zone of each piece found on the table (a card, a hex), or None.

    Args:
        zones: the player zones, or None (every piece's zone is None).
        centres_mm: float[N, 2] piece centres in table mm (from the calibration, or estimated).
        polygons_px: each piece's float[K, 2] corners in frame px.
        mm_estimated: the mm are an estimate (no calibration): zones in mm are then looked up at the
            pixel centre, as are zones in px.
    """
    n = len(polygons_px)
    if zones is None:
        return [None] * n
    use_mm = zones.units == "mm" and not mm_estimated
    return [zones.zone_of(centres_mm[k] if use_mm else polygons_px[k].mean(axis=0)) for k in range(n)]


def _frame_area(frame_size: tuple[int, int], calibration: TableCalibration | None) -> tuple[np.ndarray, str]:
    """The frame's extent as a rectangle ``float[4, 2]`` in the zones' units (mm with a calibration)."""
    w, h = frame_size
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    if calibration is None:
        return corners, "px"
    lo, hi = calibration.footprint_mm(w, h, reach_mm=math.inf)
    return np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]], np.float64), "mm"


def even_zones(names: Sequence[str], frame_size: tuple[int, int],
               calibration: TableCalibration | None = None) -> Zones:
    """:meth:`Zones.even` over the whole frame: the first player at the bottom edge,
    the others clockwise. In table mm with a calibration (the frame's extent on the table), else px."""
    rect, units = _frame_area(frame_size, calibration)
    lo = rect[0]
    size = rect[2] - rect[0]
    zones = Zones.even(list(names), float(size[0]), float(size[1]), units=units)
    return Zones({k: np.asarray(v, np.float64) + lo for k, v in zones.polygons.items()}, units)


def _clip(poly: np.ndarray, a: np.ndarray, b: float) -> np.ndarray:
    """Sutherland-Hodgman: the part of convex ``poly`` where ``a . x <= b``."""
    out = []
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        fp, fq = float(a @ p) - b, float(a @ q) - b
        if fp <= 0:
            out.append(p)
        if fp * fq < 0:
            out.append(p + (q - p) * (fp / (fp - fq)))
    return np.array(out, np.float64).reshape(-1, 2)


def zones_from_seats(seats: Mapping[str, Sequence[float]], frame_size: tuple[int, int],
                     calibration: TableCalibration | None = None) -> Zones:
    """Player zones from the seat each player tapped: every point of the table belongs to the nearest seat.

    Args:
        seats: player -> ``[x, y]`` where they sit, in the zones' units (table mm with a calibration,
            else frame px).
        frame_size: ``(width, height)`` px of the camera frame (the zones cover its extent).
        calibration: the table calibration or None.

    Returns:
        A :class:`Zones` of convex polygons (one per player) covering the frame.

    Raises:
        ValueError: no seats, or two players on the same point.
    """
    if not seats:
        raise ValueError("no seats to make zones from")
    rect, units = _frame_area(frame_size, calibration)
    pts = {k: np.asarray(v, np.float64).reshape(2) for k, v in seats.items()}
    polys = {}
    for name, p in pts.items():
        poly = rect.copy()
        for other, q in pts.items():
            if other == name:
                continue
            if np.allclose(p, q):
                raise ValueError(f"{name} and {other} tapped the same seat")
            a = q - p  # closer to p than to q: a . x <= a . (p + q) / 2
            poly = _clip(poly, a, float(a @ (p + q) / 2))
            if len(poly) == 0:
                break
        polys[name] = poly
    return Zones(polys, units)
