"""``companion calibrate`` and ``companion print-mat``: the table (and lens) calibration and the sheet it is
made from."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.commands import EXIT_DEVICE, EXIT_INPUT, EXIT_OK, EXIT_USAGE
from companion.commands.files import folder_problem, not_ours
from companion.i18n import _, os_reason, say


def cmd_print_mat(path: Path, force: bool = False) -> int:
    """``companion print-mat PATH [--force]``: write the calibration sheet, making its folder when missing; a file
    already at ``PATH`` (an earlier sheet, or a photo) is replaced only with ``force``, whole or not at all (a full
    card or a power cut keeps it, :func:`vision.mat.write_mat`). 0 written, 1 cannot write (or a file is there), 2
    not a .png or .pdf name, or a folder (a bad command line)."""
    from vision.mat import write_mat

    if path.suffix.lower() not in (".png", ".pdf"):
        print(_("companion print-mat: {path}: name a .png or .pdf file").format(path=path), file=sys.stderr)
        return EXIT_USAGE
    if path.is_dir():
        print(_("companion print-mat: {path} is a folder: give a file name").format(path=path), file=sys.stderr)
        return EXIT_USAGE
    if path.exists() and not force:
        print(_("companion print-mat: {path} exists: not overwritten (give --force to replace it)").format(path=path),
              file=sys.stderr)
        return EXIT_INPUT
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True)
        written = write_mat(path)
    except OSError as exc:
        print(
            _("companion print-mat: cannot write {path}: {problem}").format(
                path=path, problem=say(os_reason(exc))
            ),
            file=sys.stderr,
        )
        return EXIT_INPUT
    print(_("wrote {path}: print it at 100% (no scaling) and check the 100 mm bar").format(path=written))
    return EXIT_OK

def _calibration_frame(spec: str, warmup: int = 5) -> Any:
    """One frame of ``spec`` for calibrating: a replay's first picture, a live camera's ``warmup``-th
    (its exposure settles first). Raises device.DeviceError / ValueError (unknown spec)."""
    from device import EndOfStream, open_source

    source = open_source(spec, loop=False, hold_frames=1, realtime=False)
    with source:
        frame = source.read()
        if getattr(source, "current_file", None) is None and not str(source.name).startswith("replay"):
            for _frame in range(max(0, warmup - 1)):
                try:
                    frame = source.read()
                except EndOfStream:
                    break
    return frame.image, source.name

def cmd_calibrate(spec: str, lens_images: Sequence[Path], out: Path | None,
                  corners: tuple[float, float, float] | None = None, deck_name: str | None = None) -> int:
    """``companion calibrate``: the table homography (and lens) from the sheet in view; saved as JSON. With
    ``--deck DECK`` and cards of that deck in view, whether this camera mirrors them is decided once and kept with the
    calibration (:func:`vision.cards.decide_mirror`; the decisions for other decks in the file are kept).

    Exit codes: 0 saved; 1 the markers or the lens could not be fitted, or a photo is unreadable, or ``out``
    cannot be written; 2 ``out`` is a folder (a bad command line, said before the camera is opened); 3 no camera
    (or the frame source cannot be opened), or no such deck.
    """
    from companion.commands import InputError
    from companion.commands.files import load_deck

    deck = None
    if deck_name is not None:
        try:
            deck = load_deck(deck_name, want="card", option="--deck")
        except InputError as exc:
            print(_("companion calibrate: {problem}").format(problem=say(exc)), file=sys.stderr)
            return exc.code
    from companion.calibration import default_calibration_path, save_calibration
    from device import BadImage, DeviceError, decode_image
    from vision import VisionError
    from vision.lens import LensCalibrationFailed, calibrate_lens
    from vision.table import CalibrationFailed, calibrate, corner_layout

    path = out or default_calibration_path()
    problem, code = _output_problem(path, out is not None)  # said before the camera is opened, not after the sheet
    if problem:
        print(_("companion calibrate: {problem}").format(problem=problem), file=sys.stderr)
        return code
    layout = None if corners is None else corner_layout(*corners)
    lens = None
    if lens_images:
        try:
            frames = [decode_image(Path(p)) for p in lens_images]
            lens = calibrate_lens(frames)
        except BadImage as exc:
            print(_("companion calibrate: {problem}").format(problem=say(exc)), file=sys.stderr)
            return EXIT_INPUT
        except LensCalibrationFailed as exc:
            print(_("companion calibrate: lens: {problem}").format(problem=say(exc)), file=sys.stderr)
            return EXIT_INPUT
        except VisionError as exc:
            print(_("companion calibrate: lens: {problem}").format(problem=say(exc)), file=sys.stderr)
            return EXIT_INPUT
    try:
        image, name = _calibration_frame(spec)
    except (DeviceError, ValueError) as exc:
        print(
            _("companion calibrate: no frame from {spec}: {problem}").format(spec=spec, problem=say(exc)),
            file=sys.stderr,
        )
        return EXIT_INPUT if isinstance(exc, BadImage) else EXIT_DEVICE
    try:
        calibration = calibrate(image, layout, lens=lens)
    except CalibrationFailed as exc:
        print(_("companion calibrate: {problem}").format(problem=_corner_hint(exc)), file=sys.stderr)
        return EXIT_INPUT
    except VisionError as exc:
        print(_("companion calibrate: {problem}").format(problem=say(exc)), file=sys.stderr)
        return EXIT_INPUT
    mirror = _kept_mirror(path)
    mirror_text = ""
    if deck is not None:
        from vision.cards import decide_mirror

        check = decide_mirror(image, deck, calibration)
        if check.mirrored is None:
            mirror_text = _("; mirror for deck {deck} not decided ({cards} of its cards in view, 3 needed): the "
                            "game's first read decides it").format(deck=deck.name, cards=check.cards)
        else:
            mirror[deck.name] = check.mirrored
            mirror_text = (
                _("; this camera mirrors the cards of deck {deck} (decided on {cards} cards)")
                if check.mirrored
                else _("; this camera does not mirror the cards of deck {deck} (decided on {cards} cards)")
            ).format(deck=deck.name, cards=check.cards)
    try:
        save_calibration(calibration, path, source=str(name), mirror=mirror)
    except OSError as exc:
        print(
            _("companion calibrate: cannot write {path}: {problem}").format(
                path=path, problem=say(os_reason(exc))
            ),
            file=sys.stderr,
        )
        return EXIT_INPUT
    w, h = calibration.frame_size
    said = dict(path=path, markers=len(calibration.markers_px), error=calibration.reprojection_px,
                mm=calibration.mm_per_px(), w=w, h=h)
    if lens is not None:
        print(_("saved {path}: {markers} markers, reprojection {error:.2f} px, {mm:.2f} mm per pixel at the centre of "
                "{w}x{h} frames, lens from {views} views (RMS {rms:.2f} px)").format(**said, views=lens.views,
                                                                                    rms=lens.rms_px) + mirror_text)
    else:
        print(_("saved {path}: {markers} markers, reprojection {error:.2f} px, {mm:.2f} mm per pixel at the centre of "
                "{w}x{h} frames").format(**said) + mirror_text)
    return EXIT_OK


def _corner_hint(exc: Any) -> str:
    """A failed calibration's problem (a :class:`vision.table.CalibrationFailed`) in the command's language, and when
    the four markers in view fit separate markers at the corners of a play area (``exc.area``: width, height and a
    marker's side in mm, as the photo shows them), how big that area is about and the ``--corners`` option that
    describes it: without ``--corners`` the markers are taken for the A4 sheet of ``print-mat``, and a photo gives the
    area only in marker sides, so the player measures it. A suggestion `--corners` would refuse (markers said 1e-9 mm
    fit an area that rounds to 0x0 mm) is left out: the problem alone."""
    import argparse

    from companion.cli_types import corners_arg

    area = getattr(exc, "area", None)
    if area is None:
        return say(exc)
    width, height, side = round(area[0]), round(area[1]), area[2]
    try:  # markers said 1e-9 mm fit an area that rounds to 0x0: no suggestion --corners itself refuses
        corners_arg(f"{width}x{height}:{side:g}")
    except argparse.ArgumentTypeError:
        return say(exc)
    return _("{problem}; they fit four separate markers at the corners of a play area of about {width}x{height} mm if "
             "each marker is {side:g} mm: measure the area (outer corner to outer corner) and a marker's black square, "
             "then give them as --corners WIDTHxHEIGHT:SIDE, e.g. --corners {width}x{height}:{side:g}").format(
        problem=say(exc), width=width, height=height, side=side)


def _output_problem(path: Path, given: bool) -> tuple[str, int]:
    """Why the calibration cannot be saved at ``path`` and the exit code, ``("", 0)`` when it can: a folder is there
    (exit 2 when the command line gave ``path`` with ``--out``, ``given``: a bad command line; else 1), another
    program's file is there (:func:`not_ours`), or its folder is missing and cannot be made (it is made when it
    can): exit 1."""
    from companion.calibration import CALIBRATION_FORMAT

    if given and (problem := folder_problem(path, "--out")) is not None:
        return problem, EXIT_USAGE
    problem = not_ours(path, {"format": CALIBRATION_FORMAT})
    if problem:
        return problem, EXIT_INPUT
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True)
    except OSError as exc:
        return _("cannot write {path}: {problem}").format(path=path, problem=say(os_reason(exc))), EXIT_INPUT
    return "", EXIT_OK


def _kept_mirror(path: Path) -> dict[str, bool]:
    """The mirror decided per deck in the calibration at ``path`` before (kept when it is made again: the camera is
    the same), or {}."""
    import json

    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    mirror = doc.get("mirror") if isinstance(doc, dict) else None
    return {str(k): v for k, v in mirror.items() if isinstance(v, bool)} if isinstance(mirror, dict) else {}
