"""``companion calibrate`` and ``companion print-mat``: the table (and lens) calibration and the sheet it is
made from."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Sequence

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE
from companion.commands.files import not_ours

def cmd_print_mat(path: Path) -> int:
    """``companion print-mat PATH``: write the calibration sheet; 0 written, 1 cannot write."""
    from vision.mat import write_mat

    if path.suffix.lower() not in (".png", ".pdf"):
        print(f"companion print-mat: {path}: name a .png or .pdf file", file=sys.stderr)
        return EXIT_USAGE
    try:
        written = write_mat(path)
    except OSError as exc:
        print(f"companion print-mat: cannot write {path}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    print(f"wrote {written}: print it at 100% (no scaling) and check the 100 mm bar")
    return EXIT_OK

def _calibration_frame(spec: str, warmup: int = 5) -> Any:
    """One frame of ``spec`` for calibrating: a replay's first picture, a live camera's ``warmup``-th
    (its exposure settles first). Raises device.DeviceError / ValueError (unknown spec)."""
    from device import EndOfStream, open_source

    source = open_source(spec, loop=False, hold_frames=1, realtime=False)
    with source:
        frame = source.read()
        if getattr(source, "current_file", None) is None and not str(source.name).startswith("replay"):
            for _ in range(max(0, warmup - 1)):
                try:
                    frame = source.read()
                except EndOfStream:
                    break
    return frame.image, source.name

def cmd_calibrate(spec: str, lens_images: Sequence[Path], out: Path | None,
                  corners: tuple[float, float, float] | None = None) -> int:
    """``companion calibrate``: the table homography (and lens) from the sheet in view; saved as JSON.

    Exit codes: 0 saved; 1 the markers or the lens could not be fitted, or a photo is unreadable;
    3 no camera (or the frame source cannot be opened).
    """
    from companion.calibration import CALIBRATION_FORMAT, default_calibration_path, save_calibration
    from device import BadImage, DeviceError
    from device import decode_image
    from vision import VisionError
    from vision.lens import LensCalibrationFailed, calibrate_lens
    from vision.table import CalibrationFailed, calibrate, corner_layout

    layout = None if corners is None else corner_layout(*corners)
    lens = None
    if lens_images:
        try:
            frames = [decode_image(Path(p)) for p in lens_images]
            lens = calibrate_lens(frames)
        except BadImage as exc:
            print(f"companion calibrate: {exc}", file=sys.stderr)
            return EXIT_INPUT
        except LensCalibrationFailed as exc:
            print(f"companion calibrate: lens: {exc}", file=sys.stderr)
            return EXIT_INPUT
        except VisionError as exc:
            print(f"companion calibrate: lens: {exc}", file=sys.stderr)
            return EXIT_INPUT
    try:
        image, name = _calibration_frame(spec)
    except (DeviceError, ValueError) as exc:
        print(f"companion calibrate: no frame from {spec}: {exc}", file=sys.stderr)
        return EXIT_INPUT if isinstance(exc, BadImage) else EXIT_DEVICE
    try:
        calibration = calibrate(image, layout, lens=lens)
    except CalibrationFailed as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except VisionError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return EXIT_INPUT
    path = out or default_calibration_path()
    problem = not_ours(path, {"format": CALIBRATION_FORMAT})
    if problem:
        print(f"companion calibrate: {problem}", file=sys.stderr)
        return EXIT_INPUT
    try:
        save_calibration(calibration, path, source=str(name))
    except OSError as exc:
        print(f"companion calibrate: cannot write {path}: {exc}", file=sys.stderr)
        return EXIT_INPUT
    w, h = calibration.frame_size
    lens_text = f", lens from {lens.views} views (RMS {lens.rms_px:.2f} px)" if lens is not None else ""
    print(f"saved {path}: {len(calibration.markers_px)} markers, reprojection {calibration.reprojection_px:.2f} px, "
          f"{calibration.mm_per_px():.2f} mm per pixel at the centre of {w}x{h} frames{lens_text}")
    return EXIT_OK
