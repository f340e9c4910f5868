"""How far markers may be from the layout they are calibrated with (:func:`vision.table.reprojection_limit`): a share
of the markers' size in the frame, so one wrong layout gets one verdict whatever the camera's resolution or the
table's size in the frame."""

from __future__ import annotations

import numpy as np
import pytest

from vision.table import CalibrationFailed, calibrate, corner_layout, reprojection_limit


def square(side: float, x: float = 0.0, y: float = 0.0) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float64)


def test_the_limit_is_a_twentieth_of_the_markers_side_and_never_below_a_pixel():
    # mean side 40 px -> 40 / 20 = 2 px; 120 px -> 6 px; 16 px -> 0.8 px, raised to the 1 px floor
    assert reprojection_limit([square(40)]) == pytest.approx(2.0)
    assert reprojection_limit([square(120, 500, 300)]) == pytest.approx(6.0)
    assert reprojection_limit([square(16)]) == pytest.approx(1.0)
    # markers 40 and 80 px wide (one nearer the camera): mean side 60 px -> 3 px
    assert reprojection_limit([square(40), square(80, 900, 500)]) == pytest.approx(3.0)
    with pytest.raises(ValueError, match="at least one marker"):
        reprojection_limit([])


@pytest.fixture(scope="module")
def tables():
    from bench.table_reader import game_ids
    from vision.synth_full import full_table

    out = {}
    for size in ((640, 360), (2304, 1296)):
        table = full_table("roll", game_ids()["roll"], 1, image_size=size)
        out[size] = (table, table.render(frame_seed=0))
    return out


@pytest.mark.parametrize("size", [(640, 360), (2304, 1296)])
def test_one_wrong_layout_gets_one_verdict_at_any_resolution(tables, size):
    """The full Roll table's four corner markers are 40 mm wide. Said 45 mm, each marker is an eighth larger than it
    lies, its corners about 2.5 mm out along each side from its centre: about a tenth of its side, at any resolution,
    so refused (a fixed 4 px passed it on the small frame, where the markers are about 35 px wide). The area said 5 %
    larger both ways with the right markers keeps each marker's shape and misplaces its corners by a few hundredths
    of its side: saved (a fixed 4 px refused it on the large frame, where the markers are about 128 px wide). The
    layout laid out is saved with an error under a hundredth of the side."""
    table, frame = tables[size]
    w, h = table.layout.width_mm, table.layout.height_mm
    good = calibrate(frame, corner_layout(w, h, 40.0))
    sides = np.mean([np.linalg.norm(np.diff(q, axis=0, append=q[:1]), axis=1).mean() for q in good.markers_px.values()])
    assert good.reprojection_px < 0.01 * sides
    with pytest.raises(CalibrationFailed, match="do not fit the layout"):
        calibrate(frame, corner_layout(w, h, 45.0))
    wide = calibrate(frame, corner_layout(w * 1.05, h * 1.05, 40.0))
    assert 0.01 * sides < wide.reprojection_px < 0.05 * sides
