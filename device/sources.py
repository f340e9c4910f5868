"""Build a :class:`~device.camera.CameraSource` from the ``--source`` spec string."""

from __future__ import annotations

import inspect
import logging
import os
from pathlib import Path
from typing import Any

from device.camera import CameraSource
from device.errors import N_, CameraNotFound, DeviceError, UnknownSourceSpec
from device.opencv_source import OpenCVSource
from device.picam import Picamera2Source, picamera2_status
from device.replay import IMAGE_EXTENSIONS, VIDEO_EXTENSIONS, ReplaySource

__all__ = ["open_source", "parse_source", "SPEC_FORMS"]

log = logging.getLogger(__name__)

SPEC_FORMS = (
    "auto",
    "picamera2[:N]",
    "opencv:N",
    "opencv:/path/video.mp4",
    "replay:/path",
    "/path/to/folder",
    "/path/to/video.mp4",
    "/path/to/photo.jpg",
)
"""The accepted spec forms, as shown in error messages and ``--help``."""

_CLASSES: tuple[type[CameraSource], ...] = (Picamera2Source, OpenCVSource, ReplaySource)


def _options(cls: type[CameraSource]) -> set[str]:
    """Keyword options of a source class (every ``__init__`` parameter after the first)."""
    params = list(inspect.signature(cls.__init__).parameters)[2:]  # drop self and the device/path
    return set(params)


def _build(cls: type[CameraSource], target: Any, kw: dict[str, Any]) -> CameraSource:
    """``cls(target, **kw)`` keeping only the options ``cls`` takes.

    One call site can pass e.g. replay options to whatever ``auto`` picks; an option that no
    source takes is a typo and raises TypeError.
    """
    known = set().union(*(_options(c) for c in _CLASSES))
    unknown = sorted(set(kw) - known)
    if unknown:
        raise TypeError(f"open_source() got unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    accepted = _options(cls)
    dropped = sorted(set(kw) - accepted)
    if dropped:
        log.debug("%s ignores option(s) %s", cls.__name__, ", ".join(dropped))
    return cls(target, **{k: v for k, v in kw.items() if k in accepted})  # type: ignore[call-arg]


def _looks_like_path(spec: str) -> bool:
    if os.sep in spec or "/" in spec or spec.startswith((".", "~")):
        return True
    if Path(spec).suffix.lower() in VIDEO_EXTENSIONS + IMAGE_EXTENSIONS:
        return True
    return os.path.isdir(spec)


def _auto(kw: dict[str, Any]) -> CameraSource:
    count, picamera2_reason = picamera2_status()
    if count > 0:
        return _build(Picamera2Source, 0, kw)
    probe = _build(OpenCVSource, 0, kw)
    try:
        probe.open()
    except DeviceError as exc:
        raise CameraNotFound.said(
            N_("no camera found (auto): picamera2: {picamera2}; opencv:0: {opencv}. Connect a camera"),
            picamera2=picamera2_reason, opencv=exc.without_demo_hint(), demo_hint=True,
        ) from exc
    probe.close()  # returned closed, like every other spec; open() reopens it
    return probe


def open_source(spec: str, **kw: Any) -> CameraSource:
    """Return the camera source named by ``spec``, not yet opened (use it in a ``with`` block).

    Specs (see :data:`SPEC_FORMS`):

    - ``"auto"``: the Pi camera if ``picamera2`` is importable and libcamera lists a camera, else
      the USB webcam ``opencv:0`` if it opens (probed, then closed again), else CameraNotFound;
    - ``"picamera2"`` / ``"picamera2:N"``: :class:`~device.picam.Picamera2Source` camera N;
    - ``"opencv:N"`` / ``"opencv:/path/video.mp4"``: :class:`~device.opencv_source.OpenCVSource`;
    - ``"replay:/path"``, a folder, a photo or a video file path (by extension):
      :class:`~device.replay.ReplaySource`.

    Keyword options go to the chosen class; options that only another source class takes are
    ignored (so ``open_source(spec, hold_frames=30, loop=True)`` works for any spec).

    Raises:
        UnknownSourceSpec: ``spec`` matches no form (a ``ValueError``; the message lists the forms).
        CameraNotFound: ``"auto"`` found no camera.
        TypeError: an option no source class takes.
    """
    kind, target = parse_source(spec)
    if kind == "auto":
        return _auto(kw)
    cls = {"picamera2": Picamera2Source, "opencv": OpenCVSource, "replay": ReplaySource}[kind]
    return _build(cls, target, kw)


def parse_source(spec: str) -> tuple[str, Any]:
    """Which source ``spec`` names, without opening or building anything (``companion config check`` checks
    ``camera.source`` with it; :func:`open_source` builds from it).

    Returns:
        ``("auto", None)``, ``("picamera2", N)``, ``("opencv", N or a video path)`` or ``("replay", a folder,
        photo or video path)``.

    Raises:
        UnknownSourceSpec: ``spec`` matches no form of :data:`SPEC_FORMS` (the message lists them).
    """
    text = str(spec).strip()
    lowered = text.lower()
    if lowered == "auto":
        return "auto", None
    if lowered == "picamera2" or lowered.startswith("picamera2:"):
        number = text.partition(":")[2] or "0"
        if not number.isdigit():
            raise _unknown(N_("unknown camera source {spec} (the camera number after picamera2: must be a number); "
                              "use one of: {forms}"), spec)
        return "picamera2", int(number)
    if lowered.startswith("opencv:"):
        target = text.partition(":")[2]
        if not target:
            raise _unknown(N_("unknown camera source {spec} (opencv: needs a device number or a video file path); "
                              "use one of: {forms}"), spec)
        return "opencv", int(target) if target.isdigit() else target
    if lowered.startswith("replay:"):
        target = text.partition(":")[2]
        if not target:
            raise _unknown(N_("unknown camera source {spec} (replay: needs a folder or video file path); use one of: "
                              "{forms}"), spec)
        return "replay", target
    if text and _looks_like_path(text):
        return "replay", text
    raise _unknown(N_("unknown camera source {spec} (it is not a known form, an existing folder or a video/photo file "
                      "name); use one of: {forms}"), spec)


def _unknown(template: str, spec: object) -> UnknownSourceSpec:
    """The error for ``spec`` (said in a player's language by ``companion``: ``config check``, the owner page)."""
    return UnknownSourceSpec.said(template, spec=repr(spec), forms=", ".join(SPEC_FORMS))
