"""The box's saved table calibration: what ``companion calibrate`` writes and ``run``/``demo`` load.

File shape (JSON, ``<data dir>/calibration.json`` unless ``--out``/``--calibration`` names another)::

    {"format": "tabletop-companion/calibration", "version": 1,
     "created_at": Unix seconds, "source": "opencv:0" | a photo path,
     "table": vision.table.TableCalibration.to_json()
              ({"H": [[3x3]] table mm -> px, "markers_px": {id: [[x, y] x4]},
                "layout": {"corners_mm": {id: [[x, y] x4]}, "width_mm", "height_mm"},
                "reprojection_px", "frame_size": [w, h],
                "lens": null | {"camera_matrix", "dist_coeffs", "rms_px", "image_size", "views"}}),
     "mirror": {deck name: true | false}}   (optional: whether this camera mirrors the table for a deck)

``"mirror"`` is decided once per deck and camera (:func:`vision.cards.decide_mirror`): by ``companion calibrate
--deck DECK`` with cards of the deck in view, or on a game's first read with enough cards (:func:`keep_mirror`);
the card reader then scores each card one way only.

Without a calibration the card reader works in pixels (positions in mm are estimated from the
deck's card size).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from companion.errors import CompanionError
from companion.i18n import Text, os_reason
from rules.problems import json_reason

__all__ = ["CALIBRATION_FORMAT", "BadCalibrationFile", "deck_mirror", "default_calibration_path", "keep_mirror",
           "load_calibration", "save_calibration"]

CALIBRATION_FORMAT = "tabletop-companion/calibration"
CALIBRATION_VERSION = 1


class BadCalibrationFile(CompanionError, ValueError):
    """A calibration file that is missing, not JSON, or not in the shape above (the message names the file)."""


def default_calibration_path() -> Path:
    """``<data dir>/calibration.json`` (``$TABLETOP_DATA_DIR`` overrides the data directory)."""
    from companion.paths import data_dir

    return data_dir() / "calibration.json"


def save_calibration(calibration: Any, path: Path, source: str = "", mirror: dict[str, bool] | None = None) -> Path:
    """Write ``calibration`` (a :class:`vision.table.TableCalibration`) to ``path`` in the shape above, with the
    ``mirror`` decided per deck (``{deck name: mirrored}``) when given.

    Raises:
        OSError: the file cannot be written.
    """
    doc = {"format": CALIBRATION_FORMAT, "version": CALIBRATION_VERSION, "created_at": time.time(),
           "source": source, "table": calibration.to_json()}
    if mirror:
        doc["mirror"] = {str(k): bool(v) for k, v in mirror.items()}
    return _write(Path(path), doc)


def _write(path: Path, doc: dict[str, Any]) -> Path:
    """Write ``doc`` to ``path`` whole (a temporary file renamed over it). Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError:
        tmp.unlink(missing_ok=True)  # no half-written file left behind
        raise
    return path


def load_calibration(path: Path) -> Any:
    """The :class:`vision.table.TableCalibration` saved at ``path``.

    Raises:
        BadCalibrationFile: no such file, not JSON, another format, or a field missing or malformed.
    """
    from vision.table import TableCalibration

    path = Path(path)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BadCalibrationFile(Text("no calibration at {path}: make one with `companion calibrate`",
                                      path=str(path))) from None
    except IsADirectoryError:
        raise BadCalibrationFile(Text("calibration {path} is a folder: give the calibration file",
                                      path=str(path))) from None
    except RecursionError:
        raise BadCalibrationFile(
            Text("{path} is not a calibration (JSON nested too deeply); run `companion calibrate` again",
                 path=str(path))
        ) from None
    except UnicodeDecodeError:  # a photo or a deck given for the calibration: the codec's byte offset says nothing
        raise BadCalibrationFile(Text("{path} is not a calibration written by `companion calibrate` (not UTF-8 JSON "
                                      "text: a picture or another file?)", path=str(path))) from None
    except json.JSONDecodeError as exc:  # where it breaks, and why in words a player's language has
        raise BadCalibrationFile(Text("calibration {path} is not valid JSON ({problem} at line {line} column "
                                      "{column}); run `companion calibrate` again", path=str(path),
                                      problem=json_reason(exc.msg), line=exc.lineno, column=exc.colno)) from None
    except OSError as exc:
        raise BadCalibrationFile(Text("calibration {path} cannot be read ({problem}); run `companion calibrate` again",
                                      path=str(path), problem=os_reason(exc))) from None
    except ValueError as exc:  # a number of more than 4300 digits
        raise BadCalibrationFile(Text("calibration {path} cannot be read ({problem}); run `companion calibrate` again",
                                      path=str(path), problem=str(exc)[:120])) from None
    if not isinstance(doc, dict) or doc.get("format") != CALIBRATION_FORMAT or not isinstance(doc.get("table"), dict):
        raise BadCalibrationFile(Text("{path} is not a calibration written by `companion calibrate` (expected "
                                      "\"format\": \"{format}\" and a \"table\" object)", path=str(path),
                                      format=CALIBRATION_FORMAT))
    if doc.get("version") != CALIBRATION_VERSION:
        raise BadCalibrationFile(Text("{path}: calibration version {found} is not {version}; run `companion calibrate` "
                                      "again", path=str(path), found=repr(doc.get("version")),
                                      version=CALIBRATION_VERSION))
    try:
        return TableCalibration.from_json(doc["table"])
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BadCalibrationFile(Text("{path}: the table calibration is malformed ({problem}); run "
                                      "`companion calibrate` again", path=str(path),
                                      problem=f"{type(exc).__name__}: {exc}")) from None


def _doc(path: Path) -> dict[str, Any] | None:
    """The calibration file's JSON, or None when it cannot be read as one (:func:`load_calibration` says why)."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == CALIBRATION_FORMAT else None


def deck_mirror(path: Path | None, deck: str) -> bool | None:
    """Whether the camera of the calibration at ``path`` mirrors the table for deck ``deck`` (its name), as
    decided before; None: not decided (or no readable calibration)."""
    doc = None if path is None else _doc(path)
    mirror = (doc or {}).get("mirror")
    value = mirror.get(deck) if isinstance(mirror, dict) else None
    return value if isinstance(value, bool) else None


def keep_mirror(path: Path, deck: str, mirrored: bool) -> None:
    """Keep in the calibration at ``path`` that its camera mirrors the table for ``deck`` (``mirrored``).

    Raises:
        BadCalibrationFile: ``path`` is not a readable calibration (nothing is written).
        OSError: the file cannot be written.
    """
    doc = _doc(path)
    if doc is None:
        raise BadCalibrationFile(Text("{path} is not a calibration written by `companion calibrate`: the mirror of "
                                      "deck {deck} is not kept", path=str(path), deck=str(deck)))
    mirror = doc.get("mirror") if isinstance(doc.get("mirror"), dict) else {}
    doc["mirror"] = {**mirror, str(deck): bool(mirrored)}
    _write(Path(path), doc)
